package web

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// A PTX page shows what NVIDIA's assembler said about the instruction (the
// build records it in the model: Instruction.Targets, Form.Check,
// Form.ModifierChecks, Example.Checks): the target grid, each form's
// requirements as ptxas confirmed them beside the documentation's, every
// example statement's verdict and the SASS ptxas emits. This file turns
// those facts into what the template shows; it decides nothing itself.

const (
	srcPTXAS = "ptxas"
	srcDoc   = "documentation"

	// The page shows SASS for this many example statements and forms;
	// the rest is in the JSON.
	maxSASSExamples = 6
	maxSASSForms    = 4
	// maxSASSLines bounds one target's listing on the page (an mma form
	// can lower to over a hundred instructions).
	maxSASSLines = 32
)

// ptxView is the ptxas part of a PTX page.
type ptxView struct {
	// Verified: ptxas gave the instruction a verdict on some target;
	// otherwise NotVerified says why not.
	Verified    bool
	NotVerified string
	Grid        []targetRow
	Supported   int
	// Messages group the unsupported targets by ptxas's message, so a
	// reader without a pointer sees the tooltips' text too.
	Messages []targetMessage
	// PTXVersion and MinTarget are the instruction's facts with where
	// each value comes from.
	PTXVersion, MinTarget reqFact
	FormCounts            string
	Forms                 []formRow
	// Examples holds, per example of the instruction, ptxas's verdict on
	// each of its statements.
	Examples [][]stmtVerdict
	SASS     []sassBlock
	// SASSOmitted counts the statements with SASS the page leaves to the
	// JSON and the command line.
	SASSOmitted int
}

type targetMessage struct {
	Targets, Message string
}

// reqFact is one requirement (PTX ISA version or minimum target) as shown:
// Value is the fact, Source where it comes from; Doc is the
// documentation's value where it differs, PTXAS ptxas's lowest where the
// documentation's lower value stands because ptxas cannot test below it.
type reqFact struct {
	Value, Source string
	Doc, PTXAS    string
	Note          string
}

// formRow is one row of the forms table.
type formRow struct {
	F               isa.Form
	Target, Version reqFact
	// Options are the (version, target) trade-offs: "sm_89 with PTX 8.1
	// or sm_90 with PTX 7.8".
	Options string
	// Targets summarizes the sm_ targets ptxas accepts the form on;
	// TargetsDetail lists both sides in full.
	Targets, TargetsDetail string
	Status                 string // isa.PTXVerified, PTXRejected, PTXNotVerified or "" (no check)
	Statement, Message     string
	Tool                   string
	// Folded: the row is behind its group's "show more" on the page;
	// DescInTitle: its group's title says what its description says.
	Folded, DescInTitle bool
	// Raises are the optional parts that need more than the form, grouped
	// by what they need; Rejected the ones ptxas rejects with this form
	// and Unchecked the ones it could not be given, grouped by message.
	Raises, Rejected, Unchecked []modGroup
}

type modGroup struct {
	Label string
	Mods  []string
}

// stmtVerdict is ptxas's verdict on one statement of an example.
type stmtVerdict struct {
	Statement string
	Class     string // "ok", "context", "bad", "unknown"
	Text      string
	Detail    string // the tooltip: floor notes, trade-offs
	Message   string
}

// sassBlock is the SASS of one statement, one tab per target.
type sassBlock struct {
	ID        string
	Statement string
	From      string // "example 2", "form max.f32 d, a, b;"
	Tabs      []sassTab
}

type sassTab struct {
	ID, Target string
	Checked    bool
	Lines      []isa.SASSLine
	More       int // lines not shown
	// Elsewhere counts the lines the SASS page shows and the instruction
	// page does not.
	Elsewhere int
}

// ptxPageView builds the ptxas view of in. targets are the sm_ targets of
// the build's grid (the quality report's), floor the oldest of them.
func ptxPageView(in *isa.Instruction, targets []string) *ptxView {
	v := &ptxView{}
	universe := map[string]bool{}
	for _, t := range targets {
		universe[t] = true
	}
	for t := range in.Targets {
		universe[t] = true
	}
	details := map[string]isa.TargetResult{}
	for _, d := range in.TargetDetails {
		details[d.Target] = d
		universe[d.Target] = true
	}
	order := slices.Collect(maps.Keys(universe))
	ptxorder.SortTargets(order)
	floor := ""
	if len(order) > 0 {
		floor = order[0]
	}

	v.Verified = len(in.Targets) > 0 || len(in.TargetDetails) > 0
	if v.Verified {
		byMessage := map[string][]string{}
		var messages []string
		for _, t := range order {
			row := targetRow{Target: t, Status: in.Targets[t]}
			d, ok := details[t]
			if ok {
				if row.Status == "" {
					row.Status = d.Status
				}
				row.Message = d.Message
			}
			switch row.Status {
			case "supported":
				v.Supported++
				if d.Printed != "" {
					row.Message = "ptxas accepts " + d.Printed
				}
			case "unsupported":
				// ptxas names the target in its message; one line
				// stands for every target it says the same about.
				msg := strings.ReplaceAll(d.Message, "'"+t+"'", "‹target›")
				if msg == "" {
					msg = "ptxas gave no message"
				}
				if _, seen := byMessage[msg]; !seen {
					messages = append(messages, msg)
				}
				byMessage[msg] = append(byMessage[msg], t)
			default:
				row.Status = "not verified"
				row.Message = "no ptxas verdict for this target"
			}
			v.Grid = append(v.Grid, row)
		}
		for _, m := range messages {
			v.Messages = append(v.Messages, targetMessage{Targets: targetList(order, byMessage[m]), Message: m})
		}
	} else {
		v.NotVerified = notVerifiedReason(in, len(targets) > 0)
	}

	v.PTXVersion, v.MinTarget = instructionFacts(in, floor)
	v.FormCounts = formCounts(in.Forms)
	for _, f := range in.Forms {
		v.Forms = append(v.Forms, newFormRow(f, floor, order))
	}
	for _, ex := range in.Examples {
		var vs []stmtVerdict
		for _, c := range ex.Checks {
			vs = append(vs, newStmtVerdict(c, floor))
		}
		v.Examples = append(v.Examples, vs)
	}
	v.SASS, v.SASSOmitted = sassBlocks(in)
	return v
}

// notVerifiedReason says why an instruction has no ptxas grid.
func notVerifiedReason(in *isa.Instruction, ptxasRan bool) string {
	switch {
	case !ptxasRan:
		return "Not verified by ptxas: this database was built without NVIDIA's assembler."
	case in.Entry != "" && in.Entry != "instruction":
		return "Not verified by ptxas: gpuisa assembles the forms and examples of instructions, and this is a " + strings.ReplaceAll(in.Entry, "-", " ") + "."
	}
	var rejected, unverified, checked int
	for _, f := range in.Forms {
		if f.Check == nil {
			continue
		}
		checked++
		switch f.Check.Status {
		case isa.PTXRejected:
			rejected++
		case isa.PTXNotVerified:
			unverified++
		}
	}
	switch {
	case len(in.Forms) == 0:
		return "Not verified by ptxas: no documented form to assemble."
	case checked == 0:
		return "Not verified by ptxas: the build recorded no verdict on this instruction's forms."
	}
	return fmt.Sprintf("Not verified by ptxas: it accepted none of the %d forms (%d rejected, %d not verified); the forms table gives its messages.",
		len(in.Forms), rejected, unverified)
}

// instructionFacts are the instruction's lowest PTX ISA version and
// target: the model's values (the lowest over the forms ptxas verified),
// labelled ptxas's or the documentation's, with the other beside.
func instructionFacts(in *isa.Instruction, floor string) (version, target reqFact) {
	var pV, pT, dV, dT string
	floorV := false
	for _, f := range in.Forms {
		c := f.Check
		if c == nil || c.Status != isa.PTXVerified {
			continue
		}
		if pV == "" || ptxorder.CompareVersions(c.PTXVersion, pV) < 0 {
			pV, floorV = c.PTXVersion, c.Floor
		}
		if pT == "" || ptxorder.CompareTargets(c.MinTarget, pT) < 0 {
			pT = c.MinTarget
		}
		if d := or(f.DocPTXVersion, f.PTXVersion); d != "" && (dV == "" || ptxorder.CompareVersions(d, dV) < 0) {
			dV = d
		}
		if d := or(f.DocMinTarget, f.MinTarget); d != "" && (dT == "" || ptxorder.CompareTargets(d, dT) < 0) {
			dT = d
		}
	}
	if pV == "" && pT == "" {
		note := "not verified by ptxas"
		return reqFact{Value: in.PTXVersion, Source: srcDoc, Note: note}, reqFact{Value: in.MinTarget, Source: srcDoc, Note: note}
	}
	version = settle(in.PTXVersion, pV, dV, ptxorder.CompareVersions)
	target = settle(in.MinTarget, pT, dT, ptxorder.CompareTargets)
	if version.PTXAS != "" && floorV {
		version.Note = "the lowest version ptxas can test"
	}
	if target.PTXAS != "" && target.PTXAS == floor {
		target.Note = "the oldest target ptxas knows"
	}
	return version, target
}

// settle labels a shown value: ptxas's when it is ptxas's lowest, else the
// documentation's (lower than anything ptxas can test).
func settle(shown, ptxasV, docV string, cmp func(a, b string) int) reqFact {
	if shown == "" {
		shown = ptxasV
	}
	r := reqFact{Value: shown}
	switch {
	case ptxasV != "" && cmp(shown, ptxasV) == 0:
		r.Source = srcPTXAS
		if docV != "" && cmp(docV, shown) != 0 {
			r.Doc = docV
		}
	default:
		r.Source = srcDoc
		if ptxasV != "" {
			r.PTXAS = ptxasV
		}
	}
	return r
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func formCounts(forms []isa.Form) string {
	if len(forms) == 0 {
		return ""
	}
	n := map[string]int{}
	for _, f := range forms {
		if f.Check == nil {
			n[""]++
		} else {
			n[f.Check.Status]++
		}
	}
	if n[""] == len(forms) {
		return fmt.Sprintf("%d form%s, none verified by ptxas.", len(forms), plural(len(forms)))
	}
	var parts []string
	for _, p := range []struct {
		key, label string
	}{{isa.PTXVerified, "verified by ptxas"}, {isa.PTXRejected, "rejected by ptxas"}, {isa.PTXNotVerified, "not verified"}, {"", "not checked"}} {
		if n[p.key] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[p.key], p.label))
		}
	}
	return fmt.Sprintf("%d form%s: %s.", len(forms), plural(len(forms)), strings.Join(parts, ", "))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func newFormRow(f isa.Form, floor string, order []string) formRow {
	row := formRow{F: f}
	c := f.Check
	if c == nil {
		row.Target = reqFact{Value: f.MinTarget, Source: srcDoc}
		row.Version = reqFact{Value: f.PTXVersion, Source: srcDoc}
		return row
	}
	row.Status, row.Statement, row.Message, row.Tool = c.Status, c.Statement, c.Message, c.Tool
	if c.Status != isa.PTXVerified {
		// A rejected form's requirements are empty; the row still shows
		// what the documentation claims, beside ptxas's rejection.
		row.Target = reqFact{Value: or(f.DocMinTarget, f.MinTarget), Source: srcDoc}
		row.Version = reqFact{Value: or(f.DocPTXVersion, f.PTXVersion), Source: srcDoc}
	} else {
		row.Target = formFact(f.MinTarget, f.DocMinTarget, c.MinTarget, ptxorder.CompareTargets)
		if row.Target.PTXAS != "" && row.Target.PTXAS == floor {
			row.Target.Note = "the oldest target ptxas knows"
		}
		row.Version = formFact(f.PTXVersion, f.DocPTXVersion, c.PTXVersion, ptxorder.CompareVersions)
		if row.Version.PTXAS != "" && c.Floor {
			row.Version.Note = "the lowest " + c.MinTarget + " allows"
		}
		row.Options = optionsText(c.Options)
		row.Targets, row.TargetsDetail = summarizeTargetsIn(order, f.Targets)
	}
	raises := map[string][]string{}
	var raiseKeys []string
	rejected, unchecked := groupBy(), groupBy()
	uses := map[string]int{}
	for _, mc := range f.ModifierChecks {
		uses[mc.Modifier]++
	}
	for _, mc := range f.ModifierChecks {
		switch {
		case mc.Raises:
			k := requirement(mc.Check)
			if _, ok := raises[k]; !ok {
				raiseKeys = append(raiseKeys, k)
			}
			raises[k] = append(raises[k], modLabel(mc, uses))
		case mc.Check.Status == isa.PTXRejected && (c.Status == isa.PTXVerified || mc.Check.Message != c.Message):
			// A rejected form's parts fail for the form's reason; only
			// other reasons are news.
			rejected.add(mc.Check.Message, modLabel(mc, uses))
		case mc.Check.Status == isa.PTXNotVerified && (c.Status == isa.PTXVerified || mc.Check.Message != c.Message):
			unchecked.add(mc.Check.Message, modLabel(mc, uses))
		}
	}
	for _, k := range raiseKeys {
		row.Raises = append(row.Raises, modGroup{Label: k, Mods: raises[k]})
	}
	row.Rejected, row.Unchecked = rejected.groups(), unchecked.groups()
	return row
}

// modLabel names an optional part: the modifier, with the template
// variable it is a choice of where one modifier fills several in the form
// (".col for .alayout", ".col for .blayout").
func modLabel(mc isa.ModifierCheck, uses map[string]int) string {
	if mc.Variable != "" && mc.Variable != mc.Modifier && uses[mc.Modifier] > 1 {
		return mc.Modifier + " for " + mc.Variable
	}
	return mc.Modifier
}

// formFact labels a verified form's requirement: ptxas's value when the
// shown one is ptxas's, else the documentation's (which ptxas cannot test
// below).
func formFact(shown, doc, got string, cmp func(a, b string) int) reqFact {
	if shown == "" || cmp(shown, got) == 0 {
		return reqFact{Value: got, Source: srcPTXAS, Doc: doc}
	}
	return reqFact{Value: shown, Source: srcDoc, PTXAS: got}
}

// requirement is what a verified statement needs: "PTX 7.0, sm_80".
func requirement(c isa.PTXCheck) string {
	s := "PTX " + c.PTXVersion + ", " + c.MinTarget
	if o := optionsText(c.Options); o != "" {
		s += " (" + o + ")"
	}
	return s
}

func optionsText(opts []isa.PTXOption) string {
	var parts []string
	for _, o := range opts {
		parts = append(parts, o.MinTarget+" with PTX "+o.PTXVersion)
	}
	return strings.Join(parts, ", or ")
}

// grouper collects modifiers by message, in first-seen order.
type grouper struct {
	keys []string
	mods map[string][]string
}

func groupBy() *grouper { return &grouper{mods: map[string][]string{}} }

func (g *grouper) add(key, mod string) {
	if key == "" {
		key = "no message"
	}
	if _, ok := g.mods[key]; !ok {
		g.keys = append(g.keys, key)
	}
	g.mods[key] = append(g.mods[key], mod)
}

func (g *grouper) groups() []modGroup {
	var out []modGroup
	for _, k := range g.keys {
		out = append(out, modGroup{Label: k, Mods: g.mods[k]})
	}
	return out
}

// summarizeTargets describes the targets a form is supported on in a few
// words ("sm_90a only", "sm_80 and newer", "sm_100 to sm_110, a and f
// targets only"), and lists both sides in full for the tooltip.
func summarizeTargets(targets map[string]string) (summary, detail string) {
	order := slices.Collect(maps.Keys(targets))
	ptxorder.SortTargets(order)
	return summarizeTargetsIn(order, targets)
}

// summarizeTargetsIn is summarizeTargets with the targets' order given
// (order holds every key of targets, sorted, and may hold more): a page
// sorts its targets once, not once per form.
func summarizeTargetsIn(universe []string, targets map[string]string) (summary, detail string) {
	order := make([]string, 0, len(targets))
	for _, t := range universe {
		if _, ok := targets[t]; ok {
			order = append(order, t)
		}
	}
	if len(order) != len(targets) { // a target the universe lacks
		order = slices.Collect(maps.Keys(targets))
		ptxorder.SortTargets(order)
	}
	var sup, unsup []string
	for _, t := range order {
		if targets[t] == "supported" {
			sup = append(sup, t)
		} else {
			unsup = append(unsup, t)
		}
	}
	detail = "Supported: " + orNone(targetList(order, sup)) + ". Not supported: " + orNone(targetList(order, unsup)) + "."
	switch {
	case len(order) == 0:
		return "", ""
	case len(sup) == 0:
		return "no target", detail
	case len(unsup) == 0:
		return "every target", detail
	case len(sup) == 1:
		return sup[0] + " only", detail
	}
	return describeRange(order, sup), detail
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// describeRange names the smallest range of targets (from the first
// supported one to the last, of the target kinds supported: plain, f, a)
// that holds every supported target, and the targets in it that are not.
func describeRange(order, sup []string) string {
	in := map[string]bool{}
	kinds := map[string]bool{}
	hi := -1
	for _, t := range sup {
		in[t] = true
		kinds[ptxorder.TargetSuffix(t)] = true
		hi = max(hi, ptxorder.TargetNumber(t))
	}
	lo := slices.Index(order, sup[0])
	var excluded []string // kinds in the range that are never supported
	var except []string
	seenKind := map[string]bool{}
	for _, t := range order[lo:] {
		if ptxorder.TargetNumber(t) > hi {
			break
		}
		k := ptxorder.TargetSuffix(t)
		if !kinds[k] {
			if !seenKind[k] {
				seenKind[k] = true
				excluded = append(excluded, k)
			}
			continue
		}
		if !in[t] {
			except = append(except, t)
		}
	}
	if len(except) > 3 {
		return targetList(order, sup)
	}
	newest := ptxorder.TargetNumber(order[len(order)-1])
	first, last := sup[0], sup[len(sup)-1]
	qualifier := ""
	if len(excluded) > 0 {
		first = fmt.Sprintf("sm_%d", ptxorder.TargetNumber(first))
		last = fmt.Sprintf("sm_%d", hi)
		var names []string
		for _, k := range []string{"", "f", "a"} {
			if kinds[k] {
				names = append(names, map[string]string{"": "plain", "f": "f", "a": "a"}[k])
			}
		}
		qualifier = ", " + strings.Join(names, " and ") + " targets only"
	}
	s := first + " to " + last
	if hi == newest {
		s = first + " and newer"
	}
	s += qualifier
	if len(except) > 0 {
		s += ", except " + strings.Join(except, ", ")
	}
	return s
}

// targetList writes targets (a subset of order, in order) as runs of
// neighbours in order: "sm_50 to sm_62, sm_90a".
func targetList(order, set []string) string {
	in := map[string]bool{}
	for _, t := range set {
		in[t] = true
	}
	var parts []string
	for i := 0; i < len(order); i++ {
		if !in[order[i]] {
			continue
		}
		j := i
		for j+1 < len(order) && in[order[j+1]] {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, order[i])
		case j == i+1:
			parts = append(parts, order[i], order[j])
		default:
			parts = append(parts, order[i]+" to "+order[j])
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// contextNote marks an example statement ptxas accepts only once the
// example's own declarations are left out (the build words the check's
// message so).
const contextNote = "it assembles without them"

func newStmtVerdict(c isa.PTXCheck, floor string) stmtVerdict {
	v := stmtVerdict{Statement: c.Statement, Message: c.Message}
	switch c.Status {
	case isa.PTXVerified:
		v.Class = "ok"
		v.Text = "accepted from " + c.MinTarget + " · PTX " + c.PTXVersion
		var notes []string
		if c.MinTarget == floor {
			notes = append(notes, floor+" is the oldest target ptxas knows")
		}
		if c.Floor {
			notes = append(notes, "PTX "+c.PTXVersion+" is the lowest version "+c.MinTarget+" allows")
		}
		if o := optionsText(c.Options); o != "" {
			notes = append(notes, "also "+o)
		}
		if c.Tool != "" {
			notes = append(notes, c.Tool)
		}
		v.Detail = strings.Join(notes, "; ")
		if strings.Contains(c.Message, contextNote) {
			v.Class = "context"
			v.Text = "assembles only without the example's own declarations (" + c.MinTarget + " · PTX " + c.PTXVersion + ")"
		}
	case isa.PTXRejected:
		v.Class, v.Text = "bad", "rejected by ptxas"
	default:
		v.Class, v.Text = "unknown", "not verified"
	}
	return v
}

// sassBlocks picks the statements whose SASS the page shows: the first
// example statements, then the first forms', each once.
func sassBlocks(in *isa.Instruction) ([]sassBlock, int) {
	type cand struct {
		stmt, from string
		sass       []isa.SASS
	}
	var exs, forms []cand
	for i, ex := range in.Examples {
		for _, c := range ex.Checks {
			// An example's other statements (the mbarrier wait after a
			// tcgen05.mma) lower to their own instructions' SASS.
			if hasSASS(c.SASS) && isStatementOf(c.Statement, in.Name) {
				exs = append(exs, cand{c.Statement, fmt.Sprintf("example %d", i+1), c.SASS})
			}
		}
	}
	for _, f := range in.Forms {
		if f.Check != nil && hasSASS(f.Check.SASS) {
			forms = append(forms, cand{f.Check.Statement, "form " + f.Syntax, f.Check.SASS})
		}
	}
	seen := map[string]bool{}
	var out []sassBlock
	omitted := 0
	take := func(cs []cand, limit int) {
		n := 0
		for _, c := range cs {
			key := ptx.NormalizeStatement(c.stmt)
			if seen[key] {
				continue
			}
			seen[key] = true
			if n >= limit {
				omitted++
				continue
			}
			n++
			out = append(out, newSASSBlock(len(out)+1, c.stmt, c.from, c.sass))
		}
	}
	take(exs, maxSASSExamples)
	take(forms, maxSASSForms)
	return out, omitted
}

// isStatementOf says whether a statement is of the mnemonic: its opcode,
// after a predicate guard, is the mnemonic or starts with it and a dot.
func isStatementOf(stmt, mnemonic string) bool {
	f := strings.Fields(stmt)
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	return len(f) > 0 && (f[0] == mnemonic || strings.HasPrefix(f[0], mnemonic+"."))
}

func hasSASS(ss []isa.SASS) bool {
	for _, s := range ss {
		if len(s.Lines) > 0 {
			return true
		}
	}
	return false
}

func newSASSBlock(n int, stmt, from string, ss []isa.SASS) sassBlock {
	b := sassBlock{ID: fmt.Sprintf("sass-%d", n), Statement: stmt, From: from}
	ss = slices.Clone(ss)
	slices.SortStableFunc(ss, func(a, b isa.SASS) int { return ptxorder.CompareTargets(a.Target, b.Target) })
	first := 0 // the tab shown first: the oldest target with a listing
	for i, s := range ss {
		if len(s.Lines) > 0 {
			first = i
			break
		}
	}
	for i, s := range ss {
		tab := sassTab{ID: b.ID + "-" + s.Target, Target: s.Target, Checked: i == first, Lines: s.Lines}
		if len(tab.Lines) > maxSASSLines {
			tab.More = len(tab.Lines) - maxSASSLines
			tab.Lines = tab.Lines[:maxSASSLines]
		}
		b.Tabs = append(b.Tabs, tab)
	}
	return b
}
