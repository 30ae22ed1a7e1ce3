package ptx

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
)

// regDecls are a file's register declarations: ".reg .b32 %r<17>;"
// declares %r0 ... %r16 as .b32, ".reg .f32 x, y;" x and y.
type regDecls struct {
	ranges map[string]regRange // by prefix ("%r")
	names  map[string]string   // by name, the type (".f32")
	// spaces are the state spaces of the file's variables and
	// parameters ("_Z1kPf_param_0" -> "param", "smem" -> "shared").
	spaces map[string]string
	// scopes are the file's function bodies with the registers each
	// declares, in order; global the declarations outside all of them;
	// labels the %-names defined as labels ("%L1:").
	scopes []*regScope
	global *regScope
	labels map[string]bool
	// blocks are the blocks inside function bodies that declare typed
	// registers of their own (scopeTracker).
	blocks []*typedBlock
	// addr64 is set by ".address_size 64".
	addr64 bool
}

// varDeclRe finds variable and parameter declarations: ".param .u64 .ptr
// .align 1 NAME", ".shared .align 16 .b8 NAME[..]", ".global .u32 NAME".
var varDeclRe = lazyre.New(`^\.(param|shared|global|const|local)((?:\s+\.[\w:]+(?:\s+\d+)?)+)\s+([A-Za-z_$][\w$]*)`)

// headerParamRe finds a parameter declared after a function header's
// "(" or ",": ".visible .func (.param .b32 func_retval0) f(".
var headerParamRe = lazyre.New(`[(,]\s*(\.param\b[^,()]*)`)

type regRange struct {
	typ string
	n   int
}

var regDeclRe = lazyre.New(`^\.reg\s*((?:\.v\d+\s+)?)\.(\w+)\s+([^;]+);`)

// readRegDecls collects every .reg declaration of a file (names are
// per function in PTX; nvcc's prefixes mean the same type in every one).
// A name declared with two types is dropped: it proves nothing.
func readRegDecls(src string) *regDecls {
	conflict := map[string]bool{}
	d := &regDecls{ranges: map[string]regRange{}, names: map[string]string{}, spaces: map[string]string{}, labels: map[string]bool{}}
	scopes := scopeTracker{global: newRegScope(0)}
	// Typed declarations start their line: only those lines are searched
	// for them; every line is read for its braces and registers.
	for n := 1; len(src) > 0; n++ {
		line := src
		if nl := strings.IndexByte(src, '\n'); nl >= 0 {
			line, src = src[:nl], src[nl+1:]
		} else {
			src = ""
		}
		nested := len(scopes.open) > 0 // a line-start .reg here is its block's
		scopes.line(n, line)
		line = strings.TrimLeft(line, " \t")
		if len(line) > 1 && line[0] == '%' {
			if k := strings.IndexByte(line, ':'); k > 0 && (k+1 == len(line) || line[k+1] != ':') {
				d.labels[strings.TrimSpace(line[:k])] = true
			}
		}
		if len(line) < 4 || line[0] != '.' {
			continue
		}
		if strings.HasPrefix(line, ".address_size") {
			d.addr64 = strings.TrimSpace(strings.TrimPrefix(line, ".address_size")) == "64"
			continue
		}
		if strings.HasPrefix(line, ".reg") {
			// ".reg .b32 %r<6>; .reg .b64 %rd<3>;": every one on the line.
			for rest := line; !nested && strings.HasPrefix(rest, ".reg"); {
				m := regDeclRe.FindStringSubmatch(rest)
				if m == nil {
					break
				}
				d.addRegs(m, conflict)
				rest = strings.TrimLeft(rest[len(m[0]):], " \t")
			}
			continue
		}
		decls := []string{line}
		if strings.Contains(line, "(") {
			// Parameters in a function's header: ".func (.param .b32
			// func_retval0) f(" declares its return parameter there.
			for _, m := range headerParamRe.FindAllStringSubmatch(line, -1) {
				decls = append(decls, m[1])
			}
		}
		for _, decl := range decls {
			if m := varDeclRe.FindStringSubmatch(decl); m != nil {
				if old, ok := d.spaces[m[3]]; ok && old != m[1] {
					conflict[m[3]] = true
				}
				d.spaces[m[3]] = m[1]
			}
		}
	}
	d.scopes, d.global, d.blocks = scopes.scopes, scopes.global, scopes.blocks
	for k := range conflict {
		delete(d.ranges, k)
		delete(d.names, k)
		delete(d.spaces, k)
	}
	return d
}

// addRegs records one ".reg .TYPE names;" declaration.
func (d *regDecls) addRegs(m []string, conflict map[string]bool) {
	if m[1] != "" {
		return // vector registers: not checked
	}
	typ := "." + m[2]
	for _, n := range strings.Split(m[3], ",") {
		n = strings.TrimSpace(n)
		if k := strings.IndexByte(n, '<'); k > 0 && strings.HasSuffix(n, ">") {
			cnt, err := strconv.Atoi(n[k+1 : len(n)-1])
			if err != nil {
				continue
			}
			p := n[:k]
			if old, ok := d.ranges[p]; ok && old.typ != typ {
				conflict[p] = true
			}
			d.ranges[p] = regRange{typ, max(cnt, d.ranges[p].n)}
			continue
		}
		if old, ok := d.names[n]; ok && old != typ {
			conflict[n] = true
		}
		d.names[n] = typ
	}
}

// typeAt is a register's declared type at line n: the innermost block
// around n declaring it, else the file's declarations.
func (d *regDecls) typeAt(op string, n int) string {
	var in *typedBlock
	for _, b := range d.blocks {
		if b.start <= n && n <= b.end && b.types[op] != "" && (in == nil || b.start > in.start) {
			in = b
		}
	}
	if in != nil {
		return in.types[op]
	}
	return d.typeOf(op)
}

// typeOf is a register's declared type, "" when not declared here.
func (d *regDecls) typeOf(op string) string {
	if t, ok := d.names[op]; ok {
		return t
	}
	i := len(op)
	for i > 0 && op[i-1] >= '0' && op[i-1] <= '9' {
		i--
	}
	if i == len(op) || i == 0 {
		return ""
	}
	r, ok := d.ranges[op[:i]]
	if !ok {
		return ""
	}
	if n, err := strconv.Atoi(op[i:]); err != nil || n >= r.n {
		return ""
	}
	return r.typ
}

// widerRegisters are the instructions whose data may sit in a register
// wider than their type: ld, st and cvt as the documents' "Operand Size
// Exceeding Instruction-Type Size" allows, and suld and sust, which
// ptxas treats as it treats ld and st (sust.b.v4.b16 from .b32
// registers assembles; a .b32 register for .b64 does not).
var widerRegisters = map[string]bool{"ld": true, "st": true, "cvt": true, "suld": true, "sust": true}

// checkRegisters applies PTX's operand type rules to a valid statement's
// plain register operands where the operand takes the instruction's own
// data type: a register of another size, or a floating-point register
// for an integer type (or the reverse), is an arguments mismatch (a
// bit-size register stands for any type of its size). ld, st and cvt may
// use a wider register than their type, as the documents allow, and any
// instruction an 8-bit type.
func (c *Checker) checkRegisters(r *Result, d *regDecls, tokens, operands []string) {
	if !r.Valid || r.Mnemonic == "" || len(tokens) == 0 || len(d.ranges)+len(d.names)+len(d.spaces)+len(d.blocks) == 0 {
		return
	}
	var types []string
	for _, t := range tokens[1:] {
		if isType(t) {
			types = append(types, t)
		}
	}
	if len(types) == 0 {
		return
	}
	if why := d.spaceMismatch(tokens, operands); why != "" {
		r.Valid, r.Rule, r.Reason = false, "operand", why
		return
	}
	if why := d.narrowGlobalAddress(tokens, operands); why != "" {
		r.Valid, r.Rule, r.Reason = false, "operand", why
		return
	}
	codes := roleCodes(r.Mnemonic, tokens, len(types))
	wider := widerRegisters[tokens[0]]
	vector := slices.ContainsFunc(tokens[1:], func(t string) bool { return t == "v2" || t == "v4" || t == "v8" })
	hint := slices.Contains(tokens[1:], cacheHintToken)
	for i, op := range operands {
		if hint && i == len(operands)-1 {
			continue // the cache policy: a .b64 whatever the type
		}
		code := codes[min(i, len(codes)-1)]
		ti := -1
		switch {
		case code == "$":
			ti = len(types) - 1
		case len(code) == 1 && code[0] >= '0' && code[0] <= '9':
			ti = min(int(code[0]-'0'), len(types)-1)
		}
		op = strings.TrimSpace(op)
		if ti < 0 || op == "" {
			continue
		}
		// A vector operand of a .v2/.v4 instruction: each element takes
		// the type (mov's "{lo, hi}" packs parts of it instead).
		elems := []string{op}
		if op[0] == '{' && op[len(op)-1] == '}' {
			elems = SplitTop(op[1:len(op)-1], ',')
			// One element in braces (suld's "{%r4}") is that register;
			// several without .v2/.v4 pack parts of the type.
			if !vector && len(elems) > 1 {
				continue
			}
		}
		for _, el := range elems {
			el = strings.TrimSpace(el)
			if intLiteralRe.MatchString(el) && floatType("."+types[ti]) {
				r.Valid, r.Rule = false, "operand"
				r.Reason = "operand " + el + " is an integer literal for ." + types[ti] + ": a floating-point operand takes a floating-point literal (1.0, 0f3F800000, 0d3FF0000000000000)"
				return
			}
			// A register is named with or without '%' (inline PTX's
			// "{ .reg .f32 f; ... }"); an immediate or an address is
			// not one.
			if el == "" || el[0] != '%' && !isIdentStart(el[0]) || c.sregs.lookup(el) != nil {
				continue
			}
			rt := d.typeAt(el, r.Line)
			if rt == "" {
				continue
			}
			// 8-bit values always sit in wider registers outside ld, st
			// and cvt too (suld.b.v4.b8 into .b16 registers): the
			// documents restrict sub-word types to those three, and the
			// instructions they list 8-bit types for anyway read and
			// write them in wider registers, as ptxas accepts.
			if why := regMismatch(rt, "."+types[ti], wider || TypeBits("."+types[ti]) == 8); why != "" {
				r.Valid, r.Rule = false, "operand"
				r.Reason = "operand " + el + " is declared " + rt + ": " + why + " for ." + types[ti]
				return
			}
		}
	}
}

// intLiteralRe is an integer literal as PTX writes one (decimal, hex,
// octal, binary, an optional U): ptxas reads none as a floating-point
// value ("mov.f32 %f1, 0;" is an arguments mismatch), where "0f..." and
// "0d..." are.
var intLiteralRe = lazyre.New(`^-?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|[0-9]+)U?$`)

// floatType: a floating-point data type of the f and bf families
// (.f16, .f16x2, .f32, .f64, .bf16, .bf16x2), the ones ptxas wants a
// floating-point literal for.
func floatType(t string) bool {
	return strings.HasPrefix(t, ".f") || strings.HasPrefix(t, ".bf")
}

// regMismatch compares a register's declared type to the type an
// instruction reads it as.
func regMismatch(reg, typ string, widerOK bool) string {
	if (reg == ".pred") != (typ == ".pred") {
		return "a predicate and a data type"
	}
	if typ == ".pred" {
		return ""
	}
	rb, tb := TypeBits(reg), TypeBits(typ)
	if rb == 0 || tb == 0 {
		return ""
	}
	rk, tk := reg[1], typ[1]
	if rk != 'b' && tk != 'b' && (rk == 'f') != (tk == 'f') && !strings.Contains(typ, "x2") {
		return "a register of another kind"
	}
	// A wider register holds a narrower bit-size or integer type; a
	// floating-point type needs its own size unless the register is
	// bit-size (the documents' "Operand Size Exceeding Instruction-Type
	// Size": cvt.f64.f16 reads a .b16 or .f16 register, not an .f32 one).
	if widerOK && tk == 'f' && rk != 'b' {
		widerOK = false
	}
	if rb != tb && !(widerOK && rb > tb) {
		return "a " + strconv.Itoa(rb) + "-bit register"
	}
	return ""
}

// spaceMismatch: an address "[name]" or "[name+8]" of a variable declared
// in one state space, read by an instruction naming another.
func (d *regDecls) spaceMismatch(tokens, operands []string) string {
	space := ""
	for _, t := range tokens[1:] {
		if isStateSpace(t) {
			space, _, _ = strings.Cut(t, "::")
			break
		}
	}
	if space == "" {
		return ""
	}
	for _, op := range operands {
		op = strings.TrimSpace(op)
		if len(op) < 3 || op[0] != '[' || op[len(op)-1] != ']' {
			continue
		}
		name := op[1 : len(op)-1]
		if k := strings.IndexAny(name, "+-"); k >= 0 {
			name = name[:k]
		}
		if vs, ok := d.spaces[strings.TrimSpace(name)]; ok && vs != space {
			return "address " + op + " is a ." + vs + " variable; the instruction reads ." + space
		}
	}
	return ""
}

// narrowGlobalAddress: in a file of .address_size 64, a .global address
// held in a register narrower than 64 bits ("ld.global.u32 %r1, [%r2]")
// is 32-bit addressing, which ptxas no longer compiles ("Program uses
// 32-bit address on line N which is conflicting with .address_size 64",
// then "32-Bit compilation is no longer supported"). Only an instruction
// whose one state space is .global is judged: the others' addresses are
// 32-bit in their own windows (.shared, .local, .param, .const) or their
// order among two spaces is the form's.
func (d *regDecls) narrowGlobalAddress(tokens, operands []string) string {
	if !d.addr64 {
		return ""
	}
	space := ""
	for _, t := range tokens[1:] {
		if !isStateSpace(t) {
			continue
		}
		if space != "" {
			return ""
		}
		space = t
	}
	if space != "global" {
		return ""
	}
	for _, op := range operands {
		op = strings.TrimSpace(op)
		if len(op) < 3 || op[0] != '[' || op[len(op)-1] != ']' {
			continue
		}
		base := strings.TrimSpace(op[1 : len(op)-1])
		if k := strings.IndexAny(base, "+-"); k >= 0 {
			base = strings.TrimSpace(base[:k])
		}
		if rt := d.typeOf(base); rt != "" && rt != ".pred" && TypeBits(rt) > 0 && TypeBits(rt) < 64 {
			return "address " + op + " is a " + strconv.Itoa(TypeBits(rt)) + "-bit register (" + rt + ") for .global in a file of .address_size 64: 32-bit addressing, which ptxas no longer compiles"
		}
	}
	return ""
}
