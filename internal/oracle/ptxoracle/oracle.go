// Package ptxoracle checks PTX statements with NVIDIA's assembler: for each
// statement (generated from a documented form, or taken from NVIDIA's
// examples) it asks ptxas, on every sm_ target it knows, whether the
// statement assembles at the PTX ISA version of the documentation, and for
// each target that accepts it, the lowest PTX ISA version that does. When
// ptxas rejects a statement everywhere because of how the harness typed its
// operands (an "Arguments mismatch"), it searches other register sizes and
// vector lengths before calling the statement rejected, so a verdict is
// about the instruction, not about the harness.
//
// All work is batched: one ptxas process per (PTX version, target) over
// many statements (internal/oracle/ptxas), cached by tool version, PTX version,
// target and kernel text.
package ptxoracle

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Item is one statement to check.
type Item struct {
	Stmt ptx.Statement
	// Rerender writes the statement again with other vector lengths (by
	// operand index); nil when the text is fixed (an example).
	Rerender func(lengths map[int]int) (string, map[int]int)
	// Lengths are the vector operands' lengths as first rendered.
	Lengths map[int]int
	// Complete says the statement is generated from a form and writes
	// every operand the form can take: ptxas rejecting its operands with
	// every register type may then be about the instruction (Exhausted).
	Complete bool
}

// Status of a verdict.
const (
	Accepted    = "accepted"     // some target accepts the statement
	Rejected    = "rejected"     // every target rejects it
	NotVerified = "not-verified" // it could not be put to ptxas (harness error)
)

// Verdict is what ptxas said about one item.
type Verdict struct {
	Stmt    ptx.Statement // as assembled: the typing the search settled on
	Status  string
	Message string // the harness's error, or ptxas's message where rejected
	// Targets holds one result per grid target, oldest first.
	Targets []TargetResult
	// Searched is set when the statement assembled only after the search
	// changed the harness's first typing or vector lengths.
	Searched bool
	// ContextDropped is set for an example that ptxas rejected with its
	// documented declarations and accepted without them.
	ContextDropped bool
	ContextMessage string // ptxas's message in the documented context
	// Exhausted is set when ptxas rejected the statement for its operands
	// with every register type the harness could give them (all it
	// chooses are register types, and the search tried every
	// combination): the rejection is about the instruction as written.
	Exhausted bool
}

// TargetResult is ptxas's answer on one target.
type TargetResult struct {
	Target  string
	Version string // the PTX ISA version assembled with (the grid's)
	OK      bool
	Message string
	// MinPTX is the lowest PTX ISA version that accepts the statement on
	// this target (set when OK); Floor says it is the lowest version the
	// target allows at all, so the statement may be older still.
	MinPTX string
	Floor  bool
}

// MinTarget returns the lowest accepting target and the lowest PTX ISA
// version over all accepting targets ("" when none accepts).
func (v Verdict) MinTarget() (target, version string, floor bool) {
	for _, t := range v.Targets {
		if !t.OK {
			continue
		}
		if target == "" {
			target = t.Target
		}
		if version == "" || ptxorder.CompareVersions(t.MinPTX, version) < 0 {
			version, floor = t.MinPTX, t.Floor
		}
	}
	return target, version, floor
}

// Options configure Check.
type Options struct {
	// DocVersion is the PTX ISA version of the documentation ("9.1"): the
	// grid assembles with it on every target that allows it, else with the
	// nearest version the target allows.
	DocVersion string
	// Progress, when set, is told each step's name and size, then each
	// advance.
	Progress func(step string, done, total int)
	// MaxSearch bounds the typings tried per statement (default 24).
	MaxSearch int
}

// Engine checks items with one session.
type Engine struct {
	Session *ptxas.Session
	Harness *ptxharness.Harness
	Options Options
	targets []ptxas.TargetInfo
}

// New returns an engine; it probes the targets ptxas knows.
func New(ctx context.Context, s *ptxas.Session, h *ptxharness.Harness, opts Options) (*Engine, error) {
	ts, err := s.Targets(ctx)
	if err != nil {
		return nil, err
	}
	if opts.DocVersion == "" {
		opts.DocVersion = "9.1"
	}
	if opts.MaxSearch <= 0 {
		opts.MaxSearch = 24
	}
	return &Engine{Session: s, Harness: h, Options: opts, targets: ts}, nil
}

// Targets are the grid's targets, oldest first.
func (e *Engine) Targets() []ptxas.TargetInfo { return e.targets }

// GridVersion is the PTX ISA version the grid uses for a target: the
// documentation's where the target allows it, else the nearest one it
// allows (its newest below, or its oldest above: sm_107 needs PTX 9.4).
func (e *Engine) GridVersion(t ptxas.TargetInfo) string {
	best := ""
	for _, v := range t.Versions {
		if ptxorder.CompareVersions(v, e.Options.DocVersion) <= 0 {
			best = v
		}
	}
	if best == "" && len(t.Versions) > 0 {
		best = t.Versions[0]
	}
	return best
}

func (e *Engine) progress(step string, done, total int) {
	if e.Options.Progress != nil {
		e.Options.Progress(step, done, total)
	}
}

// Check returns one verdict per item.
func (e *Engine) Check(ctx context.Context, items []Item) ([]Verdict, error) {
	out := make([]Verdict, len(items))
	units := make([]*ptxas.Unit, len(items))
	decls := make([][]ptxharness.Declared, len(items))
	for i, it := range items {
		out[i].Stmt = it.Stmt
		u, d, err := e.Harness.Unit(it.Stmt)
		if err != nil {
			out[i].Status, out[i].Message = NotVerified, "harness: "+err.Error()
			continue
		}
		units[i], decls[i] = &u, d
	}
	grid, err := e.grid(ctx, units, "assembling PTX statements with ptxas")
	if err != nil {
		return nil, err
	}
	for i := range items {
		if units[i] != nil {
			out[i].Targets = grid[i]
		}
	}
	if err := e.search(ctx, items, out, units, decls); err != nil {
		return nil, err
	}
	if err := e.minVersions(ctx, out, units); err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Status == NotVerified {
			continue
		}
		out[i].Status, out[i].Message = Rejected, ""
		for _, t := range out[i].Targets {
			if t.OK {
				out[i].Status = Accepted
				break
			}
		}
		if out[i].Status == Rejected {
			out[i].Message = bestMessage(out[i].Targets)
		}
	}
	return out, nil
}

// grid assembles units (nil ones skipped) on every target.
func (e *Engine) grid(ctx context.Context, units []*ptxas.Unit, step string) ([][]TargetResult, error) {
	var idx []int
	var batch []ptxas.Unit
	for i, u := range units {
		if u != nil {
			idx = append(idx, i)
			batch = append(batch, *u)
		}
	}
	out := make([][]TargetResult, len(units))
	if len(batch) == 0 {
		return out, nil
	}
	jobs := make([]ptxas.Job, len(e.targets))
	for t, info := range e.targets {
		jobs[t] = ptxas.Job{Version: e.GridVersion(info), Target: info.Target, Units: batch}
	}
	e.progress(step, 0, len(jobs))
	res, err := e.Session.Run(ctx, jobs, func(done, total int) { e.progress(step, done, total) })
	if err != nil {
		return nil, err
	}
	for k, i := range idx {
		out[i] = make([]TargetResult, len(jobs))
		for t, j := range jobs {
			o := res[t][k]
			out[i][t] = TargetResult{Target: j.Target, Version: j.Version, OK: o.OK, Message: o.Message()}
		}
	}
	return out, nil
}

// OperandError reports whether ptxas's message is about the operands'
// types or shapes, or what they name, which the harness chose.
func OperandError(msg string) bool {
	for _, s := range []string{
		"Arguments mismatch", "Vector expected", "vector size", "Illegal vector", "Vector of size",
		"Incompatible elements of vector", "Predicate output expected", "Result vector expected",
		"Predicate expression expected", "as address operand", "expected for argument",
		"Duplicate definition",
		// How the harness declared what the statement names: a variable in
		// the wrong state space, a call's prototype, a label or symbol.
		"State space mismatch between instruction and address", "must be register", "Call has wrong number of parameters",
		"Call target not recognized", "Label expected", "Unknown symbol", "Illegal to use symbol",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// exhaustedMessage says ptxas's message is about the registers' types,
// all the search varies: not a vector's shape, a state space or a symbol,
// which the harness chooses too.
func exhaustedMessage(msg string) bool { return strings.Contains(msg, "Arguments mismatch") }

// searchTarget picks the target to search typings on: the newest whose
// message is about operands (-1 when none is).
func searchTarget(ts []TargetResult) int {
	best := -1
	for i, t := range ts {
		if t.OK {
			return -1
		}
		if OperandError(t.Message) {
			best = i
		}
	}
	return best
}

// candidate is one alternative typing of a statement.
type candidate struct {
	stmt    ptx.Statement
	lengths map[int]int
	noDecls bool
}

// registerTypes are the register types the search gives an operand: .b8
// for 8-bit values ptxas wants in a byte register (cvt.u8.bf16,
// st.async.b8, the .e2m1x2 pair).
var registerTypes = []string{".b32", ".b64", ".b16", ".pred", ".b8"}

// candidates lists the alternatives to try for item it, most likely first:
// without the documented declarations (examples), one operand at another
// register size, one vector operand at another length, then pairs. It says
// whether they are every typing the harness can write: registers are all
// the statement names (onlyRegisters), no vector lengths vary, and every
// combination of register types fits within limit.
func candidates(it Item, decls []ptxharness.Declared, limit int, onlyRegisters bool) ([]candidate, bool) {
	var out []candidate
	base := it.Stmt
	if len(base.Decls) > 0 {
		c := base
		c.Decls = nil
		out = append(out, candidate{stmt: c, noDecls: true})
	}
	// Current type per operand.
	cur := map[int]string{}
	nOps := -1
	for _, d := range decls {
		if d.Operand >= 0 {
			if _, ok := cur[d.Operand]; !ok {
				cur[d.Operand] = d.Type
			}
			nOps = max(nOps, d.Operand)
		}
	}
	var singles []candidate
	for k := 0; k <= nOps; k++ {
		if _, ok := cur[k]; !ok {
			continue
		}
		for _, t := range registerTypes {
			if t == cur[k] {
				continue
			}
			c := base
			c.OperandTypes = map[int]string{k: t}
			singles = append(singles, candidate{stmt: c})
		}
	}
	ops := slices.Sorted(maps.Keys(cur))
	exhaustive := it.Complete && onlyRegisters && len(base.Decls) == 0 && len(it.Lengths) == 0 && len(ops) <= 2
	if exhaustive && len(ops) == 2 {
		// Both operands changed at once completes the product.
		for _, t0 := range registerTypes {
			for _, t1 := range registerTypes {
				if t0 != cur[ops[0]] && t1 != cur[ops[1]] {
					c := base
					c.OperandTypes = map[int]string{ops[0]: t0, ops[1]: t1}
					singles = append(singles, candidate{stmt: c})
				}
			}
		}
	}
	var lens []candidate
	if it.Rerender != nil {
		keys := slices.Sorted(maps.Keys(it.Lengths))
		for _, k := range keys {
			n := it.Lengths[k]
			for _, m := range []int{n * 2, n / 2, n * 4, n / 4} {
				if m < 1 || m > 256 || m == n {
					continue
				}
				lens = append(lens, candidate{lengths: map[int]int{k: m}})
			}
		}
		// Two fragments off at once (a sparse or packed operand pair).
		for x := 0; x < len(keys); x++ {
			for y := x + 1; y < len(keys); y++ {
				for _, fx := range []int{2, 0} {
					for _, fy := range []int{2, 0} {
						nx, ny := it.Lengths[keys[x]], it.Lengths[keys[y]]
						mx, my := nx*2, ny*2
						if fx == 0 {
							mx = nx / 2
						}
						if fy == 0 {
							my = ny / 2
						}
						if mx < 1 || my < 1 {
							continue
						}
						lens = append(lens, candidate{lengths: map[int]int{keys[x]: mx, keys[y]: my}})
					}
				}
			}
		}
	}
	// Interleave so both kinds get tried within the bound.
	for i := 0; i < len(singles) || i < len(lens); i++ {
		if i < len(lens) {
			out = append(out, lens[i])
		}
		if i < len(singles) {
			out = append(out, singles[i])
		}
	}
	if len(out) > limit {
		out = out[:limit]
		exhaustive = false
	}
	return out, exhaustive
}

// search tries other typings for statements every target rejected for
// their operands, round by round (one batch per target and round), and
// re-assembles the grid for those it fixes.
func (e *Engine) search(ctx context.Context, items []Item, out []Verdict, units []*ptxas.Unit, decls [][]ptxharness.Declared) error {
	type pending struct {
		i          int
		target     int
		cands      []candidate
		exhaustive bool
		// settled is the first typing ptxas read the operands of (its
		// message is about something else): the grid is taken with it
		// when no typing is accepted.
		settled *candidate
	}
	var work []*pending
	for i := range items {
		if units[i] == nil {
			continue
		}
		if t := searchTarget(out[i].Targets); t >= 0 {
			cands, exhaustive := candidates(items[i], decls[i], e.Options.MaxSearch, e.Harness.OnlyRegisters(items[i].Stmt))
			work = append(work, &pending{i: i, target: t, cands: cands, exhaustive: exhaustive})
		}
	}
	if len(work) == 0 {
		return nil
	}
	fixed := map[int]candidate{}
	step := fmt.Sprintf("searching operand typings for %d statements", len(work))
	for round := 0; round < e.Options.MaxSearch && len(work) > 0; round++ {
		e.progress(step, round, e.Options.MaxSearch)
		byTarget := map[int][]int{} // target -> indexes into work
		tried := make([]*ptxas.Unit, len(work))
		for w, p := range work {
			if round >= len(p.cands) {
				continue
			}
			c := p.cands[round]
			st := c.stmt
			if c.lengths != nil {
				text, _ := items[p.i].Rerender(c.lengths)
				st = items[p.i].Stmt
				st.Text = text
			}
			u, _, err := e.Harness.Unit(st)
			if err != nil {
				continue
			}
			p.cands[round].stmt = st
			tried[w] = &u
			byTarget[p.target] = append(byTarget[p.target], w)
		}
		var jobs []ptxas.Job
		var order [][]int
		for t, ws := range byTarget {
			j := ptxas.Job{Version: e.GridVersion(e.targets[t]), Target: e.targets[t].Target}
			for _, w := range ws {
				j.Units = append(j.Units, *tried[w])
			}
			jobs = append(jobs, j)
			order = append(order, ws)
		}
		res, err := e.Session.Run(ctx, jobs, nil)
		if err != nil {
			return err
		}
		done := map[int]bool{}
		for j := range jobs {
			for k, w := range order[j] {
				p := work[w]
				switch o := res[j][k]; {
				case o.OK:
					fixed[p.i] = p.cands[round]
					done[w] = true
				case p.settled == nil && !p.cands[round].noDecls && !OperandError(o.Message()):
					c := p.cands[round]
					p.settled = &c
				}
			}
		}
		var next []*pending
		for w, p := range work {
			switch {
			case done[w]:
			case round+1 < len(p.cands):
				next = append(next, p)
			case p.settled != nil:
				fixed[p.i] = *p.settled
			case p.exhaustive && exhaustedMessage(out[p.i].Targets[p.target].Message):
				out[p.i].Exhausted = true
			}
		}
		work = next
	}
	e.progress(step, e.Options.MaxSearch, e.Options.MaxSearch)
	if len(fixed) == 0 {
		return nil
	}
	// The grid again, for the fixed statements with their new typing.
	again := make([]*ptxas.Unit, len(items))
	for i, c := range fixed {
		u, _, err := e.Harness.Unit(c.stmt)
		if err != nil {
			continue
		}
		again[i] = &u
	}
	grid, err := e.grid(ctx, again, "assembling re-typed statements with ptxas")
	if err != nil {
		return err
	}
	for i, c := range fixed {
		if again[i] == nil {
			continue
		}
		if c.noDecls {
			out[i].ContextDropped = true
			out[i].ContextMessage = bestMessage(out[i].Targets)
		}
		out[i].Stmt, out[i].Targets, out[i].Searched = c.stmt, grid[i], !c.noDecls
		units[i] = again[i]
	}
	return nil
}

// versionProbe is the search for one (statement, accepting target)'s
// lowest PTX ISA version: indexes into the target's Versions, lo rejected
// (or -1), hi accepted.
type versionProbe struct {
	i, t   int
	lo, hi int
	// guess, when at least 0, is the index tried next with the one below
	// it, from the version another target's search found: a statement's
	// lowest version is mostly the same on every target that allows it.
	guess int
	// wait holds a probe back until its statement's lead probe (the one
	// searched first) has its answer.
	wait bool
}

func (p *versionProbe) done() bool { return p.hi == 0 || p.hi-p.lo <= 1 }

// tries returns the version indexes this round assembles for p.
func (p *versionProbe) tries() []int {
	switch {
	case p.wait:
		return nil
	case p.lo < 0:
		return []int{0} // first the floor
	case p.guess >= 0 && p.guess-1 > p.lo:
		return []int{p.guess - 1, p.guess}
	case p.guess >= 0:
		return []int{p.guess}
	}
	return []int{(p.lo + p.hi) / 2}
}

// record narrows p by ptxas's answers at the indexes tries returned.
func (p *versionProbe) record(tried []int, ok []bool) {
	for k, v := range tried {
		if ok[k] && v < p.hi {
			p.hi = v
		}
		if !ok[k] && v > p.lo {
			p.lo = v
		}
	}
	p.guess = -1
}

// minVersions finds, for every accepting target, the lowest PTX ISA
// version that accepts: first the target's oldest version (most
// statements are older than the target), then a binary search on one
// target per statement (its lead); the statement's other targets then try
// the version the lead found and the one below it, and search only where
// that does not settle it. Every answer is ptxas's: the guess decides only
// which versions are asked first.
func (e *Engine) minVersions(ctx context.Context, out []Verdict, units []*ptxas.Unit) error {
	var probes []*versionProbe
	for i := range out {
		if units[i] == nil {
			continue
		}
		for t, r := range out[i].Targets {
			if !r.OK {
				continue
			}
			hi := indexOf(e.targets[t].Versions, r.Version)
			if hi <= 0 {
				out[i].Targets[t].MinPTX, out[i].Targets[t].Floor = r.Version, true
				continue
			}
			probes = append(probes, &versionProbe{i: i, t: t, lo: -1, hi: hi, guess: -1})
		}
	}
	// A statement is tried at several versions and targets each round:
	// its key (a hash of its text) is taken once, not per job.
	unitKeys := make([]string, len(units))
	for _, p := range probes {
		if unitKeys[p.i] == "" {
			unitKeys[p.i] = units[p.i].Key()
		}
	}
	step := "finding the lowest PTX ISA version per target"
	for round := 0; len(probes) > 0; round++ {
		e.progress(step, min(round, 6), 7)
		if err := e.versionRound(ctx, probes, units, unitKeys); err != nil {
			return err
		}
		var next []*versionProbe
		for _, p := range probes {
			if p.done() {
				vs := e.targets[p.t].Versions
				out[p.i].Targets[p.t].MinPTX, out[p.i].Targets[p.t].Floor = vs[p.hi], p.hi == 0
				continue
			}
			next = append(next, p)
		}
		probes = next
		e.lead(round, probes, out)
	}
	e.progress(step, 7, 7)
	return nil
}

// versionRound assembles every probe's tries, one ptxas job per (target,
// version), and records the answers.
func (e *Engine) versionRound(ctx context.Context, probes []*versionProbe, units []*ptxas.Unit, unitKeys []string) error {
	type key struct{ t, v int }
	type entry struct {
		p *versionProbe
		k int // index into p's tries
	}
	groups := map[key][]entry{}
	tries := make([][]int, len(probes))
	for n, p := range probes {
		tries[n] = p.tries()
		for k, v := range tries[n] {
			groups[key{p.t, v}] = append(groups[key{p.t, v}], entry{p, k})
		}
	}
	keys := slices.SortedFunc(maps.Keys(groups), func(a, b key) int {
		if a.t != b.t {
			return a.t - b.t
		}
		return a.v - b.v
	})
	jobs := make([]ptxas.Job, len(keys))
	for j, k := range keys {
		jobs[j] = ptxas.Job{Version: e.targets[k.t].Versions[k.v], Target: e.targets[k.t].Target}
		for _, en := range groups[k] {
			jobs[j].Units = append(jobs[j].Units, *units[en.p.i])
			jobs[j].Keys = append(jobs[j].Keys, unitKeys[en.p.i])
		}
	}
	res, err := e.Session.Run(ctx, jobs, nil)
	if err != nil {
		return err
	}
	answers := map[*versionProbe][]bool{}
	for n, p := range probes {
		answers[p] = make([]bool, len(tries[n]))
	}
	for j, k := range keys {
		for u, en := range groups[k] {
			answers[en.p][en.k] = res[j][u].OK
		}
	}
	for n, p := range probes {
		if !p.wait {
			p.record(tries[n], answers[p])
		}
	}
	return nil
}

// lead, after the floor round, holds back all but one unsettled probe per
// statement (the one with the most versions to search); once a lead is
// settled, the statement's waiting probes guess its version.
func (e *Engine) lead(round int, probes []*versionProbe, out []Verdict) {
	byStmt := map[int][]*versionProbe{}
	for _, p := range probes {
		byStmt[p.i] = append(byStmt[p.i], p)
	}
	for i, ps := range byStmt {
		if round == 0 {
			lead := ps[0]
			for _, p := range ps[1:] {
				if p.hi-p.lo > lead.hi-lead.lo {
					lead = p
				}
			}
			for _, p := range ps {
				p.wait = p != lead
			}
			continue
		}
		searching := false
		for _, p := range ps {
			searching = searching || !p.wait
		}
		if searching {
			continue
		}
		found := ""
		for _, t := range out[i].Targets {
			if t.MinPTX != "" && !t.Floor {
				found = t.MinPTX
			}
		}
		for _, p := range ps {
			p.wait = false
			p.guess = e.guessIndex(p, found)
		}
	}
}

// guessIndex is the index of the target's lowest version at or above v
// that the search has not ruled out; -1 when there is none.
func (e *Engine) guessIndex(p *versionProbe, v string) int {
	if v == "" {
		return -1
	}
	for k, x := range e.targets[p.t].Versions {
		if ptxorder.CompareVersions(x, v) >= 0 {
			if k > p.lo && k <= p.hi {
				return k
			}
			return -1
		}
	}
	return -1
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// bestMessage picks the message that says most about a rejection: the
// newest target's that is not "not supported on target" when there is
// one, else the newest target's.
func bestMessage(ts []TargetResult) string {
	msg := ""
	for _, t := range ts {
		if t.OK || t.Message == "" {
			continue
		}
		if msg == "" || !strings.Contains(t.Message, "not supported on .target") {
			msg = t.Message
		}
	}
	return msg
}
