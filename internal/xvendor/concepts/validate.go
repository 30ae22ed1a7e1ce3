package concepts

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Resolver answers whether instructions exist. The build implements it over
// the real instruction database; tests implement it over the upstream guides.
type Resolver interface {
	// HasAMD reports whether mnemonic exists on the AMD architecture arch.
	HasAMD(arch, mnemonic string) bool
	// AMDArchs lists the architectures on which mnemonic exists.
	AMDArchs(mnemonic string) []string
	// HasPTX reports whether mnemonic is a PTX instruction or special register.
	HasPTX(mnemonic string) bool
	// PTXMnemonics lists every PTX instruction mnemonic and special register.
	PTXMnemonics() []string
}

// Kinds of Validate findings.
const (
	KindDanglingAMD     = "dangling-amd"     // AMD member, sequence step or named instruction not in any guide
	KindFamilyMismatch  = "family-mismatch"  // AMD member or relation listed for a family that lacks it
	KindDanglingPTX     = "dangling-ptx"     // PTX member or no_counterpart entry that PTX lacks
	KindUncoveredPTX    = "uncovered-ptx"    // PTX mnemonic in no concept and not in no_counterpart
	KindUncoveredFamily = "uncovered-family" // a family has the AMD member but no relation of the pair applies there
	KindStepMissing     = "step-missing"     // a sequence step has no alternative the family has
	KindTypes           = "types"            // operand types or widths contradict the relation kind
	KindUncoveredType   = "uncovered-type"   // a PTX member variant type that no relation covers
	KindFamilyText      = "family-text"      // text that says where an instruction exists (families: says that)
)

// Validate checks every mnemonic of c against r: AMD members must exist (on
// each family they list, or on some family when they list none), every AMD
// instruction named in a sequence must exist somewhere, PTX members and
// no-counterpart entries must be real PTX, and every PTX mnemonic r knows must
// be covered. Findings come back sorted by position; none means valid.
func Validate(c *Catalogue, r Resolver) []Error {
	var errs []Error
	add := func(p Pos, kind, format string, args ...any) {
		errs = append(errs, Error{Pos: p, Kind: kind, Msg: fmt.Sprintf(format, args...)})
	}
	covered := map[string]bool{}
	for _, k := range c.Concepts {
		for _, m := range k.PTX {
			covered[m.Mnemonic] = true
			if !r.HasPTX(m.Mnemonic) {
				add(m.Pos, KindDanglingPTX, "concept %s: ptx member %q is not a PTX instruction or special register", k.ID, m.Mnemonic)
			}
		}
		for _, m := range k.AMD {
			archs := r.AMDArchs(m.Mnemonic)
			if len(archs) == 0 {
				add(m.Pos, KindDanglingAMD, "concept %s: amd member %q exists in no AMD family", k.ID, m.Mnemonic)
				continue
			}
			for _, f := range m.Families {
				if !r.HasAMD(f, m.Mnemonic) {
					add(m.Pos, KindFamilyMismatch, "concept %s: amd member %q is listed for %s but does not exist there (it exists on %s)", k.ID, m.Mnemonic, f, strings.Join(archs, " "))
				}
			}
		}
		for _, rel := range k.Relations {
			m, _ := k.amdMember(rel.AMD)
			for _, f := range rel.Families {
				if !r.HasAMD(f, rel.AMD) {
					add(rel.Pos, KindFamilyMismatch, "concept %s: relation %s <-> %s is listed for %s, which lacks %s (it exists on %s)", k.ID, rel.PTX, rel.AMD, f, rel.AMD, orNone(r.AMDArchs(rel.AMD)))
				}
			}
			// The families where this relation is in force.
			var where []string
			for _, f := range r.AMDArchs(rel.AMD) {
				if rel.AppliesOn(f, m) {
					where = append(where, f)
				}
			}
			for _, step := range rel.Sequence {
				for _, alt := range step.Alternatives {
					if name := isa.BaseMnemonic(SequenceMnemonic(alt)); name != "" && len(r.AMDArchs(name)) == 0 {
						add(rel.Pos, KindDanglingAMD, "concept %s: sequence step %q names %q, which exists in no AMD family", k.ID, alt, name)
					}
				}
				for _, f := range where {
					if !stepOn(step, f, r) {
						add(rel.Pos, KindStepMissing, "concept %s: %s <-> %s applies on %s, but no alternative of step %q exists there", k.ID, rel.PTX, rel.AMD, f, step.String())
					}
				}
			}
			for _, msg := range checkTypes(k, rel) {
				add(rel.Pos, KindTypes, "concept %s: %s", k.ID, msg)
			}
			texts := append(append([]string(nil), rel.Restrictions...), remarks(rel.Sequence)...)
			for _, t := range texts {
				for _, name := range namedAMD(t) {
					if !existsOnAny(r, name, where) {
						add(rel.Pos, KindDanglingAMD, "concept %s: %s <-> %s: the text %q names %s, which none of the relation's families (%s) has", k.ID, rel.PTX, rel.AMD, t, name, orNone(where))
					}
				}
			}
		}
		errs = append(errs, coverage(k, r)...)
		errs = append(errs, familyText(k)...)
		errs = append(errs, uncoveredTypes(k)...)
	}
	for _, nc := range c.NoCounterpart {
		covered[nc.Mnemonic] = true
		if !r.HasPTX(nc.Mnemonic) {
			add(nc.Pos, KindDanglingPTX, "no_counterpart %q is not a PTX instruction or special register", nc.Mnemonic)
		}
		// A reason that suggests AMD instructions names real ones, and
		// says nothing about families (a family-specific counterpart is
		// a concept with families).
		for _, name := range namedAMD(nc.Reason) {
			if len(r.AMDArchs(name)) == 0 {
				add(nc.Pos, KindDanglingAMD, "no_counterpart %q: the reason names %s, which exists in no AMD family", nc.Mnemonic, name)
			}
		}
		if familyNames.MatchString(nc.Reason) {
			add(nc.Pos, KindFamilyText, "no_counterpart %q: the reason %q names AMD families; a counterpart on some families is a concept with families:", nc.Mnemonic, nc.Reason)
		}
	}
	for _, m := range r.PTXMnemonics() {
		if !covered[m] {
			add(Pos{}, KindUncoveredPTX, "PTX %q is in no concept and not in no_counterpart", m)
		}
	}
	// Findings relations produce once per expanded pair; report each once.
	seen := map[string]bool{}
	out := errs[:0]
	for _, e := range errs {
		key := e.Error()
		if !seen[key] {
			seen[key] = true
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pos.File != out[j].Pos.File {
			return out[i].Pos.File < out[j].Pos.File
		}
		return out[i].Pos.Line < out[j].Pos.Line
	})
	return out
}

// SequenceMnemonic returns the instruction mnemonic a sequence step starts
// with ("v_mul_f32 v0, v1, v2" -> "v_mul_f32"), or "" for a step that is a
// plain-words remark (it starts with an upper-case letter, "(" or "#").
func SequenceMnemonic(step string) string {
	f := strings.Fields(step)
	if len(f) == 0 {
		return ""
	}
	w := strings.TrimSuffix(f[0], ",")
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return ""
		}
	}
	if !strings.Contains(w, "_") {
		return ""
	}
	return w
}

// stepOn reports whether some alternative of step exists on family f (a
// remark always does).
func stepOn(step Step, f string, r Resolver) bool {
	for _, alt := range step.Alternatives {
		name := isa.BaseMnemonic(SequenceMnemonic(alt))
		if name == "" || r.HasAMD(f, name) {
			return true
		}
	}
	return false
}

// remarks returns the plain-words parts of a sequence: "(...)" steps and the
// text after "//".
func remarks(steps []Step) []string {
	var out []string
	for _, s := range steps {
		for _, alt := range s.Alternatives {
			if _, r := SplitStep(alt); r != "" {
				out = append(out, r)
			}
		}
	}
	return out
}

var amdNameInText = lazyre.New(`\b(?:v|s|ds|buffer|global|flat|scratch|image|tbuffer)_[a-z0-9_]*[a-z0-9]\b`)

// namedAMD returns the AMD mnemonics a text names.
func namedAMD(text string) []string { return amdNameInText.FindAllString(text, -1) }

func existsOnAny(r Resolver, name string, families []string) bool {
	for _, f := range families {
		if r.HasAMD(f, name) {
			return true
		}
	}
	return false
}

// coverage finds families that have an AMD member, where the member
// applies, but no relation of a pair does: there the concept would silently
// offer nothing.
func coverage(k *Concept, r Resolver) []Error {
	var out []Error
	for _, p := range k.PTX {
		for _, m := range k.AMD {
			for _, f := range r.AMDArchs(m.Mnemonic) {
				if !m.AppliesOn(f) {
					continue
				}
				found := false
				for _, rel := range k.Relations {
					if rel.PTX == p.Mnemonic && rel.AMD == m.Mnemonic && rel.AppliesOn(f, m) {
						found = true
						break
					}
				}
				if !found {
					out = append(out, Error{Pos: m.Pos, Kind: KindUncoveredFamily, Msg: fmt.Sprintf(
						"concept %s: %s exists on %s and the member applies there, but no relation for %s <-> %s does (limit the member's families or add one)", k.ID, m.Mnemonic, f, p.Mnemonic, m.Mnemonic)})
				}
			}
		}
	}
	return out
}

// familyNames matches the names of AMD families in prose.
var familyNames = lazyre.New(`\b(RDNA|CDNA|GCN|Vega)\b`)

// familyText finds text that says on which families something exists or
// what it is called there: the instruction database owns those facts, and
// a relation or member says it with families, which the checks verify.
func familyText(k *Concept) []Error {
	var out []Error
	add := func(p Pos, where, text string) {
		if familyNames.MatchString(text) {
			out = append(out, Error{Pos: p, Kind: KindFamilyText, Msg: fmt.Sprintf(
				"concept %s: %s %q names AMD families; say where with families: (the database knows where each instruction exists)", k.ID, where, text)})
		}
	}
	add(k.Pos, "description", k.Description)
	for _, m := range k.AMD {
		add(m.Pos, "note of "+m.Mnemonic, m.Note)
	}
	for _, m := range k.PTX {
		add(m.Pos, "note of "+m.Mnemonic, m.Note)
	}
	for _, rel := range k.Relations {
		for _, t := range rel.Restrictions {
			add(rel.Pos, "restriction", t)
		}
		for _, t := range remarks(rel.Sequence) {
			add(rel.Pos, "sequence remark", t)
		}
	}
	return out
}

// uncoveredTypes finds PTX member variants naming a type that no relation
// of the concept covers: porting such an instruction would offer a relation
// written for another type.
func uncoveredTypes(k *Concept) []Error {
	var out []Error
	for _, m := range k.PTX {
		if runRoles(m.Mnemonic, 0) != nil {
			continue // cvt and the matrix instructions name types in runs
		}
		for _, v := range m.Variants {
			t, ok := ptxType(v)
			if !ok || t.Class == 'p' {
				continue
			}
			covered := false
			for _, rel := range k.Relations {
				if rel.PTX != m.Mnemonic {
					continue
				}
				singles, runs := relationTypes(rel, Member{})
				if len(singles) == 0 && len(runs) == 0 || coversType(rel.Variants, t) {
					covered = true
					break
				}
			}
			if !covered {
				out = append(out, Error{Pos: m.Pos, Kind: KindUncoveredType, Msg: fmt.Sprintf(
					"concept %s: ptx member %s lists %s, but no relation covers it (add one, or drop the variant)", k.ID, m.Mnemonic, v)})
			}
		}
	}
	return out
}

// coversType reports whether variants name type t, alone or in a pair
// (".lo.u32" covers .u32).
func coversType(variants []string, t opType) bool {
	for _, v := range variants {
		for _, w := range strings.Split(strings.TrimPrefix(v, "."), ".") {
			if w == t.Name {
				return true
			}
		}
	}
	return false
}
