package verify

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Decoded is what llvm-mc made of one encoding.
type Decoded struct {
	Text  string // the instruction(s), one a line; "" when it did not decode
	Error string // llvm-mc's warning, e.g. "invalid instruction encoding"
}

// Disassemble decodes each encoding on target with one llvm-mc run. An
// encoding that does not decode (wholly) gives "" in its place.
func Disassemble(ctx context.Context, target string, words [][]byte) ([]string, error) {
	dec, err := DisassembleWith(ctx, Options{}, target, words)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(dec))
	for i, d := range dec {
		if d.Error == "" {
			out[i] = d.Text
		}
	}
	return out, nil
}

// DisassembleWith is Disassemble with options (llvm-mc path, -mattr) and
// llvm-mc's reason for each encoding that does not decode.
//
// Each encoding goes on its own input line in brackets. llvm-mc prints no
// line numbers for what it decodes, so the output is matched back by its
// echoed encodings: each line's bytes are consumed by the decoded
// instructions in order; lines llvm-mc warns about consume what did decode
// of them and report the warning.
func DisassembleWith(ctx context.Context, opts Options, target string, words [][]byte) ([]Decoded, error) {
	llvmMC := opts.LLVMMC
	if llvmMC == "" {
		var err error
		if llvmMC, err = FindLLVMMC(); err != nil {
			return nil, err
		}
	}
	out := make([]Decoded, len(words))
	var in bytes.Buffer
	for _, w := range words {
		if len(w) == 0 {
			in.WriteString("\n") // keeps line numbers aligned
			continue
		}
		in.WriteByte('[')
		for j, b := range w {
			if j > 0 {
				in.WriteByte(',')
			}
			fmt.Fprintf(&in, "0x%02x", b)
		}
		in.WriteString("]\n")
	}
	stdout, stderr, err := runLLVMMC(ctx, llvmMC, target, opts.Mattr, &in, "--disassemble")
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		m := diag.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if i := n - 1; i >= 0 && i < len(out) && out[i].Error == "" {
			out[i].Error = m[4]
		}
	}
	for i, w := range words {
		if len(w) == 0 {
			out[i].Error = "empty encoding"
		}
	}

	type insn struct {
		text string
		enc  []byte
	}
	var decoded []insn
	for _, l := range strings.Split(stdout.String(), "\n") {
		if printed, enc, ok := parseEncoded(strings.TrimSpace(l)); ok {
			decoded = append(decoded, insn{printed, enc})
		}
	}
	k := 0
	for i, w := range words {
		rest := w
		var texts []string
		for len(rest) > 0 && k < len(decoded) && bytes.HasPrefix(rest, decoded[k].enc) && len(decoded[k].enc) > 0 {
			texts = append(texts, decoded[k].text)
			rest = rest[len(decoded[k].enc):]
			k++
		}
		// After an invalid word llvm-mc skips ahead and may decode more of
		// the same line; those instructions belong to this line too.
		for out[i].Error != "" && len(rest) > 0 && k < len(decoded) && len(decoded[k].enc) > 0 {
			j := bytes.Index(rest, decoded[k].enc)
			if j < 0 {
				break
			}
			rest = rest[j+len(decoded[k].enc):]
			k++
		}
		if out[i].Error == "" && len(rest) > 0 {
			out[i].Error = "llvm-mc's output did not account for every byte"
		}
		if out[i].Error == "" {
			out[i].Text = strings.Join(texts, "\n")
		}
	}
	return out, nil
}
