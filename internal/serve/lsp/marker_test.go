package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Marker tests: each testdata/*.txtar holds source files whose comments
// carry markers, checked against the real server on the real database:
//
//	//@hover("word", "text", ...)     hover on word (on this line) contains each text
//	//@nohover("word")                no hover there
//	//@diag("word", "text", ...)      a diagnostic covers word and says each text
//	//@nodiag()                       no diagnostic on this line
//	//@complete("after", "item", ...) completion right after "after" offers each item
//	//@nocomplete("after", "item")    ... and not this one
//	//@top("after", "item", n)        ... and item is among the first n
//	//@def("word", "label")           definition of word is where "label" stands
//	//@refs("word", n)                n references of word (with its definition)
//	//@sig("after", "label", n)       signature help after "after": label contains "label", parameter n active
//	//@action("word", "title", "new") a code action on word titled "title" writes "new"
//	//@symbol("name")                 the document symbols include name (at any depth)
//
// A file's first line may be "//settings {json}" for initializationOptions.
func TestMarkers(t *testing.T) {
	db := realDB(t)
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no marker files")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, file := range parseTxtar(string(raw)) {
				t.Run(file.name, func(t *testing.T) { runMarkers(t, db, file.name, file.text) })
			}
		})
	}
}

type txtarFile struct{ name, text string }

// parseTxtar reads the txtar format: "-- name --" lines start files.
func parseTxtar(s string) []txtarFile {
	var out []txtarFile
	header := regexp.MustCompile(`^-- (.+) --$`)
	for _, l := range strings.SplitAfter(s, "\n") {
		if m := header.FindStringSubmatch(strings.TrimRight(l, "\n")); m != nil {
			out = append(out, txtarFile{name: m[1]})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].text += l
		}
	}
	return out
}

type marker struct {
	name string
	args []string
	line int
}

var markerRe = regexp.MustCompile(`@(\w+)\(`)

// parseMarkers finds the markers in "//@..." comments; the code of a line
// is what stands before its first marker comment.
func parseMarkers(t *testing.T, text string) ([]marker, []string) {
	var ms []marker
	lines := strings.Split(text, "\n")
	code := make([]string, len(lines))
	for n, l := range lines {
		i := strings.Index(l, "//@")
		if i < 0 {
			code[n] = l
			continue
		}
		code[n] = l[:i]
		rest := l[i+2:]
		for {
			m := markerRe.FindStringSubmatchIndex(rest)
			if m == nil {
				break
			}
			name := rest[m[2]:m[3]]
			rest = rest[m[1]:]
			var args []string
			for {
				rest = strings.TrimLeft(rest, " ,")
				if strings.HasPrefix(rest, ")") {
					rest = rest[1:]
					break
				}
				if strings.HasPrefix(rest, `"`) {
					q, err := strconv.QuotedPrefix(rest)
					if err != nil {
						t.Fatalf("line %d: %v", n+1, err)
					}
					s, _ := strconv.Unquote(q)
					args = append(args, s)
					rest = rest[len(q):]
					continue
				}
				j := strings.IndexAny(rest, ",)")
				if j < 0 {
					t.Fatalf("line %d: unterminated marker", n+1)
				}
				args = append(args, strings.TrimSpace(rest[:j]))
				rest = rest[j:]
			}
			ms = append(ms, marker{name: name, args: args, line: n})
		}
	}
	return ms, code
}

func runMarkers(t *testing.T, db, name, text string) {
	var initOptions any
	if strings.HasPrefix(text, "//settings ") {
		first, _, _ := strings.Cut(text, "\n")
		if err := json.Unmarshal([]byte(strings.TrimPrefix(first, "//settings ")), &initOptions); err != nil {
			t.Fatal(err)
		}
	}
	ms, code := parseMarkers(t, text)
	c := start(t, db, initOptions)
	uri := "file:///work/" + name
	diags := c.open(uri, "", text)
	at := func(m marker, word string, after bool) protocol.Position {
		t.Helper()
		i := strings.Index(code[m.line], word)
		if i < 0 {
			t.Fatalf("line %d: %q not in %q", m.line+1, word, code[m.line])
		}
		if after {
			return pos(m.line, i+len(word))
		}
		return pos(m.line, i+min(1, len(word)-1))
	}
	onLine := func(n int) []protocol.Diagnostic {
		var out []protocol.Diagnostic
		for _, d := range diags {
			if int(d.Range.Start.Line) == n {
				out = append(out, d)
			}
		}
		return out
	}
	var symbols []string
	for _, m := range ms {
		where := fmt.Sprintf("%s:%d @%s%q", name, m.line+1, m.name, m.args)
		switch m.name {
		case "hover":
			h := c.hover(uri, at(m, m.args[0], false))
			if h == "" {
				t.Errorf("%s: no hover", where)
			}
			for _, want := range m.args[1:] {
				if !strings.Contains(h, want) {
					t.Errorf("%s: hover lacks %q:\n%s", where, want, h)
				}
			}
		case "nohover":
			if h := c.hover(uri, at(m, m.args[0], false)); h != "" {
				t.Errorf("%s: unexpected hover:\n%s", where, h)
			}
		case "diag":
			p := at(m, m.args[0], false)
			found := false
			for _, d := range onLine(m.line) {
				if d.Range.Start.Character <= p.Character && p.Character <= d.Range.End.Character {
					ok := true
					for _, want := range m.args[1:] {
						ok = ok && strings.Contains(d.Message, want)
					}
					found = found || ok
				}
			}
			if !found {
				t.Errorf("%s: no such diagnostic; the line has %s", where, messages(onLine(m.line)))
			}
		case "nodiag":
			if ds := onLine(m.line); len(ds) > 0 {
				t.Errorf("%s: unexpected diagnostics %s", where, messages(ds))
			}
		case "complete", "nocomplete":
			items := c.completion(uri, at(m, m.args[0], true))
			labels := map[string]bool{}
			for _, it := range items {
				labels[it.Label] = true
			}
			for _, want := range m.args[1:] {
				if labels[want] != (m.name == "complete") {
					t.Errorf("%s: %q offered = %v (%d items: %s)", where, want, labels[want], len(items), firstLabels(items, 20))
				}
			}
		case "top":
			items := c.completion(uri, at(m, m.args[0], true))
			n, _ := strconv.Atoi(m.args[2])
			found := false
			for i, it := range items {
				found = found || i < n && it.Label == m.args[1]
			}
			if !found {
				t.Errorf("%s: not among the first %d: %s", where, n, firstLabels(items, n))
			}
		case "def":
			locs := c.definition(uri, at(m, m.args[0], false))
			if len(locs) != 1 {
				t.Errorf("%s: %d locations", where, len(locs))
				continue
			}
			l := locs[0]
			line := code[l.Range.Start.Line]
			if got := line[min(int(l.Range.Start.Character), len(line)):]; !strings.HasPrefix(got, m.args[1]) {
				t.Errorf("%s: lands at line %d %q", where, l.Range.Start.Line+1, got)
			}
		case "refs":
			want, _ := strconv.Atoi(m.args[1])
			if locs := c.references(uri, at(m, m.args[0], false)); len(locs) != want {
				t.Errorf("%s: %d references, want %d", where, len(locs), want)
			}
		case "sig":
			sh := c.signature(uri, at(m, m.args[0], true))
			if sh == nil || len(sh.Signatures) == 0 {
				t.Errorf("%s: no signature help", where)
				continue
			}
			want, _ := strconv.Atoi(m.args[2])
			if !strings.Contains(sh.Signatures[0].Label, m.args[1]) || sh.ActiveParameter == nil || int(*sh.ActiveParameter) != want {
				t.Errorf("%s: signature %q active %v", where, sh.Signatures[0].Label, sh.ActiveParameter)
			}
		case "action":
			p := at(m, m.args[0], false)
			acts := c.codeActions(uri, protocol.Range{Start: p, End: p}, onLine(m.line))
			found := false
			for _, a := range acts {
				if !strings.Contains(a.Title, m.args[1]) || a.Edit == nil {
					continue
				}
				for _, edits := range a.Edit.Changes {
					for _, e := range edits {
						found = found || e.NewText == m.args[2]
					}
				}
			}
			if !found {
				var titles []string
				for _, a := range acts {
					titles = append(titles, a.Title)
				}
				t.Errorf("%s: actions %q", where, titles)
			}
		case "symbol":
			if symbols == nil {
				symbols = symbolNames(c.symbols(uri))
			}
			if !containsString(symbols, m.args[0]) {
				t.Errorf("%s: symbols %q", where, symbols)
			}
		default:
			t.Fatalf("%s: unknown marker", where)
		}
	}
}

func messages(ds []protocol.Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("[%d:%d-%d %q]", d.Range.Start.Line+1, d.Range.Start.Character, d.Range.End.Character, d.Message))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ")
}

func firstLabels(items []protocol.CompletionItem, n int) string {
	var out []string
	for i, it := range items {
		if i == n {
			break
		}
		out = append(out, it.Label)
	}
	return strings.Join(out, " ")
}

func symbolNames(syms []protocol.DocumentSymbol) []string {
	var out []string
	for _, s := range syms {
		out = append(out, s.Name)
		out = append(out, symbolNames(s.Children)...)
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
