// Package llvmtest reads LLVM's assembler test files for AMDGPU
// (llvm/test/MC/AMDGPU/*.s in an llvm-project checkout): the instructions
// they assemble, the encodings and printed forms their FileCheck lines
// expect per check prefix, the errors they expect, and, from the RUN lines,
// which -mcpu each prefix is checked with. These are verbatim, maintained
// examples, so the reader keeps file and line for every fact.
package llvmtest

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
)

// Run is one RUN line that pipes llvm-mc into FileCheck.
type Run struct {
	Line        int
	MCPU        string   // "" when the RUN line names none (llvm-mc's default)
	Mattr       string   // the -mattr value, e.g. "+wavefrontsize64"
	Prefixes    []string // FileCheck prefixes; CHECK when none is named
	Disassemble bool     // the RUN line decodes rather than assembles
}

// Check is one FileCheck line that speaks about an instruction.
type Check struct {
	Prefix   string
	Line     int
	Text     string // the check text after "PREFIX:"
	Printed  string // the instruction as llvm-mc prints it, when the check says
	Encoding []byte // the expected encoding, when the check has one
	Error    string // the expected error message, when the check is an error
}

// Example is one instruction line of a test file with what the checks
// expect of it.
type Example struct {
	File   string
	Line   int
	Asm    string
	Checks []Check
	// MCPUs maps each check prefix of the file to the -mcpu values of the
	// RUN lines that check it (shared by all examples of a file).
	MCPUs map[string][]string
	Runs  []Run // the file's RUN lines (shared)
}

// Encodings returns the expected encoding per check prefix.
func (e Example) Encodings() map[string][]byte {
	out := map[string][]byte{}
	for _, c := range e.Checks {
		if c.Encoding != nil {
			out[c.Prefix] = c.Encoding
		}
	}
	return out
}

// TargetEncodings returns the expected encoding per -mcpu: every target of
// every RUN line whose prefix has an encoding check for this line.
func (e Example) TargetEncodings() map[string][]byte {
	out := map[string][]byte{}
	for prefix, enc := range e.Encodings() {
		for _, cpu := range e.MCPUs[prefix] {
			out[cpu] = enc
		}
	}
	return out
}

// ReadDir reads every *.s file under dir (recursively), sorted by path.
func ReadDir(dir string) ([]Example, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".s") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("llvmtest: %w", err)
	}
	sort.Strings(files)
	var out []Example
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("llvmtest: %w", err)
		}
		ex, err := Parse(f, path)
		f.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, ex...)
	}
	return out, nil
}

// maxLine bounds one line of a test file; the longest real ones are a few
// hundred characters.
const maxLine = 1 << 20

var (
	checkLine = lazyre.New(`^\s*(?://|;|#)\s*([A-Za-z0-9_-]+?)(-NEXT|-SAME|-NOT|-DAG|-LABEL|-EMPTY|-COUNT-[0-9]+)?:(.*)$`)
	atLine    = lazyre.New(`\[\[@LINE([+-][0-9]+)?\]\]`)
	encoding  = lazyre.New(`encoding:\s*\[([^\]]*)\]`)
	runLine   = lazyre.New(`^\s*(?://|;|#)\s*RUN:(.*)$`)
)

// Parse reads one test file. name is the file name reported in Example.File
// and in errors.
func Parse(r io.Reader, name string) ([]Example, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLine)
	type pending struct {
		check   Check
		target  int // explicit line from [[@LINE]], or 0
		dir     string
		comment bool
	}
	var (
		lines   []string
		runs    []Run
		runText strings.Builder
		runFrom int
	)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		lines = append(lines, line)
		if m := runLine.FindStringSubmatch(line); m != nil {
			if runText.Len() == 0 {
				runFrom = n
			}
			part := strings.TrimSpace(m[1])
			if cont, ok := strings.CutSuffix(part, `\`); ok {
				runText.WriteString(cont + " ")
				continue
			}
			runText.WriteString(part)
			if run, ok := parseRun(runText.String(), runFrom); ok {
				runs = append(runs, run)
			}
			runText.Reset()
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, len(lines)+1, err)
	}

	prefixes := map[string]bool{}
	mcpus := map[string][]string{}
	for _, run := range runs {
		for _, p := range run.Prefixes {
			prefixes[p] = true
			if run.Disassemble {
				continue
			}
			if !slices.Contains(mcpus[p], run.MCPU) {
				mcpus[p] = append(mcpus[p], run.MCPU)
			}
		}
	}

	var (
		examples   []Example
		byLine     = map[int]int{} // line -> index in examples
		checks     []pending
		firstAsm   = 0
		firstCheck = 0
	)
	for i, line := range lines {
		n := i + 1
		if runLine.MatchString(line) {
			continue
		}
		if m := checkLine.FindStringSubmatch(line); m != nil && prefixes[m[1]] {
			c := pending{check: Check{Prefix: m[1], Line: n, Text: strings.TrimSpace(m[3])}, dir: m[2]}
			if am := atLine.FindStringSubmatch(m[3]); am != nil {
				off := 0
				if am[1] != "" {
					off, _ = strconv.Atoi(am[1])
				}
				c.target = n + off
			} else if firstCheck == 0 && (c.dir == "" || c.dir == "-DAG") {
				firstCheck = n
			}
			describe(&c.check)
			checks = append(checks, c)
			continue
		}
		asm := instruction(line)
		if asm == "" {
			continue
		}
		if firstAsm == 0 {
			firstAsm = n
		}
		byLine[n] = len(examples)
		examples = append(examples, Example{File: name, Line: n, Asm: asm, MCPUs: mcpus, Runs: runs})
	}

	// Checks without [[@LINE]] follow their instruction in most files and
	// precede it in some older ones; the file's first check against its
	// first instruction tells which.
	checksFirst := firstCheck != 0 && firstAsm != 0 && firstCheck < firstAsm
	asmLines := make([]int, 0, len(examples))
	for _, e := range examples {
		asmLines = append(asmLines, e.Line)
	}
	for _, c := range checks {
		if c.dir == "-NOT" || c.dir == "-EMPTY" || strings.HasPrefix(c.dir, "-COUNT") || c.dir == "-LABEL" {
			continue
		}
		target := c.target
		if target == 0 {
			target = nearestAsm(asmLines, c.check.Line, checksFirst)
		}
		if idx, ok := byLine[target]; ok {
			examples[idx].Checks = append(examples[idx].Checks, c.check)
		}
	}
	return examples, nil
}

// nearestAsm returns the instruction line a check belongs to: the next one
// when checks come first, else the previous one (the next one for checks
// above the first instruction).
func nearestAsm(asmLines []int, line int, checksFirst bool) int {
	i := sort.SearchInts(asmLines, line) // first instruction after the check
	if checksFirst || i == 0 {
		if i < len(asmLines) {
			return asmLines[i]
		}
		return 0
	}
	return asmLines[i-1]
}

// describe fills Printed, Encoding and Error from a check's text.
func describe(c *Check) {
	text := atLine.ReplaceAllString(c.Text, "")
	if i := strings.Index(text, "error:"); i >= 0 {
		c.Error = strings.TrimSpace(text[i+len("error:"):])
		return
	}
	if m := encoding.FindStringSubmatch(text); m != nil {
		if enc, ok := asmtext.ParseBytes(m[1]); ok {
			c.Encoding = enc
		}
		printed, _, _ := strings.Cut(text, "encoding:")
		printed = strings.TrimSpace(printed)
		printed = strings.TrimSpace(strings.TrimSuffix(printed, ";"))
		printed = strings.TrimSpace(strings.TrimSuffix(printed, "//"))
		c.Printed = printed
		return
	}
	if strings.Contains(text, "warning:") {
		return
	}
	c.Printed = strings.TrimSpace(text)
}

// instruction returns the instruction on a line, without comments, or ""
// for blank lines, comments, directives and labels.
func instruction(line string) string {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	if i := strings.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if line == "" || line[0] == '.' || line[0] == '#' || strings.HasSuffix(line, ":") {
		return ""
	}
	c := line[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
		return ""
	}
	// "name = value" assigns a symbol; it is not an instruction.
	if f := strings.Fields(line); len(f) > 1 && f[1] == "=" {
		return ""
	}
	return line
}

// parseRun reads the llvm-mc options and FileCheck prefixes of a RUN line;
// ok is false when it does not run llvm-mc.
func parseRun(text string, line int) (Run, bool) {
	stages := strings.Split(text, "|")
	run := Run{Line: line}
	mc := false
	for _, stage := range stages {
		args := strings.Fields(stage)
		switch {
		case containsTool(args, "llvm-mc"):
			mc = true
			for i := 0; i < len(args); i++ {
				key, val, hasVal := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
				if !hasVal && i+1 < len(args) && (key == "mcpu" || key == "mattr") {
					val = args[i+1]
					i++
				}
				switch key {
				case "mcpu":
					run.MCPU = val
				case "mattr":
					run.Mattr = val
				case "disassemble":
					run.Disassemble = true
				}
			}
		case containsTool(args, "FileCheck"):
			for i := 0; i < len(args); i++ {
				key, val, hasVal := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
				if !hasVal && i+1 < len(args) && (key == "check-prefix" || key == "check-prefixes") {
					val = args[i+1]
					i++
				}
				if key == "check-prefix" || key == "check-prefixes" {
					for _, p := range strings.Split(val, ",") {
						if p = strings.TrimSpace(p); p != "" {
							run.Prefixes = append(run.Prefixes, p)
						}
					}
				}
			}
			if len(run.Prefixes) == 0 {
				run.Prefixes = []string{"CHECK"}
			}
		}
	}
	return run, mc && len(run.Prefixes) > 0
}

func containsTool(args []string, tool string) bool {
	for _, a := range args {
		if a == tool || strings.HasSuffix(a, "/"+tool) {
			return true
		}
	}
	return false
}
