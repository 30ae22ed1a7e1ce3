package famdiff

import (
	"encoding/json"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

func field(name string, msb, lsb int) isa.Field { return isa.Field{Name: name, MSB: msb, LSB: lsb} }

// fixture: an older family with DS and VOP2, a newer one that renamed DS to
// VDS (and moved GDS out), changed one opcode, renamed two instructions
// (one through a rename link, one only through its identical encoding)
// and dropped and added one each.
func fixture() (*Family, *Family) {
	old := &Family{Arch: "rdna3", Name: "RDNA 3", Targets: []string{"gfx1100", "gfx1101"},
		Formats: []isa.Format{
			{Name: "VOP2", Width: 32, Fields: []isa.Field{field("OP", 30, 25), field("SRC0", 8, 0)}},
			{Name: "DS", Width: 64, Fields: []isa.Field{field("OP", 25, 18), field("GDS", 17, 17), field("ADDR", 39, 32)}},
		},
		Instructions: []Inst{
			{Name: "v_max_f32", Category: "Vector Arithmetic", Encodings: []Enc{{Name: "VOP2", Format: "VOP2", Width: 32, Opcode: 16}},
				Semantics: "D0.f = V_MAX_F32(S0.f, S1.f)", Operands: []Operand{{Name: "vdst", Output: true, DataFormat: "f32", Size: 32}},
				Related:   []isa.Related{{Arch: "rdna4", Name: "v_max_num_f32", Renamed: true, Evidence: "renamed in RDNA 4"}},
				Supported: []string{"gfx1100", "gfx1101"}, Verified: true},
			{Name: "v_add_f32", Category: "Vector Arithmetic", Encodings: []Enc{{Name: "VOP2", Format: "VOP2", Width: 32, Opcode: 3}},
				Semantics: "D0.f = S0.f + S1.f", Supported: []string{"gfx1100", "gfx1101"}, Verified: true},
			{Name: "ds_add_u32", Category: "LDS", Encodings: []Enc{{Name: "DS", Format: "DS", Width: 64, Opcode: 0}},
				Semantics: "MEM[ADDR].u += DATA.u", Supported: []string{"gfx1100", "gfx1101"}, Verified: true},
			{Name: "ds_sub_u32", Category: "LDS", Encodings: []Enc{{Name: "DS", Format: "DS", Width: 64, Opcode: 1}},
				Semantics: "MEM[ADDR].u -= DATA.u", Supported: []string{"gfx1100", "gfx1101"}, Verified: true},
			{Name: "ds_max_f32", Category: "LDS", Encodings: []Enc{{Name: "DS", Format: "DS", Width: 64, Opcode: 19}},
				Semantics: "tmp = MEM[ADDR].f; MEM[ADDR].f = max(tmp, DATA.f)", Supported: []string{"gfx1100", "gfx1101"}, Verified: true},
			{Name: "ds_gws_init", Category: "LDS", Encodings: []Enc{{Name: "DS", Format: "DS", Width: 64, Opcode: 25}},
				Supported: []string{"gfx1100", "gfx1101"}, Verified: true},
			// Shares its opcode with the newer family's unrelated addition.
			{Name: "ds_cmpswap_f32", Category: "LDS", Encodings: []Enc{{Name: "DS", Format: "DS", Width: 64, Opcode: 40}},
				Supported: []string{"gfx1100", "gfx1101"}, Verified: true},
		}}
	nu := &Family{Arch: "rdna4", Name: "RDNA 4", Targets: []string{"gfx1200", "gfx1201"},
		Formats: []isa.Format{
			{Name: "VOP2", Width: 32, Fields: []isa.Field{field("OP", 30, 25), field("SRC0", 8, 0)}},
			{Name: "VDS", Width: 64, Fields: []isa.Field{field("OP", 25, 18), field("ADDR", 39, 32)}},
		},
		Instructions: []Inst{
			{Name: "v_max_num_f32", Category: "Vector Arithmetic", Encodings: []Enc{{Name: "VOP2", Format: "VOP2", Width: 32, Opcode: 22}},
				Semantics: "D0.f32 = V_MAX_NUM_F32(S0.f32, S1.f32)", Operands: []Operand{{Name: "vdst", Output: true, DataFormat: "f32", Size: 32}},
				Aliases:   []isa.Alias{{Name: "v_max_f32", Note: "renamed in RDNA 4"}},
				Supported: []string{"gfx1200", "gfx1201"}, Verified: true},
			{Name: "v_add_f32", Category: "Vector Arithmetic", Encodings: []Enc{{Name: "VOP2", Format: "VOP2", Width: 32, Opcode: 3}},
				Semantics: "D0.f32 =\n   S0.f32 + S1.f32", Supported: []string{"gfx1201"}, Verified: true},
			{Name: "ds_add_u32", Category: "LDS", Encodings: []Enc{{Name: "VDS", Format: "VDS", Width: 64, Opcode: 0}},
				Semantics: "MEM[ADDR].u32 += DATA.u32", Supported: []string{"gfx1200", "gfx1201"}, Verified: true},
			{Name: "ds_sub_u32", Category: "LDS", Encodings: []Enc{{Name: "VDS", Format: "VDS", Width: 64, Opcode: 1}},
				Semantics: "MEM[ADDR].u32 -= DATA.u32 + 1", Supported: []string{"gfx1200", "gfx1201"}, Verified: true},
			{Name: "ds_max_num_f32", Category: "LDS", Encodings: []Enc{{Name: "VDS", Format: "VDS", Width: 64, Opcode: 19}},
				Supported: []string{"gfx1200", "gfx1201"}, Verified: true},
			{Name: "ds_cond_sub_u32", Category: "LDS", Encodings: []Enc{{Name: "VDS", Format: "VDS", Width: 64, Opcode: 40}},
				Supported: []string{"gfx1200", "gfx1201"}, Verified: true},
			{Name: "ds_bpermute_fi_b32", Category: "LDS", Encodings: []Enc{{Name: "VDS", Format: "VDS", Width: 64, Opcode: 205}},
				Supported: []string{"gfx1200", "gfx1201"}, Verified: true},
		}}
	return old, nu
}

func TestDiffFixture(t *testing.T) {
	old, nu := fixture()
	r := Diff(old, nu)
	renames := map[string]Rename{}
	for _, rn := range r.Renamed {
		renames[rn.From] = rn
	}
	rn, ok := renames["v_max_f32"]
	if !ok || rn.To != "v_max_num_f32" {
		t.Fatalf("v_max_f32 not renamed to v_max_num_f32: %+v", r.Renamed)
	}
	if rn.Evidence[0].Kind != EvidenceLink || rn.Evidence[1].Kind != EvidenceAlias {
		t.Errorf("v_max_f32 evidence = %+v, want the link, then the alias", rn.Evidence)
	}
	rn, ok = renames["ds_max_f32"]
	if !ok || rn.To != "ds_max_num_f32" || len(rn.Evidence) != 1 || rn.Evidence[0].Kind != EvidenceEncoding ||
		!strings.Contains(rn.Evidence[0].Text, "DS opcode 19") || !strings.Contains(rn.Evidence[0].Text, "VDS opcode 19") {
		t.Errorf("ds_max_f32 -> ds_max_num_f32 by its encoding: %+v", rn)
	}
	if _, ok := renames["ds_cmpswap_f32"]; ok {
		t.Errorf("ds_cmpswap_f32 renamed to %s on a shared opcode alone", renames["ds_cmpswap_f32"].To)
	}
	if len(r.Renamed) != 2 {
		t.Errorf("renamed = %+v, want 2", r.Renamed)
	}
	names := func(items []Item) string {
		var s []string
		for _, it := range items {
			s = append(s, it.Name)
		}
		return strings.Join(s, " ")
	}
	if got := names(r.Added); got != "ds_bpermute_fi_b32 ds_cond_sub_u32" {
		t.Errorf("added = %s", got)
	}
	if got := names(r.Removed); got != "ds_cmpswap_f32 ds_gws_init" {
		t.Errorf("removed = %s", got)
	}
	if r.Counts.Added != 2 || r.Counts.Removed != 2 || r.Counts.Renamed != 2 {
		t.Errorf("counts = %+v", r.Counts)
	}
	changed := map[string]Change{}
	for _, c := range r.Changed {
		changed[c.From] = c
	}
	// v_max_f32: opcode 16 -> 22; the pseudocode's own name and the
	// .f/.f32 spelling are not a change.
	c := changed["v_max_f32"]
	if len(c.Encodings) != 1 || c.Encodings[0] != (EncodingChange{Kind: ChangeOpcode, From: "VOP2 16", To: "VOP2 22"}) {
		t.Errorf("v_max_f32 encodings = %+v", c.Encodings)
	}
	if len(c.Semantics) != 0 {
		t.Errorf("v_max_f32 semantics differ: %+v", c.Semantics)
	}
	// v_add_f32: same text but whitespace and type width; only the
	// targets changed (all -> one of two).
	c = changed["v_add_f32"]
	if len(c.Semantics) != 0 || c.Targets == nil || strings.Join(c.Targets.To, ",") != "gfx1201" {
		t.Errorf("v_add_f32 change = %+v", c)
	}
	// ds_add_u32 moved DS -> VDS with its opcode: the format's change.
	if _, ok := changed["ds_add_u32"]; ok {
		t.Errorf("ds_add_u32 reported changed: %+v", changed["ds_add_u32"])
	}
	c = changed["ds_sub_u32"]
	var plus []string
	for _, w := range c.Semantics {
		if w.Op == "+" {
			plus = append(plus, w.Text)
		} else if w.Op == "-" {
			t.Errorf("ds_sub_u32 removed words %q", w.Text)
		}
	}
	if strings.Join(plus, "|") != "+ 1" {
		t.Errorf("ds_sub_u32 added words %q, want \"+ 1\"", plus)
	}
	var ds *FormatChange
	for i := range r.Formats {
		if r.Formats[i].From == "DS" {
			ds = &r.Formats[i]
		}
	}
	if ds == nil || ds.Kind != ChangeRenamed || ds.To != "VDS" || len(ds.Fields) != 1 || ds.Fields[0].Field != "GDS" || ds.Fields[0].Kind != ChangeRemoved {
		t.Errorf("DS -> VDS = %+v", ds)
	}
	if ds != nil && ds.Instructions != 3 {
		t.Errorf("DS -> VDS carries %d instructions (ds_add_u32, ds_sub_u32, ds_max_f32), want 3", ds.Instructions)
	}
	// The JSON contract: lists are [], never null.
	doc, _ := json.Marshal(Diff(&Family{Arch: "a"}, &Family{Arch: "b"}))
	if strings.Contains(string(doc), "null") {
		t.Errorf("empty diff has a null list: %s", doc)
	}
}

// The word diff's marks rebuild both texts, for random edits.
func TestWordDiffRebuilds(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	vocab := []string{"D0", "=", "S0.u", "S0.u32", "+", "S1", "(", ")", "if", "then", "tmp", ";"}
	for i := 0; i < 500; i++ {
		a := make([]string, rng.Intn(30))
		for j := range a {
			a[j] = vocab[rng.Intn(len(vocab))]
		}
		b := append([]string(nil), a...)
		for k := rng.Intn(6); k > 0; k-- {
			switch p := rng.Intn(len(b) + 1); rng.Intn(3) {
			case 0:
				b = append(b[:p], append([]string{vocab[rng.Intn(len(vocab))]}, b[p:]...)...)
			case 1:
				if p < len(b) {
					b = append(b[:p], b[p+1:]...)
				}
			default:
				if p < len(b) {
					b[p] = vocab[rng.Intn(len(vocab))]
				}
			}
		}
		var ra, rb []string
		for _, w := range wordDiff(a, b) {
			ts := strings.Split(w.Text, " ")
			if w.Op != "+" {
				ra = append(ra, ts...)
			}
			if w.Op != "-" {
				rb = append(rb, ts...)
			}
		}
		if !slices.Equal(keys(ra), keys(a)) || !slices.Equal(rb, b) {
			t.Fatalf("wordDiff(%q, %q) rebuilds %q and %q", a, b, ra, rb)
		}
	}
}

func TestTokens(t *testing.T) {
	got := strings.Join(tokens("D0.f32 = 32'F(S0.f) + MEM[ADDR].u;"), " | ")
	want := "D0.f32 | = | 32'F | ( | S0.f | ) | + | MEM | [ | ADDR | ] | .u | ;"
	if got != want {
		t.Errorf("tokens = %s, want %s", got, want)
	}
}

func ptxFixture() *PTX {
	return &PTX{
		Releases: []isa.PTXRelease{{Version: "7.0"}, {Version: "7.8", Targets: []string{"sm_89", "sm_90"}, Notes: []string{"Adds support for sm_90."}},
			{Version: "8.0", Targets: []string{"sm_90a"}, Notes: []string{"Adds wgmma."}}},
		Processors: []isa.Processor{{Target: "sm_80", PTXVersion: "7.0"}, {Target: "sm_89", PTXVersion: "7.8"},
			{Target: "sm_90", PTXVersion: "7.8"}, {Target: "sm_90a", PTXVersion: "8.0"}},
		Grid: []string{"sm_80", "sm_89", "sm_90", "sm_90a"},
		Instructions: []PTXInst{
			{Name: "max", Category: "Integer", Forms: []PTXForm{
				{Syntax: "max.s32 d, a, b;", PTXVersion: "1.0", Source: FromPTXAS, Supported: []string{"sm_80", "sm_89", "sm_90", "sm_90a"},
					Modifiers: []PTXModifier{{Modifier: ".relu", PTXVersion: "8.0", MinTarget: "sm_90"}}},
				{Syntax: "max.bf16 d, a, b;", PTXVersion: "7.8", MinTarget: "sm_90", Source: FromDocs},
			}},
			{Name: "wgmma.mma_async", Category: "Matrix", Forms: []PTXForm{
				{Syntax: "wgmma.mma_async ...;", PTXVersion: "8.0", MinTarget: "sm_90a", Source: FromPTXAS, Supported: []string{"sm_90a"}},
			}},
		},
	}
}

func TestPTXDiffs(t *testing.T) {
	p := ptxFixture()
	r, err := p.VersionDiff("ptx:7.8", "8.0")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range r.Added {
		got = append(got, it.Level+" "+it.Name+it.Modifier)
	}
	if strings.Join(got, ", ") != "modifier max.relu, instruction wgmma.mma_async" {
		t.Errorf("7.8 -> 8.0 added %s", strings.Join(got, ", "))
	}
	if len(r.Releases) != 1 || r.Releases[0].Version != "8.0" {
		t.Errorf("releases = %+v", r.Releases)
	}
	r, err = p.TargetDiff("sm_80", "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, it := range r.Added {
		got = append(got, it.Level+" "+it.Name+it.Modifier+" "+strings.Join(it.Targets, "/")+" "+it.Source)
	}
	want := "form max sm_90/sm_90a documentation, modifier max.relu sm_90/sm_90a ptxas, instruction wgmma.mma_async sm_90a ptxas"
	if strings.Join(got, ", ") != want {
		t.Errorf("sm_80 -> sm_90 added\n %s\nwant\n %s", strings.Join(got, ", "), want)
	}
	// Backwards, the same rows are removed.
	r, _ = p.TargetDiff("sm_90a", "sm_89")
	if r.Counts.Removed != 3 || r.Counts.Added != 0 {
		t.Errorf("sm_90a -> sm_89: %+v", r.Counts)
	}
	if _, err := p.TargetDiff("sm_80", "sm_99"); err == nil {
		t.Error("sm_99 accepted")
	}
}

func TestDocAllows(t *testing.T) {
	for _, c := range []struct {
		min, t string
		want   bool
	}{
		{"", "sm_50", true}, {"sm_80", "sm_90a", true}, {"sm_80", "sm_75", false},
		{"sm_90a", "sm_90a", true}, {"sm_90a", "sm_100a", false}, {"sm_90a", "sm_90", false},
		{"sm_100f", "sm_103f", true}, {"sm_100f", "sm_103a", true}, {"sm_100f", "sm_103", false}, {"sm_100f", "sm_120f", false},
	} {
		if got := DocAllows(c.min, c.t); got != c.want {
			t.Errorf("DocAllows(%q, %q) = %v", c.min, c.t, got)
		}
	}
}

func TestSpansAndLines(t *testing.T) {
	in := &isa.Instruction{Arch: "rdna3", Name: "v_max_f32", Related: []isa.Related{
		{Arch: "rdna1", Name: "v_max_f32"}, {Arch: "rdna4", Name: "v_max_num_f32", Renamed: true}, {Arch: "cdna3", Name: "v_max_f32"}}}
	sp := Spans(in)
	if len(sp) != 2 || sp[0].Line != "RDNA" || sp[0].First != "rdna1" || sp[0].Last != "rdna4" || sp[0].LastName != "v_max_num_f32" || !sp[0].StillNewest {
		t.Errorf("RDNA span = %+v", sp)
	}
	if len(sp) == 2 && (sp[1].First != "cdna3" || sp[1].StillNewest) {
		t.Errorf("CDNA span = %+v", sp[1])
	}
	if Previous("rdna4") != "rdna3.5" || Previous("cdna1") != "" || Next("vega") != "vega7" {
		t.Error("line order")
	}
}
