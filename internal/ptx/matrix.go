package ptx

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"slices"
	"strconv"
	"strings"
)

// Fragment sizes of the matrix instructions: how many registers each of
// d, a, b, c holds for a shape and data types, so generated statements
// pass ptxas's vector-size checks. A fragment of an M x K matrix of b-bit
// elements spread over the 32 threads of a warp (128 for wgmma's
// warpgroup) takes M*K*b/(32*32) 32-bit registers, or M*K/32 64-bit ones
// for f64; the exceptions are noted where they are handled.

var shapeRe = lazyre.New(`^m(\d+)n(\d+)k(\d+)$`)

// fragmentLength returns the register count of operand name of a matrix
// instruction, 0 when the instruction or operand has no fragment.
func fragmentLength(tokens []string, name string) int {
	var m, n, k int
	var types []string
	for _, t := range tokens[1:] {
		if s := shapeRe.FindStringSubmatch(t); s != nil {
			m, _ = strconv.Atoi(s[1])
			n, _ = strconv.Atoi(s[2])
			k, _ = strconv.Atoi(s[3])
		}
		if isType(t) {
			types = append(types, t)
		}
	}
	sparse := slices.Contains(tokens, "sp") || slices.Contains(tokens, "sp::ordered_metadata")
	typeAt := func(i int) string {
		if i < len(types) {
			return types[i]
		}
		if len(types) > 0 {
			return types[len(types)-1]
		}
		return "b32"
	}
	switch tokens[0] {
	case "mma":
		if m == 0 || len(types) < 3 {
			return 0
		}
		// mma.sync...dtype.atype.btype.ctype
		var rows, cols int
		var typ string
		switch name {
		case "d":
			rows, cols, typ = m, n, typeAt(0)
		case "a":
			rows, cols, typ = m, k, typeAt(1)
		case "b":
			rows, cols, typ = k, n, typeAt(2)
		case "c":
			rows, cols, typ = m, n, typeAt(3)
		default:
			return 0
		}
		if m == 8 && n == 8 && k == 4 && typeAt(1) == "f16" {
			// The sm_70 quad-pair shape: each quad pair holds its own
			// 8x4 tiles.
			switch name {
			case "a", "b":
				return 2
			}
			if typ == "f16" {
				return 4
			}
			return 8
		}
		if (name == "a" || name == "b") && (slices.Contains(tokens, "kind::f8f6f4") || slices.Contains(tokens, "kind::mxf8f6f4")) {
			// The f8f6f4 kinds hold every element, 4, 6 or 8 bits, in a
			// byte of its own (NVIDIA's fragment layouts for them).
			typ = "b8"
		}
		r := regs(rows, cols, typ, 32)
		if sparse && name == "a" {
			r = max(r/2, 1)
		}
		return r
	case "wmma":
		frag := ""
		switch {
		case len(tokens) > 2 && (tokens[1] == "load" || tokens[1] == "store"):
			frag = tokens[2]
			if name != "r" {
				return 0
			}
		case len(tokens) > 1 && tokens[1] == "mma":
			frag = name
		}
		if m == 0 || frag == "" {
			return 0
		}
		typ := typeAt(0)
		if tokens[1] == "mma" {
			// wmma.mma...: .dtype.ctype for f16, .atype... else; the
			// accumulators' type is the first, the inputs' the middle one.
			switch frag {
			case "d":
				typ = typeAt(0)
			case "c":
				typ = typeAt(len(types) - 1)
			default:
				typ = wmmaInputType(types)
			}
		}
		var rows, cols int
		switch frag {
		case "a":
			rows, cols = m, k
		case "b":
			rows, cols = k, n
		case "c", "d":
			rows, cols = m, n
		default:
			return 0
		}
		if typ == "f16" && (frag == "a" || frag == "b") {
			// f16 inputs are eight .f16x2 registers in every shape
			// (wmma's documented layout; ptxas takes 8 for m32n8k16's
			// a and m8n32k16's b as for m16n16k16's).
			return wmmaF16InputRegs
		}
		return regs(rows, cols, typ, 32)
	case "wgmma":
		if m == 0 {
			return 0
		}
		switch name {
		case "d":
			return regs(m, n, typeAt(0), 128)
		case "a":
			kk := k
			if sparse {
				kk /= 2
			}
			return regs(m, kk, typeAt(1), 128)
		}
	case "ldmatrix", "stmatrix":
		if name == "r" {
			for _, t := range tokens {
				switch t {
				case "x1":
					return 1
				case "x2":
					return 2
				case "x4":
					return 4
				}
			}
		}
	case "tcgen05":
		if len(tokens) > 1 && (tokens[1] == "ld" || tokens[1] == "st") && name == "r" {
			num, per := 0, 1
			for _, t := range tokens {
				if len(t) > 1 && t[0] == 'x' {
					if v, err := strconv.Atoi(t[1:]); err == nil {
						num = v
					}
				}
				switch t {
				case "16x128b":
					per = 2
				case "16x256b":
					per = 4
				}
			}
			return num * per
		}
	}
	return 0
}

// wmmaF16InputRegs is the register count of a wmma f16 a or b fragment.
const wmmaF16InputRegs = 8

// wmmaInputType picks the input type of a wmma.mma: the type that is not
// an accumulator type (f16 and f32 accumulate; s32 for integers).
func wmmaInputType(types []string) string {
	if len(types) == 2 && (types[0] == "f16" || types[0] == "f32") && (types[1] == "f16" || types[1] == "f32") {
		return "f16"
	}
	if len(types) >= 3 {
		return types[1]
	}
	return "f16"
}

// regs is the register count of a rows x cols fragment of typ over
// threads threads: 32-bit registers, or 64-bit ones for f64.
func regs(rows, cols int, typ string, threads int) int {
	bits := TypeBits("." + typ)
	if typ == "s32" || typ == "u32" || typ == "f32" {
		bits = 32
	}
	regBits := 32
	if bits == 64 {
		regBits = 64
	}
	r := rows * cols * bits / (threads * regBits)
	if r < 1 {
		r = 1
	}
	return r
}

// DenseCounterpart returns the dense mma statement of a sparse one, its
// fragments at the dense sizes ("mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32
// d, a, b, c, e, f;" gives "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32
// {d0, d1}, {a0, a1, a2, a3}, {b0, b1}, {c0, c1, c2, c3};"). ptxas says
// only "Arguments mismatch" of a sparse mma whose types break a rule
// (.dtype must be .ctype), and names the rule for the dense one. ok is
// false for other statements.
func DenseCounterpart(text string) (string, bool) {
	tokens, operands, err := ParseInstruction(text)
	if err != nil || len(tokens) < 3 || tokens[0] != "mma" || len(operands) != 6 {
		return "", false
	}
	if tokens[1] != "sp" && tokens[1] != "sp::ordered_metadata" {
		return "", false
	}
	dense := append([]string{tokens[0]}, tokens[2:]...)
	ops := make([]string, 4)
	for i, name := range []string{"d", "a", "b", "c"} {
		if fragmentLength(dense, name) == 0 {
			return "", false
		}
		ops[i] = concreteOperand(name, i, dense, map[int]int{}, map[int]int{})
	}
	return strings.Join(dense, ".") + " " + strings.Join(ops, ", ") + ";", true
}
