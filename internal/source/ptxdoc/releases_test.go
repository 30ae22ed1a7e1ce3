package ptxdoc

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

const historyFixture = `Table 1 PTX Release History

| PTX ISA Version | CUDA Release | Supported Targets |
| --- | --- | --- |
| PTX ISA 2.0 | CUDA 3.0, driver r195 | ` + "`sm_{10,11}`, `sm_20`" + ` |
| PTX ISA 3.0 | CUDA 4.1, driver r285 | ` + "`sm_{10,11}`, `sm_20`" + ` |
| CUDA 4.2, driver r295 | ` + "`sm_{10,11}`, `sm_20`, `sm_30`" + ` |
| PTX ISA 8.5 | CUDA 12.5, driver r555 | ` + "`sm_{90,90a}`" + ` |
| CUDA 12.6, driver r560 |

Table 2 Something else
`

func TestParseHistory(t *testing.T) {
	rels, err := ParseHistory([]byte(historyFixture))
	if err != nil {
		t.Fatal(err)
	}
	if len(rels) != 3 {
		t.Fatalf("releases = %+v", rels)
	}
	if r := rels[1]; r.Version != "3.0" || r.CUDA != "CUDA 4.1, driver r285; CUDA 4.2, driver r295" ||
		strings.Join(r.Targets, " ") != "sm_10 sm_11 sm_20 sm_30" || r.Line != 6 {
		t.Errorf("3.0 = %+v", r)
	}
	if r := rels[2]; r.CUDA != "CUDA 12.5, driver r555; CUDA 12.6, driver r560" || strings.Join(r.Targets, " ") != "sm_90 sm_90a" {
		t.Errorf("8.5 = %+v", r)
	}
}

func TestParseChanges(t *testing.T) {
	v, notes, line := ParseChanges([]byte("# 13.11. Changes in PTX ISA Version 8.0\n\nNew Features\n\nPTX ISA version 8.0 introduces:\n\n" +
		"* Adds `wgmma`.\n* Extends the copies with bulk operations\n  on large data.\n\nSemantic Changes and Clarifications\n\n* Not a feature.\n"))
	if v != "8.0" || line != 3 || len(notes) != 2 || notes[1] != "Extends the copies with bulk operations on large data." {
		t.Errorf("ParseChanges = %q %q %d", v, notes, line)
	}
}

func TestReleasesRealCopy(t *testing.T) {
	rels, file, err := ReadReleases(testenv.PTXDocs(t))
	if err != nil {
		t.Fatal(err)
	}
	if file == "" || len(rels) < 40 {
		t.Fatalf("%d releases from %q", len(rels), file)
	}
	byV := map[string]Release{}
	for _, r := range rels {
		byV[r.Version] = r
	}
	if r := byV["7.8"]; !slices.Contains(r.Targets, "sm_90") || !strings.Contains(r.CUDA, "CUDA 11.8") {
		t.Errorf("7.8 = %+v", r)
	}
	if r := byV["8.0"]; !slices.Contains(r.Targets, "sm_90a") || len(r.Notes) < 5 || !strings.Contains(strings.Join(r.Notes, " "), "wgmma") {
		t.Errorf("8.0 = %+v", r)
	}
	if r := byV["3.0"]; !slices.Contains(r.Targets, "sm_30") {
		t.Errorf("3.0 (continued row) = %+v", r)
	}
	for _, r := range rels {
		if r.Version != "1.0" && r.Version != "1.1" && r.Version >= "2.0" && len(r.Notes) == 0 {
			t.Errorf("%s has no release notes", r.Version)
		}
	}
}

func FuzzReleases(f *testing.F) {
	f.Add([]byte(historyFixture))
	f.Add([]byte("| PTX ISA Version |\n| PTX ISA 1.0 |\n|\n| `sm_{` |"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseHistory(data)
		_, _, _ = ParseChanges(data)
	})
}
