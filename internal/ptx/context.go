package ptx

import (
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Context is where a statement is assembled: the file's .version and
// .target, or the --target given. An empty field is not known (a single
// statement): no rule of that field applies.
type Context struct {
	Version string // "9.5"
	Target  string // "sm_80"
	// TargetFrom names where Target came from in the reasons: "the file's
	// .target" (the default) or "--target".
	TargetFrom string
}

// The notes' removal sentences: "Not supported in PTX ISA version 6.4 for
// .target `sm_70` or higher." and "`shfl` is not supported on `sm_70` or
// higher starting PTX ISA version 6.4."
var (
	removedInRe   = lazyre.New("(?i)not supported in PTX ISA version (\\d+\\.\\d+) for \\.target `?(sm_\\d+)`? or higher")
	removedFromRe = lazyre.New("(?i)not supported on `?(sm_\\d+)`? or higher starting (?:with )?PTX ISA version (\\d+\\.\\d+)")
)

// removalOf reads an entry's notes for the (version, target) from which
// its forms are no longer accepted: from that PTX ISA version on, on that
// target and every later one.
func removalOf(notes []string) *Option {
	for _, n := range notes {
		if m := removedInRe.FindStringSubmatch(n); m != nil {
			return &Option{PTXVersion: m[1], MinTarget: m[2]}
		}
		if m := removedFromRe.FindStringSubmatch(n); m != nil {
			return &Option{PTXVersion: m[2], MinTarget: m[1]}
		}
	}
	return nil
}

// "Target strings `sm_32` and `sm_50` introduced in PTX ISA version 4.0."
var (
	targetIntroRe = lazyre.New("(?i)^Target strings? (.+?) introduced in PTX ISA version (\\d+\\.\\d+)")
	targetSpanRe  = lazyre.New("`(sm_\\w+)`")
)

// targetIntroductions reads the .target directive's notes: the PTX ISA
// version each target string was introduced in.
func targetIntroductions(instrs []Instruction) map[string]string {
	out := map[string]string{}
	for i := range instrs {
		if instrs[i].Kind != KindDirective || instrs[i].Name != ".target" {
			continue
		}
		for _, n := range instrs[i].Notes {
			m := targetIntroRe.FindStringSubmatch(n)
			if m == nil {
				continue
			}
			for _, t := range targetSpanRe.FindAllStringSubmatch(m[1], -1) {
				out[t[1]] = m[2]
			}
		}
	}
	return out
}

// headerProblem says why a file's .version cannot go with its .target
// ("" when it can or the notes do not say), or why no ptxas takes the
// .version at all: one newer than every PTX ISA version NVIDIA has
// released (ptxorder.KnownPTXVersions), which ptxas refuses as
// "Unsupported .version".
func (c *Checker) headerProblem(version, target string) string {
	known := ptxorder.KnownPTXVersions
	if newest := known[len(known)-1]; version != "" && ptxorder.CompareVersions(version, newest) > 0 {
		return "unsupported .version " + version + ": the newest PTX ISA version released is " + newest
	}
	intro := c.targetIntro[target]
	if version == "" || intro == "" || ptxorder.CompareVersions(version, intro) >= 0 {
		return ""
	}
	return ".target " + target + " needs PTX ISA " + intro + "; the file's .version is " + version
}

// docsVersion is the newest PTX ISA version the model's documents name:
// the version they describe.
func docsVersion(instrs []Instruction) string {
	v := ""
	for i := range instrs {
		in := &instrs[i]
		v = maxVersion(v, in.PTXVersion)
		for j := range in.Forms {
			f := &in.Forms[j]
			v = maxVersion(v, f.PTXVersion)
			for _, r := range f.Requirements {
				for _, o := range r.options() {
					v = maxVersion(v, o.PTXVersion)
				}
			}
		}
	}
	return v
}

// DocsVersion is the PTX ISA version the checker's documents describe.
func (c *Checker) DocsVersion() string { return c.docs }

// CheckIn checks one statement where ctx says it is assembled.
func (c *Checker) CheckIn(text string, ctx Context) Result {
	r := c.Check(text)
	c.judge(&r, ctx)
	return r
}

// judge applies the context's rules to a result: a statement that needs a
// later target or version than the context's, or whose form was removed
// from it, is invalid there. In a file newer than the documents, a
// statement they do not know is not judged.
func (c *Checker) judge(r *Result, ctx Context) {
	from := ctx.TargetFrom
	if from == "" {
		from = "the file's .target"
	}
	newer := ctx.Version != "" && c.docs != "" && ptxorder.CompareVersions(ctx.Version, c.docs) > 0
	if !r.Valid {
		if newer && r.Verified == "" && c.newVocabulary(r) {
			r.Unjudged = true
			r.Reason = "not judged: " + r.Reason + " in the PTX ISA " + c.docs + " documents; the file's .version " + ctx.Version + " is newer"
		}
		return
	}
	if rm := r.RemovedFrom; rm != nil && ctx.Target != "" && ptxorder.TargetNumber(ctx.Target) >= ptxorder.TargetNumber(rm.MinTarget) &&
		(ctx.Version == "" || ptxorder.CompareVersions(ctx.Version, rm.PTXVersion) >= 0) {
		r.Valid, r.Rule = false, "removed"
		r.Reason = r.Mnemonic + " is not supported on " + rm.MinTarget + " and higher from PTX ISA " + rm.PTXVersion + "; " + from + " is " + ctx.Target
		if ctx.Version != "" {
			r.Reason += ", the file's .version " + ctx.Version
		}
		return
	}
	opts := r.Alternatives
	if len(opts) == 0 {
		opts = []Option{{PTXVersion: r.PTXVersion, MinTarget: r.MinTarget}}
	}
	for _, o := range opts {
		tOK := ctx.Target == "" || o.MinTarget == "" || TargetMeets(ctx.Target, o.MinTarget)
		vOK := ctx.Version == "" || o.PTXVersion == "" || ptxorder.CompareVersions(o.PTXVersion, ctx.Version) <= 0
		if tOK && vOK {
			r.PTXVersion, r.MinTarget = o.PTXVersion, o.MinTarget
			return
		}
	}
	// The first (lowest version) pair says what is missing.
	o := opts[0]
	var need, have []string
	if ctx.Version != "" && o.PTXVersion != "" && ptxorder.CompareVersions(o.PTXVersion, ctx.Version) > 0 {
		r.Rule = "version"
		need, have = append(need, "PTX ISA "+o.PTXVersion), append(have, "the file's .version is "+ctx.Version)
	}
	if ctx.Target != "" && o.MinTarget != "" && !TargetMeets(ctx.Target, o.MinTarget) {
		r.Rule = "target"
		need, have = append(need, o.MinTarget), append(have, from+" is "+ctx.Target)
	}
	if r.Rule == "" { // each pair misses on another count: name the target's
		r.Rule = "target"
		need, have = []string{o.MinTarget + " with PTX ISA " + o.PTXVersion}, []string{from + " is " + ctx.Target}
	}
	r.Valid = false
	r.Reason = "needs " + strings.Join(need, " and ") + "; " + strings.Join(have, ", ")
	if len(r.RaisedBy) > 0 {
		r.Reason += " (because of " + strings.Join(r.RaisedBy, ", ") + ")"
	}
}

// newVocabulary reports whether a rejected statement uses a mnemonic or
// token no documented form writes: what a later PTX ISA may have added.
// A token the documents know from other forms (a type, a modifier) is
// judged by them.
func (c *Checker) newVocabulary(r *Result) bool {
	if !strings.HasPrefix(r.Reason, "unknown mnemonic") && !strings.HasPrefix(r.Reason, "unknown modifier") {
		return false
	}
	tokens, _, err := ParseInstruction(r.Text)
	if err != nil {
		return false
	}
	if r.Mnemonic == "" {
		// "redux.add" is not new: documented mnemonics start with redux.
		return len(c.byFirst[tokens[0]]) == 0
	}
	for _, t := range tokens[1:] {
		if !c.vocabulary[t] {
			return true
		}
	}
	return false
}

// TargetMeets reports whether code for target have may use a feature that
// needs target need: a plain need is met by every target numbered as high;
// an "a" need only by that target itself; an "f" need by the "a" and "f"
// targets of its family (same major number) numbered as high.
func TargetMeets(have, need string) bool {
	hn, nn := ptxorder.TargetNumber(have), ptxorder.TargetNumber(need)
	switch ptxorder.TargetSuffix(need) {
	case "":
		return hn >= nn
	case "a":
		return hn == nn && ptxorder.TargetSuffix(have) == "a"
	default:
		hs := ptxorder.TargetSuffix(have)
		return hn >= nn && hn/10 == nn/10 && (hs == "a" || hs == "f")
	}
}

// TargetIntroduced is the PTX ISA version the notes say target came in
// ("" when they do not say).
func (c *Checker) TargetIntroduced(target string) string { return c.targetIntro[target] }
