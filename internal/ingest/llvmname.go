package ingest

import (
	"context"
	"encoding/binary"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
)

// llvmNames looks for the name LLVM gives an instruction whose AMD name
// llvm-mc rejects on every target of the family (CDNA's V_MAD_MIX_F32,
// which LLVM calls v_fma_mix_f32 from gfx906 on). AMD's encoding of the
// instruction is built from the model, its format's identifier and OP field
// with the opcode placed, over the operand bits of a verified example of
// another instruction of the same format, and llvm-mc disassembles it on
// the family's first target. When llvm-mc prints another mnemonic for it,
// that mnemonic becomes an alias (LLVMName) and the disagreement is shown as
// a conflict; results[in].Reason says so too. It returns how many names it
// found.
func llvmNames(ctx context.Context, llvmMC, version string, archs []isa.Architecture, insts []*isa.Instruction,
	results map[*isa.Instruction]merge.Result, famTargets map[string][]string) (int, error) {
	rejected := map[string][]*isa.Instruction{}
	for _, in := range insts {
		if r, ok := results[in]; ok && r.Rejected {
			rejected[in.Arch] = append(rejected[in.Arch], in)
		}
	}
	found := 0
	for i := range archs {
		arch := &archs[i]
		list := rejected[arch.ID]
		if len(list) == 0 || len(famTargets[arch.ID]) == 0 {
			continue
		}
		target := famTargets[arch.ID][0]
		refs := referenceWords(arch, insts, target)
		type probe struct {
			in  *isa.Instruction
			fm  string
			op  int
			pos int // in words
		}
		var probes []probe
		var words [][]byte
		opcodeEncodings(arch, list, func(in *isa.Instruction, e isa.Encoding, f *isa.Format, op isa.Field) {
			for _, ref := range refs[f.Name] {
				ws := toWords(ref)
				op.Put(ws, uint64(e.Opcode))
				probes = append(probes, probe{in, f.Name, e.Opcode, len(words)})
				words = append(words, toBytes(ws))
			}
		})
		if len(words) == 0 {
			continue
		}
		dec, err := verify.DisassembleWith(ctx, verify.Options{LLVMMC: llvmMC}, target, words)
		if err != nil {
			return found, fmt.Errorf("llvm-mc names of rejected %s instructions: %w", arch.ID, err)
		}
		done := map[*isa.Instruction]bool{}
		for _, p := range probes {
			d := dec[p.pos]
			if done[p.in] || d.Error != "" || d.Text == "" {
				continue
			}
			line, _, _ := strings.Cut(strings.TrimSpace(d.Text), "\n")
			mn, _, _ := strings.Cut(strings.TrimSpace(line), " ")
			name := merge.StripLLVMSuffix(strings.ToLower(mn))
			done[p.in] = true
			if name == "" || name == p.in.Name {
				continue
			}
			found++
			note := fmt.Sprintf("llvm-mc (%s) disassembles AMD's encoding of %s (%s opcode %d) as %s on %s; it assembles %s and rejects %s",
				version, strings.ToUpper(p.in.Name), p.fm, p.op, name, target, name, p.in.Name)
			p.in.Aliases = appendLLVMName(p.in.Aliases, isa.Alias{Name: name, Note: note, Prov: isa.Prov{Source: isa.SourceLLVMMC}, LLVMName: true})
			p.in.Conflicts = append(p.in.Conflicts, isa.Conflict{
				Fact: merge.FactLLVMName,
				Values: []isa.ConflictValue{
					{Value: p.in.Name, Prov: amdProv(p.in)},
					{Value: name, Prov: isa.Prov{Source: isa.SourceLLVMMC}},
				},
				Note: "AMD and LLVM name this opcode differently: " + note,
			})
			r := results[p.in]
			r.Reason += "; LLVM's name for this opcode is " + name
			results[p.in] = r
		}
	}
	return found, nil
}

func appendLLVMName(list []isa.Alias, a isa.Alias) []isa.Alias {
	for i := range list {
		if list[i].Name == a.Name {
			list[i].LLVMName = true
			if list[i].Note == "" {
				list[i].Note = a.Note
			}
			return list
		}
	}
	return append(list, a)
}

func amdProv(in *isa.Instruction) isa.Prov {
	for _, p := range in.Sources {
		if p.Source == isa.SourceAMDManual || p.Source == isa.SourceAMDXML {
			return p
		}
	}
	return isa.Prov{Source: isa.SourceAMDManual}
}

// referenceWords collects, per format of arch, up to three encodings
// llvm-mc produced on target for verified examples of the family: words
// whose fixed bits are the format's and whose length is its width.
func referenceWords(arch *isa.Architecture, insts []*isa.Instruction, target string) map[string][][]byte {
	refs := map[string][][]byte{}
	for w := range exampleWords(arch, insts, target) {
		if len(w.bytes) != w.format.Width/8 || len(refs[w.format.Name]) >= 3 {
			continue
		}
		refs[w.format.Name] = append(refs[w.format.Name], w.bytes)
	}
	return refs
}

// exampleWord is an encoding llvm-mc produced for an example of in, paired
// with a format whose fixed bits its first dword carries.
type exampleWord struct {
	in     *isa.Instruction
	bytes  []byte
	format *isa.Format
}

// exampleWords yields, instruction by instruction in model order, the
// encodings (a dword or more) llvm-mc produced on target for examples of
// arch's instructions, once for each format of arch with a width whose
// fixed bits the word carries.
func exampleWords(arch *isa.Architecture, insts []*isa.Instruction, target string) iter.Seq[exampleWord] {
	return func(yield func(exampleWord) bool) {
		for _, in := range insts {
			if in.Arch != arch.ID {
				continue
			}
			for _, ex := range in.Examples {
				if ex.Target != target || ex.Encoding == "" {
					continue
				}
				b, ok := asmtext.ParseBytes(ex.Encoding)
				if !ok || len(b) < 4 {
					continue
				}
				w := binary.LittleEndian.Uint32(b)
				for fi := range arch.Formats {
					f := &arch.Formats[fi]
					if f.Width == 0 || !merge.FixedMatch(*f, w) {
						continue
					}
					if !yield(exampleWord{in: in, bytes: b, format: f}) {
						return
					}
				}
			}
		}
	}
}

func formatOf(arch *isa.Architecture, e isa.Encoding) *isa.Format {
	name := e.Format
	if name == "" {
		name = e.Name
	}
	return formatNamed(arch, name)
}

// opcodeEncodings calls fn for every encoding in list with an opcode whose
// format is the family's and has an opcode field.
func opcodeEncodings(arch *isa.Architecture, list []*isa.Instruction, fn func(in *isa.Instruction, e isa.Encoding, f *isa.Format, op isa.Field)) {
	for _, in := range list {
		for _, e := range in.Encodings {
			f := formatOf(arch, e)
			if f == nil || e.Opcode < 0 {
				continue
			}
			if op, ok := opField(f); ok {
				fn(in, e, f, op)
			}
		}
	}
}

// opField is a format's OP field, where llvm-mc encodes it: the model's
// layouts are the verified ones (package amdlayout).
func opField(f *isa.Format) (isa.Field, bool) {
	for _, fd := range f.Fields {
		if strings.EqualFold(fd.Name, "OP") {
			return fd, true
		}
	}
	return isa.Field{}, false
}

// llvmOnlyNames resolves the names LLVM's syntax pages document for a
// family that AMD's guide does not (llvmOnly, keyed "arch\x00name", with
// their candidate lines). The encoding llvm-mc gave an accepted line is
// looked up among the family's AMD instructions by format and opcode: when
// one has it, the LLVM name is an alias of that instruction (RDNA 3's
// buffer_atomic_add is buffer_atomic_add_u32); when none has, the
// instruction exists only in LLVM's documentation for the family (RDNA 3's
// s_waitcnt_depctr, which compilers emit) and is added, its encoding
// derived from llvm-mc's bytes and every fact marked as LLVM's. The added
// instructions go through the same verification as the others (verify).
func llvmOnlyNames(archs []isa.Architecture, insts []*isa.Instruction, llvmOnly map[string][]merge.Candidate,
	outcomes func(string) ([]verify.Outcome, bool), famTargets map[string][]string, tIndex map[string]int,
	verify func(in *isa.Instruction, arch *isa.Architecture, cands []merge.Candidate) merge.Result,
	results map[*isa.Instruction]merge.Result) (added []*isa.Instruction, aliases int) {
	keys := slices.Sorted(maps.Keys(llvmOnly))
	byOpcode := map[string]*isa.Instruction{} // arch, format, opcode
	opKey := func(arch, format string, op int) string {
		return fmt.Sprintf("%s\x00%s\x00%d", arch, strings.ToUpper(format), op)
	}
	for _, in := range insts {
		for _, e := range in.Encodings {
			f := e.Format
			if f == "" {
				f = e.Name
			}
			if k := opKey(in.Arch, f, e.Opcode); byOpcode[k] == nil && e.Opcode >= 0 {
				byOpcode[k] = in
			}
		}
	}
	archByID := map[string]*isa.Architecture{}
	for i := range archs {
		archByID[archs[i].ID] = &archs[i]
	}
	for _, key := range keys {
		archID, name, _ := strings.Cut(key, "\x00")
		arch := archByID[archID]
		if arch == nil {
			continue
		}
		// The first accepted line and the family target it was accepted on.
		var enc []byte
		var target string
		var cand merge.Candidate
		for _, c := range llvmOnly[key] {
			row, _ := outcomes(c.Asm)
			for _, t := range famTargets[archID] {
				if i, ok := tIndex[t]; ok && i < len(row) && row[i].Supported && len(row[i].Encoding) >= 4 {
					enc, target, cand = row[i].Encoding, t, c
					break
				}
			}
			if enc != nil {
				break
			}
		}
		if enc == nil {
			continue
		}
		// Formats that share their fixed bits (VOP3P and VOP3P-MAI) are
		// told apart by the opcode: the AMD instruction with it, if any.
		fs := identify(arch, enc)
		if len(fs) == 0 {
			continue
		}
		var f *isa.Format
		var op int
		var amd *isa.Instruction
		for _, cand := range fs {
			opf, ok := opField(cand)
			if !ok {
				continue
			}
			o := int(opf.Get(toWords(enc)))
			if f == nil || amdlayout.UsesMAI(name) && cand.Name == amdlayout.MAIFormat {
				f, op = cand, o
			}
			if a := byOpcode[opKey(archID, cand.Name, o)]; a != nil {
				f, op, amd = cand, o, a
				break
			}
		}
		if f == nil {
			continue
		}
		if amd != nil {
			if amd.Name != name {
				amd.Aliases = merge.AppendAlias(amd.Aliases, isa.Alias{Name: name, Prov: isa.Prov{Source: isa.SourceLLVMMC},
					Note: fmt.Sprintf("LLVM's name: llvm-mc assembles %q to %s opcode %d, AMD's %s, on %s", cand.Asm, f.Name, op, strings.ToUpper(amd.Name), target)})
				aliases++
			}
			continue
		}
		unit := "Vector"
		if strings.HasPrefix(strings.ToUpper(f.Name), "S") {
			unit = "Scalar"
		}
		llvm := isa.Prov{Source: isa.SourceLLVMMC}
		in := &isa.Instruction{
			Arch: archID, Name: name, Vendor: isa.VendorAMD, Kind: isa.KindNative, Unit: unit,
			Category: "Documented only by LLVM", Section: f.Name + " (LLVM only)",
			Summary: fmt.Sprintf("Not in AMD's %s guide: LLVM's assembler syntax documents it for this family and llvm-mc assembles it (%s).", arch.Name, target),
			Description: fmt.Sprintf("AMD's %s reference does not list %s. LLVM documents it for this family, and llvm-mc encodes %q as %s opcode %d on %s; "+
				"the encoding below is derived from those bytes. Its semantics are not documented by AMD for this family.", arch.Name, name, cand.Asm, f.Name, op, target),
			Aliases: []isa.Alias{}, Examples: []isa.Example{}, Concepts: []isa.ConceptRef{},
			Targets: map[string]string{}, Opcodes: map[string]map[string]int{},
			Encodings: []isa.Encoding{{Name: f.Name, Format: f.Name, Width: f.Width, Opcode: op, Fields: f.Fields,
				Operands: []isa.Operand{}, Prov: llvm,
				IdentifierCheck: fmt.Sprintf("derived from the bytes llvm-mc produced for %q on %s", cand.Asm, target)}},
			Sources: []isa.Prov{cand.Prov, llvm},
		}
		results[in] = verify(in, arch, llvmOnly[key])
		added = append(added, in)
	}
	return added, aliases
}

// identify finds the formats of an encoding: the most specific ones (most
// fixed bits) whose fixed bits the first dword holds and that have an OP
// field, in the family's order.
func identify(arch *isa.Architecture, enc []byte) []*isa.Format {
	w0 := binary.LittleEndian.Uint32(enc)
	var best []*isa.Format
	bestBits := -1
	for i := range arch.Formats {
		f := &arch.Formats[i]
		if _, ok := opField(f); !ok || !merge.FixedMatch(*f, w0) || f.Width/8 > len(enc) {
			continue
		}
		n := 0
		for _, fd := range f.Fields {
			if fd.Fixed != "" {
				n += len(strings.ReplaceAll(fd.Fixed, "_", ""))
			}
		}
		switch {
		case n > bestBits:
			best, bestBits = []*isa.Format{f}, n
		case n == bestBits:
			best = append(best, f)
		}
	}
	return best
}

// toWords reads little-endian dwords (a short last one zero-padded).
func toWords(b []byte) []uint32 {
	w := make([]uint32, (len(b)+3)/4)
	for i := range w {
		var d [4]byte
		copy(d[:], b[4*i:])
		w[i] = binary.LittleEndian.Uint32(d[:])
	}
	return w
}

func toBytes(w []uint32) []byte {
	b := make([]byte, 0, 4*len(w))
	for _, x := range w {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}
