package listing_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkWholeProcess measures gpuisa against LLVM's tools as whole
// processes, side by side on the same inputs in one run (each pair of runs
// interleaved, so a busy machine slows both alike), and reports medians,
// the ratio and peak RSS:
//
//   - words: 200,000 instruction words (llc-22 output for gfx942, repeated)
//     as llvm-mc byte lists, gpuisa decode --arch cdna3 vs llvm-mc-22
//     --disassemble;
//   - object: a compiled kernel code object, gpuisa decode vs
//     llvm-objdump-22 -d;
//   - word: one word, gpuisa decode end to end (the target is 30 ms);
//   - encode: a 10,000-line file of distinct instructions both assemble,
//     gpuisa encode --show-encoding vs llvm-mc-22 -show-encoding.
//
// It needs $GPUISA_DB (a database built with gpuisa build), llc-22,
// llvm-mc-22 and llvm-objdump-22; GPUISA_BENCH_RUNS sets the runs per tool
// (default 11); GPUISA_BENCH_INPUTS=DIR keeps the inputs there. Run it with:
//
//	GPUISA_DB=/tmp/gpuisa.db go test ./internal/amd/listing -run XXX -bench WholeProcess -benchtime 1x
func BenchmarkWholeProcess(b *testing.B) {
	db := os.Getenv("GPUISA_DB")
	if db == "" {
		b.Skip("set GPUISA_DB to a database built with `gpuisa build`")
	}
	for _, tool := range []string{"llc-22", "llvm-mc-22", "llvm-objdump-22"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s not on PATH", tool)
		}
	}
	runs := 11
	if n, err := strconv.Atoi(os.Getenv("GPUISA_BENCH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	dir := b.TempDir()
	if keep := os.Getenv("GPUISA_BENCH_INPUTS"); keep != "" { // keep the inputs, to profile with
		if err := os.MkdirAll(keep, 0o755); err != nil {
			b.Fatal(err)
		}
		dir = keep
	}
	gpuisa := filepath.Join(dir, "gpuisa")
	if out, err := exec.Command("go", "build", "-o", gpuisa, "../../../cmd/gpuisa").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v %s", err, out)
	}
	env := append(os.Environ(), "GPUISA_DB="+db)
	in := prepareInputs(b, gpuisa, env, dir)
	cases := []struct {
		name       string
		ours, ref  []string
		refName    string
		target     float64 // the ratio asked for (0: an absolute target)
		absoluteMS float64
	}{
		{"words", []string{gpuisa, "decode", "--arch", "cdna3", in.words}, []string{"llvm-mc-22", "-triple=amdgcn", "-mcpu=gfx942", "--disassemble", in.words}, "llvm-mc-22 --disassemble", 3, 0},
		{"object", []string{gpuisa, "decode", in.object}, []string{"llvm-objdump-22", "-d", in.object}, "llvm-objdump-22 -d", 2, 0},
		{"word", []string{gpuisa, "decode", "--arch", "cdna3", "0x160a04c1"}, []string{"llvm-mc-22", "-triple=amdgcn", "-mcpu=gfx942", "--disassemble", in.word}, "llvm-mc-22 (one word)", 0, 30},
		{"encode", []string{gpuisa, "encode", "--arch", "cdna3", "--show-encoding", in.asm}, []string{"llvm-mc-22", "-triple=amdgcn", "-mcpu=gfx942", "-show-encoding", in.asm}, "llvm-mc-22 -show-encoding", 1, 0},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var ours, ref []sample
			for i := 0; i < runs; i++ {
				ours = append(ours, runOnce(b, c.ours, env))
				ref = append(ref, runOnce(b, c.ref, env))
			}
			o, r := median(ours), median(ref)
			b.ReportMetric(o.wall.Seconds()*1000, "gpuisa-ms")
			b.ReportMetric(r.wall.Seconds()*1000, "llvm-ms")
			b.ReportMetric(r.wall.Seconds()/o.wall.Seconds(), "x-faster")
			b.ReportMetric(float64(o.rss)/1024, "gpuisa-MB")
			b.ReportMetric(float64(r.rss)/1024, "llvm-MB")
			b.ReportMetric(r.cpu.Seconds()/o.cpu.Seconds(), "x-less-cpu")
			verdict := ""
			switch {
			case c.target > 0 && r.wall.Seconds()/o.wall.Seconds() >= c.target:
				verdict = fmt.Sprintf("meets >= %gx", c.target)
			case c.target > 0:
				verdict = fmt.Sprintf("MISSES %gx", c.target)
			case o.wall.Seconds()*1000 < c.absoluteMS:
				verdict = fmt.Sprintf("meets < %g ms", c.absoluteMS)
			default:
				verdict = fmt.Sprintf("MISSES %g ms", c.absoluteMS)
			}
			b.Logf("%s: gpuisa median %.1f ms (cpu %.1f ms, peak RSS %.1f MB) vs %s %.1f ms (cpu %.1f ms, %.1f MB): %.2fx wall, %.2fx cpu over %d runs each: %s",
				c.name, o.wall.Seconds()*1000, o.cpu.Seconds()*1000, float64(o.rss)/1024, c.refName, r.wall.Seconds()*1000, r.cpu.Seconds()*1000, float64(r.rss)/1024,
				r.wall.Seconds()/o.wall.Seconds(), r.cpu.Seconds()/o.cpu.Seconds(), runs, verdict)
		})
	}
}

type sample struct {
	wall, cpu time.Duration
	rss       int64 // KB
}

// runOnce runs argv under GNU time (/usr/bin/time) and reaps it with
// wait4. The peak RSS is time's report for its child: a process started
// from this test would carry the test binary's own high-water mark into
// its maximum RSS across exec. CPU comes from wait4 (time and its child).
// Output goes to a pipe that is drained.
func runOnce(b *testing.B, argv, env []string) sample {
	rssFile := filepath.Join(b.TempDir(), "rss")
	if _, err := os.Stat(gnuTime); err == nil {
		argv = append([]string{gnuTime, "-f", "%M", "-o", rssFile}, argv...)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		b.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan []byte)
	go func() {
		var out bytes.Buffer
		out.ReadFrom(r)
		done <- out.Bytes()
	}()
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	start := time.Now()
	p, err := os.StartProcess(path, argv, &os.ProcAttr{Env: env, Files: []*os.File{devnull, w, w}})
	w.Close()
	if err != nil {
		b.Fatal(err)
	}
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	if _, err := syscall.Wait4(p.Pid, &ws, 0, &ru); err != nil {
		b.Fatal(err)
	}
	wall := time.Since(start)
	out := <-done
	r.Close()
	if ws.ExitStatus() != 0 {
		b.Fatalf("%s: exit %d\n%s", strings.Join(argv, " "), ws.ExitStatus(), firstN(string(out), 400))
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	var rss int64
	if t, err := os.ReadFile(rssFile); err == nil {
		rss, _ = strconv.ParseInt(strings.TrimSpace(string(t)), 10, 64)
	}
	return sample{wall: wall, cpu: cpu, rss: rss}
}

// gnuTime reports a child's peak RSS (%M, in KB).
const gnuTime = "/usr/bin/time"

// median takes each measure's median on its own.
func median(ss []sample) sample {
	pick := func(get func(sample) int64) int64 {
		v := make([]int64, len(ss))
		for i, s := range ss {
			v[i] = get(s)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[len(v)/2]
	}
	return sample{
		wall: time.Duration(pick(func(s sample) int64 { return int64(s.wall) })),
		cpu:  time.Duration(pick(func(s sample) int64 { return int64(s.cpu) })),
		rss:  pick(func(s sample) int64 { return s.rss }),
	}
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

type benchInputs struct {
	words, object, word, asm string
}

var objdumpWordsRe = regexp.MustCompile(`^\s+(\S.*?)\s*// [0-9A-F]+: ([0-9A-F ]+?)(?: <\S+>)?$`)

// prepareInputs compiles the test kernels for gfx942 and writes the
// inputs: the object, 200,000 words of its instructions (padding left
// out) as byte lists, one word, and 10,000 distinct assembly lines both
// assemblers accept (the compiled instructions with their registers
// renumbered).
func prepareInputs(b *testing.B, gpuisa string, env []string, dir string) benchInputs {
	var in benchInputs
	var insts [][]string // text, words...
	for _, ll := range []string{"../decode/testdata/kernels.ll", "testdata/lds.ll", "../decode/testdata/mfma.ll"} {
		obj := filepath.Join(dir, strings.TrimSuffix(filepath.Base(ll), ".ll")+".o")
		if out, err := exec.Command("llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=gfx942", "-O2", "-filetype=obj", "-o", obj, ll).CombinedOutput(); err != nil {
			b.Fatalf("llc-22: %v %s", err, out)
		}
		if in.object == "" || strings.HasSuffix(obj, "lds.o") {
			in.object = obj
		}
		dump, err := exec.Command("llvm-objdump-22", "-d", obj).Output()
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(string(dump), "\n") {
			if m := objdumpWordsRe.FindStringSubmatch(l); m != nil && m[1] != "s_nop 0" {
				insts = append(insts, append([]string{m[1]}, strings.Fields(m[2])...))
			}
		}
	}
	var words bytes.Buffer
	n := 0
	for n < 200000 {
		for _, in := range insts {
			for i, w := range in[1:] {
				v, _ := strconv.ParseUint(w, 16, 32)
				var le [4]byte
				binary.LittleEndian.PutUint32(le[:], uint32(v))
				if i > 0 {
					words.WriteByte(',')
				}
				fmt.Fprintf(&words, "0x%02x,0x%02x,0x%02x,0x%02x", le[0], le[1], le[2], le[3])
			}
			words.WriteByte('\n')
			n += len(in) - 1
			if n >= 200000 {
				break
			}
		}
	}
	in.words = filepath.Join(dir, "words.txt")
	in.word = filepath.Join(dir, "word.txt")
	os.WriteFile(in.words, words.Bytes(), 0o644)
	os.WriteFile(in.word, []byte("0xc1,0x04,0x0a,0x16\n"), 0o644)
	// 10,000 distinct lines: each instruction with its VGPRs and SGPRs
	// moved by an even step (keeping tuple alignment), branches left out.
	reg := regexp.MustCompile(`\b([vs])(\d+)\b|\b([vsa])\[(\d+):(\d+)\]`)
	seen := map[string]bool{}
	var cand []string
	for k := 0; len(cand) < 16000 && k < 400; k++ {
		for _, in := range insts {
			text := in[0]
			if strings.HasPrefix(text, "s_cbranch") || strings.HasPrefix(text, "s_branch") {
				continue
			}
			moved := reg.ReplaceAllStringFunc(text, func(r string) string {
				m := reg.FindStringSubmatch(r)
				// VGPRs and AGPRs move by up to 200, SGPRs by up to 80
				// (aligned to 4, as SGPR tuples must be), wrapping.
				vstep, sstep := 2*k%200, 4*(k/50)%80
				if m[1] != "" {
					v, _ := strconv.Atoi(m[2])
					if m[1] == "s" {
						return fmt.Sprintf("s%d", v+sstep)
					}
					return fmt.Sprintf("%s%d", m[1], v+vstep)
				}
				lo, _ := strconv.Atoi(m[4])
				hi, _ := strconv.Atoi(m[5])
				step := vstep
				if m[3] == "s" {
					step = sstep
				}
				return fmt.Sprintf("%s[%d:%d]", m[3], lo+step, hi+step)
			})
			if !seen[moved] {
				seen[moved] = true
				cand = append(cand, moved)
			}
		}
	}
	in.asm = filepath.Join(dir, "asm.s")
	keep := acceptedByBoth(b, gpuisa, env, dir, cand)
	if len(keep) < 10000 {
		b.Fatalf("only %d distinct lines both assemblers accept", len(keep))
	}
	os.WriteFile(in.asm, []byte(strings.Join(keep[:10000], "\n")+"\n"), 0o644)
	return in
}

// acceptedByBoth keeps the lines llvm-mc-22 and gpuisa both assemble.
func acceptedByBoth(b *testing.B, gpuisa string, env []string, dir string, lines []string) []string {
	f := filepath.Join(dir, "cand.s")
	os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	bad := map[int]bool{}
	out, _ := exec.Command("llvm-mc-22", "-triple=amdgcn", "-mcpu=gfx942", "-show-encoding", "-o", os.DevNull, f).CombinedOutput()
	lineRe := regexp.MustCompile(`(?m)^[^:\n]*cand\.s:(\d+):\d+: error`)
	for _, m := range lineRe.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[1])
		bad[n] = true
	}
	cmd := exec.Command(gpuisa, "encode", "--arch", "cdna3", f)
	cmd.Env = env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	cmd.Stdout = nil
	if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 1 {
		b.Fatalf("gpuisa encode: %v: %s", err, firstN(errb.String(), 400))
	}
	for _, m := range regexp.MustCompile(`(?m)^\S*:(\d+): error`).FindAllStringSubmatch(errb.String(), -1) {
		n, _ := strconv.Atoi(m[1])
		bad[n] = true
	}
	var keep []string
	for i, l := range lines {
		if !bad[i+1] {
			keep = append(keep, l)
		}
	}
	b.Logf("%d candidate lines, %d rejected by llvm-mc-22 or gpuisa", len(lines), len(lines)-len(keep))
	if os.Getenv("GPUISA_BENCH_VERBOSE") != "" {
		b.Logf("llvm-mc:\n%s\ngpuisa:\n%s", firstN(string(out), 3000), firstN(errb.String(), 20000))
	}
	return keep
}
