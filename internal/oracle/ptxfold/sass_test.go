package ptxfold

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/ptx/semptx"
)

// listing writes hand-made SASS lines; "#imm" after a line gives the
// 32-bit immediate its (made-up) encoding carries in bits 32-63.
func listing(src string) []ptxas.SASSLine {
	var out []ptxas.SASSLine
	for _, l := range strings.Split(strings.TrimSpace(src), "\n") {
		text, imm, has := strings.Cut(strings.TrimSpace(l), " #")
		line := ptxas.SASSLine{Text: text, Encoding: "0x0000000000000000 0x0"}
		if has {
			var v uint32
			fmt.Sscanf(imm, "%x", &v)
			line.Encoding = fmt.Sprintf("0x%08x00000000 0x0", v)
		}
		out = append(out, line)
	}
	return out
}

func TestReadStores(t *testing.T) {
	im := ReadStores(listing(`
LDC R1, c[0x0][0x28]
LDC.64 R2, c[0x0][0x210]
MOV R5, 0x7fc00000 #7fc00000
IMAD.MOV.U32 R4, RZ, RZ, -0x80000000 #80000000
HFMA2.MMA R6, -RZ, RZ, 1.875, 0 #3f800000
CS2R R8, SRZ
MOV R10, 0x3c00 #3c00
PRMT R11, R10, 0x7610, R11
FFMA R12, R12, 2, R12
MOV R13, R6
IMAD.WIDE.U32 R14, R6, 3, RZ
@P0 MOV R16, 0x1 #1
HFMA2.MMA R17, -RZ, RZ, +QNAN , +QNAN #7fffffff
ULDC.64 UR4, c[0x0][0x208]
STG.E.64 desc[UR4][R2.64], R4
STG.E desc[UR4][R2.64+0x8], R6
STG.E.64 desc[UR4][R2.64+0x10], R8
STG.E.U16 desc[UR4][R2.64+0x18], R11
STG.E desc[UR4][R2.64+0x20], R12
STG.E.reuse desc[UR4][R2.64+0x28], R13
STG.E desc[UR4][R2.64+0x30], R15
STG.E desc[UR4][R2.64+0x38], R16
STG.E desc[UR4][R2.64+0x40], RZ
STG.E desc[UR4][R12.64+0x48], R6
STG.E desc[UR4][R2.64+0x50], R17
`))
	for _, c := range []struct {
		off, width int
		want       uint64
		folded     bool
	}{
		{0, 4, 0x80000000, true}, {4, 4, 0x7fc00000, true}, {0, 8, 0x7fc0000080000000, true},
		{8, 4, 0x3f800000, true}, {0x10, 8, 0, true}, {0x18, 2, 0x3c00, true},
		{0x20, 4, 0, false},         // FFMA: not folded
		{0x28, 4, 0x3f800000, true}, // a copy of R6
		{0x30, 4, 0, false},         // the high half of a .WIDE result
		{0x38, 4, 0, false},         // a guarded move
		{0x40, 4, 0, true},          // RZ
		{0x48, 4, 0, false},         // a store not relative to the parameter
		{0x50, 4, 0x7fffffff, true}, // NaN halves, as ptxas makes integer constants
	} {
		v, why := im.Value(c.off, c.width)
		if (why == "") != c.folded || c.folded && v != c.want {
			t.Errorf("offset %#x: got %#x (%q), want %#x folded=%v", c.off, v, why, c.want, c.folded)
		}
	}
}

// TestReadStoresWordParams: sm_80 loads the pointer one word at a time
// from the parameter bank.
func TestReadStoresWordParams(t *testing.T) {
	im := ReadStores(listing(`
IMAD.MOV.U32 R2, RZ, RZ, c[0x0][0x160]
MOV R3, c[0x0][0x164]
IMAD.MOV.U32 R4, RZ, RZ, 0x1 #1
STG.E [R2.64+0x8], R4
MOV R7, c[0x0][0x168]
MOV R6, c[0x0][0x164]
STG.E [R6.64], R4
`))
	if v, why := im.Value(8, 4); why != "" || v != 1 {
		t.Errorf("got %#x %q, want 1", v, why)
	}
	if _, why := im.Value(0, 4); why == "" {
		t.Error("a store through misaligned parameter words was read")
	}
}

func TestTolerated(t *testing.T) {
	rows, err := ReadTolerances(strings.NewReader("shl.*\tshift-amount-wraps\tthe folder's defect\nadd.f32\ttie-in-effective-subtraction\tthe folder's defect\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := func(x float32) uint64 { return uint64(math.Float32bits(x)) }
	shl, add := semptx.Lookup("shl", ".b16"), semptx.Lookup("add", ".f32")
	for _, c := range []struct {
		r    Result
		want bool
	}{
		{Result{Case: Case{Model: shl, Inputs: []uint64{7, 0x80000000}}, Folded: true, Got: 7}, true},
		{Result{Case: Case{Model: shl, Inputs: []uint64{7, 0x10001}}, Folded: true, Got: 14}, true},
		{Result{Case: Case{Model: shl, Inputs: []uint64{7, 0x80000000}}, Folded: true, Got: 1}, false},
		{Result{Case: Case{Model: shl, Inputs: []uint64{7, 0x8000}}, Folded: true, Got: 7}, false},
		{Result{Case: Case{Model: add, Inputs: []uint64{f(16777215), f(-1.5)}}, Folded: true, Got: f(16777213)}, true},
		{Result{Case: Case{Model: add, Inputs: []uint64{f(3), f(-0x1p-23)}}, Folded: true, Got: f(3 - 0x1p-22)}, true},
		// Not a tie (the exact value is representable), and a same-sign
		// tie: not in the class.
		{Result{Case: Case{Model: add, Inputs: []uint64{f(8388608), f(-0.5)}}, Folded: true, Got: f(8388607)}, false},
		{Result{Case: Case{Model: add, Inputs: []uint64{f(16777213), f(0.5)}}, Folded: true, Got: f(16777213)}, false},
	} {
		if got := Tolerated(rows, c.r) != nil; got != c.want {
			t.Errorf("%s%s %x -> %#x: tolerated %v, want %v", c.r.Model.Mnemonic, c.r.Model.Variant, c.r.Inputs, c.r.Got, got, c.want)
		}
	}
	if _, err := ReadTolerances(strings.NewReader("add.f32\tno-such-class\twhy\n")); err == nil {
		t.Error("an unknown class was accepted")
	}
}

// TestGenerate: every model gets kernels, each case a slot of its own.
func TestGenerate(t *testing.T) {
	k, err := Generate(semptx.Models(), Options{PerModel: 10, PerUnit: 4})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	slots := map[[2]int]bool{}
	for _, c := range k.Cases {
		seen[c.Model.Mnemonic+c.Model.Variant] = true
		s := [2]int{c.Unit, c.Offset}
		if slots[s] {
			t.Fatalf("two cases share unit %d offset %d", c.Unit, c.Offset)
		}
		slots[s] = true
	}
	if len(seen) != len(semptx.Models()) {
		t.Errorf("%d models have cases, want %d", len(seen), len(semptx.Models()))
	}
	e := k.Units[0].Entry
	for _, want := range []string{".entry $U(.param .u64 out)", "st.global.b", "ret;"} {
		if !strings.Contains(e, want) {
			t.Errorf("kernel lacks %q:\n%s", want, e)
		}
	}
}
