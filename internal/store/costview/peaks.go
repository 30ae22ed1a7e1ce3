package costview

import (
	"math"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// PeakTolerance is how far (a fraction) an implied peak may be from the
// published one and still agree: AMD prints TFLOPS to one decimal.
const PeakTolerance = 0.01

// PeakCheck holds one published dense peak of a product against the rate
// LLVM's scheduling model implies: CUs × peak clock × the work per cycle per
// CU of the family's fastest dense instruction of the type on the
// product's target.
type PeakCheck struct {
	Product   string    `json:"product"`
	Target    string    `json:"target"`
	Arch      string    `json:"arch"`
	CUs       int       `json:"cus"`
	PeakMHz   int       `json:"peak_mhz"`
	DType     isa.DType `json:"dtype"`
	Published float64   `json:"published_tflops"`
	// Implied is 0 when no dense instruction of the type has a modelled
	// cost on the target (Note says why).
	Implied     float64 `json:"implied_tflops"`
	Instruction string  `json:"instruction,omitempty"` // the fastest one
	Opcode      string  `json:"opcode,omitempty"`      // its LLVM opcode (F8F6F4's carries the operand formats)
	Passes      int     `json:"passes,omitempty"`
	PerCU       float64 `json:"per_cycle_cu,omitempty"`
	// DiffPct is (Implied − Published) / Published in %.
	DiffPct float64 `json:"diff_pct"`
	Agrees  bool    `json:"agrees"`
	Note    string  `json:"note,omitempty"`
	Source  string  `json:"source"`
}

// EntryLoader reads one family's cost table.
type EntryLoader func(arch string) ([]Entry, error)

// CheckPeaks holds every published peak of products against the model, in
// the products' order and then the data types' (isa.DTypes). A family
// whose table cannot be read gives checks with the error as their Note.
func CheckPeaks(products []isa.InstinctProduct, load EntryLoader) []PeakCheck {
	var out []PeakCheck
	tables := map[string][]Entry{}
	errs := map[string]error{}
	for _, p := range products {
		archID, _ := isa.ArchForTarget(p.Target)
		if _, seen := tables[archID]; !seen && errs[archID] == nil {
			tables[archID], errs[archID] = load(archID)
		}
		best := bestDense(isa.MustArch(archID), tables[archID], p.Target)
		for _, d := range isa.DTypes {
			pub, ok := p.Peaks[d]
			if !ok {
				continue
			}
			c := PeakCheck{Product: p.Name, Target: p.Target, Arch: archID, CUs: p.CUs, PeakMHz: p.PeakMHz, DType: d, Published: pub, Source: p.Source}
			r, ok := best[d]
			switch {
			case errs[archID] != nil:
				c.Note = errs[archID].Error()
			case !ok:
				c.Note = "no dense " + string(d) + " matrix instruction has a modelled cost on " + p.Target
			default:
				c.Instruction, c.Opcode, c.Passes, c.PerCU = r.name, r.opcode, r.work.Passes, r.work.PerCycleCU
				c.Implied = TFLOPS(p.CUs, p.PeakMHz, r.work.PerCycleCU)
				c.DiffPct = 100 * (c.Implied - pub) / pub
				c.Agrees = math.Abs(c.Implied-pub) <= PeakTolerance*pub
			}
			out = append(out, c)
		}
	}
	return out
}

type bestRow struct {
	name, opcode string
	work         *Work
}

// bestDense is, per data type, the dense instruction with the most work per
// cycle per CU on target (ties to the first name).
func bestDense(a isa.ArchInfo, entries []Entry, target string) map[isa.DType]bestRow {
	best := map[isa.DType]bestRow{}
	for _, e := range entries {
		c, ok := e.Cost[target]
		if !ok {
			continue
		}
		// The example's operand formats, then the others the build
		// modelled (an F8F6F4 instruction's FP6 and FP4).
		for _, fc := range append([]isa.Cost{c}, c.Formats...) {
			w, ok := WorkOf(a, e.Name, fc)
			if !ok || w.Sparse || w.PerCycleCU == 0 {
				continue
			}
			if b, ok := best[w.DType]; !ok || w.PerCycleCU > b.work.PerCycleCU || w.PerCycleCU == b.work.PerCycleCU && e.Name < b.name {
				best[w.DType] = bestRow{e.Name, fc.Opcode, w}
			}
		}
	}
	return best
}

// Disagreements are the checks that do not agree, unchecked ones included.
func Disagreements(checks []PeakCheck) []PeakCheck {
	var out []PeakCheck
	for _, c := range checks {
		if !c.Agrees {
			out = append(out, c)
		}
	}
	return out
}
