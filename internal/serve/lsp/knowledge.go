package lsp

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/codecache"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/store"
)

// knowledge is what the server knows, read from the database once and
// kept: the families, every family's names and target verdicts, the PTX
// checker, and a bounded cache of instruction documents for hovers.
type knowledge struct {
	db     *store.DB
	archs  []isa.Architecture
	byID   map[string]*isa.Architecture
	names  map[string][]isa.Summary // family -> instructions, sorted by name
	spread map[string]int           // name -> how many families have it
	// support is llvm-mc's verdict per family and name; supportAny is the
	// same for a name in whichever family has it.
	support    map[string]map[string]store.Support
	supportAny map[string]store.Support

	ptxOnce    sync.Once
	ptxErr     error
	checker    *ptx.Checker
	ptxModel   map[string]*ptx.Instruction // by name
	ptxOptions map[string][]ptxTokenSet    // by name: each form's tokens

	docs *docCache
	// memos holds the diagnostics' verdicts per family and target.
	memos sync.Map
	// codecs are the families' machine-code decoders, built on demand.
	codecs *codecache.Cache
}

// loadKnowledge opens the database and reads the lists and verdicts the
// diagnostics need (a few tens of milliseconds); the PTX checker is read
// on first use.
func loadKnowledge(ctx context.Context, dbPath string) (*knowledge, error) {
	db, err := store.Open(dbPath)
	if err != nil {
		return nil, err
	}
	k, err := readKnowledge(ctx, db)
	if err != nil {
		db.Close()
		return nil, err
	}
	return k, nil
}

// readKnowledge reads what loadKnowledge promises from db.
func readKnowledge(ctx context.Context, db *store.DB) (*knowledge, error) {
	archs, err := db.Archs(ctx)
	if err != nil {
		return nil, err
	}
	k := &knowledge{db: db, archs: archs, codecs: codecache.New(db), byID: map[string]*isa.Architecture{}, names: map[string][]isa.Summary{},
		spread: map[string]int{}, support: map[string]map[string]store.Support{}, supportAny: map[string]store.Support{},
		docs: newDocCache(256)}
	for i := range k.archs {
		a := &k.archs[i]
		k.byID[a.ID] = a
		list, err := db.List(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		k.names[a.ID] = list
		for _, s := range list {
			k.spread[s.Name]++
		}
		if a.Vendor != isa.VendorAMD {
			continue
		}
		sup, err := db.Support(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		k.support[a.ID] = sup
		for n, s := range sup {
			if _, ok := k.supportAny[n]; !ok {
				k.supportAny[n] = s
			}
		}
	}
	return k, nil
}

func (k *knowledge) close() { k.db.Close() }

// familyOf returns the family of a gfx target or family id.
func (k *knowledge) familyOf(target string) *isa.Architecture {
	if info, ok := isa.LookupArch(target); ok {
		return k.byID[info.ID]
	}
	return nil
}

// instruction loads (and caches) one instruction document; name may carry
// assembler suffixes, aliases and PTX modifiers (store.Resolve).
func (k *knowledge) instruction(ctx context.Context, arch, name string) (*isa.Instruction, error) {
	canon, n, ok := k.db.Lookup(ctx, arch, name)
	if !ok {
		return nil, errNoInstruction
	}
	key := canon + "/" + n
	if in, ok := k.docs.get(key); ok {
		return in, nil
	}
	in, err := k.db.Instruction(ctx, canon, n)
	if err != nil {
		return nil, err
	}
	k.docs.put(key, in)
	return in, nil
}

// resolve says which instruction of the family a mnemonic names, without
// loading it.
func (k *knowledge) resolve(ctx context.Context, arch, name string) (string, bool) {
	_, n, ok := k.db.Lookup(ctx, arch, name)
	return n, ok
}

var errNoInstruction = errors.New("no such instruction")

// homeOf returns the newest family that has name (for files without a
// target).
func (k *knowledge) homeOf(ctx context.Context, name string) (string, bool) {
	for _, a := range k.archs {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		if _, ok := k.resolve(ctx, a.ID, name); ok {
			return a.ID, true
		}
	}
	return "", false
}

// loadPTX reads the PTX model (with ptxas's verdicts) and builds the
// checker, once.
func (k *knowledge) loadPTX(ctx context.Context) error {
	k.ptxOnce.Do(func() {
		raw, err := k.db.Extra(ctx, store.KeyPTXModel)
		if err != nil {
			k.ptxErr = err
			return
		}
		var instrs []ptx.Instruction
		if err := json.Unmarshal(raw, &instrs); err != nil {
			k.ptxErr = fmt.Errorf("PTX model: %w", err)
			return
		}
		k.checker = ptx.NewChecker(instrs)
		k.ptxModel = map[string]*ptx.Instruction{}
		k.ptxOptions = map[string][]ptxTokenSet{}
		for i := range instrs {
			in := &instrs[i]
			k.ptxModel[in.Name] = in
			if in.Kind == "" || in.Kind == ptx.KindInstruction {
				k.ptxOptions[in.Name] = formTokens(in)
			}
		}
	})
	return k.ptxErr
}

// ptxTokenSet is one form's modifier tokens (".ftz", ".f32") in the order
// the syntax line gives them, with what each form says about them.
type ptxTokenSet struct {
	form   *ptx.Form
	tokens []string
	set    map[string]bool
}

// formTokens lists each form's possible tokens: the dotted parts of the
// opcode in its syntax line, template variables expanded to their choices.
func formTokens(in *ptx.Instruction) []ptxTokenSet {
	base := map[string]bool{}
	for _, t := range strings.Split(in.Name, ".") {
		base["."+t] = true
	}
	var out []ptxTokenSet
	for i := range in.Forms {
		f := &in.Forms[i]
		vars := map[string][]string{}
		for _, v := range f.Variables {
			vars[v.Name] = v.Choices
		}
		opcode := f.Syntax
		if sp := strings.IndexAny(opcode, " \t"); sp >= 0 {
			opcode = opcode[:sp]
		}
		ts := ptxTokenSet{form: f, set: map[string]bool{}}
		add := func(t string) {
			if t == "" || base[t] || ts.set[t] {
				return
			}
			ts.set[t] = true
			ts.tokens = append(ts.tokens, t)
		}
		for _, t := range opcodeTokens(opcode) {
			if ch, ok := vars[t]; ok {
				for _, c := range ch {
					for _, p := range opcodeTokens(c) {
						add(p)
					}
				}
				continue
			}
			add(t)
		}
		out = append(out, ts)
	}
	return out
}

// opcodeTokens splits "max{.ftz}{.NaN}.f32" into ".ftz", ".NaN", ".f32";
// "::" parts stay with their token (".shared::cta").
func opcodeTokens(s string) []string {
	s = strings.NewReplacer("{", "", "}", "", "|", "").Replace(s)
	var out []string
	for i := 0; i < len(s); {
		if s[i] != '.' {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '.' {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// docCache is a small LRU of instruction documents: a PTX document with
// its SASS listings is hundreds of kilobytes, so it is bounded.
type docCache struct {
	mu    sync.Mutex
	max   int
	order *list.List
	items map[string]*list.Element
}

type cached struct {
	key string
	in  *isa.Instruction
}

func newDocCache(max int) *docCache {
	return &docCache{max: max, order: list.New(), items: map[string]*list.Element{}}
}

func (c *docCache) get(key string) (*isa.Instruction, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(cached).in, true
	}
	return nil, false
}

func (c *docCache) put(key string, in *isa.Instruction) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.items[key] = c.order.PushFront(cached{key, in})
	for c.order.Len() > c.max {
		e := c.order.Back()
		c.order.Remove(e)
		delete(c.items, e.Value.(cached).key)
	}
}

// supportOf returns llvm-mc's verdict on a spelling as written (suffixes
// stripped): the family's own row for that name, else another family's
// row for it, else the row of the instruction it resolves to.
func (k *knowledge) supportOf(arch, written, resolved string) (store.Support, bool) {
	bare := bareMnemonic(written)
	if s, ok := k.support[arch][bare]; ok {
		return s, true
	}
	if s, ok := k.supportAny[bare]; ok {
		return s, true
	}
	if s, ok := k.support[arch][resolved]; ok {
		return s, true
	}
	return store.Support{}, false
}

// Verdicts on a spelling for a target.
const (
	notVerified = iota
	accepted
	rejected
)

// spellingVerdict applies llvm-mc's verdicts to a spelling (bare, no
// suffix) on target. A name llvm-mc took on no target at all (a VOPD half
// only assembles paired) has no verdict to hold a file to.
func spellingVerdict(sup store.Support, ok bool, target, bare string) int {
	other := sup.OtherSpellings[target]
	switch {
	case !ok || len(sup.Supported) == 0 && other == "":
		return notVerified
	case sup.Supports(target) || other == bare:
		return accepted
	}
	return rejected
}

// bareMnemonic drops an encoding suffix, in lower case.
func bareMnemonic(name string) string { return isa.BaseMnemonic(strings.ToLower(name)) }

// suffixOf returns the encoding suffix of a mnemonic ("" when none).
func suffixOf(name string) string { return isa.EncodingSuffix(strings.ToLower(name)) }

// targetsSupporting lists, oldest first and shortened, the gfx targets a
// verdict accepts.
func targetsSupporting(s store.Support) []string {
	order := map[string]int{}
	for i, t := range isa.AllGFXTargets {
		order[t] = i
	}
	out := append([]string(nil), s.Supported...)
	sort.Slice(out, func(i, j int) bool { return order[out[i]] < order[out[j]] })
	return out
}

// familyName is a family's display name: the database's, else the family
// table's (a file may name a target whose family the database lacks), else
// the id itself.
func (k *knowledge) familyName(id string) string {
	if a := k.byID[id]; a != nil {
		return a.Name
	}
	if a, ok := isa.LookupArch(id); ok {
		return a.Name
	}
	return id
}
