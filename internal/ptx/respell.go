package ptx

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/source/ptxdoc"
)

// This file repairs a syntax block's misspelt token from the section's
// own examples before the forms are read. NVIDIA's documents sometimes
// spell a choice one letter off in the syntax block (".shape = {.m8n84,
// ...}" where the notes and examples write .m8n8k4; ".f8x2type.fp16x2"
// where the examples write .f16x2): no statement can be written in that
// spelling, the notes about the real spelling attach to no form, and
// ptxas accepts the examples' spelling. A token is taken for a
// misspelling when it is written by this section's syntax alone (no other
// section's syntax, none of its own prose or examples), and exactly one
// token its examples write is one edit away, and the two are not choices
// of one list ("{.f4e, .b4e}", "{.r, .g, .b, .a}", the shapes of one
// .shape: siblings, each a word of its own); every repair is listed among
// the build's problems, so the reader sees what was read otherwise.

var (
	dottedTokenRe = regexp.MustCompile(`\.([A-Za-z_][\w:]*)`)
	choiceListRe  = regexp.MustCompile(`\{[^{}]*\}`)
)

// siblings reports whether a and b are choices of one brace list of the
// syntax blocks.
func siblings(blocks []ptxdoc.CodeBlock, a, b string) bool {
	for _, cb := range blocks {
		for _, l := range choiceListRe.FindAllString(cb.Text, -1) {
			toks := map[string]bool{}
			dottedTokens(l, toks)
			if toks[a] && toks[b] {
				return true
			}
		}
	}
	return false
}

func dottedTokens(s string, into map[string]bool) {
	for _, m := range dottedTokenRe.FindAllStringSubmatch(s, -1) {
		into[m[1]] = true
	}
}

// respellSyntax returns the sections with their syntax blocks' misspelt
// tokens replaced by the examples' spelling, and the note saying so for
// each repair, by section file. The sections given are not changed.
func respellSyntax(sections []ptxdoc.Section) ([]ptxdoc.Section, map[string][]string) {
	writers := map[string]int{} // token -> sections whose syntax writes it
	syntaxOf := make([]map[string]bool, len(sections))
	for i, sec := range sections {
		syntaxOf[i] = map[string]bool{}
		for _, cb := range sec.Syntax {
			dottedTokens(cb.Text, syntaxOf[i])
		}
		for t := range syntaxOf[i] {
			writers[t]++
		}
	}
	out := sections
	notes := map[string][]string{}
	for i, sec := range sections {
		if len(sec.Examples) == 0 || sec.Kind != ptxdoc.KindInstruction {
			continue
		}
		examples, prose := map[string]bool{}, map[string]bool{}
		for _, cb := range sec.Examples {
			dottedTokens(cb.Text, examples)
		}
		dottedTokens(strings.Join([]string{sec.Intro, sec.Description, sec.Semantics, sec.Notes, sec.PTXISANotes, sec.TargetISANotes}, "\n"), prose)
		repl := map[string]string{}
		for t := range syntaxOf[i] {
			if writers[t] != 1 || examples[t] || prose[t] {
				continue
			}
			var near []string
			for e := range examples {
				if oneEdit(t, e) && !siblings(sec.Syntax, t, e) {
					near = append(near, e)
				}
			}
			if len(near) == 1 {
				repl[t] = near[0]
			}
		}
		if len(repl) == 0 {
			continue
		}
		if &out[0] == &sections[0] {
			out = append([]ptxdoc.Section(nil), sections...)
		}
		s := sec
		s.Syntax = append([]ptxdoc.CodeBlock(nil), sec.Syntax...)
		names := make([]string, 0, len(repl))
		for t := range repl {
			names = append(names, t)
		}
		sort.Strings(names)
		for k := range s.Syntax {
			s.Syntax[k].Text = dottedTokenRe.ReplaceAllStringFunc(s.Syntax[k].Text, func(m string) string {
				if r, ok := repl[m[1:]]; ok {
					return "." + r
				}
				return m
			})
		}
		for _, t := range names {
			line := sec.Line
			for _, cb := range sec.Syntax {
				if strings.Contains(cb.Text, "."+t) {
					line = cb.Line
					break
				}
			}
			notes[sec.File] = append(notes[sec.File], fmt.Sprintf("The syntax block (%s:%d) writes `.%s`, which no example, note or other section writes; gpuisa reads it as `.%s`, the spelling of the section's examples.", sec.File, line, t, repl[t]))
		}
		out[i] = s
	}
	return out, notes
}

// oneEdit reports whether a and b differ by exactly one inserted, deleted
// or replaced byte.
func oneEdit(a, b string) bool {
	if a == b || len(a)-len(b) > 1 || len(b)-len(a) > 1 {
		return false
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:]
	}
	return a[i+1:] == b[i:]
}
