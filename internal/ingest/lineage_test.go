package ingest

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestRenamesLinkedAcrossGenerations: the three renames are one
// lineage each — Related, the opcodes map and the target grid follow the
// other spelling, with llvm-mc's evidence — and no lineage holds two
// instructions of one family.
func TestRenamesLinkedAcrossGenerations(t *testing.T) {
	m := verified(t)
	for _, c := range []struct{ arch, name, otherArch, otherName, otherTarget string }{
		{"cdna2", "v_mfma_f32_32x32x8f16", "cdna3", "v_mfma_f32_32x32x8_f16", "gfx942"},
		{"cdna3", "v_mfma_f32_32x32x8_f16", "cdna1", "v_mfma_f32_32x32x8f16", "gfx908"},
		{"rdna2", "buffer_atomic_umax_x2", "rdna3", "buffer_atomic_max_u64", "gfx1100"},
		{"rdna3", "buffer_atomic_max_u64", "rdna2", "buffer_atomic_umax_x2", "gfx1030"},
		{"rdna3", "v_max_f32", "rdna4", "v_max_num_f32", "gfx1200"},
	} {
		in := find(m.insts, c.arch, c.name)
		if in == nil {
			t.Errorf("%s %s missing", c.arch, c.name)
			continue
		}
		var rel *isa.Related
		for i := range in.Related {
			if in.Related[i].Arch == c.otherArch {
				rel = &in.Related[i]
			}
		}
		if rel == nil || rel.Name != c.otherName || !rel.Renamed || rel.Evidence == "" {
			t.Errorf("%s %s: related in %s = %+v, want the rename %s with its evidence", c.arch, c.name, c.otherArch, rel, c.otherName)
		}
		if _, ok := in.Opcodes[c.otherArch]; !ok {
			t.Errorf("%s %s: opcodes map lacks %s: %v", c.arch, c.name, c.otherArch, in.Opcodes)
		}
		if in.Targets[c.otherTarget] == "supported" {
			continue // llvm-mc accepts the old spelling there too
		}
		marked := false
		for _, d := range in.TargetDetails {
			marked = marked || d.Target == c.otherTarget && d.OtherSpelling == c.otherName && d.Encoding != ""
		}
		if !marked {
			t.Errorf("%s %s on %s: the grid does not show the other spelling %s", c.arch, c.name, c.otherTarget, c.otherName)
		}
	}
	if rel := find(m.insts, "rdna2", "buffer_atomic_umax_x2").Related; !strings.Contains(evidenceFor(rel, "rdna3"), "llvm-mc") {
		t.Errorf("rdna2 buffer_atomic_umax_x2: evidence %q does not cite llvm-mc", evidenceFor(rel, "rdna3"))
	}
	// llvm-mc maps CDNA 1's v_mfma_f32_32x32x4bf16 onto CDNA 3's
	// v_mfma_f32_32x32x4_2b_bf16 too, but that is CDNA 2's _1k
	// instruction's successor (its operands): one link wins.
	if got := find(m.insts, "cdna2", "v_mfma_f32_32x32x4bf16_1k"); got == nil || relatedName(got.Related, "cdna3") != "v_mfma_f32_32x32x4_2b_bf16" {
		t.Errorf("cdna2 v_mfma_f32_32x32x4bf16_1k is not linked to cdna3 v_mfma_f32_32x32x4_2b_bf16")
	}
	if got := find(m.insts, "cdna1", "v_mfma_f32_32x32x4bf16"); got == nil || relatedName(got.Related, "cdna3") != "" {
		t.Errorf("cdna1 v_mfma_f32_32x32x4bf16 is linked into CDNA 3")
	}
	// One lineage, one instruction per family.
	for _, in := range m.insts {
		seen := map[string]bool{in.Arch: true}
		for _, r := range in.Related {
			if seen[r.Arch] {
				t.Errorf("%s %s: two related instructions in %s", in.Arch, in.Name, r.Arch)
			}
			seen[r.Arch] = true
		}
	}
	// Linked by name alone, 767 RDNA 1-2 instructions had no RDNA 3
	// opcode (the memory instructions RDNA 3 renamed); 91 do now.
	missing := 0
	for _, in := range m.insts {
		if in.Arch != "rdna1" && in.Arch != "rdna2" {
			continue
		}
		if _, ok := in.Opcodes["rdna3"]; !ok {
			missing++
		}
	}
	if missing > 250 {
		t.Errorf("%d RDNA 1-2 instructions have no RDNA 3 opcode", missing)
	}
	t.Logf("%d RDNA 1-2 instructions have no RDNA 3 opcode; %d links, %d refused, %d grid cells in another spelling",
		missing, m.res.Report.Lineage.Links, m.res.Report.Lineage.Refused, m.res.Report.Lineage.OtherSpellings)
}

func relatedName(rel []isa.Related, arch string) string {
	for _, r := range rel {
		if r.Arch == arch {
			return r.Name
		}
	}
	return ""
}

func evidenceFor(rel []isa.Related, arch string) string {
	for _, r := range rel {
		if r.Arch == arch {
			return r.Evidence
		}
	}
	return ""
}
