package famdiff

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Reader is what loading facts needs of the database (store.Reader has it).
type Reader interface {
	Arch(ctx context.Context, id string) (isa.Architecture, error)
	Instructions(ctx context.Context, arch string) ([]*isa.Instruction, error)
	Extra(ctx context.Context, key string) ([]byte, error)
}

// Facts loads families' facts once and keeps them (the database is
// read-only while it is read); safe for concurrent use.
type Facts struct {
	r    Reader
	mu   sync.Mutex
	fams map[string]*Family
	ptx  *PTX
	// diffs keeps the latest family diffs (a family index and its diff
	// page ask for the same one); order is their age, oldest first.
	diffs map[[2]string]*Result
	order [][2]string
	// novelty keeps each family's novelty against the previous family.
	novelty map[[2]string]Novelty
}

// keptDiffs bounds how many family diffs Facts keeps (a large one is about
// a megabyte).
const keptDiffs = 16

// NewFacts returns facts over r.
func NewFacts(r Reader) *Facts { return &Facts{r: r, fams: map[string]*Family{}} }

// Family returns an AMD family's facts; id may be any spelling the
// database resolves (a gfx target, a product).
func (f *Facts) Family(ctx context.Context, id string) (*Family, error) {
	a, err := f.r.Arch(ctx, id)
	if err != nil {
		return nil, err
	}
	if a.Vendor != isa.VendorAMD {
		return nil, errs.Invalid("%s is not an AMD family: compare PTX ISA versions (ptx:7.8 ptx:8.0) or sm_ targets (sm_80 sm_90)", a.Name)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if fam, ok := f.fams[a.ID]; ok {
		return fam, nil
	}
	fam, err := stored(ctx, f.r, ExtraKey(a.ID), func() (isa.Architecture, error) { return a, nil }, FamilyOf)
	if err != nil {
		return nil, err
	}
	f.fams[a.ID] = fam
	return fam, nil
}

// PTX returns the PTX facts.
func (f *Facts) PTX(ctx context.Context) (*PTX, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ptx != nil {
		return f.ptx, nil
	}
	p, err := stored(ctx, f.r, ExtraKey("ptx"), func() (isa.Architecture, error) { return f.r.Arch(ctx, "ptx") }, PTXOf)
	if err != nil {
		return nil, err
	}
	f.ptx = p
	return p, nil
}

// stored reads the facts the build stored under key; from a database
// written before the build stored them, of derives them from the
// instructions of the architecture arch gives.
func stored[T any](ctx context.Context, r Reader, key string, arch func() (isa.Architecture, error), of func(isa.Architecture, []*isa.Instruction) *T) (*T, error) {
	doc, err := r.Extra(ctx, key)
	if errs.KindOf(err) == errs.KindNotFound {
		a, err := arch()
		if err != nil {
			return nil, err
		}
		insts, err := r.Instructions(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		return of(a, insts), nil
	}
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := json.Unmarshal(doc, v); err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	return v, nil
}

// Compare diffs two generations named as a user writes them (the result
// is shared: callers must not change it): two AMD
// families ("rdna3 rdna4", "gfx90a mi300x"), two PTX ISA versions
// ("ptx:7.8 ptx:8.0") or two sm_ targets ("sm_80 sm_90").
func (f *Facts) Compare(ctx context.Context, a, b string) (*Result, error) {
	ka, kb := specKind(a), specKind(b)
	if ka != kb {
		return nil, errs.Invalid("cannot compare %s with %s: compare two AMD families, two PTX ISA versions (ptx:7.8 ptx:8.0) or two sm_ targets (sm_80 sm_90)", a, b)
	}
	switch ka {
	case KindPTXVersions:
		p, err := f.PTX(ctx)
		if err != nil {
			return nil, err
		}
		return p.VersionDiff(a, b)
	case KindPTXTargets:
		p, err := f.PTX(ctx)
		if err != nil {
			return nil, err
		}
		return p.TargetDiff(a, b)
	}
	fa, err := f.Family(ctx, a)
	if err != nil {
		return nil, err
	}
	fb, err := f.Family(ctx, b)
	if err != nil {
		return nil, err
	}
	k := [2]string{fa.Arch, fb.Arch}
	f.mu.Lock()
	r, ok := f.diffs[k]
	f.mu.Unlock()
	if ok {
		return r, nil
	}
	r = Diff(fa, fb)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.diffs == nil {
		f.diffs = map[[2]string]*Result{}
	}
	if _, ok := f.diffs[k]; !ok {
		f.diffs[k] = r
		f.order = append(f.order, k)
		if len(f.order) > keptDiffs {
			delete(f.diffs, f.order[0])
			f.order = f.order[1:]
		}
	}
	return r, nil
}

// Novelty returns arch's novelty against prev: the build's stored one
// (NoveltyKey) when it was taken against prev, else computed from the diff;
// kept once read.
func (f *Facts) Novelty(ctx context.Context, prev, arch string) (Novelty, error) {
	k := [2]string{prev, arch}
	f.mu.Lock()
	n, ok := f.novelty[k]
	f.mu.Unlock()
	if ok {
		return n, nil
	}
	n = Novelty{}
	if doc, err := f.r.Extra(ctx, NoveltyKey(arch)); err != nil || json.Unmarshal(doc, &n) != nil || n.Previous != prev {
		res, err := f.Compare(ctx, prev, arch)
		if err != nil {
			return Novelty{}, err
		}
		n = NoveltyOf(res)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.novelty == nil {
		f.novelty = map[[2]string]Novelty{}
	}
	f.novelty[k] = n
	return n, nil
}

// specKind tells what a diff's side names: "ptx:8.0" a PTX ISA version,
// "sm_90" a target, anything else an AMD family.
func specKind(s string) string {
	s = clean(s)
	switch {
	case strings.HasPrefix(s, "ptx:") || strings.HasPrefix(s, "ptx-") || strings.HasPrefix(s, "ptx") && len(s) > 3 && s[3] >= '0' && s[3] <= '9':
		return KindPTXVersions
	case strings.HasPrefix(s, "sm_") || strings.HasPrefix(s, "sm") && len(s) > 2 && s[2] >= '0' && s[2] <= '9':
		return KindPTXTargets
	}
	return KindFamilies
}

// ParseKind says what a diff's side names: KindPTXVersions for "ptx:8.0",
// KindPTXTargets for "sm_90", else KindFamilies.
func ParseKind(s string) string { return specKind(s) }
