package ptx

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
)

// specialReg is one readable special register ("%clusterid.x") as its
// section declares it (".sreg .u32 %clusterid.x, ...;"), with the version
// and target the section states for it.
type specialReg struct {
	entry  string // the section's name: "%clusterid"
	typ    string // "u32", "u64", "pred"
	bits   int    // 32; 1 for .pred
	vector bool   // the .v4 register as a whole ("%tid")
	need   Option
	// narrow lists the narrower integer widths mov and cvt may read it
	// with: the notes' "16-bit mov and cvt instructions may be used to read
	// the lower 16-bits of each component".
	narrow []int
}

// sregTable holds every special register of the model.
type sregTable struct {
	regs map[string]*specialReg
	// readers are the instructions the notes name as reading special
	// registers ("mov", "cvt"); ptxas refuses one as another instruction's
	// operand ("Special register argument not allowed for instruction").
	readers map[string]bool
}

var (
	sregDeclRe = lazyre.New(`^\.sreg\s+(\.v[24]\s+)?\.([a-z]+\d*)\s+(.+?);?\s*$`)
	sregNameRe = lazyre.New(`^(%[A-Za-z_][\w.]*?)(?:<(\d+)>)?$`)
	// "16-bit and 32-bit `mov` and `cvt` instructions may be used to read"
	narrowRe = regexp.MustCompile(`(\d+)-bit`)
)

// Most expansions of one "%pm<8>" declaration (bounds the table).
const maxSregRange = 256

func buildSregs(instrs []Instruction) sregTable {
	t := sregTable{regs: map[string]*specialReg{}, readers: map[string]bool{}}
	for i := range instrs {
		in := &instrs[i]
		if in.Kind != KindSpecialRegister {
			continue
		}
		narrow := readerNotes(in.Notes, t.readers)
		for _, f := range in.Forms {
			need := Option{PTXVersion: in.PTXVersion, MinTarget: in.MinTarget}
			if f.Base.PTXVersion != "" {
				need.PTXVersion = f.Base.PTXVersion
			}
			if f.Base.MinTarget != "" {
				need.MinTarget = f.Base.MinTarget
			}
			m := sregDeclRe.FindStringSubmatch(strings.TrimSpace(f.Syntax))
			if m == nil {
				continue
			}
			bits := typeBits(m[2])
			for _, n := range strings.Split(m[3], ",") {
				for _, name := range expandSregName(strings.TrimSpace(n)) {
					if _, dup := t.regs[name]; dup {
						continue // the first section that declares it speaks
					}
					t.regs[name] = &specialReg{entry: in.Name, typ: m[2], bits: bits, vector: m[1] != "", need: need, narrow: narrow}
				}
			}
		}
	}
	return t
}

// readerNotes reads the notes' "N-bit `mov` and `cvt` instructions may be
// used to read ..." sentences: the narrower widths allowed, and the
// instructions that read special registers (added to readers).
func readerNotes(notes []string, readers map[string]bool) []int {
	var narrow []int
	for _, n := range notes {
		head, _, ok := strings.Cut(n, "instructions may be used to read")
		if !ok {
			continue
		}
		for _, s := range codeSpans(head) {
			readers[s] = true
		}
		for _, m := range narrowRe.FindAllStringSubmatch(head, -1) {
			if b, err := strconv.Atoi(m[1]); err == nil {
				narrow = append(narrow, b)
			}
		}
	}
	return narrow
}

// expandSregName turns "%pm<8>" into %pm0 ... %pm7; other names are kept.
func expandSregName(n string) []string {
	m := sregNameRe.FindStringSubmatch(n)
	if m == nil {
		return nil
	}
	if m[2] == "" {
		return []string{m[1]}
	}
	k, err := strconv.Atoi(m[2])
	if err != nil || k > maxSregRange {
		return nil
	}
	out := make([]string, k)
	for i := range out {
		out[i] = m[1] + strconv.Itoa(i)
	}
	return out
}

// typeBits is a fundamental type's width: 32 for "u32", 1 for "pred".
func typeBits(t string) int {
	if t == "pred" {
		return 1
	}
	i := strings.IndexAny(t, "0123456789")
	if i < 0 {
		return 0
	}
	b, _ := strconv.Atoi(t[i:])
	return b
}

// lookup finds an operand's special register ("%tid.x", "-%r" is not one).
func (t *sregTable) lookup(op string) *specialReg {
	if len(op) < 2 || op[0] != '%' {
		return nil
	}
	return t.regs[op]
}

// apply checks the special registers among a valid result's operands: the
// instruction may read them and its type fits theirs; each raises the
// version and target to its own.
func (t *sregTable) apply(r *Result, tokens, operands []string) {
	for _, op := range operands {
		s := t.lookup(strings.TrimSpace(op))
		if s == nil || !r.Valid {
			continue
		}
		if len(t.readers) > 0 && !t.readers[tokens[0]] {
			r.Valid, r.Reason = false, "special register "+op+" is not allowed as an operand of "+tokens[0]+" (only "+readerList(t.readers)+" read special registers)"
			return
		}
		if why := s.typeMismatch(tokens); why != "" {
			r.Valid, r.Reason = false, "operand "+op+": "+why
			return
		}
		raiseResult(r, s.need, s.entry)
	}
}

// typeMismatch compares the type the instruction reads its source with
// (the last type token: mov's only one, cvt's source type) to the
// register's.
func (s *specialReg) typeMismatch(tokens []string) string {
	rt := ""
	for _, x := range tokens[1:] {
		if isType(x) {
			rt = x
		}
	}
	if rt == "" || s.vector {
		return ""
	}
	if s.typ == "pred" || rt == "pred" {
		if s.typ != rt {
			return "the register is ." + s.typ + ", the instruction reads ." + rt
		}
		return ""
	}
	if c := rt[0]; c != 'b' && c != 'u' && c != 's' {
		return "the register is ." + s.typ + "; a special register is read as an integer type, not ." + rt
	}
	b := typeBits(rt)
	if b == s.bits {
		return ""
	}
	for _, n := range s.narrow {
		if b == n {
			return ""
		}
	}
	return "the register is ." + s.typ + " (" + strconv.Itoa(s.bits) + " bits), the instruction reads ." + rt
}

// raiseResult lifts a result's version and target (and each alternative's) to
// need, naming feature as the cause when it raised one.
func raiseResult(r *Result, need Option, feature string) {
	up := func(o *Option) bool {
		v, t := maxVersion(o.PTXVersion, need.PTXVersion), maxTarget(o.MinTarget, need.MinTarget)
		changed := v != o.PTXVersion || t != o.MinTarget
		o.PTXVersion, o.MinTarget = v, t
		return changed
	}
	base := Option{PTXVersion: r.PTXVersion, MinTarget: r.MinTarget}
	changed := up(&base)
	r.PTXVersion, r.MinTarget = base.PTXVersion, base.MinTarget
	if len(r.Alternatives) > 0 {
		alts := make([]Option, len(r.Alternatives))
		copy(alts, r.Alternatives)
		for i := range alts {
			changed = up(&alts[i]) || changed
		}
		r.Alternatives = pruneOptions(alts)
		if len(r.Alternatives) == 1 {
			r.Alternatives = nil
		}
	}
	if changed {
		r.RaisedBy = append(append([]string(nil), r.RaisedBy...), feature)
	}
}

func readerList(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return strings.Join(out, " and ")
}
