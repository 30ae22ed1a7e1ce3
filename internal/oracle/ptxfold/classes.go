package ptxfold

import (
	"bufio"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"io"
	"math/big"
	"path"
	"strings"
)

// A tolerated difference is a class of cases where ptxas's folded constant
// and the model are known to differ for a stated reason, written in a
// table (testdata/tolerated.tsv): the forms it covers (patterns over
// mnemonic+variant, "shr.*16"), the class and the reason. Each class is a
// rule over the case and the folded value, so a row covers every case of
// its kind, not the cases that happened to be drawn.
var classes = map[string]func(r Result) bool{
	"shift-amount-wraps":           shiftAmountWraps,
	"tie-in-effective-subtraction": tieTowardZero,
}

// Tolerance is one row of the table.
type Tolerance struct {
	Forms  []string
	Class  string
	Reason string
}

// ReadTolerances reads the table: tab-separated forms, class, reason;
// '#' starts a comment line.
func ReadTolerances(r io.Reader) ([]Tolerance, error) {
	var out []Tolerance
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Split(l, "\t")
		if len(f) != 3 || strings.TrimSpace(f[2]) == "" {
			return nil, fmt.Errorf("tolerated table line %d: want forms, class and reason separated by tabs", n)
		}
		if classes[f[1]] == nil {
			return nil, fmt.Errorf("tolerated table line %d: unknown class %q", n, f[1])
		}
		out = append(out, Tolerance{Forms: strings.Fields(f[0]), Class: f[1], Reason: f[2]})
	}
	return out, sc.Err()
}

// Tolerated returns the row that covers a differing result, or nil.
func Tolerated(rows []Tolerance, r Result) *Tolerance {
	form := r.Model.Mnemonic + r.Model.Variant
	for i, t := range rows {
		for _, p := range t.Forms {
			if ok, _ := path.Match(p, form); ok && classes[t.Class](r) {
				return &rows[i]
			}
		}
	}
	return nil
}

// shiftAmountWraps: a shift of a value narrower than its 32-bit amount,
// by an amount of 2^width or more whose remainder modulo 2^width is a
// shift within the width (0x80000000 on a 16-bit value: 0), where the
// result is the value shifted by that remainder.
func shiftAmountWraps(r Result) bool {
	m := r.Model
	if len(m.Srcs) != 2 || m.Srcs[1].Float != nil || m.Srcs[1].Width != 32 || m.Srcs[0].Float != nil {
		return false
	}
	w := m.Srcs[0].Width
	amt := r.Inputs[1]
	if w >= 32 || amt < 1<<w || amt&(1<<w-1) >= uint64(w) {
		return false
	}
	in := append([]uint64(nil), r.Inputs...)
	in[1] = amt & (1<<w - 1)
	return m.Eval(in)&(1<<w-1) == r.Got
}

// exact is the infinitely precise value of the two-operand arithmetic
// forms, for the classes that need it.
var exact = map[string]func(z, x, y *big.Float) *big.Float{
	"add": (*big.Float).Add, "sub": (*big.Float).Sub, "mul": (*big.Float).Mul,
}

// tieTowardZero: an effective subtraction (|exact| below the larger
// operand's magnitude) whose exact result lies halfway between two
// neighbours, folded to the neighbour toward zero rather than the even
// one.
func tieTowardZero(r Result) bool {
	m := r.Model
	f := m.Ret.Float
	op := exact[m.Mnemonic]
	if f == nil || op == nil || len(r.Inputs) != 2 {
		return false
	}
	a, b := f.ToBigFloat(r.Inputs[0]), f.ToBigFloat(r.Inputs[1])
	if a == nil || b == nil {
		return false
	}
	x := op(new(big.Float).SetPrec(4096), a, b)
	big1 := new(big.Float).Abs(a)
	if bb := new(big.Float).Abs(b); bb.Cmp(big1) > 0 {
		big1 = bb
	}
	if x.Sign() == 0 || new(big.Float).Abs(x).Cmp(big1) >= 0 {
		return false
	}
	rz := f.FromBigFloat(x, sem.RoundTowardZero)
	lo, hi := f.ToBigFloat(rz), f.ToBigFloat(rz+1) // rz+1: the next magnitude
	if lo == nil || hi == nil {
		return false
	}
	mid := new(big.Float).SetPrec(4096).Add(lo, hi)
	mid.SetMantExp(mid, -1)
	return mid.Cmp(x) == 0 && r.Got == rz
}
