package listing

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode"
)

// isNormText's fast path is taken only where the full normalisation gives
// the text back unchanged.
func TestIsNormTextAgreesWithNormalisation(t *testing.T) {
	alpha := []byte("aZ ,\t_\xc3\x97")
	rnd := rand.New(rand.NewSource(1))
	slow := func(s string) string {
		return strings.ReplaceAll(strings.ToLower(strings.Join(strings.Fields(s), " ")), " ,", ",")
	}
	fast := 0
	for i := 0; i < 100000; i++ {
		b := make([]byte, rnd.Intn(8))
		for j := range b {
			b[j] = alpha[rnd.Intn(len(alpha))]
		}
		s := string(b)
		if isNormText(s) {
			fast++
			if got := slow(s); got != s {
				t.Fatalf("isNormText(%q), but it normalises to %q", s, got)
			}
		}
		if normText(s) != slow(s) {
			t.Fatalf("normText(%q) = %q, want %q", s, normText(s), slow(s))
		}
	}
	if fast == 0 {
		t.Fatal("no text took the fast path")
	}
}

// isText's word-at-a-time scan answers as a rune-by-rune one.
func TestIsTextAgreesWithRuneScan(t *testing.T) {
	slow := func(b []byte) bool {
		for _, r := range string(b) {
			if r == unicode.ReplacementChar || (r < 32 && r != '\n' && r != '\r' && r != '\t') {
				return false
			}
		}
		return true
	}
	alpha := []byte("0x,\n\t\r\x00\x1f\x7f\xc3\x97\xff ")
	rnd := rand.New(rand.NewSource(2))
	for i := 0; i < 100000; i++ {
		b := make([]byte, rnd.Intn(40))
		for j := range b {
			b[j] = alpha[rnd.Intn(len(alpha))]
			if rnd.Intn(3) > 0 {
				b[j] = 'a' // mostly plain text, so whole words are read at once
			}
		}
		if got, want := isText(b), slow(b); got != want {
			t.Fatalf("isText(%q) = %v, want %v", b, got, want)
		}
	}
}

// bareBytes, with its one-byte fast path, reads what this plain reading
// does, on random lines of byte lists, hex words and other text.
func TestBareBytesAgreesWithPlainReading(t *testing.T) {
	toks := []string{"0x", "0X", "c1", "0a", "F", "160a04c1", ",", " ", "\t", "[", "]", "\r", ";", "#", "/", "//", "s_nop", ":", "x", "0", "1", "0xc1", ",0x0a", ",0x1", ",0xg1"}
	rnd := rand.New(rand.NewSource(3))
	for i := 0; i < 200000; i++ {
		var b []byte
		for n := rnd.Intn(8); n > 0; n-- {
			b = append(b, toks[rnd.Intn(len(toks))]...)
		}
		got, gotOK := bareBytes(b, nil)
		want, wantOK := bareBytesReference(b, nil)
		if gotOK != wantOK || gotOK && string(got) != string(want) {
			t.Fatalf("bareBytes(%q) = %x, %v; want %x, %v", b, got, gotOK, want, wantOK)
		}
	}
}

// bareBytesReference is bareBytes as it was before its fast paths.
func bareBytesReference(line, dst []byte) ([]byte, bool) {
	i := 0
	for i < len(line) {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == ',' || c == '[' || c == ']' || c == '\r':
			i++
			continue
		case c == ';' || c == '#' || c == '/' && i+1 < len(line) && line[i+1] == '/':
			return dst, true
		}
		if c == '0' && i+1 < len(line) && (line[i+1] == 'x' || line[i+1] == 'X') {
			i += 2
		}
		var v uint32
		n := 0
		for i < len(line) {
			d := line[i]
			var x byte
			switch {
			case d >= '0' && d <= '9':
				x = d - '0'
			case d >= 'a' && d <= 'f':
				x = d - 'a' + 10
			case d >= 'A' && d <= 'F':
				x = d - 'A' + 10
			default:
				x = 0xff
			}
			if x == 0xff {
				break
			}
			v = v<<4 | uint32(x)
			n++
			i++
		}
		if n != 2 && n != 8 {
			return dst, false // other lengths: parseLine says what they are
		}
		if i < len(line) {
			switch line[i] {
			case ' ', '\t', ',', ']', '\r', ';', '#', '/':
			default:
				return dst, false // "000048:", "s_nop"
			}
		}
		if n <= 2 {
			dst = append(dst, byte(v))
		} else {
			dst = binary.LittleEndian.AppendUint32(dst, v)
		}
	}
	return dst, true
}

// singleSpaced gives what strings.Fields joined by spaces gives.
func TestSingleSpacedAgreesWithFields(t *testing.T) {
	alpha := []byte("ab ,\t\n\x00\xc2\xa0")
	rnd := rand.New(rand.NewSource(4))
	for i := 0; i < 100000; i++ {
		b := make([]byte, rnd.Intn(8))
		for j := range b {
			b[j] = alpha[rnd.Intn(len(alpha))]
		}
		s := string(b)
		if got, want := singleSpaced(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("singleSpaced(%q) = %q, want %q", s, got, want)
		}
	}
}

// appendAddr and appendWords write what fmt's zero-padded hex writes, after
// whatever the line holds already; padASCII pads as pad does on ASCII.
func TestHexWritersAgreeWithFmt(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		a := rnd.Int63() >> rnd.Intn(63)
		width := 1 + rnd.Intn(16)
		got := string(appendAddr([]byte("x:"), a, width))
		if want := "x:" + fmt.Sprintf("%0*x", width, a); got != want {
			t.Fatalf("appendAddr(%#x, %d) = %q, want %q", a, width, got, want)
		}
		code := make([]byte, rnd.Intn(13))
		rnd.Read(code)
		var want []string
		for k := 0; k+4 <= len(code); k += 4 {
			want = append(want, fmt.Sprintf("%08x", binary.LittleEndian.Uint32(code[k:])))
		}
		tail := ""
		for k := len(code) &^ 3; k < len(code); k++ {
			tail += fmt.Sprintf(" %02x", code[k])
		}
		if got, w := string(appendWords([]byte("> "), code)), "> "+strings.Join(want, " ")+tail; got != w {
			t.Fatalf("appendWords(% x) = %q, want %q", code, got, w)
		}
		line := []byte(strings.Repeat("a", rnd.Intn(40)))
		to := rnd.Intn(50)
		if got, w := string(padASCII(append([]byte(nil), line...), to)), string(pad(append([]byte(nil), line...), to)); got != w {
			t.Fatalf("padASCII(%q, %d) = %q, want %q", line, to, got, w)
		}
	}
}
