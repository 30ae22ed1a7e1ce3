package web

import (
	"fmt"
	"html"
	"html/template"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// The encoding diagram is drawn as SVG with geometry in presentation
// attributes (x, width), not style attributes, so it needs no inline CSS
// under the Content-Security-Policy. Each row holds bitsPerRow bits, most
// significant on the left; the page carries a 32-bit-per-row and a
// 16-bit-per-row version and CSS shows the one that fits the screen.

const (
	// verticalRoomWithBits is the length a rotated name may take when the
	// binary value sits below it in the same box.
	verticalRoomWithBits = 38

	bitUnit   = 24 // SVG user units per bit
	rowHeight = 64 // box height
	labelBand = 16 // band above the box for bit numbers
)

// diagram is one encoding's bit layout split into rows.
type diagram struct {
	BitsPerRow int
	Rows       []diagramRow
	Label      string // accessible description
}

type diagramRow struct {
	Width, Height int // SVG viewBox size
	Segments      []segment
	Ticks         []tick
}

// segment is one field (or unnamed gap) within one row.
type segment struct {
	Name     string // "" for bits no field covers
	MSB, LSB int    // instruction bit numbers of this piece
	Bits     string // binary value written in the box (fixed ENCODING, OP), "" if variable
	X, W     int    // SVG geometry
	TextX    int
	FontSize int
	Vertical bool // name drawn rotated because the box is narrow
	Class    string
}

type tick struct {
	X      int
	Label  string
	Anchor string
}

// fieldPiece is a contiguous bit range of a field with the part of its value
// that falls in it.
type fieldPiece struct {
	name     string
	msb, lsb int
	bits     string
	class    string
}

// fieldValue returns the binary string a field holds for this instruction:
// its fixed value, or the opcode for the OP field.
func fieldValue(f isa.Field, opcode int) (string, string) {
	w := f.Width()
	if f.Fixed != "" {
		return f.Fixed, "fixed"
	}
	if strings.EqualFold(f.Name, "OP") && w > 0 && w < 63 {
		b := strconv.FormatUint(uint64(opcode), 2)
		if len(b) > w {
			return "", "op" // does not fit: show no bits rather than wrong ones
		}
		return strings.Repeat("0", w-len(b)) + b, "op"
	}
	return "", "var"
}

// pieces splits fields into contiguous ranges, assigning each range its slice
// of the field's value (ranges are listed most significant part first). A
// field with documented sub-fields (Parts) is drawn as those, its bits no
// part claims under its own name.
func pieces(fields []isa.Field, opcode int) []fieldPiece {
	var out []fieldPiece
	for _, f := range fields {
		if len(f.Parts) > 0 {
			out = append(out, partPieces(f)...)
			continue
		}
		val, class := fieldValue(f, opcode)
		used := 0
		for _, r := range f.BitRanges() {
			if r.MSB < r.LSB {
				continue
			}
			n := r.MSB - r.LSB + 1
			p := fieldPiece{name: f.Name, msb: r.MSB, lsb: r.LSB, class: class}
			if len(val) == f.Width() && used+n <= len(val) {
				p.bits = val[used : used+n]
			}
			used += n
			out = append(out, p)
		}
	}
	return out
}

// partPieces draws an immediate's sub-fields, then what is left of it.
func partPieces(f isa.Field) []fieldPiece {
	var out []fieldPiece
	claimed := map[int]bool{}
	for _, p := range f.Parts {
		for _, r := range p.BitRanges() {
			if r.MSB < r.LSB {
				continue
			}
			out = append(out, fieldPiece{name: p.Name, msb: r.MSB, lsb: r.LSB, class: "part"})
			for b := r.LSB; b <= r.MSB; b++ {
				claimed[b] = true
			}
		}
	}
	for _, r := range f.BitRanges() {
		for b := r.MSB; b >= r.LSB; {
			if claimed[b] {
				b--
				continue
			}
			end := b
			for end-1 >= r.LSB && !claimed[end-1] {
				end--
			}
			out = append(out, fieldPiece{name: f.Name, msb: b, lsb: end, class: "var"})
			b = end - 1
		}
	}
	return out
}

// buildDiagram lays out an encoding in rows of bitsPerRow bits. Bits no field
// covers become unnamed gaps; overlapping fields keep the first one listed.
func buildDiagram(enc isa.Encoding, bitsPerRow int) diagram {
	if enc.Width <= 0 || enc.Width > 256 {
		return diagram{}
	}
	return layoutDiagram(enc.Width, fmt.Sprintf("Bit layout of the %d-bit %s encoding", enc.Width, enc.Name),
		pieces(enc.Fields, enc.Opcode), bitsPerRow, nil)
}

// layoutDiagram lays out field pieces over width bits in rows of bitsPerRow.
// gapBits, when not nil, gives the binary value of bits no piece covers (a
// decoded instruction knows every bit; a layout does not).
func layoutDiagram(width int, label string, ps []fieldPiece, bitsPerRow int, gapBits func(msb, lsb int) string) diagram {
	if width <= 0 || width > 256 || bitsPerRow <= 0 {
		return diagram{}
	}
	owner := make([]int, width) // bit -> piece index+1
	for i, p := range ps {
		for b := p.lsb; b <= p.msb && b < width; b++ {
			if b >= 0 && owner[b] == 0 {
				owner[b] = i + 1
			}
		}
	}
	d := diagram{BitsPerRow: bitsPerRow, Label: label}
	for top := width - 1; top >= 0; top -= bitsPerRow {
		bottom := max(top-bitsPerRow+1, 0)
		n := top - bottom + 1
		row := diagramRow{Width: n*bitUnit + 2, Height: labelBand + rowHeight + 2}
		for b := top; b >= bottom; {
			o := owner[b]
			end := b
			for end-1 >= bottom && owner[end-1] == o {
				end--
			}
			seg := segment{MSB: b, LSB: end, Class: "gap"}
			if o > 0 {
				p := ps[o-1]
				seg.Name = p.name
				seg.Class = p.class
				if p.bits != "" {
					// the piece's value may extend past this row: take the slice
					// for bits b..end.
					off := p.msb - b
					seg.Bits = p.bits[off : off+(b-end+1)]
				}
			} else if gapBits != nil {
				seg.Bits = gapBits(b, end)
			}
			seg.X = (top-b)*bitUnit + 1
			seg.W = (b - end + 1) * bitUnit
			seg.TextX = seg.X + seg.W/2
			fitFont(&seg)
			row.Segments = append(row.Segments, seg)
			row.Ticks = append(row.Ticks, tick{X: seg.X + 3, Label: strconv.Itoa(seg.MSB), Anchor: "start"})
			if seg.LSB != seg.MSB {
				row.Ticks = append(row.Ticks, tick{X: seg.X + seg.W - 3, Label: strconv.Itoa(seg.LSB), Anchor: "end"})
			}
			b = end - 1
		}
		d.Rows = append(d.Rows, row)
	}
	return d
}

// fitFont picks a font size so the name fits its box, rotating it when the box
// is only a bit or two wide.
func fitFont(s *segment) {
	const charW = 0.62 // average glyph width of the monospace font, in em
	size := 13
	if s.Name == "" {
		s.FontSize = size
		return
	}
	need := func(sz int) float64 { return float64(len(s.Name)) * charW * float64(sz) }
	for size > 8 && need(size) > float64(s.W-4) {
		size--
	}
	if need(size) > float64(s.W-4) {
		s.Vertical = true
		room := float64(rowHeight - 8)
		if s.Bits != "" {
			room = verticalRoomWithBits
		}
		size = 11
		for size > 6 && need(size) > room {
			size--
		}
	}
	s.FontSize = size
}

// rebuildIdentifier places the fixed field values and the opcode into an
// instruction word and returns it, as AMD's identifiers are formed. ok is
// false when the layout has no fixed bits or is wider than 64 bits.
func rebuildIdentifier(enc isa.Encoding) (uint64, bool) {
	if enc.Width <= 0 || enc.Width > 256 {
		return 0, false
	}
	var word uint64
	sawFixed := false
	for _, p := range pieces(enc.Fields, enc.Opcode) {
		if p.bits == "" || p.class == "var" || p.class == "part" || p.msb >= 64 {
			continue // only the first two dwords identify (96-bit formats: the first)
		}
		if p.class == "fixed" {
			sawFixed = true
		}
		v, err := strconv.ParseUint(p.bits, 2, 64)
		if err != nil || p.lsb < 0 || p.msb >= 64 {
			return 0, false
		}
		word |= v << uint(p.lsb)
	}
	return word, sawFixed
}

// identifierCheck says in words whether the opcode rebuilds the listed
// identifier and what the assembler said about it. It returns "" when there
// is nothing to check; ok is false when the rebuilt value differs or
// llvm-mc encoded other identifying bits: the page never ticks a value the
// assembler contradicts.
func identifierCheck(enc isa.Encoding) (string, bool) {
	if enc.Identifier == "" {
		return "", false
	}
	listed, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(enc.Identifier), "0x"), 16, 64)
	if err != nil {
		return "The identifier " + enc.Identifier + " is not a hexadecimal number.", false
	}
	word, ok := rebuildIdentifier(enc)
	if !ok {
		return "", false
	}
	digits := max((enc.Width+3)/4, 8)
	if enc.Width > 32 && listed>>32 == 0 {
		// identifiers of 64-bit encodings may be listed as the low dword only
		word &= 0xFFFFFFFF
		digits = 8
	}
	rebuilt := fmt.Sprintf("0x%0*X", digits, word)
	if word != listed {
		return fmt.Sprintf("Opcode %d in OP rebuilds %s, which differs from the listed identifier %s.", enc.Opcode, rebuilt, enc.Identifier), false
	}
	msg := fmt.Sprintf("Opcode %d in OP rebuilds %s, the identifier listed for this encoding.", enc.Opcode, rebuilt)
	a := enc.Assembler
	switch {
	case a == nil:
		return msg + " No example of this encoding was compared with llvm-mc.", true
	case !a.Agrees:
		return fmt.Sprintf("%s But llvm-mc encodes %s on %s as %s, whose identifying bits are %s.", msg, a.Asm, a.Target, a.Encoding, a.Identifier), false
	}
	return fmt.Sprintf("%s llvm-mc encodes %s on %s as %s, with the same identifying bits.", msg, a.Asm, a.Target, a.Encoding), true
}

// sortedFields returns the fields most significant first, for the field table.
func sortedFields(fs []isa.Field) []isa.Field {
	out := append([]isa.Field(nil), fs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].MSB > out[j].MSB })
	return out
}

// SVG writes the diagram as inline SVG. It is built here rather than in a
// template because html/template's per-action escaping made diagrams most of
// a page's render time; every text written is escaped with html.EscapeString.
func (d diagram) SVG() template.HTML {
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="bits bits-%d">`, d.BitsPerRow)
	for _, row := range d.Rows {
		first, last := row.Segments[0].MSB, row.Segments[len(row.Segments)-1].LSB
		fmt.Fprintf(&b, "\n"+`<svg viewBox="0 0 %d %d" role="img" aria-label="%s, bits %d to %d" preserveAspectRatio="xMinYMin meet">`,
			row.Width, row.Height, html.EscapeString(d.Label), first, last)
		for _, t := range row.Ticks {
			fmt.Fprintf(&b, `<text class="tick" x="%d" y="12" text-anchor="%s">%s</text>`, t.X, t.Anchor, html.EscapeString(t.Label))
		}
		for _, s := range row.Segments {
			fmt.Fprintf(&b, `<rect class="f %s" x="%d" y="16" width="%d" height="64"/>`, s.Class, s.X, s.W)
			name := html.EscapeString(s.Name)
			switch {
			case s.Name != "" && s.Vertical:
				cy := 48
				if s.Bits != "" {
					cy = 37
				}
				fmt.Fprintf(&b, `<text class="fname" font-size="%d" text-anchor="middle" dominant-baseline="central" transform="rotate(-90 %d %d)" x="%d" y="%d">%s</text>`,
					s.FontSize, s.TextX, cy, s.TextX, cy, name)
			case s.Name != "":
				fmt.Fprintf(&b, `<text class="fname" font-size="%d" text-anchor="middle" x="%d" y="42">%s</text>`, s.FontSize, s.TextX, name)
			}
			if s.Bits != "" {
				fmt.Fprintf(&b, `<text class="fbits" text-anchor="middle" x="%d" y="72">%s</text>`, s.TextX, html.EscapeString(s.Bits))
			}
		}
		b.WriteString("</svg>")
	}
	b.WriteString("</div>")
	return template.HTML(b.String())
}
