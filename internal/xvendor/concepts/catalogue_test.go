package concepts

import (
	"errors"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// fakeResolver answers from small literal tables.
type fakeResolver struct {
	amd map[string][]string // mnemonic -> archs
	ptx []string
}

func (f fakeResolver) HasAMD(arch, m string) bool {
	for _, a := range f.amd[m] {
		if a == arch {
			return true
		}
	}
	return false
}
func (f fakeResolver) AMDArchs(m string) []string { return f.amd[m] }
func (f fakeResolver) HasPTX(m string) bool {
	for _, p := range f.ptx {
		if p == m {
			return true
		}
	}
	return false
}
func (f fakeResolver) PTXMnemonics() []string { return f.ptx }

func smallResolver() fakeResolver {
	return fakeResolver{
		amd: map[string][]string{
			"v_wmax_f32":     {"cdna3", "rdna3"},
			"v_wmax_num_f32": {"rdna4"},
			"v_wmax_i32":     {"cdna3", "rdna3", "rdna4"},
			"v_wmax_f16":     {"cdna3"},
			"v_pk_wmax_f16":  {"cdna3", "rdna3"},
			"v_wload_b32":    {"cdna3", "rdna3", "rdna4"},
			"s_wwait":        {"cdna3", "rdna3", "rdna4"},
			"v_unrelated":    {"rdna4"},
		},
		ptx: []string{"wmax", "wcopy.async", "wfancy", "wnew"},
	}
}

func loadSmall(t *testing.T) *Catalogue {
	t.Helper()
	c, err := LoadDir("testdata/small")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestLoadDirSmall(t *testing.T) {
	c := loadSmall(t)
	if len(c.Concepts) != 2 || len(c.NoCounterpart) != 1 {
		t.Fatalf("got %d concepts, %d no-counterpart entries", len(c.Concepts), len(c.NoCounterpart))
	}
	k := c.Concept("widget-max")
	if k == nil {
		t.Fatal("widget-max not found")
	}
	// One YAML relation naming two AMD members expands to two pairs.
	if len(k.Relations) != 3 {
		t.Fatalf("widget-max has %d relations, want 3", len(k.Relations))
	}
	if k.Relations[1].AMD != "v_wmax_num_f32" || k.Relations[1].Kind != EquivalentWithRestrictions {
		t.Errorf("second relation = %+v", k.Relations[1])
	}
	if k.Pos.File == "" || k.Pos.Line != 3 {
		t.Errorf("concept position = %+v, want line 3", k.Pos)
	}
	if got := c.PTXMnemonics(); !reflect.DeepEqual(got, []string{"wcopy.async", "wfancy", "wmax"}) {
		t.Errorf("PTXMnemonics = %v", got)
	}
}

const goodConcept = `concepts:
  - id: ok
    name: Ok
    description: fine
    ptx: [{mnemonic: a}]
    amd: [{mnemonic: v_a}]
    relations:
      - {ptx: a, amd: v_a, relation: equivalent}
`

func TestLoadErrorsNameFileAndLine(t *testing.T) {
	cases := []struct {
		name, yaml, want string
	}{
		{"unknown field", "concepts:\n  - id: x\n    name: X\n    description: d\n    colour: red\n    ptx: [{mnemonic: a}]\n    amd: [{mnemonic: v_a}]\n    relations: [{ptx: a, amd: v_a, relation: equivalent}]\n",
			`f.yaml:5: concept: unknown field "colour"`},
		{"unknown relation", "concepts:\n  - id: x\n    name: X\n    description: d\n    ptx: [{mnemonic: a}]\n    amd: [{mnemonic: v_a}]\n    relations:\n      - {ptx: a, amd: v_a, relation: similar}\n",
			`f.yaml:8: unknown relation "similar"`},
		{"unknown arch", "concepts:\n  - id: x\n    name: X\n    description: d\n    ptx: [{mnemonic: a}]\n    amd:\n      - {mnemonic: v_a, families: [rdna9]}\n    relations: [{ptx: a, amd: v_a, relation: equivalent}]\n",
			`f.yaml:7: unknown arch id "rdna9"`},
		{"relation to unlisted member", "concepts:\n  - id: x\n    name: X\n    description: d\n    ptx: [{mnemonic: a}]\n    amd: [{mnemonic: v_a}]\n    relations:\n      - {ptx: a, amd: v_a, relation: equivalent}\n      - {ptx: a, amd: v_b, relation: partial}\n",
			`f.yaml:9: concept x: relation names amd "v_b", which is not an amd member`},
		{"missing relation", "concepts:\n  - id: x\n    name: X\n    description: d\n    ptx: [{mnemonic: a}, {mnemonic: b}]\n    amd: [{mnemonic: v_a}]\n    relations:\n      - {ptx: a, amd: v_a, relation: equivalent}\n",
			`f.yaml:2: concept x: missing relation for ptx "b" <-> amd "v_a"`},
		{"duplicate pair", "concepts:\n  - id: x\n    name: X\n    description: d\n    ptx: [{mnemonic: a}]\n    amd: [{mnemonic: v_a}]\n    relations:\n      - {ptx: a, amd: v_a, relation: equivalent}\n      - {ptx: a, amd: v_a, relation: partial}\n",
			`f.yaml:9: concept x: second relation for a <-> v_a on the same families and variants`},
		{"sequence without steps", "concepts:\n  - id: x\n    name: X\n    description: d\n    ptx: [{mnemonic: a}]\n    amd: [{mnemonic: v_a}]\n    relations:\n      - {ptx: a, amd: v_a, relation: sequence}\n",
			`f.yaml:8: concept x: a "sequence" relation needs a sequence`},
		{"restrictions missing", "concepts:\n  - id: x\n    name: X\n    description: d\n    ptx: [{mnemonic: a}]\n    amd: [{mnemonic: v_a}]\n    relations:\n      - {ptx: a, amd: v_a, relation: equivalent with restrictions}\n",
			`f.yaml:8: concept x: "equivalent with restrictions" needs restrictions`},
		{"bad id", strings.Replace(goodConcept, "id: ok", "id: Not_Kebab", 1),
			`f.yaml:2: concept id "Not_Kebab" is not kebab-case`},
		{"missing field", "concepts:\n  - id: x\n    name: X\n    ptx: [{mnemonic: a}]\n    amd: [{mnemonic: v_a}]\n    relations: [{ptx: a, amd: v_a, relation: equivalent}]\n",
			`f.yaml:2: concept: missing required field "description"`},
		{"upper-case amd", strings.Replace(strings.Replace(goodConcept, "v_a}]", "V_A}]", 1), "amd: v_a,", "amd: V_A,", 1),
			`f.yaml:6: amd mnemonic "V_A" must be lower case`},
		{"malformed yaml", "concepts:\n  - id: [unclosed\n",
			`f.yaml:`},
		{"both concept and no counterpart", goodConcept + "no_counterpart:\n  - {mnemonic: a, reason: none}\n",
			`f.yaml:10: "a" is said to have no counterpart but is a member of a concept at f.yaml:5`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadFiles(map[string][]byte{"f.yaml": []byte(tc.yaml)})
			if err == nil {
				t.Fatalf("no error; want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%v\ndoes not contain\n%s", err, tc.want)
			}
		})
	}
}

func TestDuplicateIDsAcrossFiles(t *testing.T) {
	_, err := LoadFiles(map[string][]byte{"a.yaml": []byte(goodConcept), "b.yaml": []byte(goodConcept)})
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("error %v is not Errors", err)
	}
	if len(es) != 1 || !strings.Contains(es[0].Error(), `b.yaml:2: duplicate concept id "ok" (first at a.yaml:2)`) {
		t.Errorf("errors = %v", es)
	}
}

func TestValidate(t *testing.T) {
	c := loadSmall(t)
	if errs := Validate(c, smallResolver()); !reflect.DeepEqual(kinds(errs), []string{KindUncoveredPTX}) || !strings.Contains(errs[0].Msg, `"wnew"`) {
		t.Errorf("Validate = %v, want only wnew uncovered", errs)
	}
	r := smallResolver()
	delete(r.amd, "v_wmax_i32")
	r.amd["v_wmax_num_f32"] = []string{"cdna5"}
	delete(r.amd, "s_wwait")
	r.ptx = []string{"wmax", "wcopy.async"}
	errs := Validate(c, r)
	got := kinds(errs)
	// s_wwait's removal also leaves the sequence step undoable on each of
	// the three families where the relation applies.
	want := []string{KindDanglingAMD, KindDanglingAMD, KindDanglingPTX, KindFamilyMismatch, KindStepMissing, KindStepMissing, KindStepMissing}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("kinds = %v, want %v\n%v", got, want, errs)
	}
	for _, e := range errs {
		if e.Pos.Line == 0 {
			t.Errorf("finding without a line: %v", e)
		}
	}
}

func kinds(errs []Error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Kind)
	}
	sort.Strings(out)
	return out
}

func TestForPTXAndForAMD(t *testing.T) {
	c := loadSmall(t)
	ms := c.ForPTX("wmax")
	if len(ms) != 1 || ms[0].Concept.ID != "widget-max" || len(ms[0].Relations) != 3 || len(ms[0].Others) != 3 {
		t.Fatalf("ForPTX(wmax) = %+v", ms)
	}
	if got := c.ForAMD("rdna4", "v_wmax_f32"); len(got) != 0 {
		t.Errorf("ForAMD(rdna4, v_wmax_f32) = %+v, want none (member lists cdna3 rdna3)", got)
	}
	got := c.ForAMD("cdna3", "v_wmax_f32")
	if len(got) != 1 || got[0].Relations[0].PTX != "wmax" || got[0].Others[0].Mnemonic != "wmax" {
		t.Errorf("ForAMD(cdna3, v_wmax_f32) = %+v", got)
	}
	if got := c.ForAMD("", "v_wmax_i32"); len(got) != 1 {
		t.Errorf("ForAMD(any, v_wmax_i32) = %+v", got)
	}
	if got := c.ForPTX("nothing"); got != nil {
		t.Errorf("ForPTX(nothing) = %+v", got)
	}
}

func TestSuggest(t *testing.T) {
	c := loadSmall(t)
	r := smallResolver()
	amd := map[string][]string{}
	for m, archs := range r.amd {
		for _, a := range archs {
			amd[a] = append(amd[a], m)
		}
	}
	s := Suggest(c, r, amd, nil)
	var cands []string
	for _, cd := range s.Candidates {
		cands = append(cands, cd.ConceptID+":"+cd.Mnemonic+"<-"+cd.From)
	}
	sort.Strings(cands)
	want := []string{"widget-max:v_pk_wmax_f16<-v_wmax_f32", "widget-max:v_wmax_f16<-v_wmax_f32"}
	if !reflect.DeepEqual(cands, want) {
		t.Errorf("candidates = %v, want %v", cands, want)
	}
	if !reflect.DeepEqual(s.UncoveredPTX, []string{"wnew"}) {
		t.Errorf("UncoveredPTX = %v", s.UncoveredPTX)
	}
	var unc []string
	for _, u := range s.UncoveredAMD {
		unc = append(unc, u.Mnemonic)
	}
	if !reflect.DeepEqual(unc, []string{"s_wwait", "v_pk_wmax_f16", "v_unrelated", "v_wmax_f16"}) {
		t.Errorf("UncoveredAMD = %v", unc)
	}
}

func TestNameVariants(t *testing.T) {
	v := nameVariants("v_max_f32")
	for _, want := range []string{"v_max_f16", "v_max_f64", "v_pk_max_f16", "s_max_f32", "v_max_num_f32"} {
		if !slices.Contains(v, want) {
			t.Errorf("nameVariants(v_max_f32) lacks %s", want)
		}
	}
	if !slices.Contains(nameVariants("v_max_num_f32"), "v_max_f32") {
		t.Error("nameVariants(v_max_num_f32) lacks v_max_f32")
	}
	if slices.Contains(v, "v_max_f32") {
		t.Error("nameVariants returns its input")
	}
	// Swapping float for integer types names a different operation.
	if slices.Contains(v, "v_max_i32") {
		t.Error("nameVariants(v_max_f32) proposes v_max_i32")
	}
	if !slices.Contains(nameVariants("v_max_u32"), "v_max_i32") {
		t.Error("nameVariants(v_max_u32) lacks v_max_i32")
	}
}
