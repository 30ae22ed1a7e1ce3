package lsp

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"iter"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Languages the server understands.
const (
	langAMD = "amdgpu"
	langPTX = "ptx"
)

// maxDocument bounds the text the server parses: assembly files are rarely
// more than a few megabytes; anything larger is answered with nothing.
const maxDocument = 32 << 20

// languageOf picks the language from the client's language id, else the
// file's extension.
func languageOf(uri, languageID string) string {
	switch strings.ToLower(languageID) {
	case "ptx":
		return langPTX
	case "amdgpu", "amdgcn", "gcn", "asm", "amdgpu-asm", "amdgcn-asm":
		return langAMD
	}
	switch strings.ToLower(path.Ext(uri)) {
	case ".ptx":
		return langPTX
	case ".s", ".asm", ".gcn", ".amdgcn":
		return langAMD
	}
	return ""
}

// document is one open file: its text split into lines and each line's
// tokens, parsed once per change.
type document struct {
	uri     string
	lang    string
	version int32
	text    string
	lines   []line
	// labels maps a label to the line that defines it.
	labels map[string]int
	// regs maps a PTX register (or register prefix of a parameterised
	// declaration, "%f<4>") to its declaration.
	regs []regDecl
	// target is what the file itself says: .amdgcn_target's gfx target,
	// or PTX's .target; comment is a "gpuisa: target=" comment's.
	target, comment string
	// ptxVersion is the PTX file's .version.
	ptxVersion string
	// features are .amdgcn_target's target features, as llvm-mc's -mattr
	// spells them ("+sramecc", "-xnack").
	features []string
	// ptxOpen is set while parsing when a PTX instruction goes on past
	// its line's end.
	ptxOpen bool
	// scratch is where parse builds a line's tokens.
	scratch []token
	// lazy is set for a file too large to keep its tokens (lazyTokens).
	lazy bool
}

// publishedVersion is the version diagnostics are for.
func (d *document) publishedVersion() *protocol.UInteger {
	if d.version < 0 {
		return nil
	}
	v := protocol.UInteger(d.version)
	return &v
}

// line is one source line and what it holds.
type line struct {
	text   string
	tokens []token // nil in a lazy document: see tokensOf
	state  uint8   // where the line starts (inBlockComment, ...)
}

// token kinds.
const (
	tokLabelDef  = iota // "loop:" (the name without the colon)
	tokDirective        // ".amdhsa_kernel", ".reg"
	tokMnemonic         // "v_max_f32", "max.NaN.f32"
	tokOperand          // one comma-separated operand, whole
	tokWord             // a word inside operands: a register, label, modifier
	tokComment          // from ';' or '//' to the line's end
)

// token is a span of one line, in bytes.
// A file holds millions of them: the small fields are small (48 bytes
// a token instead of 64).
type token struct {
	text       string
	start, end int
	// operand is the index of the operand a word belongs to (0 is the
	// first operand), -1 outside operands.
	operand int32
	// stmt numbers the instruction the token belongs to on its line
	// (VOPD's "X :: Y" and PTX's "a; b;" hold two).
	stmt int32
	kind int8
}

type regDecl struct {
	name  string // "%f" for "%f<4>", else the whole name
	count int    // n of "<n>", 0 for a plain name
	line  int
	start int
	end   int
	typ   string // ".f32"
}

// parse builds a document from text.
func parse(uri, lang, text string, version int32) *document {
	return parseText(uri, lang, text, version, len(text) > lazyTokens)
}

// lazyTokens: a file larger than this keeps no tokens; each line's are
// scanned again when asked for (tokensOf). Kept tokens take 15-20 times
// the text they cover: 0.6 GB for a 31 MB file, held while it is open.
const lazyTokens = 4 << 20

// Where a line starts: inside a block comment, kernel metadata, or a
// PTX statement a line above left open.
const (
	inBlockComment = 1 << iota
	inMetadata
	inPTXStatement
)

func parseText(uri, lang, text string, version int32, lazy bool) *document {
	d := &document{uri: uri, lang: lang, version: version, text: text, labels: map[string]int{}, lazy: lazy}
	if len(text) > maxDocument {
		return d
	}
	raw := strings.Split(text, "\n")
	d.lines = make([]line, len(raw))
	var state uint8
	for i, s := range raw {
		s = strings.TrimSuffix(s, "\r")
		d.lines[i].text, d.lines[i].state = s, state
		var toks []token
		toks, state = d.scanLine(s, i, state)
		// Tokens are built in one buffer and kept at their exact size:
		// growing each line's slice cost more than the tokens.
		if len(toks) > 0 && !lazy {
			d.lines[i].tokens = slices.Clone(toks)
		}
		d.scratch = toks[:0]
	}
	d.scratch = nil
	return d
}

// scanLine tokenises line n, which starts in state, into d.scratch; it
// returns the tokens and the state the next line starts in.
func (d *document) scanLine(s string, n int, state uint8) ([]token, uint8) {
	if d.lang == langAMD {
		if t := strings.TrimSpace(s); state&inMetadata != 0 || metadataStart(t) {
			if metadataEnd(t) {
				return nil, state &^ inMetadata
			}
			return nil, state | inMetadata
		}
	}
	inBlock := state&inBlockComment != 0
	d.ptxOpen = state&inPTXStatement != 0
	var toks []token
	if d.lang == langPTX {
		toks, inBlock = d.scanPTX(s, n, inBlock)
	} else {
		toks, inBlock = d.scanAMD(s, n, inBlock)
	}
	next := state &^ (inBlockComment | inPTXStatement)
	if inBlock {
		next |= inBlockComment
	}
	if d.ptxOpen {
		next |= inPTXStatement
	}
	return toks, next
}

// tokensOf is line n's tokens.
func (d *document) tokensOf(n int) []token {
	if !d.lazy {
		return d.lines[n].tokens
	}
	// Scan again on a copy: scanning notes labels, targets and
	// declarations, which parse has noted already, and requests on one
	// document run concurrently.
	tmp := document{uri: d.uri, lang: d.lang, labels: map[string]int{}, target: d.target, comment: d.comment, ptxVersion: d.ptxVersion}
	toks, _ := tmp.scanLine(d.lines[n].text, n, d.lines[n].state)
	return toks
}

var (
	amdTargetRe     = lazyre.New(`\.amdgcn_target\s+"[^"]*?(gfx[0-9a-z]+)((?::[a-z0-9-]+[+-])*)"`)
	commentTargetRe = lazyre.New(`(?:gpuisa:\s*target\s*=\s*|-mcpu=)(gfx[0-9a-z]+|sm_[0-9]+[af]?)`)
	ptxVersionRe    = lazyre.New(`^\s*\.version\s+(\d+\.\d+)`)
	ptxTargetRe     = lazyre.New(`^\s*\.target\s+([^/\n;]*)`)
)

// The scanners below match by hand what these expressions say; they run
// on every line of every version of a file, where the regexp package
// took a third of the time of parsing a 31 MB file.
//
//	labelDefLen: ^[A-Za-z_.$@][\w.$@]*:
//	wordEndAt:   %?[A-Za-z_.$@][\w.$@]*(?::[\w.]+)?|-?\d[\w.]*
//
// TestScannersMatchTheirExpressions holds them to those expressions.

func isIdentStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '.' || c == '$' || c == '@'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isWordDot is [\w.].
func isWordDot(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || isDigit(c) || c == '_' || c == '.'
}

func isIdentChar(c byte) bool { return isWordDot(c) || c == '$' || c == '@' }

// labelDefLen is the length of the "name:" s starts with, 0 for none.
func labelDefLen(s string) int {
	if s == "" || !isIdentStart(s[0]) {
		return 0
	}
	j := 1
	for j < len(s) && isIdentChar(s[j]) {
		j++
	}
	if j < len(s) && s[j] == ':' {
		return j + 1
	}
	return 0
}

// wordEndAt is the end of the word that starts at s[i], -1 for none.
func wordEndAt(s string, i int) int {
	j := i
	if s[j] == '%' {
		j++
	}
	if j < len(s) && isIdentStart(s[j]) {
		j++
		for j < len(s) && isIdentChar(s[j]) {
			j++
		}
		if j+1 < len(s) && s[j] == ':' && isWordDot(s[j+1]) {
			j += 2
			for j < len(s) && isWordDot(s[j]) {
				j++
			}
		}
		return j
	}
	j = i
	if s[j] == '-' {
		j++
	}
	if j < len(s) && isDigit(s[j]) {
		j++
		for j < len(s) && isWordDot(s[j]) {
			j++
		}
		return j
	}
	return -1
}

// words yields the start and end of each word in s[a:b], left to right.
func words(s string, a, b int, yield func(start, end int)) {
	w := s[:b]
	for i := a; i < b; {
		if e := wordEndAt(w, i); e > i {
			yield(i, e)
			i = e
		} else {
			i++
		}
	}
}

// metadataStart and metadataEnd bound the YAML documents a code object
// carries (kernel metadata), which are not instructions.
func metadataStart(t string) bool {
	return strings.HasPrefix(t, ".amdgpu_metadata") || strings.HasPrefix(t, ".amd_amdgpu_hsa_metadata") || strings.HasPrefix(t, ".amd_amdgpu_pal_metadata")
}

func metadataEnd(t string) bool {
	return strings.HasPrefix(t, ".end_amdgpu_metadata") || strings.HasPrefix(t, ".end_amd_amdgpu_hsa_metadata") || strings.HasPrefix(t, ".end_amd_amdgpu_pal_metadata")
}

// codeEnd finds where a line's code ends (a comment starts): ';' and
// '//' in AMD assembly, '//' and '/*' in PTX. It returns the end of code
// and whether a block comment is left open.
func codeEnd(s string, lang string, inBlock bool) (start, end int, open bool) {
	if inBlock {
		k := strings.Index(s, "*/")
		if k < 0 {
			return len(s), len(s), true
		}
		start = k + 2
	}
	inString := false
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			inString = !inString
		case inString:
		case c == ';' && lang == langAMD:
			return start, i, false
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			return start, i, false
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			k := strings.Index(s[i+2:], "*/")
			if k < 0 {
				return start, i, true
			}
			// A comment inside the line: code goes on after it only in
			// the rare "a /* x */ b"; treat the rest as code.
			return start, i, false
		}
	}
	return start, len(s), false
}

func (d *document) noteComment(s string) {
	if d.comment == "" {
		if m := commentTargetRe.FindStringSubmatch(s); m != nil {
			d.comment = m[1]
		}
	}
}

// scanComment finds where the code of a line of lang ends (start and end
// of the code, open when a block comment runs on) and returns the line's
// tokens so far: its comment, if any, which it notes.
func (d *document) scanComment(s, lang string, inBlock bool) (start, end int, open bool, toks []token) {
	start, end, open = codeEnd(s, lang, inBlock)
	toks = d.scratch[:0]
	if end < len(s) {
		d.noteComment(s[end:])
		toks = append(toks, token{kind: tokComment, start: end, end: len(s), text: s[end:], operand: -1})
	}
	return start, end, open, toks
}

// scanAMD tokenises one line of AMDGPU assembly.
func (d *document) scanAMD(s string, n int, inBlock bool) ([]token, bool) {
	start, end, open, toks := d.scanComment(s, langAMD, inBlock)
	i := skipSpace(s, start, end)
	for i < end {
		m := labelDefLen(s[i:end])
		if m == 0 {
			break
		}
		name := s[i : i+m-1]
		toks = append(toks, token{kind: tokLabelDef, start: i, end: i + m - 1, text: name, operand: -1})
		if _, dup := d.labels[name]; !dup {
			d.labels[name] = n
		}
		i = skipSpace(s, i+m, end)
	}
	if i >= end {
		return toks, open
	}
	if s[i] == '.' {
		j := wordEnd(s, i, end)
		toks = append(toks, token{kind: tokDirective, start: i, end: j, text: s[i:j], operand: -1})
		if d.target == "" {
			if m := amdTargetRe.FindStringSubmatch(s[i:end]); m != nil {
				d.target = m[1]
				// ":sramecc+:xnack-" are the features llvm-mc must be
				// given to accept the directive.
				for _, f := range strings.Split(m[2], ":") {
					if n := len(f); n > 1 {
						d.features = append(d.features, f[n-1:]+f[:n-1])
					}
				}
			}
		}
		return toks, open
	}
	// VOPD: "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5".
	stmt := 0
	for _, part := range splitDual(s, i, end) {
		toks = instructionTokens(toks, s, part[0], part[1], stmt, false)
		stmt++
	}
	return toks, open
}

// splitDual splits a line's code at VOPD's "::" separator.
func splitDual(s string, start, end int) [][2]int {
	var out [][2]int
	for {
		k := strings.Index(s[start:end], "::")
		if k < 0 || !strings.HasPrefix(strings.TrimSpace(s[start+k+2:end]), "v_dual_") {
			return append(out, [2]int{start, end})
		}
		out = append(out, [2]int{start, start + k})
		start = skipSpace(s, start+k+2, end)
	}
}

// instructionTokens appends the tokens of "mnemonic op, op, op
// modifiers" in s[start:end] to toks.
func instructionTokens(toks []token, s string, start, end, stmt int, ptx bool) []token {
	i := skipSpace(s, start, end)
	if i >= end {
		return toks
	}
	j := i
	for j < end && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	toks = append(toks, token{kind: tokMnemonic, start: i, end: j, text: s[i:j], operand: -1, stmt: int32(stmt)})
	op := 0
	k := skipSpace(s, j, end)
	opStart := k
	flush := func(e int) {
		a, b := opStart, e
		for a < b && (s[a] == ' ' || s[a] == '\t') {
			a++
		}
		for b > a && (s[b-1] == ' ' || s[b-1] == '\t') {
			b--
		}
		if a < b {
			toks = append(toks, token{kind: tokOperand, start: a, end: b, text: s[a:b], operand: int32(op), stmt: int32(stmt)})
			words(s, a, b, func(ws, we int) {
				toks = append(toks, token{kind: tokWord, start: ws, end: we, text: s[ws:we], operand: int32(op), stmt: int32(stmt)})
			})
		}
	}
	for comma := range operandCommas(s, k, end) {
		flush(comma)
		op++
		opStart = comma + 1
	}
	flush(end)
	return toks
}

// operandCommas yields the offsets of the commas in s[from:to] outside
// brackets: the ones that separate operands.
func operandCommas(s string, from, to int) iter.Seq[int] {
	return func(yield func(int) bool) {
		depth := 0
		for k := from; k < to; k++ {
			switch s[k] {
			case '[', '(', '{':
				depth++
			case ']', ')', '}':
				depth--
			case ',':
				if depth <= 0 && !yield(k) {
					return
				}
			}
		}
	}
}

// scanPTX tokenises one line of PTX.
func (d *document) scanPTX(s string, n int, inBlock bool) ([]token, bool) {
	start, end, open, toks := d.scanComment(s, langPTX, inBlock)
	code := s[:end]
	if m := ptxVersionRe.FindStringSubmatch(code); m != nil && d.ptxVersion == "" {
		d.ptxVersion = m[1]
	}
	if m := ptxTargetRe.FindStringSubmatch(code); m != nil && d.target == "" {
		for _, p := range strings.Split(m[1], ",") {
			if p = strings.TrimSpace(p); strings.HasPrefix(p, "sm_") {
				d.target = p
				break
			}
		}
	}
	// Statements end at ';'; braces open and close blocks. A statement
	// the previous line left open goes on here: its words are operands.
	stmt := 0
	i := start
	if d.ptxOpen && !continuesStatement(s[skipSpace(s, i, end):end]) {
		d.ptxOpen = false
	}
	if d.ptxOpen {
		j := strings.IndexByte(s[i:end], ';')
		if j < 0 {
			j = end - i
		} else {
			d.ptxOpen = false
		}
		words(s, i, i+j, func(ws, we int) {
			toks = append(toks, token{kind: tokWord, start: ws, end: we, text: s[ws:we], operand: -1, stmt: -1})
		})
		i += j + 1
	}
	for i < end {
		i = skipSpace(s, i, end)
		if i >= end {
			break
		}
		if s[i] == '{' || s[i] == '}' {
			i++
			continue
		}
		j := i
		depth := 0
		for j < end && !(s[j] == ';' && depth == 0) {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
			}
			if depth < 0 {
				break
			}
			j++
		}
		st := i
		for st < j {
			m := labelDefLen(s[st:j])
			if m == 0 || strings.HasPrefix(s[st:j], ".") {
				break
			}
			name := s[st : st+m-1]
			toks = append(toks, token{kind: tokLabelDef, start: st, end: st + m - 1, text: name, operand: -1, stmt: int32(stmt)})
			if _, dup := d.labels[name]; !dup {
				d.labels[name] = n
			}
			st = skipSpace(s, st+m, j)
		}
		switch {
		case st >= j:
		case s[st] == '.':
			e := wordEnd(s, st, j)
			toks = append(toks, token{kind: tokDirective, start: st, end: e, text: s[st:e], operand: -1, stmt: int32(stmt)})
			d.noteDecl(s, st, j, n)
		case s[st] == '@':
			// Guard predicate: "@%p1 bra L;" or "@!p ...".
			g := st
			for g < j && s[g] != ' ' && s[g] != '\t' {
				g++
			}
			ws := st + 1
			if ws < g && s[ws] == '!' {
				ws++
			}
			toks = append(toks, token{kind: tokWord, start: ws, end: g, text: s[ws:g], operand: -1, stmt: int32(stmt)})
			toks = instructionTokens(toks, s, g, j, stmt, true)
		default:
			toks = instructionTokens(toks, s, st, j, stmt, true)
		}
		// An instruction without its ';' on this line continues on the next.
		d.ptxOpen = j >= end && st < j && s[st] != '.'
		stmt++
		i = j + 1
	}
	return toks, open
}

// continuesStatement tells a line that goes on with an open statement's
// operands ("%f1, %f2;", "[%rd1];", "a, b;") from one that starts its own
// (a mnemonic and a space, "ret;"): while typing, the line above is
// often unfinished.
func continuesStatement(code string) bool {
	if code == "" {
		return false
	}
	if strings.ContainsRune("%[{-+0123456789", rune(code[0])) {
		return true
	}
	first := code
	if k := strings.IndexAny(code, " \t"); k >= 0 {
		first = code[:k]
	}
	return strings.HasSuffix(first, ",")
}

var regDeclRe = regexp.MustCompile(`^\.reg\s+((?:\.\w+\s+)*)(.*)$`)
var regNameRe = regexp.MustCompile(`(%?[A-Za-z_$][\w$]*)(?:<(\d+)>)?`)

// noteDecl records the names a ".reg" directive declares.
func (d *document) noteDecl(s string, start, end, n int) {
	m := regDeclRe.FindStringSubmatchIndex(s[start:end])
	if m == nil {
		return
	}
	typ := strings.TrimSpace(s[start+m[2] : start+m[3]])
	namesAt := start + m[4]
	for _, part := range splitCommas(s, namesAt, end) {
		mm := regNameRe.FindStringSubmatchIndex(s[part[0]:part[1]])
		if mm == nil {
			continue
		}
		r := regDecl{name: s[part[0]+mm[2] : part[0]+mm[3]], line: n, start: part[0] + mm[0], end: part[0] + mm[1], typ: typ}
		if mm[4] >= 0 {
			r.count = atoi(s[part[0]+mm[4] : part[0]+mm[5]])
		}
		d.regs = append(d.regs, r)
	}
}

// register finds the declaration of a PTX register: "%f3" is declared by
// "%f<4>" or by "%f3" itself.
func (d *document) register(name string) (regDecl, bool) {
	for _, r := range d.regs {
		if r.count == 0 && r.name == name {
			return r, true
		}
	}
	for _, r := range d.regs {
		if r.count > 0 && strings.HasPrefix(name, r.name) {
			if k, ok := number(name[len(r.name):]); ok && k < r.count {
				return r, true
			}
		}
	}
	return regDecl{}, false
}

func splitCommas(s string, start, end int) [][2]int {
	var out [][2]int
	a := start
	for i := start; i <= end; i++ {
		if i == end || s[i] == ',' {
			b := i
			x := skipSpace(s, a, b)
			if x < b {
				out = append(out, [2]int{x, b})
			}
			a = i + 1
		}
	}
	return out
}

func skipSpace(s string, i, end int) int {
	for i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

func wordEnd(s string, i, end int) int {
	for i < end && s[i] != ' ' && s[i] != '\t' && s[i] != ',' && s[i] != ';' && s[i] != '(' {
		i++
	}
	return i
}

func number(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func atoi(s string) int { n, _ := number(s); return n }

// tokenAt returns the innermost token at byte column col of line n.
func (d *document) tokenAt(n, col int) (token, bool) {
	if n < 0 || n >= len(d.lines) {
		return token{}, false
	}
	var best token
	found := false
	for _, t := range d.tokensOf(n) {
		if col < t.start || col > t.end {
			continue
		}
		// The smallest token wins; a word over the operand it fills.
		if !found || t.end-t.start < best.end-best.start || t.end-t.start == best.end-best.start && t.kind == tokWord {
			best, found = t, true
		}
	}
	return best, found
}

// statement returns the tokens of the instruction statement of line n that
// holds column col (or ends before it), with its mnemonic first.
func (d *document) statement(n, col int) []token {
	if n < 0 || n >= len(d.lines) {
		return nil
	}
	stmt := -1
	for _, t := range d.tokensOf(n) {
		if t.kind == tokMnemonic && t.start <= col {
			stmt = int(t.stmt)
		}
	}
	if stmt < 0 {
		return nil
	}
	var out []token
	for _, t := range d.tokensOf(n) {
		if int(t.stmt) == stmt && t.kind != tokComment && t.kind != tokLabelDef {
			out = append(out, t)
		}
	}
	for len(out) > 0 && out[0].kind != tokMnemonic {
		out = out[1:]
	}
	return out
}

// byteCol converts an LSP character offset (UTF-16 code units) on line n to
// a byte column.
func (d *document) byteCol(n int, char uint32) int {
	if n < 0 || n >= len(d.lines) {
		return 0
	}
	s := d.lines[n].text
	units := uint32(0)
	for i, r := range s {
		if units >= char {
			return i
		}
		units += uint32(len(utf16.Encode([]rune{r})))
	}
	return len(s)
}

// utf16Col converts a byte column on line n to UTF-16 code units.
func (d *document) utf16Col(n, col int) uint32 {
	if n < 0 || n >= len(d.lines) {
		return 0
	}
	s := d.lines[n].text
	if col > len(s) {
		col = len(s)
	}
	units := uint32(0)
	for i := 0; i < col; {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		i += size
	}
	return units
}
