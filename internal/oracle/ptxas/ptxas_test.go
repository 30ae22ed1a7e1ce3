package ptxas_test

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

func session(t *testing.T) *ptxas.Session {
	t.Helper()
	return ptxas.NewSession(testenv.PTXAS(t), t.TempDir())
}

func TestTargets(t *testing.T) {
	s := session(t)
	infos, err := s.Targets(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	min := map[string]string{}
	for _, i := range infos {
		min[i.Target] = i.MinPTX
		t.Logf("%s: ptxas %s, PTX %s..%s", i.Target, i.Tool, i.MinPTX, i.Versions[len(i.Versions)-1])
	}
	// NVIDIA's release notes: sm_90 came with PTX 7.8, sm_80 with 7.0,
	// sm_100 with 8.6, sm_75 with 6.3.
	for target, want := range map[string]string{"sm_75": "6.3", "sm_80": "7.0", "sm_90": "7.8", "sm_100": "8.6"} {
		if min[target] != want {
			t.Errorf("%s: min PTX %q, want %s", target, min[target], want)
		}
	}
	if _, ok := min["sm_50"]; !ok {
		t.Errorf("sm_50 missing: the CUDA 12.9 ptxas (nvidia-cuda-nvcc-cu12) should provide it")
	}
}

func unit(body string) ptxas.Unit {
	return ptxas.Unit{Entry: ".visible .entry $U()\n{\n" + body + "\nret;\n}"}
}

func TestAssembleMapsMessagesToUnits(t *testing.T) {
	s := session(t)
	units := []ptxas.Unit{
		unit(".reg .f32 d, a, b;\nmax.NaN.f32 d, a, b;"),
		unit(".reg .f32 d, a, b;\nmax.f32 d, a, b;"),
		unit(".reg .f32 d, a, b;\nmax.f32 d, a b;"), // a syntax error: fatal
		unit(".reg .f32 d, a, b;\nbogus.f32 d, a, b;"),
		unit(".reg .f32 d, a, b;\nmin.f32 d, a, b;"),
	}
	res, err := s.Assemble(context.Background(), "9.1", "sm_75", units)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		ok    bool
		error string
	}{
		{false, "requires .target sm_80"},
		{true, ""},
		{false, "syntax error"},
		{false, "Not a name of any known instruction"},
		{true, ""},
	}
	for i, w := range want {
		if res[i].OK != w.ok || !strings.Contains(res[i].Message(), w.error) {
			t.Errorf("unit %d: %+v, want ok=%v error containing %q", i, res[i], w.ok, w.error)
		}
	}
	if !res[2].Fatal {
		t.Errorf("unit 2: the syntax error should be marked fatal")
	}
	st := s.Stats()
	// Again: every answer from the cache, no process.
	if _, err := s.Assemble(context.Background(), "9.1", "sm_75", units); err != nil {
		t.Fatal(err)
	}
	if s2 := s.Stats(); s2.Processes != st.Processes || s2.CacheHits != st.CacheHits+int64(len(units)) {
		t.Errorf("second run: %+v after %+v, want no process and %d hits", s2, st, len(units))
	}
}

func TestDisassembleSplitsFunctions(t *testing.T) {
	s := session(t)
	if s.Tools.NVDisasm == "" {
		t.Skip("nvdisasm not installed: skipping the SASS listing test")
	}
	io := ".visible .entry $U(.param .u64 io)\n{\n.reg .b64 p;\n.reg .b32 a, b, d;\nld.param.u64 p, [io];\nld.global.b32 a, [p+4];\nld.global.b32 b, [p+8];\n"
	units := []ptxas.Unit{
		{Entry: io + "max.NaN.f32 d, a, b;\nst.global.b32 [p], d;\nret;\n}"},
		{Entry: io + "min.f32 d, a, b;\nst.global.b32 [p], d;\nret;\n}"},
		{Entry: io + "max.NaN.f32 d, a b;\nret;\n}"}, // rejected: no listing, but the others still compile
		{Entry: io + "max.NaN.f32 d, a, b;\nst.global.b32 [p+4], d;\nret;\n}"},
	}
	s.ParseOnly = true // the grid's mode; listings still generate code
	res, err := s.Disassemble(context.Background(), "9.1", "sm_90", units)
	if err != nil {
		t.Fatal(err)
	}
	has := func(l ptxas.Listing, op string) bool {
		for _, x := range l.Lines {
			if strings.HasPrefix(x.Text, op) {
				return true
			}
		}
		return false
	}
	if !res[0].OK || !has(res[0], "FMNMX.NAN") {
		t.Errorf("max.NaN.f32 on sm_90: %+v, want an FMNMX.NAN", res[0])
	}
	if !res[1].OK || !has(res[1], "FMNMX") || has(res[1], "FMNMX.NAN") {
		t.Errorf("min.f32 on sm_90: %+v, want a plain FMNMX", res[1])
	}
	if res[2].OK || res[2].Error == "" {
		t.Errorf("a rejected unit: %+v, want ptxas's error", res[2])
	}
	if !res[3].OK || !has(res[3], "FMNMX.NAN") {
		t.Errorf("the unit after a rejected one: %+v, want its listing", res[3])
	}
	for _, l := range res[0].Lines {
		if l.Control == "" || !strings.HasPrefix(l.Control, "S") {
			t.Errorf("%q: control %q, want the decoded stall/barrier bits", l.Text, l.Control)
		}
	}
}

// TestDisassembleIndependentOfBatch: a kernel's listing is the same alone
// in its cubin and among others — labels and the internal functions ptxas
// links in are numbered per kernel, the kernel is named as if alone, and a
// kernel that reads its module's symbols from the constant bank has them
// moved to the slots they have alone (not compiled again alone) — so a
// build's SASS does not depend on what the cache held.
func TestDisassembleIndependentOfBatch(t *testing.T) {
	tools := testenv.PTXAS(t)
	if tools.NVDisasm == "" {
		t.Skip("nvdisasm not installed: skipping the SASS listing test")
	}
	io := ".visible .entry $U(.param .u64 io)\n{\n.reg .b64 p;\n.reg .b32 a, b, d;\n.reg .f64 x, y, z;\n.reg .pred q;\nld.param.u64 p, [io];\nld.global.b32 a, [p+4];\nld.global.b32 b, [p+8];\n"
	loop := io + "L1:\nadd.s32 a, a, b;\nsetp.lt.s32 q, a, 100;\n@q bra L1;\nst.global.b32 [p], a;\nret;\n}"
	div := io + "ld.global.f64 x, [p+16];\nld.global.f64 y, [p+24];\ndiv.rn.f64 z, x, y;\nst.global.f64 [p], z;\nret;\n}"
	global := ptxas.Unit{Module: ".global .align 4 .b32 $U_g[4];\n.global .align 4 .b32 $U_h[4];",
		Entry: io + "mov.u64 p, $U_h;\nld.global.b32 a, [p];\nmov.u64 p, $U_g;\nst.global.b32 [p], a;\nret;\n}"}
	// A symbol declared first but whose address is never loaded, and one
	// read at an offset from its address.
	unused := ptxas.Unit{Module: ".global .align 4 .b32 $U_a[4];\n.global .align 4 .b32 $U_b[4];",
		Entry: io + "mov.u64 p, $U_b;\nld.global.b32 a, [p+8];\nst.global.b32 [p], a;\nret;\n}"}
	shifted := ptxas.Unit{Module: ".global .align 4 .b32 $U_c[8];",
		Entry: io + "mov.u64 p, $U_c+12;\nst.global.b32 [p], a;\nret;\n}"}
	// A .const variable: bank 3, whose offsets depend on the batch too.
	constant := ptxas.Unit{Module: ".const .align 4 .b32 $U_k[4];", Entry: io + "ld.const.b32 a, [$U_k+4];\nst.global.b32 [p], a;\nret;\n}"}
	// A 32-bit address of a 64-bit module's variable: a warning in a
	// batch, fatal alone.
	addr32 := ptxas.Unit{Entry: io + ".global .b32 $U_v[4];\nmov.b32 d, $U_v;\nst.global.b32 [p], d;\nret;\n}"}
	want := []ptxas.Unit{{Entry: loop}, {Entry: div}, global, unused, shifted, constant, addr32}
	filler := []ptxas.Unit{
		{Entry: io + "L2:\nsub.s32 a, a, b;\nsetp.gt.s32 q, a, 7;\n@q bra L2;\nst.global.b32 [p], a;\nret;\n}"},
		{Entry: io + "ld.global.f64 x, [p+32];\ndiv.rn.f64 z, y, x;\nst.global.f64 [p], z;\nret;\n}"},
		{Module: ".global .align 8 .b64 $U_k[8];", Entry: io + "mov.u64 p, $U_k;\nst.global.b32 [p+12], a;\nret;\n}"},
		{Module: ".const .align 8 .b64 $U_c[4];", Entry: io + "ld.const.b32 a, [$U_c+8];\nst.global.b32 [p], a;\nret;\n}"},
	}
	ctx := context.Background()
	for _, target := range []string{"sm_80", "sm_90", "sm_100"} {
		var alone []ptxas.Listing
		for _, u := range want {
			res, err := ptxas.NewSession(tools, "").Disassemble(ctx, ptxFor(target), target, []ptxas.Unit{u})
			if err != nil {
				t.Fatal(err)
			}
			alone = append(alone, res[0])
		}
		// The kernels that read module symbols are relocated, not
		// compiled and listed again alone: one process for the batch.
		batch := []ptxas.Unit{filler[0], filler[1], want[0], filler[2], want[1], filler[0], want[2], want[4]}
		checkBatch(t, tools, target, batch, map[int]ptxas.Listing{2: alone[0], 4: alone[1], 6: alone[2], 7: alone[4]}, 1)
		// A variable whose address nothing loads leaves a slot no read
		// names: the bank's readers are listed alone.
		checkBatch(t, tools, target, []ptxas.Unit{filler[2], want[3]}, map[int]ptxas.Listing{1: alone[3]}, 0)
		checkBatch(t, tools, target, []ptxas.Unit{filler[3], want[5]}, map[int]ptxas.Listing{1: alone[5]}, 0)
		if alone[6].OK {
			t.Errorf("%s: a 32-bit address of a variable assembled alone; the test needs a unit that does not", target)
		}
		checkBatch(t, tools, target, []ptxas.Unit{filler[2], want[6], filler[0]}, map[int]ptxas.Listing{1: alone[6]}, 0)
	}
}

// ptxFor is a PTX ISA version the target allows (sm_100 needs 8.6); on
// sm_100 the 64-bit loads of the module bank are LDCU, whose offset field
// counts 8-byte units.
func ptxFor(target string) string {
	if target == "sm_100" {
		return "8.6"
	}
	return "8.0"
}

// checkBatch lists batch on target and holds the listings at the indexes
// of want to theirs; processes, when not 0, is the ptxas processes the
// session may run.
func checkBatch(t *testing.T, tools *ptxas.Tools, target string, batch []ptxas.Unit, want map[int]ptxas.Listing, processes int64) {
	t.Helper()
	s := ptxas.NewSession(tools, "")
	res, err := s.Disassemble(context.Background(), ptxFor(target), target, batch)
	if err != nil {
		t.Fatal(err)
	}
	// (GPUISA_VERIFY_BANK_RELOCATION lists relocated kernels alone too.)
	if n := s.Stats().Processes; processes > 0 && n != processes && os.Getenv("GPUISA_VERIFY_BANK_RELOCATION") == "" {
		t.Errorf("%s: %d ptxas processes for one batch, want %d", target, n, processes)
	}
	for i, a := range want {
		b := res[i]
		if !a.OK && !b.OK && a.Error == b.Error {
			continue // the same failure alone and batched
		}
		if !a.OK || !b.OK || len(a.Lines) != len(b.Lines) {
			t.Errorf("%s unit %d: alone %v (%d lines), batched %v (%d lines)", target, i, a.OK, len(a.Lines), b.OK, len(b.Lines))
			continue
		}
		for j := range a.Lines {
			if a.Lines[j] != b.Lines[j] {
				t.Errorf("%s unit %d line %d: alone %+v, batched %+v", target, i, j, a.Lines[j], b.Lines[j])
			}
		}
	}
}

// TestDisassembleFindsFailingUnitsWithPTXASAlone: a unit whose code
// generation fails takes its batch down with it (cvta.const.u32, a 32-bit
// address, is fatal for the whole module on sm_90 and newer). ptxas alone
// finds it and the rest are compiled and listed once, as they list alone;
// on a later target the unit is batched apart from the start, so the rest
// compile at once.
func TestDisassembleFindsFailingUnitsWithPTXASAlone(t *testing.T) {
	tools := testenv.PTXAS(t)
	if tools.NVDisasm == "" {
		t.Skip("nvdisasm not installed: skipping the SASS listing test")
	}
	io := ".visible .entry $U(.param .u64 io)\n{\n.reg .b64 p;\n.reg .b32 a, b, d;\nld.param.u64 p, [io];\nld.global.b32 a, [p+4];\nld.global.b32 b, [p+8];\n"
	var batch []ptxas.Unit
	for i := range 8 {
		batch = append(batch, ptxas.Unit{Entry: io + fmt.Sprintf("add.s32 d, a, %d;\nst.global.b32 [p], d;\nret;\n}", i+1)})
	}
	bad := ptxas.Unit{Entry: io + "cvta.const.u32 d, a;\nst.global.b32 [p], d;\nret;\n}"}
	batch = append(batch[:5], append([]ptxas.Unit{bad}, batch[5:]...)...)
	ctx := context.Background()
	s := ptxas.NewSession(tools, "")
	for _, target := range []string{"sm_90", "sm_100"} {
		before := s.Stats().Processes
		res, err := s.Disassemble(ctx, ptxFor(target), target, batch)
		if err != nil {
			t.Fatal(err)
		}
		for i, u := range batch {
			alone, err := ptxas.NewSession(tools, "").Disassemble(ctx, ptxFor(target), target, []ptxas.Unit{u})
			if err != nil {
				t.Fatal(err)
			}
			a, b := alone[0], res[i]
			if a.OK != b.OK || a.Error != b.Error || len(a.Lines) != len(b.Lines) {
				t.Errorf("%s unit %d: alone %v %q (%d lines), batched %v %q (%d lines)", target, i, a.OK, a.Error, len(a.Lines), b.OK, b.Error, len(b.Lines))
			}
		}
		if res[5].OK || res[5].Error == "" {
			t.Errorf("%s: the 32-bit address: %+v, want ptxas's failure", target, res[5])
		}
		n := s.Stats().Processes - before
		switch {
		case target == "sm_90" && n > 8:
			t.Errorf("%s: %d ptxas processes, want at most 8 (the batch, a bisection of its halves, the rest)", target, n)
		case target == "sm_100" && n != 2:
			t.Errorf("%s: %d ptxas processes, want 2 (the unit that failed on sm_90 alone, the rest)", target, n)
		}
	}
}

// TestDisassembleSameWhateverFailedBefore: what failed on an earlier
// target does not change a later target's batches. %clusterid needs sm_90:
// the unit fails on sm_80 and compiles on sm_90, where its batch must be
// the one a session that never saw sm_80 makes, so the listings are the
// same whichever target a build's goroutines finished first (a unit's
// listing can depend on its batch: the constant bank is the module's, and
// cvta.const of a variable adds its offset there as an immediate).
func TestDisassembleSameWhateverFailedBefore(t *testing.T) {
	tools := testenv.PTXAS(t)
	if tools.NVDisasm == "" {
		t.Skip("nvdisasm not installed: skipping the SASS listing test")
	}
	io := ".visible .entry $U(.param .u64 io)\n{\n.reg .b64 p;\n.reg .b32 a, b, d;\nld.param.u64 p, [io];\nld.global.b32 a, [p+4];\n"
	// The unit that fails on sm_80 declares a .const variable ahead of the
	// others'.
	batch := []ptxas.Unit{
		{Module: ".const .align 4 .b32 $U_j[8];", Entry: io + "mov.u32 d, %clusterid.x;\nld.const.b32 a, [$U_j];\nadd.s32 d, d, a;\nst.global.b32 [p], d;\nret;\n}"},
		{Module: ".const .align 4 .b32 $U_k[4];", Entry: io + "cvta.const.u64 p, $U_k+4;\nst.global.b64 [p], p;\nret;\n}"},
		{Module: ".const .align 4 .b32 $U_k[4];", Entry: io + "cvta.const.u64 p, $U_k+8;\nst.global.b64 [p], p;\nret;\n}"},
	}
	ctx := context.Background()
	seen := ptxas.NewSession(tools, "")
	if res, err := seen.Disassemble(ctx, "8.0", "sm_80", batch); err != nil {
		t.Fatal(err)
	} else if res[0].OK {
		t.Fatal("the clusterid unit compiled on sm_80; the test needs a unit that fails there")
	}
	got, err := seen.Disassemble(ctx, "8.0", "sm_90", batch)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ptxas.NewSession(tools, "").Disassemble(ctx, "8.0", "sm_90", batch)
	if err != nil {
		t.Fatal(err)
	}
	if !want[0].OK {
		t.Fatalf("%%clusterid on sm_90: %s; the test needs a unit that compiles there", want[0].Error)
	}
	for i := range batch {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("unit %d on sm_90 after sm_80's failure:\n%+v\nwithout it:\n%+v", i, got[i], want[i])
		}
	}
}
