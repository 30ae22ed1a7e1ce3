package isa

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// F8F6F4Format is one operand format of a CDNA 4 F8F6F4 matrix
// instruction, which its cbsz (matrix A) and blgp (matrix B) modifiers
// choose: the format's code in those modifiers (LLVM's AMDGPU assembler:
// 0 FP8 E4M3, 1 BF8 E5M2, 2 FP6 E2M3, 3 BF6 E3M2, 4 FP4 E2M1) and its bits
// per element, which set how many registers A and B span.
type F8F6F4Format struct {
	DType DType
	Code  int
	Bits  int
}

// F8F6F4Formats are one format of each width: the widths set the rate (the
// CDNA 4 guide's F8F6F4 rows), the E4M3/E5M2-style pairs share it.
var F8F6F4Formats = []F8F6F4Format{{DTypeFP8, 0, 8}, {DTypeFP6, 2, 6}, {DTypeFP4, 4, 4}}

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
