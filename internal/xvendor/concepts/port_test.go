package concepts

import (
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

func TestParseInstruction(t *testing.T) {
	cases := []struct {
		line string
		ok   bool
		pred string
		op   string
		ops  []string
	}{
		{"\tmax.f32 %f3, %f1, %f2;", true, "", "max.f32", []string{"%f3", "%f1", "%f2"}},
		{"@%p1 bra $L_inner;", true, "%p1", "bra", []string{"$L_inner"}},
		{"@!p bra.uni L1; // loop", true, "!p", "bra.uni", []string{"L1"}},
		{"$L_done: exit;", true, "", "exit", nil},
		{"ret;", true, "", "ret", nil},
		{"bar.sync\t0;", true, "", "bar.sync", []string{"0"}},
		{"mov.u32 %r1, /* lane */ %laneid;", true, "", "mov.u32", []string{"%r1", "%laneid"}},
		{"$L_tile_loop:", false, "", "", nil},
		{".reg .f32 %f<8>;", false, "", "", nil},
		{"{", false, "", "", nil},
		{")", false, "", "", nil},
		{"   // only a comment", false, "", "", nil},
		{"@p", false, "", "", nil},
	}
	for _, c := range cases {
		ins, ok := ParseInstruction(c.line)
		if ok != c.ok {
			t.Errorf("%q: ok = %v", c.line, ok)
			continue
		}
		if !ok {
			continue
		}
		if ins.Predicate != c.pred || ins.Opcode != c.op || !reflect.DeepEqual(ins.Operands, c.ops) {
			t.Errorf("%q: got %+v", c.line, ins)
		}
	}
}

var (
	projectCatalogueOnce sync.Once
	projectCatalogue     *Catalogue
	projectCatalogueErr  error
)

func loadProject(t testing.TB) *Catalogue {
	t.Helper()
	projectCatalogueOnce.Do(func() { projectCatalogue, projectCatalogueErr = LoadDir(catalogueDir()) })
	if projectCatalogueErr != nil {
		t.Fatalf("loading the project catalogue: %v", projectCatalogueErr)
	}
	return projectCatalogue
}

func amdOf(cps []Counterpart) []string {
	var out []string
	for _, c := range cps {
		out = append(out, c.AMD)
	}
	return out
}

// TestPortWithoutResolver relies only on the families written in the
// catalogue, so it runs without the upstream documents.
func TestPortWithoutResolver(t *testing.T) {
	c := loadProject(t)
	cases := []struct {
		instr, arch string
		mnemonic    string
		amd         []string
	}{
		{"max.f32 %f3, %f1, %f2;", "cdna4", "max", []string{"v_max_f32"}},
		{"max.f32 %f3, %f1, %f2;", "rdna4", "max", []string{"v_max_num_f32"}},
		{"max.s32 %r3, %r1, %r2;", "rdna4", "max", []string{"v_max_i32"}},
		{"max.NaN.f32 %f3, %f1, %f2;", "", "max", []string{"v_maximum_f32", "v_maximum3_f32", "v_max_f32"}},
		{"prmt.b32 %r1, %r2, %r3, 0x3210;", "vega", "prmt", []string{"v_perm_b32"}},
		{"setp.lt.u32 %p1, %r21, 16;", "", "setp", []string{"v_cmp_lt_u32"}},
		{"setp.lt.s32 %p1, %r21, 16;", "", "setp", []string{"v_cmp_lt_i32"}},
		{"cvt.rn.f16.f32 %rs1, %f1;", "", "cvt", []string{"v_cvt_f16_f32"}},
		{"cvt.rni.f32.f32 %f1, %f2;", "", "cvt", []string{"v_rndne_f32"}},
		{"cvt.rzi.s32.f32 %r1, %f2;", "", "cvt", []string{"v_cvt_i32_f32"}},
		{"ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r1];", "", "ld", []string{"ds_read_b128", "ds_load_b128"}},
		{"ld.global.nc.f32 %f1, [%rd1];", "", "ld.global.nc", []string{"global_load_dword", "global_load_b32", "s_load_dword", "s_load_b32"}},
		{"ld.param.u64 %rd1, [a];", "", "ld", []string{"s_load_dwordx2", "s_load_b64"}},
		{"ld.param.u32 %r1, [a];", "", "ld", []string{"s_load_dword", "s_load_b32"}},
		{"atom.global.add.u32 %r1, [%rd1], 1;", "", "atom", []string{"global_atomic_add", "global_atomic_add_u32"}},
		{"atom.shared.cas.b32 %r1, [%r2], %r3, %r4;", "", "atom", []string{"ds_cmpst_rtn_b32", "ds_cmpstore_rtn_b32"}},
		{"ex2.approx.ftz.f32 %f2, %f1;", "", "ex2", []string{"v_exp_f32"}},
		{"rcp.approx.ftz.f64 %fd2, %fd1;", "", "rcp.approx.ftz.f64", []string{"v_rcp_f64", "v_rcp_f32"}},
		{"vote.sync.ballot.b32 %r1, %p1, -1;", "", "vote.sync", []string{"v_cmp_ne_u32"}},
		{"mul.wide.s32 %rd6, %r16, 4;", "", "mul", []string{"v_mad_i64_i32", "v_mad_co_i64_i32", "v_mad_nc_i64_i32"}},
		{"mul.hi.u64 %rd1, %rd2, %rd3;", "", "mul", []string{"v_mul_hi_u32"}},
		{"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f2}, %r3, 0x0;", "", "mma.sp::ordered_metadata", []string{"v_smfmac_f32_16x16x32_f16", "v_smfmac_f32_16x16x64_f16", "v_swmmac_f32_16x16x32_f16", "v_swmmac_f32_16x16x64_f16"}},
	}
	for _, tc := range cases {
		res := Port(c, tc.instr, Target{Arch: tc.arch})
		if res.Mnemonic != tc.mnemonic {
			t.Errorf("%s: mnemonic %q, want %q", tc.instr, res.Mnemonic, tc.mnemonic)
		}
		if got := amdOf(res.Counterparts); !reflect.DeepEqual(got, tc.amd) {
			t.Errorf("%s on %q: counterparts %v, want %v", tc.instr, tc.arch, got, tc.amd)
		}
	}
	res := Port(c, "max.f32 %f3, %f1, %f2;", Target{Arch: "cdna4"})
	if cp := res.Counterparts[0]; cp.Relation != EquivalentWithRestrictions || !strings.Contains(strings.Join(cp.Restrictions, " "), "NaN") {
		t.Errorf("max.f32 relation = %q %v; want equivalent with restrictions naming NaN", cp.Relation, cp.Restrictions)
	}
	res = Port(c, "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];", Target{Arch: "cdna5"})
	if res.Mnemonic != "cp.async.bulk.tensor" || len(res.Counterparts) == 0 || res.Counterparts[0].AMD != "tensor_load_to_lds" {
		t.Errorf("cp.async.bulk.tensor: %+v", res)
	}
	res = Port(c, "cp.async.bulk.prefetch.tensor.2d.L2.global [%rd1, {%r2, %r3}];", Target{Arch: "cdna3"})
	if res.Mnemonic != "cp.async.bulk.prefetch.tensor" || res.NoCounterpart == "" {
		t.Errorf("cp.async.bulk.prefetch.tensor: %+v", res)
	}
	// No relation for the type: a gap, not the relations of other types.
	res = Port(c, "max.NaN.bf16 %rs1, %rs2, %rs3;", Target{Arch: "cdna3"})
	if len(res.Counterparts) != 0 || !strings.Contains(res.Gap, "none for") {
		t.Errorf("max.NaN.bf16: %+v (gap %q)", res.Counterparts, res.Gap)
	}
	res = Port(c, "@%p1 bra $L1;", Target{Arch: "rdna3"})
	if res.Predicate != "%p1" || res.Predication == nil || len(res.Predication.Counterparts) == 0 {
		t.Errorf("predicated bra: %+v", res)
	}
	res = Port(c, "mov.u32 %r1, %laneid;", Target{Arch: "cdna3"})
	if len(res.Registers) != 1 || res.Registers[0].Name != "%laneid" || amdOf(res.Registers[0].Counterparts)[0] != "v_mbcnt_lo_u32_b32" {
		t.Errorf("mov from %%laneid: %+v", res.Registers)
	}
	res = Port(c, "frobnicate.b32 %r1;", Target{Arch: "cdna3"})
	if !res.Unknown || res.Explained() {
		t.Errorf("unknown instruction: %+v", res)
	}
	res = Port(c, "max.f32 %f1, %f2, %f3;", Target{Arch: "rdna9"})
	if !strings.Contains(res.Gap, "unknown arch") {
		t.Errorf("unknown arch: %+v", res)
	}
}

// TestPortWithGuides checks arch filtering against the real ISA guides.
func TestPortWithGuides(t *testing.T) {
	c := loadProject(t)
	g := loadGuideResolver(t, upstreamDir(t))
	cases := []struct {
		instr, arch string
		amd         []string
		gap         bool
	}{
		{"bar.sync 0;", "cdna3", []string{"s_barrier"}, false},
		{"bar.sync 0;", "rdna4", []string{"s_barrier_signal", "s_barrier_wait"}, false},
		{"add.s32 %r1, %r2, %r3;", "rdna3", []string{"v_add_nc_u32", "s_add_u32"}, false},
		{"add.s32 %r1, %r2, %r3;", "cdna3", []string{"v_add_u32", "s_add_u32"}, false},
		{"ld.global.f32 %f1, [%rd1];", "rdna3", []string{"global_load_b32", "buffer_load_b32"}, false},
		{"ld.global.f32 %f1, [%rd1];", "vega", []string{"global_load_dword", "buffer_load_dword"}, false},
		{"tanh.approx.f32 %f1, %f2;", "rdna3", nil, false},
		{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f2};", "rdna1", nil, true},
		{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f2};", "cdna3", []string{"v_mfma_f32_16x16x16_f16", "v_mfma_f32_32x32x8_f16"}, false},
	}
	for _, tc := range cases {
		res := Port(c, tc.instr, Target{Arch: tc.arch, Resolver: g})
		if tc.amd != nil && !reflect.DeepEqual(amdOf(res.Counterparts), tc.amd) {
			t.Errorf("%s on %s: %v, want %v", tc.instr, tc.arch, amdOf(res.Counterparts), tc.amd)
		}
		if tc.gap != (res.Gap != "") {
			t.Errorf("%s on %s: gap %q, want gap=%v", tc.instr, tc.arch, res.Gap, tc.gap)
		}
	}
	// NaN-propagating max where AMD has no such instruction: the
	// compare-and-select sequence around v_max_f32.
	res := Port(c, "max.NaN.f32 %f3, %f1, %f2;", Target{Arch: "cdna3", Resolver: g})
	if got := amdOf(res.Counterparts); !reflect.DeepEqual(got, []string{"v_max_f32"}) || res.Counterparts[0].Relation != Sequence {
		t.Errorf("max.NaN.f32 on cdna3: %+v", res.Counterparts)
	}
	// bf16 max through f32 where the family has no bf16 max.
	res = Port(c, "max.bf16 %rs1, %rs2, %rs3;", Target{Arch: "cdna3", Resolver: g})
	if len(res.Counterparts) != 1 || res.Counterparts[0].Relation != Sequence || res.Counterparts[0].AMD != "v_max_f32" {
		t.Errorf("max.bf16 on cdna3: %+v", res.Counterparts)
	}
	// tanh on RDNA 3 has no instruction; the exp-based sequence applies.
	res = Port(c, "tanh.approx.f32 %f1, %f2;", Target{Arch: "rdna3", Resolver: g})
	if got := amdOf(res.Counterparts); !reflect.DeepEqual(got, []string{"v_exp_f32"}) || res.Counterparts[0].Relation != Sequence {
		t.Errorf("tanh on rdna3: %+v", res.Counterparts)
	}
	// v_max_f32 steps in a sequence are flagged where the arch renamed them.
	res = Port(c, "abs.s32 %r1, %r2;", Target{Arch: "rdna3", Resolver: g})
	for _, cp := range res.Counterparts {
		if cp.AMD == "v_sub_u32" {
			t.Errorf("abs.s32 on rdna3 offers v_sub_u32, which RDNA 3 lacks")
		}
	}
}

// TestPortKernels ports the hand-written kernels in testdata/kernels: every
// instruction must get a counterpart or an explained gap on every arch.
func TestPortKernels(t *testing.T) {
	c := loadProject(t)
	// With the guides, AMD members are filtered by what each arch really
	// has; without them, by the families the catalogue lists.
	var r Resolver
	if up := testenv.FindUpstream(); up != "" {
		r = loadGuideResolver(t, up)
	}
	kernels, _ := filepath.Glob("testdata/kernels/*.ptx")
	if len(kernels) != 3 {
		t.Fatalf("found %d kernels, want 3", len(kernels))
	}
	for _, k := range kernels {
		for _, arch := range []string{"cdna3", "cdna4", "rdna3", "rdna4", "vega"} {
			rep, err := PortFile(c, k, Target{Arch: arch, Resolver: r})
			if err != nil {
				t.Fatal(err)
			}
			s := rep.Summary
			if s.Instructions < 20 {
				t.Errorf("%s: only %d instructions parsed", k, s.Instructions)
			}
			if s.Unknown != 0 || s.UnresolvedRegisters != 0 {
				for _, res := range rep.Results {
					if !res.Explained() {
						t.Errorf("%s:%d on %s: %q not explained", k, res.Line, arch, res.Text)
					}
				}
			}
			for _, res := range rep.Results {
				if res.Predication != nil && !res.Predication.Explained() {
					t.Errorf("%s:%d: predicate not explained", k, res.Line)
				}
				// A concept that claims the instruction must have a
				// relation for its modifiers.
				if strings.Contains(res.Gap, "but none for") {
					t.Errorf("%s:%d on %s: %q: %s", k, res.Line, arch, res.Text, res.Gap)
				}
			}
			t.Logf("%s on %s: %d instructions, %d ported, %d no counterpart, %d gaps, %d special-register reads", filepath.Base(k), arch, s.Instructions, s.Ported, s.NoCounterpart, s.Gaps, s.Registers)
		}
	}
	if _, err := PortFile(c, kernels[0], Target{Arch: "rdna9", Resolver: r}); err == nil {
		t.Error("PortFile accepted an unknown arch")
	}
	if _, err := PortFile(c, "testdata/kernels/missing.ptx", Target{Arch: "cdna3", Resolver: r}); err == nil {
		t.Error("PortFile accepted a missing file")
	}
}

// TestPortVerdicts: what the assembler rejects is dropped and said so,
// another relation takes its place, sequence steps take the alternative the
// target assembles, and unknown lines are "not verified".
func TestPortVerdicts(t *testing.T) {
	c, err := LoadFiles(map[string][]byte{"w.yaml": []byte(`concepts:
  - id: widget-shuffle
    name: Widget shuffle
    description: d
    ptx: [{mnemonic: wshfl}]
    amd: [{mnemonic: v_wmov_b32}, {mnemonic: v_wperm_b32}]
    relations:
      - {ptx: wshfl, amd: v_wmov_b32, relation: partial, variants: [.bfly], forms: ["v_wmov_b32_dpp v0, v1 row_xmask:1", "v_wmov_b32_dpp v0, v1 quad_perm:[1,0,3,2] // lane ^ 1"], restrictions: ["rows of 16"]}
      - {ptx: wshfl, amd: v_wperm_b32, relation: sequence, variants: [.bfly], sequence: [["v_wcmp vcc, v0", "v_wcmp vcc_lo, v0"], "(then)", "v_wperm_b32 v0, v1"]}
`)})
	if err != nil {
		t.Fatal(err)
	}
	v := NewVerdictTable("test", []string{"gfx942", "gfx1100"})
	v.SetLine("v_wmov_b32_dpp v0, v1 row_xmask:1", "gfx942", "not a valid operand.")
	v.SetLine("v_wmov_b32_dpp v0, v1 row_xmask:1", "gfx1100", "")
	v.SetLine("v_wmov_b32_dpp v0, v1 quad_perm:[1,0,3,2]", "gfx942", "")
	v.SetLine("v_wmov_b32_dpp v0, v1 quad_perm:[1,0,3,2]", "gfx1100", "")
	v.SetLine("v_wcmp vcc, v0", "gfx942", "")
	v.SetLine("v_wcmp vcc, v0", "gfx1100", "operands are not valid for this GPU or mode")
	v.SetLine("v_wcmp vcc_lo, v0", "gfx942", "operands are not valid for this GPU or mode")
	v.SetLine("v_wcmp vcc_lo, v0", "gfx1100", "")
	v.SetLine("v_wperm_b32 v0, v1", "gfx942", "")
	v.SetLine("v_wperm_b32 v0, v1", "gfx1100", "")

	res := Port(c, "wshfl.bfly d, a;", Target{GFX: []string{"gfx942"}, Verdicts: v})
	if len(res.Counterparts) != 2 {
		t.Fatalf("gfx942: %+v", res.Counterparts)
	}
	mov, perm := res.Counterparts[0], res.Counterparts[1]
	if !reflect.DeepEqual(mov.Forms, []string{"v_wmov_b32_dpp v0, v1 quad_perm:[1,0,3,2] // lane ^ 1"}) {
		t.Errorf("gfx942 forms %q: the rejected row_xmask form must be dropped", mov.Forms)
	}
	if chk := mov.Checks[0]; chk.Status != Assembles || len(chk.Rejected) != 1 || !strings.Contains(chk.Rejected[0].Message, "not a valid operand") {
		t.Errorf("gfx942 check %+v: assembles, with the rejected form named", chk)
	}
	if !reflect.DeepEqual(perm.Sequence, []string{"v_wcmp vcc, v0", "(then)", "v_wperm_b32 v0, v1"}) {
		t.Errorf("gfx942 sequence %q", perm.Sequence)
	}
	res = Port(c, "wshfl.bfly d, a;", Target{GFX: []string{"gfx1100"}, Verdicts: v})
	if got := res.Counterparts[1].Sequence[0]; got != "v_wcmp vcc_lo, v0" {
		t.Errorf("gfx1100 takes the wave32 alternative, got %q", got)
	}
	// Both targets: the sequence differs per target and says so.
	res = Port(c, "wshfl.bfly d, a;", Target{GFX: []string{"gfx942", "gfx1100"}, Verdicts: v})
	if chk := res.Counterparts[1].Checks[1]; chk.Target != "gfx1100" || len(chk.Sequence) == 0 || chk.Sequence[0] != "v_wcmp vcc_lo, v0" {
		t.Errorf("per-target sequence: %+v", res.Counterparts[1].Checks)
	}
	// Every form rejected: the counterpart is dropped, the sequence stays.
	v.SetLine("v_wmov_b32_dpp v0, v1 quad_perm:[1,0,3,2]", "gfx942", "not a valid operand.")
	res = Port(c, "wshfl.bfly d, a;", Target{GFX: []string{"gfx942"}, Verdicts: v})
	if got := amdOf(res.Counterparts); !reflect.DeepEqual(got, []string{"v_wperm_b32"}) || len(res.Dropped) != 1 || res.Dropped[0].AMD != "v_wmov_b32" {
		t.Errorf("all forms rejected: counterparts %v, dropped %+v", got, res.Dropped)
	}
	// A target the table knows nothing about: not verified, nothing dropped.
	res = Port(c, "wshfl.bfly d, a;", Target{GFX: []string{"gfx1200"}, Verdicts: v})
	if len(res.Counterparts) != 2 || res.Counterparts[0].Checks[0].Status != NotVerified || res.Counterparts[1].Checks[0].Status != NotVerified {
		t.Errorf("unknown target: %+v", res.Counterparts)
	}
	// No verdicts at all: no checks, every form shown.
	res = Port(c, "wshfl.bfly d, a;", Target{})
	if len(res.Counterparts[0].Checks) != 0 || len(res.Counterparts[0].Forms) != 2 {
		t.Errorf("unverified: %+v", res.Counterparts[0])
	}
}
