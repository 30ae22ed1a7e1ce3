package sassindex

import (
	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"regexp"
	"strconv"
	"strings"
)

// Parsed is one SASS line as nvdisasm prints it, read apart.
type Parsed struct {
	Guard     string // "@!P0", or ""
	Opcode    string // "FFMA"
	Modifiers string // ".FTZ.SAT", or ""
	Operands  string // the text after the opcode: "R4, R0, R3, R2"
	// Shape is the operands' kinds: "R, R, R, R", "R, desc[UR][R+imm]".
	Shape string
	Reuse bool // some operand has the reuse flag
}

// opcodeRE is what nvdisasm prints as an opcode: upper-case letters,
// digits and underscores, starting with a letter.
var opcodeRE = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// Parse reads a SASS line ("@!P0 FMNMX.NAN R5, R0, R5, !PT"); false when
// it has no opcode gpuisa reads.
func Parse(text string) (Parsed, bool) {
	var p Parsed
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), ";"))
	if strings.HasPrefix(text, "@") {
		g, rest, _ := strings.Cut(text, " ")
		p.Guard, text = g, strings.TrimSpace(rest)
	}
	mnem, ops, _ := strings.Cut(text, " ")
	op, mods, hasMods := strings.Cut(mnem, ".")
	if !opcodeRE.MatchString(op) {
		return Parsed{}, false
	}
	p.Opcode = op
	if hasMods {
		p.Modifiers = "." + mods
	}
	p.Operands = strings.TrimSpace(ops)
	var shapes []string
	for _, o := range asmtext.Split(p.Operands) {
		var words []string
		for _, w := range strings.Fields(strings.ReplaceAll(o, "] [", "][")) {
			s, reuse := operandShape(w)
			p.Reuse = p.Reuse || reuse
			words = append(words, s)
		}
		shapes = append(shapes, strings.Join(words, " "))
	}
	p.Shape = strings.Join(shapes, ", ")
	return p, true
}

// operandKinds are the register-like operands by pattern, in order: the
// first match names the kind. RZ, URZ, PT and UPT are the zero/true
// registers of their file, and count as it.
var operandKinds = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`^(UR\d+|URZ)$`), "UR"},
	{regexp.MustCompile(`^(R\d+|RZ)$`), "R"},
	{regexp.MustCompile(`^(UP\d+|UPT)$`), "UP"},
	{regexp.MustCompile(`^(P\d+|PT)$`), "P"},
	{regexp.MustCompile(`^(UPR|PR)$`), "PR"},
	{regexp.MustCompile(`^SR_\w+$|^SRZ$`), "SR"},
	{regexp.MustCompile(`^SB\d+$`), "SB"},
	{regexp.MustCompile(`^B\d+$`), "B"},
	{regexp.MustCompile(`^-?(0x[0-9a-fA-F]+|\d+)$`), "imm"},
	{regexp.MustCompile(`^[-+]?(\d+\.\d*([eE][-+]?\d+)?|\d+[eE][-+]?\d+|INF|QNAN|NAN)$`), "fimm"},
	{regexp.MustCompile("^`\\("), "label"},
	{regexp.MustCompile(`^-?\w*@(lo|hi)\(`), "reloc"},
}

// memRE is a memory or constant operand: an optional space word
// ("desc", "gdesc", "tmem", "c") and one or more bracketed addresses, then
// any suffix.
var memRE = regexp.MustCompile(`^([a-z]*)((?:\s*\[[^\]]*\])+)(\.[\w.]+)?$`)

// operandShape is one operand's kind: its sign, negation, absolute value
// and register suffixes (".reuse", ".H1_H1", ".64") are dropped, reuse
// reported.
func operandShape(w string) (string, bool) {
	reuse := strings.Contains(w, ".reuse")
	w = strings.ReplaceAll(w, ".reuse", "")
	w = strings.TrimLeft(w, "-!~")
	if strings.HasPrefix(w, "|") {
		if end := strings.LastIndex(w, "|"); end > 0 {
			w = w[1:end] + w[end+1:]
		}
	}
	if m := memRE.FindStringSubmatch(w); m != nil {
		return m[1] + addressShape(m[2]), reuse
	}
	for _, k := range operandKinds {
		if k.re.MatchString(w) {
			return k.kind, reuse
		}
	}
	base, _, _ := strings.Cut(w, ".")
	for _, k := range operandKinds[:8] { // the registers, with a suffix
		if k.re.MatchString(base) {
			return k.kind, reuse
		}
	}
	if opcodeRE.MatchString(base) {
		return base, reuse // a named value nvdisasm prints: ARRAY_ND, MACTIVE
	}
	return "other", reuse
}

// addressShape reads "[R2.64+0x10]" as "[R+imm]", "[UR4][R2.64]" as
// "[UR][R]".
func addressShape(brackets string) string {
	var b strings.Builder
	for _, part := range strings.Split(brackets, "[")[1:] {
		inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), "]"))
		var terms []string
		for _, t := range strings.FieldsFunc(inner, func(r rune) bool { return r == '+' }) {
			s, _ := operandShape(strings.TrimSpace(t))
			terms = append(terms, s)
		}
		b.WriteString("[" + strings.Join(terms, "+") + "]")
	}
	return b.String()
}

// Control is the scheduling information of one line as gpuisa decodes it
// from the encoding (oracle/ptxas writes it as "S04 y1 W1 R2 B05").
type Control struct {
	Stall int
	Yield int
	// Write and Read are the barriers the instruction sets (-1: none);
	// Wait the barriers it waits on.
	Write, Read int
	Wait        []int
}

// ParseControl reads a control string; false when it is not one.
func ParseControl(s string) (Control, bool) {
	c := Control{Write: -1, Read: -1}
	fields := strings.Fields(s)
	if len(fields) < 2 {
		return c, false
	}
	for _, f := range fields {
		if len(f) < 2 {
			return c, false
		}
		val := f[1:]
		switch f[0] {
		case 'S', 'y', 'W', 'R':
			n, err := strconv.Atoi(val)
			if err != nil {
				return c, false
			}
			switch f[0] {
			case 'S':
				c.Stall = n
			case 'y':
				c.Yield = n
			case 'W':
				c.Write = n
			case 'R':
				c.Read = n
			}
		case 'B':
			for _, d := range val {
				if d < '0' || d > '5' {
					return c, false
				}
				c.Wait = append(c.Wait, int(d-'0'))
			}
		default:
			return c, false
		}
	}
	return c, true
}

// controlShift is where the control fields start in the high word of a
// 128-bit instruction (bit 105 of the instruction, oracle/ptxas's
// control), controlMask their 17 bits.
const (
	controlShift = 41
	controlMask  = 1<<17 - 1
)

// Bits re-encodes the fields as the instruction's control bits [121:105]:
// stall, yield, write barrier, read barrier (7: none), wait mask.
func (c Control) Bits() uint64 {
	bar := func(b int) uint64 {
		if b < 0 {
			return 7
		}
		return uint64(b)
	}
	bits := uint64(c.Stall&0xf) | uint64(c.Yield&1)<<4 | bar(c.Write)<<5 | bar(c.Read)<<8
	for _, w := range c.Wait {
		bits |= 1 << (11 + w)
	}
	return bits
}

// EncodedControl is the control bits of an encoding as nvdisasm prints it
// ("0x... 0x...", the low word first); false for one that is not two
// words (before sm_70 control words stand apart).
func EncodedControl(encoding string) (uint64, bool) {
	words := strings.Fields(encoding)
	if len(words) != 2 {
		return 0, false
	}
	hi, err := strconv.ParseUint(strings.TrimPrefix(words[1], "0x"), 16, 64)
	if err != nil {
		return 0, false
	}
	return hi >> controlShift & controlMask, true
}
