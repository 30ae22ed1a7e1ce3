package decode

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

var commentRe = regexp.MustCompile(`/\*.*?\*/`)

// sentinels are the six "s_nop 0x1234" words decodetest.Disassemble puts
// after every line of llvm-mc's input.
var sentinels = []byte{0x34, 0x12, 0x80, 0xbf, 0x34, 0x12, 0x80, 0xbf, 0x34, 0x12, 0x80, 0xbf, 0x34, 0x12, 0x80, 0xbf, 0x34, 0x12, 0x80, 0xbf, 0x34, 0x12, 0x80, 0xbf}

// loadFamily builds a decoder from the project's model of arch (read from
// shared/upstream by the build pipeline).
func loadFamily(tb testing.TB, arch string) *Decoder {
	tb.Helper()
	f := loadModel(tb, arch)
	d, err := New(f.Arch, f.Instrs)
	if err != nil {
		tb.Fatal(err)
	}
	return prepareAll(d)
}

// prepareAll prepares every entry of d (the decoder prepares an entry on
// first use), so the tests that read the entries' decisions see them all.
func prepareAll(d *Decoder) *Decoder {
	for _, g := range d.groups {
		for _, fm := range g.formats {
			for _, en := range fm.byOpcode {
				d.ready(fm, en)
			}
		}
	}
	return d
}

// loadModel reads the project's model of arch from shared/upstream, or
// skips the test when the sources are absent.
func loadModel(tb testing.TB, arch string) decodetest.Family {
	tb.Helper()
	if testenv.FindUpstream() == "" {
		tb.Skip("shared/upstream not found (set GPUISA_SOURCES); the real-data tests need the AMD sources")
	}
	f, err := decodetest.Load(arch)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// tolerance is one accepted difference from llvm-mc, read from
// testdata/tolerated.tsv: family (or *), a regexp on llvm-mc's text, reason.
type tolerance struct {
	arch   string
	re     *regexp.Regexp
	reason string
}

func loadTolerances(t *testing.T) []tolerance {
	var out []tolerance
	for _, r := range testenv.ReadTable(t, "testdata/tolerated.tsv", "\t", 3) {
		re, err := regexp.Compile(r.Fields[1])
		if err != nil {
			t.Fatalf("testdata/tolerated.tsv:%d: %v", r.Line, err)
		}
		out = append(out, tolerance{r.Fields[0], re, r.Fields[2]})
	}
	return out
}

// knownExtra is a class of words llvm-mc rejects (or flags) that the
// decoder still prints, read from testdata/known-extra.tsv: family (or *),
// format, a regexp on the decoder's text, and why the rule is not there.
// Such words are counted and reported per class, never as agreement.
type knownExtra struct {
	arch, format string
	re           *regexp.Regexp
	reason       string
}

func loadKnownExtra(t *testing.T) []knownExtra {
	var out []knownExtra
	for _, r := range testenv.ReadTable(t, "testdata/known-extra.tsv", "\t", 4) {
		re, err := regexp.Compile(r.Fields[2])
		if err != nil {
			t.Fatalf("testdata/known-extra.tsv:%d: %v", r.Line, err)
		}
		out = append(out, knownExtra{r.Fields[0], r.Fields[1], re, r.Fields[3]})
	}
	return out
}

// knownClass is the reason of the first known-extra class the decoder's
// text of a word in format fm on arch falls in, or "".
func knownClass(ks []knownExtra, arch, fm, text string) string {
	for _, k := range ks {
		if (k.arch == "*" || k.arch == arch) && (k.format == "*" || k.format == fm) && k.re.MatchString(text) {
			return k.reason
		}
	}
	return ""
}

// corpus makes n lines: first the encodings llvm-mc produced for the
// model's verified examples on mcpu (Examples and TargetDetails, at most
// maxExamples of them), then lines of 16 random bytes: half uniformly
// random, half forced into the fixed bits and a known opcode of one of the
// family's formats (so every format gets real coverage). Without forced
// (and with maxExamples 0) every line is uniformly random.
func corpus(d *Decoder, n int, seed int64, mcpu string, maxExamples int, forced bool) (lines [][]byte, fromExamples int) {
	rng := rand.New(rand.NewSource(seed))
	seen := map[string]bool{}
	addExample := func(enc string) {
		if enc == "" || seen[enc] || len(lines) >= maxExamples || len(lines) >= n {
			return
		}
		seen[enc] = true
		b, err := ParseInput([]byte(enc))
		if err != nil || len(b) < 4 {
			return
		}
		lines = append(lines, b)
	}
	if mcpu != "" {
		for _, g := range d.groups {
			for _, fm := range g.formats {
				ops := slices.Sorted(maps.Keys(fm.byOpcode))
				for _, op := range ops {
					in := fm.byOpcode[op].instr
					if in == nil {
						continue
					}
					for _, ex := range in.Examples {
						if ex.Target == mcpu {
							addExample(ex.Encoding)
						}
					}
					for _, td := range in.TargetDetails {
						if td.Target == mcpu && td.Status == "supported" {
							addExample(td.Encoding)
						}
					}
				}
			}
		}
	}
	fromExamples = len(lines)
	type target struct {
		g   *group
		fm  *format
		ops []int
	}
	var targets []target
	for _, g := range d.groups {
		for _, fm := range g.formats {
			if fm.op == nil || len(fm.byOpcode) == 0 {
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
	for i := len(lines); i < n; i++ {
		b := make([]byte, 16)
		rng.Read(b)
		if forced && i%2 == 1 && len(targets) > 0 {
			tg := targets[rng.Intn(len(targets))]
			w := binary.LittleEndian.Uint32(b)
			w = w&^tg.g.mask | tg.g.value
			op := tg.ops[rng.Intn(len(tg.ops))]
			w = insert(w, *tg.fm.op, uint64(op))
			binary.LittleEndian.PutUint32(b, w)
		}
		lines = append(lines, b)
	}
	return lines, fromExamples
}

// tolerated is the reason of the first tolerance matching llvm-mc's text
// on arch, or "".
func tolerated(tols []tolerance, arch, text string) string {
	for _, tl := range tols {
		if (tl.arch == "*" || tl.arch == arch) && tl.re.MatchString(text) {
			return tl.reason
		}
	}
	return ""
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
	// bothReject counts words llvm-mc rejects or flags (an /*Invalid...*/
	// annotation) that the decoder rejects too; flagged counts the words
	// llvm-mc decodes with such an annotation.
	bothReject, flagged int
	byFormat            map[string][2]int // agree+tolerated, accepted
	byReason            map[string]int
	// byKnown counts the words llvm-mc rejects and the decoder prints, by
	// their class in testdata/known-extra.tsv (disagreements, reported).
	byKnown map[string]int
	samples []string
}

// allFamilies are the AMD families llvm-mc 22 disassembles, with the gfx
// target the differential test runs on (isa owns both).
var allFamilies = decodetest.Families()

// TestDifferentialLLVM compares the decoder with llvm-mc-22 --disassemble
// on every family: the verified examples' encodings plus random and
// format-forced words. The default run uses 2,000 words per family;
// GPUISA_DIFF_N=20000 is the full run; GPUISA_DIFF_ARCHS=cdna4,rdna3 picks
// families; GPUISA_DIFF_SEED=7 draws other random words (42 by default);
// GPUISA_DIFF_CORPUS=uniform takes uniformly random words only (no
// examples, no format forcing: the words a user would try);
// GPUISA_DIFF_VERBOSE=1 prints the differences (=extra: also the words
// llvm-mc rejects or flags and the decoder prints).
//
// Agreement counts every word: both tools reject it (llvm-mc rejects the
// word or flags an operand with an /*Invalid ...*/ comment, the decoder
// returns an error), or both print the same text and length, or the
// difference is tabled in testdata/tolerated.tsv.
func TestDifferentialLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: install llvm-22 to run the differential test")
	}
	tols := loadTolerances(t)
	known := loadKnownExtra(t)
	n := 2000
	seed := int64(42)
	if v, err := strconv.ParseInt(os.Getenv("GPUISA_DIFF_SEED"), 10, 64); err == nil {
		seed = v
	}
	if v, err := strconv.Atoi(os.Getenv("GPUISA_DIFF_N")); err == nil && v > 0 {
		n = v
	}
	want := map[string]bool{}
	if a := os.Getenv("GPUISA_DIFF_ARCHS"); a != "" {
		for _, x := range strings.Split(a, ",") {
			want[x] = true
		}
	}
	for _, fam := range allFamilies {
		arch, mcpu := fam.Arch, fam.MCPU
		if len(want) > 0 && !want[arch] {
			continue
		}
		t.Run(arch, func(t *testing.T) {
			d, err := loadFamily(t, arch).ForTarget(mcpu)
			if err != nil {
				t.Fatal(err)
			}
			maxEx, forced := n/2, true
			if os.Getenv("GPUISA_DIFF_CORPUS") == "uniform" {
				// The words a user would try: uniformly random, no
				// verified examples and no format forcing.
				maxEx, forced = 0, false
			}
			lines, nex := corpus(d, n, seed, mcpu, maxEx, forced)
			dir := os.Getenv("GPUISA_DIFF_DIR")
			if dir == "" {
				dir = t.TempDir()
			}
			ref, err := decodetest.Disassemble(mcpu, lines, dir)
			if err != nil {
				t.Fatal(err)
			}
			var dump *os.File
			if p := os.Getenv("GPUISA_DIFF_DUMP"); p != "" {
				// One line per word (family, our format, llvm-mc decoded,
				// we decoded, the first 8 bytes, llvm-mc's text), for
				// looking at classes of disagreement.
				f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				dump = f
			}
			st := familyStats{byFormat: map[string][2]int{}, byReason: map[string]int{}, byKnown: map[string]int{}}
			exAgree, exAccepted := 0, 0
			for i, l := range lines {
				// llvm-mc reads one stream in which six s_nop 0x1234
				// sentinels follow each line (see decodetest); an RDNA NSA
				// image word may read address bytes past a 16-byte line,
				// so decode the same bytes.
				in, size, derr := d.Decode(append(l[:len(l):len(l)], sentinels...), 0)
				r := ref[i]
				if r.Crashed || r.Unsynced {
					st.skipped++
					continue
				}
				// llvm-mc annotates operands its checker dislikes
				// (/*Invalid register...*/); the instruction is still
				// decoded, so compare without the comment.
				flagged := r.OK && strings.Contains(strings.ToLower(r.Text), "/*invalid")
				raw := r.Text
				r.Text = strings.Join(strings.Fields(commentRe.ReplaceAllString(r.Text, "")), " ")
				if flagged {
					st.flagged++
					if tolerated(tols, arch, raw) == "" {
						r.OK = false
					}
				}
				if dump != nil {
					fmt.Fprintf(dump, "%s\t%s\t%v\t%v\t%s\t%s\n", arch, in.Encoding, r.OK, derr == nil, asmtext.FormatBytes(l[:8]), raw)
				}
				switch {
				case !r.OK && derr != nil:
					st.bothReject++
					continue
				case !r.OK:
					st.extra++
					if derr == nil {
						if k := knownClass(known, arch, in.Encoding, in.Text()); k != "" {
							st.byKnown[k]++
						} else {
							st.byKnown["(no class in testdata/known-extra.tsv)"]++
						}
					}
					if os.Getenv("GPUISA_DIFF_VERBOSE") == "extra" && len(st.samples) < 4000 {
						st.samples = append(st.samples, fmt.Sprintf("%-8s %s\n   llvm: rejects %s\n   ours: %s (%d)", in.Encoding, asmtext.FormatBytes(l[:min(len(l), size)]), raw, in.Text(), size))
					}
					continue
				}
				st.accepted++
				if i < nex {
					exAccepted++
				}
				fmtName := "(none)"
				if derr == nil {
					fmtName = in.Encoding
				}
				c := st.byFormat[fmtName]
				c[1]++
				got := ""
				if derr == nil {
					// Both sides' /*...*/ comments are annotations, not operands.
					got = strings.Join(strings.Fields(commentRe.ReplaceAllString(in.Text(), "")), " ")
				}
				switch {
				case derr == nil && got == r.Text && size == r.Len:
					st.agree++
					c[0]++
					if i < nex {
						exAgree++
					}
				default:
					reason := tolerated(tols, arch, r.Text)
					switch {
					case reason != "":
						st.tolerated++
						st.byReason[reason]++
						c[0]++
						if i < nex {
							exAgree++
						}
					case derr != nil:
						st.miss++
					case in.Partial:
						st.partial++
					default:
						st.mismatch++
					}
					if reason == "" && len(st.samples) < 4000 {
						st.samples = append(st.samples, fmt.Sprintf("%-8s %s\n   llvm: %s (%d)\n   ours: %s (%d) %v", fmtName, asmtext.FormatBytes(l[:min(len(l), max(r.Len, 4))]), r.Text, r.Len, got, size, derr))
					}
				}
				st.byFormat[fmtName] = c
			}
			rate := float64(st.agree+st.tolerated) / float64(max(st.accepted, 1))
			counted := len(lines) - st.skipped
			withRej := float64(st.bothReject+st.agree+st.tolerated) / float64(max(counted, 1))
			t.Logf("%s (%s): agreement with rejections %.2f%% (%d/%d words: both reject %d, same text %d, tolerated %d; llvm-mc rejects or flags but we print %d, we reject but llvm-mc prints %d, different text %d; llvm-mc flagged %d)",
				arch, mcpu, 100*withRej, st.bothReject+st.agree+st.tolerated, counted, st.bothReject, st.agree, st.tolerated, st.extra, st.miss, st.partial+st.mismatch, st.flagged)
			t.Logf("%s (%s): %d words (%d from verified examples), llvm-mc accepted %d; agree %d, tolerated %d (%.2f%%); examples %d/%d; partial %d, mismatch %d, we reject %d; llvm rejects but we decode %d; skipped (llvm-mc crashed or out of step) %d",
				arch, mcpu, len(lines), nex, st.accepted, st.agree, st.tolerated, 100*rate, exAgree, exAccepted, st.partial, st.mismatch, st.miss, st.extra, st.skipped)
			var fs []string
			for f := range st.byFormat {
				fs = append(fs, f)
			}
			sort.Strings(fs)
			for _, f := range fs {
				c := st.byFormat[f]
				t.Logf("  %-10s %5d/%5d %.1f%%", f, c[0], c[1], 100*float64(c[0])/float64(c[1]))
			}
			reasons := slices.Sorted(maps.Keys(st.byReason))
			for _, r := range reasons {
				t.Logf("  tolerated %5d: %s", st.byReason[r], r)
			}
			for _, k := range slices.Sorted(maps.Keys(st.byKnown)) {
				t.Logf("  llvm-mc rejects, we print %5d: %s", st.byKnown[k], k)
			}
			// Guard against regressions on VALU, SALU and SMEM: a floor
			// just under what every family reaches in the default and the
			// full (GPUISA_DIFF_N=20000) run (99.83% or more in the full
			// run of round 7).
			var ok, all int
			for f, c := range st.byFormat {
				switch kindOf(f) {
				case KindSOP1, KindSOP2, KindSOPC, KindSOPK, KindSOPP, KindSMEM, KindVOP1, KindVOP2, KindVOPC, KindVOP3, KindVOP3B:
					ok += c[0]
					all += c[1]
				}
			}
			r := float64(ok) / float64(max(all, 1))
			t.Logf("%s: agreement on VALU/SALU/SMEM formats %.2f%% (%d/%d)", arch, 100*r, ok, all)
			floor := 0.995
			if r < floor {
				t.Errorf("%s: agreement on VALU/SALU/SMEM %.2f%% (%d/%d), below %.0f%%", arch, 100*r, ok, all, 100*floor)
			}
			// Every format together: a floor under the full run's rates
			// (GPUISA_DIFF_N=20000, round 9: 99.35-99.88% on every
			// family, tolerated differences included).
			overallFloor := 0.99
			if rate < overallFloor {
				t.Errorf("%s: agreement on all formats %.2f%%, below %.0f%%", arch, 100*rate, 100*overallFloor)
			}
			// Rejections counted (both reject, or the same text): a floor
			// under this round's rates (N=20000, seed 42, after the
			// target, modifier-acceptance, DPP/SDWA-variant, bit-55 and
			// buffer rules: 99.6-99.9% on every family; issue 28 asks
			// 99.5%). The words llvm-mc rejects and we print are reported
			// by their class in testdata/known-extra.tsv.
			if rejFloor := 0.99; withRej < rejFloor {
				t.Errorf("%s: agreement with rejections %.2f%%, below %.0f%%", arch, 100*withRej, 100*rejFloor)
			}
			if os.Getenv("GPUISA_DIFF_VERBOSE") != "" {
				for _, s := range st.samples {
					t.Log(s)
				}
			}
		})
	}
}
