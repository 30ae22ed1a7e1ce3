package store

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/xvendor/synonyms"
)

// A search query's qualifier words say which variant of an operation is
// meant: its data type ("f16", "bf16", "double"), width ("64-bit",
// "128-bit"), signedness, packing, or the memory or unit its name starts
// with ("shared"/"lds" is ds_, "global", "scalar"). AMD spells all of these
// in the name (ds_add_u64, v_pk_fma_bf16), so a qualifier ranks the names
// that carry it above those that do not, and finds a carrying sibling of
// a synonym's instruction (v_pk_fma_bf16 for "fma bf16"). PTX names carry
// none of them (the types are the forms'), so qualifiers never demote PTX.

// qualifier is one kind of qualifier word.
type qualifier struct {
	words []string
	// space: the qualifier names where the instruction works (its name's
	// first part), so a sibling may change that part to it.
	space bool
	// memBits is a type's width: a memory instruction moves bits, not
	// types (ds_store_b16 stores a half), so its names carry the width.
	memBits string
	match   func(parts []string) bool
}

// carries says whether a name's parts carry the qualifier, a type by its
// width on a memory instruction.
func (q *qualifier) carries(parts []string) bool {
	return q.match(parts) || q.memBits != "" && isMemory(parts) && qualifierByWord[q.memBits+"-bit"][0].match(parts)
}

// isMemory says whether a name is an AMD memory instruction's: in a memory
// space (global_load_b32, ds_store_b16) or a scalar load or store
// (s_load_b32, s_buffer_load_dword).
func isMemory(parts []string) bool {
	if len(parts) > 1 && memorySpaces[parts[0]] {
		return true
	}
	return len(parts) > 2 && parts[0] == "s" && (parts[1] == "load" || parts[1] == "store" || parts[1] == "buffer")
}

// typeAtoms are the types a name part spells, several in one part
// (f8f6f4 is fp8, fp6 and fp4).
var typeAtoms = regexp.MustCompile(`(?:bf|fp|iu|[biuf])\d+`)

// hasType says whether a part spells one of the types.
func hasType(types ...string) func([]string) bool {
	return anyPart(func(p string) bool {
		return slices.ContainsFunc(typeAtoms.FindAllString(p, -1), func(a string) bool { return slices.Contains(types, a) })
	})
}

var (
	// typePart is a name part that says a type or width, not the operation:
	// f32, b64, iu8, bf16, dword, dwordx4, x2, ubyte.
	// A byte part may say which byte it reads (v_cvt_f32_ubyte0).
	// Types may be spelled together (f8f6f4).
	typePart = regexp.MustCompile(`^((?:[biuf]|bf|fp|iu)\d+)+$|^(dword(x\d)?|x\d|[us]?byte\d?|[us]?short)$`)
	bytePart = regexp.MustCompile(`^[us]?byte\d?$`)
)

// anyPart says whether a part satisfies f.
func anyPart(f func(string) bool) func([]string) bool {
	return func(parts []string) bool { return slices.ContainsFunc(parts, f) }
}

// typeWidth is the width in bits a name part that is a type says (b64,
// u32, f16, i4, iu8, bf16, fp8), "" for any other part: a count (dot4,
// add3) or a lane number (permlane64) is not a width.
func typeWidth(p string) string {
	for _, prefix := range []string{"bf", "fp", "iu", "b", "i", "u", "f"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			if isDigits(rest) {
				return rest
			}
			return ""
		}
	}
	return ""
}

// bits says a part has a width of n bits: it ends in n (b64, u64, f64),
// or is the dword spelling of it (dwordx2, x2).
func bits(n string, dwords ...string) func([]string) bool {
	return anyPart(func(p string) bool {
		if typeWidth(p) == n {
			return true
		}
		return slices.Contains(dwords, p)
	})
}

// numbered says a part is a word with n after it, not a type: permlane16,
// permlane64 (not b16, dot4's 4 for "4").
func numbered(n string) func([]string) bool {
	return anyPart(func(p string) bool {
		rest, ok := strings.CutSuffix(p, n)
		return ok && rest != "" && !typePart.MatchString(p) && strings.Trim(rest, "abcdefghijklmnopqrstuvwxyz") == ""
	})
}

func suffix(s string, not ...string) func([]string) bool {
	return anyPart(func(p string) bool {
		for _, n := range not {
			if strings.HasSuffix(p, n) {
				return false
			}
		}
		return strings.HasSuffix(p, s)
	})
}

// first says a name starts with p, or, for a scalar memory instruction,
// has it after its s_ (s_buffer_load_dword is a buffer's).
func first(p string) func([]string) bool {
	return func(parts []string) bool {
		return len(parts) > 0 && parts[0] == p || len(parts) > 2 && parts[0] == "s" && parts[1] == p && p != "s"
	}
}

var qualifiers = []qualifier{
	{words: []string{"f16", "fp16", "half", "halves", "half-precision", "half2"}, memBits: "16", match: suffix("f16", "bf16")},
	{words: []string{"bf16", "bfloat16", "bfloat"}, memBits: "16", match: suffix("bf16")},
	{words: []string{"f32", "fp32", "float", "floats", "single-precision"}, memBits: "32", match: suffix("f32")},
	{words: []string{"f64", "fp64", "double", "doubles", "double-precision"}, memBits: "64", match: suffix("f64")},
	// The small float formats: f8f6f4 names (v_mfma_f32_16x16x128_f8f6f4)
	// take all three.
	{words: []string{"fp8", "f8", "float8"}, match: hasType("fp8", "f8")},
	{words: []string{"fp6", "f6"}, match: hasType("fp6", "f6")},
	{words: []string{"fp4", "f4", "mxfp4"}, match: hasType("fp4", "f4")},
	// RDNA 3's iu8 takes signed or unsigned bytes (v_wmma_i32_16x16x16_iu8).
	{words: []string{"int8", "i8", "s8"}, match: func(parts []string) bool { return suffix("i8")(parts) || hasType("iu8")(parts) }},
	{words: []string{"uint8", "u8"}, match: suffix("u8")},
	// "int4" is a 4-bit integer in a dot product or matrix multiply
	// (v_dot8_i32_iu4) and CUDA's vector of four ints (a 128-bit load):
	// a name with either carries it.
	{words: []string{"int4", "i4", "s4"}, match: func(parts []string) bool {
		return hasType("i4", "iu4")(parts) || bits("128", "dwordx4", "x4")(parts)
	}},
	{words: []string{"uint4", "u4"}, match: func(parts []string) bool {
		return hasType("u4", "iu4")(parts) || bits("128", "dwordx4", "x4")(parts)
	}},
	{words: []string{"8-bit", "byte"}, match: func(parts []string) bool {
		return bits("8")(parts) || anyPart(bytePart.MatchString)(parts)
	}},
	{words: []string{"16-bit", "short"}, match: bits("16", "short", "ushort", "sshort")},
	{words: []string{"32-bit"}, match: bits("32", "dword")},
	{words: []string{"64-bit", "b64", "u64", "i64", "float2"}, match: bits("64", "dwordx2", "x2")},
	// A dword and a qword are units of what memory moves: "4 dwords" is
	// a 128-bit load or store (buffer_store_dwordx4), as "4 floats" is.
	// Rows of their own, so that a width's words ("two 64-bit adds")
	// stay a width, never a count of it.
	{words: []string{"dword"}, memBits: "32", match: bits("32", "dword")},
	{words: []string{"qword"}, memBits: "64", match: bits("64", "dwordx2", "x2")},
	{words: []string{"96-bit"}, match: bits("96", "dwordx3", "x3")},
	{words: []string{"128-bit", "float4"}, match: bits("128", "dwordx4", "x4")},
	// The scalar unit loads 8 and 16 dwords at once (s_load_dwordx8,
	// s_load_b512): "scalar load 8 dwords".
	{words: []string{"256-bit"}, match: bits("256", "dwordx8", "x8")},
	{words: []string{"512-bit"}, match: bits("512", "dwordx16", "x16")},
	{words: []string{"unsigned", "uint"}, match: anyPart(regexp.MustCompile(`^u\d+$`).MatchString)},
	// "int" alone is C's 32-bit int; beside a width ("64-bit integer
	// compare") it is an integer of that width (widthInteger).
	{words: []string{"int", "integer", "int32", "i32", "s32"}, memBits: "32", match: anyPart(regexp.MustCompile(`^[iu]32$`).MatchString)},
	{words: []string{"signed"}, match: anyPart(regexp.MustCompile(`^i\d+$`).MatchString)},
	// An atomic that returns the memory's old value: AMD's _rtn variants
	// (ds_add_rtn_u32; the others return by a GLC/SC0 bit, in no name).
	{words: []string{"returning", "return", "returns", "rtn"}, match: anyPart(func(p string) bool { return p == "rtn" })},
	{words: []string{"packed", "half2"}, match: anyPart(func(p string) bool { return p == "pk" })},
	// The LDS is ds_'s space, and the destination of loads that write it
	// (global_load_lds_dword, global_load_async_to_lds_b32).
	{words: []string{"shared", "lds", "__shared__"}, space: true, match: func(parts []string) bool {
		return first("ds")(parts) || slices.Contains(parts, "lds")
	}},
	{words: []string{"global"}, space: true, match: first("global")},
	{words: []string{"buffer"}, space: true, match: first("buffer")},
	{words: []string{"flat"}, space: true, match: first("flat")},
	{words: []string{"scratch", "private"}, space: true, match: first("scratch")},
	// A scalar register (SGPR) is the scalar unit's.
	{words: []string{"scalar", "sgpr"}, space: true, match: first("s")},
	// Vector memory is global, buffer, flat and scratch (a "vector load").
	{words: []string{"vector"}, space: true, match: func(parts []string) bool {
		return first("v")(parts) || len(parts) > 1 && memorySpaces[parts[0]] && parts[0] != "ds"
	}},
	// A vector register (VGPR) is the vector ALU's, not memory's ("swap
	// two vgprs": v_swap_b32).
	{words: []string{"vgpr"}, space: true, match: first("v")},
}

// registerWords are the qualifier words that name a register file (a
// unit's registers), which say "register" besides the unit.
var registerWords = map[string]bool{"vgpr": true, "sgpr": true}

// fillerWords say nothing about which instruction is meant once the
// qualifiers are read ("shared memory", "half precision", "three input
// add").
var fillerWords = map[string]bool{
	"memory": true, "precision": true, "instruction": true, "operation": true,
	"input": true, "inputs": true, "operand": true, "operands": true, "way": true, "value": true, "values": true,
	// An atomic's "old value" is the one it returns, which "returning"
	// (a qualifier) says.
	"old": true,
	// Articles and "of" join the words of a sentence ("max of three",
	// "the minimum of a vector"), never a name's parts.
	"of": true, "the": true, "a": true, "an": true,
	// So do a sentence's pronouns and prepositions ("compare that writes
	// exec", "write a value into one lane", "wait for loads"); "to" and
	// "from" stay, names spell them (tensor_load_to_lds).
	"that": true, "which": true, "this": true, "is": true, "into": true, "with": true, "for": true, "on": true, "in": true,
	// "One lane", "a single lane" are a lane.
	"one": true, "single": true, "through": true, "via": true, "when": true, "whole": true, "entire": true,
	// "Another lane", "the other half": which one is the operands' to say.
	"another": true, "other": true,
}

// bareWidths are the numbers that, alone among a query's words, are a
// width in bits ("lzcnt 64", "load 128"); 2, 3 and 4 are counts.
var bareWidths = map[string]bool{"8": true, "16": true, "32": true, "64": true, "96": true, "128": true}

// countWords are the words for how many inputs an operation takes, which
// AMD writes after the operation's name part (v_add3_u32, v_max3_f32,
// v_xor3_b32): "three input add", "3-way max", "max of three".
var countWords = map[string]string{"two": "2", "three": "3", "four": "4", "2": "2", "3": "3", "4": "4"}

// countOf reads a word as a count: "three", "3", "three-input", "3-way",
// "3-operand".
func countOf(w string) (string, bool) {
	for _, suf := range []string{"-input", "-way", "-operand"} {
		if n, ok := strings.CutSuffix(w, suf); ok {
			w = n
			break
		}
	}
	n, ok := countWords[w]
	return n, ok
}

var qualifierByWord = func() map[string][]*qualifier {
	m := map[string][]*qualifier{}
	for i := range qualifiers {
		for _, w := range qualifiers[i].words {
			m[w] = append(m[w], &qualifiers[i])
		}
	}
	return m
}()

// memorySpaces are the first parts of AMD memory instructions' names; an
// atomic's "atomic" after them (global_atomic_add) is its kind, which the
// LDS spells without (ds_add_u32).
var memorySpaces = map[string]bool{"global": true, "buffer": true, "flat": true, "scratch": true, "ds": true}

// queryWords is a query read for ranking.
type queryWords struct {
	quals []*qualifier
	// core is the query without its qualifier and filler words ("atomic
	// add" of "shared memory atomic add"), words its words.
	core  string
	words []string
	// count is the number of inputs the query asks for ("3" of "three
	// input add"), "" when it names none.
	count string
	// dest is the qualifier after "to" or "into": the type a conversion
	// makes ("convert f32 to f16"), which AMD names first (v_cvt_f16_f32).
	dest *qualifier
	// countOps are the operation parts the count follows in the names
	// that carry it: the query's words, and what names spell them by
	// ("min" of "minimum", "max" of "largest": v_min3_f32, v_max3_i32).
	countOps []string
}

// countedOps says, for a query's words, count and qualifiers, the
// operation parts that names write with the count after them
// (settleCount).
type countedOps func(qw *queryWords) []string

// readQuery finds a lower-cased query's qualifiers: "64 bit" and "64bit"
// read as "64-bit". A count is read by the query's own words
// (readQueryCounting with the names' counted parts reads it better).
func readQuery(lower string) queryWords {
	return readQueryCounting(lower, nil)
}

// readQueryCounting is readQuery with ops, the operation parts the names
// write a count after (nil: the query's words alone).
func readQueryCounting(lower string, ops countedOps) queryWords {
	raw := strings.Fields(lower)
	var qw queryWords
	var core []string
	for i := 0; i < len(raw); i++ {
		w := strings.Trim(raw[i], ",;:()")
		if i+1 < len(raw) && (raw[i+1] == "bit" || raw[i+1] == "bits") && isDigits(w) {
			w, i = w+"-bit", i+1
		} else if n, err := strconv.Atoi(w); err == nil && n > 0 && n <= 64 && i+1 < len(raw) && (raw[i+1] == "byte" || raw[i+1] == "bytes") {
			w, i = strconv.Itoa(8*n)+"-bit", i+1 // "load 16 bytes": a 128-bit load
		} else if n, ok := strings.CutSuffix(w, "bit"); ok && isDigits(n) {
			w = n + "-bit"
		} else if isDigits(w) && i+1 < len(raw) && typedWord(raw[i+1]) && qw.count == "" {
			// "load 8 halves": a count of a type, which countTypes reads
			// as the width they take together.
			qw.count = w
			continue
		} else if bareWidths[w] && len(raw) > 1 {
			// "lzcnt 64" is a width; "permute lanes 16" the number a name
			// part ends in (v_permlane16_b32): a name with either.
			width := bits(w)
			if qs := qualifierByWord[w+"-bit"]; len(qs) > 0 {
				width = qs[0].match // its dword spellings too (dwordx4)
			}
			qw.quals = append(qw.quals, &qualifier{words: []string{w}, match: func(parts []string) bool {
				return width(parts) || numbered(w)(parts)
			}})
			continue
		}
		if _, ok := qualifierByWord[w]; !ok && len(w) > 3 && strings.HasSuffix(w, "s") {
			if _, ok := qualifierByWord[w[:len(w)-1]]; ok {
				w = w[:len(w)-1] // a plural: "integers", "ints"
			}
		}
		if qs, ok := qualifierByWord[w]; ok {
			for _, q := range qs {
				if !slices.Contains(qw.quals, q) {
					qw.quals = append(qw.quals, q)
				}
			}
			if i > 0 && (raw[i-1] == "to" || raw[i-1] == "into") && qw.dest == nil {
				qw.dest = qs[0]
			}
			if registerWords[w] {
				// A VGPR is a register too: "swap two vgprs" asks to
				// swap registers, in the vector unit.
				core = append(core, "register")
			}
			continue
		}
		if n, ok := strings.CutSuffix(w, "-bit"); ok && isDigits(n) {
			// A width the table has no spellings for ("4-bit", "24-bit"):
			// the names whose types have it (v_dot8_i32_i4, v_mad_u32_u24).
			qw.quals = append(qw.quals, &qualifier{words: []string{w}, match: bits(n)})
			continue
		}
		if fillerWords[w] || w == "" {
			continue
		}
		if n, ok := countOf(w); ok && qw.count == "" {
			qw.count = n
			continue
		}
		core = append(core, w)
	}
	if qw.count != "" && len(core) == 0 {
		// The count was the query's only word ("3", "four"): a word.
		core, qw.count = append(core, qw.count), ""
	}
	qw.core, qw.words = strings.Join(core, " "), core
	qw.widthInteger()
	qw.settleCount(ops)
	return qw
}

// intQualifier is the row of "int" and "integer".
var intQualifier = qualifierByWord["integer"][0]

// widthInteger reads "integer" beside another width than 32 bits ("64-bit
// integer compare equal", "16-bit int add") as an integer of that width
// (v_cmp_eq_u64, not v_cmp_eq_u32 and v_cmp_eq_f64, which carry one of
// the two words each).
func (qw *queryWords) widthInteger() {
	i := slices.Index(qw.quals, intQualifier)
	if i < 0 {
		return
	}
	width := ""
	for _, q := range qw.quals {
		for _, w := range q.words {
			if n, ok := strings.CutSuffix(w, "-bit"); ok && isDigits(n) || bareWidths[w] && w == q.words[0] && len(q.words) == 1 {
				width = strings.TrimSuffix(w, "-bit")
			}
		}
	}
	if width == "" || width == "32" {
		return
	}
	qw.quals[i] = &qualifier{words: intQualifier.words, memBits: width,
		match: anyPart(func(p string) bool { return len(p) > 1 && (p[0] == 'i' || p[0] == 'u') && p[1:] == width })}
}

// settleCount reads the query's count as the number of inputs of an
// operation the names write with it ("minimum of three floats":
// v_min3_f32), else as a count of a type, a width ("load 4 floats").
func (qw *queryWords) settleCount(ops countedOps) {
	if qw.count == "" {
		return
	}
	if ops != nil {
		qw.countOps = ops(qw)
	} else {
		qw.countOps = qw.words
	}
	if ops == nil || len(qw.countOps) == 0 {
		qw.countTypes()
	}
	if ops != nil && len(qw.countOps) == 0 {
		// No name writes the operation with a count: the count ranks
		// nothing ("multiply-add of three doubles" is v_fma_f64).
		qw.count = ""
	}
	if qw.count != "" {
		qw.quals = append(qw.quals, qw.countQualifier())
	}
}

// countTypes reads a count of a type ("4 floats", "two doubles") as the
// width they take together (128-bit, 128-bit): a vector load's or store's,
// which AMD names by width (global_load_b128, ds_write_b128).
func (qw *queryWords) countTypes() {
	if qw.count == "" {
		return
	}
	for i, q := range qw.quals {
		if q.memBits == "" {
			continue
		}
		n, _ := strconv.Atoi(qw.count)
		w, _ := strconv.Atoi(q.memBits)
		width := strconv.Itoa(n * w)
		// Only a width something moves (96-bit, 128-bit); three doubles
		// (192 bits) are an operation's three inputs.
		if qs, ok := qualifierByWord[width+"-bit"]; ok {
			qw.quals[i] = qs[0]
			qw.count = ""
		}
		return
	}
}

// countQualifier ranks the names with a part that is one of the query's
// words followed by its count ("add3" for "three input add").
func (qw *queryWords) countQualifier() *qualifier {
	var want []string
	for _, w := range qw.countOps {
		want = append(want, w+qw.count)
	}
	return &qualifier{match: anyPart(func(p string) bool { return slices.Contains(want, p) })}
}

// namesOperation says whether a name's parts hold the query's core word as
// one of them (or its other spelling: read for load), or with the query's
// count after it ("add3").
func (qw *queryWords) namesOperation(parts []string) bool {
	return slices.Contains(parts, qw.core) || partAliases[qw.core] != "" && slices.Contains(parts, partAliases[qw.core]) ||
		qw.count != "" && slices.ContainsFunc(qw.countOps, func(op string) bool { return slices.Contains(parts, op+qw.count) })
}

// partAliases are the words one generation's names spell another's way:
// GFX9's LDS reads and writes (ds_read_b128, ds_write_b32) are GFX11's
// loads and stores (ds_load_b128, ds_store_b32).
var partAliases = map[string]string{"load": "read", "store": "write", "read": "load", "write": "store"}

// addQualifiers adds the qualifiers of words to the query's.
func (qw *queryWords) addQualifiers(words []string) {
	for _, w := range words {
		for _, q := range qualifierByWord[w] {
			if !slices.Contains(qw.quals, q) {
				qw.quals = append(qw.quals, q)
			}
		}
	}
}

// typedWord says whether a word (or its singular) is a type qualifier
// with a width: "halves", "floats", "int".
func typedWord(w string) bool {
	for _, v := range []string{w, strings.TrimSuffix(w, "s")} {
		for _, q := range qualifierByWord[v] {
			if q.memBits != "" {
				return true
			}
		}
	}
	return false
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// onlyQualifiers says whether every word of phrase is a qualifier or
// filler word: "shared memory", "lds", "bf16".
func onlyQualifiers(phrase string) bool {
	for _, w := range strings.Fields(strings.ToLower(phrase)) {
		if _, ok := qualifierByWord[w]; !ok && !fillerWords[w] {
			return false
		}
	}
	return true
}

// nameParts splits a name at '_' and '.', and drops a special register's
// '%' (%lanemask_lt is lanemask, lt).
func nameParts(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '.' || r == '%' })
}

// satisfied counts the qualifiers a name carries.
func (qw *queryWords) satisfied(name string) int {
	return qw.satisfiedBy(nameParts(name))
}

// satisfiedBy counts the qualifiers a name's parts carry.
func (qw *queryWords) satisfiedBy(parts []string) int {
	n := 0
	for _, q := range qw.quals {
		if q.carries(parts) {
			n++
		}
	}
	return n
}

// Boosts of a hit: per qualifier its name carries, per word of a query of
// several that is a part of its name ("store" in ds_store_b128) or that a
// part abbreviates ("sat" of "saturate", "execz" of "exec zero"), and once
// more (qualifierBoost) when its name accounts for every word; a count
// the operation's name part carries (add3) counts twice.
const (
	qualifierBoost = 6
	nameWordBoost  = 1.5
)

func (qw *queryWords) boost(name string) float64 {
	if len(qw.quals) == 0 && len(qw.words) < 2 {
		return 0 // nothing to rank by
	}
	parts := nameParts(name)
	carried := qw.satisfiedBy(parts)
	b := qualifierBoost * float64(carried)
	if qw.count != "" && qw.namesOperation(parts) && !slices.Contains(parts, qw.core) {
		// The count is the operation's own part (add3): the name says
		// what the query asks for, where a two-input add does not.
		b += qualifierBoost
	}
	if qw.dest != nil && qw.dest.match(resultType(parts)) {
		b += qualifierBoost / 2
	}
	if len(qw.words)+len(qw.quals) > 1 {
		covered := spelledWords(qw.uncounted(parts), qw.words, false)
		b += nameWordBoost * float64(covered)
		if covered == len(qw.words) && carried == len(qw.quals) {
			// The name spells the whole query (v_sat_pk_u8_i16 for
			// "saturate pack", ds_load_b64 for "lds load 64-bit").
			b += qualifierBoost
		}
	}
	return b
}

// uncounted is parts with the operation of each part that carries the
// query's count (min of min3), which spells the query's word as a
// two-input name's part does ("minimum": min).
func (qw *queryWords) uncounted(parts []string) []string {
	if qw.count == "" {
		return parts
	}
	out := parts
	for _, p := range parts {
		if op, ok := strings.CutSuffix(p, qw.count); ok && slices.Contains(qw.countOps, op) {
			out = append(slices.Clip(out), op)
		}
	}
	return out
}

// spelledWords counts the words a name's parts spell: a part is the word,
// its other spelling (read of load) or abbreviates it; a word and the next
// that a part abbreviates together ("lt" of "less than", "execz" of "exec
// zero") count both. A part holding the word is not enough: the "mfma" of
// smfmac is the sparse kind, not an mfma.
//
// Ranking counts a pair as one word (pairs: false): abbreviating two
// words by their letters is loose ("wmma" has the letters of "warpgroup
// mma"); a name that holds a run of the query's words counts both.
func spelledWords(parts, words []string, pairs bool) int {
	n := 0
	for i := 0; i < len(words); i++ {
		w := words[i]
		if slices.ContainsFunc(parts, func(p string) bool { return p == w || p == partAliases[w] || abbreviates(p, w) }) {
			n++
			continue
		}
		if i+1 < len(words) && slices.ContainsFunc(parts, func(p string) bool { return joinsPrefixes(strings.TrimRight(p, "0123456789"), words[i:i+2]) }) {
			// A part that joins the words' beginnings ("permlane16" of
			// "permute lanes", "saveexec" of "save exec") spells both,
			// as strictly as if they were typed together.
			n, i = n+2, i+1
			continue
		}
		if i+1 < len(words) && slices.ContainsFunc(parts, func(p string) bool { return abbreviatesWords(p, words[i:i+2]) }) {
			n++
			if pairs {
				n, i = n+1, i+1
			}
			continue
		}
		// Three words a part abbreviates ("vccnz" of "vcc not zero").
		if i+2 < len(words) && slices.ContainsFunc(parts, func(p string) bool { return abbreviatesWords(p, words[i:i+3]) }) {
			n++
			if pairs {
				n, i = n+2, i+2
			}
		}
	}
	return n
}

// minJoinedPrefix is the shortest beginning of a word a joined name part
// takes: shorter ones ("w" of warpgroup in wgmma) are letters, not words.
const minJoinedPrefix = 3

// joinsPrefixes says whether part is the words' beginnings joined, each of
// minJoinedPrefix letters or more ("perm" and "lane" of "permute lanes").
func joinsPrefixes(part string, words []string) bool {
	if len(words) == 0 {
		return part == ""
	}
	w := words[0]
	for k := len(w); k >= minJoinedPrefix; k-- {
		if strings.HasPrefix(part, w[:k]) && joinsPrefixes(part[k:], words[1:]) {
			return true
		}
	}
	return false
}

// resultType is a conversion's first type part, the type it makes
// (f16 of v_cvt_f16_f32, bf16 of v_cvt_pk_bf16_f32); none for other names.
func resultType(parts []string) []string {
	i := slices.Index(parts, "cvt")
	if i < 0 {
		return nil
	}
	for _, p := range parts[i+1:] {
		if typePart.MatchString(p) {
			return []string{p}
		}
	}
	return nil
}

// abbreviates says whether a name part is an abbreviation of a word: its
// letters in order, the first the same, two or more letters shorter
// ("sat" of "saturate", "cmp" of "compare", "pk" of "packed", "execz" of
// "execzero"; not "mma" of "mfma", another name). Parts with digits are
// types or counts, not abbreviations.
func abbreviates(part, word string) bool {
	if len(part) < 2 || len(part)+2 > len(word) || part[0] != word[0] {
		return false
	}
	j := 0
	for i := 0; i < len(word) && j < len(part); i++ {
		if c := part[j]; c < 'a' || c > 'z' {
			return false
		} else if word[i] == c {
			j++
		}
	}
	return j == len(part)
}

// abbreviatesWords says whether a name part abbreviates a run of words:
// it abbreviates them joined, and each word gives it its first letter
// ("vccnz" of "vcc not zero", "wgmma" of "warpgroup mma"; not "wgmma" of
// "wait warpgroup mma", where warpgroup's w is not used).
func abbreviatesWords(part string, words []string) bool {
	return abbreviates(part, strings.Join(words, "")) && initialsMatch(part, words)
}

// initialsMatch says whether part's letters can be taken in order from
// words, each word giving its first letter and then any of its others.
func initialsMatch(part string, words []string) bool {
	if len(words) == 0 {
		return part == ""
	}
	w := words[0]
	if part == "" || part[0] != w[0] {
		return false
	}
	// part[1:k] from the rest of w, the remainder from the next words.
	j := 1
	for k := 1; ; k++ {
		if initialsMatch(part[j:], words[1:]) {
			return true
		}
		for k < len(w) && (j >= len(part) || w[k] != part[j]) {
			k++
		}
		if k >= len(w) || j >= len(part) {
			return false
		}
		j++
	}
}

// nameStem is a name without its type and width parts and packing, and
// with a memory space read as "mem": the operation its variants share.
// v_fma_f32 and v_pk_fma_bf16 are "v_fma"; global_atomic_max_i32 and
// ds_max_i64 "mem_max".
func nameStem(name string) string {
	parts := nameParts(name)
	var keep []string
	if len(parts) > 1 && memorySpaces[parts[0]] {
		keep = append(keep, "mem")
		parts = parts[1:]
		if len(parts) > 1 && parts[0] == "atomic" {
			parts = parts[1:]
		}
	}
	for _, p := range parts {
		if p != "pk" && !typePart.MatchString(p) {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "_")
}

// stemIndex maps a stem to the names that have it.
type stemIndex struct {
	once  sync.Once
	names map[string][]string
}

func (s *DB) stemNames(stem string) []string {
	s.stems.once.Do(func() {
		s.stems.names = map[string][]string{}
		for _, n := range s.names {
			st := nameStem(n)
			s.stems.names[st] = append(s.stems.names[st], n)
		}
	})
	return s.stems.names[stem]
}

// siblings are the names sharing name's stem that carry every qualifier
// of the query and name does not: the variant a qualifier asks for. They
// keep name's first part (its unit or memory) unless a qualifier names
// one; those with the same first part come first, shortest first.
func (s *DB) siblings(name string, qw *queryWords) []string {
	own := qw.satisfied(name)
	if len(qw.quals) == 0 || own == len(qw.quals) {
		return nil
	}
	space := slices.ContainsFunc(qw.quals, func(q *qualifier) bool { return q.space })
	head := nameParts(name)[0]
	// The siblings carrying the most of the qualifiers, more than name
	// does: all of them where one does, else the nearest (__hge2 asks for
	// a packed half compare; v_cmp_ge_f16 is the half one there is).
	var out []string
	best := own + 1
	for _, n := range s.stemNames(nameStem(name)) {
		if n == name {
			continue
		}
		if !space && nameParts(n)[0] != head {
			continue
		}
		switch c := qw.satisfied(n); {
		case c > best:
			out, best = []string{n}, c
		case c == best:
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		sa, sb := nameParts(a)[0] == head, nameParts(b)[0] == head
		if sa != sb {
			if sa {
				return -1
			}
			return 1
		}
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	return out
}

// countedIndex maps a count to the operation parts names write it after
// (3: add, max, min, med, or, xor of v_add3_u32, v_max3_f32, ...), and
// each to the names that do.
type countedIndex struct {
	once sync.Once
	ops  map[string]map[string][]string
}

// countedPart is a name part that is an operation with its count of
// inputs after it (add3, max3, dot4, read2), not a type (b32, x4).
var countedPart = regexp.MustCompile(`^([a-z]+)([234])$`)

// countedOps are the operation parts names write the query's count
// after that spell one of its words: the word itself, its other spelling
// (read of load), a part abbreviating it (min of minimum), or a part of
// an instruction the synonym table gives for the word alone (max of
// "largest": the "maximum" group's v_max_i32). A name with the part must
// be in the memory the query names: ds_read2_b64 reads the LDS, so "load
// 2 doubles from global" is a 128-bit load.
func (s *DB) countedOps(qw *queryWords) []string {
	s.counted.once.Do(func() {
		s.counted.ops = map[string]map[string][]string{}
		for _, name := range s.names {
			for _, p := range nameParts(name) {
				if m := countedPart.FindStringSubmatch(p); m != nil && !typePart.MatchString(p) {
					if s.counted.ops[m[2]] == nil {
						s.counted.ops[m[2]] = map[string][]string{}
					}
					s.counted.ops[m[2]][m[1]] = append(s.counted.ops[m[2]][m[1]], name)
				}
			}
		}
	})
	inSpace := func(name string) bool {
		parts := nameParts(name)
		return !slices.ContainsFunc(qw.quals, func(q *qualifier) bool { return q.space && !q.match(parts) })
	}
	var out []string
	for _, w := range qw.words {
		ops := synonymOps(w)
		for op, names := range s.counted.ops[qw.count] {
			if (op == w || op == partAliases[w] || abbreviates(op, w) || slices.Contains(ops, op)) && !slices.Contains(out, op) && slices.ContainsFunc(names, inSpace) {
				out = append(out, op)
			}
		}
	}
	slices.Sort(out)
	return out
}

// synonymOps are the operation parts of the instructions the synonym
// table gives for word exactly (v_max_f32's max for "largest"): the
// parts after a name's unit that are not types.
func synonymOps(word string) []string {
	var out []string
	for _, m := range synonyms.Default().Match(word) {
		if m.Kind != synonyms.Exact {
			continue
		}
		for _, member := range m.Group.Members {
			parts := nameParts(strings.TrimSuffix(member, "*"))
			if len(parts) > 1 {
				parts = parts[1:] // v_, s_, ds_: the unit, not the operation
			}
			for _, p := range parts {
				if !typePart.MatchString(p) && !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}
