package encode

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Memory encodings: LDS (DS, VDS), FLAT/GLOBAL/SCRATCH (and gfx12's
// VFLAT/VGLOBAL/VSCRATCH) and untyped buffers (MUBUF, VBUFFER). The
// operands LLVM prints for one of these are a subsequence of the format's
// register fields in a fixed order (data, address, data, scalar address or
// resource, scalar offset); which subsequence depends on the instruction,
// so the encoder tries the order-preserving assignments and keeps the word
// the decoder reads back as the input. Small modifier fields it has no
// name table for (th:, scope:) are found the same way.

// memFieldGroups are the register fields in the order LLVM prints them;
// one field of a group at most is present in a format.
var memFieldGroups = [][]string{
	{"VDST"}, {"VDATA"}, {"ADDR", "VADDR"}, {"DATA", "DATA0", "VSRC"}, {"DATA1"},
	{"SADDR", "SRSRC", "RSRC"}, {"SOFFSET"},
}

// memFlags are the one-bit modifiers written as bare words.
var memFlags = []string{"glc", "slc", "dlc", "sc0", "sc1", "nt", "lds", "gds", "idxen", "offen", "addr64", "tfe", "nv", "scale_offset"}

// encodeMemory assembles a memory instruction with template t.
func (e *Encoder) encodeMemory(t decode.Template, asm string, ops, mods []string) ([]byte, error) {
	fields := e.fieldsByName(t.Format)
	var regs []string
	for _, g := range memFieldGroups {
		for _, n := range g {
			if _, ok := fields[n]; ok {
				regs = append(regs, n)
				break
			}
		}
	}
	if len(ops) > len(regs) {
		return nil, fmt.Errorf("%d operands, but %s has %d register fields", len(ops), t.Format.Name, len(regs))
	}
	var lastErr error
	tried := 0
	want := newReadBack(asm)
	for _, combo := range orderedChoices(len(regs), len(ops)) {
		for _, acc := range []bool{false, true} {
			if acc && !anyAGPR(ops) {
				continue
			}
			words := append([]uint32(nil), t.Words...)
			if f, ok := fields["FORMAT"]; ok && strings.EqualFold(t.Format.Name, "VBUFFER") {
				f.Put(words, 1) // LLVM's default format:1 on gfx12 buffer accesses
			}
			if f, ok := fields["SADDR"]; ok && e.d.Gen() >= 10 {
				f.Put(words, uint64(e.offCode())) // no scalar address unless one is given
			}
			err := e.placeMemory(words, fields, regs, combo, ops, mods, acc)
			if err != nil {
				lastErr = err
				continue
			}
			// th:/scope: names and SCRATCH's address-kind bit (SVE): let
			// the decoder pick the value.
			var found []byte
			e.memVariants(words, fields, t.Format.Name, mods, func(b []byte) bool {
				tried++
				if got, ok := e.readsBack(b, want); ok {
					found = got
					return true
				}
				return false
			})
			if found != nil {
				return found, nil
			}
		}
	}
	if lastErr != nil && tried == 0 {
		return nil, lastErr
	}
	return nil, fmt.Errorf("cannot encode %q with %s: no placement of its operands reads back as written", asm, t.Format.Name)
}

func anyAGPR(ops []string) bool {
	for _, o := range ops {
		if strings.HasPrefix(o, "a") {
			return true
		}
	}
	return false
}

// orderedChoices lists the ways to pick k of n positions in order.
func orderedChoices(n, k int) [][]int {
	key := [2]int{n, k}
	if c, ok := choicesCache.Load(key); ok {
		return c.([][]int)
	}
	c, _ := choicesCache.LoadOrStore(key, makeChoices(n, k))
	return c.([][]int)
}

// choicesCache keeps orderedChoices' answers, which callers only read: a
// memory instruction asked for them, and made them anew, on every line.
var choicesCache sync.Map // [2]int{n, k} -> [][]int

func makeChoices(n, k int) [][]int {
	var out [][]int
	var rec func(start int, cur []int)
	rec = func(start int, cur []int) {
		if len(cur) == k {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(cur, i))
		}
	}
	rec(0, nil)
	return out
}

// placeMemory writes the operands into the chosen fields and the
// modifiers into theirs.
func (e *Encoder) placeMemory(words []uint32, fields map[string]isa.Field, regs []string, combo []int, ops, mods []string, acc bool) error {
	set := func(name string, v uint64) error {
		f, ok := fields[name]
		if !ok {
			return fmt.Errorf("no field %s", name)
		}
		if f.Width() < 64 && v >= 1<<uint(f.Width()) {
			return fmt.Errorf("%d does not fit %s", v, name)
		}
		f.Put(words, v)
		return nil
	}
	off := e.offCode()
	for i, o := range ops {
		name := regs[combo[i]]
		var v int
		switch name {
		case "SADDR", "SOFFSET":
			if o == "off" {
				v = off
				break
			}
			p, err := e.parseOperand(o)
			if err != nil {
				return err
			}
			if p.code >= 256 || p.neg || p.abs || p.hasLit {
				return fmt.Errorf("%q is not a scalar operand", o)
			}
			v = p.code
		case "SRSRC", "RSRC":
			p, err := e.parseOperand(o)
			if err != nil {
				return err
			}
			v = p.code
			if fields[name].Width() <= 5 {
				v >>= 2 // the field counts groups of four SGPRs
			}
		default:
			if o == "off" {
				v = 0
				break
			}
			first, agpr, ok := vectorReg(o)
			if !ok || agpr != acc && agpr {
				return fmt.Errorf("%q is not a VGPR", o)
			}
			v = first
		}
		if err := set(name, uint64(v)); err != nil {
			return err
		}
	}
	if acc {
		if err := set("ACC", 1); err != nil {
			return err
		}
	}
	for _, m := range mods {
		if err := e.memModifier(words, fields, set, m); err != nil {
			return err
		}
	}
	return nil
}

// vectorReg reads v5, v[2:3], a5 or a[0:3]: the first register.
func vectorReg(o string) (first int, agpr, ok bool) {
	m, ok := matchReg(o)
	if !ok || (m[1] != "v" && m[1] != "a") || m[5] != "" {
		return 0, false, false
	}
	n := m[2]
	if n == "" {
		n = m[3]
	}
	v, err := strconv.Atoi(n)
	return v, m[1] == "a", err == nil
}

// offCode is the "no SGPR" code of a scalar address: 0x7f on GCN, NULL on
// RDNA and gfx12.
func (e *Encoder) offCode() int {
	if e.d.Gen() == 9 {
		return 0x7f
	}
	if c, ok := e.d.ScalarCode("null"); ok {
		return c
	}
	return 0x7c
}

func (e *Encoder) memModifier(words []uint32, fields map[string]isa.Field, set func(string, uint64) error, m string) error {
	for _, fl := range memFlags {
		if m == fl {
			name := strings.ToUpper(fl)
			if _, ok := fields[name]; !ok && fl == "scale_offset" {
				name = "SCALE_OFFSET"
			}
			return set(name, 1)
		}
	}
	key, val, ok := strings.Cut(m, ":")
	if !ok {
		return fmt.Errorf("modifier %q is not supported on memory instructions", m)
	}
	switch key {
	case "offset", "offset0", "offset1":
		v, err := strconv.ParseInt(val, 0, 64)
		if strings.HasPrefix(val, "swizzle(") {
			// ds_swizzle_b32's lane pattern.
			var sv int
			sv, err = decode.ParseSwizzle(val)
			v = int64(sv)
		}
		if err != nil {
			return fmt.Errorf("%s: %v", m, err)
		}
		if _, split := fields["OFFSET0"]; split && key == "offset" {
			// DS: one 16-bit offset over OFFSET1:OFFSET0.
			if v < 0 || v > 0xffff {
				return fmt.Errorf("%s does not fit 16 bits", m)
			}
			if err := set("OFFSET0", uint64(v&0xff)); err != nil {
				return err
			}
			return set("OFFSET1", uint64(v>>8))
		}
		name := strings.ToUpper(key)
		f, ok := fields[name]
		if !ok && key == "offset" {
			name = "IOFFSET"
			f, ok = fields[name]
		}
		if !ok {
			return fmt.Errorf("%s: no %s field", m, name)
		}
		w := uint(f.Width())
		if v < -(1<<(w-1)) || v >= 1<<w {
			return fmt.Errorf("%s does not fit %d bits", m, w)
		}
		return set(name, uint64(v)&(1<<w-1))
	case "th", "scope":
		// Brute force below: the decoder names the values.
		return nil
	}
	return fmt.Errorf("modifier %q is not supported on memory instructions", m)
}

// memVariants hands try the word as bytes once per value of the fields
// the decoder is left to choose: TH and SCOPE when the input names them
// (th:TH_LOAD_NT), and a SCRATCH word's address-kind bit (SVE; bit 13, the
// LDS bit of other formats, on CDNA 3/4). It stops when try says so.
func (e *Encoder) memVariants(words []uint32, fields map[string]isa.Field, format string, mods []string, try func([]byte) bool) {
	named := func(prefix string) bool {
		for _, m := range mods {
			if strings.HasPrefix(m, prefix) {
				return true
			}
		}
		return false
	}
	var vary []isa.Field
	for _, v := range []struct{ field, prefix string }{{"TH", "th:"}, {"SCOPE", "scope:"}} {
		if f, ok := fields[v.field]; ok && f.Width() <= 3 && named(v.prefix) {
			vary = append(vary, f)
		}
	}
	if scratch := strings.HasSuffix(strings.ToUpper(format), "SCRATCH"); scratch {
		if f, ok := fields["SVE"]; ok {
			vary = append(vary, f)
		} else if f, ok := fields["LDS"]; ok && e.d.Gen() == 9 {
			vary = append(vary, f)
		}
	}
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(vary) {
			b := make([]byte, 0, 4*len(words))
			for _, w := range words {
				b = binary.LittleEndian.AppendUint32(b, w)
			}
			return try(b)
		}
		for v := uint64(0); v < 1<<uint(vary[i].Width()); v++ {
			vary[i].Put(words, v)
			if rec(i + 1) {
				return true
			}
		}
		vary[i].Put(words, 0)
		return false
	}
	rec(0)
}

// readsBack decodes b and says whether it prints as want's text.
func (e *Encoder) readsBack(b []byte, want *readBack) ([]byte, bool) {
	in, n, err := e.d.DecodeBrief(b, 0)
	if err != nil || n != len(b) || in.Partial {
		return nil, false
	}
	return b, want.matches(normalize(in.Text))
}

// readBack is the input's text in the forms readsBack compares a
// candidate's with (sameText, then memCanon), made once per
// instruction rather than once per candidate placement, and each only
// when a comparison first needs it: most candidates read back as the
// input's own text, and canonicalising every input had been a tenth of
// encoding a file.
type readBack struct {
	asm, stripped string
	numbers, mem  string
	canon         bool // numbers and mem are made
}

func newReadBack(asm string) *readBack {
	return &readBack{asm: asm, stripped: stripSuffix(asm)}
}

func (w *readBack) matches(got string) bool {
	if got == w.asm {
		return true
	}
	st := stripSuffix(got)
	if st == w.stripped {
		return true
	}
	if !w.canon {
		w.numbers, w.mem, w.canon = canonNumbers(w.stripped), memCanon(w.asm), true
	}
	return canonNumbers(st) == w.numbers || memCanon(got) == w.mem
}

// memCanon is a memory instruction's text with its modifiers in order and
// an offset of 0 left out: two texts with the same memCanon are the same
// instruction.
func memCanon(s string) string {
	canon := func(s string) string {
		mn, rest, _ := strings.Cut(s, " ")
		ops, mods := splitOperands(compactBrackets(rest))
		var keep []string
		for _, m := range mods {
			if m == "offset:0" || m == "offset:0x0" {
				continue
			}
			if v, ok := strings.CutPrefix(m, "offset:swizzle("); ok {
				// ds_swizzle_b32's pattern read back as the number it is.
				if n, err := decode.ParseSwizzle("swizzle(" + v); err == nil {
					m = "offset:" + strconv.Itoa(n)
				}
			}
			keep = append(keep, m)
		}
		sortStrings(keep)
		return canonNumbers(mn + " " + strings.Join(ops, ", ") + " " + strings.Join(keep, " "))
	}
	return canon(s)
}
