package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
)

// Marker tests: each testdata/*.txtar holds source files whose comments
// carry markers, checked against the real server (`gpuisa lsp`):
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
//
// The markers run over the real database (TestMarkers) and over the
// fixture database (TestMarkersFixture): the sample reference of
// internal/serve/web/webfake written into a temporary database, which a
// fresh checkout has. The sample holds a handful of instructions, so the
// archives say which markers need the real database's facts:
//
//	//@real("why") @hover(...) ...   the markers after @real on its line
//	realdb FILE: why                 (in the archive's comment) every marker of FILE
//
// In the fixture run each such marker is a subtest skipped with its why.
func TestMarkers(t *testing.T) {
	runMarkerArchives(t, realDB(t), false)
}

// TestMarkersFixture runs the markers over the sample reference; it needs
// neither upstream documents nor a built database.
func TestMarkersFixture(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sample.db")
	if err := store.Write(context.Background(), path, webfake.Build()); err != nil {
		t.Fatalf("writing the sample database: %v", err)
	}
	runMarkerArchives(t, path, true)
}

func runMarkerArchives(t *testing.T, db string, fixture bool) {
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
			comment, files := parseTxtar(string(raw))
			realFiles := realDBFiles(t, comment, files)
			for _, file := range files {
				t.Run(file.name, func(t *testing.T) {
					run := &markerRun{db: db, name: file.name, text: file.text}
					if fixture {
						run.fixture, run.realFile = true, realFiles[file.name]
					}
					run.run(t)
				})
			}
		})
	}
}

// realDBFiles reads the "realdb FILE: why" lines of an archive's comment.
func realDBFiles(t *testing.T, comment string, files []txtarFile) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(comment, "\n") {
		rest, ok := strings.CutPrefix(l, "realdb ")
		if !ok {
			continue
		}
		name, why, ok := strings.Cut(rest, ": ")
		if !ok || strings.TrimSpace(why) == "" {
			t.Fatalf("%q: want \"realdb FILE: why\"", l)
		}
		if !slices.ContainsFunc(files, func(f txtarFile) bool { return f.name == name }) {
			t.Fatalf("%q: the archive has no file %s", l, name)
		}
		out[name] = why
	}
	return out
}

type txtarFile struct{ name, text string }

// parseTxtar reads the txtar format: the comment, then files, each
// started by a "-- name --" line.
func parseTxtar(s string) (comment string, files []txtarFile) {
	header := regexp.MustCompile(`^-- (.+) --$`)
	for _, l := range strings.SplitAfter(s, "\n") {
		if m := header.FindStringSubmatch(strings.TrimRight(l, "\n")); m != nil {
			files = append(files, txtarFile{name: m[1]})
			continue
		}
		if len(files) > 0 {
			files[len(files)-1].text += l
		} else {
			comment += l
		}
	}
	return comment, files
}

type marker struct {
	name string
	args []string
	line int
	real string // why it needs the real database (an earlier @real on its line)
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
		real := ""
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
			if name == "real" {
				if len(args) != 1 || args[0] == "" {
					t.Fatalf("line %d: @real wants its why", n+1)
				}
				real = args[0]
				continue
			}
			ms = append(ms, marker{name: name, args: args, line: n, real: real})
		}
	}
	return ms, code
}

// markerRun checks one file's markers against a server on db; in the
// fixture run, the markers that need the real database are skipped.
type markerRun struct {
	db, name, text string
	fixture        bool
	realFile       string // why every marker of the file needs the real database

	c       *client
	uri     string
	code    []string
	diags   []protocol.Diagnostic
	symbols []string
}

func (r *markerRun) run(t *testing.T) {
	var initOptions any
	if strings.HasPrefix(r.text, "//settings ") {
		first, _, _ := strings.Cut(r.text, "\n")
		if err := json.Unmarshal([]byte(strings.TrimPrefix(first, "//settings ")), &initOptions); err != nil {
			t.Fatal(err)
		}
	}
	ms, code := parseMarkers(t, r.text)
	if len(ms) == 0 {
		t.Fatal("no markers")
	}
	if r.realFile != "" {
		t.Skipf("needs the real database: %s", r.realFile)
	}
	r.code = code
	r.c = start(t, r.db, initOptions)
	r.uri = "file:///work/" + r.name
	r.diags = r.c.open(r.uri, "", r.text)
	for _, m := range ms {
		where := fmt.Sprintf("%s:%d @%s%q", r.name, m.line+1, m.name, m.args)
		t.Run(fmt.Sprintf("%d_%s", m.line+1, m.name), func(sub *testing.T) {
			if r.fixture && m.real != "" {
				sub.Skipf("%s needs the real database: %s", where, m.real)
			}
			// The client's failures are the marker's.
			r.c.t = sub
			defer func() { r.c.t = t }()
			r.check(sub, m, where)
		})
	}
}

// at is where a marker's word stands on its line: on its second character
// (a hover or definition request), or right after it (completion).
func (r *markerRun) at(t *testing.T, m marker, word string, after bool) protocol.Position {
	t.Helper()
	i := strings.Index(r.code[m.line], word)
	if i < 0 {
		t.Fatalf("line %d: %q not in %q", m.line+1, word, r.code[m.line])
	}
	if after {
		return pos(m.line, i+len(word))
	}
	return pos(m.line, i+min(1, len(word)-1))
}

// onLine are the file's diagnostics starting on line n.
func (r *markerRun) onLine(n int) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range r.diags {
		if int(d.Range.Start.Line) == n {
			out = append(out, d)
		}
	}
	return out
}

func (r *markerRun) check(t *testing.T, m marker, where string) {
	c, uri := r.c, r.uri
	switch m.name {
	case "hover":
		h := c.hover(uri, r.at(t, m, m.args[0], false))
		if h == "" {
			t.Errorf("%s: no hover", where)
		}
		for _, want := range m.args[1:] {
			if !strings.Contains(h, want) {
				t.Errorf("%s: hover lacks %q:\n%s", where, want, h)
			}
		}
	case "nohover":
		if h := c.hover(uri, r.at(t, m, m.args[0], false)); h != "" {
			t.Errorf("%s: unexpected hover:\n%s", where, h)
		}
	case "diag":
		p := r.at(t, m, m.args[0], false)
		found := false
		for _, d := range r.onLine(m.line) {
			if d.Range.Start.Character <= p.Character && p.Character <= d.Range.End.Character {
				ok := true
				for _, want := range m.args[1:] {
					ok = ok && strings.Contains(d.Message, want)
				}
				found = found || ok
			}
		}
		if !found {
			t.Errorf("%s: no such diagnostic; the line has %s", where, messages(r.onLine(m.line)))
		}
	case "nodiag":
		if ds := r.onLine(m.line); len(ds) > 0 {
			t.Errorf("%s: unexpected diagnostics %s", where, messages(ds))
		}
	case "complete", "nocomplete":
		items := c.completion(uri, r.at(t, m, m.args[0], true))
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
		items := c.completion(uri, r.at(t, m, m.args[0], true))
		n, _ := strconv.Atoi(m.args[2])
		found := false
		for i, it := range items {
			found = found || i < n && it.Label == m.args[1]
		}
		if !found {
			t.Errorf("%s: not among the first %d: %s", where, n, firstLabels(items, n))
		}
	case "def":
		locs := c.definition(uri, r.at(t, m, m.args[0], false))
		if len(locs) != 1 {
			t.Errorf("%s: %d locations", where, len(locs))
			return
		}
		l := locs[0]
		line := r.code[l.Range.Start.Line]
		if got := line[min(int(l.Range.Start.Character), len(line)):]; !strings.HasPrefix(got, m.args[1]) {
			t.Errorf("%s: lands at line %d %q", where, l.Range.Start.Line+1, got)
		}
	case "refs":
		want, _ := strconv.Atoi(m.args[1])
		if locs := c.references(uri, r.at(t, m, m.args[0], false)); len(locs) != want {
			t.Errorf("%s: %d references, want %d", where, len(locs), want)
		}
	case "sig":
		sh := c.signature(uri, r.at(t, m, m.args[0], true))
		if sh == nil || len(sh.Signatures) == 0 {
			t.Errorf("%s: no signature help", where)
			return
		}
		want, _ := strconv.Atoi(m.args[2])
		if !strings.Contains(sh.Signatures[0].Label, m.args[1]) || sh.ActiveParameter == nil || int(*sh.ActiveParameter) != want {
			t.Errorf("%s: signature %q active %v", where, sh.Signatures[0].Label, sh.ActiveParameter)
		}
	case "action":
		p := r.at(t, m, m.args[0], false)
		acts := c.codeActions(uri, protocol.Range{Start: p, End: p}, r.onLine(m.line))
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
		if r.symbols == nil {
			r.symbols = symbolNames(c.symbols(uri))
		}
		if !containsString(r.symbols, m.args[0]) {
			t.Errorf("%s: symbols %q", where, r.symbols)
		}
	default:
		t.Fatalf("%s: unknown marker", where)
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
