package ingest

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// needLLVM skips, saying why, when llvm-mc or LLVM's syntax pages are
// missing; the LLVM pass needs both to mean anything.
func needLLVM(t testing.TB) {
	t.Helper()
	if _, err := verify.FindLLVMMC(); err != nil {
		t.Skipf("llvm-mc not installed (apt-get install llvm-22): %v", err)
	}
	if llvmdoc.DocDir() == "" {
		t.Skip("LLVM's AMDGPU syntax pages not installed (apt-get install llvm-22-doc): skipping")
	}
}

// testCache keeps llvm-mc results between test runs on this machine (not
// in the user's cache), so only the first run pays for the assembler.
func testCache() string { return filepath.Join(os.TempDir(), "gpuisa-test-llvm-cache") }

type llvmModel struct {
	archs []isa.Architecture
	insts []*isa.Instruction
	res   *LLVMResult
	err   error
}

var (
	verifiedOnce  sync.Once
	verifiedModel llvmModel
)

// verified returns the real AMD model after the LLVM pass, run once per
// test binary.
func verified(t *testing.T) llvmModel {
	t.Helper()
	src := upstreamDir(t)
	needLLVM(t)
	verifiedOnce.Do(func() {
		m := &verifiedModel
		m.archs, m.insts, _, m.err = LoadAMD(context.Background(), src, nil)
		if m.err == nil {
			m.res, m.err = ApplyLLVM(context.Background(), Options{CacheDir: testCache()}, m.archs, m.insts, nil)
		}
	})
	if verifiedModel.err != nil {
		t.Fatal(verifiedModel.err)
	}
	return verifiedModel
}

func find(insts []*isa.Instruction, arch, name string) *isa.Instruction {
	for _, in := range insts {
		if in.Arch == arch && in.Name == name {
			return in
		}
	}
	return nil
}

func TestVMaxF32Compatibility(t *testing.T) {
	m := verified(t)
	family := map[string]string{
		"gfx908": "cdna1", "gfx90a": "cdna2", "gfx942": "cdna3", "gfx950": "cdna4",
		"gfx1010": "rdna1", "gfx1030": "rdna2", "gfx1100": "rdna3", "gfx1150": "rdna3.5",
	}
	for target, arch := range family {
		in := find(m.insts, arch, "v_max_f32")
		if in == nil {
			t.Errorf("%s has no v_max_f32", arch)
			continue
		}
		// Every family's page shows the whole matrix.
		for t2 := range family {
			if in.Targets[t2] != "supported" {
				t.Errorf("%s v_max_f32: %s is %q, want supported", arch, t2, in.Targets[t2])
			}
		}
		if len(in.Examples) == 0 || in.Examples[0].Encoding == "" || in.Examples[0].Target != target {
			t.Errorf("%s v_max_f32: examples %+v, want one verified on %s", arch, in.Examples, target)
		}
		if len(in.Syntax) == 0 {
			t.Errorf("%s v_max_f32 has no LLVM syntax", arch)
		}
	}
	in := find(m.insts, "cdna4", "v_max_f32")
	if in.Targets["gfx1200"] != "supported" {
		t.Errorf("cdna4 v_max_f32 on gfx1200: %q", in.Targets["gfx1200"])
	}
	var alias *isa.Alias
	for i := range in.Aliases {
		if in.Aliases[i].Name == "v_max_num_f32" && in.Aliases[i].Prov.Source == isa.SourceLLVMMC {
			alias = &in.Aliases[i]
		}
	}
	if alias == nil || !strings.Contains(alias.Note, "gfx1200") {
		t.Errorf("cdna4 v_max_f32: no llvm-mc alias v_max_num_f32 on gfx1200: %+v", in.Aliases)
	}
	for _, d := range in.TargetDetails {
		if d.Target == "gfx1200" && !strings.HasPrefix(d.Printed, "v_max_num_f32") {
			t.Errorf("gfx1200 detail %+v should print v_max_num_f32", d)
		}
	}
}

func TestVMadMixF32Compatibility(t *testing.T) {
	m := verified(t)
	for _, arch := range []string{"vega", "cdna4"} {
		in := find(m.insts, arch, "v_mad_mix_f32")
		if in == nil {
			t.Errorf("%s has no v_mad_mix_f32", arch)
			continue
		}
		want := map[string]string{"gfx900": "supported", "gfx906": "unsupported", "gfx950": "unsupported"}
		for target, status := range want {
			if in.Targets[target] != status {
				t.Errorf("%s v_mad_mix_f32 on %s: %q, want %q", arch, target, in.Targets[target], status)
			}
		}
	}
	// AMD's CDNA 4 guide documents it; llvm-mc rejects it on gfx950.
	in := find(m.insts, "cdna4", "v_mad_mix_f32")
	found := false
	for _, c := range in.Conflicts {
		if c.Fact == merge.FactAssemblerSupport && strings.Contains(c.Values[1].Value, "gfx950") {
			found = true
		}
	}
	if !found {
		t.Errorf("cdna4 v_mad_mix_f32: no assembler-support conflict: %+v", in.Conflicts)
	}
	var fam *quality.Family
	for i := range m.res.Report.Families {
		if m.res.Report.Families[i].Arch == "cdna4" {
			fam = &m.res.Report.Families[i]
		}
	}
	listed := false
	for _, it := range fam.Rejected {
		listed = listed || it.Name == "v_mad_mix_f32"
	}
	if !listed {
		t.Errorf("the quality report does not list v_mad_mix_f32 as rejected on cdna4: %+v", fam.Rejected)
	}
	// llvm-mc disassembles AMD's encoding of it as v_fma_mix_f32: LLVM's
	// name, recorded as an alias and a name conflict.
	var llvmAlias *isa.Alias
	for i := range in.Aliases {
		if in.Aliases[i].LLVMName {
			llvmAlias = &in.Aliases[i]
		}
	}
	if llvmAlias == nil || llvmAlias.Name != "v_fma_mix_f32" || !strings.Contains(llvmAlias.Note, "VOP3P opcode 32") {
		t.Errorf("cdna4 v_mad_mix_f32: LLVM name alias %+v, want v_fma_mix_f32 from VOP3P opcode 32", llvmAlias)
	}
	named := false
	for _, c := range in.Conflicts {
		named = named || c.Fact == merge.FactLLVMName && c.Values[1].Value == "v_fma_mix_f32"
	}
	if !named {
		t.Errorf("cdna4 v_mad_mix_f32: no name conflict with LLVM's v_fma_mix_f32: %+v", in.Conflicts)
	}
	// Vega's gfx900 knows v_mad_mix_f32 by AMD's name: no LLVM name there.
	for _, a := range find(m.insts, "vega", "v_mad_mix_f32").Aliases {
		if a.LLVMName {
			t.Errorf("vega v_mad_mix_f32 has an LLVM name %+v; llvm-mc accepts AMD's", a)
		}
	}
}

// TestShareWithVerifiedExample reports, per family, the share of
// instructions with an example llvm-mc accepted on one of the family's
// targets; a family below the target must carry its explanation.
func TestShareWithVerifiedExample(t *testing.T) {
	m := verified(t)
	rep := m.res.Report
	if !rep.Verified || len(rep.Families) != len(isa.AMDArchIDs()) {
		t.Fatalf("report: verified %v, %d families", rep.Verified, len(rep.Families))
	}
	for _, f := range rep.Families {
		t.Logf("%-8s %4d/%4d = %5.1f%% (synthesized %d; AMD only %d, LLVM only %d, rejected %d, disagreements %d)",
			f.Arch, f.WithExample, f.Instructions, f.Share, f.Synthesized, len(f.UnmatchedAMD), len(f.UnmatchedLLVM), len(f.Rejected), len(f.Disagreements))
		if len(f.Targets) == 0 {
			continue // LLVM does not support the family: nothing to ask of it
		}
		if f.Share < quality.ShareTarget {
			if f.Explanation == "" {
				t.Errorf("%s is below %.0f%% without an explanation", f.Arch, quality.ShareTarget)
			}
			t.Logf("%s below target: %s", f.Arch, f.Explanation)
		}
		if f.WithExample+len(f.Rejected)+len(f.Unverified) != f.Instructions {
			t.Errorf("%s: counts do not add up: %+v", f.Arch, f)
		}
	}
}

// TestVerifiedLayouts: where llvm-mc contradicts a guide's layout (RDNA 4
// and CDNA 5 FLAT/GLOBAL/SCRATCH, RDNA 1-2 DS, GCN 5 and CDNA 1 VOP3P),
// the layout and identifier shown are llvm-mc's, the guide's is kept as
// the documented variant, the correction is listed, and no encoding
// llvm-mc produced disagrees with the identifier shown.
func TestVerifiedLayouts(t *testing.T) {
	m := verified(t)
	corrected := map[string]int{}
	for _, f := range m.res.Report.Families {
		if len(f.Disagreements) > 0 {
			t.Errorf("%s: %d identifier disagreements left, first %+v", f.Arch, len(f.Disagreements), f.Disagreements[0])
		}
		corrected[f.Arch] = len(f.Corrected)
	}
	for _, arch := range []string{"rdna4", "cdna5", "rdna1", "rdna2", "vega", "vega7", "cdna1"} {
		if corrected[arch] == 0 {
			t.Errorf("%s: no corrected identifiers in the report", arch)
		}
	}
	for _, tc := range []struct {
		arch, name, format string
		id, documented     string
		fields             []string // name[msb:lsb] the verified layout has
		docFields          []string // and the guide's
	}{
		{"rdna4", "global_load_b32", "VGLOBAL", "0xEE050000", "0xEE028000", []string{"OP[21:14]", "IOFFSET[95:72]"}, []string{"OP[20:13]"}},
		{"cdna5", "scratch_store_b32", "VSCRATCH", "0xED068000", "0xED034000", []string{"OP[21:14]", "IOFFSET[95:72]"}, []string{"OP[20:13]"}},
		{"rdna1", "ds_sub_u32", "DS", "0xD8040000", "0xD8020000", []string{"OP[25:18]", "GDS[17:17]"}, []string{"OP[24:17]", "GDS[16:16]"}},
		{"rdna2", "ds_read_b32", "DS", "0xD8D80000", "0xD86C0000", []string{"OP[25:18]"}, []string{"OP[24:17]"}},
		{"vega", "v_pk_lshlrev_b16", "VOP3P", "0xD3840000", "0xD3040000", []string{"ENCODING[31:23]"}, []string{"ENCODING[31:24]"}},
		{"cdna1", "v_dot2_f32_f16", "VOP3P", "0xD3A30000", "0xD3230000", []string{"ENCODING[31:23]"}, []string{"ENCODING[31:24]"}},
	} {
		in := find(m.insts, tc.arch, tc.name)
		if in == nil {
			t.Errorf("%s %s: missing", tc.arch, tc.name)
			continue
		}
		var enc *isa.Encoding
		for i := range in.Encodings {
			if in.Encodings[i].Format == tc.format {
				enc = &in.Encodings[i]
			}
		}
		if enc == nil {
			t.Errorf("%s %s: no %s encoding", tc.arch, tc.name, tc.format)
			continue
		}
		if enc.Identifier != tc.id || enc.Documented == nil || enc.Documented.Identifier != tc.documented {
			t.Errorf("%s %s: identifier %s, documented %+v; want %s shown, %s documented", tc.arch, tc.name, enc.Identifier, enc.Documented, tc.id, tc.documented)
			continue
		}
		if a := enc.Assembler; a == nil || !a.Agrees || a.Identifier != tc.id {
			t.Errorf("%s %s: llvm-mc's verdict %+v, want agreement on %s", tc.arch, tc.name, a, tc.id)
		}
		has := func(fs []isa.Field, want string) bool {
			for _, f := range fs {
				if fmt.Sprintf("%s[%d:%d]", f.Name, f.MSB, f.LSB) == want {
					return true
				}
			}
			return false
		}
		for _, w := range tc.fields {
			if !has(enc.Fields, w) {
				t.Errorf("%s %s: verified layout lacks %s: %+v", tc.arch, tc.name, w, enc.Fields)
			}
		}
		for _, w := range tc.docFields {
			if !has(enc.Documented.Fields, w) {
				t.Errorf("%s %s: documented layout lacks %s", tc.arch, tc.name, w)
			}
		}
		found := false
		for _, c := range in.Conflicts {
			if c.Fact == merge.FactIdentifierPrefix+tc.format && c.CorrectedBy == isa.SourceLLVMMC && c.Values[0].Value == tc.documented {
				found = true
			}
		}
		if !found {
			t.Errorf("%s %s: no correction recorded: %+v", tc.arch, tc.name, in.Conflicts)
		}
	}
	// Every encoding llvm-mc compared agrees with the identifier shown.
	n := 0
	for _, in := range m.insts {
		for _, e := range in.Encodings {
			if a := e.Assembler; a != nil {
				n++
				if !a.Agrees {
					t.Errorf("%s %s %s: llvm-mc encodes %s, identifier shown %s", in.Arch, in.Name, e.Format, a.Identifier, e.Identifier)
				}
			}
		}
	}
	if n < 10000 {
		t.Errorf("only %d encodings compared with llvm-mc", n)
	}
}

// Examples quoted from an llvm-project checkout come first, with file and
// line; the fixture is a made-up test file in LLVM's format.
func TestExamplesFromMCTests(t *testing.T) {
	src := upstreamDir(t)
	needLLVM(t)
	archs, insts, _, err := LoadAMD(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	project, _ := filepath.Abs(filepath.Join("testdata", "llvm-project"))
	if _, err := ApplyLLVM(context.Background(), Options{CacheDir: testCache(), LLVMProject: project}, archs, insts, nil); err != nil {
		t.Fatal(err)
	}
	in := find(insts, "cdna1", "v_max_f32")
	if len(in.Examples) == 0 {
		t.Fatal("no examples")
	}
	ex := in.Examples[0]
	if ex.Asm != "v_max_f32 v7, v3, v4" || ex.Source != "from LLVM's MC tests, gpuisa_fixture.s:4" ||
		ex.Prov.Source != isa.SourceLLVMTest || ex.Prov.File != "llvm/test/MC/AMDGPU/gpuisa_fixture.s" ||
		ex.Encoding != "0x03,0x09,0x0e,0x16" || ex.Target != "gfx908" {
		t.Errorf("first example %+v", ex)
	}
	// A family whose targets the test file does not run still prefers its
	// own syntax page's example.
	if ex := find(insts, "rdna3", "v_max_f32").Examples[0]; ex.Prov.Source != isa.SourceLLVMDoc {
		t.Errorf("rdna3 first example %+v", ex)
	}
}

// Without verification, pages get examples built from the family's own
// syntax marked "not yet verified", no target matrix, and one problem line.
func TestNoVerify(t *testing.T) {
	src := upstreamDir(t)
	if llvmdoc.DocDir() == "" {
		t.Skip("LLVM's AMDGPU syntax pages not installed (apt-get install llvm-22-doc): skipping")
	}
	archs, insts, _, err := LoadAMD(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ApplyLLVM(context.Background(), Options{NoVerify: true}, archs, insts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Problems) != 1 || !strings.Contains(res.Problems[0], "not verified") {
		t.Errorf("problems %v", res.Problems)
	}
	in := find(insts, "rdna3", "v_max_f32")
	if len(in.Targets) != 0 || len(in.TargetDetails) != 0 {
		t.Errorf("targets %v", in.Targets)
	}
	if len(in.Examples) == 0 || !strings.HasSuffix(in.Examples[0].Source, "(not yet verified)") || in.Examples[0].Encoding != "" {
		t.Errorf("examples %+v", in.Examples)
	}
	if len(in.Syntax) == 0 || in.Syntax[0].GFX != "GFX11" {
		t.Errorf("syntax %+v", in.Syntax)
	}
	if res.Report.Verified || len(res.Report.Families) == 0 || res.Report.Families[0].Explanation == "" {
		t.Errorf("report %+v", res.Report)
	}
}

func TestLastElems(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/share/doc/llvm-22-doc/html/AMDGPU/AMDGPUAsmGFX9.html": "html/AMDGPU/AMDGPUAsmGFX9.html",
		"AMDGPUAsmGFX9.html": "AMDGPUAsmGFX9.html",
	} {
		if got := lastElems(in, 3); got != want {
			t.Errorf("lastElems(%q) = %q, want %q", in, got, want)
		}
	}
}

// benchmarkVerify runs the whole LLVM pass (syntax, examples, llvm-mc on
// every target, verdicts) on the real model.
func benchmarkVerify(b *testing.B, cache func() string) {
	src := upstreamDir(b)
	needLLVM(b)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		archs, insts, _, err := LoadAMD(context.Background(), src, nil)
		if err != nil {
			b.Fatal(err)
		}
		dir := cache()
		b.StartTimer()
		res, err := ApplyLLVM(context.Background(), Options{CacheDir: dir}, archs, insts, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Report.Run.Assembled), "assembled/op")
		b.ReportMetric(float64(res.Report.Run.CacheHits), "cachehits/op")
	}
}

// BenchmarkVerifyCold starts every iteration from an empty cache: every
// line is assembled on every target. Run with -benchtime=1x.
func BenchmarkVerifyCold(b *testing.B) {
	benchmarkVerify(b, func() string {
		dir, err := os.MkdirTemp("", "gpuisa-bench-cache")
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	})
}

// BenchmarkVerifyWarm runs against a filled cache: no llvm-mc process.
func BenchmarkVerifyWarm(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "cache")
	src := upstreamDir(b)
	needLLVM(b)
	archs, insts, _, err := LoadAMD(context.Background(), src, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ApplyLLVM(context.Background(), Options{CacheDir: dir}, archs, insts, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	benchmarkVerify(b, func() string { return dir })
}

// TestLLVMOnlyNames: a name only LLVM documents for a family becomes an
// alias when an AMD instruction has its encoding, and an instruction of
// its own (with LLVM provenance and a verified example) when none has.
func TestLLVMOnlyNames(t *testing.T) {
	m := verified(t)
	var dep *isa.Instruction
	for _, in := range m.res.Added {
		if in.Arch == "rdna3" && in.Name == "s_waitcnt_depctr" {
			dep = in
		}
	}
	if dep == nil {
		t.Fatal("rdna3 s_waitcnt_depctr (SOPP 8, emitted by compilers, absent from AMD's RDNA 3 guide) was not added")
	}
	if len(dep.Encodings) != 1 || dep.Encodings[0].Format != "SOPP" || dep.Encodings[0].Opcode != 8 ||
		dep.Encodings[0].Prov.Source != isa.SourceLLVMMC || len(dep.Examples) == 0 || dep.Targets["gfx1100"] != "supported" {
		t.Errorf("rdna3 s_waitcnt_depctr: %+v", dep.Encodings)
	}
	if _, ok := dep.Opcodes["rdna2"]; !ok {
		t.Errorf("rdna3 s_waitcnt_depctr is not linked to RDNA 2's: opcodes %v", dep.Opcodes)
	}
	for _, p := range dep.Sources {
		if p.Source == isa.SourceAMDManual || p.Source == isa.SourceAMDXML {
			t.Errorf("an LLVM-only instruction cites AMD: %+v", dep.Sources)
		}
	}
	// RDNA 1-2's DS OP field sits a bit higher than the guide draws it; the
	// added LDS instructions must carry the opcodes llvm-mc uses.
	for _, in := range m.res.Added {
		if in.Arch == "rdna1" && in.Name == "ds_add_src2_u64" && in.Encodings[0].Opcode != 192 {
			t.Errorf("rdna1 ds_add_src2_u64: opcode %d, want 192", in.Encodings[0].Opcode)
		}
	}
	// RDNA 3 renamed the buffer atomics: LLVM's old names are aliases.
	add := find(m.insts, "rdna3", "buffer_atomic_add_u32")
	found := false
	for _, a := range add.Aliases {
		found = found || a.Name == "buffer_atomic_add" && a.Prov.Source == isa.SourceLLVMMC
	}
	if !found {
		t.Errorf("rdna3 buffer_atomic_add_u32 aliases %+v lack LLVM's buffer_atomic_add", add.Aliases)
	}
	for _, in := range m.res.Added {
		if find(m.insts, in.Arch, in.Name) != nil {
			t.Errorf("%s %s added although the family has it", in.Arch, in.Name)
		}
	}
}

// TestOperandsComplete: operands are read/written as the right column
// says (RDNA 4's buffer stores read vdata), carry wave32 and wave64 sizes
// where they differ, carry a data type where LLVM's rule gives one, and
// CDNA 5 and CDNA 4 instructions without LLVM syntax get llvm-mc's.
func TestOperandsComplete(t *testing.T) {
	m := verified(t)
	op := func(arch, name, operand string) *isa.Operand {
		in := find(m.insts, arch, name)
		if in == nil {
			t.Fatalf("%s %s: missing", arch, name)
		}
		for i := range in.Operands {
			if in.Operands[i].Name == operand {
				return &in.Operands[i]
			}
		}
		t.Fatalf("%s %s: no operand %s in %+v", arch, name, operand, in.Operands)
		return nil
	}
	// Every RDNA 4 buffer, tbuffer and image store reads its data (the
	// GFX12 page lists it under DST).
	stores := 0
	for _, in := range m.insts {
		if in.Arch != "rdna4" || !strings.HasPrefix(in.Name, "buffer_store") && !strings.HasPrefix(in.Name, "tbuffer_store") && !strings.HasPrefix(in.Name, "image_store") {
			continue
		}
		stores++
		for _, o := range in.Operands {
			if o.Name == "vdata" && (o.Output || !o.Input) {
				t.Errorf("rdna4 %s: vdata %+v, want read only", in.Name, o)
			}
		}
	}
	if stores < 29 {
		t.Errorf("rdna4: %d buffer/tbuffer/image stores, want at least 29", stores)
	}
	if o := op("rdna4", "buffer_atomic_add_u32", "vdata"); !o.Input || !o.Output {
		t.Errorf("rdna4 buffer_atomic_add_u32 vdata %+v: an atomic's data is read and (returned) written", o)
	}
	if o := op("rdna3", "v_wmma_f32_16x16x16_f16", "vdst"); o.SizeWave32 != 256 || o.SizeWave64 != 128 {
		t.Errorf("rdna3 WMMA vdst sizes %d/%d, want 256 (wave32) / 128 (wave64)", o.SizeWave32, o.SizeWave64)
	}
	if o := op("rdna3", "v_cndmask_b32", "vcc"); o.SizeWave32 != 32 || o.SizeWave64 != 64 {
		t.Errorf("rdna3 v_cndmask_b32 vcc sizes %d/%d", o.SizeWave32, o.SizeWave64)
	}
	for _, tc := range []struct{ arch, name, operand, want string }{
		{"rdna3", "v_add_f32", "src0", "f32"},
		{"rdna3", "v_cvt_f32_i32", "vdst", "f32"},
		{"rdna3", "v_cvt_f32_i32", "src", "i32"},
		{"rdna4", "v_ldexp_f32", "src1", "i32"}, // GFX11's tag: the GFX12 page tags nothing
		{"vega", "s_lshl_b64", "ssrc1", "u32"},
		{"vega", "global_load_dwordx4", "vdst", "b128"},
		{"cdna3", "v_cmp_eq_f32", "src0", "f32"},
		{"cdna3", "v_cmp_eq_f32", "vcc", ""}, // a lane mask has no data type
		{"vega", "v_add_co_u32", "vcc", ""},
	} {
		if o := op(tc.arch, tc.name, tc.operand); o.DataFormat != tc.want {
			t.Errorf("%s %s %s: data format %q (%s), want %q", tc.arch, tc.name, tc.operand, o.DataFormat, o.TypeFrom, tc.want)
		}
	}
	// The GFX12 page gives v_cmpx_* a vdst llvm-mc rejects.
	if in := find(m.insts, "rdna4", "v_cmpx_eq_f32"); in == nil || len(in.Operands) != 2 {
		t.Errorf("rdna4 v_cmpx_eq_f32 operands %+v, want llvm-mc's two", in)
	}
	// CDNA 5 has no LLVM syntax page: operands come from llvm-mc.
	withEx, withOps := 0, 0
	for _, in := range append(append([]*isa.Instruction(nil), m.insts...), m.res.Added...) {
		if in.Arch != "cdna5" || len(in.Examples) == 0 || len(strings.Fields(in.Examples[0].Asm)) < 2 {
			continue
		}
		withEx++
		if len(in.Operands) > 0 {
			withOps++
			if in.Operands[0].Prov.Source != isa.SourceLLVMMC || !strings.Contains(in.Operands[0].Note, "llvm-mc") {
				t.Errorf("cdna5 %s: operand provenance %+v", in.Name, in.Operands[0])
			}
		}
	}
	if withEx == 0 || withOps < withEx*95/100 {
		t.Errorf("cdna5: %d of %d instructions with an example that has operands got operands", withOps, withEx)
	}
	// With an SGPR base the VGPR address is a 32-bit offset.
	if o := op("cdna5", "global_load_b32", "vaddr"); o.Size != 32 || !o.Input {
		t.Errorf("cdna5 global_load_b32 vaddr %+v", o)
	}
	// Most data operands carry a type now (the issue counted 2,834 of 36,451).
	typed, all := 0, 0
	for _, in := range m.insts {
		for _, o := range in.Operands {
			all++
			if o.DataFormat != "" {
				typed++
			}
		}
	}
	if typed*2 < all {
		t.Errorf("%d of %d AMD operands have a data type", typed, all)
	}
}

// Issue 12, class 8, at build time: the verdicts stored in the database say
// what assembles where, and port reads them.
func TestConceptVerdicts(t *testing.T) {
	m := verified(t)
	files, err := CatalogueFiles("")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := concepts.LoadFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := conceptVerdicts(context.Background(), cat, m.insts, m.res, nopProgress{})
	if err != nil {
		t.Fatal(err)
	}
	var v concepts.VerdictTable
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	xmask := "v_mov_b32_dpp v0, v1 row_xmask:4 row_mask:0xf bank_mask:0xf"
	if ok, known, _ := v.Line("gfx942", xmask); ok || !known {
		t.Errorf("%s on gfx942: ok %v known %v, want rejected", xmask, ok, known)
	}
	if ok, _, msg := v.Line("gfx1100", xmask); !ok {
		t.Errorf("%s on gfx1100 rejected: %s", xmask, msg)
	}
	if ok, known := v.Member("cdna3", "v_max_f32", "gfx942"); !ok || !known {
		t.Errorf("v_max_f32 on cdna3/gfx942: ok %v known %v", ok, known)
	}
	if ok, known := v.Member("cdna3", "v_maximum_f32", "gfx942"); ok || known {
		t.Errorf("v_maximum_f32 is no cdna3 instruction, yet has a verdict: ok %v known %v", ok, known)
	}
	ix := concepts.NewNameIndex(m.insts)
	res := concepts.Port(cat, "shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;", concepts.Target{Arch: "cdna3", GFX: []string{"gfx942"}, Resolver: ix, Verdicts: &v})
	for _, c := range res.Counterparts {
		for _, f := range c.Forms {
			if strings.Contains(f, "row_xmask") {
				t.Errorf("port offers %q on gfx942", f)
			}
		}
	}
	t.Logf("%d lines and %d families' members with verdicts on %d targets", len(v.Lines), len(v.Members), len(v.Targets))
}
