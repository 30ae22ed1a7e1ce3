package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// corruption changes one file or directory of a linked source tree.
type corruption struct {
	name string
	// apply damages the tree at dir; want is what the error must name.
	apply func(t *testing.T, dir string)
	want  string
	line  bool // the error names a line too
}

// replaceFile swaps a linked file for a real one holding data.
func replaceFile(t *testing.T, path string, data []byte) {
	t.Helper()
	os.Remove(path)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLinked(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func guide(dir, fam string) string {
	return filepath.Join(dir, "amd-isa-manuals", fam, "README.md")
}

func ptxFile(dir string) string {
	return filepath.Join(dir, "ptx-isa-9.1", "9_instruction_set", "97_instructions", "971_integer_arithmetic_instructions", "9711_integer_arithmetic_instructions_add.md")
}

func corruptions() []corruption {
	var cs []corruption
	for _, fam := range isa.AMDArchIDs() {
		for _, frac := range []float64{0.1, 0.5, 0.73} {
			cs = append(cs, corruption{
				name: fmt.Sprintf("%s guide truncated at %.0f%%", fam, frac*100),
				apply: func(t *testing.T, dir string) {
					b := readLinked(t, guide(dir, fam))
					replaceFile(t, guide(dir, fam), b[:int(float64(len(b))*frac)])
				},
				want: "amd-isa-manuals/" + fam + "/README.md:", line: true,
			})
		}
	}
	return append(cs,
		corruption{name: "binary garbage in the CDNA 3 guide", apply: func(t *testing.T, dir string) {
			b := readLinked(t, guide(dir, "cdna3"))
			junk := make([]byte, 4096)
			rand.New(rand.NewSource(3)).Read(junk)
			at := len(b) / 3
			replaceFile(t, guide(dir, "cdna3"), append(append(append([]byte(nil), b[:at]...), junk...), b[at:]...))
		}, want: "amd-isa-manuals/cdna3/README.md:", line: true},
		corruption{name: "replacement characters", apply: func(t *testing.T, dir string) {
			b := readLinked(t, guide(dir, "rdna2"))
			at := bytes.Index(b, []byte("\n| ")) + 1
			replaceFile(t, guide(dir, "rdna2"), append(append(append([]byte(nil), b[:at]...), "\uFFFD\uFFFD"...), b[at:]...))
		}, want: "amd-isa-manuals/rdna2/README.md:", line: true},
		corruption{name: "empty guide", apply: func(t *testing.T, dir string) { replaceFile(t, guide(dir, "vega"), nil) },
			want: "amd-isa-manuals/vega/README.md: is empty"},
		corruption{name: "missing guide", apply: func(t *testing.T, dir string) { os.Remove(guide(dir, "rdna1")) },
			want: "amd-isa-manuals/rdna1/README.md: cannot be read"},
		corruption{name: "missing family directory", apply: func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, "amd-isa-manuals", "cdna1"))
		}, want: "amd-isa-manuals/cdna1/README.md: cannot be read"},
		corruption{name: "unknown family directory", apply: func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, "amd-isa-manuals", "rdna9"), 0o755)
		}, want: "amd-isa-manuals/rdna9: not a family"},
		corruption{name: "symlink loop", apply: func(t *testing.T, dir string) {
			os.Remove(guide(dir, "cdna4"))
			os.Symlink(guide(dir, "cdna4"), guide(dir, "cdna4"))
		}, want: "amd-isa-manuals/cdna4/README.md: cannot be read: too many levels of symbolic links"},
		corruption{name: "/dev/zero as a guide", apply: func(t *testing.T, dir string) {
			os.Remove(guide(dir, "rdna3"))
			os.Symlink("/dev/zero", guide(dir, "rdna3"))
		}, want: "amd-isa-manuals/rdna3/README.md: is not a regular file"},
		corruption{name: "a FIFO as a guide", apply: func(t *testing.T, dir string) {
			os.Remove(guide(dir, "rdna4"))
			if err := syscall.Mkfifo(guide(dir, "rdna4"), 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}, want: "amd-isa-manuals/rdna4/README.md: is not a regular file"},
		corruption{name: "empty PTX section", apply: func(t *testing.T, dir string) { replaceFile(t, ptxFile(dir), nil) },
			want: "9711_integer_arithmetic_instructions_add.md: is empty"},
		corruption{name: "binary PTX section", apply: func(t *testing.T, dir string) {
			replaceFile(t, ptxFile(dir), append(readLinked(t, ptxFile(dir)), 0, 1, 2, 0xff, 0xfe))
		}, want: "9711_integer_arithmetic_instructions_add.md:", line: true},
		corruption{name: "every PTX file emptied", apply: func(t *testing.T, dir string) {
			filepath.WalkDir(filepath.Join(dir, "ptx-isa-9.1"), func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					replaceFile(t, p, nil)
				}
				return nil
			})
		}, want: "ptx-isa-9.1/index.json: is empty"},
		corruption{name: "PTX directory missing", apply: func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, "ptx-isa-9.1"))
		}, want: "ptx-isa-9.1: missing"},
		corruption{name: "PTX chapter missing", apply: func(t *testing.T, dir string) {
			os.RemoveAll(filepath.Join(dir, "ptx-isa-9.1", "10_special_registers"))
		}, want: "ptx-isa-9.1/10_special_registers: listed in index.json but missing"},
		corruption{name: "XML that is a directory", apply: func(t *testing.T, dir string) {
			os.MkdirAll(filepath.Join(dir, "amd-mrisa-xml", "amdgpu_isa_rdna4.xml"), 0o755)
		}, want: "amd-mrisa-xml/amdgpu_isa_rdna4.xml: is a directory"},
	)
}

// TestCorruptSourcesFailLoudly is the corruption suite: every damaged,
// missing, truncated or unreadable source fails the build with exit status 3
// naming the file (and the line where there is one), promptly, and the
// previous database stays byte-identical.
func TestCorruptSourcesFailLoudly(t *testing.T) {
	src := upstreamDir(t)
	out, before := previousDatabase(t)
	for _, c := range corruptions() {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "sources")
			linkTree(t, src, dir)
			c.apply(t, dir)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			start := time.Now()
			_, err := Run(ctx, Options{Sources: dir, Out: out, NoVerify: true})
			if err == nil {
				t.Fatal("the build succeeded")
			}
			if errs.ExitCode(err) != 3 {
				t.Errorf("exit status %d, want 3: %v", errs.ExitCode(err), err)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) {
				t.Errorf("error %q does not say %q", msg, c.want)
			}
			if c.line {
				rest := msg[strings.Index(msg, c.want)+len(c.want):]
				if rest == "" || rest[0] < '1' || rest[0] > '9' {
					t.Errorf("error %q names no line", msg)
				}
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v to fail", d)
			}
			if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
				t.Error("the failed build changed the previous database")
			}
		})
	}
}

// TestAllowPartialRecordsTheLoss: with AllowPartial a build over a damaged
// tree leaves out what was damaged (the whole Vega family, one PTX section)
// and lists every gap in the quality report.
func TestAllowPartialRecordsTheLoss(t *testing.T) {
	src := upstreamDir(t)
	dir := filepath.Join(t.TempDir(), "sources")
	linkTree(t, src, dir)
	replaceFile(t, guide(dir, "vega"), []byte("\x00\x01 not a guide"))
	replaceFile(t, ptxFile(dir), nil)
	out := filepath.Join(t.TempDir(), "partial.db")
	rep, err := Run(context.Background(), Options{Sources: dir, Out: out, NoVerify: true, AllowPartial: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Counts["vega"] != 0 || rep.Counts["vega7"] == 0 || rep.Counts["ptx"] == 0 {
		t.Errorf("counts %v: want no vega, the rest", rep.Counts)
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
	var gaps []string
	for _, p := range q.ReaderProblems {
		if strings.HasPrefix(p, "source gap: ") {
			gaps = append(gaps, p)
		}
	}
	joined := strings.Join(gaps, "\n")
	for _, want := range []string{"amd-isa-manuals/vega/README.md:1: binary data", "9711_integer_arithmetic_instructions_add.md: is empty"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the quality report does not record %q; gaps:\n%s", want, joined)
		}
	}
}

// TestCompleteSourcesPassTheGate: the real tree has no gaps.
func TestCompleteSourcesPassTheGate(t *testing.T) {
	gaps, err := checkSources(context.Background(), upstreamDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gaps {
		t.Errorf("gap in the real sources: %s", g)
	}
}
