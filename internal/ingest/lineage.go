package ingest

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Renames across generations, checked by the assembler.
//
// Every example is assembled on every gfx target, so llvm-mc has already
// said what it makes of RDNA 2's buffer_atomic_umax_x2 on gfx1100: it
// accepts the old spelling and prints buffer_atomic_max_u64, and its
// encoding carries the MUBUF opcode RDNA 3's guide gives
// buffer_atomic_max_u64. Such a verdict — another family's target prints
// an instruction of that family, and the bytes hold that instruction's
// format and opcode — makes the two spellings one lineage (merge.Lineage).
// Names alone never do.

// lineageLinks collects the renames llvm-mc's verdicts prove, in a stable
// order.
func lineageLinks(archs []isa.Architecture, insts []*isa.Instruction, version string) []merge.Lineage {
	archByID := map[string]*isa.Architecture{}
	for i := range archs {
		archByID[archs[i].ID] = &archs[i]
	}
	byName := map[string]map[string]*isa.Instruction{} // arch -> name -> instruction
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		if byName[in.Arch] == nil {
			byName[in.Arch] = map[string]*isa.Instruction{}
		}
		byName[in.Arch][in.Name] = in
	}
	seen := map[string]bool{}
	var out []merge.Lineage
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD || len(in.Examples) == 0 {
			continue
		}
		for _, d := range in.TargetDetails {
			if d.Status != "supported" || d.Printed == "" {
				continue
			}
			other, ok := isa.ArchForTarget(d.Target)
			if !ok || other == in.Arch {
				continue
			}
			mn, _, _ := strings.Cut(strings.TrimSpace(d.Printed), " ")
			name := merge.StripLLVMSuffix(mn)
			y := byName[other][name]
			if y == nil || name == in.Name || byName[other][in.Name] != nil {
				continue // not an instruction of that family, or the family has this name too
			}
			key := in.Arch + " " + in.Name + " " + other + " " + name
			if seen[key] {
				continue
			}
			enc, ok := asmtext.ParseBytes(d.Encoding)
			if !ok {
				continue
			}
			format, opcode, ok := carriedBy(archByID[other], y, enc)
			if !ok {
				continue
			}
			seen[key] = true
			l := merge.Lineage{Arch: in.Arch, Name: in.Name, OtherArch: other, OtherName: name,
				Evidence: fmt.Sprintf("%s accepts %s's spelling %s on %s and prints %s; the encoding carries %s opcode %d, %s's in %s's guide",
					assemblerName(version), archName(in.Arch), in.Name, d.Target, name, format, opcode, name, archName(other))}
			switch {
			case sameOpcode(in, format, opcode):
				l.Strong = true
				l.Evidence += fmt.Sprintf(", and %s's %s opcode in %s's guide too", in.Name, format, archName(in.Arch))
			case ownExample(in, d.Printed):
				l.Strong = true
				l.Evidence += fmt.Sprintf(", with the operands of the example llvm-mc accepts on %s", archName(in.Arch))
			}
			out = append(out, l)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Arch+a.Name+a.OtherArch < b.Arch+b.Name+b.OtherArch
	})
	return out
}

// ownExample reports whether what llvm-mc printed on the other family's
// target has the operands of one of in's own examples (those accepted on
// in's family): the same line means the same instruction on both. A line
// only the other family accepts says less (llvm-mc maps CDNA 1's
// v_mfma_f32_32x32x4bf16 onto CDNA 3's v_mfma_f32_32x32x4_2b_bf16 only
// with the newer instruction's wider operands).
func ownExample(in *isa.Instruction, printed string) bool {
	_, got, _ := strings.Cut(strings.TrimSpace(printed), " ")
	got = strings.Join(strings.Fields(got), " ")
	for _, ex := range in.Examples {
		_, ops, _ := strings.Cut(strings.TrimSpace(ex.Asm), " ")
		if strings.Join(strings.Fields(ops), " ") == got {
			return true
		}
	}
	return false
}

// sameOpcode reports whether in has opcode in a format of that name: the
// rename kept the opcode (CDNA 2's v_mfma_f32_32x32x4bf16_1k and CDNA 3's
// v_mfma_f32_32x32x4_2b_bf16), which llvm-mc's alias alone does not show
// (it also maps CDNA 1's v_mfma_f32_32x32x4bf16, another opcode, there).
func sameOpcode(in *isa.Instruction, format string, opcode int) bool {
	for _, e := range in.Encodings {
		f := e.Format
		if f == "" {
			f = e.Name
		}
		if strings.EqualFold(f, format) && e.Opcode == opcode {
			return true
		}
	}
	return false
}

// carriedBy finds the encoding of in whose format and opcode the bytes
// hold.
func carriedBy(arch *isa.Architecture, in *isa.Instruction, enc []byte) (string, int, bool) {
	if arch == nil {
		return "", 0, false
	}
	for _, e := range in.Encodings {
		f := formatOf(arch, e)
		if f == nil || e.Opcode < 0 {
			continue
		}
		op, ok := opField(f)
		if ok && carries(enc, f, op, e.Opcode) {
			return f.Name, e.Opcode, true
		}
	}
	return "", 0, false
}

func archName(id string) string {
	for _, a := range isa.Archs() {
		if a.ID == id {
			return a.Name
		}
	}
	return id
}

// applyOtherSpellings marks, on each instruction's target grid, the
// targets that reject its name where another spelling of its lineage (a
// Related rename) assembles: the grid then shows that spelling.
func applyOtherSpellings(insts []*isa.Instruction) int {
	amd := merge.AMDLookup(insts)
	marked := 0
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		for _, rel := range in.Related {
			if !rel.Renamed {
				continue
			}
			other := amd(rel.Arch, rel.Name)
			if other == nil {
				continue
			}
			fam := map[string]bool{}
			for _, a := range isa.Archs() {
				if a.ID == rel.Arch {
					for _, t := range a.Targets {
						fam[t] = true
					}
				}
			}
			for _, d := range other.TargetDetails {
				if !fam[d.Target] || d.Status != "supported" || in.Targets[d.Target] != "unsupported" {
					continue
				}
				if markSpelling(in, d.Target, rel.Name, d.Encoding, d.Printed) {
					marked++
				}
			}
		}
	}
	return marked
}
