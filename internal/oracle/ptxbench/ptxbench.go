// Package ptxbench writes microbenchmarks that time one PTX instruction
// on an NVIDIA GPU: a latency kernel (a chain where each result is the next
// instruction's input) and a throughput kernel (independent chains
// interleaved), both timed with %clock64 around an unrolled body, and a
// host program that runs them and prints a results file. The build reads
// such a file when one is given and shows the numbers on PTX pages as
// measured; nothing here needs a GPU except running the host program, and
// the kernels are checked with ptxas (tests) before anything runs.
package ptxbench

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxharness"
	"github.com/gpuisa/gpuisa/internal/ptx"
)

// Chain is how many instructions the latency kernel chains, and
// Streams how many independent chains the throughput kernel interleaves.
const (
	Chain   = 256
	Streams = 8
)

// Bench is the two kernels for one statement.
type Bench struct {
	Statement  string `json:"statement"`
	Target     string `json:"target"`
	Latency    string `json:"latency_ptx"`    // a module with entry "lat"
	Throughput string `json:"throughput_ptx"` // a module with entry "tput"
}

// Make writes the kernels for stmt ("max.f32 d, a, b;") for target at
// PTX ISA version: the destination and the first source must be plain
// registers of one type, so the result can feed the next instruction.
func Make(h *ptxharness.Harness, stmt, version, target string) (Bench, error) {
	stmt = strings.TrimSuffix(strings.TrimSpace(stmt), ";")
	types, plain, err := h.RegisterTypes(stmt + ";")
	if err != nil {
		return Bench{}, err
	}
	if len(types) < 2 || !plain[0] || !plain[1] || types[0] != types[1] || types[0] == ".b128" {
		return Bench{}, fmt.Errorf("%s: the destination and the first source are not registers of one type, so results cannot chain", stmt)
	}
	for i := range types {
		if !plain[i] && i >= 2 {
			// Immediates stay as written; vectors and addresses do not chain.
			if op := operandText(stmt, i); strings.ContainsAny(op, "[{") {
				return Bench{}, fmt.Errorf("%s: operand %d is %s, not a register or an immediate", stmt, i, op)
			}
		}
	}
	opcode, _ := splitOpcode(stmt)
	b := Bench{Statement: stmt + ";", Target: target}
	b.Latency = module(version, target, "lat", opcode, types, plain, stmt, 1, Chain)
	b.Throughput = module(version, target, "tput", opcode, types, plain, stmt, Streams, Chain/Streams)
	return b, nil
}

func splitOpcode(stmt string) (opcode, rest string) {
	opcode, rest, _ = strings.Cut(strings.TrimSpace(stmt), " ")
	return opcode, strings.TrimSpace(rest)
}

// operandText is operand i of stmt as written.
func operandText(stmt string, i int) string {
	_, ops, err := ptx.ParseInstruction(stmt + ";")
	if err != nil || i >= len(ops) {
		return ""
	}
	return ops[i]
}

// module writes one kernel: streams chains of rounds instructions each,
// timed by %clock64, the cycles and every chain's last value stored so the
// compiler keeps the work.
func module(version, target, entry, opcode string, types []string, plain []bool, stmt string, streams, rounds int) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".version %s\n.target %s\n.address_size 64\n\n", version, target)
	fmt.Fprintf(&b, ".visible .entry %s(.param .u64 out, .param .u64 in)\n{\n", entry)
	b.WriteString(".reg .b64 p, q, t0, t1, dt;\n")
	t := types[0]
	fmt.Fprintf(&b, ".reg %s r<%d>;\n", t, streams)
	// Further register sources: one each, loaded once.
	for i := 2; i < len(types); i++ {
		if plain[i] {
			fmt.Fprintf(&b, ".reg %s s%d;\n", types[i], i)
		}
	}
	b.WriteString("ld.param.u64 p, [out];\nld.param.u64 q, [in];\n")
	bits := regBits(t)
	for k := 0; k < streams; k++ {
		fmt.Fprintf(&b, "ld.global.b%d r%d, [q+%d];\n", bits, k, 16*k)
	}
	for i := 2; i < len(types); i++ {
		if plain[i] {
			fmt.Fprintf(&b, "ld.global.b%d s%d, [q+%d];\n", regBits(types[i]), i, 16*(streams+i))
		}
	}
	b.WriteString("mov.u64 t0, %clock64;\n")
	ops := allOperands(stmt)
	for r := 0; r < rounds; r++ {
		for k := 0; k < streams; k++ {
			args := make([]string, len(ops))
			for i := range ops {
				switch {
				case i < 2:
					args[i] = fmt.Sprintf("r%d", k)
				case plain[i]:
					args[i] = fmt.Sprintf("s%d", i)
				default:
					args[i] = ops[i]
				}
			}
			fmt.Fprintf(&b, "%s %s;\n", opcode, strings.Join(args, ", "))
		}
	}
	b.WriteString("mov.u64 t1, %clock64;\nsub.s64 dt, t1, t0;\nst.global.u64 [p], dt;\n")
	for k := 0; k < streams; k++ {
		fmt.Fprintf(&b, "st.global.b%d [p+%d], r%d;\n", bits, 16*(k+1), k)
	}
	b.WriteString("ret;\n}\n")
	return b.String()
}

func allOperands(stmt string) []string {
	_, ops, _ := ptx.ParseInstruction(stmt + ";")
	return ops
}

func regBits(t string) int {
	switch t {
	case ".b16":
		return 16
	case ".b64":
		return 64
	case ".pred":
		return 32
	}
	return 32
}

// Results is a results file: what the host program measured on one GPU.
type Results struct {
	GPU     string  `json:"gpu"`    // "NVIDIA H200"
	Target  string  `json:"target"` // "sm_90"
	Driver  string  `json:"driver"`
	CUDA    string  `json:"cuda"`
	Date    string  `json:"date"` // RFC 3339
	Entries []Entry `json:"entries"`
}

// Entry is one statement's measurement: cycles per instruction of one
// warp, in a dependent chain (latency) and over Streams independent
// chains (throughput), with the SASS it became.
type Entry struct {
	Statement        string   `json:"statement"`
	LatencyCycles    float64  `json:"latency_cycles"`
	ThroughputCycles float64  `json:"throughput_cycles"`
	SASS             []string `json:"sass,omitempty"`
}

// maxResultsFile bounds a results file.
const maxResultsFile = 16 << 20

// Load reads a results file.
func Load(path string) (*Results, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxResultsFile {
		return nil, fmt.Errorf("%s: %d bytes, more than a results file holds (%d)", path, st.Size(), maxResultsFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.GPU == "" || r.Target == "" {
		return nil, fmt.Errorf("%s: a results file names its GPU and target", path)
	}
	return &r, nil
}

// Unit returns a kernel module as a ptxas unit (its own header left out,
// the entry renamed for batching), for checking and listing it.
func Unit(module string) ptxas.Unit {
	body := module
	if i := strings.Index(module, ".visible"); i >= 0 {
		body = module[i:]
	}
	for _, e := range []string{"entry lat(", "entry tput("} {
		body = strings.Replace(body, e, "entry $U(", 1)
	}
	return ptxas.Unit{Entry: body}
}

// Unrolled counts the instructions the latency kernel's SASS holds beyond
// its loads, stores and clock reads: fewer than Chain means the compiler
// folded the chain (max(r, b) repeated is max(r, b) once) and the kernel
// would not time what it says.
func Unrolled(lines []ptxas.SASSLine) int {
	n := 0
	for _, l := range lines {
		op := strings.Fields(l.Text)
		if len(op) == 0 {
			continue
		}
		o := op[0]
		if strings.HasPrefix(o, "@") && len(op) > 1 {
			o = op[1]
		}
		switch {
		case strings.HasPrefix(o, "LDG"), strings.HasPrefix(o, "STG"), strings.HasPrefix(o, "LDC"), strings.HasPrefix(o, "ULDC"),
			strings.HasPrefix(o, "CS2R"), strings.HasPrefix(o, "S2UR"), strings.HasPrefix(o, "S2R"), o == "EXIT", o == "BRA", o == "NOP",
			strings.HasPrefix(o, "IADD3") && strings.Contains(l.Text, "R0"): // the clock difference
			continue
		}
		n++
	}
	return n
}
