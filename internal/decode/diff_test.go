package decode

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/isa"
)

var commentRe = regexp.MustCompile(`/\*.*?\*/`)

// loadFamily builds a decoder from the project's model of arch (read from
// shared/upstream by the build pipeline).
func loadFamily(tb testing.TB, arch string) *Decoder {
	tb.Helper()
	if decodetest.SourcesDir() == "" {
		tb.Skip("shared/upstream not found (set GPUISA_SOURCES); the real-data tests need the AMD sources")
	}
	f, err := decodetest.Load(arch)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := New(f.Arch, f.Instrs)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// tolerance is one accepted difference from llvm-mc, read from
// testdata/tolerated.tsv: family (or *), a regexp on llvm-mc's text, reason.
type tolerance struct {
	arch   string
	re     *regexp.Regexp
	reason string
}

func loadTolerances(t *testing.T) []tolerance {
	f, err := os.Open("testdata/tolerated.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []tolerance
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		p := strings.SplitN(l, "\t", 3)
		if len(p) != 3 {
			t.Fatalf("testdata/tolerated.tsv:%d: want 3 tab-separated columns", n)
		}
		re, err := regexp.Compile(p[1])
		if err != nil {
			t.Fatalf("testdata/tolerated.tsv:%d: %v", n, err)
		}
		out = append(out, tolerance{p[0], re, p[2]})
	}
	return out
}

// corpus makes n lines of 16 bytes: half uniformly random dwords, half
// random dwords forced into the fixed bits and a known opcode of one of the
// formats the decoder renders (so every format gets real coverage).
func corpus(d *Decoder, n int, seed int64) [][]byte {
	rng := rand.New(rand.NewSource(seed))
	type target struct {
		g   *group
		fm  *format
		ops []int
	}
	var targets []target
	for _, g := range d.groups {
		for _, fm := range g.formats {
			if fm.kind == kOther || fm.kind == kMAI || fm.op == nil || len(fm.byOpcode) == 0 {
				continue
			}
			var ops []int
			for op := range fm.byOpcode {
				ops = append(ops, op)
			}
			sort.Ints(ops)
			targets = append(targets, target{g, fm, ops})
		}
	}
	lines := make([][]byte, n)
	for i := range lines {
		b := make([]byte, 16)
		rng.Read(b)
		if i%2 == 1 && len(targets) > 0 {
			tg := targets[rng.Intn(len(targets))]
			w := binary.LittleEndian.Uint32(b)
			w = w&^tg.g.mask | tg.g.value
			op := tg.ops[rng.Intn(len(tg.ops))]
			w = insert(w, *tg.fm.op, uint64(op))
			// Keep sources mostly in plausible ranges: a third of the time
			// make src0 a VGPR or small inline constant.
			binary.LittleEndian.PutUint32(b, w)
		}
		lines[i] = b
	}
	return lines
}

func insert(w uint32, f isa.Field, v uint64) uint32 {
	rs := fieldRanges(f)
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		n := r.MSB - r.LSB + 1
		if r.MSB >= 32 {
			continue
		}
		m := uint32(1<<uint(n)-1) << uint(r.LSB)
		w = w&^m | uint32(v)<<uint(r.LSB)&m
		v >>= uint(n)
	}
	return w
}

type familyStats struct {
	skipped, accepted, agree, tolerated, partial, mismatch, miss, extra int
	byFormat                                                            map[string][2]int // agree+tolerated, accepted
	byReason                                                            map[string]int
	samples                                                             []string
}

// TestDifferentialLLVM compares the decoder with llvm-mc-22 --disassemble
// over 20,000 lines per family and reports agreement per family and format.
func TestDifferentialLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: install llvm-22 to run the differential test")
	}
	tols := loadTolerances(t)
	archs := []string{"cdna4", "rdna3"}
	if a := os.Getenv("GPUISA_DIFF_ARCHS"); a != "" {
		archs = strings.Split(a, ",")
	}
	n := 20000
	for _, arch := range archs {
		t.Run(arch, func(t *testing.T) {
			d := loadFamily(t, arch)
			info, _ := isa.LookupArch(arch)
			mcpu := info.Targets[0]
			lines := corpus(d, n, 42)
			dir := os.Getenv("GPUISA_DIFF_DIR")
			if dir == "" {
				dir = t.TempDir()
			}
			ref, err := decodetest.Disassemble(mcpu, lines, dir)
			if err != nil {
				t.Fatal(err)
			}
			st := familyStats{byFormat: map[string][2]int{}, byReason: map[string]int{}}
			for i, l := range lines {
				in, size, derr := d.Decode(l, 0)
				r := ref[i]
				if r.Crashed || r.Unsynced {
					st.skipped++
					continue
				}
				// llvm-mc annotates operands its checker dislikes
				// (/*Invalid register...*/); the instruction is still
				// decoded, so compare without the comment.
				r.Text = strings.Join(strings.Fields(commentRe.ReplaceAllString(r.Text, "")), " ")
				switch {
				case !r.OK && derr != nil:
					continue
				case !r.OK:
					st.extra++
					continue
				}
				st.accepted++
				fmtName := "(none)"
				if derr == nil {
					fmtName = in.Encoding
				}
				c := st.byFormat[fmtName]
				c[1]++
				got := ""
				if derr == nil {
					got = strings.Join(strings.Fields(in.Text()), " ")
				}
				switch {
				case derr == nil && got == r.Text && size == r.Len:
					st.agree++
					c[0]++
				default:
					reason := ""
					for _, tl := range tols {
						if (tl.arch == "*" || tl.arch == arch) && tl.re.MatchString(r.Text) {
							reason = tl.reason
							break
						}
					}
					switch {
					case reason != "":
						st.tolerated++
						st.byReason[reason]++
						c[0]++
					case derr != nil:
						st.miss++
					case in.Partial:
						st.partial++
					default:
						st.mismatch++
					}
					if reason == "" && len(st.samples) < 400 {
						st.samples = append(st.samples, fmt.Sprintf("%-8s %s\n   llvm: %s (%d)\n   ours: %s (%d) %v", fmtName, hexList(l[:max(r.Len, 4)]), r.Text, r.Len, got, size, derr))
					}
				}
				st.byFormat[fmtName] = c
			}
			rate := float64(st.agree+st.tolerated) / float64(max(st.accepted, 1))
			t.Logf("%s (%s): %d lines, llvm-mc accepted %d; agree %d, tolerated %d (%.2f%%); partial %d, mismatch %d, we reject %d; llvm rejects but we decode %d; skipped (llvm-mc crashed or out of step) %d",
				arch, mcpu, n, st.accepted, st.agree, st.tolerated, 100*rate, st.partial, st.mismatch, st.miss, st.extra, st.skipped)
			var fs []string
			for f := range st.byFormat {
				fs = append(fs, f)
			}
			sort.Strings(fs)
			for _, f := range fs {
				c := st.byFormat[f]
				t.Logf("  %-10s %5d/%5d %.1f%%", f, c[0], c[1], 100*float64(c[0])/float64(c[1]))
			}
			for r, k := range st.byReason {
				t.Logf("  tolerated %5d: %s", k, r)
			}
			// Guard against regressions on the encodings we render: VOP1/2/C,
			// VOP3(B/SD), SOP*, SMEM (VOP3P and the memory formats are not
			// held to it yet).
			var ok, all int
			for f, c := range st.byFormat {
				switch kindOf(f) {
				case kSOP1, kSOP2, kSOPC, kSOPK, kSOPP, kSMEM, kVOP1, kVOP2, kVOPC, kVOP3, kVOP3B:
					ok += c[0]
					all += c[1]
				}
			}
			if r := float64(ok) / float64(max(all, 1)); r < 0.97 {
				t.Errorf("%s: agreement on VALU/SALU/SMEM %.2f%% (%d/%d), below 97%%", arch, 100*r, ok, all)
			} else {
				t.Logf("%s: agreement on VALU/SALU/SMEM formats %.2f%% (%d/%d)", arch, 100*r, ok, all)
			}
			if os.Getenv("GPUISA_DIFF_VERBOSE") != "" {
				for _, s := range st.samples {
					t.Log(s)
				}
			}
		})
	}
}
