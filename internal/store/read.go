package store

import (
	"bytes"
	"cmp"
	"compress/flate"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"modernc.org/sqlite/vfs"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/base/fuzzy"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// DB is a read-only database opened by Open. It implements Reader.
type DB struct {
	db *sql.DB
	// file is the database file the connections read (through fsys, a VFS
	// over it), held open so that a new file renamed to the path, or the
	// path's removal, never reaches this DB.
	file *os.File
	fsys *vfs.FS
	id   FileID
	// formats are each family's formats by name, for the layouts readers
	// derive (layout.go).
	formats map[string]map[string]isa.Format
	// renderer is who rendered the stored answers (answers.go), read once.
	rendererOnce sync.Once
	renderer     string
	info         isa.BuildInfo
	archs        []isa.Architecture
	// entries is every instruction's summary, in memory for name search and
	// suggestions (a few tens of thousands of short rows).
	entries []entry
	byArch  map[string][]int // arch -> indexes into entries
	// byName maps a lower-case name to its entries in every family, and
	// names lists those names sorted, for the synonym table's members.
	byName  map[string][]int
	names   []string
	aliases map[string]map[string]string

	// stems groups names by their operation, for the variants a query's
	// qualifiers ask for (queryrank.go); procs reads the families, targets
	// and products a query names. Both are built on first use.
	stems     stemIndex
	counted   countedIndex
	procsOnce sync.Once
	procs     *isa.ProcessorIndex

	// text is the full-text index, built once (PrepareSearch).
	textOnce sync.Once
	text     *textIndex
	textErr  error

	// catalogueState is the concept catalogue, read on first use for
	// porting questions (crossvendor.go).
	catalogueState
	// sassState is the SASS index's PTX sources per opcode, read on first
	// use for SASS queries (sassquery.go).
	sassState
}

type entry struct {
	isa.Summary
	lower string
}

var _ Reader = (*DB)(nil)

// Open opens the database at path read-only. The DB is bound to the file
// found there now: every connection reads that inode (SQLite opens it as
// immutable, without locks, since a build never changes a file in place),
// so a build renaming a new file to the path later, or the path's removal,
// does not affect it. A file that is not a complete SQLite database, or has
// another schema, is an error.
func Open(path string) (*DB, error) {
	f, id, err := openFile(path)
	if err != nil {
		return nil, err
	}
	return openOn(path, f, id)
}

// openOn opens the database in f, which it then owns; id is the identity
// of the file at path it came from.
func openOn(path string, f *os.File, id FileID) (*DB, error) {
	dsn, fsys, err := openBound(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		fsys.Close()
		f.Close()
		return nil, err
	}
	// Connections are kept, not churned: each one parses the schema when it
	// opens.
	conns := max(4, 2*runtime.GOMAXPROCS(0))
	db.SetMaxOpenConns(conns)
	db.SetMaxIdleConns(conns)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	s := &DB{db: db, fsys: fsys, file: f, id: id, byArch: map[string][]int{}, byName: map[string][]int{}, aliases: map[string]map[string]string{}}
	if err := s.load(context.Background()); err != nil {
		s.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return s, nil
}

// FileID identifies the file this DB reads (see Stat).
func (s *DB) FileID() FileID { return s.id }

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
	s.formats = familyFormats(s.archs)
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

// Close closes the database and its file.
func (s *DB) Close() error {
	err := s.db.Close()
	if cerr := s.fsys.Close(); err == nil {
		err = cerr
	}
	if cerr := s.file.Close(); err == nil {
		err = cerr
	}
	return err
}

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
	// A product ("MI300X") or generic target of LLVM's processor table.
	if arch, ok := isa.ArchOfProcessors(isa.MatchProcessors(s.archs, id)); ok {
		return arch, nil
	}
	var ids []string
	for _, a := range s.archs {
		ids = append(ids, a.ID)
	}
	sugg := fuzzy.Closest(strings.ToLower(id), ids, 3)
	// A product or target a letter or two off ("mi300": MI300X's gfx942).
	for _, m := range isa.MatchProcessorsNear(s.archs, id, 3) {
		if !slices.Contains(sugg, m.Target) {
			sugg = append(sugg, m.Target)
		}
	}
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
	// An encoding suffix (v_max_f32_e64): the page for the bare mnemonic
	// covers all of them.
	if bare := isa.BaseMnemonic(n); bare != n {
		if got, ok := s.lookup(canon, bare); ok {
			return canon, got, true
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
	var derived int
	if err := s.db.QueryRowContext(ctx, "SELECT doc, derived FROM instructions WHERE arch=? AND name=?", canon, n).Scan(&packed, &derived); err != nil {
		return nil, err
	}
	in, err := s.readDoc(packed, derived)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: %w", canon, n, err)
	}
	return in, nil
}

// readDoc inflates and decodes a stored document, deriving the layouts of
// its derived encodings (layout.go).
func (s *DB) readDoc(packed []byte, derived int) (*isa.Instruction, error) {
	scratch := docScratch.Get().(*[]byte)
	defer docScratch.Put(scratch)
	doc, err := inflate((*scratch)[:0], packed)
	if err != nil {
		return nil, err
	}
	*scratch = doc
	var in isa.Instruction
	if err := json.Unmarshal(doc, &in); err != nil {
		return nil, err
	}
	if derived > 0 {
		deriveLayouts(&in, s.formats[in.Arch])
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
	rows, err := s.db.QueryContext(ctx, "SELECT doc, derived FROM instructions WHERE arch = ? ORDER BY name", canon)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*isa.Instruction
	for rows.Next() {
		var packed []byte
		var derived int
		if err := rows.Scan(&packed, &derived); err != nil {
			return nil, err
		}
		in, err := s.readDoc(packed, derived)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, rows.Err()
}

// Doc is an instruction's JSON document as stored: Deflate is the raw
// deflate stream of the JSON (which ends in a newline), Len and CRC its
// length and CRC-32, so it can be sent as gzip without inflating it.
type Doc struct {
	Arch, Name string
	Deflate    []byte
	Len        int
	CRC        uint32
}

// NewDoc compresses a JSON document as the build stores it (for stores
// other than a database, such as test fakes).
func NewDoc(arch, name string, doc []byte) (Doc, error) {
	var buf bytes.Buffer
	zw := docWriters.Get().(*flate.Writer)
	defer docWriters.Put(zw)
	zw.Reset(&buf)
	if _, err := zw.Write(doc); err != nil {
		return Doc{}, err
	}
	if err := zw.Close(); err != nil {
		return Doc{}, err
	}
	return Doc{Arch: arch, Name: name, Deflate: buf.Bytes(), Len: len(doc), CRC: crc32.ChecksumIEEE(doc)}, nil
}

// docScratch holds the inflated JSON readDoc decodes (Unmarshal copies
// what it keeps), reused from one document to the next.
var docScratch = sync.Pool{New: func() any { return new([]byte) }}

// docWriters keeps NewDoc's compressors: flate.NewWriter allocates and
// clears about a megabyte of tables, which cost more than compressing a
// document (the API compresses every derived document it answers).
var docWriters = sync.Pool{New: func() any {
	zw, _ := flate.NewWriter(nil, flate.BestSpeed) // BestSpeed is a valid level: no error
	return zw
}}

// JSON inflates the document.
func (d Doc) JSON() ([]byte, error) { return decompress(d.Deflate) }

// Gzip returns the document as a gzip member (RFC 1952) around the stored
// deflate stream.
func (d Doc) Gzip() []byte {
	out := make([]byte, 0, 10+len(d.Deflate)+8)
	// No name, no time, OS unknown: the same bytes on every server.
	out = append(out, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff)
	out = append(out, d.Deflate...)
	out = binary.LittleEndian.AppendUint32(out, d.CRC)
	return binary.LittleEndian.AppendUint32(out, uint32(d.Len))
}

// InstructionDoc returns one instruction's stored document, resolving name
// as Instruction does.
func (s *DB) InstructionDoc(ctx context.Context, arch, name string) (Doc, error) {
	canon, n, err := s.Resolve(ctx, arch, name)
	if err != nil {
		return Doc{}, err
	}
	d := Doc{Arch: canon, Name: n}
	var crc int64
	var derived int
	if err := s.db.QueryRowContext(ctx, "SELECT doc, doc_len, doc_crc, derived FROM instructions WHERE arch=? AND name=?", canon, n).
		Scan(&d.Deflate, &d.Len, &crc, &derived); err != nil {
		return Doc{}, fmt.Errorf("%s/%s: %w", canon, n, err)
	}
	d.CRC = uint32(crc)
	if derived == 0 {
		return d, nil // stored as the API answers it
	}
	in, err := s.readDoc(d.Deflate, derived)
	if err != nil {
		return Doc{}, fmt.Errorf("%s/%s: %w", canon, n, err)
	}
	doc, err := apiDoc(in, d.Len, d.CRC)
	if err != nil {
		return Doc{}, err
	}
	return NewDoc(canon, n, doc)
}

// Search ranks matches for q. A family, target or product among its words
// ("v_max_f32 cdna3", "gfx1100 v_max", "MI300X mfma") scopes it to that
// family, over opts.Arch. Name matches come first (exact, prefix, then
// typos), with the instructions the synonym table gives for what the query
// calls an operation ("popcount") among them, then full-text matches over
// summaries, descriptions and semantics; the query's qualifier words
// ("f16", "64-bit", "shared") rank the variants that carry them
// (queryrank.go).
func (s *DB) Search(ctx context.Context, q string, opts SearchOptions) ([]isa.SearchHit, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, errs.Invalid("empty search query")
	}
	if utf8.RuneCountInString(q) > 200 { // characters, as said: "é" is one
		return nil, errs.Invalid("search query longer than 200 characters")
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = 50
	}
	q = levelWords(q)
	arch := ""
	if opts.Arch != "" {
		a, err := s.resolveArch(opts.Arch)
		if err != nil {
			return nil, err
		}
		arch = a
	}
	// "shfl.sync on amd": a vendor word filters to its families; the
	// vendor of a family the query names ("v_readlane ptx") is the other
	// side of a porting question. A family given apart from the words (the
	// page the user is on, --arch) only scopes: "v_max_f32" typed on a PTX
	// page asks for AMD's v_max_f32, not for its PTX counterparts.
	vendor := ""
	if sc := s.ScopeOf(q); sc.Arch != "" {
		arch, q = sc.Arch, sc.Rest
		vendor = s.archVendor(arch)
		if _, v := cutVendor(q); v != "" && v != vendor {
			// "red.global.add ptx on amd": the family word says which
			// side the name is, the vendor word the side asked for.
			q, vendor, arch = s.vendorScope(q)
		}
	} else if arch == "" {
		q, vendor, arch = s.vendorScope(q)
	}
	lower := strings.ToLower(q)
	if arch == "" || s.archVendor(arch) == isa.VendorNVIDIA {
		lower = s.joinPTXModifiers(lower)
	}
	qw := readQueryCounting(lower, s.countedOps)
	hits := s.counterpartHits(arch, vendor, lower, &qw)
	hits = append(hits, s.sassHits(arch, vendor, q, &qw)...)
	hits = append(hits, s.nameMatches(arch, q, lower, &qw)...)
	hits = append(hits, s.namedWordHits(arch, lower)...)
	hits = append(hits, s.lineHits(arch, lower)...)
	hits = append(hits, s.synonymHits(arch, q, &qw)...)
	hits = append(hits, s.conversionHits(arch, lower)...)
	hits = append(hits, s.textHits(arch, lower)...)
	for i := range hits {
		hits[i].Score += qw.boost(strings.ToLower(hits[i].Name))
	}
	if vendor != "" && arch == "" {
		hits = s.ofVendor(hits, vendor)
	}
	hits = dedupe(hits, arch == "", s.archOrder())
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

// ptxOnlyModifiers are PTX modifiers no AMD query says: rounding,
// approximation, flushing and saturation ("ex2 approx f16", "cvt rni").
var ptxOnlyModifiers = map[string]bool{
	"approx": true, "ftz": true, "rn": true, "rz": true, "rm": true, "rp": true,
	"rni": true, "rzi": true, "rmi": true, "rpi": true, "sat": true, "satfinite": true, "relu": true,
}

// joinPTXModifiers writes a PTX name followed by its modifiers typed apart
// ("ex2 approx f16", "mma.sync m16n8k16") as the dotted form it stands for
// (ex2.approx.f16), which finds its mnemonic as PTX written together does;
// only when one of the words is a modifier no AMD query says (a rounding,
// approx, a shape), so that "max f16" stays a question of either vendor.
func (s *DB) joinPTXModifiers(lower string) string {
	fields := strings.Fields(lower)
	if len(fields) < 2 || !s.namesPTX(fields[0]) {
		return lower
	}
	ptxOnly := false
	for _, f := range fields[1:] {
		m := strings.TrimPrefix(f, ".")
		switch {
		case ptxOnlyModifiers[m] || strings.HasPrefix(f, ".") || ptxShape.MatchString(m):
			ptxOnly = true
		case ptxModifierWord.MatchString(f):
		default:
			return lower
		}
	}
	if !ptxOnly {
		return lower
	}
	out := fields[0]
	for _, f := range fields[1:] {
		out += "." + strings.TrimPrefix(f, ".")
	}
	return out
}

// ScopeOf returns the family q's own words name (isa.ProcessorIndex.ScopeOf
// over this database's families and their products).
func (s *DB) ScopeOf(q string) isa.QueryScope {
	s.procsOnce.Do(func() { s.procs = isa.NewProcessorIndex(s.archs) })
	return s.procs.ScopeOf(q)
}

// nameMatches are the name hits of a query of one word, or of the one word
// a query has besides its qualifiers ("v_max" of "v_max f16").
func (s *DB) nameMatches(arch, q, lower string, qw *queryWords) []isa.SearchHit {
	if strings.ContainsAny(lower, " \t") {
		if qw.core == "" {
			return nil
		}
		var counted []isa.SearchHit
		if qw.count != "" {
			// "or of three values": the names whose operation part carries
			// the count (v_or3_b32), however short the word ("or" is
			// too short to find inside a name).
			for _, op := range qw.countOps {
				counted = append(counted, s.nameHits(arch, op+qw.count, false)...)
			}
		}
		if strings.Contains(qw.core, " ") {
			// "load two floats from lds": ds_read2_b32 too.
			return append(s.joinedNameHits(arch, qw.words), counted...)
		}
		hits := append(s.nameHits(arch, qw.core, true), counted...)
		if alt := partAliases[qw.core]; alt != "" && len(qw.quals) > 0 {
			// "lds load 128-bit" is GFX9's ds_read_b128 too.
			hits = append(hits, s.nameHits(arch, alt, false)...)
		}
		if len(qw.quals) > 0 {
			// "packed add f16": the word is the operation, one part of
			// the name the qualifiers complete (v_pk_add_f16), not any
			// name that happens to contain it.
			for i, h := range hits {
				if h.Why == "name contains" && qw.namesOperation(nameParts(strings.ToLower(h.Name))) {
					hits[i].Score += 20
					hits[i].Why = "name part"
				}
			}
		}
		return hits
	}
	hits := s.nameHits(arch, lower, true)
	hits = append(hits, s.spellingHits(arch, lower, hits)...)
	hits = append(hits, s.cudaNameHits(arch, lower, qw)...)
	// PTX is written with modifiers ("cvt.rni.s32.f32", "ld.global.ca"):
	// when the whole text names nothing (a typo of another name, such as
	// ld.global.nc, does not count), its longest documented dotted prefix
	// does.
	named := func() bool {
		return slices.ContainsFunc(hits, func(h isa.SearchHit) bool {
			return h.Why == "name" || h.Why == "name prefix" || strings.HasPrefix(h.Why, "spelling of ") || strings.HasPrefix(h.Why, "mnemonic of ")
		})
	}
	for parts := strings.Split(lower, "."); !named() && len(parts) > 1; parts = parts[:len(parts)-1] {
		prefix := strings.Join(parts[:len(parts)-1], ".")
		for _, h := range s.nameHits(arch, prefix, true) {
			if h.Why == "name" {
				h.Why = "mnemonic of " + q
				hits = append(hits, h)
			}
		}
	}
	if !named() && strings.Contains(lower, ".") {
		hits = append(hits, s.dottedSubsequenceHits(arch, q, lower)...)
	}
	return hits
}

// namedWordScore ranks an instruction a question names among its other
// words below a name the words spell together (85) and a synonym phrase,
// above any description.
const namedWordScore = 80

// namedWordHits are the instructions a query of several words names by one
// of them written as a mnemonic is (with a '_', '.' or '%': "how many
// cycles does v_mfma_f32_32x32x8f16 take", "latency of v_sqrt_f32"): the
// question is about that instruction, whatever its other words say. A
// plain word ("add", "max") names an operation, not one instruction, and
// is left to the other rules.
func (s *DB) namedWordHits(arch, lower string) []isa.SearchHit {
	fields := strings.Fields(lower)
	if len(fields) < 2 {
		return nil
	}
	var hits []isa.SearchHit
	for _, w := range fields {
		w = strings.Trim(w, ",;:()?!'\"")
		if len(w) < 4 || !strings.ContainsAny(w, "_.%") {
			continue
		}
		for _, a := range s.archs {
			if arch != "" && a.ID != arch {
				continue
			}
			if name, ok := s.lookup(a.ID, w); ok {
				if sum, ok := s.summary(a.ID, name); ok {
					hits = append(hits, isa.SearchHit{Summary: sum, Score: namedWordScore, Why: "named in the query"})
				}
			}
		}
	}
	return hits
}

// dottedSubsequenceHits are the hits of the documented name whose dotted
// parts the text has in order, with modifiers between them: PTX writes
// match.sync as "match.any.sync.b32" and barrier.cluster as
// "barrier.cluster.arrive.aligned". The name with the most parts wins.
func (s *DB) dottedSubsequenceHits(arch, q, lower string) []isa.SearchHit {
	parts := strings.Split(lower, ".")
	best, bestParts := "", 0
	for _, name := range s.names {
		if !strings.HasPrefix(name, parts[0]+".") {
			continue
		}
		np := strings.Split(name, ".")
		if len(np) > bestParts && isSubsequence(np, parts) {
			best, bestParts = name, len(np)
		}
	}
	var hits []isa.SearchHit
	for _, k := range s.byName[best] {
		if e := &s.entries[k]; arch == "" || e.Arch == arch {
			hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: 100, Why: "mnemonic of " + q})
		}
	}
	return hits
}

// isSubsequence says whether sub's elements are in list in order.
func isSubsequence(sub, list []string) bool {
	i := 0
	for _, x := range list {
		if i < len(sub) && x == sub[i] {
			i++
		}
	}
	return i == len(sub)
}

// operandStart is how a line's operands start: a register (v0, s[0:3],
// a1, %r1), a bracket or parenthesis.
var operandStart = regexp.MustCompile(`^([vsa]\d|[vsa]\[|%|\[|\()`)

// lineHits are the instruction a pasted line of assembly names by its
// first word, "add.s32 %r1, %r2, %r3" or "s_waitcnt vmcnt(0)": the words
// after it are operands (a comma, a register, a bracket), not search
// words. Only the mnemonic's own name counts (exactly, by another
// spelling, or by its dotted prefix), never a typo of it.
func (s *DB) lineHits(arch, lower string) []isa.SearchHit {
	fields := strings.Fields(lower)
	if len(fields) < 2 || strings.ContainsAny(fields[0], ",()[]") {
		return nil
	}
	rest := strings.Join(fields[1:], " ")
	if !strings.Contains(rest, ",") && !operandStart.MatchString(fields[1]) {
		return nil
	}
	mnemonic := fields[0]
	mq := readQuery(mnemonic)
	var hits []isa.SearchHit
	for _, h := range s.nameMatches(arch, mnemonic, mnemonic, &mq) {
		if h.Why == "name" || strings.HasPrefix(h.Why, "spelling of ") || strings.HasPrefix(h.Why, "mnemonic of ") {
			h.Why = "mnemonic of the line"
			hits = append(hits, h)
		}
	}
	return hits
}

// spellingHits are the instructions a word names by another spelling
// than their documented name: an alias or assembler spelling
// (v_accvgpr_read_b32 of v_accvgpr_read; v_max_f32 of RDNA 4's
// v_max_num_f32, beside the families that document v_max_f32), or a name
// with an encoding suffix as disassembly prints it (v_add_f32_e32), in
// arch ("" for every family). They rank just below an exact name; a
// guide's bare name with the assembler's type is tried only where no
// name is the word.
func (s *DB) spellingHits(arch, lower string, named []isa.SearchHit) []isa.SearchHit {
	exact := slices.ContainsFunc(named, func(h isa.SearchHit) bool { return h.Why == "name" })
	var hits []isa.SearchHit
	for _, a := range s.archs {
		if arch != "" && a.ID != arch {
			continue
		}
		name, ok := s.lookup(a.ID, lower)
		if !ok {
			if bare := isa.BaseMnemonic(lower); bare != lower {
				name, ok = s.lookup(a.ID, bare)
			}
		}
		score := 99.0
		if !ok && !exact {
			// A guide's name without the type the assembler spells
			// (V_ACCVGPR_READ, written v_accvgpr_read_b32).
			if i := strings.LastIndexAny(lower, "_."); i > 0 && typePart.MatchString(lower[i+1:]) {
				name, ok = s.lookup(a.ID, lower[:i])
				score = 90
			}
		}
		if !ok || name == lower {
			continue
		}
		if sum, ok := s.summary(a.ID, name); ok {
			hits = append(hits, isa.SearchHit{Summary: sum, Score: score, Why: "spelling of " + name})
		}
	}
	return hits
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

// maxJoinedWords is the most words of a query tried as one name, and
// maxJoinedQuery the most words a query may have for its runs to be tried.
const (
	maxJoinedWords = 3
	maxJoinedQuery = 6
)

// joinedNameHits are the names that runs of a query's words spell when
// joined, without spaces or with the separators names use: "save exec" is
// the saveexec of s_and_saveexec_b64, "read first lane"
// v_readfirstlane_b32, "cp async" cp.async, "try wait" mbarrier.try_wait,
// the "lane mask" of "lane mask less than" %lanemask_lt. Typos are not
// tried: the words were typed apart.
func (s *DB) joinedNameHits(arch string, words []string) []isa.SearchHit {
	if len(words) > maxJoinedQuery {
		return nil // a sentence, not a name typed apart
	}
	var hits []isa.SearchHit
	for n := min(maxJoinedWords, len(words)); n >= 2; n-- {
		for i := 0; i+n <= len(words); i++ {
			for _, sep := range []string{"", "_", "."} {
				joined := strings.Join(words[i:i+n], sep)
				if len(joined) < 5 {
					continue
				}
				for _, h := range s.nameHits(arch, joined, false) {
					h.Why += " (words joined)"
					if spellsRest(strings.ToLower(h.Name), words[:i], words[i+n:]) {
						// The run and the other words spell the whole name
						// ("lane mask less than": %lanemask_lt).
						h.Score = 85 - 0.1*float64(len(h.Name)-len(joined))
					}
					hits = append(hits, h)
				}
			}
		}
	}
	return hits
}

// spellsRest says whether a name's parts spell each of the words before
// and after a run of a query's words that the name holds (spelledWords).
func spellsRest(name string, before, after []string) bool {
	parts := nameParts(name)
	return spelledWords(parts, before, true) == len(before) && spelledWords(parts, after, true) == len(after)
}

// nameHits scores every distinct name once (the same mnemonic is in up to
// thirteen families) and lists the entries of those that match, with
// typos when typos is set and lower is long enough.
func (s *DB) nameHits(arch, lower string, typos bool) []isa.SearchHit {
	var hits []isa.SearchHit
	limit := fuzzy.MaxEdits(len(lower))
	typos = typos && len(lower) >= 4
	var pat osaPattern
	fast := typos && pat.compile(lower)
	for _, name := range s.names {
		var score float64
		var why string
		switch {
		case name == lower:
			score, why = 100, "name"
		case strings.HasPrefix(name, lower):
			// Shorter completions first.
			score, why = 80-float64(len(name)-len(lower))*0.5+commonness(name), "name prefix"
		case len(lower) >= 3 && strings.Contains(name, lower):
			score, why = 55-float64(len(name)-len(lower))*0.3+commonness(name), "name contains"
		case typos:
			score, why = typoScore(&pat, fast, lower, name, limit)
		}
		if score <= 0 {
			continue
		}
		for _, k := range s.byName[name] {
			if e := &s.entries[k]; arch == "" || e.Arch == arch {
				hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: score, Why: why})
			}
		}
	}
	return hits
}

// minPartTypo is the shortest query read as a misspelt beginning of a
// name (typoScore): shorter ones are a few edits from too many names' parts.
const minPartTypo = 6

// typoScore scores name as a misspelling of lower: the whole name within
// limit edits ("v_max_f23"), else, for a query of minPartTypo letters or
// more, the name's beginning up to one of its parts' ends ("ds_bpremute"
// of ds_bpermute_b32, "v_readfristlane" of v_readfirstlane_b32: a name
// typed without its type, misspelt), below a whole name's typo and
// shorter completions first, as name prefixes rank. 0 when neither.
func typoScore(pat *osaPattern, fast bool, lower, name string, limit int) (float64, string) {
	d := len(name) - len(lower)
	if -d > limit || d > limit && len(lower) < minPartTypo {
		return 0, ""
	}
	if !fast {
		if d <= limit {
			if dist := fuzzy.Distance(lower, name); dist <= limit {
				return 70 - float64(dist)*8 + commonness(name), "typo"
			}
		}
		return 0, ""
	}
	full, part := pat.distances(name)
	switch {
	case d <= limit && full <= limit:
		return 70 - float64(full)*8 + commonness(name), "typo"
	case len(lower) >= minPartTypo && part <= limit && part < len(lower)/3:
		return 64 - float64(part)*8 - 0.3*float64(max(d, 0)) + commonness(name), "typo of a name's beginning"
	}
	return 0, ""
}

// queryTerms splits free text into the index's terms (tokens), as the
// text was tokenized.
func queryTerms(q string) []string {
	var terms []string
	tokens(q, func(t string) { terms = append(terms, t) })
	return terms
}

// textHits ranks the full text: every term in a document first; for a query
// of several words that finds nothing, any of them, ranked lower.
func (s *DB) textHits(arch, lower string) []isa.SearchHit {
	terms := queryTerms(lower)
	if len(terms) == 0 {
		return nil
	}
	ix := s.textIndex()
	var hits []isa.SearchHit
	for _, all := range []bool{true, false} {
		for _, m := range ix.search(terms, all, arch, 500) {
			e := s.entries[m.entry]
			// bm25 is negative; better matches are more negative. Map it to
			// 0..10, then prefer the plain, common instruction of a family
			// of names (v_fma_f32 over v_dual_fmaak_f32).
			rel := -m.rank / (1 - m.rank)
			score := 30 + 10*rel + commonness(e.lower) - 0.08*float64(len(e.Name))
			if !all {
				score -= 10
			}
			hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: score, Why: "description"})
		}
		if len(hits) > 0 || len(terms) < 2 {
			break
		}
	}
	return hits
}

// PrepareSearch builds the in-memory search index now, and reads the
// concept catalogue, so that the first search does not wait for them; the
// server calls it in the background when it opens a database. Search
// builds them on first use otherwise.
func (s *DB) PrepareSearch(ctx context.Context) error {
	s.textOnce.Do(func() { s.text, s.textErr = s.loadTextIndex(ctx) })
	s.catalogue()   // porting questions' counterparts (crossvendor.go)
	s.sassSources() // SASS opcodes' PTX sources (sassquery.go)
	return s.textErr
}

func (s *DB) textIndex() *textIndex {
	if err := s.PrepareSearch(context.Background()); err != nil {
		return &textIndex{postings: map[string][]posting{}}
	}
	return s.text
}

// loadTextIndex reads every instruction's search text and indexes it.
func (s *DB) loadTextIndex(ctx context.Context) (*textIndex, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT arch, name, summary, body FROM search_text ORDER BY rowid")
	if err != nil {
		return nil, fmt.Errorf("search index: %w", err)
	}
	defer rows.Close()
	var docs []indexDoc
	for rows.Next() {
		var d indexDoc
		if err := rows.Scan(&d.arch, &d.name, &d.summary, &d.body); err != nil {
			return nil, err
		}
		idx := s.byArch[d.arch]
		i := sort.Search(len(idx), func(k int) bool { return s.entries[idx[k]].Name >= d.name })
		if i == len(idx) || s.entries[idx[i]].Name != d.name {
			continue
		}
		d.entry = int32(idx[i])
		d.name = ftsName(d.name)
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return newTextIndex(docs), nil
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
// It sorts indexes, not the (large) hits.
func dedupe(hits []isa.SearchHit, acrossArchs bool, order map[string]int) []isa.SearchHit {
	rank := make([]int, len(hits))
	idx := make([]int32, len(hits))
	for i := range hits {
		rank[i], idx[i] = order[hits[i].Arch], int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		ha, hb := &hits[a], &hits[b]
		if ha.Score != hb.Score {
			if ha.Score > hb.Score {
				return -1
			}
			return 1
		}
		if c := strings.Compare(ha.Name, hb.Name); c != 0 {
			return c
		}
		return cmp.Compare(rank[a], rank[b])
	})
	type key struct{ arch, name string }
	var out []isa.SearchHit
	pos := map[key]int{}
	for _, i := range idx {
		h := hits[i]
		k := key{h.Arch, h.Name}
		if acrossArchs {
			k.arch = ""
		}
		if p, ok := pos[k]; ok {
			if acrossArchs && !slices.Contains(out[p].Archs, h.Arch) {
				out[p].Archs = append(out[p].Archs, h.Arch)
			}
			continue
		}
		pos[k] = len(out)
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
