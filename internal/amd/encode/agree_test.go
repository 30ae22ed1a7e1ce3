package encode

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// TestEncoderAgreesWithLLVM holds Encode to llvm-mc-22's assembler on every
// family (issue 28): valid lines are llvm-mc's own disassembly of random
// words, balanced over the formats our decoder reads them as; invalid
// lines are those lines broken by general rules (mutants below). llvm-mc
// judges every line: a line it assembles must get the same bytes from
// Encode, a line it refuses must get an error. A disassembled line llvm-mc
// cannot assemble again is left out of the valid count and a mutant llvm-mc
// accepts counts as valid.
//
// GPUISA_ENC_SEED picks other random words (42 by default), GPUISA_ENC_N
// the number of valid lines per family (2000), GPUISA_ENC_BAD the number of
// mutants (500), GPUISA_ENC_ARCHS=cdna4,rdna3 the families;
// GPUISA_ENC_VERBOSE=1 prints every disagreement. llvm-mc's answers are
// cached in the user cache directory by their input.
func TestEncoderAgreesWithLLVM(t *testing.T) {
	if !decodetest.HaveLLVM() {
		t.Skip("llvm-mc-22 not on PATH: install llvm-22 to hold the encoder to llvm-mc")
	}
	if testenv.FindUpstream() == "" {
		t.Skip("shared/upstream not found (set GPUISA_SOURCES): no family to encode")
	}
	seed, nValid, nBad := int64(42), 2000, 500
	if v, err := strconv.ParseInt(os.Getenv("GPUISA_ENC_SEED"), 10, 64); err == nil {
		seed = v
	}
	if v, err := strconv.Atoi(os.Getenv("GPUISA_ENC_N")); err == nil && v > 0 {
		nValid = v
	}
	if v, err := strconv.Atoi(os.Getenv("GPUISA_ENC_BAD")); err == nil && v >= 0 {
		nBad = v
	}
	want := map[string]bool{}
	for _, a := range strings.Split(os.Getenv("GPUISA_ENC_ARCHS"), ",") {
		if a != "" {
			want[a] = true
		}
	}
	tols := loadEncodeTolerances(t)
	for fi, f := range familiesLLVM {
		if len(want) > 0 && !want[f.Arch] {
			continue
		}
		t.Run(f.Arch, func(t *testing.T) {
			t.Parallel() // one llvm-mc and one encoder per family
			enc := familyEncoder(t, f.Arch)
			rng := rand.New(rand.NewSource(seed*131 + int64(fi)))
			valid := validLines(t, enc, f.MCPU, nValid, rng)
			bad := mutants(enc, valid, nBad, rng)
			lines := make([]string, 0, len(valid)+len(bad))
			for _, v := range valid {
				lines = append(lines, v.text)
			}
			for _, b := range bad {
				lines = append(lines, b.text)
			}
			ref, msgs := cachedAssemble(t, f.MCPU, lines)
			gots := make([][]byte, len(lines))
			errs := make([]error, len(lines))
			for i, l := range lines {
				gots[i], errs[i] = enc.Encode(l)
			}
			lossy := lossyAssembly(t, f.MCPU, lines, ref, msgs, gots)
			st := agreeStats{classes: map[string]int{}}
			for i, txt := range lines {
				var c agreeCase
				if i < len(valid) {
					c = valid[i]
				} else {
					c = bad[i-len(valid)]
				}
				if lossy[i] {
					st.lossy++
					continue
				}
				st.judge(c, txt, gots[i], errs[i], ref[i], msgs[i])
			}
			st.report(t, f.Arch, tols)
		})
	}
}

// lossyAssembly marks the lines llvm-mc assembles into bytes it does not
// disassemble as the line (exp param4 off, v93, off, off compr: the
// source behind a clear EN bit is dropped): those bytes are no reference
// for the line's. Only lines whose encoding differs from Encode's are
// asked about.
func lossyAssembly(t *testing.T, mcpu string, lines []string, ref [][]byte, msgs []string, gots [][]byte) map[int]bool {
	t.Helper()
	var idx []int
	var words [][]byte
	for i := range lines {
		if msgs[i] != "" || ref[i] == nil {
			continue
		}
		if bytes.Equal(gots[i], ref[i]) {
			continue
		}
		idx = append(idx, i)
		words = append(words, ref[i])
	}
	out := map[int]bool{}
	if len(words) == 0 {
		return out
	}
	dis := cachedDisassemble(t, mcpu, words)
	for k, i := range idx {
		canon := func(s string) string { return canonNumbers(normalize(commentRe.ReplaceAllString(s, ""))) }
		if d := dis[k]; d.OK && d.Len == len(words[k]) && canon(d.Text) != canon(lines[i]) {
			out[i] = true
		}
	}
	return out
}

// agreeCase is one line: its text, the format our decoder read the word
// it came from as, and the rule that broke it ("" for a disassembled line).
type agreeCase struct {
	text, format, rule string
}

type agreeStats struct {
	valid, validOK, invalid, invalidOK, unassembled, lossy int
	classes                                                map[string]int
	samples                                                []string
}

func (st *agreeStats) judge(c agreeCase, txt string, got []byte, err error, want []byte, msg string) {
	switch {
	case c.rule == "" && (msg != "" || want == nil):
		st.unassembled++ // llvm-mc does not take back its own text
	case msg != "" || want == nil:
		st.invalid++
		if err != nil {
			st.invalidOK++
			return
		}
		cl := "accepts an invalid line: " + c.rule + " " + c.format
		st.classes[cl]++
		st.samples = append(st.samples, fmt.Sprintf("%s: %s -> %s; llvm-mc: %s", cl, txt, hexs(got), msg))
	default:
		st.valid++
		if err == nil && bytes.Equal(got, want) {
			st.validOK++
			return
		}
		cl := "different bytes " + c.format
		if err != nil {
			cl = "rejects a valid line " + c.format
		}
		if c.rule != "" {
			cl += " (" + c.rule + " mutant)"
		}
		st.classes[cl]++
		st.samples = append(st.samples, fmt.Sprintf("%s: %s -> %s want %s %s", cl, txt, hexs(got), hexs(want), errText(err)))
	}
}

func (st *agreeStats) report(t *testing.T, arch string, tols []encodeTolerance) {
	t.Helper()
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }
	ok, total := st.validOK+st.invalidOK, st.valid+st.invalid
	t.Logf("%s: valid %d/%d (%.2f%%), invalid %d/%d (%.2f%%), total %d/%d (%.2f%%); left out: %d disassembled lines llvm-mc does not assemble again, %d it assembles into bytes it reads as another line",
		arch, st.validOK, st.valid, pct(st.validOK, st.valid), st.invalidOK, st.invalid, pct(st.invalidOK, st.invalid),
		ok, total, pct(ok, total), st.unassembled, st.lossy)
	var cls []string
	for c := range st.classes {
		cls = append(cls, c)
	}
	sort.Slice(cls, func(i, j int) bool { return st.classes[cls[i]] > st.classes[cls[j]] })
	for _, c := range cls {
		why := "(not in testdata/encode-tolerated.tsv)"
		if r := tolerance(tols, arch, c); r != "" {
			why = "tolerated: " + r
		}
		t.Logf("  %4d  %s  %s", st.classes[c], c, why)
	}
	if os.Getenv("GPUISA_ENC_VERBOSE") != "" {
		for _, s := range st.samples {
			t.Log("   ", s)
		}
	} else {
		for _, s := range st.samples[:min(len(st.samples), 8)] {
			t.Log("   ", s)
		}
	}
	if st.valid < 100 || st.invalid < 10 {
		t.Fatalf("%s: only %d valid and %d invalid lines judged: too few to measure", arch, st.valid, st.invalid)
	}
	floor := agreementFloor(tols, arch)
	if pct(ok, total) < floor {
		t.Errorf("%s: agreement %.2f%% below the floor %.2f%% (testdata/encode-tolerated.tsv)", arch, pct(ok, total), floor)
	}
}

// validLines disassembles random words with llvm-mc and takes n of the
// lines it prints whose words our decoder reads too, round-robin over the
// formats it reads them as, so that rare formats (MTBUF, MIMG, VINTRP, ...) are not
// crowded out by the VALU opcode space.
func validLines(t *testing.T, enc *Encoder, mcpu string, n int, rng *rand.Rand) []agreeCase {
	t.Helper()
	words := make([][]byte, 5*n)
	for i := range words {
		words[i] = make([]byte, 16)
		rng.Read(words[i])
	}
	dis := cachedDisassemble(t, mcpu, words)
	byFormat := map[string][]agreeCase{}
	var formats []string
	seen := map[string]bool{}
	for i, r := range dis {
		if !r.OK || strings.Contains(r.Text, "/*") || seen[r.Text] {
			continue
		}
		seen[r.Text] = true
		in, _, err := enc.d.Decode(words[i], 0)
		if err != nil {
			continue // a format the decoder does not know (CDNA's exp)
		}
		fm := in.Encoding
		if _, ok := byFormat[fm]; !ok {
			formats = append(formats, fm)
		}
		byFormat[fm] = append(byFormat[fm], agreeCase{text: r.Text, format: fm})
	}
	var out []agreeCase
	for len(out) < n {
		took := false
		for _, fm := range formats {
			if l := byFormat[fm]; len(l) > 0 && len(out) < n {
				out = append(out, l[0])
				byFormat[fm] = l[1:]
				took = true
			}
		}
		if !took {
			break
		}
	}
	return out
}

// mutationRules are the ways a valid line is broken, tried in turn.
var mutationRules = []struct {
	name string
	fn   func(e *Encoder, ops []string, rng *rand.Rand) []string
}{
	{"constbus", mutateConstantBus},
	{"regclass", mutateRegisterClass},
	{"align", mutateAlignment},
	{"modifier", nil}, // adds words after the operands: see mutants
	{"count", mutateCount},
}

// mutants breaks valid lines until n are made: rules take turns, a line a
// rule does not apply to goes to the next rule.
func mutants(e *Encoder, valid []agreeCase, n int, rng *rand.Rand) []agreeCase {
	var out []agreeCase
	order := rng.Perm(len(valid))
	k := 0
	for pass := 0; pass < 3 && len(out) < n; pass++ {
		for _, i := range order {
			if len(out) >= n {
				break
			}
			v := valid[i]
			mn, rest, _ := strings.Cut(v.text, " ")
			ops, mods := splitOperands(compactBrackets(rest))
			for try := 0; try < len(mutationRules); try++ {
				r := mutationRules[(k+try)%len(mutationRules)]
				var newOps, newMods []string
				if r.fn == nil {
					newOps, newMods = mutateModifier(ops, mods, rng)
				} else {
					newOps, newMods = r.fn(e, ops, rng), mods
				}
				if newOps == nil {
					continue
				}
				s := mn
				if len(newOps) > 0 {
					s += " " + strings.Join(newOps, ", ")
				}
				if len(newMods) > 0 {
					s += " " + strings.Join(newMods, " ")
				}
				if s != v.text {
					out = append(out, agreeCase{text: s, format: v.format, rule: r.name})
					k++
					break
				}
			}
		}
	}
	return out
}

// regParts splits a register operand (modifiers around it kept aside):
// file "v"/"s"/"a"/"ttmp", first register, count; ok false for anything
// else.
func regParts(op string) (pre, file string, first, count int, post string, ok bool) {
	core := strings.TrimLeft(op, "-|")
	pre = op[:len(op)-len(core)]
	trimmed := strings.TrimRight(core, "|")
	post = core[len(trimmed):]
	core = trimmed
	for _, f := range []string{"ttmp", "v", "s", "a"} {
		if !strings.HasPrefix(core, f) {
			continue
		}
		body := core[len(f):]
		if lo, hi, isRange := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(body, "["), "]"), ":"); isRange && strings.HasPrefix(body, "[") {
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil || b < a {
				return "", "", 0, 0, "", false
			}
			return pre, f, a, b - a + 1, post, true
		}
		if a, err := strconv.Atoi(body); err == nil {
			return pre, f, a, 1, post, true
		}
	}
	return "", "", 0, 0, "", false
}

func regText(file string, first, count int) string {
	if count == 1 {
		return file + strconv.Itoa(first)
	}
	return fmt.Sprintf("%s[%d:%d]", file, first, first+count-1)
}

// mutateConstantBus puts distinct SGPRs in one more source than the
// family's constant bus carries (VALU lines: the mnemonic starts with v_
// and a source is a VGPR).
func mutateConstantBus(e *Encoder, ops []string, rng *rand.Rand) []string {
	info, ok := isa.LookupArch(e.d.Arch().ID)
	if !ok || len(ops) < 2 {
		return nil
	}
	limit := info.ConstantBusLimit()
	out := append([]string{}, ops...)
	placed, next := 0, 2*(1+rng.Intn(20))
	for i := 1; i < len(out) && placed <= limit; i++ {
		pre, file, _, count, post, ok := regParts(out[i])
		if !ok || (file != "v" && file != "s") {
			continue
		}
		out[i] = pre + regText("s", next, count) + post
		next += 2 * ((count + 1) / 2)
		placed++
	}
	if placed <= limit {
		return nil
	}
	return out
}

// mutateRegisterClass turns a VGPR into an SGPR or the other way round, or
// a single register into a pair.
func mutateRegisterClass(_ *Encoder, ops []string, rng *rand.Rand) []string {
	idx := rng.Perm(len(ops))
	for _, i := range idx {
		pre, file, first, count, post, ok := regParts(ops[i])
		if !ok {
			continue
		}
		out := append([]string{}, ops...)
		switch {
		case count == 1 && rng.Intn(2) == 0:
			out[i] = pre + regText(file, first&^1, 2) + post
		case file == "v":
			out[i] = pre + regText("s", first%100&^(count-1&1), count) + post
		case file == "s" || file == "ttmp":
			out[i] = pre + regText("v", first, count) + post
		default:
			continue
		}
		return out
	}
	return nil
}

// mutateAlignment starts a register tuple at an odd register.
func mutateAlignment(_ *Encoder, ops []string, rng *rand.Rand) []string {
	for _, i := range rng.Perm(len(ops)) {
		pre, file, first, count, post, ok := regParts(ops[i])
		if !ok || count < 2 || file == "ttmp" {
			continue
		}
		out := append([]string{}, ops...)
		out[i] = pre + regText(file, first|1, count) + post
		return out
	}
	return nil
}

// mutateModifier adds a VOP3 output modifier or a source modifier.
func mutateModifier(ops, mods []string, rng *rand.Rand) ([]string, []string) {
	switch rng.Intn(4) {
	case 0:
		return ops, append(append([]string{}, mods...), "clamp")
	case 1:
		return ops, append(append([]string{}, mods...), "mul:2")
	default:
		for _, i := range rng.Perm(len(ops)) {
			if i == 0 && len(ops) > 1 {
				continue // a destination takes no source modifier
			}
			if _, _, _, _, _, ok := regParts(ops[i]); ok && !strings.ContainsAny(ops[i], "|-") {
				out := append([]string{}, ops...)
				out[i] = "|" + ops[i] + "|"
				if rng.Intn(2) == 0 {
					out[i] = "-" + ops[i]
				}
				return out, mods
			}
		}
	}
	return nil, nil
}

// mutateCount drops the last operand or repeats it.
func mutateCount(_ *Encoder, ops []string, rng *rand.Rand) []string {
	if len(ops) == 0 {
		return nil
	}
	if rng.Intn(2) == 0 {
		return ops[: len(ops)-1 : len(ops)-1]
	}
	return append(append([]string{}, ops...), ops[len(ops)-1])
}

// encodeTolerance is a line of testdata/encode-tolerated.tsv: a family
// ("*": all), a class of disagreement (a prefix of the logged class) and
// why it stays; the class "floor" gives the family's agreement floor.
type encodeTolerance struct{ arch, class, reason string }

func loadEncodeTolerances(t *testing.T) []encodeTolerance {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "encode-tolerated.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []encodeTolerance
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p := strings.Split(l, "\t")
		if len(p) != 3 {
			t.Fatalf("encode-tolerated.tsv: %q: want family, class, reason", l)
		}
		out = append(out, encodeTolerance{p[0], p[1], p[2]})
	}
	return out
}

func tolerance(tols []encodeTolerance, arch, class string) string {
	for _, x := range tols {
		if (x.arch == "*" || x.arch == arch) && x.class != "floor" && strings.HasPrefix(class, x.class) {
			return x.reason
		}
	}
	return ""
}

// agreementFloor is the family's floor (its own line, else "*"'s).
func agreementFloor(tols []encodeTolerance, arch string) float64 {
	floor := 99.5
	for _, x := range tols {
		if x.class == "floor" && (x.arch == arch || x.arch == "*") {
			v, err := strconv.ParseFloat(strings.Fields(x.reason)[0], 64)
			if err == nil {
				floor = v
			}
			if x.arch == arch {
				break
			}
		}
	}
	return floor
}

// llvmCache keeps llvm-mc's answers by their input, in the user cache
// directory: the test's words are seeded, so a rerun asks llvm-mc nothing.
func llvmCache(kind, mcpu string, input []byte) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00", decodetest.LLVMMC, kind, mcpu, llvmCacheVersion)
	h.Write(input)
	return filepath.Join(dir, "gpuisa", "encode-agree", kind+"-"+mcpu+"-"+hex.EncodeToString(h.Sum(nil))[:24]+".gob")
}

func cacheLoad(path string, v any) bool {
	if path == "" {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return gob.NewDecoder(f).Decode(v) == nil
}

func cacheStore(path string, v any) {
	if path == "" || os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	var b bytes.Buffer
	if gob.NewEncoder(&b).Encode(v) == nil {
		tmp := path + ".tmp"
		if os.WriteFile(tmp, b.Bytes(), 0o644) == nil {
			_ = os.Rename(tmp, path)
		}
	}
}

func cachedDisassemble(t *testing.T, mcpu string, words [][]byte) []decodetest.Disassembled {
	t.Helper()
	path := llvmCache("dis", mcpu, bytes.Join(words, nil))
	var res []decodetest.Disassembled
	if cacheLoad(path, &res) && len(res) == len(words) {
		return res
	}
	res, err := decodetest.Disassemble(mcpu, words, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cacheStore(path, res)
	return res
}

type assembled struct {
	Enc  [][]byte
	Msgs []string
}

func cachedAssemble(t *testing.T, mcpu string, lines []string) ([][]byte, []string) {
	t.Helper()
	path := llvmCache("asm", mcpu, []byte(strings.Join(lines, "\n")))
	var res assembled
	if cacheLoad(path, &res) && len(res.Msgs) == len(lines) {
		return res.Enc, res.Msgs
	}
	enc, msgs, err := decodetest.Assemble(mcpu, lines, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cacheStore(path, assembled{enc, msgs})
	return enc, msgs
}

// llvmCacheVersion changes when what decodetest makes of llvm-mc's output
// changes, so that old answers are not read back.
const llvmCacheVersion = 2
