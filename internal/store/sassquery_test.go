package store

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
)

// sassFixture is a small SASS index: MUFU lowers from div's statements
// (often), rsqrt's and ex2's; STG from st's (a few of its many) and every
// statement of st.async; LDG from ld's and, through their operands, set's.
func sassFixture() *sassindex.Index {
	on := func(target string, ins ...sassindex.Count) sassindex.OnTarget {
		return sassindex.OnTarget{Target: target, Instructions: ins}
	}
	c := func(text string, n int) sassindex.Count { return sassindex.Count{Text: text, N: n} }
	return &sassindex.Index{Targets: []string{"sm_90"}, Opcodes: []sassindex.Opcode{
		{Name: "EXIT", Targets: []sassindex.OnTarget{on("sm_90", c("div", 40), c("rsqrt", 3), c("ex2", 5), c("st", 50), c("st.async", 4), c("ld", 30), c("set", 60), c("mul", 20))}},
		{Name: "IMAD", Targets: []sassindex.OnTarget{{Target: "sm_90",
			Instructions: []sassindex.Count{c("set", 60), c("mul", 6), c("mad", 2)},
			Statements:   []sassindex.Statement{{Instruction: "mul", Statement: "mul.wide.u32 d, a, b;"}},
		}}},
		{Name: "LDG", Targets: []sassindex.OnTarget{on("sm_90", c("set", 60), c("ld", 30))}},
		{Name: "MUFU", Targets: []sassindex.OnTarget{on("sm_90", c("div", 40), c("ex2", 5), c("rsqrt", 3))}},
		{Name: "STG", Targets: []sassindex.OnTarget{on("sm_90", c("st.async", 4), c("st", 5))}},
	}}
}

// An opcode's PTX sources rank by the modifier that names one (MUFU.RSQ:
// rsqrt), then by the operation the opcode spells, its plain name first
// (STG: st before st.async, LDG: ld before set), then by how much of
// their SASS the opcode is.
func TestSASSRank(t *testing.T) {
	srcs := readSASSSources(sassFixture())
	for _, c := range []struct {
		opcode string
		mods   []string
		want   string
	}{
		{"MUFU", []string{"RSQ"}, "rsqrt"},
		{"MUFU", []string{"EX2"}, "ex2"},
		{"MUFU", nil, "div"},
		{"STG", []string{"E", "64"}, "st"},
		{"LDG", []string{"E", "128"}, "ld"},
		{"IMAD", []string{"WIDE", "U32"}, "mul"},
	} {
		got := sassRank(c.opcode, c.mods, srcs[c.opcode])
		if len(got) == 0 || got[0].name != c.want {
			t.Errorf("sassRank(%s %v): first %v, want %s", c.opcode, c.mods, got, c.want)
		}
	}
}

// A conversion opcode is the cvt it performs, destination first; a type
// modifier gives its side's width.
func TestSASSConversion(t *testing.T) {
	for _, c := range []struct {
		opcode string
		mods   []string
		want   string
	}{
		{"I2F", nil, "cvt.f32.s32"},
		{"I2F", []string{"U64"}, "cvt.f32.u64"},
		{"F2I", []string{"U32", "TRUNC"}, "cvt.u32.f32"},
		{"F2F", []string{"F16", "F32"}, "cvt.f16.f32"},
		{"UI2F", []string{"F64", "S64"}, "cvt.f64.s64"},
	} {
		if got, ok := sassConversion(c.opcode, c.mods); !ok || got != c.want {
			t.Errorf("sassConversion(%s %v) = %q, %v; want %q", c.opcode, c.mods, got, ok, c.want)
		}
	}
	if _, ok := sassConversion("FFMA", nil); ok {
		t.Error("FFMA read as a conversion")
	}
	if got := ptxTypeSuffix([]string{"E", "64"}); got != ".b64" {
		t.Errorf("ptxTypeSuffix(E, 64) = %q, want .b64", got)
	}
}

// A level compound is its word: "wave-level reduction" is a wave
// reduction; other hyphenated words stay.
func TestLevelWords(t *testing.T) {
	for q, want := range map[string]string{
		"wave-level reduction": "wave reduction", "device-wide fence": "device fence",
		"cross-lane shuffle": "cross-lane shuffle", "64-bit add": "64-bit add",
	} {
		if got := levelWords(q); got != want {
			t.Errorf("levelWords(%q) = %q, want %q", q, got, want)
		}
	}
}

// "integer" beside a width is an integer of that width; alone, C's int.
func TestWidthInteger(t *testing.T) {
	qw := readQuery("64-bit integer compare equal")
	for name, want := range map[string]int{"v_cmp_eq_u64": 2, "v_cmp_eq_i64": 2, "v_cmp_eq_u32": 0, "v_cmp_eq_f64": 1} {
		if got := qw.satisfied(name); got != want {
			t.Errorf("64-bit integer: %s carries %d qualifiers, want %d", name, got, want)
		}
	}
	plain := readQuery("integer compare equal")
	if plain.satisfied("v_cmp_eq_u32") != 1 || plain.satisfied("v_cmp_eq_u64") != 0 {
		t.Error(`"integer" alone is not the 32-bit int`)
	}
}

// A memory opcode's last letter is its PTX state space, for its own
// operation's source only; an arithmetic opcode's first letter its type.
func TestSASSSpaceAndType(t *testing.T) {
	for _, c := range []struct{ opcode, source, want string }{
		{"LDS", "ld", ".shared"}, {"STG", "st", ".global"}, {"ATOMS", "atom", ".shared"},
		{"STL", "st", ".local"}, {"LDS", "cp.async", ""}, {"LDGSTS", "cp.async", ""}, {"FFMA", "fma", ""},
	} {
		if got := sassSpaceOf(c.opcode, c.source); got != c.want {
			t.Errorf("sassSpaceOf(%s, %s) = %q, want %q", c.opcode, c.source, got, c.want)
		}
	}
	for _, c := range []struct{ opcode, source, want string }{
		{"FFMA", "fma", "f32"}, {"DADD", "add", "f64"}, {"HFMA2", "fma", "f16 packed"}, {"HMMA", "mma", "f16"},
		{"FSEL", "selp", "f32"}, {"IMAD", "mad", "integer"}, {"ISETP", "setp", "integer"}, {"F2I", "cvt", ""}, {"FLO", "bfind", ""}, {"FENCE", "fence", ""},
	} {
		if got := strings.Join(sassTypeQualifiers(c.opcode, c.source), " "); got != c.want {
			t.Errorf("sassTypeQualifiers(%s, %s) = %q, want %q", c.opcode, c.source, got, c.want)
		}
	}
}

// A SASS opcode is answered through the stored SASS index, and asked of AMD
// by its source's counterparts, at the width its modifiers say even where
// the catalogue relates only another (ld.global.nc: global_load_dword,
// whose sibling global_load_dwordx4 is the 128-bit one).
func TestSASSQueriesAndPortedWidths(t *testing.T) {
	b := sampleBuild()
	b.Archs = append(b.Archs, isa.Architecture{ID: "ptx", Name: "PTX", Vendor: isa.VendorNVIDIA, Order: 20})
	for _, n := range []string{"ld.global.nc", "set"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "ptx", Name: n, Vendor: isa.VendorNVIDIA, Summary: "A PTX instruction."})
	}
	for _, n := range []string{"global_load_dword", "global_load_dwordx4"} {
		b.Instructions = append(b.Instructions, &isa.Instruction{Arch: "cdna4", Name: n, Vendor: isa.VendorAMD, Summary: "An AMD load."})
	}
	cat, err := json.Marshal(map[string]string{"memory.yaml": `concepts:
  - id: ldnc
    name: Read-only global load
    description: A load through the read-only path.
    ptx: [{mnemonic: ld.global.nc}]
    amd: [{mnemonic: global_load_dword}]
    relations:
      - {ptx: ld.global.nc, amd: global_load_dword, relation: equivalent with restrictions, restrictions: ["x"]}
`})
	if err != nil {
		t.Fatal(err)
	}
	b.Extras[KeyConcepts] = cat
	c := func(text string, n int) sassindex.Count { return sassindex.Count{Text: text, N: n} }
	idx, err := json.Marshal(sassindex.Index{Targets: []string{"sm_90"}, Opcodes: []sassindex.Opcode{
		{Name: "LDG", Targets: []sassindex.OnTarget{{Target: "sm_90", Instructions: []sassindex.Count{c("set", 40), c("ld.global.nc", 20)}}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	b.Extras[sassindex.Key] = idx
	s := writeOpen(t, b)
	for q, want := range map[string]string{
		"LDG.E.128":               "ld.global.nc",
		"ldg sass":                "ld.global.nc",
		"LDG.E.128 amd":           "global_load_dwordx4",
		"ld.global.nc.v4.f32 amd": "global_load_dwordx4",
		"ld.global.nc amd":        "global_load_dword",
	} {
		hits, err := s.Search(context.Background(), q, SearchOptions{})
		if err != nil || len(hits) == 0 || hits[0].Name != want {
			t.Errorf("Search(%q) = %+v %v, want %s first", q, hits, err, want)
		}
	}
	// Lower case is PTX's: "ldg" alone is no SASS opcode.
	if hits, _ := s.Search(context.Background(), "ldg", SearchOptions{}); len(hits) > 0 && strings.Contains(hits[0].Why, "SASS") {
		t.Errorf("ldg: %+v, read as SASS", hits)
	}
}
