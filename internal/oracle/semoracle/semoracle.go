// Package semoracle checks the pseudocode evaluator (package sem) against
// LLVM's constant folding (package llvmfold): for every AMD instruction
// paired with an IR operation or intrinsic that folds (Ops), it evaluates
// the guide's pseudocode on the special-value corpus and random inputs,
// asks opt for the same, and compares bit for bit. Differences that are
// LLVM's choices rather than the pseudocode's (NaN payloads) or known
// defects of a guide's pseudocode are listed, each with its reason, in
// testdata/tolerated.tsv; every other difference is a finding.
package semoracle

import (
	"cmp"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"path"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/base/selfid"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
	"github.com/gpuisa/gpuisa/internal/oracle/llvmfold"
)

// Tolerance is one row of the tolerated-differences table.
type Tolerance struct {
	Instruction string // a glob: "v_max_*"
	Families    string // "*" or a comma list
	Kind        string // which differences: see kinds
	Reason      string
	Line        int
}

// kinds are the predicates a tolerance may name; "input:CLASS" (a corpus
// class, or NaN for either kind) holds when an input is of that class.
var kinds = map[string]string{
	// "amd:VALUE": the pseudocode's result is that float value (fract's 1.0).
	"nan":       "both results are NaNs (payload or sign differ)",
	"zero-sign": "both results are zeros of different sign",
	"all":       "every difference of the instruction (a defect of its pseudocode, stated in the reason)",
}

var inputClasses = map[string]bool{
	sem.ClassZero: true, sem.ClassNegZero: true, sem.ClassInf: true, sem.ClassQNaN: true, sem.ClassSNaN: true,
	sem.ClassSubnormal: true, sem.ClassNormal: true, sem.ClassExtreme: true, sem.ClassBoundary: true,
	sem.ClassRandom: true, sem.ClassInteger: true, "NaN": true,
}

func validKind(k string) bool {
	if c, ok := strings.CutPrefix(k, "input:"); ok {
		return inputClasses[c]
	}
	if v, ok := strings.CutPrefix(k, "amd:"); ok {
		_, err := strconv.ParseFloat(v, 64)
		return err == nil
	}
	_, ok := kinds[k]
	return ok
}

//go:embed testdata/tolerated.tsv
var toleratedTSV string

// Tolerated returns the tolerated-differences table.
func Tolerated() ([]Tolerance, error) { return ParseTolerated(toleratedTSV) }

// ParseTolerated reads a table: instruction, families, kind, reason,
// separated by tabs; # starts a comment line.
func ParseTolerated(text string) ([]Tolerance, error) {
	var out []Tolerance
	for i, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("tolerated.tsv:%d: want 4 tab-separated fields, have %d", i+1, len(f))
		}
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
		}
		if !validKind(f[2]) {
			return nil, fmt.Errorf("tolerated.tsv:%d: unknown kind %q", i+1, f[2])
		}
		if _, err := path.Match(f[0], ""); err != nil {
			return nil, fmt.Errorf("tolerated.tsv:%d: bad pattern %q", i+1, f[0])
		}
		if f[3] == "" {
			return nil, fmt.Errorf("tolerated.tsv:%d: no reason", i+1)
		}
		out = append(out, Tolerance{f[0], f[1], f[2], f[3], i + 1})
	}
	return out, nil
}

func (t Tolerance) applies(arch, name string) bool {
	if ok, _ := path.Match(t.Instruction, name); !ok {
		return false
	}
	if t.Families == "*" {
		return true
	}
	for _, f := range strings.Split(t.Families, ",") {
		if strings.TrimSpace(f) == arch {
			return true
		}
	}
	return false
}

// Options tune Check.
type Options struct {
	Opt      string // "" finds opt
	CacheDir string // "" disables the cache
	Random   int    // random cases per instruction; 0 means 300
	Families []string
}

// Example is one input where the two sides differ.
type Example struct {
	Inputs  []string `json:"inputs"`
	AMD     string   `json:"amd"`
	LLVM    string   `json:"llvm"`
	Classes []string `json:"classes"`
}

// Result is one instruction of one family checked.
type Result struct {
	Arch   string `json:"arch"`
	Name   string `json:"name"`
	Group  string `json:"group"`
	Cases  int    `json:"cases"`
	Folded int    `json:"folded"` // cases LLVM folded
	Agree  int    `json:"agree"`
	// Tolerated counts the differences a table row allows, by reason.
	Tolerated map[string]int `json:"tolerated"`
	Differ    int            `json:"differ"` // differences no row allows
	Errors    int            `json:"errors"` // cases the evaluator failed on
	Examples  []Example      `json:"examples"`
	// TolExamples is one example per tolerated reason.
	TolExamples map[string]Example `json:"tol_examples"`
	ErrorText   string             `json:"error_text,omitempty"`
}

// Report is a whole check.
type Report struct {
	Opt     string   `json:"opt"`
	Results []Result `json:"results"`
	Stats   llvmfold.Stats
}

// Target is the gfx target opt folds for a family.
func Target(arch string) string {
	a, ok := isa.LookupArch(arch)
	if !ok || len(a.Targets) == 0 {
		return ""
	}
	return a.Targets[0]
}

type pending struct {
	res     *Result
	op      Op
	in      *sem.Instruction
	cases   []sem.Case
	amd     []uint64
	amdErr  []bool
	queries []llvmfold.Query
}

// Check compares every family's instructions in libs with LLVM.
func Check(ctx context.Context, libs map[string]*sem.Library, tol []Tolerance, opts Options) (*Report, error) {
	rep := &Report{}
	fams := opts.Families
	if len(fams) == 0 {
		for f := range libs {
			fams = append(fams, f)
		}
		sort.Strings(fams)
	}
	random := opts.Random
	if random == 0 {
		random = 300
	}
	path := opts.Opt
	if path == "" {
		var err error
		if path, err = llvmfold.Find(); err != nil {
			return nil, err
		}
	}
	// Families run side by side, one per core: each evaluates its AMD
	// side, folds the queries in one single-threaded opt process and
	// compares, so its cases are dropped before the next family starts.
	type famRun struct {
		results []Result
		st      llvmfold.Stats
		err     error
	}
	runs := make([]famRun, len(fams))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, fam := range fams {
		lib := libs[fam]
		if lib == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			r := &runs[i]
			r.results, r.st, r.err = checkFamily(ctx, fam, lib, tol, random, path, opts.CacheDir)
		}()
	}
	wg.Wait()
	for i, fam := range fams {
		r := runs[i]
		if libs[fam] == nil {
			continue
		}
		if r.err != nil {
			return nil, r.err
		}
		rep.Results = append(rep.Results, r.results...)
		rep.Opt = r.st.Version
		rep.Stats.Version = r.st.Version
		rep.Stats.Processes += r.st.Processes
		rep.Stats.Folded += r.st.Folded
		rep.Stats.CacheHits += r.st.CacheHits
	}
	return rep, nil
}

// checkFamily compares one family's instructions with LLVM: the ones that
// cannot run as they are met, then the compared ones.
func checkFamily(ctx context.Context, fam string, lib *sem.Library, tol []Tolerance, random int, opt, cacheDir string) ([]Result, llvmfold.Stats, error) {
	kept, err := keptCheck(ctx, fam, lib, tol, random, opt, cacheDir)
	if err != nil {
		return nil, llvmfold.Stats{}, err
	}
	if res, st, ok := kept.load(); ok {
		return res, st, nil
	}
	res, st, queries, err := runFamily(ctx, fam, lib, tol, random, opt, cacheDir)
	if err == nil {
		err = kept.save(res, queries)
	}
	return res, st, err
}

// runFamily is checkFamily without the kept results; queries is how many
// it asked opt (cached or not).
func runFamily(ctx context.Context, fam string, lib *sem.Library, tol []Tolerance, random int, opt, cacheDir string) ([]Result, llvmfold.Stats, int, error) {
	var results []Result
	var work []*pending
	for _, op := range Ops() {
		for _, n := range op.Names {
			in := lib.Get(n)
			if in == nil {
				continue
			}
			r := &Result{Arch: fam, Name: n, Group: op.Group, Tolerated: map[string]int{}, TolExamples: map[string]Example{}}
			if !in.Executable() {
				r.ErrorText = "not executable"
				if in.Err != nil {
					r.ErrorText += ": " + in.Err.Error()
				} else {
					r.ErrorText += ": " + in.Info.Problems[0]
				}
				results = append(results, *r)
				continue
			}
			work = append(work, &pending{res: r, op: op, in: in})
		}
	}
	evaluate(work, random)
	var qs []llvmfold.Query
	for _, p := range work {
		qs = append(qs, p.queries...)
	}
	ans, st, err := llvmfold.Run(ctx, Target(fam), qs, llvmfold.Options{Opt: opt, CacheDir: cacheDir})
	if err != nil {
		return nil, st, 0, err
	}
	k := 0
	for _, p := range work {
		compare(p, ans[k:k+len(p.queries)], tol)
		k += len(p.queries)
		results = append(results, *p.res)
	}
	return results, st, len(qs), nil
}

// keptFamily is a family's whole check kept in the cache: evaluating the
// AMD side of every case takes most of a warm build's check (opt's answers
// are cached per query), and it depends on nothing but the code, the
// family's pseudocode, the tolerances, the number of random cases and opt.
type keptFamily struct {
	file, key string
	version   string
}

// keptEntry is one kept check: its results as JSON (the form the report
// stores them in, so a kept result reads back exactly) and how many
// queries it asked opt.
type keptEntry struct {
	Results []byte
	Queries int
	// Seq orders the entries of a file by when they were kept (the
	// oldest go first, keptChecks).
	Seq int64
}

// keptChecks bounds the checks one family's file keeps. The file is shared
// by every program that checks with this cache directory — builds of
// other code, tests, whose binaries are other code — and keeping only the
// last one made a warm build's check (5 CPU-s) run again whenever anything
// else had checked in between.
const keptChecks = 16

func keptCheck(ctx context.Context, fam string, lib *sem.Library, tol []Tolerance, random int, opt, cacheDir string) (*keptFamily, error) {
	code, lib64 := selfid.Code("internal/oracle/semoracle"), lib.Fingerprint()
	if cacheDir == "" || code == "" || lib64 == "" {
		return &keptFamily{}, nil
	}
	version, err := llvmfold.Version(ctx, opt)
	if err != nil {
		return nil, err
	}
	tolJSON, err := json.Marshal(tol)
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%s\x00", code, version, fam, random, lib64)
	h.Write(tolJSON)
	return &keptFamily{file: filecache.Path(cacheDir, "opt-"+version, "semcheck-"+fam), key: hex.EncodeToString(h.Sum(nil)), version: version}, nil
}

// load returns the kept results, with the statistics a run whose every
// query opt's cache answered reports.
func (k *keptFamily) load() ([]Result, llvmfold.Stats, bool) {
	if k.file == "" {
		return nil, llvmfold.Stats{}, false
	}
	m, err := filecache.Load[keptEntry](k.file)
	e, ok := m[k.key]
	if err != nil || !ok {
		return nil, llvmfold.Stats{}, false
	}
	var res []Result
	if json.Unmarshal(e.Results, &res) != nil {
		return nil, llvmfold.Stats{}, false
	}
	st := llvmfold.Stats{Version: k.version}
	if e.Queries > 0 {
		st.CacheHits = e.Queries
	}
	return res, st, true
}

// save keeps this check beside the file's newest others, at most
// keptChecks in all.
func (k *keptFamily) save(res []Result, queries int) error {
	if k.file == "" {
		return nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	m, err := filecache.Load[keptEntry](k.file)
	if err != nil {
		m = map[string]keptEntry{}
	}
	var seq int64
	for _, e := range m {
		seq = max(seq, e.Seq)
	}
	m[k.key] = keptEntry{Results: b, Queries: queries, Seq: seq + 1}
	if len(m) > keptChecks {
		keys := slices.SortedFunc(maps.Keys(m), func(a, b string) int { return cmp.Compare(m[b].Seq, m[a].Seq) })
		for _, key := range keys[keptChecks:] {
			delete(m, key)
		}
	}
	return filecache.Save(k.file, m)
}

// evaluate runs the AMD side of every pending check and writes its queries.
func evaluate(work []*pending, random int) {
	var wg sync.WaitGroup
	next := make(chan *pending)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				p.run(random)
			}
		}()
	}
	for _, p := range work {
		next <- p
	}
	close(next)
	wg.Wait()
}

func seedOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func (p *pending) run(random int) {
	var sp [][]sem.Special
	for _, s := range p.op.Srcs {
		var list []sem.Special
		if s.Float != nil {
			list = sem.FloatSpecials(s.Float)
		} else {
			list = sem.IntSpecials(s.Width)
		}
		for _, e := range s.Extra {
			list = append(list, sem.Special{Bits: e, Class: sem.ClassInteger})
		}
		sp = append(sp, list)
	}
	p.cases = sem.Cases(sp, random, seedOf(p.res.Name))
	p.amd = make([]uint64, len(p.cases))
	p.amdErr = make([]bool, len(p.cases))
	rw := retWidth(p.op.Ret)
	for i, c := range p.cases {
		bits := make([]uint64, len(c.Bits))
		for j, b := range c.Bits {
			bits[j] = b & sem.WidthMask(srcWidth(p.op.Srcs[j]))
		}
		p.cases[i].Bits = bits
		w, err := p.in.Eval(bits, sem.DefaultMode)
		if err != nil {
			p.amdErr[i] = true
			if p.res.ErrorText == "" {
				p.res.ErrorText = err.Error()
			}
		} else {
			reg := "D0"
			v, ok := p.in.Dest(w, reg)
			if !ok {
				p.amdErr[i] = true
				if p.res.ErrorText == "" {
					p.res.ErrorText = "no D0 written"
				}
			} else if p.op.Result == "lanemask" {
				p.amd[i] = v.Uint() & 1
			} else {
				p.amd[i] = v.Uint() & sem.WidthMask(rw)
			}
		}
		body := p.op.Body
		for j, s := range p.op.Srcs {
			typed := constant(s, bits[j])
			_, val, _ := strings.Cut(typed, " ")
			body = strings.ReplaceAll(body, "{"+strconv.Itoa(j)+"v}", val)
			body = strings.ReplaceAll(body, "{"+strconv.Itoa(j)+"}", typed)
		}
		p.queries = append(p.queries, llvmfold.Query{Ret: p.op.Ret, Body: body})
	}
}

func constant(s Src, b uint64) string {
	if s.Float != nil {
		return llvmfold.Float(s.IR, b)
	}
	return llvmfold.Int(s.Width, b)
}

func srcWidth(s Src) int {
	if s.Float != nil {
		return s.Float.Bits
	}
	return s.Width
}

// retWidth is the bits of an IR result type; elemWidth of its element.
func retWidth(t string) int {
	switch t {
	case "i1":
		return 1
	case "half", "bfloat", "i16":
		return 16
	case "float", "i32", "<2 x half>", "<2 x bfloat>", "<2 x i16>":
		return 32
	case "double", "i64":
		return 64
	}
	return 64
}

func elemWidth(t string) int {
	if strings.HasPrefix(t, "<2 x ") {
		return retWidth(t) / 2
	}
	return retWidth(t)
}

// retFormat is the float format of a result type's elements, nil for
// integers.
func retFormat(t string) *sem.FloatFormat {
	t = strings.TrimPrefix(strings.TrimSuffix(t, ">"), "<2 x ")
	switch t {
	case "half":
		return &sem.F16
	case "float":
		return &sem.F32
	case "double":
		return &sem.F64
	}
	return nil
}

func compare(p *pending, ans []llvmfold.Answer, tol []Tolerance) {
	r := p.res
	f := retFormat(p.op.Ret)
	ew := elemWidth(p.op.Ret)
	n := retWidth(p.op.Ret) / ew
	for i, c := range p.cases {
		r.Cases++
		if p.amdErr[i] {
			r.Errors++
			continue
		}
		a := ans[i]
		if !a.Folded {
			continue
		}
		elems, err := llvmfold.Parse(a.Value)
		if err != nil || len(elems) != n {
			r.Errors++
			if r.ErrorText == "" && err != nil {
				r.ErrorText = "reading opt's answer: " + err.Error()
			}
			continue
		}
		var got uint64
		for k, e := range elems {
			got |= (e & sem.WidthMask(ew)) << uint(k*ew)
		}
		r.Folded++
		amd := p.amd[i]
		if amd == got {
			r.Agree++
			continue
		}
		ex := Example{AMD: show(f, p.op.Ret, amd), LLVM: show(f, p.op.Ret, got), Classes: c.Classes}
		classes := append([]string(nil), c.Classes...)
		for j, b := range c.Bits {
			ex.Inputs = append(ex.Inputs, show(p.op.Srcs[j].Float, p.op.Srcs[j].IR, b))
			if ff := p.op.Srcs[j].Float; ff != nil {
				classes = append(classes, sem.ClassOf(ff, b))
			}
		}
		// Every differing element must be tolerated.
		var why *Tolerance
		for k := 0; k < n; k++ {
			x, y := amd>>uint(k*ew)&sem.WidthMask(ew), got>>uint(k*ew)&sem.WidthMask(ew)
			if x == y {
				continue
			}
			t := tolerate(tol, r.Arch, r.Name, f, x, y, classes)
			if t == nil {
				why = nil
				break
			}
			if why == nil {
				why = t
			}
		}
		if why != nil {
			r.Tolerated[why.Reason]++
			if _, ok := r.TolExamples[why.Reason]; !ok {
				r.TolExamples[why.Reason] = ex
			}
			continue
		}
		r.Differ++
		if len(r.Examples) < 5 {
			r.Examples = append(r.Examples, ex)
		}
	}
}

func tolerate(tol []Tolerance, arch, name string, f *sem.FloatFormat, amd, got uint64, classes []string) *Tolerance {
	has := func(cl string) bool {
		for _, c := range classes {
			if c == cl || cl == "NaN" && (c == sem.ClassQNaN || c == sem.ClassSNaN) {
				return true
			}
		}
		return false
	}
	for i := range tol {
		t := &tol[i]
		if !t.applies(arch, name) {
			continue
		}
		ok := false
		switch {
		case t.Kind == "nan":
			ok = f != nil && f.IsNaN(amd) && f.IsNaN(got)
		case t.Kind == "zero-sign":
			ok = f != nil && amd&^signBit(f) == 0 && got&^signBit(f) == 0
		case t.Kind == "all":
			ok = true
		case strings.HasPrefix(t.Kind, "input:"):
			ok = has(strings.TrimPrefix(t.Kind, "input:"))
		case strings.HasPrefix(t.Kind, "amd:"):
			v, _ := strconv.ParseFloat(strings.TrimPrefix(t.Kind, "amd:"), 64)
			ok = f != nil && amd == f.FromFloat64(v, sem.RoundNearestEven)
		}
		if ok {
			return t
		}
	}
	return nil
}

func signBit(f *sem.FloatFormat) uint64 { return 1 << uint(f.Bits-1) }

func show(f *sem.FloatFormat, ir string, b uint64) string {
	if f != nil && retWidth(ir) == f.Bits {
		return sem.FormatFloat(b, f) + fmt.Sprintf(" (0x%0*x)", f.Bits/4, b)
	}
	w := retWidth(ir)
	return fmt.Sprintf("0x%0*x", (w+3)/4, b)
}

// Known returns the reason of the first tolerated row of the given kind
// that applies to an instruction, "" when none does: a difference of that
// kind is a known defect of the guide's pseudocode.
func Known(tol []Tolerance, arch, name, kind string) string {
	for _, t := range tol {
		if t.Kind == kind && t.applies(arch, name) {
			return t.Reason
		}
	}
	return ""
}
