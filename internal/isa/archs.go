package isa

import (
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ArchInfo is the static description of an architecture family: every
// fact that differs by family. It is the one owner of these facts: the
// decoder, the immediate layouts, the wait-counter explanations, the
// lineage walks, the site's family picker and the tests read them from
// here, never by comparing family ids. Adding a family is adding a row to
// archTable (see CONTRIBUTING.md).
type ArchInfo struct {
	ID     string
	Name   string
	Vendor string
	Kind   string
	Order  int // display order: AMD families newest first, then PTX
	// Aliases are further spellings users type ("rdna35"), after
	// LookupArch drops case, spaces, "_" and "-".
	Aliases []string
	// Targets are the family's gfx targets; the first is its reference
	// target, the one the differential tests and the compiled kernels run
	// on.
	Targets []string
	// Gen is the encoding generation the machine-code tables and the
	// immediates' layouts follow: 9 (GCN 5, CDNA 1-4), 10 (RDNA 1-2), 11
	// (RDNA 3, 3.5), 12 (RDNA 4, CDNA 5); 0 for PTX.
	Gen int
	// Line is the product line (LineRDNA, LineCDNA, LineGCN); "" for PTX.
	Line string
	// Parents are the families this one descends from, its own line's
	// previous generation first (Previous); the first of a line descends
	// from another line's family (CDNA 1 and RDNA 1 from Vega 7nm), and
	// CDNA 5 from RDNA 4 as well as CDNA 4.
	Parents []string
	// Class is the family's name in the site's HTML and CSS (class
	// "f-<Class>", picker input "cpf-<Class>"): the id with "." as "-".
	Class string
	// Traits are the decoder's, encoder's and evaluator's quirks of the
	// family (Trait constants).
	Traits Trait
	// Waits say which wait counters each kind of instruction increments.
	Waits WaitRules
	// WaveSize is the wave the pseudocode evaluator runs: 32 on RDNA, 64
	// on GCN and CDNA.
	WaveSize int
	// CEKey is Compiler Explorer's instruction-set key for the family
	// ("amd_rdna3_5", "ptx"): what its assembly documentation asks
	// /api/asm/{arch}/{opcode} for. "" where Compiler Explorer has none.
	CEKey string
	// VGPRGranule is the allocation granule of the kernel descriptor's
	// GRANULATED_WORKITEM_VGPR_COUNT in wave64 and in wave32
	// (AMDGPUUsage, compute_pgm_rsrc1).
	VGPRGranule, VGPRGranuleWave32 int
	// CyclesPerPass is the clock cycles of one pass of the matrix unit
	// (XDL and DGEMM), the unit in which LLVM's scheduling model and the
	// guides count an MFMA's time ("This instruction performs 8 passes";
	// HWXDL[8]): 4 on CDNA 1-4. The CDNA 3 and CDNA 4 guides state it in
	// "Dependency Resolution: Required Independent Instructions" ("PASS 4
	// clock cycles", sections 7.5 and 7.6), and their MFMA opcode tables give
	// each instruction's cycles as 4 x its passes (32x32x8 f16: 8 passes, 32
	// cycles); the CDNA 1 and 2 guides give only passes, and AMD's "AMD
	// matrix cores" lab note (gpuopen.com/learn/amd-lab-notes/
	// amd-lab-notes-matrix-cores-readme) gives MI100's and MI250X's FP16
	// matrix rate as 1024 FLOPs per clock per CU, which is 32x32x8 f16's
	// 16,384 FLOPs in 16 passes of 4 cycles on each of 4 SIMDs. 0 where no
	// guide states one (RDNA's WMMA, CDNA 5): cycles are then not shown.
	CyclesPerPass int
	// SIMDsPerCU is how many SIMDs (each with its own matrix core on CDNA)
	// one compute unit has: 4 on GCN and CDNA (the guides' HW_ID SIMD_ID,
	// bits 5:4, "SIMD which the wave is assigned to within the CU"; the
	// CDNA 3 white paper's CU has four matrix cores), 2 SIMD32 on RDNA
	// (the RDNA white papers' CU; a WGP has 4). Work per cycle per CU is
	// work per cycle per SIMD times this.
	SIMDsPerCU int
}

// RefTarget is the family's reference gfx target ("" for PTX).
func (a ArchInfo) RefTarget() string {
	if len(a.Targets) == 0 {
		return ""
	}
	return a.Targets[0]
}

// ConstantBusLimit is how many scalar values (SGPRs, special scalar
// registers, literals) one VALU instruction may read: one on GCN 5 and
// CDNA (encoding generation 9), two from GFX10 on (LLVM's
// getConstantBusLimit; the 64-bit shifts' single value on GFX10+ is not
// modelled).
func (a ArchInfo) ConstantBusLimit() int {
	if a.Gen >= 10 {
		return 2
	}
	return 1
}

// Has says whether the family has trait t.
func (a ArchInfo) Has(t Trait) bool { return a.Traits&t == t }

// Previous is the previous generation of the family's own line, "" for
// the first of a line (and for PTX).
func (a ArchInfo) Previous() string {
	if len(a.Parents) == 0 {
		return ""
	}
	if p, ok := ArchByID(a.Parents[0]); ok && p.Line == a.Line {
		return p.ID
	}
	return ""
}

// The AMD product lines, in the order family diffs list them.
const (
	LineRDNA = "rdna"
	LineCDNA = "cdna"
	LineGCN  = "gcn"
)

// LineInfo is one product line.
type LineInfo struct {
	ID   string // LineRDNA, ...
	Name string // "RDNA"
}

var lineTable = []LineInfo{{LineRDNA, "RDNA"}, {LineCDNA, "CDNA"}, {LineGCN, "GCN"}}

// Lines returns the AMD product lines.
func Lines() []LineInfo { return append([]LineInfo(nil), lineTable...) }

// LineFamilies returns the ids of a line's families, oldest first.
func LineFamilies(line string) []string {
	var out []string
	archs := Archs()
	for i := len(archs) - 1; i >= 0; i-- {
		if archs[i].Line == line {
			out = append(out, archs[i].ID)
		}
	}
	return out
}

// Trait is a quirk of a family that code keys on instead of the family's
// id (in the manner of golang.org/x/arch's per-architecture tables).
type Trait uint32

// The traits. Each says which families have it today, for the reader.
const (
	// TraitCacheSC: memory instructions' cache bits are sc0/sc1/nt, not
	// glc/slc (CDNA 3-4).
	TraitCacheSC Trait = 1 << iota
	// TraitAccBit: the ACC bit of memory and MAI instructions selects
	// AGPRs (a0), there is no GDS, and DPP 0x150-0x15f are row_newbcast
	// (CDNA 2-4, gfx90a on).
	TraitAccBit
	// TraitMatrixReuse: WMMA op_sel[2] / op_sel_hi[2] are matrix_a_reuse /
	// matrix_b_reuse (CDNA 5).
	TraitMatrixReuse
	// TraitLiteral64: source code 254 announces a 64-bit literal (VOP1,
	// VOP2, VOPC, SALU; CDNA 5).
	TraitLiteral64
	// TraitXCCHwregs: hwreg IDs 20-24 are XCC_ID and the SQ performance
	// snapshot registers (CDNA 3-4).
	TraitXCCHwregs
	// TraitXNACKMaskHwreg: hwreg 22 is XNACK_MASK and 29 is not
	// SHADER_CYCLES (RDNA 1).
	TraitXNACKMaskHwreg
	// TraitNoDepCtrHoldCnt: s_waitcnt_depctr has no hold_cnt (bit 7):
	// llvm-mc decodes it from gfx1030 on (RDNA 1).
	TraitNoDepCtrHoldCnt
	// TraitGFX1250Names: hwregs 28 IB_STS2, 33 XNACK_STATE_PRIV, 34
	// XNACK_MASK and messages 10 SAVEWAVE_HAS_TDM, 136
	// RTN_GET_CLUSTER_BARRIER_STATE (CDNA 5).
	TraitGFX1250Names
	// TraitPseudocode: the guide's pseudocode is in the newer notation
	// (one block per instruction), parsed and run by the evaluator (RDNA
	// 3, 3.5, 4; CDNA 3, 4, 5); TraitOldPseudocode is the older one's.
	TraitPseudocode
	// TraitNumMinMax: the float min/max instructions are named _num_
	// (v_max_num_f32): RDNA 4 and CDNA 5 renamed them.
	TraitNumMinMax
	// TraitFP8FNUZ: the 8-bit float formats are the FNUZ ones (no negative
	// zero, NaN 0x80; CDNA 3).
	TraitFP8FNUZ
	// TraitAlignedVGPRs: a VGPR or AGPR tuple (64 bits and wider) starts
	// at an even register; llvm-mc flags v[1:2] (its *_Align2 register
	// classes; CDNA 2-5, gfx90a on).
	TraitAlignedVGPRs
	// TraitOldPseudocode: the guide writes its pseudocode in the older
	// C-like notation inside the opcode tables ("D.f = S0.f * S1.f."),
	// which the evaluator reads as well (RDNA 1, 2; CDNA 1, 2; Vega, Vega
	// 7nm).
	TraitOldPseudocode
)

// WaitCounters is a family's set of wait counters.
type WaitCounters int

// The sets of wait counters.
const (
	// CountersVM: VM_CNT, LGKM_CNT, EXP_CNT (GCN 5, CDNA).
	CountersVM WaitCounters = iota + 1
	// CountersVS: as CountersVM, with stores and atomics without return
	// on VScnt (RDNA 1-3.5).
	CountersVS
	// CountersLoad: LOADcnt, STOREcnt, SAMPLEcnt, BVHcnt, DScnt, KMcnt,
	// EXPcnt (RDNA 4, CDNA 5).
	CountersLoad
)

// WaitRules say which wait counters each kind of instruction increments,
// as the guides' "Data Dependency Resolution" sections and their state
// tables (VMCNT, LGKMCNT, EXPCNT, VSCNT; LOADcnt ... on gfx12) describe
// them (package explain applies them):
//
//   - Vega, Vega 7nm: VMEM reads and writes increment VM_CNT, VMEM writes
//     also EXP_CNT ("also counts VMEM writes that have not yet sent their
//     write-data"); LDS, GDS, scalar memory, messages and FLAT increment
//     LGKM_CNT; exports and GDS EXP_CNT.
//   - CDNA 1-2: the same without exports ("EXPORT does not function");
//     CDNA 3: EXP_CNT counts GDS/GWS only; CDNA 4: EXP_CNT is unused.
//   - RDNA 1-3.5: loads, samples and atomics with return increment VMcnt,
//     stores and atomics without return VScnt; FLAT both that and
//     LGKMcnt; LDS, SMEM, GDS/GWS and messages LGKMcnt; exports (and on
//     RDNA 3 the LDS parameter and direct loads) EXPcnt.
//   - RDNA 4, CDNA 5: LOADcnt (loads, atomics with return), STOREcnt
//     (stores, atomics without return), SAMPLEcnt (image samples), BVHcnt
//     (BVH), DScnt (LDS and FLAT), KMcnt (SMEM, messages), EXPcnt (exports,
//     ds_param_load and ds_direct_load).
type WaitRules struct {
	Counters     WaitCounters
	StoresExp    bool // VMEM writes also EXP_CNT
	GDSExp       bool // GDS/GWS also EXP_CNT
	Exports      bool // EXP instructions exist and use EXPcnt
	ParamLoadExp bool // LDS parameter/direct loads use EXPcnt
}

// Wait rules shared by several families.
var (
	waitsRDNA12 = WaitRules{Counters: CountersVS, Exports: true}
	waitsRDNA3  = WaitRules{Counters: CountersVS, Exports: true, ParamLoadExp: true}
	waitsGen12  = WaitRules{Counters: CountersLoad, Exports: true, ParamLoadExp: true}
)

// archTable lists every family gpuisa knows. The gfx lists follow LLVM's
// processor table (llvm-mc -mcpu=help); LLVM 22 dropped gfx940 and gfx941,
// so CDNA 3 is gfx942 alone.
var archTable = []ArchInfo{
	{ID: "rdna4", CEKey: "amd_rdna4", Name: "RDNA 4", Vendor: VendorAMD, Kind: KindNative, Order: 1,
		Targets: []string{"gfx1200", "gfx1201"}, Gen: 12,
		Line: LineRDNA, Parents: []string{"rdna3.5"}, Class: "rdna4",
		Traits: TraitPseudocode | TraitNumMinMax, Waits: waitsGen12, WaveSize: 32, VGPRGranule: 4, VGPRGranuleWave32: 8, SIMDsPerCU: 2},
	{ID: "rdna3.5", CEKey: "amd_rdna3_5", Name: "RDNA 3.5", Vendor: VendorAMD, Kind: KindNative, Order: 2, Aliases: []string{"rdna35"},
		Targets: []string{"gfx1150", "gfx1151", "gfx1152", "gfx1153"}, Gen: 11,
		Line: LineRDNA, Parents: []string{"rdna3"}, Class: "rdna3-5",
		Traits: TraitPseudocode, Waits: waitsRDNA3, WaveSize: 32, VGPRGranule: 4, VGPRGranuleWave32: 8, SIMDsPerCU: 2},
	{ID: "rdna3", CEKey: "amd_rdna3", Name: "RDNA 3", Vendor: VendorAMD, Kind: KindNative, Order: 3,
		Targets: []string{"gfx1100", "gfx1101", "gfx1102", "gfx1103"}, Gen: 11,
		Line: LineRDNA, Parents: []string{"rdna2"}, Class: "rdna3",
		Traits: TraitPseudocode, Waits: waitsRDNA3, WaveSize: 32, VGPRGranule: 4, VGPRGranuleWave32: 8, SIMDsPerCU: 2},
	{ID: "rdna2", CEKey: "amd_rdna2", Name: "RDNA 2", Vendor: VendorAMD, Kind: KindNative, Order: 4,
		Targets: []string{"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036"}, Gen: 10,
		Line: LineRDNA, Parents: []string{"rdna1"}, Class: "rdna2",
		Traits: TraitOldPseudocode,
		Waits:  waitsRDNA12, WaveSize: 32, VGPRGranule: 4, VGPRGranuleWave32: 8, SIMDsPerCU: 2},
	{ID: "rdna1", CEKey: "amd_rdna1", Name: "RDNA 1", Vendor: VendorAMD, Kind: KindNative, Order: 5,
		Targets: []string{"gfx1010", "gfx1011", "gfx1012", "gfx1013"}, Gen: 10,
		Line: LineRDNA, Parents: []string{"vega7"}, Class: "rdna1",
		Traits: TraitOldPseudocode | TraitXNACKMaskHwreg | TraitNoDepCtrHoldCnt, Waits: waitsRDNA12, WaveSize: 32, VGPRGranule: 4, VGPRGranuleWave32: 8, SIMDsPerCU: 2},
	{ID: "cdna5", CEKey: "amd_cdna5", Name: "CDNA 5", Vendor: VendorAMD, Kind: KindNative, Order: 6,
		Targets: []string{"gfx1250", "gfx1251"}, Gen: 12,
		Line: LineCDNA, Parents: []string{"cdna4", "rdna4"}, Class: "cdna5",
		Traits: TraitMatrixReuse | TraitLiteral64 | TraitGFX1250Names | TraitPseudocode | TraitNumMinMax | TraitAlignedVGPRs,
		Waits:  waitsGen12, WaveSize: 64, VGPRGranule: 16, VGPRGranuleWave32: 16, SIMDsPerCU: 4},
	{ID: "cdna4", CEKey: "amd_cdna4", Name: "CDNA 4", Vendor: VendorAMD, Kind: KindNative, Order: 7,
		Targets: []string{"gfx950"}, Gen: 9,
		Line: LineCDNA, Parents: []string{"cdna3"}, Class: "cdna4",
		Traits: TraitCacheSC | TraitAccBit | TraitXCCHwregs | TraitPseudocode | TraitAlignedVGPRs,
		Waits:  WaitRules{Counters: CountersVM}, WaveSize: 64, VGPRGranule: 8, VGPRGranuleWave32: 8, CyclesPerPass: 4, SIMDsPerCU: 4},
	{ID: "cdna3", CEKey: "amd_cdna3", Name: "CDNA 3", Vendor: VendorAMD, Kind: KindNative, Order: 8,
		Targets: []string{"gfx942"}, Gen: 9,
		Line: LineCDNA, Parents: []string{"cdna2"}, Class: "cdna3",
		Traits: TraitCacheSC | TraitAccBit | TraitXCCHwregs | TraitPseudocode | TraitFP8FNUZ | TraitAlignedVGPRs,
		Waits:  WaitRules{Counters: CountersVM, GDSExp: true}, WaveSize: 64, VGPRGranule: 8, VGPRGranuleWave32: 8, CyclesPerPass: 4, SIMDsPerCU: 4},
	{ID: "cdna2", CEKey: "amd_cdna2", Name: "CDNA 2", Vendor: VendorAMD, Kind: KindNative, Order: 9,
		Targets: []string{"gfx90a"}, Gen: 9,
		Line: LineCDNA, Parents: []string{"cdna1"}, Class: "cdna2",
		Traits: TraitOldPseudocode | TraitAccBit | TraitAlignedVGPRs,
		Waits:  WaitRules{Counters: CountersVM, StoresExp: true, GDSExp: true}, WaveSize: 64, VGPRGranule: 8, VGPRGranuleWave32: 8, CyclesPerPass: 4, SIMDsPerCU: 4},
	{ID: "cdna1", CEKey: "amd_cdna1", Name: "CDNA 1", Vendor: VendorAMD, Kind: KindNative, Order: 10,
		Targets: []string{"gfx908"}, Gen: 9,
		Line: LineCDNA, Parents: []string{"vega7"}, Class: "cdna1",
		Traits: TraitOldPseudocode,
		Waits:  WaitRules{Counters: CountersVM, StoresExp: true, GDSExp: true}, WaveSize: 64, VGPRGranule: 4, VGPRGranuleWave32: 4, CyclesPerPass: 4, SIMDsPerCU: 4},
	{ID: "vega7", Name: "Vega 7nm", Vendor: VendorAMD, Kind: KindNative, Order: 11, Aliases: []string{"vega20"},
		Targets: []string{"gfx906"}, Gen: 9,
		Line: LineGCN, Parents: []string{"vega"}, Class: "vega7",
		Traits: TraitOldPseudocode,
		Waits:  WaitRules{Counters: CountersVM, StoresExp: true, GDSExp: true, Exports: true}, WaveSize: 64, VGPRGranule: 4, VGPRGranuleWave32: 4, SIMDsPerCU: 4},
	{ID: "vega", Name: "Vega", Vendor: VendorAMD, Kind: KindNative, Order: 12, Aliases: []string{"vega10", "gcn5"},
		Targets: []string{"gfx900", "gfx902", "gfx904", "gfx909", "gfx90c"}, Gen: 9,
		Line: LineGCN, Class: "vega",
		Traits: TraitOldPseudocode,
		Waits:  WaitRules{Counters: CountersVM, StoresExp: true, GDSExp: true, Exports: true}, WaveSize: 64, VGPRGranule: 4, VGPRGranuleWave32: 4, SIMDsPerCU: 4},
	{ID: "ptx", CEKey: "ptx", Name: "PTX", Vendor: VendorNVIDIA, Kind: KindVirtual, Order: 20, Class: "ptx"},
}

// AllGFXTargets is every AMD gfx target the LLVM 22 assembler knows, oldest
// first. The target-compatibility matrix of a page covers all of them.
var AllGFXTargets = []string{
	"gfx600", "gfx601", "gfx602",
	"gfx700", "gfx701", "gfx702", "gfx703", "gfx704", "gfx705",
	"gfx801", "gfx802", "gfx803", "gfx805", "gfx810",
	"gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a", "gfx90c",
	"gfx942", "gfx950",
	"gfx1010", "gfx1011", "gfx1012", "gfx1013",
	"gfx1030", "gfx1031", "gfx1032", "gfx1033", "gfx1034", "gfx1035", "gfx1036",
	"gfx1100", "gfx1101", "gfx1102", "gfx1103",
	"gfx1150", "gfx1151", "gfx1152", "gfx1153",
	"gfx1200", "gfx1201",
	"gfx1250", "gfx1251",
}

// Archs returns every known family in display order.
func Archs() []ArchInfo {
	out := append([]ArchInfo(nil), archTable...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

// AMDArchIDs returns the AMD family ids in display order.
func AMDArchIDs() []string {
	var ids []string
	for _, a := range Archs() {
		if a.Vendor == VendorAMD {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// byID indexes archTable by id for ArchByID, which runs per instruction.
var byID = func() map[string]int {
	m := map[string]int{}
	for i, a := range archTable {
		m[a.ID] = i
	}
	return m
}()

// ArchByID finds a family by its exact id ("rdna3.5"); unlike LookupArch it
// takes no other spelling.
func ArchByID(id string) (ArchInfo, bool) {
	if i, ok := byID[id]; ok {
		return archTable[i], true
	}
	return ArchInfo{}, false
}

// MustArch is ArchByID for ids the code itself holds (read from the
// database or from this table): an unknown id is a programming error.
func MustArch(id string) ArchInfo {
	a, ok := ArchByID(id)
	if !ok {
		panic("isa: unknown family " + strconv.Quote(id))
	}
	return a
}

// ArchIDsWith returns the ids of the families with trait t, in display
// order.
func ArchIDsWith(t Trait) []string {
	var ids []string
	for _, a := range Archs() {
		if a.Has(t) {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// LookupArch finds a family by id, case-insensitively. It also accepts a gfx
// target name ("gfx942"), a few spellings users type ("rdna35",
// "rdna_3.5", "CDNA 4") and Compiler Explorer's key ("amd_rdna3_5").
func LookupArch(s string) (ArchInfo, bool) {
	// A family's own ID, as code passes it (the encoder, per line), needs
	// no normalising of every name in the table.
	for _, a := range archTable {
		if a.ID == s {
			return a, true
		}
	}
	k := normalizeArch(s)
	for _, a := range archTable {
		if a.ID == k || normalizeArch(a.Name) == k || slices.Contains(a.Aliases, k) || a.CEKey != "" && normalizeArch(a.CEKey) == k {
			return a, true
		}
		for _, t := range a.Targets {
			if t == k {
				return a, true
			}
		}
	}
	return ArchInfo{}, false
}

// archSeparators are dropped from user spellings; built once because
// LookupArch runs on every request.
var archSeparators = strings.NewReplacer(" ", "", "_", "", "-", "")

func normalizeArch(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return archSeparators.Replace(s)
}

// ArchForTarget returns the family a gfx target belongs to, if any.
func ArchForTarget(target string) (string, bool) {
	for _, a := range archTable {
		for _, t := range a.Targets {
			if t == target {
				return a.ID, true
			}
		}
	}
	return "", false
}

// GFXMajor is the major version of a gfx target or generic target: 9 for
// "gfx90a", 10 for "gfx1030" and "gfx10-3-generic", 12 for "gfx1250"
// (LLVM's names end in a minor version and a stepping digit).
func GFXMajor(target string) (int, bool) {
	rest, ok := strings.CutPrefix(target, "gfx")
	if !ok {
		return 0, false
	}
	if i := strings.IndexByte(rest, '-'); i >= 0 {
		rest = rest[:i]
	} else if len(rest) >= 3 {
		rest = rest[:len(rest)-2]
	} else {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
}

// CyclesPerPassText says the pass length in words for pages: "4 cycles
// per pass (the CDNA guides' PASS)", or that no guide states one.
func (a ArchInfo) CyclesPerPassText() string {
	if a.CyclesPerPass == 0 {
		return "(no pass length: the guide states none)"
	}
	return strconv.Itoa(a.CyclesPerPass) + " cycles per pass (the CDNA guides' PASS)"
}

// SIMDsText is "4 SIMDs per CU".
func (a ArchInfo) SIMDsText() string { return strconv.Itoa(a.SIMDsPerCU) + " SIMDs per CU" }

// ArchInfoFor is ArchByID that gives the zero ArchInfo (no family facts)
// for an id the table does not know, for callers that only read facts.
func ArchInfoFor(id string) ArchInfo {
	a, _ := ArchByID(id)
	return a
}

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
