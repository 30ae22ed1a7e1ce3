package isa

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// DType is a data type in the units AMD publishes peak rates in: "fp16"
// for the FP16 row of a datasheet, "int8" for its INT8 TOPS.
type DType string

// The data types of matrix instructions, as AMD's datasheets name their
// rows.
const (
	DTypeFP64 DType = "fp64"
	DTypeFP32 DType = "fp32"
	DTypeTF32 DType = "tf32" // the guides' XF32
	DTypeFP16 DType = "fp16"
	DTypeBF16 DType = "bf16"
	DTypeFP8  DType = "fp8" // FP8 and BF8, alone or mixed
	DTypeFP6  DType = "fp6"
	DTypeFP4  DType = "fp4"
	DTypeINT8 DType = "int8"
	DTypeINT4 DType = "int4"
	// DTypeF8F6F4 is an F8F6F4 instruction whose operand formats (chosen
	// by its CBSZ and BLGP fields) are not known.
	DTypeF8F6F4 DType = "f8f6f4"
)

// DTypes lists the data types in the order filters offer them.
var DTypes = []DType{DTypeFP64, DTypeFP32, DTypeTF32, DTypeFP16, DTypeBF16, DTypeFP8, DTypeFP6, DTypeFP4, DTypeINT8, DTypeINT4, DTypeF8F6F4}

// Integer reports whether work in d is counted in integer operations (TOPS)
// rather than floating-point ones.
func (d DType) Integer() bool { return d == DTypeINT8 || d == DTypeINT4 }

// LookupDType reads a data type as users type it: "f16", "FP16", "half",
// "i8", "xf32".
func LookupDType(s string) (DType, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, d := range DTypes {
		if string(d) == s {
			return d, true
		}
	}
	if t, ok := matrixTypeTokens[s]; ok && t.dtype != "" {
		return t.dtype, true
	}
	d, ok := dtypeAliases[s]
	return d, ok
}

var dtypeAliases = map[string]DType{"half": DTypeFP16, "float": DTypeFP32, "double": DTypeFP64, "bfloat16": DTypeBF16, "fp8_fp8": DTypeFP8}

// MatrixForm is a family of matrix instructions, by the prefix of its
// names.
type MatrixForm struct {
	Prefix string // "v_mfma", "v_smfmac"
	// Sparse: A is 4:2 structurally sparse; the name's K is the dense K,
	// and the work is counted as AMD counts it "with sparsity" (2·M·N·K).
	Sparse bool
	// BlocksFromDest: a name without "_<B>b" may still multiply several
	// blocks (CDNA 1-2's v_mfma_f32_4x4x4f16 is CDNA 3's 4x4x4_16b_f16):
	// the count is read from the destination's width (MFMA are wave64).
	BlocksFromDest bool
}

// matrixForms are the matrix instruction families of the AMD guides.
var matrixForms = []MatrixForm{
	{Prefix: "v_mfma", BlocksFromDest: true},
	{Prefix: "v_mfma_scale", BlocksFromDest: true},
	{Prefix: "v_smfmac", Sparse: true},
	{Prefix: "v_wmma"},
	{Prefix: "v_wmma_scale"},
	{Prefix: "v_wmma_scale16"},
	{Prefix: "v_swmmac", Sparse: true},
}

// matrixType is what a type token of a name says: the data type of the A
// and B matrices (input tokens) or the bits of one element of D (output
// tokens).
type matrixType struct {
	dtype DType
	bits  int // element bits as an output type; 0: not an output type
}

// matrixTypeTokens are the type words of matrix instruction names. An
// input type made of two tokens (fp8_bf8) is the wider of the two's data
// type; "1k" (CDNA 2's bf16_1k, the faster BF16 forms) adds nothing.
var matrixTypeTokens = map[string]matrixType{
	"f64": {DTypeFP64, 64}, "f32": {DTypeFP32, 32}, "xf32": {DTypeTF32, 0},
	"f16": {DTypeFP16, 16}, "bf16": {DTypeBF16, 16}, "bf16f32": {"", 32},
	"i32": {"", 32}, "i8": {DTypeINT8, 0}, "iu8": {DTypeINT8, 0}, "iu4": {DTypeINT4, 0}, "i4": {DTypeINT4, 0},
	"fp8": {DTypeFP8, 0}, "bf8": {DTypeFP8, 0}, "f8": {DTypeFP8, 0}, "f6": {DTypeFP6, 0}, "fp6": {DTypeFP6, 0}, "bf6": {DTypeFP6, 0},
	"f4": {DTypeFP4, 0}, "fp4": {DTypeFP4, 0}, "f8f6f4": {DTypeF8F6F4, 0},
}

// dtypeRank orders mixed operand types: the wider one sets the rate (the
// CDNA 4 guide's F8F6F4 rows: "larger cycle count if either matrix A or B
// is F8").
var dtypeRank = map[DType]int{DTypeFP4: 1, DTypeFP6: 2, DTypeFP8: 3}

// MatrixShape is what a matrix instruction computes: Blocks products of
// an M×K and a K×N matrix of DType, accumulated.
type MatrixShape struct {
	Form           MatrixForm
	M, N, K        int
	Blocks         int
	DType          DType
	OutBits        int  // bits of one element of D; 0 where the name gives none
	BlocksFromName bool // "_16b": stated, not derived
}

// Ops is the shape's work: 2·M·N·K·Blocks multiply-adds counted as two
// operations, FLOPs or integer ops per DType.Integer (AMD's datasheets
// count the same way).
func (s MatrixShape) Ops() int64 { return 2 * int64(s.M) * int64(s.N) * int64(s.K) * int64(s.Blocks) }

// ErrNoMatrixShape is returned for names that are not matrix instructions
// with an M×N×K shape (v_add_f32, v_mfma_ld_scale_b32).
var ErrNoMatrixShape = errors.New("not a matrix instruction with an MxNxK shape")

// matrixNameRe splits a matrix name: prefix, output type (absent in the
// guides' shorthand "v_mfma_16x16x4_f64"), shape, blocks, input types
// (joined to the shape on CDNA 1-2: "32x32x8f16", "32x32x8bf16_1k").
var matrixNameRe = regexp.MustCompile(`^(v_[a-z0-9]+?(?:_scale16|_scale)?)_(?:([a-z0-9]+)_)?(\d+)x(\d+)x(\d+)(?:_(\d+)b)?_?([a-z0-9_]*)$`)

// llvmFormatRe finds the operand formats in LLVM's opcode name of an
// F8F6F4 instruction: V_MFMA_F32_16X16X128_F8F6F4_f8_f8_gfx940_vcd.
var llvmFormatRe = regexp.MustCompile(`_F8F6F4_(f[468])_(f[468])(?:_|$)`)

// ParseMatrix reads a matrix instruction's shape from its name, the first
// operand of an assembled line (the destination, for blocks a CDNA 1-2
// name leaves out) and LLVM's opcode name (for the operand formats an
// F8F6F4 name leaves to its modifiers). asm and opcode may be empty.
func ParseMatrix(name, asm, opcode string) (MatrixShape, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	m := matrixNameRe.FindStringSubmatch(name)
	if m == nil {
		return MatrixShape{}, ErrNoMatrixShape
	}
	var s MatrixShape
	found := false
	for _, k := range matrixForms {
		if k.Prefix == m[1] {
			s.Form, found = k, true
		}
	}
	if !found {
		return MatrixShape{}, ErrNoMatrixShape
	}
	s.M, _ = strconv.Atoi(m[3])
	s.N, _ = strconv.Atoi(m[4])
	s.K, _ = strconv.Atoi(m[5])
	if m[2] != "" {
		t, ok := matrixTypeTokens[m[2]]
		if !ok || t.bits == 0 {
			return MatrixShape{}, fmt.Errorf("%s: output type %q is not in the table of matrix types", name, m[2])
		}
		s.OutBits = t.bits
	}
	d, err := matrixInputType(name, m[7], opcode)
	if err != nil {
		return MatrixShape{}, err
	}
	s.DType = d
	s.Blocks = 1
	switch {
	case m[6] != "":
		s.Blocks, _ = strconv.Atoi(m[6])
		s.BlocksFromName = true
	case s.Form.BlocksFromDest && s.OutBits > 0:
		if regs := destRegisters(asm); regs > 0 {
			// D holds M·N·Blocks elements over the wave's 64 lanes.
			elems := regs * 32 / s.OutBits * 64
			if b := elems / (s.M * s.N); b > 1 && elems%(s.M*s.N) == 0 {
				s.Blocks = b
			}
		}
	}
	if s.M == 0 || s.N == 0 || s.K == 0 || s.Blocks == 0 {
		return MatrixShape{}, fmt.Errorf("%s: a zero dimension", name)
	}
	return s, nil
}

// matrixInputType reads the input type words ("f16", "fp8_bf8", "bf16_1k").
func matrixInputType(name, words, opcode string) (DType, error) {
	var d DType
	for _, w := range strings.Split(words, "_") {
		if w == "" || w == "1k" {
			continue
		}
		t, ok := matrixTypeTokens[w]
		if !ok || t.dtype == "" {
			return "", fmt.Errorf("%s: input type %q is not in the table of matrix types", name, w)
		}
		if d == "" || dtypeRank[t.dtype] > dtypeRank[d] {
			d = t.dtype
		}
	}
	if d == "" {
		return "", fmt.Errorf("%s: no input type", name)
	}
	if d == DTypeF8F6F4 {
		if f := llvmFormatRe.FindStringSubmatch(opcode); f != nil {
			a, b := matrixTypeTokens[f[1]].dtype, matrixTypeTokens[f[2]].dtype
			if dtypeRank[b] > dtypeRank[a] {
				a = b
			}
			d = a
		}
	}
	return d, nil
}

// destRegRe reads the first operand of an assembled line: v[0:15], a[4:7],
// v3.
var destRegRe = regexp.MustCompile(`^\S+\s+[av](?:\[(\d+):(\d+)\]|(\d+)\b)`)

// destRegisters is how many 32-bit registers the destination of asm
// spans, 0 when asm names none.
func destRegisters(asm string) int {
	m := destRegRe.FindStringSubmatch(strings.TrimSpace(asm))
	switch {
	case m == nil:
		return 0
	case m[3] != "":
		return 1
	}
	lo, _ := strconv.Atoi(m[1])
	hi, _ := strconv.Atoi(m[2])
	if hi < lo {
		return 0
	}
	return hi - lo + 1
}
