package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/serve/explain"
	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
	"github.com/gpuisa/gpuisa/internal/store"
)

// fixtureDB writes the web tests' sample reference (a few instructions of
// a few families) to a database file: enough for decode and explain to
// load a family's tables without the upstream sources.
func fixtureDB(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fixture.db")
	if err := store.Write(context.Background(), p, webfake.Build()); err != nil {
		t.Fatal(err)
	}
	return p
}

// runStdin executes gpuisa in-process with stdin.
func runStdin(stdin []byte, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = Main(args, bytes.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// TestDecodeStdinStreamsAsByPath: raw machine code over
// listing.StreamAbove on standard input is listed a piece at a time, as
// the same file by path is (it had been read whole: 100 MB took 7 GB),
// with the same listing and exit status.
func TestDecodeStdinStreamsAsByPath(t *testing.T) {
	db := fixtureDB(t)
	code := bytes.Repeat([]byte{0xc1, 0x04, 0x0a, 0x16, 0x80, 0x02, 0x02, 0x7e}, listing.StreamAbove/8+512)
	file := filepath.Join(t.TempDir(), "code.bin")
	if err := os.WriteFile(file, code, 0o644); err != nil {
		t.Fatal(err)
	}
	byPath, errPath, codePath := runStdin(nil, "decode", "--db", db, "--arch", "cdna4", file)
	byStdin, errStdin, codeStdin := runStdin(code, "decode", "--db", db, "--arch", "cdna4", "-")
	if !strings.Contains(firstLines(byStdin, 1), "listed in pieces") {
		t.Errorf("stdin: %q (stderr %q); want the streamed listing's header", firstLines(byStdin, 2), errStdin)
	}
	if byStdin != byPath || codeStdin != codePath {
		t.Errorf("stdin: %d, %d bytes (stderr %q); by path: %d, %d bytes (stderr %q); want the same listing",
			codeStdin, len(byStdin), errStdin, codePath, len(byPath), errPath)
	}
	small, _, _ := runStdin(code[:8], "decode", "--db", db, "--arch", "cdna4", "-")
	if !strings.Contains(small, "v_max_f32") || strings.Contains(small, "listed in pieces") {
		t.Errorf("8 bytes on stdin: %q; want a listing read whole", small)
	}
}

// TestExplainRefusesOverTheCap: explain counts instructions, hex words
// and raw code alike, and refuses more than explain.MaxInstructions
// before building the listing, in one short line that does not repeat
// the input (exit 2); at the cap it explains.
func TestExplainRefusesOverTheCap(t *testing.T) {
	db := fixtureDB(t)
	word := []byte("0x160a04c1\n")
	for _, c := range []struct {
		name  string
		input []byte
	}{
		{"hex words", bytes.Repeat(word, explain.MaxInstructions+1)},
		{"raw code", bytes.Repeat([]byte{0xc1, 0x04, 0x0a, 0x16}, explain.MaxInstructions+1)},
	} {
		out, stderr, code := runStdin(c.input, "explain", "--db", db, "--arch", "cdna4", "-")
		want := fmt.Sprintf("at most %d", explain.MaxInstructions)
		if code != 2 || out != "" || !strings.Contains(stderr, want) || len(stderr) > 300 || strings.Contains(stderr, "160a04c1") {
			t.Errorf("%s: exit %d, %d bytes out, stderr %.300q; want exit 2 and one short line saying %q", c.name, code, len(out), stderr, want)
		}
	}
	out, stderr, code := runStdin(bytes.Repeat(word, 3), "explain", "--db", db, "--arch", "cdna4", "-")
	if code != 0 || strings.Count(out, "v_max_f32") < 3 {
		t.Errorf("3 words: exit %d, stderr %q, out %.400q; want them explained", code, stderr, out)
	}
}

// TestDecodeHexTextStreams: a hex dump over listing.StreamAbove is listed
// a piece at a time from its bytes, as raw code is (60 MB of hex words
// had taken 1.9 GB read whole), every word decoded as written; its lines
// of 32 bytes put a line's end exactly at the 64 KiB the format is judged
// by, where the text had been taken for raw bytes and its characters
// decoded as machine code.
func TestDecodeHexTextStreams(t *testing.T) {
	db := fixtureDB(t)
	line := "0x160a04c1 0x160a04c1 ;pad.....\n"
	if len(line) != 32 {
		t.Fatalf("line of %d bytes; the test needs 32", len(line))
	}
	lines := listing.StreamAbove/len(line) + 1024
	file := filepath.Join(t.TempDir(), "code.hex")
	if err := os.WriteFile(file, []byte(strings.Repeat(line, lines)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runStdin(nil, "decode", "--db", db, "--arch", "cdna4", file)
	if code != 0 || !strings.Contains(firstLines(out, 1), "listed in pieces") {
		t.Fatalf("exit %d, stderr %q, %q; want the streamed listing", code, stderr, firstLines(out, 2))
	}
	if n := strings.Count(out, "v_max_f32_e32 v5, -1, v2"); n != 2*lines || strings.Contains(out, "invalid") {
		t.Errorf("%d of %d words decoded as v_max_f32 (invalid ones: %v)", n, 2*lines, strings.Contains(out, "invalid"))
	}
	mixed := strings.Repeat(line, lines) + "v_max_f32 v5, -1, v2\n"
	if err := os.WriteFile(file, []byte(mixed), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runStdin(nil, "decode", "--db", db, "--arch", "cdna4", file)
	if code != 0 || strings.Contains(firstLines(out, 1), "listed in pieces") || strings.Count(out, "v_max_f32_e32 v5, -1, v2") != 2*lines+1 {
		t.Errorf("hex words then an instruction: exit %d, %q; want it read whole, every line listed", code, firstLines(out, 1))
	}
}
