package semptx

import (
	"math"
	"testing"
)

func f32(x float32) uint64 { return uint64(math.Float32bits(x)) }

func TestModels(t *testing.T) {
	nan, snan := uint64(0x7fc00000), uint64(0x7fa00000)
	for _, c := range []struct {
		mnemonic, variant string
		args              []uint64
		want              uint64
	}{
		{"max", ".f32", []uint64{nan, f32(1)}, f32(1)},
		{"max", ".f32", []uint64{snan, f32(1)}, f32(1)},
		{"max", ".f32", []uint64{f32(1), nan}, f32(1)},
		{"max", ".f32", []uint64{nan, snan}, 0x7fffffff},
		{"max", ".f32", []uint64{0x80000000, 0}, 0},
		{"min", ".f32", []uint64{0, 0x80000000}, 0x80000000},
		{"max", ".NaN.f32", []uint64{nan, f32(1)}, 0x7fffffff},
		{"max", ".f16", []uint64{0x7e00, 0x3c00}, 0x3c00},
		{"add", ".f32", []uint64{f32(1), f32(2)}, f32(3)},
		{"fma", ".f32", []uint64{f32(2), f32(3), f32(1)}, f32(7)},
		{"max", ".s32", []uint64{0xffffffff, 1}, 1},
		{"max", ".u32", []uint64{0xffffffff, 1}, 0xffffffff},
		{"mul", ".hi.s32", []uint64{0xffffffff, 1}, 0xffffffff},
		{"mul", ".hi.u32", []uint64{0xffffffff, 0xffffffff}, 0xfffffffe},
		{"mul", ".hi.s64", []uint64{math.MaxUint64, 2}, math.MaxUint64},
		{"shl", ".b32", []uint64{1, 33}, 0},
		{"shl", ".b32", []uint64{1, 31}, 0x80000000},
		{"shr", ".s32", []uint64{0xfffffff8, 40}, 0xffffffff},
		{"shr", ".u32", []uint64{0x80000000, 32}, 0},
		{"setp", ".lt.f32", []uint64{nan, f32(1)}, 0},
		{"setp", ".ltu.f32", []uint64{nan, f32(1)}, 1},
		{"setp", ".ne.f32", []uint64{nan, f32(1)}, 0},
		{"setp", ".neu.f32", []uint64{nan, f32(1)}, 1},
		{"setp", ".eq.f32", []uint64{0x80000000, 0}, 1},
	} {
		m := Lookup(c.mnemonic, c.variant)
		if m == nil {
			t.Errorf("no model %s%s", c.mnemonic, c.variant)
			continue
		}
		if got := m.Eval(c.args); got != c.want {
			t.Errorf("%s%s(%#x) = %#x, want %#x", c.mnemonic, c.variant, c.args, got, c.want)
		}
	}
	for _, m := range Models() {
		if m.From == "" || m.Eval == nil || len(m.Srcs) == 0 {
			t.Errorf("model %s%s is incomplete", m.Mnemonic, m.Variant)
		}
	}
}
