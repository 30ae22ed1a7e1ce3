package amdgpuusage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
)

// A fixture in the document's layout, written for this test.
const headerFixture = `
  .. table:: AMDGPU ELF Header ` + "``e_flags``" + ` for Code Object V4 and V5
     :name: amdgpu-elf-header-e_flags-table-v4-v5

     ============================================ ===== ===================================
     Name                                         Value      Description
     ============================================ ===== ===================================
     ` + "``EF_AMDGPU_MACH``" + `                           0x0ff AMDGPU processor selection
                                                        mask for
     ` + "``EF_AMDGPU_FEATURE_XNACK_V4``" + `               0x300 XNACK selection mask for
     ` + "``EF_AMDGPU_FEATURE_XNACK_ON_V4``" + `            0x300 XNACK enabled.
     ============================================ ===== ===================================

  .. table:: AMDGPU ` + "``EF_AMDGPU_MACH``" + ` Values
     :name: amdgpu-ef-amdgpu-mach-table

     ========================================== ========== =============================
     Name                                       Value      Description (see
                                                           :ref:` + "`amdgpu-processor-table`" + `)
     ========================================== ========== =============================
     ` + "``EF_AMDGPU_MACH_NONE``" + `                    0x000      *not specified*
     ` + "``EF_AMDGPU_MACH_AMDGCN_GFX942``" + `           0x04c      ` + "``gfx942``" + `
     *reserved*                                 0x04d      Reserved.
     ` + "``EF_AMDGPU_MACH_AMDGCN_GFX1152``" + `          0x055      ` + "``gfx1152``" + `.
     ` + "``EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC``" + `    0x054      ` + "``gfx11-generic``" + `
     ========================================== ========== =============================
`

func TestParseHeaderFixture(t *testing.T) {
	h, err := ParseHeader([]byte(headerFixture))
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint32]string{0x4c: "gfx942", 0x55: "gfx1152", 0x54: "gfx11-generic"}
	if len(h.Machines) != len(want) {
		t.Fatalf("machines %+v, want %v", h.Machines, want)
	}
	for _, m := range h.Machines {
		if want[m.Value] != m.Target {
			t.Errorf("%s 0x%x -> %s, want %s", m.Name, m.Value, m.Target, want[m.Value])
		}
	}
	if len(h.Flags) != 3 || h.Flags[2].Name != "EF_AMDGPU_FEATURE_XNACK_ON_V4" || h.Flags[2].Value != 0x300 {
		t.Errorf("flags %+v", h.Flags)
	}
	if _, err := ParseHeader([]byte("no tables here")); err == nil {
		t.Error("a document without the table parsed")
	}
}

// TestReadHeaderInstalled reads the installed document: every gfx target
// LLVM's syntax pages map to a gpuisa family has a machine value, and the
// values are the ones code objects carry (gfx942 0x04c, gfx1100 0x041).
func TestReadHeaderInstalled(t *testing.T) {
	dir := llvmdoc.DocDir()
	if dir == "" {
		t.Skip("llvm-22-doc not installed (apt-get install llvm-22-doc, or set GPUISA_LLVM_DOC)")
	}
	if _, err := os.Stat(filepath.Join(dir, UsageFile)); err != nil {
		t.Skipf("%s: %v", UsageFile, err)
	}
	h, err := ReadHeader(dir)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]uint32{}
	for _, m := range h.Machines {
		by[m.Target] = m.Value
	}
	for _, a := range isa.Archs() {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		for _, tg := range a.Targets {
			if _, ok := by[tg]; !ok {
				t.Errorf("%s has no EF_AMDGPU_MACH value in %s", tg, h.File)
			}
		}
	}
	if by["gfx942"] != 0x4c || by["gfx1100"] != 0x41 || by["gfx950"] != 0x4f {
		t.Errorf("gfx942 0x%x gfx1100 0x%x gfx950 0x%x", by["gfx942"], by["gfx1100"], by["gfx950"])
	}
	names := map[string]bool{}
	for _, f := range h.Flags {
		names[f.Name] = true
	}
	for _, n := range []string{"EF_AMDGPU_MACH", "EF_AMDGPU_FEATURE_XNACK_V4", "EF_AMDGPU_FEATURE_SRAMECC_V4"} {
		if !names[n] {
			t.Errorf("e_flags table has no %s", n)
		}
	}
}

func FuzzParseHeader(f *testing.F) {
	f.Add([]byte(headerFixture))
	f.Add([]byte(":name: amdgpu-ef-amdgpu-mach-table\n== ==\n== ==\n``X`` 0x1 ``gfx1``\n== =="))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ParseHeader(b)
		if err == nil && len(h.Machines) == 0 {
			t.Error("no error and no machines")
		}
	})
}
