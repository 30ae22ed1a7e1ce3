package decode

import (
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
// RDNA's MIMG (NSA address lists, DIM) and gfx12's VIMAGE/VSAMPLE are not
// rendered yet: those instructions stay Partial.

// mimgClass is what an image mnemonic says about its operands.
type mimgClass uint8

const (
	mimgPlain   mimgClass = iota // loads, stores, get_resinfo
	mimgSampler                  // sample, gather4, get_lod: take an ssamp
	mimgGather                   // gather4*: four data registers
	mimgAtomic
	mimgCmpswap
)

// classifyMIMG reads an image mnemonic: its class and how many address
// VGPRs LLVM's gfx9 disassembler prints for it.
func classifyMIMG(name string) (mimgClass, int) {
	var rest string
	cl := mimgPlain
	switch {
	case strings.HasPrefix(name, "image_atomic_"):
		if strings.Contains(name, "cmpswap") {
			return mimgCmpswap, 1
		}
		return mimgAtomic, 1
	case strings.HasPrefix(name, "image_gather4"):
		cl, rest = mimgGather, name[len("image_gather4"):]
	case strings.HasPrefix(name, "image_sample"):
		cl, rest = mimgSampler, name[len("image_sample"):]
	case strings.HasPrefix(name, "image_get_lod"):
		return mimgSampler, 1
	default:
		return mimgPlain, 1
	}
	addr := 1
	for rest != "" {
		i := strings.IndexByte(rest, '_')
		var tok string
		if i < 0 {
			tok, rest = rest, ""
		} else {
			tok, rest = rest[:i], rest[i+1:]
		}
		switch tok {
		case "c", "o", "b", "d", "cd":
			addr++
		}
	}
	return cl, addr
}

// renderMIMG prints an image instruction and returns how many bytes its
// length differs from the format's width (a guide's MIMG table that
// includes the NSA dword describes 12 bytes; a word without NSA has 8).
func (r *renderer) renderMIMG() int {
	if g := r.d.fam.gen; (g == 10 || g == 11) && r.has(fDIM) {
		return r.renderMIMG10()
	}
	if r.d.fam.gen != 9 || !r.has(fDA) {
		r.partial = true // gfx12 VIMAGE/VSAMPLE not rendered yet
		return 0
	}
	cl, addr := classifyMIMG(r.en.mnemonic)
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
	if r.f(fUNRM) == 1 {
		r.modStr("unorm")
	}
	if r.f(fGLC) == 1 {
		r.modStr("glc")
	}
	if r.f(fSLC) == 1 {
		r.modStr("slc")
	}
	if scc {
		r.modStr("scc")
	}
	if r.f(fA16) == 1 {
		r.modStr("a16")
	}
	if tfe {
		r.modStr("tfe")
	}
	if r.f(fLWE) == 1 {
		r.modStr("lwe")
	}
	if r.f(fDA) == 1 {
		r.modStr("da")
	}
	if d16 {
		r.modStr("d16")
	}
	return 0
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

func parseMIMGArgs(name string) mimgArgs {
	a := mimgArgs{coords: true, ok: true}
	var rest string
	switch {
	case strings.HasPrefix(name, "image_sample"):
		rest = name[len("image_sample"):]
	case strings.HasPrefix(name, "image_gather4h"):
		rest = name[len("image_gather4h"):]
	case strings.HasPrefix(name, "image_gather4"):
		rest = name[len("image_gather4"):]
	case name == "image_get_lod":
	case name == "image_get_resinfo":
		a.coords, a.lod = false, true
	case strings.HasPrefix(name, "image_load_mip"), strings.HasPrefix(name, "image_store_mip"):
		a.lod = true
	case strings.HasPrefix(name, "image_load"), strings.HasPrefix(name, "image_store"), strings.HasPrefix(name, "image_atomic_"):
	default:
		a.ok = false // msaa_load, bvh_intersect_ray, ...: not worked out yet
	}
	for rest != "" {
		i := strings.IndexByte(rest, '_')
		var tok string
		if i < 0 {
			tok, rest = rest, ""
		} else {
			tok, rest = rest[:i], rest[i+1:]
		}
		switch tok {
		case "c", "o", "b":
			a.extra++
		case "d", "cd":
			a.grads = true
		case "l", "cl":
			a.lod = true
		case "g16":
			a.grads16 = true
		case "", "lz":
		default:
			a.ok = false
		}
	}
	return a
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
// tfe lwe d16. NSA words (separate address VGPRs in extra dwords) stay
// Partial: the number of dwords LLVM reads for them is not worked out yet.
func (r *renderer) renderMIMG10() int {
	if r.f(fNSA) != 0 {
		r.partial = true
		return 0
	}
	cl, _ := classifyMIMG(r.en.mnemonic)
	args := parseMIMGArgs(r.en.mnemonic)
	if !args.ok {
		r.partial = true
		return 0
	}
	dim := r.f(fDIM)
	if (cl == mimgSampler || cl == mimgGather) && dim == 7 && !args.grads {
		// llvm-mc 22 prints other register counts for samplers on
		// 2D_MSAA_ARRAY (a variant it keeps); not worked out yet.
		r.partial = true
		return 8 - r.fm.Width/8
	}
	a16 := r.f(fA16) == 1
	addr := args.addrWords(dim, a16)
	if addr > 12 {
		addr = 16
	}
	dmask := r.f(fDMASK)
	tfe := r.f(fTFE) == 1
	n, smallest, largest := mimgDataRegs(cl, dmask, r.f(fD16) == 1, tfe)
	vdata, vaddr := r.f(fVDATA), r.f(fVADDR)
	if n < smallest || n > largest || (cl == mimgGather && n == 3) || vdata+n > 256 || vaddr+addr > 256 {
		r.partial = true // LLVM keeps a variant we cannot tell
		return 8 - r.fm.Width/8
	}
	r.dataReg(vdata, n, false)
	r.dataReg(vaddr, addr, false)
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
	return 8 - r.fm.Width/8
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
