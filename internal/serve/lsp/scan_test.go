package lsp

import (
	"math/rand"
	"os"
	"regexp"
	"runtime"
	"slices"
	"testing"
)

// TestScannersMatchTheirExpressions: labelDefLen and words find what the
// expressions they replace found, on the fuzz seeds' kind of text and on
// random strings of the bytes that matter.
func TestScannersMatchTheirExpressions(t *testing.T) {
	labelDef := regexp.MustCompile(`^[A-Za-z_.$@][\w.$@]*:`)
	word := regexp.MustCompile(`%?[A-Za-z_.$@][\w.$@]*(?::[\w.]+)?|-?\d[\w.]*`)
	inputs := []string{
		"loop:", "$L__BB0_2:", ".Ltmp0: v_max", "a:b", "%f<4>", "s[0:3]", "v[2:3], -1.5e3, 0x7e020280",
		"%r1:x", "-v1", "--1", "@%p1", "é:", "a::b", "ttmp[4:7] offset:16 sc0", "%", "-", ":", "",
	}
	r := rand.New(rand.NewSource(1))
	const alphabet = "aZ_.$@%:-09 ,[]é\t"
	for range 5000 {
		b := make([]byte, r.Intn(12))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, s := range inputs {
		want := 0
		if m := labelDef.FindStringIndex(s); m != nil {
			want = m[1]
		}
		if got := labelDefLen(s); got != want {
			t.Errorf("labelDefLen(%q) = %d, the expression %d", s, got, want)
		}
		var got [][]int
		words(s, 0, len(s), func(a, b int) { got = append(got, []int{a, b}) })
		wantWords := word.FindAllStringIndex(s, -1)
		if len(got) != len(wantWords) {
			t.Errorf("words(%q) = %v, the expression %v", s, got, wantWords)
			continue
		}
		for i := range got {
			if got[i][0] != wantWords[i][0] || got[i][1] != wantWords[i][1] {
				t.Errorf("words(%q) = %v, the expression %v", s, got, wantWords)
				break
			}
		}
	}
}

// TestLazyTokensAreTheKeptOnes: a document too large to keep its tokens
// scans each line again to the same tokens, block comments, metadata and
// PTX statements that go on across lines included.
func TestLazyTokensAreTheKeptOnes(t *testing.T) {
	texts := []string{
		"\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\nloop:\n\tv_max_f32 v1, v2, v3 ; c\n\ts_cbranch_scc1 loop\n/* a\n v_x */ v_add_f32 v1, v2, v3\n",
		"v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5\n.amdgpu_metadata\n- x: 1\n  v_max_f32: 2\n.end_amdgpu_metadata\ns_endpgm\n",
		".version 7.0\n.target sm_80\n.visible .entry k(){\n.reg .f32 %f<4>;\n@%p1 bra $L;\nmax.NaN.f32 %f3,\n  %f1, %f2; $L: ret;\n/* x\n y */ add.f32 %f1, %f2, %f3;\n}\n",
	}
	if raw, err := os.ReadFile("testdata/ptx.txtar"); err == nil {
		texts = append(texts, string(raw))
	}
	if raw, err := os.ReadFile("testdata/amdgpu.txtar"); err == nil {
		texts = append(texts, string(raw))
	}
	for i, text := range texts {
		for _, lang := range []string{langAMD, langPTX} {
			eager := parseText("file:///f", lang, text, 1, false)
			lazy := parseText("file:///f", lang, text, 1, true)
			if len(lazy.labels) != len(eager.labels) || len(lazy.regs) != len(eager.regs) || lazy.target != eager.target {
				t.Errorf("text %d (%s): the lazy parse noted other labels, registers or target", i, lang)
			}
			for n := range eager.lines {
				if lazy.lines[n].tokens != nil {
					t.Fatalf("text %d (%s): the lazy parse kept line %d's tokens", i, lang, n+1)
				}
				if a, b := eager.tokensOf(n), lazy.tokensOf(n); !slices.Equal(a, b) {
					t.Errorf("text %d (%s) line %d: scanned again %+v, kept %+v", i, lang, n+1, b, a)
				}
			}
		}
	}
}

// TestBigDocumentMemory: a 31 MB file (under the 32 MiB limit) holds
// little more than its text and lines once parsed (its tokens took
// 0.6 GB when kept), and diagnosing it allocates in proportion to what
// it reports.
func TestBigDocumentMemory(t *testing.T) {
	text := bigFile(31 << 20)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := parse("file:///big.s", langAMD, text, 1)
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d lines, %d MB of text: the parse holds %d MB", len(d.lines), len(text)>>20, held>>20)
	if limit := int64(4 * len(text)); held > limit {
		t.Errorf("the parse of %d MB holds %d MB, more than %d MB", len(text)>>20, held>>20, limit>>20)
	}
	if toks := d.tokensOf(1); len(toks) == 0 || toks[0].text != "v_max_f32" {
		t.Errorf("line 2's tokens scanned again: %+v", toks)
	}
	runtime.KeepAlive(d)
}
