package lsp_test

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// The budgets: hover p99 under 5 ms, diagnostics of a 10,000-line
// file under 200 ms, start under 300 ms, memory under 300 MB. Run with
//
//	GPUISA_LSP_DB=gpuisa.db go test ./internal/serve/lsp -run XXX -bench . -benchtime 1x

// instructionLines returns the instruction lines of LLVM's output for
// target, with the file's prologue (its .amdgcn_target).
func instructionLines(b *testing.B, target string) (prologue string, lines []string) {
	text := compileKernels(b, target)
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, ".amdgcn_target") {
			prologue = l + "\n"
		}
		if t != "" && (t[0] == 'v' || t[0] == 's' || t[0] == 'g' || t[0] == 'b' || t[0] == 'f') && strings.Contains(t, "_") && !strings.Contains(t, ":") {
			lines = append(lines, l)
		}
	}
	return prologue, lines
}

func percentile(ds []time.Duration, p float64) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[min(len(ds)-1, int(float64(len(ds))*p))]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// BenchmarkHover hovers every instruction line of a compiled gfx942 file
// ten times after one warm-up pass (the documents cached), once the server
// has read everything it reads at start; it reports p50 and p99 over the
// client's round trips.
func BenchmarkHover(b *testing.B) {
	db := realDB(b)
	prologue, lines := instructionLines(b, "gfx942")
	c := start(b, db, nil)
	// A PTX file first: its diagnostics wait for the PTX model, which the
	// server reads in the background at start; hovers are measured after.
	c.open("file:///bench/wait.ptx", "", ".version 7.0\n.target sm_80\n")
	uri := "file:///bench/hover.s"
	text := prologue + strings.Join(lines, "\n")
	c.open(uri, "", text)
	var ds []time.Duration
	slowest, slowLine := time.Duration(0), ""
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		for pass := 0; pass < 11; pass++ {
			for n, l := range strings.Split(text, "\n")[1:] {
				col := len(l) - len(strings.TrimLeft(l, " \t"))
				t0 := time.Now()
				c.hover(uri, pos(n+1, col+1))
				if d := time.Since(t0); pass > 0 {
					ds = append(ds, d)
					if d > slowest {
						slowest, slowLine = d, strings.TrimSpace(l)
					}
				}
			}
		}
	}
	b.Logf("slowest hover %v on %q", slowest, slowLine)
	b.ReportMetric(ms(percentile(ds, 0.5)), "p50-ms")
	b.ReportMetric(ms(percentile(ds, 0.99)), "p99-ms")
	b.ReportMetric(float64(len(ds)), "hovers")
}

// BenchmarkDiagnostics10k times a change to a 10,000-line AMDGPU file
// (LLVM's gfx942 output repeated, one line in fifty one of ten unknown
// mnemonics, each costing a suggestion search the first time) and to a
// 10,000-line PTX file, from didChange to publishDiagnostics.
func BenchmarkDiagnostics10k(b *testing.B) {
	db := realDB(b)
	prologue, lines := instructionLines(b, "gfx942")
	var amd strings.Builder
	amd.WriteString(prologue)
	for i := 0; i < 10000; i++ {
		if i%50 == 49 {
			fmt.Fprintf(&amd, "\tv_bogus%d_f32 v1, v2, v3\n", i%10)
			continue
		}
		amd.WriteString(lines[i%len(lines)] + "\n")
	}
	ptxBody, err := os.ReadFile("../../ptx/testdata/softmax.ptx")
	if err != nil {
		b.Fatal(err)
	}
	var stmts []string
	for _, l := range strings.Split(string(ptxBody), "\n") {
		if t := strings.TrimSpace(l); strings.HasSuffix(t, ";") && !strings.HasPrefix(t, ".") && !strings.HasPrefix(t, "//") {
			stmts = append(stmts, l)
		}
	}
	var px strings.Builder
	px.WriteString(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n.reg .f32 %f<64>;\n.reg .b32 %r<64>;\n.reg .pred %p<8>;\n.reg .b64 %rd<16>;\n")
	for i := 0; i < 10000; i++ {
		px.WriteString(stmts[i%len(stmts)] + "\n")
	}
	px.WriteString("}\n")
	c := start(b, db, nil)
	for _, f := range []struct{ name, text string }{{"big.s", amd.String()}, {"big.ptx", px.String()}} {
		uri := "file:///bench/" + f.name
		first := time.Now()
		ds := c.open(uri, "", f.text)
		cold := time.Since(first)
		var times []time.Duration
		for it := 0; it < max(b.N, 5); it++ {
			t0 := time.Now()
			ds = c.change(uri, int32(it+2), f.text+"\n// edit "+strconv.Itoa(it))
			times = append(times, time.Since(t0))
		}
		for _, d := range ds {
			if !strings.Contains(d.Message, "v_bogus") {
				b.Logf("%s: %s", f.name, messages([]protocol.Diagnostic{d}))
				break
			}
		}
		b.ReportMetric(ms(cold), f.name+"-first-ms")
		b.ReportMetric(ms(percentile(times, 0.5)), f.name+"-change-p50-ms")
		b.ReportMetric(float64(len(ds)), f.name+"-diagnostics")
	}
}

// BenchmarkStart times a server from spawn to its initialize answer, and
// to the first diagnostics of a file (the database read).
func BenchmarkStart(b *testing.B) {
	db := realDB(b)
	var init, ready []time.Duration
	for it := 0; it < max(b.N, 5); it++ {
		t0 := time.Now()
		c := start(b, db, nil)
		init = append(init, c.started)
		c.open("file:///bench/start.s", "", ".amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\nv_max_f32 v1, v2, v3\n")
		ready = append(ready, time.Since(t0))
		c.close()
	}
	b.ReportMetric(ms(percentile(init, 0.5)), "initialize-ms")
	b.ReportMetric(ms(percentile(ready, 0.5)), "first-diagnostics-ms")
}

// BenchmarkMemory reports the server's peak resident memory after it has
// opened compiled files of eight families, hovered each line, checked a
// PTX file (the PTX model loaded) and decoded machine code (one family's
// decoder built).
func BenchmarkMemory(b *testing.B) {
	db := realDB(b)
	c := start(b, db, nil)
	for _, target := range []string{"gfx942", "gfx950", "gfx90a", "gfx1100", "gfx1200", "gfx1250", "gfx1030", "gfx900"} {
		prologue, lines := instructionLines(b, target)
		uri := "file:///bench/mem-" + target + ".s"
		c.open(uri, "", prologue+strings.Join(lines, "\n"))
		for n := range lines {
			c.hover(uri, pos(n+1, 2))
		}
	}
	ptxText, _ := os.ReadFile("../../ptx/testdata/softmax.ptx")
	c.open("file:///bench/mem.ptx", "", string(ptxText))
	// One family's decoder, for the machine code in comments.
	c.open("file:///bench/mem-enc.s", "", "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx942\"\n\tv_max_f32 v1, v2, v3 ; encoding: [0x02,0x07,0x02,0x16]\n")
	if h := c.hover("file:///bench/mem-enc.s", pos(1, 40)); !strings.Contains(h, "VOP2 opcode 11") {
		b.Fatalf("machine code not decoded: %s", h)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		b.Skip("no /proc: cannot read the server's memory")
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && (f[0] == "VmHWM:" || f[0] == "VmRSS:") {
			kb, _ := strconv.Atoi(f[1])
			b.ReportMetric(float64(kb)/1024, strings.TrimSuffix(f[0], ":")+"-MB")
		}
	}
}
