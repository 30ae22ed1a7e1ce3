// Package lazyre holds package-level regular expressions that compile on
// first use instead of at program start. A gpuisa process links every
// package, and compiling their ~140 package-level expressions at init took
// about 3 ms of a 14 ms `gpuisa decode`, whatever the command used.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled the first time it is used; its
// methods are regexp.Regexp's. A bad pattern panics at first use, as
// regexp.MustCompile would at start.
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

// New returns the expression for pattern, not yet compiled.
func New(pattern string) *Regexp { return &Regexp{pattern: pattern} }

// Re returns the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	return r.re
}

func (r *Regexp) String() string                             { return r.pattern }
func (r *Regexp) MatchString(s string) bool                  { return r.Re().MatchString(s) }
func (r *Regexp) Match(b []byte) bool                        { return r.Re().Match(b) }
func (r *Regexp) FindString(s string) string                 { return r.Re().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int             { return r.Re().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string       { return r.Re().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int     { return r.Re().FindStringSubmatchIndex(s) }
func (r *Regexp) FindAllString(s string, n int) []string     { return r.Re().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.Re().FindAllStringIndex(s, n) }
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(s, repl string) string { return r.Re().ReplaceAllString(s, repl) }
func (r *Regexp) ReplaceAllLiteralString(s, repl string) string {
	return r.Re().ReplaceAllLiteralString(s, repl)
}
func (r *Regexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	return r.Re().ReplaceAllStringFunc(s, f)
}
func (r *Regexp) Split(s string, n int) []string { return r.Re().Split(s, n) }
func (r *Regexp) SubexpNames() []string          { return r.Re().SubexpNames() }
func (r *Regexp) SubexpIndex(name string) int    { return r.Re().SubexpIndex(name) }
func (r *Regexp) NumSubexp() int                 { return r.Re().NumSubexp() }
