package ptx

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// This file gives each special register the requirements its own notes
// state. One section often documents several registers whose notes differ
// ("`%pm0` … `%pm3` introduced in PTX ISA version 1.3. `%pm4` … `%pm7`
// introduced in PTX ISA version 3.0."; "`%nsmid` requires `sm_20`"): the
// instruction notes reader sees those register names as mnemonics or
// features of no form, so the section's base alone used to reach every
// register.

// sregNote is one note sentence about named registers.
type sregNote struct {
	text  string // the sentence, as notesParagraphs gives it
	names map[string]bool
	need  Option
}

// sregRangeRe finds "`%pm0` … `%pm3`" (also "...", "–", "to"): every
// register between the two, by the number in the name.
// The part after the number starts with no digit: "%pm0_64".
var sregRangeRe = regexp.MustCompile("`(%[A-Za-z_]+?)(\\d+)((?:[A-Za-z_]\\w*)?)`\\s*(?:…|\\.\\.\\.|–|-|to|through)\\s*`(%[A-Za-z_]+?)(\\d+)((?:[A-Za-z_]\\w*)?)`")

// sregNotes reads the sentences of a special-register section's notes
// that name registers; sentences that name none state the section's base,
// which parseNotes already reads.
func sregNotes(sec ptxdoc.Section) []sregNote {
	var out []sregNote
	read := func(text string, line int, isTarget bool) {
		for _, p := range notesParagraphs(text, line) {
			var need Option
			switch {
			case !isTarget:
				m := versionRe.FindStringSubmatch(p.text)
				if m == nil {
					continue
				}
				need.PTXVersion = m[1]
			case allTargets.MatchString(p.text):
				need.MinTarget = "sm_10"
			default:
				need.MinTarget = lowestTarget(p.text)
			}
			if need.MinTarget == "" && need.PTXVersion == "" {
				continue
			}
			subject, _ := sentenceSubject(p.text, need.PTXVersion)
			if names := sregNamesOf(subject); len(names) > 0 {
				out = append(out, sregNote{text: p.text, names: names, need: need})
			}
		}
	}
	read(sec.PTXISANotes, sec.PTXISANotesLine, false)
	read(sec.TargetISANotes, sec.TargetISANotesLine, true)
	return out
}

// sregNamesOf lists the registers a note's subject names: ranges
// expanded, "%pm<8>" expanded, other "%" spans as written.
func sregNamesOf(subject string) map[string]bool {
	names := map[string]bool{}
	for _, m := range sregRangeRe.FindAllStringSubmatch(subject, -1) {
		lo, err1 := strconv.Atoi(m[2])
		hi, err2 := strconv.Atoi(m[5])
		if m[1] != m[4] || m[3] != m[6] || err1 != nil || err2 != nil || hi < lo || hi-lo > maxSregRange {
			continue
		}
		for i := lo; i <= hi; i++ {
			names[m[1]+strconv.Itoa(i)+m[3]] = true
		}
	}
	for _, sp := range codeSpans(subject) {
		if strings.HasPrefix(sp, "%") {
			for _, n := range expandSregName(sp) {
				names[n] = true
			}
		}
	}
	return names
}

// sregNeed is what register name needs: the section's base raised by
// every note that names it or the vector it is a component of ("%tid"
// for "%tid.x").
func sregNeed(name string, base Option, notes []sregNote) Option {
	root, _, _ := strings.Cut(name, ".")
	need := base
	for _, n := range notes {
		if n.names[name] || n.names[root] {
			need.PTXVersion = maxVersion(need.PTXVersion, n.need.PTXVersion)
			need.MinTarget = maxTarget(need.MinTarget, n.need.MinTarget)
		}
	}
	return need
}

// sregForms turns one ".sreg" declaration into forms: one when every
// register it declares needs the same, else one per requirement, each
// declaring its registers (".sreg .u32 %pm<8>;" becomes %pm0 … %pm3 at
// PTX 1.3 and %pm4 … %pm7 at PTX 3.0, sm_20), so the page, the JSON and
// the checker all see each register's own minimum.
func sregForms(st statement, base Option, notes []sregNote) []Form {
	one := func(syntax string, need Option) Form {
		return Form{Syntax: syntax, PTXVersion: need.PTXVersion, MinTarget: need.MinTarget, Base: need}
	}
	m := sregDeclRe.FindStringSubmatch(strings.TrimSpace(st.text))
	if m == nil || len(notes) == 0 {
		return []Form{one(st.text, base)}
	}
	var order []Option
	groups := map[Option][]string{}
	for _, n := range strings.Split(m[3], ",") {
		for _, name := range expandSregName(strings.TrimSpace(n)) {
			need := sregNeed(name, base, notes)
			if _, seen := groups[need]; !seen {
				order = append(order, need)
			}
			groups[need] = append(groups[need], name)
		}
	}
	if len(order) <= 1 {
		need := base
		if len(order) == 1 {
			need = order[0]
		}
		return []Form{one(st.text, need)}
	}
	var out []Form
	for _, need := range order {
		f := one(".sreg "+m[1]+"."+m[2]+" "+strings.Join(groups[need], ", ")+";", need)
		f.Description = "declared together as " + strings.TrimSpace(st.text) + "; the notes state these registers' own version and target"
		out = append(out, f)
	}
	return out
}

// declaresSreg reports whether a declaration form declares entry (the
// register, "%envreg<32>" as written, or a vector whose components it
// declares).
func declaresSreg(f Form, entry string) bool {
	m := sregDeclRe.FindStringSubmatch(strings.TrimSpace(f.Syntax))
	if m == nil {
		return false
	}
	for _, n := range strings.Split(m[3], ",") {
		n = strings.TrimSpace(n)
		if n == entry {
			return true
		}
		for _, name := range expandSregName(n) {
			if root, _, _ := strings.Cut(name, "."); name == entry || root == entry {
				return true
			}
		}
	}
	return false
}

// sregEntryNeed is the lowest requirement of the forms that declare the
// entry itself: a section's page lists all its registers' forms, but
// "%pm7" needs what %pm7 needs, not what %pm0 does.
func sregEntryNeed(in *Instruction) (Option, bool) {
	var need Option
	found := false
	for _, f := range in.Forms {
		if !declaresSreg(f, in.Name) {
			continue
		}
		if !found || ptxorder.CompareVersions(f.PTXVersion, need.PTXVersion) < 0 {
			need.PTXVersion = f.PTXVersion
		}
		if !found || ptxorder.CompareTargets(f.MinTarget, need.MinTarget) < 0 {
			need.MinTarget = f.MinTarget
		}
		found = true
	}
	return need, found
}

// withoutSregNotes drops from unparsed the sentences sregNotes read: they
// are requirements now, not text for the reader.
func withoutSregNotes(unparsed []string, notes []sregNote) []string {
	read := map[string]bool{}
	for _, n := range notes {
		read[n.text] = true
	}
	var out []string
	for _, u := range unparsed {
		if !read[u] {
			out = append(out, u)
		}
	}
	return out
}
