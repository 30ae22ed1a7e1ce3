package lsp

import (
	"context"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Hover on machine code in comments: llvm-mc's "; encoding: [0x02,0x07,
// 0x02,0x16]" and llvm-objdump's "// 000000000000: 7E020280" are decoded
// with gpuisa's decoder for the file's family, and the text compared with
// the instruction on the line.

var (
	llvmEncodingRe = lazyre.New(`encoding:\s*\[((?:0x[0-9a-fA-F]{1,2}\s*,?\s*)+)\]`)
	objdumpWordsRe = lazyre.New(`//\s*[0-9a-fA-F]{8,16}:\s*((?:[0-9a-fA-F]{8}\s*)+)`)
)

// encodingAt finds machine code in line's comment around byte column col.
func encodingAt(line string, col int) (text string, start, end int, ok bool) {
	for _, re := range []*lazyre.Regexp{llvmEncodingRe, objdumpWordsRe} {
		for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
			if col >= m[0] && col <= m[1] {
				return line[m[2]:m[3]], m[0], m[1], true
			}
		}
	}
	return "", 0, 0, false
}

// hasEncodings says whether a document carries machine code in comments
// (worth building the family's decoder for before the first hover).
func hasEncodings(d *document) bool {
	for i := range d.lines {
		if i > 2000 {
			break
		}
		for _, t := range d.tokensOf(i) {
			if t.kind == tokComment && (strings.Contains(t.text, "encoding: [") || objdumpWordsRe.MatchString(t.text)) {
				return true
			}
		}
	}
	return false
}

// decoder returns the family's decoder from the shared per-family cache
// (package codecache: built once from the tables the build prepared, in
// milliseconds; in the background when a file with machine code opens).
func (k *knowledge) decoder(ctx context.Context, family string) (*decode.Decoder, error) {
	if a := k.byID[family]; a == nil || a.Kind != isa.KindNative {
		return nil, fmt.Errorf("%s has no machine code", family)
	}
	return k.codecs.Decoder(ctx, family)
}

// encodingHover decodes the machine code under the cursor.
func encodingHover(ctx context.Context, k *knowledge, d *document, c fileContext, n int, hex string) string {
	if c.family == "" {
		return "*Machine code: set the file's target to decode it.*\n"
	}
	words, err := decode.ParseInput([]byte(hex))
	if err != nil {
		return ""
	}
	dec, err := k.decoder(ctx, c.family)
	if err != nil {
		return fmt.Sprintf("*Cannot decode: %s*\n", escapeMD(err.Error()))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Machine code** · %s (%s), gpuisa's decoder\n\n", k.familyName(c.family), c.target)
	for off := 0; off < len(words); {
		in, size, err := dec.Decode(words, off)
		if err != nil {
			fmt.Fprintf(&b, "- offset %d: %s\n", off, escapeMD(err.Error()))
			off += 4
			continue
		}
		text, _, _ := dec.AppendText(nil, words, off)
		fmt.Fprintf(&b, "%s — %s opcode %d\n\n", code(string(text)), in.Encoding, in.Opcode)
		var fields []string
		for _, f := range in.Fields {
			fields = append(fields, fmt.Sprintf("%s=%d", f.Name, f.Value))
		}
		if len(fields) > 0 {
			fmt.Fprintf(&b, "Fields: %s\n\n", code(strings.Join(fields, " ")))
		}
		if off == 0 {
			if stmt := d.statement(n, len(d.lines[n].text)); len(stmt) > 0 && !sameMnemonic(stmt[0].text, in) {
				fmt.Fprintf(&b, "**Differs** from the line's %s\n\n", code(stmt[0].text))
			}
		}
		off += size
	}
	return b.String()
}

// sameMnemonic compares the line's mnemonic with the decoded one, with
// LLVM's encoding suffixes and renames allowed for.
func sameMnemonic(written string, in decode.Inst) bool {
	w := strings.ToLower(written)
	return w == in.Mnemonic || bareMnemonic(w) == in.Name || bareMnemonic(w) == bareMnemonic(in.Mnemonic)
}
