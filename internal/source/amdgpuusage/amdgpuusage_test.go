package amdgpuusage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is a cut-down processor table and generic table in the
// document's layout, written for this test.
const fixture = `Processors
----------

  .. table:: AMDGPU Processors
     :name: amdgpu-processor-table

     =========== =============== ============ ===== ================= =============== =============== ======================
     Processor   Alternative     Target       dGPU/ Target            Target          OS Support      Example
                 Processor       Triple       APU   Features          Properties                      Products
     =========== =============== ============ ===== ================= =============== =============== ======================
     **GCN GFX8 (Volcanic Islands (VI))** [AMD-GCN-GFX8]_
     -----------------------------------------------------------------------------------------------------------------------
     ` + "``gfx803``" + `  - ` + "``fiji``" + `      ` + "``amdgcn``" + `   dGPU                                    - *rocm-amdhsa* - Radeon R9 Nano
                                                                                                      - Radeon Instinct MI8
     \           - ` + "``polaris10``" + ` ` + "``amdgcn``" + `   dGPU                    - Offset        - *rocm-amdhsa* - Radeon RX 480
     **GCN GFX9 (Vega)** [AMD-GCN-GFX900-GFX904-VEGA]_
     -----------------------------------------------------------------------------------------------------------------------
     ` + "``gfx900``" + `                  ` + "``amdgcn``" + `   dGPU  - xnack           - Absolute      - *rocm-amdhsa* - Radeon Vega
                                                                        flat          - *pal-amdhsa*    Frontier Edition
     ` + "``gfx950``" + `                  ` + "``amdgcn``" + `   dGPU  - sramecc         - Architected                   *TBA*
                                                                                                      .. TODO::

                                                                                                        Add product
                                                                                                        names.
     =========== =============== ============ ===== ================= =============== =============== ======================

  .. table:: AMDGPU Generic Processors
     :name: amdgpu-generic-processor-table

     ==================== ============== ================= ================== ================= =================================
     Processor             Target        Supported         Target Features    Target Properties Target Restrictions
                           Triple        Processors        Supported

     ==================== ============== ================= ================== ================= =================================
     ` + "``gfx9-generic``" + `     ` + "``amdgcn``" + `     - ` + "``gfx900``" + `      - xnack            - Absolute flat   - ` + "``v_mad_mix``" + ` instructions
                                         - ` + "``gfx906``" + `                                             are not available on ` + "``gfx900``" + `
                                                                                                - The following instructions
                                                                                                  are not available on ` + "``gfx906``" + `:

                                                                                                  - ` + "``v_fmac_f32``" + `
                                                                                                  - ` + "``v_xnor_b32``" + `

     ` + "``gfx12-generic``" + `    ` + "``amdgcn``" + `     - ` + "``gfx1200``" + `     - cumode           - Architected     No restrictions.
     ==================== ============== ================= ================== ================= =================================
`

func TestParseFixture(t *testing.T) {
	procs, gens, err := Parse([]byte(fixture))
	if err != nil {
		t.Fatal(err)
	}
	if len(procs) != 3 {
		t.Fatalf("processors = %+v", procs)
	}
	p := procs[0]
	if p.Name != "gfx803" || strings.Join(p.Alternatives, ",") != "fiji,polaris10" ||
		strings.Join(p.Products, "|") != "Radeon R9 Nano|Radeon Instinct MI8|Radeon RX 480" || p.Generation != "GCN GFX8 (Volcanic Islands (VI))" {
		t.Errorf("gfx803 = %+v", p)
	}
	if p := procs[1]; p.Name != "gfx900" || strings.Join(p.Products, "|") != "Radeon Vega Frontier Edition" || strings.Join(p.Features, ",") != "xnack" || p.Kind != "dGPU" {
		t.Errorf("gfx900 = %+v", p)
	}
	if p := procs[2]; p.Name != "gfx950" || len(p.Products) != 0 {
		t.Errorf("gfx950 (TBA) = %+v", p)
	}
	if len(gens) != 2 {
		t.Fatalf("generic = %+v", gens)
	}
	g := gens[0]
	if g.Name != "gfx9-generic" || strings.Join(g.Members, ",") != "gfx900,gfx906" || len(g.Restrictions) != 2 ||
		g.Restrictions[1] != "The following instructions are not available on gfx906: v_fmac_f32, v_xnor_b32" ||
		strings.Join(g.Excluded["gfx906"], ",") != "v_fmac_f32,v_xnor_b32" || strings.Join(g.Excluded["gfx900"], ",") != "v_mad_mix" {
		t.Errorf("gfx9-generic = %+v", g)
	}
	if g := gens[1]; g.Name != "gfx12-generic" || len(g.Restrictions) != 0 {
		t.Errorf("gfx12-generic = %+v", g)
	}
}

// The installed document: every gfx target gpuisa knows is in it, with the
// products the issue names.
func TestReadInstalled(t *testing.T) {
	var dir string
	for _, d := range []string{os.Getenv("GPUISA_LLVM_DOC"), "/usr/share/doc/llvm-22-doc/html"} {
		if d != "" {
			if _, err := os.Stat(filepath.Join(d, File)); err == nil {
				dir = d
				break
			}
		}
	}
	if dir == "" {
		t.Skip("LLVM's AMDGPUUsage is not installed (apt-get install llvm-22-doc, or set GPUISA_LLVM_DOC)")
	}
	procs, gens, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]Processor{}
	for _, p := range procs {
		by[p.Name] = p
	}
	for name, want := range map[string]string{"gfx942": "AMD Instinct MI300X", "gfx1100": "Radeon RX 7900 XTX", "gfx90a": "AMD Instinct MI250X Accelerator", "gfx1201": "Radeon RX 9070 XT"} {
		if !strings.Contains(strings.Join(by[name].Products, "|"), want) {
			t.Errorf("%s products = %q, want %s", name, by[name].Products, want)
		}
	}
	if len(procs) < 60 {
		t.Errorf("%d processors", len(procs))
	}
	gen := map[string]Generic{}
	for _, g := range gens {
		gen[g.Name] = g
	}
	if g := gen["gfx11-generic"]; len(g.Members) != 8 || len(g.Restrictions) < 3 {
		t.Errorf("gfx11-generic = %+v", g)
	}
	if g := gen["gfx9-4-generic"]; strings.Join(g.Members, ",") != "gfx942,gfx950" || len(g.Restrictions) != 1 {
		t.Errorf("gfx9-4-generic = %+v", g)
	}
	if g := gen["gfx9-generic"]; len(g.Excluded["gfx906"]) < 5 {
		t.Errorf("gfx9-generic excluded = %v", g.Excluded)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(fixture))
	f.Add([]byte(":name: amdgpu-processor-table\n== ==\n== ==\n\\ x\n== ==\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = Parse(data)
	})
}
