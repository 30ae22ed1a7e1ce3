package ingest

import (
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxoracle"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// factCorpus is ptxas's facts beyond the documents (ptx.PTXASFacts) with
// the corpus items that put each to the installed ptxas: the checker
// follows those facts, and what pages and /quality say of them is this
// build's ptxas's verdict, not the table's.
type factCorpus struct {
	inst  []int // model index of each fact's instruction
	facts []ptx.PTXASFact
	items [][]int // per fact, its statements' corpus items
}

// addFacts adds the statements of every instruction's ptxas facts to c.
func (c *ptxCorpus) addFacts() *factCorpus {
	fc := &factCorpus{}
	for i := range c.model {
		in := &c.model[i]
		if in.Kind != ptx.KindInstruction {
			continue
		}
		for _, f := range ptx.PTXASFacts(in) {
			var items []int
			for _, pi := range c.addProbes(f.Of, f.Statements) {
				items = append(items, pi.item)
			}
			fc.inst, fc.facts, fc.items = append(fc.inst, i), append(fc.facts, f), append(fc.items, items)
		}
	}
	return fc
}

// apply reports each fact ptxas bears out as a conflict on its
// instruction (ptxas's fact shown as the fact, the documents' beside it)
// and on /quality; a fact this ptxas does not bear out (another version)
// is reported as not verified, with the statement it judged otherwise.
func (fc *factCorpus) apply(a *ptxApplier, model []ptx.Instruction, byName map[string]*isa.Instruction) {
	for k, f := range fc.facts {
		m := &model[fc.inst[k]]
		in := byName[m.Name]
		docProv := isa.Prov{Source: isa.SourcePTXDoc, File: f.File, Line: f.Line}
		if in != nil && f.Form < len(in.Forms) {
			docProv = in.Forms[f.Form].Prov // page forms are the model's, in order, with the path as pages record it
		}
		held, tool, example, first := true, "", "", ""
		for _, it := range fc.items[k] {
			v := a.corpus.verdicts[it]
			chk := toCheck(v, a.tools, nil)
			if example == "" {
				example = v.Stmt.Text
			}
			// A rejection ptxas words as an operand error ("Arguments
			// mismatch") is the fact itself here: the statement's
			// operands are the ones the documented form writes.
			if f.Accepts && chk.Status != isa.PTXVerified || !f.Accepts && v.Status != ptxoracle.Rejected {
				held, first = false, v.Stmt.Text+": "+orDash(chk.Message, chk.Status)
				break
			}
			switch {
			case tool != "":
			case f.Accepts:
				tool = fmt.Sprintf("%s, from PTX ISA %s on %s", chk.Tool, chk.PTXVersion, chk.MinTarget)
			default:
				tool = "ptxas: " + v.Message
			}
		}
		if !held {
			a.rep.NotVerified = append(a.rep.NotVerified, quality.PTXFinding{Mnemonic: m.Name, Statement: f.What,
				Message: "gpuisa's checker holds that ptxas " + verb(f.Accepts) + " this, but this ptxas does not: " + first, Prov: docProv})
			continue
		}
		n := len(fc.items[k])
		said := verb(f.Accepts) + " " + f.What + " (" + tool + ")"
		if n > 1 {
			said += fmt.Sprintf("; %d statements judged, e.g. %s", n, example)
		} else {
			said += "; judged on " + example
		}
		a.rep.BeyondDocuments = append(a.rep.BeyondDocuments, quality.PTXFinding{Mnemonic: m.Name, Statement: example, Fact: "syntax",
			Doc: strings.TrimPrefix(f.Docs, "the documents' "), PTXAS: said, Prov: docProv})
		if in != nil {
			in.Conflicts = append(in.Conflicts, isa.Conflict{
				Fact: factTitle(f.Accepts),
				Values: []isa.ConflictValue{
					{Value: f.Docs, Prov: docProv},
					{Value: "ptxas " + said, Prov: isa.Prov{Source: isa.SourcePTXAS}},
				},
				Note:        "gpuisa's checker (ptx check, the editor) follows ptxas",
				CorrectedBy: isa.SourcePTXAS,
			})
		}
	}
}

func factTitle(accepts bool) string {
	if accepts {
		return "syntax ptxas assembles beyond the documents"
	}
	return "a documented choice ptxas rejects"
}

func verb(accepts bool) string {
	if accepts {
		return "assembles"
	}
	return "rejects"
}
