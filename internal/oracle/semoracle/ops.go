package semoracle

import (
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
)

// Src is one source operand of an oracle operation: the format its
// corpus is drawn from and how it is written in IR.
type Src struct {
	IR    string           // "float", "half", "double", "i32", "i16"
	Float *sem.FloatFormat // nil for integers
	Width int              // integer width
	// Extra are values added to the format's specials (ldexp exponents,
	// class masks).
	Extra []uint64
}

// Op pairs AMD instructions with the LLVM IR that computes the same
// thing, for the operations LLVM's constant folder folds.
type Op struct {
	Group string   // "min/max", "fma", "conversion", ...
	Names []string // instruction names; a family is checked on those it has
	Srcs  []Src
	Ret   string // IR type of the result
	// Body computes %r from the constants {0}, {1}, {2} (typed, as IR
	// operands).
	Body string
	// Result reads the AMD result to compare: "D0" (its low bits, the
	// return type's width), "lanemask" (D0's bit for lane 0: a VOPC).
	Result string
}

var (
	f16 = Src{IR: "half", Float: &sem.F16}
	f32 = Src{IR: "float", Float: &sem.F32}
	f64 = Src{IR: "double", Float: &sem.F64}
	i16 = Src{IR: "i16", Width: 16}
	i32 = Src{IR: "i32", Width: 32}
	// exponent is an ldexp scale: the integer specials and the exponents
	// where f16, f32 and f64 overflow and underflow.
	exponent = Src{IR: "i32", Width: 32, Extra: signed32(-2100, -1100, -1074, -1022, -300, -160, -150, -149, -126, -25, -24, -14, -2, -1,
		15, 16, 30, 31, 127, 128, 129, 150, 300, 1023, 1024, 1100, 2100)}
	// classMask is V_CMP_CLASS's S1: each of the ten class bits alone,
	// and combinations.
	classMask = Src{IR: "i32", Width: 32, Extra: []uint64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 0x3ff, 0x3, 0x204, 0x108, 0x90, 0x60}}
)

func signed32(vs ...int64) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = uint64(uint32(int32(v)))
	}
	return out
}

// floatOps are generated per format: instruction suffix, IR type, source.
var formats = []struct {
	suffix string
	ir     string
	src    Src
}{{"f16", "half", f16}, {"f32", "float", f32}, {"f64", "double", f64}}

func names(pattern string, suffix string) []string {
	var out []string
	for _, p := range strings.Split(pattern, ",") {
		out = append(out, strings.ReplaceAll(strings.TrimSpace(p), "F", suffix))
	}
	return out
}

// Ops is the table of oracle operations.
func Ops() []Op {
	var ops []Op
	for _, f := range formats {
		ir, s := f.ir, f.src
		bin := func(group, pattern, body string) {
			ops = append(ops, Op{Group: group, Names: names(pattern, f.suffix), Srcs: []Src{s, s}, Ret: ir, Body: body, Result: "D0"})
		}
		un := func(group, pattern, body string) {
			ops = append(ops, Op{Group: group, Names: names(pattern, f.suffix), Srcs: []Src{s}, Ret: ir, Body: body, Result: "D0"})
		}
		bin("arithmetic", "v_add_F", "%r = fadd {0}, {1v}")
		bin("arithmetic", "v_sub_F", "%r = fsub {0}, {1v}")
		bin("arithmetic", "v_subrev_F", "%r = fsub {1}, {0v}")
		bin("arithmetic", "v_mul_F", "%r = fmul {0}, {1v}")
		ops = append(ops, Op{Group: "fma", Names: names("v_fma_F", f.suffix), Srcs: []Src{s, s, s}, Ret: ir,
			Body: "%r = call " + ir + " @llvm.fma." + f.suffix + "({0}, {1}, {2})", Result: "D0"})
		bin("min/max", "v_max_num_F", "%r = call "+ir+" @llvm.maximumnum."+f.suffix+"({0}, {1})")
		bin("min/max", "v_min_num_F", "%r = call "+ir+" @llvm.minimumnum."+f.suffix+"({0}, {1})")
		bin("min/max", "v_max_F", "%r = call "+ir+" @llvm.maxnum."+f.suffix+"({0}, {1})")
		bin("min/max", "v_min_F", "%r = call "+ir+" @llvm.minnum."+f.suffix+"({0}, {1})")
		bin("min/max", "v_maximum_F", "%r = call "+ir+" @llvm.maximum."+f.suffix+"({0}, {1})")
		bin("min/max", "v_minimum_F", "%r = call "+ir+" @llvm.minimum."+f.suffix+"({0}, {1})")
		un("rounding", "v_trunc_F", "%r = call "+ir+" @llvm.trunc."+f.suffix+"({0})")
		un("rounding", "v_floor_F", "%r = call "+ir+" @llvm.floor."+f.suffix+"({0})")
		un("rounding", "v_ceil_F", "%r = call "+ir+" @llvm.ceil."+f.suffix+"({0})")
		un("rounding", "v_rndne_F", "%r = call "+ir+" @llvm.roundeven."+f.suffix+"({0})")
		un("amdgcn", "v_fract_F", "%r = call "+ir+" @llvm.amdgcn.fract."+f.suffix+"({0})")
		un("amdgcn", "v_rcp_F", "%r = call "+ir+" @llvm.amdgcn.rcp."+f.suffix+"({0})")
		un("amdgcn", "v_frexp_mant_F", "%r = call "+ir+" @llvm.amdgcn.frexp.mant."+f.suffix+"({0})")
		un("sqrt", "v_sqrt_F", "%r = call "+ir+" @llvm.sqrt."+f.suffix+"({0})")
		ldexpInt := "i32"
		if f.suffix == "f16" {
			ldexpInt = "i16"
		}
		exp := exponent
		exp.IR, exp.Width = ldexpInt, map[string]int{"i16": 16, "i32": 32}[ldexpInt]
		ops = append(ops, Op{Group: "amdgcn", Names: names("v_ldexp_F", f.suffix), Srcs: []Src{s, exp}, Ret: ir,
			Body: "%r = call " + ir + " @llvm.ldexp." + f.suffix + "." + ldexpInt + "({0}, {1})", Result: "D0"})
		ops = append(ops, Op{Group: "amdgcn", Names: names("v_cmp_class_F", f.suffix), Srcs: []Src{s, classMask}, Ret: "i1",
			Body: "%r = call i1 @llvm.amdgcn.class." + f.suffix + "({0}, {1})", Result: "lanemask"})
		if f.suffix != "f64" {
			ops = append(ops, Op{Group: "min/max", Names: names("v_med3_F, v_med3_num_F", f.suffix), Srcs: []Src{s, s, s}, Ret: ir,
				Body: "%r = call " + ir + " @llvm.amdgcn.fmed3." + f.suffix + "({0}, {1}, {2})", Result: "D0"})
		}
	}
	ops = append(ops,
		Op{Group: "amdgcn", Names: []string{"v_frexp_exp_i32_f32"}, Srcs: []Src{f32}, Ret: "i32",
			Body: "%r = call i32 @llvm.amdgcn.frexp.exp.i32.f32({0})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_frexp_exp_i32_f64"}, Srcs: []Src{f64}, Ret: "i32",
			Body: "%r = call i32 @llvm.amdgcn.frexp.exp.i32.f64({0})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_frexp_exp_i16_f16"}, Srcs: []Src{f16}, Ret: "i16",
			Body: "%r = call i16 @llvm.amdgcn.frexp.exp.i16.f16({0})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_cvt_pk_rtz_f16_f32", "v_cvt_pkrtz_f16_f32"}, Srcs: []Src{f32, f32}, Ret: "<2 x half>",
			Body: "%r = call <2 x half> @llvm.amdgcn.cvt.pkrtz({0}, {1})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_cubeid_f32"}, Srcs: []Src{f32, f32, f32}, Ret: "float",
			Body: "%r = call float @llvm.amdgcn.cubeid({0}, {1}, {2})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_cubema_f32"}, Srcs: []Src{f32, f32, f32}, Ret: "float",
			Body: "%r = call float @llvm.amdgcn.cubema({0}, {1}, {2})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_cubesc_f32"}, Srcs: []Src{f32, f32, f32}, Ret: "float",
			Body: "%r = call float @llvm.amdgcn.cubesc({0}, {1}, {2})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_cubetc_f32"}, Srcs: []Src{f32, f32, f32}, Ret: "float",
			Body: "%r = call float @llvm.amdgcn.cubetc({0}, {1}, {2})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_mul_legacy_f32", "v_mul_dx9_zero_f32"}, Srcs: []Src{f32, f32}, Ret: "float",
			Body: "%r = call float @llvm.amdgcn.fmul.legacy({0}, {1})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_fma_legacy_f32", "v_fma_dx9_zero_f32"}, Srcs: []Src{f32, f32, f32}, Ret: "float",
			Body: "%r = call float @llvm.amdgcn.fma.legacy({0}, {1}, {2})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_trig_preop_f64"}, Srcs: []Src{f64, {IR: "i32", Width: 32, Extra: []uint64{0, 1, 2, 3, 4, 5, 10, 20, 21, 22, 31}}}, Ret: "double",
			Body: "%r = call double @llvm.amdgcn.trig.preop.f64({0}, {1})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_perm_b32"}, Srcs: []Src{i32, i32, {IR: "i32", Width: 32, Extra: []uint64{0x03020100, 0x07060504, 0x0c0c0c0c, 0x0d0e0f0b, 0x08090a0b, 0x0c0d0e0f, 0x01000706}}}, Ret: "i32",
			Body: "%r = call i32 @llvm.amdgcn.perm({0}, {1}, {2})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_bfe_u32"}, Srcs: []Src{i32, i32, i32}, Ret: "i32",
			Body: "%r = call i32 @llvm.amdgcn.ubfe.i32({0}, {1}, {2})", Result: "D0"},
		Op{Group: "amdgcn", Names: []string{"v_bfe_i32"}, Srcs: []Src{i32, i32, i32}, Ret: "i32",
			Body: "%r = call i32 @llvm.amdgcn.sbfe.i32({0}, {1}, {2})", Result: "D0"},
		// Conversions.
		Op{Group: "conversion", Names: []string{"v_cvt_f32_f16"}, Srcs: []Src{f16}, Ret: "float", Body: "%r = fpext {0} to float", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f16_f32"}, Srcs: []Src{f32}, Ret: "half", Body: "%r = fptrunc {0} to half", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f64_f32"}, Srcs: []Src{f32}, Ret: "double", Body: "%r = fpext {0} to double", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f32_f64"}, Srcs: []Src{f64}, Ret: "float", Body: "%r = fptrunc {0} to float", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_i32_f32"}, Srcs: []Src{f32}, Ret: "i32", Body: "%r = call i32 @llvm.fptosi.sat.i32.f32({0})", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_u32_f32"}, Srcs: []Src{f32}, Ret: "i32", Body: "%r = call i32 @llvm.fptoui.sat.i32.f32({0})", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_i32_f64"}, Srcs: []Src{f64}, Ret: "i32", Body: "%r = call i32 @llvm.fptosi.sat.i32.f64({0})", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_u32_f64"}, Srcs: []Src{f64}, Ret: "i32", Body: "%r = call i32 @llvm.fptoui.sat.i32.f64({0})", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_i16_f16"}, Srcs: []Src{f16}, Ret: "i16", Body: "%r = call i16 @llvm.fptosi.sat.i16.f16({0})", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_u16_f16"}, Srcs: []Src{f16}, Ret: "i16", Body: "%r = call i16 @llvm.fptoui.sat.i16.f16({0})", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f32_i32"}, Srcs: []Src{i32}, Ret: "float", Body: "%r = sitofp {0} to float", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f32_u32"}, Srcs: []Src{i32}, Ret: "float", Body: "%r = uitofp {0} to float", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f64_i32"}, Srcs: []Src{i32}, Ret: "double", Body: "%r = sitofp {0} to double", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f64_u32"}, Srcs: []Src{i32}, Ret: "double", Body: "%r = uitofp {0} to double", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f16_i16"}, Srcs: []Src{i16}, Ret: "half", Body: "%r = sitofp {0} to half", Result: "D0"},
		Op{Group: "conversion", Names: []string{"v_cvt_f16_u16"}, Srcs: []Src{i16}, Ret: "half", Body: "%r = uitofp {0} to half", Result: "D0"},
		// Integer operations.
		Op{Group: "integer", Names: []string{"v_add_nc_u32", "v_add_u32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = add {0}, {1v}", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_sub_nc_u32", "v_sub_u32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = sub {0}, {1v}", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_mul_lo_u32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = mul {0}, {1v}", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_mul_hi_u32"}, Srcs: []Src{i32, i32}, Ret: "i32",
			Body: "%a = zext {0} to i64\n%b = zext {1} to i64\n%p = mul i64 %a, %b\n%s = lshr i64 %p, 32\n%r = trunc i64 %s to i32", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_mul_hi_i32"}, Srcs: []Src{i32, i32}, Ret: "i32",
			Body: "%a = sext {0} to i64\n%b = sext {1} to i64\n%p = mul i64 %a, %b\n%s = ashr i64 %p, 32\n%r = trunc i64 %s to i32", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_lshlrev_b32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%n = and {0}, 31\n%r = shl {1}, %n", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_lshrrev_b32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%n = and {0}, 31\n%r = lshr {1}, %n", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_ashrrev_i32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%n = and {0}, 31\n%r = ashr {1}, %n", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_and_b32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = and {0}, {1v}", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_or_b32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = or {0}, {1v}", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_xor_b32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = xor {0}, {1v}", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_not_b32"}, Srcs: []Src{i32}, Ret: "i32", Body: "%r = xor {0}, -1", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_bfrev_b32"}, Srcs: []Src{i32}, Ret: "i32", Body: "%r = call i32 @llvm.bitreverse.i32({0})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_bcnt_u32_b32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%c = call i32 @llvm.ctpop.i32({0})\n%r = add i32 %c, {1v}", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_max_i32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = call i32 @llvm.smax.i32({0}, {1})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_max_u32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = call i32 @llvm.umax.i32({0}, {1})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_min_i32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = call i32 @llvm.smin.i32({0}, {1})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_min_u32"}, Srcs: []Src{i32, i32}, Ret: "i32", Body: "%r = call i32 @llvm.umin.i32({0}, {1})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_max_i16"}, Srcs: []Src{i16, i16}, Ret: "i16", Body: "%r = call i16 @llvm.smax.i16({0}, {1})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_max_u16"}, Srcs: []Src{i16, i16}, Ret: "i16", Body: "%r = call i16 @llvm.umax.i16({0}, {1})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_min_i16"}, Srcs: []Src{i16, i16}, Ret: "i16", Body: "%r = call i16 @llvm.smin.i16({0}, {1})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_min_u16"}, Srcs: []Src{i16, i16}, Ret: "i16", Body: "%r = call i16 @llvm.umin.i16({0}, {1})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_alignbit_b32"}, Srcs: []Src{i32, i32, i32}, Ret: "i32", Body: "%r = call i32 @llvm.fshr.i32({0}, {1}, {2})", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_clz_i32_u32", "v_ffbh_u32", "s_clz_i32_u32", "s_flbit_i32_b32"}, Srcs: []Src{i32}, Ret: "i32",
			Body: "%c = call i32 @llvm.ctlz.i32({0}, i1 false)\n%z = icmp eq {0}, 0\n%r = select i1 %z, i32 -1, i32 %c", Result: "D0"},
		Op{Group: "integer", Names: []string{"v_ctz_i32_b32", "v_ffbl_b32", "s_ctz_i32_b32", "s_ff1_i32_b32"}, Srcs: []Src{i32}, Ret: "i32",
			Body: "%c = call i32 @llvm.cttz.i32({0}, i1 false)\n%z = icmp eq {0}, 0\n%r = select i1 %z, i32 -1, i32 %c", Result: "D0"},
	)
	return ops
}
