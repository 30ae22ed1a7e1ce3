package encode

import (
	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// symbols maps the symbolic immediates LLVM writes (hwreg(HW_REG_MODE),
// sendmsg(MSG_INTERRUPT), gpr_idx(SRC0,DST)) to their 16-bit values. The
// tables are not written out here: they are read back from the decoder by
// rendering every candidate value of the instruction that takes them, so
// the encoder spells names exactly as the decoder (and the check that
// re-decodes each encoding) does.
type symbols struct {
	once    sync.Once
	hwreg   map[string]int // "hw_reg_mode" -> id
	byText  map[string]int // "sendmsg(msg_interrupt)", "gpr_idx(src0)" -> value
	hasHreg bool
}

// render decodes template t with v in its SIMM16 field and returns the
// first operand as normalized text.
func (e *Encoder) renderImm(t decode.Template, v int, operand int) (string, bool) {
	words := append([]uint32(nil), t.Words...)
	f, ok := fieldOf(t, "SIMM16")
	if !ok {
		return "", false
	}
	decode.SetField(words, f, uint64(v))
	b := make([]byte, 0, 4*len(words))
	for _, w := range words {
		b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	in, _, err := e.d.DecodeOperands(b, 0)
	if err != nil || len(in.Operands) <= operand {
		return "", false
	}
	return normalize(in.Operands[operand]), true
}

func fieldOf(t decode.Template, name string) (f isa.Field, ok bool) {
	for _, x := range t.Format.Fields {
		if strings.EqualFold(x.Name, name) {
			return x, true
		}
	}
	return f, false
}

func (e *Encoder) loadSymbols() {
	s := &e.sym
	s.hwreg = map[string]int{}
	s.byText = map[string]int{}
	first := func(name string) (decode.Template, bool) {
		for _, t := range e.d.Templates(name) {
			if t.Kind == decode.KindSOPK || t.Kind == decode.KindSOPP {
				return t, true
			}
		}
		return decode.Template{}, false
	}
	if t, ok := first("s_getreg_b32"); ok {
		for id := 0; id < 64; id++ {
			txt, ok := e.renderImm(t, id|31<<11, 1)
			if ok && strings.HasPrefix(txt, "hwreg(") && strings.HasSuffix(txt, ")") {
				name := txt[len("hwreg(") : len(txt)-1]
				if _, dup := s.hwreg[name]; !dup {
					s.hwreg[name] = id
				}
			}
		}
	}
	add := func(mn, prefix string, n int) {
		t, ok := first(mn)
		if !ok {
			return
		}
		for v := 0; v < n; v++ {
			txt, ok := e.renderImm(t, v, 0)
			if ok && strings.HasPrefix(txt, prefix) {
				if _, dup := s.byText[txt]; !dup {
					s.byText[txt] = v
				}
			}
		}
	}
	add("s_sendmsg", "sendmsg(", 1024)
	add("s_set_gpr_idx_mode", "gpr_idx(", 16)
}

// symbolicValue resolves a symbolic immediate; ok is false for anything
// else (including plain numbers).
func (e *Encoder) symbolicValue(text string) (int, bool) {
	if !strings.HasSuffix(text, ")") || !strings.Contains(text, "(") {
		return 0, false
	}
	e.sym.once.Do(e.loadSymbols)
	text = normalize(text)
	if v, ok := e.sym.byText[text]; ok {
		return v, true
	}
	if strings.HasPrefix(text, "hwreg(") {
		args := strings.Split(text[len("hwreg("):len(text)-1], ",")
		for i := range args {
			args[i] = strings.TrimSpace(args[i])
		}
		id, ok := e.sym.hwreg[args[0]]
		if !ok {
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 0 || n > 63 {
				return 0, false
			}
			id = n
		}
		off, size := 0, 32
		if len(args) == 3 {
			var err1, err2 error
			off, err1 = strconv.Atoi(args[1])
			size, err2 = strconv.Atoi(args[2])
			if err1 != nil || err2 != nil || off < 0 || off > 31 || size < 1 || size > 32 {
				return 0, false
			}
		} else if len(args) != 1 {
			return 0, false
		}
		return hwregValue(e.d.Arch().ID, id, off, size-1)
	}
	return 0, false
}

var hwregName = lazyre.New(`hwreg\((hw_reg_[a-z0-9_]+)`)

// canonicalSymbols rewrites register names LLVM still accepts under their
// older spelling: GFX12 renamed the wave registers (HW_REG_MODE became
// HW_REG_WAVE_MODE), and the decoder prints the new names.
func (e *Encoder) canonicalSymbols(s string) string {
	if !strings.Contains(s, "hwreg(") {
		return s
	}
	e.sym.once.Do(e.loadSymbols)
	return hwregName.ReplaceAllStringFunc(s, func(m string) string {
		name := strings.TrimPrefix(m, "hwreg(")
		if _, ok := e.sym.hwreg[name]; ok {
			return m
		}
		renamed := "hw_reg_wave_" + strings.TrimPrefix(name, "hw_reg_")
		if _, ok := e.sym.hwreg[renamed]; ok {
			return "hwreg(" + renamed
		}
		return m
	})
}

// hwregValue places a register id, bit offset and size-1 in SIMM16 at the
// bits package amdlayout gives hwreg(...).
func hwregValue(family string, id, off, sizeMinus1 int) (int, bool) {
	subs := amdlayout.ImmediateFields(family, amdlayout.ImmHwreg)
	if len(subs) == 0 {
		return 0, false
	}
	w := []uint32{0}
	for _, s := range subs {
		v := map[string]int{"id": id, "offset": off, "size": sizeMinus1}[s.Name]
		if v < 0 || v >= 1<<s.Width() {
			return 0, false
		}
		s.Put(w, uint64(v))
	}
	return int(w[0]), true
}
