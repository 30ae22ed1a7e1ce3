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
	// Encoding is llvm-mc's re-encoding of Text: the input, except for
	// bits the instruction ignores.
	Encoding []byte
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

// DisassembleWith is Disassemble with options (llvm-mc path, -mattr,
// cache directory) and llvm-mc's reason for each encoding that does not
// decode. With opts.CacheDir set, answers are kept per (llvm-mc version,
// target, -mattr) like Run's, and only encodings not seen before go to
// llvm-mc (one process for all of them).
func DisassembleWith(ctx context.Context, opts Options, target string, words [][]byte) ([]Decoded, error) {
	llvmMC := opts.LLVMMC
	if llvmMC == "" {
		var err error
		if llvmMC, err = FindLLVMMC(); err != nil {
			return nil, err
		}
	}
	if opts.CacheDir == "" {
		return disassemble(ctx, llvmMC, opts.Mattr, target, words)
	}
	version, err := Version(ctx, llvmMC)
	if err != nil {
		return nil, err
	}
	cache, err := loadCache(opts.CacheDir, version, target, opts.Mattr, kindDisasm)
	if err != nil {
		return nil, err
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	key := func(w []byte) string { return string(w) }
	var todo [][]byte
	seen := map[string]bool{}
	for _, w := range words {
		k := key(w)
		if _, ok := cache.entries[k]; ok || seen[k] || len(w) == 0 {
			continue
		}
		seen[k] = true
		todo = append(todo, w)
	}
	if len(todo) > 0 {
		dec, err := disassemble(ctx, llvmMC, opts.Mattr, target, todo)
		if err != nil {
			return nil, err
		}
		for i, w := range todo {
			cache.entries[key(w)] = Outcome{Printed: dec[i].Text, Error: dec[i].Error, Encoding: dec[i].Encoding}
		}
		if err := cache.save(); err != nil {
			return nil, err
		}
	}
	out := make([]Decoded, len(words))
	for i, w := range words {
		if len(w) == 0 {
			out[i].Error = "empty encoding"
			continue
		}
		o := cache.entries[key(w)]
		out[i] = Decoded{Text: o.Printed, Error: o.Error, Encoding: o.Encoding}
	}
	return out, nil
}

// separator is the word written after each encoding: s_nop 0x4a5b, the
// same SOPP word on every gfx target. llvm-mc decodes each input line on
// its own and prints no line numbers, so the decoded instructions between
// two separators are the preceding line's, however much of it decoded.
var separator = []byte{0x5b, 0x4a, 0x80, 0xbf}

// disassemble runs one llvm-mc over words, each on its own input line in
// brackets followed by a separator line.
func disassemble(ctx context.Context, llvmMC, mattr, target string, words [][]byte) ([]Decoded, error) {
	out := make([]Decoded, len(words))
	var in bytes.Buffer
	line := func(w []byte) {
		in.WriteByte('[')
		for j, b := range w {
			if j > 0 {
				in.WriteByte(',')
			}
			fmt.Fprintf(&in, "0x%02x", b)
		}
		in.WriteString("]\n")
	}
	for _, w := range words {
		if len(w) == 0 {
			in.WriteString("\n") // keeps line numbers aligned
		} else {
			line(w)
		}
		line(separator)
	}
	stdout, stderr, err := runLLVMMC(ctx, llvmMC, target, mattr, &in, "--disassemble")
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(stderr.String(), "\n") {
		m := diag.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if i := (n - 1) / 2; n%2 == 1 && i < len(out) && out[i].Error == "" {
			out[i].Error = m[4]
		}
	}
	texts := make([][]string, len(words))
	encs := make([][]byte, len(words))
	cur := 0
	for _, l := range strings.Split(stdout.String(), "\n") {
		printed, enc, ok := parseEncoded(strings.TrimSpace(l))
		if !ok || cur >= len(words) {
			continue
		}
		// A word that is itself the separator decodes to two of them.
		if bytes.Equal(enc, separator) && !(bytes.Equal(words[cur], separator) && len(encs[cur]) == 0) {
			cur++
			continue
		}
		texts[cur] = append(texts[cur], printed)
		encs[cur] = append(encs[cur], enc...)
	}
	for i, w := range words {
		switch {
		case len(w) == 0:
			out[i].Error = "empty encoding"
		case out[i].Error != "":
		case len(encs[i]) != len(w):
			out[i].Error = "llvm-mc's output did not account for every byte"
		default:
			// The bytes llvm-mc prints are its re-encoding of what it
			// decoded, which clears bits the instruction ignores.
			out[i].Text = strings.Join(texts[i], "\n")
			out[i].Encoding = encs[i]
		}
	}
	return out, nil
}
