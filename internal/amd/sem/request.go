package sem

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// Limits on what one request may ask, so a page or API call stays cheap.
const (
	MaxLanes      = 64
	maxInputLen   = 80
	maxInputCount = 8
)

// Request is an evaluation asked for in text: the value of each source
// operand per lane ("S0": {"nan", "1.0"}; one value means every lane),
// and optionally the wave state and modifiers.
type Request struct {
	Sources map[string][]string
	// Exec is the lanes that run ("0x3"); empty: as many lanes as the
	// longest source list.
	Exec string
	Wave int // 32 or 64; 0: the family's
	SCC  string
	VCC  string
	M0   string
	// IEEE, Round ("nearest-even", "toward-zero", "up", "down") and
	// Denorm ("keep" or "flush") override DefaultMode.
	IEEE   *bool
	Round  string
	Denorm string
	Mods   Modifiers
	Trace  bool
}

// Output is one register after the run, as its type reads.
type Output struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
	Bits  string `json:"bits"`
}

// LaneOutput is one lane's results.
type LaneOutput struct {
	Lane    int      `json:"lane"`
	Inputs  []Output `json:"inputs"`
	Outputs []Output `json:"outputs"`
}

// Response is the answer: per lane the inputs as read and the
// destinations written, the wave-wide outputs (lane masks, SCC, VCC,
// EXEC, TRAPSTS), every assignment when traced.
type Response struct {
	Arch      string       `json:"arch"`
	Name      string       `json:"name"`
	Mode      string       `json:"mode"`
	Lanes     []LaneOutput `json:"lanes"`
	Wave      []Output     `json:"wave"`
	Changes   []string     `json:"changes"`
	Trace     []Step       `json:"trace"`
	Truncated bool         `json:"truncated,omitempty"`
	// Matrix is D of a matrix operation, evaluated over whole matrices
	// (Lanes is then empty).
	Matrix *MatrixResult `json:"matrix,omitempty"`
}

// Evaluate runs a request on an instruction.
func Evaluate(in *Instruction, req Request) (*Response, error) {
	if !in.Executable() {
		_, err := in.Run(nil, false)
		if err == nil {
			err = fmt.Errorf("%s: %w", in.Name, ErrNotExecutable)
		}
		return nil, err
	}
	if in.Matrix != nil {
		return evaluateMatrix(in, req)
	}
	size := req.Wave
	if size == 0 {
		size = WaveSize(in.Arch)
	}
	if size != 32 && size != 64 {
		return nil, inputError("wave size %d: 32 or 64", size)
	}
	if len(req.Sources) > maxInputCount {
		return nil, inputError("%d sources given; at most %d", len(req.Sources), maxInputCount)
	}
	lanes := 1
	for name, vs := range req.Sources {
		if !isOperandReg(name) || name[0] != 'S' {
			return nil, inputError("unknown source %q: S0, S1, S2 or S3", name)
		}
		if len(vs) > size {
			return nil, inputError("%s has %d values for a wave of %d lanes", name, len(vs), size)
		}
		lanes = max(lanes, len(vs))
	}
	if !in.Info.Vector {
		lanes = 1
	}
	w := NewWave(size)
	w.Exec = laneMask(lanes)
	if req.Exec != "" {
		e, err := parseMask(req.Exec, size)
		if err != nil {
			return nil, err
		}
		w.Exec = e
	}
	mode := DefaultMode
	if req.IEEE != nil {
		mode.IEEE = *req.IEEE
	}
	switch req.Round {
	case "", "nearest-even", "rne":
	case "toward-zero", "rtz":
		mode.Round = RoundTowardZero
	case "up", "toward+inf", "rup":
		mode.Round = RoundUp
	case "down", "toward-inf", "rdn":
		mode.Round = RoundDown
	default:
		return nil, inputError("round %q: nearest-even, toward-zero, up or down", req.Round)
	}
	switch req.Denorm {
	case "", "keep":
	case "flush":
		mode.DenormF32, mode.DenormF16 = false, false
	default:
		return nil, inputError("denorm %q: keep or flush", req.Denorm)
	}
	w.Mode = mode
	w.Mods = req.Mods
	var err error
	if w.SCC, err = parseBoolText(req.SCC); err != nil {
		return nil, err
	}
	if req.VCC != "" {
		if w.VCC, err = parseMask(req.VCC, size); err != nil {
			return nil, err
		}
	}
	if req.M0 != "" {
		v, err := ParseInput(req.M0, TU32)
		if err != nil {
			return nil, inputError("M0: %v", err)
		}
		w.M0 = v
	}
	resp := &Response{Arch: in.Arch, Name: in.Name, Mode: describeMode(mode, size), Lanes: []LaneOutput{}, Wave: []Output{},
		Changes: []string{}, Trace: []Step{}}
	srcs := in.Info.Sources()
	if err := checkSources(in, srcs, req); err != nil {
		return nil, err
	}
	for _, r := range srcs {
		vs := req.Sources[r.Name]
		t := inputType(r)
		for l := 0; l < size; l++ {
			text := vs[min(l, len(vs)-1)]
			if len(text) > maxInputLen {
				return nil, inputError("%s: a value of %d characters; at most %d", r.Name, len(text), maxInputLen)
			}
			b, err := ParseInput(text, t)
			if err != nil {
				return nil, inputError("%s: %v", r.Name, err)
			}
			if l < len(w.Lanes) {
				w.Lanes[l][r.Name] = FromUint(b, Type{Kind: KBits, Width: max(r.Width, t.Width)})
			}
		}
	}
	before := w.Clone()
	res, err := in.Run(w, req.Trace)
	if err != nil {
		return nil, err
	}
	for _, l := range res.Lanes {
		lo := LaneOutput{Lane: l, Inputs: []Output{}, Outputs: []Output{}}
		for _, r := range srcs {
			lo.Inputs = append(lo.Inputs, output(r.Name, inputType(r), before.Lanes[l][r.Name]))
		}
		for _, r := range in.Info.Dests() {
			if !r.Written {
				continue
			}
			if r.LaneMask {
				// This lane's bit of the wave-wide mask.
				if v, ok := res.Wave.Shared[r.Name]; ok {
					bit := FromUint(uint64(v.Bit(l)), Type{Kind: KUint, Width: 1})
					lo.Outputs = append(lo.Outputs, Output{Name: fmt.Sprintf("%s[%d]", r.Name, l), Type: "u1", Value: valueText(bit), Bits: valueText(bit)})
				}
				continue
			}
			if v, ok := res.Wave.Lanes[l][r.Name]; ok {
				lo.Outputs = append(lo.Outputs, output(r.Name, outputType(r), v))
			}
		}
		resp.Lanes = append(resp.Lanes, lo)
	}
	for _, r := range in.Info.Dests() {
		if r.LaneMask {
			if v, ok := res.Wave.Shared[r.Name]; ok {
				resp.Wave = append(resp.Wave, Output{Name: r.Name, Type: fmt.Sprintf("b%d", size), Value: maskText(v.Uint(), size), Bits: maskText(v.Uint(), size)})
			}
		}
	}
	resp.Changes = append(resp.Changes, res.Wave.Changes(before)...)
	if req.Trace {
		resp.Trace = append(resp.Trace, res.Trace...)
		resp.Truncated = res.Truncated
	}
	return resp, nil
}

// checkSources holds a request to the sources (and the SCC, VCC, M0) the
// pseudocode reads: each must have a value (an operand left out is not zero: the hardware reads
// whatever its register holds), and a value for a source the instruction
// does not read is a mistake, not something to drop.
func checkSources(in *Instruction, srcs []*RegInfo, req Request) error {
	given := req.Sources
	names := make([]string, 0, len(srcs))
	reads := map[string]bool{}
	for _, r := range srcs {
		names = append(names, r.Name)
		reads[r.Name] = true
	}
	sort.Strings(names)
	// The wave state it reads is an input too: SCC, VCC, M0 before it.
	state := map[string]string{"SCC": req.SCC, "VCC": req.VCC, "M0": req.M0}
	var missingState []string
	for _, n := range in.Info.Inputs {
		names = append(names, n)
		if strings.TrimSpace(state[n]) == "" {
			missingState = append(missingState, n)
		}
	}
	list := strings.Join(names, ", ")
	if list == "" {
		list = "no source"
	}
	var extra []string
	for name := range given {
		if !reads[name] {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return inputError("%s does not read %s: its pseudocode reads %s", in.Name, strings.Join(extra, ", "), list)
	}
	var missing []string
	for _, n := range names {
		if reads[n] && len(given[n]) == 0 {
			missing = append(missing, n)
		}
	}
	missing = append(missing, missingState...)
	if len(missing) > 0 {
		return inputError("%s reads %s: no value given for %s", in.Name, list, strings.Join(missing, ", "))
	}
	return nil
}

// InputError is a request the caller got wrong (not the evaluator's fault).
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputError(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// inputType is the type a source's text is read as: the type the program
// first views it as, its element type for a packed source (given as raw
// bits), else an unsigned integer of its width.
func inputType(r *RegInfo) Type {
	if r.Type.Width == 0 && r.Width < 32 {
		// Read only through bit slices (a shift amount S1[4 : 0]): the
		// operand is still a whole 32-bit register, of which the
		// pseudocode takes the low bits, so any 32-bit value is an input.
		return Type{Kind: KBits, Width: 32}
	}
	if r.Type.Width > 0 && r.Type.Width == r.Width {
		return r.Type
	}
	if r.Type.Width > 0 && r.Type.Kind != KFloat {
		return Type{Kind: r.Type.Kind, Width: r.Width}
	}
	if r.Type.Kind == KFloat && r.Type.Width < r.Width {
		return r.Type
	}
	return Type{Kind: KBits, Width: r.Width}
}

func outputType(r *RegInfo) Type {
	if r.Type.Width > 0 {
		return r.Type
	}
	return Type{Kind: KBits, Width: r.Width}
}

func output(name string, t Type, v Value) Output {
	tv := v.view(t)
	return Output{Name: name, Type: t.String(), Value: valueText(tv), Bits: v.view(Type{Kind: KBits, Width: max(t.Width, 1)}).Hex()}
}

func valueText(v Value) string {
	switch v.T.Kind {
	case KFloat:
		return FormatFloat(v.u, v.T.Float)
	case KBits:
		return v.Hex()
	}
	return v.Num().String()
}

func maskText(m uint64, size int) string { return fmt.Sprintf("0x%0*x", size/4, m&laneMask(size)) }

func describeMode(m Mode, size int) string {
	parts := []string{fmt.Sprintf("wave%d", size), "round " + m.Round.String()}
	if m.IEEE {
		parts = append(parts, "IEEE mode on")
	} else {
		parts = append(parts, "IEEE mode off")
	}
	if m.DenormF32 && m.DenormF16 {
		parts = append(parts, "subnormals kept")
	} else {
		parts = append(parts, "subnormals flushed")
	}
	return strings.Join(parts, ", ")
}

func parseMask(s string, size int) (uint64, error) {
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "0x"), 16, 64)
	if err != nil {
		return 0, inputError("lane mask %q: hex, like 0xff", s)
	}
	if v&^laneMask(size) != 0 {
		return 0, inputError("lane mask %q has lanes beyond %d", s, size)
	}
	return v, nil
}

func parseBoolText(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, inputError("SCC %q: 0 or 1", s)
}

// ParseInput reads one value for a register of type t: hex (0x…, the raw
// bits), binary (0b…), a decimal integer, or for a float a decimal number
// (rounded to nearest even) or one of inf, -inf, -0, nan, -nan, snan,
// nan:0xPAYLOAD, snan:0xPAYLOAD, max, -max, min (smallest normal), denorm
// (smallest subnormal).
func ParseInput(s string, t Type) (uint64, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	if s == "" {
		return 0, fmt.Errorf("empty value")
	}
	w := t.Width
	if w == 0 {
		w = 32
	}
	if w > 64 {
		return 0, fmt.Errorf("%d-bit registers are given as hex words, not supported here", w)
	}
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "-0x") {
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimPrefix(s, "-")
		base := 16
		if strings.HasPrefix(s, "0b") {
			base = 2
		}
		v, err := strconv.ParseUint(s[2:], base, 64)
		if err != nil || w < 64 && v>>uint(w) != 0 {
			return 0, fmt.Errorf("%q does not fit %d bits", s, w)
		}
		if neg {
			v = -v
		}
		return v & WidthMask(w), nil
	}
	if t.Kind == KFloat {
		return parseFloatText(s, t.Float)
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	lo, hi := intRange(Type{Kind: KInt, Width: w})
	_, uhi := intRange(Type{Kind: KUint, Width: w})
	if n.Cmp(lo) < 0 || n.Cmp(uhi) > 0 || t.Kind == KInt && n.Cmp(hi) > 0 {
		return 0, fmt.Errorf("%s does not fit %s", s, Type{Kind: t.Kind, Width: w})
	}
	return FromBig(n, Type{Kind: KBits, Width: w}).Uint(), nil
}

func parseFloatText(s string, f *FloatFormat) (uint64, error) {
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	sign := uint64(0)
	if neg {
		sign = f.signBit()
	}
	kind, payload, hasPayload := strings.Cut(body, ":")
	switch kind {
	case "inf", "infinity":
		if f.NoInf {
			return 0, fmt.Errorf("%s has no infinity", f.Name)
		}
		return f.Inf(neg), nil
	case "nan", "qnan", "snan":
		if f.NaN != nanIEEE {
			return f.DefaultNaN(), nil
		}
		var p uint64
		if hasPayload {
			v, err := strconv.ParseUint(strings.TrimPrefix(payload, "0x"), 16, 64)
			if err != nil || v&^(f.fracMask()>>1) != 0 {
				return 0, fmt.Errorf("NaN payload %q does not fit %d bits", payload, f.ManBits-1)
			}
			p = v
		}
		b := f.expMax()<<uint(f.ManBits) | p | sign
		if kind == "snan" {
			if hasPayload && p == 0 {
				// Payload 0 with the quiet bit clear is infinity: using
				// another payload would answer a question not asked.
				return 0, fmt.Errorf("a signalling NaN needs a non-zero payload (snan:0x0 is infinity's bits); write snan for snan:0x%x", f.quietBit()>>1)
			}
			if p == 0 {
				b |= f.quietBit() >> 1 // a signalling NaN needs a payload bit
			}
			return b, nil
		}
		return b | f.quietBit(), nil
	case "max":
		return f.MaxFinite(neg), nil
	case "min":
		return 1<<uint(f.ManBits) | sign, nil
	case "denorm", "subnormal":
		return 1 | sign, nil
	}
	x, err := strconv.ParseFloat(body, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is out of range (write inf)", s)
	}
	// Decimal input is rounded once, exactly, to the format.
	bf, _, err := big.ParseFloat(body, 10, 2000, big.ToNearestEven)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	b := f.FromBigFloat(bf, RoundNearestEven)
	if neg {
		b |= f.signBit()
		if f.NaN == nanNegZero && b == f.signBit() {
			b = 0
		}
	}
	return b, nil
}

// SourceNames lists the sources an instruction reads, for forms and help.
func (in *Instruction) SourceNames() []string {
	if in.Matrix != nil {
		return []string{"S0", "S1", "S2"}
	}
	var out []string
	for _, r := range in.Info.Sources() {
		out = append(out, r.Name)
	}
	sort.Strings(out)
	return out
}

// InputType is the type a source's values are read as (for forms: "f32").
func (in *Instruction) InputType(name string) string {
	if in.Matrix != nil {
		for _, s := range in.Matrix.Sources() {
			if s.Name == name {
				return s.Type.String()
			}
		}
		return ""
	}
	if r := in.Info.Regs[name]; r != nil {
		return inputType(r).String()
	}
	return ""
}
