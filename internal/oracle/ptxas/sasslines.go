package ptxas

import "strings"

// The listing's lines are read by hand, not with regular expressions: a
// cold build reads millions of them, and the backtracking expressions took
// 13 CPU-s of it. Each reader accepts exactly what its expression in
// sasslines_test.go matches (FuzzListingLines holds them to it).

// sectionName reads "\t.section\t.text.NAME,..." and returns NAME.
func sectionName(l string) (string, bool) {
	t := strings.TrimLeft(l, " \t\r\n\v\f")
	rest, ok := strings.CutPrefix(t, ".section")
	if !ok || rest == "" || !isSpace(rest[0]) {
		return "", false
	}
	rest = strings.TrimLeft(rest, " \t\r\n\v\f")
	rest, ok = strings.CutPrefix(rest, ".text.")
	if !ok || rest == "" || !(isLetter(rest[0]) || rest[0] == '_' || rest[0] == '$') {
		return "", false
	}
	n := 1
	for n < len(rest) && (isLetter(rest[n]) || isDigit(rest[n]) || rest[n] == '_' || rest[n] == '$') {
		n++
	}
	if n == len(rest) || rest[n] != ',' {
		return "", false
	}
	return rest[:n], true
}

// instructionLine reads "  /*0010*/  TEXT ;  /* 0x0123... */" and returns
// TEXT (without the ';') and the encoding word.
func instructionLine(l string) (text, encoding string, ok bool) {
	t := strings.TrimLeft(l, " \t\r\n\v\f")
	rest, found := strings.CutPrefix(t, "/*")
	if !found {
		return "", "", false
	}
	n := 0
	for n < len(rest) && isLowerHex(rest[n]) {
		n++
	}
	if n < 4 || !strings.HasPrefix(rest[n:], "*/") {
		return "", "", false
	}
	rest = rest[n+2:]
	if rest == "" || !isSpace(rest[0]) {
		return "", "", false
	}
	body, enc, found := trailingWord(rest)
	if !found {
		return "", "", false
	}
	body = strings.TrimRight(body, " \t\r\n\v\f")
	body = strings.TrimSuffix(body, ";")
	return strings.TrimLeft(strings.TrimRight(body, " \t\r\n\v\f"), " \t\r\n\v\f"), enc, true
}

// encodingLine reads a line that holds only "/* 0x0123... */".
func encodingLine(l string) (string, bool) {
	t := strings.TrimLeft(l, " \t\r\n\v\f")
	if !strings.HasPrefix(t, "/*") {
		return "", false
	}
	body, enc, ok := trailingWord(t)
	if !ok || body != "" {
		return "", false
	}
	return enc, true
}

// trailingWord splits s before its final "/* 0x... */" comment (spaces
// allowed inside and after it) and returns the word.
func trailingWord(s string) (before, word string, ok bool) {
	s = strings.TrimRight(s, " \t\r\n\v\f")
	body, found := strings.CutSuffix(s, "*/")
	if !found {
		return "", "", false
	}
	body = strings.TrimRight(body, " \t\r\n\v\f")
	n := len(body)
	for n > 0 && isLowerHex(body[n-1]) {
		n--
	}
	if n == len(body) || n < 2 || body[n-2:n] != "0x" {
		return "", "", false
	}
	word = body[n-2:]
	head := strings.TrimRight(body[:n-2], " \t\r\n\v\f")
	before, found = strings.CutSuffix(head, "/*")
	if !found {
		return "", "", false
	}
	return before, word, true
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
func isLowerHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isLetter(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
