package decode

import (
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// fieldID names the fields the renderer reads. Looking a field up by name in
// a map for every operand was the decoder's main cost; formats are compiled
// once into a table indexed by fieldID instead.
type fieldID uint8

const (
	fSRC0 fieldID = iota
	fSRC1
	fSRC2
	fVDST
	fVSRC1
	fSDST
	fSSRC0
	fSSRC1
	fSIMM16
	fABS
	fNEG
	fOPSEL
	fOPSELHI
	fOPSELHI2
	fNEGHI
	fCLMP
	fOMOD
	fSBASE
	fSDATA
	fOFFSET
	fIMM
	fSOE
	fSOFFSET
	fGLC
	fDLC
	fNV
	fSLC
	fSC0
	fSC1
	fNT
	fOFFSET0
	fOFFSET1
	fGDS
	fADDR
	fDATA0
	fDATA1
	fDATA
	fSADDR
	fSEG
	fLDS
	fVADDR
	fVDATA
	fSRSRC
	fOFFEN
	fIDXEN
	fTFE
	fDFMT
	fNFMT
	fFORMAT
	fACC
	fSVE
	fCBSZ
	fABID
	fACCCD
	fBLGP
	fTH
	fSCOPE
	fVSRC
	fATTR
	fATTRCHAN
	fWAITEXP
	fWAITVA
	fWAITVM
	fEN
	fTARGET
	fDONE
	fROW
	fCOMPR
	fVM
	fVSRC0
	fVSRC2
	fVSRC3
	fSCALEOFF
	fDMASK
	fUNRM
	fDA
	fA16
	fLWE
	fSSAMP
	fD16
	fNSA
	fDIM
	fR128
	fOPX
	fOPY
	fSRCX0
	fVSRCX1
	fVSRCX2
	fVDSTX
	fSRCY0
	fVSRCY1
	fVSRCY2
	fVDSTY
	fNEGX
	fNEGY
	numFields
)

// ClampField says whether a guide's field name is the clamp bit (CLMP,
// CLAMP or, in RDNA 4's VOP3P, CM), as the decoder reads it.
func ClampField(name string) bool {
	id, ok := fieldAliases[name]
	return ok && id == fCLMP
}

// fieldAliases maps the guides' field names to fieldIDs; several guides name
// the same field differently (CLMP, CLAMP, CM).
var fieldAliases = map[string]fieldID{
	"SRC0": fSRC0, "SRC1": fSRC1, "SRC2": fSRC2, "VDST": fVDST, "VSRC1": fVSRC1, "SDST": fSDST,
	"SSRC0": fSSRC0, "SSRC1": fSSRC1, "SIMM16": fSIMM16, "ABS": fABS, "NEG": fNEG, "OPSEL": fOPSEL,
	"OPSEL_HI": fOPSELHI, "OPSEL_HI2": fOPSELHI2, "NEG_HI": fNEGHI, "CLMP": fCLMP, "CLAMP": fCLMP, "CM": fCLMP,
	"OMOD": fOMOD, "SBASE": fSBASE, "SDATA": fSDATA, "OFFSET": fOFFSET, "IOFFSET": fOFFSET, "IMM": fIMM,
	"SOE": fSOE, "SOFFSET": fSOFFSET, "GLC": fGLC, "DLC": fDLC, "NV": fNV, "SLC": fSLC, "SC0": fSC0,
	"SC1": fSC1, "NT": fNT, "OFFSET0": fOFFSET0, "OFFSET1": fOFFSET1, "GDS": fGDS, "ADDR": fADDR,
	"DATA0": fDATA0, "DATA1": fDATA1, "DATA": fDATA, "SADDR": fSADDR, "SEG": fSEG, "LDS": fLDS,
	"VADDR": fVADDR, "VDATA": fVDATA, "SRSRC": fSRSRC, "RSRC": fSRSRC, "OFFEN": fOFFEN, "IDXEN": fIDXEN,
	"TFE": fTFE, "DFMT": fDFMT, "NFMT": fNFMT, "FORMAT": fFORMAT, "ACC": fACC, "SVE": fSVE,
	"CBSZ": fCBSZ, "ABID": fABID, "ACC_CD": fACCCD, "BLGP": fBLGP, "TH": fTH, "SCOPE": fSCOPE,
	"VSRC": fVSRC, "ATTR": fATTR, "ATTR_CHAN": fATTRCHAN, "WAITEXP": fWAITEXP, "WAIT_EXP": fWAITEXP,
	"WAIT_VA": fWAITVA, "WAIT_VDST": fWAITVA, "WAIT_VMVSRC": fWAITVM, "EN": fEN, "TARGET": fTARGET, "DONE": fDONE,
	"ROW": fROW, "COMPR": fCOMPR, "VM": fVM, "VSRC0": fVSRC0, "VSRC2": fVSRC2, "VSRC3": fVSRC3,
	"SCALE_OFFSET": fSCALEOFF, "DMASK": fDMASK, "UNRM": fUNRM, "UNORM": fUNRM, "DA": fDA, "A16": fA16,
	"LWE": fLWE, "SSAMP": fSSAMP, "D16": fD16, "NSA": fNSA, "DIM": fDIM, "R128": fR128,
	"OPX": fOPX, "OPY": fOPY, "SRCX0": fSRCX0, "VSRCX1": fVSRCX1, "VSRCX2": fVSRCX2, "VDSTX": fVDSTX,
	"SRCY0": fSRCY0, "VSRCY1": fVSRCY1, "VSRCY2": fVSRCY2, "VDSTY": fVDSTY, "NEGX": fNEGX, "NEGY": fNEGY,
}

// fieldPart is the piece of a field that lies in one dword.
type fieldPart struct{ word, shift, width uint8 }

// compiledField reads a field with shifts and masks: its ranges, most
// significant first, split at dword boundaries.
type compiledField struct {
	n     uint8
	parts [4]fieldPart
}

func compileField(f isa.Field) compiledField {
	var c compiledField
	for _, r := range fieldRanges(f) {
		if r.MSB < r.LSB || r.LSB < 0 || r.MSB >= 96 {
			return compiledField{} // a layout we cannot read: treat as absent
		}
		for msb := r.MSB; msb >= r.LSB; {
			lsb := max(r.LSB, msb/32*32)
			if int(c.n) == len(c.parts) {
				return compiledField{}
			}
			c.parts[c.n] = fieldPart{word: uint8(lsb / 32), shift: uint8(lsb % 32), width: uint8(msb - lsb + 1)}
			c.n++
			msb = lsb - 1
		}
	}
	return c
}

func (c *compiledField) get(raw *[3]uint32) uint32 {
	if c.n == 1 {
		// Most fields lie in one dword.
		p := c.parts[0]
		return uint32(uint64(raw[p.word]>>p.shift) & (1<<p.width - 1))
	}
	var v uint64
	for i := uint8(0); i < c.n; i++ {
		p := c.parts[i]
		v = v<<p.width | uint64(raw[p.word]>>p.shift)&(1<<p.width-1)
	}
	return uint32(v)
}

// compileFields builds the fieldID table of a format. The model's layouts
// are complete (package amdlayout fills in the fields some guides' tables
// leave out).
func compileFields(fs []isa.Field) (tab [numFields]compiledField) {
	for _, f := range fs {
		id, ok := fieldAliases[strings.ToUpper(f.Name)]
		if !ok || tab[id].n != 0 {
			continue
		}
		tab[id] = compileField(f)
	}
	return tab
}

// width is the field's size in bits.
func (c *compiledField) width() int {
	w := 0
	for i := uint8(0); i < c.n; i++ {
		w += int(c.parts[i].width)
	}
	return w
}

// fieldName is the layout's name of the field id of fm ("DATA1"), for
// error messages.
func fieldName(fm *format, id fieldID) string {
	for _, f := range fm.Fields {
		if fid, ok := fieldAliases[strings.ToUpper(f.Name)]; ok && fid == id {
			return f.Name
		}
	}
	return "?"
}
