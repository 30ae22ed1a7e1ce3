package isa

import "strings"

// What an AMD mnemonic or format name says by itself. Readers, the merge,
// the decoder, the encoder and the servers all read these facts here, so
// they agree on them.

// The encoding suffixes LLVM writes after an AMD mnemonic to choose one
// encoding of the same instruction (v_max_f32_e64, v_max_f32_sdwa,
// v_max_f32_e64_dpp); AMD documents the instruction under the bare name.
const (
	SuffixE32    = "_e32"
	SuffixE64    = "_e64"
	SuffixSDWA   = "_sdwa"
	SuffixDPP    = "_dpp"
	SuffixDPP8   = "_dpp8"
	SuffixDPP16  = "_dpp16"
	SuffixE64DPP = "_e64_dpp"
)

// EncodingSuffixes lists every encoding suffix, longest first, so that the
// first one a mnemonic ends with is its suffix (_e64_dpp, not _dpp).
var EncodingSuffixes = []string{SuffixE64DPP, SuffixDPP16, SuffixDPP8, SuffixSDWA, SuffixDPP, SuffixE64, SuffixE32}

// EncodingSuffix returns the encoding suffix mnemonic ends with ("" when
// none). A suffix that would leave no name ("_e64" alone) is not one.
func EncodingSuffix(mnemonic string) string {
	for _, s := range EncodingSuffixes {
		if len(mnemonic) > len(s) && strings.HasSuffix(mnemonic, s) {
			return s
		}
	}
	return ""
}

// BaseMnemonic drops mnemonic's encoding suffix, giving the instruction's
// name: v_add_f32_e64_dpp -> v_add_f32. It does not change case.
func BaseMnemonic(mnemonic string) string {
	return mnemonic[:len(mnemonic)-len(EncodingSuffix(mnemonic))]
}

// MatrixKind is the kind of matrix multiply-accumulate an AMD mnemonic
// names, by the unit that runs it.
type MatrixKind uint8

const (
	NotMatrix MatrixKind = iota
	// MatrixXDL: CDNA's MFMA and sparse SMFMAC, on the matrix cores (XDL),
	// encoded as VOP3P-MAI.
	MatrixXDL
	// MatrixWMMA: RDNA's WMMA and sparse SWMMAC, on the VALU (plain VOP3P).
	MatrixWMMA
)

// matrixPrefixes are the mnemonic prefixes of the matrix instructions,
// the first match deciding: CDNA 4's v_mfma_ld_scale_b32 and CDNA 5's
// v_wmma_ld_scale*_paired_* are the VOP3P Load-Scale words of scaled
// MFMAs and WMMAs, no multiply of their own.
var matrixPrefixes = []struct {
	prefix string
	kind   MatrixKind
}{{"v_mfma_ld_scale", NotMatrix}, {"v_wmma_ld_scale", NotMatrix}, {"v_mfma", MatrixXDL}, {"v_smfmac", MatrixXDL}, {"v_wmma", MatrixWMMA}, {"v_swmmac", MatrixWMMA}}

// MatrixKindOf says which matrix instruction a lower-case mnemonic names.
func MatrixKindOf(mnemonic string) MatrixKind {
	for _, p := range matrixPrefixes {
		if strings.HasPrefix(mnemonic, p.prefix) {
			return p.kind
		}
	}
	return NotMatrix
}

// IsMatrix reports whether a lower-case mnemonic is a matrix
// multiply-accumulate (v_mfma_*, v_smfmac_*, v_wmma_*, v_swmmac_*).
func IsMatrix(mnemonic string) bool { return MatrixKindOf(mnemonic) != NotMatrix }

// MemoryKind is the memory (or export) path an encoding format reaches.
type MemoryKind uint8

const (
	NotMemory    MemoryKind = iota
	ScalarMemory            // SMEM; SMRD on GCN 3
	DataShare               // LDS and GDS: DS; VDS on RDNA 4 and CDNA 5
	LDSDirect               // parameter and direct loads from LDS: LDSDIR; VDSDIR on RDNA 4
	BufferMemory            // MUBUF, MTBUF (typed); VBUFFER (both) on RDNA 4 and CDNA 5
	ImageMemory             // MIMG; VIMAGE and VSAMPLE on RDNA 4 and CDNA 5
	FlatMemory              // FLAT, GLOBAL, SCRATCH; VFLAT, VGLOBAL, VSCRATCH on RDNA 4 and CDNA 5
	ExportPath              // EXP; VEXPORT on RDNA 4; EXPORT as section titles spell it
)

// memoryFormats are the guides' spellings of the memory and export
// formats.
var memoryFormats = map[string]MemoryKind{
	"SMEM": ScalarMemory, "SMRD": ScalarMemory,
	"DS": DataShare, "VDS": DataShare,
	"LDSDIR": LDSDirect, "VDSDIR": LDSDirect,
	"MUBUF": BufferMemory, "MTBUF": BufferMemory, "VBUFFER": BufferMemory,
	"MIMG": ImageMemory, "VIMAGE": ImageMemory, "VSAMPLE": ImageMemory,
	"FLAT": FlatMemory, "GLOBAL": FlatMemory, "SCRATCH": FlatMemory,
	"VFLAT": FlatMemory, "VGLOBAL": FlatMemory, "VSCRATCH": FlatMemory,
	"EXP": ExportPath, "VEXPORT": ExportPath, "EXPORT": ExportPath,
}

// MemoryKindOf is the memory path of a format name in any case, with or
// without the XML's ENC_ prefix ("VGLOBAL", "ENC_DS", "smem").
func MemoryKindOf(format string) MemoryKind {
	return memoryFormats[strings.TrimPrefix(strings.ToUpper(format), "ENC_")]
}
