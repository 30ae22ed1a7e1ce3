package decode

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
)

var update = flag.Bool("update", false, "rewrite testdata/entries (the summary, and the per-family tables kept out of git)")

// entryRow is what the decoder believes about one opcode of one format:
// format, opcode, model name, printed mnemonic, shape, operand types and
// source count, memory operands and data registers, and which rule decided
// the shape (model: an ops= row of shapes.tsv; table: a mnemonic row;
// format: no row).
func entryRow(fm *format, side string, op int, en *entry) []string {
	s := en.sig
	ot := func(o opType) string { return fmt.Sprintf("%c%d", o.t, o.size) }
	sig := fmt.Sprintf("%s <- %s,%s,%s /%d", ot(s.dst), ot(s.src[0]), ot(s.src[1]), ot(s.src[2]), s.nsrc)
	mem := "-"
	if en.memOps != 0 {
		mem = fmt.Sprintf("%s x%d", memOpsString(en.memOps), en.dataRegs)
	}
	return []string{fm.Name + side, fmt.Sprint(op), en.name, en.mnemonic, en.shape.String(), sig, mem, decidedBy(en, "shape")}
}

// decidedBy says where an entry's fact key came from.
func decidedBy(en *entry, key string) string {
	if en.facts == nil {
		return "format"
	}
	line, ok := en.facts.from[key]
	if !ok {
		return "format"
	}
	if rules.rowAt(line).model {
		return "model"
	}
	return "table"
}

func memOpsString(m memOps) string {
	var out []string
	for _, b := range [...]struct {
		bit  memOps
		name string
	}{{moVdst, "vdst"}, {moVdstOpt, "vdst?"}, {moAddr, "addr"}, {moData0, "data0"}, {moData1, "data1"},
		{moSaddr, "saddr"}, {moSrsrc, "srsrc"}, {moSoffset, "soffset"}} {
		if m&b.bit != 0 {
			out = append(out, b.name)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}

// eachEntry calls fn for every opcode of every format of d, the VOPD
// halves included (side ".X" / ".Y").
func eachEntry(d *Decoder, fn func(fm *format, side string, op int, en *entry)) {
	for _, g := range d.groups {
		for _, fm := range g.formats {
			for op, en := range fm.byOpcode {
				fn(fm, "", op, en)
			}
			for side, tab := range map[string][]*entry{".X": fm.dualX, ".Y": fm.dualY} {
				for op, en := range tab {
					if en != nil {
						fn(fm, side, op, en)
					}
				}
			}
		}
	}
}

const entriesDir = "testdata/entries"

// The entries tables write down what the decoder believes about every
// opcode of every family, so that a change in the model or the rules shows
// up as a diff to review: testdata/entries/summary.tsv (committed) counts
// the entries per family, format kind, shape and deciding rule;
// testdata/entries/<family>.tsv lists every entry (format, opcode, name,
// printed mnemonic, shape, types, memory operands, decided by). The
// per-family tables are generated from AMD's documents and LLVM, so they
// stay out of git (the data rules): -update writes both. The model is the
// one built with llvm-mc (its printed operands decide shapes), so without
// llvm-mc the tests skip.

// updateEntries is the command that writes the entries tables.
const updateEntries = "go test ./internal/amd/decode -run TestEntries -update"

// entryTables are the tables the decoder gives now: the text of each
// family's and of the summary.
type entryTables struct {
	families map[string]string // by family
	summary  string
}

// currentEntryTables makes the tables, or skips without llvm-mc or the
// sources.
func currentEntryTables(t *testing.T) entryTables {
	t.Helper()
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: the entries tables describe the model built with llvm-mc's operands")
	}
	return makeEntryTables(t)
}

func makeEntryTables(t *testing.T) entryTables {
	t.Helper()
	type key struct{ arch, kind, shape, by string }
	counts := map[key]int{}
	tables := entryTables{families: map[string]string{}}
	for _, fam := range allFamilies {
		d := loadFamily(t, fam.Arch)
		var rows []string
		eachEntry(d, func(fm *format, side string, op int, en *entry) {
			r := entryRow(fm, side, op, en)
			rows = append(rows, strings.Join(r, "\t"))
			counts[key{fam.Arch, fm.kind.String(), r[4], r[7]}]++
		})
		if len(rows) == 0 {
			t.Errorf("%s: the decoder has no entries", fam.Arch)
		}
		sort.Slice(rows, func(i, j int) bool { return entryLess(rows[i], rows[j]) })
		tables.families[fam.Arch] = "# format\topcode\tname\tprinted\tshape\ttypes (dst <- src0,src1,src2 /sources)\tmemory operands x data registers\tshape decided by\n" +
			strings.Join(rows, "\n") + "\n"
	}
	var lines []string
	for k, n := range counts {
		lines = append(lines, fmt.Sprintf("%s\t%s\t%s\t%s\t%d", k.arch, k.kind, k.shape, k.by, n))
	}
	sort.Strings(lines)
	tables.summary = "# What the decoder believes, counted (TestEntries): family, format kind, shape, decided by\n" +
		"# (model: the operand list in the model, table: a mnemonic rule of shapes.tsv, format: no rule), entries.\n" +
		"# Regenerate with " + updateEntries + " and review the diff.\n" +
		strings.Join(lines, "\n") + "\n"
	return tables
}

// TestEntriesSummary compares the counted summary (committed, so it runs
// on a fresh checkout) with what the decoder believes now.
func TestEntriesSummary(t *testing.T) {
	compareOrUpdate(t, filepath.Join(entriesDir, "summary.tsv"), currentEntryTables(t).summary)
}

// TestEntriesFamilies compares every family's table with what the decoder
// believes now. The tables are not in git: on a checkout without them the
// test skips, saying how to write them; with some of them, a missing one
// fails.
func TestEntriesFamilies(t *testing.T) {
	tables := currentEntryTables(t)
	var missing []string
	for _, fam := range allFamilies {
		path := filepath.Join(entriesDir, fam.Arch+".tsv")
		if _, err := os.Stat(path); err != nil && !*update {
			missing = append(missing, path)
			continue
		}
		compareOrUpdate(t, path, tables.families[fam.Arch])
	}
	switch {
	case len(missing) == len(allFamilies):
		t.Skipf("no per-family entries tables in %s (kept out of git): %s writes them; only summary.tsv was compared (TestEntriesSummary)", entriesDir, updateEntries)
	case len(missing) > 0:
		t.Errorf("%s missing (%s writes them)", strings.Join(missing, ", "), updateEntries)
	}
}

// entryLess orders rows by format, then opcode as a number.
func entryLess(a, b string) bool {
	fa, fb := strings.SplitN(a, "\t", 3), strings.SplitN(b, "\t", 3)
	if fa[0] != fb[0] {
		return fa[0] < fb[0]
	}
	var na, nb int
	fmt.Sscan(fa[1], &na)
	fmt.Sscan(fb[1], &nb)
	return na < nb
}

// compareOrUpdate writes text to path under -update; otherwise it compares
// them and reports the first rows that differ. A missing file is an error.
func compareOrUpdate(t *testing.T, path, text string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: %v (%s writes it)", path, err, updateEntries)
		return
	}
	if string(old) == text {
		return
	}
	was := map[string]bool{}
	for _, l := range strings.Split(string(old), "\n") {
		was[l] = true
	}
	now := map[string]bool{}
	var added, gone []string
	for _, l := range strings.Split(text, "\n") {
		now[l] = true
		if !was[l] {
			added = append(added, l)
		}
	}
	for _, l := range strings.Split(string(old), "\n") {
		if !now[l] {
			gone = append(gone, l)
		}
	}
	msg := fmt.Sprintf("%s differs from what the decoder believes now (%d rows gone, %d new; -update rewrites it after review):", path, len(gone), len(added))
	for i, l := range gone {
		if i == 10 {
			break
		}
		msg += "\n  - " + l
	}
	for i, l := range added {
		if i == 10 {
			break
		}
		msg += "\n  + " + l
	}
	t.Error(msg)
}

// TestShapeCoverage: every operand shape the rules give is reached by at
// least one word of decodetest/asm.tsv, which llvm-mc decodes as the table
// says (TestWordsMatchLLVM) — the shape coverage test in the spirit of
// golang.org/x/arch's decoder coverage.
func TestShapeCoverage(t *testing.T) {
	reached := map[shape]int{}
	eachWord(t, func(_ decodeCase, d *Decoder, b []byte) {
		var r renderer
		if _, err := d.decode(&r, b, 0); err != nil {
			return
		}
		reached[r.en.shape]++
		if r.enY != nil {
			reached[r.enY.shape]++
		}
	})
	for i := range shapeNames {
		if reached[shape(i)] == 0 {
			t.Errorf("shape %s: no word of decodetest/asm.tsv reaches it", shape(i))
		}
	}
}

// TestRulesAgreeWithModel holds the mnemonic rules of shapes.tsv (the
// fallback for a model without operands) to the rows that read the model:
// wherever an ops= row decides a fact, the mnemonic rows alone must give
// the same; and every row of the table decides something in some family
// (with the model's operands or, for a fallback row, without them).
func TestRulesAgreeWithModel(t *testing.T) {
	used := map[int]bool{}
	fromModel := 0
	for _, fam := range allFamilies {
		d := loadFamily(t, fam.Arch)
		eachEntry(d, func(fm *format, side string, op int, en *entry) {
			if en.facts == nil {
				return
			}
			byName := rules.lookup(d.fam.gen, fm.kind, en.name, "")
			for _, line := range append(en.facts.rows, byName.rows...) {
				used[line] = true
			}
			for k, line := range en.facts.from {
				if !rules.rowAt(line).model {
					continue
				}
				fromModel++
				if byName.get(k) != en.facts.get(k) {
					t.Errorf("%s %s %s: the model gives %s=%q (shapes.tsv:%d), the mnemonic rules %q", fam.Arch, fm.Name, en.name, k, en.facts.get(k), line, byName.get(k))
				}
			}
		})
	}
	t.Logf("%d facts decided by the model's operands", fromModel)
	for _, r := range rules.rows {
		if !used[r.line] {
			t.Errorf("shapes.tsv:%d (%s): decides nothing in any family", r.line, r.reason)
		}
	}
}
