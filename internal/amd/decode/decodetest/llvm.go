package decodetest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// LLVMMC is the oracle binary's name.
const LLVMMC = "llvm-mc-22"

// HaveLLVM reports whether llvm-mc-22 is on PATH.
func HaveLLVM() bool {
	_, err := exec.LookPath(LLVMMC)
	return err == nil
}

// Disassembled is llvm-mc's verdict on the first instruction of one line.
type Disassembled struct {
	OK   bool   // llvm-mc decoded an instruction at the line's first byte
	Text string // its text, whitespace-normalised
	Len  int    // bytes it consumed
	// Crashed says llvm-mc itself crashed on this line (an LLVM bug).
	Crashed bool
	// Unsynced says the previous line's last instruction ran over this
	// line's start, so llvm-mc said nothing about it.
	Unsynced bool
}

var (
	warnRe = regexp.MustCompile(`^[^:]*:(\d+):(\d+): warning: invalid instruction encoding`)
	encRe  = regexp.MustCompile(`^\s*(.*?)\s*; encoding: \[([^\]]*)\]`)
)

// Disassemble runs llvm-mc over many byte sequences (one per line) and
// returns, per line, what it made of the line's first bytes. It runs one
// process per chunk of lines; llvm-mc 22 crashes on a few random words, so a
// chunk that crashes is split until the crashing line is alone, and that line
// is marked Crashed.
func Disassemble(mcpu string, lines [][]byte, workdir string) ([]Disassembled, error) {
	res := make([]Disassembled, len(lines))
	const chunk = 4000
	for lo := 0; lo < len(lines); lo += chunk {
		hi := min(lo+chunk, len(lines))
		if err := disassembleRange(mcpu, lines[lo:hi], res[lo:hi], workdir); err != nil {
			return nil, err
		}
	}
	return res, nil
}

func disassembleRange(mcpu string, lines [][]byte, res []Disassembled, workdir string) error {
	err := disassembleOnce(mcpu, lines, res, workdir)
	if err == nil {
		return nil
	}
	if _, crashed := err.(crashError); !crashed {
		return err
	}
	if len(lines) == 1 {
		res[0] = Disassembled{Crashed: true}
		return nil
	}
	mid := len(lines) / 2
	if err := disassembleRange(mcpu, lines[:mid], res[:mid], workdir); err != nil {
		return err
	}
	return disassembleRange(mcpu, lines[mid:], res[mid:], workdir)
}

type crashError struct{ msg string }

func (e crashError) Error() string { return e.msg }

// sentinelWord is "s_nop 0x1234" (SOPP opcode 0, the same on every family
// here). Six of them follow every line: llvm-mc decodes its input as one
// byte stream, not line by line, and a rejected 64-bit word may skip 8 bytes,
// so the stream is put back in step by counting sentinel runs in the output.
var sentinelWord = []byte{0x34, 0x12, 0x80, 0xbf}

const sentinelCount = 6

func disassembleOnce(mcpu string, lines [][]byte, res []Disassembled, workdir string) error {
	var in bytes.Buffer
	sentinelHex := "0x34,0x12,0x80,0xbf"
	for _, l := range lines {
		for _, b := range l {
			fmt.Fprintf(&in, "0x%02x,", b)
		}
		in.WriteString(strings.TrimSuffix(strings.Repeat(sentinelHex+",", sentinelCount), ","))
		in.WriteByte('\n')
	}
	file := filepath.Join(workdir, "corpus-"+mcpu+".txt")
	if err := os.WriteFile(file, in.Bytes(), 0o644); err != nil {
		return err
	}
	cmd := exec.Command(LLVMMC, "-triple=amdgcn", "-mcpu="+mcpu, "--disassemble", "-show-encoding", file)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok && !ee.Exited() {
			return crashError{fmt.Sprintf("%s crashed: %v", LLVMMC, err)}
		}
		if out.Len() == 0 {
			return fmt.Errorf("%s: %v: %s", LLVMMC, err, firstLine(errb.String()))
		}
	}
	invalidFirst := map[int]bool{} // line numbers whose first word llvm-mc rejected
	for _, l := range strings.Split(errb.String(), "\n") {
		if m := warnRe.FindStringSubmatch(l); m != nil && m[2] == "1" {
			ln, _ := strconv.Atoi(m[1])
			invalidFirst[ln] = true
		}
	}
	// Split the output into per-line segments at sentinel runs: a run of L
	// sentinels closes ceil(L/6) lines (only the first group of a run can
	// have been partly eaten by the instruction before it).
	var segs [][]Disassembled
	var cur []Disassembled
	run := 0
	flush := func() {
		for n := (run + sentinelCount - 1) / sentinelCount; n > 0; n-- {
			segs = append(segs, cur)
			cur = nil
		}
		run = 0
	}
	for _, l := range strings.Split(out.String(), "\n") {
		m := encRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if m[2] == sentinelHex {
			run++
			continue
		}
		if run > 0 {
			flush()
		}
		cur = append(cur, Disassembled{OK: true, Text: strings.Join(strings.Fields(m[1]), " "), Len: strings.Count(m[2], ",") + 1})
	}
	flush()
	if len(segs) != len(lines) {
		return fmt.Errorf("llvm-mc output out of step: %d segments for %d lines", len(segs), len(lines))
	}
	for i := range lines {
		switch {
		case invalidFirst[i+1]:
			res[i] = Disassembled{}
		case len(segs[i]) > 0:
			res[i] = segs[i][0]
		default:
			res[i] = Disassembled{Unsynced: true}
		}
	}
	return nil
}

// Assemble runs llvm-mc -show-encoding over many lines of assembly and
// returns, per line, the encoding bytes or the assembler's error. A label
// follows every line, so that a line which gives no encoding and no error,
// or more than one encoding, cannot put the answers out of step.
func Assemble(mcpu string, asm []string, workdir string) ([][]byte, []string, error) {
	file := filepath.Join(workdir, "asm-"+mcpu+".s")
	var in strings.Builder
	for i, l := range asm {
		fmt.Fprintf(&in, "%s\n%s%d:\n", l, markLabel, i)
	}
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(LLVMMC, "-triple=amdgcn", "-mcpu="+mcpu, "-show-encoding", file)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	res := make([][]byte, len(asm))
	msgs := make([]string, len(asm))
	errRe := regexp.MustCompile(`^[^:]*:(\d+):\d+: error: (.*)$`)
	for _, l := range strings.Split(errb.String(), "\n") {
		if m := errRe.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			if i := (n - 1) / 2; n%2 == 1 && i < len(asm) && msgs[i] == "" {
				msgs[i] = m[2]
			}
		}
	}
	cur := 0 // the line whose answers the output is at
	for _, l := range strings.Split(out.String(), "\n") {
		if rest, ok := strings.CutPrefix(l, markLabel); ok {
			if n, err := strconv.Atoi(strings.TrimSuffix(rest, ":")); err == nil {
				cur = n + 1
			}
			continue
		}
		m := encRe.FindStringSubmatch(l)
		if m == nil || cur >= len(asm) || res[cur] != nil || msgs[cur] != "" {
			continue
		}
		var b []byte
		for _, x := range strings.Split(m[2], ",") {
			v, err := strconv.ParseUint(strings.TrimSpace(x), 0, 8)
			if err != nil {
				return nil, nil, fmt.Errorf("bad llvm-mc encoding %q", m[2])
			}
			b = append(b, byte(v))
		}
		res[cur] = b
	}
	return res, msgs, nil
}

// markLabel starts the labels Assemble puts after each line.
const markLabel = ".Lgpuisa_line_"

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// HaveCompiler reports whether llc-22 and llvm-objdump-22 are on PATH.
func HaveCompiler() bool {
	_, err1 := exec.LookPath("llc-22")
	_, err2 := exec.LookPath("llvm-objdump-22")
	return err1 == nil && err2 == nil
}

// CompileKernels compiles an LLVM IR file for mcpu with llc-22 into dir and
// returns the code object and llvm-objdump-22 -d's listing of it.
func CompileKernels(ll, mcpu, dir string) (obj []byte, listing string, err error) {
	path := filepath.Join(dir, strings.TrimSuffix(filepath.Base(ll), ".ll")+"-"+mcpu+".o")
	if out, err := exec.Command("llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu="+mcpu, "-O2", "-filetype=obj",
		"-o", path, ll).CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("llc-22 -mcpu=%s: %v: %s", mcpu, err, firstLine(string(out)))
	}
	out, err := exec.Command("llvm-objdump-22", "-d", "--mcpu="+mcpu, path).Output()
	if err != nil {
		return nil, "", fmt.Errorf("llvm-objdump-22: %v", err)
	}
	obj, err = os.ReadFile(path)
	return obj, string(out), err
}

// targetsHeader is a kernel file's optional first-comment guard,
// "; targets: REGEXP": the file uses intrinsics only the gfx targets the
// regexp matches can select (dot products, permlanes, matrix operations).
// A file without one compiles for every target.
var targetsHeader = regexp.MustCompile(`(?m)^; targets: (\S+)\s*$`)

// KernelFiles lists the LLVM IR files in dir (*.ll, sorted) that llc-22
// can compile for mcpu, by each file's targets header.
func KernelFiles(dir, mcpu string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.ll"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if m := targetsHeader.FindSubmatch(b); m != nil {
			re, err := regexp.Compile(string(m[1]))
			if err != nil {
				return nil, fmt.Errorf("%s: targets header: %v", f, err)
			}
			if !re.MatchString(mcpu) {
				continue
			}
		}
		out = append(out, f)
	}
	return out, nil
}
