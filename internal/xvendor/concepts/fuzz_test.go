package concepts

import (
	"strings"
	"testing"
)

// FuzzParseInstruction feeds arbitrary lines to the PTX line splitter and the
// porting lookup; neither may panic.
func FuzzParseInstruction(f *testing.F) {
	for _, s := range []string{
		"max.f32 %f1, %f2, %f3;", "@!%p1 bra $L;", "$L: ret;", "/* x */ ld.shared.v4.f32 {%f1}, [%r1];",
		"cp.async.bulk.tensor.2d.shared::cluster.global [%r1];", "mov.u32 %r1, %tid.x;", "@", ".reg .b32 %r;", "a..b. ;",
	} {
		f.Add(s)
	}
	c, err := LoadDir(catalogueDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		ins, ok := ParseInstruction(line)
		if ok && ins.Opcode == "" {
			t.Errorf("%q parsed with an empty opcode", line)
		}
		for _, arch := range []string{"", "cdna3", "rdna4", "bogus"} {
			Port(c, line, Target{Arch: arch})
		}
		if _, err := PortReader(c, strings.NewReader(line), Target{Arch: "rdna3"}); err != nil && len(line) < 1<<20 {
			t.Errorf("PortReader(%q): %v", line, err)
		}
	})
}

// FuzzLoadFiles feeds arbitrary YAML to the catalogue loader; it must return
// a catalogue or an error, never panic.
func FuzzLoadFiles(f *testing.F) {
	f.Add([]byte(goodConcept))
	f.Add([]byte("no_counterpart:\n  - {mnemonic: x, reason: y}\n"))
	f.Add([]byte("concepts: &a [*a]\n"))
	f.Add([]byte("concepts:\n  - id: x\n    relations: [{ptx: [a, b], amd: {}}]\n"))
	f.Add([]byte(`concepts:
  - id: x
    name: X
    description: d
    ptx: [{mnemonic: a, variants: [.f32], except: [.NaN]}]
    amd: [{mnemonic: v_a_f32, families: [rdna3, rdna4]}]
    relations:
      - {ptx: a, amd: v_a_f32, relation: sequence, families: [rdna4], requires: [.global], sequence: [["v_a_f32 v0, vcc", "v_a_f32 v0, vcc_lo"], "(remark)"]}
      - {ptx: a, amd: v_a_f32, relation: equivalent with restrictions, families: [rdna3], forms: ["v_a_f32_e64 v0, v1 // f"], restrictions: [r]}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := LoadFiles(map[string][]byte{"f.yaml": data})
		if err == nil && c == nil {
			t.Error("nil catalogue without an error")
		}
		if err == nil {
			Validate(c, fakeResolver{})
			c.ForPTX("a")
			c.ForAMD("cdna3", "v_a")
			v := NewVerdictTable("test", []string{"gfx1100"})
			for _, l := range ProposedLines(c) {
				v.SetLine(l, "gfx1100", "")
			}
			Port(c, "a.global.f32 d, a;", Target{Arch: "rdna4", GFX: []string{"gfx1200"}, Verdicts: v})
			Port(c, "a.f32 d, a;", Target{Arch: "rdna3", GFX: []string{"gfx1100"}, Verdicts: v})
		}
	})
}

func BenchmarkLoadDir(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := LoadDir(catalogueDir()); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPort(b *testing.B) {
	c := loadProject(b)
	lines := []string{
		"max.f32 %f3, %f1, %f2;", "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r1];",
		"@%p1 bra $L_inner;", "cvt.rn.f16.f32 %rs1, %f1;", "mov.u32 %r1, %laneid;",
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Port(c, lines[i%len(lines)], Target{Arch: "rdna4"})
	}
}

func BenchmarkPortFile(b *testing.B) {
	c := loadProject(b)
	for i := 0; i < b.N; i++ {
		if _, err := PortFile(c, "testdata/kernels/tiled_matmul.ptx", Target{Arch: "cdna3"}); err != nil {
			b.Fatal(err)
		}
	}
}
