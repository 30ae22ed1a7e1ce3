package llvmdoc

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// LLVM's AMDGPU Instruction Syntax page ("Type and Size Suffices") says how
// an operand's data type follows from the mnemonic: "Instructions which
// operate with data have an implied type of data operands. This data type
// is specified as a suffix of instruction mnemonic. There are instructions
// which have 2 type suffices: the first is the data type of the destination
// operand, the second is the data type of source data operand(s). Note that
// data type specified by an instruction does not apply to other kinds of
// operands such as addresses, offsets and so on." Operands whose type
// differs are tagged on the syntax pages (src1:i32); typeless instructions
// get b32, b64, ... from their size suffix (x2, dwordx4, d16_xy).

// TypeRule names the rule in provenance notes.
const TypeRule = "LLVM's AMDGPU Instruction Syntax, Type and Size Suffices"

var typeToken = lazyre.New(`^(b|u|i|f|bf)(8|16|32|64|96|128|256|512)$`)

// SuffixTypes returns the data types a mnemonic implies for its destination
// and source data operands ("f32", "i32"; packed v_pk_ instructions "f16x2"),
// following TypeRule. ok is false when the rule gives nothing certain: no
// type suffix and no size suffix, type suffixes that are not the last two
// words (v_mfma_f32_32x32x8_f16), or a packed form other than v_pk_.
func SuffixTypes(mnemonic string) (dst, src string, ok bool) {
	m := isa.BaseMnemonic(strings.ToLower(mnemonic))
	words := strings.Split(m, "_")
	var types []int // positions of type words
	for i, w := range words {
		if typeToken.MatchString(w) {
			types = append(types, i)
		}
	}
	packed := len(words) > 1 && words[1] == "pk"
	for i, w := range words {
		if i != 1 && (w == "pk" || strings.HasPrefix(w, "pk") && typeToken.MatchString(w[2:])) {
			return "", "", false // v_cvt_pk_u8_f32: which operands are packed is not implied
		}
	}
	last := len(words) - 1
	switch {
	case len(types) == 1 && types[0] == last:
		dst = words[last]
		src = dst
	case len(types) == 2 && types[0] == last-1 && types[1] == last:
		dst, src = words[last-1], words[last]
	case len(types) == 0:
		memory := false
		for _, p := range memoryPrefixes {
			memory = memory || strings.HasPrefix(m, p)
		}
		if !memory {
			return "", "", false
		}
		t, ok := sizeType(words)
		return t, t, ok
	default:
		return "", "", false
	}
	if packed {
		dst, src = dst+"x2", src+"x2"
	}
	return dst, src, true
}

// sizeType is the type a typeless instruction's size suffix implies:
// none (b32), x2 (b64), ... x16 (b512), x/xy/xyz/xyzw (b32 ... b128) and
// the d16 forms (d16_x b16, d16_xy b16x2, ...).
func sizeType(words []string) (string, bool) {
	last := words[len(words)-1]
	d16 := false
	for _, w := range words {
		d16 = d16 || w == "d16"
	}
	if d16 {
		switch last {
		case "x":
			return "b16", true
		case "xy", "xyz", "xyzw":
			return "b16x" + strconv.Itoa(len(last)), true
		}
		return "", false
	}
	switch last {
	case "x", "dword":
		return "b32", true
	case "xy", "xyz", "xyzw":
		return "b" + strconv.Itoa(32*len(last)), true
	}
	w := strings.TrimPrefix(last, "dword")
	if n, err := strconv.Atoi(strings.TrimPrefix(w, "x")); err == nil && strings.HasPrefix(w, "x") && n >= 2 && n <= 16 {
		return "b" + strconv.Itoa(32*n), true
	}
	return "b32", true // no size suffix
}

// dataKinds are the operand classes that hold an instruction's data (the
// operands the implied type applies to); addresses, resources, offsets,
// labels, counters and condition codes are not among them.
var dataKinds = map[string]bool{
	"vdst": true, "sdst": true, "src": true, "src0": true, "src1": true, "src2": true, "vsrc": true,
	"vsrc0": true, "vsrc1": true, "vsrc2": true, "vsrc3": true, "ssrc": true, "ssrc0": true, "ssrc1": true,
	"vdata": true, "vdata0": true, "vdata1": true, "data": true, "data0": true, "data1": true, "sdata": true,
	"vdstx": true, "vdsty": true, "srcx0": true, "srcy0": true, "vsrcx1": true, "vsrcy1": true,
	"simm32": true, "literal": true,
}

// IsDataKind reports whether an operand class holds data.
func IsDataKind(kind string) bool { return dataKinds[strings.ToLower(kind)] }

var tagRE = lazyre.New(`^(bf|b|u|i|f)(\d+)(?:x(\d+))?$`)

// TypeBits returns the bits a type tag stands for: "f32" 32, "f16x2" 32,
// "b128" 128, "bf16" 16; 0 for anything else ("f32x4/8", "fx").
func TypeBits(tag string) int {
	m := tagRE.FindStringSubmatch(tag)
	if m == nil {
		return 0
	}
	bits, _ := strconv.Atoi(m[2])
	count := 1
	if m[3] != "" {
		count, _ = strconv.Atoi(m[3])
	}
	if bits <= 0 || bits > 1024 || count <= 0 || count > 64 {
		return 0
	}
	return bits * count
}

// memoryPrefixes are the mnemonics whose size suffix gives the data type
// of a typeless instruction (buffer_load_dwordx4: b128).
var memoryPrefixes = []string{"buffer_", "tbuffer_", "global_", "flat_", "scratch_", "ds_", "s_load_", "s_buffer_load_",
	"s_store_", "s_buffer_store_", "s_scratch_", "s_atomic_", "s_buffer_atomic_"}

var waveSize = lazyre.New(`^(\d+) dwords? if wavefront size is (32|64), otherwise (\d+) dwords?$`)

// WaveDwords returns the operand's size in registers under wave32 and
// wave64 when its page says they differ ("1 dword if wavefront size is 32,
// otherwise 2 dwords"; WMMA's "4 dwords if wavefront size is 64, otherwise
// 8 dwords"); ok is false otherwise.
func (o Operand) WaveDwords() (w32, w64 int, ok bool) {
	if o.Doc == nil {
		return 0, 0, false
	}
	m := waveSize.FindStringSubmatch(strings.TrimSpace(o.Doc.Size))
	if m == nil {
		return 0, 0, false
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[3])
	if m[2] == "32" {
		return a, b, true
	}
	return b, a, true
}
