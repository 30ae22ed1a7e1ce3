package store

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
	"github.com/gpuisa/gpuisa/internal/xvendor/synonyms"
)

// A porting question names one vendor's instruction and asks for the
// other's: "shfl.sync on amd", "bar.sync amd", "v_readlane ptx",
// "ds_bpermute in cuda", "mma.sync equivalent on amd". Its words are no
// description of the operation (the name is the other vendor's), so it is
// answered by the counterparts the concept catalogue (concepts/*.yaml,
// stored with the database) relates to the name, as `gpuisa port` and the
// concept pages read it, and a vendor word keeps the answer to that
// vendor's families.

// vendorWords are the words that name a vendor rather than a family:
// "amd" asks for AMD's families, "nvidia" and "cuda" for NVIDIA's (PTX).
var vendorWords = map[string]string{
	"amd": isa.VendorAMD, "amd's": isa.VendorAMD, "amdgpu": isa.VendorAMD,
	"nvidia": isa.VendorNVIDIA, "nvidia's": isa.VendorNVIDIA, "cuda": isa.VendorNVIDIA, "cuda's": isa.VendorNVIDIA,
}

// portWords are the words of a porting question around the names ("what
// is the amd equivalent of shfl.sync"): they name no instruction, and
// stay out of the search once a vendor word says the query is one.
var portWords = map[string]bool{
	"equivalent": true, "equivalents": true, "counterpart": true, "counterparts": true,
	"version": true, "analog": true, "analogue": true, "port": true, "ported": true, "porting": true,
	"what": true, "what's": true, "whats": true, "how": true, "do": true, "does": true, "i": true,
	"to": true, "as": true, "like": true, "instead": true, "use": true, "there": true,
}

// cutVendor removes a vendor word from q, and the porting words with it;
// vendor is "" (and q unchanged) when q has none, or nothing else.
func cutVendor(q string) (rest, vendor string) {
	words := strings.Fields(q)
	var kept []string
	for _, w := range words {
		if v, ok := vendorWords[strings.ToLower(w)]; ok && vendor == "" {
			vendor = v
			continue
		}
		kept = append(kept, w)
	}
	if vendor == "" {
		return q, ""
	}
	var out []string
	for _, w := range kept {
		if !portWords[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return q, ""
	}
	return strings.Join(out, " "), vendor
}

// vendorScope reads a vendor word of q when no family scopes it: the rest
// of the query, the vendor, and the family to search when the vendor has
// only one (PTX is NVIDIA's).
func (s *DB) vendorScope(q string) (rest, vendor, arch string) {
	rest, vendor = cutVendor(q)
	if vendor == "" {
		return q, "", ""
	}
	for _, a := range s.archs {
		if a.Vendor != vendor {
			continue
		}
		if arch != "" {
			return rest, vendor, "" // several families: filter, not scope
		}
		arch = a.ID
	}
	return rest, vendor, arch
}

// archVendor is the vendor of a family, "" for an unknown one.
func (s *DB) archVendor(arch string) string {
	for _, a := range s.archs {
		if a.ID == arch {
			return a.Vendor
		}
	}
	return ""
}

// ofVendor keeps the hits in the vendor's families.
func (s *DB) ofVendor(hits []isa.SearchHit, vendor string) []isa.SearchHit {
	out := hits[:0]
	for _, h := range hits {
		if s.archVendor(h.Arch) == vendor {
			out = append(out, h)
		}
	}
	return out
}

// catalogue is the concept catalogue stored with the database, read once;
// nil when the database has none (a test's) or it does not load.
func (s *DB) catalogue() *concepts.Catalogue {
	s.catOnce.Do(func() {
		if cat, _, err := LoadCatalogue(context.Background(), s); err == nil {
			s.cat = cat
		}
	})
	return s.cat
}

// LoadCatalogue reads the concept catalogue stored with a database
// (KeyConcepts, file name -> YAML) and parses it; files is the text of
// each file, for pages that show it.
func LoadCatalogue(ctx context.Context, r interface {
	Extra(ctx context.Context, key string) ([]byte, error)
}) (cat *concepts.Catalogue, files map[string]string, err error) {
	raw, err := r.Extra(ctx, KeyConcepts)
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(raw, &files); err != nil {
		return nil, nil, fmt.Errorf("reading the stored concept catalogue: %w", err)
	}
	bytes := make(map[string][]byte, len(files))
	for k, v := range files {
		bytes[k] = []byte(v)
	}
	if cat, err = concepts.LoadFiles(bytes); err != nil {
		return nil, nil, fmt.Errorf("parsing the stored concept catalogue: %w", err)
	}
	return cat, files, nil
}

// catalogueState holds the catalogue DB reads on first use.
type catalogueState struct {
	catOnce sync.Once
	cat     *concepts.Catalogue
}

// portedScore ranks the counterparts of a porting question with exact
// names: the question asks for nothing else.
const portedScore = 97

// counterpartHits answers a porting question: the query, less filler, is
// one word that names an instruction of another vendor than the one
// searched (vendor, or arch's), and the hits are the catalogue's
// counterparts of it in arch ("" for every family of the vendor), in the
// catalogue's order. A PTX name may come with modifiers typed apart
// ("mma.sync m16n8k16 on amd": mma.sync.m16n8k16), or be the head of
// dotted names ("wgmma": wgmma.mma_async and its siblings). Where the
// catalogue relates the name to nothing, the synonym table's groups that
// list it give the other vendor's members (v_max3_f32: PTX max).
func (s *DB) counterpartHits(arch, vendor, lower string, qw *queryWords) []isa.SearchHit {
	if vendor == "" {
		return nil
	}
	var words []string
	for _, w := range strings.Fields(lower) {
		if !fillerWords[w] && !portWords[w] {
			words = append(words, w)
		}
	}
	word, ok := s.portedWord(words, vendor)
	if !ok {
		return nil
	}
	var names []string
	switch vendor {
	case isa.VendorAMD:
		names = s.amdCounterparts(word, arch, qw)
	case isa.VendorNVIDIA:
		names = s.ptxCounterparts(word)
	}
	return s.portedHits(names, arch, vendor, portedScore, "counterpart of "+word, qw)
}

// portedHits are the hits of a porting question's counterparts, in arch
// ("" for every family of the vendor), from score down in the
// catalogue's order. Where the question's types ask for a width the
// catalogue relates no counterpart at (ld.global.nc.v4.f32: the
// catalogue's ld.global.nc is global_load_dword), a counterpart's
// siblings at that width (global_load_dwordx4) follow it.
func (s *DB) portedHits(names []string, arch, vendor string, score float64, why string, qw *queryWords) []isa.SearchHit {
	var hits []isa.SearchHit
	seen := map[string]bool{}
	for _, name := range names {
		seen[strings.ToLower(name)] = true
	}
	for i, name := range names {
		all := []string{strings.ToLower(name)}
		if vendor == isa.VendorAMD && !slices.ContainsFunc(names, func(n string) bool { return qw.satisfied(strings.ToLower(n)) == len(qw.quals) }) {
			for _, sib := range s.siblings(strings.ToLower(name), qw) {
				if !seen[sib] {
					seen[sib] = true
					all = append(all, sib)
				}
			}
		}
		for _, n := range all {
			for _, k := range s.byName[n] {
				e := &s.entries[k]
				if arch != "" && e.Arch != arch || s.archVendor(e.Arch) != vendor {
					continue
				}
				hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: score - 0.1*float64(i), Why: why})
			}
		}
	}
	return hits
}

// ptxModifierWord is a word typed after a PTX name that is one of its
// modifiers written apart: a matrix shape (m16n8k16), a type (f16, b128,
// e4m3, tf32) or a dotted modifier (.sync).
var (
	ptxModifierWord = regexp.MustCompile(`^\.[a-z0-9_:]+$|^m\d+n\d+(k\d+)?$|^(bf|[bsuf])\d+$|^e[45]m[23]$|^tf32$`)
	ptxShape        = regexp.MustCompile(`^m\d+n\d+(k\d+)?$`)
)

// portedWord is the one word of a porting question's words that names the
// other vendor's instruction, with the modifiers typed apart after a PTX
// name joined to it; false when the words are not one such word.
func (s *DB) portedWord(words []string, vendor string) (string, bool) {
	if len(words) == 1 {
		return words[0], true
	}
	if vendor != isa.VendorAMD || len(words) == 0 || !s.namesPTX(words[0]) && len(s.ptxHeadNames(words[0])) == 0 {
		return "", false
	}
	word := words[0]
	for _, m := range words[1:] {
		if !ptxModifierWord.MatchString(m) {
			return "", false
		}
		word += "." + strings.TrimPrefix(m, ".")
	}
	return word, true
}

// ptxHeadNames are the PTX names a word that names none begins, dotted
// ("wgmma" of wgmma.mma_async, wgmma.fence, ...).
func (s *DB) ptxHeadNames(word string) []string {
	if strings.ContainsAny(word, " _") || s.namesPTX(word) {
		return nil
	}
	var out []string
	for _, name := range s.namesWithPrefix(word + ".") {
		if s.namedIn(name, isa.VendorNVIDIA) {
			out = append(out, name)
		}
	}
	return out
}

// amdCounterparts are the AMD names the catalogue gives for a PTX word
// (a name, a dotted form of one, or the head of names), closest first;
// the PTX type modifiers become the query's qualifiers.
func (s *DB) amdCounterparts(word, arch string, qw *queryWords) []string {
	ptxNames := []string{word}
	if !s.namesPTX(word) {
		if ptxNames = s.ptxHeadNames(word); len(ptxNames) == 0 {
			return nil
		}
	}
	cat := s.catalogue()
	if cat == nil {
		return nil
	}
	var rels []concepts.Relation
	for _, name := range ptxNames {
		res := concepts.Port(cat, name, concepts.Target{Arch: arch})
		// The catalogue relates ld to every LDS load; the PTX type says
		// the width (ld.shared.b128: ds_read_b128).
		qw.addQualifiers(ptxQualifiers(res.Modifiers))
		var own []concepts.Relation
		for _, cp := range res.Counterparts {
			own = append(own, concepts.Relation{AMD: cp.AMD, Kind: cp.Relation})
		}
		if len(own) == 0 {
			own = servingRelations(cat.ForPTX(res.Mnemonic), res.Mnemonic, res.Modifiers)
		}
		rels = append(rels, own...)
	}
	if len(rels) == 0 {
		mnemonic := word
		if res := concepts.Port(cat, word, concepts.Target{Arch: arch}); res.Mnemonic != "" {
			mnemonic = res.Mnemonic
		}
		return s.synonymCounterparts(mnemonic, isa.VendorAMD)
	}
	return closestFirst(rels, func(r concepts.Relation) string { return r.AMD })
}

// ptxCounterparts are the PTX names the catalogue gives for an AMD word (a
// name or the start of names), closest first; the synonym table's where
// the catalogue has none.
func (s *DB) ptxCounterparts(word string) []string {
	amd := s.amdNamesOf(word)
	cat := s.catalogue()
	if len(amd) == 0 || cat == nil {
		return nil
	}
	var rels []concepts.Relation
	for _, name := range amd {
		for _, m := range cat.ForAMD("", name) {
			rels = append(rels, m.Relations...)
		}
	}
	if len(rels) == 0 {
		var out []string
		for _, name := range amd {
			for _, n := range s.synonymCounterparts(name, isa.VendorNVIDIA) {
				out = appendNew(out, n)
			}
		}
		return out
	}
	return closestFirst(rels, func(r concepts.Relation) string { return r.PTX })
}

// synonymCounterparts are the vendor's instructions in the synonym table's
// groups that list name (a member, or a member pattern it matches), in the
// table's order: the table says which instructions of either vendor
// perform an operation ("maximum of three": v_max3_f32 and PTX max) where
// the catalogue relates none.
func (s *DB) synonymCounterparts(name, vendor string) []string {
	var out []string
	for gi := range synonyms.Default().Groups {
		g := &synonyms.Default().Groups[gi]
		if !slices.ContainsFunc(g.Members, func(m string) bool {
			prefix, pattern := strings.CutSuffix(m, "*")
			return m == name || pattern && strings.HasPrefix(name, prefix)
		}) {
			continue
		}
		for _, m := range g.Members {
			for _, n := range synonyms.Expand(m, s.namesWithPrefix(strings.TrimSuffix(m, "*"))) {
				if n != name && s.namedIn(n, vendor) {
					out = appendNew(out, n)
				}
			}
		}
	}
	return out
}

// namesPTX says whether a word is a PTX name or a dotted form of one
// ("red.global.add.f32" of red).
func (s *DB) namesPTX(word string) bool {
	for parts := strings.Split(word, "."); len(parts) > 0; parts = parts[:len(parts)-1] {
		if s.namedIn(strings.Join(parts, "."), isa.VendorNVIDIA) {
			return true
		}
	}
	return false
}

// namesWithPrefix are the names (lower case, sorted) that start with
// prefix: a range of s.names, found without reading the others.
func (s *DB) namesWithPrefix(prefix string) []string {
	i, _ := slices.BinarySearch(s.names, prefix)
	j := i
	for j < len(s.names) && strings.HasPrefix(s.names[j], prefix) {
		j++
	}
	return s.names[i:j]
}

// namedIn says whether one of the vendor's families has an instruction
// of that name.
func (s *DB) namedIn(name, vendor string) bool {
	return slices.ContainsFunc(s.byName[name], func(k int) bool { return s.archVendor(s.entries[k].Arch) == vendor })
}

// maxPortedNames bounds the AMD names a prefix stands for in a porting
// question ("v_mfma" is every MFMA).
const maxPortedNames = 64

// amdNamesOf are the AMD names a word stands for: the name itself, else
// the names it starts ("v_readlane" of v_readlane_b32, "v_mfma" of every
// MFMA), in sorted order.
func (s *DB) amdNamesOf(word string) []string {
	if s.namedIn(word, isa.VendorAMD) {
		return []string{word}
	}
	var out []string
	for _, name := range s.namesWithPrefix(word + "_") {
		if s.namedIn(name, isa.VendorAMD) {
			out = append(out, name)
			if len(out) == maxPortedNames {
				break
			}
		}
	}
	return out
}

var (
	ptxScalarType = regexp.MustCompile(`^\.(bf|[bsuf])(\d+)$`)
	ptxVector     = regexp.MustCompile(`^\.v(\d)$`)
)

// ptxQualifiers are the search's qualifier words for a PTX instruction's
// type, vector and state space modifiers, which AMD spells in its names: a
// float type itself (.f16: "f16"), the bits moved ("128-bit" of .b128 and
// of .v4.f32), and the memory (.global: "global").
func ptxQualifiers(mods []string) []string {
	vec, bits, float := 1, 0, ""
	for _, m := range mods {
		if v := ptxVector.FindStringSubmatch(m); v != nil {
			vec, _ = strconv.Atoi(v[1])
		}
		if t := ptxScalarType.FindStringSubmatch(m); t != nil && bits == 0 {
			bits, _ = strconv.Atoi(t[2])
			if t[1] == "f" || t[1] == "bf" {
				float = m[1:]
			}
		}
	}
	var out []string
	if float != "" && vec == 1 {
		out = append(out, float)
	}
	if bits > 0 {
		out = append(out, strconv.Itoa(bits*vec)+"-bit")
	}
	for _, m := range mods {
		if sp := ptxSpaces[m]; sp != "" && !slices.Contains(out, sp) {
			out = append(out, sp)
		}
	}
	return out
}

// ptxSpaces are the search's memory qualifier words for PTX's state
// spaces, which AMD's names start with: red.global.add is a global_
// atomic, ld.shared an LDS (ds_) load, ld.local a scratch_ one.
var ptxSpaces = map[string]string{".global": "global", ".shared": "shared", ".shared::cta": "shared", ".local": "scratch"}

// servingRelations are the relations of a PTX mnemonic that serve the
// modifiers a query gives without those a relation needs (shfl.sync
// without .idx or .bfly, atom.cas without its space and type,
// ex2.approx without its type): a modifier the catalogue writes for the
// mnemonic (.cas) must be a word of the relation's variants or of its
// concept's member; one it never writes (mma's .sync) says nothing.
func servingRelations(ms []concepts.Match, mnemonic string, mods []string) []concepts.Relation {
	words := func(variants []string) []string {
		var out []string
		for _, v := range variants {
			out = append(out, strings.Split(strings.TrimPrefix(v, "."), ".")...)
		}
		return out
	}
	written := map[string]bool{}
	member := map[*concepts.Concept][]string{}
	for _, m := range ms {
		for _, p := range m.Concept.PTX {
			if p.Mnemonic == mnemonic {
				member[m.Concept] = append(words(p.Variants), words(p.Except)...)
			}
		}
		for _, w := range member[m.Concept] {
			written[w] = true
		}
		for _, r := range m.Relations {
			for _, w := range words(r.Variants) {
				written[w] = true
			}
		}
	}
	var out []concepts.Relation
	for _, m := range ms {
		for _, r := range m.Relations {
			have := append(words(r.Variants), member[m.Concept]...)
			serves := true
			for _, mod := range mods {
				if w := mod[1:]; !strings.Contains(w, ".") && written[w] && !slices.Contains(have, w) {
					serves = false
				}
			}
			if serves {
				out = append(out, r)
			}
		}
	}
	return out
}

// relationRank orders the catalogue's relations by how closely the two
// sides match: an equivalent is the answer to a porting question before a
// partial match or a sequence that uses the instruction as one step
// (ds_bpermute_b32 is shfl.sync's equivalent, and one step of movmatrix).
var relationRank = map[concepts.RelationKind]int{
	concepts.Equivalent: 0, concepts.EquivalentWithRestrictions: 1, concepts.Partial: 2, concepts.Sequence: 3,
}

// closestFirst lists the names side gives of rels, each once, the closest
// relation's first, then the commoner type, otherwise in the catalogue's
// order.
func closestFirst(rels []concepts.Relation, side func(concepts.Relation) string) []string {
	best := map[string]int{}
	var names []string
	for _, r := range rels {
		n, k := side(r), relationRank[r.Kind]
		if n == "" {
			continue
		}
		if b, ok := best[n]; !ok || k < b {
			best[n] = k
		}
		names = appendNew(names, n)
	}
	slices.SortStableFunc(names, func(a, b string) int {
		if best[a] != best[b] {
			return best[a] - best[b]
		}
		// The plain f32 form before the others (rsqrt: v_rsq_f32).
		return cmp.Compare(commonness(b), commonness(a))
	})
	return names
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	if s == "" {
		return list
	}
	return append(list, s)
}
