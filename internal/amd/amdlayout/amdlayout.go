// Package amdlayout owns what gpuisa knows about the AMD guides' microcode
// layouts beyond what their field tables say: where llvm-mc encodes a field
// elsewhere than the guide draws it (RDNA 4 and CDNA 5 FLAT's OP field,
// RDNA 1-2 DS), the identifying bits a guide leaves out (GCN 5 and CDNA 1
// VOP3P's bit 23), and the fields some tables omit although the hardware
// has them (RDNA 4's 24-bit IOFFSET, SOPK's SIMM16, CDNA 5's VOP2 ENCODING).
// The merge applies Verified to every format of a guide, so the model, the
// decoder, the encoder and the pages all read one layout; the guide's own
// drawing is kept beside it as the documented variant, and the LLVM pass
// checks the result against llvm-mc's encodings of every example.
//
// It also knows which instructions use the VOP3P-MAI variant of VOP3P
// (UsesMAI) and the documented sub-fields of 16-bit immediates
// (ImmediateFields, Parts), and what an encoding holds of its format
// (EncodingLayout: width, fields, identifier, documented drawing), the one
// place the merge derives them from.
package amdlayout

import (
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Verified returns the layout llvm-mc encodes for the format f of family
// (an architecture id) and the changes made to the guide's layout, one
// sentence each; with no change it returns f itself and nil. f is not
// modified.
func Verified(family string, f isa.Format) (isa.Format, []string) {
	out := f
	out.Fields = append([]isa.Field(nil), f.Fields...)
	var changes []string
	for _, fix := range fixes {
		if msg, ok := fix(family, &out); ok {
			changes = append(changes, msg)
		}
	}
	if len(changes) == 0 {
		return f, nil
	}
	return out, changes
}

// fixes are applied in order; each reports what it changed.
var fixes = []func(family string, f *isa.Format) (string, bool){
	flat12OP, flat12Offset, ds10, dsGDS, vop3pBit23, sopkSIMM16, bufferOffset, bufferSOFFSET, missingEncoding,
}

func name(f *isa.Format) string { return strings.ToUpper(f.Name) }

// field returns the index of the first field called n, or -1.
func field(f *isa.Format, n string) int {
	for i := range f.Fields {
		if strings.EqualFold(f.Fields[i].Name, n) {
			return i
		}
	}
	return -1
}

// single reports whether field i is one contiguous range [msb:lsb].
func single(f *isa.Format, i int, msb, lsb int) bool {
	return i >= 0 && len(f.Fields[i].Ranges) == 0 && f.Fields[i].MSB == msb && f.Fields[i].LSB == lsb
}

// free reports whether no field of f covers any bit of [msb:lsb].
func free(f *isa.Format, msb, lsb int) bool {
	for _, fd := range f.Fields {
		for _, r := range fd.BitRanges() {
			if r.LSB <= msb && lsb <= r.MSB {
				return false
			}
		}
	}
	return true
}

// add inserts a field the guide's table leaves out, before the first field
// that starts above it (the guides list fields from bit 0 up).
func add(f *isa.Format, fd isa.Field) {
	for i, x := range f.Fields {
		if x.LSB > fd.LSB {
			f.Fields = append(f.Fields[:i], append([]isa.Field{fd}, f.Fields[i:]...)...)
			return
		}
	}
	f.Fields = append(f.Fields, fd)
}

// flat12OP: the RDNA 4 and CDNA 5 guides draw VFLAT/VGLOBAL/VSCRATCH's OP
// at [20:13]; the opcode numbers they list are the ones llvm-mc encodes at
// [21:14], where VBUFFER and VIMAGE have OP in the same guides (every
// global_/flat_/scratch_ opcode otherwise reads as half its value).
func flat12OP(_ string, f *isa.Format) (string, bool) {
	switch name(f) {
	case "VFLAT", "VGLOBAL", "VSCRATCH":
	default:
		return "", false
	}
	i := field(f, "OP")
	if !single(f, i, 20, 13) {
		return "", false
	}
	f.Fields[i].MSB, f.Fields[i].LSB = 21, 14
	return "OP is at [21:14], where llvm-mc encodes it (and where VBUFFER has it in the same guide); the guide draws it at [20:13].", true
}

// flat12Offset: the same tables leave out the 24-bit immediate offset,
// which llvm-mc encodes in bits [95:72] (offset:N).
func flat12Offset(_ string, f *isa.Format) (string, bool) {
	switch name(f) {
	case "VFLAT", "VGLOBAL", "VSCRATCH":
	default:
		return "", false
	}
	if f.Width < 96 || field(f, "IOFFSET") >= 0 || field(f, "OFFSET") >= 0 || !free(f, 95, 72) {
		return "", false
	}
	add(f, isa.Field{Name: "IOFFSET", MSB: 95, LSB: 72, Description: "Immediate address offset, signed 24 bits (offset:N)."})
	return "IOFFSET [95:72], the signed 24-bit immediate offset llvm-mc encodes there, is missing from the guide's table.", true
}

// ds10: the RDNA 1-2 guides' DS table keeps the GCN 5 layout, GDS [16] and
// OP [24:17]; llvm-mc (gfx1010, gfx1030) encodes GDS at [17] and OP at
// [25:18], so with the guide's layout every DS opcode reads as its
// neighbour (ds_sub_u32, 1, as ds_rsub_u32).
func ds10(family string, f *isa.Format) (string, bool) {
	if info, _ := isa.ArchByID(family); info.Gen != 10 || name(f) != "DS" {
		return "", false
	}
	op := field(f, "OP")
	if !single(f, op, 24, 17) {
		return "", false
	}
	f.Fields[op].MSB, f.Fields[op].LSB = 25, 18
	msg := "OP is at [25:18], where llvm-mc encodes it on gfx1010 and gfx1030; the guide draws it at [24:17]"
	if gds := field(f, "GDS"); single(f, gds, 16, 16) {
		f.Fields[gds].MSB, f.Fields[gds].LSB = 17, 17
		msg += ", and GDS at [17], not [16]"
	}
	return msg + ".", true
}

// dsGDS: the CDNA 4 guide's DS table has no GDS row (its text calls the
// bit reserved); llvm-mc (gfx950) encodes gds at [16], as on CDNA 2-3,
// and the GWS instructions require it (ds_gws_init v0 gds is
// 0xD9330000).
func dsGDS(_ string, f *isa.Format) (string, bool) {
	if name(f) != "DS" || field(f, "GDS") >= 0 || !single(f, field(f, "OP"), 24, 17) || !free(f, 16, 16) {
		return "", false
	}
	add(f, isa.Field{Name: "GDS", MSB: 16, LSB: 16, Description: "Global data share (gds); the GWS instructions set it."})
	return "GDS [16], where llvm-mc encodes gds (which the GWS instructions require), is missing from the guide's table.", true
}

// vop3pBit23: the GCN 5 and CDNA 1 guides give VOP3P (and VOP3P-MAI) the
// 8-bit ENCODING 11010011 at [31:24] and leave bit 23 to no field; llvm-mc
// encodes the 9-bit 110100111 at [31:23], as the CDNA 2-4 guides write it
// (v_pk_lshlrev_b16, opcode 4, is 0xD3840000, not 0xD3040000).
func vop3pBit23(_ string, f *isa.Format) (string, bool) {
	if n := name(f); n != "VOP3P" && n != "VOP3P-MAI" {
		return "", false
	}
	i := field(f, "ENCODING")
	if !single(f, i, 31, 24) || f.Fields[i].Fixed != "11010011" || !free(f, 23, 23) {
		return "", false
	}
	f.Fields[i].LSB = 23
	f.Fields[i].Fixed = "110100111"
	f.Fields[i].Description = "Must be: 110100111"
	return "ENCODING is 110100111 in [31:23], the bits llvm-mc encodes (and the CDNA 2-4 guides give); the guide writes 11010011 in [31:24] and leaves bit 23 to no field.", true
}

// sopkSIMM16: some guides' SOPK tables (GCN 5, RDNA 3) have no SIMM16 row;
// the 16-bit immediate is bits [15:0] in every family.
func sopkSIMM16(_ string, f *isa.Format) (string, bool) {
	if name(f) != "SOPK" || field(f, "SIMM16") >= 0 || !free(f, 15, 0) {
		return "", false
	}
	add(f, isa.Field{Name: "SIMM16", MSB: 15, LSB: 0, Description: "16-bit immediate."})
	return "SIMM16 [15:0], the 16-bit immediate llvm-mc encodes there, is missing from the guide's table.", true
}

// bufferOffset: the GCN 5 MTBUF and CDNA 1 MUBUF tables have no OFFSET row;
// the 12-bit unsigned offset sits in [11:0] as in the other families.
func bufferOffset(_ string, f *isa.Format) (string, bool) {
	if n := name(f); n != "MTBUF" && n != "MUBUF" || field(f, "OFFSET") >= 0 || !free(f, 11, 0) {
		return "", false
	}
	add(f, isa.Field{Name: "OFFSET", MSB: 11, LSB: 0, Description: "Unsigned 12-bit byte offset (offset:N)."})
	return "OFFSET [11:0], the 12-bit offset llvm-mc encodes there, is missing from the guide's table.", true
}

// bufferSOFFSET: some (GCN 5.1, CDNA 2) also stop before SOFFSET, bits
// [63:56] in every family.
func bufferSOFFSET(_ string, f *isa.Format) (string, bool) {
	if n := name(f); n != "MTBUF" && n != "MUBUF" || f.Width != 64 || field(f, "SOFFSET") >= 0 || !free(f, 63, 56) {
		return "", false
	}
	add(f, isa.Field{Name: "SOFFSET", MSB: 63, LSB: 56, Description: "SGPR (or constant) holding the byte offset added to the address."})
	return "SOFFSET [63:56], which llvm-mc encodes there, is missing from the guide's table.", true
}

// missingEncoding: the CDNA 5 guide's VOP2 table has no ENCODING row (VOP2
// is 0 in bit 31 in every family), nor the CDNA 2 guide's SOP2 table (10
// in [31:30]); without them no identifier can be formed.
func missingEncoding(_ string, f *isa.Format) (string, bool) {
	var fd isa.Field
	switch name(f) {
	case "VOP2":
		fd = isa.Field{Name: "ENCODING", MSB: 31, LSB: 31, Fixed: "0", Description: "Must be: 0"}
	case "SOP2":
		fd = isa.Field{Name: "ENCODING", MSB: 31, LSB: 30, Fixed: "10", Description: "Must be: 10"}
	default:
		return "", false
	}
	for _, x := range f.Fields {
		if x.Fixed != "" {
			return "", false
		}
	}
	if field(f, "ENCODING") >= 0 || !free(f, fd.MSB, fd.LSB) {
		return "", false
	}
	add(f, fd)
	return fmt.Sprintf("ENCODING %s in [%d:%d], the bits llvm-mc encodes for every %s instruction, is missing from the guide's table.", fd.Fixed, fd.MSB, fd.LSB, f.Name), true
}

// MAIFormat is the CDNA guides' name of the VOP3P variant the matrix
// instructions use.
const MAIFormat = "VOP3P-MAI"

// UsesMAI reports whether an instruction the CDNA guides list among the
// VOP3P opcodes is a VOP3P-MAI word: the matrix multiplies (v_mfma_*,
// v_smfmac_*), which carry CBSZ, ABID, ACC_CD, ACC and BLGP where VOP3P
// has its modifiers ("These instructions use the VOP3P-MAI instruction
// encoding", the guides' Matrix Arithmetic Instructions chapter; llvm-mc
// prints cbsz:, abid: and blgp: for those bits).
func UsesMAI(mnemonic string) bool {
	return isa.MatrixKindOf(strings.ToLower(mnemonic)) == isa.MatrixXDL
}
