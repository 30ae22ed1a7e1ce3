package concepts

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Error is one problem found in a catalogue, positioned at file:line when it
// has a position.
type Error struct {
	Pos  Pos
	Kind string // e.g. "schema", "dangling-amd", "uncovered-ptx"
	Msg  string
}

func (e Error) Error() string {
	if e.Pos.File == "" {
		return e.Kind + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.Pos.File, e.Pos.Line, e.Msg)
}

// Errors is every problem LoadDir found; it is returned as one error so that
// an author sees all of them at once.
type Errors []Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

var idPattern = lazyre.New(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// LoadDir reads every *.yaml file of dir (sorted by name) into one catalogue.
// Schema problems, unknown relation kinds or arch ids, relations naming
// members the concept does not list, PTX–AMD pairs without a relation and
// duplicate ids come back together as Errors, each naming file:line.
func LoadDir(dir string) (*Catalogue, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("concepts: no *.yaml files in %s", dir)
	}
	sort.Strings(paths)
	l := &loader{c: &Catalogue{}}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		l.readFile(p, data)
	}
	l.crossCheck()
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	l.c.index()
	return l.c, nil
}

// LoadFiles parses catalogue files given as name -> content; it is LoadDir
// without the file system, for tests and for embedding.
func LoadFiles(files map[string][]byte) (*Catalogue, error) {
	names := slices.Sorted(maps.Keys(files))
	l := &loader{c: &Catalogue{}}
	for _, n := range names {
		l.readFile(n, files[n])
	}
	l.crossCheck()
	if len(l.errs) > 0 {
		return nil, l.errs
	}
	l.c.index()
	return l.c, nil
}

type loader struct {
	c    *Catalogue
	errs Errors
	cur  string // the file being read
}

func (l *loader) errorf(n *yaml.Node, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	l.errs = append(l.errs, Error{Pos: Pos{l.cur, line}, Kind: "schema", Msg: fmt.Sprintf(format, args...)})
}

func (l *loader) pos(n *yaml.Node) Pos { return Pos{l.cur, n.Line} }

func (l *loader) readFile(name string, data []byte) {
	l.cur = name
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		// yaml.v3 messages already carry "line N"; keep the file name in front.
		l.errs = append(l.errs, Error{Pos: Pos{name, lineOf(err)}, Kind: "schema", Msg: err.Error()})
		return
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		l.errorf(&doc, "empty file")
		return
	}
	root := doc.Content[0]
	l.mapping(root, "file", map[string]func(*yaml.Node){
		"concepts": func(v *yaml.Node) {
			for _, item := range l.sequence(v, "concepts") {
				if c := l.concept(item); c != nil {
					l.c.Concepts = append(l.c.Concepts, c)
				}
			}
		},
		"no_counterpart": func(v *yaml.Node) {
			for _, item := range l.sequence(v, "no_counterpart") {
				if nc := l.noCounterpart(item); nc != nil {
					l.c.NoCounterpart = append(l.c.NoCounterpart, nc)
				}
			}
		},
	}, nil)
}

var lineInMessage = lazyre.New(`line (\d+)`)

func lineOf(err error) int {
	m := lineInMessage.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n := 0
	fmt.Sscan(m[1], &n)
	return n
}

// mapping walks a mapping node, calling the handler of each known key and
// reporting unknown keys, duplicated keys and missing required keys.
func (l *loader) mapping(n *yaml.Node, what string, fields map[string]func(*yaml.Node), required []string) bool {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		l.errorf(n, "%s: expected a mapping", what)
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		h, ok := fields[k.Value]
		switch {
		case !ok:
			known := slices.Sorted(maps.Keys(fields))
			l.errorf(k, "%s: unknown field %q (known: %s)", what, k.Value, strings.Join(known, ", "))
		case seen[k.Value]:
			l.errorf(k, "%s: field %q given twice", what, k.Value)
		default:
			seen[k.Value] = true
			h(v)
		}
	}
	ok := true
	for _, r := range required {
		if !seen[r] {
			l.errorf(n, "%s: missing required field %q", what, r)
			ok = false
		}
	}
	return ok
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func (l *loader) sequence(n *yaml.Node, what string) []*yaml.Node {
	n = deref(n)
	if n.Kind != yaml.SequenceNode {
		l.errorf(n, "%s: expected a list", what)
		return nil
	}
	return n.Content
}

func (l *loader) scalar(n *yaml.Node, what string) string {
	n = deref(n)
	if n.Kind != yaml.ScalarNode {
		l.errorf(n, "%s: expected a single value", what)
		return ""
	}
	return strings.TrimSpace(n.Value)
}

// strings accepts one scalar or a list of scalars.
func (l *loader) strings(n *yaml.Node, what string) []string {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		if v := strings.TrimSpace(n.Value); v != "" {
			return []string{v}
		}
		return nil
	}
	var out []string
	for _, item := range l.sequence(n, what) {
		if v := l.scalar(item, what); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func (l *loader) concept(n *yaml.Node) *Concept {
	c := &Concept{Pos: l.pos(n)}
	type rawRelation struct {
		node     *yaml.Node
		ptx, amd []string
		rel      Relation
	}
	var raws []rawRelation
	ok := l.mapping(n, "concept", map[string]func(*yaml.Node){
		"id":          func(v *yaml.Node) { c.ID = l.scalar(v, "id") },
		"name":        func(v *yaml.Node) { c.Name = l.scalar(v, "name") },
		"description": func(v *yaml.Node) { c.Description = l.scalar(v, "description") },
		"ptx": func(v *yaml.Node) {
			for _, item := range l.sequence(v, "ptx") {
				m := Member{Pos: l.pos(item)}
				if l.mapping(item, "ptx member", map[string]func(*yaml.Node){
					"mnemonic": func(v *yaml.Node) { m.Mnemonic = l.scalar(v, "mnemonic") },
					"variants": func(v *yaml.Node) { m.Variants = l.strings(v, "variants") },
					"except":   func(v *yaml.Node) { m.Except = l.strings(v, "except") },
					"note":     func(v *yaml.Node) { m.Note = l.scalar(v, "note") },
				}, []string{"mnemonic"}) {
					c.PTX = append(c.PTX, m)
				}
			}
		},
		"amd": func(v *yaml.Node) {
			for _, item := range l.sequence(v, "amd") {
				m := Member{Pos: l.pos(item)}
				if l.mapping(item, "amd member", map[string]func(*yaml.Node){
					"mnemonic": func(v *yaml.Node) { m.Mnemonic = l.scalar(v, "mnemonic") },
					"families": func(v *yaml.Node) { m.Families = l.families(v) },
					"note":     func(v *yaml.Node) { m.Note = l.scalar(v, "note") },
				}, []string{"mnemonic"}) {
					if m.Mnemonic != strings.ToLower(m.Mnemonic) {
						l.errorf(item, "amd mnemonic %q must be lower case", m.Mnemonic)
					}
					c.AMD = append(c.AMD, m)
				}
			}
		},
		"relations": func(v *yaml.Node) {
			for _, item := range l.sequence(v, "relations") {
				r := rawRelation{node: item, rel: Relation{Pos: l.pos(item)}}
				if l.mapping(item, "relation", map[string]func(*yaml.Node){
					"ptx": func(v *yaml.Node) { r.ptx = l.strings(v, "ptx") },
					"amd": func(v *yaml.Node) { r.amd = l.strings(v, "amd") },
					"relation": func(v *yaml.Node) {
						s := l.scalar(v, "relation")
						if !slices.Contains(relationKinds, RelationKind(s)) {
							l.errorf(v, "unknown relation %q (known: equivalent, equivalent with restrictions, partial, sequence)", s)
						}
						r.rel.Kind = RelationKind(s)
					},
					"variants":     func(v *yaml.Node) { r.rel.Variants = l.strings(v, "variants") },
					"families":     func(v *yaml.Node) { r.rel.Families = l.families(v) },
					"requires":     func(v *yaml.Node) { r.rel.Requires = l.strings(v, "requires") },
					"except":       func(v *yaml.Node) { r.rel.Except = l.strings(v, "except") },
					"restrictions": func(v *yaml.Node) { r.rel.Restrictions = l.strings(v, "restrictions") },
					"forms":        func(v *yaml.Node) { r.rel.Forms = l.strings(v, "forms") },
					"sequence":     func(v *yaml.Node) { r.rel.Sequence = l.steps(v) },
				}, []string{"ptx", "amd", "relation"}) {
					raws = append(raws, r)
				}
			}
		},
	}, []string{"id", "name", "description", "ptx", "amd", "relations"})
	if !ok {
		return nil
	}
	if !idPattern.MatchString(c.ID) {
		l.errorf(n, "concept id %q is not kebab-case", c.ID)
	}
	ptxListed := map[string]bool{}
	for _, m := range c.PTX {
		for _, v := range append(append([]string(nil), m.Variants...), m.Except...) {
			if !matchable(v) {
				l.errorf(nodeAt(n, m.Pos.Line), "concept %s: variant %q can never match: an instruction's modifiers are single words, adjacent pairs and runs of type words", c.ID, v)
			}
		}
		if ptxListed[m.Mnemonic] {
			l.errorf(nodeAt(n, m.Pos.Line), "concept %s lists ptx member %q twice", c.ID, m.Mnemonic)
		}
		ptxListed[m.Mnemonic] = true
	}
	amdListed := map[string]bool{}
	for _, m := range c.AMD {
		if amdListed[m.Mnemonic] {
			l.errorf(nodeAt(n, m.Pos.Line), "concept %s lists amd member %q twice", c.ID, m.Mnemonic)
		}
		amdListed[m.Mnemonic] = true
	}
	type pair struct{ p, a string }
	// related holds, per pair, the relations written for it.
	related := map[pair][]Relation{}
	for _, r := range raws {
		formUsed := make([]bool, len(r.rel.Forms))
		for _, p := range r.ptx {
			if !ptxListed[p] {
				l.errorf(r.node, "concept %s: relation names ptx %q, which is not a ptx member", c.ID, p)
				continue
			}
			for _, a := range r.amd {
				if !amdListed[a] {
					l.errorf(r.node, "concept %s: relation names amd %q, which is not an amd member", c.ID, a)
					continue
				}
				if prev, ok := related[pair{p, a}]; ok && overlapping(prev, r.rel) {
					l.errorf(r.node, "concept %s: second relation for %s <-> %s on the same families and variants (give each its own families or variants)", c.ID, p, a)
					continue
				}
				related[pair{p, a}] = append(related[pair{p, a}], r.rel)
				m, _ := c.amdMember(a)
				for _, f := range r.rel.Families {
					if !m.AppliesOn(f) {
						l.errorf(r.node, "concept %s: relation for %s <-> %s lists %s, a family the member %s does not list", c.ID, p, a, f, a)
					}
				}
				rel := r.rel
				rel.PTX, rel.AMD = p, a
				// Each AMD member keeps the forms spelled with its mnemonic.
				rel.Forms = nil
				for i, f := range r.rel.Forms {
					if formOf(f, a) {
						rel.Forms = append(rel.Forms, f)
						formUsed[i] = true
					}
				}
				c.Relations = append(c.Relations, rel)
			}
		}
		for i, used := range formUsed {
			if !used {
				l.errorf(r.node, "concept %s: form %q is not spelled with any AMD member of the relation", c.ID, r.rel.Forms[i])
			}
		}
		for _, v := range r.rel.Variants {
			if !matchable(v) {
				l.errorf(r.node, "concept %s: variant %q can never match: an instruction's modifiers are single words, adjacent pairs and runs of type words", c.ID, v)
			}
		}
		if r.rel.Kind == Sequence && len(r.rel.Sequence) == 0 {
			l.errorf(r.node, "concept %s: a \"sequence\" relation needs a sequence", c.ID)
		}
		if r.rel.Kind != Sequence && len(r.rel.Sequence) > 0 {
			l.errorf(r.node, "concept %s: only a \"sequence\" relation has a sequence", c.ID)
		}
		if r.rel.Kind == EquivalentWithRestrictions && len(r.rel.Restrictions) == 0 {
			l.errorf(r.node, "concept %s: \"equivalent with restrictions\" needs restrictions", c.ID)
		}
		if r.rel.Kind == Equivalent && len(r.rel.Restrictions) > 0 {
			l.errorf(r.node, "concept %s: an \"equivalent\" relation has no restrictions (use \"equivalent with restrictions\")", c.ID)
		}
	}
	for _, p := range c.PTX {
		for _, a := range c.AMD {
			if _, ok := related[pair{p.Mnemonic, a.Mnemonic}]; !ok {
				l.errorf(n, "concept %s: missing relation for ptx %q <-> amd %q", c.ID, p.Mnemonic, a.Mnemonic)
			}
		}
	}
	return c
}

// matchable reports whether a variant is a modifier splitMnemonic can
// produce: one word, two adjacent words, or a run of type words.
func matchable(v string) bool {
	words := strings.Split(strings.TrimPrefix(v, "."), ".")
	if len(words) <= 2 {
		return true
	}
	_, ok := typeRun(v)
	return ok
}

// families reads a list of arch ids, reporting unknown ones.
func (l *loader) families(v *yaml.Node) []string {
	var out []string
	for _, f := range l.strings(v, "families") {
		if !slices.Contains(KnownArchs, f) {
			l.errorf(v, "unknown arch id %q in families (known: %s)", f, strings.Join(KnownArchs, " "))
			continue
		}
		out = append(out, f)
	}
	return out
}

// steps reads a sequence: each item is one line, or a list of alternative
// lines.
func (l *loader) steps(v *yaml.Node) []Step {
	var out []Step
	for _, item := range l.sequence(v, "sequence") {
		alts := l.strings(item, "sequence step")
		if len(alts) == 0 {
			l.errorf(item, "empty sequence step")
			continue
		}
		out = append(out, Step{Alternatives: alts})
	}
	return out
}

// overlapping reports whether a new relation for a pair duplicates one
// already written for it: on a common family (no families means all) with
// the same variants (none means all). One pair may thus relate differently
// per generation (families) or per PTX type or mode (variants, of which
// the best-fitting wins when porting).
func overlapping(prev []Relation, rel Relation) bool {
	for _, p := range prev {
		if meets(p.Families, rel.Families) && sameSet(p.Requires, rel.Requires) && sameSet(p.Except, rel.Except) &&
			(len(p.Variants) == 0 || len(rel.Variants) == 0 || sameSet(p.Variants, rel.Variants)) {
			return true
		}
	}
	return false
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func meets(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// formOf reports whether an instruction line is spelled with mnemonic, bare
// or with an encoding suffix ("v_mov_b32_dpp v0, v1 row_shr:1" for v_mov_b32).
func formOf(line, mnemonic string) bool {
	asm, _ := SplitStep(line)
	name, _, _ := strings.Cut(asm, " ")
	return name == mnemonic || isa.BaseMnemonic(name) == mnemonic
}

// nodeAt returns a stand-in node carrying a line for error reporting.
func nodeAt(_ *yaml.Node, line int) *yaml.Node { return &yaml.Node{Line: line} }

func (l *loader) noCounterpart(n *yaml.Node) *NoCounterpart {
	nc := &NoCounterpart{Pos: l.pos(n)}
	if !l.mapping(n, "no_counterpart entry", map[string]func(*yaml.Node){
		"mnemonic": func(v *yaml.Node) { nc.Mnemonic = l.scalar(v, "mnemonic") },
		"reason":   func(v *yaml.Node) { nc.Reason = l.scalar(v, "reason") },
	}, []string{"mnemonic", "reason"}) {
		return nil
	}
	return nc
}

// crossCheck finds problems that span files: duplicate concept ids, PTX
// mnemonics listed twice as having no counterpart, and mnemonics that are
// both in a concept and said to have no counterpart.
func (l *loader) crossCheck() {
	ids := map[string]Pos{}
	inConcept := map[string]Pos{}
	for _, c := range l.c.Concepts {
		if first, dup := ids[c.ID]; dup {
			l.errs = append(l.errs, Error{Pos: c.Pos, Kind: "schema", Msg: fmt.Sprintf("duplicate concept id %q (first at %s:%d)", c.ID, first.File, first.Line)})
		} else {
			ids[c.ID] = c.Pos
		}
		for _, m := range c.PTX {
			if _, ok := inConcept[m.Mnemonic]; !ok {
				inConcept[m.Mnemonic] = m.Pos
			}
		}
	}
	seen := map[string]Pos{}
	for _, nc := range l.c.NoCounterpart {
		if first, dup := seen[nc.Mnemonic]; dup {
			l.errs = append(l.errs, Error{Pos: nc.Pos, Kind: "schema", Msg: fmt.Sprintf("no_counterpart lists %q twice (first at %s:%d)", nc.Mnemonic, first.File, first.Line)})
			continue
		}
		seen[nc.Mnemonic] = nc.Pos
		if p, ok := inConcept[nc.Mnemonic]; ok {
			l.errs = append(l.errs, Error{Pos: nc.Pos, Kind: "schema", Msg: fmt.Sprintf("%q is said to have no counterpart but is a member of a concept at %s:%d", nc.Mnemonic, p.File, p.Line)})
		}
	}
}

func (c *Catalogue) index() {
	c.byPTX = map[string][]*Concept{}
	c.byAMD = map[string][]*Concept{}
	c.noCP = map[string]*NoCounterpart{}
	for _, k := range c.Concepts {
		for _, m := range k.PTX {
			c.byPTX[m.Mnemonic] = append(c.byPTX[m.Mnemonic], k)
		}
		for _, m := range k.AMD {
			c.byAMD[m.Mnemonic] = append(c.byAMD[m.Mnemonic], k)
		}
	}
	for _, nc := range c.NoCounterpart {
		c.noCP[nc.Mnemonic] = nc
	}
}

// Concept returns the concept with this id, or nil.
func (c *Catalogue) Concept(id string) *Concept {
	for _, k := range c.Concepts {
		if k.ID == id {
			return k
		}
	}
	return nil
}

// NoCounterpartFor returns the no-counterpart entry for a PTX mnemonic, or nil.
func (c *Catalogue) NoCounterpartFor(mnemonic string) *NoCounterpart {
	return c.noCP[mnemonic]
}

// PTXMnemonics returns every PTX mnemonic the catalogue mentions (as a concept
// member or as having no counterpart), sorted.
func (c *Catalogue) PTXMnemonics() []string {
	set := map[string]bool{}
	for m := range c.byPTX {
		set[m] = true
	}
	for m := range c.noCP {
		set[m] = true
	}
	return slices.Sorted(maps.Keys(set))
}
