package ptx

import (
	"strconv"
	"strings"
)

// The sizes of PTX types and the registers that hold them: the checker's
// operand roles and matrix fragments, and the probe harness, read them here.

// DeclaredNames lists the names context declarations declare
// (".reg .b32 r<4>, x;" declares r0..r3 and x).
func DeclaredNames(decls []string) map[string]bool {
	out := map[string]bool{}
	for _, d := range decls {
		d = strings.TrimSuffix(strings.TrimSpace(d), ";")
		fields := strings.Fields(d)
		// Skip the directive and type words.
		i := 0
		for i < len(fields) && strings.HasPrefix(fields[i], ".") {
			i++
		}
		for _, n := range SplitTop(strings.Join(fields[i:], " "), ',') {
			n = strings.TrimSpace(n)
			if k := strings.IndexAny(n, "[="); k >= 0 {
				n = strings.TrimSpace(n[:k])
			}
			if k := strings.IndexByte(n, '<'); k > 0 {
				count, _ := strconv.Atoi(strings.TrimSuffix(n[k+1:], ">"))
				for j := 0; j < count && j < 1024; j++ {
					out[n[:k]+strconv.Itoa(j)] = true
				}
				continue
			}
			if n != "" {
				out[n] = true
			}
		}
	}
	return out
}

// TypeBits is the size of a PTX type (".f16x2" 32, ".pred" 1).
func TypeBits(t string) int {
	t = strings.TrimPrefix(t, ".")
	if base, n, ok := strings.Cut(t, "x"); ok && base != "" {
		// Packed types: ".f16x2", ".e4m3x4", ".b4x16".
		if k, err := strconv.Atoi(n); err == nil && k > 0 {
			return TypeBits(base) * k
		}
	}
	switch t {
	case "pred":
		return 1
	case "bf16":
		return 16
	case "tf32":
		return 32
	case "e4m3", "e5m2", "e2m3", "e3m2", "ue8m0", "s2f6":
		return 8
	case "e2m1", "b4":
		return 4
	case "b6":
		return 6
	}
	i := len(t)
	for i > 0 && t[i-1] >= '0' && t[i-1] <= '9' {
		i--
	}
	if n, err := strconv.Atoi(t[i:]); err == nil && n > 0 {
		return n
	}
	return 32
}

// RegType is the bit-size register type that holds a value of PTX type t.
func RegType(t string) string {
	switch n := TypeBits(t); {
	case t == ".pred":
		return ".pred"
	case n <= 16:
		return ".b16"
	case n <= 32:
		return ".b32"
	case n <= 64:
		return ".b64"
	default:
		return ".b128"
	}
}
