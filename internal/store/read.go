package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"

	"github.com/gpuisa/gpuisa/internal/errs"
	"github.com/gpuisa/gpuisa/internal/fuzzy"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// DB is a read-only database opened by Open. It implements Reader.
type DB struct {
	db    *sql.DB
	info  isa.BuildInfo
	archs []isa.Architecture
	// entries is every instruction's summary, in memory for name search and
	// suggestions (a few tens of thousands of short rows).
	entries []entry
	byArch  map[string][]int // arch -> indexes into entries
	// byName maps a lower-case name to its entries in every family, and
	// names lists those names sorted, for the synonym table's members.
	byName  map[string][]int
	names   []string
	aliases map[string]map[string]string
}

type entry struct {
	isa.Summary
	lower string
}

var _ Reader = (*DB)(nil)

// Open opens the database at path read-only.
func Open(path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errs.NotFound(nil, "database %s does not exist; run `gpuisa build` first", path)
		}
		return nil, err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=query_only(1)")
	if err != nil {
		return nil, err
	}
	s := &DB{db: db, byArch: map[string][]int{}, byName: map[string][]int{}, aliases: map[string]map[string]string{}}
	if err := s.load(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return s, nil
}

func (s *DB) load(ctx context.Context) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	if version != SchemaVersion {
		return fmt.Errorf("schema version %d, this gpuisa reads %d: rebuild the database", version, SchemaVersion)
	}
	var infoDoc string
	if err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key='build'").Scan(&infoDoc); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(infoDoc), &s.info); err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT doc FROM archs ORDER BY ord, id")
	if err != nil {
		return err
	}
	for rows.Next() {
		var doc string
		if err := rows.Scan(&doc); err != nil {
			rows.Close()
			return err
		}
		var a isa.Architecture
		if err := json.Unmarshal([]byte(doc), &a); err != nil {
			rows.Close()
			return err
		}
		s.archs = append(s.archs, a)
	}
	rows.Close()
	rows, err = s.db.QueryContext(ctx, "SELECT arch, name, category, section, summary, formats FROM instructions ORDER BY arch, name")
	if err != nil {
		return err
	}
	for rows.Next() {
		var e entry
		var formats string
		if err := rows.Scan(&e.Arch, &e.Name, &e.Category, &e.Section, &e.Summary.Summary, &formats); err != nil {
			rows.Close()
			return err
		}
		if formats != "" {
			e.Formats = strings.Split(formats, ",")
		}
		e.lower = strings.ToLower(e.Name)
		s.byArch[e.Arch] = append(s.byArch[e.Arch], len(s.entries))
		if _, seen := s.byName[e.lower]; !seen {
			s.names = append(s.names, e.lower)
		}
		s.byName[e.lower] = append(s.byName[e.lower], len(s.entries))
		s.entries = append(s.entries, e)
	}
	rows.Close()
	sort.Strings(s.names)
	rows, err = s.db.QueryContext(ctx, "SELECT arch, alias, name FROM names WHERE alias != name")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var arch, alias, name string
		if err := rows.Scan(&arch, &alias, &name); err != nil {
			return err
		}
		if s.aliases[arch] == nil {
			s.aliases[arch] = map[string]string{}
		}
		s.aliases[arch][alias] = name
	}
	return rows.Err()
}

// Extra returns a named document stored by the build (see Build.Extras);
// errs.NotFound when the build did not store it.
func (s *DB) Extra(ctx context.Context, key string) ([]byte, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", "extra:"+key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.NotFound(nil, "this database has no %s; rebuild it with its sources", key)
	}
	return []byte(v), err
}

// Close closes the database.
func (s *DB) Close() error { return s.db.Close() }

// Info describes the build.
func (s *DB) Info(context.Context) (isa.BuildInfo, error) { return s.info, nil }

// Archs lists the families in display order.
func (s *DB) Archs(context.Context) ([]isa.Architecture, error) {
	return append([]isa.Architecture(nil), s.archs...), nil
}

// Arch returns one family.
func (s *DB) Arch(_ context.Context, id string) (isa.Architecture, error) {
	canon, err := s.resolveArch(id)
	if err != nil {
		return isa.Architecture{}, err
	}
	for _, a := range s.archs {
		if a.ID == canon {
			return a, nil
		}
	}
	return isa.Architecture{}, errs.NotFound(nil, "architecture %q is not in this database", id)
}

func (s *DB) resolveArch(id string) (string, error) {
	if info, ok := isa.LookupArch(id); ok {
		for _, a := range s.archs {
			if a.ID == info.ID {
				return a.ID, nil
			}
		}
	}
	var ids []string
	for _, a := range s.archs {
		ids = append(ids, a.ID)
	}
	sugg := fuzzy.Closest(strings.ToLower(id), ids, 3)
	return "", errs.NotFound(sugg, "unknown architecture %q", id)
}

// List returns the summaries of one family, sorted by name.
func (s *DB) List(_ context.Context, arch string) ([]isa.Summary, error) {
	canon, err := s.resolveArch(arch)
	if err != nil {
		return nil, err
	}
	out := make([]isa.Summary, 0, len(s.byArch[canon]))
	for _, i := range s.byArch[canon] {
		out = append(out, s.entries[i].Summary)
	}
	return out, nil
}

// assemblerSuffixes are the encoding suffixes LLVM appends to mnemonics
// (v_max_f32_e64); a page for the bare mnemonic covers all of them.
var assemblerSuffixes = []string{"_e32", "_e64_dpp", "_e64", "_sdwa", "_dpp8", "_dpp16", "_dpp"}

// Resolve finds the canonical (arch, name) for user input.
func (s *DB) Resolve(ctx context.Context, arch, name string) (string, string, error) {
	canon, err := s.resolveArch(arch)
	if err != nil {
		return "", "", err
	}
	if _, got, ok := s.Lookup(ctx, canon, name); ok {
		return canon, got, nil
	}
	n := strings.ToLower(strings.TrimSpace(name))
	return "", "", errs.NotFound(s.suggest(canon, n), "no instruction %q in %s", name, canon)
}

// Lookup resolves user input as Resolve does, without computing
// suggestions when nothing matches (an editor checks every line).
func (s *DB) Lookup(_ context.Context, arch, name string) (string, string, bool) {
	canon, err := s.resolveArch(arch)
	if err != nil {
		return "", "", false
	}
	n := strings.ToLower(strings.TrimSpace(name))
	if got, ok := s.lookup(canon, n); ok {
		return canon, got, true
	}
	for _, suf := range assemblerSuffixes {
		if strings.HasSuffix(n, suf) {
			if got, ok := s.lookup(canon, strings.TrimSuffix(n, suf)); ok {
				return canon, got, true
			}
		}
	}
	// PTX: "max.f32" or "ld.global.v4.f32" name the mnemonic plus modifiers;
	// the longest documented dotted prefix is the page.
	if strings.Contains(n, ".") && !strings.HasPrefix(n, ".") {
		parts := strings.Split(n, ".")
		for k := len(parts) - 1; k >= 1; k-- {
			if got, ok := s.lookup(canon, strings.Join(parts[:k], ".")); ok {
				return canon, got, true
			}
		}
	}
	return "", "", false
}

func (s *DB) lookup(arch, lower string) (string, bool) {
	idx := s.byArch[arch]
	i := sort.Search(len(idx), func(k int) bool { return s.entries[idx[k]].Name >= lower })
	if i < len(idx) && s.entries[idx[i]].Name == lower {
		return lower, true
	}
	if got, ok := s.aliases[arch][lower]; ok {
		return got, true
	}
	return "", false
}

// suggest offers close matches within a family: typos first, then names
// sharing the longest prefix.
func (s *DB) suggest(arch, lower string) []string {
	var names []string
	for _, i := range s.byArch[arch] {
		names = append(names, s.entries[i].Name)
	}
	for a := range s.aliases[arch] {
		names = append(names, a)
	}
	out := fuzzy.Closest(lower, names, 3)
	if len(out) < 3 {
		seen := map[string]bool{}
		for _, o := range out {
			seen[o] = true
		}
		for cut := len(lower); cut >= 3 && len(out) < 3; cut-- {
			for _, n := range names {
				if len(out) == 3 {
					break
				}
				if !seen[n] && strings.HasPrefix(n, lower[:cut]) {
					seen[n] = true
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// Instruction loads one instruction document.
func (s *DB) Instruction(ctx context.Context, arch, name string) (*isa.Instruction, error) {
	canon, n, err := s.Resolve(ctx, arch, name)
	if err != nil {
		return nil, err
	}
	var packed []byte
	if err := s.db.QueryRowContext(ctx, "SELECT doc FROM instructions WHERE arch=? AND name=?", canon, n).Scan(&packed); err != nil {
		return nil, err
	}
	doc, err := decompress(packed)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", canon, n, err)
	}
	var in isa.Instruction
	if err := json.Unmarshal(doc, &in); err != nil {
		return nil, fmt.Errorf("%s/%s: %w", canon, n, err)
	}
	return &in, nil
}

// Instructions loads every instruction document of a family (for the
// decoder and encoder, which need all encodings at once).
func (s *DB) Instructions(ctx context.Context, arch string) ([]*isa.Instruction, error) {
	canon, err := s.resolveArch(arch)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT doc FROM instructions WHERE arch = ? ORDER BY name", canon)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*isa.Instruction
	for rows.Next() {
		var packed []byte
		if err := rows.Scan(&packed); err != nil {
			return nil, err
		}
		doc, err := decompress(packed)
		if err != nil {
			return nil, err
		}
		in := new(isa.Instruction)
		if err := json.Unmarshal(doc, in); err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, rows.Err()
}

// Search ranks matches for q. Name matches come first (exact, prefix, then
// typos), with the instructions the synonym table gives for what the query
// calls an operation ("popcount") among them, then full-text matches over
// summaries, descriptions and semantics.
func (s *DB) Search(ctx context.Context, q string, opts SearchOptions) ([]isa.SearchHit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, errs.Invalid("empty search query")
	}
	if len(q) > 200 {
		return nil, errs.Invalid("search query longer than 200 characters")
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = 50
	}
	arch := ""
	if opts.Arch != "" {
		a, err := s.resolveArch(opts.Arch)
		if err != nil {
			return nil, err
		}
		arch = a
	}
	lower := strings.ToLower(q)
	var hits []isa.SearchHit
	if !strings.ContainsAny(lower, " \t") {
		hits = s.nameHits(arch, lower)
		// PTX is written with modifiers ("cvt.rni.s32.f32"): when the whole
		// text names nothing, its longest documented dotted prefix does.
		for parts := strings.Split(lower, "."); len(hits) == 0 && len(parts) > 1; parts = parts[:len(parts)-1] {
			prefix := strings.Join(parts[:len(parts)-1], ".")
			for _, h := range s.nameHits(arch, prefix) {
				if h.Why == "name" {
					h.Why = "mnemonic of " + q
					hits = append(hits, h)
				}
			}
		}
	}
	hits = append(hits, s.synonymHits(arch, q)...)
	text, err := s.textHits(ctx, arch, lower)
	if err != nil {
		return nil, err
	}
	hits = append(hits, text...)
	hits = dedupe(hits, arch == "", s.archOrder())
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

func (s *DB) archOrder() map[string]int {
	m := map[string]int{}
	for i, a := range s.archs {
		m[a.ID] = i
	}
	return m
}

// commonness nudges the likeliest instruction of a family of names to the
// top: "v_max" should list v_max_f32 before v_max_f16.
func commonness(name string) float64 {
	switch {
	case strings.HasSuffix(name, "_f32"):
		return 0.5
	case strings.HasSuffix(name, "_u32"), strings.HasSuffix(name, "_i32"), strings.HasSuffix(name, "_b32"):
		return 0.4
	case strings.HasSuffix(name, "_f64"), strings.HasSuffix(name, "_f16"):
		return 0.3
	}
	return 0
}

func (s *DB) nameHits(arch, lower string) []isa.SearchHit {
	var hits []isa.SearchHit
	limit := fuzzy.MaxEdits(len(lower))
	// The same mnemonic appears in up to twelve families: compute each
	// name's edit distance once.
	distances := map[string]int{}
	for _, e := range s.entries {
		if arch != "" && e.Arch != arch {
			continue
		}
		var score float64
		var why string
		switch {
		case e.lower == lower:
			score, why = 100, "name"
		case strings.HasPrefix(e.lower, lower):
			// Shorter completions first.
			score, why = 80-float64(len(e.lower)-len(lower))*0.5+commonness(e.lower), "name prefix"
		case len(lower) >= 3 && strings.Contains(e.lower, lower):
			score, why = 55-float64(len(e.lower)-len(lower))*0.3+commonness(e.lower), "name contains"
		default:
			if d := len(e.lower) - len(lower); d <= limit && -d <= limit && len(lower) >= 4 {
				dist, ok := distances[e.lower]
				if !ok {
					dist = fuzzy.Distance(lower, e.lower)
					distances[e.lower] = dist
				}
				if dist <= limit {
					score, why = 70-float64(dist)*8+commonness(e.lower), "typo"
				}
			}
		}
		if score > 0 {
			hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: score, Why: why})
		}
	}
	return hits
}

// ftsQuery turns free text into an FTS5 query of quoted terms, so user input
// never reaches FTS5's query syntax.
func ftsQuery(q string, op string) string {
	words := strings.FieldsFunc(q, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.')
	})
	var terms []string
	for _, w := range words {
		w = strings.Trim(w, ".")
		if w == "" {
			continue
		}
		terms = append(terms, `"`+w+`"`)
	}
	return strings.Join(terms, " "+op+" ")
}

func (s *DB) textHits(ctx context.Context, arch, lower string) ([]isa.SearchHit, error) {
	var hits []isa.SearchHit
	for _, op := range []string{"AND", "OR"} {
		fq := ftsQuery(lower, op)
		if fq == "" {
			return nil, nil
		}
		query := "SELECT arch, name, bm25(fts, 0, 10.0, 4.0, 1.0) AS r FROM fts WHERE fts MATCH ?"
		args := []any{fq}
		if arch != "" {
			query += " AND arch = ?"
			args = append(args, arch)
		}
		query += " ORDER BY r LIMIT 500"
		rows, err := s.db.QueryContext(ctx, query, args...)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		for rows.Next() {
			var a, n string
			var r float64
			if err := rows.Scan(&a, &n, &r); err != nil {
				rows.Close()
				return nil, err
			}
			// The name column holds the mnemonic followed by its parts.
			if f := strings.Fields(n); len(f) > 0 {
				n = f[0]
			}
			e, ok := s.summary(a, n)
			if !ok {
				continue
			}
			// bm25 is negative; better matches are more negative. Map it to
			// 0..10, then prefer the plain, common instruction of a family
			// of names (v_fma_f32 over v_dual_fmaak_f32).
			rel := -r / (1 - r)
			score := 30 + 10*rel + commonness(n) - 0.08*float64(len(n))
			if op == "OR" {
				score -= 10
			}
			hits = append(hits, isa.SearchHit{Summary: e, Score: score, Why: "description"})
		}
		rows.Close()
		if len(hits) > 0 || !strings.Contains(strings.TrimSpace(lower), " ") {
			break
		}
	}
	return hits, nil
}

func (s *DB) summary(arch, name string) (isa.Summary, bool) {
	idx := s.byArch[arch]
	i := sort.Search(len(idx), func(k int) bool { return s.entries[idx[k]].Name >= name })
	if i < len(idx) && s.entries[idx[i]].Name == name {
		return s.entries[idx[i]].Summary, true
	}
	return isa.Summary{}, false
}

// dedupe keeps the best hit per (arch, name); across all families it keeps
// one hit per name, in the newest family that has it, listing the others.
func dedupe(hits []isa.SearchHit, acrossArchs bool, order map[string]int) []isa.SearchHit {
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		if hits[i].Name != hits[j].Name {
			return hits[i].Name < hits[j].Name
		}
		return order[hits[i].Arch] < order[hits[j].Arch]
	})
	var out []isa.SearchHit
	pos := map[string]int{}
	for _, h := range hits {
		key := h.Arch + "/" + h.Name
		if acrossArchs {
			key = h.Name
		}
		if p, ok := pos[key]; ok {
			if acrossArchs && !contains(out[p].Archs, h.Arch) {
				out[p].Archs = append(out[p].Archs, h.Arch)
			}
			continue
		}
		pos[key] = len(out)
		if acrossArchs {
			h.Archs = []string{h.Arch}
		}
		out = append(out, h)
	}
	for i := range out {
		sort.Slice(out[i].Archs, func(a, b int) bool { return order[out[i].Archs[a]] < order[out[i].Archs[b]] })
		if len(out[i].Archs) > 0 && out[i].Archs[0] != out[i].Arch {
			// Present the hit in the newest family that has the name.
			out[i].Arch = out[i].Archs[0]
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
