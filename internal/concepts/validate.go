package concepts

import (
	"fmt"
	"sort"
	"strings"
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
	KindDanglingAMD    = "dangling-amd"    // AMD member or sequence step not in any guide
	KindFamilyMismatch = "family-mismatch" // AMD member listed for a family that lacks it
	KindDanglingPTX    = "dangling-ptx"    // PTX member or no_counterpart entry that PTX lacks
	KindUncoveredPTX   = "uncovered-ptx"   // PTX mnemonic in no concept and not in no_counterpart
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
			for _, step := range rel.Sequence {
				name := SequenceMnemonic(step)
				if name == "" {
					continue
				}
				if len(r.AMDArchs(name)) == 0 {
					add(rel.Pos, KindDanglingAMD, "concept %s: sequence step %q names %q, which exists in no AMD family", k.ID, step, name)
				}
			}
		}
	}
	for _, nc := range c.NoCounterpart {
		covered[nc.Mnemonic] = true
		if !r.HasPTX(nc.Mnemonic) {
			add(nc.Pos, KindDanglingPTX, "no_counterpart %q is not a PTX instruction or special register", nc.Mnemonic)
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
