package concepts

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
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
	labelPrefix = regexp.MustCompile(`^[A-Za-z_$][\w$]*:(\s+|$)`)
	specialReg  = regexp.MustCompile(`%[a-z][a-z0-9_]*`)
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
	Sequence     []string
	Note         string
	// MissingOnArch lists sequence steps whose instruction the target arch
	// lacks (usually a renamed equivalent exists there).
	MissingOnArch []string
}

// Outcome is what the catalogue says about one PTX mnemonic on one arch.
type Outcome struct {
	Counterparts  []Counterpart
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

// Port looks up the AMD counterparts of one PTX instruction on arch. The
// mnemonic is the longest dotted prefix of the opcode the catalogue knows
// ("cp.async.bulk.tensor.2d.global" -> "cp.async.bulk.tensor"); the rest are
// modifiers, which pick among concepts and relations that list variants. An
// AMD member counts as present when it applies on arch and, when r is not
// nil, r says arch has it.
func Port(c *Catalogue, ptxInstr string, arch string, r Resolver) PortResult {
	ins, ok := ParseInstruction(ptxInstr)
	res := PortResult{Text: strings.TrimSpace(ptxInstr)}
	if !ok {
		res.Unknown = true
		res.Gap = "no instruction on this line"
		return res
	}
	return portParsed(c, ins, res, arch, r)
}

func portParsed(c *Catalogue, ins Instruction, res PortResult, arch string, r Resolver) PortResult {
	res.Predicate = ins.Predicate
	res.Mnemonic, res.Modifiers = splitMnemonic(c, ins.Words)
	if arch != "" && !knownArch(arch) {
		res.Gap = fmt.Sprintf("unknown arch %q (known: %s)", arch, strings.Join(KnownArchs, " "))
		return res
	}
	res.Outcome = lookup(c, res.Mnemonic, res.Modifiers, arch, r)
	if ins.Predicate != "" {
		o := lookup(c, "@", nil, arch, r)
		res.Predication = &o
	}
	seen := map[string]bool{}
	for _, op := range ins.Operands {
		for _, name := range specialReg.FindAllString(op, -1) {
			if seen[name] || (c.byPTX[name] == nil && c.noCP[name] == nil) {
				continue
			}
			seen[name] = true
			res.Registers = append(res.Registers, RegisterPort{Name: name, Outcome: lookup(c, name, nil, arch, r)})
		}
	}
	return res
}

// splitMnemonic picks the longest known dotted prefix of words as the
// mnemonic; the remaining words become modifiers (".shared::cta" also yields
// ".shared" so that either spelling selects a variant, and adjacent words
// also form pairs such as ".f16.f32").
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
	rest := words[n:]
	for i, w := range rest {
		mods = append(mods, "."+w)
		if base, _, ok := strings.Cut(w, "::"); ok {
			mods = append(mods, "."+base)
		}
		// Conversions name two types in a row (cvt.f16.f32); keep each
		// adjacent pair too so that a variant can name the pair.
		if i+1 < len(rest) {
			mods = append(mods, "."+w+"."+rest[i+1])
		}
	}
	return strings.Join(words[:n], "."), mods
}

func lookup(c *Catalogue, mnemonic string, mods []string, arch string, r Resolver) Outcome {
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
		s := covers(m.Variants, mods)
		switch {
		case s > best:
			best, chosen = s, []*Concept{k}
		case s == best && s >= 0:
			chosen = append(chosen, k)
		}
	}
	if best < 0 {
		chosen = concepts
	}
	var absent []string
	for _, k := range chosen {
		// Consider the relations whose variants fit the modifiers (all of
		// them when none fits), drop those the arch lacks, and keep the best
		// fitting of the rest: max.f32 picks v_max_f32 over v_max_i32, and
		// tanh.f32 falls back to the exp-based sequence where v_tanh_f32 is
		// missing.
		var fitting, all []Relation
		for _, rel := range k.Relations {
			if rel.PTX != mnemonic {
				continue
			}
			all = append(all, rel)
			if covers(rel.Variants, mods) >= 0 {
				fitting = append(fitting, rel)
			}
		}
		if len(fitting) == 0 {
			fitting = all
		}
		best := -2
		var kept []Relation
		for _, rel := range fitting {
			a, _ := k.amdMember(rel.AMD)
			if !a.AppliesOn(arch) || (r != nil && arch != "" && !r.HasAMD(arch, rel.AMD)) {
				absent = append(absent, rel.AMD)
				continue
			}
			switch s := covers(rel.Variants, mods); {
			case s > best:
				best, kept = s, []Relation{rel}
			case s == best:
				kept = append(kept, rel)
			}
		}
		for _, rel := range kept {
			a, _ := k.amdMember(rel.AMD)
			cp := Counterpart{
				ConceptID: k.ID, ConceptName: k.Name, AMD: rel.AMD, Relation: rel.Kind,
				Restrictions: rel.Restrictions, Sequence: rel.Sequence, Note: a.Note,
			}
			if r != nil && arch != "" {
				for _, step := range rel.Sequence {
					if s := SequenceMnemonic(step); s != "" && !r.HasAMD(arch, s) {
						cp.MissingOnArch = append(cp.MissingOnArch, s)
					}
				}
			}
			o.Counterparts = append(o.Counterparts, cp)
		}
	}
	if len(o.Counterparts) == 0 {
		var where []string
		for _, a := range dedupe(absent) {
			if r != nil {
				where = append(where, fmt.Sprintf("%s (on %s)", a, orNone(r.AMDArchs(a))))
			} else {
				where = append(where, a)
			}
		}
		o.Gap = fmt.Sprintf("%s has no counterpart on %s: %s not available there", mnemonic, arch, strings.Join(where, ", "))
	}
	return o
}

func orNone(archs []string) string {
	if len(archs) == 0 {
		return "no family"
	}
	return strings.Join(archs, " ")
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// PortReport is the porting answer for a whole PTX file.
type PortReport struct {
	Arch    string
	Results []PortResult
	Summary PortSummary
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
func PortFile(c *Catalogue, path string, arch string, r Resolver) (*PortReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := PortReader(c, f, arch, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// PortReader ports every instruction line of PTX text (one instruction per
// line, as compilers emit it) and summarises the outcomes.
func PortReader(c *Catalogue, src io.Reader, arch string, r Resolver) (*PortReport, error) {
	if arch != "" && !knownArch(arch) {
		return nil, fmt.Errorf("unknown arch %q (known: %s)", arch, strings.Join(KnownArchs, " "))
	}
	rep := &PortReport{Arch: arch, Summary: PortSummary{ByConcept: map[string]int{}}}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		ins, ok := ParseInstruction(sc.Text())
		if !ok {
			continue
		}
		res := portParsed(c, ins, PortResult{Line: line, Text: strings.TrimSpace(sc.Text())}, arch, r)
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
