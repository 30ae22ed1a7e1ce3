package verify

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// needLLVMMC skips tests that run the assembler where none is installed.
func needLLVMMC(t testing.TB) string {
	t.Helper()
	p, err := FindLLVMMC()
	if err != nil {
		t.Skipf("llvm-mc not installed (apt-get install llvm-22): %v", err)
	}
	return p
}

func TestAcceptance(t *testing.T) {
	needLLVMMC(t)
	inputs := []Input{{Asm: "v_max_f32 v5, v1, v2"}, {Asm: "v_mad_mix_f32 v0, v1, v2, v3"}}
	targets := []string{"gfx900", "gfx906", "gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1150", "gfx1200"}
	res, err := Run(context.Background(), inputs, targets, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Version, "LLVM version") {
		t.Errorf("version %q", res.Version)
	}
	for _, target := range []string{"gfx908", "gfx90a", "gfx942", "gfx950", "gfx1010", "gfx1030", "gfx1100", "gfx1150"} {
		o, _ := res.Get(0, target)
		if !o.Supported || o.Mnemonic() != "v_max_f32_e32" || len(o.Encoding) != 4 {
			t.Errorf("v_max_f32 on %s: %+v", target, o)
		}
	}
	o, _ := res.Get(0, "gfx1200")
	if !o.Supported || o.Mnemonic() != "v_max_num_f32_e32" {
		t.Errorf("v_max_f32 on gfx1200 should print the alias v_max_num_f32: %+v", o)
	}
	if o, _ := res.Get(1, "gfx900"); !o.Supported || !bytes.Equal(o.Encoding, []byte{0x00, 0x00, 0xa0, 0xd3, 0x01, 0x05, 0x0e, 0x04}) {
		t.Errorf("v_mad_mix_f32 on gfx900: %+v", o)
	}
	for _, target := range []string{"gfx906", "gfx950"} {
		o, _ := res.Get(1, target)
		if o.Supported || !strings.Contains(o.Error, "not supported on this GPU") {
			t.Errorf("v_mad_mix_f32 on %s should be rejected: %+v", target, o)
		}
	}
}

// One bad line must not disturb the lines after it, and lines that are not
// single instructions are refused without reaching llvm-mc.
func TestBatchMapping(t *testing.T) {
	needLLVMMC(t)
	inputs := []Input{
		{Asm: "v_not_an_instruction v1"},
		{Asm: "s_nop 0"},
		{Asm: ".if 0"},
		{Asm: "v_max_f32 v5, v1, v2\nv_max_f32 v5, v1, v2"},
		{Asm: "v_add_f32 v1, v2"},
		{Asm: "  s_endpgm  "},
		{Asm: "s_nop 0"},
	}
	res, err := Run(context.Background(), inputs, []string{"gfx900"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{false, true, false, false, false, true, true}
	for i, w := range want {
		if o := res.Outcomes[i][0]; o.Supported != w || (!w && o.Error == "") {
			t.Errorf("input %d %q: %+v, want supported=%v", i, inputs[i].Asm, o, w)
		}
	}
	if o := res.Outcomes[5][0]; !bytes.Equal(o.Encoding, []byte{0x00, 0x00, 0x81, 0xbf}) {
		t.Errorf("s_endpgm encoding %x", o.Encoding)
	}
	if res.Assembled != 4 || res.Processes != 1 { // s_nop twice is assembled once
		t.Errorf("assembled %d lines in %d processes", res.Assembled, res.Processes)
	}
}

func TestCache(t *testing.T) {
	needLLVMMC(t)
	dir := t.TempDir()
	inputs := []Input{{Asm: "v_max_f32 v5, v1, v2"}, {Asm: "s_bogus"}}
	targets := []string{"gfx900", "gfx1100"}
	var calls []string
	opts := Options{CacheDir: dir, Progress: func(done, total int, target string) { calls = append(calls, target) }}
	cold, err := Run(context.Background(), inputs, targets, opts)
	if err != nil {
		t.Fatal(err)
	}
	if cold.Processes != 2 || cold.CacheHits != 0 || len(calls) != 2 {
		t.Errorf("cold: %d processes, %d hits, progress %v", cold.Processes, cold.CacheHits, calls)
	}
	opts.LLVMMC = "" // found again; the cache must answer everything
	warm, err := Run(context.Background(), inputs, targets, opts)
	if err != nil {
		t.Fatal(err)
	}
	if warm.Processes != 0 || warm.CacheHits != 4 {
		t.Errorf("warm run started %d llvm-mc, %d hits", warm.Processes, warm.CacheHits)
	}
	for i := range inputs {
		for j := range targets {
			c, w := cold.Outcomes[i][j], warm.Outcomes[i][j]
			if c.Supported != w.Supported || c.Printed != w.Printed || c.Error != w.Error || !bytes.Equal(c.Encoding, w.Encoding) {
				t.Errorf("cache changed outcome %d/%s: %+v vs %+v", i, targets[j], c, w)
			}
		}
	}
	// A new instruction runs only itself.
	more, err := Run(context.Background(), append(inputs, Input{Asm: "s_nop 1"}), targets, opts)
	if err != nil {
		t.Fatal(err)
	}
	if more.Assembled != 2 || more.CacheHits != 4 {
		t.Errorf("incremental: assembled %d, hits %d", more.Assembled, more.CacheHits)
	}
}

func TestUnknownTarget(t *testing.T) {
	needLLVMMC(t)
	_, err := Run(context.Background(), []Input{{Asm: "s_nop 0"}}, []string{"gfx9999"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "gfx9999") {
		t.Errorf("want an error naming the target, got %v", err)
	}
}

func TestMissingAssembler(t *testing.T) {
	t.Setenv("GPUISA_LLVM_MC", "/nonexistent/llvm-mc")
	t.Setenv("PATH", t.TempDir())
	_, err := Run(context.Background(), []Input{{Asm: "s_nop 0"}}, []string{"gfx900"}, Options{})
	var nf *NotFoundError
	if !errors.Is(err, ErrNoAssembler) || !errors.As(err, &nf) || len(nf.Tried) != 3 {
		t.Errorf("want a NotFoundError, got %v", err)
	}
}

func TestDisassemble(t *testing.T) {
	needLLVMMC(t)
	words := [][]byte{
		{0x01, 0x05, 0x0a, 0x16},
		{0xff, 0xff, 0xff, 0xff},
		{0x00, 0x00, 0xa0, 0xd3, 0x01, 0x05, 0x0e, 0x04},
		nil,
		{0x01, 0x05, 0x0a, 0x16, 0x00, 0x00, 0x81, 0xbf},
		{0x00, 0x00, 0x81, 0xbf},
	}
	dec, err := DisassembleWith(context.Background(), Options{}, "gfx900", words)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"v_max_f32_e32 v5, v1, v2", "", "v_mad_mix_f32 v0, v1, v2, v3", "", "v_max_f32_e32 v5, v1, v2\ns_endpgm", "s_endpgm"}
	for i, w := range want {
		if dec[i].Text != w || (w == "") != (dec[i].Error != "") {
			t.Errorf("word %d: %+v, want %q", i, dec[i], w)
		}
	}
	plain, err := Disassemble(context.Background(), "gfx900", words[:2])
	if err != nil || plain[0] != want[0] || plain[1] != "" {
		t.Errorf("Disassemble = %q, %v", plain, err)
	}
}

func TestParseEncoded(t *testing.T) {
	for _, tc := range []struct {
		line, printed string
		enc           []byte
		ok            bool
	}{
		{"v_max_f32_e32 v5, v1, v2 ; encoding: [0x01,0x05,0x0a,0x16]", "v_max_f32_e32 v5, v1, v2", []byte{1, 5, 10, 0x16}, true},
		{"s_branch foo ; encoding: [A,A,0x82,0xbf]", "", nil, false},
		{".text", "", nil, false},
		{"x ; encoding: [0x01", "", nil, false},
	} {
		p, e, ok := parseEncoded(tc.line)
		if ok != tc.ok || p != tc.printed || !bytes.Equal(e, tc.enc) {
			t.Errorf("parseEncoded(%q) = %q %v %v", tc.line, p, e, ok)
		}
	}
}
