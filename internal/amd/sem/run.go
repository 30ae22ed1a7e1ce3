package sem

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// ErrNotExecutable is returned (wrapped) for an instruction whose
// pseudocode does not parse or uses what the evaluator does not model.
var ErrNotExecutable = errors.New("not executable")

// Result is one run: the wave afterwards, every assignment made (the first
// maxTrace of them), and the lanes that ran.
type Result struct {
	Wave  *Wave
	Trace []Step
	Lanes []int
	// Truncated says the trace holds only the first maxTrace steps.
	Truncated bool
}

// Run evaluates the instruction on a copy of w: once per lane EXEC enables
// for a vector instruction (all lanes see the wave-wide state as it was
// before any of them ran, except what earlier lanes wrote to it, which
// only lane masks and VCC do, one bit per lane), once for a scalar one.
// Input modifiers (abs, neg) are applied to the float sources first,
// output modifiers (omod, clamp) to D0 after. trace records assignments.
func (in *Instruction) Run(w *Wave, trace bool) (*Result, error) {
	if in.Err != nil || in.Info == nil {
		return nil, fmt.Errorf("%s: %w: its pseudocode does not parse: %v", in.Name, ErrNotExecutable, in.Err)
	}
	if len(in.Info.Problems) > 0 {
		return nil, fmt.Errorf("%s: %w: %s", in.Name, ErrNotExecutable, in.Info.Problems[0])
	}
	if in.Matrix != nil {
		return nil, in.notPerLane()
	}
	return in.run(w.Clone(), trace)
}

// notPerLane is the error of a per-lane run of a matrix operation.
func (in *Instruction) notPerLane() error {
	return fmt.Errorf("%s: %w lane by lane: %s (%s) is evaluated over whole matrices (Evaluate)", in.Name, ErrNotExecutable, MatrixProblem, in.Matrix.Formula)
}

// run evaluates on w itself (Run gives it a copy).
func (in *Instruction) run(out *Wave, trace bool) (*Result, error) {
	res := &Result{Wave: out}
	var tr *[]Step
	if trace {
		tr = &res.Trace
	}
	steps := 0
	lanes := []int{0}
	if in.Info.Vector {
		lanes = out.ActiveLanes()
	}
	if len(out.Lanes) == 0 {
		out.Lanes = []map[string]Value{{}}
	}
	for _, l := range lanes {
		if l >= len(out.Lanes) {
			continue
		}
		if err := in.applyInputMods(out, out.Lanes[l]); err != nil {
			return nil, err
		}
	}
	for _, l := range lanes {
		if l >= len(out.Lanes) {
			continue
		}
		m := &machine{inst: in, wave: out, lane: l, regs: out.Lanes[l], vars: map[string]*variable{},
			lams: map[string]*Lambda{}, trace: tr, steps: &steps}
		if _, err := m.exec(in.Prog.Body); err != nil {
			var ee *evalError
			if errors.As(err, &ee) && ee.Unsupported {
				return nil, fmt.Errorf("%s: %w: %v", in.Name, ErrNotExecutable, err)
			}
			return nil, fmt.Errorf("%s (lane %d): %w", in.Name, l, err)
		}
		if err := in.applyOutputMods(m); err != nil {
			return nil, err
		}
		res.Lanes = append(res.Lanes, l)
	}
	res.Truncated = trace && len(res.Trace) >= maxTrace
	return res, nil
}

// applyInputMods applies |x| and -x to the float sources of one lane.
func (in *Instruction) applyInputMods(w *Wave, regs map[string]Value) error {
	for i := 0; i < 3; i++ {
		if !w.Mods.Abs[i] && !w.Mods.Neg[i] {
			continue
		}
		name := "S" + strconv.Itoa(i)
		info := in.Info.Regs[name]
		if info == nil || info.Type.Kind != KFloat {
			return fmt.Errorf("%s: abs/neg on %s, which its pseudocode does not read as a float", in.Name, name)
		}
		f := info.Type.Float
		v, ok := regs[name]
		if !ok {
			v = FromUint(0, Type{Kind: KBits, Width: info.Width})
		}
		b := v.Uint() & f.mask()
		if w.Mods.Abs[i] {
			b &^= f.signBit()
		}
		if w.Mods.Neg[i] {
			b ^= f.signBit()
		}
		regs[name] = insert(v, 0, f.Bits, FromUint(b, Type{Kind: KBits, Width: f.Bits}), false)
	}
	return nil
}

// applyOutputMods applies the output modifier (*2, *4, /2) and clamp to
// [0, 1] to a float D0 (a NaN clamps to 0 when DX10 clamp is on).
func (in *Instruction) applyOutputMods(m *machine) error {
	mods := m.wave.Mods
	if mods.OMod == 0 && !mods.Clamp {
		return nil
	}
	info := in.Info.Regs["D0"]
	if info == nil || info.Type.Kind != KFloat || info.LaneMask {
		return fmt.Errorf("%s: omod/clamp on a D0 its pseudocode does not write as a float", in.Name)
	}
	f := info.Type.Float
	d := m.regs["D0"]
	b := d.Uint() & f.mask()
	env := m.env(f)
	switch mods.OMod {
	case 1:
		b = f.Mul(b, f.FromFloat64(2, RoundNearestEven), env)
	case 2:
		b = f.Mul(b, f.FromFloat64(4, RoundNearestEven), env)
	case 3:
		b = f.Mul(b, f.FromFloat64(0.5, RoundNearestEven), env)
	}
	if mods.Clamp {
		switch {
		case f.isNaN(b):
			if m.wave.Mode.DX10Clamp {
				b = 0
			}
		case f.Compare(b, 0) < 0:
			b = 0
		case f.Compare(b, f.FromFloat64(1, RoundNearestEven)) > 0:
			b = f.FromFloat64(1, RoundNearestEven)
		}
	}
	m.regs["D0"] = insert(d, 0, f.Bits, FromUint(b, Type{Kind: KBits, Width: f.Bits}), false)
	return nil
}

// WaveSize is a family's usual wave size (isa.ArchInfo.WaveSize): 32 lanes
// on RDNA, 64 on CDNA; 64 for an unknown family.
func WaveSize(arch string) int {
	if info, ok := isa.ArchByID(arch); ok && info.WaveSize != 0 {
		return info.WaveSize
	}
	return 64
}

// Eval runs the instruction on lane 0 alone with the sources S0, S1, ...
// given as bits, in mode; the wave afterwards holds the results (D0 in
// Lanes[0], or Shared for a lane mask).
func (in *Instruction) Eval(srcs []uint64, mode Mode) (*Wave, error) {
	return in.EvalMods(srcs, mode, Modifiers{})
}

// EvalMods is Eval with the encoding's modifiers.
func (in *Instruction) EvalMods(srcs []uint64, mode Mode, mods Modifiers) (*Wave, error) {
	if in.Info == nil {
		_, err := in.Run(nil, false) // the parse error
		return nil, err
	}
	w := &Wave{Size: WaveSize(in.Arch), Exec: 1, Mode: mode, Mods: mods, TrapSts: map[string]uint64{}, Shared: map[string]Value{},
		Other: map[string]Value{}, Lanes: []map[string]Value{make(map[string]Value, len(srcs)+1)}}
	for i, b := range srcs {
		name := "S" + strconv.Itoa(i)
		wd := 32
		if r := in.Info.Regs[name]; r != nil {
			wd = r.Width
		}
		w.Lanes[0][name] = FromUint(b, Type{Kind: KBits, Width: wd})
	}
	if in.Err != nil || len(in.Info.Problems) > 0 || in.Matrix != nil {
		_, err := in.Run(nil, false)
		return nil, err
	}
	res, err := in.run(w, false)
	if err != nil {
		return nil, err
	}
	return res.Wave, nil
}

// Dest returns D0 (or another destination) after a run, as the program
// wrote it: lane 0's, or the wave-wide lane mask.
func (in *Instruction) Dest(w *Wave, name string) (Value, bool) {
	if r := in.Info.Regs[name]; r != nil && r.LaneMask {
		v, ok := w.Shared[name]
		return v, ok
	}
	if len(w.Lanes) == 0 {
		return Value{}, false
	}
	v, ok := w.Lanes[0][name]
	return v, ok
}
