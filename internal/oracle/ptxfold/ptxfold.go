// Package ptxfold holds the PTX models (package semptx) to NVIDIA's own
// compiler without a GPU: ptxas constant-folds an instruction whose
// operands are literals, so a kernel that applies a model's instruction to
// constant inputs and stores each result compiles, at the default -O3, to
// stores of constants. The kernels are written here, compiled and listed
// by package ptxas (one ptxas and one nvdisasm process per batch, cached
// by tool version, target and kernel text), and the stored constants are
// read back from the SASS (sass.go). A case whose store is fed by
// anything but a constant is "not folded": nothing is guessed.
package ptxfold

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/ptx/semptx"
)

// Version is the PTX ISA version the kernels state: 7.8 has every model's
// form (bf16 min/max need it).
const Version = "7.8"

// slot is the bytes each case's result owns in the output buffer: the
// widest result (64 bits), so no two cases share a store.
const slot = 8

// Options tune Generate.
type Options struct {
	Random   int // random cases per model added to its specials; 0 means 16
	PerModel int // the most cases taken from one model's corpus, spread evenly; 0 means all
	PerUnit  int // cases per kernel; 0 means 128
}

// Case is one (model, inputs) pair and where its result is stored.
type Case struct {
	Model  *semptx.Model
	Inputs []uint64
	Unit   int // index of the kernel
	Offset int // byte offset of the result from the output pointer
}

// Kernels is what Generate writes: the units for ptxas and the cases they
// hold.
type Kernels struct {
	Units []ptxas.Unit
	Cases []Case
}

// Generate writes kernels for every model: the cases of one model share
// kernels, PerUnit to a kernel.
func Generate(models []*semptx.Model, opts Options) (*Kernels, error) {
	if opts.Random == 0 {
		opts.Random = 16
	}
	if opts.PerUnit == 0 {
		opts.PerUnit = 128
	}
	k := &Kernels{}
	for _, m := range models {
		if _, ok := statement(m); !ok {
			return nil, fmt.Errorf("ptxfold: %s%s has no PTX statement form", m.Mnemonic, m.Variant)
		}
		inputs := spread(corpus(m, opts.Random), opts.PerModel)
		for start := 0; start < len(inputs); start += opts.PerUnit {
			chunk := inputs[start:min(start+opts.PerUnit, len(inputs))]
			u := len(k.Units)
			var cs []Case
			for i, in := range chunk {
				cs = append(cs, Case{Model: m, Inputs: in, Unit: u, Offset: i * slot})
			}
			k.Units = append(k.Units, ptxas.Unit{Entry: entry(m, cs)})
			k.Cases = append(k.Cases, cs...)
		}
	}
	return k, nil
}

// corpus is the model's corpus drawn from a seed of its name, so a
// kernel's text (and its cache key) does not change between runs.
func corpus(m *semptx.Model, random int) [][]uint64 {
	h := fnv.New64a()
	h.Write([]byte(m.Mnemonic + m.Variant))
	return m.Corpus(random, h.Sum64())
}

// spread keeps at most n of xs, evenly spaced (the corpus lists specials
// paired in order, so a stride keeps every first operand's class).
func spread(xs [][]uint64, n int) [][]uint64 {
	if n <= 0 || len(xs) <= n {
		return xs
	}
	out := make([][]uint64, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, xs[i*len(xs)/n])
	}
	return out
}

// statement is the model's PTX opcode: the rounding .rn where fma needs
// one and where it stops add/sub/mul from being fused.
func statement(m *semptx.Model) (string, bool) {
	if len(m.Srcs) < 1 || len(m.Srcs) > 3 {
		return "", false // (checked first: the rounding reads Srcs[0])
	}
	op := m.Mnemonic + m.Variant
	if m.Srcs[0].Float != nil && (m.Mnemonic == "fma" || m.Mnemonic == "add" || m.Mnemonic == "sub" || m.Mnemonic == "mul") {
		op = m.Mnemonic + ".rn" + m.Variant
	}
	return op, true
}

// halfFloat says whether an operand is f16 or bf16: PTX takes no literal
// there, so the value is moved into a .b16 register first (ptxas
// propagates the move).
func halfFloat(o semptx.Operand) bool { return o.Float != nil && o.Float.Bits == 16 }

// regType is the PTX register type holding an operand or result.
func regType(o semptx.Operand) string {
	switch {
	case o.Float == &sem.F32:
		return ".f32"
	case o.Float == &sem.F64:
		return ".f64"
	case o.Width == 1:
		return ".pred"
	}
	return ".b" + strconv.Itoa(o.Bits())
}

// literal writes a source value as a PTX literal of its operand's type.
func literal(o semptx.Operand, v uint64) string {
	switch {
	case o.Float == &sem.F32:
		return fmt.Sprintf("0f%08X", v)
	case o.Float == &sem.F64:
		return fmt.Sprintf("0d%016X", v)
	}
	return fmt.Sprintf("0x%X", v)
}

// entry is one kernel: case i computes its result from literals into
// fresh registers and stores it at out + i*slot (a setp result as the u32
// 1 or 0 that selp makes of the predicate).
func entry(m *semptx.Model, cs []Case) string {
	op, _ := statement(m)
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\n.visible .entry $U(.param .u64 out)\n{\n", op)
	n := len(cs)
	fmt.Fprintf(&b, ".reg .b64 po;\n.reg %s d<%d>;\n", regType(m.Ret), n)
	if m.Ret.Width == 1 {
		fmt.Fprintf(&b, ".reg .b32 s<%d>;\n", n)
	}
	for j, o := range m.Srcs {
		if halfFloat(o) {
			fmt.Fprintf(&b, ".reg .b16 a%d_<%d>;\n", j, n)
		}
	}
	b.WriteString("ld.param.u64 po, [out];\ncvta.to.global.u64 po, po;\n")
	for i, c := range cs {
		args := make([]string, len(m.Srcs))
		for j, o := range m.Srcs {
			args[j] = literal(o, c.Inputs[j])
			if halfFloat(o) {
				r := fmt.Sprintf("a%d_%d", j, i)
				fmt.Fprintf(&b, "mov.b16 %s, %s;\n", r, args[j])
				args[j] = r
			}
		}
		fmt.Fprintf(&b, "%s d%d, %s;\n", op, i, strings.Join(args, ", "))
		if m.Ret.Width == 1 {
			fmt.Fprintf(&b, "selp.b32 s%d, 1, 0, d%d;\nst.global.b32 [po+%d], s%d;\n", i, i, c.Offset, i)
		} else {
			fmt.Fprintf(&b, "st.global.b%d [po+%d], d%d;\n", m.Ret.Bits(), c.Offset, i)
		}
	}
	b.WriteString("ret;\n}\n")
	return b.String()
}

// Result is what ptxas made of one case.
type Result struct {
	Case
	Folded bool
	Got    uint64 // the stored constant, when folded
	Reason string // why not folded
}

// Run compiles the kernels for target with sess and reads each case's
// stored constant. A kernel ptxas rejects for the target (a form newer
// than it) leaves its cases not folded, with ptxas's message.
func Run(ctx context.Context, sess *ptxas.Session, target string, k *Kernels) ([]Result, error) {
	outcomes, err := sess.Assemble(ctx, Version, target, k.Units)
	if err != nil {
		return nil, err
	}
	var units []ptxas.Unit
	at := make([]int, len(k.Units)) // index into units, -1 when rejected
	for i, o := range outcomes {
		at[i] = -1
		if o.OK {
			at[i] = len(units)
			units = append(units, k.Units[i])
		}
	}
	listings, err := sess.Disassemble(ctx, Version, target, units)
	if err != nil {
		return nil, err
	}
	images := make([]Image, len(k.Units))
	rejected := make([]string, len(k.Units))
	for i := range k.Units {
		switch {
		case at[i] < 0:
			rejected[i] = "ptxas rejects it for " + target + ": " + outcomes[i].Message()
		case !listings[at[i]].OK:
			rejected[i] = "no code for " + target + ": " + listings[at[i]].Error
		default:
			images[i] = ReadStores(listings[at[i]].Lines)
		}
	}
	out := make([]Result, len(k.Cases))
	for i, c := range k.Cases {
		if rejected[c.Unit] != "" {
			out[i] = Result{Case: c, Reason: rejected[c.Unit]}
			continue
		}
		width := 4
		if c.Model.Ret.Width != 1 {
			width = c.Model.Ret.Bits() / 8
		}
		v, why := images[c.Unit].Value(c.Offset, width)
		out[i] = Result{Case: c, Folded: why == "", Got: v, Reason: why}
	}
	return out, nil
}

// Want is the model's answer for a case, as the kernel stores it (a
// predicate as the u32 selp makes of it).
func Want(c Case) uint64 {
	return c.Model.Eval(c.Inputs) & sem.WidthMask(c.Model.Ret.Bits())
}

// Agrees says whether a folded result matches the model: exactly, or, for
// a model whose NaN bits NVIDIA leaves unspecified, both NaN.
func Agrees(r Result) bool {
	want := Want(r.Case)
	if r.Got == want {
		return true
	}
	f := r.Model.Ret.Float
	return r.Model.NaNUnspecified && f != nil && f.IsNaN(want) && f.IsNaN(r.Got)
}
