package ptx

import (
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Statement is one instruction found in PTX source text, or one to
// assemble (internal/oracle/ptxharness) with what its context declares.
type Statement struct {
	Text string // "max.NaN.f32 d, a, b;" (a guard and labels are allowed)
	Line int
	// Decls are declarations from the statement's context (an example
	// block's ".reg .b16 ctaMask;"); names they declare are not declared
	// again by the harness.
	Decls []string `json:",omitempty"`
	// Types overrides the register type the harness declares for a name
	// (".b64"), from a search after ptxas rejected the first typing.
	Types map[string]string `json:",omitempty"`
	// OperandTypes overrides the register type of every register of one
	// operand (by index), from the same search.
	OperandTypes map[int]string `json:",omitempty"`
}

// FileReport is the verdict on a whole PTX file.
type FileReport struct {
	File         string   `json:"file"`
	Version      string   `json:"version,omitempty"` // the file's own .version
	Target       string   `json:"target,omitempty"`  // the file's own .target (its sm_ entry)
	NeedsVersion string   `json:"needs_version,omitempty"`
	NeedsTarget  string   `json:"needs_target,omitempty"`
	VersionLines []int    `json:"version_lines,omitempty"` // lines needing NeedsVersion
	TargetLines  []int    `json:"target_lines,omitempty"`  // lines needing NeedsTarget
	Warnings     []string `json:"warnings,omitempty"`
	Valid        int      `json:"valid"`
	Invalid      int      `json:"invalid"`
	// Unjudged counts statements the documents do not know in a file newer
	// than they are (DocsVersion).
	Unjudged    int    `json:"unjudged,omitempty"`
	DocsVersion string `json:"docs_version,omitempty"`
	// Header lists what is wrong with the file's .version and .target
	// together (".target sm_90 needs PTX ISA 7.8; ..."): ptxas refuses
	// the whole file.
	Header  []string `json:"header,omitempty"`
	Results []Result `json:"results"`
}

var (
	versionDirRe = lazyre.New(`^\s*\.version\s+(\d+\.\d+)`)
	targetDirRe  = lazyre.New(`^\s*\.target\s+([^/\n]*)`)
	labelOnlyRe  = lazyre.New(`^\s*[A-Za-z_$%][\w$]*\s*$`)
)

// SplitStatements finds the instructions in PTX text: comments, directives,
// labels and block braces are dropped; a statement may span lines.
func SplitStatements(src string) (stmts []Statement, version, target string) {
	src = stripComments(src)
	var (
		cur        strings.Builder
		curLine    int
		line       = 1
		depth      int // braces inside the current instruction (vector operands)
		inString   bool
		hasContent bool // cur holds something other than blanks
	)
	emit := func() {
		s := strings.TrimSpace(cur.String())
		cur.Reset()
		depth, hasContent = 0, false
		s = StripLabels(s)
		if s == "" || s[0] == '.' {
			return // a directive (".reg", ".visible .entry f(...)")
		}
		stmts = append(stmts, Statement{Text: s, Line: curLine})
	}
	lineStart := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		if i == lineStart && !hasContent && lineStartsWithDot(src[i:]) {
			// .version / .target end at the line's end, without ';'.
			rest := src[i:]
			if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
				rest = rest[:nl]
			}
			if m := versionDirRe.FindStringSubmatch(rest); m != nil {
				version = m[1]
				i += len(rest) - 1
				continue
			}
			if m := targetDirRe.FindStringSubmatch(rest); m != nil {
				target = strings.TrimSpace(m[1])
				i += len(rest) - 1
				continue
			}
		}
		switch {
		case c == '\n':
			line++
			lineStart = i + 1
			cur.WriteByte(' ')
			continue
		case c == '"':
			inString = !inString
		case inString:
		case c == ';':
			emit()
			continue
		case c == ':' && depth == 0 && (i+1 >= len(src) || src[i+1] != ':') && labelOnlyRe.MatchString(cur.String()):
			// A label ends: the statement after it starts on its own
			// line, which may be a later one.
			cur.Reset()
			hasContent = false
			continue
		case c == '{':
			t := strings.TrimSpace(cur.String())
			if depth > 0 || strings.HasSuffix(t, "=") {
				// A variable's initializer (".global .b8 s[3] = {1, 2, 3};"),
				// nested ones included ({{1, 2}, {3, 4}}),
				// not a block: it belongs to the declaration it ends.
				depth++
				break
			}
			if t == "" || t[0] == '.' || strings.HasSuffix(t, ":") || strings.HasSuffix(t, ")") {
				emit()
				continue
			}
			depth++
		case c == '}':
			if depth == 0 {
				emit()
				continue
			}
			depth--
		}
		if !hasContent && c != ' ' && c != '\t' && c != '\r' {
			curLine, hasContent = line, true
		}
		cur.WriteByte(c)
	}
	emit()
	return stmts, version, target
}

func lineStartsWithDot(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r':
			continue
		case '.':
			return true
		}
		return false
	}
	return false
}

// stripComments blanks // and /* */ comments, keeping newlines so line
// numbers stay right.
func stripComments(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
			}
		case s[i] == '/' && i+1 < len(s) && s[i+1] == '*':
			i += 2
			for i < len(s) && !(s[i] == '*' && i+1 < len(s) && s[i+1] == '/') {
				if s[i] == '\n' {
					b.WriteByte('\n')
				}
				i++
			}
			i++
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// CheckSource checks every instruction of a PTX file's text where the
// file's own .version and .target say it is assembled.
func (c *Checker) CheckSource(name, src string) FileReport {
	return c.CheckFile(name, src, "")
}

// CheckFile is CheckSource with target ("sm_75", from --target) in place
// of the file's .target when it is not "".
func (c *Checker) CheckFile(name, src, target string) FileReport {
	stmts, version, fileTarget := SplitStatements(src)
	rep := FileReport{File: name, Version: version, Target: firstSMTarget(fileTarget), DocsVersion: c.docs, Results: make([]Result, 0, len(stmts))}
	ctx := Context{Version: version, Target: rep.Target}
	if target != "" {
		ctx.Target, ctx.TargetFrom = target, "--target"
		rep.Target = target
	}
	if p := c.headerProblem(version, firstSMTarget(fileTarget)); p != "" {
		rep.Header = append(rep.Header, p)
	}
	if version != "" && c.docs != "" && ptxorder.CompareVersions(version, c.docs) > 0 {
		rep.Warnings = append(rep.Warnings, "the file's .version "+version+" is newer than the PTX ISA "+c.docs+" the documents describe: statements they do not know are not judged, the others are judged by the documents and ptxas's recorded verdicts")
	}
	regs := readRegDecls(src)
	funcs := readFuncSigs(src)
	for _, st := range stmts {
		r, tokens, operands := c.checkParsed(st.Text)
		r.Line = st.Line
		c.checkRegisters(&r, regs, tokens, operands)
		checkCall(&r, funcs, tokens, operands)
		checkGlobalOnly(&r, tokens)
		checkFragments(&r, tokens, operands)
		c.checkDeclared(&r, regs, st.Line, operands)
		if g := guardOf(st.Text); g != "" {
			c.checkDeclared(&r, regs, st.Line, []string{g})
		}
		if r.Valid {
			// The file's needs are what its statements need, whatever
			// the context says of them.
			need := r
			if ctx.Target != "" && len(r.Alternatives) > 1 {
				c.judge(&need, Context{Target: ctx.Target})
			}
			raiseNeed(&rep.NeedsVersion, &rep.VersionLines, need.PTXVersion, st.Line, ptxorder.CompareVersions)
			raiseNeed(&rep.NeedsTarget, &rep.TargetLines, need.MinTarget, st.Line, ptxorder.CompareTargets)
		}
		c.judge(&r, ctx)
		rep.Results = append(rep.Results, r)
		switch {
		case r.Valid:
			rep.Valid++
		case r.Unjudged:
			rep.Unjudged++
		default:
			rep.Invalid++
		}
	}
	c.checkDirectives(&rep, src, ctx)
	if rep.Version != "" && rep.NeedsVersion != "" && ptxorder.CompareVersions(rep.Version, rep.NeedsVersion) < 0 {
		rep.Warnings = append(rep.Warnings, "the file's .version "+rep.Version+" is lower than the PTX ISA "+rep.NeedsVersion+" its instructions need (lines "+joinInts(rep.VersionLines)+")")
	}
	if rep.Target != "" && rep.NeedsTarget != "" && !TargetMeets(rep.Target, rep.NeedsTarget) {
		rep.Warnings = append(rep.Warnings, "the target "+rep.Target+" is lower than the "+rep.NeedsTarget+" its instructions need (lines "+joinInts(rep.TargetLines)+")")
	}
	return rep
}

// raiseNeed folds one statement's need (a PTX ISA version or a target;
// "" for none) into the file's highest need so far and the lines that
// need exactly that.
func raiseNeed(need *string, lines *[]int, stmt string, line int, compare func(a, b string) int) {
	if stmt == "" {
		return
	}
	switch compare(stmt, *need) {
	case 1:
		*need, *lines = stmt, []int{line}
	case 0:
		*lines = append(*lines, line)
	}
}

func firstSMTarget(t string) string {
	for _, p := range strings.Split(t, ",") {
		p = strings.TrimSpace(p)
		if strings.HasPrefix(p, "sm_") {
			return p
		}
	}
	return ""
}

func joinInts(a []int) string {
	const most = 10
	parts := make([]string, 0, len(a))
	for i, n := range a {
		if i == most {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, strconv.Itoa(n))
	}
	return strings.Join(parts, ", ")
}
