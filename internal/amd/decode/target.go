package decode

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// ForTarget returns a decoder of d's family for one of its gfx targets: it
// rejects the words of an instruction the model says that target lacks
// (isa.Instruction.Targets, llvm-mc's verdict on the instruction's
// example) while another target of the family has it — a difference
// inside the family, such as RDNA 1's dot products, which gfx1011 and
// gfx1012 have and gfx1010 and gfx1013 lack (llvm-mc 22 rejects their
// words there). An instruction no target of the family assembles is left
// alone: that verdict says more about its example than about the target.
// The result shares d's tables; d is unchanged.
func (d *Decoder) ForTarget(target string) (*Decoder, error) {
	if !slices.Contains(d.arch.Targets, target) {
		return nil, fmt.Errorf("decode: %s is not a target of %s (%v)", target, d.arch.ID, d.arch.Targets)
	}
	nd := &Decoder{arch: d.arch, fam: d.fam, groups: d.groups, byTop: d.byTop, hasShort: d.hasShort, hasVOP3: d.hasVOP3,
		dppL: d.dppL, sdwaL: d.sdwaL, sdwabL: d.sdwabL, pairTmpl: d.pairTmpl, target: target}
	for _, in := range d.instructions() {
		if absentOn(in, target, d.arch.Targets) {
			if nd.absentOn == nil {
				nd.absentOn = map[*isa.Instruction]bool{}
			}
			nd.absentOn[in] = true
		} else if name := spelledOn(in, target); name != "" {
			if nd.spelledOn == nil {
				nd.spelledOn = map[*isa.Instruction]string{}
			}
			nd.spelledOn[in] = name
		}
	}
	return nd, nil
}

// spelledOn is the alias llvm-mc assembles into in's bytes on target where
// it rejects in's own name there (its verdict "unsupported"), or "": the
// target's llvm-objdump prints that name for the word. An instruction
// whose LLVM name is already the one it prints needs none.
func spelledOn(in *isa.Instruction, target string) string {
	if in.Targets[target] != "unsupported" {
		return ""
	}
	for _, al := range in.Aliases {
		if slices.Contains(al.Targets, target) && !al.LLVMName {
			return al.Name
		}
	}
	return ""
}

// mnemonic is what d prints for en: its target's spelling of the
// instruction where it has one (spelledOn), in the place of the name the
// entry's mnemonic starts with (keeping an _e64 or _e32 suffix).
func (d *Decoder) mnemonic(en *entry) string {
	if d.spelledOn == nil {
		return en.mnemonic
	}
	name, ok := d.spelledOn[en.instr]
	if !ok {
		return en.mnemonic
	}
	base := llvmName(en.instr, en.name)
	if rest, cut := strings.CutPrefix(en.mnemonic, base); cut {
		return name + rest
	}
	return en.mnemonic
}

// Target is the gfx target ForTarget gave d, or "" for the whole family.
func (d *Decoder) Target() string { return d.target }

// absentOn says whether the model marks in unsupported on target and
// supported on another of the family's targets, and no alias of it is
// verified on target (Vega's v_mad_mix_f32 is v_fma_mix_f32 on gfx904:
// the opcode is there under LLVM's other name).
func absentOn(in *isa.Instruction, target string, targets []string) bool {
	if in.Targets[target] != "unsupported" {
		return false
	}
	for _, al := range in.Aliases {
		if slices.Contains(al.Targets, target) {
			return false
		}
	}
	for _, t := range targets {
		if t != target && in.Targets[t] == "supported" {
			return true
		}
	}
	return false
}

// instructions lists the model instructions behind d's entries, once each.
func (d *Decoder) instructions() []*isa.Instruction {
	seen := map[*isa.Instruction]bool{}
	var out []*isa.Instruction
	add := func(en *entry) {
		if en != nil && en.instr != nil && !seen[en.instr] {
			seen[en.instr] = true
			out = append(out, en.instr)
		}
	}
	for _, g := range d.groups {
		for _, fm := range g.formats {
			add(fm.single)
			for _, en := range fm.byOpcode {
				add(en)
			}
			for _, en := range fm.dualX {
				add(en)
			}
			for _, en := range fm.dualY {
				add(en)
			}
		}
	}
	return out
}

// notOnTarget is the error for a word whose instruction (or a VOPD half)
// d's target lacks, or nil.
func (d *Decoder) notOnTarget(w0 uint32, fm *format, ens ...*entry) error {
	if d.absentOn == nil {
		return nil
	}
	for _, en := range ens {
		if en != nil && d.absentOn[en.instr] {
			return &NotOnTargetError{Word: w0, Format: fm.Name, Name: en.name, Target: d.target, Arch: d.arch.ID}
		}
	}
	return nil
}

// A NotOnTargetError is a word whose instruction the decoder's target
// lacks while other targets of its family have it (llvm-mc's verdicts).
type NotOnTargetError struct {
	Word                       uint32
	Format, Name, Target, Arch string
}

func (e *NotOnTargetError) Error() string {
	return fmt.Sprintf("0x%08x: %s %s is not on %s (other %s targets have it)", e.Word, e.Format, e.Name, e.Target, e.Arch)
}
