package famdiff

import (
	"fmt"
	"sort"
	"strings"
)

// Diff compares two AMD families: what To has that From lacks (added), the
// reverse (removed), what To spells differently (renamed, with evidence),
// and what changed in the instructions both have. Added and removed never
// hold a rename's two halves.
func Diff(from, to *Family) *Result {
	r := &Result{Kind: KindFamilies,
		From: Side{ID: from.Arch, Name: from.Name, Arch: from.Arch},
		To:   Side{ID: to.Arch, Name: to.Name, Arch: to.Arch}}
	a, b := index(from), index(to)

	// Instructions with the same name on both sides tell how formats
	// correspond (RDNA 4's VDS is RDNA 3's DS).
	var same [][2]*Inst
	for i := range from.Instructions {
		in := &from.Instructions[i]
		if o, ok := b[in.Name]; ok {
			same = append(same, [2]*Inst{in, o})
		}
	}
	fmap := formatMap(same)

	var onlyA, onlyB []*Inst
	for i := range from.Instructions {
		if _, ok := b[from.Instructions[i].Name]; !ok {
			onlyA = append(onlyA, &from.Instructions[i])
		}
	}
	for i := range to.Instructions {
		if _, ok := a[to.Instructions[i].Name]; !ok {
			onlyB = append(onlyB, &to.Instructions[i])
		}
	}
	renames := matchRenames(from, to, onlyA, onlyB, fmap)
	renamedA, renamedB := map[string]bool{}, map[string]bool{}
	pairs := same
	for _, rn := range renames {
		renamedA[rn.From], renamedB[rn.To] = true, true
		pairs = append(pairs, [2]*Inst{a[rn.From], b[rn.To]})
		r.Renamed = append(r.Renamed, rn)
	}
	for _, in := range onlyA {
		if !renamedA[in.Name] {
			r.Removed = append(r.Removed, Item{Name: in.Name, Category: in.Category})
		}
	}
	for _, in := range onlyB {
		if !renamedB[in.Name] {
			r.Added = append(r.Added, Item{Name: in.Name, Category: in.Category})
		}
	}

	// Identifiers renamed between the sides are the same word in a
	// semantics diff.
	words := map[string]string{}
	for _, rn := range renames {
		words[strings.ToUpper(rn.From)] = strings.ToUpper(rn.To)
		words[rn.From] = rn.To
	}
	for _, p := range pairs {
		c := compare(p[0], p[1], from, to, fmap, words)
		if c == nil {
			r.Counts.Unchanged++
			continue
		}
		r.Changed = append(r.Changed, *c)
	}
	r.Formats = formatChanges(from, to, fmap, pairs)
	r.Notes = []string{
		"Renames are matched through gpuisa's rename links (documented renames and what llvm-mc accepted and printed), " +
			"aliases (LLVM's names), identical formats and opcodes, or identical pseudocode, the last two only where exactly one pair shares them.",
		"Semantics are compared word by word, ignoring whitespace, the renamed instructions' names and the width the older guides leave out of 32-bit types (S0.u is S0.u32).",
		"Target support compares where llvm-mc accepts the instruction among each family's own targets.",
	}
	finish(r)
	return r
}

func index(f *Family) map[string]*Inst {
	m := make(map[string]*Inst, len(f.Instructions))
	for i := range f.Instructions {
		m[f.Instructions[i].Name] = &f.Instructions[i]
	}
	return m
}

// formatMap says, for each of From's formats, which of To's formats its
// instructions use: the same name where To has it, else the formats that
// instructions with the same name moved to (most instructions first).
// Only moves that at least two instructions (or all of one format's)
// make count, so one odd instruction does not rename a format.
func formatMap(same [][2]*Inst) map[string][]string {
	count := map[string]map[string]int{}
	total := map[string]int{}
	toHas := map[string]bool{}
	for _, p := range same {
		for _, e := range p[1].Encodings {
			toHas[e.Format] = true
		}
	}
	for _, p := range same {
		for _, ea := range p[0].Encodings {
			total[ea.Format]++
			if toHas[ea.Format] {
				continue
			}
			for _, eb := range p[1].Encodings {
				if count[ea.Format] == nil {
					count[ea.Format] = map[string]int{}
				}
				count[ea.Format][eb.Format]++
			}
		}
	}
	out := map[string][]string{}
	for fa, m := range count {
		var cands []string
		for fb, n := range m {
			if n >= 2 || n == total[fa] {
				cands = append(cands, fb)
			}
		}
		sort.Slice(cands, func(i, j int) bool {
			if m[cands[i]] != m[cands[j]] {
				return m[cands[i]] > m[cands[j]]
			}
			return cands[i] < cands[j]
		})
		// A format's instructions move to at most a few formats (MIMG
		// splits into VIMAGE and VSAMPLE); the rest are other encodings
		// the same instructions also have.
		best := 0
		if len(cands) > 0 {
			best = m[cands[0]]
		}
		var keep []string
		for _, c := range cands {
			if m[c]*4 >= best {
				keep = append(keep, c)
			}
		}
		if len(keep) > 0 {
			out[fa] = keep
		}
	}
	return out
}

// mapsTo reports whether From's format fa corresponds to To's fb.
func mapsTo(fmap map[string][]string, fa, fb string) bool {
	if fa == fb {
		return true
	}
	for _, f := range fmap[fa] {
		if f == fb {
			return true
		}
	}
	return false
}

// encodingKey is an instruction's formats and opcodes in To's format names,
// sorted: two instructions with the same key are encoded alike.
func encodingKey(in *Inst, fmap map[string][]string) string {
	var parts []string
	for _, e := range in.Encodings {
		f := e.Format
		if m := fmap[f]; len(m) > 0 {
			f = m[0]
		}
		parts = append(parts, fmt.Sprintf("%s %d", f, e.Opcode))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// matchRenames pairs instructions only From has with instructions only To
// has when something shows they are one instruction.
func matchRenames(from, to *Family, onlyA, onlyB []*Inst, fmap map[string][]string) []Rename {
	byNameB := map[string]*Inst{}
	for _, in := range onlyB {
		byNameB[in.Name] = in
	}
	type cand struct {
		a, b *Inst
		ev   []Evidence
	}
	cands := map[[2]string]*cand{}
	var order [][2]string
	add := func(a, b *Inst, e Evidence) {
		k := [2]string{a.Name, b.Name}
		c, ok := cands[k]
		if !ok {
			c = &cand{a: a, b: b}
			cands[k] = c
			order = append(order, k)
		}
		for _, have := range c.ev {
			if have.Kind == e.Kind {
				return
			}
		}
		c.ev = append(c.ev, e)
	}
	byNameA := map[string]*Inst{}
	for _, in := range onlyA {
		byNameA[in.Name] = in
	}
	// link adds gpuisa's rename link between a (From) and b (To).
	link := func(a, b *Inst, text string) {
		if text == "" {
			text = "gpuisa's merge links " + a.Name + " and " + b.Name + " as one instruction"
		}
		add(a, b, Evidence{Kind: EvidenceLink, Text: text})
	}
	// renames calls fn for each instruction of other that in's rename
	// links on arch name, with the link's evidence.
	renames := func(in *Inst, arch string, other map[string]*Inst, fn func(o *Inst, text string)) {
		for _, rel := range in.Related {
			if rel.Arch != arch || !rel.Renamed {
				continue
			}
			if o, ok := other[rel.Name]; ok {
				fn(o, rel.Evidence)
			}
		}
	}
	for _, in := range onlyA {
		renames(in, to.Arch, byNameB, func(o *Inst, text string) { link(in, o, text) })
		for _, al := range in.Aliases {
			if o, ok := byNameB[al.Name]; ok {
				add(in, o, Evidence{Kind: EvidenceAlias, Text: aliasText(from.Name, in.Name, al.Name, al.Note)})
			}
		}
	}
	for _, in := range onlyB {
		for _, al := range in.Aliases {
			if o, ok := byNameA[al.Name]; ok {
				add(o, in, Evidence{Kind: EvidenceAlias, Text: aliasText(to.Name, in.Name, al.Name, al.Note)})
			}
		}
		renames(in, from.Arch, byNameA, func(o *Inst, text string) { link(o, in, text) })
	}
	// Identical encodings, or identical pseudocode, where exactly one
	// instruction on each side has it.
	unique := func(keyOf func(*Inst) string, kind string, text func(a, b *Inst, key string) string) {
		ka, kb := map[string][]*Inst{}, map[string][]*Inst{}
		for _, in := range onlyA {
			if k := keyOf(in); k != "" {
				ka[k] = append(ka[k], in)
			}
		}
		for _, in := range onlyB {
			if k := keyOf(in); k != "" {
				kb[k] = append(kb[k], in)
			}
		}
		for k, as := range ka {
			bs := kb[k]
			if len(as) == 1 && len(bs) == 1 {
				add(as[0], bs[0], Evidence{Kind: kind, Text: text(as[0], bs[0], k)})
			}
		}
	}
	unique(func(in *Inst) string {
		if len(in.Encodings) == 0 {
			return ""
		}
		return encodingKey(in, fmap)
	}, EvidenceEncoding, func(a, b *Inst, key string) string {
		return fmt.Sprintf("the same encoding and opcode: %s in %s as %s, %s in %s as %s",
			encodingList(a), from.Name, a.Name, encodingList(b), to.Name, b.Name)
	})
	unique(func(in *Inst) string {
		s := normalizeSpace(in.Semantics)
		if len(s) < 24 {
			return "" // too short to tell instructions apart ("D = S0")
		}
		return renameFree(s, in.Name)
	}, EvidenceSemantics, func(a, b *Inst, _ string) string {
		return fmt.Sprintf("the same pseudocode in %s's and %s's guides (%d characters)", from.Name, to.Name, len(normalizeSpace(a.Semantics)))
	})

	// Strongest first: a link or an alias, then the most evidence; one
	// instruction takes part in one rename.
	sort.SliceStable(order, func(i, j int) bool {
		ci, cj := cands[order[i]], cands[order[j]]
		si, sj := strength(ci.ev), strength(cj.ev)
		if si != sj {
			return si > sj
		}
		return order[i][0]+" "+order[i][1] < order[j][0]+" "+order[j][1]
	})
	usedA, usedB := map[string]bool{}, map[string]bool{}
	var out []Rename
	for _, k := range order {
		c := cands[k]
		if usedA[c.a.Name] || usedB[c.b.Name] {
			continue
		}
		// An opcode another instruction took over looks the same, so
		// identical encodings alone need similar spellings.
		if len(c.ev) == 1 && c.ev[0].Kind == EvidenceEncoding && !similarNames(c.a.Name, c.b.Name) {
			continue
		}
		usedA[c.a.Name], usedB[c.b.Name] = true, true
		sort.SliceStable(c.ev, func(i, j int) bool { return evidenceRank(c.ev[i].Kind) < evidenceRank(c.ev[j].Kind) })
		cat := c.b.Category
		if cat == "" {
			cat = c.a.Category
		}
		out = append(out, Rename{From: c.a.Name, To: c.b.Name, Category: cat, Evidence: c.ev})
	}
	return out
}

func aliasText(family, name, alias, note string) string {
	s := fmt.Sprintf("%s's %s is also written %s", family, name, alias)
	if note != "" {
		s += " (" + note + ")"
	}
	return s
}

func encodingList(in *Inst) string {
	var parts []string
	for _, e := range in.Encodings {
		parts = append(parts, fmt.Sprintf("%s opcode %d", e.Name, e.Opcode))
	}
	return strings.Join(parts, ", ")
}

func evidenceRank(kind string) int {
	switch kind {
	case EvidenceLink:
		return 0
	case EvidenceAlias:
		return 1
	case EvidenceEncoding:
		return 2
	}
	return 3
}

func strength(ev []Evidence) int {
	n := len(ev)
	for _, e := range ev {
		if e.Kind == EvidenceLink || e.Kind == EvidenceAlias {
			n += 10
		}
	}
	return n
}

// similarNames reports whether two mnemonics share their first word
// (v_mfma, ds) and the letters of one, underscores dropped, appear in order
// in the other: v_mfma_f32_4x4x4f16 and v_mfma_f32_4x4x4_16b_f16,
// v_dual_max_f32 and v_dual_max_num_f32 — spellings of one instruction,
// not two instructions that happen to share an opcode
// (buffer_atomic_cmpswap_f32 and buffer_atomic_cond_sub_u32, buffer_invl2
// and buffer_inv). Both keep the type at the end.
func similarNames(a, b string) bool {
	pa, _, _ := strings.Cut(a, "_")
	pb, _, _ := strings.Cut(b, "_")
	if pa != pb {
		return false
	}
	// The type at the end stays (f16 in 32x32x8f16 and in 32x32x8_f16).
	la, lb := a[strings.LastIndex(a, "_")+1:], b[strings.LastIndex(b, "_")+1:]
	if !strings.HasSuffix(la, lb) && !strings.HasSuffix(lb, la) {
		return false
	}
	na, nb := strings.ReplaceAll(a, "_", ""), strings.ReplaceAll(b, "_", "")
	if len(na) > len(nb) {
		na, nb = nb, na
	}
	i := 0
	for j := 0; j < len(nb) && i < len(na); j++ {
		if nb[j] == na[i] {
			i++
		}
	}
	return i == len(na)
}

// renameFree replaces the instruction's own name in its pseudocode, so two
// spellings' texts compare equal.
func renameFree(s, name string) string {
	s = strings.ReplaceAll(s, strings.ToUpper(name), "\x00")
	return strings.ReplaceAll(s, name, "\x00")
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
