package concepts

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"slices"
	"sort"
)

// Texts gives an AMD instruction's own documentation in one family: its
// description and pseudocode as the vendor wrote them ("" when the family's
// guide has none).
type Texts interface {
	AMDText(arch, mnemonic string) string
}

// KindSemantics is the kind of AuditSemantics findings.
const KindSemantics = "semantics"

// AuditStats counts what AuditSemantics could check.
type AuditStats struct {
	Checked   int // (relation, family) pairs whose AMD text treats NaN inputs
	Unchecked int // pairs whose family's text says nothing about NaN inputs
}

var (
	// What restrictions say about float special cases.
	saysIEEEMode = lazyre.New(`(?i)\bIEEE[ -]mode\b|MODE\.IEEE`)
	saysSNaN     = lazyre.New(`(?i)\bsNaN\b|signall?ing NaN`)
	saysNaN      = lazyre.New(`\bNaN`)
	// What the vendor's text says.
	textIEEEMode = lazyre.New(`WAVE_MODE\.IEEE|IEEE_MODE`) // pseudocode that tests the bit
	textSNaN     = lazyre.New(`isSignalNAN|\bsNaN\b|signaling NaN|signalling NaN`)
	textNumber   = lazyre.New(`(?i)maximumNumber|minimumNumber|numeric argument is favou?red`)
	textNaN      = lazyre.New(`(?i)NaN`)
	textCall     = lazyre.New(`\b(v_[a-z0-9_]+)\(`)
)

// withCalls appends the text of every instruction the pseudocode calls
// (v_pk_max_f16 is written as two calls of v_max_f16), one level deep.
func withCalls(tx Texts, arch, text string) string {
	seen := map[string]bool{}
	for _, m := range textCall.FindAllStringSubmatch(text, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			text += "\n" + tx.AMDText(arch, m[1])
		}
	}
	return text
}

// AuditSemantics holds the restrictions that describe IEEE-mode and NaN
// behaviour to the AMD member's own text in every family the relation
// applies on: a restriction about MODE.IEEE needs a text that depends on it,
// a text that depends on it needs a restriction saying so (for a float
// relation that is not a sequence), a restriction about signalling NaNs
// needs a text that treats them, and where the text returns the number over
// a NaN (IEEE maximumNumber, as PTX min and max do) no restriction may claim
// a NaN difference.
func AuditSemantics(c *Catalogue, r Resolver, tx Texts) ([]Error, AuditStats) {
	var out []Error
	var st AuditStats
	for _, k := range c.Concepts {
		for _, rel := range k.Relations {
			if rel.Kind == Sequence {
				continue
			}
			m, _ := k.amdMember(rel.AMD)
			pm, _ := k.ptxMember(rel.PTX)
			ieee, snan, nan := anyMatch(saysIEEEMode, rel.Restrictions), anyMatch(saysSNaN, rel.Restrictions), anyMatch(saysNaN, rel.Restrictions)
			float := floatRelation(rel, pm)
			propagating := slices.Contains(rel.Variants, ".NaN") || slices.Contains(pm.Variants, ".NaN")
			for _, f := range r.AMDArchs(rel.AMD) {
				if !rel.AppliesOn(f, m) {
					continue
				}
				text := withCalls(tx, f, tx.AMDText(f, rel.AMD))
				if !textNaN.MatchString(text) {
					// The family's guide says nothing about NaN inputs
					// here (no text, or a generic max()).
					st.Unchecked++
					continue
				}
				st.Checked++
				add := func(format string, args ...any) {
					out = append(out, Error{Pos: rel.Pos, Kind: KindSemantics, Msg: fmt.Sprintf("concept %s: %s <-> %s on %s: ", k.ID, rel.PTX, rel.AMD, f) + fmt.Sprintf(format, args...)})
				}
				textIEEE := textIEEEMode.MatchString(text)
				switch {
				case ieee && !textIEEE:
					add("a restriction speaks of IEEE mode, but the family's text does not depend on MODE.IEEE (give this family its own relation)")
				case textIEEE && float && !ieee:
					add("the family's text depends on MODE.IEEE; a restriction must say how")
				}
				if snan && !textSNaN.MatchString(text) {
					add("a restriction speaks of signalling NaNs, which the family's text does not treat")
				}
				if nan && !propagating && textNumber.MatchString(text) {
					add("the family's text returns the number over a NaN, as PTX does; no NaN restriction applies")
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pos.File != out[j].Pos.File {
			return out[i].Pos.File < out[j].Pos.File
		}
		return out[i].Pos.Line < out[j].Pos.Line
	})
	return out, st
}

func anyMatch(re *lazyre.Regexp, texts []string) bool {
	for _, t := range texts {
		if re.MatchString(t) {
			return true
		}
	}
	return false
}

// floatRelation reports whether a relation covers PTX floating-point types.
func floatRelation(rel Relation, pm Member) bool {
	singles, runs := relationTypes(rel, pm)
	for _, t := range singles {
		if t.Class == 'f' {
			return true
		}
	}
	for _, run := range runs {
		if run[0].Class == 'f' {
			return true
		}
	}
	return false
}
