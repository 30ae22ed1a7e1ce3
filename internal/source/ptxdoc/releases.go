package ptxdoc

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Release is one PTX ISA version as the release notes describe it: the
// CUDA release that shipped it and the targets it supports (from the
// release history table), and its new features (from its own section).
type Release struct {
	Version string   // "8.0"
	CUDA    string   // "CUDA 12.0, driver r525"
	Targets []string // every sm_ target the history table lists for it, expanded
	Line    int      // line of its row in the history table
	// Notes are the "New Features" items of the version's section
	// (Markdown, as NVIDIA wrote them), with where they were read.
	Notes     []string
	NotesFile string
	NotesLine int
}

// ReleasesDir is the release notes' folder under the documentation root.
const ReleasesDir = "13_release_notes"

// ReadReleases reads the release notes under dir (the documentation
// root): the history table of overview.md and each version's section.
// It returns nil without error when the documentation has no release
// notes. historyFile is the table's file, relative to dir.
func ReadReleases(dir string) (rels []Release, historyFile string, err error) {
	root := filepath.Join(dir, ReleasesDir)
	overview, err := os.ReadFile(filepath.Join(root, "overview.md"))
	if os.IsNotExist(err) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	historyFile = ReleasesDir + "/overview.md"
	rels, err = ParseHistory(overview)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", historyFile, err)
	}
	files, err := filepath.Glob(filepath.Join(root, "*changes_in_ptx_isa_version_*.md"))
	if err != nil {
		return nil, "", err
	}
	byVersion := map[string]int{}
	for i, r := range rels {
		byVersion[r.Version] = i
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, "", err
		}
		v, notes, line := ParseChanges(data)
		i, ok := byVersion[v]
		if !ok || v == "" {
			continue
		}
		rels[i].Notes, rels[i].NotesFile, rels[i].NotesLine = notes, ReleasesDir+"/"+filepath.Base(f), line
	}
	return rels, historyFile, nil
}

var (
	historyVersion = lazyre.New(`^PTX ISA (\d+\.\d+)$`)
	targetGroup    = lazyre.New("`sm_(\\{[^}`]*\\}|[0-9]+[af]?)`")
)

// ParseHistory reads the PTX release history table ("| PTX ISA Version |
// CUDA Release | Supported Targets |"). A row without a version continues
// the one before it (the conversion lost the merged cell of a version
// shipped with two CUDA releases).
func ParseHistory(data []byte) ([]Release, error) {
	var out []Release
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "| PTX ISA Version |") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(l, "|") {
			if len(out) > 0 && l != "" {
				break // the table ended
			}
			continue
		}
		cells := splitRow(l)
		if len(cells) > 0 && strings.Trim(cells[0], "- ") == "" {
			continue // the header's rule
		}
		if m := historyVersion.FindStringSubmatch(cells[0]); m != nil {
			r := Release{Version: m[1], Line: line}
			if len(cells) > 1 {
				r.CUDA = cells[1]
			}
			if len(cells) > 2 {
				r.Targets = expandTargets(cells[2])
			}
			out = append(out, r)
			continue
		}
		if len(out) == 0 {
			continue
		}
		prev := &out[len(out)-1]
		if cells[0] != "" {
			prev.CUDA += "; " + cells[0]
		}
		if len(cells) > 1 {
			prev.Targets = union(prev.Targets, expandTargets(cells[1]))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if in && len(out) == 0 {
		return nil, fmt.Errorf("the PTX release history table has no rows")
	}
	return out, nil
}

func splitRow(l string) []string {
	l = strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
	cells := strings.Split(l, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// expandTargets spells out "`sm_{10,11}`, `sm_20`" as sm_10, sm_11, sm_20.
func expandTargets(cell string) []string {
	var out []string
	for _, m := range targetGroup.FindAllStringSubmatch(cell, -1) {
		g := m[1]
		if strings.HasPrefix(g, "{") {
			for _, n := range strings.Split(strings.Trim(g, "{}"), ",") {
				if n = strings.TrimSpace(n); n != "" {
					out = append(out, "sm_"+n)
				}
			}
			continue
		}
		out = append(out, "sm_"+g)
	}
	return union(nil, out)
}

func union(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range append(append([]string(nil), a...), b...) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

var changesTitle = regexp.MustCompile(`Changes in PTX ISA Version (\d+\.\d+)`)

// ParseChanges reads one "Changes in PTX ISA Version X.Y" section: its
// version and the items of its "New Features" list, continuation lines
// joined, and the line of the list. The oldest versions write paragraphs
// instead of a list; each paragraph is then an item.
func ParseChanges(data []byte) (version string, notes []string, line int) {
	lines := strings.Split(string(data), "\n")
	inNew := false
	var bullets, paras []string
	blank := true
	for i, raw := range lines {
		l := strings.TrimRight(raw, " \r")
		t := strings.TrimSpace(l)
		if version == "" {
			if m := changesTitle.FindStringSubmatch(t); m != nil {
				version = m[1]
			}
		}
		switch {
		case t == "New Features":
			inNew, line, blank = true, i+1, true
			continue
		case t == "Semantic Changes and Clarifications" || strings.HasPrefix(t, "#"):
			inNew = false
			continue
		}
		if !inNew {
			continue
		}
		switch {
		case t == "":
			blank = true
			continue
		case strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "- "):
			bullets = append(bullets, strings.TrimSpace(t[2:]))
		case len(bullets) > 0 && strings.HasPrefix(l, " "):
			bullets[len(bullets)-1] += " " + t
		case blank:
			paras = append(paras, t)
		case len(paras) > 0:
			paras[len(paras)-1] += " " + t
		}
		blank = false
	}
	if len(bullets) > 0 {
		return version, bullets, line
	}
	return version, paras, line
}
