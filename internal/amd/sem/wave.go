package sem

import (
	"fmt"
	"maps"
	"slices"
)

// Mode is the part of the MODE register that changes results: IEEE mode
// (how min/max treat signalling NaNs, in families whose pseudocode reads
// it), the rounding direction and whether subnormals are kept, for f32 and
// for f16/f64 separately as the register has it.
type Mode struct {
	IEEE      bool
	Round     RoundMode
	DenormF32 bool // f32 subnormals kept (false: flushed to zero)
	DenormF16 bool // f16, bf16 and f64 subnormals kept
	DX10Clamp bool // clamp makes NaN 0
	// NaN is the NaN invalid operations produce; AMD's guides show the
	// negative quiet NaN (see NaNNegative).
	NaN DefaultNaN
}

// DefaultMode is what a compute kernel usually runs with: IEEE mode on,
// round to nearest even, subnormals kept (LLVM's default for gfx9 and
// newer compute), DX10 clamp on, and the guides' default NaN.
var DefaultMode = Mode{IEEE: true, Round: RoundNearestEven, DenormF32: true, DenormF16: true, DX10Clamp: true, NaN: NaNNegative}

// Modifiers are the encoding's operand modifiers that act outside the
// pseudocode: |x| and -x on the float sources (VOP3 abs/neg), clamp and
// output modifier on the result, and op_sel/op_sel_hi, which the
// pseudocode reads where it uses them (OPSEL) and which otherwise select
// the 16-bit halves of 16-bit sources and destination.
type Modifiers struct {
	Abs     [3]bool
	Neg     [3]bool
	Clamp   bool
	OMod    int // 0: none, 1: *2, 2: *4, 3: /2
	OpSel   uint64
	OpSelHi uint64
}

// Wave is the state one instruction runs on: per-lane registers for the
// vector unit (or lane 0 alone for a scalar instruction), the wave-wide
// registers and the mode.
type Wave struct {
	Size int    // 32 or 64 lanes
	Exec uint64 // lanes that run
	SCC  bool
	VCC  uint64
	M0   uint64
	Mode Mode
	// TrapSts holds the TRAPSTS fields the pseudocode sets (INVALID).
	TrapSts map[string]uint64
	// Lanes are the operand registers of every lane: "S0", "S1", "D0".
	// A scalar instruction has one lane.
	Lanes []map[string]Value
	// Shared are wave-wide operand registers: scalar sources of a vector
	// instruction and lane masks (a VOPC result, written one bit per lane).
	Shared map[string]Value
	Mods   Modifiers
	// Other names wave-wide state the pseudocode reads by name (SIMM16,
	// PC): given as input, written back.
	Other map[string]Value
}

// NewWave returns a wave of size lanes, all of them on, in the default mode.
func NewWave(size int) *Wave {
	w := &Wave{Size: size, Mode: DefaultMode, TrapSts: map[string]uint64{}, Shared: map[string]Value{}, Other: map[string]Value{}}
	w.Exec = laneMask(size)
	w.Lanes = make([]map[string]Value, size)
	for i := range w.Lanes {
		w.Lanes[i] = map[string]Value{}
	}
	return w
}

func laneMask(size int) uint64 {
	if size >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(size) - 1
}

// Clone copies the wave (registers are values, so a shallow copy of each
// map suffices).
func (w *Wave) Clone() *Wave {
	c := *w
	c.TrapSts = cloneMap(w.TrapSts)
	c.Shared = cloneMap(w.Shared)
	c.Other = cloneMap(w.Other)
	c.Lanes = make([]map[string]Value, len(w.Lanes))
	for i, l := range w.Lanes {
		c.Lanes[i] = cloneMap(l)
	}
	return &c
}

func cloneMap[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ActiveLanes lists the lanes EXEC enables.
func (w *Wave) ActiveLanes() []int {
	var out []int
	for l := 0; l < len(w.Lanes) && l < 64; l++ {
		if w.Exec>>uint(l)&1 == 1 {
			out = append(out, l)
		}
	}
	return out
}

// env is the floating-point environment for an operation of format f.
func (m Mode) env(f *FloatFormat) Env {
	keep := m.DenormF16
	if f == &F32 {
		keep = m.DenormF32
	}
	return Env{Round: m.Round, Flush: !keep, NaN: m.NaN}
}

// hardware encodings of the rounding modes (MODE.FP_ROUND) and the names
// the pseudocode gives them.
var roundNames = map[string]RoundMode{
	"ROUND_NEAREST_EVEN": RoundNearestEven, "ROUND_TOWARD_ZERO": RoundTowardZero,
	"ROUND_PLUS_INFINITY": RoundUp, "ROUND_MINUS_INFINITY": RoundDown,
	"ROUND_TOWARD_POSITIVE": RoundUp, "ROUND_TOWARD_NEGATIVE": RoundDown,
}

var roundCodes = map[RoundMode]uint64{RoundNearestEven: 0, RoundUp: 1, RoundDown: 2, RoundTowardZero: 3}

func roundFromCode(c uint64) RoundMode {
	for m, v := range roundCodes {
		if v == c&3 {
			return m
		}
	}
	return RoundNearestEven
}

// Changes lists what differs between two waves' wave-wide state, in words,
// for a result's summary.
func (w *Wave) Changes(before *Wave) []string {
	var out []string
	if w.SCC != before.SCC {
		out = append(out, fmt.Sprintf("SCC = %d", b2u(w.SCC)))
	}
	if w.VCC != before.VCC {
		out = append(out, fmt.Sprintf("VCC = 0x%0*x", w.Size/4, w.VCC))
	}
	if w.Exec != before.Exec {
		out = append(out, fmt.Sprintf("EXEC = 0x%0*x", w.Size/4, w.Exec))
	}
	keys := slices.Sorted(maps.Keys(w.TrapSts))
	for _, k := range keys {
		if w.TrapSts[k] != before.TrapSts[k] {
			out = append(out, fmt.Sprintf("TRAPSTS.%s = %d", k, w.TrapSts[k]))
		}
	}
	if w.Mode != before.Mode {
		out = append(out, "MODE changed")
	}
	return out
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
