package decode

import (
	"fmt"
	"strconv"
	"strings"
)

// An operand profile is what LLVM's encoding of one VOP3P instruction lets
// each source and modifier hold, from the rules table (shapes.tsv): the
// register classes of the sources (src-class=), the source modifier bits
// (neg-lo=, neg-hi=), the clamp bit (clamp=), op_sel and op_sel_hi
// fixed (op-sel=none) but for the op_sel bits a sparse
// matrix instruction keeps its index key in (index-key=) and whether
// op_sel[2] and op_sel_hi[2] are matrix reuse hints (reuse). A word that
// sets what the profile does not allow is one llvm-mc rejects (or flags
// /*Invalid register*/), so the decoder rejects it.
type opProfile struct {
	// class is, per source, the operand classes it takes (classV...);
	// 0 takes anything.
	class [3]uint8
	// negLo, negHi are the sources (bit i: source i) whose neg_lo and
	// neg_hi bits may be set.
	negLo, negHi uint8
	noClamp      bool
	// opSelNone: op_sel is fixed at 0 and op_sel_hi at 1 (op-sel=none),
	// but for the index key and reuse bits.
	opSelNone bool
	// opSelHiIgnored: op_sel is fixed at 0 and LLVM reads past op_sel_hi
	// (op-sel=hi-ignored: RDNA 3 WMMA with a 32-bit result).
	opSelHiIgnored bool
	indexKey       int // op_sel bits holding the index key (SWMMAC)
	reuse          bool
}

// Operand classes of a source code (srcClass).
const (
	classV uint8 = 1 << iota // a VGPR (codes 256-511)
	classS                   // an SGPR, trap temporary or named scalar register
	classK                   // an inline constant (integers 128-208, floats 240-248)
	classL                   // the literal (255)
	classC                   // a named constant register (src_scc, src_shared_base, ...: codes 230-239, 251-254)
)

// srcClass is the operand class of a 9-bit source code.
func srcClass(code int) uint8 {
	switch {
	case code >= 256:
		return classV
	case code >= 128 && code <= 208, code >= 240 && code <= 248:
		return classK
	case code == literalCode:
		return classL
	case code >= 128:
		return classC
	}
	return classS
}

// profileKeys are the rule keys that make an operand profile.
var profileKeys = []string{"src-class", "neg-lo", "neg-hi", "clamp", "op-sel", "index-key", "reuse"}

// checkProfileFact says what is wrong with one profile fact of a rule
// (parseRules calls it, so profileOf reads only valid values).
func checkProfileFact(k, v string) error {
	f := facts{val: map[string]string{k: v}}
	_, err := profileOf(&f)
	return err
}

// profileOf reads an instruction's operand profile from its facts; nil when
// the rules give it none.
func profileOf(f *facts) (*opProfile, error) {
	any := false
	for _, k := range profileKeys {
		any = any || f.has(k)
	}
	if !any {
		return nil, nil
	}
	p := &opProfile{negLo: 7, negHi: 7}
	if v := f.get("src-class"); v != "" {
		cs := strings.Split(v, ",")
		if len(cs) > 3 {
			return nil, fmt.Errorf("src-class=%q: at most three sources", v)
		}
		for i, c := range cs {
			for _, ch := range c {
				switch ch {
				case 'v':
					p.class[i] |= classV
				case 's':
					p.class[i] |= classS
				case 'k':
					p.class[i] |= classK
				case 'l':
					p.class[i] |= classL
				case 'c':
					p.class[i] |= classC
				default:
					return nil, fmt.Errorf("src-class=%q: class letters are v s k l c", v)
				}
			}
		}
	}
	for _, b := range [...]struct {
		key string
		dst *uint8
	}{{"neg-lo", &p.negLo}, {"neg-hi", &p.negHi}} {
		v := f.get(b.key)
		if v == "" {
			continue
		}
		m, err := bitString(v)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %v", b.key, v, err)
		}
		*b.dst = m
	}
	switch v := f.get("clamp"); v {
	case "", "yes":
	case "no":
		p.noClamp = true
	default:
		return nil, fmt.Errorf("clamp=%q: yes or no", v)
	}
	switch v := f.get("op-sel"); v {
	case "":
	case "none":
		p.opSelNone = true
	case "hi-ignored":
		p.opSelHiIgnored = true
	default:
		return nil, fmt.Errorf("op-sel=%q: none or hi-ignored (or no fact)", v)
	}
	if v := f.get("index-key"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 2 {
			return nil, fmt.Errorf("index-key=%q: 0, 1 or 2 bits", v)
		}
		p.indexKey = n
	}
	p.reuse = f.has("reuse")
	return p, nil
}

// bitString reads "110" (source 0 first) as a bit mask.
func bitString(v string) (uint8, error) {
	if len(v) == 0 || len(v) > 3 {
		return 0, fmt.Errorf("one 0 or 1 per source")
	}
	var m uint8
	for i, c := range v {
		switch c {
		case '1':
			m |= 1 << uint(i)
		case '0':
		default:
			return 0, fmt.Errorf("one 0 or 1 per source")
		}
	}
	return m, nil
}

// checkClasses marks the word invalid where a scalar, VOP1 or VOP3 source
// is outside the class the operand profile gives it (src-class=; VOP3P
// words are checked by checkProfile).
func (r *renderer) checkClasses(p *opProfile) {
	var ids []fieldID
	switch r.fm.kind {
	case KindSOP1, KindSOP2, KindSOPC:
		ids = []fieldID{fSSRC0, fSSRC1}
	case KindVOP1:
		ids = []fieldID{fSRC0}
	case KindVOP3, KindVOP3B:
		ids = []fieldID{fSRC0, fSRC1, fSRC2}
	}
	for i, id := range ids {
		if c := p.class[i]; c != 0 && r.has(id) {
			if code := r.f(id); srcClass(code)&c == 0 {
				r.mark(invalidClass, code)
			}
		}
	}
}

// checkProfile marks the word invalid where a VOP3P word sets what the
// entry's operand profile does not allow (see opProfile); nsrc sources.
func (r *renderer) checkProfile(p *opProfile, nsrc int) {
	for i := 0; i < nsrc && i < 3; i++ {
		if c := p.class[i]; c != 0 {
			if code := r.src0or(i); srcClass(code)&c == 0 {
				r.mark(invalidClass, code)
			}
		}
	}
	if uint8(r.f(fNEG))&^p.negLo != 0 {
		r.markField(fNEG)
	}
	if uint8(r.f(fNEGHI))&^p.negHi != 0 {
		r.markField(fNEGHI)
	}
	if p.noClamp && r.f(fCLMP) != 0 {
		r.markField(fCLMP)
	}
	if p.opSelHiIgnored && r.f(fOPSEL) != 0 {
		r.markField(fOPSEL)
	}
	if !p.opSelNone || r.en.fmtScaled || r.en.fmtFixed {
		return // op_sel and op_sel_hi are free, or hold the matrix formats
	}
	allowed, fixedHi := 1<<uint(p.indexKey)-1, 7
	if p.reuse && r.d.fam.matrixReuse {
		allowed |= 4
		fixedHi = 3
	}
	if r.f(fOPSEL)&^allowed != 0 {
		r.markField(fOPSEL)
	}
	if hi := r.f(fOPSELHI) | r.f(fOPSELHI2)<<2; hi&fixedHi != fixedHi {
		if r.f(fOPSELHI)&3 != 3 {
			r.markField(fOPSELHI)
		} else {
			r.markField(fOPSELHI2)
		}
	}
}
