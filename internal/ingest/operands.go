package ingest

import (
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
)

// assemblerOperands checks every AMD instruction's operands against what
// llvm-mc prints for its first example accepted on a target of the family
// (in the instruction's own form: not DPP or SDWA), and fills them from
// there (merge.AssemblerOperands) where the syntax pass gave none (CDNA 5
// has no LLVM syntax page; some CDNA 4 instructions are newer than the
// GFX940 page) or gave a number of operands llvm-mc contradicts (the GFX12
// page's v_cmpx_* rows list a vdst that llvm-mc rejects); the latter are
// recorded as facts corrected by the assembler. It returns how many
// instructions it filled and corrected.
func assemblerOperands(insts []*isa.Instruction, pages []llvmdoc.Page, pageFile func(string) string,
	outcomes func(string) ([]verify.Outcome, bool), tIndex map[string]int, famTargets map[string][]string, version string) (filled, corrected int) {
	type fileRow struct {
		row  llvmdoc.Syntax
		file string
	}
	rows := map[string]llvmdoc.Syntax{} // "file:line" -> row
	byName := map[string][]fileRow{}    // mnemonic -> rows on every page, newest page first
	for i := len(pages) - 1; i >= 0; i-- {
		p := pages[i]
		f := pageFile(p.File)
		for _, r := range p.Instructions {
			rows[fmt.Sprintf("%s:%d", f, r.Line)] = r
			byName[r.Mnemonic] = append(byName[r.Mnemonic], fileRow{r, f})
		}
	}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		fam := map[string]bool{}
		for _, t := range famTargets[in.Arch] {
			fam[t] = true
		}
		// What llvm-mc printed for every accepted example in the
		// instruction's own form, by operand count.
		byCount := map[int]string{}
		for _, ex := range in.Examples {
			i, ok := tIndex[ex.Target]
			res, _ := outcomes(ex.Asm)
			if ok && fam[ex.Target] && i < len(res) && res[i].Supported && ownForm(res[i]) {
				n := len(merge.PrintedOperands(res[i].Printed))
				if _, seen := byCount[n]; !seen {
					byCount[n] = res[i].Printed
				}
			}
		}
		if hi := len(in.Operands); hi > 0 && len(byCount) == 2 && byCount[hi] != "" && byCount[hi-1] != "" && in.Operands[0].Output && !in.Operands[0].Optional {
			// Written with and without its first result (an atomic's
			// returned value): that operand is optional.
			in.Operands[0].Optional = true
			in.Operands[0].Note = merge.JoinNote(in.Operands[0].Note, fmt.Sprintf("optional: llvm-mc (%s) accepts %q and %q", version, byCount[hi], byCount[hi-1]))
		}
		for _, ex := range in.Examples {
			i, ok := tIndex[ex.Target]
			res, _ := outcomes(ex.Asm)
			if !ok || !fam[ex.Target] || i >= len(res) || !res[i].Supported {
				continue
			}
			printed := res[i].Printed
			if !ownForm(res[i]) {
				continue
			}
			n := len(merge.PrintedOperands(printed))
			if len(in.Operands) > 0 {
				lo, hi := operandRange(in.Operands)
				if n >= lo && n <= hi {
					break // llvm-mc agrees
				}
			}
			// The row the example was built from, else a row of the same
			// mnemonic on another page with as many operands as llvm-mc
			// printed (a synthesized example has no row of its own).
			var row *llvmdoc.Syntax
			file := ""
			if ex.Prov.Source == isa.SourceLLVMDoc {
				if r, ok := rows[fmt.Sprintf("%s:%d", ex.Prov.File, ex.Prov.Line)]; ok {
					row, file = &r, ex.Prov.File
				}
			}
			if row == nil || len(row.Operands) != n {
				for _, fr := range byName[in.Name] {
					if len(fr.row.Operands) == n {
						r := fr.row
						row, file = &r, fr.file
						break
					}
				}
			}
			ops := merge.AssemblerOperands(in.Arch, in.Name, printed, ex.Target, version, row, file)
			if len(ops) == 0 && n > 0 {
				break
			}
			if len(in.Operands) == 0 {
				if len(ops) > 0 {
					in.Operands = ops
					filled++
				}
				break
			}
			var was []string
			for _, o := range in.Operands {
				was = append(was, o.Name)
			}
			in.Conflicts = append(in.Conflicts, isa.Conflict{
				Fact: merge.FactOperands,
				Values: []isa.ConflictValue{
					{Value: strings.Join(was, ", "), Prov: in.Operands[0].Prov},
					{Value: strings.Join(merge.PrintedOperands(printed), ", "), Prov: isa.Prov{Source: isa.SourceLLVMMC}},
				},
				Note: fmt.Sprintf("LLVM's syntax row lists %d operands; llvm-mc (%s) accepts %q on %s with %d, so the operands shown are llvm-mc's",
					len(in.Operands), version, printed, ex.Target, n),
				CorrectedBy: isa.SourceLLVMMC,
			})
			in.Operands = ops
			corrected++
			break
		}
	}
	return filled, corrected
}

// operandRange is how many operands an instruction may be written with:
// all of them, or without the optional ones.
func operandRange(ops []isa.Operand) (lo, hi int) {
	for _, o := range ops {
		if !o.Optional {
			lo++
		}
	}
	return lo, len(ops)
}

// ownForm reports whether llvm-mc printed the instruction in its own form:
// not as DPP or SDWA, and not as one half of a dual-issue pair.
func ownForm(o verify.Outcome) bool {
	mn := strings.ToLower(o.Mnemonic())
	return !strings.Contains(mn, "_dpp") && !strings.Contains(mn, "_sdwa") && !strings.Contains(o.Printed, "::")
}
