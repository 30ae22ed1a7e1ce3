package isa

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// F8F6F4Format is one operand format of the F8F6F4 matrix instructions
// (CDNA 4's MFMA, gfx1250's WMMA), which their modifiers choose: cbsz (A)
// and blgp (B), or matrix_a_fmt / matrix_b_fmt. Code is the value those
// modifiers take (LLVM's MATRIX_FMT_*, the index in F8F6F4FormatCodes);
// Bits per element set how many registers A and B span.
type F8F6F4Format struct {
	Name  string // LLVM's, lower case: "fp8", "bf8", "fp6", "bf6", "fp4"
	DType DType
	Code  int
	Bits  int
}

// F8F6F4FormatCodes are every format by its code: 0 FP8 E4M3, 1 BF8 E5M2,
// 2 FP6 E2M3, 3 BF6 E3M2, 4 FP4 E2M1 (LLVM's AMDGPU assembler and the
// CDNA 4 guide).
var F8F6F4FormatCodes = [...]F8F6F4Format{
	{"fp8", DTypeFP8, 0, 8}, {"bf8", DTypeFP8, 1, 8}, {"fp6", DTypeFP6, 2, 6}, {"bf6", DTypeFP6, 3, 6}, {"fp4", DTypeFP4, 4, 4},
}

// F8F6F4Formats are one format of each width: the widths set the rate (the
// CDNA 4 guide's F8F6F4 rows), the E4M3/E5M2-style pairs share it.
var F8F6F4Formats = func() []F8F6F4Format {
	var out []F8F6F4Format
	for _, f := range F8F6F4FormatCodes {
		if len(out) == 0 || out[len(out)-1].Bits != f.Bits {
			out = append(out, f)
		}
	}
	return out
}()

// matrixRegRe is a register range operand: v[8:15], a[0:3].
var matrixRegRe = regexp.MustCompile(`^([av])\[(\d+):(\d+)\]$`)

// F8F6F4Line rewrites an assembled line of an F8F6F4 instruction (s is its
// shape) to take format f in both A and B: A and B span the registers the
// format's M×K and N×K elements need over a wave's 64 lanes, from the same
// first register, and cbsz/blgp name the format (absent for FP8, their
// default). It reports false for a line whose A and B are not register
// ranges.
func F8F6F4Line(asm string, s MatrixShape, f F8F6F4Format) (string, bool) {
	mn, rest, ok := strings.Cut(strings.TrimSpace(asm), " ")
	if !ok || s.DType != DTypeF8F6F4 {
		return "", false
	}
	ops := strings.Split(rest, ",")
	if len(ops) < 4 {
		return "", false
	}
	for i := range ops {
		ops[i] = strings.TrimSpace(ops[i])
	}
	// The last operand carries the modifiers: "v[24:27] cbsz:4 blgp:4".
	last := strings.Fields(ops[len(ops)-1])
	ops[len(ops)-1] = last[0]
	var mods []string
	for _, m := range last[1:] {
		if !strings.HasPrefix(m, "cbsz:") && !strings.HasPrefix(m, "blgp:") {
			mods = append(mods, m)
		}
	}
	for _, o := range []struct{ i, rows int }{{1, s.M}, {2, s.N}} { // A is M×K, B is N×K
		i, rows := o.i, o.rows
		m := matrixRegRe.FindStringSubmatch(ops[i])
		if m == nil {
			return "", false
		}
		bits := rows * s.K * f.Bits / 64 // per lane
		if bits%32 != 0 {
			return "", false
		}
		lo, _ := strconv.Atoi(m[2])
		ops[i] = fmt.Sprintf("%s[%d:%d]", m[1], lo, lo+bits/32-1)
	}
	if f.Code != 0 {
		mods = append(mods, fmt.Sprintf("cbsz:%d", f.Code), fmt.Sprintf("blgp:%d", f.Code))
	}
	line := mn + " " + strings.Join(ops, ", ")
	if len(mods) > 0 {
		line += " " + strings.Join(mods, " ")
	}
	return line, true
}
