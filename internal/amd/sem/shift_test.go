package sem

import (
	"fmt"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/sem/semtest"
)

// shiftAmounts finds, in a program, the shift amounts the text takes
// from a source's low bits (x << S1[4 : 0].u32, x >> S0.u32[5 : 0]): the
// source and the highest bit read, for a source read nowhere else (s_bfe
// reads S1[22 : 16] as well: its higher bits matter).
func shiftAmounts(p *Program) map[string]int {
	lowSlice := func(e Expr) (string, int, bool) {
		for {
			switch v := e.(type) {
			case *View:
				e = v.X
				continue
			case *Cast:
				e = v.X
				continue
			}
			break
		}
		s, ok := e.(*Slice)
		if !ok {
			return "", 0, false
		}
		hi, ok1 := constInt(s.Hi)
		lo, ok2 := constInt(s.Lo)
		base := baseIdent(s.X)
		if !ok1 || !ok2 || lo != 0 || base == nil || !isOperandReg(base.Name) || base.Name[0] != 'S' {
			return "", 0, false
		}
		return base.Name, hi, true
	}
	shifts, slices, uses := map[string]int{}, map[string]int{}, map[string]int{}
	walkProgram(p, func(e Expr) {
		switch x := e.(type) {
		case *Ident:
			uses[x.Name]++
		case *Slice:
			if name, _, ok := lowSlice(x); ok {
				slices[name]++
			}
		case *Binary:
			if x.Op == "<<" || x.Op == ">>" {
				if name, hi, ok := lowSlice(x.Y); ok {
					shifts[name] = max(shifts[name], hi)
				}
			}
		}
	}, func(Stmt) {})
	for name := range shifts {
		if slices[name] != uses[name] {
			delete(shifts, name)
		}
	}
	return shifts
}

// TestShiftAmountsWrap: for every instruction of the guides whose
// pseudocode shifts by a source's low bits, an amount at or above the
// width (and any value with higher bits set) is taken, not refused, and
// gives what its low bits give: the text reads S1[4 : 0] of a whole
// register, as the hardware does.
func TestShiftAmountsWrap(t *testing.T) {
	for _, fam := range []string{"rdna3", "rdna3.5", "rdna4", "cdna3", "cdna4", "cdna5"} {
		lib := NewLibrary(fam, semtest.Pseudocode(t, fam))
		tested := 0
		for _, n := range lib.Names() {
			in := lib.Get(n)
			if !in.Executable() || in.Matrix != nil {
				continue
			}
			for src, hi := range shiftAmounts(in.Prog) {
				if testShiftSource(t, in, src, hi) {
					tested++
				}
			}
		}
		t.Logf("%s: %d shift amounts read from a source's low bits, each wrapping", fam, tested)
		if tested < 10 {
			t.Errorf("%s: only %d shift instructions found in the guide's text", fam, tested)
		}
	}
}

// testShiftSource evaluates in with src's low bits fixed and the bits
// above hi varied; false when the instruction cannot run on the plain
// inputs used for its other sources.
func testShiftSource(t *testing.T, in *Instruction, src string, hi int) bool {
	t.Helper()
	width := uint64(1) << uint(hi+1) // the shift range the text takes
	w := 32
	if tw := inputType(in.Info.Regs[src]).Width; tw > 0 {
		w = tw
	}
	base := map[string][]string{}
	for _, name := range in.SourceNames() {
		v := "7"
		if in.InputType(name)[0] == 'f' || in.InputType(name)[0] == 'b' && in.InputType(name)[1] == 'f' {
			v = "1.5"
		}
		base[name] = []string{v}
	}
	run := func(amount uint64) (string, error) {
		req := Request{Sources: map[string][]string{}}
		for k, v := range base {
			req.Sources[k] = v
		}
		req.Sources[src] = []string{fmt.Sprintf("%#x", amount&WidthMask(w))}
		resp, err := Evaluate(in, req)
		if err != nil {
			return "", err
		}
		var out []Output
		for _, l := range resp.Lanes {
			out = append(out, l.Outputs...)
		}
		return fmt.Sprintf("%v %v %v", out, resp.Wave, resp.Changes), nil
	}
	for _, low := range []uint64{0, 1, width - 1} {
		want, err := run(low)
		if err != nil {
			return false // the other sources' plain values do not suit it
		}
		for _, amount := range []uint64{low + width, low + 3*width, low | ^(width - 1)} {
			got, err := run(amount)
			if err != nil {
				t.Errorf("%s %s: %s = %#x refused: %v", in.Arch, in.Name, src, amount&WidthMask(w), err)
				return true
			}
			if got != want {
				t.Errorf("%s %s: %s = %#x gives %s, but its low bits (%s[%d : 0] = %d) give %s", in.Arch, in.Name, src,
					amount&WidthMask(w), got, src, hi, low, want)
			}
		}
	}
	return true
}
