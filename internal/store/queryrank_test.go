package store

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// A name's stem is the operation its type, width, packing and memory
// variants share.
func TestNameStem(t *testing.T) {
	for name, want := range map[string]string{
		"v_fma_f32": "v_fma", "v_pk_fma_bf16": "v_fma", "v_fma_mix_f32_bf16": "v_fma_mix",
		"global_atomic_max_i32": "mem_max", "ds_max_i64": "mem_max", "global_atomic_smax_x2": "mem_smax",
		"global_load_dwordx4": "mem_load", "ds_load_b128": "mem_load", "v_max_f64": "v_max",
		"v_mfma_f32_32x32x8bf16": "v_mfma_32x32x8bf16", "shfl.sync": "shfl_sync",
	} {
		if got := nameStem(name); got != want {
			t.Errorf("nameStem(%s) = %s, want %s", name, got, want)
		}
	}
}

// Qualifier words are read out of a query, "64 bit" as "64-bit", and a
// name carries those its parts spell.
func TestQualifiers(t *testing.T) {
	qw := readQuery("shared memory store 128 bit")
	if qw.core != "store" || len(qw.quals) != 2 {
		t.Fatalf("readQuery: core %q, %d qualifiers", qw.core, len(qw.quals))
	}
	for name, want := range map[string]int{"ds_store_b128": 2, "ds_write_b128": 2, "ds_store_b32": 1, "global_store_dwordx4": 1, "st": 0} {
		if got := qw.satisfied(name); got != want {
			t.Errorf("%s carries %d of the qualifiers, want %d", name, got, want)
		}
	}
	f16 := readQuery("fma f16")
	for name, want := range map[string]int{"v_fma_f16": 1, "v_pk_fma_bf16": 0, "v_mfma_f32_32x32x8f16": 1, "v_fma_f32": 0} {
		if got := f16.satisfied(name); got != want {
			t.Errorf("f16: %s carries %d, want %d", name, got, want)
		}
	}
	if !onlyQualifiers("shared memory") || !onlyQualifiers("LDS") || onlyQualifiers("atomic add") {
		t.Error("onlyQualifiers")
	}
}

// A qualifier finds the sibling of a synonym's instruction that carries it,
// in the same unit unless the qualifier names another.
func TestSiblings(t *testing.T) {
	s := &DB{names: []string{"v_fma_f32", "v_fma_f16", "v_pk_fma_bf16", "v_fma_mix_f32_bf16", "global_load_b32", "global_load_b128", "ds_load_b128", "ds_load_b64"}}
	for q, want := range map[string][]string{
		"fma bf16":         {"v_pk_fma_bf16"},
		"load 128-bit":     {"global_load_b128"},
		"lds load 128-bit": {"ds_load_b128"},
	} {
		qw := readQuery(q)
		base := "v_fma_f32"
		if qw.core != "fma" {
			base = "global_load_b32"
		}
		if got := s.siblings(base, &qw); !slices.Equal(got, want) {
			t.Errorf("%q: siblings of %s = %q, want %q", q, base, got, want)
		}
	}
}

// A count word ("three", "3-way") is read out of a query and ranks the
// names whose operation part carries it (v_add3_u32); any width in bits is
// a qualifier, a type's width only (i4, u24), never a count or lane number
// (dot4, permlane64).
func TestCountsAndWidths(t *testing.T) {
	qw := readQuery("three input add")
	if qw.core != "add" || qw.count != "3" || len(qw.quals) != 1 {
		t.Fatalf("three input add: core %q count %q, %d qualifiers", qw.core, qw.count, len(qw.quals))
	}
	for name, want := range map[string]int{"v_add3_u32": 1, "v_add_u32": 0, "v_max3_f32": 0} {
		if got := qw.satisfied(name); got != want {
			t.Errorf("three input add: %s carries %d, want %d", name, got, want)
		}
	}
	if qw.boost("v_add3_u32") <= qw.boost("v_add_u32") {
		t.Error("three input add: v_add3_u32 does not rank above v_add_u32")
	}
	if lone := readQuery("3"); lone.core != "3" || lone.count != "" {
		t.Errorf("a lone number: core %q count %q", lone.core, lone.count)
	}
	for q, names := range map[string]map[string]int{
		"dot 4-bit":       {"v_dot8_i32_i4": 1, "v_dot8_i32_iu4": 1, "v_dot4_i32_i8": 0},
		"mad 24-bit":      {"v_mad_u32_u24": 1, "v_mad_u64_u32": 0},
		"permlane 64-bit": {"v_permlane64_b32": 0, "v_lshlrev_b64": 1},
		"byte to float":   {"v_cvt_f32_ubyte0": 2, "v_cvt_f32_i32": 1},
	} {
		qw := readQuery(q)
		for name, want := range names {
			if got := qw.satisfied(name); got != want {
				t.Errorf("%q: %s carries %d, want %d", q, name, got, want)
			}
		}
	}
}

// A name part abbreviates a word by its letters in order, the first the
// same, two or more shorter; a name spelling every word of the query ranks
// above one spelling some.
func TestAbbreviations(t *testing.T) {
	for _, c := range []struct {
		part, word string
		want       bool
	}{
		{"sat", "saturate", true}, {"cmp", "compare", true}, {"pk", "packed", true}, {"execz", "execzero", true},
		{"mma", "mfma", false}, {"add", "add", false}, {"b32", "b32bit", false}, {"lo", "ol", false}, {"v", "vector", false},
	} {
		if got := abbreviates(c.part, c.word); got != c.want {
			t.Errorf("abbreviates(%s, %s) = %v", c.part, c.word, got)
		}
	}
	qw := readQuery("saturate pack")
	if qw.boost("v_sat_pk_u8_i16") <= qw.boost("v_med3_f32") {
		t.Error("saturate pack: v_sat_pk_u8_i16 does not rank above v_med3_f32")
	}
	for _, c := range []struct {
		part  string
		words []string
		want  bool
	}{
		{"permlane", []string{"permute", "lanes"}, true}, {"saveexec", []string{"save", "exec"}, true},
		{"wgmma", []string{"warpgroup", "mma"}, false}, // "w" is a letter, not a word's beginning
		{"permlane", []string{"lanes", "permute"}, false},
	} {
		if got := joinsPrefixes(c.part, c.words); got != c.want {
			t.Errorf("joinsPrefixes(%s, %q) = %v", c.part, c.words, got)
		}
	}
	pl := readQuery("permute lanes")
	if pl.boost("v_permlane16_b32") <= pl.boost("ds_permute_b32") {
		t.Error("permute lanes: v_permlane16_b32, which spells both words, does not rank above ds_permute_b32")
	}
	ex := readQuery("branch if exec zero")
	if ex.boost("s_cbranch_execz") <= ex.boost("s_cbranch_scc0") {
		t.Error("branch if exec zero: s_cbranch_execz does not rank above s_cbranch_scc0")
	}
}

// AMD's words are read as CUDA's for the synonym table, and only then.
func TestInCUDAWords(t *testing.T) {
	for q, want := range map[string]string{"wave reduce": "warp reduce", "Workgroup barrier": "block barrier", "warp shuffle": ""} {
		if got := inCUDAWords(q); got != want {
			t.Errorf("inCUDAWords(%q) = %q, want %q", q, got, want)
		}
	}
}

// A sentence's full stop is not part of its last word's token; dots
// inside a token stay.
func TestTokensDropEdgeDots(t *testing.T) {
	var got []string
	tokens("Invalidate the instruction cache. See ld.global.nc, 1.5 and .shared.", func(s string) { got = append(got, s) })
	want := []string{"invalidate", "the", "instruction", "cache", "see", "ld.global.nc", "1.5", "and", "shared"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens = %q, want %q", got, want)
	}
}

// A type on a memory instruction is its width (ds_store_b16 stores a
// half); a count of a type is the width they take together ("4 floats" is
// 128-bit); the small float formats are read inside f8f6f4.
func TestMemoryWidthsAndSmallFloats(t *testing.T) {
	for q, names := range map[string]map[string]int{
		"store half to shared":      {"ds_store_b16": 2, "ds_write_b16": 2, "ds_store_b32": 1, "v_add_f16": 1, "v_mov_b16": 0},
		"load 4 floats from global": {"global_load_b128": 2, "global_load_dwordx4": 2, "global_load_b32": 1},
		"load 8 halves from lds":    {"ds_load_b128": 2, "ds_read_b128": 2, "ds_load_u8": 1},
		"load double":               {"s_load_b64": 1, "global_load_dwordx2": 1, "v_lshlrev_b64": 0},
		"mfma fp4":                  {"v_mfma_f32_16x16x128_f8f6f4": 1, "v_mfma_f64_16x16x4_f64": 0, "v_mfma_f32_16x16x4_f32": 0},
		"mfma fp8":                  {"v_mfma_f32_16x16x128_f8f6f4": 1, "v_mfma_f32_16x16x32_fp8_fp8": 1, "v_mfma_f32_16x16x32_bf8_bf8": 0},
	} {
		qw := readQuery(q)
		for name, want := range names {
			if got := qw.satisfied(name); got != want {
				t.Errorf("%q: %s carries %d, want %d", q, name, got, want)
			}
		}
	}
}

// "lds" is the space of ds_ and the destination of the loads that write
// it; a special register's '%' is not part of its name's parts.
func TestLDSAndSpecialRegisterParts(t *testing.T) {
	qw := readQuery("global load lds")
	for name, want := range map[string]int{"global_load_lds_dword": 2, "global_load_b32": 1, "ds_load_b32": 1} {
		if got := qw.satisfied(name); got != want {
			t.Errorf("global load lds: %s carries %d, want %d", name, got, want)
		}
	}
	if got := nameParts("%lanemask_lt"); !slices.Equal(got, []string{"lanemask", "lt"}) {
		t.Errorf("nameParts(%%lanemask_lt) = %q", got)
	}
}

// A CUDA intrinsic's rounding suffix and unsigned "u" are other spellings
// of one intrinsic; a bare 64 beside an operation is a width; the type
// after "to" is the one a conversion makes, which AMD names first; a
// scalar memory instruction's space follows its s_.
func TestCUDASpellingsWidthsAndDirections(t *testing.T) {
	for q, want := range map[string][]string{
		"__fmul_rn": {"__fmul", "fmul"}, "__umul24": {"__mul24", "umul24"}, "__usad_sat": {"__usad", "__sad", "usad"},
		"__float2uint_rz": {"__float2uint", "float2uint"}, "__hneg": {"hneg", "neg half"},
		"__hmax2": {"hmax2", "max half packed", "max2 half"}, "__tanhf": {"tanhf", "tanh float"},
		"__dp2a_lo": {"__dp2a", "dp2a"}, "fmul_rn": nil, "__u": nil,
		"__vimax3_s32": {"__max3 signed 32-bit", "max3 signed 32-bit"}, "__vmaxu4": {"vmax4 unsigned", "vmaxu4"}, "__vcmpgtu2": {"vset2"},
	} {
		var got []string
		for _, r := range cudaReadings(q) {
			got = append(got, strings.Join(append([]string{r.text}, r.quals...), " "))
		}
		if !slices.Equal(got, want) {
			t.Errorf("cudaReadings(%s) = %q, want %q", q, got, want)
		}
	}
	lz := readQuery("lzcnt 64")
	if lz.core != "lzcnt" || lz.satisfied("s_flbit_i32_b64") != 1 || lz.satisfied("v_ffbh_u32") != 0 {
		t.Errorf("lzcnt 64: core %q, 64 not read as a width", lz.core)
	}
	if lone := readQuery("64"); lone.core != "64" {
		t.Errorf("a lone 64 is a word, got core %q", lone.core)
	}
	cv := readQuery("convert to unsigned int")
	if cv.boost("v_cvt_u32_f32") <= cv.boost("v_cvt_f32_u32") {
		t.Error("convert to unsigned int: v_cvt_u32_f32 (makes a u32) does not rank above v_cvt_f32_u32")
	}
	sb := readQuery("scalar buffer load")
	if sb.satisfied("s_buffer_load_dword") != 2 || sb.satisfied("s_load_dword") != 1 {
		t.Error("scalar buffer load: s_buffer_load_dword is not both scalar and a buffer's")
	}
}

// A conversion intrinsic's types are found wherever the "2" between them
// is; without a sibling carrying every qualifier, the one carrying the
// most is found (a packed half compare: the half compare).
func TestConversionTypesAndNearestSiblings(t *testing.T) {
	for name, want := range map[string][3]string{
		"half22float2": {"f16", "f32", "packed"}, "float22half2": {"f32", "f16", "packed"}, "bfloat162float": {"bf16", "f32", ""},
		"float2uint": {"f32", "u32", ""}, "floats2half2": {"f32", "f16", "packed"},
	} {
		if from, to, packed, ok := cudaConversionTypes(name); !ok || from != want[0] || to != want[1] || packed != (want[2] != "") {
			t.Errorf("cudaConversionTypes(%s) = %s %s %v %v, want %v", name, from, to, packed, ok, want)
		}
	}
	if _, _, _, ok := cudaConversionTypes("syncthreads"); ok {
		t.Error("syncthreads read as a conversion")
	}
	s := &DB{names: []string{"v_cmp_ge_f32", "v_cmp_ge_f16", "v_cmp_ge_i32"}}
	qw := readQuery("ge half packed")
	if got := s.siblings("v_cmp_ge_f32", &qw); !slices.Equal(got, []string{"v_cmp_ge_f16"}) {
		t.Errorf("siblings of v_cmp_ge_f32 for a packed half = %q, want the half compare", got)
	}
}

// A family that lacks a synonym table's name offers its own spelling of
// the operation (RDNA 3's v_dot8_i32_iu4 for v_dot8_i32_i4), the same
// unit's, never a variant that carries fewer of the query's qualifiers.
func TestStandIns(t *testing.T) {
	s := &DB{byName: map[string][]int{}}
	for _, e := range []struct{ arch, name string }{
		{"cdna3", "v_dot8_i32_i4"}, {"rdna3", "v_dot8_i32_iu4"}, {"rdna3", "v_dot8_u32_u4"}, {"rdna3", "s_dot8_x"},
	} {
		s.byName[e.name] = append(s.byName[e.name], len(s.entries))
		s.entries = append(s.entries, entry{Summary: isa.Summary{Arch: e.arch, Name: e.name}})
		s.names = append(s.names, e.name)
	}
	for q, want := range map[string][]string{
		"dot product int4": {"v_dot8_i32_iu4"},
		"dot product":      {"v_dot8_i32_iu4", "v_dot8_u32_u4"},
	} {
		qw := readQuery(q)
		if got := s.standIns("rdna3", "v_dot8_i32_i4", &qw); !slices.Equal(got, want) {
			t.Errorf("%q: stand-ins of v_dot8_i32_i4 on rdna3 = %q, want %q", q, got, want)
		}
	}
	if qw := readQuery("dot product"); s.standIns("", "v_dot8_i32_i4", &qw) != nil {
		t.Error("an unscoped search has stand-ins: every family's names are its own")
	}
}

// A bare number is a width or the number a name's word part ends in
// (permlane16), never a type's digits read as a word; "returning" asks for
// an atomic's _rtn variant.
func TestBareNumbersAndReturning(t *testing.T) {
	for _, c := range []struct {
		q, name string
		want    int
	}{
		{"permute lanes 16", "v_permlane16_b32", 1},
		{"permute lanes 16", "v_permlane64_b32", 0},
		{"load 128", "global_load_dwordx4", 1},
		{"lzcnt 64", "s_clz_i32_u64", 1},
		{"lds add returning old value", "ds_add_rtn_u32", 2},
		{"lds add returning old value", "ds_add_u32", 1},
	} {
		qw := readQuery(c.q)
		if got := qw.satisfied(c.name); got != c.want {
			t.Errorf("%q: %s carries %d qualifiers, want %d", c.q, c.name, got, c.want)
		}
	}
	if qw := readQuery("lds add returning old value"); qw.core != "add" {
		t.Errorf("core %q, want \"add\": \"old value\" is what returning says", qw.core)
	}
}

// A count follows the operation part the names write it after: the
// query's word, a part abbreviating it (min of "minimum") or the synonym
// table's for it (max of "largest"); a count of a type is a width only
// where the width is one, so three doubles keep their type.
func TestCountedOperations(t *testing.T) {
	s := &DB{names: []string{"v_add3_u32", "v_fma_f64", "v_max3_i32", "v_max_i32", "v_min3_f32", "v_min_f32"}}
	for q, c := range map[string]struct{ better, worse string }{
		"minimum of three floats":          {"v_min3_f32", "v_min_f32"},
		"largest of three signed integers": {"v_max3_i32", "v_max_i32"},
	} {
		qw := readQueryCounting(q, s.countedOps)
		if len(qw.countOps) == 0 || qw.boost(c.better) <= qw.boost(c.worse) {
			t.Errorf("%q: counted %q; %s does not rank above %s", q, qw.countOps, c.better, c.worse)
		}
	}
	qw := readQueryCounting("multiply-add of three doubles", s.countedOps)
	if qw.count != "" || qw.satisfied("v_fma_f64") != 1 {
		t.Errorf("multiply-add of three doubles: count %q, v_fma_f64 carries %d of its qualifiers", qw.count, qw.satisfied("v_fma_f64"))
	}
	if load := readQueryCounting("load 4 floats from global", s.countedOps); load.count != "" || load.satisfied("global_load_b128") != 2 {
		t.Errorf("load 4 floats: count %q, global_load_b128 carries %d", load.count, load.satisfied("global_load_b128"))
	}
}

// A dotted PTX member's own family answers the words it does not spell
// (tcgen05.commit for "commit tensor core operations").
func TestDottedSiblings(t *testing.T) {
	s := &DB{names: []string{"tcgen05.alloc", "tcgen05.commit", "tcgen05.fence", "tcgen05.mma", "wgmma.fence"}}
	qw := readQuery("commit tensor core operations")
	if got := s.dottedSiblings("tcgen05.mma", &qw); !slices.Equal(got, []string{"tcgen05.commit"}) {
		t.Errorf("dottedSiblings(tcgen05.mma) = %q, want [tcgen05.commit]", got)
	}
	if got := s.dottedSiblings("v_max_f32", &qw); got != nil {
		t.Errorf("an AMD name has no dotted family: %q", got)
	}
}

// A part abbreviates a run of two or three words when each word gives it
// its first letter: "vccnz" is "vcc not zero", and "wgmma" is "warpgroup
// mma" but not "wait warpgroup mma".
func TestAbbreviatedWordRuns(t *testing.T) {
	for _, c := range []struct {
		part  string
		words []string
		want  bool
	}{
		{"vccnz", []string{"vcc", "not", "zero"}, true}, {"execnz", []string{"exec", "not", "zero"}, true},
		{"wgmma", []string{"warpgroup", "mma"}, true}, {"wgmma", []string{"wait", "warpgroup", "mma"}, false},
		{"execz", []string{"exec", "zero"}, true}, {"lt", []string{"less", "than"}, true}, {"ne", []string{"not", "equal"}, true},
		{"wmma", []string{"wave", "mma"}, true}, {"sat", []string{"saturate", "pack"}, false},
	} {
		if got := abbreviatesWords(c.part, c.words); got != c.want {
			t.Errorf("abbreviatesWords(%s, %q) = %v, want %v", c.part, c.words, got, c.want)
		}
	}
	qw := readQuery("branch if vcc is not zero")
	if qw.boost("s_cbranch_vccnz") <= qw.boost("s_cbranch_vccz") {
		t.Error("branch if vcc is not zero: s_cbranch_vccnz does not rank above s_cbranch_vccz")
	}
}

// Memory's units are widths a count multiplies ("4 dwords" is 128 bits), a
// width's own words stay a width ("two 64-bit adds"), and a register file
// is its unit's registers ("two vgprs": the vector unit, "register").
func TestDwordCountsAndRegisterFiles(t *testing.T) {
	for q, names := range map[string]map[string]int{
		"buffer store 4 dwords":  {"buffer_store_dwordx4": 2, "buffer_store_b128": 2, "buffer_store_dword": 1},
		"load 2 qwords from lds": {"ds_read_b128": 2, "ds_load_b64": 1},
		"add two 64-bit":         {"v_add_u64": 1, "v_lshlrev_b64": 1, "global_load_b128": 0},
		"swap two vgprs":         {"v_swap_b32": 1, "global_atomic_swap_b32": 0, "ds_wrxchg_rtn_b32": 0},
	} {
		qw := readQuery(q)
		for name, want := range names {
			if got := qw.satisfied(name); got != want {
				t.Errorf("%q: %s carries %d, want %d", q, name, got, want)
			}
		}
	}
	if qw := readQuery("swap two vgprs"); qw.core != "swap register" {
		t.Errorf("swap two vgprs: core %q, want %q", qw.core, "swap register")
	}
	if qw := readQuery("read a value from another lane"); qw.core != "read from lane" {
		t.Errorf("read a value from another lane: core %q", qw.core)
	}
}
