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

func disassembleOnce(mcpu string, lines [][]byte, res []Disassembled, workdir string) error {
	var in bytes.Buffer
	for _, l := range lines {
		for i, b := range l {
			if i > 0 {
				in.WriteByte(',')
			}
			fmt.Fprintf(&in, "0x%02x", b)
		}
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
	// invalid[line] = set of byte offsets llvm-mc rejected.
	invalid := map[int]map[int]bool{}
	for _, l := range strings.Split(errb.String(), "\n") {
		m := warnRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		ln, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if invalid[ln] == nil {
			invalid[ln] = map[int]bool{}
		}
		invalid[ln][(col-1)/5] = true
	}
	type decoded struct {
		text string
		n    int
	}
	var outs []decoded
	for _, l := range strings.Split(out.String(), "\n") {
		m := encRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		outs = append(outs, decoded{strings.Join(strings.Fields(m[1]), " "), strings.Count(m[2], ",") + 1})
	}
	k := 0
	for i, l := range lines {
		for p := 0; p < len(l); {
			if invalid[i+1][p] {
				p += 4
				continue
			}
			if k >= len(outs) {
				return fmt.Errorf("llvm-mc output out of step at line %d", i+1)
			}
			if p == 0 {
				res[i] = Disassembled{OK: true, Text: outs[k].text, Len: outs[k].n}
			}
			p += outs[k].n
			k++
		}
	}
	return nil
}

// Assemble runs llvm-mc -show-encoding over many lines of assembly and
// returns, per line, the encoding bytes or the assembler's error.
func Assemble(mcpu string, asm []string, workdir string) ([][]byte, []string, error) {
	file := filepath.Join(workdir, "asm-"+mcpu+".s")
	if err := os.WriteFile(file, []byte(strings.Join(asm, "\n")+"\n"), 0o644); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(LLVMMC, "-triple=amdgcn", "-mcpu="+mcpu, "-show-encoding", file)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	_ = cmd.Run()
	errsByLine := map[int]string{}
	errRe := regexp.MustCompile(`^[^:]*:(\d+):\d+: error: (.*)$`)
	for _, l := range strings.Split(errb.String(), "\n") {
		if m := errRe.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			if _, seen := errsByLine[n]; !seen {
				errsByLine[n] = m[2]
			}
		}
	}
	var encs [][]byte
	for _, l := range strings.Split(out.String(), "\n") {
		m := encRe.FindStringSubmatch(l)
		if m == nil {
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
		encs = append(encs, b)
	}
	res := make([][]byte, len(asm))
	msgs := make([]string, len(asm))
	k := 0
	for i := range asm {
		if e, bad := errsByLine[i+1]; bad {
			msgs[i] = e
			continue
		}
		if strings.TrimSpace(asm[i]) == "" {
			continue
		}
		if k < len(encs) {
			res[i] = encs[k]
			k++
		}
	}
	return res, msgs, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
