// Package llvmfold asks LLVM's constant folder what an operation returns:
// each query is a function of no arguments whose body applies an IR
// operation or intrinsic (llvm.fma, llvm.amdgcn.fmed3, fptosi.sat, ...)
// to constants; `opt -passes=instcombine -mtriple=amdgcn -mcpu=gfxN`
// folds what it can and the function's return value is the answer. One
// opt process per target reads every query; answers are cached by (opt
// version, target, query) like the llvm-mc verification, one answer per
// query. LLVM's folding
// is an oracle for IEEE arithmetic and for the AMDGPU intrinsics it
// folds; its NaN payloads follow LLVM's rules and it ignores
// flush-to-zero modes.
package llvmfold

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"time"

	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
	"github.com/gpuisa/gpuisa/internal/oracle/toolpath"
)

// ErrNotFound is returned (wrapped) when no opt can be found.
var ErrNotFound = errors.New("opt not found")

// Find returns the opt to use: $GPUISA_OPT, else opt-22 or opt on PATH.
func Find() (string, error) {
	return toolpath.FindLLVM(ErrNotFound, "GPUISA_OPT", "opt-22", "opt")
}

// Version returns opt's version line ("Debian LLVM version 22.1.8").
func Version(ctx context.Context, path string) (string, error) {
	v, err := toolpath.LLVMVersion(ctx, path)
	if err != nil {
		return "", fmt.Errorf("llvmfold: %w", err)
	}
	return v, nil
}

// Query is one folding question: Body computes %r of type Ret from
// constants, in IR ("%r = call float @llvm.fma.f32(float 1.0, float 2.0,
// float 3.0)"; several lines allowed).
type Query struct {
	Ret  string
	Body string
}

func (q Query) key() string { return q.Ret + "|" + q.Body }

// Answer is what opt made of a query: the constant returned (as opt prints
// it: "float 0x7FF8000000000000", "i32 103", "<2 x half> splat (half
// 0xH3C00)") when it folded, else Folded false.
type Answer struct {
	Folded bool
	Value  string // the operand of ret, with its type
}

// Options tune Run.
type Options struct {
	Opt      string // "" finds it
	CacheDir string // "" disables the cache
}

// Stats say what a run did.
type Stats struct {
	Version   string
	Processes int
	Folded    int // queries given to opt (not answered from the cache)
	CacheHits int
}

// cacheFormat changes when the way answers are read changes.
const cacheFormat = "f3"

// keepRuns bounds the cache: an answer no run that folded something needed
// in its last keepRuns saves is dropped, so a changed corpus does not grow
// the file forever.
const keepRuns = 4

// entry is one cached answer and the last save (a counter) that used it.
type entry struct {
	Seq    int
	Answer Answer
}

// Run answers every query on the target (gfx1200) in one opt process.
// Answers are cached one per query, keyed by (opt version, target, query)
// like llvm-mc's verdicts: a rebuild asks opt only the queries it has not
// answered before (none when the corpus is unchanged). instcombine folds
// each function on its own, so a query's answer does not depend on the
// others in its process.
func Run(ctx context.Context, target string, qs []Query, opts Options) ([]Answer, Stats, error) {
	var st Stats
	path := opts.Opt
	if path == "" {
		var err error
		if path, err = Find(); err != nil {
			return nil, st, err
		}
	}
	version, err := Version(ctx, path)
	if err != nil {
		return nil, st, err
	}
	st.Version = version
	if len(qs) == 0 {
		return nil, st, nil
	}
	file := ""
	if opts.CacheDir != "" {
		file = filecache.Path(opts.CacheDir, "opt-"+version, "fold-"+target+"-"+cacheFormat)
	}
	cache, err := filecache.Load[entry](file)
	if err != nil {
		return nil, st, fmt.Errorf("llvmfold: %w", err)
	}
	ans := make([]Answer, len(qs))
	var todo []Query
	var todoIdx []int
	seen := map[string]int{} // a query asked twice goes to opt once
	for i, q := range qs {
		if e, ok := cache[q.key()]; ok {
			ans[i] = e.Answer
			st.CacheHits++
			continue
		}
		if _, ok := seen[q.key()]; !ok {
			seen[q.key()] = len(todo)
			todo = append(todo, q)
		}
		todoIdx = append(todoIdx, i)
	}
	if len(todo) == 0 {
		return ans, st, nil
	}
	got, err := fold(ctx, path, target, todo)
	if err != nil {
		return nil, st, err
	}
	st.Processes++
	st.Folded = len(todo)
	for _, i := range todoIdx {
		ans[i] = got[seen[qs[i].key()]]
	}
	if err := saveCache(file, cache, qs, ans); err != nil {
		return nil, st, err
	}
	return ans, st, nil
}

// saveCache stores this run's answers in cache, marks them used by a new
// save and drops the answers no recent save used.
func saveCache(file string, cache map[string]entry, qs []Query, ans []Answer) error {
	seq := 0
	for _, e := range cache {
		seq = max(seq, e.Seq)
	}
	seq++
	for i, q := range qs {
		cache[q.key()] = entry{Seq: seq, Answer: ans[i]}
	}
	for k, e := range cache {
		if e.Seq <= seq-keepRuns {
			delete(cache, k)
		}
	}
	if err := filecache.Save(file, cache); err != nil {
		return fmt.Errorf("llvmfold: %w", err)
	}
	return nil
}

// fold runs opt once over the queries, one function each.
func fold(ctx context.Context, path, target string, qs []Query) ([]Answer, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	var src bytes.Buffer
	for i, q := range qs {
		fmt.Fprintf(&src, "define %s @q%d() {\n%s\n  ret %s %%r\n}\n", q.Ret, i, indent(q.Body), q.Ret)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, "-S", "-passes=instcombine", "-mtriple=amdgcn", "-mcpu="+target, "-o", "-", "-")
	cmd.Stdin = &src
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("llvmfold: opt -mcpu=%s: %w", target, ctx.Err())
		}
		return nil, fmt.Errorf("llvmfold: opt -mcpu=%s: %v: %s", target, err, firstLine(stderr.String()))
	}
	return parseOutput(stdout.String(), len(qs))
}

func indent(body string) string {
	lines := strings.Split(strings.TrimSpace(body), "\n")
	for i, l := range lines {
		lines[i] = "  " + strings.TrimSpace(l)
	}
	return strings.Join(lines, "\n")
}

var defineRe = regexp.MustCompile(`^define .* @q(\d+)\(\)`)

// parseOutput reads opt's module back: a function folded when its body is
// a single ret of a constant.
func parseOutput(out string, n int) ([]Answer, error) {
	ans := make([]Answer, n)
	found := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	cur := -1
	var body []string
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if m := defineRe.FindStringSubmatch(l); m != nil {
			fmt.Sscan(m[1], &cur)
			body = body[:0]
			continue
		}
		if cur < 0 {
			continue
		}
		if l == "}" {
			if cur < n {
				ans[cur] = answerOf(body)
				found++
			}
			cur = -1
			continue
		}
		if l != "" && !strings.HasPrefix(l, ";") {
			body = append(body, l)
		}
	}
	if found != n {
		return nil, fmt.Errorf("llvmfold: opt printed %d of %d functions", found, n)
	}
	return ans, nil
}

func answerOf(body []string) Answer {
	if len(body) != 1 || !strings.HasPrefix(body[0], "ret ") {
		return Answer{}
	}
	v := strings.TrimPrefix(body[0], "ret ")
	if strings.Contains(v, "%") || strings.Contains(v, "poison") || strings.Contains(v, "undef") {
		return Answer{}
	}
	return Answer{Folded: true, Value: v}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// probes are AMDGPU intrinsics of the kinds the semantics check folds,
// written as Run writes its queries (no declarations: LLVM declares
// intrinsics itself since release 20), with the answer LLVM 22 folds them
// to, printed as it prints constants (vectors as "splat (...)").
var probes = []struct {
	q    Query
	want string
}{
	{Query{"float", "%r = call float @llvm.amdgcn.fmed3.f32(float 1.0, float 3.0, float 2.0)"}, "float 2.000000e+00"},
	{Query{"float", "%r = call float @llvm.amdgcn.fract.f32(float 2.5)"}, "float 5.000000e-01"},
	{Query{"i1", "%r = call i1 @llvm.amdgcn.class.f32(float 1.0, i32 256)"}, "i1 true"},
	{Query{"i32", "%r = call i32 @llvm.amdgcn.ubfe.i32(i32 255, i32 4, i32 4)"}, "i32 15"},
	{Query{"<2 x half>", "%r = call <2 x half> @llvm.amdgcn.cvt.pkrtz(float 1.0, float 1.0)"}, "<2 x half> splat (half 0xH3C00)"},
	{Query{"float", "%r = call float @llvm.amdgcn.frexp.mant.f32(float 8.0)"}, "float 5.000000e-01"},
}

// Capable says whether the opt at path folds the queries Run gives it as
// the semantics check expects: one opt process over a few AMDGPU
// intrinsics on target; an error names the first it does not read or
// folds otherwise.
func Capable(ctx context.Context, path, target string) error {
	qs := make([]Query, len(probes))
	for i, p := range probes {
		qs[i] = p.q
	}
	ans, err := fold(ctx, path, target, qs)
	if err != nil {
		return fmt.Errorf("cannot read the queries: %w", err)
	}
	for i, p := range probes {
		if !ans[i].Folded || ans[i].Value != p.want {
			got := "does not fold it"
			if ans[i].Folded {
				got = "gives " + ans[i].Value
			}
			return fmt.Errorf("%s: %s, LLVM 22 gives %s", strings.TrimSpace(p.q.Body), got, p.want)
		}
	}
	return nil
}
