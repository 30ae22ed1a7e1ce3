// Package mca reads LLVM's scheduling model for AMD GPUs through llvm-mca:
// for each instruction line and gfx target, the micro-ops, latency,
// reciprocal throughput, load/store/side-effect flags, the hardware
// resources it occupies (HWVALU, HWXDL[8], ...) and LLVM's opcode name,
// as `llvm-mca -instruction-tables=full` prints them. One llvm-mca process
// per target reads every line; answers are cached by (llvm-mca version,
// target, line) like the llvm-mc verification. These are the compiler's
// model, not measurements, and the pages say so.
package mca

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
	"github.com/gpuisa/gpuisa/internal/oracle/toolpath"
)

// Cost is LLVM's model of one instruction on one target.
type Cost struct {
	OK          bool       `json:"ok"`
	UOps        int        `json:"uops,omitempty"`
	Latency     int        `json:"latency,omitempty"`      // cycles
	RThroughput float64    `json:"rthroughput,omitempty"`  // reciprocal throughput, cycles
	MayLoad     bool       `json:"may_load,omitempty"`     // reads memory
	MayStore    bool       `json:"may_store,omitempty"`    // writes memory
	SideEffects bool       `json:"side_effects,omitempty"` // has unmodelled side effects
	Resources   []Resource `json:"resources,omitempty"`
	Opcode      string     `json:"opcode,omitempty"`  // LLVM's internal name: V_MFMA_F32_32X32X8F16_gfx940_acd
	Printed     string     `json:"printed,omitempty"` // the instruction as llvm-mca prints it
	Error       string     `json:"error,omitempty"`   // why llvm-mca gave no numbers
}

// Resource is one hardware resource an instruction uses, for Cycles
// cycles ("HWXDL[8]": the XDL unit for 8).
type Resource struct {
	Name   string `json:"name"`
	Cycles int    `json:"cycles,omitempty"` // 0: one cycle (printed without brackets)
}

// Unit is the main resource: the execution unit the model names (the
// first HW resource other than HWRC, the register-cache resource RDNA 3's
// model adds in front).
func (c Cost) Unit() string {
	for _, r := range c.Resources {
		if r.Name != "HWRC" {
			return r.Name
		}
	}
	if len(c.Resources) > 0 {
		return c.Resources[0].Name
	}
	return ""
}

// ErrNotFound is returned (wrapped) when no llvm-mca can be found.
var ErrNotFound = errors.New("llvm-mca not found")

// Find returns the llvm-mca to use: $GPUISA_LLVM_MCA, else llvm-mca-22 or
// llvm-mca on PATH.
func Find() (string, error) {
	return toolpath.FindLLVM(ErrNotFound, "GPUISA_LLVM_MCA", "llvm-mca-22", "llvm-mca")
}

// Version returns llvm-mca's version line ("Debian LLVM version 22.1.8").
func Version(ctx context.Context, path string) (string, error) {
	v, err := toolpath.LLVMVersion(ctx, path)
	if err != nil {
		return "", fmt.Errorf("mca: %w", err)
	}
	return v, nil
}

// Flags are what every run passes besides the target: the full
// instruction tables, and lines the model cannot read skipped rather than
// ending the run. llvm-mca before LLVM 19 knows neither.
var Flags = []string{"-instruction-tables=full", "-skip-unsupported-instructions=parse-failure"}

// CheckFlags says whether the llvm-mca at path takes Flags: one process,
// asked for its processor list with them; an error quotes what it said.
func CheckFlags(ctx context.Context, path string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, append([]string{"-mtriple=amdgcn", "-mcpu=help"}, Flags...)...)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("mca: %s -mcpu=help: %w", filepath.Base(path), ctx.Err())
	}
	msg := strings.TrimSpace(string(out))
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return fmt.Errorf("does not take %s: %s", strings.Join(Flags, " "), msg)
}

// Options tune Run.
type Options struct {
	LLVMMCA  string // "" finds it
	CacheDir string // "" disables the cache
	Parallel int    // targets at once; 0 means GOMAXPROCS
	// Progress, when set, is called after each target.
	Progress func(done, total int)
}

// Results holds the costs per target: Costs[target][i] for lines[target][i].
type Results struct {
	Version   string
	Costs     map[string][]Cost
	Processes int
	Analysed  int // lines given to llvm-mca (cache misses)
	CacheHits int
}

// cacheFormat changes when the way costs are read from llvm-mca changes.
const cacheFormat = "m1"

// Run models every line of lines[target] on that target: one llvm-mca
// process per target over the lines not cached, targets in parallel.
func Run(ctx context.Context, lines map[string][]string, opts Options) (*Results, error) {
	path := opts.LLVMMCA
	if path == "" {
		var err error
		if path, err = Find(); err != nil {
			return nil, err
		}
	}
	version, err := Version(ctx, path)
	if err != nil {
		return nil, err
	}
	res := &Results{Version: version, Costs: map[string][]Cost{}}
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		firstErr error
		done     int
		slots    = make(chan struct{}, parallel)
		alone    = &loneLines{lines: map[string]bool{}}
	)
	for target, ls := range lines {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			costs, st, err := runTarget(ctx, path, version, target, ls, opts.CacheDir, alone)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			res.Costs[target] = costs
			res.Processes += st[0]
			res.Analysed += st[1]
			res.CacheHits += st[2]
			done++
			if opts.Progress != nil {
				opts.Progress(done, len(lines))
			}
		})
	}
	wg.Wait()
	return res, firstErr
}

// loneLines are the lines llvm-mca could not table even alone (it crashed
// on them, or printed no row), as found so far by this Run on any target.
// A batch holding one is out of step and is bisected down to it, about
// 2·log2(n) processes over large halves; llvm-mca 22 aborts on every
// buffer_load_*_d16 of the gfx9 targets, so without this each of those
// targets bisected its whole batch (417 processes for 47 targets, most of
// a cold cost step). Later targets run these lines alone instead, beside
// one batch of the rest: a line's crash does not depend on its neighbours.
type loneLines struct {
	mu    sync.Mutex
	lines map[string]bool
}

func (a *loneLines) add(l string) {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.lines[l] = true
	a.mu.Unlock()
}

func (a *loneLines) has(l string) bool {
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lines[l]
}

func runTarget(ctx context.Context, path, version, target string, lines []string, cacheDir string, alone *loneLines) ([]Cost, [3]int, error) {
	var st [3]int
	file := ""
	if cacheDir != "" {
		file = filecache.Path(cacheDir, "mca-"+version, target+"-"+cacheFormat)
	}
	cache, err := filecache.Load[Cost](file)
	if err != nil {
		return nil, st, fmt.Errorf("mca: %w", err)
	}
	var todo []string
	seen := map[string]bool{}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if _, ok := cache[l]; ok || seen[l] || l == "" {
			continue
		}
		seen[l] = true
		todo = append(todo, l)
	}
	if len(todo) > 0 {
		var batch []string
		var single [][]string
		for _, l := range todo {
			if alone.has(l) {
				single = append(single, []string{l})
			} else {
				batch = append(batch, l)
			}
		}
		for _, ls := range append(single, batch) {
			if len(ls) == 0 {
				continue
			}
			costs, err := analyse(ctx, path, target, ls, alone)
			if err != nil {
				return nil, st, err
			}
			st[0]++
			st[1] += len(ls)
			for i, l := range ls {
				cache[l] = costs[i]
			}
		}
		if err := filecache.Save(file, cache); err != nil {
			return nil, st, fmt.Errorf("mca: %w", err)
		}
	}
	out := make([]Cost, len(lines))
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.ContainsAny(l, "\n\r") {
			out[i] = Cost{Error: "not a single instruction line"}
			continue
		}
		out[i] = cache[l]
		if !seen[l] {
			st[2]++
		}
	}
	return out, st, nil
}

var errLineRe = regexp.MustCompile(`^[^:]*:(\d+):\d+: error: (.*)$`)

// analyse runs llvm-mca once over lines (one instruction each) and maps
// its table's rows back to them: the rows come in input order, less the
// lines it could not parse, which it names by number.
func analyse(ctx context.Context, path, target string, lines []string, alone *loneLines) ([]Cost, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "gpuisa-mca-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "k.s")
	var src bytes.Buffer
	for _, l := range lines {
		src.WriteString(l + "\n")
	}
	if err := os.WriteFile(in, src.Bytes(), 0o644); err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, path, append([]string{"-mtriple=amdgcn", "-mcpu=" + target}, append(Flags, in)...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("mca: llvm-mca -mcpu=%s: %w", target, ctx.Err())
	}
	out := make([]Cost, len(lines))
	failed := map[int]string{}
	for _, l := range strings.Split(stderr.String(), "\n") {
		if m := errLineRe.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			n, _ := strconv.Atoi(m[1])
			if _, ok := failed[n-1]; !ok {
				failed[n-1] = m[2]
			}
		}
	}
	if strings.Contains(stderr.String(), "is not a recognized processor") {
		return nil, fmt.Errorf("mca: llvm-mca does not know target %q", target)
	}
	rows := tableRows(stdout.String())
	var ok []int
	for i := range lines {
		if msg, bad := failed[i]; bad {
			out[i] = Cost{Error: msg}
			continue
		}
		ok = append(ok, i)
	}
	if len(rows) != len(ok) {
		var ee *exec.ExitError
		if runErr != nil && !errors.As(runErr, &ee) {
			return nil, fmt.Errorf("mca: llvm-mca -mcpu=%s: %w", target, runErr)
		}
		if len(lines) == 1 {
			alone.add(lines[0])
			out[0] = Cost{Error: "llvm-mca printed no table row: " + strings.TrimSpace(firstLine(stderr.String()))}
			return out, nil
		}
		// Out of step: split the batch so each half maps again.
		half := len(lines) / 2
		a, err := analyse(ctx, path, target, lines[:half], alone)
		if err != nil {
			return nil, err
		}
		b, err := analyse(ctx, path, target, lines[half:], alone)
		if err != nil {
			return nil, err
		}
		return append(a, b...), nil
	}
	for k, i := range ok {
		out[i] = rows[k]
	}
	return out, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// ParseTable reads the instruction table of one llvm-mca run's output.
func ParseTable(out string) []Cost { return tableRows(out) }

// tableRows reads the "Instruction Info" table of -instruction-tables=full:
//
//	[1]    [2]    [3]    [4]    [5]    [6]    [7]    [8]       [9]        Instructions:
//	 1      12    8.00                  U      16    HWXDL[8]  V_MFMA_...  v_mfma_f32_32x32x8_f16 ...
//
// The flag columns hold "*" (MayLoad, MayStore) and "U" (side effects) or
// spaces, so the columns are cut by the header's positions.
func tableRows(out string) []Cost {
	var rows []Cost
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var cols []int // start of [1]..[9] and "Instructions:"
	for sc.Scan() {
		l := sc.Text()
		if cols == nil {
			if strings.HasPrefix(l, "[1]") && strings.Contains(l, "Instructions:") {
				for _, h := range []string{"[1]", "[2]", "[3]", "[4]", "[5]", "[6]", "[7]", "[8]", "[9]", "Instructions:"} {
					cols = append(cols, strings.Index(l, h))
				}
				for _, c := range cols {
					if c < 0 {
						cols = nil
						break
					}
				}
			}
			continue
		}
		if strings.TrimSpace(l) == "" {
			break // the table ends at a blank line
		}
		cell := func(k int) string {
			start, end := cols[k], len(l)
			if k+1 < len(cols) {
				end = cols[k+1]
			}
			if start >= len(l) {
				return ""
			}
			return strings.TrimSpace(l[start:min(end, len(l))])
		}
		c := Cost{OK: true}
		c.UOps, _ = strconv.Atoi(cell(0))
		c.Latency, _ = strconv.Atoi(cell(1))
		c.RThroughput, _ = strconv.ParseFloat(cell(2), 64)
		c.MayLoad = cell(3) == "*"
		c.MayStore = cell(4) == "*"
		c.SideEffects = cell(5) == "U"
		// "HWXDL[8]", "HWRC,HWVALU", "HWVMEM[1,4]": commas inside
		// brackets belong to the resource.
		for _, f := range strings.Fields(cell(7)) {
			depth, start := 0, 0
			for i := 0; i <= len(f); i++ {
				switch {
				case i < len(f) && f[i] == '[':
					depth++
				case i < len(f) && f[i] == ']':
					depth--
				case i == len(f) || f[i] == ',' && depth == 0:
					if i > start {
						c.Resources = append(c.Resources, parseResource(f[start:i]))
					}
					start = i + 1
				}
			}
		}
		// The opcode name and the instruction share the space from [9] on:
		// the name is one word.
		rest := strings.TrimSpace(l[min(cols[8], len(l)):])
		c.Opcode, c.Printed, _ = strings.Cut(rest, " ")
		c.Printed = strings.TrimSpace(c.Printed)
		rows = append(rows, c)
	}
	return rows
}

// parseResource reads "HWXDL[8]", "HWVALU" or "HWVMEM[1,4]" (acquire,
// release).
func parseResource(s string) Resource {
	name, rest, ok := strings.Cut(s, "[")
	if !ok {
		return Resource{Name: s}
	}
	rest = strings.TrimSuffix(rest, "]")
	if _, rel, ok := strings.Cut(rest, ","); ok {
		rest = rel
	}
	n, _ := strconv.Atoi(rest)
	return Resource{Name: name, Cycles: n}
}
