package decode

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// The reviewed rules table (shapes.tsv) holds what the decoder knows of an
// instruction that neither its format nor the model's operand list says:
// operand shapes, printed names, data widths and type exceptions, each row
// with the reason for it. Rules are facts keyed by family generation,
// format kind and mnemonic pattern, the way golang.org/x/arch keeps its
// instruction tables; the code that reads them (prepare, signatureOf)
// compares no mnemonic with a literal. Where the model has the answer
// (shape.go's prepare and the operand readers beside it), the model decides and the table is the fallback for a model
// without it (a database built without llvm-mc or LLVM's syntax pages);
// TestRulesAgreeWithModel holds the two to each other.

//go:embed shapes.tsv
var shapesTSV string

// rule is one row of shapes.tsv.
type rule struct {
	line         int
	genLo, genHi int
	kinds        uint32 // bit k set: the row applies to format kind k
	pats         []pattern
	model        bool // an ops= row: the fact comes from the model's operands
	facts        []fact
	reason       string
}

// fact is one key=value (or a bare key, a flag) of a rule.
type fact struct{ key, val string }

// pattern matches a mnemonic: "*" any run of characters, "%" one
// underscore-free token; "^..." is a regular expression. An "ops=" pattern
// matches the model's operand names instead, joined by "+"
// ("ops=sdst+ssrc0"): the rows that derive a fact from the model.
type pattern struct {
	glob string
	re   *regexp.Regexp
	ops  bool
	// head and tail are the glob's literal text before its first and
	// after its last wildcard: a name without them cannot match, which is
	// most rows for most names, found without globMatch's backtracking
	// (a decoder's start matches every entry against every row).
	head, tail string
	// mid are the literal pieces between a glob's stars when it has no
	// "%" (starOnly): such a glob matches where head, then each piece at
	// its leftmost place, then tail follow one another, so it needs no
	// backtracking.
	mid      []string
	starOnly bool
}

// globPattern makes the pattern of glob g (of the operand names with ops).
func globPattern(g string, ops bool) pattern {
	p := pattern{glob: g, ops: ops, head: g}
	if i := strings.IndexAny(g, "*%"); i >= 0 {
		p.head, p.tail = g[:i], g[strings.LastIndexAny(g, "*%")+1:]
		if !strings.Contains(g, "%") {
			pieces := strings.Split(g, "*")
			p.starOnly = true
			for _, m := range pieces[1 : len(pieces)-1] {
				if m != "" {
					p.mid = append(p.mid, m)
				}
			}
		}
	}
	return p
}

func (p *pattern) match(name, ops string) bool {
	switch {
	case p.ops:
		return ops != "" && p.globMatch(ops)
	case p.re != nil:
		return p.re.MatchString(name)
	}
	return p.globMatch(name)
}

func (p *pattern) globMatch(s string) bool {
	if !strings.HasPrefix(s, p.head) || !strings.HasSuffix(s, p.tail) {
		return false
	}
	if !p.starOnly {
		return globMatch(p.glob, s)
	}
	if len(s) < len(p.head)+len(p.tail) {
		return false // head and tail would overlap
	}
	rest := s[len(p.head) : len(s)-len(p.tail)]
	for _, m := range p.mid {
		i := strings.Index(rest, m)
		if i < 0 {
			return false
		}
		rest = rest[i+len(m):]
	}
	return true
}

// globMatch matches name against a glob of literal text, "*" and "%".
func globMatch(g, name string) bool {
	for len(g) > 0 {
		switch g[0] {
		case '*':
			g = g[1:]
			if g == "" {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if globMatch(g, name[i:]) {
					return true
				}
			}
			return false
		case '%':
			g = g[1:]
			n := 0
			for n < len(name) && name[n] != '_' {
				n++
			}
			if n == 0 {
				return false
			}
			// The token may end early only where the rest matches there.
			for i := n; i >= 1; i-- {
				if globMatch(g, name[i:]) {
					return true
				}
			}
			return false
		default:
			if name == "" || name[0] != g[0] {
				return false
			}
			g, name = g[1:], name[1:]
		}
	}
	return name == ""
}

// ruleKeys are the fact keys the table may use, with what their value is:
// "" a flag, "shape" a shape name, "int" a number, "type" an operand type,
// "text" anything.
var ruleKeys = map[string]string{
	"shape": "shape", "print": "text", "suffix": "text", "short-only": "", "no-promote": "",
	"vop3b": "", "kconst": "", "legacy16": "", "int-dot": "",
	"interp-mov": "", "interp-src2": "", "interp-f16": "", "interp-p10": "", "lds-param": "",
	"wmma": "", "sparse": "", "fmt-scaled": "", "fmt-fixed": "", "blgp-neg": "",
	"data": "int", "sbase": "int", "prefetch": "", "pc-rel": "",
	"mem": "text", "lane-addr": "", "ds-returns": "", "ds-two-data": "",
	"two-addr": "", "double-dst": "", "cache-bits": "", "cmpswap": "", "swizzle": "", "gws": "", "typed": "", "th": "text", "sdwa-pad": "", "bitop3": "", "lane-ctl": "", "op-sel-list": "int", "byte-sel": "int",
	"mimg": "text", "mimg-args": "text", "mimg-lod": "", "mimg-no-coords": "",
	"pk16": "", "dot": "", "pk-f32": "", "srcs-vop3": "int", "srcs-vop2": "int", "wide": "text",
	"src-class": "text", "neg-lo": "text", "neg-hi": "text", "clamp": "text", "op-sel": "text", "index-key": "int", "reuse": "", "neg-ignored": "",
	"dst": "type", "src0": "type", "src1": "type", "src2": "type", "srcs": "type",
}

// kindByName maps the table's format column to kinds.
var kindByName = func() map[string]Kind {
	m := map[string]Kind{}
	for k, n := range kindNames {
		m[n] = Kind(k)
	}
	return m
}()

// parseRules reads shapes.tsv: generations, formats, mnemonic patterns,
// facts, reason, tab-separated; "#" starts a comment line.
func parseRules(text string) ([]rule, error) {
	var out []rule
	for i, ln := range strings.Split(text, "\n") {
		ln = strings.TrimRight(ln, "\r")
		if strings.TrimSpace(ln) == "" || strings.HasPrefix(strings.TrimSpace(ln), "#") {
			continue
		}
		cols := strings.Split(ln, "\t")
		if len(cols) != 5 {
			return nil, fmt.Errorf("shapes.tsv:%d: %d columns, want 5 (gens, formats, patterns, facts, reason)", i+1, len(cols))
		}
		r := rule{line: i + 1, reason: strings.TrimSpace(cols[4])}
		if r.reason == "" {
			return nil, fmt.Errorf("shapes.tsv:%d: no reason", i+1)
		}
		var err error
		if r.genLo, r.genHi, err = parseGens(cols[0]); err != nil {
			return nil, fmt.Errorf("shapes.tsv:%d: %v", i+1, err)
		}
		for _, f := range strings.Split(cols[1], ",") {
			f = strings.TrimSpace(f)
			if f == "*" {
				r.kinds = ^uint32(0)
				continue
			}
			k, ok := kindByName[f]
			if !ok {
				return nil, fmt.Errorf("shapes.tsv:%d: unknown format kind %q", i+1, f)
			}
			r.kinds |= 1 << uint(k)
		}
		for _, p := range strings.Split(cols[2], ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				return nil, fmt.Errorf("shapes.tsv:%d: empty pattern", i+1)
			}
			if o, ok := strings.CutPrefix(p, "ops="); ok {
				r.pats = append(r.pats, globPattern(o, true))
				r.model = true
				continue
			}
			if strings.HasPrefix(p, "^") {
				re, err := regexp.Compile(p)
				if err != nil {
					return nil, fmt.Errorf("shapes.tsv:%d: %v", i+1, err)
				}
				r.pats = append(r.pats, pattern{re: re})
				continue
			}
			r.pats = append(r.pats, globPattern(p, false))
		}
		for _, f := range strings.Fields(cols[3]) {
			k, v, hasVal := strings.Cut(f, "=")
			typ, ok := ruleKeys[k]
			if !ok {
				return nil, fmt.Errorf("shapes.tsv:%d: unknown fact %q", i+1, k)
			}
			if (typ == "") == hasVal {
				return nil, fmt.Errorf("shapes.tsv:%d: fact %q: a flag takes no value, the others one", i+1, f)
			}
			switch typ {
			case "shape":
				if _, ok := shapeByName[v]; !ok {
					return nil, fmt.Errorf("shapes.tsv:%d: unknown shape %q", i+1, v)
				}
			case "int":
				if _, err := strconv.Atoi(v); err != nil {
					return nil, fmt.Errorf("shapes.tsv:%d: %s=%q is not a number", i+1, k, v)
				}
			case "type":
				if _, ok := parseTypeFact(v); !ok {
					return nil, fmt.Errorf("shapes.tsv:%d: %s=%q is not an operand type", i+1, k, v)
				}
			}
			if slices.Contains(profileKeys, k) {
				if err := checkProfileFact(k, v); err != nil {
					return nil, fmt.Errorf("shapes.tsv:%d: %v", i+1, err)
				}
			}
			r.facts = append(r.facts, fact{k, v})
		}
		if len(r.facts) == 0 {
			return nil, fmt.Errorf("shapes.tsv:%d: no facts", i+1)
		}
		out = append(out, r)
	}
	return out, nil
}

func parseGens(s string) (lo, hi int, err error) {
	s = strings.TrimSpace(s)
	if s == "*" {
		return 0, 99, nil
	}
	a, b, isRange := strings.Cut(s, "-")
	num := func(x string, def int) (int, error) {
		if x == "" {
			return def, nil
		}
		return strconv.Atoi(x)
	}
	if lo, err = num(a, 0); err != nil {
		return 0, 0, fmt.Errorf("generations %q", s)
	}
	if !isRange {
		return lo, lo, nil
	}
	if hi, err = num(b, 99); err != nil {
		return 0, 0, fmt.Errorf("generations %q", s)
	}
	return lo, hi, nil
}

// typeFact is an operand type a rule gives: a type letter and a size,
// either left out (0), and whether it overrides the model's sizes ("!").
type typeFact struct {
	t    byte
	size int
	fix  bool
}

var typeFactRe = regexp.MustCompile(`^(f|i|b|h)?(\d+)?(!)?$`)

func parseTypeFact(v string) (typeFact, bool) {
	m := typeFactRe.FindStringSubmatch(v)
	if m == nil || m[1] == "" && m[2] == "" {
		return typeFact{}, false
	}
	var tf typeFact
	if m[1] != "" {
		tf.t = m[1][0]
	}
	if m[2] != "" {
		tf.size, _ = strconv.Atoi(m[2])
	}
	tf.fix = m[3] != ""
	return tf, true
}

// apply sets the parts of o the fact gives.
func (tf typeFact) apply(o *opType) {
	if tf.t != 0 {
		o.t = tf.t
	}
	if tf.size != 0 {
		o.size = tf.size
	}
}

// facts is what the rules say of one instruction in one format: for each
// key the first matching row's value, and the row it came from.
type facts struct {
	val  map[string]string
	from map[string]int // key -> shapes.tsv line
	rows []int          // the lines of the rows that decided something
	// sig are the type facts in table order (several rows may set parts
	// of one operand: the first row to set a part wins).
	sig [2][5]typeFact // [guess, fix][dst, src0, src1, src2, srcs]
}

func (f *facts) has(k string) bool { _, ok := f.val[k]; return ok }

func (f *facts) get(k string) string { return f.val[k] }

func (f *facts) num(k string) int {
	n, _ := strconv.Atoi(f.val[k])
	return n
}

var sigSlot = map[string]int{"dst": 0, "src0": 1, "src1": 2, "src2": 3, "srcs": 4}

// lookup collects the facts of the rows that match the mnemonic name or
// the model's operand names ops ("sdst+ssrc0"; "" when the model has none).
func (t *ruleTable) lookup(gen int, k Kind, name, ops string) facts {
	f := facts{val: map[string]string{}, from: map[string]int{}}
	for i := range t.rows {
		r := &t.rows[i]
		if gen < r.genLo || gen > r.genHi || r.kinds&(1<<uint(k)) == 0 || !r.matches(name, ops) {
			continue
		}
		decided := false
		for _, fc := range r.facts {
			if slot, ok := sigSlot[fc.key]; ok {
				tf, _ := parseTypeFact(fc.val)
				stage := 0
				if tf.fix {
					stage = 1
				}
				cur := &f.sig[stage][slot]
				if cur.t == 0 && tf.t != 0 {
					cur.t, decided = tf.t, true
				}
				if cur.size == 0 && tf.size != 0 {
					cur.size, decided = tf.size, true
				}
				continue
			}
			if _, seen := f.val[fc.key]; seen {
				continue
			}
			f.val[fc.key] = fc.val
			f.from[fc.key] = r.line
			decided = true
		}
		if decided {
			f.rows = append(f.rows, r.line)
		}
	}
	return f
}

// has says whether a matching row gives the flag key (the rows consulted
// before an entry is prepared: VOP3B layouts and the VOP3 promotions).
//
// It is lookup's answer for one key without building the facts: a row
// counts only if it gives key, so the patterns (and the model's operand
// names) are matched for those rows alone — New asks this of most of a
// family's VOP3 encodings, and a full lookup each time was a quarter of a
// decoder's start.
func (t *ruleTable) has(gen int, k Kind, in *isa.Instruction, name, key string) bool {
	if _, sig := sigSlot[key]; sig {
		return false // type facts go to facts.sig, never to the keys has reads
	}
	ops, opsDone := "", false
	for _, r := range t.giving[key] {
		if gen < r.genLo || gen > r.genHi || r.kinds&(1<<uint(k)) == 0 {
			continue
		}
		if !opsDone {
			ops, opsDone = modelOps(in), true
		}
		if r.matches(name, ops) {
			return true
		}
	}
	return false
}

func (r *rule) matches(name, ops string) bool {
	for i := range r.pats {
		if r.pats[i].match(name, ops) {
			return true
		}
	}
	return false
}

// modelOps are the model's operand names of an instruction joined by "+"
// (what the ops= rows match), "" when it has none.
func modelOps(in *isa.Instruction) string {
	if in == nil || len(in.Operands) == 0 {
		return ""
	}
	var b strings.Builder
	for i, o := range in.Operands {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strings.ToLower(o.Name))
	}
	return b.String()
}

// ruleTable is the parsed shapes.tsv.
type ruleTable struct {
	rows []rule
	// giving lists, per fact key, the rows that give it, in table order
	// (what has reads).
	giving map[string][]*rule
}

func newRuleTable(rows []rule) *ruleTable {
	t := &ruleTable{rows: rows, giving: map[string][]*rule{}}
	for i := range t.rows {
		r := &t.rows[i]
		for _, fc := range r.facts {
			if g := t.giving[fc.key]; len(g) == 0 || g[len(g)-1] != r {
				t.giving[fc.key] = append(g, r)
			}
		}
	}
	return t
}

// rowAt is the row at a line of shapes.tsv (the zero rule if none).
func (t *ruleTable) rowAt(line int) rule {
	for _, r := range t.rows {
		if r.line == line {
			return r
		}
	}
	return rule{}
}

// rules is the embedded table; a malformed table is a build defect, which
// TestRulesParse reports.
var rules = func() *ruleTable {
	rows, err := parseRules(shapesTSV)
	if err != nil {
		panic(err)
	}
	return newRuleTable(rows)
}()
