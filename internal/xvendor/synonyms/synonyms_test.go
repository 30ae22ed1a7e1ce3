package synonyms

import (
	"reflect"
	"strings"
	"testing"
)

func TestDefaultTableParses(t *testing.T) {
	tab := Default()
	if len(tab.Groups) < 50 {
		t.Fatalf("%d groups", len(tab.Groups))
	}
	seen := map[string]int{}
	for _, g := range tab.Groups {
		for _, p := range g.phrases {
			if line, dup := seen[p]; dup {
				t.Errorf("phrase %q on lines %d and %d", p, line, g.Line)
			}
			seen[p] = g.Line
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, bad := range []string{"no arrow here", "=> v_add_f32", "add =>", "add => v_*x*"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestMatch(t *testing.T) {
	tab, err := Parse("# comment\ncount leading zeros | clz => v_clz_i32_u32 clz\npopcount | population count => v_bcnt_u32_b32\nwmma => v_wmma_*\nbarrier => s_barrier\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q      string
		phrase string
		kind   int
	}{
		{"Count Leading Zero", "count leading zeros", Exact}, // case and plural
		{"  clz ", "clz", Exact},
		{"count leading zeros of a u64", "count leading zeros", Contains},
		{"popcou", "popcount", Prefix},
		{"wmma", "wmma", Exact},
		{"wave barrier", "barrier", Word}, // one word of several
		{"count leading zero bits", "count leading zeros", Contains},
		{"count the leading zeros", "count leading zeros", Spread}, // a word inside the phrase
	} {
		m := tab.Match(c.q)
		if len(m) == 0 || m[0].Phrase != c.phrase || m[0].Kind != c.kind {
			t.Errorf("Match(%q) = %+v, want %q kind %d", c.q, m, c.phrase, c.kind)
		}
	}
	// Two words inside, or the phrase's words out of order, are no spread.
	for _, q := range []string{"", "pop", "v_max_f32", "the count of zeros leading", "count the many leading zeros"} {
		if m := tab.Match(q); len(m) != 0 {
			t.Errorf("Match(%q) = %+v, want none", q, m)
		}
	}
}

func TestExpand(t *testing.T) {
	names := []string{"v_add_f32", "v_wmma_f32_16x16x16_f16", "v_wmma_i32_16x16x16_iu4", "v_wmma_f16_16x16x16_f16x"}
	if got := Expand("v_wmma_*", names); !reflect.DeepEqual(got, []string{"v_wmma_f32_16x16x16_f16", "v_wmma_i32_16x16x16_iu4", "v_wmma_f16_16x16x16_f16x"}) {
		t.Errorf("pattern: %q", got)
	}
	if got := Expand("v_add_f32", names); !reflect.DeepEqual(got, []string{"v_add_f32"}) || Expand("v_sub_f32", names) != nil {
		t.Errorf("name: %q", got)
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("count leading zeros")
	f.Add(strings.Repeat("a ", 100))
	f.Fuzz(func(t *testing.T, q string) {
		for _, m := range Default().Match(q) {
			if m.Group == nil || m.Phrase == "" {
				t.Fatalf("bad match %+v", m)
			}
		}
	})
}

// A two-word phrase typed as one word matches as the phrase ("bitcount"
// is "bit count"), alone or among other words; a joined spelling another
// group has as its own phrase stays that group's.
func TestJoinedPhrases(t *testing.T) {
	tab, err := Parse("bit count | popcount => v_bcnt_u32_b32\nfunnel shift => shf\nfunnelshift => v_alignbit_b32\n")
	if err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{"bitcount": "v_bcnt_u32_b32", "bitcount 64": "v_bcnt_u32_b32", "funnelshift": "v_alignbit_b32"} {
		ms := tab.Match(q)
		if len(ms) != 1 || ms[0].Group.Members[0] != want {
			t.Errorf("%q: %d matches, want only %s's group", q, len(ms), want)
		}
	}
}

// Words are the phrases' words once each, sorted, plurals as phrases match
// them.
func TestWords(t *testing.T) {
	tab, err := Parse("count leading zeros | clz => clz\npopcount | population count => popc\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"clz", "count", "leading", "popcount", "population", "zero"}
	if got := tab.Words(); !reflect.DeepEqual(got, want) {
		t.Errorf("Words() = %q, want %q", got, want)
	}
}

// A spread may not pass over a word of another phrase standing whole in
// the query, as long as its own or longer, that shares one of its words:
// "atomic compare and swap" is a compare and swap, not an "atomic and";
// "most significant set bit" stays the longer "most significant bit".
func TestSpreadYieldsToAWholePhrase(t *testing.T) {
	tab, err := Parse("atomic and => global_atomic_and\ncompare and swap => global_atomic_cmpswap\nmost significant bit => bfind\nset bit => s_bitset1_b32\n")
	if err != nil {
		t.Fatal(err)
	}
	phrases := func(q string) map[string]int {
		out := map[string]int{}
		for _, m := range tab.Match(q) {
			out[m.Phrase] = m.Kind
		}
		return out
	}
	if got, want := phrases("atomic compare and swap"), map[string]int{"compare and swap": Contains}; !reflect.DeepEqual(got, want) {
		t.Errorf("atomic compare and swap: %v, want %v", got, want)
	}
	if got, want := phrases("atomic then and"), map[string]int{"atomic and": Spread}; !reflect.DeepEqual(got, want) {
		t.Errorf("atomic then and: %v, want %v", got, want)
	}
	if got, want := phrases("most significant set bit"), map[string]int{"most significant bit": Spread, "set bit": Contains}; !reflect.DeepEqual(got, want) {
		t.Errorf("most significant set bit: %v, want %v", got, want)
	}
}

// A count "per" its container is the count "in" it.
func TestPerIsIn(t *testing.T) {
	tab, err := Parse("threads per block => %ntid\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"number of threads in block", "threads in a block", "threads per block"} {
		if m := tab.Match(q); len(m) == 0 || m[0].Phrase != "threads per block" {
			t.Errorf("Match(%q) = %+v, want threads per block", q, m)
		}
	}
}
