// Package sassindex owns the SASS reference's model: the index of every SASS
// opcode nvdisasm printed over the PTX pages' statements, per target (the
// modifier sets, operand shapes, control fields and PTX statements seen),
// derived once at build time from the PTX instructions' SASS listings and
// stored as one extra (Key); serving reads it back with Load. It only reads
// the model (isa): the listings themselves are made by oracle/ptxas.
package sassindex

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Key is the extra the index is stored under.
const Key = "sass_index"

// Bounds on what one (opcode, target) keeps: the counts stay exact, the
// lists keep the most frequent entries (a MOV lowers from hundreds of
// statements; the page shows where it comes from, not every one).
const (
	maxStatements = 24
	maxShapes     = 24
	maxControls   = 16
)

// Index is the SASS reference: every opcode with what was seen of it on
// each target.
type Index struct {
	Provenance Provenance `json:"provenance"`
	// Targets are the targets with listings, in ptxorder's order.
	Targets []string `json:"targets"`
	Opcodes []Opcode `json:"opcodes"` // by name
}

// Provenance says which tools produced the listings the index was read
// from.
type Provenance struct {
	// Tools are "ptxas 12.9.86 (sm_75 … sm_121)", "nvdisasm 13.0.85".
	Tools []string `json:"tools"`
	// ToolOf is the ptxas that compiled each target's listings.
	ToolOf     map[string]string `json:"tool_of,omitempty"`
	Statements int               `json:"statements"` // distinct (target, PTX statement) listings read
	// ListingsOf counts them per target: an architecture-specific target
	// (sm_90a) lists only the statements no plain target accepts.
	ListingsOf map[string]int `json:"listings_of"`
	Lines      int            `json:"lines"` // SASS lines read
	// Unread counts lines whose text has no opcode gpuisa reads.
	Unread int `json:"unread,omitempty"`
}

// Opcode is one SASS opcode ("FFMA") on every target it appears on.
type Opcode struct {
	Name    string     `json:"name"`
	Targets []OnTarget `json:"targets"` // in Index.Targets' order
}

// OnTarget is what was seen of an opcode on one target.
type OnTarget struct {
	Target string `json:"target"`
	Lines  int    `json:"lines"`
	// Modifiers are the modifier sets written after the opcode
	// (".FTZ.SAT"; "" for none), Shapes the operand shapes
	// ("R, R, c[imm][imm], R"), Controls the control fields decoded from
	// the encoding ("S04 y0 W1 B0"), each with how many lines had it.
	Modifiers []Count `json:"modifiers"`
	Shapes    []Count `json:"shapes"`
	Controls  []Count `json:"controls,omitempty"`
	// Reuse counts the lines with an operand reuse flag (".reuse").
	Reuse int `json:"reuse,omitempty"`
	// Instructions are the PTX instructions whose statements lower to it,
	// with how many statements; Statements are the most frequent of
	// those statements.
	Instructions []Count     `json:"instructions"`
	Statements   []Statement `json:"statements"`
	// MoreShapes, MoreControls and MoreStatements count what the lists
	// above left out.
	MoreShapes     int `json:"more_shapes,omitempty"`
	MoreControls   int `json:"more_controls,omitempty"`
	MoreStatements int `json:"more_statements,omitempty"`
}

// Count is a value seen N times.
type Count struct {
	Text string `json:"text"`
	N    int    `json:"n"`
}

// Statement is a PTX statement whose SASS on the target has the opcode.
type Statement struct {
	Instruction string `json:"instruction"` // the PTX page: "fma"
	Statement   string `json:"statement"`   // "fma.rn.f32 d, a, b, c;"
	From        string `json:"from"`        // "form fma.rnd{.ftz}{.sat}.f32 d, a, b, c;", "example 2"
	Lines       int    `json:"lines"`       // its lines with the opcode
}

// Opcode returns the named opcode (upper case), or nil.
func (x *Index) Opcode(name string) *Opcode {
	i := sort.Search(len(x.Opcodes), func(i int) bool { return x.Opcodes[i].Name >= name })
	if i < len(x.Opcodes) && x.Opcodes[i].Name == name {
		return &x.Opcodes[i]
	}
	return nil
}

// On returns what was seen of the opcode on target, or nil.
func (o *Opcode) On(target string) *OnTarget {
	for i := range o.Targets {
		if o.Targets[i].Target == target {
			return &o.Targets[i]
		}
	}
	return nil
}

// HasTarget says whether the index has listings for target.
func (x *Index) HasTarget(target string) bool {
	for _, t := range x.Targets {
		if t == target {
			return true
		}
	}
	return false
}

// Load reads the stored index.
func Load(ctx context.Context, r interface {
	Extra(ctx context.Context, key string) ([]byte, error)
}) (*Index, error) {
	raw, err := r.Extra(ctx, Key)
	if err != nil {
		return nil, err
	}
	var x Index
	if err := json.Unmarshal(raw, &x); err != nil {
		return nil, fmt.Errorf("reading the stored SASS index: %w", err)
	}
	return &x, nil
}

// source is one listing: a statement's SASS on one target.
type source struct {
	inst, stmt, from string
	sass             isa.SASS
}

// listings are every PTX instruction's SASS listings, forms first, each
// (target, statement) once: a statement both a form and an example is one
// listing, and counts once.
func listings(insts []*isa.Instruction) []source {
	names := map[string]bool{}
	for _, in := range insts {
		if in.Kind == isa.KindVirtual {
			names[in.Name] = true
		}
	}
	var out []source
	seen := map[string]bool{}
	add := func(inst, stmt, from string, ss []isa.SASS) {
		for _, s := range ss {
			key := s.Target + "\x00" + ptx.NormalizeStatement(stmt)
			if len(s.Lines) == 0 || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, source{inst: inst, stmt: stmt, from: from, sass: s})
		}
	}
	for _, in := range insts {
		if in.Kind != isa.KindVirtual {
			continue
		}
		for _, f := range in.Forms {
			if f.Check != nil {
				add(in.Name, f.Check.Statement, "form "+f.Syntax, f.Check.SASS)
			}
		}
		for i, ex := range in.Examples {
			for _, c := range ex.Checks {
				add(instructionOf(c.Statement, in.Name, names), c.Statement, fmt.Sprintf("example %d of %s", i+1, in.Name), c.SASS)
			}
		}
	}
	return out
}

// instructionOf is the PTX instruction a statement is of: its mnemonic's
// longest dotted prefix that names an instruction (an example's mbarrier
// wait beside a tcgen05.mma is mbarrier's), else the page it is on.
func instructionOf(stmt, page string, names map[string]bool) string {
	f := strings.Fields(stmt)
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	if len(f) == 0 {
		return page
	}
	parts := strings.Split(strings.TrimSuffix(f[0], ";"), ".")
	for n := len(parts); n > 0; n-- {
		if name := strings.Join(parts[:n], "."); names[name] {
			return name
		}
	}
	return page
}

// tally accumulates one (opcode, target).
type tally struct {
	lines, reuse        int
	mods, shapes, ctrls map[string]int
	insts               map[string]int
	stmts               map[string]*Statement
	order               []string // statement keys in first-seen order
}

func newTally() *tally {
	return &tally{mods: map[string]int{}, shapes: map[string]int{}, ctrls: map[string]int{},
		insts: map[string]int{}, stmts: map[string]*Statement{}}
}

// Build derives the index from the PTX instructions' SASS listings (their
// forms' and examples' checks); prov's Tools and ToolOf are kept, its
// counters set.
func Build(insts []*isa.Instruction, prov Provenance) *Index {
	byOp := map[string]map[string]*tally{}
	targets := map[string]bool{}
	prov.ListingsOf = map[string]int{}
	for _, src := range listings(insts) {
		prov.Statements++
		prov.ListingsOf[src.sass.Target]++
		targets[src.sass.Target] = true
		for _, l := range src.sass.Lines {
			prov.Lines++
			p, ok := Parse(l.Text)
			if !ok {
				prov.Unread++
				continue
			}
			if byOp[p.Opcode] == nil {
				byOp[p.Opcode] = map[string]*tally{}
			}
			t := byOp[p.Opcode][src.sass.Target]
			if t == nil {
				t = newTally()
				byOp[p.Opcode][src.sass.Target] = t
			}
			t.add(p, l.Control, src)
		}
	}
	x := &Index{Provenance: prov}
	for t := range targets {
		x.Targets = append(x.Targets, t)
	}
	sort.Slice(x.Targets, func(i, j int) bool { return ptxorder.CompareTargets(x.Targets[i], x.Targets[j]) < 0 })
	for name, per := range byOp {
		op := Opcode{Name: name}
		for _, target := range x.Targets {
			if t := per[target]; t != nil {
				op.Targets = append(op.Targets, t.onTarget(target))
			}
		}
		x.Opcodes = append(x.Opcodes, op)
	}
	sort.Slice(x.Opcodes, func(i, j int) bool { return x.Opcodes[i].Name < x.Opcodes[j].Name })
	return x
}

func (t *tally) add(p Parsed, control string, src source) {
	t.lines++
	t.mods[p.Modifiers]++
	t.shapes[p.Shape]++
	if control != "" {
		t.ctrls[control]++
	}
	if p.Reuse {
		t.reuse++
	}
	key := src.inst + "\x00" + ptx.NormalizeStatement(src.stmt)
	st := t.stmts[key]
	if st == nil {
		st = &Statement{Instruction: src.inst, Statement: src.stmt, From: src.from}
		t.stmts[key] = st
		t.order = append(t.order, key)
		t.insts[src.inst]++
	}
	st.Lines++
}

func (t *tally) onTarget(target string) OnTarget {
	o := OnTarget{Target: target, Lines: t.lines, Reuse: t.reuse}
	o.Modifiers, _ = counts(t.mods, 0)
	o.Shapes, o.MoreShapes = counts(t.shapes, maxShapes)
	o.Controls, o.MoreControls = counts(t.ctrls, maxControls)
	o.Instructions, _ = counts(t.insts, 0)
	for _, k := range t.order {
		o.Statements = append(o.Statements, *t.stmts[k])
	}
	// The statements that lower most directly first (the fewest lines
	// with the opcode: fma.rn.f32's one FFMA before div.rn.f32's
	// Newton steps), then the first seen (forms before examples).
	sort.SliceStable(o.Statements, func(i, j int) bool { return o.Statements[i].Lines < o.Statements[j].Lines })
	if len(o.Statements) > maxStatements {
		o.MoreStatements = len(o.Statements) - maxStatements
		o.Statements = o.Statements[:maxStatements]
	}
	return o
}

// counts orders a tally by count, then text, keeping at most limit (0: all)
// and saying how many values it left out.
func counts(m map[string]int, limit int) ([]Count, int) {
	out := make([]Count, 0, len(m))
	for k, n := range m {
		out = append(out, Count{Text: k, N: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N > out[j].N
		}
		return out[i].Text < out[j].Text
	})
	if limit > 0 && len(out) > limit {
		return out[:limit], len(out) - limit
	}
	return out, 0
}
