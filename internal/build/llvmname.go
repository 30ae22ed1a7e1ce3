package build

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/merge"
	"github.com/gpuisa/gpuisa/internal/verify"
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
		for _, in := range list {
			for _, e := range in.Encodings {
				f := formatOf(arch, e)
				if f == nil || e.Opcode < 0 {
					continue
				}
				op, ok := opField(f)
				if !ok {
					continue
				}
				for _, ref := range refs[f.Name] {
					ws := make([]uint32, len(ref)/4)
					for k := range ws {
						ws[k] = binary.LittleEndian.Uint32(ref[4*k:])
					}
					op.Put(ws, uint64(e.Opcode))
					b := make([]byte, 0, len(ref))
					for _, w := range ws {
						b = binary.LittleEndian.AppendUint32(b, w)
					}
					probes = append(probes, probe{in, f.Name, e.Opcode, len(words)})
					words = append(words, b)
				}
			}
		}
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
	for _, in := range insts {
		if in.Arch != arch.ID {
			continue
		}
		for _, ex := range in.Examples {
			if ex.Target != target || ex.Encoding == "" {
				continue
			}
			b, ok := merge.ParseBytes(ex.Encoding)
			if !ok || len(b) < 4 {
				continue
			}
			w := binary.LittleEndian.Uint32(b)
			for fi := range arch.Formats {
				f := &arch.Formats[fi]
				if f.Width == 0 || len(b) != f.Width/8 || len(refs[f.Name]) >= 3 || !merge.FixedMatch(*f, w) {
					continue
				}
				refs[f.Name] = append(refs[f.Name], b)
			}
		}
	}
	return refs
}

func formatOf(arch *isa.Architecture, e isa.Encoding) *isa.Format {
	name := e.Format
	if name == "" {
		name = e.Name
	}
	for i := range arch.Formats {
		if strings.EqualFold(arch.Formats[i].Name, name) {
			return &arch.Formats[i]
		}
	}
	return nil
}

func opField(f *isa.Format) (isa.Field, bool) {
	for _, fd := range f.Fields {
		if strings.EqualFold(fd.Name, "OP") {
			return fd, true
		}
	}
	return isa.Field{}, false
}
