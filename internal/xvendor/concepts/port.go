package concepts

import (
	"bufio"
	"fmt"
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
)

// Instruction is a PTX instruction split just enough to look it up: its
// guard predicate, its dotted opcode words and its operands.
type Instruction struct {
	Predicate string   // "p" for "@p", "!p" for "@!p"; "" when unguarded
	Opcode    string   // the whole dotted opcode, e.g. "ld.shared.v4.f32"
	Words     []string // Opcode split at dots
	Operands  []string
}

var (
	labelPrefix = lazyre.New(`^[A-Za-z_$][\w$]*:(\s+|$)`)
	specialReg  = lazyre.New(`%[a-z][a-z0-9_]*`)
)

// ParseInstruction splits one line of PTX into an Instruction. Comments, a
// leading label and the trailing ';' are dropped. ok is false for lines that
// carry no instruction (blank, comment, directive, brace, label only).
func ParseInstruction(line string) (ins Instruction, ok bool) {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	for {
		i := strings.Index(line, "/*")
		if i < 0 {
			break
		}
		j := strings.Index(line[i+2:], "*/")
		if j < 0 {
			line = line[:i]
			break
		}
		line = line[:i] + " " + line[i+2+j+2:]
	}
	line = strings.TrimSpace(line)
	if loc := labelPrefix.FindStringIndex(line); loc != nil {
		line = strings.TrimSpace(line[loc[1]:])
	}
	line = strings.TrimSpace(strings.TrimSuffix(line, ";"))
	if line == "" || strings.HasPrefix(line, ".") || strings.Trim(line, "{}()") == "" {
		return Instruction{}, false
	}
	if strings.HasPrefix(line, "@") {
		f := strings.Fields(line)
		ins.Predicate = strings.TrimPrefix(f[0], "@")
		line = strings.TrimSpace(strings.TrimPrefix(line, f[0]))
		if line == "" {
			return Instruction{}, false
		}
	}
	op, rest, _ := strings.Cut(line, " ")
	if j := strings.IndexAny(op, "\t"); j >= 0 {
		op, rest = op[:j], op[j:]+" "+rest
	}
	ins.Opcode = op
	ins.Words = strings.Split(op, ".")
	for _, o := range strings.Split(rest, ",") {
		if o = strings.TrimSpace(o); o != "" {
			ins.Operands = append(ins.Operands, o)
		}
	}
	return ins, true
}

// Counterpart is one AMD instruction (or sequence) a PTX instruction ports to.
type Counterpart struct {
	ConceptID    string
	ConceptName  string
	AMD          string
	Relation     RelationKind
	Restrictions []string
	// Forms are the relation's example instructions that assemble on the
	// targets (all of them when nothing was verified).
	Forms []string
	// Sequence is the sequence as done on the first target that assembles
	// it: one line per step, the alternative the target has.
	Sequence []string
	Note     string
	// MissingOnArch lists sequence steps no alternative of which the
	// target family has.
	MissingOnArch []string
	// Checks are the assembler's verdicts, one per target.
	Checks []TargetCheck
	// Evaluated says where the two sides return different results, found
	// by evaluating both on the special-value corpus (package semdiff;
	// filled in by the caller from the database).
	Evaluated []string `json:",omitempty"`
}

// Verification statuses of a TargetCheck.
const (
	Assembles   = "assembles"
	Rejected    = "rejected"
	NotVerified = "not verified"
)

// TargetCheck is what the assembler said about one counterpart on one gfx
// target.
type TargetCheck struct {
	Target string
	Status string // Assembles, Rejected or NotVerified
	// Sequence is set when the target does the sequence differently from
	// Counterpart.Sequence (another alternative of a step).
	Sequence []string `json:",omitempty"`
	Rejected []Rejection
}

// Rejection is one instruction the assembler refused on a target.
type Rejection struct {
	Line    string // the instruction; the bare mnemonic for a member
	Message string
}

// Dropped is a counterpart the catalogue offers that the assembler rejects
// on every target asked for.
type Dropped struct {
	ConceptID string
	AMD       string
	Rejected  []TargetCheck
}

// Outcome is what the catalogue says about one PTX mnemonic on one arch.
type Outcome struct {
	Counterparts  []Counterpart
	Dropped       []Dropped
	NoCounterpart string // the catalogue's reason, when it has no counterpart
	Gap           string // why nothing applies on this arch
	Unknown       bool   // the catalogue does not mention the mnemonic
}

// Explained reports whether the outcome gives a counterpart or says why not.
func (o Outcome) Explained() bool {
	return len(o.Counterparts) > 0 || o.NoCounterpart != "" || o.Gap != ""
}

// RegisterPort is the outcome for a special register an instruction reads.
type RegisterPort struct {
	Name string
	Outcome
}

// PortResult is the porting answer for one PTX instruction.
type PortResult struct {
	Line      int
	Text      string
	Predicate string
	Mnemonic  string
	Modifiers []string
	Outcome
	Predication *Outcome // how the "@p" guard ports, when there is one
	Registers   []RegisterPort
}

// Target is what a port aims at.
type Target struct {
	// Arch is the AMD family ("" for any).
	Arch string
	// GFX are the gfx targets whose assembler verdicts decide what is
	// offered (usually the family's, or the one gfx target asked for).
	GFX []string
	// Resolver says which instructions each family has; nil trusts the
	// families written in the catalogue.
	Resolver Resolver
	// Verdicts are the assembler's answers; nil: nothing is verified.
	Verdicts Verdicts
}

// Verdicts are llvm-mc's answers about what the catalogue proposes.
type Verdicts interface {
	// Line reports whether one instruction line assembles on a gfx
	// target; known is false when it was never tried.
	Line(target, asm string) (ok, known bool, msg string)
	// Member reports whether the assembler accepts an AMD instruction of
	// a family on a gfx target, as its verified examples show.
	Member(family, mnemonic, target string) (ok, known bool)
}

// Port looks up the AMD counterparts of one PTX instruction for a target.
// The mnemonic is the longest dotted prefix of the opcode the catalogue
// knows ("cp.async.bulk.tensor.2d.global" -> "cp.async.bulk.tensor"); the
// rest are modifiers, which pick among concepts and relations that list
// variants. An AMD member counts as present when it applies on the arch,
// the resolver says the arch has it, and the assembler does not reject it
// (or the lines the relation proposes) on every gfx target.
func Port(c *Catalogue, ptxInstr string, t Target) PortResult {
	ins, ok := ParseInstruction(ptxInstr)
	res := PortResult{Text: strings.TrimSpace(ptxInstr)}
	if !ok {
		res.Unknown = true
		res.Gap = "no instruction on this line"
		return res
	}
	return portParsed(c, ins, res, t)
}

func portParsed(c *Catalogue, ins Instruction, res PortResult, t Target) PortResult {
	res.Predicate = ins.Predicate
	if len(ins.Words) > ptx.MaxModifiers {
		// The checker's bound: splitting the mnemonic off is not linear.
		res.Unknown = true
		res.Gap = fmt.Sprintf("%d opcode tokens: more than the %d a PTX instruction may have here", len(ins.Words), ptx.MaxModifiers)
		return res
	}
	res.Mnemonic, res.Modifiers = splitMnemonic(c, ins.Words)
	if t.Arch != "" && !slices.Contains(KnownArchs, t.Arch) {
		res.Gap = fmt.Sprintf("unknown arch %q (known: %s)", t.Arch, strings.Join(KnownArchs, " "))
		return res
	}
	res.Outcome = lookup(c, res.Mnemonic, res.Modifiers, t)
	if ins.Predicate != "" {
		o := lookup(c, "@", nil, t)
		res.Predication = &o
	}
	seen := map[string]bool{}
	for _, op := range ins.Operands {
		for _, name := range specialReg.FindAllString(op, -1) {
			if seen[name] || (c.byPTX[name] == nil && c.noCP[name] == nil) {
				continue
			}
			seen[name] = true
			res.Registers = append(res.Registers, RegisterPort{Name: name, Outcome: lookup(c, name, nil, t)})
		}
	}
	return res
}

// splitMnemonic picks the longest known dotted prefix of words as the
// mnemonic; the remaining words become modifiers (".shared::cta" also yields
// ".shared" so that either spelling selects a variant; adjacent words also
// form pairs such as ".f16.f32", and a run of type words forms one modifier
// such as ".f32.f16.f16.f32", so that a variant can name the types of a
// conversion or the accumulator and inputs of a matrix instruction).
func splitMnemonic(c *Catalogue, words []string) (string, []string) {
	n := 1
	for k := len(words); k >= 1; k-- {
		m := strings.Join(words[:k], ".")
		if c.byPTX[m] != nil || c.noCP[m] != nil {
			n = k
			break
		}
	}
	var mods []string
	add := func(m string) {
		if !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	rest := words[n:]
	for i, w := range rest {
		add("." + w)
		if base, _, ok := strings.Cut(w, "::"); ok {
			add("." + base)
		}
		if i+1 < len(rest) {
			add("." + w + "." + rest[i+1])
		}
	}
	for i := 0; i < len(rest); {
		j := i
		for j < len(rest) {
			if _, ok := ptxType(rest[j]); !ok {
				break
			}
			j++
		}
		if j-i > 2 {
			add("." + strings.Join(rest[i:j], "."))
		}
		if j == i {
			j++
		}
		i = j
	}
	return strings.Join(words[:n], "."), mods
}

func lookup(c *Catalogue, mnemonic string, mods []string, t Target) Outcome {
	var o Outcome
	if nc := c.noCP[mnemonic]; nc != nil {
		o.NoCounterpart = nc.Reason
		return o
	}
	concepts := c.byPTX[mnemonic]
	if len(concepts) == 0 {
		o.Unknown = true
		return o
	}
	// Keep the concepts whose member variants fit best; when none fits, all.
	best, chosen := -1, []*Concept(nil)
	for _, k := range concepts {
		m, _ := k.ptxMember(mnemonic)
		if m.excludes(mods) {
			continue
		}
		s := covers(m.Variants, mods)
		switch {
		case s > best:
			best, chosen = s, []*Concept{k}
		case s == best && s >= 0:
			chosen = append(chosen, k)
		}
	}
	if best < 0 {
		for _, k := range concepts {
			if m, _ := k.ptxMember(mnemonic); !m.excludes(mods) {
				chosen = append(chosen, k)
			}
		}
	}
	var absent []string
	fitted := false
	for _, k := range chosen {
		// Consider the relations whose variants fit the modifiers, drop
		// those the arch lacks or the assembler rejects, and keep the best
		// fitting of the rest: max.f32 picks v_max_f32 over v_max_i32, and
		// tanh.f32 falls back to the exp-based sequence where v_tanh_f32
		// is missing.
		best := -1
		var kept []Counterpart
		for _, rel := range k.Relations {
			if rel.PTX != mnemonic {
				continue
			}
			s := covers(rel.Variants, mods)
			if s < 0 || !rel.fits(mods) {
				continue
			}
			fitted = true
			a, _ := k.amdMember(rel.AMD)
			if !rel.AppliesOn(t.Arch, a) || (t.Resolver != nil && t.Arch != "" && !t.Resolver.HasAMD(t.Arch, rel.AMD)) {
				absent = append(absent, rel.AMD)
				continue
			}
			cp := counterpart(k, rel, a, t)
			if len(cp.Checks) > 0 && !anyAccepted(cp.Checks) {
				o.Dropped = append(o.Dropped, Dropped{ConceptID: k.ID, AMD: rel.AMD, Rejected: cp.Checks})
				continue
			}
			switch {
			case s > best:
				best, kept = s, []Counterpart{cp}
			case s == best:
				kept = append(kept, cp)
			}
		}
		o.Counterparts = append(o.Counterparts, kept...)
	}
	if len(o.Counterparts) == 0 {
		switch {
		case !fitted:
			o.Gap = fmt.Sprintf("the catalogue relates %s to AMD instructions, but none for %s", mnemonic, strings.Join(mods, " "))
		case len(o.Dropped) > 0:
			var names []string
			for _, d := range o.Dropped {
				names = append(names, d.AMD)
			}
			o.Gap = fmt.Sprintf("%s has no counterpart that assembles on %s: %s rejected by the assembler", mnemonic, strings.Join(t.GFX, " "), strings.Join(slices.Compact(slices.Sorted(slices.Values(names))), ", "))
		default:
			var where []string
			for _, a := range slices.Compact(slices.Sorted(slices.Values(absent))) {
				if t.Resolver != nil {
					where = append(where, fmt.Sprintf("%s (on %s)", a, orNone(t.Resolver.AMDArchs(a))))
				} else {
					where = append(where, a)
				}
			}
			o.Gap = fmt.Sprintf("%s has no counterpart on %s: %s not available there", mnemonic, t.Arch, strings.Join(where, ", "))
		}
	}
	return o
}

// counterpart resolves one relation for the target: the forms and sequence
// steps the target has, and the assembler's verdict per gfx target.
func counterpart(k *Concept, rel Relation, a Member, t Target) Counterpart {
	cp := Counterpart{
		ConceptID: k.ID, ConceptName: k.Name, AMD: rel.AMD, Relation: rel.Kind,
		Restrictions: rel.Restrictions, Note: a.Note, Forms: []string{}, Checks: []TargetCheck{},
	}
	has := func(name string) bool {
		return t.Resolver == nil || t.Arch == "" || t.Resolver.HasAMD(t.Arch, name)
	}
	// Without verdicts: each step's first alternative the family has.
	plain := make([]string, len(rel.Sequence))
	for i, step := range rel.Sequence {
		plain[i] = step.Alternatives[0]
		found := false
		for _, alt := range step.Alternatives {
			if name := isa.BaseMnemonic(SequenceMnemonic(alt)); name == "" || has(name) {
				plain[i], found = alt, true
				break
			}
		}
		if !found {
			cp.MissingOnArch = append(cp.MissingOnArch, SequenceMnemonic(step.Alternatives[0]))
		}
	}
	if t.Verdicts == nil || len(t.GFX) == 0 {
		cp.Forms = append(cp.Forms, rel.Forms...)
		cp.Sequence = plain
		return cp
	}
	formOK := map[string]bool{}
	for _, gfx := range t.GFX {
		chk := TargetCheck{Target: gfx, Status: Assembles, Rejected: []Rejection{}}
		unknown := false
		reject := func(line, msg string) { chk.Rejected = append(chk.Rejected, Rejection{Line: line, Message: msg}) }
		switch {
		case rel.Kind == Sequence:
			for _, step := range rel.Sequence {
				chosen, stepUnknown := "", false
				var msgs []Rejection
				for _, alt := range step.Alternatives {
					asm, _ := SplitStep(alt)
					if asm == "" {
						chosen = alt
						break
					}
					ok, known, msg := t.Verdicts.Line(gfx, asm)
					if ok {
						chosen = alt
						break
					}
					if !known {
						stepUnknown = true
						continue
					}
					msgs = append(msgs, Rejection{Line: asm, Message: msg})
				}
				switch {
				case chosen != "":
					chk.Sequence = append(chk.Sequence, chosen)
				case stepUnknown:
					unknown = true
					chk.Sequence = append(chk.Sequence, step.Alternatives[0])
				default:
					chk.Rejected = append(chk.Rejected, msgs...)
					chk.Sequence = append(chk.Sequence, step.Alternatives[0])
				}
			}
		case len(rel.Forms) > 0:
			accepted := 0
			for _, f := range rel.Forms {
				asm, _ := SplitStep(f)
				ok, known, msg := t.Verdicts.Line(gfx, asm)
				switch {
				case ok:
					accepted++
					formOK[f] = true
				case !known:
					unknown = true
				default:
					reject(asm, msg)
				}
			}
			if accepted == 0 && !unknown {
				chk.Status = Rejected
			}
		default:
			ok, known := t.Verdicts.Member(t.Arch, rel.AMD, gfx)
			switch {
			case !known:
				unknown = true
			case !ok:
				reject(rel.AMD, "the assembler accepts none of its examples on "+gfx)
			}
		}
		if rel.Kind == Sequence || len(rel.Forms) == 0 {
			if len(chk.Rejected) > 0 {
				chk.Status = Rejected
			}
		}
		if chk.Status == Assembles && unknown {
			chk.Status = NotVerified
		}
		cp.Checks = append(cp.Checks, chk)
	}
	// The counterpart shows what the first accepting target does.
	cp.Sequence = plain
	for _, chk := range cp.Checks {
		if chk.Status != Rejected && rel.Kind == Sequence {
			cp.Sequence = chk.Sequence
			break
		}
	}
	for i := range cp.Checks {
		if rel.Kind != Sequence || slices.Equal(cp.Checks[i].Sequence, cp.Sequence) {
			cp.Checks[i].Sequence = nil
		}
	}
	for _, f := range rel.Forms {
		if formOK[f] {
			cp.Forms = append(cp.Forms, f)
		}
	}
	if len(cp.Forms) == 0 && !anyStatus(cp.Checks, Assembles) {
		cp.Forms = append(cp.Forms, rel.Forms...) // none verified either way
	}
	return cp
}

func anyAccepted(checks []TargetCheck) bool {
	for _, c := range checks {
		if c.Status != Rejected {
			return true
		}
	}
	return false
}

func anyStatus(checks []TargetCheck, status string) bool {
	for _, c := range checks {
		if c.Status == status {
			return true
		}
	}
	return false
}

func orNone(archs []string) string {
	if len(archs) == 0 {
		return "no family"
	}
	return strings.Join(archs, " ")
}

// PortReport is the porting answer for a whole PTX file.
type PortReport struct {
	Arch     string
	Targets  []string // the gfx targets whose assembler verdicts were used
	Verified bool     // false: no assembler verdicts were available
	// Verification says in words where the verdicts came from.
	Verification string
	Results      []PortResult
	Summary      PortSummary
}

// PortSummary counts instructions by outcome. Registers counts special
// register reads; UnresolvedRegisters those the catalogue does not explain.
type PortSummary struct {
	Instructions        int
	Ported              int
	NoCounterpart       int
	Gaps                int
	Unknown             int
	Registers           int
	UnresolvedRegisters int
	ByConcept           map[string]int
}

// PortFile ports every instruction of a PTX file; see PortReader.
func PortFile(c *Catalogue, path string, t Target) (*PortReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := PortReader(c, f, t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// PortReader ports every instruction line of PTX text (one instruction per
// line, as compilers emit it) and summarises the outcomes.
func PortReader(c *Catalogue, src io.Reader, t Target) (*PortReport, error) {
	if t.Arch != "" && !slices.Contains(KnownArchs, t.Arch) {
		return nil, fmt.Errorf("unknown arch %q (known: %s)", t.Arch, strings.Join(KnownArchs, " "))
	}
	rep := &PortReport{Arch: t.Arch, Targets: append([]string{}, t.GFX...), Verified: t.Verdicts != nil, Summary: PortSummary{ByConcept: map[string]int{}}}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		ins, ok := ParseInstruction(sc.Text())
		if !ok {
			continue
		}
		res := portParsed(c, ins, PortResult{Line: line, Text: strings.TrimSpace(sc.Text())}, t)
		s := &rep.Summary
		s.Instructions++
		switch {
		case len(res.Counterparts) > 0:
			s.Ported++
			for _, cp := range res.Counterparts {
				s.ByConcept[cp.ConceptID]++
			}
		case res.NoCounterpart != "":
			s.NoCounterpart++
		case res.Unknown:
			s.Unknown++
		default:
			s.Gaps++
		}
		for _, reg := range res.Registers {
			s.Registers++
			if !reg.Explained() {
				s.UnresolvedRegisters++
			}
		}
		rep.Results = append(rep.Results, res)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return rep, nil
}
