package store

import (
	"cmp"
	"context"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
)

// A SASS opcode typed as nvdisasm prints it ("FFMA", "LDG.E.128",
// "MUFU.RSQ", "SHFL.BFLY on amd") asks what it is: the PTX instructions
// that lower to it, or, asked of AMD, their counterparts. The SASS index
// the build stored (sassindex) says which PTX instructions' statements
// lowered to each opcode; the rules below read it, so that every opcode
// the index holds is answered, not a list of known ones.

// sassToken is a SASS opcode with its modifiers, upper case as a listing
// writes it: a letter, then letters and digits, then dotted modifiers.
var sassToken = regexp.MustCompile(`^[A-Z][A-Z0-9]+(\.[A-Z0-9_]+)*$`)

// sassWords are the words that say a query is about SASS and name nothing.
var sassWords = map[string]bool{"sass": true, "opcode": true, "nvdisasm": true, "cuobjdump": true}

// sassSource is one PTX instruction that lowers to an opcode.
type sassSource struct {
	name  string
	lines int     // statements of it that lower to the opcode, over every target
	share float64 // the mean share of its statements that do, per target
	// mods are the dotted parts of its statements that lower to the
	// opcode ("wide" of mul.wide.u32), for the opcode's modifiers.
	mods map[string]bool
}

// sassState holds the SASS index's sources per opcode, read on first use.
type sassState struct {
	sassOnce sync.Once
	sources  map[string][]sassSource // opcode (upper case) -> its PTX sources
}

// sassSources reads the stored SASS index once; nil when the database has
// none (a test's, or one built without ptxas).
func (s *DB) sassSources() map[string][]sassSource {
	s.sassOnce.Do(func() {
		x, err := sassindex.Load(context.Background(), s)
		if err != nil || x == nil {
			return
		}
		s.sources = readSASSSources(x)
	})
	return s.sources
}

// readSASSSources sums each opcode's PTX instructions over the targets. A
// statement's share is against the opcode its instruction lowers to most
// on the target (every statement's listing has its kernel's scaffolding),
// so that an instruction all of whose statements lower to the opcode
// counts above one that reaches it by its operands' loads.
func readSASSSources(x *sassindex.Index) map[string][]sassSource {
	most := map[[2]string]int{} // (instruction, target) -> most statements of it on one opcode
	for _, o := range x.Opcodes {
		for _, t := range o.Targets {
			for _, in := range t.Instructions {
				k := [2]string{in.Text, t.Target}
				most[k] = max(most[k], in.N)
			}
		}
	}
	out := make(map[string][]sassSource, len(x.Opcodes))
	for _, o := range x.Opcodes {
		byName := map[string]*sassSource{}
		var order []string
		shares := map[string][]float64{}
		for _, t := range o.Targets {
			for _, in := range t.Instructions {
				src := byName[in.Text]
				if src == nil {
					src = &sassSource{name: in.Text, mods: map[string]bool{}}
					byName[in.Text] = src
					order = append(order, in.Text)
				}
				src.lines += in.N
				if m := most[[2]string{in.Text, t.Target}]; m > 0 {
					shares[in.Text] = append(shares[in.Text], float64(in.N)/float64(m))
				}
			}
			for _, st := range t.Statements {
				if src, f := byName[st.Instruction], strings.Fields(st.Statement); src != nil && len(f) > 0 {
					for _, p := range dottedParts(f[0]) {
						src.mods[p] = true
					}
				}
			}
		}
		srcs := make([]sassSource, 0, len(order))
		for _, name := range order {
			src := byName[name]
			var sum float64
			for _, v := range shares[name] {
				sum += v
			}
			if n := len(shares[name]); n > 0 {
				src.share = sum / float64(n)
			}
			srcs = append(srcs, *src)
		}
		out[o.Name] = srcs
	}
	return out
}

// dottedParts are a PTX name's or statement's dotted parts, lower case
// ("mma.sp::ordered_metadata": mma, sp, ordered_metadata).
func dottedParts(s string) []string {
	return strings.FieldsFunc(strings.ToLower(strings.TrimSuffix(s, ";")), func(r rune) bool { return r == '.' || r == ':' })
}

// sassQuery finds the one SASS opcode a query is ("LDG.E.128", "POPC
// sass"): its words less filler, porting and SASS words must be one token
// in SASS's upper case, whose opcode the index holds and which names no
// instruction of its own; a lower-case token counts only beside a SASS
// word ("ldg sass"), since lower case is how PTX is written.
func (s *DB) sassQuery(q string) (opcode string, mods []string, ok bool) {
	var words []string
	saysSASS := false
	for _, w := range strings.Fields(q) {
		lw := strings.ToLower(w)
		switch {
		case sassWords[lw]:
			saysSASS = true
		case !fillerWords[lw] && !portWords[lw]:
			words = append(words, w)
		}
	}
	if len(words) != 1 {
		return "", nil, false
	}
	w := words[0]
	if saysSASS {
		w = strings.ToUpper(w)
	}
	if !sassToken.MatchString(w) {
		return "", nil, false
	}
	srcs := s.sassSources()
	parts := strings.Split(w, ".")
	if len(srcs[parts[0]]) == 0 {
		return "", nil, false
	}
	if !saysSASS && len(s.byName[strings.ToLower(w)]) > 0 {
		return "", nil, false // "MOV", "POPC": the name itself, typed in capitals
	}
	return parts[0], parts[1:], true
}

// sassRank orders an opcode's PTX sources: those a modifier of the query
// names first ("MUFU.RSQ": rsqrt; "IMAD.WIDE": mul.wide's mul), then
// those whose operation the opcode spells (LDG: ld, FFMA: fma, ATOMS:
// atom), the plain name before its dotted siblings, then by how much of
// their SASS the opcode is.
func sassRank(opcode string, mods []string, srcs []sassSource) []sassSource {
	op := strings.ToLower(opcode)
	type ranked struct {
		src            sassSource
		named, spelled int
		weight         float64
	}
	var rs []ranked
	for _, src := range srcs {
		parts := dottedParts(src.name)
		r := ranked{src: src, weight: src.share * math.Sqrt(float64(src.lines))}
		for _, m := range mods {
			m = strings.ToLower(m)
			if len(m) < 2 || sassTypeMod.MatchString(m) {
				continue // a width or type qualifies; it names no operation
			}
			if src.mods[m] || slices.ContainsFunc(parts, func(p string) bool { return p == m || len(m) >= 3 && strings.HasPrefix(p, m) }) {
				r.named++
			}
		}
		// A packed opcode's 2 (HADD2, HFMA2) is no part of its operation.
		op := strings.TrimRight(op, "0123456789")
		if head := parts[0]; len(head) >= 2 && (strings.HasPrefix(op, head) || strings.HasSuffix(op, head) || len(op) >= 3 && strings.HasPrefix(head, op)) {
			r.spelled = len(head)*4 - len(parts) // the longest operation, then the plainest name
		}
		rs = append(rs, r)
	}
	slices.SortStableFunc(rs, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(b.named, a.named), cmp.Compare(b.spelled, a.spelled), cmp.Compare(b.weight, a.weight))
	})
	out := make([]sassSource, len(rs))
	for i, r := range rs {
		out[i] = r.src
	}
	return out
}

// sassTypeMod is a SASS modifier that is a width or a type (".128",
// ".U32", ".F16x2", ".E" for 64-bit addresses): a qualifier of the
// operation, not one.
var sassTypeMod = regexp.MustCompile(`^(\d+|[usfb]\d+(x\d)?|bf16|e)$`)

// maxSASSSources bounds the PTX instructions an opcode answers with.
const maxSASSSources = 4

// sassScore ranks an opcode's PTX sources, just below a porting
// question's counterparts.
const sassScore = 96

// sassHits answers a query that is a SASS opcode: its PTX sources
// (sassRank), or, when the query asks for AMD (a vendor word, or an AMD
// family), the counterparts of the first sources, with the opcode's width
// and type modifiers as PTX's (".64": b64) so that they rank the widths.
func (s *DB) sassHits(arch, vendor, q string, qw *queryWords) []isa.SearchHit {
	opcode, mods, ok := s.sassQuery(q)
	if !ok {
		return nil
	}
	srcs := sassRank(opcode, mods, s.sassSources()[opcode])
	if len(srcs) > maxSASSSources {
		srcs = srcs[:maxSASSSources]
	}
	why := "lowers to SASS " + q
	if vendor == isa.VendorAMD || arch != "" && s.archVendor(arch) == isa.VendorAMD {
		var hits []isa.SearchHit
		if len(srcs) > 0 {
			qw.addQualifiers(sassTypeQualifiers(opcode, srcs[0].name))
		}
		for i, src := range srcs[:min(2, len(srcs))] {
			word := src.name + sassSpaceOf(opcode, src.name) + sassCarried(mods, src) + ptxTypeSuffix(mods)
			if cv, ok := sassConversion(opcode, mods); ok && src.name == "cvt" {
				word = cv
			}
			hits = append(hits, s.portedHits(s.amdCounterparts(word, arch, qw), arch, isa.VendorAMD,
				portedScore-float64(i), "counterpart of "+src.name+", which "+why, qw)...)
		}
		return hits
	}
	var hits []isa.SearchHit
	for i, src := range srcs {
		for _, k := range s.byName[src.name] {
			e := &s.entries[k]
			if arch != "" && e.Arch != arch || s.archVendor(e.Arch) != isa.VendorNVIDIA {
				continue
			}
			hits = append(hits, isa.SearchHit{Summary: e.Summary, Score: sassScore - 0.5*float64(i), Why: why})
		}
	}
	return hits
}

// ptxTypeSuffix writes an opcode's width and type modifiers as PTX's
// (".64" and ".128": .b64, .b128; ".U32": .u32), for the counterparts'
// widths; ".E" (a 64-bit address) and the others say nothing of the data.
func ptxTypeSuffix(mods []string) string {
	out := ""
	for _, m := range mods {
		m = strings.ToLower(m)
		switch {
		case isDigits(m):
			out += ".b" + m
		case m != "e" && sassTypeMod.MatchString(m):
			out += "." + m
		}
	}
	return out
}

// sassConvert is a conversion opcode, named from-2-to as SASS names them
// (I2F: integer to float, F2I, F2F, I2I; U: the uniform datapath's; P:
// packed).
var sassConvert = regexp.MustCompile(`^U?([FI])2([FI])P?$`)

// sassConversion writes a conversion opcode as the PTX cvt it performs,
// destination type first as PTX writes it (I2F: cvt.f32.s32), a float or
// integer type modifier giving that side's width (I2F.U64: cvt.f32.u64;
// F2F.F16.F32: the first float the destination's).
func sassConversion(opcode string, mods []string) (string, bool) {
	m := sassConvert.FindStringSubmatch(opcode)
	if m == nil {
		return "", false
	}
	deflt := map[string]string{"F": "f32", "I": "s32"}
	from, to := deflt[m[1]], deflt[m[2]]
	setTo, setFrom := false, false
	for _, mod := range mods {
		mod = strings.ToLower(mod)
		kind := ""
		switch {
		case sassFloatType.MatchString(mod):
			kind = "F"
		case sassIntType.MatchString(mod):
			kind = "I"
		default:
			continue
		}
		switch {
		case kind == m[2] && !setTo:
			to, setTo = mod, true
		case kind == m[1] && !setFrom:
			from, setFrom = mod, true
		}
	}
	return "cvt." + to + "." + from, true
}

var (
	sassFloatType = regexp.MustCompile(`^(f16|f32|f64|bf16|tf32)$`)
	sassIntType   = regexp.MustCompile(`^[us](8|16|32|64)$`)
)

// sassMemory is a load, store or atomic opcode whose last letter is the
// memory it works on, as SASS names them: LDG (global), LDS (shared), STL
// (local), ATOMS, REDG.
var sassMemory = regexp.MustCompile(`^(LD|ST|ATOM|RED)([GSL])$`)

// sassSpaces are those letters' PTX state spaces, which rank the
// counterparts' memory (.shared: ds_*).
var sassSpaces = map[string]string{"G": ".global", "S": ".shared", "L": ".local"}

// sassSpaceOf is the state space a memory opcode names, written after its
// PTX source's name when that is the operation the opcode is (LDS of ld:
// ld.shared), "" otherwise.
func sassSpaceOf(opcode, source string) string {
	m := sassMemory.FindStringSubmatch(opcode)
	if m == nil || dottedParts(source)[0] != strings.ToLower(m[1]) {
		return ""
	}
	return sassSpaces[m[2]]
}

// sassTypeQualifiers are the query qualifiers an arithmetic opcode's first
// letter says, as SASS names them, when the rest is its PTX source's
// operation: F f32 (FFMA, FMUL of mul), D f64 (DFMA, DADD), H f16, packed
// when a 2 ends it (HFMA2, HADD2), I an integer (ISETP of setp); nothing
// for the others (FLO, FENCE: no F then an operation).
func sassTypeQualifiers(opcode, source string) []string {
	rest := strings.TrimRight(strings.ToLower(opcode[min(1, len(opcode)):]), "0123456789")
	head := dottedParts(source + ".")[0]
	if len(rest) < 2 || rest != head && !(len(rest) >= 3 && strings.HasPrefix(head, rest)) {
		return nil
	}
	switch opcode[0] {
	case 'F':
		return []string{"f32"}
	case 'D':
		return []string{"f64"}
	case 'H':
		if strings.HasSuffix(opcode, "2") {
			return []string{"f16", "packed"}
		}
		return []string{"f16"}
	case 'I':
		return []string{"integer"} // ISETP: an integer compare
	}
	return nil
}

// sassCarried are the opcode's modifiers that are no type or width and no
// part of its PTX source's name, dotted after it as PTX writes modifiers
// (ISETP.GE: setp.ge; ATOMS.ADD: atom.add): the catalogue's port reads
// those the PTX instruction has (a comparison, an atomic's operation) for
// the counterparts of that form, and passes over SASS's own (.AND, .EX).
func sassCarried(mods []string, src sassSource) string {
	out := ""
	for _, m := range mods {
		if m = strings.ToLower(m); len(m) >= 2 && !sassTypeMod.MatchString(m) && !slices.Contains(dottedParts(src.name), m) {
			out += "." + m
		}
	}
	return out
}
