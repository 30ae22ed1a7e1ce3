package decode

import (
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// modAccept is what one encoding variant of an instruction (its _e64, _dpp
// or _sdwa form) accepts, read from the model's LLVM syntax rows
// (isa.Syntax, LLVM's AMDGPUAsmGFX* pages): "src0:m" marks a source that
// takes modifiers, the modifier list names clamp and omod. A variant
// without a row is not known and nothing is checked.
type modAccept struct {
	known       bool
	src         [3]bool // source i takes modifiers (":m")
	clamp, omod bool
}

// entryMods is the modifier acceptance of an entry's encoding variants.
type entryMods struct {
	vop3, dpp, sdwa modAccept
}

// modsOf reads the rows of en's instruction for the variants fm has:
// the VOP3 row (printed as en.mnemonic) of a VOP3 entry, the _dpp and
// _sdwa rows of a VOP1/VOP2/VOPC one.
func modsOf(fm *format, en *entry) entryMods {
	var m entryMods
	if en.instr == nil {
		return m
	}
	switch fm.kind {
	case KindVOP3, KindVOP3B:
		m.vop3 = syntaxMods(en.instr, en.mnemonic)
	case KindVOP1, KindVOP2, KindVOPC:
		base := llvmName(en.instr, en.name)
		m.dpp = syntaxMods(en.instr, base+"_dpp")
		m.sdwa = syntaxMods(en.instr, base+"_sdwa")
	}
	return m
}

// syntaxMods merges the syntax rows whose mnemonic is mn (one per LLVM
// page the model has): a source or modifier any row accepts is accepted.
func syntaxMods(in *isa.Instruction, mn string) modAccept {
	var m modAccept
	for _, s := range in.Syntax {
		name, _, _ := strings.Cut(strings.TrimSpace(s.Text), " ")
		if name != mn {
			continue
		}
		m.known = true
		for _, o := range s.Operands {
			parts := strings.Split(o, ":")
			i := sourceIndex(parts[0])
			if i < 0 {
				continue
			}
			for _, p := range parts[1:] {
				if p == "m" {
					m.src[i] = true
				}
			}
		}
		for _, mod := range s.Modifiers {
			switch mod {
			case "clamp":
				m.clamp = true
			case "omod":
				m.omod = true
			}
		}
	}
	return m
}

// sourceIndex is the source slot an LLVM syntax operand names (src0,
// vsrc1, ssrc2, src: 0), or -1 for a destination or another operand.
func sourceIndex(name string) int {
	name = strings.TrimLeft(name, "vs")
	if !strings.HasPrefix(name, "rc") {
		return -1
	}
	switch name[2:] {
	case "", "0":
		return 0
	case "1":
		return 1
	case "2":
		return 2
	}
	return -1
}

// intMods says whether source t of the entry takes SDWA's integer
// modifier (sext) rather than the float ones (neg, abs): an integer or
// untyped source, except v_cndmask_b32's data sources, which LLVM gives
// float modifiers.
func (r *renderer) intMods(t opType) bool {
	return t.t != 'f' && t.t != 'h' && r.en.shape != shCndmask
}

// sdwaMods marks an SDWA word invalid where source i carries a modifier
// LLVM's syntax does not give it: any modifier on a source without ":m",
// neg or abs on one that takes sext, sext on one that takes neg and abs.
func (r *renderer) sdwaMods(i int, t opType, neg, abs, sext bool) {
	m := &r.en.mods.sdwa
	if !m.known || !(neg || abs || sext) {
		return
	}
	bad := !m.src[i]
	if r.intMods(t) {
		bad = bad || neg || abs
	} else {
		bad = bad || sext
	}
	if bad {
		r.mark(invalidSrcMod, i)
	}
}

// variant names the encoding variant of the word being rendered, for
// errors: "v_max_f32_sdwa", "v_max_f32_dpp" or the printed mnemonic.
func (r *renderer) variant() string {
	switch r.extra {
	case "SDWA":
		return r.en.name + "_sdwa"
	case "DPP", "DPP8":
		return r.en.name + "_dpp"
	}
	return r.en.mnemonic
}

// floatSources says whether every source of the instruction being
// rendered is a float (LLVM gives a VOPC compare clamp only then:
// integer compares and v_cmp_class have none).
func (r *renderer) floatSources() bool {
	s := r.en.sig
	for i := 0; i < s.nsrc && i < len(s.src); i++ {
		if t := s.src[i].t; t != 'f' && t != 'h' {
			return false
		}
	}
	return true
}
