package ptxas

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Unit is one small kernel: module-scope declarations and one entry
// function. Every "$U" in either is replaced by a name unique within the
// batch, so units never clash; the cache key is taken before that.
type Unit struct {
	Module string // declarations before the entry (functions, variables); may be empty
	Entry  string // ".visible .entry $U(...) { ... }"
}

// Key identifies the unit's text in the cache.
func (u Unit) Key() string {
	h := sha256.New()
	h.Write([]byte(u.Module))
	h.Write([]byte{0})
	h.Write([]byte(u.Entry))
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Outcome is what ptxas said about one unit.
type Outcome struct {
	OK       bool     `json:"ok,omitempty"`
	Errors   []string `json:"e,omitempty"` // ptxas's errors on the unit's lines, in order
	Warnings []string `json:"w,omitempty"`
	// Fatal is set when the unit stopped ptxas (a syntax error): the units
	// after it were assembled again in a batch of their own.
	Fatal bool `json:"f,omitempty"`
}

// Message is the first error, "" when the unit was accepted.
func (o Outcome) Message() string {
	if len(o.Errors) == 0 {
		return ""
	}
	return o.Errors[0]
}

// Job is one batch: the units assembled with one PTX ISA version for one
// target.
type Job struct {
	Version, Target string
	Units           []Unit
	// Keys, when set, are the units' keys (Unit.Key), taken once by a
	// caller that gives the same units to many jobs.
	Keys []string
}

// Stats counts the work a session did.
type Stats struct {
	Processes int64 // ptxas processes started
	Assembled int64 // units given to ptxas (cache misses)
	CacheHits int64
}

// Session runs batches against one set of tools and one result cache. It
// is safe for concurrent use.
type Session struct {
	Tools    *Tools
	CacheDir string // "" disables the cache
	Parallel int    // ptxas processes at once; 0 means GOMAXPROCS
	// MaxBatch caps the units of one ptxas process; 0 means 1000. A unit
	// with a syntax error stops ptxas, and the units after it in its batch
	// are assembled again, so smaller batches bound that cost.
	MaxBatch int
	Timeout  time.Duration // per process; 0 means 5 minutes
	// ParseOnly assembles for the virtual architecture (compute_90a for
	// sm_90a): ptxas checks the PTX and generates no code, which is
	// several times faster and, measured over the whole corpus, gives the
	// same verdicts (TestParseOnlyAgrees).
	ParseOnly bool

	processes, assembled, hits atomic.Int64

	mu      sync.Mutex
	caches  map[string]*fileCache // by tool version + target
	targets []TargetInfo
	// fatal remembers units that stopped ptxas with a syntax error: the
	// grammar does not depend on the target, so other targets and
	// versions answer them without running ptxas again.
	fatal map[string]Outcome // by tool version + unit key
	// failsCodegen holds the units whose code generation failed alone on
	// some target (by unit key): the SASS step batches them apart on the
	// targets after, so their batch-mates' batch compiles at once
	// (sassBatches).
	failsCodegen map[string]bool
	slots        chan struct{}
	once         sync.Once
}

// NewSession returns a session over tools caching in cacheDir.
func NewSession(tools *Tools, cacheDir string) *Session {
	return &Session{Tools: tools, CacheDir: cacheDir}
}

// Stats returns the counts so far.
func (s *Session) Stats() Stats {
	return Stats{Processes: s.processes.Load(), Assembled: s.assembled.Load(), CacheHits: s.hits.Load()}
}

func (s *Session) init() {
	s.once.Do(func() {
		p := s.Parallel
		if p <= 0 {
			p = runtime.GOMAXPROCS(0)
		}
		s.slots = make(chan struct{}, p)
		s.caches = map[string]*fileCache{}
		s.fatal = map[string]Outcome{}
		s.failsCodegen = map[string]bool{}
	})
}

// Run assembles every job, jobs in parallel, and returns one outcome per
// unit of each job. progress, when set, is called after each job (calls
// never overlap). Jobs that share one slice of units (a grid: the same
// statements on every target) share its cache keys, taken once; at most
// twice as many jobs as ptxas processes are in flight, so their lookups and
// results do not all sit in memory at once.
func (s *Session) Run(ctx context.Context, jobs []Job, progress func(done, total int)) ([][]Outcome, error) {
	s.init()
	out := make([][]Outcome, len(jobs))
	keysOf := map[*Unit][]string{}
	for _, j := range jobs {
		if len(j.Units) > 0 && j.Keys == nil && keysOf[&j.Units[0]] == nil {
			keysOf[&j.Units[0]] = unitKeys(j.Units)
		}
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		done     int
		inFlight = make(chan struct{}, 2*cap(s.slots))
	)
	for i, j := range jobs {
		wg.Add(1)
		inFlight <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-inFlight }()
			keys := j.Keys
			if keys == nil && len(j.Units) > 0 {
				keys = keysOf[&j.Units[0]]
			}
			res, err := s.assemble(ctx, j.Version, j.Target, j.Units, keys)
			mu.Lock()
			defer mu.Unlock()
			out[i] = res
			if err != nil && firstErr == nil {
				firstErr = err
			}
			done++
			if progress != nil {
				progress(done, len(jobs))
			}
		}()
	}
	wg.Wait()
	return out, firstErr
}

func unitKeys(units []Unit) []string {
	keys := make([]string, len(units))
	for i, u := range units {
		keys[i] = u.Key()
	}
	return keys
}

// Assemble returns ptxas's outcome for every unit with PTX ISA version
// and target: cached answers first, the rest in as few ptxas processes as
// the batch limit allows.
func (s *Session) Assemble(ctx context.Context, version, target string, units []Unit) ([]Outcome, error) {
	s.init()
	return s.assemble(ctx, version, target, units, unitKeys(units))
}

// assemble is Assemble with the units' keys (Unit.Key) already taken.
func (s *Session) assemble(ctx context.Context, version, target string, units []Unit, unitKeys []string) ([]Outcome, error) {
	tool, ok := s.Tools.ToolFor(target)
	if !ok {
		return nil, fmt.Errorf("ptxas: no ptxas compiles for %s", target)
	}
	cache, err := s.cache(tool, target)
	if err != nil {
		return nil, err
	}
	out := make([]Outcome, len(units))
	var todo []int
	todoKeys := map[int]string{}
	pending := map[string]int{} // key -> first unit index with it
	for i := range units {
		key := version + ":" + unitKeys[i]
		if o, ok := cache.get(key); ok {
			out[i] = o
			s.hits.Add(1)
			continue
		}
		if _, dup := pending[key]; dup {
			todoKeys[i] = key
			continue
		}
		s.mu.Lock()
		f, known := s.fatal[tool.Version+":"+unitKeys[i]]
		s.mu.Unlock()
		if known {
			out[i] = f
			cache.put(key, f)
			continue
		}
		pending[key] = i
		todoKeys[i] = key
		todo = append(todo, i)
	}
	if len(todo) > 0 {
		err := runAt(units, todo, out, func(batch []Unit) ([]Outcome, error) {
			return s.assembleAll(ctx, tool, version, target, batch)
		})
		if err != nil {
			return nil, err
		}
		for _, i := range todo {
			cache.put(todoKeys[i], out[i])
			if out[i].Fatal && isSyntaxError(out[i]) {
				s.mu.Lock()
				s.fatal[tool.Version+":"+unitKeys[i]] = out[i]
				s.mu.Unlock()
			}
		}
		if err := cache.saveIfDue(); err != nil {
			return nil, err
		}
		for i, key := range todoKeys {
			if j := pending[key]; j != i {
				out[i] = out[j]
			}
		}
	}
	return out, nil
}

// runAt runs fn once on the units at the indexes idx, in that order, and
// stores its k-th result at out[idx[k]].
func runAt[T any](units []Unit, idx []int, out []T, fn func([]Unit) ([]T, error)) error {
	batch := make([]Unit, len(idx))
	for k, i := range idx {
		batch[k] = units[i]
	}
	res, err := fn(batch)
	if err != nil {
		return err
	}
	for k, i := range idx {
		out[i] = res[k]
	}
	return nil
}

// assembleAll splits units into batches of at most MaxBatch. A fatal
// error (a syntax error) stops ptxas: that unit's outcome is final, and so
// are the errors of the units before it, but the units after it and those
// before it that had no error yet (later passes never ran for them) are
// assembled again without it.
func (s *Session) assembleAll(ctx context.Context, tool Tool, version, target string, units []Unit) ([]Outcome, error) {
	max := s.MaxBatch
	if max <= 0 {
		max = 1000
	}
	out := make([]Outcome, len(units))
	for start := 0; start < len(units); start += max {
		end := min(start+max, len(units))
		pending := make([]int, 0, end-start)
		for i := start; i < end; i++ {
			pending = append(pending, i)
		}
		for len(pending) > 0 {
			batch := make([]Unit, len(pending))
			for k, i := range pending {
				batch[k] = units[i]
			}
			res, final, err := s.batch(ctx, tool, version, target, batch)
			if err != nil {
				return nil, err
			}
			var again []int
			for k, i := range pending {
				if final[k] {
					out[i] = res[k]
				} else {
					again = append(again, i)
				}
			}
			if len(again) == len(pending) {
				return nil, fmt.Errorf("ptxas %s -arch=%s: no progress on a batch of %d units", tool.Version, target, len(pending))
			}
			pending = again
		}
	}
	return out, nil
}

var (
	// "ptxas /tmp/x/k.ptx, line 12; error   : ..."; other files than ours
	// ("<macro util>", ptxas's own expansions) are not lines of a unit.
	lineMsgRe = lazyre.New(`^ptxas ([^\n]*?), line (\d+); (error|warning|fatal|info)\s*: (.*)$`)
	bareMsgRe = lazyre.New(`^ptxas (error|warning|fatal|info)\s*: (.*)$`)
	unitRe    = lazyre.New(`gpuisa_u(\d+)\b`)
)

// crashPrefix starts the message of a unit ptxas crashed on.
const crashPrefix = "ptxas crashed: "

const abortSummary = "Ptx assembly aborted due to errors"

// batch runs one ptxas over units and returns their outcomes and which of
// them are final (all, unless a unit stopped ptxas with a fatal error).
func (s *Session) batch(ctx context.Context, tool Tool, version, target string, units []Unit) ([]Outcome, []bool, error) {
	src, ranges := Compose(version, target, units)
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	stderr, inFile, err := s.runPTXAS(ctx, tool, target, src, os.DevNull)
	<-s.slots
	if err != nil {
		return nil, nil, err
	}
	s.processes.Add(1)
	s.assembled.Add(int64(len(units)))
	out := make([]Outcome, len(units))
	unitOfLine := func(line int) int {
		// ranges are sorted; units are small, so a binary search.
		lo, hi := 0, len(ranges)-1
		for lo <= hi {
			m := (lo + hi) / 2
			switch {
			case line < ranges[m][0]:
				hi = m - 1
			case line >= ranges[m][1]:
				lo = m + 1
			default:
				return m
			}
		}
		return -1
	}
	fatal := -1
	var stray []string
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if m := lineMsgRe.FindStringSubmatch(l); m != nil && m[1] == inFile {
			m = m[1:]
			n, _ := strconv.Atoi(m[1])
			u := unitOfLine(n)
			if u < 0 {
				if u2 := unitNamed(m[3], len(units)); u2 >= 0 {
					u = u2
				}
			}
			if u < 0 {
				stray = append(stray, l)
				continue
			}
			switch m[2] {
			case "info":
				// Advisories ("should be used instead ... reduced
				// performance") are not verdicts.
			case "warning":
				out[u].Warnings = append(out[u].Warnings, m[3])
			case "fatal":
				out[u].Errors = append(out[u].Errors, m[3])
				out[u].Fatal = true
				if fatal < 0 {
					fatal = u
				}
			default:
				out[u].Errors = append(out[u].Errors, m[3])
			}
			continue
		}
		if m := bareMsgRe.FindStringSubmatch(l); m != nil {
			if m[2] == abortSummary || m[1] == "info" {
				continue
			}
			if u := unitNamed(m[2], len(units)); u >= 0 {
				if m[1] == "warning" {
					out[u].Warnings = append(out[u].Warnings, m[2])
				} else {
					out[u].Errors = append(out[u].Errors, m[2])
				}
				continue
			}
		}
		stray = append(stray, l)
	}
	final := make([]bool, len(units))
	if len(stray) > 0 {
		// A message no unit owns (a fatal error about the whole file): with
		// one unit it is that unit's; otherwise split the batch to find it.
		if len(units) == 1 {
			out[0].Errors = append(out[0].Errors, stray...)
			out[0].Fatal = true
			final[0] = true
			return out, final, nil
		}
		if strings.Contains(strings.Join(stray, "\n"), "Unsupported .version") {
			return nil, nil, fmt.Errorf("ptxas %s: %s", tool.Version, strings.Join(stray, "; "))
		}
		half := len(units) / 2
		a, err := s.assembleAll(ctx, tool, version, target, units[:half])
		if err != nil {
			return nil, nil, err
		}
		b, err := s.assembleAll(ctx, tool, version, target, units[half:])
		if err != nil {
			return nil, nil, err
		}
		for i := range final {
			final[i] = true
		}
		return append(a, b...), final, nil
	}
	for i := range out {
		switch {
		case fatal < 0:
			final[i] = true
		case i == fatal:
			final[i] = true
		case i < fatal && len(out[i].Errors) > 0:
			final[i] = true
		default:
			out[i] = Outcome{}
		}
		out[i].OK = final[i] && len(out[i].Errors) == 0
	}
	return out, final, nil
}

// isSyntaxError reports whether a fatal outcome is ptxas's parser giving
// up ("Parsing error near ...: syntax error"), which no target changes.
func isSyntaxError(o Outcome) bool {
	for _, e := range o.Errors {
		if strings.Contains(e, "syntax error") {
			return true
		}
	}
	return false
}

func unitNamed(msg string, n int) int {
	if m := unitRe.FindStringSubmatch(msg); m != nil {
		if u, err := strconv.Atoi(m[1]); err == nil && u < n {
			return u
		}
	}
	return -1
}

// Compose writes the PTX module for a batch and returns, per unit, its
// [first, end) line range.
func Compose(version, target string, units []Unit) (string, [][2]int) {
	// A batch is up to a thousand units: sized once and written in place,
	// where growing the builder and a copy per unit for the name were a
	// third of the PTX step's own CPU time in a cold build.
	size := 64 + len(version) + len(target)
	for _, u := range units {
		size += len(u.Module) + len(u.Entry) + 4 + 16*(strings.Count(u.Module, "$U")+strings.Count(u.Entry, "$U"))
	}
	var b strings.Builder
	b.Grow(size)
	line := 1
	b.WriteString(".version " + version + "\n.target " + target + "\n")
	line += 2
	if ptxorder.CompareVersions(version, "2.3") >= 0 {
		b.WriteString(".address_size 64\n")
		line++
	}
	ranges := make([][2]int, len(units))
	var name []byte
	for i, u := range units {
		name = strconv.AppendInt(append(name[:0], "gpuisa_u"...), int64(i), 10)
		start := line
		b.WriteByte('\n')
		line++
		if u.Module != "" {
			line += writeNamed(&b, strings.TrimRight(u.Module, "\n"), name)
		}
		line += writeNamed(&b, strings.TrimRight(u.Entry, "\n"), name)
		ranges[i] = [2]int{start, line}
	}
	return b.String(), ranges
}

// writeNamed writes text with every "$U" replaced by name, and a newline,
// and returns the lines written.
func writeNamed(b *strings.Builder, text string, name []byte) int {
	lines := strings.Count(text, "\n") + 1
	for {
		i := strings.Index(text, "$U")
		if i < 0 {
			break
		}
		b.WriteString(text[:i])
		b.Write(name)
		text = text[i+2:]
	}
	b.WriteString(text)
	b.WriteByte('\n')
	return lines
}

// runPTXAS assembles src for target and returns ptxas's messages; a
// non-zero exit is normal (units are rejected), failing to run is an error.
func (s *Session) runPTXAS(ctx context.Context, tool Tool, target, src, out string) (stderrText, inFile string, err error) {
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "gpuisa-ptxas-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "k.ptx")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		return "", "", err
	}
	var stderr bytes.Buffer
	arch := target
	if s.ParseOnly && out == os.DevNull {
		arch = "compute_" + strings.TrimPrefix(target, "sm_")
	}
	cmd := exec.CommandContext(ctx, tool.Path, "-arch="+arch, in, "-o", out)
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return "", "", fmt.Errorf("ptxas %s -arch=%s: %w", tool.Version, target, ctx.Err())
	}
	keepBatch(target, src, stderr.Bytes())
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return "", "", fmt.Errorf("ptxas %s -arch=%s: %w", tool.Version, target, runErr)
	}
	if exitErr != nil && exitErr.ExitCode() < 0 {
		// Killed by a signal: ptxas itself crashed on some unit. Its
		// messages so far say nothing about that unit, so the caller
		// splits the batch to find it.
		return stderr.String() + "\nptxas fatal   : " + crashPrefix + exitErr.String(), in, nil
	}
	return stderr.String(), in, nil
}

// LineMessage is one of ptxas's messages about a line of a whole module.
type LineMessage struct {
	Line     int    `json:"line"`
	Severity string `json:"severity"` // error | warning | fatal
	Message  string `json:"message"`
}

// AssembleModule assembles a whole PTX file as written (its own .version
// and .target) for target, uncached, and returns ptxas's messages by line;
// messages without a line have Line 0.
func (s *Session) AssembleModule(ctx context.Context, target, src string) ([]LineMessage, error) {
	s.init()
	tool, ok := s.Tools.ToolFor(target)
	if !ok {
		return nil, fmt.Errorf("ptxas: no ptxas compiles for %s", target)
	}
	stderr, inFile, err := s.runPTXAS(ctx, tool, target, src, os.DevNull)
	if err != nil {
		return nil, err
	}
	s.processes.Add(1)
	var out []LineMessage
	for _, l := range strings.Split(stderr, "\n") {
		l = strings.TrimSpace(l)
		if m := lineMsgRe.FindStringSubmatch(l); m != nil && m[1] == inFile {
			n, _ := strconv.Atoi(m[2])
			if m[3] != "info" {
				out = append(out, LineMessage{Line: n, Severity: m[3], Message: m[4]})
			}
		} else if m := bareMsgRe.FindStringSubmatch(l); m != nil && m[2] != abortSummary && m[1] != "info" {
			out = append(out, LineMessage{Severity: m[1], Message: m[2]})
		}
	}
	return out, nil
}
