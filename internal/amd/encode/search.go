package encode

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// The formats the encoder has no placement rule for (typed buffers, image
// memory, exports, parameter interpolation and LDS direct loads) are
// assembled by search: the modifiers that name a field with a number
// (dmask:0x7, offset:56, wait_vdst:9) and the one-bit flags (glc, done, da)
// are written into their fields by name, and every other small field is
// chosen value by value, keeping the value whose decoding reads most like
// the input, until the decoder prints the input exactly. As everywhere, the
// bytes returned are bytes the decoder reads back as the input.

// searchMaxWidth bounds the fields the search tries every value of; wider
// fields (offsets) come from the input's numbers only.
const searchMaxWidth = 9

// searchPasses bounds the rounds over the fields: a field whose effect
// shows only once another is set (a source behind its EN bit) needs a
// second round.
const searchPasses = 4

// searchPairWidth bounds the two fields tried together.
const searchPairWidth = 8

// encodeSearch assembles asm with template t by search.
func (e *Encoder) encodeSearch(t decode.Template, asm string, mods []string) ([]byte, error) {
	fields := e.fieldsByName(t.Format)
	words := append([]uint32(nil), t.Words...)
	set := map[string]bool{}
	for _, m := range mods {
		name, v, ok := e.namedModifier(fields, m)
		if !ok {
			continue
		}
		f := fields[name]
		f.Put(words, v)
		set[name] = true
	}
	var free []isa.Field
	for _, f := range t.Format.Fields {
		up := strings.ToUpper(f.Name)
		if set[up] || f.Fixed != "" || up == "OP" || up == "ENCODING" || f.Width() > searchMaxWidth {
			continue
		}
		free = append(free, f)
	}
	words, free = nsaAddresses(t, asm, words, free)
	want := newReadBack(asm)
	target := searchTokens(asm)
	best, n := e.searchScore(words, target, want)
	if n > 0 {
		return e.searchZeroes(words, free, want), nil
	}
	for pass := 0; pass < searchPasses; pass++ {
		improved, found := false, false
		for _, f := range free {
			if best, improved, found = e.searchFields(words, []isa.Field{f}, target, want, best, improved); found {
				return e.searchZeroes(words, free, want), nil
			}
		}
		if !improved {
			// Two neighbouring fields that print as one word (DFMT and
			// NFMT in format:[...]) may each look no better alone: try
			// them together.
			for i := 0; i+1 < len(free); i++ {
				pair := free[i : i+2]
				if pair[0].Width()+pair[1].Width() > searchPairWidth {
					continue
				}
				if best, improved, found = e.searchFields(words, pair, target, want, best, improved); found {
					return e.searchZeroes(words, free, want), nil
				}
			}
		}
		if !improved {
			break
		}
	}
	return nil, fmt.Errorf("no setting of %s's fields reads back as %q", t.Format.Name, asm)
}

// searchFields tries every value of fields (one, or two together) and
// keeps the best-scoring one in words; found says words now read back as
// want.
func (e *Encoder) searchFields(words []uint32, fields []isa.Field, target []string, want *readBack, best int, improved bool) (int, bool, bool) {
	keep := make([]uint64, len(fields))
	width := 0
	for i, f := range fields {
		keep[i] = f.Get(words)
		width += f.Width()
	}
	put := func(v uint64) {
		for _, f := range fields {
			f.Put(words, v&(1<<uint(f.Width())-1))
			v >>= uint(f.Width())
		}
	}
	bestV, changed := uint64(0), false
	for v := uint64(0); v < 1<<uint(width); v++ {
		put(v)
		s, n := e.searchScore(words, target, want)
		if n > 0 {
			return best, true, true
		}
		if s > best {
			best, bestV, changed = s, v, true
		}
	}
	if changed {
		put(bestV)
		return best, true, false
	}
	for i, f := range fields {
		f.Put(words, keep[i])
	}
	return best, improved, false
}

// nsaAddresses makes room for an image instruction's NSA address list
// ("[v1, v7, v3]": the first address in VADDR, one byte per further
// address in the dwords after the 8-byte word) and adds those bytes to
// the fields searched.
func nsaAddresses(t decode.Template, asm string, words []uint32, free []isa.Field) ([]uint32, []isa.Field) {
	if t.Kind != decode.KindMIMG || len(words) < 2 {
		return words, free
	}
	_, rest, _ := strings.Cut(normalize(asm), " ")
	ops, _ := splitOperands(compactBrackets(rest))
	for _, o := range ops {
		if !strings.HasPrefix(o, "[") || !strings.Contains(o, ",") {
			continue
		}
		extra := strings.Count(o, ",") // addresses after the first
		out := append([]uint32(nil), words[:2]...)
		out = append(out, make([]uint32, (extra+3)/4)...)
		for i := 0; i < extra; i++ {
			lsb := 64 + 8*i
			free = append(free, isa.Field{Name: "NSA_ADDR" + strconv.Itoa(i+1), MSB: lsb + 7, LSB: lsb})
		}
		return out, free
	}
	return words, free
}

// searchZeroes clears the fields that the text does not show (a source
// behind a clear EN bit), as LLVM leaves them, and returns the bytes.
func (e *Encoder) searchZeroes(words []uint32, free []isa.Field, want *readBack) []byte {
	for _, f := range free {
		v := f.Get(words)
		if v == 0 {
			continue
		}
		f.Put(words, 0)
		if _, n := e.searchScore(words, nil, want); n == 0 {
			f.Put(words, v)
		}
	}
	_, n := e.searchScore(words, nil, want)
	return wordBytes(nil, words)[:n]
}

// namedModifier reads a modifier that names a field: a bare flag whose
// field is one bit wide ("glc", "done"), or key:number ("dmask:0x7",
// "offset:-8"; wait_vdst:9 for WAITVDST too). It returns the field and
// the value to write.
func (e *Encoder) namedModifier(fields map[string]isa.Field, m string) (string, uint64, bool) {
	key, val, hasVal := strings.Cut(m, ":")
	up := strings.ToUpper(key)
	f, ok := fields[up]
	if !ok {
		up = strings.ReplaceAll(up, "_", "")
		f, ok = fields[up]
	}
	if !ok && key == "offset" {
		// GFX12's immediate offsets are IOFFSET fields.
		up = "IOFFSET"
		f, ok = fields[up]
	}
	if !ok {
		return "", 0, false
	}
	w := uint(f.Width())
	if !hasVal {
		return up, 1, w == 1
	}
	v, err := strconv.ParseInt(val, 0, 64)
	if err != nil || v < -(1<<(w-1)) || v >= 1<<w {
		return "", 0, false
	}
	return up, uint64(v) & (1<<w - 1), true
}

func wordBytes(dst []byte, words []uint32) []byte {
	for _, w := range words {
		dst = binary.LittleEndian.AppendUint32(dst, w)
	}
	return dst
}

// searchTokens splits an instruction's text into its words (operands and
// modifiers; a bracketed modifier list is one word, a register list one
// word per register).
func searchTokens(s string) []string {
	var toks []string
	for _, t := range fieldsOutsideBrackets(normalize(s)) {
		t = strings.TrimSuffix(t, ",")
		if strings.HasPrefix(t, "[") && strings.Contains(t, ",") {
			// A register list ([v1, v7, v3]): one word per register, so
			// that their order counts.
			for _, r := range strings.Split(strings.Trim(t, "[]"), ",") {
				toks = append(toks, "["+strings.TrimSpace(r))
			}
			continue
		}
		toks = append(toks, t)
	}
	return toks
}

// searchScore says how much the decoding of words reads like the target:
// words equal in place count most, words alike in place (a VGPR for a
// VGPR, the same modifier key) a little, a word present anywhere some
// more; words too many count against. n is the instruction's
// length when it reads back as want exactly (a format's words may hold
// more than the instruction takes: MIMG without NSA), else 0.
func (e *Encoder) searchScore(words []uint32, target []string, want *readBack) (score, n int) {
	var b [64]byte
	in, n, err := e.d.DecodeBrief(wordBytes(b[:0], words), 0)
	if err != nil || n > 4*len(words) {
		return -1 << 20, 0
	}
	text := normalize(in.Text)
	if !in.Partial && want.matches(text) {
		return 0, n
	}
	got := searchTokens(text)
	for i := 0; i < len(got) && i < len(target); i++ {
		score += tokenLikeness(got[i], target[i])
	}
	have := map[string]int{}
	for _, g := range got {
		have[g]++
	}
	for _, w := range target {
		if have[w] > 0 {
			have[w]--
			score += 2
		}
	}
	// Words beyond the target's count against; words missing do not (a
	// word gained is worth only what it matches).
	if d := len(got) - len(target); d > 0 {
		score -= 2 * d
	}
	if in.Partial {
		score -= 4
	}
	return score, 0
}

// tokenLikeness compares two words of instruction text: equal words count
// most; otherwise the parts they are made of (letters and digits: attr19.w
// is attr, 19, w) count where both have them, so that fields that
// together make one word (ATTR and ATTR_CHAN, DFMT and NFMT) are found one
// after the other.
func tokenLikeness(a, b string) int {
	if a == b {
		return 8
	}
	pa, pb := wordParts(a), wordParts(b)
	have := map[string]int{}
	for _, p := range pa {
		have[p]++
	}
	s := 0
	for _, p := range pb {
		if have[p] > 0 {
			have[p]--
			s++
		}
	}
	if s > 0 && len(pa) == len(pb) {
		s++
	}
	return min(s, 7)
}

// wordParts splits a word at every character that is not a letter or a
// digit, and between letters and digits.
func wordParts(s string) []string {
	var out []string
	start := -1
	class := func(c byte) int {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			return 1
		case c >= '0' && c <= '9':
			return 2
		}
		return 0
	}
	for i := 0; i <= len(s); i++ {
		c := 0
		if i < len(s) {
			c = class(s[i])
		}
		if start >= 0 && (c == 0 || c != class(s[start])) {
			out = append(out, s[start:i])
			start = -1
		}
		if start < 0 && c != 0 {
			start = i
		}
	}
	return out
}
