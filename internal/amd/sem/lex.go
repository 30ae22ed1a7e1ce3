package sem

import (
	"fmt"
	"strings"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // S0, laneId, v_max_f32, endif (keywords are identifiers the parser knows)
	tNumber         // 1, 0x1f, 1.0F, 0x100000000ULL (the text is kept whole)
	tSized          // 32'1.0, 8'0xff, 1'1U: a literal with a bit width
	tCast           // 32'U, 64'F, 65'B, 32'I: followed by "(" in the text
	tString         // "Wait for all instructions to complete"
	tOp             // operators and punctuation
)

// token is one lexical token with where it starts (1-based line).
type token struct {
	kind tokKind
	text string
	line int
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of text"
	case tString:
		return fmt.Sprintf("%q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// maxSourceLen bounds the pseudocode one program may have: the longest in
// the guides is under 6,000 characters.
const maxSourceLen = 64 << 10

// operators, longest first so the lexer takes the longest match.
var operators = []string{
	"<<=", ">>=",
	"**", "<<", ">>", "<=", ">=", "==", "!=", "<>", "&&", "||", "+=", "-=", "*=", "/=", "|=", "&=", "^=", "+:", "=>", "++", "--",
	"+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|", "^", "?", ":", "(", ")", "[", "]", "{", "}", ",", ";", ".",
}

// lex splits src into tokens, dropping // comments. It fails on a character
// the dialect never uses.
func lex(src string) ([]token, error) { return lexMode(src, lexOptions{}) }

// lexOptions select the older guides' notation (olddialect.go): a period
// that ends a sentence ends a statement, ".." and "..." are range
// operators, hex literals may group digits with "_", and a // comment
// after code on its line ends where the next statement starts (the
// tables joined each cell's lines into one) unless toEOL.
type lexOptions struct {
	old   bool
	toEOL bool
}

func lexMode(src string, o lexOptions) ([]token, error) {
	if len(src) > maxSourceLen {
		return nil, &ParseError{1, fmt.Sprintf("pseudocode is %d bytes; at most %d", len(src), maxSourceLen)}
	}
	var toks []token
	line := 1
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			if o.old && widthLabelRe.MatchString(src[i:]) {
				// "// 32bit tmp = MEM[ADDR]; ...": the comment labels the
				// operation's width; the code follows on its line.
				i += len(widthLabelRe.FindString(src[i:]))
				continue
			}
			if o.old && !o.toEOL {
				i = oldCommentEnd(src, i, codeBefore(src, i))
				continue
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case o.old && c == '.' && (i+1 >= len(src) || src[i+1] != '.' && !isIdentStart(src[i+1]) && !isDigit(src[i+1])):
			// "D.u = S0.u." : the sentence's period ends the statement.
			toks = append(toks, token{tOp, ";", line})
			i++
			continue
		case o.old && c == '.' && i+1 < len(src) && src[i+1] == '.':
			j := i
			for j < len(src) && src[j] == '.' {
				j++
			}
			toks = append(toks, token{tOp, "..", line})
			i = j
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, &ParseError{line, "unterminated /* comment"}
			}
			line += strings.Count(src[i:i+2+end], "\n")
			i += end + 4
			continue
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				j++
			}
			if j >= len(src) || src[j] != '"' {
				return nil, &ParseError{line, "unterminated string"}
			}
			toks = append(toks, token{tString, src[i+1 : j], line})
			i = j + 1
			continue
		case isDigit(c):
			j := i
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			if o.old {
				if t, e, ok := verilogLiteral(src, i, j); ok {
					toks = append(toks, token{tSized, t, line})
					i = e
					continue
				}
			}
			if j < len(src) && src[j] == '\'' {
				// A width: 32'U( is a cast, 16'1.0 and 8'0xff are sized literals.
				k := j + 1
				if k < len(src) && strings.IndexByte("UIFB", src[k]) >= 0 && (k+1 >= len(src) || !isIdentChar(src[k+1])) {
					toks = append(toks, token{tCast, src[i : k+1], line})
					i = k + 1
					continue
				}
				neg := k < len(src) && src[k] == '-'
				if neg {
					k++
				}
				if k < len(src) && isDigit(src[k]) {
					e := scanNumber(src, k)
					toks = append(toks, token{tSized, src[i:e], line})
					i = e
					continue
				}
				return nil, &ParseError{line, fmt.Sprintf("a width %s' must be followed by a type or a number", src[i:j])}
			}
			e := scanNumber(src, i)
			if o.old {
				e = scanGrouped(src, i, e)
			}
			toks = append(toks, token{tNumber, src[i:e], line})
			i = e
			continue
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentChar(src[j]) {
				j++
			}
			toks = append(toks, token{tIdent, src[i:j], line})
			i = j
			continue
		}
		matched := false
		for _, op := range operators {
			if strings.HasPrefix(src[i:], op) {
				toks = append(toks, token{tOp, op, line})
				i += len(op)
				matched = true
				break
			}
		}
		if !matched {
			r := src[i:]
			if len(r) > 8 {
				r = r[:8]
			}
			return nil, &ParseError{line, fmt.Sprintf("unexpected character %q", r)}
		}
	}
	toks = append(toks, token{tEOF, "", line})
	return toks, nil
}

// scanNumber returns the end of the number starting at i: hex or decimal
// digits, a fraction and exponent, then letter suffixes (U, LL, ULL, F).
func scanNumber(src string, i int) int {
	j := i
	if j+1 < len(src) && src[j] == '0' && (src[j+1] == 'x' || src[j+1] == 'X') {
		j += 2
		for j < len(src) && isHex(src[j]) {
			j++
		}
	} else {
		for j < len(src) && isDigit(src[j]) {
			j++
		}
		if j+1 < len(src) && src[j] == '.' && isDigit(src[j+1]) {
			j++
			for j < len(src) && isDigit(src[j]) {
				j++
			}
		}
		if j+1 < len(src) && (src[j] == 'e' || src[j] == 'E') && (isDigit(src[j+1]) || (src[j+1] == '-' || src[j+1] == '+') && j+2 < len(src) && isDigit(src[j+2])) {
			j += 2
			for j < len(src) && isDigit(src[j]) {
				j++
			}
		}
	}
	for j < len(src) && strings.IndexByte("ULFulf", src[j]) >= 0 {
		j++
	}
	return j
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isHex(c byte) bool        { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }
