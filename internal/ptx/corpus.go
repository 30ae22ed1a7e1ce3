package ptx

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strings"
)

// declRe finds the declarations of an example block: what the statements
// after them rely on (".reg .b16 ctaMask;", ".shared .b8 buf[128];").
var declRe = lazyre.New(`(?m)^[ \t]*\.(?:reg|shared|global|local|const|param)\b[^;{}]*;`)

// elisionRe matches the documentation's "..." lines, which stand for code
// left out.
var elisionRe = lazyre.New(`(?m)^[ \t]*(?:\.\.\.|…)[ \t]*$|^[ \t]*#.*$`)

// ExampleStatements splits one documentation example block into its
// instructions. Each keeps, as its context, the declarations of the block
// that name what it uses: per name the last declaration before the
// statement (blocks often hold several examples that declare the same
// names again), else the first one after it.
func ExampleStatements(text string) []Statement {
	clean := elisionRe.ReplaceAllString(stripComments(text), "")
	type decl struct {
		text  string
		line  int
		names map[string]bool
	}
	var decls []decl
	for _, m := range declRe.FindAllStringIndex(clean, -1) {
		d := strings.TrimSpace(clean[m[0]:m[1]])
		decls = append(decls, decl{text: d, line: 1 + strings.Count(clean[:m[0]], "\n"), names: DeclaredNames([]string{d})})
	}
	stmts, _, _ := SplitStatements(clean)
	out := make([]Statement, 0, len(stmts))
	for _, st := range stmts {
		// For each name, the declaration that governs it at this line.
		chosen := map[string]int{}
		for i, d := range decls {
			for n := range d.names {
				j, ok := chosen[n]
				switch {
				case !ok:
					chosen[n] = i
				case decls[j].line > st.Line && d.line > st.Line:
					// keep the first one after the statement
				case d.line < st.Line:
					chosen[n] = i
				}
			}
		}
		var ctx []string
		used := map[int]bool{}
		for i, d := range decls {
			all := len(d.names) > 0
			for n := range d.names {
				all = all && chosen[n] == i
			}
			if all && !used[i] {
				used[i] = true
				ctx = append(ctx, d.text)
			}
		}
		out = append(out, Statement{Text: st.Text, Line: st.Line, Decls: ctx})
	}
	return out
}
