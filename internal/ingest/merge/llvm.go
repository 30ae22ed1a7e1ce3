package merge

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// Conflict facts recorded by the LLVM cross-checks. The quality report
// finds them by these prefixes.
const (
	// FactIdentifierPrefix starts the fact of a disagreement between the
	// identifier AMD documents for a format and the bits llvm-mc encodes:
	// "identifier in VOP3P".
	FactIdentifierPrefix = "identifier in "
	// FactAssemblerSupport is the fact of an instruction AMD documents for a
	// family that llvm-mc rejects on every target of that family.
	FactAssemblerSupport = "assembler support"
	// FactLLVMName is the fact of an opcode AMD and LLVM name differently
	// (llvm-mc rejects AMD's name and disassembles the encoding as its own).
	FactLLVMName = "name in LLVM"
	// FactOperands is the fact of an instruction's operands where LLVM's
	// syntax row and what llvm-mc accepts and prints disagree.
	FactOperands = "operands"
)

// llvm-mc's messages for a name it does not accept on a target. An
// "unsupported" target without a TargetResult had the first.
const (
	MsgNotSupported = "instruction not supported on this GPU"
	MsgInvalid      = "invalid instruction"
)

// Target statuses beyond the two of the JSON contract ("supported",
// "unsupported"); they only appear in TargetDetails, never in Targets.
const (
	StatusNotVerified = "not verified"
)

// StripLLVMSuffix removes LLVM's encoding suffixes (isa.EncodingSuffixes)
// from a mnemonic: v_max_f32_e64_dpp -> v_max_f32. It strips until none is
// left, as the merge always has, so that a name the readers give with two
// (v_x_e32_e64) comes out as it did.
func StripLLVMSuffix(m string) string {
	for {
		b := isa.BaseMnemonic(m)
		if b == m {
			return m
		}
		m = b
	}
}

// Respell is asm with its mnemonic's instruction name replaced by name,
// the encoding suffix (_e64, _sdwa, ...) kept; ok is false for a line
// whose mnemonic carries no instruction name (a VOPD pair).
func Respell(asm, name string) (string, bool) {
	asm = strings.TrimSpace(asm)
	mn, rest, _ := strings.Cut(asm, " ")
	if strings.HasPrefix(mn, "v_dual_") || strings.Contains(asm, "::") {
		return "", false
	}
	base := StripLLVMSuffix(strings.ToLower(mn))
	if base == "" {
		return "", false
	}
	out := name + mn[len(base):]
	if rest != "" {
		out += " " + rest
	}
	return out, true
}

// LLVMBaseNames returns the AMD instruction names an LLVM syntax mnemonic
// stands for. GFX12 lists VOPD instructions as pairs, v_dual_<x>_x_<y>,
// which name two instructions.
func LLVMBaseNames(mnemonic string) []string {
	m := strings.ToLower(mnemonic)
	if strings.HasPrefix(m, "v_dual_") {
		if i := strings.Index(m, "_x_"); i > len("v_dual") {
			return []string{m[:i], "v_dual_" + m[i+3:]}
		}
		return []string{m}
	}
	return []string{StripLLVMSuffix(m)}
}

// dualPartner is the VOPD half LLVM pairs every other half with in its
// GFX12 table; a pair row is attached to an instruction only when its other
// half is this one, so a v_dual page lists a handful of rows, not dozens.
const dualPartner = "v_dual_mov_b32"

// SyntaxMatch is what AttachLLVMSyntax found for one family.
type SyntaxMatch struct {
	Arch  string
	Pages []string // the syntax pages used ("GFX9", "GFX908")
	// Rows holds the syntax rows attached to each instruction, by name.
	Rows map[string][]llvmdoc.Syntax
	// UnmatchedLLVM lists the names on the family's pages (suffixes
	// stripped) that no AMD instruction of the family matches, sorted.
	UnmatchedLLVM []string
	// UnmatchedAMD lists the family's AMD instructions no row matches, sorted.
	UnmatchedAMD []string
	// files holds, parallel to Rows, the page file each row came from.
	files map[string][]string
}

// AttachLLVMSyntax attaches the syntax rows of LLVM's pages to the AMD
// instructions of the families each page documents (llvmdoc.PageArchs):
// by lower-case mnemonic, with LLVM's encoding suffixes stripped, and
// through an instruction's aliases (documented renames). file turns a
// page's path into the file recorded in provenance. The result has one
// entry per AMD family that has instructions, pages or not.
func AttachLLVMSyntax(insts []*isa.Instruction, pages []llvmdoc.Page, file func(string) string) map[string]*SyntaxMatch {
	byArch := map[string]map[string]*isa.Instruction{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		if byArch[in.Arch] == nil {
			byArch[in.Arch] = map[string]*isa.Instruction{}
		}
		byArch[in.Arch][strings.ToLower(in.Name)] = in
	}
	// Aliases resolve only where no instruction has the name itself.
	aliases := map[string]map[string]*isa.Instruction{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD {
			continue
		}
		for _, a := range in.Aliases {
			n := strings.ToLower(a.Name)
			if _, real := byArch[in.Arch][n]; real {
				continue
			}
			if aliases[in.Arch] == nil {
				aliases[in.Arch] = map[string]*isa.Instruction{}
			}
			aliases[in.Arch][n] = in
		}
	}
	out := map[string]*SyntaxMatch{}
	for arch := range byArch {
		out[arch] = &SyntaxMatch{Arch: arch, Rows: map[string][]llvmdoc.Syntax{}}
	}
	lookup := func(arch, name string) *isa.Instruction {
		if in := byArch[arch][name]; in != nil {
			return in
		}
		return aliases[arch][name]
	}
	unmatched := map[string]map[string]bool{}
	for _, p := range pages {
		for _, arch := range llvmdoc.PageArchs(p.GFX) {
			m := out[arch]
			if m == nil {
				continue // a family without an AMD guide in the sources
			}
			m.Pages = append(m.Pages, p.GFX)
			for _, row := range p.Instructions {
				var targets []*isa.Instruction
				if in := lookup(arch, row.Mnemonic); in != nil {
					targets = append(targets, in)
				} else {
					bases := LLVMBaseNames(row.Mnemonic)
					for i, b := range bases {
						in := lookup(arch, b)
						if in == nil {
							if unmatched[arch] == nil {
								unmatched[arch] = map[string]bool{}
							}
							unmatched[arch][b] = true
							continue
						}
						// A VOPD pair shows on a half's page only when the
						// other half is the plain move (or the same half).
						if len(bases) == 2 && bases[1-i] != dualPartner && bases[1-i] != b {
							in.Sources = appendProv(in.Sources, isa.Prov{Source: isa.SourceLLVMDoc, File: file(p.File)})
							continue
						}
						targets = append(targets, in)
					}
				}
				for _, in := range targets {
					syn := SyntaxOf(row, file(p.File))
					if !hasSyntax(in.Syntax, syn) {
						in.Syntax = append(in.Syntax, syn)
					}
					in.Sources = appendProv(in.Sources, isa.Prov{Source: isa.SourceLLVMDoc, File: file(p.File)})
					m.Rows[in.Name] = append(m.Rows[in.Name], row)
					if m.files == nil {
						m.files = map[string][]string{}
					}
					m.files[in.Name] = append(m.files[in.Name], file(p.File))
				}
			}
		}
	}
	tagless := taglessPages(pages)
	// ref finds the same instruction's row on the nearest older family's
	// page that has tags, for the rows of a tagless page.
	order := isa.Archs()
	ref := func(arch, name string, rows []llvmdoc.Syntax) *refRow {
		if row, _, ok := plainRow(name, rows, nil); !ok || !tagless[row.Family] {
			return nil
		}
		seen := false
		for _, a := range order {
			if a.ID == arch {
				seen = true
				continue
			}
			m := out[a.ID]
			if !seen || m == nil {
				continue
			}
			if row, file, ok := plainRow(name, m.Rows[name], m.files[name]); ok && !tagless[row.Family] {
				return &refRow{row: row, file: file}
			}
		}
		return nil
	}
	for arch, m := range out {
		var noRef []*isa.Instruction // rows of a tagless page with nothing to fill them in
		withRef := map[string][]*isa.Instruction{}
		for _, in := range byArch[arch] {
			if len(in.Operands) == 0 {
				r := ref(arch, in.Name, m.Rows[in.Name])
				in.Operands = operandsFromSyntax(arch, in.Name, m.Rows[in.Name], m.files[in.Name], r)
				row, _, ok := plainRow(in.Name, m.Rows[in.Name], nil)
				switch {
				case r != nil:
					withRef[namePrefix(in.Name)] = append(withRef[namePrefix(in.Name)], in)
				case ok && tagless[row.Family]:
					noRef = append(noRef, in)
				}
			}
		}
		optionalLikeSiblings(noRef, withRef)
		for name := range unmatched[arch] {
			m.UnmatchedLLVM = append(m.UnmatchedLLVM, name)
		}
		sort.Strings(m.UnmatchedLLVM)
		for name, in := range byArch[arch] {
			if len(m.Rows[in.Name]) == 0 && !hasSyntaxFrom(in) {
				m.UnmatchedAMD = append(m.UnmatchedAMD, name)
			}
		}
		sort.Strings(m.UnmatchedAMD)
	}
	return out
}

// hasSyntaxFrom reports whether an instruction got LLVM syntax some other
// way (a VOPD half only listed in pairs with other halves).
func hasSyntaxFrom(in *isa.Instruction) bool {
	for _, p := range in.Sources {
		if p.Source == isa.SourceLLVMDoc {
			return true
		}
	}
	return false
}

func hasSyntax(list []isa.Syntax, s isa.Syntax) bool {
	for _, x := range list {
		if x.GFX == s.GFX && x.Text == s.Text {
			return true
		}
	}
	return false
}

// SyntaxOf converts one syntax row: operands as the page writes them
// ("src0:m", "vsrc1:b16", "vdst:opt"), then the modifiers.
func SyntaxOf(row llvmdoc.Syntax, file string) isa.Syntax {
	s := isa.Syntax{GFX: row.Family, Operands: []string{}, Prov: isa.Prov{Source: isa.SourceLLVMDoc, File: file, Line: row.Line}}
	for _, op := range row.Operands {
		text := op.Name
		if op.Type != "" {
			text += ":" + op.Type
		}
		for _, m := range op.Mods {
			text += ":" + m
		}
		if op.Optional {
			text += ":opt"
		}
		s.Operands = append(s.Operands, text)
	}
	s.Modifiers = append(s.Modifiers, row.Modifiers...)
	s.Text = row.Mnemonic
	if len(s.Operands) > 0 {
		s.Text += " " + strings.Join(s.Operands, ", ")
	}
	if len(s.Modifiers) > 0 {
		s.Text += " " + strings.Join(s.Modifiers, " ")
	}
	return s
}

// Candidate is one example that may be shown for an instruction, before
// llvm-mc has said anything about it.
type Candidate struct {
	Asm    string
	Source string   // provenance in words: "built from LLVM's documented GFX9 syntax"
	Prov   isa.Prov // the syntax row or test line it comes from
	// Own is true for candidates from the family's own syntax pages or from
	// tests run on the family's targets; they are preferred as examples.
	Own bool
}

// Verification is what ApplyVerification needs besides the instruction.
type Verification struct {
	// Targets are every gfx target verified, in display order.
	Targets []string
	// Unknown are gfx targets the model lists but llvm-mc does not know
	// (gfx940 in LLVM 22); they get a "not verified" detail.
	Unknown []string
	// FamilyTargets are the family's targets llvm-mc knows.
	FamilyTargets []string
	// Candidates in order of preference.
	Candidates []Candidate
	// Probe is the bare mnemonic: llvm-mc's complaint about it says whether
	// the name is known on a target ("too few operands") or not
	// ("instruction not supported on this GPU", "invalid instruction").
	Probe string
	// Outcomes returns llvm-mc's verdicts on asm, one per target of
	// Targets, in that order.
	Outcomes func(asm string) ([]verify.Outcome, bool)
	// MaxExamples caps the examples shown; 0 means 3.
	MaxExamples int
	// Version is llvm-mc's version line, quoted in provenance notes.
	Version string
}

// Result summarises ApplyVerification for one instruction.
type Result struct {
	// Verified is true when an example was accepted on a family target.
	Verified bool
	// Rejected is true when the name is known to no family target: llvm-mc
	// says "not supported on this GPU" or "invalid instruction" on each.
	Rejected bool
	// Reason explains an unverified instruction in a few words.
	Reason string
	// Compared counts the encodings compared with AMD's identifiers.
	Compared int
	// Spelled is true for a Rejected instruction shown with examples in
	// LLVM's spelling of its opcode (v_fma_mix_f32 for CDNA's
	// v_mad_mix_f32), which llvm-mc accepts on the family.
	Spelled bool
}

// NameRejected reports whether llvm-mc's message means the mnemonic itself
// is unknown on the target, as opposed to bad operands.
func NameRejected(msg string) bool {
	return strings.Contains(msg, "not supported on this GPU") || strings.HasPrefix(msg, "invalid instruction")
}

// ApplyVerification fills an instruction's Examples, Targets,
// TargetDetails, llvm-mc aliases and cross-check conflicts from llvm-mc's
// verdicts on its candidates. arch supplies the formats the identifier
// check needs.
func ApplyVerification(in *isa.Instruction, arch *isa.Architecture, v Verification) Result {
	maxEx := v.MaxExamples
	if maxEx <= 0 {
		maxEx = 3
	}
	var res Result
	vd := newVerdicts(v)
	aliasTargets := vd.applyTargets(in)
	in.Examples = vd.examples(in, arch, maxEx, &res)
	res.Verified = len(in.Examples) > 0
	addPrintedAliases(in, aliasTargets)
	if !res.Verified {
		vd.whyUnverified(in, &res)
	}
	return res
}

// verdicts are llvm-mc's answers for one instruction: each candidate's and
// the probe's, aligned with v.Targets.
type verdicts struct {
	v      Verification
	rows   [][]verify.Outcome // per candidate
	probe  []verify.Outcome
	famPos []int // the positions of v.FamilyTargets in v.Targets
}

func newVerdicts(v Verification) *verdicts {
	vd := &verdicts{v: v, rows: make([][]verify.Outcome, len(v.Candidates))}
	for i, c := range v.Candidates {
		vd.rows[i], _ = v.Outcomes(c.Asm)
	}
	vd.probe, _ = v.Outcomes(v.Probe)
	targetPos := make(map[string]int, len(v.Targets))
	for i, t := range v.Targets {
		targetPos[t] = i
	}
	for _, t := range v.FamilyTargets {
		if i, ok := targetPos[t]; ok {
			vd.famPos = append(vd.famPos, i)
		}
	}
	return vd
}

// outcomeAt is row's verdict on the t-th target (none when the row is short).
func outcomeAt(row []verify.Outcome, t int) verify.Outcome {
	if t < len(row) {
		return row[t]
	}
	return verify.Outcome{}
}

// applyTargets fills in.Targets and in.TargetDetails: per target, the
// first accepted candidate in order of preference, else why none. It
// returns the targets on which llvm-mc printed each other name.
func (vd *verdicts) applyTargets(in *isa.Instruction) map[string][]string {
	v := vd.v
	if in.Targets == nil || len(in.Targets) == 0 {
		in.Targets = make(map[string]string, len(v.Targets))
	}
	in.TargetDetails = make([]isa.TargetResult, 0, len(v.Targets)+len(v.Unknown))
	// Neighbouring targets mostly print and encode alike: remember the
	// last answer instead of formatting it again.
	var lastEnc []byte
	var lastEncText, lastPrinted, lastBase string
	encText := func(b []byte) string {
		if lastEncText == "" || !bytes.Equal(b, lastEnc) {
			lastEnc, lastEncText = b, asmtext.FormatBytes(b)
		}
		return lastEncText
	}
	baseOf := func(printed string) string {
		if printed != lastPrinted || lastBase == "" {
			lastPrinted = printed
			name, _, _ := strings.Cut(strings.TrimSpace(printed), " ")
			lastBase = StripLLVMSuffix(name)
		}
		return lastBase
	}
	aliasTargets := map[string][]string{}
	for ti, t := range v.Targets {
		var accepted *verify.Outcome
		var firstErr string
		for ci := range v.Candidates {
			o := outcomeAt(vd.rows[ci], ti)
			if o.Supported {
				accepted = &o
				break
			}
			if firstErr == "" {
				firstErr = o.Error
			}
		}
		p := outcomeAt(vd.probe, ti)
		switch {
		case accepted != nil:
			in.Targets[t] = "supported"
			d := isa.TargetResult{Target: t, Status: "supported", Encoding: encText(accepted.Encoding)}
			// What llvm-mc printed is kept where it names the instruction
			// differently (the evidence for an alias); elsewhere it only
			// repeats the example, and 47 targets of 14,000 instructions
			// make the database twice as large.
			if printed := baseOf(accepted.Printed); printed != "" && printed != in.Name && !strings.HasPrefix(in.Name, "v_dual_") {
				aliasTargets[printed] = append(aliasTargets[printed], t)
				d.Printed = accepted.Printed
			}
			in.TargetDetails = append(in.TargetDetails, d)
		case NameRejected(p.Error):
			in.Targets[t] = "unsupported"
			// The two messages that reject a name are implied by
			// "unsupported" and left out, which keeps the database at
			// half the size; any other message is kept.
			if p.Error != MsgNotSupported && p.Error != MsgInvalid {
				in.TargetDetails = append(in.TargetDetails, isa.TargetResult{Target: t, Status: "unsupported", Message: p.Error})
			}
		case len(v.Candidates) == 0:
			in.TargetDetails = append(in.TargetDetails, isa.TargetResult{Target: t, Status: StatusNotVerified,
				Message: "llvm-mc knows the name here, but there is no example to assemble"})
		default:
			in.TargetDetails = append(in.TargetDetails, isa.TargetResult{Target: t, Status: StatusNotVerified,
				Message: "llvm-mc knows the name here but rejected every example: " + firstErr})
		}
	}
	for _, t := range v.Unknown {
		in.TargetDetails = append(in.TargetDetails, isa.TargetResult{Target: t, Status: StatusNotVerified,
			Message: "llvm-mc (" + v.Version + ") does not know this target"})
	}
	return aliasTargets
}

// examples picks up to maxEx examples accepted on a family target, own ones
// first, one per form (e32, e64, sdwa, dpp) as llvm-mc prints it, and
// checks the encodings of the instruction's own forms against AMD's
// identifiers.
func (vd *verdicts) examples(in *isa.Instruction, arch *isa.Architecture, maxEx int, res *Result) []isa.Example {
	var examples []isa.Example
	seenForm := map[string]bool{}
	for pass := 0; pass < 2 && len(examples) < maxEx; pass++ {
		for ci, c := range vd.v.Candidates {
			if len(examples) >= maxEx {
				break
			}
			if c.Own != (pass == 0) {
				continue
			}
			for _, ti := range vd.famPos {
				o := outcomeAt(vd.rows[ci], ti)
				if !o.Supported {
					continue
				}
				form := o.Mnemonic()
				if seenForm[form] {
					break
				}
				seenForm[form] = true
				t := vd.v.Targets[ti]
				examples = append(examples, isa.Example{
					Asm: c.Asm, Source: c.Source, Encoding: asmtext.FormatBytes(o.Encoding), Target: t, Prov: c.Prov,
				})
				if StripLLVMSuffix(form) == in.Name {
					checked, conflicts := CheckIdentifier(arch, in, o.Encoding, t, c.Asm)
					res.Compared += checked
					for _, cf := range conflicts {
						in.Conflicts = appendConflict(in.Conflicts, cf)
					}
				}
				break
			}
		}
	}
	return examples
}

// addPrintedAliases records that where llvm-mc prints another name, that
// name is an alias.
func addPrintedAliases(in *isa.Instruction, aliasTargets map[string][]string) {
	for _, n := range slices.Sorted(maps.Keys(aliasTargets)) {
		in.Aliases = appendAlias(in.Aliases, isa.Alias{
			Name: n,
			Note: "llvm-mc accepts " + in.Name + " and prints it as " + n + " on " + strings.Join(aliasTargets[n], ", "),
			Prov: isa.Prov{Source: isa.SourceLLVMMC},
		})
	}
}

// whyUnverified says why an instruction is not verified on its family,
// and records a conflict where llvm-mc rejects the documented name.
func (vd *verdicts) whyUnverified(in *isa.Instruction, res *Result) {
	v := vd.v
	rejected := len(vd.famPos) > 0
	var msg string
	for _, ti := range vd.famPos {
		p := outcomeAt(vd.probe, ti)
		if !NameRejected(p.Error) {
			rejected = false
			break
		}
		msg = p.Error
	}
	switch {
	case len(vd.famPos) == 0:
		res.Reason = "no gfx target of this family is known to llvm-mc"
	case rejected:
		res.Rejected = true
		res.Reason = "llvm-mc rejects the name on " + strings.Join(v.FamilyTargets, ", ") + ": " + msg
		in.Conflicts = appendConflict(in.Conflicts, isa.Conflict{
			Fact: FactAssemblerSupport,
			Values: []isa.ConflictValue{
				{Value: "documented for " + in.Arch, Prov: firstAMDProv(in)},
				{Value: "rejected on " + strings.Join(v.FamilyTargets, ", ") + ": " + msg, Prov: isa.Prov{Source: isa.SourceLLVMMC}},
			},
			Note: "AMD documents " + in.Name + " for this family, but the LLVM assembler (" + v.Version + ") rejects it on every target of the family",
		})
	case len(v.Candidates) == 0:
		res.Reason = "no LLVM syntax or test example for this name, so nothing to assemble"
	default:
		first := ""
		for _, ti := range vd.famPos {
			for ci := range v.Candidates {
				if o := outcomeAt(vd.rows[ci], ti); o.Error != "" {
					first = o.Error
					break
				}
			}
			if first != "" {
				break
			}
		}
		res.Reason = "llvm-mc knows the name but rejected every example: " + first
	}
}

func firstAMDProv(in *isa.Instruction) isa.Prov {
	for _, p := range in.Sources {
		if p.Source == isa.SourceAMDManual || p.Source == isa.SourceAMDXML {
			return p
		}
	}
	return isa.Prov{Source: isa.SourceAMDManual}
}

func appendConflict(list []isa.Conflict, c isa.Conflict) []isa.Conflict {
	for _, x := range list {
		if x.Fact == c.Fact && len(x.Values) == len(c.Values) {
			same := true
			for i := range x.Values {
				if x.Values[i].Value != c.Values[i].Value {
					same = false
				}
			}
			if same {
				return list
			}
		}
	}
	return append(list, c)
}

// IdentifierMask returns the bits of a format's first dword that identify
// an instruction: the fixed bits (ENCODING, SEG), the OP field and the bits
// above the OP field's lowest bit that no field of the layout claims
// (which a document that lists every field implies are zero), together
// with the mask AMD's XML gives, if any.
// ok is false when the layout has no fields in the first dword.
func IdentifierMask(f isa.Format) (mask uint32, ok bool) {
	var claimed, op uint32
	for _, fd := range f.Fields {
		bits := fieldBits(fd)
		if bits == 0 {
			continue
		}
		claimed |= bits
		if fd.Fixed != "" || strings.EqualFold(fd.Name, "OP") {
			mask |= bits
		}
		if strings.EqualFold(fd.Name, "OP") {
			op |= bits
		}
	}
	if claimed == 0 {
		return 0, false
	}
	// Unclaimed bits above the opcode's lowest bit: a gap inside the
	// identifying bits (CDNA 1's VOP3P leaves bit 23 out of both OP and
	// ENCODING). Gaps lower down are operand fields the layout's table
	// does not list, which identify nothing.
	if op != 0 {
		low := op & -op
		mask |= ^claimed &^ (low - 1)
	}
	if x, ok := parseHex(f.IdentifierMask); ok {
		mask |= uint32(x)
	}
	return mask, true
}

// parseHex reads "0x16000000".
func parseHex(s string) (uint64, bool) {
	rest, ok := strings.CutPrefix(strings.ToLower(s), "0x")
	if !ok || rest == "" {
		return 0, false
	}
	v, err := strconv.ParseUint(rest, 16, 64)
	return v, err == nil
}

// fieldBits returns the bits of a field that lie in the first dword.
func fieldBits(fd isa.Field) uint32 {
	ranges := fd.Ranges
	if len(ranges) == 0 {
		ranges = []isa.BitRange{{MSB: fd.MSB, LSB: fd.LSB}}
	}
	var out uint32
	for _, r := range ranges {
		for b := r.LSB; b <= r.MSB && b < 32; b++ {
			if b >= 0 {
				out |= 1 << uint(b)
			}
		}
	}
	return out
}

// FixedMatch reports whether the fixed fields (ENCODING, SEG) of a format
// hold their values in w: whether w is an instruction of that format.
func FixedMatch(f isa.Format, w uint32) bool {
	for _, fd := range f.Fields {
		if fd.Fixed == "" {
			continue
		}
		v, ok := amdlayout.ParseBinary(fd.Fixed)
		if !ok {
			return false
		}
		bits := fieldBits(fd)
		if bits == 0 {
			continue
		}
		if uint64(w)&uint64(bits) != amdlayout.PlaceBits(fd, v)&uint64(bits) {
			return false
		}
	}
	return true
}

// CheckIdentifier compares the first dword of an encoding llvm-mc produced
// for the instruction on target with the identifiers of the instruction's
// encodings in formats whose fixed bits the dword holds, and records the
// verdict on the encodings (Assembler). It returns how many comparisons it
// made (0 or 1) and the conflicts found: one per format when no
// identifier agrees under its format's mask, and one marked CorrectedBy
// llvm-mc when the layout shown agrees but the guide's own drawing of it
// (Encoding.Documented) gives another identifier.
func CheckIdentifier(arch *isa.Architecture, in *isa.Instruction, enc []byte, target, asm string) (int, []isa.Conflict) {
	if arch == nil || len(enc) < 4 {
		return 0, nil
	}
	w := binary.LittleEndian.Uint32(enc)
	format := func(name string) (isa.Format, bool) {
		for _, f := range arch.Formats {
			if f.Name == name {
				return f, true
			}
		}
		return isa.Format{}, false
	}
	type cand struct {
		enc  *isa.Encoding
		mask uint32
		id   uint32
	}
	var cands []cand
	verdict := func(e *isa.Encoding, mask uint32, agrees bool) {
		if e.Assembler != nil && (e.Assembler.Agrees || !agrees) {
			return // the first verdict stands, unless this one agrees
		}
		e.Assembler = &isa.AssemblerCheck{Agrees: agrees, Identifier: fmt.Sprintf("0x%08X", w&mask),
			Asm: asm, Target: target, Encoding: asmtext.FormatBytes(enc)}
	}
	for i := range in.Encodings {
		e := &in.Encodings[i]
		if e.Identifier == "" {
			continue
		}
		f, ok := format(e.Format)
		if !ok {
			continue
		}
		mask, ok := IdentifierMask(f)
		if !ok || !FixedMatch(f, w) {
			continue
		}
		id, ok := parseHex(e.Identifier)
		if !ok {
			continue
		}
		if w&mask == uint32(id)&mask {
			verdict(e, mask, true)
			return 1, documentedConflict(f, e, w, mask, enc, target, asm)
		}
		cands = append(cands, cand{e, mask, uint32(id)})
	}
	if len(cands) == 0 {
		return 0, nil
	}
	var out []isa.Conflict
	seen := map[string]bool{}
	for _, c := range cands {
		verdict(c.enc, c.mask, false)
		if seen[c.enc.Format] {
			continue
		}
		seen[c.enc.Format] = true
		got := w & c.mask
		out = append(out, isa.Conflict{
			Fact: FactIdentifierPrefix + c.enc.Format,
			Values: []isa.ConflictValue{
				{Value: fmt.Sprintf("0x%08X", c.id), Prov: c.enc.Prov},
				{Value: fmt.Sprintf("0x%08X", got), Prov: isa.Prov{Source: isa.SourceLLVMMC}},
			},
			Note: fmt.Sprintf("llvm-mc encodes %q on %s as %s; under the %s identifier mask 0x%08X its first dword holds 0x%08X, AMD's identifier is 0x%08X (bits differing: 0x%08X)",
				asm, target, asmtext.FormatBytes(enc), c.enc.Format, c.mask, got, c.id, got^c.id),
		})
	}
	return 1, out
}

// documentedConflict returns the correction llvm-mc makes to the guide's
// layout of an encoding whose shown (verified) identifier agrees with the
// word w: the guide's identifier under the guide's own mask, when it
// differs.
func documentedConflict(f isa.Format, e *isa.Encoding, w, mask uint32, enc []byte, target, asm string) []isa.Conflict {
	d := e.Documented
	if d == nil || d.Identifier == "" {
		return nil
	}
	dmask, ok := IdentifierMask(isa.Format{Name: f.Name, Width: f.Width, Fields: d.Fields, IdentifierMask: f.IdentifierMask})
	if !ok {
		return nil
	}
	did, ok := parseHex(d.Identifier)
	if !ok || w&dmask == uint32(did)&dmask {
		return nil
	}
	return []isa.Conflict{{
		Fact: FactIdentifierPrefix + e.Format,
		Values: []isa.ConflictValue{
			{Value: d.Identifier, Prov: e.Prov},
			{Value: fmt.Sprintf("0x%08X", w&mask), Prov: isa.Prov{Source: isa.SourceLLVMMC}},
		},
		Note: fmt.Sprintf("llvm-mc encodes %q on %s as %s, whose first dword holds %s under the %s identifier mask 0x%08X: the layout shown. AMD's guide draws the format otherwise and gives %s. %s",
			asm, target, asmtext.FormatBytes(enc), e.Identifier, e.Format, mask, d.Identifier, strings.Join(d.Changes, " ")),
		CorrectedBy: isa.SourceLLVMMC,
	}}
}

// Disagreements lists the identifier conflicts recorded on instructions.
func Disagreements(insts []*isa.Instruction) []quality.Disagreement {
	var out []quality.Disagreement
	for _, in := range insts {
		for _, c := range in.Conflicts {
			format, ok := strings.CutPrefix(c.Fact, FactIdentifierPrefix)
			if !ok || len(c.Values) != 2 || c.CorrectedBy != "" {
				continue
			}
			out = append(out, quality.Disagreement{Arch: in.Arch, Name: in.Name, Format: format,
				AMD: c.Values[0].Value, LLVM: c.Values[1].Value, Note: c.Note, Prov: c.Values[0].Prov})
		}
	}
	slices.SortFunc(out, func(a, b quality.Disagreement) int {
		return strings.Compare(a.Arch+" "+a.Name+" "+a.Format, b.Arch+" "+b.Name+" "+b.Format)
	})
	return out
}

// Corrections lists the conflicts an oracle resolved (CorrectedBy set).
func Corrections(insts []*isa.Instruction) []quality.Correction {
	var out []quality.Correction
	for _, in := range insts {
		for _, c := range in.Conflicts {
			if c.CorrectedBy == "" || len(c.Values) < 2 {
				continue
			}
			doc, shown := c.Values[0], c.Values[len(c.Values)-1]
			for _, v := range c.Values {
				if v.Prov.Source == c.CorrectedBy {
					shown = v
				} else {
					doc = v
				}
			}
			out = append(out, quality.Correction{Arch: in.Arch, Name: in.Name, Fact: c.Fact, Document: doc.Value,
				Shown: shown.Value, By: c.CorrectedBy, Note: c.Note, Prov: doc.Prov})
		}
	}
	slices.SortFunc(out, func(a, b quality.Correction) int {
		return strings.Compare(a.Arch+" "+a.Name+" "+a.Fact, b.Arch+" "+b.Name+" "+b.Fact)
	})
	return out
}
