package ptxas

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
)

// SASSLine is one machine instruction nvdisasm printed.
type SASSLine struct {
	Text     string `json:"text"`               // "FMNMX.NAN R5, R0, R5, !PT"
	Encoding string `json:"encoding,omitempty"` // the instruction word(s) nvdisasm prints, "0x... 0x..."
	// Control is the scheduling information in the encoding's control bits
	// (sm_70 and newer): stall cycles, the yield bit, the write and read
	// barriers it sets and the barriers it waits on, as "S04 y1 W1 B0".
	Control string `json:"control,omitempty"`
}

// Opcode is the line's opcode with its modifiers, after any predicate
// guard: "@!P0 FMNMX.NAN R5, ..." -> "FMNMX.NAN".
func (l SASSLine) Opcode() string {
	f := strings.Fields(l.Text)
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ";")
}

// Listing is the SASS of one unit's entry on one target.
type Listing struct {
	OK    bool       `json:"ok"`
	Error string     `json:"error,omitempty"`
	Lines []SASSLine `json:"lines,omitempty"`
}

// sassFormat changes when the way listings are read or normalised changes.
const sassFormat = "s3"

// sassBatch bounds the units compiled into one cubin and listed by one
// nvdisasm process. A listing does not depend on its batch-mates
// (normalise), so the bound is only a cost: fewer, larger processes, but a
// unit that fails code generation is found by splitting its batch (about
// twice the batch recompiled): with one cubin per target (5000) the step
// had not finished after 14 minutes on a loaded 2-core machine, where
// batches of 500 take about 2 minutes cold.
const sassBatch = 500

// ErrNoDisassembler is returned when nvdisasm is missing.
var ErrNoDisassembler = errors.New("nvdisasm not found")

// Disassemble compiles units for target (generating code) and returns each
// entry's SASS as nvdisasm prints it, cached like assembly verdicts.
func (s *Session) Disassemble(ctx context.Context, version, target string, units []Unit) ([]Listing, error) {
	s.init()
	if s.Tools.NVDisasm == "" {
		return nil, ErrNoDisassembler
	}
	tool, ok := s.Tools.ToolFor(target)
	if !ok {
		return nil, fmt.Errorf("ptxas: no ptxas compiles for %s", target)
	}
	path := ""
	if s.CacheDir != "" {
		path = filecache.Path(s.CacheDir, "ptxas-"+tool.Version, "sass-"+target+"-"+s.Tools.NVDisasmVersion+"-"+cacheFormat+sassFormat)
	}
	s.mu.Lock()
	cache, err := filecache.Load[Listing](path)
	s.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("ptxas: %w", err)
	}
	out := make([]Listing, len(units))
	var todo []int
	// A unit listed twice (the harness baselines of many statements are
	// one kernel) is compiled once: a listing depends only on the unit.
	first := map[string]int{}
	var copies [][2]int
	for i, u := range units {
		key := version + ":" + u.Key()
		if l, ok := cache[key]; ok {
			out[i] = l
			s.hits.Add(1)
			continue
		}
		if j, ok := first[key]; ok {
			copies = append(copies, [2]int{i, j})
			continue
		}
		first[key] = i
		todo = append(todo, i)
	}
	batches, err := s.sassBatches(ctx, tool, version, target, units, todo, out)
	if err != nil {
		return nil, err
	}
	for _, idx := range batches {
		err := runAt(units, idx, out, func(batch []Unit) ([]Listing, error) {
			return s.disassembleBatch(ctx, tool, version, target, batch)
		})
		if err != nil {
			return nil, err
		}
	}
	for _, i := range todo {
		cache[version+":"+units[i].Key()] = out[i]
	}
	for _, c := range copies {
		out[c[0]] = out[c[1]]
	}
	if len(todo) > 0 {
		s.mu.Lock()
		err := filecache.Save(path, cache)
		s.mu.Unlock()
		if err != nil {
			return nil, fmt.Errorf("ptxas: %w", err)
		}
	}
	return out, nil
}

// sassBatches cuts the units at todo into batches of at most sassBatch
// and sets out for the units that fail alone. A unit's listing depends on
// the other units of its cubin (module-scope variables share the constant
// bank: cvta.const of a variable reads its offset there), so the batches
// must not depend on the order in which targets finish: they are fixed
// windows of todo less the units whose code generation fails alone on
// this target. A unit that failed on an earlier target mostly fails on
// the others (the same ptxas crashes on it): those are checked first with
// ptxas alone (failingIn), so the windows compile at once instead of
// being bisected again, and a suspect that compiles here stays in its
// window.
func (s *Session) sassBatches(ctx context.Context, tool Tool, version, target string, units []Unit, todo []int, out []Listing) ([][]int, error) {
	var suspects []int
	s.mu.Lock()
	for _, i := range todo {
		if s.failsCodegen[units[i].Key()] {
			suspects = append(suspects, i)
		}
	}
	s.mu.Unlock()
	failing := map[int]bool{}
	if len(suspects) > 0 {
		batch := make([]Unit, len(suspects))
		for k, i := range suspects {
			batch[k] = units[i]
		}
		bad, err := s.failingIn(ctx, tool, version, target, batch)
		if err != nil {
			return nil, err
		}
		for k, msg := range bad {
			failing[suspects[k]] = true
			out[suspects[k]] = Listing{Error: msg}
		}
	}
	var batches [][]int
	for start := 0; start < len(todo); start += sassBatch {
		var idx []int
		for _, i := range todo[start:min(start+sassBatch, len(todo))] {
			if !failing[i] {
				idx = append(idx, i)
			}
		}
		if len(idx) > 0 {
			batches = append(batches, idx)
		}
	}
	return batches, nil
}

// noteFailing records that u's code generation failed alone.
func (s *Session) noteFailing(u Unit) {
	k := u.Key()
	s.mu.Lock()
	s.failsCodegen[k] = true
	s.mu.Unlock()
}

// disassembleBatch compiles the units into one cubin and splits
// nvdisasm's listing by function. When code generation fails for the
// batch (a unit fails it, or crashes ptxas), ptxas alone finds the units
// that fail (failingIn), and the rest are compiled and listed together:
// bisecting by listing each half that compiles ran nvdisasm on every such
// half, and nvdisasm's start-up (0.3-0.4 CPU-s, several times a small
// batch's ptxas) made those listings three quarters of a cold SASS step.
func (s *Session) disassembleBatch(ctx context.Context, tool Tool, version, target string, units []Unit) ([]Listing, error) {
	dir, err := os.MkdirTemp("", "gpuisa-sass-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cubin := filepath.Join(dir, "k.cubin")
	compiled, stderr, ranges, err := s.compileSASS(ctx, tool, version, target, units, cubin)
	if err != nil {
		return nil, err
	}
	if compiled {
		return s.listCubin(ctx, tool, version, target, units, cubin, stderr, ranges)
	}
	out := make([]Listing, len(units))
	if len(units) == 1 {
		s.noteFailing(units[0])
		out[0] = Listing{Error: strings.TrimSpace(lastLine(stderr))}
		return out, nil
	}
	half := len(units) / 2
	bad := map[int]string{}
	for _, part := range [][2]int{{0, half}, {half, len(units)}} {
		got, err := s.failingIn(ctx, tool, version, target, units[part[0]:part[1]])
		if err != nil {
			return nil, err
		}
		for k, msg := range got {
			bad[part[0]+k] = msg
		}
	}
	var rest []int
	for i := range units {
		if msg, ok := bad[i]; ok {
			out[i] = Listing{Error: msg}
		} else {
			rest = append(rest, i)
		}
	}
	if len(bad) == 0 {
		// The batch fails though each half compiles: list them apart.
		rest = nil
		for _, part := range [][2]int{{0, half}, {half, len(units)}} {
			if err := runAt(units, seq(part[0], part[1]), out, func(b []Unit) ([]Listing, error) {
				return s.disassembleBatch(ctx, tool, version, target, b)
			}); err != nil {
				return nil, err
			}
		}
	}
	if len(rest) > 0 {
		if err := runAt(units, rest, out, func(b []Unit) ([]Listing, error) {
			return s.disassembleBatch(ctx, tool, version, target, b)
		}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func seq(from, to int) []int {
	idx := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		idx = append(idx, i)
	}
	return idx
}

// compileSASS compiles units into cubin (generating code) and reports
// whether it was written, with ptxas's messages and each unit's lines
// (Compose).
func (s *Session) compileSASS(ctx context.Context, tool Tool, version, target string, units []Unit, cubin string) (bool, string, [][2]int, error) {
	src, ranges := Compose(version, target, units)
	stderr, _, err := s.runPTXAS(ctx, tool, target, src, cubin)
	if err != nil {
		return false, "", nil, err
	}
	s.processes.Add(1)
	_, serr := os.Stat(cubin)
	return serr == nil && !strings.Contains(stderr, crashPrefix), stderr, ranges, nil
}

// failingIn returns, by index into units, ptxas's last message for each
// unit whose code generation fails on its own: halves that do not compile
// are bisected, with ptxas alone (nothing is listed), down to one unit.
func (s *Session) failingIn(ctx context.Context, tool Tool, version, target string, units []Unit) (map[int]string, error) {
	dir, err := os.MkdirTemp("", "gpuisa-sass-")
	if err != nil {
		return nil, err
	}
	compiled, stderr, _, err := s.compileSASS(ctx, tool, version, target, units, filepath.Join(dir, "k.cubin"))
	os.RemoveAll(dir)
	if err != nil || compiled {
		return nil, err
	}
	if len(units) == 1 {
		s.noteFailing(units[0])
		return map[int]string{0: strings.TrimSpace(lastLine(stderr))}, nil
	}
	half := len(units) / 2
	bad, err := s.failingIn(ctx, tool, version, target, units[:half])
	if err != nil {
		return nil, err
	}
	more, err := s.failingIn(ctx, tool, version, target, units[half:])
	if err != nil {
		return nil, err
	}
	if bad == nil {
		bad = map[int]string{}
	}
	for k, msg := range more {
		bad[half+k] = msg
	}
	return bad, nil
}

// listCubin lists a compiled batch's cubin and gives each unit its own
// listing, as it would be alone in its cubin.
func (s *Session) listCubin(ctx context.Context, tool Tool, version, target string, good []Unit, cubin, stderr string, ranges [][2]int) ([]Listing, error) {
	out := make([]Listing, len(good))
	listing, err := s.nvdisasm(ctx, cubin)
	if err != nil {
		return nil, err
	}
	funcs := splitFunctions(listing)
	slots, err := moduleSlots(cubin)
	if err != nil {
		return nil, err
	}
	kernels := make([][]SASSLine, len(good))
	for k := range good {
		kernels[k] = funcs["gpuisa_u"+strconv.Itoa(k)]
	}
	slotsOf, slotsKnown := ownSlots(slots, kernels)
	warned := warnedUnits(stderr, ranges)
	for k := range good {
		own := "gpuisa_u" + strconv.Itoa(k)
		lines, ok := funcs[own]
		if ok && len(good) > 1 && readsModuleBank(lines) {
			// Where a module's symbols sit in its constant bank depends
			// on the other kernels of the cubin: move them to where they
			// are when the kernel is alone, or list it alone.
			var moved []SASSLine
			relocated := false
			if slotsKnown && !warned[k] {
				moved, relocated = relocateModuleBank(lines, slotsOf[k])
			}
			if !relocated || verifyRelocation {
				solo, err := s.disassembleBatch(ctx, tool, version, target, good[k:k+1])
				if err != nil {
					return nil, err
				}
				if verifyRelocation {
					reportRelocation(target, relocated, normalise(moved, own), solo[0], lines)
				}
				out[k] = solo[0]
				continue
			}
			lines = moved
		}
		out[k] = Listing{OK: ok, Lines: normalise(lines, own)}
		if !ok {
			out[k].Error = "nvdisasm printed no code for this kernel"
		}
	}
	return out, nil
}

var (
	labelRe    = lazyre.New(`\.L_x_(\d+)\b`)
	internalRe = lazyre.New(`\$__internal_(\d+)_\$`)
	// The kernel's name also ends the names ptxas gives what it derives
	// from it ("$gpuisa_u7$init_gpuisa_u7"), so no word boundary before.
	kernelRe = lazyre.New(`gpuisa_u(\d+)\b`)
)

// normalise makes a kernel's listing what it would be alone in its cubin,
// whatever shared the batch: nvdisasm numbers labels (.L_x_N) and ptxas
// the internal functions it links in ($__internal_N_$...) across the
// whole cubin, and the kernel's own name is its place in the batch. Labels
// and internal functions are renumbered from 0 in the order of their
// numbers, and the kernel is named gpuisa_u0, as a cubin of one prints
// them. The encodings are left as they are: branches and calls are
// relative to the instruction and the helpers are placed in the kernel's
// own section, so they do not change with the batch.
func normalise(lines []SASSLine, own string) []SASSLine {
	labels, internals := numbering(lines, labelRe, ".L_x_"), numbering(lines, internalRe, "$__internal_")
	ownIdx := strings.TrimPrefix(own, "gpuisa_u")
	out := make([]SASSLine, len(lines))
	for i, l := range lines {
		t := l.Text
		// Most lines name nothing: the expressions run only where the
		// name's literal part is.
		if strings.Contains(t, ".L_x_") {
			t = labelRe.ReplaceAllStringFunc(t, func(m string) string {
				return ".L_x_" + strconv.Itoa(labels[labelRe.FindStringSubmatch(m)[1]])
			})
		}
		if strings.Contains(t, "$__internal_") {
			t = internalRe.ReplaceAllStringFunc(t, func(m string) string {
				return "$__internal_" + strconv.Itoa(internals[internalRe.FindStringSubmatch(m)[1]]) + "_$"
			})
		}
		if strings.Contains(t, "gpuisa_u") {
			t = kernelRe.ReplaceAllStringFunc(t, func(m string) string {
				if kernelRe.FindStringSubmatch(m)[1] == ownIdx {
					return "gpuisa_u0"
				}
				return m
			})
		}
		l.Text = t
		out[i] = l
	}
	return out
}

// numbering ranks the distinct numbers re's first group matches in lines
// (those holding literal, the expression's fixed part): the smallest is 0.
func numbering(lines []SASSLine, re *lazyre.Regexp, literal string) map[string]int {
	var nums []int
	seen := map[string]bool{}
	for _, l := range lines {
		if !strings.Contains(l.Text, literal) {
			continue
		}
		for _, m := range re.FindAllStringSubmatch(l.Text, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				n, _ := strconv.Atoi(m[1])
				nums = append(nums, n)
			}
		}
	}
	sort.Ints(nums)
	rank := make(map[string]int, len(nums))
	for i, n := range nums {
		rank[strconv.Itoa(n)] = i
	}
	return rank
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func (s *Session) nvdisasm(ctx context.Context, cubin string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, s.Tools.NVDisasm, "-c", "-hex", cubin).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("nvdisasm %s: %s", cubin, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("nvdisasm: %w", err)
	}
	return string(out), nil
}

// splitFunctions reads nvdisasm's "-c -hex" listing into each function's
// instructions, without the trailing padding (NOPs after the last
// branch-to-self).
func splitFunctions(listing string) map[string][]SASSLine {
	out := map[string][]SASSLine{}
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(listing))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if name, ok := sectionName(l); ok {
			cur = name
			continue
		}
		if cur == "" {
			continue
		}
		if text, enc, ok := instructionLine(l); ok {
			text = strings.TrimSpace(strings.TrimSuffix(text, ";"))
			out[cur] = append(out[cur], SASSLine{Text: text, Encoding: enc})
			continue
		}
		if word, ok := encodingLine(l); ok && len(out[cur]) > 0 {
			last := &out[cur][len(out[cur])-1]
			last.Encoding += " " + word
			last.Control = control(last.Encoding)
		}
	}
	for name, lines := range out {
		// Drop the padding: everything after the final "BRA" to itself.
		end := len(lines)
		for end > 0 && lines[end-1].Text == "NOP" {
			end--
		}
		out[name] = lines[:end]
	}
	return out
}

// control decodes the scheduling bits of a 128-bit (sm_70+) instruction
// from its high word: stall [108:105], yield [109], write barrier
// [112:110], read barrier [115:113], wait mask [121:116] (the layout of
// Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
// Microbenchmarking", 2018; 7 means "no barrier"). Older encodings keep
// control words apart, and "" is returned.
func control(encoding string) string {
	words := strings.Fields(encoding)
	if len(words) != 2 {
		return ""
	}
	hi, err := strconv.ParseUint(strings.TrimPrefix(words[1], "0x"), 16, 64)
	if err != nil {
		return ""
	}
	bits := hi >> 41 // bit 105 of the instruction is bit 41 of the high word
	stall := bits & 0xf
	yield := (bits >> 4) & 1
	wr := (bits >> 5) & 7
	rd := (bits >> 8) & 7
	wait := (bits >> 11) & 0x3f
	var b strings.Builder
	// The yield bit is shown raw: public descriptions disagree on its
	// polarity.
	fmt.Fprintf(&b, "S%02d y%d", stall, yield)
	if wr != 7 {
		fmt.Fprintf(&b, " W%d", wr)
	}
	if rd != 7 {
		fmt.Fprintf(&b, " R%d", rd)
	}
	if wait != 0 {
		b.WriteString(" B")
		for i := 0; i < 6; i++ {
			if wait&(1<<i) != 0 {
				b.WriteByte(byte('0' + i))
			}
		}
	}
	return b.String()
}
