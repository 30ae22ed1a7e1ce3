package testenv

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// Row is one line of a test table: its line number and its fields.
type Row struct {
	Line   int
	Fields []string
}

// ReadTable reads a test table from testdata: lines of fields separated by
// sep ("\t", "|"), each field trimmed of spaces; blank lines and lines
// starting with # are skipped. A line without exactly n fields fails the
// test naming file:line.
func ReadTable(tb testing.TB, path, sep string, n int) []Row {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows []Row
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		l := sc.Text()
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		p := strings.Split(l, sep)
		if len(p) != n {
			tb.Fatalf("%s:%d: want %d fields separated by %q, have %d", path, line, n, sep, len(p))
		}
		for i := range p {
			p[i] = strings.TrimSpace(p[i])
		}
		rows = append(rows, Row{Line: line, Fields: p})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return rows
}
