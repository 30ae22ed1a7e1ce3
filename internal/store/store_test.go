package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// sampleBuild is a tiny hand-written reference: two families, a handful of
// instructions, one alias.
func sampleBuild() *Build {
	mk := func(arch, name, summary, sem string) *isa.Instruction {
		return &isa.Instruction{Arch: arch, Name: name, Vendor: isa.VendorAMD, Kind: isa.KindNative,
			Category: "Vector Arithmetic", Summary: summary, Semantics: sem,
			Encodings: []isa.Encoding{{Name: "VOP2", Format: "VOP2", Width: 32, Opcode: 1}}}
	}
	num := mk("rdna4", "v_max_num_f32", "Pick the larger of two floats.", "D = max(S0, S1)")
	num.Aliases = []isa.Alias{{Name: "v_max_f32", Note: "renamed"}}
	return &Build{
		Info: isa.BuildInfo{Version: "test"},
		Archs: []isa.Architecture{
			{ID: "cdna4", Name: "CDNA 4", Vendor: isa.VendorAMD, Order: 7},
			{ID: "rdna4", Name: "RDNA 4", Vendor: isa.VendorAMD, Order: 1},
		},
		Instructions: []*isa.Instruction{
			mk("cdna4", "v_max_f32", "Pick the larger of two single-precision floats.", "D = S0 > S1 ? S0 : S1"),
			mk("cdna4", "v_max_f16", "Pick the larger of two half-precision floats.", "D = S0 > S1 ? S0 : S1"),
			mk("cdna4", "v_fma_f32", "Fused multiply add of three floats.", "D = fma(S0, S1, S2)"),
			mk("cdna4", "v_min_f32", "Pick the smaller of two floats.", "D = S0 < S1 ? S0 : S1"),
			num,
		},
		Extras: map[string][]byte{"note": []byte(`{"ok":true}`)},
	}
}

// writeBuild writes b into a database under tb's temporary directory and
// returns its path.
func writeBuild(tb testing.TB, b *Build) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "ref.db")
	writeAt(tb, path, b)
	return path
}

// writeAt writes b into a database at path.
func writeAt(tb testing.TB, path string, b *Build) {
	tb.Helper()
	if err := Write(context.Background(), path, b); err != nil {
		tb.Fatal(err)
	}
}

func writeSample(tb testing.TB) string {
	tb.Helper()
	return writeBuild(tb, sampleBuild())
}

// writeOpen writes b (writeBuild) and opens it; it is closed when tb ends.
func writeOpen(tb testing.TB, b *Build) *DB {
	tb.Helper()
	return openAt(tb, writeBuild(tb, b))
}

// openAt opens the database at path; it is closed when tb ends.
func openAt(tb testing.TB, path string) *DB {
	tb.Helper()
	s, err := Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func openSample(tb testing.TB) *DB {
	tb.Helper()
	return writeOpen(tb, sampleBuild())
}

func TestWriteIsDeterministic(t *testing.T) {
	a, b := writeSample(t), writeSample(t)
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Error("two builds of the same input differ")
	}
	s := openAt(t, a)
	info, _ := s.Info(context.Background())
	if len(info.ID) != 16 || info.Counts["cdna4"] != 4 {
		t.Errorf("info = %+v", info)
	}
}

// An extra's HashAs bytes stand for it in the build id: two builds whose
// quality reports differ only in their run counters are one build.
func TestBuildIDHashesExtrasAsGiven(t *testing.T) {
	id := func(stored string, hashAs map[string][]byte) string {
		b := sampleBuild()
		b.Extras = map[string][]byte{"report": []byte(stored)}
		b.HashAs = hashAs
		info, _ := writeOpen(t, b).Info(context.Background())
		return info.ID
	}
	same := map[string][]byte{"report": []byte(`{"processes":0}`)}
	cold, warm := id(`{"processes":12}`, same), id(`{"processes":0}`, same)
	if cold != warm {
		t.Errorf("run counters changed the build id: %s vs %s", cold, warm)
	}
	if plain := id(`{"processes":12}`, nil); plain == cold {
		t.Errorf("without HashAs the stored bytes are not hashed")
	}
}

func TestWriteFailureKeepsPrevious(t *testing.T) {
	path := writeSample(t)
	before, _ := os.ReadFile(path)
	bad := sampleBuild()
	bad.Instructions = append(bad.Instructions, bad.Instructions[0]) // duplicate primary key
	if err := Write(context.Background(), path, bad); err == nil {
		t.Fatal("duplicate instruction did not fail the write")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Error("a failed write changed the previous database")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestResolveAndSuggest(t *testing.T) {
	s := openSample(t)
	ctx := context.Background()
	for _, tc := range []struct{ arch, in, wantArch, wantName string }{
		{"cdna4", "V_MAX_F32", "cdna4", "v_max_f32"},
		{"CDNA 4", "v_max_f32_e64", "cdna4", "v_max_f32"},
		{"gfx950", "v_max_f32_sdwa", "cdna4", "v_max_f32"},
		{"rdna4", "v_max_f32", "rdna4", "v_max_num_f32"},
	} {
		a, n, err := s.Resolve(ctx, tc.arch, tc.in)
		if err != nil || a != tc.wantArch || n != tc.wantName {
			t.Errorf("Resolve(%s, %s) = %s %s %v", tc.arch, tc.in, a, n, err)
		}
	}
	_, _, err := s.Resolve(ctx, "cdna4", "v_max_f23")
	if errs.KindOf(err) != errs.KindNotFound || len(errs.SuggestionsOf(err)) == 0 || errs.SuggestionsOf(err)[0] != "v_max_f32" {
		t.Errorf("typo: err %v suggestions %v", err, errs.SuggestionsOf(err))
	}
	_, err = s.Arch(ctx, "cdna9")
	if errs.KindOf(err) != errs.KindNotFound || len(errs.SuggestionsOf(err)) == 0 {
		t.Errorf("unknown arch: %v %v", err, errs.SuggestionsOf(err))
	}
	if b, err := s.Extra(ctx, "note"); err != nil || string(b) != `{"ok":true}` {
		t.Errorf("extra = %s %v", b, err)
	}
	if _, err := s.Extra(ctx, "absent"); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("absent extra: %v", err)
	}
}

func TestSearchRanking(t *testing.T) {
	s := openSample(t)
	ctx := context.Background()
	for _, tc := range []struct {
		q, arch, want string
	}{
		{"v_max", "", "v_max_f32"},
		{"v_max_f23", "cdna4", "v_max_f32"},
		{"fused multiply", "", "v_fma_f32"},
		{"smaller", "", "v_min_f32"},
		{"V_MAX_F32", "", "v_max_f32"},
	} {
		hits, err := s.Search(ctx, tc.q, SearchOptions{Arch: tc.arch})
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		if len(hits) == 0 || hits[0].Name != tc.want {
			t.Errorf("Search(%q) first = %+v, want %s", tc.q, hits, tc.want)
		}
	}
	for _, q := range []string{`"`, `*`, `NEAR(a b)`, `a OR`, `-x`, `v_max" OR "1`} {
		if _, err := s.Search(ctx, q, SearchOptions{}); err != nil {
			t.Errorf("Search(%q): %v", q, err)
		}
	}
	if _, err := s.Search(ctx, "  ", SearchOptions{}); errs.KindOf(err) != errs.KindInvalid {
		t.Errorf("empty query: %v", err)
	}
}

func TestOpenMissing(t *testing.T) {
	_, err := Open(filepath.Join(t.TempDir(), "none.db"))
	if errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("Open(missing) = %v", err)
	}
}

func FuzzSearch(f *testing.F) {
	s := openSample(f)
	f.Add("v_max")
	f.Add(`"AND(`)
	f.Fuzz(func(t *testing.T, q string) {
		_, err := s.Search(context.Background(), q, SearchOptions{})
		if err != nil && errs.KindOf(err) != errs.KindInvalid {
			t.Fatalf("Search(%q): %v", q, err)
		}
	})
}

func TestSearchDottedPTX(t *testing.T) {
	b := sampleBuild()
	b.Archs = append(b.Archs, isa.Architecture{ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA, Order: 20})
	b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "ptx", Name: "cvt", Summary: "Convert a value."})
	s := writeOpen(t, b)
	hits, err := s.Search(context.Background(), "cvt.rni.s32.f32", SearchOptions{})
	if err != nil || len(hits) == 0 || hits[0].Name != "cvt" {
		t.Errorf("cvt.rni.s32.f32: %+v %v", hits, err)
	}
}

// TestStoredDocumentsHaveNoNullLists: the writer, not each producer, keeps
// the JSON contract; the sample's instructions leave every list nil.
func TestStoredDocumentsHaveNoNullLists(t *testing.T) {
	s := openSample(t)
	rows, err := s.db.Query("SELECT arch, name, doc FROM instructions")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var arch, name string
		var packed []byte
		if err := rows.Scan(&arch, &name, &packed); err != nil {
			t.Fatal(err)
		}
		doc, err := decompress(packed)
		if err != nil {
			t.Fatal(err)
		}
		n++
		for _, want := range []string{`"examples":[]`, `"operands":[]`, `"concepts":[]`, `"targets":{}`, `"sources":[]`} {
			if !bytes.Contains(doc, []byte(want)) {
				t.Errorf("%s %s: stored without %s: %s", arch, name, want, doc)
			}
		}
		if bytes.Contains(doc, []byte("null")) {
			t.Errorf("%s %s: null in the stored document: %s", arch, name, doc)
		}
	}
	if n == 0 {
		t.Fatal("no documents stored")
	}
}

// A word that is an instruction's other spelling finds it: an alias, an
// encoding suffix as disassembly prints it, the assembler's type after a
// guide's bare name; and words typed apart find the name they join into.
func TestSearchOtherSpellings(t *testing.T) {
	b := sampleBuild()
	b.Instructions = append(b.Instructions,
		&isa.Instruction{Arch: "cdna4", Name: "v_accvgpr_read", Summary: "Move an accumulator register."},
		&isa.Instruction{Arch: "cdna4", Name: "s_and_saveexec_b64", Summary: "AND with EXEC, saving it."})
	s := writeOpen(t, b)
	for q, want := range map[string]string{
		"v_max_f32_e64": "v_max_f32", "v_fma_f32_dpp": "v_fma_f32", "v_accvgpr_read_b32": "v_accvgpr_read",
		"save exec": "s_and_saveexec_b64",
	} {
		hits, err := s.Search(context.Background(), q, SearchOptions{})
		if err != nil || len(hits) == 0 || hits[0].Name != want {
			t.Errorf("Search(%q) = %+v %v, want %s first", q, hits, err, want)
		}
	}
	hits, err := s.Search(context.Background(), "v_max_f32", SearchOptions{Arch: "rdna4"})
	if err != nil || len(hits) == 0 || hits[0].Name != "v_max_num_f32" {
		t.Errorf("rdna4 v_max_f32 (an alias of v_max_num_f32): %+v %v", hits, err)
	}
}

// PTX with modifiers finds its mnemonic even when another name is a typo
// of the whole text (ld.global.ca is two edits from ld.global.nc), and
// runs of a query's words find the names they join into (%lanemask_lt).
func TestSearchPTXModifiersAndJoinedRuns(t *testing.T) {
	b := sampleBuild()
	b.Archs = append(b.Archs, isa.Architecture{ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA, Order: 20})
	for _, n := range []string{"ld", "ld.global.nc", "%lanemask_lt", "%laneid"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "ptx", Name: n, Summary: "A PTX instruction."})
	}
	s := writeOpen(t, b)
	for q, want := range map[string]string{"ld.global.ca": "ld", "ld.global.nc": "ld.global.nc", "lane mask less than": "%lanemask_lt"} {
		hits, err := s.Search(context.Background(), q, SearchOptions{})
		if err != nil || len(hits) == 0 || hits[0].Name != want {
			t.Errorf("Search(%q) = %+v %v, want %s first", q, hits, err, want)
		}
	}
}

// A CUDA conversion intrinsic finds AMD's conversion from its first type
// to its second (result first in AMD's name) and PTX's cvt; PTX written
// with modifiers between a name's parts finds the name.
func TestSearchCUDAConversionsAndPTXModifiers(t *testing.T) {
	b := sampleBuild()
	b.Archs = append(b.Archs, isa.Architecture{ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA, Order: 20})
	for _, n := range []string{"cvt", "match.sync", "barrier.cluster"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "ptx", Name: n, Summary: "A PTX instruction."})
	}
	for _, n := range []string{"v_cvt_u32_f32", "v_cvt_f32_u32", "v_cvt_f32_f64"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "cdna4", Name: n, Summary: "A conversion."})
	}
	s := writeOpen(t, b)
	for q, want := range map[string][]string{
		"__float2uint_rn": {"v_cvt_u32_f32", "cvt"}, "__double2float_rz": {"v_cvt_f32_f64", "cvt"},
		"match.any.sync.b32": {"match.sync"}, "barrier.cluster.arrive.aligned": {"barrier.cluster"},
	} {
		hits, err := s.Search(context.Background(), q, SearchOptions{})
		var got []string
		for _, h := range hits {
			got = append(got, h.Name)
		}
		if err != nil || len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
			t.Errorf("Search(%q) = %q %v, want %q first", q, got, err, want)
		}
	}
}

// A pasted line of assembly is searched by its mnemonic, and a CUDA half
// intrinsic by its operation on f16.
func TestSearchLinesAndHalfIntrinsics(t *testing.T) {
	b := sampleBuild()
	b.Archs = append(b.Archs, isa.Architecture{ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA, Order: 20})
	for _, n := range []string{"add", "lop3"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "ptx", Name: n, Summary: "A PTX instruction."})
	}
	s := writeOpen(t, b)
	for q, want := range map[string]string{"add.s32 %r1, %r2, %r3": "add", "lop3.b32 d, a, b, c, 0x96": "lop3", "v_fma_f32 v0, v1, v2, v3": "v_fma_f32", "__hmax": "v_max_f16"} {
		hits, err := s.Search(context.Background(), q, SearchOptions{})
		if err != nil || len(hits) == 0 || hits[0].Name != want {
			t.Errorf("Search(%q) = %+v %v, want %s first", q, hits, err, want)
		}
	}
}

// A misspelt name typed without its type finds the name whose beginning it
// misspells ("v_readfristlane"), and a question that names an instruction
// among other words ("how many cycles does v_fma_f32 take") finds it first.
func TestSearchMisspeltBeginningsAndNamedWords(t *testing.T) {
	b := sampleBuild()
	b.Instructions = append(b.Instructions,
		&isa.Instruction{Arch: "cdna4", Name: "v_readfirstlane_b32", Vendor: isa.VendorAMD, Summary: "Copy the first active lane."},
		&isa.Instruction{Arch: "cdna4", Name: "v_readlane_b32", Vendor: isa.VendorAMD, Summary: "Copy one lane."})
	s := writeOpen(t, b)
	for q, want := range map[string]string{
		"v_readfristlane":                     "v_readfirstlane_b32",
		"how many cycles does v_fma_f32 take": "v_fma_f32",
		"is v_min_f32 slow?":                  "v_min_f32",
	} {
		hits, err := s.Search(context.Background(), q, SearchOptions{})
		if err != nil || len(hits) == 0 || hits[0].Name != want {
			t.Errorf("Search(%q) = %+v %v, want %s first", q, hits, err, want)
		}
	}
	// Short words are a few edits from too many names' beginnings.
	if hits, _ := s.Search(context.Background(), "v_rd", SearchOptions{}); slices.ContainsFunc(hits, func(h isa.SearchHit) bool { return h.Why == "typo of a name's beginning" }) {
		t.Errorf("v_rd: %+v, want no misspelt beginnings", hits)
	}
}
