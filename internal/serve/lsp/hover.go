package lsp

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
	"github.com/gpuisa/gpuisa/internal/store/costview"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// semanticsLines is how much pseudocode a hover shows before pointing at
// the page: the hover stays a glance.
const semanticsLines = 10

// hover answers textDocument/hover: an instruction (mnemonic, PTX
// modifier), a register or special register, a modifier, a label.
func hover(ctx context.Context, k *knowledge, d *document, c fileContext, base string, pos protocol.Position) *protocol.Hover {
	n := int(pos.Line)
	col := d.byteCol(n, pos.Character)
	tok, ok := d.tokenAt(n, col)
	if !ok {
		return nil
	}
	var text string
	switch tok.kind {
	case tokMnemonic:
		if c.lang == langPTX {
			text = ptxInstructionHover(ctx, k, d, c, base, n, tok, col)
		} else {
			text = amdInstructionHover(ctx, k, c, base, tok.text)
		}
	case tokWord:
		text = wordHover(ctx, k, d, c, base, n, tok)
	case tokLabelDef:
		text = labelHover(d, tok.text)
	case tokComment:
		if c.lang == langAMD {
			if hex, start, end, ok := encodingAt(d.lines[n].text, col); ok {
				text = encodingHover(ctx, k, d, c, n, hex)
				tok.start, tok.end = start, end
			}
		}
	case tokDirective:
		if c.lang == langPTX {
			if in, err := k.instruction(ctx, "ptx", tok.text); err == nil {
				text = ptxEntryHover(in, base)
			}
		}
	}
	if text == "" {
		return nil
	}
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text},
		Range:    d.rangeOf(n, tok.start, tok.end),
	}
}

// rangeOf is a token's range in LSP coordinates.
func (d *document) rangeOf(n, start, end int) *protocol.Range {
	return &protocol.Range{
		Start: protocol.Position{Line: uint32(n), Character: d.utf16Col(n, start)},
		End:   protocol.Position{Line: uint32(n), Character: d.utf16Col(n, end)},
	}
}

// amdInstructionHover describes an AMDGPU mnemonic as written on the
// file's target.
func amdInstructionHover(ctx context.Context, k *knowledge, c fileContext, base, written string) string {
	family := c.family
	var b strings.Builder
	if family == "" {
		home, ok := k.homeOf(ctx, written)
		if !ok {
			return ""
		}
		family = home
	}
	in, err := k.instruction(ctx, family, written)
	if err != nil {
		home, ok := k.homeOf(ctx, written)
		if !ok {
			return ""
		}
		if in, err = k.instruction(ctx, home, written); err != nil {
			return ""
		}
		fmt.Fprintf(&b, "*%s has no instruction %s; this is %s's.*\n\n", k.familyName(family), code(written), k.familyName(home))
		family = home
	}
	a := k.byID[family]
	fmt.Fprintf(&b, "**%s** · %s · %s\n\n", in.Name, a.Name, escapeMD(in.Category))
	if bare := bareMnemonic(written); bare != in.Name {
		note := ""
		for _, al := range in.Aliases {
			if strings.EqualFold(al.Name, bare) && al.Note != "" {
				note = " (" + escapeMD(al.Note) + ")"
			}
		}
		fmt.Fprintf(&b, "Written %s; %s calls it %s%s.\n\n", code(bare), a.Name, code(in.Name), note)
	}
	if in.Summary != "" {
		fmt.Fprintf(&b, "%s  \n*— %s*\n\n", escapeMD(in.Summary), escapeMD(documentTitle(a, in)))
	}
	if len(in.Encodings) > 0 {
		var parts []string
		for _, e := range in.Encodings {
			p := fmt.Sprintf("%s opcode %d", e.Name, e.Opcode)
			if e.Identifier != "" {
				p += fmt.Sprintf(" (%s, %d bits)", e.Identifier, e.Width)
			}
			parts = append(parts, p)
		}
		fmt.Fprintf(&b, "**Encoding:** %s\n\n", strings.Join(parts, " · "))
	}
	if syn := syntaxFor(in, written); syn != nil {
		fmt.Fprintf(&b, "**Syntax** (LLVM %s): %s\n\n", syn.GFX, code(syn.Text))
	}
	if len(in.Operands) > 0 {
		b.WriteString("**Operands:**\n")
		for _, o := range in.Operands {
			fmt.Fprintf(&b, "- %s — %s%s\n", code(o.Name), readWritten(o), operandKind(o))
		}
		b.WriteString("\n")
	}
	b.WriteString(targetLine(k, c, in, written))
	b.WriteString(costLine(c, in))
	b.WriteString(counterparts(k, in, "Counterpart"))
	b.WriteString(semanticsBlock(in.Semantics))
	fmt.Fprintf(&b, "[%s on gpuisa](%s/amdgpu/%s/%s)\n", in.Name, base, url.PathEscape(family), url.PathEscape(in.Name))
	return b.String()
}

// targetLine says whether the file's target accepts the spelling as
// written, from llvm-mc's verdicts.
func targetLine(k *knowledge, c fileContext, in *isa.Instruction, written string) string {
	if c.target == "" {
		return "**Target:** none set (add `.amdgcn_target`, the `gpuisa.target` setting or a `; gpuisa: target=gfx…` comment)\n\n"
	}
	sup, ok := k.supportOf(in.Arch, written, in.Name)
	switch spellingVerdict(sup, ok, c.target, bareMnemonic(written)) {
	case notVerified:
		if ok {
			return fmt.Sprintf("**Target %s:** not verified (llvm-mc assembled %s alone on no target)\n\n", c.target, code(bareMnemonic(written)))
		}
		return fmt.Sprintf("**Target %s:** not verified with llvm-mc\n\n", c.target)
	case accepted:
		enc := ""
		for _, t := range in.TargetDetails {
			if t.Target == c.target && t.Status == "supported" && t.Encoding != "" && t.OtherSpelling == "" {
				enc = "; encodes as " + code(t.Encoding)
			}
		}
		return fmt.Sprintf("**Target %s:** supported (llvm-mc)%s\n\n", c.target, enc)
	}
	msg := fmt.Sprintf("**Target %s:** not supported (llvm-mc)", c.target)
	if o := sup.OtherSpellings[c.target]; o != "" {
		msg += "; " + c.target + " assembles " + code(o)
	}
	if ts := targetsSupporting(sup); len(ts) > 0 {
		msg += "; accepted on " + shortList(ts, 12)
	}
	return msg + "\n\n"
}

// costLine gives LLVM's scheduling model's numbers on the file's target
// (or, with none set, on the family's first modelled target), labelled as
// the compiler's model.
func costLine(c fileContext, in *isa.Instruction) string {
	target := c.target
	cost, ok := in.Cost[target]
	if !ok && target == "" {
		ts := make([]string, 0, len(in.Cost))
		for t := range in.Cost {
			ts = append(ts, t)
		}
		sort.Strings(ts)
		if len(ts) > 0 {
			target, cost, ok = ts[0], in.Cost[ts[0]], true
		}
	}
	if !ok {
		return ""
	}
	return fmt.Sprintf("**Cost on %s** (LLVM's scheduling model, not a measurement): %s, latency %d, reciprocal throughput %.2f, %d µop(s) · %s\n\n",
		target, code(cost.Unit), cost.Latency, cost.RThroughput, cost.UOps, code(costview.Resources(cost)))
}

// syntaxFor picks LLVM's syntax line for the spelling written: the one
// whose mnemonic matches, else the first.
func syntaxFor(in *isa.Instruction, written string) *isa.Syntax {
	w := strings.ToLower(written)
	for i := range in.Syntax {
		if f := strings.Fields(in.Syntax[i].Text); len(f) > 0 && f[0] == w {
			return &in.Syntax[i]
		}
	}
	if len(in.Syntax) > 0 {
		return &in.Syntax[0]
	}
	return nil
}

func readWritten(o isa.Operand) string {
	switch {
	case o.Input && o.Output:
		return "read and written"
	case o.Output:
		return "written"
	case o.Input:
		return "read"
	}
	return "operand"
}

func operandKind(o isa.Operand) string {
	var parts []string
	if o.DataFormat != "" {
		parts = append(parts, o.DataFormat)
	}
	if o.OperandType != "" && o.OperandType != o.Name {
		parts = append(parts, o.OperandType)
	}
	if o.Size > 0 {
		parts = append(parts, fmt.Sprintf("%d bits", o.Size))
	}
	if o.Implicit {
		parts = append(parts, "implicit")
	}
	if o.Optional {
		parts = append(parts, "optional")
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + escapeMD(strings.Join(parts, " · "))
}

func documentTitle(a *isa.Architecture, in *isa.Instruction) string {
	if in.DescriptionFrom != nil {
		why := in.DescriptionFrom.Why
		if why == "" {
			why = "pseudocode only"
		}
		return "the " + in.DescriptionFrom.Arch + " guide (this family's gives " + why + ")"
	}
	if a.Title != "" {
		return a.Title
	}
	for _, d := range a.Documents {
		if d.Title != "" {
			return d.Title
		}
	}
	return a.Vendor + " " + a.Name + " documentation"
}

func archName(k *knowledge, id string) string {
	if a := k.byID[id]; a != nil {
		return a.Name
	}
	return id
}

// semanticsBlock shows the first lines of the pseudocode, the rest on the
// page.
func semanticsBlock(sem string) string {
	sem = strings.TrimSpace(sem)
	if sem == "" {
		return ""
	}
	lines := strings.Split(sem, "\n")
	more := ""
	if len(lines) > semanticsLines {
		more = fmt.Sprintf("*… %d more lines on the page*\n\n", len(lines)-semanticsLines)
		lines = lines[:semanticsLines]
	}
	return "**Semantics:**\n```\n" + strings.ReplaceAll(strings.Join(lines, "\n"), "```", "'''") + "\n```\n" + more
}

// ptxInstructionHover describes a PTX statement's mnemonic, or the
// modifier under the cursor.
func ptxInstructionHover(ctx context.Context, k *knowledge, d *document, c fileContext, base string, n int, tok token, col int) string {
	in, err := k.instruction(ctx, "ptx", tok.text)
	if err != nil {
		return ""
	}
	var b strings.Builder
	stmt := statementText(d, n, tok)
	// The modifier under the cursor (".NaN" of "max.NaN.f32").
	if mod := dottedPartAt(tok.text, col-tok.start, in.Name); mod != "" {
		b.WriteString(ptxModifierText(in, mod))
	}
	fmt.Fprintf(&b, "**%s** · PTX · %s\n\n", in.Name, escapeMD(in.Category))
	if in.Summary != "" {
		fmt.Fprintf(&b, "%s  \n*— NVIDIA PTX ISA documentation*\n\n", escapeProse(in.Summary))
	}
	if k.loadPTX(ctx) == nil {
		r := k.checker.Check(stmt)
		switch {
		case !r.Valid:
			fmt.Fprintf(&b, "**ptx check:** %s\n\n", escapeMD(r.Reason))
		default:
			fmt.Fprintf(&b, "**Form:** %s\n\n", code(r.Syntax))
			b.WriteString(requirementLine(r, c))
		}
	}
	if len(in.Forms) > 0 {
		fmt.Fprintf(&b, "%d documented forms; PTX ISA %s, %s or newer for the first.\n\n", len(in.Forms), orDash(in.PTXVersion), orDash(in.MinTarget))
	}
	if len(in.Operands) > 0 {
		b.WriteString("**Operands:**\n")
		for _, o := range in.Operands {
			// One sentence; a longer one is cut at a word outside inline
			// code.
			desc := firstSentences(o.Description, 1)
			if len(desc) > 200 {
				cut := strings.LastIndex(desc[:200], " ")
				if strings.Count(desc[:max(cut, 0)], "`")%2 == 1 {
					cut = strings.LastIndex(desc[:max(cut, 0)], "`")
				}
				desc = desc[:max(cut, 0)] + " …"
			}
			fmt.Fprintf(&b, "- %s — %s%s\n", code(o.Name), readWritten(o), dashed(escapeProse(desc)))
		}
		b.WriteString("\n")
	}
	b.WriteString(counterparts(k, in, "AMD counterpart"))
	b.WriteString(semanticsBlock(in.Semantics))
	fmt.Fprintf(&b, "[%s on gpuisa](%s/ptx/%s)\n", in.Name, base, url.PathEscape(in.Name))
	return b.String()
}

// requirementLine says what a valid PTX statement needs and whether the
// file's .version and .target give it.
func requirementLine(r ptx.Result, c fileContext) string {
	who := "documentation"
	if r.Verified != "" {
		who = r.Verified
	}
	need := joinNonEmpty(" and ", prefixed("PTX ", r.PTXVersion), r.MinTarget)
	if need == "" {
		return ""
	}
	s := fmt.Sprintf("**Needs** %s (%s)", need, who)
	var short []string
	if c.ptxVersion != "" && r.PTXVersion != "" && ptxorder.CompareVersions(c.ptxVersion, r.PTXVersion) < 0 {
		short = append(short, ".version "+c.ptxVersion)
	}
	if c.target != "" && !r.Allows(c.target) {
		short = append(short, ".target "+c.target)
	}
	if len(short) > 0 {
		s += "; the file's " + strings.Join(short, " and ") + " is too low"
	} else if c.target != "" {
		s += "; the file's .target " + c.target + " has it"
	}
	return s + "\n\n"
}

// Bounds on the counterparts a hover lists; the page has them all.
const (
	maxConcepts     = 4
	maxMembers      = 6
	maxRestrictions = 4
)

// counterparts lists the other vendor's instructions of each concept
// the instruction belongs to: one line per concept with every relation the
// catalogue gives (per type or family), each name once with its families,
// restrictions once.
func counterparts(k *knowledge, in *isa.Instruction, title string) string {
	type group struct {
		name         string
		members      []string
		families     map[string][]string
		relations    []string
		restrictions []string
	}
	var order []string
	groups := map[string]*group{}
	for _, cr := range in.Concepts {
		g := groups[cr.ID]
		if g == nil {
			g = &group{name: cr.Name, families: map[string][]string{}}
			groups[cr.ID] = g
			order = append(order, cr.ID)
		}
		for _, m := range cr.Members {
			if _, ok := g.families[m.Name]; !ok {
				g.members = append(g.members, m.Name)
			}
			g.families[m.Name] = appendNew(g.families[m.Name], archName(k, m.Arch))
		}
		g.relations = appendNew(g.relations, cr.Relation)
		for _, r := range cr.Restrictions {
			g.restrictions = appendNew(g.restrictions, r)
		}
	}
	var b strings.Builder
	shown := 0
	for _, id := range order {
		g := groups[id]
		if len(g.members) == 0 {
			continue
		}
		if shown == maxConcepts {
			fmt.Fprintf(&b, "*… %d more concepts on the page*\n\n", len(order)-shown)
			break
		}
		shown++
		var names []string
		for i, n := range g.members {
			if i == maxMembers {
				names = append(names, fmt.Sprintf("and %d more", len(g.members)-maxMembers))
				break
			}
			fams := g.families[n]
			where := strings.Join(fams, ", ")
			if len(fams) > 3 {
				where = fmt.Sprintf("%d families", len(fams))
			}
			names = append(names, code(n)+" ("+where+")")
		}
		fmt.Fprintf(&b, "**%s:** %s — %s, %s\n", title, strings.Join(names, ", "), escapeMD(g.name), escapeMD(strings.Join(g.relations, "; ")))
		for i, r := range g.restrictions {
			if i == maxRestrictions {
				fmt.Fprintf(&b, "- *… %d more on the page*\n", len(g.restrictions)-maxRestrictions)
				break
			}
			fmt.Fprintf(&b, "- %s\n", escapeMD(r))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// ptxModifierText says what the documentation says about one modifier and
// what ptxas found it needs.
func ptxModifierText(in *isa.Instruction, mod string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (modifier of %s)\n\n", code(mod), code(in.Name))
	for _, s := range sentencesNaming(in.Description, mod, 3) {
		fmt.Fprintf(&b, "> %s\n\n", escapeProse(s))
	}
	seen := map[string]bool{}
	for _, f := range in.Forms {
		for _, mc := range f.ModifierChecks {
			if mc.Modifier != mod || !mc.Raises {
				continue
			}
			need := joinNonEmpty(" and ", prefixed("PTX ", mc.Check.PTXVersion), mc.Check.MinTarget)
			if need == "" || seen[need] {
				continue
			}
			seen[need] = true
			fmt.Fprintf(&b, "%s needs %s (ptxas)\n\n", code(mod), need)
		}
	}
	b.WriteString("---\n\n")
	return b.String()
}

// ptxEntryHover describes a directive or special register entry.
func ptxEntryHover(in *isa.Instruction, base string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · PTX %s\n\n", in.Name, escapeMD(strings.ReplaceAll(in.Entry, "-", " ")))
	if in.Summary != "" {
		fmt.Fprintf(&b, "%s  \n*— NVIDIA PTX ISA documentation*\n\n", escapeProse(in.Summary))
	}
	if in.PTXVersion != "" || in.MinTarget != "" {
		fmt.Fprintf(&b, "PTX ISA %s, %s or newer\n\n", orDash(in.PTXVersion), orDash(in.MinTarget))
	}
	fmt.Fprintf(&b, "[%s on gpuisa](%s/ptx/%s)\n", in.Name, base, url.PathEscape(in.Name))
	return b.String()
}

// wordHover describes a word among the operands: register, label,
// modifier.
func wordHover(ctx context.Context, k *knowledge, d *document, c fileContext, base string, n int, tok token) string {
	if _, ok := d.labels[tok.text]; ok {
		return labelHover(d, tok.text)
	}
	if c.lang == langPTX {
		if r, ok := d.register(tok.text); ok {
			return fmt.Sprintf("**%s** · register %s, declared on line %d: %s\n", code(tok.text), code(r.typ), r.line+1, code(strings.TrimSpace(d.lines[r.line].text)))
		}
		if strings.HasPrefix(tok.text, "%") {
			if in, err := k.instruction(ctx, "ptx", tok.text); err == nil && in.Entry == "special-register" {
				return ptxEntryHover(in, base)
			}
		}
		return ""
	}
	stmt := d.statement(n, tok.start)
	if len(stmt) == 0 {
		return ""
	}
	mnemonic := stmt[0].text
	family := c.family
	if family == "" {
		family, _ = k.homeOf(ctx, mnemonic)
	}
	if family == "" {
		return ""
	}
	in, err := k.instruction(ctx, family, mnemonic)
	if err != nil {
		in = nil
	}
	operand := operandText(stmt, tok)
	if reg := registerClass(operand); reg != "" {
		return registerHover(k, family, in, mnemonic, operand, reg, int(tok.operand))
	}
	if in != nil {
		return modifierHover(in, tok.text)
	}
	return ""
}

// operandText is the whole operand a word belongs to when the word is part
// of a register range ("v[0:3]").
func operandText(stmt []token, w token) string {
	for _, t := range stmt {
		if t.kind == tokOperand && t.operand == w.operand && t.start <= w.start && w.end <= t.end {
			s := strings.Trim(t.text, "-|")
			s = strings.TrimPrefix(strings.TrimSuffix(s, ")"), "abs(")
			s = strings.TrimPrefix(s, "neg(")
			if registerClass(s) != "" {
				return s
			}
		}
	}
	return w.text
}

var (
	vgprRe    = lazyre.New(`^v(\d+|\[\d+:\d+\])$`)
	sgprRe    = lazyre.New(`^s(\d+|\[\d+:\d+\])$`)
	agprRe    = lazyre.New(`^a(\d+|\[\d+:\d+\])$`)
	ttmpRe    = lazyre.New(`^ttmp(\d+|\[\d+:\d+\])$`)
	specialRe = lazyre.New(`^(vcc|vcc_lo|vcc_hi|exec|exec_lo|exec_hi|m0|scc|vccz|execz|null|flat_scratch|flat_scratch_lo|flat_scratch_hi|xnack_mask|xnack_mask_lo|xnack_mask_hi|tba|tma|src_shared_base|src_shared_limit|src_private_base|src_private_limit|src_pops_exiting_wave_id|src_scc|src_vccz|src_execz|src_lds_direct|lds_direct)$`)
)

// registerClass names the kind of register an operand is, "" if none.
func registerClass(s string) string {
	s = strings.ToLower(s)
	switch {
	case vgprRe.MatchString(s):
		return "VGPR"
	case sgprRe.MatchString(s):
		return "SGPR"
	case agprRe.MatchString(s):
		return "AGPR"
	case ttmpRe.MatchString(s):
		return "TTMP"
	case specialRe.MatchString(s):
		return "special"
	}
	return ""
}

var registerNames = map[string]string{
	"VGPR": "vector general-purpose register (one 32-bit value per lane)",
	"SGPR": "scalar general-purpose register (one 32-bit value per wave)",
	"AGPR": "accumulation register (CDNA's matrix-core register file)",
	"TTMP": "trap-handler temporary register",
}

func registerHover(k *knowledge, family string, in *isa.Instruction, mnemonic, reg, class string, operand int) string {
	var b strings.Builder
	if class == "special" {
		fmt.Fprintf(&b, "**%s** · special register\n\n", code(reg))
		for _, s := range fieldSentences(k.byID[family], reg) {
			fmt.Fprintf(&b, "> %s\n\n", escapeMD(s))
		}
		fmt.Fprintf(&b, "*— %s, the operand fields' descriptions*\n\n", escapeMD(documentTitle(k.byID[family], &isa.Instruction{})))
	} else {
		width := ""
		if m := regexp.MustCompile(`\[(\d+):(\d+)\]`).FindStringSubmatch(reg); m != nil {
			lo, hi := atoi(m[1]), atoi(m[2])
			if hi >= lo {
				width = fmt.Sprintf(", %d registers (%d bits)", hi-lo+1, 32*(hi-lo+1))
			}
		}
		fmt.Fprintf(&b, "**%s** · %s%s\n\n", code(reg), registerNames[class], width)
	}
	if in != nil && operand >= 0 {
		if syn := syntaxFor(in, mnemonic); syn != nil && operand < len(syn.Operands) {
			name := syn.Operands[operand]
			if i := strings.IndexByte(name, ':'); i >= 0 {
				name = name[:i]
			}
			line := fmt.Sprintf("Operand %d of %s: %s", operand+1, code(strings.ToLower(mnemonic)), code(name))
			for _, o := range in.Operands {
				if strings.EqualFold(o.Name, name) {
					line += " — " + readWritten(o) + operandKind(o)
				}
			}
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}

// fieldSentences finds what the family's format field descriptions say
// about a special register ("VCC_LO: vcc[31:0]").
func fieldSentences(a *isa.Architecture, reg string) []string {
	if a == nil {
		return nil
	}
	up := strings.ToUpper(reg)
	wordRe := regexp.MustCompile(`(^|[^A-Z_])` + regexp.QuoteMeta(up) + `($|[^A-Z])`)
	var out []string
	seen := map[string]bool{}
	for _, f := range a.Formats {
		for _, fl := range f.Fields {
			for _, s := range splitSentences(fl.Description) {
				if wordRe.MatchString(s) && !seen[s] && len(out) < 4 {
					seen[s] = true
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// modifierAliases maps LLVM's modifier names to AMD's field names where
// they differ beyond underscores (op_sel is OPSEL, op_sel_hi OPSEL_HI).
var modifierAliases = map[string][]string{
	"clamp":  {"CLMP", "CLAMP"},
	"neg_lo": {"NEG"},
	"offset": {"OFFSET", "OFFSET0", "IOFFSET"},
}

func fieldKey(s string) string { return strings.ToUpper(strings.ReplaceAll(s, "_", "")) }

// modifierHover describes an assembler modifier ("op_sel", "offset:16",
// "glc", s_waitcnt's "vmcnt") by the encoding field, or the documented
// part of an immediate, it sets.
func modifierHover(in *isa.Instruction, word string) string {
	name := strings.ToLower(word)
	if i := strings.IndexAny(name, ":("); i >= 0 {
		name = name[:i]
	}
	keys := map[string]bool{fieldKey(name): true}
	for _, a := range modifierAliases[name] {
		keys[fieldKey(a)] = true
	}
	for _, e := range in.Encodings {
		for _, f := range e.Fields {
			if keys[fieldKey(f.Name)] {
				return fieldText(name, e.Name+"'s "+f.Name+" field", f)
			}
			for _, p := range f.Parts {
				if keys[fieldKey(p.Name)] {
					return fieldText(name, "part of "+e.Name+"'s "+f.Name, p)
				}
			}
		}
	}
	return ""
}

func fieldText(name, what string, f isa.Field) string {
	var b strings.Builder
	ranges := f.BitRanges()
	var parts []string
	for _, r := range ranges {
		if r.MSB == r.LSB {
			parts = append(parts, fmt.Sprintf("%d", r.LSB))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r.MSB, r.LSB))
		}
	}
	bits := "bits " + strings.Join(parts, ", ")
	if len(ranges) == 1 && ranges[0].MSB == ranges[0].LSB {
		bits = "bit " + parts[0]
	}
	fmt.Fprintf(&b, "**%s** · sets %s (%s)\n\n", code(name), what, bits)
	if f.Description != "" {
		fmt.Fprintf(&b, "> %s\n\n", escapeMD(firstSentences(f.Description, 3)))
	}
	return b.String()
}

func labelHover(d *document, name string) string {
	n, ok := d.labels[name]
	if !ok {
		return ""
	}
	refs := len(references(d, protocol.Position{Line: uint32(n), Character: d.utf16Col(n, strings.Index(d.lines[n].text, name))}, false))
	return fmt.Sprintf("**%s** · label on line %d, %d reference(s)\n", code(name), n+1, refs)
}

// statementText is the PTX statement the mnemonic token starts, with the
// lines it goes on to when it ends on a later one.
func statementText(d *document, n int, tok token) string {
	line := d.lines[n].text
	end := len(line)
	for _, t := range d.tokensOf(n) {
		if t.kind == tokComment && t.start < end {
			end = t.start
		}
	}
	text := line[tok.start:end]
	if k := strings.IndexByte(text, ';'); k >= 0 {
		return text[:k+1]
	}
	for m := n + 1; m < len(d.lines) && m <= n+20; m++ {
		next := d.lines[m].text
		for _, t := range d.tokensOf(m) {
			if t.kind == tokComment {
				next = next[:t.start]
				break
			}
		}
		if !continuesStatement(strings.TrimSpace(next)) {
			break
		}
		text += " " + strings.TrimSpace(next)
		if k := strings.IndexByte(text, ';'); k >= 0 {
			return text[:k+1]
		}
	}
	return strings.TrimSpace(text) + ";"
}

// dottedPartAt returns the ".part" of a dotted mnemonic at byte offset
// off, when it is a modifier (beyond the instruction's own name).
func dottedPartAt(text string, off int, name string) string {
	nameParts := strings.Count(name, ".") + 1
	parts := strings.Split(text, ".")
	pos := 0
	for i, p := range parts {
		end := pos + len(p)
		if off >= pos && off <= end {
			if i < nameParts {
				return ""
			}
			return "." + p
		}
		pos = end + 1
	}
	return ""
}

// sentencesNaming returns up to max sentences of text that mention word.
func sentencesNaming(text, word string, max int) []string {
	var out []string
	for _, s := range splitSentences(text) {
		if strings.Contains(s, word) {
			out = append(out, s)
			if len(out) == max {
				break
			}
		}
	}
	return out
}

var sentenceEnd = lazyre.New(`[.!?]\s+`)

func splitSentences(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return nil
	}
	var out []string
	last := 0
	for _, m := range sentenceEnd.FindAllStringIndex(text, -1) {
		out = append(out, strings.TrimSpace(text[last:m[0]+1]))
		last = m[1]
	}
	if last < len(text) {
		out = append(out, strings.TrimSpace(text[last:]))
	}
	return out
}

func firstSentences(text string, n int) string {
	s := splitSentences(text)
	if len(s) > n {
		s = s[:n]
	}
	return strings.Join(s, " ")
}

// code renders an inline code span; backticks inside become quotes.
func code(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }

// escapeMD escapes upstream text for a Markdown hover: every character
// Markdown reads as markup where it stands (a heading's '#' only first,
// no '|' outside tables), except an underscore inside a word (VCC_LO),
// which CommonMark never takes for emphasis.
func escapeMD(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '[', ']':
			b.WriteByte('\\')
		case '#':
			if i == 0 {
				b.WriteByte('\\')
			}
		case '<':
			b.WriteString("&lt;")
			continue
		case '>':
			b.WriteString("&gt;")
			continue
		case '&':
			b.WriteString("&amp;")
			continue
		case '_':
			if !(i > 0 && isAlnum(s[i-1]) && i+1 < len(s) && isAlnum(s[i+1])) {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// escapeProse passes NVIDIA's Markdown prose through (its inline code and
// emphasis are Markdown already) with HTML and links made text.
func escapeProse(s string) string { return proseEscaper.Replace(s) }

var proseEscaper = strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;", "[", `\[`, "]", `\]`)

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func shortList(items []string, max int) string {
	if len(items) > max {
		return strings.Join(items[:max], ", ") + fmt.Sprintf(" and %d more", len(items)-max)
	}
	return strings.Join(items, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func dashed(s string) string {
	if s == "" {
		return ""
	}
	return " · " + s
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
