package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// The source-gap tests damage a linked copy of the real tree (only the
// damaged file is a real copy) in ways that lose facts without making any
// file unreadable, and hold the gate to naming the file and what is
// missing, with exit status 3.

const ptxRoot = "ptx-isa-9.1"

// gapTree links the real sources into a temporary directory.
func gapTree(t *testing.T) string {
	t.Helper()
	src := upstreamDir(t)
	dir := filepath.Join(t.TempDir(), "sources")
	linkTree(t, src, dir)
	return dir
}

// wantGap runs the build over dir and requires exit status 3 with an
// error naming want (and a line after it when line is set), within a few
// seconds, leaving the previous database as it was.
func wantGap(t *testing.T, dir, want string, line bool) {
	t.Helper()
	out, before := previousDatabase(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	_, err := Run(ctx, Options{Sources: dir, Out: out, NoVerify: true})
	if err == nil {
		t.Fatal("the build succeeded over a tree with a gap")
	}
	if errs.ExitCode(err) != 3 {
		t.Errorf("exit status %d, want 3: %v", errs.ExitCode(err), err)
	}
	msg := err.Error()
	i := strings.Index(msg, want)
	if i < 0 {
		t.Fatalf("error %q does not say %q", msg, want)
	}
	if line {
		rest := msg[i+len(want):]
		if rest == "" || rest[0] < '1' || rest[0] > '9' {
			t.Errorf("error %q names no line after %q", msg, want)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v to fail", d)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Error("the failed build changed the previous database")
	}
	t.Logf("%v", err)
}

func TestGapPTXFileCutInHalf(t *testing.T) {
	dir := gapTree(t)
	rel := ptxRoot + "/9_instruction_set/97_instructions/9719_miscellaneous_instructions/97195_miscellaneous_instructions_setmaxnreg.md"
	p := filepath.Join(dir, filepath.FromSlash(rel))
	b := readLinked(t, p)
	replaceFile(t, p, b[:len(b)/2])
	wantGap(t, dir, rel+":", true)
}

func TestGapPTXFileCutInsideCode(t *testing.T) {
	dir := gapTree(t)
	rel := ptxRoot + "/9_instruction_set/97_instructions/971_integer_arithmetic_instructions/9711_integer_arithmetic_instructions_add.md"
	p := filepath.Join(dir, filepath.FromSlash(rel))
	b := readLinked(t, p)
	last := bytes.LastIndex(b, []byte("```"))
	replaceFile(t, p, b[:last])
	wantGap(t, dir, rel+":", true)
}

func TestGapPTXReleaseNoteDeleted(t *testing.T) {
	dir := gapTree(t)
	rel := ptxRoot + "/13_release_notes/1311_changes_in_ptx_isa_version_80.md"
	os.Remove(filepath.Join(dir, filepath.FromSlash(rel)))
	wantGap(t, dir, rel+": listed in", false)
}

// TestGapPTXReleaseNoteDeletedWithItsIndexEntry: with the index edited
// too, the release history still names 8.0.
func TestGapPTXReleaseNoteDeletedWithItsIndexEntry(t *testing.T) {
	dir := gapTree(t)
	notes := filepath.Join(dir, ptxRoot, "13_release_notes")
	os.Remove(filepath.Join(notes, "1311_changes_in_ptx_isa_version_80.md"))
	var idx map[string]any
	if err := json.Unmarshal(readLinked(t, filepath.Join(notes, "index.json")), &idx); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, f := range idx["files"].([]any) {
		if f.(map[string]any)["filename"] != "1311_changes_in_ptx_isa_version_80.md" {
			kept = append(kept, f)
		}
	}
	idx["files"] = kept
	edited, _ := json.Marshal(idx)
	replaceFile(t, filepath.Join(notes, "index.json"), edited)
	wantGap(t, dir, ptxRoot+"/13_release_notes/overview.md:", true)

	// With its row of the release history gone too, the sections that say
	// "Introduced in PTX ISA version 8.0" still name it.
	var history []string
	for _, l := range strings.Split(string(readLinked(t, filepath.Join(notes, "overview.md"))), "\n") {
		if !strings.HasPrefix(l, "| PTX ISA 8.0 |") {
			history = append(history, l)
		}
	}
	replaceFile(t, filepath.Join(notes, "overview.md"), []byte(strings.Join(history, "\n")))
	wantGap(t, dir, ".md:", true)
	gaps, err := checkSources(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != 1 || !strings.Contains(gaps[0].why, "names PTX ISA version 8.0, which the release history") {
		t.Errorf("gaps %v, want one naming PTX ISA version 8.0", gaps)
	}
}

func TestGapPTXDirectivesFolderDeleted(t *testing.T) {
	dir := gapTree(t)
	os.RemoveAll(filepath.Join(dir, ptxRoot, "11_directives", "115_debugging_directives"))
	wantGap(t, dir, ptxRoot+"/11_directives/115_debugging_directives: listed in", false)
}

// TestGapPTXFilesDeleted: files whose loss the concept catalogue noticed
// before (exit 2 naming concepts/*.yaml) are named by the gate.
func TestGapPTXFilesDeleted(t *testing.T) {
	for _, rel := range []string{
		"9_instruction_set/97_instructions/9719_miscellaneous_instructions/97192_miscellaneous_instructions_nanosleep.md",
		"9_instruction_set/97_instructions/9719_miscellaneous_instructions/97193_miscellaneous_instructions_pmevent.md",
		"9_instruction_set/97_instructions/9718_video_instructions",
		"10_special_registers/1024_special_registers_clock64.md",
	} {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			dir := gapTree(t)
			os.RemoveAll(filepath.Join(dir, ptxRoot, filepath.FromSlash(rel)))
			wantGap(t, dir, ptxRoot+"/"+rel+": listed in", false)
		})
	}
	t.Run("one video instruction", func(t *testing.T) {
		dir := gapTree(t)
		matches, _ := filepath.Glob(filepath.Join(dir, ptxRoot, "9_instruction_set", "97_instructions", "9718_video_instructions", "*", "*.md"))
		matches2, _ := filepath.Glob(filepath.Join(dir, ptxRoot, "9_instruction_set", "97_instructions", "9718_video_instructions", "*.md"))
		matches = append(matches, matches2...)
		var victim string
		for _, m := range matches {
			if filepath.Base(m) != "overview.md" {
				victim = m
				break
			}
		}
		if victim == "" {
			t.Fatal("no video instruction files in the tree")
		}
		os.Remove(victim)
		wantGap(t, dir, filepath.Base(victim)+": listed in", false)
	})
}

// guideLines reads a family's guide from the linked tree as lines.
func guideLines(t *testing.T, dir, fam string) []string {
	t.Helper()
	return strings.Split(string(readLinked(t, guide(dir, fam))), "\n")
}

func writeGuide(t *testing.T, dir, fam string, lines []string) {
	t.Helper()
	replaceFile(t, guide(dir, fam), []byte(strings.Join(lines, "\n")))
}

// findLine returns the index of the first line holding s, failing the test
// when there is none.
func findLine(t *testing.T, lines []string, from int, s string) int {
	t.Helper()
	for i := from; i < len(lines); i++ {
		if strings.Contains(lines[i], s) {
			return i
		}
	}
	t.Fatalf("no line holds %q", s)
	return -1
}

func TestGapGuideTailRemoved(t *testing.T) {
	dir := gapTree(t)
	lines := guideLines(t, dir, "rdna3")
	writeGuide(t, dir, "rdna3", lines[:len(lines)-200])
	wantGap(t, dir, "amd-isa-manuals/rdna3/README.md:", true)
}

// TestGapGuideCutInsidePseudocode: a cut inside a pseudocode block leaves
// the last section unterminated.
func TestGapGuideCutInsidePseudocode(t *testing.T) {
	dir := gapTree(t)
	lines := guideLines(t, dir, "rdna3")
	end := len(lines) - 1
	for !strings.HasPrefix(lines[end], "```text") {
		end--
	}
	writeGuide(t, dir, "rdna3", lines[:end+2])
	wantGap(t, dir, "amd-isa-manuals/rdna3/README.md:", true)
}

// sectionRange returns the lines of the section headed by heading: from its
// heading to the next heading at the same level.
func sectionRange(t *testing.T, lines []string, heading string) (int, int) {
	t.Helper()
	start := findLine(t, lines, 0, heading)
	end := start + 1
	for end < len(lines) && !strings.HasPrefix(lines[end], "# ") {
		end++
	}
	return start, end
}

func TestGapGuideSectionBodyRemoved(t *testing.T) {
	dir := gapTree(t)
	lines := guideLines(t, dir, "rdna3")
	start, end := sectionRange(t, lines, "**16.4. SOPC Instructions**")
	lines = append(lines[:start+1:start+1], lines[end:]...)
	writeGuide(t, dir, "rdna3", lines)
	wantGap(t, dir, "amd-isa-manuals/rdna3/README.md:", true)
}

func TestGapGuideSectionRemovedWithItsContentsLine(t *testing.T) {
	dir := gapTree(t)
	lines := guideLines(t, dir, "rdna3")
	start, end := sectionRange(t, lines, "**16.4. SOPC Instructions**")
	lines = append(lines[:start:start], lines[end:]...)
	toc := findLine(t, lines, 0, "[16.4. SOPC Instructions]")
	lines = append(lines[:toc:toc], lines[toc+1:]...)
	writeGuide(t, dir, "rdna3", lines)
	wantGap(t, dir, "amd-isa-manuals/rdna3/README.md:", true)
}

// TestGapGuideInstructionRemoved: the heading and text of one instruction
// removed (new layout), and one row of an old-layout instruction table.
func TestGapGuideInstructionRemoved(t *testing.T) {
	t.Run("rdna3 S_CMP_LG_U32", func(t *testing.T) {
		dir := gapTree(t)
		lines := guideLines(t, dir, "rdna3")
		start := findLine(t, lines, 0, `#### **S\_CMP\_LG\_U32 7**`)
		end := start + 1
		for !strings.HasPrefix(lines[end], "#") {
			end++
		}
		lines = append(lines[:start:start], lines[end:]...)
		writeGuide(t, dir, "rdna3", lines)
		wantGap(t, dir, "amd-isa-manuals/rdna3/README.md:", true)
		gaps, err := checkSources(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(gaps) != 1 || !strings.Contains(gaps[0].why, "S_CMP_LG_U32") {
			t.Errorf("gaps %v, want one naming S_CMP_LG_U32", gaps)
		}
	})
	t.Run("rdna2 table row", func(t *testing.T) {
		dir := gapTree(t)
		lines := guideLines(t, dir, "rdna2")
		// The instruction chapter's row: "| 7 | S_CMP_LG_U32 | Compare ... |".
		at := -1
		for i, l := range lines {
			cells := strings.Split(l, "|")
			if len(cells) == 5 && strings.TrimSpace(cells[2]) == "S_CMP_LG_U32" && strings.Contains(cells[3], "Compare") {
				at = i
			}
		}
		if at < 0 {
			t.Fatal("no instruction-table row for S_CMP_LG_U32 in the RDNA 2 guide")
		}
		lines = append(lines[:at:at], lines[at+1:]...)
		writeGuide(t, dir, "rdna2", lines)
		wantGap(t, dir, "amd-isa-manuals/rdna2/README.md:", true)
	})
}

// TestAllowPartialListsGaps: with AllowPartial a guide or PTX section with
// a gap stays in the build (the readers take what it holds) and every gap
// is listed in the quality report; the instruction whose section is gone
// borrows a description that says its own guide gives none.
func TestAllowPartialListsGaps(t *testing.T) {
	dir := gapTree(t)
	lines := guideLines(t, dir, "rdna3")
	start := findLine(t, lines, 0, `#### **S\_CMP\_LG\_U32 7**`)
	end := start + 1
	for !strings.HasPrefix(lines[end], "#") {
		end++
	}
	writeGuide(t, dir, "rdna3", append(lines[:start:start], lines[end:]...))
	rel := ptxRoot + "/9_instruction_set/97_instructions/9719_miscellaneous_instructions/97195_miscellaneous_instructions_setmaxnreg.md"
	p := filepath.Join(dir, filepath.FromSlash(rel))
	b := readLinked(t, p)
	replaceFile(t, p, b[:len(b)/2])
	os.Remove(filepath.Join(dir, ptxRoot, "13_release_notes", "1311_changes_in_ptx_isa_version_80.md"))

	out := filepath.Join(t.TempDir(), "partial.db")
	rep, err := Run(context.Background(), Options{Sources: dir, Out: out, NoVerify: true, AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts["rdna3"] < 1000 || rep.Counts["ptx"] == 0 {
		t.Errorf("counts %v: the families with gaps must stay", rep.Counts)
	}
	db, err := store.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	raw, err := db.Extra(context.Background(), store.KeyQuality)
	if err != nil {
		t.Fatal(err)
	}
	var q quality.Report
	if err := json.Unmarshal(raw, &q); err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(q.ReaderProblems, "\n")
	for _, want := range []string{
		"source gap: amd-isa-manuals/rdna3/README.md:",
		"lists S_CMP_LG_U32 (opcode 7), which has no SOPC section",
		"source gap: " + rel + ":",
		"13_release_notes/1311_changes_in_ptx_isa_version_80.md: listed in",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("the quality report does not list %q; problems:\n%s", want, joined)
		}
	}
	if !strings.Contains(string(raw), "the guide gives no description or pseudocode; the description is s_cmp_lg_u32's in") {
		i := strings.Index(string(raw), "s_cmp_lg_u32")
		t.Errorf("the quality report does not say truthfully that rdna3's s_cmp_lg_u32 has a borrowed description because its guide gives none (first mention: %.300s)", string(raw)[max(0, i):])
	}
}

// TestGapGuideOpcodeTableCut: the older guides end with the opcode
// tables; a cut there leaves sections their table no longer lists.
func TestGapGuideOpcodeTableCut(t *testing.T) {
	dir := gapTree(t)
	lines := guideLines(t, dir, "cdna2")
	writeGuide(t, dir, "cdna2", lines[:len(lines)-30])
	wantGap(t, dir, "amd-isa-manuals/cdna2/README.md:", true)
}

// TestGapGuidePromotedSectionRemoved: an instruction documented in two
// encodings (V_MAX_F32 as VOP2 and as VOP3) loses one of its sections.
func TestGapGuidePromotedSectionRemoved(t *testing.T) {
	dir := gapTree(t)
	lines := guideLines(t, dir, "cdna3")
	start := findLine(t, lines, 0, `#### **V\_MAX\_F32 267**`)
	end := start + 1
	for !strings.HasPrefix(lines[end], "#### **V") {
		end++
	}
	writeGuide(t, dir, "cdna3", append(lines[:start:start], lines[end:]...))
	wantGap(t, dir, "amd-isa-manuals/cdna3/README.md:", true)
}

// removeWithIndexEntry deletes a PTX file and its entry in its folder's
// index.json.
func removeWithIndexEntry(t *testing.T, group, name string) {
	t.Helper()
	os.Remove(filepath.Join(group, name))
	var idx map[string]any
	if err := json.Unmarshal(readLinked(t, filepath.Join(group, "index.json")), &idx); err != nil {
		t.Fatal(err)
	}
	var kept []any
	for _, f := range idx["files"].([]any) {
		if f.(map[string]any)["filename"] != name {
			kept = append(kept, f)
		}
	}
	idx["files"] = kept
	edited, _ := json.Marshal(idx)
	replaceFile(t, filepath.Join(group, "index.json"), edited)
}

// TestGapPTXFileDeletedWithItsIndexEntry: the group's overview still lists
// the instruction (or special register).
func TestGapPTXFileDeletedWithItsIndexEntry(t *testing.T) {
	for _, c := range []struct{ group, file, overview, why string }{
		{"9_instruction_set/97_instructions/9719_miscellaneous_instructions", "97192_miscellaneous_instructions_nanosleep.md",
			"9719_miscellaneous_instructions/overview.md:", "lists the instruction nanosleep, which no section documents"},
		{"10_special_registers", "1024_special_registers_clock64.md",
			"10_special_registers/overview.md:", "lists the special register %clock64, which no section documents"},
	} {
		t.Run(c.file, func(t *testing.T) {
			dir := gapTree(t)
			removeWithIndexEntry(t, filepath.Join(dir, ptxRoot, filepath.FromSlash(c.group)), c.file)
			wantGap(t, dir, c.overview, true)
			gaps, err := checkSources(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(gaps) != 1 || !strings.Contains(gaps[0].why, c.why) {
				t.Errorf("gaps %v, want one saying %q", gaps, c.why)
			}
		})
	}
}
