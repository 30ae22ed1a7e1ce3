package ingest

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/amdlayout"
	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/amdmanual"
)

// The sample audit (issue 12): a seeded random sample of AMD instructions,
// ten from each of the twelve families, each page's facts compared by code
// with AMD's guide and with what llvm-mc itself says about the page's own
// examples, assembled again here:
//
//	layout     the identifier and fields shown against llvm-mc's bytes: the
//	           fixed fields hold their values, OP holds the opcode, the
//	           identifying bits are the identifier, the page's check agrees;
//	           and against the guide: the fields are the guide's, or the
//	           guide's are kept as the documented variant.
//	format     the format as the hardware has it: MFMA/SMFMAC words are
//	           VOP3P-MAI with CBSZ/ABID/BLGP, in the model and in the
//	           decoder's field list; documented SIMM16 sub-fields are shown.
//	operands   the operand count against what llvm-mc prints, and the order:
//	           every operand of a VGPR-only class prints as a VGPR (or AGPR,
//	           or "off").
//	example    (issue 12 class 4, another engineer's) an example accepted on
//	           a target of the family: counted, not failed.
//
// The test fails on a defect of the first three classes and logs the
// defect rate per class.

const auditSeed = 12

var auditClasses = []string{"layout", "format", "operands", "example"}

type auditDefect struct{ class, what string }

func TestSampleAudit(t *testing.T) {
	m := verified(t)
	src := upstreamDir(t)
	llvmMC := needLLVMPath(t)
	byArch := map[string][]*isa.Instruction{}
	for _, in := range append(append([]*isa.Instruction(nil), m.insts...), m.res.Added...) {
		if in.Vendor == isa.VendorAMD {
			byArch[in.Arch] = append(byArch[in.Arch], in)
		}
	}
	archByID := map[string]*isa.Architecture{}
	for i := range m.archs {
		archByID[m.archs[i].ID] = &m.archs[i]
	}
	rng := rand.New(rand.NewPCG(auditSeed, 2026))
	var sample []*isa.Instruction
	for _, id := range isa.AMDArchIDs() {
		list := byArch[id]
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		for _, k := range rng.Perm(len(list))[:min(10, len(list))] {
			sample = append(sample, list[k])
		}
	}
	if len(sample) < 100 {
		t.Fatalf("sample of %d instructions, want at least 100", len(sample))
	}
	famTargets := map[string]map[string]bool{}
	for _, a := range isa.Archs() {
		famTargets[a.ID] = map[string]bool{}
		for _, tg := range a.Targets {
			famTargets[a.ID][tg] = true
		}
	}

	// The guides' own layouts, read again.
	guides := map[string]*amdmanual.Guide{}
	for _, id := range isa.AMDArchIDs() {
		g, err := amdmanual.ParseFile(filepath.Join(src, "amd-isa-manuals", id, "README.md"), id)
		if err != nil {
			t.Fatal(err)
		}
		guides[id] = g
	}
	// llvm-mc on every sampled example, on the target the page names.
	byTarget := map[string][]verify.Input{}
	for _, in := range sample {
		for _, ex := range in.Examples {
			if ex.Target != "" {
				byTarget[ex.Target] = append(byTarget[ex.Target], verify.Input{Asm: ex.Asm})
			}
		}
	}
	said := map[string]verify.Outcome{} // target + "\x00" + asm
	for target, inputs := range byTarget {
		r, err := verify.Run(context.Background(), inputs, []string{target}, verify.Options{LLVMMC: llvmMC, CacheDir: testCache()})
		if err != nil {
			t.Fatal(err)
		}
		for i, in := range inputs {
			said[target+"\x00"+in.Asm] = r.Outcomes[i][0]
		}
	}
	decoders := map[string]*decode.Decoder{}
	decoderFor := func(arch string) *decode.Decoder {
		if d, ok := decoders[arch]; ok {
			return d
		}
		var vals []isa.Instruction
		for _, in := range byArch[arch] {
			vals = append(vals, *in)
		}
		d, err := decode.New(*archByID[arch], vals)
		if err != nil {
			t.Fatalf("%s decoder: %v", arch, err)
		}
		decoders[arch] = d
		return d
	}

	defectsBy := map[string]int{} // class -> defects
	instsBy := map[string]int{}   // class -> sampled instructions with a defect
	checkedBy := map[string]int{} // class -> sampled instructions checked
	perFamily := map[string]int{} // family -> sampled instructions with a class 1-3 defect
	for _, in := range sample {
		var ds []auditDefect
		checked := map[string]bool{}
		add := func(class, format string, args ...any) {
			ds = append(ds, auditDefect{class, fmt.Sprintf(format, args...)})
		}
		arch := archByID[in.Arch]
		g := guides[in.Arch]

		// example
		checked["example"] = true
		var accepted []isa.Example
		for _, ex := range in.Examples {
			if o, ok := said[ex.Target+"\x00"+ex.Asm]; ok && o.Supported && famTargets[in.Arch][ex.Target] {
				accepted = append(accepted, ex)
			}
		}
		if len(accepted) == 0 {
			add("example", "no example accepted on a %s target", in.Arch)
		}

		for _, e := range in.Encodings {
			// layout: against the guide
			if gf := g.FormatByName(e.Format); gf != nil && e.Identifier != "" {
				checked["layout"] = true
				guide := fieldText(guideFields(gf))
				switch {
				case e.Documented == nil && fieldText(e.Fields) != guide && !sameExceptParts(e.Fields, guideFields(gf)):
					add("layout", "%s: fields %s differ from the guide's %s with no documented variant", e.Format, fieldText(e.Fields), guide)
				case e.Documented != nil && fieldText(e.Documented.Fields) != guide:
					add("layout", "%s: documented variant %s is not the guide's %s", e.Format, fieldText(e.Documented.Fields), guide)
				}
			}
			// format: matrix words are VOP3P-MAI where the family has it
			if amdlayout.UsesMAI(in.Name) {
				checked["format"] = true
				if e.Format != amdlayout.MAIFormat || !hasField(e.Fields, "CBSZ") || !hasField(e.Fields, "BLGP") {
					add("format", "%s: %s encoding without the VOP3P-MAI fields", in.Name, e.Format)
				}
			}
			if kind := amdlayout.ImmediateKind(in.Name); kind != "" && len(amdlayout.ImmediateFields(in.Arch, kind)) > 0 {
				checked["format"] = true
				for _, f := range e.Fields {
					if strings.EqualFold(f.Name, "SIMM16") && len(f.Parts) == 0 {
						add("format", "%s: SIMM16 shown without its documented %s sub-fields", e.Format, kind)
					}
				}
			}
		}
		// layout and format against llvm-mc's bytes
		for _, ex := range accepted {
			o := said[ex.Target+"\x00"+ex.Asm]
			if merge.StripLLVMSuffix(strings.ToLower(o.Mnemonic())) != in.Name || len(o.Encoding) < 4 {
				continue // an alias or another form
			}
			// The encodings whose fixed bits and width llvm-mc's word has;
			// the one whose OP field holds its opcode, if any, is checked.
			w := toWords(o.Encoding)
			var cands []isa.Encoding
			var match *isa.Encoding
			for _, e := range in.Encodings {
				f := formatOf(arch, e)
				if f == nil || e.Identifier == "" || !merge.FixedMatch(*f, w[0]) || f.Width/8 != len(o.Encoding) {
					continue
				}
				cands = append(cands, e)
				if op, ok := opField(f); ok && int(op.Get(w)) == e.Opcode && match == nil {
					match = &cands[len(cands)-1]
				}
			}
			if len(cands) > 0 {
				checked["layout"] = true
			}
			switch {
			case match == nil && len(cands) > 0:
				f := formatOf(arch, cands[0])
				op, _ := opField(f)
				add("layout", "%s: llvm-mc encodes %q as %s; the OP field shown (%s) reads %d there, the opcode shown is %d",
					cands[0].Format, ex.Asm, asmtext.FormatBytes(o.Encoding), fieldText([]isa.Field{op}), op.Get(w), cands[0].Opcode)
			case match != nil:
				e := *match
				mask, _ := merge.IdentifierMask(*formatOf(arch, e))
				if got := fmt.Sprintf("0x%08X", binary.LittleEndian.Uint32(o.Encoding)&mask); got != e.Identifier {
					add("layout", "%s: llvm-mc encodes %q as %s; identifying bits %s, shown %s", e.Format, ex.Asm, asmtext.FormatBytes(o.Encoding), got, e.Identifier)
				}
				if a := e.Assembler; a != nil && !a.Agrees {
					add("layout", "%s: the page's identifier check says llvm-mc disagrees", e.Format)
				}
			}
			// the decoder's field list for llvm-mc's bytes
			if amdlayout.UsesMAI(in.Name) {
				if di, _, err := decoderFor(in.Arch).Decode(o.Encoding, 0); err != nil || di.Encoding != amdlayout.MAIFormat {
					add("format", "decode of %s: %v %s", asmtext.FormatBytes(o.Encoding), err, di.Encoding)
				}
			}
			break
		}

		// operands: count and order against llvm-mc
		for _, ex := range accepted {
			o := said[ex.Target+"\x00"+ex.Asm]
			if !ownForm(o) || merge.StripLLVMSuffix(strings.ToLower(o.Mnemonic())) != in.Name {
				continue
			}
			printed := merge.PrintedOperands(o.Printed)
			checked["operands"] = true
			lo, hi := operandRange(in.Operands)
			if len(printed) < lo || len(printed) > hi {
				add("operands", "%d operands shown (%d required), llvm-mc prints %d: %q", hi, lo, len(printed), o.Printed)
				break
			}
			// Optional operands left out come first (an atomic's result).
			ops := in.Operands[hi-len(printed):]
			for i, p := range printed {
				if vgprOnly(ops[i].OperandType) && !vgprToken(p) {
					add("operands", "operand %d %s (%s) prints as %q in %q", i+1, ops[i].Name, ops[i].OperandType, p, o.Printed)
				}
			}
			break
		}

		for _, d := range ds {
			defectsBy[d.class]++
		}
		seen := map[string]bool{}
		bad := false
		for _, d := range ds {
			if !seen[d.class] {
				seen[d.class] = true
				instsBy[d.class]++
				if d.class != "example" {
					bad = true
				}
			}
			msg := fmt.Sprintf("%s %s [%s]: %s", in.Arch, in.Name, d.class, d.what)
			if d.class == "example" {
				t.Log(msg)
			} else {
				t.Error(msg)
			}
		}
		for c := range checked {
			checkedBy[c]++
		}
		if bad {
			perFamily[in.Arch]++
		}
	}
	t.Logf("sample audit (seed %d): %d AMD instructions, 10 per family", auditSeed, len(sample))
	for _, c := range auditClasses {
		rate := 0.0
		if checkedBy[c] > 0 {
			rate = 100 * float64(instsBy[c]) / float64(checkedBy[c])
		}
		t.Logf("  %-9s %3d of %3d checked instructions with a defect (%.1f%%), %d defects", c, instsBy[c], checkedBy[c], rate, defectsBy[c])
	}
	var fams []string
	for _, id := range isa.AMDArchIDs() {
		if perFamily[id] > 0 {
			fams = append(fams, fmt.Sprintf("%s %d", id, perFamily[id]))
		}
	}
	t.Logf("  families with a layout, format or operand defect: %s", strings.Join(append(fams, "none")[:max(len(fams), 1)], ", "))
}

// needLLVMPath returns llvm-mc's path or skips.
func needLLVMPath(t *testing.T) string {
	needLLVM(t)
	p, err := verify.FindLLVMMC()
	if err != nil {
		t.Skip(err)
	}
	return p
}

func guideFields(f *amdmanual.Format) []isa.Field {
	var out []isa.Field
	for _, fd := range f.Fields {
		x := isa.Field{Name: fd.Name, Fixed: fd.Fixed}
		if len(fd.Ranges) > 0 {
			x.MSB, x.LSB = fd.Ranges[0].MSB, fd.Ranges[0].LSB
		}
		if len(fd.Ranges) > 1 {
			for _, r := range fd.Ranges {
				x.Ranges = append(x.Ranges, isa.BitRange{MSB: r.MSB, LSB: r.LSB})
			}
		}
		out = append(out, x)
	}
	return out
}

// fieldText writes a layout's names, ranges and fixed values.
func fieldText(fs []isa.Field) string {
	var out []string
	for _, f := range fs {
		s := fmt.Sprintf("%s[%d:%d]", f.Name, f.MSB, f.LSB)
		for _, r := range f.Ranges {
			s += fmt.Sprintf("{%d:%d}", r.MSB, r.LSB)
		}
		out = append(out, s+f.Fixed)
	}
	return strings.Join(out, " ")
}

// sameExceptParts: the fields are the guide's, SIMM16's documented
// sub-fields aside.
func sameExceptParts(fs, guide []isa.Field) bool {
	cp := append([]isa.Field(nil), fs...)
	for i := range cp {
		cp[i].Parts = nil
	}
	return fieldText(cp) == fieldText(guide)
}

func hasField(fs []isa.Field, name string) bool {
	for _, f := range fs {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// vgprOnly names the operand classes that are always vector registers.
func vgprOnly(kind string) bool {
	switch kind {
	case "vdst", "vsrc", "vsrc0", "vsrc1", "vsrc2", "vdata", "vdata0", "vdata1", "vaddr", "data0", "data1", "addr", "vdstx", "vdsty", "vsrcx1", "vsrcy1":
		return true
	}
	return false
}

func vgprToken(p string) bool {
	p = strings.TrimLeft(p, "-|[") // "[v2, v3]": a list of address VGPRs (NSA, RDNA 4's VIMAGE)
	return p == "off" || strings.HasPrefix(p, "v") || strings.HasPrefix(p, "a")
}

// TestFormatsAsTheHardwareHasThem (issue 12 class 2): every MFMA/SMFMAC
// encoding of the CDNA guides is a VOP3P-MAI word, in the model and in the
// decoder's field list for llvm-mc's bytes; s_waitcnt's SIMM16 is shown as
// its counters, at the bits llvm-mc encodes them on every family that has
// it.
func TestFormatsAsTheHardwareHasThem(t *testing.T) {
	m := verified(t)
	llvmMC := needLLVMPath(t)
	byArch := map[string][]isa.Instruction{}
	for _, in := range m.insts {
		byArch[in.Arch] = append(byArch[in.Arch], *in)
	}
	archByID := map[string]isa.Architecture{}
	for _, a := range m.archs {
		archByID[a.ID] = a
	}
	mai := 0
	for _, in := range m.insts {
		if !amdlayout.UsesMAI(in.Name) || !strings.HasPrefix(in.Arch, "cdna") || in.Arch == "cdna5" {
			continue
		}
		for _, e := range in.Encodings {
			mai++
			if e.Format != amdlayout.MAIFormat || !hasField(e.Fields, "CBSZ") || !hasField(e.Fields, "ABID") || !hasField(e.Fields, "BLGP") {
				t.Errorf("%s %s: %s encoding %s", in.Arch, in.Name, e.Format, fieldText(e.Fields))
			}
		}
	}
	if mai < 150 {
		t.Errorf("only %d MFMA/SMFMAC encodings in CDNA 1-4", mai)
	}
	// llvm-mc's bytes decoded: the example word, cbsz:1 abid:1 blgp:2.
	asm := "v_mfma_f32_32x32x8_f16 a[0:15], v[0:1], v[2:3], a[0:15] cbsz:1 abid:1 blgp:2"
	waitcnt := "s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)"
	for _, tc := range []struct{ arch, target, asm string }{
		{"cdna3", "gfx942", asm}, {"cdna4", "gfx950", asm},
		{"vega", "gfx900", waitcnt}, {"cdna2", "gfx90a", waitcnt}, {"rdna1", "gfx1010", waitcnt},
		{"rdna2", "gfx1030", waitcnt}, {"rdna3", "gfx1100", waitcnt}, {"rdna4", "gfx1200", waitcnt},
	} {
		r, err := verify.Run(context.Background(), []verify.Input{{Asm: tc.asm}}, []string{tc.target}, verify.Options{LLVMMC: llvmMC, CacheDir: testCache()})
		if err != nil {
			t.Fatal(err)
		}
		o := r.Outcomes[0][0]
		if !o.Supported {
			t.Fatalf("%s: llvm-mc rejects %q: %s", tc.target, tc.asm, o.Error)
		}
		d, err := decode.New(archByID[tc.arch], byArch[tc.arch])
		if err != nil {
			t.Fatal(err)
		}
		in, _, err := d.Decode(o.Encoding, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.arch, err)
		}
		fields := map[string]uint64{}
		for _, f := range in.Fields {
			fields[f.Name] = f.Value
			for _, p := range f.Parts {
				fields[p.Name] = p.Value
			}
		}
		switch tc.asm {
		case asm:
			if in.Encoding != amdlayout.MAIFormat || fields["CBSZ"] != 1 || fields["ABID"] != 1 || fields["BLGP"] != 2 || fields["ACC_CD"] != 1 {
				t.Errorf("%s: decoded %s %+v", tc.arch, in.Encoding, in.Fields)
			}
		default:
			if fields["vmcnt"] != 1 || fields["expcnt"] != 2 || fields["lgkmcnt"] != 3 {
				t.Errorf("%s: s_waitcnt's counters %v in %+v", tc.arch, fields, in.Fields)
			}
			enc := find(m.insts, tc.arch, "s_waitcnt").Encodings[0]
			parts := 0
			for _, f := range enc.Fields {
				parts += len(f.Parts)
			}
			if parts != 3 {
				t.Errorf("%s s_waitcnt: %d SIMM16 parts on the page", tc.arch, parts)
			}
		}
		if in.Text() != o.Printed {
			t.Errorf("%s: decoded %q, llvm-mc prints %q", tc.arch, in.Text(), o.Printed)
		}
	}
}
