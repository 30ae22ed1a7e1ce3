package ptx

import (
	"slices"
	"strconv"
	"strings"
)

// Operand roles: which register type each operand position of a mnemonic
// takes, as a table (one string per mnemonic, one code per operand), so
// the harness declares what ptxas expects. PTX lets a bit-size register
// (.b32) stand for any type of its size, so a role only needs the size
// and whether it is a predicate. Codes:
//
//	0 1 2 3  the instruction's first, second, ... data type ("cvt.f32.s32": 0 is f32)
//	$        its last data type
//	W        twice the width of the first data type (mul.wide)
//	P        .pred     U .b32     L .b64     H .b16     Q .b128
//	X        a label   F a function   T a branch-target list (.branchtargets)
//	I        an immediate: generated statements write a value (immediateValue)
//
// A position beyond the string takes its last code. Mnemonics not listed
// take "0 $": the destination the first type, sources the last. When
// ptxas still says "Arguments mismatch", the build searches other sizes
// (see the PTX oracle pass), so the table needs to be right for the usual
// case, not for every corner.
var operandRoleTable = map[string]string{
	"setp": "P $ $ P", "set": "0 $ $ P", "selp": "0 0 0 P", "slct": "0 0 0 $",
	"testp": "P $", "isspacep": "P L", "istypep": "P L",
	"mul+wide": "W 0 0", "mad+wide": "W 0 0 W",
	// Mixed precision: "add.f32.f16 d, a, c" adds an f16 a to an f32 c.
	"add#2": "0 1 0", "sub#2": "0 1 0", "fma#2": "0 1 1 0",
	"popc": "U $", "clz": "U $", "bfind": "U $",
	"bfe": "0 0 U U", "bfi": "0 0 0 U U", "szext": "0 0 U", "bmsk": "0 U U", "fns": "U U U U",
	"shl": "0 0 U", "shr": "0 0 U", "shf": "U U U U", "prmt": "U U U U",
	"dp4a": "U U U U", "dp2a": "U U U U",
	"lop3": "0 0 0 0 U P",
	"cvt":  "0 $ $ U", "cvt.pack": "2 1 1 2",
	"cvta": "0 0", "mapa": "0 0 U", "getctarank": "U 0",
	"shfl": "0 0 U U", "shfl.sync": "0 0 U U U",
	"vote": "0 P", "vote.sync": "0 P U", "match.sync": "U $ U", "redux.sync": "0 0 U",
	"elect.sync": "U U", "activemask": "U",
	"bar": "0 U U P", "barrier": "0 U U P", "bar.warp.sync": "U",
	"ld": "0 L L", "ldu": "0 L", "ld.global.nc": "0 L L", "multimem.ld_reduce": "0 L",
	"st": "L 0 L", "multimem.st": "L 0", "multimem.red": "L 0", "red": "L 0 L",
	"st.async": "L 0 L", "red.async": "L 0 L", "st.bulk": "L L L",
	"atom":     "0 L 0 0 L",
	"prefetch": "L", "prefetchu": "L", "applypriority": "L I", "discard": "L I",
	"createpolicy": "L L U U",
	"cp.async":     "L L U U L",
	"tex":          "0 $ $ $ $ $", "tld4": "0 $ $ $ $", "txq": "U L U", "suq": "U L", "suld": "0 L", "sust": "L 0", "sured": "L 0",
	"bra": "X", "brx.idx": "U T", "call": "U F U X", "pmevent": "I", "pmevent.mask": "I",
	"mbarrier.init": "L U", "mbarrier.inval": "L", "mbarrier.expect_tx": "L U", "mbarrier.complete_tx": "L U",
	"mbarrier.arrive": "L L U", "mbarrier.arrive_drop": "L L U",
	"mbarrier.test_wait": "P L L U", "mbarrier.try_wait": "P L L U", "mbarrier.pending_count": "U L",
	"cp.async.mbarrier.arrive": "L",
	"wmma.load":                "U L U", "wmma.store": "L U U", "wmma.mma": "U U U U",
	"mma": "U U U U U U U U", "mma.sp": "U U U U U U", "mma.sp::ordered_metadata": "U U U U U U U U",
	"ldmatrix": "U L", "stmatrix": "L U", "movmatrix": "U U",
	"wgmma.mma_async": "U U L P U U U U", "wgmma.mma_async.sp": "U U L U U P U U U U",
	"tcgen05.alloc": "L U", "tcgen05.dealloc": "U U", "tcgen05.ld": "U U U", "tcgen05.st": "U U U",
	"tcgen05.cp": "U L", "tcgen05.shift": "U", "tcgen05.commit": "L H",
	"tcgen05.mma": "U U L U U U P", "tcgen05.mma.sp": "U U L U U U U P", "tcgen05.mma.ws": "U U L U P L", "tcgen05.mma.ws.sp": "U U L U U P L",
	"vadd": "U", "vsub": "U", "vabsdiff": "U", "vmin": "U", "vmax": "U", "vshl": "U", "vshr": "U", "vmad": "U", "vset": "U",
	"vadd2": "U", "vsub2": "U", "vavrg2": "U", "vabsdiff2": "U", "vmin2": "U", "vmax2": "U", "vset2": "U",
	"vadd4": "U", "vsub4": "U", "vavrg4": "U", "vabsdiff4": "U", "vmin4": "U", "vmax4": "U", "vset4": "U",
	"nanosleep": "U", "alloca": "0 U", "tensormap.replace": "L $", "tensormap.cp_fenceproxy": "L L I",
	// The enumerated fields take their new value as an immediate.
	"tensormap.replace+elemtype": "L I", "tensormap.replace+interleave_layout": "L I",
	"tensormap.replace+swizzle_mode": "L I", "tensormap.replace+fill_mode": "L I",
	"cp.reduce.async.bulk":            "L L U L",
	"clusterlaunchcontrol.try_cancel": "L L", "clusterlaunchcontrol.query_cancel": "0 Q",
	// fence.proxy.tensormap::generic's size is an immediate (128).
	"fence": "L I",
}

// roleImmediates are the values generated statements write for an
// immediate operand (code I) by its documented name; others take 1.
var roleImmediates = map[string]string{"size": "128"}

func immediateValue(name string) string {
	if v, ok := roleImmediates[name]; ok {
		return v
	}
	return "1"
}

// nameHints are the register types of the documentation's operand names
// that say what they hold, whatever their position.
var nameHints = map[string]string{
	"cache_policy": ".b64", "ignore_src": ".pred", "src_size": ".b32", "membermask": ".b32",
	"state": ".b64", "waitComplete": ".pred", "phaseParity": ".b32", "suspendTimeHint": ".b32",
	"txCount": ".b32", "tx_count": ".b32", "ctaMask": ".b16", "byteMask": ".b16",
	"a_desc": ".b64", "b_desc": ".b64", "idesc": ".b32", "enable_input_d": ".pred",
	"zero_column_mask_desc": ".b64", "s_desc": ".b64", "fptr": ".b64", "taddr": ".b32",
	"scale_d": ".pred", "sp_meta": ".b32", "try_cancel_response": ".b128", "rbits": ".b32",
	"scale_factor": ".b16", "new_val": ".b64",
	// Tensor-memory addresses are 32-bit.
	"d_tmem": ".b32", "a_tmem": ".b32", "scale_A_tmem": ".b32", "scale_B_tmem": ".b32", "sp_meta_tmem": ".b32",
}

// NameHint is the register type an operand named name holds wherever it
// stands ("membermask" .b32), if its name says.
func NameHint(name string) (string, bool) { t, ok := nameHints[name]; return t, ok }

// Operand roles that are not register types: what the harness defines for
// them.
const (
	RoleLabel   = "label"
	RoleFunc    = "func"
	RoleTargets = "targets"
)

// OperandRoles returns the register type of each of n operands of an
// instruction of a documented mnemonic with these tokens.
func OperandRoles(mnemonic string, tokens []string, n int) []string {
	var types []string
	for _, t := range tokens[1:] {
		if isType(t) {
			types = append(types, t)
		}
	}
	fields := roleCodes(mnemonic, tokens, len(types))
	out := make([]string, n)
	for i := range out {
		code := fields[min(i, len(fields)-1)]
		out[i] = roleType(code, types)
	}
	// Double-precision matrix fragments live in 64-bit registers.
	if slices.Contains(types, "f64") {
		f64ops := map[string][]int{"mma": {0, 1, 2, 3}, "wmma.mma": {0, 1, 2, 3}, "wmma.load": {0}, "wmma.store": {1}}
		for _, i := range f64ops[mnemonic] {
			if i < n {
				out[i] = ".b64"
			}
		}
	}
	// An L2::cache_hint instruction takes its cache policy last.
	for _, t := range tokens {
		if t == "L2::cache_hint" && n > 0 {
			out[n-1] = ".b64"
		}
	}
	return out
}

// roleCodes returns the table's codes for a mnemonic with these tokens and
// nTypes data types.
func roleCodes(mnemonic string, tokens []string, nTypes int) []string {
	codes := "0 $"
	if c, ok := operandRoleTable[mnemonic]; ok {
		codes = c
	}
	if c, ok := operandRoleTable[mnemonic+"#"+strconv.Itoa(nTypes)]; ok {
		codes = c
	}
	// A listed "mnemonic+modifier" whose modifier the tokens hold.
	for _, t := range tokens[1:] {
		if c, ok := operandRoleTable[mnemonic+"+"+t]; ok {
			codes = c
		}
	}
	return strings.Fields(codes)
}

// tableMnemonic returns the longest mnemonic of the role table the tokens
// start with ("tensormap.replace" of "tensormap.replace.tile...", "fence"
// of "fence.proxy..."), for the probes, which know no documented names.
func tableMnemonic(tokens []string) string {
	for n := len(tokens); n > 0; n-- {
		parts := make([]string, n)
		for i, t := range tokens[:n] {
			parts[i], _, _ = strings.Cut(t, "::")
		}
		if m := strings.Join(parts, "."); operandRoleTable[m] != "" {
			return m
		}
	}
	return tokens[0]
}

// isImmediateRole says operand index of an instruction with these tokens
// is an immediate.
func isImmediateRole(tokens []string, index int) bool {
	nTypes := 0
	for _, t := range tokens[1:] {
		if isType(t) {
			nTypes++
		}
	}
	codes := roleCodes(tableMnemonic(tokens), tokens, nTypes)
	return codes[min(index, len(codes)-1)] == "I"
}

func roleType(code string, types []string) string {
	typ := func(i int) string {
		if len(types) == 0 {
			return ".b32"
		}
		if i < 0 || i >= len(types) {
			i = len(types) - 1
		}
		return RegType("." + types[i])
	}
	switch code {
	case "$":
		return typ(-1)
	case "W":
		switch typ(0) {
		case ".b16":
			return ".b32"
		case ".b32":
			return ".b64"
		}
		return ".b128"
	case "P":
		return ".pred"
	case "U":
		return ".b32"
	case "L":
		return ".b64"
	case "H":
		return ".b16"
	case "Q":
		return ".b128"
	case "X":
		return RoleLabel
	case "T":
		return RoleTargets
	case "F":
		return RoleFunc
	}
	if len(code) == 1 && code[0] >= '0' && code[0] <= '9' {
		return typ(int(code[0] - '0'))
	}
	return ".b32"
}
