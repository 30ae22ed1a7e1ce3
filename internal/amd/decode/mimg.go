package decode

import (
	"fmt"
	"math/bits"
	"strings"
)

// MIMG (image memory) on GCN 5 / CDNA: vdata, vaddr, srsrc[, ssamp] and
// the modifiers dmask unorm glc slc a16 tfe lwe da d16, in LLVM's order.
//
// The word does not say how many address registers there are; LLVM 22's
// gfx9 disassembler prints the smallest address variant of each opcode,
// which a sweep of llvm-mc over every opcode with a16/da on and off shows to
// be one VGPR plus one per extra argument in the mnemonic (_c compare
// value, _o offsets, _b bias, _d/_cd derivatives); _l, _lz and _cl add none
// in that variant, and a16 and da change nothing. The data register count
// is popcount(dmask) (4 for gather4), halved rounding up for packed d16,
// plus one for tfe; when no variant of that size exists LLVM keeps the
// smallest one (atomics: 1-3 registers, cmpswap 2-5; gather4: 2, 4 or 5).
//
// RDNA 1-3 MIMG (with DIM and NSA address lists) is renderMIMG10's and
// renderMIMGNSA's, RDNA 4's VIMAGE/VSAMPLE renderMIMG12's.

// mimgClass is what an image mnemonic says about its operands.
type mimgClass uint8

const (
	mimgPlain   mimgClass = iota // loads, stores, get_resinfo
	mimgSampler                  // sample, gather4, get_lod: take an ssamp
	mimgGather                   // gather4*: four data registers
	mimgAtomic
	mimgCmpswap
	mimgBVH // image_bvh*: ray-tracing queries with a fixed layout
)

// mimgInfo is what an image instruction's name says about its operands,
// read once from the rules table (mimg=, mimg-args=) and the name's
// argument tokens.
type mimgInfo struct {
	class mimgClass
	addr  int // address VGPRs LLVM's gfx9 disassembler prints
	args  mimgArgs
}

var mimgClasses = map[string]mimgClass{"": mimgPlain, "plain": mimgPlain, "sampler": mimgSampler, "gather": mimgGather,
	"atomic": mimgAtomic, "cmpswap": mimgCmpswap, "bvh": mimgBVH}

// mimgOf reads an image instruction's class and address arguments: the
// rules table gives the class and the prefix after which the name lists
// its address arguments (mimg-args=image_sample: _c_d_cl_o ...; "-": a
// known layout with no argument tokens); the tokens are LLVM's image
// argument suffixes.
func mimgOf(f *facts, name string) mimgInfo {
	m := mimgInfo{class: mimgClasses[f.get("mimg")], addr: 1}
	prefix := f.get("mimg-args")
	a := mimgArgs{coords: !f.has("mimg-no-coords"), lod: f.has("mimg-lod"), ok: prefix != ""}
	if prefix != "" && prefix != "-" {
		rest, _ := strings.CutPrefix(name, prefix)
		for _, tok := range strings.Split(rest, "_") {
			t, known := mimgTokens[tok]
			if !known {
				a.ok = false
				continue
			}
			switch t {
			case mtExtra:
				a.extra++
			case mtGrads:
				a.grads = true
			case mtLod:
				a.lod = true
			case mtGrads16:
				a.grads16 = true
			}
			// LLVM's gfx9 variant: one VGPR per extra argument and per
			// derivative set.
			if m.class == mimgSampler || m.class == mimgGather {
				if t == mtExtra || t == mtGrads {
					m.addr++
				}
			}
		}
	}
	m.args = a
	return m
}

type mimgToken uint8

const (
	mtNone    mimgToken = iota
	mtExtra             // _c compare value, _o offsets, _b bias: one more address
	mtGrads             // _d, _cd: derivatives
	mtLod               // _l, _cl: a lod or clamp argument
	mtGrads16           // _g16: 16-bit derivatives
)

// mimgTokens are LLVM's image argument suffixes (the rest of a sampler's
// name after image_sample / image_gather4).
var mimgTokens = map[string]mimgToken{"": mtNone, "lz": mtNone, "c": mtExtra, "o": mtExtra, "b": mtExtra,
	"d": mtGrads, "cd": mtGrads, "l": mtLod, "cl": mtLod, "g16": mtGrads16}

// renderMIMG prints an image instruction and returns how many bytes its
// length differs from the format's width (a guide's MIMG table that
// includes the NSA dword describes 12 bytes; a word without NSA has 8).
func (r *renderer) renderMIMG(code []byte, next int) (int, error) {
	if err := r.mimgSamplerUnused(); err != nil {
		return 0, err
	}
	if g := r.d.fam.gen; (g == 10 || g == 11) && r.has(fDIM) {
		if r.f(fNSA) != 0 {
			return r.renderMIMGNSA(code, next-r.fm.Width/8)
		}
		return r.renderMIMG10(), nil
	}
	if r.d.fam.gen == 12 && (r.fm.Name == "VIMAGE" || r.fm.Name == "VSAMPLE") {
		return 0, r.renderMIMG12()
	}
	if r.d.fam.gen != 9 || !r.has(fDA) {
		r.partial = true // a layout not rendered yet
		return 0, nil
	}
	cl, addr := r.en.mimg.class, r.en.mimg.addr
	dmask := r.f(fDMASK)
	tfe := r.f(fTFE) == 1
	// CDNA 2 (gfx90a) reuses bit 16 as ACC (AGPR data) and has no TFE;
	// bit 7 is its SCC cache bit (the guide's table lists neither).
	acc, scc := false, false
	if r.d.fam.accRegs {
		acc, tfe = r.raw[0]>>16&1 == 1, false
		scc = r.raw[0]>>7&1 == 1
	}
	d16 := r.f(fD16) == 1
	n, smallest, largest := mimgDataRegs(cl, dmask, d16, tfe)
	// LLVM keeps the smallest variant when the computed size has none: the
	// tuple would run past v255 (or a255), or start at an odd register on
	// gfx90a, which requires aligned tuples.
	vdata := r.f(fVDATA)
	if n < smallest || n > largest || (cl == mimgGather && n == 3) || vdata+n > 256 ||
		(r.d.fam.accRegs && n > 1 && vdata&1 == 1) {
		n = smallest
	}
	r.dataReg(vdata, n, acc)
	r.dataReg(r.f(fVADDR), addr, false)
	r.mimgResource(cl, dmask)
	r.flag(r.f(fUNRM) == 1, "unorm")
	r.flag(r.f(fGLC) == 1, "glc")
	r.flag(r.f(fSLC) == 1, "slc")
	r.flag(scc, "scc")
	r.flag(r.f(fA16) == 1, "a16")
	r.flag(tfe, "tfe")
	r.flag(r.f(fLWE) == 1, "lwe")
	r.flag(r.f(fDA) == 1, "da")
	r.flag(d16, "d16")
	return 0, nil
}

// mimgDims are the DIM field's values as LLVM names them, with the
// coordinate and gradient counts LLVM's address-size rule uses.
var mimgDims = [8]struct {
	name          string
	coords, grads int
}{
	{"SQ_RSRC_IMG_1D", 1, 2}, {"SQ_RSRC_IMG_2D", 2, 4}, {"SQ_RSRC_IMG_3D", 3, 6}, {"SQ_RSRC_IMG_CUBE", 3, 4},
	{"SQ_RSRC_IMG_1D_ARRAY", 2, 2}, {"SQ_RSRC_IMG_2D_ARRAY", 3, 4}, {"SQ_RSRC_IMG_2D_MSAA", 3, 4},
	{"SQ_RSRC_IMG_2D_MSAA_ARRAY", 4, 4},
}

// mimgArgs is what an RDNA image mnemonic says about its address: extra
// arguments (_c, _o, _b), whether it has coordinates and a lod, clamp or
// mip argument, derivatives, and 16-bit derivatives (_g16).
type mimgArgs struct {
	extra          int
	coords, lod    bool
	grads, grads16 bool
	ok             bool // a mnemonic whose address layout we know
}

// addrWords is LLVM's address size for an image instruction (its
// getAddrSizeMIMGOp): extra arguments, coordinates and lod (packed two to
// a VGPR with a16) and gradients (packed two to a VGPR, rounded up to an
// even count, with _g16). llvm-mc 22 does not pack gradients for a16 alone,
// not even on RDNA 1, which has no _g16 instructions.
func (a mimgArgs) addrWords(dim int, a16 bool) int {
	d := mimgDims[dim&7]
	words := a.extra
	comps := 0
	if a.coords {
		comps = d.coords
	}
	if a.lod {
		comps++
	}
	if a16 {
		words += (comps + 1) / 2
	} else {
		words += comps
	}
	if a.grads {
		if a.grads16 {
			words += (d.grads/2 + 1) &^ 1
		} else {
			words += d.grads
		}
	}
	return words
}

// renderMIMG10 prints RDNA 1-3 MIMG words without an NSA address list:
// vdata, vaddr, srsrc[, ssamp], then dmask dim unorm glc slc dlc r128 a16
// tfe lwe d16. NSA words are renderMIMGNSA's.
func (r *renderer) renderMIMG10() int {
	cl, args := r.en.mimg.class, r.en.mimg.args
	if !args.ok {
		r.partial = true
		return 0
	}
	dim := r.f(fDIM)
	a16 := r.f(fA16) == 1
	addr := args.addrWords(dim, a16)
	if addr > 12 {
		addr = 16
	}
	dmask := r.f(fDMASK)
	tfe := r.f(fTFE) == 1
	n, smallest, largest := mimgDataRegs(cl, dmask, r.f(fD16) == 1, tfe)
	vdata, vaddr := r.f(fVDATA), r.f(fVADDR)
	// LLVM decodes the variant with the fewest address VGPRs and data
	// registers, then switches to the one the word asks for; it keeps the
	// decoded one when that variant does not exist or its tuples would run
	// past v255.
	sizes := mimgSequentialSizes(mimgAddrSizes(cl, args))
	decoded := bits.TrailingZeros32(sizes)
	if n < smallest || n > largest || (cl == mimgGather && n == 3) || sizes&(1<<uint(addr)) == 0 ||
		(n != smallest && vdata+n > 256) || (addr != decoded && vaddr+addr > 256) {
		n, addr = smallest, decoded
	}
	// A decoded variant that runs past v255 is printed as it is
	// (v[254:256]), as llvm-mc does.
	r.dataReg(vdata, n, false)
	r.dataReg(vaddr, addr, false)
	r.mimg10Tail(cl, dmask, dim)
	return 8 - r.fm.Width/8
}

// mimg10Modifiers prints an RDNA image word's dim and flag modifiers.
func (r *renderer) mimg10Modifiers(dim int) {
	r.mod()
	r.str("dim:")
	r.str(mimgDims[dim&7].name)
	r.end()
	for _, m := range [...]struct {
		id   fieldID
		name string
	}{{fUNRM, "unorm"}, {fGLC, "glc"}, {fSLC, "slc"}, {fDLC, "dlc"}, {fR128, "r128"}, {fA16, "a16"}, {fTFE, "tfe"}, {fLWE, "lwe"}, {fD16, "d16"}} {
		if r.has(m.id) && r.f(m.id) == 1 {
			r.modStr(m.name)
		}
	}
}

// mimgAddrSizes is the set (bit n: n address VGPRs) of address counts LLVM
// has variants of an RDNA image instruction for. Samplers (sample, gather4,
// get_lod) have a contiguous range: 1-3 VGPRs, 2-9 with derivatives (2-7
// with 16-bit ones), one more at the top for a lod or clamp argument, all
// shifted by the extra arguments (_c, _o, _b); the other instructions 1-4.
// These are LLVM's MIMG_Sampler_AddrSizes lists, which sweeps of llvm-mc
// over NSA words confirm (e.g. the 9-address variant of
// image_sample_c_d_cl_o_g16, which no DIM needs).
func mimgAddrSizes(cl mimgClass, args mimgArgs) uint32 {
	if cl != mimgSampler && cl != mimgGather {
		return 0b11110
	}
	lo, hi := 1, 3
	if args.grads {
		lo, hi = 2, 9
		if args.grads16 {
			hi = 7
		}
	}
	if args.lod {
		hi++
	}
	lo += args.extra
	hi += args.extra
	return (1<<uint(hi+1) - 1) &^ (1<<uint(lo) - 1)
}

// mimgSequentialSizes is the set of address tuple sizes LLVM has non-NSA
// variants for, given the address counts the instruction has: one per
// count, except that a 4-VGPR tuple also serves 3 addresses, an 8-VGPR one
// 5 to 8 and a 16-VGPR one 13 to 16 (LLVM's MIMG_Sampler_AddrSizes ranges).
func mimgSequentialSizes(counts uint32) uint32 {
	var set uint32
	for _, rg := range [...][2]int{{1, 1}, {2, 2}, {3, 3}, {3, 4}, {5, 5}, {6, 6}, {7, 7}, {5, 8}, {9, 9}, {10, 10}, {11, 11}, {12, 12}, {13, 16}} {
		if counts&((1<<uint(rg[1]+1)-1)&^(1<<uint(rg[0])-1)) != 0 {
			set |= 1 << uint(rg[1])
		}
	}
	return set
}

// renderMIMGNSA prints an RDNA 1-3 image word with an NSA ("non-sequential
// address") list: the first address VGPR in VADDR, one byte per further
// address in the dwords after the 8-byte word, printed as [v1, v7, v3].
//
// How LLVM 22 reads them, from sweeps of llvm-mc over opcodes, DIM, NSA,
// A16 and dmask: RDNA 1/2's NSA field counts the extra dwords (1-3), RDNA
// 3's one bit stands for one. LLVM first decodes the variant with the most
// addresses among those that take that many extra dwords (2-5 addresses
// for one dword, 6-9 for two, 10-12 for three; only counts the opcode has,
// see mimgAddrSizes), then switches to the variant with the address count
// DIM and A16 ask for and the data size dmask, d16 and tfe ask for. When
// that variant does not exist, or on RDNA 1/2 it needs more addresses than
// the decoded one, LLVM keeps the decoded variant: its address count and
// the smallest data size. RDNA 3 encodes up to 5 addresses; beyond that
// ("partial NSA") the fifth operand is a tuple of the remaining VGPRs.
// The extra dwords of the decoded variant must be there, but the word's
// length is 8 bytes plus the dwords the printed address operands fill.
func (r *renderer) renderMIMGNSA(code []byte, start int) (int, error) {
	cl, args := r.en.mimg.class, r.en.mimg.args
	if !args.ok {
		r.partial = true
		return 8 - r.fm.Width/8, nil
	}
	gfx11 := r.d.fam.gen == 11
	dwords := r.f(fNSA)
	if gfx11 {
		dwords = 1
	}
	// LLVM reads the decoded variant's address bytes, so they must be
	// there, but the word's length follows the variant it prints.
	if need := 8 + 4*dwords; start+need > len(code) {
		return 0, fmt.Errorf("truncated %s instruction: its NSA address list needs %d bytes, %d left", r.fm.Name, need, len(code)-start)
	}
	size := 8 + 4*dwords
	sizes := mimgAddrSizes(cl, args)
	lo, hi := 4*dwords-2, 4*dwords+1 // address counts that take this many extra dwords
	if hi > 12 {
		hi = 12
	}
	decoded := 0
	for n := hi; n >= lo; n-- {
		if sizes&(1<<uint(n)) != 0 {
			decoded = n
			break
		}
	}
	if decoded == 0 {
		// No variant takes this many dwords: llvm-mc rejects the word.
		return 0, fmt.Errorf("0x%08x: %s has no variant with %d NSA address dword(s)", r.raw[0], r.en.mnemonic, dwords)
	}
	dim := r.f(fDIM)
	a16 := r.f(fA16) == 1
	dmask := r.f(fDMASK)
	n, smallest, largest := mimgDataRegs(cl, dmask, r.f(fD16) == 1, r.f(fTFE) == 1)
	addr := args.addrWords(dim, a16)
	vdata := r.f(fVDATA)
	// The fifth address byte, which starts the tuple of a partial NSA list.
	tupleStart := int(code[start+11])
	if n < smallest || n > largest || (cl == mimgGather && n == 3) ||
		addr < 2 || addr >= 32 || sizes&(1<<uint(addr)) == 0 || (addr > decoded && !gfx11) ||
		(n != smallest && vdata+n > 256) || (addr > 5 && gfx11 && tupleStart+addr-4 > 256) {
		n, addr = smallest, decoded
	}
	singles, tuple := addr, 0 // address operands of one VGPR; VGPRs in the last operand
	if gfx11 && addr > 5 {
		singles, tuple = 4, addr-4
	}
	size = 8 + 4*((singles+min(tuple, 1)+2)/4)
	r.dataReg(vdata, n, false)
	r.op()
	r.str("[")
	for i := 0; i < singles+min(tuple, 1); i++ {
		if i > 0 {
			r.str(", ")
		}
		v := r.f(fVADDR)
		if i > 0 {
			v = int(code[start+8+i-1])
		}
		if i == singles {
			r.reg("v", v, tuple)
		} else {
			r.reg("v", v, 1)
		}
	}
	r.str("]")
	r.end()
	r.mimg10Tail(cl, dmask, dim)
	return size - r.fm.Width/8, nil
}

// mimgDataRegs is the number of data registers an image instruction moves
// (one per dmask bit, four for gather4, halved for packed d16, one more for
// tfe) and the range of sizes LLVM has variants for.
func mimgDataRegs(cl mimgClass, dmask int, d16, tfe bool) (n, smallest, largest int) {
	n = max(bits.OnesCount(uint(dmask)), 1)
	if cl == mimgGather {
		n = 4
	}
	if d16 {
		n = (n + 1) / 2
	}
	if tfe {
		n++
	}
	smallest, largest = 1, 5
	switch cl {
	case mimgAtomic:
		largest = 3
	case mimgCmpswap, mimgGather:
		smallest = 2
	}
	return n, smallest, largest
}

// renderMIMG12 prints RDNA 4's VIMAGE and VSAMPLE words: vdata, the
// address VGPRs, rsrc[, samp], then dmask dim unorm th scope nv r128 a16
// tfe lwe d16. Each address VGPR has its own byte (VADDR0-3 in the third
// dword, VIMAGE's VADDR4 in the top byte of the second); when the address
// needs more VGPRs than there are fields, the last field starts a tuple of
// the rest, as llvm-mc prints it ([v1, v2, v3, v[4:7]]). One address is
// printed without brackets. RSRC and SAMP are 9-bit operand codes, so
// llvm-mc also prints VGPR tuples and inline constants there; the literal
// code (255) stays Partial.
func (r *renderer) renderMIMG12() error {
	cl, args := r.en.mimg.class, r.en.mimg.args
	if f, ok := mimgFixed12[cl]; ok && r.raw[0]>>16 != mimgFallback12 {
		for i, m := range f.mask {
			if r.raw[i]&m != f.value[i] {
				return fmt.Errorf("0x%08x: %s fixes bits 0x%08x of dword %d to 0x%08x", r.raw[0], r.en.mnemonic, m, i, f.value[i])
			}
		}
	}
	if r.fm.Name == "VIMAGE" && cl != mimgBVH && r.raw[1]&mimgVaddr4Unused != 0 {
		return fmt.Errorf("0x%08x: %s has no fifth address field, but VADDR4 is %d", r.raw[0], r.en.mnemonic, r.raw[1]>>24)
	}
	// Likewise VSAMPLE's VADDR3 (the top byte of the third dword) when the
	// instruction has no variant with four or more addresses
	// (image_sample_lz on gfx1200: every bit of it flipped is rejected).
	if r.fm.Name == "VSAMPLE" && args.ok && mimgAddrSizes(cl, args) < 1<<4 && r.raw[2]>>24 != 0 {
		return fmt.Errorf("0x%08x: %s has at most three addresses, but VADDR3 is %d", r.raw[0], r.en.mnemonic, r.raw[2]>>24)
	}
	if !args.ok {
		r.partial = true
		return nil
	}
	vsample := r.fm.Name == "VSAMPLE"
	dim := r.f(fDIM)
	a16 := r.f(fA16) == 1
	dmask := r.f(fDMASK)
	tfe := r.f(fTFE) == 1
	n, smallest, largest := mimgDataRegs(cl, dmask, r.f(fD16) == 1, tfe)
	addr := args.addrWords(dim, a16)
	rsrc, samp := r.f(fSRSRC), int(r.raw[1]>>23&0x1ff)
	if rsrc == 255 || (vsample && samp == 255) {
		// llvm-mc prints a literal it does not read from the word.
		r.partial = true
		return nil
	}
	// The model names the address fields VADDR0-VADDR4, which the shared
	// field table does not map; their bits are fixed by both layouts.
	vaddr := [5]int{int(r.raw[2] & 0xff), int(r.raw[2] >> 8 & 0xff), int(r.raw[2] >> 16 & 0xff), int(r.raw[2] >> 24), int(r.raw[1] >> 24)}
	slots := 4
	if !vsample {
		slots = 5
	}
	// As on RDNA 1-3, LLVM decodes a default variant (the smallest data
	// size, one VGPR in each of VADDR0-3) and switches to the one the word
	// asks for, unless that does not exist or a tuple would run past v255.
	vdata := r.f(fVDATA)
	if n < smallest || n > largest || (cl == mimgGather && n == 3) ||
		addr >= 32 || mimgAddrSizes(cl, args)&(1<<uint(addr)) == 0 ||
		(n != smallest && vdata+n > 256) || (addr > slots && vaddr[slots-1]+addr-slots+1 > 256) {
		n, addr = smallest, 4 // VIMAGE's default too leaves VADDR4 out
	}
	r.dataReg(vdata, n, false)
	r.op()
	if addr == 1 {
		r.reg("v", vaddr[0], 1)
	} else {
		r.str("[")
		for i := 0; i < min(addr, slots); i++ {
			if i > 0 {
				r.str(", ")
			}
			if i == slots-1 && addr > slots {
				r.reg("v", vaddr[i], addr-slots+1)
			} else {
				r.reg("v", vaddr[i], 1)
			}
		}
		r.str("]")
	}
	r.end()
	// The resource and sampler are SGPR tuples other than null (LLVM's
	// SReg_256_XNULL / SReg_128_XNULL): a VGPR, constant or null code is
	// invalid.
	for _, c := range [2]int{rsrc, samp} {
		if c > 127 || r.d.fam.n32[c] == "null" {
			r.mark(invalidClass, c)
		}
		if !vsample {
			break
		}
	}
	r.sdst(rsrc, opType{'b', 256})
	if vsample {
		r.sdst(samp, opType{'b', 128})
	}
	if dmask != 0 {
		r.mod()
		r.str("dmask:")
		r.hex(uint64(dmask))
		r.end()
	}
	r.mod()
	r.str("dim:")
	r.str(mimgDims[dim&7].name)
	r.end()
	if r.has(fUNRM) && r.f(fUNRM) == 1 {
		r.modStr("unorm")
	}
	k := thLoad
	switch {
	case cl == mimgAtomic || cl == mimgCmpswap:
		k = thAtomic
	case r.en.thStore:
		k = thStore
	}
	r.cachePolicy12(false, r.f(fTH), r.f(fSCOPE), r.raw[0]>>7&1 == 1, k)
	for _, m := range [...]struct {
		id   fieldID
		name string
	}{{fR128, "r128"}, {fA16, "a16"}, {fTFE, "tfe"}, {fLWE, "lwe"}, {fD16, "d16"}} {
		if r.has(m.id) && r.f(m.id) == 1 {
			r.modStr(m.name)
		}
	}
	return nil
}

// mimgFallback12 is the top half of the RDNA 4 VIMAGE words that llvm-mc
// 22 reads as an 8-byte v_fma_mix_f32 when they break mimgFixed12's rules
// (every byte-1 value tried on gfx1200, with the BVH opcodes it covers);
// the decoder does not model that fallback and keeps printing them as the
// image instruction.
const mimgFallback12 = 0xd3a0

// mimgFixed12 are the bits (mask and value per dword) LLVM's RDNA 4
// encodings fix for a class of VIMAGE instruction; llvm-mc 22 rejects a
// word with any of them different. The BVH queries (image_bvh*;
// image_bvh_intersect_ray, bvh64 and bvh_dual swept bit by bit on
// gfx1200) fix DIM (bits 0-2) to 0, R128 (bit 4) to 1, D16, A16 and NV
// (bits 5-7) to 0, and TH, SCOPE and TFE (bits 50-55) to 0; dmask and
// bit 3 are not checked.
var mimgFixed12 = map[mimgClass]struct{ mask, value [2]uint32 }{
	mimgBVH: {mask: [2]uint32{0xf7, 0x3f << 18}, value: [2]uint32{0x10, 0}},
	// Atomics have no d16 form: D16 (bit 5) is 0 (image_atomic_add_uint
	// and image_atomic_xor tried on gfx1200).
	mimgAtomic:  {mask: [2]uint32{0x20, 0}},
	mimgCmpswap: {mask: [2]uint32{0x20, 0}},
}

// mimgVaddr4Unused is VADDR4's place (the top byte of the second dword)
// in RDNA 4's VIMAGE words: LLVM decodes them with at most four address
// fields, so llvm-mc 22 rejects a word other than a BVH query's with any
// bit of it set (every bit of it flipped on image_atomic_add_uint, and
// image_load_mip with five addresses, which llvm-mc does not assemble
// either).
const mimgVaddr4Unused = 0xff << 24

// mimgSamplerUnused rejects a GCN 5 / CDNA / RDNA 1-3 image word whose
// instruction takes no sampler but whose SSAMP field is not zero: LLVM's
// encodings of those instructions fix the field to zero, so llvm-mc 22
// rejects such a word (flipping any SSAMP bit of an image_load,
// image_store or image_atomic word on gfx900, gfx90a and gfx1100 makes it
// invalid). RDNA 4's VIMAGE has no sampler field.
func (r *renderer) mimgSamplerUnused() error {
	cl := r.en.mimg.class
	if cl == mimgSampler || cl == mimgGather || !r.has(fSSAMP) {
		return nil
	}
	if s := r.f(fSSAMP); s != 0 {
		return fmt.Errorf("0x%08x: %s takes no sampler, but its SSAMP field is %d", r.raw[0], r.en.mnemonic, s)
	}
	return nil
}

// mimgResource prints an image instruction's resource and sampler
// descriptors (a sampler only for the classes that sample) and its dmask.
func (r *renderer) mimgResource(cl mimgClass, dmask int) {
	r.sdst(r.f(fSRSRC)<<2, opType{'b', 256})
	if cl == mimgSampler || cl == mimgGather {
		r.sdst(r.f(fSSAMP)<<2, opType{'b', 128})
	}
	if dmask != 0 {
		r.mod()
		r.str("dmask:")
		r.hex(uint64(dmask))
		r.end()
	}
}

// mimg10Tail prints what follows the addresses of an RDNA 1-3.5 image
// instruction, plain or NSA: resource, sampler, dmask and the modifiers.
func (r *renderer) mimg10Tail(cl mimgClass, dmask, dim int) {
	r.mimgResource(cl, dmask)
	r.mimg10Modifiers(dim)
}
