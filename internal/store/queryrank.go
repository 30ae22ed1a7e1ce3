package store

import (
	"regexp"
	"slices"
	"strings"
	"sync"
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
	match func(parts []string) bool
}

var (
	widthPart = regexp.MustCompile(`^[a-z]*?(\d+)$`)
	// typePart is a name part that says a type or width, not the operation:
	// f32, b64, iu8, bf16, dword, dwordx4, x2, ubyte.
	typePart = regexp.MustCompile(`^([biuf]\d+|bf16|iu\d+|dword(x\d)?|x\d|[us]?byte|[us]?short)$`)
)

// anyPart says whether a part satisfies f.
func anyPart(f func(string) bool) func([]string) bool {
	return func(parts []string) bool { return slices.ContainsFunc(parts, f) }
}

// bits says a part has a width of n bits: it ends in n (b64, u64, f64),
// or is the dword spelling of it (dwordx2, x2).
func bits(n string, dwords ...string) func([]string) bool {
	return anyPart(func(p string) bool {
		if m := widthPart.FindStringSubmatch(p); m != nil && m[1] == n {
			return true
		}
		return slices.Contains(dwords, p)
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

func first(p string) func([]string) bool {
	return func(parts []string) bool { return len(parts) > 0 && parts[0] == p }
}

var qualifiers = []qualifier{
	{words: []string{"f16", "fp16", "half", "half-precision", "half2"}, match: suffix("f16", "bf16")},
	{words: []string{"bf16", "bfloat16", "bfloat"}, match: suffix("bf16")},
	{words: []string{"f32", "fp32", "float", "single-precision"}, match: suffix("f32")},
	{words: []string{"f64", "fp64", "double", "double-precision"}, match: suffix("f64")},
	{words: []string{"int8", "i8", "s8"}, match: suffix("i8")},
	{words: []string{"uint8", "u8"}, match: suffix("u8")},
	{words: []string{"8-bit", "byte"}, match: bits("8", "byte", "ubyte", "sbyte")},
	{words: []string{"16-bit", "short"}, match: bits("16", "short", "ushort", "sshort")},
	{words: []string{"32-bit", "dword"}, match: bits("32", "dword")},
	{words: []string{"64-bit", "qword", "b64", "u64", "i64"}, match: bits("64", "dwordx2", "x2")},
	{words: []string{"96-bit"}, match: bits("96", "dwordx3", "x3")},
	{words: []string{"128-bit"}, match: bits("128", "dwordx4", "x4")},
	{words: []string{"unsigned", "uint"}, match: anyPart(regexp.MustCompile(`^u\d+$`).MatchString)},
	{words: []string{"signed"}, match: anyPart(regexp.MustCompile(`^i\d+$`).MatchString)},
	{words: []string{"packed", "half2"}, match: anyPart(func(p string) bool { return p == "pk" })},
	{words: []string{"shared", "lds", "__shared__"}, space: true, match: first("ds")},
	{words: []string{"global"}, space: true, match: first("global")},
	{words: []string{"buffer"}, space: true, match: first("buffer")},
	{words: []string{"flat"}, space: true, match: first("flat")},
	{words: []string{"scratch", "private"}, space: true, match: first("scratch")},
	{words: []string{"scalar"}, space: true, match: first("s")},
	{words: []string{"vector"}, space: true, match: first("v")},
}

// fillerWords say nothing about which instruction is meant once the
// qualifiers are read ("shared memory", "half precision").
var fillerWords = map[string]bool{"memory": true, "precision": true, "instruction": true, "operation": true}

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
}

// readQuery finds a lower-cased query's qualifiers: "64 bit" and "64bit"
// read as "64-bit".
func readQuery(lower string) queryWords {
	raw := strings.Fields(lower)
	var qw queryWords
	var core []string
	for i := 0; i < len(raw); i++ {
		w := strings.Trim(raw[i], ",;:()")
		if i+1 < len(raw) && (raw[i+1] == "bit" || raw[i+1] == "bits") && isDigits(w) {
			w, i = w+"-bit", i+1
		} else if n, ok := strings.CutSuffix(w, "bit"); ok && isDigits(n) {
			w = n + "-bit"
		}
		if qs, ok := qualifierByWord[w]; ok {
			for _, q := range qs {
				if !slices.Contains(qw.quals, q) {
					qw.quals = append(qw.quals, q)
				}
			}
			continue
		}
		if fillerWords[w] || w == "" {
			continue
		}
		core = append(core, w)
	}
	qw.core, qw.words = strings.Join(core, " "), core
	return qw
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

func nameParts(name string) []string {
	return strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '.' })
}

// satisfied counts the qualifiers a name carries.
func (qw *queryWords) satisfied(name string) int {
	parts := nameParts(name)
	n := 0
	for _, q := range qw.quals {
		if q.match(parts) {
			n++
		}
	}
	return n
}

// Boosts of a hit: per qualifier its name carries, and per word of a
// query of several that is a part of its name ("store" in ds_store_b128).
const (
	qualifierBoost = 6
	nameWordBoost  = 1.5
)

func (qw *queryWords) boost(name string) float64 {
	b := qualifierBoost * float64(qw.satisfied(name))
	if len(qw.words)+len(qw.quals) > 1 {
		parts := nameParts(name)
		for _, w := range qw.words {
			if slices.Contains(parts, w) {
				b += nameWordBoost
			}
		}
	}
	return b
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
	if len(qw.quals) == 0 || qw.satisfied(name) == len(qw.quals) {
		return nil
	}
	space := slices.ContainsFunc(qw.quals, func(q *qualifier) bool { return q.space })
	head := nameParts(name)[0]
	var out []string
	for _, n := range s.stemNames(nameStem(name)) {
		if n == name || qw.satisfied(n) != len(qw.quals) {
			continue
		}
		if !space && nameParts(n)[0] != head {
			continue
		}
		out = append(out, n)
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
