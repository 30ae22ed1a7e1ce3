// Package quality is the data-quality report of a build: per AMD family,
// how much of what AMD documents LLVM's syntax pages describe and llvm-mc
// accepts, what matches nothing on either side, which instructions LLVM
// rejects, and where llvm-mc's encodings disagree with AMD's identifiers.
// The build computes it (internal/ingest, quality.go) and stores it in the
// database (store.KeyQuality); this package holds its types and text, which
// `gpuisa quality` and the /quality page read.
package quality

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// ShareTarget is the share (in %) of a family's instructions that should
// have an example llvm-mc accepted on one of the family's targets (under
// AMD's name, or in LLVM's spelling where llvm-mc rejects AMD's).
const ShareTarget = 98.0

// Report is the whole data-quality report.
type Report struct {
	// LLVMMC is llvm-mc's version line, "" when it did not run.
	LLVMMC   string `json:"llvm_mc,omitempty"`
	Verified bool   `json:"verified"`
	// Notes say what was not done and why ("llvm-mc not found ...").
	Notes []string `json:"notes,omitempty"`
	// ReaderProblems are what the upstream readers could not recover
	// ("cdna5: line 123: S_SLEEP: ..."), filled in by the build.
	ReaderProblems []string `json:"reader_problems,omitempty"`
	// SyntaxDocs is where LLVM's syntax pages were read from.
	SyntaxDocs string `json:"syntax_docs,omitempty"`
	// Examples says where examples come from.
	Examples string `json:"examples"`
	// Targets are the gfx targets every example was assembled for.
	Targets []string `json:"targets,omitempty"`
	// UnknownTargets are gfx targets gpuisa lists but llvm-mc does not know.
	UnknownTargets []string `json:"unknown_targets,omitempty"`
	// Gaps are what the LLVM found could not check (families whose targets
	// llvm-mc does not know, missing syntax pages), with the fix; the cost
	// model's and the semantics check's are theirs (OracleGaps has all).
	Gaps []OracleGap `json:"gaps,omitempty"`
	Run  RunStats    `json:"run"`
	// Lineage summarises the renames across generations that llvm-mc's
	// verdicts proved.
	Lineage LineageStats `json:"lineage"`
	// Borrowed counts the instructions whose description comes from the
	// same instruction in the nearest family (their guide has none).
	Borrowed int      `json:"borrowed"`
	Families []Family `json:"families"`
	// PTX is NVIDIA's assembler's view of the PTX documentation; nil when
	// the build had no PTX sources.
	PTX *PTXReport `json:"ptx,omitempty"`
	// Cost is LLVM's scheduling model's coverage and its disagreements
	// with the guides; nil when the build did not model costs.
	Cost *CostReport `json:"cost,omitempty"`
	// Sem is what evaluating the pseudocode found (coverage, the check
	// against LLVM's constant folding, differences across vendors); nil
	// when the build did not evaluate it.
	Sem *SemReport `json:"sem,omitempty"`
}

// LineageStats counts the machine-checked renames (see ingest/merge.Lineage).
type LineageStats struct {
	Links          int      `json:"links"`           // (family, spelling) pairs proved the same as another family's
	Refused        int      `json:"refused"`         // links refused: a family would have two members of one lineage
	OtherSpellings int      `json:"other_spellings"` // target-grid cells that show another family's spelling
	RefusedLinks   []string `json:"refused_links,omitempty"`
}

// RunStats describes the llvm-mc run.
type RunStats struct {
	Lines     int `json:"lines"`     // distinct lines assembled per target
	Processes int `json:"processes"` // llvm-mc processes started
	Assembled int `json:"assembled"` // (line, target) pairs given to llvm-mc
	CacheHits int `json:"cache_hits"`
}

// Add counts o's run into s.
func (s *RunStats) Add(o RunStats) {
	s.Lines += o.Lines
	s.Processes += o.Processes
	s.Assembled += o.Assembled
	s.CacheHits += o.CacheHits
}

// Family is the report for one AMD family.
type Family struct {
	Arch    string   `json:"arch"`
	Name    string   `json:"name"`
	Targets []string `json:"targets"` // the family's targets llvm-mc knows
	Pages   []string `json:"pages"`   // LLVM syntax pages describing it

	Instructions int `json:"instructions"`
	WithSyntax   int `json:"with_syntax"`
	WithExample  int `json:"with_example"` // an example accepted on a family target
	// Synthesized counts the WithExample instructions whose only accepted
	// examples gpuisa made from similar instructions' operands.
	Synthesized int `json:"synthesized"`
	// Generated counts the WithExample instructions whose examples llvm-mc
	// wrote itself, disassembling AMD's encoding (ingest/merge.GeneratedProvenance).
	Generated int `json:"generated"`
	// Spelled counts the Rejected instructions shown with an example in
	// LLVM's spelling of their opcode; Share counts them as examples.
	Spelled     int     `json:"spelled"`
	Share       float64 `json:"share"`        // (WithExample + Spelled) / Instructions, %
	MeetsTarget bool    `json:"meets_target"` // Share >= ShareTarget
	// Explanation says why the share is below target.
	Explanation string `json:"explanation,omitempty"`

	// UnmatchedAMD: AMD instructions no LLVM syntax row matches.
	UnmatchedAMD []string `json:"unmatched_amd"`
	// UnmatchedLLVM: names on LLVM's pages no AMD instruction matches.
	UnmatchedLLVM []LLVMOnly `json:"unmatched_llvm"`
	// Rejected: AMD documents them, llvm-mc rejects the name on every
	// target of the family.
	Rejected []Item `json:"rejected"`
	// Unverified: no accepted example for other reasons.
	Unverified []Item `json:"unverified"`
	// GeneratedExamples are the Generated instructions with their example
	// (Reason holds the line).
	GeneratedExamples []Item `json:"generated_examples"`
	// Amendments are the facts gpuisa linked, filled in or moved back
	// from other sources, by kind (Amend*).
	Amendments    []Amendment    `json:"amendments"`
	Compared      int            `json:"compared"` // encodings compared with AMD's identifiers
	Disagreements []Disagreement `json:"disagreements"`
	// DisagreementGroups summarise Disagreements by format and differing bits.
	DisagreementGroups []Group `json:"disagreement_groups,omitempty"`
	// Corrected are the facts of AMD's guide (identifiers, layouts) or of
	// LLVM's syntax pages (operands) that llvm-mc contradicts, which the
	// pages show corrected (the oracle's value as the fact, the
	// document's as the documented variant).
	Corrected []Correction `json:"corrected"`
	// CorrectedGroups count Corrected by fact.
	CorrectedGroups []Count `json:"corrected_groups,omitempty"`
}

// Disagreement is one identifier conflict in a flat form for reports:
// llvm-mc's encoding of an instruction disagrees with AMD's identifier
// (ingest/merge lists them from the model's conflicts).
type Disagreement struct {
	Arch, Name, Format string
	AMD, LLVM          string // identifiers, "0x…"
	Note               string
	Prov               isa.Prov // where AMD states it
}

// Correction is one fact of a document that an oracle corrected: the page
// shows the oracle's value, the document's beside it (ingest/merge lists
// them from the model's conflicts).
type Correction struct {
	Arch     string   `json:"arch"`
	Name     string   `json:"name"`
	Fact     string   `json:"fact"`
	Document string   `json:"document"` // the document's value
	Shown    string   `json:"shown"`    // the oracle's value, shown as the fact
	By       string   `json:"by"`       // the oracle's source id
	Note     string   `json:"note"`
	Prov     isa.Prov `json:"prov"` // where the document states its value
}

// Count is how many items share one key.
type Count struct {
	Key   string `json:"key"`
	Count int    `json:"count"`
}

// LLVMOnly is a name LLVM documents for a family that AMD does not.
type LLVMOnly struct {
	Name string `json:"name"`
	// Accepted is true when llvm-mc assembled an example of it on one of
	// the family's targets.
	Accepted bool `json:"accepted"`
}

// Amendment is one fact of an instruction that gpuisa linked, filled in
// or moved back from other sources (not an oracle's correction of a
// document, which Corrected lists), with how.
type Amendment struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Note string `json:"note"`
}

// Amendment kinds.
const (
	// AmendDescription: the guide gives no description (or a cut
	// one); the same instruction's from the nearest family is shown.
	AmendDescription = "description from another family"
	// AmendMovedText: text the PDF conversion put under a neighbour,
	// given back to its instruction by opcode order.
	AmendMovedText = "text moved back"
	// AmendRename: the instruction is linked to its other spellings
	// in other families on llvm-mc's evidence.
	AmendRename = "rename linked"
)

// AmendmentKinds lists the kinds in display order.
var AmendmentKinds = []string{AmendRename, AmendDescription, AmendMovedText}

// AmendmentCounts counts a family's corrections by kind.
func (f Family) AmendmentCounts() map[string]int {
	out := map[string]int{}
	for _, c := range f.Amendments {
		out[c.Kind]++
	}
	return out
}

// Item is one instruction with a reason.
type Item struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Group is a set of identifier disagreements of one format that differ in
// the same bits.
type Group struct {
	Format string   `json:"format"`
	Bits   string   `json:"bits"` // XOR of the two identifiers ("0x00800000"), when all agree on it
	Count  int      `json:"count"`
	Names  []string `json:"names"`
}

// Summarize fills in what a family's lists and counts imply: the
// disagreement groups, the correction counts, the share of instructions
// with an example and, below target, why (from r's run-wide fields).
func (f *Family) Summarize(r Report) {
	f.DisagreementGroups = groups(f.Disagreements)
	f.CorrectedGroups = countBy(f.Corrected)
	if f.Instructions > 0 {
		f.Share = 100 * float64(f.WithExample+f.Spelled) / float64(f.Instructions)
	}
	f.MeetsTarget = f.Share >= ShareTarget
	if !f.MeetsTarget {
		f.Explanation = explain(*f, r)
	}
}

func groups(ds []Disagreement) []Group {
	idx := map[string]int{}
	patterns := map[string]map[string]bool{}
	var out []Group
	for _, d := range ds {
		var a, l uint64
		fmt.Sscanf(d.AMD, "0x%x", &a)
		fmt.Sscanf(d.LLVM, "0x%x", &l)
		i, ok := idx[d.Format]
		if !ok {
			i = len(out)
			idx[d.Format] = i
			out = append(out, Group{Format: d.Format})
			patterns[d.Format] = map[string]bool{}
		}
		x := fmt.Sprintf("0x%08X", a^l)
		if !patterns[d.Format][x] {
			patterns[d.Format][x] = true
			if out[i].Bits == "" {
				out[i].Bits = x
			}
		}
		out[i].Count++
		out[i].Names = append(out[i].Names, d.Name)
	}
	for i := range out {
		// Many patterns mean the opcode sits elsewhere, not a stray bit.
		if n := len(patterns[out[i].Format]); n > 1 {
			out[i].Bits = fmt.Sprintf("%d different patterns (the opcode bits themselves differ)", n)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
	return out
}

// countBy counts corrections by fact, most first.
func countBy(cs []Correction) []Count {
	idx := map[string]int{}
	var out []Count
	for _, c := range cs {
		i, ok := idx[c.Fact]
		if !ok {
			i = len(out)
			idx[c.Fact] = i
			out = append(out, Count{Key: c.Fact})
		}
		out[i].Count++
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Count > out[j].Count })
	return out
}

// explain says, from the counts, why a family is below the share target.
func explain(f Family, r Report) string {
	if !r.Verified {
		return "not verified: " + strings.Join(r.Notes, "; ")
	}
	if len(f.Targets) == 0 {
		return "llvm-mc knows no gfx target of this family"
	}
	var parts []string
	if len(f.Pages) == 0 {
		parts = append(parts, "LLVM ships no syntax page for "+strings.Join(f.Targets, ", ")+
			", so examples are only those built from other families' pages that llvm-mc accepts here")
	}
	reasons := map[string]int{}
	for _, it := range f.Unverified {
		reasons[reasonKind(it.Reason)]++
	}
	if n := len(f.Rejected); n > 0 {
		parts = append(parts, fmt.Sprintf("%d instructions are rejected by name on every target of the family", n))
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return reasons[keys[i]] > reasons[keys[j]] })
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", reasons[k], k))
	}
	return fmt.Sprintf("%.1f%% below the %.0f%% target: %s", f.Share, ShareTarget, strings.Join(parts, "; "))
}

// reasonKind shortens a per-instruction reason to its kind for counting.
func reasonKind(reason string) string {
	switch {
	case strings.HasPrefix(reason, "no LLVM syntax"):
		return "have no LLVM syntax row or test example anywhere, so nothing to assemble"
	case strings.HasPrefix(reason, "llvm-mc knows the name"):
		return "are known to llvm-mc by name but every built example was rejected (operands the builder gets wrong)"
	case reason == "":
		return "unexplained"
	}
	return reason
}

// CorrectedTotal counts the corrected facts of every family.
func (r Report) CorrectedTotal() int {
	n := 0
	for _, f := range r.Families {
		n += len(f.Corrected)
	}
	return n
}

// WithoutRunCounters is the report with the counts that describe how the
// build ran rather than what it found — processes started, inputs sent,
// answers taken from the caches — set to zero: a build with empty caches
// and one with full caches find the same facts, and the database's build
// id is taken over this form so that both are the same build (ETags stay
// valid, stored pages are kept).
func (r Report) WithoutRunCounters() Report {
	r.Run.Processes, r.Run.Assembled, r.Run.CacheHits = 0, 0, 0
	if r.Cost != nil {
		c := *r.Cost
		c.Processes, c.Analysed, c.CacheHits = 0, 0, 0
		r.Cost = &c
	}
	if r.PTX != nil {
		p := *r.PTX
		p.Run.Processes, p.Run.Assembled, p.Run.CacheHits = 0, 0, 0
		r.PTX = &p
	}
	return r
}
