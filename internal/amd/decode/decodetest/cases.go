package decodetest

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed asm.tsv
var asmTable string

// AsmTable is where the shared cases live, for messages.
const AsmTable = "decodetest/asm.tsv"

// Case is one row of the shared machine-code table (asm.tsv): a family, the
// way it is checked (Both, Decode, Encode), the assembly, the bytes as
// llvm-mc writes them and, for decoding, the length read (0: all).
type Case struct {
	Arch, Way, Asm, Hex string
	Len                 int
	Line                int
}

// The ways a case is checked.
const (
	Both   = "="      // the decoder prints Asm for Hex and the encoder gives Hex for Asm
	Decode = "decode" // Hex to Asm only (Asm "error: MSG": an invalid word)
	Encode = "encode" // Asm to Hex only (Hex "error: MSG": the encoder refuses)
)

// Decodes says whether the decoder tests read the case.
func (c Case) Decodes() bool { return c.Way == Both || c.Way == Decode }

// Encodes says whether the encoder tests read the case.
func (c Case) Encodes() bool { return c.Way == Both || c.Way == Encode }

// Cases parses the shared table; a malformed row is an error naming its
// line.
func Cases() ([]Case, error) {
	var out []Case
	for i, ln := range strings.Split(asmTable, "\n") {
		if strings.TrimSpace(ln) == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		f := strings.Split(ln, "\t")
		if len(f) != 5 {
			return nil, fmt.Errorf("%s:%d: %d columns, want 5 (family, way, assembly, bytes, length)", AsmTable, i+1, len(f))
		}
		c := Case{Arch: f[0], Way: f[1], Asm: f[2], Hex: f[3], Line: i + 1}
		switch c.Way {
		case Both, Decode, Encode:
		default:
			return nil, fmt.Errorf("%s:%d: way %q, want =, decode or encode", AsmTable, i+1, c.Way)
		}
		if f[4] != "-" {
			n, err := strconv.Atoi(f[4])
			if err != nil || n <= 0 {
				return nil, fmt.Errorf("%s:%d: length %q", AsmTable, i+1, f[4])
			}
			c.Len = n
		}
		out = append(out, c)
	}
	return out, nil
}
