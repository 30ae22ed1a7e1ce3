package ptx

import (
	"sort"
	"strconv"
	"strings"
)

// This file is the rule ptxas applies before any other to an operand: a
// register must be declared where it is used ("Unknown symbol '%f9'").
// Registers are declared per function (a ".reg" inside its body, an
// inline-PTX block's "{ .reg .pred p; ... }" included); a ".reg" outside
// every function is seen by all of them.

// regScope is one function body: the lines it spans and the registers it
// declares.
type regScope struct {
	start, end int            // lines of its opening and closing brace
	ranges     map[string]int // "%r" -> 17 for "%r<17>"
	names      map[string]bool
}

func newRegScope(start int) *regScope {
	return &regScope{start: start, end: -1, ranges: map[string]int{}, names: map[string]bool{}}
}

// declare records one ".reg" declaration's names (m as regDeclRe finds
// them: vector prefix, type, names).
func (s *regScope) declare(names string) {
	for _, n := range strings.Split(names, ",") {
		n = strings.TrimSpace(n)
		if k := strings.IndexByte(n, '<'); k > 0 && strings.HasSuffix(n, ">") {
			if cnt, err := strconv.Atoi(n[k+1 : len(n)-1]); err == nil {
				s.ranges[n[:k]] = max(cnt, s.ranges[n[:k]])
			}
			continue
		}
		if n != "" {
			s.names[n] = true
		}
	}
}

// has reports whether the scope declares the register.
func (s *regScope) has(name string) bool {
	if s.names[name] {
		return true
	}
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || i == 0 {
		return false
	}
	cnt, ok := s.ranges[name[:i]]
	if !ok {
		return false
	}
	// "%r<17>" declares %r0 ... %r16 (ptxas reads %r03 as %r3).
	n, err := strconv.Atoi(name[i:])
	return err == nil && n < cnt
}

// scopeTracker follows a file's top-level braces line by line.
type scopeTracker struct {
	global    *regScope // declarations outside every function
	scopes    []*regScope
	depth     int
	inComment bool // inside /* ... */
	// open are the blocks inside a function body the line is in (an
	// inline-PTX "{ .reg .f32 r; ... }"), innermost last; blocks the
	// closed ones that type registers of their own.
	open, blocks []*typedBlock
}

// typedBlock is a block inside a function body and the registers it
// declares with their types: its names are its own (nvcc's half
// intrinsics declare "f" .b16 in one block and .b32 in the next), so
// they type the statements between its braces only.
type typedBlock struct {
	start, end int
	types      map[string]string
}

// line reads one source line (number n): its braces and its ".reg"
// declarations, wherever on the line they stand.
func (t *scopeTracker) line(n int, text string) {
	code := t.code(text)
	for i := 0; i < len(code); i++ {
		switch code[i] {
		case '"':
			if j := strings.IndexByte(code[i+1:], '"'); j >= 0 {
				i += j + 1
			}
		case '{':
			if t.depth == 0 && !opensBlock(code[:i]) {
				// A vector operand of a statement outside every function
				// ("{%fd1, %fd2}" of a lone instruction): no scope.
				if j := strings.IndexByte(code[i:], '}'); j >= 0 {
					i += j
				}
				continue
			}
			if t.depth == 0 {
				t.scopes = append(t.scopes, newRegScope(n))
			} else {
				t.open = append(t.open, &typedBlock{start: n, end: -1})
			}
			t.depth++
		case '}':
			if t.depth > 0 {
				t.depth--
				if t.depth == 0 {
					t.scopes[len(t.scopes)-1].end = n
				} else if k := len(t.open) - 1; k >= 0 {
					if b := t.open[k]; len(b.types) > 0 {
						b.end = n
						t.blocks = append(t.blocks, b)
					}
					t.open = t.open[:k]
				}
			}
		case '.':
			if !strings.HasPrefix(code[i:], ".reg") || i > 0 && !isDeclBoundary(code[i-1]) {
				continue
			}
			m := regDeclRe.FindStringSubmatch(code[i:])
			if m == nil {
				continue
			}
			s := t.global
			if t.depth > 0 {
				s = t.scopes[len(t.scopes)-1]
			}
			s.declare(m[3])
			if len(t.open) > 0 && m[1] == "" {
				b := t.open[len(t.open)-1]
				if b.types == nil {
					b.types = map[string]string{}
				}
				for _, name := range strings.Split(m[3], ",") {
					b.types[strings.TrimSpace(name)] = "." + m[2]
				}
			}
		}
	}
}

// opensBlock reports whether a '{' after before (the line so far) opens a
// block, as SplitStatements reads it: at a line's start, after a
// directive's header, a label or a parameter list.
func opensBlock(before string) bool {
	if k := strings.LastIndexAny(before, ";}"); k >= 0 {
		before = before[k+1:]
	}
	t := strings.TrimSpace(before)
	return t == "" || t[0] == '.' || strings.HasSuffix(t, ":") || strings.HasSuffix(t, ")")
}

func isDeclBoundary(c byte) bool {
	return c == ' ' || c == '\t' || c == '{' || c == ';'
}

// code is a line without its comments (a /* */ one may span lines).
func (t *scopeTracker) code(text string) string {
	if !t.inComment && !strings.Contains(text, "/") {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		switch {
		case t.inComment:
			if text[i] == '*' && i+1 < len(text) && text[i+1] == '/' {
				t.inComment = false
				i++
			}
		case text[i] == '/' && i+1 < len(text) && text[i+1] == '/':
			return b.String()
		case text[i] == '/' && i+1 < len(text) && text[i+1] == '*':
			t.inComment = true
			i++
		default:
			b.WriteByte(text[i])
		}
	}
	return b.String()
}

// scopeAt is the function body holding line n, nil outside every one.
func (d *regDecls) scopeAt(n int) *regScope {
	i := sort.Search(len(d.scopes), func(i int) bool { return d.scopes[i].start > n }) - 1
	if i < 0 {
		return nil
	}
	s := d.scopes[i]
	if s.end >= 0 && n > s.end {
		return nil
	}
	return s
}

// checkDeclared makes a valid statement at line n invalid where an
// operand names a register its function does not declare: neither a
// special register, nor declared in the function or outside every
// function, nor a variable or parameter of the file. A statement outside
// every function (a lone instruction) is not judged by this rule.
func (c *Checker) checkDeclared(r *Result, d *regDecls, n int, operands []string) {
	if !r.Valid {
		return
	}
	s := d.scopeAt(n)
	if s == nil {
		return
	}
	for _, op := range operands {
		for _, name := range percentNames(op) {
			if c.sregs.lookup(name) != nil {
				continue
			}
			base, _, _ := strings.Cut(name, ".") // "%v1.x": a vector register's element
			if c.sregs.lookup(base) != nil || s.has(base) || d.global.has(base) || d.spaces[base] != "" || d.labels[base] {
				continue
			}
			r.Valid, r.Rule = false, "undeclared"
			r.Reason = "Unknown symbol '" + base + "': no .reg declares it in this function"
			return
		}
	}
}

// guardOf is a statement's guard predicate ("@!%p1 bra L;" -> "!%p1"),
// "" when it has none.
func guardOf(text string) string {
	text = StripLabels(strings.TrimSpace(text))
	if !strings.HasPrefix(text, "@") {
		return ""
	}
	if sp := strings.IndexAny(text, " \t"); sp > 0 {
		return text[1:sp]
	}
	return ""
}

// percentNames lists the %-names an operand writes ("[%rd1+8]" %rd1,
// "{%r1, %r2}" both, "%p1|%p2" both, "%tid.x" with its element).
func percentNames(op string) []string {
	var out []string
	for i := 0; i < len(op); i++ {
		if op[i] != '%' || i+1 >= len(op) || !isIdentStart(op[i+1]) && op[i+1] != '$' {
			continue
		}
		j := i + 1
		for j < len(op) && (isIdentChar(op[j]) || op[j] == '.' && j+1 < len(op) && isIdentStart(op[j+1])) {
			j++
		}
		out = append(out, op[i:j])
		i = j - 1
	}
	return out
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
