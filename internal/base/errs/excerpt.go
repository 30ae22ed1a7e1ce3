package errs

import "unicode/utf8"

// excerptMax bounds the bytes of the user's input an error quotes: enough
// to recognise the line, never the input again (a 50 MB line had been
// quoted whole into an error, a 4 MB paste into a page).
const excerptMax = 40

// Excerpt is the start of s an error may quote: at most excerptMax bytes,
// cut at a character boundary, with "..." when s is longer.
func Excerpt(s string) string {
	if len(s) <= excerptMax {
		return s
	}
	cut := excerptMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
