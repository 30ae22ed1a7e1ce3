package famdiff

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/base/fuzzy"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Requirement sources of a PTX form.
const (
	FromPTXAS = "ptxas"         // ptxas verified the form (its lowest version and target, its target grid)
	FromDocs  = "documentation" // NVIDIA's notes, as gpuisa reads them
)

// PTX is what a PTX history reads: every mnemonic's forms with their
// requirements, the targets ptxas was run on, and the release notes.
type PTX struct {
	// Releases are the PTX ISA versions, oldest first; Processors the sm_
	// targets with the version that introduced each.
	Releases   []isa.PTXRelease `json:"releases"`
	Processors []isa.Processor  `json:"processors"`
	// Grid are the targets ptxas was run on, oldest first (empty without
	// ptxas).
	Grid         []string  `json:"grid"`
	Instructions []PTXInst `json:"instructions"`
}

// PTXInst is one PTX mnemonic.
type PTXInst struct {
	Name       string    `json:"name"`
	Category   string    `json:"category"`
	PTXVersion string    `json:"ptx_version,omitempty"`
	MinTarget  string    `json:"min_target,omitempty"`
	Forms      []PTXForm `json:"forms"`
}

// PTXForm is one form with its requirement and where it comes from.
type PTXForm struct {
	Syntax     string `json:"syntax"`
	PTXVersion string `json:"ptx_version,omitempty"`
	MinTarget  string `json:"min_target,omitempty"`
	Source     string `json:"source"`
	// Supported are the grid targets ptxas accepts the form on; nil when
	// ptxas did not verify it.
	Supported []string      `json:"supported,omitempty"`
	Modifiers []PTXModifier `json:"modifiers,omitempty"`
}

// PTXModifier is an optional modifier that needs more than its form
// (ptxas: .NaN on max needs PTX 7.0 and sm_80).
type PTXModifier struct {
	Modifier   string `json:"modifier"`
	PTXVersion string `json:"ptx_version,omitempty"`
	MinTarget  string `json:"min_target,omitempty"`
}

// PTXOf extracts the PTX facts from the PTX architecture and instructions.
func PTXOf(a isa.Architecture, insts []*isa.Instruction) *PTX {
	p := &PTX{Releases: nonNilSlice(a.Releases), Processors: nonNilSlice(a.Processors), Grid: []string{}}
	grid := map[string]bool{}
	for _, in := range insts {
		if in.Arch != a.ID {
			continue
		}
		pi := PTXInst{Name: in.Name, Category: in.Category, PTXVersion: in.PTXVersion, MinTarget: in.MinTarget}
		for _, f := range in.Forms {
			pf := PTXForm{Syntax: f.Syntax, PTXVersion: f.PTXVersion, MinTarget: f.MinTarget, Source: FromDocs}
			if f.Check != nil && f.Check.Status == isa.PTXVerified {
				pf.Source = FromPTXAS
			}
			if len(f.Targets) > 0 {
				pf.Supported = []string{}
				for t, st := range f.Targets {
					grid[t] = true
					if st == "supported" {
						pf.Supported = append(pf.Supported, t)
					}
				}
				ptxorder.SortTargets(pf.Supported)
			}
			for _, mc := range f.ModifierChecks {
				if mc.Raises && mc.Check.Status == isa.PTXVerified {
					pf.Modifiers = append(pf.Modifiers, PTXModifier{Modifier: mc.Modifier, PTXVersion: mc.Check.PTXVersion, MinTarget: mc.Check.MinTarget})
				}
			}
			pi.Forms = append(pi.Forms, pf)
		}
		p.Instructions = append(p.Instructions, pi)
	}
	for t := range grid {
		p.Grid = append(p.Grid, t)
	}
	ptxorder.SortTargets(p.Grid)
	sort.Slice(p.Instructions, func(i, j int) bool { return p.Instructions[i].Name < p.Instructions[j].Name })
	return p
}

// Versions are the PTX ISA versions the facts know, oldest first.
func (p *PTX) Versions() []string {
	var out []string
	for _, r := range p.Releases {
		out = append(out, r.Version)
	}
	if len(out) == 0 {
		out = append(out, ptxorder.KnownPTXVersions...)
	}
	return out
}

// Targets are the sm_ targets the facts know (release notes and ptxas's
// grid), oldest first.
func (p *PTX) Targets() []string {
	seen := map[string]bool{}
	var out []string
	for _, pr := range p.Processors {
		if !seen[pr.Target] {
			seen[pr.Target] = true
			out = append(out, pr.Target)
		}
	}
	for _, t := range p.Grid {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	ptxorder.SortTargets(out)
	return out
}

// Release returns the release notes of one version.
func (p *PTX) Release(v string) (isa.PTXRelease, bool) {
	for _, r := range p.Releases {
		if r.Version == v {
			return r, true
		}
	}
	return isa.PTXRelease{}, false
}

// IntroducedIn returns the PTX ISA version that introduced an sm_ target.
func (p *PTX) IntroducedIn(target string) string {
	for _, pr := range p.Processors {
		if pr.Target == target {
			return pr.PTXVersion
		}
	}
	return ""
}

// ResolveVersion checks a PTX ISA version ("8.0", "80", "8") against the
// known ones.
func (p *PTX) ResolveVersion(v string) (string, error) {
	v = strings.TrimPrefix(clean(v), "ptx")
	v = strings.TrimLeft(v, ":-_ ")
	if !strings.Contains(v, ".") {
		switch len(v) {
		case 1:
			v += ".0"
		case 2:
			v = v[:1] + "." + v[1:]
		}
	}
	versions := p.Versions()
	for _, k := range versions {
		if k == v {
			return k, nil
		}
	}
	return "", errs.NotFound(fuzzy.Closest(v, versions, 3), "unknown PTX ISA version %q", v)
}

// ResolveTarget checks an sm_ target ("sm_90", "sm90a", "90") against the
// known ones.
func (p *PTX) ResolveTarget(t string) (string, error) {
	t = clean(t)
	if !strings.HasPrefix(t, "sm") {
		t = "sm_" + t
	}
	if !strings.HasPrefix(t, "sm_") {
		t = "sm_" + strings.TrimPrefix(t, "sm")
	}
	targets := p.Targets()
	for _, k := range targets {
		if k == t {
			return k, nil
		}
	}
	return "", errs.NotFound(fuzzy.Closest(t, targets, 3), "unknown target %q", t)
}

// resolveBoth resolves the two ends of a diff; from "" (the state before
// the first) stays "".
func resolveBoth(from, to string, resolve func(string) (string, error)) (string, string, error) {
	var err error
	if from != "" {
		if from, err = resolve(from); err != nil {
			return "", "", err
		}
	}
	to, err = resolve(to)
	return from, to, err
}

// VersionDiff says what PTX ISA version to has that from lacks (added) and
// the reverse (removed): mnemonics, then forms of older mnemonics, then
// modifiers of older forms, by the versions ptxas measured where it
// verified a form, else the documentation's.
//
// from "" is the state before the first version: everything to has is
// added.
func (p *PTX) VersionDiff(from, to string) (*Result, error) {
	from, to, err := resolveBoth(from, to, p.ResolveVersion)
	if err != nil {
		return nil, err
	}
	r := &Result{Kind: KindPTXVersions,
		From: Side{ID: "ptx:" + from, Name: "PTX ISA " + from, Arch: "ptx"},
		To:   Side{ID: "ptx:" + to, Name: "PTX ISA " + to, Arch: "ptx"}}
	if from == "" {
		r.From = Side{Name: "no PTX", Arch: "ptx"}
	}
	has := func(v, at string) bool { return at != "" && (v == "" || ptxorder.CompareVersions(v, at) <= 0) }
	p.history(r, func(v, _ string, _ []string, side string) []string {
		at := from
		if side == "to" {
			at = to
		}
		if has(v, at) {
			return []string{}
		}
		return nil
	})
	lo, hi := from, to
	if ptxorder.CompareVersions(lo, hi) > 0 {
		lo, hi = hi, lo
	}
	for _, rel := range p.Releases {
		if ptxorder.CompareVersions(rel.Version, lo) > 0 && ptxorder.CompareVersions(rel.Version, hi) <= 0 {
			r.Releases = append(r.Releases, rel)
		}
	}
	r.Notes = []string{
		"A form's PTX ISA version is ptxas's lowest accepted version where ptxas verified the form (source \"ptxas\"), else the documentation's (\"documentation\").",
		"Modifiers are those ptxas found to need a later version or a newer target than their form.",
	}
	finish(r)
	return r, nil
}

// TargetDiff says what becomes available from one sm_ target to another:
// by ptxas's target grid where ptxas verified a form, else the
// documentation's minimum target. A target without a suffix stands for
// its generation (sm_90 with sm_90a): each row names the targets that
// accept it, so wgmma shows as sm_90a's.
//
// from "" is no target at all: everything to accepts is added.
func (p *PTX) TargetDiff(from, to string) (*Result, error) {
	from, to, err := resolveBoth(from, to, p.ResolveTarget)
	if err != nil {
		return nil, err
	}
	// A generation against one of its own targets (sm_90 -> sm_90a)
	// compares the rest of it.
	var ga []string
	gb := p.Generation(to)
	if from != "" {
		for _, t := range p.Generation(from) {
			if !slices.Contains(gb, t) {
				ga = append(ga, t)
			}
		}
	}
	grid := map[string]bool{}
	for _, t := range p.Grid {
		grid[t] = true
	}
	r := &Result{Kind: KindPTXTargets,
		From: Side{ID: from, Name: generationName(from, ga), Arch: "ptx"},
		To:   Side{ID: to, Name: generationName(to, gb), Arch: "ptx"}}
	if from == "" {
		r.From.Name = "no target"
	}
	p.history(r, func(_, min string, supported []string, side string) []string {
		g := ga
		if side == "to" {
			g = gb
		}
		out := []string{}
		for _, t := range g {
			if supported != nil && grid[t] {
				if slices.Contains(supported, t) {
					out = append(out, t)
				}
			} else if DocAllows(min, t) {
				out = append(out, t)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	})
	for _, t := range gb {
		v := p.IntroducedIn(t)
		if rel, ok := p.Release(v); ok && !hasRelease(r.Releases, v) {
			r.Releases = append(r.Releases, rel)
		}
	}
	r.Notes = []string{
		"Where ptxas verified a form, its target grid decides (source \"ptxas\"); elsewhere the documentation's minimum target (\"documentation\"): " +
			"a plain target covers every newer one, an sm_XXf target its family's f and a targets, an sm_XXa target itself.",
		"A target without a suffix stands for its generation (" + strings.Join(gb, ", ") + "); each row names the targets that accept it.",
	}
	finish(r)
	return r, nil
}

// PreviousVersion is the version before v, "" for the first.
func (p *PTX) PreviousVersion(v string) string {
	vs := p.Versions()
	for i, k := range vs {
		if k == v && i > 0 {
			return vs[i-1]
		}
	}
	return ""
}

// NextVersion is the version after v, "" for the newest.
func (p *PTX) NextVersion(v string) string {
	vs := p.Versions()
	for i, k := range vs {
		if k == v && i+1 < len(vs) {
			return vs[i+1]
		}
	}
	return ""
}

// PreviousTarget is what a target's history compares it with: for a plain
// target the plain target before it (generation against generation), for
// sm_90a or sm_100f the plain target of its number alone; "" for the
// first.
func (p *PTX) PreviousTarget(t string) string {
	ts := p.Targets()
	if ptxorder.TargetSuffix(t) != "" {
		plain := fmt.Sprintf("sm_%d", ptxorder.TargetNumber(t))
		if slices.Contains(ts, plain) {
			return plain
		}
		return ""
	}
	prev := ""
	for _, k := range ts {
		if ptxorder.TargetSuffix(k) == "" && ptxorder.CompareTargets(k, t) < 0 {
			prev = k
		}
	}
	return prev
}

// NextTarget is the target after t in the known order, "" for the newest.
func (p *PTX) NextTarget(t string) string {
	ts := p.Targets()
	for i, k := range ts {
		if k == t && i+1 < len(ts) {
			return ts[i+1]
		}
	}
	return ""
}

// Generation is the targets a target names in a target diff: sm_90 is
// sm_90 and sm_90a, sm_90a itself.
func (p *PTX) Generation(t string) []string {
	if ptxorder.TargetSuffix(t) != "" {
		return []string{t}
	}
	var out []string
	for _, k := range p.Targets() {
		if ptxorder.TargetNumber(k) == ptxorder.TargetNumber(t) {
			out = append(out, k)
		}
	}
	return out
}

func generationName(t string, g []string) string {
	if len(g) > 1 {
		return t + " (" + strings.Join(g, ", ") + ")"
	}
	return t
}

func hasRelease(rs []isa.PTXRelease, v string) bool {
	for _, r := range rs {
		if r.Version == v {
			return true
		}
	}
	return false
}

// DocAllows says whether a documented minimum target admits target t: a
// plain minimum every target of its number or newer, sm_XXf the f and a
// targets of its family from XX on (sm_100f: sm_100f, sm_103a), sm_XXa
// only itself. No minimum admits every target.
func DocAllows(min, t string) bool {
	if min == "" {
		return true
	}
	nm, nt := ptxorder.TargetNumber(min), ptxorder.TargetNumber(t)
	if nm < 0 || nt < 0 {
		return false
	}
	switch ptxorder.TargetSuffix(min) {
	case "a":
		return min == t
	case "f":
		return ptxorder.TargetSuffix(t) != "" && nt/10 == nm/10 && nt >= nm
	}
	return nt >= nm
}

// history fills r.Added and r.Removed: avail says on one side ("from",
// "to") whether something with version v, minimum target min and ptxas's
// supported targets (nil: not verified) is available, returning the
// targets that accept it (nil: not available).
func (p *PTX) history(r *Result, avail func(v, min string, supported []string, side string) []string) {
	type state struct{ from, to []string }
	both := func(v, min string, sup []string) state {
		return state{avail(v, min, sup, "from"), avail(v, min, sup, "to")}
	}
	item := func(in PTXInst, level string, f *PTXForm, m *PTXModifier, targets []string) Item {
		it := Item{Name: in.Name, Category: in.Category, Level: level, PTXVersion: in.PTXVersion, MinTarget: in.MinTarget, Targets: targets}
		it.Source = FromDocs
		if f != nil {
			it.Syntax, it.PTXVersion, it.MinTarget, it.Source = f.Syntax, f.PTXVersion, f.MinTarget, f.Source
		}
		if m != nil {
			it.Modifier, it.PTXVersion, it.MinTarget, it.Source = m.Modifier, m.PTXVersion, m.MinTarget, FromPTXAS
		}
		if level == "instruction" {
			// The mnemonic's requirement is its oldest form's.
			for _, f := range in.Forms {
				if f.Source == FromPTXAS {
					it.Source = FromPTXAS
				}
			}
		}
		return it
	}
	// file lists what s says of an instruction, form or modifier: added
	// when only To has it, removed when only From has it. It reports
	// whether both sides have it, and so its parts are worth a look.
	file := func(s state, in PTXInst, level string, f *PTXForm, m *PTXModifier) bool {
		switch {
		case s.to != nil && s.from == nil:
			r.Added = append(r.Added, item(in, level, f, m, s.to))
		case s.from != nil && s.to == nil:
			r.Removed = append(r.Removed, item(in, level, f, m, s.from))
		}
		return s.from != nil && s.to != nil
	}
	for _, in := range p.Instructions {
		forms := make([]state, len(in.Forms))
		var inst state
		for i := range in.Forms {
			f := &in.Forms[i]
			forms[i] = both(f.PTXVersion, f.MinTarget, f.Supported)
			inst.from = union(inst.from, forms[i].from)
			inst.to = union(inst.to, forms[i].to)
		}
		if len(in.Forms) == 0 {
			inst = both(in.PTXVersion, in.MinTarget, nil)
		}
		if !file(inst, in, "instruction", nil, nil) {
			continue
		}
		for i := range in.Forms {
			f := &in.Forms[i]
			st := forms[i]
			if !file(st, in, "form", f, nil) {
				continue
			}
			for j := range f.Modifiers {
				m := &f.Modifiers[j]
				ms := both(m.PTXVersion, m.MinTarget, nil)
				ms.from, ms.to = intersect(ms.from, st.from), intersect(ms.to, st.to)
				file(ms, in, "modifier", f, m)
			}
		}
	}
}

// union and intersect keep nil as "not available" and [] as "available
// (no target list)".
func union(a, b []string) []string {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := append([]string{}, a...)
	for _, t := range b {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	ptxorder.SortTargets(out)
	return out
}

func intersect(a, b []string) []string {
	if a == nil || b == nil {
		return nil
	}
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := []string{}
	for _, t := range a {
		if slices.Contains(b, t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
