package ptx

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/base/fuzzy"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Checker checks PTX instructions against the documented forms. Build it
// once with NewChecker; it is safe for concurrent use after that.
type Checker struct {
	byFirst map[string][]*entry // by the mnemonic's first token
	names   []string
	// probes finds the statements ptxas judged, by ProbeKey.
	probes map[string]probeHit
	// memo caches verdicts by opcode and operand count: real PTX repeats a
	// few hundred opcodes over and over.
	memo sync.Map
	// sregs are the special registers; removed the (version, target) from
	// which an entry's forms are gone, by entry name; docs the PTX ISA
	// version the documents describe.
	sregs   sregTable
	removed map[string]*Option
	docs    string
	// targetIntro is the PTX ISA version each target string came in.
	targetIntro map[string]string
	// vocabulary holds every token some documented form can write.
	vocabulary map[string]bool
	// directives are the (version, target) each directive needs.
	directives map[string]Option
}

type probeHit struct {
	e  *entry
	cf *compiledForm
}

type entry struct {
	name   string
	tokens []string
	forms  []compiledForm
}

type compiledForm struct {
	form   *Form
	nodes  []node
	slots  []slot // the pattern for matching modifiers in any order
	first  string // the mnemonic's first token
	counts []int
	poss   map[string]bool
	req    []string // tokens every match has
	reqs   []compiledReq
	oracle *compiledOracle
	// note is set on a form ptxas accepts beyond the documents
	// (ptxasForms): where that fact comes from.
	note string
}

// NewChecker compiles the instruction entries' forms into patterns. Forms
// whose syntax does not parse are skipped (Build reports them already).
func NewChecker(instrs []Instruction) *Checker {
	c := &Checker{byFirst: map[string][]*entry{}, probes: map[string]probeHit{}, sregs: buildSregs(instrs), removed: map[string]*Option{}, docs: docsVersion(instrs), targetIntro: targetIntroductions(instrs), vocabulary: map[string]bool{}, directives: directiveNeeds(instrs)}
	ambiguous := map[string]bool{}
	for i := range instrs {
		in := &instrs[i]
		if in.Kind != "" && in.Kind != KindInstruction {
			continue
		}
		e := &entry{name: in.Name, tokens: Tokens(in.Name)}
		if rm := removalOf(in.Notes); rm != nil {
			c.removed[in.Name] = rm
		}
		extra, notes := ptxasExtraForms(in)
		for j := range len(in.Forms) + len(extra) {
			var f *Form
			note := ""
			if j < len(in.Forms) {
				f = withoutRejectedChoices(in.Name, &in.Forms[j])
			} else {
				f, note = &extra[j-len(in.Forms)], notes[j-len(in.Forms)]
			}
			nodes, operands, err := f.pattern()
			if err != nil {
				continue
			}
			cf := compiledForm{form: f, nodes: nodes, slots: slotsOf(nodes), counts: parseOperands(operands).counts(), poss: map[string]bool{}, reqs: compileRequirements(f.Requirements), note: note}
			if len(nodes) > 0 && len(nodes[0].choices) > 0 && len(nodes[0].choices[0]) > 0 {
				cf.first = nodes[0].choices[0][0]
			}
			cf.oracle = compileOracle(f)
			for t := range requiredTokens(nodes) {
				if !strings.Contains(t, "::") || !strings.HasPrefix(t, "::") {
					cf.req = append(cf.req, t)
				}
			}
			possibleTokens(nodes, cf.poss)
			for t := range cf.poss {
				c.vocabulary[t] = true
			}
			e.forms = append(e.forms, cf)
		}
		if len(e.tokens) == 0 {
			continue
		}
		for k := range e.forms {
			cf := &e.forms[k]
			if cf.oracle == nil {
				continue
			}
			for key, p := range cf.oracle.probes {
				if p.Status == "not-verified" || ambiguous[key] {
					continue
				}
				hit, dup := c.probes[key]
				if !dup {
					c.probes[key] = probeHit{e: e, cf: cf}
					continue
				}
				// Two statements that read alike (a 32-bit fourth operand
				// or a 64-bit cache policy) with different verdicts: the
				// text does not decide, so neither answers exactly.
				if q := hit.cf.oracle.probes[key]; q.Status != p.Status || !sameOptions(q.Options, p.Options) {
					delete(c.probes, key)
					ambiguous[key] = true
				}
			}
		}
		c.byFirst[e.tokens[0]] = append(c.byFirst[e.tokens[0]], e)
		c.names = append(c.names, in.Name)
	}
	return c
}

// Result is the verdict on one instruction.
type Result struct {
	Text       string `json:"text"`
	Line       int    `json:"line,omitempty"`
	Valid      bool   `json:"valid"`
	Reason     string `json:"reason,omitempty"`
	Mnemonic   string `json:"mnemonic,omitempty"`
	Syntax     string `json:"syntax,omitempty"` // the documented form it matched
	PTXVersion string `json:"ptx_version,omitempty"`
	MinTarget  string `json:"min_target,omitempty"`
	// Alternatives lists every (version, target) pair that satisfies the
	// instruction when there is more than one choice.
	Alternatives []Option `json:"alternatives,omitempty"`
	RaisedBy     []string `json:"raised_by,omitempty"` // notes (or, with ptxas's verdicts, modifiers) that raised version/target above the form's
	Source       string   `json:"source,omitempty"`    // file:line of the form in the documentation
	Note         string   `json:"note,omitempty"`      // e.g. the modifiers are in another order than documented
	// Verified is "ptxas" when the version and target are ptxas's verdicts
	// recorded in the database, "" when they come from the notes alone.
	Verified string `json:"verified,omitempty"`
	// RemovedFrom is the PTX ISA version and target from which the notes
	// say the form is no longer supported (shfl without .sync).
	RemovedFrom *Option `json:"removed_from,omitempty"`
	// Unjudged marks a statement the documents do not know in a file whose
	// .version is newer than they are: not counted invalid.
	Unjudged bool `json:"unjudged,omitempty"`
	// Rule names the context's rule that made a statement the documents
	// accept invalid: "target", "version" or "removed".
	Rule string `json:"rule,omitempty"`
}

// parsedInstr is one instruction split into opcode tokens and operands.
type parsedInstr struct {
	tokens   []string
	operands []string
}

// ParseInstruction splits "@!p max.NaN.f32 d, a, b;" into its opcode tokens
// and operands, dropping a label, a guard predicate and the semicolon.
//
// A statement is bounded (MaxStatement bytes, MaxModifiers opcode tokens):
// the longest real ones are a tenth of that, and the form matching after
// this is not linear in the modifiers, so a hostile line is refused here.
func ParseInstruction(s string) (tokens, operands []string, err error) {
	s = strings.TrimSpace(s)
	if len(s) > MaxStatement {
		return nil, nil, fmt.Errorf("statement of %d bytes: longer than the %d a PTX statement may have here", len(s), MaxStatement)
	}
	s = strings.TrimSuffix(s, ";")
	s = strings.TrimSpace(s)
	s = StripLabels(s)
	if strings.HasPrefix(s, "@") {
		sp := strings.IndexAny(s, " \t")
		if sp < 0 {
			return nil, nil, fmt.Errorf("guard predicate without an instruction: %q", s)
		}
		s = strings.TrimSpace(s[sp:])
	}
	if s == "" {
		return nil, nil, fmt.Errorf("empty instruction")
	}
	op, rest := s, ""
	if sp := strings.IndexAny(s, " \t"); sp >= 0 {
		op, rest = s[:sp], strings.TrimSpace(s[sp:])
	}
	if !isIdentStart(op[0]) {
		return nil, nil, fmt.Errorf("not an instruction: %q", op)
	}
	if n := strings.Count(op, ".") + 1; n > MaxModifiers {
		return nil, nil, fmt.Errorf("%d opcode tokens in %.40q...: more than the %d a PTX instruction may have here", n, op, MaxModifiers)
	}
	for _, t := range strings.Split(op, ".") {
		if t == "" {
			return nil, nil, fmt.Errorf("empty modifier in %q", op)
		}
		tokens = append(tokens, t)
	}
	if rest != "" {
		for _, o := range SplitTop(rest, ',') {
			o = strings.TrimSpace(o)
			if o == "" {
				return tokens, nil, fmt.Errorf("empty operand in %q", rest)
			}
			operands = append(operands, o)
		}
	}
	return tokens, operands, nil
}

// Limits of one statement (ParseInstruction).
const (
	MaxStatement = 16 << 10
	MaxModifiers = 40
)

var labelRe = lazyre.New(`^[A-Za-z_$%][\w$]*\s*:\s*`)

// StripLabels drops the labels ("L1:", "$L__BB0_1:") that start a trimmed
// statement.
func StripLabels(s string) string {
	for {
		m := labelRe.FindStringIndex(s)
		if m == nil {
			return s
		}
		s = strings.TrimSpace(s[m[1]:])
	}
}

// Check checks one instruction string.
func (c *Checker) Check(text string) Result {
	r, _, _ := c.checkParsed(text)
	return r
}

// checkParsed is Check, also returning the statement's opcode tokens and
// operands (nil when it does not parse) for the file's own rules.
func (c *Checker) checkParsed(text string) (Result, []string, []string) {
	r := Result{Text: strings.TrimSpace(text)}
	tokens, operands, err := ParseInstruction(text)
	if err != nil {
		r.Reason = err.Error()
		if len(r.Text) > 120 { // a refused statement is not echoed whole
			r.Text = r.Text[:120] + "…"
		}
		return r, nil, nil
	}
	// The memo's key: the opcode as written (the result's Note depends on
	// the order) and the operands' shapes (ptxas's verdicts do).
	var kb strings.Builder
	kb.WriteString(strings.Join(tokens, "."))
	for _, o := range operands {
		kb.WriteByte('/')
		kb.WriteString(shapeOf(o))
		if c.sregs.lookup(o) != nil {
			kb.WriteString("=" + o) // special registers differ in type and need
		}
	}
	key := kb.String()
	if v, ok := c.memo.Load(key); ok {
		res := v.(Result)
		res.Text = r.Text
		return res, tokens, operands
	}
	res := c.check(r, tokens, operands)
	if res.Valid {
		c.sregs.apply(&res, tokens, operands)
		if rm := c.removed[res.Mnemonic]; rm != nil {
			res.RemovedFrom = rm
		}
	}
	c.memo.Store(key, res)
	return res, tokens, operands
}

func (c *Checker) check(r Result, tokens, operands []string) Result {
	key := probeKey(tokens, operands)
	if hit, ok := c.probes[key]; ok {
		// A statement ptxas judged: its verdict, whatever the grammar says.
		res := evaluate(hit.cf, tokens, len(operands), key)
		res.Text, res.Mnemonic = r.Text, hit.e.name
		return res
	}
	cands := c.candidates(tokens)
	if len(cands) == 0 {
		r.Reason = "unknown mnemonic " + tokens[0]
		if s := c.suggest(tokens); s != "" {
			r.Reason += " (did you mean " + s + "?)"
		}
		return r
	}
	r.Mnemonic = cands[0].name
	// Forms ptxas verified speak first: a statement a verified form rejects
	// is invalid even where a form ptxas could not confirm (NVIDIA's
	// "cvt{.irnd}...bf16.f32", every statement of which it rejects) would
	// accept it by the documentation alone.
	var best, rejected [2]*Result // [0] verified forms, [1] the others
	hint, hintless := slices.Contains(tokens[1:], cacheHintToken), false
	for _, e := range cands {
		for i := range e.forms {
			cf := &e.forms[i]
			if !slices.Contains(cf.counts, len(operands)) || !cf.couldMatch(tokens) {
				continue
			}
			if hint && len(cf.counts) > 1 && len(operands) == slices.Min(cf.counts) {
				// ".L2::cache_hint" names the cache-policy operand the
				// syntax shows as optional: without any optional
				// operand, ptxas finds none ("Arguments mismatch").
				hintless = true
				continue
			}
			ordered := matchNodes(cf.nodes, tokens)
			if !ordered && !matchSlots(cf.first, cf.slots, tokens) {
				continue
			}
			res := evaluate(cf, tokens, len(operands), key)
			if !ordered {
				res.Note = "modifiers in another order than documented (" + cf.form.Syntax + "); ptxas reads them in any order"
			}
			if cf.note != "" {
				res.Note = strings.TrimPrefix(res.Note+"; "+cf.note, "; ")
			}
			res.Text, res.Mnemonic = r.Text, e.name
			k := 1
			if cf.oracle != nil && cf.oracle.o.Status == "verified" {
				k = 0
			}
			if !res.Valid {
				if rejected[k] == nil {
					rejected[k] = &res
				}
				continue
			}
			if b := best[k]; b == nil || ptxorder.CompareVersions(res.PTXVersion, b.PTXVersion) < 0 ||
				ptxorder.CompareVersions(res.PTXVersion, b.PTXVersion) == 0 && ptxorder.CompareTargets(res.MinTarget, b.MinTarget) < 0 {
				best[k] = &res
			}
		}
	}
	for _, p := range []*Result{best[0], rejected[0], best[1], rejected[1]} {
		if p != nil {
			return *p
		}
	}
	r.Reason = diagnose(cands, tokens, len(operands))
	if hintless {
		r.Reason = "." + cacheHintToken + " needs its cache-policy operand, which the statement does not write"
	}
	return r
}

// cacheHintToken is the qualifier whose statements write a cache policy.
const cacheHintToken = "L2::cache_hint"

// candidates returns the entries whose mnemonic tokens the instruction
// has — the first one first, the others anywhere, as ptxas reads them
// ("ld.global.ca.nc" is ld.global.nc) — longest first ("ld.global.nc"
// before "ld").
func (c *Checker) candidates(tokens []string) []*entry {
	var out []*entry
	for _, e := range c.byFirst[tokens[0]] {
		if len(e.tokens) > len(tokens) {
			continue
		}
		ok := true
		for i, t := range e.tokens {
			// "tcgen05.wait::ld" is mnemonic tcgen05.wait with a suffix.
			if tokens[i] == t || strings.HasPrefix(tokens[i], t+"::") {
				continue
			}
			if i == 0 || !containsToken(tokens[1:], t) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].tokens) > len(out[j].tokens) })
	return out
}

func (c *Checker) suggest(tokens []string) string {
	// The same edit distance and limits as every other "did you mean"
	// (package fuzzy): the nearest documented mnemonic other than the one
	// written.
	seen := map[string]bool{tokens[0]: true}
	var cands []string
	for _, n := range c.names {
		if m := Tokens(n)[0]; !seen[m] {
			seen[m] = true
			cands = append(cands, m)
		}
	}
	if s := fuzzy.Closest(tokens[0], cands, 1); len(s) > 0 {
		return s[0]
	}
	return ""
}

// couldMatch is a cheap filter before the backtracking match: every token
// must be possible in the form and every required token present.
func (cf *compiledForm) couldMatch(tokens []string) bool {
	for _, t := range tokens {
		if !cf.poss[t] {
			return false
		}
	}
	for _, t := range cf.req {
		found := false
		for _, x := range tokens {
			if x == t || strings.HasPrefix(x, t+"::") {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func containsToken(tokens []string, t string) bool {
	for _, x := range tokens {
		if x == t || strings.HasPrefix(x, t+"::") {
			return true
		}
	}
	return false
}

// matchNodes reports whether the pattern accepts exactly these tokens.
func matchNodes(nodes []node, tokens []string) bool {
	return matchFrom(nodes, 0, tokens, 0, func(j int) bool { return j == len(tokens) })
}

// matchFrom matches nodes[k:] against tokens[j:], calling cont with every
// position where a match could end (backtracking over optional parts).
func matchFrom(nodes []node, k int, tokens []string, j int, cont func(int) bool) bool {
	if k == len(nodes) {
		return cont(j)
	}
	n := nodes[k]
	next := func(j2 int) bool { return matchFrom(nodes, k+1, tokens, j2, cont) }
	if n.opt {
		for _, a := range n.alts {
			if matchFrom(a, 0, tokens, j, next) {
				return true
			}
		}
		return next(j)
	}
	for _, ch := range n.choices {
		if j+len(ch) > len(tokens) {
			continue
		}
		ok := true
		for i, t := range ch {
			if tokens[j+i] != t {
				ok = false
				break
			}
		}
		if ok && next(j+len(ch)) {
			return true
		}
	}
	return false
}

// compiledReq is a Requirement with its conditions split into tokens.
type compiledReq struct {
	feature  string
	seq      []compiledElem
	when     [][][]string // element -> alternatives -> tokens
	operands int
	options  []Option
	hasV     bool // gives a version
	hasT     bool // gives a target
}

type compiledElem struct {
	alts     [][]string
	position string
}

func splitAlts(s string) [][]string {
	var out [][]string
	for _, a := range strings.Split(s, "|") {
		out = append(out, strings.Split(a, "+"))
	}
	return out
}

func compileRequirements(reqs []Requirement) []compiledReq {
	out := make([]compiledReq, len(reqs))
	for i, r := range reqs {
		c := compiledReq{feature: r.Feature, operands: r.Operands, options: r.options()}
		for _, e := range r.Sequence {
			c.seq = append(c.seq, compiledElem{splitAlts(e.Alts), e.Position})
		}
		for _, w := range r.When {
			c.when = append(c.when, splitAlts(w))
		}
		for _, o := range c.options {
			c.hasV = c.hasV || o.PTXVersion != ""
			c.hasT = c.hasT || o.MinTarget != ""
		}
		out[i] = c
	}
	return out
}

// elements lists every condition of the requirement, order ignored.
func (c *compiledReq) elements() [][][]string {
	out := make([][][]string, 0, len(c.seq)+len(c.when))
	for _, e := range c.seq {
		out = append(out, e.alts)
	}
	return append(out, c.when...)
}

// implies reports whether every instruction meeting a also meets b: each of
// b's conditions is narrowed by one of a's. Such an a is the more specific
// note, and its word wins over b's.
func (a *compiledReq) implies(b *compiledReq) bool {
	if b.operands != 0 && a.operands != b.operands {
		return false
	}
	ae := a.elements()
	for _, eb := range b.elements() {
		found := false
		for _, ea := range ae {
			if altsSubset(ea, eb) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func altsSubset(a, b [][]string) bool {
	for _, x := range a {
		hit := false
		for _, y := range b {
			if strings.Join(x, "+") == strings.Join(y, "+") {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// combine applies the requirements that hold (applies) to base: each one
// raises version and target, a note being skipped for a dimension when a
// more specific applying note speaks to it. The result lists every
// undominated (version, target) pair, lowest version first.
func combine(base Option, reqs []compiledReq, applies func(*compiledReq) bool) []Option {
	var on []*compiledReq
	for i := range reqs {
		if applies(&reqs[i]) {
			on = append(on, &reqs[i])
		}
	}
	opts := []Option{base}
	for _, b := range on {
		useV, useT := b.hasV, b.hasT
		for _, a := range on {
			if a == b || !a.implies(b) || b.implies(a) {
				continue
			}
			if a.hasV {
				useV = false
			}
			if a.hasT {
				useT = false
			}
		}
		if len(b.options) > 1 {
			useV, useT = true, true // alternatives travel together
		}
		if !useV && !useT {
			continue
		}
		var next []Option
		for _, o := range opts {
			for _, r := range b.options {
				n := o
				if useV && r.PTXVersion != "" {
					n.PTXVersion = maxVersion(n.PTXVersion, r.PTXVersion)
				}
				if useT && r.MinTarget != "" {
					n.MinTarget = maxTarget(n.MinTarget, r.MinTarget)
				}
				next = append(next, n)
			}
		}
		opts = pruneOptions(next)
	}
	return opts
}

// pruneOptions drops pairs another pair beats on both version and target.
func pruneOptions(opts []Option) []Option {
	var out []Option
	for i, o := range opts {
		dominated := false
		for j, p := range opts {
			if i == j {
				continue
			}
			cv, ct := ptxorder.CompareVersions(p.PTXVersion, o.PTXVersion), ptxorder.CompareTargets(p.MinTarget, o.MinTarget)
			if cv <= 0 && ct <= 0 && (cv < 0 || ct < 0 || j < i) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, o)
		}
	}
	sortOptions(out)
	return out
}

// holds reports whether the requirement's conditions hold for an
// instruction with these tokens and operand count.
func (c *compiledReq) holds(tokens []string, present map[string]bool, nOperands int) bool {
	if c.operands != 0 && c.operands != nOperands {
		return false
	}
	for _, w := range c.when {
		if !anyAltPresent(w, present) {
			return false
		}
	}
	if len(c.seq) == 0 {
		return true
	}
	firstType, srcFrom := typeSlots(tokens, isType)
	return seqInTokens(c.seq, 0, tokens, 1, firstType, srcFrom)
}

func anyAltPresent(alts [][]string, present map[string]bool) bool {
	for _, alt := range alts {
		all := true
		for _, t := range alt {
			if !present[t] {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// seqInTokens finds seq[i:] in order in tokens[from:] (token 0 is the
// mnemonic's first part).
func seqInTokens(seq []compiledElem, i int, tokens []string, from, firstType, srcFrom int) bool {
	if i == len(seq) {
		return true
	}
	e := seq[i]
	for k := from; k < len(tokens); k++ {
		switch e.position {
		case "destination":
			if k != firstType {
				continue
			}
		case "source":
			if firstType < 0 || k < srcFrom || !isType(tokens[k]) {
				continue
			}
		}
		for _, a := range e.alts {
			if len(a) == 1 && tokenMatches(a[0], tokens[k]) && seqInTokens(seq, i+1, tokens, k+1, firstType, srcFrom) {
				return true
			}
		}
	}
	return false
}

// evaluate works out whether a matched form's instruction is valid and the
// version and target it needs: ptxas's verdicts on the form and its
// optional parts where the database has them (oracle.go), the
// documentation's notes otherwise.
func evaluate(cf *compiledForm, tokens []string, nOperands int, key string) Result {
	r := evaluateDocs(cf, tokens, nOperands)
	r.Valid = true
	if cf.oracle != nil {
		cf.oracle.apply(&r, cf, tokens, nOperands, key)
	}
	return r
}

// evaluateDocs is what the documentation's notes say.
func evaluateDocs(cf *compiledForm, tokens []string, nOperands int) Result {
	f := cf.form
	r := Result{Syntax: f.Syntax, Source: fmt.Sprintf("%s:%d", f.File, f.Line)}
	present := presentTokens(tokens)
	applies := func(c *compiledReq) bool { return c.holds(tokens, present, nOperands) }
	opts := combine(f.Base, cf.reqs, applies)
	r.PTXVersion, r.MinTarget = opts[0].PTXVersion, opts[0].MinTarget
	if len(opts) > 1 {
		r.Alternatives = opts
	}
	for i := range cf.reqs {
		c := &cf.reqs[i]
		if !applies(c) {
			continue
		}
		for _, o := range c.options {
			if (o.PTXVersion != "" && ptxorder.CompareVersions(o.PTXVersion, f.Base.PTXVersion) > 0 ||
				o.MinTarget != "" && ptxorder.CompareTargets(o.MinTarget, f.Base.MinTarget) > 0) && !slices.Contains(r.RaisedBy, c.feature) {
				r.RaisedBy = append(r.RaisedBy, c.feature)
			}
		}
	}
	return r
}

// diagnose explains why no form matched, most specific reason first.
func diagnose(cands []*entry, tokens []string, nOperands int) string {
	name := cands[0].name
	skip := len(cands[0].tokens)
	poss := map[string]bool{}
	for _, e := range cands {
		for _, cf := range e.forms {
			for t := range cf.poss {
				poss[t] = true
			}
		}
	}
	for _, t := range tokens[skip:] {
		if !poss[t] {
			return fmt.Sprintf("unknown modifier .%s for %s", t, name)
		}
	}
	// Right modifiers, wrong operand count?
	var counts []int
	for _, e := range cands {
		for _, cf := range e.forms {
			if matchNodes(cf.nodes, tokens) {
				counts = append(counts, cf.counts...)
			}
		}
	}
	if len(counts) > 0 {
		return fmt.Sprintf("wrong operand count: %d given, %s takes %s", nOperands, strings.Join(tokens, "."), countsText(counts))
	}
	// One token too many for this combination: "modifier not allowed with this type".
	types := typesOf(tokens[skip:])
	for i := skip; i < len(tokens); i++ {
		rest := append(append([]string(nil), tokens[:i]...), tokens[i+1:]...)
		for _, e := range cands {
			for _, cf := range e.forms {
				if matchNodes(cf.nodes, rest) {
					if cf.poss[tokens[i]] {
						return fmt.Sprintf("modifier .%s out of the documented order for %s (documented: %s)", tokens[i], name, cf.form.Syntax)
					}
					if len(types) > 0 && !isType(tokens[i]) {
						return fmt.Sprintf("modifier .%s not allowed with type %s for %s", tokens[i], strings.Join(types, ""), name)
					}
					if isType(tokens[i]) {
						return fmt.Sprintf("type .%s not allowed in this combination for %s", tokens[i], name)
					}
					return fmt.Sprintf("modifier .%s not allowed in this combination for %s", tokens[i], name)
				}
			}
		}
	}
	if len(types) == 0 {
		return fmt.Sprintf("%s needs a type or a required modifier that is missing", name)
	}
	return fmt.Sprintf("no documented form of %s accepts %s", name, strings.Join(tokens, "."))
}

func typesOf(tokens []string) []string {
	var out []string
	for _, t := range tokens {
		if isType(t) {
			out = append(out, "."+t)
		}
	}
	return out
}

func countsText(counts []int) string {
	u := slices.Compact(slices.Sorted(slices.Values(counts)))
	parts := make([]string, len(u))
	for i, c := range u {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, " or ")
}

// Allows reports whether a valid result's requirements allow target: some
// (version, target) option's target is no newer, and an "a" or "f" target
// is met as TargetMeets says.
func (r Result) Allows(target string) bool {
	opts := r.Alternatives
	if len(opts) == 0 {
		opts = []Option{{PTXVersion: r.PTXVersion, MinTarget: r.MinTarget}}
	}
	for _, o := range opts {
		if o.MinTarget == "" || TargetMeets(target, o.MinTarget) {
			return true
		}
	}
	return false
}

// presentTokens is the set of a statement's tokens the notes' conditions
// test, with the generic state space where the statement names none.
func presentTokens(tokens []string) map[string]bool {
	present := map[string]bool{}
	space := false
	for i, t := range tokens {
		addToken(present, t)
		space = space || i > 0 && isStateSpace(t)
	}
	if !space {
		present[genericToken] = true
	}
	return present
}
