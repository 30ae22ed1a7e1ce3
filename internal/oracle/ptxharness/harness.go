// Package ptxharness turns one PTX statement into a kernel ptxas can
// assemble: every register it names is declared with the type its position
// implies (bit-size types, which PTX lets stand for any type of that size),
// labels and called functions are defined, inputs are loaded from a buffer
// and results stored to it, so ptxas keeps the statement when it generates
// code. The build's probes (internal/oracle/ptxoracle), the microbenchmarks
// (internal/oracle/ptxbench) and the CLI's live check drive ptxas through it;
// the PTX model (internal/ptx) names no tool.
package ptxharness

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/ptx"
)

// statementMark ends the statement's line in a unit, so Baseline can take
// it out.
const statementMark = " // gpuisa:statement"

// Baseline returns the unit without its statement: what the harness alone
// compiles to, to be subtracted from the unit's SASS.
func Baseline(u ptxas.Unit) ptxas.Unit {
	lines := strings.Split(u.Entry, "\n")
	out := lines[:0:0]
	for _, l := range lines {
		if !strings.HasSuffix(l, statementMark) {
			out = append(out, l)
		}
	}
	u.Entry = strings.Join(out, "\n")
	return u
}

// harnessPrefix starts the identifiers the harness itself uses;
// statements must not use it.
const harnessPrefix = "gpuisa_"

// Declared is one register the harness declared for a statement.
type Declared struct {
	Name    string `json:"name"`
	Type    string `json:"type"`    // ".b32", ".pred"
	Operand int    `json:"operand"` // the operand it appears in first; -1 for the guard
}

// Harness builds kernels. Specials are the special registers (%tid, ...),
// which are never declared.
type Harness struct {
	specials  map[string]bool
	mnemonics map[string][][]string // by first token: documented mnemonics' tokens
}

// NewHarness returns a harness that knows the special registers named by
// the documentation's entries.
func NewHarness(instrs []ptx.Instruction) *Harness {
	h := &Harness{specials: map[string]bool{}, mnemonics: map[string][][]string{}}
	for _, in := range instrs {
		if in.Kind == ptx.KindInstruction || in.Kind == "" {
			if t := ptx.Tokens(in.Name); len(t) > 0 {
				h.mnemonics[t[0]] = append(h.mnemonics[t[0]], t)
			}
		}
		if in.Kind == ptx.KindSpecialRegister {
			n := in.Name
			if i := strings.IndexAny(n, "<"); i > 0 {
				n = n[:i] // "%envreg<32>": %envreg0 ... are matched by prefix
			}
			h.specials[n] = true
		}
	}
	return h
}

func (h *Harness) isSpecial(name string) bool {
	if !strings.HasPrefix(name, "%") {
		return false
	}
	if h.specials[name] {
		return true
	}
	base := strings.TrimRight(name, "0123456789")
	base = strings.TrimSuffix(base, "_")
	return h.specials[base] || h.specials[strings.TrimSuffix(name, "_64")] || strings.HasPrefix(name, "%envreg") || strings.HasPrefix(name, "%pm")
}

// idKind is what an identifier in an operand is.
type idKind int

const (
	idValue     idKind = iota // a register holding a value of the operand's type
	idAddr                    // a register holding an address (in [...])
	idPred                    // a predicate register
	idLabel                   // a branch target
	idFunc                    // a called function
	idParam                   // a call argument (a .param variable)
	idHandle                  // a texture/sampler/surface handle or a tensor map (.b64)
	idVar                     // a variable whose address the statement takes ("avar+4", "sh")
	idFuncPtr                 // a register holding the address of the called function (fptr)
	idCallTable               // an indirect call's list of targets or its prototype (flist, fproto)
	idTargets                 // brx.idx's list of branch targets (tlist)
)

// variableNames are the documentation's names for variables (not
// registers) in operands such as "mov.u64 d, avar+imm" and "mapa d, sh, b".
var variableNames = map[string]string{"avar": ".global", "var": ".global", "sh": ".shared"}

type ident struct {
	name    string
	kind    idKind
	operand int    // index of the operand it appears in
	ptxType string // the type it is declared with
}

// Unit builds the kernel for st. The statement text is kept as written,
// but for identifiers PTX does not allow (the documentation's
// "cache-policy" placeholders), which are renamed.
func (h *Harness) Unit(st ptx.Statement) (ptxas.Unit, []Declared, error) {
	text := strings.TrimSpace(st.Text)
	if text == "" {
		return ptxas.Unit{}, nil, fmt.Errorf("empty statement")
	}
	if strings.Contains(text, harnessPrefix) {
		return ptxas.Unit{}, nil, fmt.Errorf("statement uses the harness's reserved prefix %s", harnessPrefix)
	}
	text = sanitizeIdentifiers(text)
	if !strings.HasSuffix(text, ";") {
		text += ";"
	}
	tokens, operands, err := ptx.ParseInstruction(text)
	if err != nil {
		return ptxas.Unit{}, nil, err
	}
	guard := guardOf(text)
	declared := ptx.DeclaredNames(st.Decls)
	mnemonic := h.mnemonic(tokens)
	roles := ptx.OperandRoles(mnemonic, tokens, len(operands))
	ids := h.identifiers(mnemonic, operands, roles)
	call := callShape{}
	if mnemonic == "call" {
		call = readCall(operands)
		ids = call.idents()
	}
	if guard != "" {
		ids = append(ids, ident{name: guard, kind: idPred, operand: -1, ptxType: ".pred"})
	}
	var (
		module []string
		decls  []string
		loads  []string
		stores []string
		after  []string
		out    []Declared
		offset int
		seen   = map[string]bool{}
	)
	addr := func(bytes int) string {
		// Natural alignment for the load or store.
		offset = (offset + bytes - 1) / bytes * bytes
		s := fmt.Sprintf("[%sp+%d]", harnessPrefix, offset)
		offset += bytes
		return s
	}
	for _, id := range ids {
		if seen[id.name] || declared[id.name] {
			continue
		}
		seen[id.name] = true
		typ := id.ptxType
		if t, ok := st.Types[id.name]; ok {
			typ = t
		}
		switch id.kind {
		case idLabel:
			after = append(after, id.name+":")
			continue
		case idFunc:
			// Functions live at module scope, where every unit of a batch
			// must name its own.
			text = ptx.RenameIdent(text, id.name, id.name+"_$U")
			module = append(module, funcDecl(id.name+"_$U", call.rets, call.args))
			continue
		case idParam:
			decls = append(decls, ".param .b32 "+id.name+";")
			continue
		case idFuncPtr:
			// An indirect call goes through a function of the harness's.
			module = append(module, funcDecl(calleeName, call.rets, call.args))
			decls = append(decls, ".reg .b64 "+id.name+";")
			loads = append(loads, "mov.u64 "+id.name+", "+calleeName+";")
			continue
		case idCallTable:
			decls = append(decls, id.name+": "+call.tableDirective()+";")
			continue
		case idTargets:
			decls = append(decls, id.name+": .branchtargets "+harnessPrefix+"l;")
			after = append(after, harnessPrefix+"l:")
			continue
		case idVar:
			// The instruction's own state space where it names one
			// (cvta.const takes a .const variable), else the name's.
			space := variableNames[id.name]
			for _, t := range tokens[1:] {
				if base, _, _ := strings.Cut(t, "::"); base == "const" || base == "global" || base == "shared" || base == "local" {
					space = "." + base
					break
				}
			}
			if space == "" {
				space = ".global"
			}
			decls = append(decls, space+" .b32 "+id.name+"[4];")
			continue
		}
		if _, over := st.Types[id.name]; !over && (id.kind == idValue || id.kind == idAddr) {
			if hint, ok := ptx.NameHint(id.name); ok {
				typ = hint
			}
		}
		if t, ok := st.OperandTypes[id.operand]; ok && id.operand >= 0 && id.kind != idLabel && id.kind != idFunc && id.kind != idParam {
			typ = t
		}
		decls = append(decls, ".reg "+typ+" "+id.name+";")
		out = append(out, Declared{Name: id.name, Type: typ, Operand: id.operand})
		switch {
		case typ == ".pred":
			a := addr(4)
			loads = append(loads, "ld.global.u32 "+harnessPrefix+"t, "+a+";", "setp.ne.u32 "+id.name+", "+harnessPrefix+"t, 0;")
			stores = append(stores, "selp.u32 "+harnessPrefix+"t, 1, 0, "+id.name+";", "st.global.u32 "+a+", "+harnessPrefix+"t;")
		case typ == ".b128":
			// No load or store: they would need PTX 8.3 themselves.
		default:
			bits := ptx.TypeBits(typ)
			if bits < 16 && typ != ".b8" {
				// Loads and stores move 8-bit values through .b16
				// registers, but a .b8 register takes only a byte.
				bits = 16
			}
			a := addr(bits / 8)
			loads = append(loads, fmt.Sprintf("ld.global.b%d %s, %s;", bits, id.name, a))
			stores = append(stores, fmt.Sprintf("st.global.b%d %s, %s;", bits, a, id.name))
		}
	}
	var b strings.Builder
	b.WriteString(".visible .entry $U(.param .u64 " + harnessPrefix + "io)\n{\n")
	b.WriteString(".reg .b64 " + harnessPrefix + "p;\n.reg .b32 " + harnessPrefix + "t;\n")
	for _, d := range st.Decls {
		b.WriteString(strings.TrimSpace(d) + "\n")
	}
	for _, d := range decls {
		b.WriteString(d + "\n")
	}
	b.WriteString("ld.param.u64 " + harnessPrefix + "p, [" + harnessPrefix + "io];\n")
	for _, l := range loads {
		b.WriteString(l + "\n")
	}
	b.WriteString(text + statementMark + "\n")
	for _, l := range after {
		b.WriteString(l + "\n")
	}
	for _, s := range stores {
		b.WriteString(s + "\n")
	}
	b.WriteString("ret;\n}")
	// Functions are declared before the entry; their names are the
	// statement's own, so the module text is unique per unit already.
	return ptxas.Unit{Module: strings.Join(module, "\n"), Entry: b.String()}, out, nil
}

// calleeName is the function an indirect call of a unit reaches.
const calleeName = harnessPrefix + "f_$U"

// OnlyRegisters reports whether all the harness chooses for st is the
// types of registers: it names no label, function, parameter, handle or
// target list, whose declarations are the harness's too.
func (h *Harness) OnlyRegisters(st ptx.Statement) bool {
	text := sanitizeIdentifiers(strings.TrimSpace(st.Text))
	if !strings.HasSuffix(text, ";") {
		text += ";"
	}
	tokens, operands, err := ptx.ParseInstruction(text)
	if err != nil {
		return false
	}
	mnemonic := h.mnemonic(tokens)
	if mnemonic == "call" {
		return false
	}
	for _, id := range h.identifiers(mnemonic, operands, ptx.OperandRoles(mnemonic, tokens, len(operands))) {
		switch id.kind {
		case idValue, idAddr, idPred, idVar:
		default:
			return false
		}
	}
	return true
}

// funcDecl defines a function a call statement names, with one .b32
// parameter per return value and per argument the statement passes.
func funcDecl(name string, rets, args int) string {
	ret := ""
	if rets > 0 {
		ret = "(" + paramList("r", rets) + ") "
	}
	return ".func " + ret + name + "(" + paramList("a", args) + ")\n{\nret;\n}"
}

func paramList(prefix string, n int) string {
	params := make([]string, n)
	for i := range params {
		params[i] = ".param .b32 " + harnessPrefix + prefix + strconv.Itoa(i)
	}
	return strings.Join(params, ", ")
}

// callShape is how a call statement is built: "call (r), f, (a, b);" passes
// one return parameter and two arguments to f; "call (r), fptr, (a),
// flist;" calls through a register, with a list of possible targets (or a
// prototype, "fproto") after the arguments.
type callShape struct {
	rets, args   int
	params       []string // the names in the parameter lists
	target       string
	table        string // flist or fproto of an indirect call
	tableIsProto bool
}

func readCall(operands []string) callShape {
	var c callShape
	list := func(op string) int {
		inner := strings.TrimSpace(op[1:ptx.MatchingClose(op, 0)])
		if inner == "" {
			return 0
		}
		parts := ptx.SplitTop(inner, ',')
		for _, p := range parts {
			c.params = append(c.params, identsIn(p)...)
		}
		return len(parts)
	}
	i := 0
	next := func() string {
		if i >= len(operands) {
			return ""
		}
		i++
		return strings.TrimSpace(operands[i-1])
	}
	op := next()
	if strings.HasPrefix(op, "(") {
		c.rets = list(op)
		op = next()
	}
	c.target = op
	op = next()
	if strings.HasPrefix(op, "(") {
		c.args = list(op)
		op = next()
	}
	c.table = op
	c.tableIsProto = strings.Contains(strings.ToLower(op), "proto")
	return c
}

// idents lists what a call names: its parameters, then the function or
// the register holding its address, then the indirect call's table.
func (c callShape) idents() []ident {
	var out []ident
	for _, p := range c.params {
		out = append(out, ident{name: p, kind: idParam, operand: -1})
	}
	switch {
	case c.target == "" || isNumber(c.target):
	case c.table == "":
		out = append(out, ident{name: c.target, kind: idFunc})
	default:
		out = append(out, ident{name: c.target, kind: idFuncPtr, ptxType: ".b64"})
	}
	if c.table != "" && !isNumber(c.table) {
		out = append(out, ident{name: c.table, kind: idCallTable})
	}
	return out
}

// tableDirective declares an indirect call's table: the harness's function
// as the only target, or a prototype of the call's parameters.
func (c callShape) tableDirective() string {
	if !c.tableIsProto {
		return ".calltargets " + calleeName
	}
	ret := ""
	if c.rets > 0 {
		ret = "(" + paramList("r", c.rets) + ") "
	}
	return ".callprototype " + ret + "_ (" + paramList("a", c.args) + ")"
}

// sanitizeIdentifiers renames "cache-policy" to "cache_policy": the
// documentation writes placeholders PTX would read as subtractions.
func sanitizeIdentifiers(s string) string {
	return ptx.IdentRe.ReplaceAllStringFunc(s, func(id string) string {
		return strings.ReplaceAll(id, "-", "_")
	})
}

func guardOf(text string) string {
	s := strings.TrimSpace(text)
	s = ptx.StripLabels(s)
	if !strings.HasPrefix(s, "@") {
		return ""
	}
	g := strings.TrimLeft(s[1:], "!")
	if sp := strings.IndexAny(g, " \t"); sp > 0 {
		g = g[:sp]
	}
	return g
}

// identifiers finds every identifier of the operands with what it is.
func (h *Harness) identifiers(mn string, operands []string, roles []string) []ident {
	var out []ident
	for i, op := range operands {
		role := ".b32"
		if i < len(roles) {
			role = roles[i]
		}
		if mn == "mov" && strings.HasPrefix(strings.TrimSpace(op), "{") {
			// Packing and unpacking: each element is a part of the type.
			open := strings.IndexByte(op, '{')
			end := ptx.MatchingClose(op, open)
			if n := len(ptx.SplitTop(op[open+1:end], ',')); n > 1 {
				role = ptx.RegType(".b" + strconv.Itoa(max(ptx.TypeBits(role)/n, 16)))
			}
		}
		out = h.operandIdents(out, mn, op, i, role, false)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].kind == idParam && out[j].kind == idFunc })
	return out
}

// operandIdents collects the identifiers of one operand. inAddr is set
// inside [...].
func (h *Harness) operandIdents(out []ident, mn, op string, index int, role string, inAddr bool) []ident {
	op = strings.TrimSpace(op)
	for strings.HasPrefix(op, "!") || strings.HasPrefix(op, "-") {
		op = strings.TrimSpace(op[1:])
	}
	if op == "" || op == "_" {
		return out
	}
	switch op[0] {
	case '[':
		end := ptx.MatchingClose(op, 0)
		inner := op[1:end]
		parts := ptx.SplitTop(inner, ',')
		for k, p := range parts {
			p = strings.TrimSpace(p)
			if k == 0 {
				// The address: a register, a variable, an immediate, with an
				// offset; a texture or tensor-map handle when more follows.
				kind := idAddr
				if len(parts) > 1 {
					kind = idHandle
				}
				for _, id := range identsIn(p) {
					if !h.isSpecial(id) {
						out = append(out, ident{name: id, kind: kind, operand: index, ptxType: ".b64"})
					}
				}
				continue
			}
			if strings.HasPrefix(p, "{") || !isNumber(p) {
				// Coordinates are 32-bit (texture, surface and tensor
				// coordinates alike); a bare second element of tex is a
				// sampler handle.
				if !strings.HasPrefix(p, "{") && (mn == "tex" || mn == "tld4") {
					out = append(out, ident{name: strings.TrimSpace(p), kind: idHandle, operand: index, ptxType: ".b64"})
					continue
				}
				out = h.operandIdents(out, mn, p, index, ".b32", true)
			}
		}
		return out
	case '{':
		end := ptx.MatchingClose(op, 0)
		for _, p := range ptx.SplitTop(op[1:end], ',') {
			out = h.operandIdents(out, mn, p, index, role, inAddr)
		}
		if rest := strings.TrimSpace(ptx.AfterIndex(op, end)); strings.HasPrefix(rest, "|") {
			out = h.operandIdents(out, mn, rest[1:], index, ".pred", inAddr)
		}
		return out
	case '(':
		end := ptx.MatchingClose(op, 0)
		for _, p := range ptx.SplitTop(op[1:end], ',') {
			for _, id := range identsIn(p) {
				out = append(out, ident{name: id, kind: idParam, operand: index})
			}
		}
		return out
	}
	if k := strings.IndexByte(op, '|'); k > 0 {
		out = h.operandIdents(out, mn, op[:k], index, role, inAddr)
		return h.operandIdents(out, mn, op[k+1:], index, ".pred", inAddr)
	}
	if isNumber(op) {
		return out
	}
	if !inAddr && strings.ContainsAny(op, "+") {
		// "avar+4", "sh + 4": the address of a variable.
		for _, id := range identsIn(op) {
			out = append(out, ident{name: id, kind: idVar, operand: index})
		}
		return out
	}
	if _, ok := variableNames[op]; ok && !inAddr {
		return append(out, ident{name: op, kind: idVar, operand: index})
	}
	// "a.b0", "r.x", "[a].unified": a register with a selector.
	base := op
	if !strings.HasPrefix(op, "%") || !h.isSpecial(firstIdent(op)) {
		if k := strings.IndexByte(op, '.'); k > 0 {
			base = op[:k]
		}
	}
	for _, id := range identsIn(base) {
		if h.isSpecial(id) || h.isSpecial(base) {
			continue
		}
		kind := idValue
		switch role {
		case ptx.RoleLabel:
			kind = idLabel
		case ptx.RoleFunc:
			kind = idFunc
		case ptx.RoleTargets:
			kind = idTargets
		case ".pred":
			kind = idPred
		}
		t := role
		if kind == idLabel || kind == idFunc || kind == idTargets {
			t = ""
		}
		out = append(out, ident{name: id, kind: kind, operand: index, ptxType: t})
	}
	return out
}

// mnemonic returns the longest documented mnemonic the tokens start with
// ("ld.global.nc" before "ld"; "tcgen05.wait::ld" is tcgen05.wait), or the
// first token.
func (h *Harness) mnemonic(tokens []string) string {
	best := []string{tokens[0]}
	for _, m := range h.mnemonics[tokens[0]] {
		if len(m) > len(tokens) || len(m) <= len(best) && len(best) > 1 {
			continue
		}
		ok := true
		for i, t := range m {
			if tokens[i] != t && !strings.HasPrefix(tokens[i], t+"::") {
				ok = false
				break
			}
		}
		if ok && len(m) >= len(best) {
			best = m
		}
	}
	return strings.Join(best, ".")
}

func firstIdent(s string) string {
	return ptx.IdentRe.FindString(s)
}

// identsIn returns the identifiers of an expression such as "a+4" or
// "sh + imm", skipping numbers.
func identsIn(expr string) []string {
	var out []string
	for _, m := range ptx.IdentRe.FindAllStringIndex(expr, -1) {
		id := expr[m[0]:m[1]]
		// Not the exponent or suffix of a number: "1e5", "0f3f800000".
		if m[0] > 0 && (expr[m[0]-1] >= '0' && expr[m[0]-1] <= '9' || expr[m[0]-1] == '.') {
			continue
		}
		out = append(out, id)
	}
	return out
}

var numberRe = regexp.MustCompile(`^[-+]?(?:0[xX][0-9a-fA-F]+|0[fFdD][0-9a-fA-F]+|0[bB][01]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9]+(?:[eE][-+]?[0-9]+)?)[Uu]?$`)

func isNumber(s string) bool { return numberRe.MatchString(strings.TrimSpace(s)) }

// RegisterTypes returns the register type the harness gives each operand
// of text, and whether each operand is a plain register (not a vector,
// address, immediate or special register): what a microbenchmark needs to
// chain an instruction's result into its next input.
func (h *Harness) RegisterTypes(text string) (types []string, plain []bool, err error) {
	tokens, operands, err := ptx.ParseInstruction(sanitizeIdentifiers(text))
	if err != nil {
		return nil, nil, err
	}
	roles := ptx.OperandRoles(h.mnemonic(tokens), tokens, len(operands))
	for i, op := range operands {
		op = strings.TrimSpace(op)
		types = append(types, roles[i])
		plain = append(plain, op != "" && ptx.IdentRe.MatchString(op) && ptx.IdentRe.FindString(op) == op && !h.isSpecial(op))
	}
	return types, plain, nil
}
