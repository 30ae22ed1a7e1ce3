// Package verify checks assembly against the LLVM assembler: it runs
// llvm-mc once per gfx target over a whole batch of instructions, maps each
// answer back to its line, and keeps the answers in a file cache keyed by
// (llvm-mc version, target, assembly) so a rebuild only assembles what
// changed. It also decodes batches of encodings (Disassemble).
package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/oracle/toolpath"
)

// ErrNoAssembler is returned (wrapped in *NotFoundError) when no llvm-mc
// can be found; callers show "not yet verified" rather than failing.
var ErrNoAssembler = errors.New("llvm-mc not found")

// NotFoundError says where llvm-mc was looked for.
type NotFoundError struct {
	Tried []string
}

func (e *NotFoundError) Error() string {
	return "verify: llvm-mc not found (tried " + strings.Join(e.Tried, ", ") +
		"); install llvm-22 or set GPUISA_LLVM_MC"
}

// Unwrap lets errors.Is(err, ErrNoAssembler) match.
func (e *NotFoundError) Unwrap() error { return ErrNoAssembler }

// FindLLVMMC returns the llvm-mc to use: $GPUISA_LLVM_MC when set, else
// llvm-mc-22 or llvm-mc on PATH.
func FindLLVMMC() (string, error) {
	path, tried := toolpath.Find("GPUISA_LLVM_MC", "llvm-mc-22", "llvm-mc")
	if path != "" {
		return path, nil
	}
	return "", &NotFoundError{Tried: tried}
}

var versions sync.Map // llvm-mc path -> version string

// Version returns llvm-mc's version line, e.g. "Debian LLVM version 22.1.8".
func Version(ctx context.Context, llvmMC string) (string, error) {
	if v, ok := versions.Load(llvmMC); ok {
		return v.(string), nil
	}
	version, err := toolpath.LLVMVersion(ctx, llvmMC)
	if err != nil {
		return "", fmt.Errorf("verify: %w", err)
	}
	versions.Store(llvmMC, version)
	return version, nil
}

// KnownTargets asks llvm-mc (one process, -mcpu=help) which gfx
// processors it knows.
func KnownTargets(ctx context.Context, llvmMC string) (map[string]bool, error) {
	out, err := exec.CommandContext(ctx, llvmMC, "-triple=amdgcn", "-mcpu=help").CombinedOutput()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return nil, fmt.Errorf("%s -mcpu=help: %w", llvmMC, err)
	}
	known := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "gfx") {
			known[f[0]] = true
		}
	}
	if len(known) == 0 {
		return nil, fmt.Errorf("%s -mcpu=help listed no gfx processor", llvmMC)
	}
	return known, nil
}

// Input is one instruction to assemble: a single line of assembly.
type Input struct {
	Asm string
}

// Batch is one run's input: each assembly line once, in the order first
// added, with where it stands in the run's outcomes (Index).
type Batch struct {
	Index  map[string]int
	Inputs []Input
}

// Add puts asm in the batch unless it is there.
func (b *Batch) Add(asm string) {
	if b.Index == nil {
		b.Index = map[string]int{}
	}
	if _, ok := b.Index[asm]; !ok {
		b.Index[asm] = len(b.Inputs)
		b.Inputs = append(b.Inputs, Input{Asm: asm})
	}
}

// Outcome is what llvm-mc said about one instruction on one target.
type Outcome struct {
	Supported bool
	Encoding  []byte
	Printed   string // the instruction as llvm-mc prints it: "v_max_num_f32_e32 v5, v1, v2"
	Error     string // llvm-mc's message when not supported
}

// Mnemonic is the first word of Printed: the name llvm-mc uses, which
// differs from the input's where the input is an alias.
func (o Outcome) Mnemonic() string {
	name, _, _ := strings.Cut(strings.TrimSpace(o.Printed), " ")
	return name
}

// Options tune Run and Disassemble. The zero value finds llvm-mc itself,
// uses no cache and runs GOMAXPROCS targets at once.
type Options struct {
	LLVMMC   string // path to llvm-mc; "" finds it (FindLLVMMC)
	CacheDir string // where cache files live; "" disables the cache
	Mattr    string // -mattr for every target, e.g. "+wavefrontsize64"
	Parallel int    // targets assembled at once; 0 means GOMAXPROCS
	// Progress, when set, is called after each target with the number of
	// targets done; calls never overlap.
	Progress func(done, total int, target string)
}

// Results holds one Outcome per (input, target).
type Results struct {
	Version   string
	Targets   []string
	Outcomes  [][]Outcome // [input index][target index]
	Processes int         // llvm-mc processes started
	Assembled int         // lines given to llvm-mc (cache misses)
	CacheHits int
}

// Get returns the outcome of input i on target.
func (r Results) Get(i int, target string) (Outcome, bool) {
	if i < 0 || i >= len(r.Outcomes) {
		return Outcome{}, false
	}
	for t, name := range r.Targets {
		if name == target {
			return r.Outcomes[i][t], true
		}
	}
	return Outcome{}, false
}

// Run assembles every input on every target: one llvm-mc process per
// target over all inputs not already cached, targets in parallel. An
// input that is not a single instruction line (empty, several lines, a
// directive or a label, which would change how the lines after it
// assemble) is reported unsupported without being assembled.
func Run(ctx context.Context, inputs []Input, targets []string, opts Options) (Results, error) {
	llvmMC := opts.LLVMMC
	if llvmMC == "" {
		var err error
		if llvmMC, err = FindLLVMMC(); err != nil {
			return Results{}, err
		}
	}
	version, err := Version(ctx, llvmMC)
	if err != nil {
		return Results{}, err
	}
	res := Results{Version: version, Targets: append([]string(nil), targets...), Outcomes: make([][]Outcome, len(inputs))}
	for i := range res.Outcomes {
		res.Outcomes[i] = make([]Outcome, len(targets))
	}
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
		slots    = make(chan struct{}, parallel)
	)
	for t, target := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			st, err := runTarget(ctx, llvmMC, version, target, inputs, opts, &res, t)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			res.Processes += st.processes
			res.Assembled += st.assembled
			res.CacheHits += st.hits
			done++
			if opts.Progress != nil {
				opts.Progress(done, len(targets), target)
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return res, firstErr
	}
	return res, nil
}

type targetStats struct{ processes, assembled, hits int }

// runTarget fills column t of res.Outcomes; no other goroutine writes it.
func runTarget(ctx context.Context, llvmMC, version, target string, inputs []Input, opts Options, res *Results, t int) (targetStats, error) {
	var st targetStats
	cache, err := loadCache(opts.CacheDir, version, target, opts.Mattr, kindAsm)
	if err != nil {
		return st, err
	}
	cache.mu.Lock()
	defer cache.mu.Unlock()
	var todo []string
	seen := map[string]bool{}
	for _, in := range inputs {
		if reason := notOneInstruction(in.Asm); reason != "" {
			continue
		}
		asm := strings.TrimSpace(in.Asm)
		if _, ok := cache.entries[asm]; ok || seen[asm] {
			continue
		}
		seen[asm] = true
		todo = append(todo, asm)
	}
	if len(todo) > 0 {
		outcomes, err := assemble(ctx, llvmMC, target, opts.Mattr, todo)
		if err != nil {
			return st, err
		}
		st.processes++
		st.assembled += len(todo)
		for i, asm := range todo {
			cache.entries[asm] = outcomes[i]
		}
		if err := cache.save(); err != nil {
			return st, err
		}
	}
	for i, in := range inputs {
		if reason := notOneInstruction(in.Asm); reason != "" {
			res.Outcomes[i][t] = Outcome{Error: reason}
			continue
		}
		asm := strings.TrimSpace(in.Asm)
		res.Outcomes[i][t] = cache.entries[asm]
		if !seen[asm] {
			st.hits++
		}
	}
	return st, nil
}

// notOneInstruction says why a line must not be mixed into a batch, or "".
func notOneInstruction(asm string) string {
	s := strings.TrimSpace(asm)
	switch {
	case s == "":
		return "empty instruction"
	case strings.ContainsAny(s, "\n\r\x00"):
		return "not a single line"
	case s[0] == '.' || strings.HasSuffix(s, ":"):
		return "a directive or label, not an instruction"
	case !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z' || s[0] == '_'):
		return "not an instruction"
	}
	if f := strings.Fields(s); len(f) > 1 && f[1] == "=" {
		return "a symbol assignment, not an instruction"
	}
	return ""
}

var diag = regexp.MustCompile(`^<stdin>:(\d+):(\d+): (error|warning): (.*)$`)

// labelPrefix marks each input line in the batch: llvm-mc echoes labels,
// so the output between two labels belongs to the line between them, even
// where a line prints nothing.
const labelPrefix = ".Lgpuisa_"

// assemble runs one llvm-mc over lines, which hold one instruction each.
func assemble(ctx context.Context, llvmMC, target, mattr string, lines []string) ([]Outcome, error) {
	var in bytes.Buffer
	for i, l := range lines {
		fmt.Fprintf(&in, "%s%d:\n%s\n", labelPrefix, i, l) // line i sits on input line 2i+2
	}
	stdout, stderr, err := runLLVMMC(ctx, llvmMC, target, mattr, &in)
	if err != nil {
		return nil, err
	}
	out := make([]Outcome, len(lines))
	for _, l := range strings.Split(stderr.String(), "\n") {
		m := diag.FindStringSubmatch(l)
		if m == nil || m[3] != "error" {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if i := n/2 - 1; n%2 == 0 && i >= 0 && i < len(out) && out[i].Error == "" {
			out[i].Error = m[4]
		}
	}
	cur := -1
	for _, l := range strings.Split(stdout.String(), "\n") {
		l = strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(l, labelPrefix); ok {
			if n, err := strconv.Atoi(strings.TrimSuffix(rest, ":")); err == nil {
				cur = n
			}
			continue
		}
		if cur < 0 || cur >= len(out) || l == "" {
			continue
		}
		printed, enc, ok := parseEncoded(l)
		if !ok {
			continue
		}
		o := &out[cur]
		if o.Printed != "" {
			o.Printed += "\n"
		}
		o.Printed += printed
		o.Encoding = append(o.Encoding, enc...)
	}
	for i := range out {
		switch {
		case out[i].Error != "":
			out[i].Encoding, out[i].Printed = nil, ""
		case out[i].Encoding != nil:
			out[i].Supported = true
		default:
			out[i].Error = "llvm-mc printed no encoding for this line"
		}
	}
	return out, nil
}

// parseEncoded splits "v_max_f32_e32 v5, v1, v2 ; encoding: [0x01,0x05]".
func parseEncoded(line string) (string, []byte, bool) {
	i := strings.Index(line, "; encoding: [")
	if i < 0 {
		return "", nil, false
	}
	rest := line[i+len("; encoding: ["):]
	j := strings.IndexByte(rest, ']')
	if j < 0 {
		return "", nil, false
	}
	var enc []byte
	for _, f := range strings.Split(rest[:j], ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(f), 0, 8)
		if err != nil {
			return "", nil, false // fixups print symbolic bytes; not a plain encoding
		}
		enc = append(enc, byte(v))
	}
	return strings.TrimSpace(line[:i]), enc, true
}

// runLLVMMC runs llvm-mc once for target over in, with -show-encoding and
// the extra arguments. A non-zero exit is normal (some lines are rejected);
// failing to run at all, or an unknown target, is an error.
func runLLVMMC(ctx context.Context, llvmMC, target, mattr string, in io.Reader, extra ...string) (stdout, stderr bytes.Buffer, err error) {
	args := append([]string{"-triple=amdgcn", "-mcpu=" + target}, extra...)
	args = append(args, "-show-encoding")
	if mattr != "" {
		args = append(args, "-mattr="+mattr)
	}
	cmd := exec.CommandContext(ctx, llvmMC, args...)
	cmd.Stdin = in
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return stdout, stderr, ctx.Err()
	}
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return stdout, stderr, fmt.Errorf("verify: %s %s -mcpu=%s: %w", llvmMC, strings.Join(extra, " "), target, runErr)
	}
	if strings.Contains(stderr.String(), "is not a recognized processor") {
		return stdout, stderr, fmt.Errorf("verify: llvm-mc does not know target %q", target)
	}
	return stdout, stderr, nil
}
