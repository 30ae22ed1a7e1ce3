package famdiff

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// compare returns what differs between one instruction on the two sides,
// or nil when nothing does. words maps From's renamed identifiers to To's.
func compare(a, b *Inst, from, to *Family, fmap map[string][]string, words map[string]string) *Change {
	c := &Change{From: a.Name, To: b.Name, Category: b.Category, Renamed: a.Name != b.Name}
	if c.Category == "" {
		c.Category = a.Category
	}
	c.Encodings = encodingChanges(a, b, fmap)
	c.Operands = operandChanges(a.Operands, b.Operands)
	if sa, sb := normalizeSpace(a.Semantics), normalizeSpace(b.Semantics); sa != "" && sb != "" && sa != sb {
		ta, tb := tokens(sa), tokens(sb)
		for i, t := range ta {
			if r, ok := words[t]; ok {
				ta[i] = r
			}
		}
		if !slices.Equal(keys(ta), keys(tb)) {
			c.Semantics = wordDiff(ta, tb)
		}
	}
	c.Targets = targetChange(a, b, from, to)
	if len(c.Encodings) == 0 && len(c.Operands) == 0 && len(c.Semantics) == 0 && c.Targets == nil {
		return nil
	}
	return c
}

// encodingChanges lists opcodes that changed within a format (or a format
// To renamed), encodings that moved to another format, and encodings only
// one side has. A move into the format From's format became (DS -> VDS)
// with the same opcode is the format's change, not the instruction's.
func encodingChanges(a, b *Inst, fmap map[string][]string) []EncodingChange {
	var out []EncodingChange
	usedB := make([]bool, len(b.Encodings))
	// Pair encodings by name first, then by the format the family's
	// counterpart map gives.
	restA := a.Encodings
	for _, same := range []func(ea, eb Enc) bool{
		func(ea, eb Enc) bool { return eb.Name == ea.Name },
		func(ea, eb Enc) bool { return mapsTo(fmap, ea.Format, eb.Format) },
	} {
		var unpaired []Enc
		for _, ea := range restA {
			found := false
			for j, eb := range b.Encodings {
				if usedB[j] || !same(ea, eb) {
					continue
				}
				usedB[j], found = true, true
				if eb.Opcode != ea.Opcode {
					out = append(out, EncodingChange{Kind: ChangeOpcode, From: encText(ea), To: encText(eb)})
				}
				break
			}
			if !found {
				unpaired = append(unpaired, ea)
			}
		}
		restA = unpaired
	}
	// What is left moved to a format that is not the family's
	// counterpart, or exists on one side only.
	var restB []Enc
	for j, eb := range b.Encodings {
		if !usedB[j] {
			restB = append(restB, eb)
		}
	}
	n := min(len(restA), len(restB))
	for i := 0; i < n; i++ {
		out = append(out, EncodingChange{Kind: ChangeFormat, From: encText(restA[i]), To: encText(restB[i])})
	}
	for _, ea := range restA[n:] {
		out = append(out, EncodingChange{Kind: ChangeRemoved, From: encText(ea)})
	}
	for _, eb := range restB[n:] {
		out = append(out, EncodingChange{Kind: ChangeAdded, To: encText(eb)})
	}
	return out
}

func encText(e Enc) string { return fmt.Sprintf("%s %d", e.Name, e.Opcode) }

// operandChanges compares operands by name; an operand renamed at the same
// place with the same type and size is the documentation's spelling, not a
// change.
func operandChanges(a, b []Operand) []OperandChange {
	var out []OperandChange
	byName := func(ops []Operand) map[string]int {
		m := map[string]int{}
		for i, o := range ops {
			m[o.Name] = i
		}
		return m
	}
	ia, ib := byName(a), byName(b)
	for i, oa := range a {
		j, ok := ib[oa.Name]
		if !ok {
			if i < len(b) {
				if _, taken := ia[b[i].Name]; !taken && operandText(oa) == operandText(b[i]) {
					continue // same operand, another name
				}
			}
			out = append(out, OperandChange{Kind: ChangeRemoved, Operand: oa.Name, From: operandText(oa)})
			continue
		}
		if ta, tb := operandText(oa), operandText(b[j]); ta != tb && comparable(oa, b[j]) {
			out = append(out, OperandChange{Kind: ChangeTyped, Operand: oa.Name, From: ta, To: tb})
		}
	}
	for j, ob := range b {
		if _, ok := ia[ob.Name]; ok {
			continue
		}
		if j < len(a) {
			if _, taken := ib[a[j].Name]; !taken && operandText(a[j]) == operandText(ob) {
				continue
			}
		}
		out = append(out, OperandChange{Kind: ChangeAdded, Operand: ob.Name, To: operandText(ob)})
	}
	return out
}

// dataFormat spells AMD's XML data formats (FMT_NUM_F32) as LLVM's type
// tags (f32), so families read from different sources compare.
func dataFormat(s string) string {
	s = strings.ToLower(s)
	s = strings.TrimPrefix(s, "fmt_num_")
	s = strings.TrimPrefix(s, "fmt_")
	return s
}

func operandText(o Operand) string {
	var parts []string
	if f := dataFormat(o.DataFormat); f != "" {
		parts = append(parts, f)
	}
	if o.Size > 0 {
		parts = append(parts, strconv.Itoa(o.Size)+" bits")
	}
	switch {
	case o.Input && o.Output:
		parts = append(parts, "read, written")
	case o.Output:
		parts = append(parts, "written")
	case o.Input:
		parts = append(parts, "read")
	}
	return strings.Join(parts, ", ")
}

// comparable says whether two operands' facts come from sources that can
// be compared: a side that states neither type nor size says nothing.
func comparable(a, b Operand) bool {
	return (a.DataFormat != "" || a.Size != 0) && (b.DataFormat != "" || b.Size != 0)
}

// targetChange reports when the instruction goes from all of a family's
// targets to some, or some to none, and so on; nil when both families
// accept it on all of their targets (or either was not verified).
func targetChange(a, b *Inst, from, to *Family) *TargetChange {
	if !a.Verified || !b.Verified {
		return nil
	}
	shape := func(n, of int) int {
		switch {
		case n == 0:
			return 0
		case n == of:
			return 2
		}
		return 1
	}
	sa, sb := shape(len(a.Supported), len(from.Targets)), shape(len(b.Supported), len(to.Targets))
	if sa == sb && sa != 1 {
		return nil
	}
	if sa == 1 && sb == 1 && len(a.Supported) == len(b.Supported) {
		return nil // some in both, as many: the family's own subdivision
	}
	return &TargetChange{From: nonNil(a.Supported), FromOf: len(from.Targets), To: nonNil(b.Supported), ToOf: len(to.Targets)}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// formatChanges compares the two families' bit layouts: formats with the
// same name, formats To renamed (after the instructions that moved), and
// formats only one side has.
func formatChanges(from, to *Family, fmap map[string][]string, pairs [][2]*Inst) []FormatChange {
	fb := map[string]isa.Format{}
	for _, f := range to.Formats {
		fb[f.Name] = f
	}
	fa := map[string]isa.Format{}
	for _, f := range from.Formats {
		fa[f.Name] = f
	}
	var out []FormatChange
	reached := map[string]bool{}
	for _, f := range from.Formats {
		if g, ok := fb[f.Name]; ok {
			reached[g.Name] = true
			if fc := layoutChange(f, g); fc != nil {
				fc.Kind = "changed"
				out = append(out, *fc)
			}
			continue
		}
		targets := fmap[f.Name]
		if len(targets) == 0 {
			out = append(out, FormatChange{Kind: ChangeRemoved, From: f.Name, FromWidth: f.Width, Fields: []FieldChange{}})
			continue
		}
		for _, t := range targets {
			g, ok := fb[t]
			if !ok {
				continue
			}
			reached[t] = true
			fc := layoutChange(f, g)
			if fc == nil {
				fc = &FormatChange{From: f.Name, To: g.Name, FromWidth: f.Width, ToWidth: g.Width, Fields: []FieldChange{}}
			}
			fc.Kind = ChangeRenamed
			fc.Instructions = movedCount(pairs, f.Name, t)
			out = append(out, *fc)
		}
	}
	for _, g := range to.Formats {
		if !reached[g.Name] {
			if _, ok := fa[g.Name]; !ok {
				out = append(out, FormatChange{Kind: ChangeAdded, To: g.Name, ToWidth: g.Width, Fields: []FieldChange{}})
			}
		}
	}
	return out
}

// movedCount counts the instructions on both sides encoded in From's
// format fa and in To's fb.
func movedCount(pairs [][2]*Inst, fa, fb string) int {
	n := 0
	for _, p := range pairs {
		if hasFormat(p[0], fa) && hasFormat(p[1], fb) {
			n++
		}
	}
	return n
}

func hasFormat(in *Inst, f string) bool {
	for _, e := range in.Encodings {
		if e.Format == f {
			return true
		}
	}
	return false
}

// layoutChange compares two formats' fields by name: added, removed,
// moved to other bits, holding another fixed value; nil when the layouts
// are the same.
func layoutChange(a, b isa.Format) *FormatChange {
	fc := &FormatChange{From: a.Name, To: b.Name, FromWidth: a.Width, ToWidth: b.Width, Fields: []FieldChange{}}
	fb := map[string]isa.Field{}
	for _, f := range b.Fields {
		fb[f.Name] = f
	}
	fa := map[string]bool{}
	for _, f := range a.Fields {
		fa[f.Name] = true
		g, ok := fb[f.Name]
		if !ok {
			fc.Fields = append(fc.Fields, FieldChange{Kind: ChangeRemoved, Field: f.Name, From: f.BitsText()})
			continue
		}
		if f.BitsText() != g.BitsText() {
			fc.Fields = append(fc.Fields, FieldChange{Kind: ChangeMoved, Field: f.Name, From: f.BitsText(), To: g.BitsText()})
		} else if f.Fixed != g.Fixed && f.Fixed != "" && g.Fixed != "" {
			fc.Fields = append(fc.Fields, FieldChange{Kind: ChangeFixed, Field: f.Name, From: "= " + f.Fixed, To: "= " + g.Fixed})
		}
	}
	for _, g := range b.Fields {
		if !fa[g.Name] {
			fc.Fields = append(fc.Fields, FieldChange{Kind: ChangeAdded, Field: g.Name, To: g.BitsText()})
		}
	}
	sort.SliceStable(fc.Fields, func(i, j int) bool { return fieldOrder(fc.Fields[i]) > fieldOrder(fc.Fields[j]) })
	if len(fc.Fields) == 0 && a.Width == b.Width {
		return nil
	}
	return fc
}

// fieldOrder sorts field changes by their most significant bit, highest
// first, as the layouts are drawn.
func fieldOrder(f FieldChange) int {
	s := f.To
	if s == "" {
		s = f.From
	}
	s = strings.TrimPrefix(s, "= ")
	hi, _, _ := strings.Cut(s, ":")
	hi, _, _ = strings.Cut(hi, ",")
	n, err := strconv.Atoi(hi)
	if err != nil {
		return -1
	}
	return n
}

// finish sorts the rows, fills the counts and makes every list non-nil.
func finish(r *Result) {
	byCat := func(ci, cj, ni, nj string) bool {
		if ci != cj {
			return ci < cj
		}
		return ni < nj
	}
	sort.Slice(r.Added, func(i, j int) bool {
		return byCat(r.Added[i].Category, r.Added[j].Category, r.Added[i].Name+r.Added[i].Syntax+r.Added[i].Modifier, r.Added[j].Name+r.Added[j].Syntax+r.Added[j].Modifier)
	})
	sort.Slice(r.Removed, func(i, j int) bool {
		return byCat(r.Removed[i].Category, r.Removed[j].Category, r.Removed[i].Name+r.Removed[i].Syntax+r.Removed[i].Modifier, r.Removed[j].Name+r.Removed[j].Syntax+r.Removed[j].Modifier)
	})
	sort.Slice(r.Renamed, func(i, j int) bool {
		return byCat(r.Renamed[i].Category, r.Renamed[j].Category, r.Renamed[i].From, r.Renamed[j].From)
	})
	sort.Slice(r.Changed, func(i, j int) bool {
		return byCat(r.Changed[i].Category, r.Changed[j].Category, r.Changed[i].From, r.Changed[j].From)
	})
	cats := map[string]*CategoryCount{}
	cat := func(name string) *CategoryCount {
		if name == "" {
			name = "Uncategorized"
		}
		c, ok := cats[name]
		if !ok {
			c = &CategoryCount{Category: name}
			cats[name] = c
		}
		return c
	}
	r.Counts.Added, r.Counts.Removed, r.Counts.Renamed, r.Counts.Changed = len(r.Added), len(r.Removed), len(r.Renamed), len(r.Changed)
	for _, it := range r.Added {
		cat(it.Category).Added++
	}
	for _, it := range r.Removed {
		cat(it.Category).Removed++
	}
	for _, rn := range r.Renamed {
		cat(rn.Category).Renamed++
	}
	for i := range r.Changed {
		c := &r.Changed[i]
		cat(c.Category).Changed++
		opcode, enc := false, false
		for _, e := range c.Encodings {
			if e.Kind == ChangeOpcode {
				opcode = true
			} else {
				enc = true
			}
		}
		if opcode {
			r.Counts.Opcodes++
		}
		if enc {
			r.Counts.Encodings++
		}
		if len(c.Operands) > 0 {
			r.Counts.Operands++
		}
		if len(c.Semantics) > 0 {
			r.Counts.Semantics++
		}
		if c.Targets != nil {
			r.Counts.Targets++
		}
		c.Encodings, c.Operands, c.Semantics = nonNilSlice(c.Encodings), nonNilSlice(c.Operands), nonNilSlice(c.Semantics)
	}
	r.Counts.Formats = len(r.Formats)
	r.Categories = []CategoryCount{}
	for _, c := range cats {
		r.Categories = append(r.Categories, *c)
	}
	sort.Slice(r.Categories, func(i, j int) bool { return r.Categories[i].Category < r.Categories[j].Category })
	r.Added, r.Removed, r.Renamed, r.Changed = nonNilSlice(r.Added), nonNilSlice(r.Removed), nonNilSlice(r.Renamed), nonNilSlice(r.Changed)
	r.Formats, r.Releases, r.Notes = nonNilSlice(r.Formats), nonNilSlice(r.Releases), nonNilSlice(r.Notes)
	for i := range r.Renamed {
		r.Renamed[i].Evidence = nonNilSlice(r.Renamed[i].Evidence)
	}
	for i := range r.Formats {
		r.Formats[i].Fields = nonNilSlice(r.Formats[i].Fields)
	}
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
