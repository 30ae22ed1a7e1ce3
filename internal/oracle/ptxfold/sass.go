package ptxfold

import (
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
)

// A folded kernel is straight-line code: constants are made in registers
// and stored. The reader follows the listing in program order, keeping
// for each register the 32-bit constant it holds or why it holds none,
// and writes each store's bytes into an image of the output buffer. The
// shapes that make a constant were read off ptxas 13.5's sm_90 output:
//
//	MOV R15, 0xffffffff              IMAD.MOV.U32 R4, RZ, RZ, -0x1234567
//	HFMA2.MMA R5, -RZ, RZ, 1.5, 0    (-0*0 plus the two halves: the halves)
//	CS2R R4, SRZ                     (R4 and R5 zero)
//	MOV R6, R5 / IMAD.MOV.U32 R6, RZ, RZ, R5 / MOV R6, UR4   (copies)
//
// and a store of RZ is a store of zero. The 32-bit immediate of MOV,
// IMAD.MOV and HFMA2 is read from the encoding (bits 32-63 of the first
// word), not from the printed halves. Anything else that writes a
// register makes it unknown, for as many registers as its type is wide.

// reg is what the reader knows of a register: which of its bytes hold a
// known constant (PRMT assembles 16-bit results from halves), or that it
// holds half of the kernel's pointer parameter.
type reg struct {
	known uint8 // bit i: byte i of v is known
	v     uint32
	why   string // the instruction that wrote the unknown bytes
	// param is 1 + the byte offset in constant bank 0 of the word it was
	// loaded from (0: none): the stores' address is the parameter's two
	// words, loaded as a pair (sm_90: LDC.64 R2, c[0x0][0x210]) or one by
	// one (sm_80: IMAD.MOV.U32 R2, RZ, RZ, c[0x0][0x160]; MOV R3, ...).
	param int
}

func constant(v uint32) reg { return reg{known: 0xf, v: v} }

// Image is the output buffer as the kernel's stores leave it.
type Image struct {
	bytes map[int]byteVal
}

type byteVal struct {
	known bool
	v     byte
	why   string
}

// Value reads width bytes at off (little-endian); why is "" when every
// byte was stored as a constant, else the reason it was not folded.
func (im Image) Value(off, width int) (v uint64, why string) {
	for i := width - 1; i >= 0; i-- {
		b, ok := im.bytes[off+i]
		if !ok {
			return 0, "no store read at this offset"
		}
		if !b.known {
			return 0, b.why
		}
		v = v<<8 | uint64(b.v)
	}
	return v, ""
}

// ReadStores reads a kernel's listing into its output image. Stores are
// placed only when their address is the kernel's one pointer parameter
// plus an immediate; a store the reader cannot place leaves its case
// without a value ("no store read"), never a guessed one.
func ReadStores(lines []ptxas.SASSLine) Image {
	regs := map[string]reg{}
	im := Image{bytes: map[int]byteVal{}}
	param := 0
	for _, l := range lines {
		op, args, guarded := split(l.Text)
		if op == "" {
			continue
		}
		if strings.HasPrefix(op, "STG") {
			b, off, width, src, ok := store(op, args)
			lo, hi := lookup(regs, b), lookup(regs, nthReg(b, 1))
			if !ok || guarded || lo.param == 0 || (lo.param-1)%8 != 0 || hi.param != lo.param+4 || (param != 0 && lo.param != param) {
				continue
			}
			param = lo.param
			for w := 0; w < width; w += 4 {
				r := lookup(regs, nthReg(src, w/4))
				for i := 0; i < min(4, width-w); i++ {
					im.bytes[off+w+i] = byteVal{known: r.known&(1<<i) != 0, v: byte(r.v >> (8 * i)), why: r.why}
				}
			}
			continue
		}
		if len(args) == 0 || !isReg(args[0]) {
			continue // no register written (ISETP, branches, RZ as a sink)
		}
		define(regs, op, args, l, guarded)
	}
	return im
}

// define records what an instruction leaves in its destination.
func define(regs map[string]reg, op string, args []string, l ptxas.SASSLine, guarded bool) {
	d := args[0]
	unknown := reg{why: "not folded: " + l.Text}
	if guarded {
		regs[d] = unknown
		return
	}
	base := strings.SplitN(op, ".", 2)[0]
	switch {
	case (op == "MOV" || op == "UMOV") && len(args) == 2:
		regs[d] = source(regs, args[1], l)
		return
	case op == "IMAD.MOV.U32" || op == "IMAD.MOV" || op == "IMAD.U32":
		// 0 * 0 + x: a move.
		if len(args) == 4 && args[1] == "RZ" && args[2] == "RZ" {
			regs[d] = source(regs, args[3], l)
			return
		}
	case (op == "HFMA2.MMA" || op == "HFMA2") && len(args) == 5 && args[1] == "-RZ" && args[2] == "RZ" && isHalfImm(args[3]) && isHalfImm(args[4]):
		if v, ok := immediate(l); ok {
			regs[d] = constant(v)
			return
		}
	case base == "CS2R" && len(args) == 2 && args[1] == "SRZ":
		regs[d] = constant(0)
		if op != "CS2R.32" {
			regs[nthReg(d, 1)] = constant(0)
		}
		return
	case op == "PRMT" && len(args) == 4:
		if sel, err := strconv.ParseUint(args[2], 0, 16); err == nil && strings.HasPrefix(args[2], "0x") {
			regs[d] = permute(lookup(regs, args[1]), lookup(regs, args[3]), uint16(sel), l)
			return
		}
	case (op == "LDC.64" || op == "ULDC.64" || op == "LDC" || op == "ULDC") && len(args) == 2:
		// A parameter: the pointer the stores are relative to, or the
		// memory descriptor (never a store's address).
		if w, ok := bankWord(args[1]); ok {
			regs[d] = reg{why: "parameter " + args[1], param: w + 1}
			if strings.HasSuffix(op, ".64") {
				regs[nthReg(d, 1)] = reg{why: "parameter " + args[1], param: w + 5}
			}
			return
		}
	}
	for i := 0; i < destRegs(op); i++ {
		regs[nthReg(d, i)] = unknown
	}
}

// permute is PRMT's default mode: result byte i is byte sel[i]&7 of the
// pair {b:a} (a's bytes 0-3, b's 4-7), or that byte's sign replicated
// when sel[i]&8 is set.
func permute(a, b reg, sel uint16, l ptxas.SASSLine) reg {
	out := reg{why: a.why}
	if out.why == "" {
		out.why = b.why
	}
	if out.why == "" {
		out.why = "not folded: " + l.Text
	}
	for i := 0; i < 4; i++ {
		s := int(sel>>(4*i)) & 0xf
		src, k := a, s&7
		if k >= 4 {
			src, k = b, k-4
		}
		if src.known&(1<<k) == 0 {
			continue
		}
		byt := byte(src.v >> (8 * k))
		if s&8 != 0 {
			byt = byte(int8(byt) >> 7)
		}
		out.known |= 1 << i
		out.v |= uint32(byt) << (8 * i)
	}
	return out
}

// bankWord reads "c[0x0][0x160]", a word of constant bank 0 (where the
// parameters are), as its byte offset.
func bankWord(a string) (int, bool) {
	rest, ok := strings.CutPrefix(a, "c[0x0][")
	if !ok || !strings.HasSuffix(rest, "]") {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSuffix(rest, "]"), 0, 32)
	return int(n), err == nil
}

// source is the value of a MOV's source: a register copy, zero, a
// parameter word, or an immediate (from the encoding).
func source(regs map[string]reg, a string, l ptxas.SASSLine) reg {
	if w, ok := bankWord(a); ok {
		return reg{why: "parameter " + a, param: w + 1}
	}
	if isReg(a) || a == "RZ" || a == "URZ" {
		return lookup(regs, a)
	}
	if strings.HasPrefix(a, "0x") || strings.HasPrefix(a, "-0x") {
		if v, ok := immediate(l); ok {
			if t, err := strconv.ParseInt(a, 0, 64); err == nil && uint32(t) == v {
				return constant(v)
			}
		}
	}
	return reg{why: "not read: " + l.Text}
}

// immediate is the 32-bit immediate of a Volta-and-later instruction:
// bits 32-63 of its first encoding word.
func immediate(l ptxas.SASSLine) (uint32, bool) {
	words := strings.Fields(l.Encoding)
	if len(words) != 2 {
		return 0, false
	}
	w, err := strconv.ParseUint(strings.TrimPrefix(words[0], "0x"), 16, 64)
	if err != nil {
		return 0, false
	}
	return uint32(w >> 32), true
}

// destRegs is how many registers an instruction writes: 64-bit results
// (D-prefixed double operations, .64, .WIDE, F64 conversions) two, .128
// four.
func destRegs(op string) int {
	switch {
	case strings.Contains(op, ".128"):
		return 4
	case strings.HasPrefix(op, "D") || strings.Contains(op, ".64") || strings.Contains(op, ".WIDE") || strings.Contains(op, "F64"):
		return 2
	}
	return 1
}

func lookup(regs map[string]reg, r string) reg {
	if r == "RZ" || r == "URZ" {
		return constant(0)
	}
	if v, ok := regs[r]; ok {
		return v
	}
	return reg{why: "not folded: " + r + " set before the kernel's code"}
}

// split reads "@P0 OP a, b" into the opcode, the operands and whether a
// guard predicates it.
func split(text string) (op string, args []string, guarded bool) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "@") {
		guarded = true
		if i := strings.IndexByte(t, ' '); i >= 0 {
			t = strings.TrimSpace(t[i:])
		} else {
			return "", nil, true
		}
	}
	op, rest, _ := strings.Cut(t, " ")
	for _, a := range strings.Split(rest, ",") {
		// .reuse is a scheduling hint (the operand cache), not part of
		// the register's name.
		if a = strings.ReplaceAll(strings.TrimSpace(a), ".reuse", ""); a != "" {
			args = append(args, a)
		}
	}
	return op, args, guarded
}

// isHalfImm says whether an HFMA2 operand is an immediate half: a number
// or nvdisasm's name of an infinity or NaN.
func isHalfImm(a string) bool {
	t := strings.TrimLeft(a, "+-")
	// NaN halves too: ptxas itself makes integer constants this way
	// (0x80007fff as "-0.0, +QNAN"), so it counts on -0*0 + h leaving a
	// NaN half's bits as they are.
	if t == "INF" || t == "QNAN" || t == "SNAN" {
		return true
	}
	_, err := strconv.ParseFloat(t, 64)
	return err == nil
}

// isReg says whether a is a general or uniform register (not RZ).
func isReg(a string) bool {
	for _, p := range []string{"R", "UR"} {
		if n, ok := strings.CutPrefix(a, p); ok && n != "" && n != "Z" {
			if _, err := strconv.Atoi(n); err == nil {
				return true
			}
		}
	}
	return false
}

// nthReg is the register i after r (R4 -> R5); RZ stays RZ.
func nthReg(r string, i int) string {
	for _, p := range []string{"UR", "R"} {
		if n, ok := strings.CutPrefix(r, p); ok {
			if k, err := strconv.Atoi(n); err == nil {
				return p + strconv.Itoa(k+i)
			}
		}
	}
	return r
}

// store reads "STG.E.64 desc[UR4][R2.64+0x18], R8": the address register,
// the offset, the bytes stored and the first source register.
func store(op string, args []string) (base string, off, width int, src string, ok bool) {
	if len(args) != 2 {
		return "", 0, 0, "", false
	}
	width = 4
	for _, m := range strings.Split(op, ".")[1:] {
		switch m {
		case "U8", "S8":
			width = 1
		case "U16", "S16":
			width = 2
		case "64":
			width = 8
		case "128":
			width = 16
		}
	}
	addr := args[0]
	i := strings.LastIndexByte(addr, '[')
	if i < 0 || !strings.HasSuffix(addr, "]") {
		return "", 0, 0, "", false
	}
	inner := addr[i+1 : len(addr)-1]
	base, offText, hasOff := strings.Cut(inner, "+")
	if hasOff {
		o, err := strconv.ParseInt(offText, 0, 64)
		if err != nil {
			return "", 0, 0, "", false
		}
		off = int(o)
	}
	if base, ok = strings.CutSuffix(base, ".64"); !ok {
		return "", 0, 0, "", false
	}
	return base, off, width, args[1], true
}
