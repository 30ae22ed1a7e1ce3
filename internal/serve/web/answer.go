package web

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// The first screen of an instruction page answers what people come with:
// what the instruction is, how it is written, where it runs and what the
// other vendor's counterpart is. This file builds those lines from facts
// the model already holds (syntax, targets, concept links, checks); it adds
// none of its own.

// answerView is the first screen below the page title.
type answerView struct {
	// Syntax is the first assembler syntax, SyntaxFrom where it comes from;
	// SyntaxMore says that the page has more of it (PTX: further blocks).
	Syntax, SyntaxFrom string
	SyntaxMore         bool
	// Support is the family's support at a glance: AMD, this family's gfx
	// targets with llvm-mc's verdict; PTX, the sm_ targets ptxas accepts.
	Support     []supportChip
	SupportText string
	// Elsewhere links the other families that have the instruction.
	Elsewhere     int
	ElsewhereText string
	// Counterparts are the first screen's counterpart lines (one per
	// concept, the first two).
	Counterparts []counterpartLine
	Badge        badgeView
}

type supportChip struct {
	Target, Status string // "supported", "unsupported", "renamed", "not verified"
	Note           string
}

// counterpartLine is the cross-vendor counterpart in one line: "PTX max —
// equivalent with restrictions: NaN and sNaN handling, denormal flushing".
type counterpartLine struct {
	Vendor   string // the other ISA: "PTX", "AMD"
	Concept  string // the concept's name, where the page has several
	Links    []link // the best relation's instructions; Note: where
	More     int    // further instructions of that relation not linked
	Relation string
	Topics   string
	// Others counts the page's other relations, listed in the section
	// Anchor names.
	Others int
	Anchor string
	// None is the catalogue's reason there is no counterpart.
	None string
}

// badgeView is the compact verification badge: its text and the
// sentences behind it, shown on request.
type badgeView struct {
	Class   string // "ok", "bad", "none"
	Text    string
	Details []string
}

// tocEntry is one link of a page's table of contents.
type tocEntry struct {
	ID, Text string
}

// firstConcept returns the index of the catalogue's first relation with
// members (the catalogue lists a PTX instruction's main counterpart
// first), or -1.
func firstConcept(refs []isa.ConceptRef) int {
	for i, c := range refs {
		if len(c.Members) > 0 {
			return i
		}
	}
	return -1
}

// restrictionTopics names each restriction by its head ("NaN and sNaN
// handling: with MODE.IEEE set ..." is "NaN and sNaN handling"), at most
// three, for the one-line counterpart.
func restrictionTopics(rs []string) string {
	var out []string
	for _, r := range rs {
		if len(out) == 3 {
			out = append(out, "…")
			break
		}
		out = append(out, restrictionHead(r))
	}
	return strings.Join(out, "; ")
}

func restrictionHead(r string) string {
	r = strings.TrimSpace(r)
	for _, sep := range []string{": ", "; ", " ("} {
		if i := strings.Index(r, sep); i > 0 && i <= 64 {
			return r[:i]
		}
	}
	if len(r) <= 64 {
		return strings.TrimSuffix(r, ".")
	}
	cut := strings.LastIndex(r[:64], " ")
	if cut < 24 {
		cut = 64
	}
	return r[:cut] + "…"
}

// newCounterpartLines builds the counterpart lines from an instruction's
// concept links: the first relation of each concept, at most max (PTX max
// has "Maximum" and "Maximum, NaN-propagating"); nil when it has none.
// vendor names the other ISA.
func newCounterpartLines(refs []isa.ConceptRef, vendor, anchor string, max int) []counterpartLine {
	var out []counterpartLine
	seenConcept := map[string]bool{}
	for _, c := range refs {
		if len(c.Members) == 0 || seenConcept[c.ID] || len(out) == max {
			continue
		}
		seenConcept[c.ID] = true
		line := counterpartLine{Vendor: vendor, Concept: c.Name, Relation: c.Relation, Topics: restrictionTopics(c.Restrictions), Anchor: anchor}
		seen := map[string]bool{}
		fams := map[string][]string{}
		for _, m := range c.Members {
			fams[m.Name] = append(fams[m.Name], m.Arch)
			if !seen[m.Name] {
				seen[m.Name] = true
				line.Links = append(line.Links, link{Text: m.Name, URL: instrURL(m.Arch, m.Name)})
			}
		}
		// Name the families an AMD instruction of the line exists in.
		if vendor == "AMD" {
			for i := range line.Links {
				line.Links[i].Note = familySpan(fams[line.Links[i].Text])
			}
		}
		const shown = 3
		if len(line.Links) > shown {
			line.More = len(line.Links) - shown
			line.Links = line.Links[:shown]
		}
		out = append(out, line)
	}
	if len(out) == 1 {
		out[0].Concept = "" // one concept: the line needs no name
	}
	if len(out) > 0 {
		out[len(out)-1].Others = len(refs) - len(out)
	}
	return out
}

// familyRanges names a set of AMD families in family order, runs of one
// line written as ranges: "RDNA 1–3.5, CDNA 1–4, Vega 7nm, Vega".
func familyRanges(ids []string) string {
	in := map[string]bool{}
	for _, id := range ids {
		in[id] = true
	}
	var parts []string
	var run []isa.ArchInfo
	flush := func() {
		switch {
		case len(run) == 0:
		case len(run) == 1:
			parts = append(parts, run[0].Name)
		default:
			line, newest, _ := strings.Cut(run[0].Name, " ")
			_, oldest, _ := strings.Cut(run[len(run)-1].Name, " ")
			parts = append(parts, line+" "+oldest+"–"+newest)
		}
		run = nil
	}
	for _, a := range isa.Archs() {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		// The RDNA and CDNA families are numbered ("CDNA 3"): a run of
		// them reads "CDNA 1–3".
		rangeable := a.Line == isa.LineRDNA || a.Line == isa.LineCDNA
		if !in[a.ID] || !rangeable {
			flush()
			if in[a.ID] {
				parts = append(parts, a.Name)
			}
			continue
		}
		if len(run) > 0 && run[0].Line != a.Line {
			flush()
		}
		run = append(run, a)
	}
	flush()
	return strings.Join(parts, ", ")
}

// familySpan names a set of families briefly: "CDNA 3", "10 families".
func familySpan(archs []string) string {
	archs = slices.Compact(archs)
	if len(archs) == 0 {
		return ""
	}
	if r := familyRanges(archs); len(r) <= 28 {
		return r
	}
	return fmt.Sprintf("%d families", len(archs))
}

// gfxToken finds the gfx targets a note names.
var gfxToken = regexp.MustCompile(`\bgfx[0-9]+[a-z]?\b`)

// foreignNote says whether a note speaks only of other families' targets:
// "llvm-mc ... prints it as v_max_num_f32 on gfx1200, gfx1201" on a CDNA
// page belongs on RDNA 4's and CDNA 5's.
func foreignNote(note, arch string) bool {
	ts := gfxToken.FindAllString(note, -1)
	if len(ts) == 0 {
		return false
	}
	for _, t := range ts {
		fam, ok := isa.ArchForTarget(t)
		if !ok || fam == arch {
			return false
		}
	}
	return true
}

// splitAliases separates the aliases about this family from those about
// other families' targets, which the page shows under Other generations.
func splitAliases(in *isa.Instruction) (own, foreign []isa.Alias) {
	for _, a := range in.Aliases {
		if foreignNote(a.Note, in.Arch) {
			foreign = append(foreign, a)
		} else {
			own = append(own, a)
		}
	}
	return own, foreign
}

// amdAnswer is the first screen of an AMD instruction page.
func (s *server) amdAnswer(v *instrView) answerView {
	in := v.In
	var ans answerView
	switch {
	case len(in.Syntax) > 0:
		ans.Syntax, ans.SyntaxFrom = in.Syntax[0].Text, "LLVM assembler syntax"
		if g := in.Syntax[0].GFX; g != "" {
			ans.SyntaxFrom += ", " + g
		}
		ans.SyntaxMore = len(in.Syntax) > 1
	case len(in.Examples) > 0:
		ans.Syntax, ans.SyntaxFrom = strings.TrimSpace(in.Examples[0].Asm), "an example"
	case len(in.Operands) > 0:
		var names []string
		for _, o := range in.Operands {
			if !o.Implicit {
				names = append(names, strings.ToLower(o.Name))
			}
		}
		ans.Syntax, ans.SyntaxFrom = strings.TrimSpace(in.Name+" "+strings.Join(names, ", ")), "operand fields in AMD's order"
	}
	// This family's targets, as the assembler decided.
	if v.Verified {
		own := map[string]bool{}
		for _, t := range v.Arch.Targets {
			own[t] = true
		}
		supported := 0
		for _, row := range v.Targets {
			if !own[row.Target] {
				continue
			}
			c := supportChip{Target: row.Target, Status: row.Status}
			if row.OtherSpelling != "" {
				c.Status, c.Note = "renamed", "as "+row.OtherSpelling
			}
			if c.Status == "supported" || c.Status == "renamed" {
				supported++
			}
			ans.Support = append(ans.Support, c)
		}
		switch {
		case len(ans.Support) == 0:
		case supported == len(ans.Support):
			ans.SupportText = "every " + v.Arch.Name + " target"
		case supported == 0:
			ans.SupportText = "no " + v.Arch.Name + " target"
		default:
			ans.SupportText = fmt.Sprintf("%d of %d %s targets", supported, len(ans.Support), v.Arch.Name)
		}
	}
	ans.Elsewhere = len(v.Differ) + len(v.Same)
	if ans.Elsewhere > 0 {
		renamed := 0
		for _, g := range append(slices.Clone(v.Differ), v.Same...) {
			if g.Name != in.Name {
				renamed++
			}
		}
		ans.ElsewhereText = fmt.Sprintf("in %d other famil%s", ans.Elsewhere, map[bool]string{true: "y", false: "ies"}[ans.Elsewhere == 1])
		if renamed > 0 {
			ans.ElsewhereText += fmt.Sprintf(" (%d under another name)", renamed)
		}
	}
	ans.Counterparts = newCounterpartLines(in.Concepts, "PTX", "#concepts", 2)
	ans.Badge = amdBadge(v)
	return ans
}

// amdBadge folds the data checks of an AMD page (identifier rebuilt from
// the opcode, llvm-mc's encoding, the target verdicts) into one badge.
func amdBadge(v *instrView) badgeView {
	var b badgeView
	bad, checked := false, false
	for _, e := range v.Encodings {
		if e.Check != "" {
			checked = true
			mark := "✓ "
			if !e.CheckOK {
				mark, bad = "✗ ", true
			}
			b.Details = append(b.Details, mark+e.Enc.Name+": "+e.Check)
		}
		if e.Enc.IdentifierCheck != "" {
			b.Details = append(b.Details, e.Enc.Name+", source check: "+e.Enc.IdentifierCheck)
		}
	}
	if v.Verified {
		n := 0
		for _, t := range v.Targets {
			if t.Status == "supported" || t.OtherSpelling != "" {
				n++
			}
		}
		b.Details = append(b.Details, fmt.Sprintf("llvm-mc assembles it on %d of the %d gfx targets it knows (Target compatibility).", n, len(v.Targets)))
	}
	if n := len(v.In.Examples); n > 0 {
		enc := 0
		for _, e := range v.In.Examples {
			if e.Encoding != "" {
				enc++
			}
		}
		if enc > 0 {
			b.Details = append(b.Details, fmt.Sprintf("%d of %d examples carry llvm-mc's encoding.", enc, n))
		}
	}
	switch {
	case bad:
		b.Class, b.Text = "bad", "a data check failed"
	case v.Verified:
		b.Class, b.Text = "ok", "verified by llvm-mc"
	case checked:
		b.Class, b.Text = "ok", "identifier checked"
	default:
		b.Class, b.Text = "none", "not yet verified"
	}
	return b
}

// ptxAnswer is the first screen of a PTX page.
func ptxAnswer(v *instrView) answerView {
	in, p := v.In, v.PTX
	var ans answerView
	// The instruction lines of every syntax block (not the definitions
	// of their type variables), the first few.
	var lines []string
	more := false
	for _, sx := range in.Syntax {
		for _, l := range strings.Split(sx.Text, "\n") {
			l = strings.TrimSpace(l)
			if rest, ok := strings.CutPrefix(l, in.Name); !ok || rest == "" || !strings.ContainsRune(".{ \t", rune(rest[0])) {
				continue // a definition of the syntax's variables
			}
			if len(lines) == 4 {
				more = true
				break
			}
			lines = append(lines, strings.Join(strings.Fields(l), " "))
		}
	}
	if len(lines) > 0 {
		ans.Syntax, ans.SyntaxMore, ans.SyntaxFrom = strings.Join(lines, "\n"), more || len(in.Syntax) > 0, "NVIDIA's documentation"
	}
	if p.Verified {
		sum, _ := summarizeTargets(in.Targets)
		if sum == "every target" {
			ans.SupportText = fmt.Sprintf("every sm target ptxas knows (%d)", len(p.Grid))
		} else {
			ans.SupportText = fmt.Sprintf("%s (%d of %d sm targets, ptxas)", sum, p.Supported, len(p.Grid))
		}
	}
	if v.NoCounterpart != nil {
		ans.Counterparts = []counterpartLine{{Vendor: "AMD", None: v.NoCounterpart.Reason, Anchor: "#counterparts"}}
	} else {
		ans.Counterparts = newCounterpartLines(in.Concepts, "AMD", "#counterparts", 2)
	}
	b := badgeView{Class: "none", Text: "not verified by ptxas"}
	if p.Verified {
		b.Class, b.Text = "ok", "verified by ptxas"
	} else if p.NotVerified != "" {
		b.Details = append(b.Details, p.NotVerified)
	}
	if p.FormCounts != "" {
		b.Details = append(b.Details, p.FormCounts)
	}
	ok, bad := 0, 0
	for _, ex := range p.Examples {
		for _, st := range ex {
			switch st.Class {
			case "ok", "context":
				ok++
			case "bad":
				bad++
			}
		}
	}
	if ok+bad > 0 {
		b.Details = append(b.Details, fmt.Sprintf("Example statements: %d accepted, %d rejected by ptxas (Examples).", ok, bad))
	}
	if bad > 0 && b.Class == "ok" {
		b.Text = "verified by ptxas, with findings"
	}
	ans.Badge = b
	return ans
}
