package ptx

import (
	"math/rand"
	"strings"
)

// Mutant is a statement derived from a form's statement to measure the
// checker against ptxas: most are invalid (a wrong type, a missing
// modifier, an extra operand, a modifier of another form), some are valid
// combinations the probes do not cover (two optional parts at once).
type Mutant struct {
	Text string
	Kind string // MutWrongType, MutMissingModifier, ...
}

// Kinds of mutant.
const (
	MutWrongType       = "wrong type"
	MutMissingModifier = "missing modifier"
	MutExtraOperand    = "extra operand"
	MutForeignModifier = "modifier of another form"
	MutCombination     = "two optional parts"
)

// mutationTypes are the data types a wrong-type mutant picks from.
var mutationTypes = []string{"s8", "u16", "s32", "u64", "f16", "f32", "f64", "b32", "bf16", "pred", "b128"}

// Mutants derives statements from form fi's probes (ps[0] the canonical
// one). rnd makes the picks; the same seed gives the same mutants.
func Mutants(in *Instruction, fi int, ps []Probe, rnd *rand.Rand) []Mutant {
	if len(ps) == 0 {
		return nil
	}
	base := ps[0]
	opcode, operands := splitStatement(base.Text)
	tokens := strings.Split(opcode, ".")
	mnTokens := len(Tokens(in.Name))
	var out []Mutant
	write := func(toks []string, ops string, kind string) {
		text := strings.Join(toks, ".")
		if ops != "" {
			text += " " + ops
		}
		out = append(out, Mutant{Text: text + ";", Kind: kind})
	}
	// A data type the form does not use.
	used := map[string]bool{}
	for _, f := range in.Forms {
		for _, t := range f.Types {
			used[strings.TrimPrefix(t, ".")] = true
		}
	}
	for i, t := range tokens {
		if i == 0 || !isType(t) {
			continue
		}
		var cands []string
		for _, m := range mutationTypes {
			if !used[m] {
				cands = append(cands, m)
			}
		}
		if len(cands) > 0 {
			c := append([]string(nil), tokens...)
			c[i] = cands[rnd.Intn(len(cands))]
			write(c, operands, MutWrongType)
		}
		break
	}
	// A required modifier left out.
	var mods []int
	for i, t := range tokens {
		if i > 0 && !isType(t) {
			mods = append(mods, i)
		}
	}
	if len(mods) > 0 {
		k := mods[rnd.Intn(len(mods))]
		c := append(append([]string(nil), tokens[:k]...), tokens[k+1:]...)
		write(c, operands, MutMissingModifier)
	}
	// One operand too many.
	if operands != "" {
		write(tokens, operands+", xtra", MutExtraOperand)
	}
	// A modifier only other forms of the mnemonic have.
	mine := map[string]bool{}
	for _, p := range ps {
		op, _ := splitStatement(p.Text)
		for _, t := range strings.Split(op, ".") {
			mine[t] = true
		}
	}
	var foreign []string
	seen := map[string]bool{}
	for j, f := range in.Forms {
		if j == fi {
			continue
		}
		for _, m := range f.Modifiers {
			for _, t := range Tokens(m) {
				if !mine[t] && !isType(t) && !seen[t] && !strings.ContainsAny(t, "{}") {
					seen[t] = true
					foreign = append(foreign, t)
				}
			}
		}
	}
	if len(foreign) > 0 {
		pos := min(mnTokens, len(tokens))
		c := append(append(append([]string(nil), tokens[:pos]...), foreign[rnd.Intn(len(foreign))]), tokens[pos:]...)
		write(c, operands, MutForeignModifier)
	}
	// Two optional parts together: the probes try each alone.
	var opt []Probe
	for _, p := range ps[1:] {
		if strings.HasPrefix(p.Feature, ".") && p.Variable == "" {
			opt = append(opt, p)
		}
	}
	if len(opt) >= 2 {
		a, b := rnd.Intn(len(opt)), rnd.Intn(len(opt)-1)
		if b >= a {
			b++
		}
		// The canonical tokens with both features added after the mnemonic.
		pos := min(mnTokens, len(tokens))
		c := append([]string(nil), tokens[:pos]...)
		c = append(c, Tokens(opt[a].Feature)...)
		c = append(c, Tokens(opt[b].Feature)...)
		c = append(c, tokens[pos:]...)
		write(c, operands, MutCombination)
	}
	return out
}
