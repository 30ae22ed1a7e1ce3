package isa

// InstinctProduct is an AMD Instinct product's published compute: its
// compute units, peak engine clock and dense (no sparsity) peak matrix
// rate per data type, as AMD's product pages and datasheets state them.
// The cost pages hold the rate the scheduling model implies (CUs × clock
// × work per cycle per CU of the fastest instruction of the type) against
// these.
type InstinctProduct struct {
	Name    string // "AMD Instinct MI300X"
	Target  string // the gfx target it runs: "gfx942"
	CUs     int
	PeakMHz int
	// Peaks are the dense peak matrix rates, TFLOPS (TOPS for integer
	// types), per data type; a type the product has no figure for (MI100
	// FP64 matrix, MI350 TF32) is absent.
	Peaks map[DType]float64
	// Source is the AMD page the figures are from; Corroborated a public
	// page quoting the same figures, found when the table was written.
	Source, Corroborated string
}

// InstinctProducts are the Instinct products with public peak figures,
// oldest first. The figures are AMD's (TFLOPS as printed, one decimal).
var InstinctProducts = []InstinctProduct{
	{Name: "AMD Instinct MI100", Target: "gfx908", CUs: 120, PeakMHz: 1502,
		Peaks:        map[DType]float64{DTypeFP32: 46.1, DTypeFP16: 184.6, DTypeBF16: 92.3, DTypeINT8: 184.6},
		Source:       "https://www.amd.com/en/products/accelerators/instinct/mi100.html",
		Corroborated: "https://www.notebookcheck.net/AMD-announces-CDNA-based-Instinct-MI100-GPU-with-120-CUs-for-HPC-promises-up-to-2-1x-more-performance-per-dollar-compared-to-the-NVIDIA-A100.504329.0.html"},
	{Name: "AMD Instinct MI210", Target: "gfx90a", CUs: 104, PeakMHz: 1700,
		Peaks:        map[DType]float64{DTypeFP64: 45.3, DTypeFP32: 45.3, DTypeFP16: 181.0, DTypeBF16: 181.0, DTypeINT8: 181.0},
		Source:       "https://www.amd.com/en/products/accelerators/instinct/mi200/mi210.html",
		Corroborated: "https://www.anandtech.com/show/17326/amd-releases-instinct-mi210-accelerator-cdna-2-on-a-pcie-card"},
	{Name: "AMD Instinct MI250X", Target: "gfx90a", CUs: 220, PeakMHz: 1700,
		Peaks:        map[DType]float64{DTypeFP64: 95.7, DTypeFP32: 95.7, DTypeFP16: 383.0, DTypeBF16: 383.0, DTypeINT8: 383.0},
		Source:       "https://www.amd.com/en/products/accelerators/instinct/mi200/mi250x.html",
		Corroborated: "https://zexron.com/amd-mi250-x-aldebaran-as-mcm-with-up-to-479-teraflop-s-and-560-watt-tdp"},
	{Name: "AMD Instinct MI300X", Target: "gfx942", CUs: 304, PeakMHz: 2100,
		Peaks: map[DType]float64{DTypeFP64: 163.4, DTypeFP32: 163.4, DTypeTF32: 653.7, DTypeFP16: 1307.4, DTypeBF16: 1307.4,
			DTypeFP8: 2614.9, DTypeINT8: 2614.9},
		Source:       "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf",
		Corroborated: "https://rocm.docs.amd.com/en/docs-6.2.2/conceptual/gpu-arch/mi300.html"},
	{Name: "AMD Instinct MI325X", Target: "gfx942", CUs: 304, PeakMHz: 2100,
		Peaks: map[DType]float64{DTypeFP64: 163.4, DTypeFP32: 163.4, DTypeTF32: 653.7, DTypeFP16: 1307.4, DTypeBF16: 1307.4,
			DTypeFP8: 2614.9, DTypeINT8: 2614.9},
		Source:       "https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/product-briefs/instinct-mi325x-datasheet.pdf",
		Corroborated: "https://www.svethardware.cz/amd-predstavilo-instinct-mi325x-s-256gb-pameti-hbm3e-slibuje-i-vykonnejsi-mi355x/61224"},
	{Name: "AMD Instinct MI350X", Target: "gfx950", CUs: 256, PeakMHz: 2200,
		Peaks: map[DType]float64{DTypeFP64: 72.1, DTypeFP32: 144.2, DTypeFP16: 2306.9, DTypeBF16: 2306.9,
			DTypeFP8: 4613.7, DTypeFP6: 9227.5, DTypeFP4: 9227.5, DTypeINT8: 4613.7},
		Source:       "https://www.amd.com/en/products/accelerators/instinct/mi350/mi350x.html",
		Corroborated: "https://wccftech.com/amd-instinct-mi350-gpuai-hardware-powerhouse-3nm-3d-chiplet-cdna-4-185-billion-transistors-1400w-tbp-over-4000b-llm-support/"},
	{Name: "AMD Instinct MI355X", Target: "gfx950", CUs: 256, PeakMHz: 2400,
		Peaks: map[DType]float64{DTypeFP64: 78.6, DTypeFP32: 157.3, DTypeFP16: 2516.6, DTypeBF16: 2516.6,
			DTypeFP8: 5033.2, DTypeFP6: 10066.3, DTypeFP4: 10066.3, DTypeINT8: 5033.2},
		Source:       "https://www.amd.com/en/products/accelerators/instinct/mi350/mi355x.html",
		Corroborated: "https://news.lavx.hu/article/isscc-2026-amd-s-mi355x-doubles-throughput-with-fewer-compute-units-and-challenges-nvidia-s-gb200"},
}
