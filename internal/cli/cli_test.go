package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/testing/realdb"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// The real database is built once for all tests in this package, without
// llvm-mc (the verification has its own tests).
var testDB string

func TestMain(m *testing.M) {
	if testenv.FindUpstream() != "" {
		// Tests that need the database skip themselves without sources.
		p, err := realdb.Shared(ingest.Options{Sources: testenv.FindUpstream(), NoVerify: true})
		if err != nil {
			panic("building the test database: " + err.Error())
		}
		testDB = p
	}
	os.Exit(m.Run())
}

func needDB(t *testing.T) {
	t.Helper()
	if testDB == "" {
		t.Skip("upstream sources not found (../shared/upstream or $GPUISA_SOURCES): skipping tests on the real database")
	}
}

// run executes gpuisa in-process.
func run(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func showJSON(t *testing.T, arch, name string) *isa.Instruction {
	t.Helper()
	out, errOut, code := run(t, "show", arch, name, "--json", "--db", testDB)
	if code != 0 {
		t.Fatalf("show %s %s: exit %d: %s", arch, name, code, errOut)
	}
	var in isa.Instruction
	if err := json.Unmarshal([]byte(out), &in); err != nil {
		t.Fatalf("show %s %s: bad JSON: %v", arch, name, err)
	}
	return &in
}

func encoding(in *isa.Instruction, name string) *isa.Encoding {
	for i := range in.Encodings {
		if in.Encodings[i].Name == name {
			return &in.Encodings[i]
		}
	}
	return nil
}

func TestShowVMaxF32CDNA4(t *testing.T) {
	needDB(t)
	in := showJSON(t, "cdna4", "v_max_f32")
	if in.Arch != "cdna4" || in.Name != "v_max_f32" || in.Vendor != "AMD" || in.Kind != "native" {
		t.Errorf("header = %s %s %s %s", in.Arch, in.Name, in.Vendor, in.Kind)
	}
	enc := encoding(in, "VOP2")
	if enc == nil {
		t.Fatalf("no VOP2 encoding in %+v", in.Encodings)
	}
	if enc.Opcode != 11 || enc.Identifier != "0x16000000" || enc.Width != 32 {
		t.Errorf("VOP2 = opcode %d identifier %s width %d, want 11 0x16000000 32", enc.Opcode, enc.Identifier, enc.Width)
	}
	if !strings.Contains(enc.IdentifierCheck, "rebuilds 0x16000000") {
		t.Errorf("identifier check = %q", enc.IdentifierCheck)
	}
	var haveOP, haveENC bool
	for _, f := range enc.Fields {
		if f.Name == "OP" && f.MSB == 30 && f.LSB == 25 {
			haveOP = true
		}
		if f.Name == "ENCODING" && f.MSB == 31 && f.LSB == 31 && f.Fixed == "0" {
			haveENC = true
		}
	}
	if !haveOP || !haveENC {
		t.Errorf("VOP2 fields lack OP[30:25] or ENCODING[31]=0: %+v", enc.Fields)
	}
	// The CDNA 4 guide's pseudocode for V_MAX_F32 handles signalling NaNs.
	if !strings.Contains(in.Semantics, "isSignalNAN") && !strings.Contains(strings.ToLower(in.Semantics), "nan") {
		t.Errorf("semantics lacks the NaN handling: %q", in.Semantics)
	}
	for _, a := range []string{"rdna1", "rdna2", "rdna3", "rdna3.5"} {
		if got := in.Opcodes[a]["VOP2"]; got != 16 {
			t.Errorf("opcodes[%s][VOP2] = %d, want 16", a, got)
		}
	}
	for _, a := range []string{"cdna1", "cdna2", "cdna3"} {
		if got := in.Opcodes[a]["VOP2"]; got != 11 {
			t.Errorf("opcodes[%s][VOP2] = %d, want 11", a, got)
		}
	}
	if len(in.Operands) != 3 || in.Operands[0].DataFormat != "FMT_NUM_F32" || in.Operands[0].OperandType != "OPR_VGPR" {
		t.Errorf("operands = %+v", in.Operands)
	}
	if len(in.Sources) == 0 {
		t.Error("no sources")
	}
}

func TestShowVMadMixF32CDNA4(t *testing.T) {
	needDB(t)
	in := showJSON(t, "cdna4", "v_mad_mix_f32")
	enc := encoding(in, "VOP3P")
	if enc == nil {
		t.Fatalf("no VOP3P encoding in %+v", in.Encodings)
	}
	if enc.Width != 64 || enc.Opcode != 32 || enc.Identifier != "0xD3A00000" {
		t.Errorf("VOP3P = width %d opcode %d identifier %s, want 64 32 0xD3A00000", enc.Width, enc.Opcode, enc.Identifier)
	}
}

// TestShowJSONKeys checks the command-line contract's keys.
func TestShowJSONKeys(t *testing.T) {
	needDB(t)
	out, _, code := run(t, "show", "rdna3", "s_add_u32", "--json", "--db", testDB)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"arch", "name", "vendor", "kind", "category", "summary", "aliases", "encodings", "opcodes", "semantics", "examples", "targets", "concepts", "sources"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
	enc := m["encodings"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "format", "width", "opcode", "identifier", "fields", "operands"} {
		if _, ok := enc[k]; !ok {
			t.Errorf("encodings[0] missing key %q", k)
		}
	}
	if id, _ := enc["identifier"].(string); !strings.HasPrefix(id, "0x") {
		t.Errorf("identifier %q is not 0x… hex", id)
	}
}

// TestSpotChecks covers scalar, vector, memory and matrix instructions in
// every family: encoding and opcode as the guides state them, the
// identifier as llvm-mc encodes it and, where the guide draws the layout
// otherwise, the guide's identifier as the documented variant.
func TestSpotChecks(t *testing.T) {
	needDB(t)
	for _, tc := range []struct {
		arch, name, enc string
		opcode          int
		identifier      string
		documented      string // the guide's identifier where llvm-mc corrects the layout
	}{
		{"cdna1", "s_add_u32", "SOP2", 0, "0x80000000", ""},
		{"cdna1", "s_load_dword", "SMEM", 0, "0xC0000000", ""},
		{"cdna1", "v_fma_f32", "VOP3A", 459, "0xD1CB0000", ""},
		{"cdna1", "ds_read_b32", "DS", 54, "0xD86C0000", ""},
		{"cdna1", "v_mfma_f32_32x32x8f16", "VOP3P-MAI", 76, "0xD3CC0000", "0xD34C0000"},
		{"cdna2", "s_load_dword", "SMEM", 0, "0xC0000000", ""},
		{"cdna2", "v_fma_f32", "VOP3A", 459, "0xD1CB0000", ""},
		{"cdna2", "global_load_dword", "GLOBAL", 20, "0xDC508000", ""},
		{"cdna2", "buffer_load_dword", "MUBUF", 20, "0xE0500000", ""},
		{"cdna2", "v_mfma_f32_32x32x8f16", "VOP3P-MAI", 76, "0xD3CC0000", ""},
		{"cdna3", "s_add_u32", "SOP2", 0, "0x80000000", ""},
		{"cdna3", "v_fma_f32", "VOP3A", 459, "0xD1CB0000", ""},
		{"cdna3", "ds_read_b32", "DS", 54, "0xD86C0000", ""},
		{"cdna3", "global_load_dword", "GLOBAL", 20, "0xDC508000", ""},
		{"cdna3", "v_mfma_f32_32x32x8_f16", "VOP3P-MAI", 76, "0xD3CC0000", ""},
		{"cdna4", "s_endpgm", "SOPP", 1, "0xBF810000", ""},
		{"cdna4", "s_load_dword", "SMEM", 0, "0xC0000000", ""},
		// The guide's DS table lacks the GDS bit llvm-mc encodes: same
		// identifier, the guide's layout kept as the documented variant.
		{"cdna4", "ds_read_b32", "DS", 54, "0xD86C0000", "0xD86C0000"},
		{"cdna4", "global_load_dword", "GLOBAL", 20, "0xDC508000", ""},
		{"cdna4", "v_mfma_f32_32x32x8_f16", "VOP3P-MAI", 76, "0xD3CC0000", ""},
		{"cdna5", "s_load_b32", "SMEM", 0, "0xF4000000", ""},
		{"cdna5", "v_fma_f32", "VOP3", 531, "0xD6130000", ""},
		{"cdna5", "ds_load_b32", "VDS", 54, "0xD8D80000", ""},
		{"cdna5", "global_load_b32", "VGLOBAL", 20, "0xEE050000", "0xEE028000"},
		{"cdna5", "s_endpgm", "SOPP", 48, "0xBFB00000", ""},
		{"rdna1", "s_add_u32", "SOP2", 0, "0x80000000", ""},
		{"rdna1", "s_load_dword", "SMEM", 0, "0xF4000000", ""},
		{"rdna1", "v_fma_f32", "VOP3A", 331, "0xD54B0000", ""},
		{"rdna1", "ds_read_b32", "DS", 54, "0xD8D80000", "0xD86C0000"},
		{"rdna1", "global_load_dword", "GLOBAL", 12, "0xDC308000", ""},
		{"rdna2", "s_add_u32", "SOP2", 0, "0x80000000", ""},
		{"rdna2", "s_load_dword", "SMEM", 0, "0xF4000000", ""},
		{"rdna2", "v_fma_f32", "VOP3A", 331, "0xD54B0000", ""},
		{"rdna2", "ds_read_b32", "DS", 54, "0xD8D80000", "0xD86C0000"},
		{"rdna2", "global_load_dword", "GLOBAL", 12, "0xDC308000", ""},
		{"rdna3", "s_load_b32", "SMEM", 0, "0xF4000000", ""},
		{"rdna3", "v_fma_f32", "VOP3", 531, "0xD6130000", ""},
		{"rdna3", "ds_load_b32", "DS", 54, "0xD8D80000", ""},
		{"rdna3", "global_load_b32", "GLOBAL", 20, "0xDC520000", ""},
		{"rdna3", "v_wmma_f32_16x16x16_f16", "VOP3P", 64, "0xCC400000", ""},
		{"rdna3.5", "s_add_u32", "SOP2", 0, "0x80000000", ""},
		{"rdna3.5", "s_load_b32", "SMEM", 0, "0xF4000000", ""},
		{"rdna3.5", "ds_load_b32", "DS", 54, "0xD8D80000", ""},
		{"rdna3.5", "global_load_b32", "GLOBAL", 20, "0xDC520000", ""},
		{"rdna3.5", "v_wmma_f32_16x16x16_f16", "VOP3P", 64, "0xCC400000", ""},
		{"rdna4", "s_load_b32", "SMEM", 0, "0xF4000000", ""},
		{"rdna4", "v_fma_f32", "VOP3", 531, "0xD6130000", ""},
		{"rdna4", "ds_load_b32", "VDS", 54, "0xD8D80000", ""},
		{"rdna4", "global_load_b32", "VGLOBAL", 20, "0xEE050000", "0xEE028000"},
		{"rdna4", "v_wmma_f32_16x16x16_f16", "VOP3P", 64, "0xCC400000", ""},
		{"vega", "s_add_u32", "SOP2", 0, "0x80000000", ""},
		{"vega", "s_load_dword", "SMEM", 0, "0xC0000000", ""},
		{"vega", "v_fma_f32", "VOP3A", 459, "0xD1CB0000", ""},
		{"vega", "ds_read_b32", "DS", 54, "0xD86C0000", ""},
		{"vega", "global_load_dword", "GLOBAL", 20, "0xDC508000", ""},
		{"vega7", "s_add_u32", "SOP2", 0, "0x80000000", ""},
		{"vega7", "s_load_dword", "SMEM", 0, "0xC0000000", ""},
		{"vega7", "v_fma_f32", "VOP3A", 459, "0xD1CB0000", ""},
		{"vega7", "ds_read_b32", "DS", 54, "0xD86C0000", ""},
		{"vega7", "global_load_dword", "GLOBAL", 20, "0xDC508000", ""},
	} {
		t.Run(tc.arch+"/"+tc.name, func(t *testing.T) {
			in := showJSON(t, tc.arch, tc.name)
			enc := encoding(in, tc.enc)
			if enc == nil {
				t.Fatalf("no %s encoding in %+v", tc.enc, in.Encodings)
			}
			if enc.Opcode != tc.opcode {
				t.Errorf("opcode = %d, want %d", enc.Opcode, tc.opcode)
			}
			if tc.identifier != "" && enc.Identifier != tc.identifier {
				t.Errorf("identifier = %s, want %s", enc.Identifier, tc.identifier)
			}
			switch d := enc.Documented; {
			case tc.documented == "" && d != nil:
				t.Errorf("documented variant %+v, want none", d)
			case tc.documented != "" && (d == nil || d.Identifier != tc.documented):
				t.Errorf("documented variant %+v, want the guide's identifier %s", d, tc.documented)
			}
			if in.Summary == "" && in.Semantics == "" {
				t.Errorf("no summary and no semantics")
			}
		})
	}
}

// TestPromotedOpcodes checks the VOP3 opcodes the older guides give only as
// a rule ("VOP3 opcode = VOP2 opcode + 0x100"), against what llvm-mc encodes
// (v_max_f32_e64 is 0xD10B0000 on gfx908, v_mov_b32_e64 0xD5810000 on
// gfx1010).
func TestPromotedOpcodes(t *testing.T) {
	needDB(t)
	for _, tc := range []struct {
		arch, name, enc string
		opcode          int
		identifier      string
	}{
		{"cdna1", "v_max_f32", "VOP3A", 267, "0xD10B0000"},
		{"vega", "v_mov_b32", "VOP3A", 321, "0xD1410000"},
		{"rdna1", "v_mov_b32", "VOP3A", 385, "0xD5810000"},
	} {
		in := showJSON(t, tc.arch, tc.name)
		enc := encoding(in, tc.enc)
		if enc == nil || enc.Opcode != tc.opcode || enc.Identifier != tc.identifier || !strings.Contains(enc.IdentifierCheck, "rule") {
			t.Errorf("%s %s: %+v", tc.arch, tc.name, enc)
		}
	}
	// CDNA 3's VOP3A table disagrees with its own rule for some VOP1
	// instructions; both are shown.
	in := showJSON(t, "cdna3", "v_bfrev_b32")
	found := false
	for _, c := range in.Conflicts {
		if strings.Contains(c.Note, "promotion rule") {
			found = true
		}
	}
	if !found {
		t.Errorf("cdna3 v_bfrev_b32: no conflict recorded: %+v", in.Conflicts)
	}
}

func TestUnknownNamesExit2WithSuggestions(t *testing.T) {
	needDB(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "cdna4", "v_max_f23"}, "did you mean v_max_f32"},
		{[]string{"show", "cdna5", "v_mux_f32"}, "did you mean"},
		{[]string{"show", "cdna9", "v_max_f32"}, "did you mean cdna"},
		{[]string{"list", "rdna7"}, "unknown architecture"},
		{[]string{"show", "ptx", "maxx"}, "did you mean max"},
	} {
		out, errOut, code := run(t, append(tc.args, "--db", testDB)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		if out != "" {
			t.Errorf("%v: wrote to stdout: %q", tc.args, out)
		}
		if strings.Count(strings.TrimRight(errOut, "\n"), "\n") != 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: stderr = %q, want one line containing %q", tc.args, errOut, tc.want)
		}
	}
}

func TestNamesAreCaseAndSuffixTolerant(t *testing.T) {
	needDB(t)
	for _, name := range []string{"V_MAX_F32", "v_max_f32_e64", "V_Max_F32_e32", "v_max_f32_sdwa"} {
		in := showJSON(t, "cdna4", name)
		if in.Name != "v_max_f32" {
			t.Errorf("%s resolved to %s", name, in.Name)
		}
	}
	// A gfx target names its family; flags may come first.
	out, _, code := run(t, "--db", testDB, "show", "--json", "gfx950", "V_MAX_F32")
	if code != 0 || !strings.Contains(out, `"arch": "cdna4"`) {
		t.Errorf("show gfx950 V_MAX_F32: exit %d", code)
	}
	// RDNA 4 documents the new name; the old one is an alias.
	if in := showJSON(t, "rdna4", "v_max_f32"); in.Name != "v_max_num_f32" {
		t.Errorf("rdna4 v_max_f32 resolved to %s, want v_max_num_f32", in.Name)
	}
}

func TestSearch(t *testing.T) {
	needDB(t)
	var lastTargets []isa.ProcessorMatch
	search := func(args ...string) []isa.SearchHit {
		t.Helper()
		out, errOut, code := run(t, append(append([]string{"search"}, args...), "--json", "--db", testDB)...)
		if code != 0 {
			t.Fatalf("search %v: exit %d: %s", args, code, errOut)
		}
		var doc struct {
			Hits    []isa.SearchHit      `json:"hits"`
			Targets []isa.ProcessorMatch `json:"targets"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		lastTargets = doc.Targets
		return doc.Hits
	}
	if hits := search("v_max"); len(hits) == 0 || hits[0].Name != "v_max_f32" {
		t.Errorf("v_max: first hit %+v, want v_max_f32", first(hits))
	}
	if hits := search("v_max_f23"); len(hits) == 0 || hits[0].Name != "v_max_f32" {
		t.Errorf("v_max_f23: first hit %+v, want v_max_f32", first(hits))
	}
	hits := search("fused", "multiply", "add", "--arch", "cdna3")
	found := false
	for _, h := range hits[:min(10, len(hits))] {
		if strings.HasPrefix(h.Name, "v_fma") {
			found = true
		}
	}
	if !found {
		t.Errorf("fused multiply add: no v_fma* in the first 10: %v", names(hits))
	}
	if hits := search("max", "--arch", "ptx"); len(hits) == 0 || hits[0].Name != "max" {
		t.Errorf("ptx max: first hit %+v", first(hits))
	}
	// Query syntax characters are plain text, never an FTS5 error.
	search(`"AND OR NEAR( * -`)
	// The JSON holds what the text lists: a product's targets.
	if search("MI300X"); len(lastTargets) == 0 || lastTargets[0].Target != "gfx942" {
		t.Errorf("MI300X --json: targets %+v, want gfx942", lastTargets)
	}
}

func first(h []isa.SearchHit) any {
	if len(h) == 0 {
		return nil
	}
	return h[0].Summary
}

func names(h []isa.SearchHit) []string {
	var out []string
	for _, x := range h {
		out = append(out, x.Arch+"/"+x.Name)
	}
	return out
}

func TestListAndArchs(t *testing.T) {
	needDB(t)
	out, _, code := run(t, "list", "rdna3", "--json", "--db", testDB)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var list []isa.Summary
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) < 1000 {
		t.Errorf("rdna3 lists %d instructions, want > 1000", len(list))
	}
	out, _, code = run(t, "archs", "--db", testDB)
	if code != 0 || !strings.Contains(out, "cdna4") || !strings.Contains(out, "ptx") {
		t.Errorf("archs: exit %d\n%s", code, out)
	}
	out, _, code = run(t, "show", "cdna4", "v_max_f32", "--db", testDB)
	if code != 0 || !strings.Contains(out, "v_max_f32 · GPU Native ISA · AMD") || !strings.Contains(out, "0x16000000") {
		t.Errorf("show text: exit %d\n%s", code, out)
	}
}

func TestMissingDatabase(t *testing.T) {
	_, errOut, code := run(t, "show", "cdna4", "v_max_f32", "--db", filepath.Join(t.TempDir(), "none.db"))
	if code != 2 || !strings.Contains(errOut, "gpuisa build") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{{"show", "cdna4"}, {"show", "--bogus"}, {"frobnicate"}} {
		if _, _, code := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestShowPTXMax(t *testing.T) {
	needDB(t)
	in := showJSON(t, "ptx", "max")
	if in.Kind != "virtual" || in.Vendor != "NVIDIA" || in.PTXVersion != "1.0" || in.MinTarget != "sm_10" {
		t.Errorf("max: kind %s vendor %s ptx %s target %s", in.Kind, in.Vendor, in.PTXVersion, in.MinTarget)
	}
	types := map[string]bool{}
	for _, f := range in.Forms {
		for _, ty := range f.Types {
			types[ty] = true
		}
		hasRelu := strings.Contains(f.Syntax, ".relu")
		if hasRelu && !(strings.Contains(f.Syntax, ".s16x2") || strings.Contains(f.Syntax, ".s32")) {
			t.Errorf(".relu on form %s", f.Syntax)
		}
	}
	for _, ty := range []string{".u16", ".u32", ".u64", ".s16", ".s32", ".s64", ".u16x2", ".s16x2", ".f32", ".f64", ".f16", ".f16x2", ".bf16", ".bf16x2"} {
		if !types[ty] {
			t.Errorf("no form with type %s", ty)
		}
	}
	if strings.Contains(in.Semantics, "```") {
		t.Error("semantics keeps Markdown fences")
	}
	if in.Examples == nil || len(in.Examples) == 0 {
		t.Error("no examples")
	}
}

func TestPTXCheck(t *testing.T) {
	needDB(t)
	out, _, code := run(t, "ptx", "check", "max.NaN.f32 d, a, b;", "--db", testDB)
	if code != 0 || !strings.Contains(out, "7.0") || !strings.Contains(out, "sm_80") {
		t.Errorf("max.NaN.f32: exit %d: %s", code, out)
	}
	out, _, code = run(t, "--db", testDB, "ptx", "check", "max.relu.u32 d, a, b;")
	if code != 1 || !strings.Contains(out, ".relu") {
		t.Errorf("max.relu.u32: exit %d: %s", code, out)
	}
	// A file whose .version and .target are too low for a statement fails
	// the check (ptxas rejects it), naming what the statement needs and
	// what the file says; the same statement under a high enough header
	// passes.
	dir := t.TempDir()
	low, high := filepath.Join(dir, "low.ptx"), filepath.Join(dir, "high.ptx")
	body := ".entry k() {\n  .reg .f32 %f<4>;\n  max.NaN.f32 %f1, %f2, %f3;\n  ret;\n}\n"
	os.WriteFile(low, []byte(".version 6.0\n.target sm_70\n"+body), 0o644)
	os.WriteFile(high, []byte(".version 7.0\n.target sm_80\n"+body), 0o644)
	out, errOut, code := run(t, "ptx", "check", low, "--db", testDB)
	if code != 1 || !strings.Contains(out, "needs PTX ISA 7.0 and sm_80") || !strings.Contains(out, ".target is sm_70") {
		t.Errorf("low.ptx: exit %d: %s %s", code, out, errOut)
	}
	out, errOut, code = run(t, "ptx", "check", high, "--db", testDB)
	if code != 0 || !strings.Contains(out, "valid") {
		t.Errorf("high.ptx: exit %d: %s %s", code, out, errOut)
	}
}

func TestConceptsAndPort(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "concepts", "--json", "--db", testDB)
	if code != 0 {
		t.Fatalf("concepts: exit %d: %s", code, errOut)
	}
	var cat struct {
		Concepts []struct {
			ID        string
			Relations []struct {
				PTX, AMD, Relation     string
				Variants, Restrictions []string
			}
			AMD []struct {
				Mnemonic string
				Families []string
			}
		}
		NoCounterpart []struct{ Mnemonic, Reason string } `json:"no_counterpart"`
	}
	if err := json.Unmarshal([]byte(out), &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat.Concepts) < 120 {
		t.Errorf("%d concepts, want at least 120", len(cat.Concepts))
	}
	// One pair may relate differently per type (variants): key by the
	// pair and its first variant.
	rel := map[string]string{}
	restr := map[string]string{}
	permFamilies := 0
	for _, c := range cat.Concepts {
		for _, r := range c.Relations {
			v := ""
			if len(r.Variants) > 0 {
				v = r.Variants[0]
			}
			if strings.HasSuffix(c.ID, "-nan-propagating") {
				continue // max.NaN relates to v_max_f32 as a sequence
			}
			rel[r.PTX+v+"->"+r.AMD] = r.Relation
			restr[r.PTX+v+"->"+r.AMD] = strings.Join(r.Restrictions, " ")
		}
		for _, m := range c.AMD {
			if m.Mnemonic == "v_perm_b32" {
				permFamilies = len(m.Families)
			}
		}
	}
	for pair, want := range map[string]string{
		"max.f32->v_max_f32": "equivalent with restrictions", "max.f32->v_max_num_f32": "equivalent with restrictions",
		"max.s32->v_max_i32": "equivalent", "max.u32->v_max_u32": "equivalent",
		"mul.hi.u32->v_mul_hi_u32": "equivalent", "mul.hi.u64->v_mul_hi_u32": "sequence",
	} {
		if rel[pair] != want {
			t.Errorf("%s: relation %q, want %q", pair, rel[pair], want)
		}
	}
	// The IEEE-mode caveat belongs to v_max_f32, not to v_max_num_f32.
	if !strings.Contains(restr["max.f32->v_max_f32"], "IEEE") || strings.Contains(restr["max.f32->v_max_num_f32"], "NaN") {
		t.Errorf("max.f32 NaN restrictions: v_max_f32 %q; v_max_num_f32 %q", restr["max.f32->v_max_f32"], restr["max.f32->v_max_num_f32"])
	}
	if rel["prmt->v_perm_b32"] == "" || permFamilies == 0 {
		t.Errorf("prmt -> v_perm_b32: %q on %d families", rel["prmt->v_perm_b32"], permFamilies)
	}

	// Port offers only what assembles: the database was built without
	// llvm-mc, so port runs it itself (or says "not verified").
	out, _, code = run(t, "port", "shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;", "--to", "gfx942", "--json", "--db", testDB)
	var rep struct {
		Verified bool
		Results  []struct {
			Counterparts []struct {
				AMD, Relation string
				Forms         []string
				Sequence      []string
				Checks        []struct{ Target, Status string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || len(rep.Results) != 1 {
		t.Fatalf("port shfl --json: exit %d, %v\n%s", code, err, out)
	}
	if _, err := verify.FindLLVMMC(); err != nil {
		if rep.Verified || !strings.Contains(runOut(t, "port", "max.f32 d, a, b;", "--to", "gfx942", "--db", testDB), "Not verified") {
			t.Errorf("without llvm-mc port must say it did not verify")
		}
	} else {
		if !rep.Verified {
			t.Errorf("port did not verify although llvm-mc is installed")
		}
		for _, c := range rep.Results[0].Counterparts {
			for _, f := range c.Forms {
				if strings.Contains(f, "row_xmask") {
					t.Errorf("port proposes %q for gfx942, which llvm-mc rejects there", f)
				}
			}
			for _, chk := range c.Checks {
				if chk.Status != "assembles" {
					t.Errorf("%s on %s: %s", c.AMD, chk.Target, chk.Status)
				}
			}
		}
		nan := runOut(t, "port", "max.NaN.f32 %f1, %f2, %f3;", "--to", "gfx942", "--db", testDB)
		for _, want := range []string{"v_max_f32  (sequence", "v_cmp_o_f32 vcc, v0, v1", "assembles on gfx942"} {
			if !strings.Contains(nan, want) {
				t.Errorf("port max.NaN.f32 to gfx942 lacks %q:\n%s", want, nan)
			}
		}
		if rdna4 := runOut(t, "port", "max.NaN.f32 %f1, %f2, %f3;", "--to", "gfx1200", "--db", testDB); !strings.Contains(rdna4, "-> v_maximum_f32") {
			t.Errorf("port max.NaN.f32 to gfx1200:\n%s", rdna4)
		}
	}

	out, _, code = run(t, "port", "max.f32 d, a, b;", "--to", "rdna4", "--db", testDB)
	if code != 0 || !strings.Contains(out, "v_max_num_f32") {
		t.Errorf("port max.f32 to rdna4: exit %d\n%s", code, out)
	}
	// Every instruction of realistic kernels gets a counterpart or an
	// explained gap.
	kernels, _ := filepath.Glob("../xvendor/concepts/testdata/kernels/*.ptx")
	if len(kernels) < 3 {
		t.Fatalf("kernels: %v", kernels)
	}
	for _, k := range kernels {
		for _, arch := range []string{"cdna3", "rdna3"} {
			out, errOut, code := run(t, "port", k, "--to", arch, "--json", "--db", testDB)
			if code != 0 {
				t.Fatalf("port %s: exit %d: %s", k, code, errOut)
			}
			var rep struct {
				Summary struct{ Instructions, Ported, NoCounterpart, Gaps, Unknown int }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err)
			}
			s := rep.Summary
			if s.Instructions == 0 || s.Unknown != 0 || s.Ported+s.NoCounterpart+s.Gaps != s.Instructions {
				t.Errorf("%s on %s: %+v", filepath.Base(k), arch, s)
			}
		}
	}
	if _, _, code := run(t, "port", "max.f32 d, a, b;", "--to", "rdna9", "--db", testDB); code != 2 {
		t.Errorf("unknown --to: exit %d, want 2", code)
	}
}

// runOut runs gpuisa and returns its output, failing the test on an error.
func runOut(t *testing.T, args ...string) string {
	t.Helper()
	out, errOut, code := run(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	return out
}

func TestDecodeAndEncode(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "decode", "--arch", "cdna4", "0x160a04c1", "--db", testDB)
	if code != 0 || !strings.Contains(out, "v_max_f32") || !strings.Contains(out, "v5, -1, v2") {
		t.Errorf("decode: exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = run(t, "--db", testDB, "encode", "--arch", "rdna3", "v_max_f32 v5, -1, v2")
	if code != 0 || !strings.Contains(out, "0xc1,0x04,0x0a,0x20") {
		t.Errorf("encode: exit %d\n%s%s", code, out, errOut)
	}
	// A gfx target other than the family's first: the target's encoder.
	out, errOut, code = run(t, "--db", testDB, "encode", "--arch", "gfx1101", "v_max_f32 v5, -1, v2")
	if code != 0 || !strings.Contains(out, "0xc1,0x04,0x0a,0x20") {
		t.Errorf("encode for gfx1101: exit %d\n%s%s", code, out, errOut)
	}
	if _, _, code := run(t, "decode", "--arch", "nosuch", "0x0", "--db", testDB); code != 2 {
		t.Errorf("decode with an unknown family: exit %d, want 2", code)
	}
}

func TestExportRefusesBadTargets(t *testing.T) {
	needDB(t)
	if _, _, code := run(t, "export", "--db", testDB); code != 2 {
		t.Errorf("export without --out: exit %d, want 2", code)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("x"), 0o644)
	if _, errOut, code := run(t, "export", "--out", dir, "--db", testDB); code != 2 || !strings.Contains(errOut, "not empty") {
		t.Errorf("export into a non-empty directory: exit %d %s", code, errOut)
	}
}

// The text of search lists every family an exact name is in, as --json's
// archs do, not only the newest the table shows it in.
func TestSearchTextListsEveryFamily(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "search", "v_max_f32", "--json", "--db", testDB)
	if code != 0 {
		t.Fatalf("search v_max_f32 --json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Hits []isa.SearchHit `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Hits) == 0 || doc.Hits[0].Name != "v_max_f32" {
		t.Fatalf("search v_max_f32 --json: %v %.300s", err, out)
	}
	archs := doc.Hits[0].Archs
	if len(archs) < 2 {
		t.Skipf("the test database has v_max_f32 in %d family: nothing to list", len(archs))
	}
	text, errOut, code := run(t, "search", "v_max_f32", "--db", testDB)
	want := fmt.Sprintf("v_max_f32 is in %d families: %s", len(archs), strings.Join(archs, ", "))
	if code != 0 || !strings.Contains(text, want) {
		t.Errorf("search v_max_f32: exit %d, %q not in:\n%s%s", code, want, text, errOut)
	}
}
