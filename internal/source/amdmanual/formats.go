package amdmanual

import (
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"sort"
	"strconv"
	"strings"
)

var (
	// A caption may name the bits its table covers ("VOP3PX2 Fields for
	// bits [127:64] (the "WMMA" portion)"): CDNA 5 numbers the fields of
	// such a table from the portion's first bit.
	captionRE    = lazyre.New(`^Table \d+\.\s+(.+?)\s+(Fields|Opcodes|X-Opcodes|Y-Opcodes)(?:\s+for bits \[(\d+):(\d+)\].*)?$`)
	summaryRE    = lazyre.New(`^Table \d+\.\s+Summary of Microcode Formats$`)
	anyCaptionRE = lazyre.New(`^Table \d+\.`)
	formatNameRE = lazyre.New(`^[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)?$`)
	bitRangeRE   = lazyre.New(`^\[?(\d+)(?::(\d+))?\]?`)
	// fixedRE matches a field description that fixes the field's value:
	// "Must be: 10_1111101", "'b110101", or a bare binary string.
	fixedRE    = lazyre.New(`^(?:Must be:?\s*)?(?:'b)?([01][01_]*)\.?$`)
	fixedHexRE = lazyre.New(`^Must be(?: set to)?:?\s*0x([0-9A-Fa-f]+)\.?$`)
	// partNameRE matches a row that holds some bits of a field the format
	// splits ("SCL_OPSEL_HI[2]", "SCL_OPSEL_HI[1:0]"): field name, value bits.
	partNameRE = lazyre.New(`^([A-Z][A-Z0-9_]*)\[(\d+)(?::(\d+))?\]$`)
	// wordNameRE matches a row named by a plain word ("Constant"), which
	// stands for the field of that name.
	wordNameRE  = lazyre.New(`^[A-Z][a-z]+$`)
	perFmtRE    = lazyre.New(`([A-Za-z]+)\s*=\s*'b([01_]+)`)
	segValueRE  = lazyre.New(`(\d+)\s*=\s*([A-Za-z]+)`)
	fieldNameRE = lazyre.New(`^[A-Z][A-Z0-9_]*$`)
)

// isFormatName reports whether a heading names a microcode format ("VOP3P",
// "VOP3P-MAI", "DPP16") rather than a prose section.
func isFormatName(s string) bool {
	return len(s) <= 12 && formatNameRE.MatchString(s)
}

type fieldTable struct {
	names  []string // formats it belongs to; several for a shared table
	fields []Field
	line   int
}

type formatState struct {
	formats map[string]*Format
	order   []string

	curFormat        string // format named by the latest heading, "" under a prose heading
	formatChanged    bool   // curFormat changed since the last table
	caption          string // pending caption name ("SOP2")
	captionKind      string // "Fields", "Opcodes", "X-Opcodes", "Y-Opcodes"
	captionMulti     []string
	captionBits      [2]int // the caption's "for bits [hi:lo]", zero when it names none (no shift either way)
	lastOffset       int    // what the latest field table's bit numbers were shifted by
	summaryPending   bool
	lastTableKind    string // "fields", "opcodes" or ""
	lastFieldsTarget string
	lastOpTarget     string
	lastOpSlot       string
	lastFields       *fieldTable // most recent field table, for formats without their own
	inheritFrom      map[string]*fieldTable
	summary          map[string]int
	pendingDesc      map[string]string

	table     []string // rows of the table being collected
	tableLine int
}

func newFormatState() *formatState {
	return &formatState{
		formats:     map[string]*Format{},
		inheritFrom: map[string]*fieldTable{},
		summary:     map[string]int{},
		pendingDesc: map[string]string{},
	}
}

func (s *formatState) format(name string, line int) *Format {
	if f, ok := s.formats[name]; ok {
		return f
	}
	f := &Format{Name: name, Line: line}
	s.formats[name] = f
	s.order = append(s.order, name)
	return f
}

func (s *formatState) setFormat(name string) {
	if name != s.curFormat {
		s.curFormat = name
		s.formatChanged = true
	}
}

// line handles one line of the microcode chapter.
func (s *formatState) line(p *parser, i int) {
	raw := p.lines[i]
	trimmed := strings.TrimSpace(raw)
	if strings.HasPrefix(trimmed, "|") {
		if len(s.table) == 0 {
			s.tableLine = i + 1
		}
		s.table = append(s.table, trimmed)
		return
	}
	s.flushTable(p)
	if trimmed == "" {
		return
	}
	text, isHeading := headingText(trimmed)
	if !isHeading {
		text = Clean(trimmed)
	}
	if summaryRE.MatchString(text) {
		s.summaryPending = true
		return
	}
	if m := captionRE.FindStringSubmatch(text); m != nil {
		s.caption, s.captionKind, s.captionMulti = m[1], m[2], nil
		s.captionBits = [2]int{}
		if m[3] != "" {
			hi, _ := strconv.Atoi(m[3])
			lo, _ := strconv.Atoi(m[4])
			s.captionBits = [2]int{hi, lo}
		}
		if names := splitNameList(m[1]); len(names) > 1 {
			s.captionMulti = names
		}
		return
	}
	if anyCaptionRE.MatchString(text) { // some other table (enumerations): not ours
		s.caption, s.captionKind, s.captionMulti = "", "other", nil
		return
	}
	if strings.HasPrefix(text, "Format ") {
		if name := strings.TrimSpace(strings.TrimPrefix(text, "Format ")); isFormatName(name) {
			s.setFormat(name)
		}
		return
	}
	if strings.HasPrefix(text, "Description ") {
		if s.curFormat != "" && s.pendingDesc[s.curFormat] == "" {
			s.pendingDesc[s.curFormat] = strings.TrimSpace(strings.TrimPrefix(text, "Description "))
		}
		return
	}
	if isHeading {
		if m := sectionRE.FindStringSubmatch(text); m != nil {
			if isFormatName(m[2]) {
				s.setFormat(m[2])
			} else {
				s.setFormat("")
			}
			return
		}
		if isFormatName(text) {
			s.setFormat(text)
		}
	}
}

// splitNameList splits "FLAT, GLOBAL and SCRATCH" into its names.
func splitNameList(s string) []string {
	s = strings.ReplaceAll(s, " and ", ",")
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// target picks the format a captioned table belongs to. RDNA 4 and CDNA 5
// captions drop the V of the heading's format ("DS Fields" under "VDS"); the
// heading's name wins there, the caption's everywhere else.
func (s *formatState) target(captionName string) string {
	if captionName == "" {
		return s.curFormat
	}
	if s.curFormat == "V"+captionName {
		return s.curFormat
	}
	return captionName
}

func (s *formatState) flushTable(p *parser) {
	if len(s.table) == 0 {
		return
	}
	rows := s.table
	start := s.tableLine
	s.table = nil
	caption, kind, multi, bits := s.caption, s.captionKind, s.captionMulti, s.captionBits
	s.caption, s.captionKind, s.captionMulti, s.captionBits = "", "", nil, [2]int{}
	changed := s.formatChanged
	s.formatChanged = false

	if s.summaryPending {
		s.summaryPending = false
		s.readSummary(rows)
		s.lastTableKind = ""
		return
	}
	if kind == "other" {
		s.lastTableKind = ""
		return
	}
	header := splitRow(rows[0])
	switch {
	case kind == "Fields" || looksLikeFieldTable(rows):
		ft := s.readFields(p, rows, start)
		if len(ft.fields) == 0 {
			s.lastTableKind = ""
			return
		}
		switch {
		case len(multi) > 0:
			ft.names = multi
			s.lastFields = ft
			s.lastTableKind = ""
			return
		case caption != "":
			s.lastFieldsTarget = s.target(caption)
			s.lastOffset = portionOffset(ft.fields, bits)
		case s.lastTableKind == "fields" && !changed:
			// second half of a split table (bits 32-63) or a page break:
			// numbered as the table it continues
		case s.curFormat != "":
			s.lastFieldsTarget = s.curFormat
			s.lastOffset = 0
		default:
			p.problem(start, "", "field table with no format heading or caption; skipped")
			s.lastTableKind = ""
			return
		}
		f := s.format(s.lastFieldsTarget, start)
		shiftFields(ft.fields, s.lastOffset)
		f.Fields = append(f.Fields, ft.fields...)
		ft.names = []string{f.Name}
		s.lastFields = &fieldTable{names: ft.names, fields: f.Fields, line: f.Line}
		s.lastTableKind = "fields"
	case kind == "Opcodes" || kind == "X-Opcodes" || kind == "Y-Opcodes" || looksLikeOpcodeTable(header, rows):
		var name, slot string
		switch {
		case caption != "":
			name = s.target(caption)
			if kind != "Opcodes" {
				slot = kind[:1]
			}
		case s.lastTableKind == "opcodes" && !changed:
			name, slot = s.lastOpTarget, s.lastOpSlot
		case s.curFormat != "":
			name = s.curFormat
		default:
			p.problem(start, "", "opcode table with no format heading or caption; skipped")
			s.lastTableKind = ""
			return
		}
		f := s.format(name, start)
		if len(f.Fields) == 0 && s.inheritFrom[name] == nil && s.lastFields != nil {
			s.inheritFrom[name] = s.lastFields
		}
		s.readOpcodes(p, rows, start, name, slot)
		s.lastOpTarget, s.lastOpSlot = name, slot
		s.lastTableKind = "opcodes"
	default:
		s.lastTableKind = ""
	}
}

// portionOffset is what a field table's bit numbers are counted from: a
// caption's "for bits [127:64]" names a portion whose fields the guide
// numbers from 0 (VDST [7:0] is bit 64) when every field fits within the
// portion's width; fields numbered as the whole word stand as written.
func portionOffset(fields []Field, bits [2]int) int {
	hi, lo := bits[0], bits[1]
	if lo <= 0 || hi < lo {
		return 0
	}
	for _, fl := range fields {
		for _, r := range fl.Ranges {
			if r.MSB > hi-lo {
				return 0
			}
		}
	}
	return lo
}

// shiftFields moves the fields' bits up by off.
func shiftFields(fields []Field, off int) {
	if off == 0 {
		return
	}
	for i := range fields {
		for j := range fields[i].Ranges {
			fields[i].Ranges[j].MSB += off
			fields[i].Ranges[j].LSB += off
		}
	}
}

// joinParts makes one field of the rows that each hold some value bits
// of it (SCL_OPSEL_HI[2] at bit 14, SCL_OPSEL_HI[1:0] at 60:59): ranges
// ordered from the value's most significant bits down, at the place of
// the first row.
func joinParts(f *Format) {
	var out []Field
	at := map[string]int{}
	for _, fl := range f.Fields {
		if !fl.part {
			out = append(out, fl)
			continue
		}
		i, seen := at[fl.Name]
		if !seen {
			at[fl.Name] = len(out)
			out = append(out, fl)
			continue
		}
		j := &out[i]
		if fl.lsb > j.lsb {
			j.Ranges = append(append([]BitRange(nil), fl.Ranges...), j.Ranges...)
			j.Description = strings.TrimSpace(fl.Description + " " + j.Description)
			j.lsb = fl.lsb
		} else {
			j.Ranges = append(j.Ranges, fl.Ranges...)
			j.Description = strings.TrimSpace(j.Description + " " + fl.Description)
		}
	}
	for i := range out {
		out[i].part = false
	}
	f.Fields = out
}

func looksLikeFieldTable(rows []string) bool {
	h := splitRow(rows[0])
	if len(h) >= 2 && strings.EqualFold(Clean(h[0]), "Field Name") && strings.EqualFold(Clean(h[1]), "Bits") {
		return true
	}
	// headerless continuation: NAME | [x:y] ...
	return len(h) >= 2 && formatNameRE.MatchString(Clean(h[0])) && bitRangeRE.MatchString(Clean(h[1]))
}

func looksLikeOpcodeTable(header []string, rows []string) bool {
	if len(header) >= 2 && strings.HasPrefix(Clean(header[0]), "Opcode") && strings.EqualFold(Clean(header[1]), "Name") {
		return true
	}
	// headerless (the first row is data): number | NAME pairs
	if len(header) < 2 || len(header)%2 != 0 {
		return false
	}
	for k := 0; k+1 < len(header); k += 2 {
		if _, err := strconv.Atoi(Clean(header[k])); err != nil {
			return false
		}
		if !nameRE.MatchString(Clean(header[k+1])) {
			return false
		}
	}
	return true
}

func (s *formatState) readFields(p *parser, rows []string, start int) *fieldTable {
	ft := &fieldTable{line: start}
	for k, row := range rows {
		if isSeparatorRow(row) {
			continue
		}
		cells := splitRow(row)
		if len(cells) < 2 {
			continue
		}
		name := Clean(cells[0])
		if strings.EqualFold(name, "Field Name") {
			continue
		}
		part, lsb := false, 0
		switch {
		case strings.EqualFold(name, "reserved"):
			name = "RESERVED"
		case wordNameRE.MatchString(name):
			name = strings.ToUpper(name)
		default:
			if m := partNameRE.FindStringSubmatch(name); m != nil {
				name, part = m[1], true
				lsb, _ = strconv.Atoi(m[2])
				if m[3] != "" {
					lsb, _ = strconv.Atoi(m[3])
				}
			}
		}
		bits := Clean(cells[1])
		var ranges []BitRange
		rest := bits
		for {
			m := bitRangeRE.FindStringSubmatch(rest)
			if m == nil || m[0] == "" {
				break
			}
			// Only the first range may lack brackets ("22:19"); after it the
			// cell goes on with value lists ("0 - 101 102 ...") that are not bits.
			if !strings.HasPrefix(m[0], "[") && (len(ranges) > 0 || m[2] == "" && strings.TrimSpace(rest) != m[0]) {
				break
			}
			msb, _ := strconv.Atoi(m[1])
			lsb := msb
			if m[2] != "" {
				lsb, _ = strconv.Atoi(m[2])
			}
			if lsb > msb {
				msb, lsb = lsb, msb
			}
			ranges = append(ranges, BitRange{MSB: msb, LSB: lsb})
			rest = strings.TrimLeft(rest[len(m[0]):], " ,")
		}
		if len(ranges) == 0 {
			p.problem(start+k, name, fmt.Sprintf("field bits %q are not a [msb:lsb] range", bits))
			continue
		}
		if !formatNameRE.MatchString(name) && !fieldNameRE.MatchString(name) {
			p.problem(start+k, name, "field name is not an identifier")
			continue
		}
		desc := ""
		if len(cells) > 2 {
			desc = Clean(strings.Join(cells[2:], " "))
		}
		ft.fields = append(ft.fields, Field{Name: name, Ranges: ranges, Description: desc, Line: start + k, part: part, lsb: lsb})
	}
	return ft
}

func (s *formatState) readOpcodes(p *parser, rows []string, start int, format, slot string) {
	for k, row := range rows {
		if isSeparatorRow(row) {
			continue
		}
		cells := splitRow(row)
		for c := 0; c+1 < len(cells); c += 2 {
			num, name := Clean(cells[c]), Clean(cells[c+1])
			if num == "" && name == "" {
				continue
			}
			if strings.HasPrefix(num, "Opcode") || strings.EqualFold(name, "Reserved") {
				continue // header cells and unassigned opcodes
			}
			op, err := strconv.Atoi(num)
			if err != nil || !nameRE.MatchString(name) {
				p.problem(start+k, name, fmt.Sprintf("%s opcode table cell pair %q | %q is not opcode | name", format, num, name))
				continue
			}
			p.guide.Instructions = append(p.guide.Instructions, Entry{
				Name: name, Encoding: format, Slot: slot, Opcode: op, Chapter: p.chap,
				Line: start + k, FromOpcodeTable: true,
			})
		}
	}
}

// readSummary reads "Summary of Microcode Formats": Reference -> width, where
// a blank width repeats the one above (the PDF merges those cells).
func (s *formatState) readSummary(rows []string) {
	width := 0
	for _, row := range rows[1:] {
		if isSeparatorRow(row) {
			continue
		}
		cells := splitRow(row)
		if len(cells) < 3 {
			continue
		}
		ref := Clean(cells[1])
		if w, err := strconv.Atoi(Clean(cells[2])); err == nil {
			width = w
		}
		if ref != "" && isFormatName(ref) && width > 0 {
			if _, seen := s.summary[ref]; !seen {
				s.summary[ref] = width
			}
		}
	}
}

// finish completes every format: inherited fields, fixed values, repairs,
// width and consistency notes; then appends them to the guide.
func (s *formatState) finish(p *parser) {
	for _, name := range s.order {
		f := s.formats[name]
		f.Description = s.pendingDesc[name]
		if len(f.Fields) == 0 {
			if src := s.inheritFrom[name]; src != nil {
				f.Fields = append([]Field(nil), src.fields...)
				f.Notes = append(f.Notes, fmt.Sprintf("The guide gives no field table for %s; fields are taken from the %s field table (line %d).", name, strings.Join(src.names, ", "), src.line))
			}
		}
		joinParts(f)
		applyFixedValues(f)
		repairFixedWidths(p, f)
		if !hasFixed(f) && len(f.Fields) > 0 && f.opcodeField() != nil {
			msg := "no field documents a fixed ENCODING value (missing row or empty description), so identifiers cannot be computed from this guide"
			f.Notes = append(f.Notes, "No field"+strings.TrimPrefix(msg, "no field")+".")
			p.problem(f.Line, f.Name, msg)
		}
		s.setWidth(p, f)
		checkLayout(p, f)
		p.guide.Formats = append(p.guide.Formats, *f)
	}
}

// applyFixedValues fills Field.Fixed from descriptions: "Must be: 110100",
// "'b110101", "Flat='b11101100, Global='b11101110" (a shared table: pick the
// value named after this format), and segment selectors such as
// "0 = flat, 1 = scratch, 2 = global" for formats named FLAT/SCRATCH/GLOBAL.
func applyFixedValues(f *Format) {
	base := strings.TrimPrefix(f.Name, "V")
	for i := range f.Fields {
		fl := &f.Fields[i]
		if m := fixedRE.FindStringSubmatch(fl.Description); m != nil {
			fl.Fixed = strings.ReplaceAll(m[1], "_", "")
			continue
		}
		if m := fixedHexRE.FindStringSubmatch(fl.Description); m != nil {
			if v, err := strconv.ParseUint(m[1], 16, 64); err == nil {
				fl.Fixed = strconv.FormatUint(v, 2) // zero-extended to the range by repairFixedWidths
			}
			continue
		}
		if ms := perFmtRE.FindAllStringSubmatch(fl.Description, -1); len(ms) > 1 {
			for _, m := range ms {
				if strings.EqualFold(m[1], f.Name) || strings.EqualFold(m[1], base) {
					fl.Fixed = strings.ReplaceAll(m[2], "_", "")
					f.Notes = append(f.Notes, fmt.Sprintf("%s is %s for %s, chosen from the shared description %q.", fl.Name, fl.Fixed, f.Name, fl.Description))
				}
			}
			continue
		}
		if fl.Name == "SEG" {
			for _, m := range segValueRE.FindAllStringSubmatch(fl.Description, -1) {
				if strings.EqualFold(m[2], f.Name) || strings.EqualFold(m[2], base) {
					v, _ := strconv.Atoi(m[1])
					w := 0
					for _, r := range fl.Ranges {
						w += r.Width()
					}
					bin := strconv.FormatInt(int64(v), 2)
					if len(bin) <= w {
						fl.Fixed = strings.Repeat("0", w-len(bin)) + bin
						f.Notes = append(f.Notes, fmt.Sprintf("SEG is %d for %s (from the field description); it is part of the identifier.", v, f.Name))
					}
				}
			}
		}
	}
}

// usedBits returns which bits the fields other than skip occupy.
func usedBits(f *Format, skip int) map[int]bool {
	used := map[int]bool{}
	for i, fl := range f.Fields {
		if i == skip {
			continue
		}
		for _, r := range fl.Ranges {
			for b := r.LSB; b <= r.MSB; b++ {
				used[b] = true
			}
		}
	}
	return used
}

// repairFixedWidths reconciles a fixed value with its bit range. Rule: when
// the value has more bits than the range and the bits just below the range
// (or just above it) belong to no other field, the range is widened to the
// value's length (CDNA 4 VOP3P: "[31:24] Must be: 110100111" becomes 31:23).
// A value shorter than its range is zero-extended. Every repair is a Note;
// what cannot be repaired is a Problem and the value is dropped.
func repairFixedWidths(p *parser, f *Format) {
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.Fixed == "" || len(fl.Ranges) != 1 {
			continue
		}
		r := fl.Ranges[0]
		diff := len(fl.Fixed) - r.Width()
		switch {
		case diff == 0:
		case diff < 0:
			fl.Fixed = strings.Repeat("0", -diff) + fl.Fixed
			f.Notes = append(f.Notes, fmt.Sprintf("%s [%d:%d] gives only %d bits; zero-extended to %s.", fl.Name, r.MSB, r.LSB, len(fl.Fixed)+diff, fl.Fixed))
		default:
			used := usedBits(f, i)
			free := func(lo, hi int) bool {
				if lo < 0 {
					return false
				}
				for b := lo; b <= hi; b++ {
					if used[b] {
						return false
					}
				}
				return true
			}
			switch {
			case free(r.LSB-diff, r.LSB-1):
				fl.Ranges[0].LSB -= diff
				f.Notes = append(f.Notes, fmt.Sprintf("%s is documented as [%d:%d] but its fixed value %s has %d bits; bits %d-%d belong to no other field, so the range was widened to [%d:%d].",
					fl.Name, r.MSB, r.LSB, fl.Fixed, len(fl.Fixed), r.LSB-diff, r.LSB-1, r.MSB, r.LSB-diff))
			case r.MSB%32+diff < 32 && free(r.MSB+1, r.MSB+diff):
				fl.Ranges[0].MSB += diff
				f.Notes = append(f.Notes, fmt.Sprintf("%s is documented as [%d:%d] but its fixed value %s has %d bits; bits %d-%d belong to no other field, so the range was widened to [%d:%d].",
					fl.Name, r.MSB, r.LSB, fl.Fixed, len(fl.Fixed), r.MSB+1, r.MSB+diff, r.MSB+diff, r.LSB))
			default:
				msg := fmt.Sprintf("%s [%d:%d] has fixed value %s of %d bits and the neighbouring bits are taken; value not used", fl.Name, r.MSB, r.LSB, fl.Fixed, len(fl.Fixed))
				f.Notes = append(f.Notes, msg+".")
				p.problem(fl.Line, f.Name, msg)
				fl.Fixed = ""
			}
		}
	}
}

// setWidth derives the width from the fields (rounded up to 32-bit words)
// and compares it with the summary table.
func (s *formatState) setWidth(p *parser, f *Format) {
	maxBit := -1
	for _, fl := range f.Fields {
		for _, r := range fl.Ranges {
			if r.MSB > maxBit {
				maxBit = r.MSB
			}
		}
	}
	sum := s.summary[f.Name]
	if maxBit >= 0 {
		f.Width = (maxBit/32 + 1) * 32
		if sum != 0 && sum != f.Width {
			f.Notes = append(f.Notes, fmt.Sprintf("The summary table gives %d bits; the fields reach bit %d, so the width is %d.", sum, maxBit, f.Width))
		}
		return
	}
	if sum != 0 {
		f.Width = sum
		f.Notes = append(f.Notes, "No field table; width taken from the summary table.")
		return
	}
	p.problem(f.Line, f.Name, "format has neither fields nor a summary width")
}

// checkLayout notes overlapping fields and bits of the first word that no
// field covers; both are usually conversion damage worth showing.
func checkLayout(p *parser, f *Format) {
	owner := map[int]string{}
	var overlaps []string
	for _, fl := range f.Fields {
		for _, r := range fl.Ranges {
			for b := r.LSB; b <= r.MSB; b++ {
				if o, ok := owner[b]; ok && o != fl.Name {
					overlaps = append(overlaps, fmt.Sprintf("bit %d (%s, %s)", b, o, fl.Name))
				}
				owner[b] = fl.Name
			}
		}
	}
	if len(overlaps) > 0 {
		if len(overlaps) > 6 {
			overlaps = append(overlaps[:6], "...")
		}
		msg := "fields overlap: " + strings.Join(overlaps, ", ")
		f.Notes = append(f.Notes, msg+".")
		p.problem(f.Line, f.Name, msg)
	}
	if len(f.Fields) == 0 || f.Width == 0 {
		return
	}
	// Only words that hold some field are checked: DPP/SDWA describe just
	// the extra word that follows a VOP instruction.
	var gaps []int
	for w := 0; w < f.Width/32; w++ {
		any := false
		for b := w * 32; b < w*32+32; b++ {
			if _, ok := owner[b]; ok {
				any = true
				break
			}
		}
		if !any {
			continue
		}
		for b := w * 32; b < w*32+32; b++ {
			if _, ok := owner[b]; !ok {
				gaps = append(gaps, b)
			}
		}
	}
	if len(gaps) > 0 {
		f.Notes = append(f.Notes, "Bits covered by no documented field: "+bitList(gaps)+".")
	}
}

func bitList(bits []int) string {
	sort.Ints(bits)
	var parts []string
	for i := 0; i < len(bits); {
		j := i
		for j+1 < len(bits) && bits[j+1] == bits[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(bits[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", bits[i], bits[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

func hasFixed(f *Format) bool {
	for _, fl := range f.Fields {
		if fl.Fixed != "" {
			return true
		}
	}
	return false
}
