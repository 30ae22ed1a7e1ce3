package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/amdmanual"
	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// The source gate checks a source tree against what a complete one holds
// before any reader runs, so that a missing, truncated, binary or
// unreadable source fails the build naming the file (and line), instead of
// shrinking the database silently:
//
//   - amd-isa-manuals/<family>/README.md for each of the twelve AMD
//     families, and no other family directory; every section the guide's
//     table of contents links to is in the file (a truncated guide loses the
//     sections after the cut); the guide's instruction sections and its
//     opcode tables agree encoding by encoding, both ways, and no section's
//     pseudocode block is left open, as the reader (amdmanual) reads the
//     guide (Guide.Gaps, which lists the exceptions AMD's guides have): a
//     guide cut short, or with a section's body, a whole section or one
//     instruction removed, keeps the opcode tables but loses sections, and
//     one whose opcode tables come last loses table rows;
//   - the PTX ISA documentation tree (ptx-isa-*/): its index.json, every
//     directory the index lists, and at least one instruction section;
//     every directory's own index.json, and every file and directory it
//     lists; every instruction, special-register and directive section
//     complete as the reader (ptxdoc) reads it: its code blocks closed and
//     the subsections such a section has (Syntax, Description, PTX ISA
//     Notes, Target ISA Notes, Examples; see ptxdoc.Section.Missing);
//     every instruction (special register) a group's overview lists ("The
//     Miscellaneous instructions are: ...") documented by a section;
//   - the release notes against the release history: every PTX ISA version
//     the history table names, from the oldest with a note on, has its
//     "Changes in PTX ISA Version" note, and every version a section names
//     ("PTX ISA version 8.0") is in the history;
//   - amd-mrisa-xml/*.xml and *.zip, when present;
//   - every file a regular file (no devices, FIFOs or sockets, which are
//     never opened), within a size limit, readable; Markdown and JSON valid
//     UTF-8 without NUL bytes or U+FFFD replacement characters.
//
// With Options.AllowPartial the build goes on without what failed (a whole
// family, or single PTX files) and records every gap as a problem, which the
// quality report lists; a file whose gap loses facts but leaves it readable
// (sourceGap.keep: an instruction without its section, a section cut
// short, a release without its note) stays in the build.

// Size limits of source files, well above the largest real ones (guides
// about 1.5 MB, PTX sections 200 KB, full XML files 12 MB).
const (
	maxGuideBytes = 32 << 20
	maxPTXBytes   = 8 << 20
	maxXMLBytes   = 256 << 20
)

// sourceGap is one problem the gate found.
type sourceGap struct {
	file string // relative to the sources directory
	line int    // 0 when the problem is the file as a whole
	why  string
	// family is the AMD family the gap costs (all of it), "ptx" for the
	// PTX tree as a whole, "" for one PTX file or an extra directory.
	family string
	// keep is set for a gap that loses facts but leaves the file readable
	// (an instruction without its section, a section cut short, a release
	// without its note): with AllowPartial the file stays in the tree, the
	// readers take what it holds, and the gap is recorded.
	keep bool
}

func (g sourceGap) String() string {
	if g.line > 0 {
		return fmt.Sprintf("%s:%d: %s", g.file, g.line, g.why)
	}
	return g.file + ": " + g.why
}

// gateResult is what the build reads: src itself, or (with AllowPartial and
// gaps) a tree of links to the usable files only.
type gateResult struct {
	src      string
	gaps     []sourceGap
	cleanup  func()
	problems []string
}

// gateSources checks src. Without allowPartial any gap is an upstream error
// (exit status 3) naming the first; with it, the result's src holds the
// usable files and problems lists the gaps.
func gateSources(ctx context.Context, src string, allowPartial bool) (*gateResult, error) {
	gaps, err := checkSources(ctx, src)
	if err != nil {
		return nil, err
	}
	res := &gateResult{src: src, gaps: gaps, cleanup: func() {}}
	if len(gaps) == 0 {
		return res, nil
	}
	if !allowPartial {
		first := gaps[0]
		msg := first.String()
		if len(gaps) > 1 {
			msg += fmt.Sprintf(" (and %d more problems with the sources; --allow-partial builds without them)", len(gaps)-1)
		} else if first.keep {
			msg += " (--allow-partial builds with what the file holds and lists the gap)"
		}
		return nil, &errs.Error{Kind: errs.KindUpstream, Msg: "incomplete sources", Err: fmt.Errorf("%s", msg)}
	}
	for _, g := range gaps {
		res.problems = append(res.problems, "source gap: "+g.String())
	}
	tree, err := partialTree(src, gaps)
	if err != nil {
		return nil, err
	}
	res.src, res.cleanup = tree, func() { os.RemoveAll(tree) }
	return res, nil
}

// checkSources returns every gap of the tree at src, in a stable order.
func checkSources(ctx context.Context, src string) ([]sourceGap, error) {
	var gaps []sourceGap
	add := func(g sourceGap) { gaps = append(gaps, g) }

	manuals := filepath.Join(src, "amd-isa-manuals")
	known := map[string]bool{}
	var guides []guideText
	for _, id := range isa.AMDArchIDs() {
		known[id] = true
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rel := "amd-isa-manuals/" + id + "/README.md"
		data, g := readSource(src, rel, maxGuideBytes)
		if g != nil {
			g.family = id
			add(*g)
			continue
		}
		text := checkText(rel, data)
		for _, g := range text {
			g.family = id
			add(g)
		}
		if g := checkContents(rel, data); g != nil {
			g.family = id
			add(*g)
			continue
		}
		if len(text) == 0 { // a guide with binary data is lost anyway
			guides = append(guides, guideText{id, rel, data})
		}
	}
	gaps = append(gaps, checkGuides(guides)...)
	if entries, err := os.ReadDir(manuals); err == nil {
		for _, e := range entries {
			if !known[e.Name()] && e.Name() != "UPSTREAM-README.md" && !strings.HasPrefix(e.Name(), ".") {
				add(sourceGap{file: "amd-isa-manuals/" + e.Name(), why: "not a family gpuisa knows (" + strings.Join(isa.AMDArchIDs(), ", ") + ")"})
			}
		}
	}

	gaps = append(gaps, checkPTXTree(ctx, src)...)

	if entries, err := os.ReadDir(filepath.Join(src, "amd-mrisa-xml")); err == nil {
		for _, e := range entries {
			n := strings.ToLower(e.Name())
			if !strings.HasSuffix(n, ".xml") && !strings.HasSuffix(n, ".zip") {
				continue
			}
			rel := "amd-mrisa-xml/" + e.Name()
			if _, g := statSource(src, rel, maxXMLBytes); g != nil {
				add(*g)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return gaps, nil
}

// statSource checks that rel is a regular file within limit, without
// opening it.
func statSource(src, rel string, limit int64) (os.FileInfo, *sourceGap) {
	st, err := os.Stat(filepath.Join(src, filepath.FromSlash(rel)))
	if err != nil {
		why := err.Error()
		if pe, ok := err.(*os.PathError); ok {
			why = pe.Err.Error()
		}
		return nil, &sourceGap{file: rel, why: "cannot be read: " + why}
	}
	switch {
	case st.IsDir():
		return nil, &sourceGap{file: rel, why: "is a directory, not a file"}
	case !st.Mode().IsRegular():
		return nil, &sourceGap{file: rel, why: fmt.Sprintf("is not a regular file (%s)", st.Mode().Type())}
	case st.Size() > limit:
		return nil, &sourceGap{file: rel, why: fmt.Sprintf("is %d bytes, over the %d-byte limit for a source file", st.Size(), limit)}
	case st.Size() == 0:
		return nil, &sourceGap{file: rel, why: "is empty"}
	}
	return st, nil
}

// readSource reads a regular file of at most limit bytes.
func readSource(src, rel string, limit int64) ([]byte, *sourceGap) {
	if _, g := statSource(src, rel, limit); g != nil {
		return nil, g
	}
	f, err := os.Open(filepath.Join(src, filepath.FromSlash(rel)))
	if err != nil {
		return nil, &sourceGap{file: rel, why: "cannot be read: " + err.Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &sourceGap{file: rel, why: "cannot be read: " + err.Error()}
	}
	if int64(len(data)) > limit {
		return nil, &sourceGap{file: rel, why: "grew over the size limit while read"}
	}
	return data, nil
}

// checkText reports bytes no text source holds: invalid UTF-8, NUL, and
// U+FFFD (a conversion that lost characters), each with its line; at most
// a few per file.
func checkText(rel string, data []byte) []sourceGap {
	var gaps []sourceGap
	line := 1
	for i := 0; i < len(data) && len(gaps) < 3; {
		c := data[i]
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == 0:
			gaps = append(gaps, sourceGap{file: rel, line: line, why: "binary data (a NUL byte) in a text source"})
			i = skipLine(data, i)
			continue
		case c < utf8.RuneSelf:
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			gaps = append(gaps, sourceGap{file: rel, line: line, why: "bytes that are not UTF-8 (binary data or another encoding)"})
			i = skipLine(data, i)
			continue
		case r == utf8.RuneError:
			gaps = append(gaps, sourceGap{file: rel, line: line, why: "U+FFFD replacement characters: the text lost characters in a conversion"})
			i = skipLine(data, i)
			continue
		}
		i += size
	}
	return gaps
}

// skipLine returns the index of the newline ending the line holding i.
func skipLine(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(data)
}

var (
	tocLink   = regexp.MustCompile(`\[([^\]]*)\]\(#(page-[0-9]+-[0-9]+)\)`)
	anchorTag = regexp.MustCompile(`id="(page-[0-9]+-[0-9]+)"`)
)

// checkContents holds a guide to its own table of contents: every section
// it links to must be in the file.
func checkContents(rel string, data []byte) *sourceGap {
	anchors := map[string]bool{}
	for _, m := range anchorTag.FindAllSubmatch(data, -1) {
		anchors[string(m[1])] = true
	}
	line := 1
	links := 0
	for rest := data; len(rest) > 0; line++ {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		for _, m := range tocLink.FindAllSubmatch(l, -1) {
			links++
			if !anchors[string(m[2])] {
				title := strings.TrimSpace(string(m[1]))
				return &sourceGap{file: rel, line: line, why: fmt.Sprintf("the table of contents lists %q, which is not in the file (truncated?)", title)}
			}
		}
	}
	if links == 0 {
		return &sourceGap{file: rel, why: "no table of contents: not a complete ISA guide"}
	}
	return nil
}

// ptxDir is the PTX documentation directory the reader uses.
func ptxDir(src string) (string, bool) {
	dir := filepath.Join(src, "ptx-isa-9.1")
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		return dir, true
	}
	matches, _ := filepath.Glob(filepath.Join(src, "ptx-isa*"))
	for i := len(matches) - 1; i >= 0; i-- {
		if st, err := os.Stat(matches[i]); err == nil && st.IsDir() {
			return matches[i], true
		}
	}
	return "", false
}

// checkPTXTree checks the PTX documentation: the directory, its index, the
// directories the index lists, every Markdown file, and that instruction
// sections are there.
func checkPTXTree(ctx context.Context, src string) []sourceGap {
	dir, ok := ptxDir(src)
	if !ok {
		return []sourceGap{{file: "ptx-isa-9.1", why: "missing: no PTX ISA documentation directory (ptx-isa-*)", family: "ptx"}}
	}
	root := relPath(src, dir)
	var gaps []sourceGap
	index, g := readSource(src, root+"/index.json", maxPTXBytes)
	if g != nil {
		g.family = "ptx"
		return append(gaps, *g)
	}
	var idx struct {
		Directories []struct {
			Name string `json:"name"`
		} `json:"directories"`
	}
	if err := json.Unmarshal(index, &idx); err != nil || len(idx.Directories) == 0 {
		return append(gaps, sourceGap{file: root + "/index.json", why: "not the tree's index (no directories listed)", family: "ptx"})
	}
	// The index names chapters by number and a short title the directory
	// names may spell longer ("12_pragma_strings" is
	// 12_descriptions_of_pragma_strings): the number must be there.
	chapters := map[string]bool{}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if num, _, ok := strings.Cut(e.Name(), "_"); ok && e.IsDir() {
				chapters[num] = true
			}
		}
	}
	for _, d := range idx.Directories {
		if num, _, _ := strings.Cut(d.Name, "_"); !chapters[num] {
			gaps = append(gaps, sourceGap{file: root + "/" + d.Name, why: "listed in index.json but missing", family: "ptx"})
		}
	}
	sections := 0
	named := namedVersions{}
	documented := map[string]bool{} // mnemonics the sections document
	var listed []listedMnemonic     // mnemonics the groups' overviews list
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			gaps = append(gaps, sourceGap{file: relPath(src, p), why: "cannot be read: " + err.Error(), family: "ptx"})
			return nil
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, relPath(src, p))
		}
		return nil
	})
	sort.Strings(files)
	for _, rel := range files {
		if ctx.Err() != nil {
			return gaps
		}
		data, g := readSource(src, rel, maxPTXBytes)
		if g != nil {
			gaps = append(gaps, *g)
			continue
		}
		text := checkText(rel, data)
		gaps = append(gaps, text...)
		if !strings.Contains(rel, "/"+ptxdoc.ReleasesDir+"/") {
			named.add(rel, data)
		}
		if strings.Contains(rel, "/9_instruction_set/") {
			sections++
		}
		if len(text) == 0 {
			gaps = append(gaps, checkPTXSection(root, rel, data, documented)...)
			if path.Base(rel) == "overview.md" && (strings.Contains(rel, "/9_instruction_set/") || strings.Contains(rel, "/10_special_registers/")) {
				listed = append(listed, overviewList(rel, data)...)
			}
		}
	}
	if sections == 0 {
		gaps = append(gaps, sourceGap{file: root + "/9_instruction_set", why: "no instruction sections", family: "ptx"})
	}
	// The indexes first: a missing file is named before what it loses.
	gaps = append(gaps, checkPTXIndexes(src, dir)...)
	for _, l := range listed {
		if !documented[l.name] {
			what := "instruction"
			if strings.HasPrefix(l.name, "%") {
				what = "special register"
			}
			gaps = append(gaps, sourceGap{file: l.file, line: l.line, keep: true, why: fmt.Sprintf("lists the %s %s, which no section documents (its file is missing)", what, l.name)})
		}
	}
	gaps = append(gaps, checkReleaseNotes(src, dir, named)...)
	return gaps
}

// checkPTXSection holds one section file documenting an instruction,
// special register or directive to what a complete one holds (see
// ptxdoc.Section.Missing), as the reader reads it.
func checkPTXSection(root, rel string, data []byte, documented map[string]bool) []sourceGap {
	inDoc := strings.TrimPrefix(rel, root+"/")
	kind := ptxdoc.KindForPath(inDoc)
	if kind == "" || path.Base(rel) == "overview.md" {
		return nil
	}
	sec, _, err := ptxdoc.Parse(inDoc, data)
	if err != nil {
		return []sourceGap{{file: rel, why: "cannot be read as a PTX section: " + err.Error()}}
	}
	for _, m := range sec.Mnemonics {
		documented[m] = true
	}
	if len(sec.Mnemonics) == 0 {
		return nil // background sections (tcgen05 layouts and the like) have no fixed shape
	}
	sec.Kind = kind
	missing := sec.Missing()
	if len(missing) == 0 {
		return nil
	}
	line := sec.OpenFence
	if line == 0 {
		line = bytes.Count(data, []byte("\n")) + 1 // where the file ends
	}
	return []sourceGap{{file: rel, line: line, keep: true, why: fmt.Sprintf("the section on %s lacks %s (cut short?)", strings.Join(sec.Mnemonics, ", "), strings.Join(missing, ", "))}}
}

// ptxIndex is a directory's index.json in the PTX documentation tree.
type ptxIndex struct {
	Directories []struct {
		Name string `json:"name"`
	} `json:"directories"`
	Files []struct {
		Filename string `json:"filename"`
	} `json:"files"`
}

// checkPTXIndexes holds every directory of the PTX tree to its own
// index.json: each file and directory an index lists must be there, and
// each listed directory must have its index. (The root's index names
// chapters by number; checkPTXTree checks those.)
func checkPTXIndexes(src, dir string) []sourceGap {
	var gaps []sourceGap
	var walk func(d string, top bool)
	walk = func(d string, top bool) {
		rel := relPath(src, d)
		data, g := readSource(src, rel+"/index.json", maxPTXBytes)
		if g != nil {
			if !top {
				gaps = append(gaps, *g)
			}
			return
		}
		var idx ptxIndex
		if err := json.Unmarshal(data, &idx); err != nil {
			gaps = append(gaps, sourceGap{file: rel + "/index.json", why: "not a directory index: " + err.Error()})
			return
		}
		for _, f := range idx.Files {
			if f.Filename == "" || strings.ContainsAny(f.Filename, "/\\") {
				continue
			}
			if _, err := os.Lstat(filepath.Join(d, f.Filename)); err != nil {
				gaps = append(gaps, sourceGap{file: rel + "/" + f.Filename, why: "listed in " + rel + "/index.json but missing"})
			}
		}
		for _, sub := range idx.Directories {
			if sub.Name == "" || strings.ContainsAny(sub.Name, "/\\") || sub.Name == ".." {
				continue
			}
			p := filepath.Join(d, sub.Name)
			if top {
				p = chapterDir(d, sub.Name)
			}
			if st, err := os.Stat(p); err != nil || !st.IsDir() {
				if !top { // the root's chapters are checked by number
					gaps = append(gaps, sourceGap{file: rel + "/" + sub.Name, why: "listed in " + rel + "/index.json but missing"})
				}
				continue
			}
			walk(p, false)
		}
	}
	walk(dir, true)
	return gaps
}

// partialTree links the usable files of src into a new directory: every
// file but those of a lost family, the PTX tree if it is lost, and single
// PTX files with gaps.
func partialTree(src string, gaps []sourceGap) (string, error) {
	lostFamily := map[string]bool{}
	lostFile := map[string]bool{}
	for _, g := range gaps {
		if g.keep {
			continue
		}
		if g.family != "" {
			lostFamily[g.family] = true
		} else {
			lostFile[g.file] = true
		}
	}
	ptxRoot := ""
	if dir, ok := ptxDir(src); ok {
		ptxRoot = relPath(src, dir)
	}
	tree, err := os.MkdirTemp("", "gpuisa-partial-sources-")
	if err != nil {
		return "", err
	}
	err = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil // reported by the gate
		}
		rel := relPath(src, p)
		switch {
		case rel == ".":
			return nil
		case lostFile[rel]:
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		case strings.HasPrefix(rel, "amd-isa-manuals/"):
			if fam := strings.Split(rel, "/")[1]; lostFamily[fam] {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
		case ptxRoot != "" && (rel == ptxRoot || strings.HasPrefix(rel, ptxRoot+"/")) && lostFamily["ptx"]:
			return filepath.SkipDir
		}
		target := filepath.Join(tree, filepath.FromSlash(rel))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			return nil
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		return os.Symlink(abs, target)
	})
	if err != nil {
		os.RemoveAll(tree)
		return "", err
	}
	return tree, nil
}

// chapterDir is the directory of the root's chapter name: the index names
// chapters by number and a short title the directory may spell longer.
func chapterDir(root, name string) string {
	p := filepath.Join(root, name)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	num, _, _ := strings.Cut(name, "_")
	if entries, err := os.ReadDir(root); err == nil {
		for _, e := range entries {
			if n, _, ok := strings.Cut(e.Name(), "_"); ok && n == num && e.IsDir() {
				return filepath.Join(root, e.Name())
			}
		}
	}
	return p
}

// checkReleaseNotes holds the release notes to the versions the release
// history names: every PTX ISA version in the history table has its own
// "Changes in PTX ISA Version" note.
func checkReleaseNotes(src, dir string, named namedVersions) []sourceGap {
	rels, history, err := ptxdoc.ReadReleases(dir)
	root := relPath(src, dir)
	if err != nil {
		return []sourceGap{{file: root + "/" + ptxdoc.ReleasesDir, why: "the release notes cannot be read: " + err.Error()}}
	}
	if history == "" {
		return []sourceGap{{file: root + "/" + ptxdoc.ReleasesDir + "/overview.md", why: "missing: no release history"}}
	}
	// NVIDIA's notes begin with PTX ISA 2.0 (the history table goes back
	// to 1.0): every version from the oldest one with a note on, through
	// the newest the history names, has one.
	first := -1
	for i, r := range rels {
		if r.NotesFile != "" && (first < 0 || versionLess(r.Version, rels[first].Version)) {
			first = i
		}
	}
	var gaps []sourceGap
	inHistory := map[string]bool{}
	for _, r := range rels {
		inHistory[r.Version] = true
	}
	var versions []string
	for v := range named {
		versions = append(versions, v)
	}
	sort.Slice(versions, func(i, j int) bool { return versionLess(versions[i], versions[j]) })
	for _, v := range versions {
		if !inHistory[v] {
			at := named[v]
			gaps = append(gaps, sourceGap{file: at.file, line: at.line, keep: true, why: fmt.Sprintf("names PTX ISA version %s, which the release history (%s) does not list: the release notes are incomplete", v, root+"/"+history)})
		}
	}
	for _, r := range rels {
		if r.NotesFile == "" && (first < 0 || !versionLess(r.Version, rels[first].Version)) {
			gaps = append(gaps, sourceGap{file: root + "/" + history, line: r.Line, keep: true, why: fmt.Sprintf("the release history names PTX ISA %s, whose release note (Changes in PTX ISA Version %s) is missing", r.Version, r.Version)})
		}
	}
	return gaps
}

// versionLess orders "major.minor" versions numerically.
func versionLess(a, b string) bool {
	num := func(v string) (int, int) {
		maj, min, _ := strings.Cut(v, ".")
		x, _ := strconv.Atoi(maj)
		y, _ := strconv.Atoi(min)
		return x, y
	}
	am, an := num(a)
	bm, bn := num(b)
	return am < bm || am == bm && an < bn
}

// guideText is a guide that passed the file and contents checks.
type guideText struct {
	family, rel string
	data        []byte
}

// checkGuides holds each guide's instructions to its own tables, as the
// reader (amdmanual) reads them: an instruction an opcode table lists with
// no section, or a section cut short, is a gap (see amdmanual.Guide.Gaps).
// The guides are read in parallel; the gaps come in family order.
func checkGuides(guides []guideText) []sourceGap {
	found := make([][]sourceGap, len(guides))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for i, gt := range guides {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			g, err := amdmanual.Parse(bytes.NewReader(gt.data), gt.rel, gt.family)
			if err != nil {
				found[i] = []sourceGap{{file: gt.rel, why: err.Error(), family: gt.family}}
				return
			}
			for _, p := range g.Gaps {
				found[i] = append(found[i], sourceGap{file: gt.rel, line: p.Line, why: p.Why, keep: true})
			}
		}()
	}
	wg.Wait()
	var gaps []sourceGap
	for _, f := range found {
		gaps = append(gaps, f...)
	}
	return gaps
}

// namedVersions maps each PTX ISA version the documentation names ("PTX
// ISA version 8.0", in the sections' PTX ISA Notes) to the first place
// that names it.
type namedVersions map[string]struct {
	file string
	line int
}

var ptxVersionName = regexp.MustCompile(`(?i)PTX ISA version (\d+\.\d+)`)

func (n namedVersions) add(rel string, data []byte) {
	for _, m := range ptxVersionName.FindAllSubmatchIndex(data, -1) {
		v := string(data[m[2]:m[3]])
		if _, seen := n[v]; !seen {
			n[v] = struct {
				file string
				line int
			}{rel, bytes.Count(data[:m[0]], []byte("\n")) + 1}
		}
	}
}

// listedMnemonic is an instruction a group's overview lists.
type listedMnemonic struct {
	file string
	line int
	name string
}

var overviewItem = regexp.MustCompile("^\\* (`[^`]+`(?:, `[^`]+`)*)\\s*$")

// overviewList reads the list an instruction group's overview.md gives
// ("The Miscellaneous instructions are:" and one "* `name`" item a line).
func overviewList(rel string, data []byte) []listedMnemonic {
	var out []listedMnemonic
	inList := false
	for i, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasSuffix(t, "instructions are:") || strings.HasSuffix(t, "special registers are:"):
			inList = true
		case inList && t == "":
		case inList && overviewItem.MatchString(t):
			for _, m := range tickName.FindAllStringSubmatch(t, -1) {
				name, _, _ := strings.Cut(m[1], "{") // "bar{.cta}" is bar with an optional .cta
				if strings.ContainsAny(name, " ,<") {
					continue // a range ("%pm0, ..., %pm7") or a pattern ("%reserved_smem_offset<2>")
				}
				out = append(out, listedMnemonic{rel, i + 1, name})
			}
		default:
			inList = false
		}
	}
	return out
}

var tickName = regexp.MustCompile("`([^`]+)`")
