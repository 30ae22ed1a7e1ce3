package llvmdoc

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestFixturePage(t *testing.T) {
	pages, err := ReadDir("testdata/html")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 || pages[0].GFX != "GFX77" {
		t.Fatalf("pages %+v", pages)
	}
	insts := pages[0].Instructions
	var names []string
	for _, s := range insts {
		names = append(names, s.Mnemonic+"/"+s.Section)
	}
	want := []string{"v_frob_b32/VOP9", "v_twiddle_b64/VOP9", "flat_swirl/FLAT9", "s_poke/FLAT9"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("rows %v, want %v", names, want)
	}
	frob := insts[0]
	if frob.Line != lineOf(t, pages[0].File, "v_frob_b32") {
		t.Errorf("line %d", frob.Line)
	}
	ops := frob.Operands
	if len(ops) != 3 || ops[0].Name != "vdst" || ops[0].Column != "DST" || !ops[0].IsDest() {
		t.Fatalf("operands %+v", ops)
	}
	if ops[1].Name != "src0" || ops[1].Kind != "src" || !reflect.DeepEqual(ops[1].Mods, []string{"m"}) || ops[1].Column != "SRC0" {
		t.Errorf("src0 %+v", ops[1])
	}
	if ops[2].Type != "b64" || ops[2].Dwords() != 2 || ops[2].Kind != "vsrc" {
		t.Errorf("vsrc1 %+v", ops[2])
	}
	if !reflect.DeepEqual(ops[1].Doc.Accepts, []string{"v", "s", "constant", "literal"}) || ops[1].Doc.Size != "1 dword" {
		t.Errorf("src doc %+v", ops[1].Doc)
	}
	if !reflect.DeepEqual(frob.Modifiers, []string{"clamp"}) || !reflect.DeepEqual(frob.ModifierIDs, []string{"clamp"}) {
		t.Errorf("modifiers %v %v", frob.Modifiers, frob.ModifierIDs)
	}
	swirl := insts[2]
	if !swirl.Operands[0].Optional || swirl.Operands[0].Type != "" {
		t.Errorf("opt tag %+v", swirl.Operands[0])
	}
	if !reflect.DeepEqual(swirl.ModifierIDs, []string{"flat-offset12", "dpp8-sel"}) {
		t.Errorf("modifier ids %v", swirl.ModifierIDs)
	}
	if d := insts[3].Operands[0].Doc; d == nil || d.Title != "hwreg" || d.Accepts != nil || !strings.Contains(d.Text, "Made-up register selector.") {
		t.Errorf("hwreg doc %+v", d)
	}
}

func lineOf(t *testing.T, path, needle string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.HasPrefix(sc.Text(), needle) {
			return n
		}
	}
	t.Fatalf("%s not in %s", needle, path)
	return 0
}

func TestBuildExampleFixture(t *testing.T) {
	pages, err := ReadDir("testdata/html")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"v_frob_b32 v1, v2, v[4:5]",
		"v_twiddle_b64 v[2:3], s[4:7]",
		"flat_swirl v1, v[2:3] dpp8:[0,1,2,3,4,5,6,7]",
		"s_poke hwreg(HW_REG_MODE)",
	}
	for i, s := range pages[0].Instructions {
		got, ok := BuildExample(s)
		if !ok || got != want[i] {
			t.Errorf("BuildExample(%s) = %q, %v; want %q", s.Mnemonic, got, ok, want[i])
		}
	}
	if _, ok := BuildExample(Syntax{}); ok {
		t.Error("empty syntax built an example")
	}
	unknown := Syntax{Mnemonic: "x_y", Operands: []Operand{{Name: "q", Kind: "mystery", Doc: &OperandDoc{Text: "no idea"}}}}
	if _, ok := BuildExample(unknown); ok {
		t.Error("operand of unknown kind should not build")
	}
}

func TestTypeDwords(t *testing.T) {
	for tag, want := range map[string]int{"b16": 1, "b32": 1, "f64": 2, "b64": 2, "b96": 3, "b128": 4, "f16x2": 1, "i8": 1, "opt": 0, "m": 0, "fx": 0, "b": 0, "bzz": 0} {
		if got := typeDwords(tag); got != want {
			t.Errorf("typeDwords(%q) = %d, want %d", tag, got, want)
		}
	}
}

func TestArchMaps(t *testing.T) {
	if got := PageArchs("GFX11"); !reflect.DeepEqual(got, []string{"rdna3", "rdna3.5"}) {
		t.Errorf("PageArchs(GFX11) = %v", got)
	}
	if got := PageArchs("gfx940"); !reflect.DeepEqual(got, []string{"cdna3", "cdna4"}) {
		t.Errorf("PageArchs(gfx940) = %v", got)
	}
	if PageArchs("GFX7") != nil {
		t.Error("GFX7 maps to no gpuisa architecture")
	}
	if got := PageTargets("GFX1011"); !reflect.DeepEqual(got, []string{"gfx1011", "gfx1012"}) {
		t.Errorf("PageTargets(GFX1011) = %v", got)
	}
	// A page's targets are its families' own (isa owns them).
	if got := PageTargets("GFX940"); !reflect.DeepEqual(got, []string{"gfx942", "gfx950"}) {
		t.Errorf("PageTargets(GFX940) = %v", got)
	}
}

func realPages(t testing.TB) []Page {
	t.Helper()
	dir := DocDir()
	if dir == "" {
		t.Skip("LLVM's AMDGPU syntax pages are not installed (apt-get install llvm-22-doc, or set GPUISA_LLVM_DOC)")
	}
	pages, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

func TestRealPages(t *testing.T) {
	pages := realPages(t)
	byGFX := map[string]Page{}
	for _, p := range pages {
		t.Logf("%-8s %5d instructions (%s)", p.GFX, len(p.Instructions), filepath.Base(p.File))
		if len(p.Instructions) == 0 {
			t.Errorf("%s: no instructions", p.GFX)
		}
		byGFX[p.GFX] = p
	}
	for _, gfx := range []string{"GFX9", "GFX90a", "GFX940", "GFX10", "GFX1030", "GFX11", "GFX12"} {
		if len(byGFX[gfx].Instructions) < 1000 {
			t.Errorf("%s: only %d instructions", gfx, len(byGFX[gfx].Instructions))
		}
	}
	find := func(gfx, mnemonic string) Syntax {
		for _, s := range byGFX[gfx].Instructions {
			if s.Mnemonic == mnemonic {
				return s
			}
		}
		t.Fatalf("%s: no %s", gfx, mnemonic)
		return Syntax{}
	}
	max := find("GFX11", "v_max_f32")
	var names, kinds []string
	for _, o := range max.Operands {
		names, kinds = append(names, o.Name), append(kinds, o.Kind)
	}
	if !reflect.DeepEqual(names, []string{"vdst", "src0", "vsrc1"}) || !reflect.DeepEqual(kinds, []string{"vdst", "src", "vsrc"}) {
		t.Errorf("GFX11 v_max_f32 operands %v kinds %v", names, kinds)
	}
	if acc := max.Operands[1].Doc.Accepts; !slices.Contains(acc, "v") || !slices.Contains(acc, "s") || !slices.Contains(acc, "literal") {
		t.Errorf("src0 accepts %v", acc)
	}
	gs := find("GFX11", "ds_add_gs_reg_rtn")
	if gs.Operands[0].Type != "b64" || gs.Operands[0].Dwords() != 2 {
		t.Errorf("ds_add_gs_reg_rtn vdst %+v", gs.Operands[0])
	}
	atomic := find("GFX11", "flat_atomic_add")
	if !atomic.Operands[0].Optional || !reflect.DeepEqual(atomic.Modifiers, []string{"offset12", "glc", "slc", "dlc"}) {
		t.Errorf("flat_atomic_add %+v", atomic)
	}
	e64 := find("GFX11", "v_max_f32_e64")
	if !reflect.DeepEqual(e64.Operands[1].Mods, []string{"m"}) || !slices.Contains(e64.Modifiers, "omod") {
		t.Errorf("v_max_f32_e64 %+v", e64)
	}
	if got, ok := BuildExample(max); !ok || got != "v_max_f32 v1, v2, v3" {
		t.Errorf("BuildExample(GFX11 v_max_f32) = %q", got)
	}
}

func BenchmarkReadDir(b *testing.B) {
	dir := DocDir()
	if dir == "" {
		b.Skip("LLVM's AMDGPU syntax pages are not installed")
	}
	for b.Loop() {
		if _, err := ReadDir(dir); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzParseSyntax(f *testing.F) {
	page, err := os.ReadFile("testdata/html/AMDGPU/AMDGPUAsmGFX77.html")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(page))
	f.Add("<pre class=\"literal-block\">INSTRUCTION DST\n—\nv_a <a href=\"x\">b</a>:c:d,, e</pre>")
	f.Add("<pre class=\"literal-block\">INSTRUCTION\n<h3>")
	f.Fuzz(func(t *testing.T, s string) {
		insts, err := ParseSyntax(strings.NewReader(s), "fuzz.html")
		if err != nil {
			return
		}
		for _, in := range insts {
			if in.Mnemonic == "" || in.Line < 1 {
				t.Fatalf("bad row %+v", in)
			}
			BuildExample(in)
		}
	})
}

func FuzzParseOperandDoc(f *testing.F) {
	page, err := os.ReadFile("testdata/html/AMDGPU/gfx77_src_bbbbbb.html")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(page))
	f.Add("<h1>x</h1><section><p>Size: 9999999999999 dwords</p></section></section>")
	f.Fuzz(func(t *testing.T, s string) {
		d := ParseOperandDoc(strings.NewReader(s))
		(Operand{Doc: d}).Dwords()
	})
}
