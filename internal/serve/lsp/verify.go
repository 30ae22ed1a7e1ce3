package lsp

import (
	"bytes"
	"context"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
)

// verifyDelay lets typing settle before an assembler runs.
const verifyDelay = 300 * time.Millisecond

// verifyTimeout bounds one assembler run.
const verifyTimeout = 20 * time.Second

// verifier runs llvm-mc or ptxas on a file in the background
// (gpuisa.verify) and publishes their errors beside gpuisa's own
// diagnostics; a newer version of the file cancels the older run.
type verifier struct {
	s       *server
	mu      sync.Mutex
	cancels map[string]context.CancelFunc
	ptxOnce sync.Once
	tools   *ptxas.Tools
	toolErr error
}

func newVerifier(s *server) *verifier {
	return &verifier{s: s, cancels: map[string]context.CancelFunc{}}
}

func (v *verifier) stop() {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, c := range v.cancels {
		c()
	}
}

func (v *verifier) schedule(notify glsp.NotifyFunc, d *document, c fileContext, base []protocol.Diagnostic) {
	if c.target == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), verifyTimeout+verifyDelay)
	v.mu.Lock()
	if old := v.cancels[d.uri]; old != nil {
		old()
	}
	v.cancels[d.uri] = cancel
	v.mu.Unlock()
	go func() {
		defer cancel()
		select {
		case <-time.After(verifyDelay):
		case <-ctx.Done():
			return
		}
		var found []protocol.Diagnostic
		var err error
		if d.lang == langPTX {
			found, err = v.ptxas(ctx, d, c)
		} else {
			found, err = v.llvmMC(ctx, d, c)
		}
		if ctx.Err() != nil || !v.s.current(d) {
			return
		}
		if err != nil {
			found = []protocol.Diagnostic{diag(d, 0, 0, 0, protocol.DiagnosticSeverityInformation, codeAssembler, "gpuisa.verify: "+err.Error(), nil)}
		}
		all := mergeAssembler(base, found)
		notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Version: d.publishedVersion(), Diagnostics: all})
	}()
}

// llvmMCLine is "<stdin>:3:5: error: invalid operand for instruction".
var llvmMCLine = lazyre.New(`^<stdin>:(\d+):(\d+): (error|warning): (.*)$`)

func (v *verifier) llvmMC(ctx context.Context, d *document, c fileContext) ([]protocol.Diagnostic, error) {
	mc, err := verify.FindLLVMMC()
	if err != nil {
		return nil, err
	}
	args := []string{"-triple=amdgcn-amd-amdhsa", "-mcpu=" + c.target, "-filetype=null"}
	if len(d.features) > 0 && d.target == c.target {
		args = append(args, "-mattr="+strings.Join(d.features, ","))
	}
	cmd := exec.CommandContext(ctx, mc, append(args, "-")...)
	cmd.Stdin = strings.NewReader(d.text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run() // a non-zero status is the errors it printed
	var out []protocol.Diagnostic
	for _, l := range strings.Split(stderr.String(), "\n") {
		m := llvmMCLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		n--
		if n < 0 || n >= len(d.lines) {
			continue
		}
		start := min(max(col-1, 0), len(d.lines[n].text))
		end := wordEnd(d.lines[n].text, start, len(d.lines[n].text))
		sev := protocol.DiagnosticSeverityError
		if m[3] == "warning" {
			sev = protocol.DiagnosticSeverityWarning
		}
		dg := diag(d, n, start, end, sev, codeAssembler, m[4], nil)
		src := "llvm-mc"
		dg.Source = &src
		out = append(out, dg)
	}
	return out, nil
}

// ptxasLine is "ptxas /tmp/x.ptx, line 12; error   : Feature ... requires".
var ptxasLine = lazyre.New(`^ptxas[^,]*, line (\d+); (error|warning)\s*: (.*)$`)

func (v *verifier) ptxas(ctx context.Context, d *document, c fileContext) ([]protocol.Diagnostic, error) {
	v.ptxOnce.Do(func() {
		v.tools, v.toolErr = ptxas.Find(ctx, ptxas.FindOptions{CacheDir: ptxas.DefaultCacheDir()})
	})
	if v.toolErr != nil {
		return nil, v.toolErr
	}
	tool := v.tools.PTXAS[0]
	for _, t := range v.tools.PTXAS {
		for _, tg := range t.Targets {
			if tg == c.target {
				tool = t
				goto found
			}
		}
	}
found:
	dir, err := os.MkdirTemp("", "gpuisa-lsp-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "file.ptx")
	if err := os.WriteFile(src, []byte(d.text), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, tool.Path, "-arch="+c.target, "-o", filepath.Join(dir, "file.cubin"), src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	_ = cmd.Run()
	var out []protocol.Diagnostic
	for _, l := range strings.Split(stderr.String(), "\n") {
		m := ptxasLine.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		n--
		if n < 0 || n >= len(d.lines) {
			continue
		}
		text := d.lines[n].text
		start := skipSpace(text, 0, len(text))
		sev := protocol.DiagnosticSeverityError
		if m[2] == "warning" {
			sev = protocol.DiagnosticSeverityWarning
		}
		dg := diag(d, n, start, len(text), sev, codeAssembler, m[3], nil)
		name := "ptxas " + tool.Version
		dg.Source = &name
		out = append(out, dg)
	}
	return out, nil
}

// mergeAssembler adds the assembler's diagnostics to gpuisa's own, one
// message per problem: an assembler diagnostic is left out when one
// before it says the same on the same range, or when gpuisa already
// reports an error on a range it overlaps (gpuisa's names the spelling
// the target takes; llvm-mc's "instruction not supported on this GPU",
// worded otherwise, read as a second, contradicting problem).
func mergeAssembler(base, found []protocol.Diagnostic) []protocol.Diagnostic {
	all := append([]protocol.Diagnostic{}, base...)
	type said struct {
		r   protocol.Range
		msg string
	}
	seen := map[said]bool{}
	for _, b := range base {
		seen[said{b.Range, b.Message}] = true
	}
next:
	for _, f := range found {
		if seen[said{f.Range, f.Message}] {
			continue
		}
		for _, b := range base {
			if b.Severity != nil && *b.Severity == protocol.DiagnosticSeverityError && overlaps(b.Range, f.Range) {
				continue next
			}
		}
		seen[said{f.Range, f.Message}] = true
		all = append(all, f)
	}
	return all
}

// overlaps reports whether two ranges share a position (a point range
// shares its one position).
func overlaps(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(p, q protocol.Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}
