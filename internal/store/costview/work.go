package costview

import (
	"fmt"
	"math"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Work is a matrix instruction's cost in the units people compare: the
// model's passes, the cycles they take, the work of one instruction and the
// work per cycle of one SIMD and of one CU.
type Work struct {
	M      int       `json:"m"`
	N      int       `json:"n"`
	K      int       `json:"k"`
	Blocks int       `json:"blocks"`
	DType  isa.DType `json:"dtype"`
	// Sparse: a 4:2-sparse instruction, its work counted as AMD counts it
	// "with sparsity" (the dense K).
	Sparse bool `json:"sparse,omitempty"`
	// Ops is 2·M·N·K·Blocks: FLOPs, or integer ops where Integer.
	Ops     int64 `json:"ops"`
	Integer bool  `json:"integer,omitempty"`
	// Passes is what LLVM's scheduling model holds the matrix unit for
	// (HWXDL[8]: 8 passes); Cycles is Passes × the family's cycles per
	// pass. Both 0 where the family has no stated pass length (RDNA).
	Passes int `json:"passes,omitempty"`
	Cycles int `json:"cycles,omitempty"`
	// PerCycleSIMD is Ops / Cycles, PerCycleCU that × the family's SIMDs
	// per CU.
	PerCycleSIMD float64 `json:"per_cycle_simd,omitempty"`
	PerCycleCU   float64 `json:"per_cycle_cu,omitempty"`
}

// Unit is "FLOPs" or "ops".
func (w Work) Unit() string {
	if w.Integer {
		return "ops"
	}
	return "FLOPs"
}

// Shape prints the shape as the guides' names do: "32x32x8", "4x4x4 ×16".
func (w Work) Shape() string {
	s := fmt.Sprintf("%dx%dx%d", w.M, w.N, w.K)
	if w.Blocks > 1 {
		s += fmt.Sprintf(" ×%d", w.Blocks)
	}
	return s
}

// WorkOf is the work of instruction name with cost c on a target of family
// a; false for instructions that are not matrix multiplies.
func WorkOf(a isa.ArchInfo, name string, c isa.Cost) (*Work, bool) {
	s, err := isa.ParseMatrix(name, c.Asm, c.Opcode)
	if err != nil {
		return nil, false
	}
	w := &Work{M: s.M, N: s.N, K: s.K, Blocks: s.Blocks, DType: s.DType, Sparse: s.Form.Sparse, Ops: s.Ops(), Integer: s.DType.Integer()}
	if a.CyclesPerPass > 0 {
		w.Passes = Passes(c)
		w.Cycles = w.Passes * a.CyclesPerPass
	}
	if w.Cycles > 0 {
		w.PerCycleSIMD = float64(w.Ops) / float64(w.Cycles)
		w.PerCycleCU = w.PerCycleSIMD * float64(max(a.SIMDsPerCU, 1))
	}
	return w, true
}

// FormatWork is one more operand format the build modelled for a matrix
// instruction (isa.Cost.Formats: an F8F6F4 instruction's FP6 and FP4):
// its cost and, where the name has a shape, its work.
type FormatWork struct {
	Cost isa.Cost
	Work *Work
}

// FormatsOf are c's other modelled formats with their work.
func FormatsOf(a isa.ArchInfo, name string, c isa.Cost) []FormatWork {
	var out []FormatWork
	for _, fc := range c.Formats {
		w, _ := WorkOf(a, name, fc)
		out = append(out, FormatWork{Cost: fc, Work: w})
	}
	return out
}

// Passes is how long the model holds the instruction's own unit (HWXDL[8],
// HWVALU[8] for DGEMM): the guides' passes of a matrix instruction. Without
// a count on the unit it is the reciprocal throughput.
func Passes(c isa.Cost) int {
	n := 0
	for _, r := range c.Resources {
		if r.Name == c.Unit {
			n = max(n, r.Cycles)
		}
	}
	if n == 0 && c.RThroughput >= 1 {
		n = int(math.Round(c.RThroughput))
	}
	return n
}

// TFLOPS is the rate CUs at mhz reach doing perCU operations per cycle per
// CU, in tera-operations per second.
func TFLOPS(cus, mhz int, perCU float64) float64 {
	return float64(cus) * float64(mhz) * 1e6 * perCU / 1e12
}

// CyclesPerPass is the pass length the cycles were counted with.
func (w Work) CyclesPerPass() int {
	if w.Passes == 0 {
		return 0
	}
	return w.Cycles / w.Passes
}
