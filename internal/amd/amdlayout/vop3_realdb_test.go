package amdlayout_test

import (
	"context"
	"encoding/binary"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/testing/realdb"
)

var realDB = realdb.DB{Env: "GPUISA_DB"}

// vop3Formats are the guides' names of the 64-bit VALU layouts whose
// register fields this test places: VOP3A and VOP3B (GCN 5, CDNA, RDNA
// 1-2), VOP3 and VOP3SD (RDNA 3 and later, CDNA 5).
var vop3Formats = map[string]bool{"VOP3A": true, "VOP3B": true, "VOP3": true, "VOP3SD": true}

// TestVOP3LayoutsMatchLLVM holds every VOP3 encoding's stored layout to
// llvm-mc's bytes: for each 64-bit VOP3 encoding, its examples' bytes, or
// where it has none (the encodings the guides' "VOP2 opcode + 0x100" rule
// derives) llvm-mc's bytes for the instruction's plain example written
// as its _e64 form. The example's operands, matched to the model's (from
// LLVM's syntax), go into the layout's register fields: the outputs into
// VDST then SDST, the inputs into SRC0, SRC1, SRC2; OP and the fixed
// ENCODING bits are set and every other field is zero (no modifiers), and
// the word must be llvm-mc's. A carry-out instruction drawn as VOP3A has
// no field for its scalar destination and fails. A destination field no
// operand fills (an implicit EXEC) is not compared. Examples this cannot
// code (modifiers, literals, unknown operands) are skipped and counted.
func TestVOP3LayoutsMatchLLVM(t *testing.T) {
	// llvm-mc's encodings are what the layouts are held to: the database
	// is built with llvm-mc (cached), without ptxas, which this test does
	// not read.
	path, err := realDB.Path(ingest.Options{NoPTXAS: true})
	if err != nil {
		t.Fatalf("building the real database: %v", err)
	}
	if path == "" {
		t.Skip("no database: set GPUISA_DB or provide ../shared/upstream")
	}
	db := realdb.Open(t, path)
	ctx := context.Background()
	var cases []vop3Case
	for _, a := range isa.Archs() {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		insts, err := db.Instructions(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range insts {
			for _, e := range in.Encodings {
				if vop3Formats[e.Format] && e.Width == 64 {
					cases = append(cases, vop3Case{arch: a.ID, in: in, enc: e})
				}
			}
		}
	}
	assembled := assembleE64(t, cases)
	checked, skipped, fromMC := 0, 0, 0
	perFormat := map[string]int{}
	for _, c := range cases {
		exs := ownExamples(c.in, c.enc)
		if len(exs) == 0 {
			exs = assembled[c.key()]
			fromMC += len(exs)
		}
		for _, ex := range exs {
			ok, msg := checkVOP3(c.in, c.enc, ex)
			switch {
			case msg != "":
				t.Errorf("%s %s %s: %s", c.arch, c.in.Name, c.enc.Name, msg)
				checked++
			case ok:
				checked++
				perFormat[c.enc.Format]++
			default:
				skipped++
			}
		}
	}
	t.Logf("%d examples checked on %d VOP3 encodings (%d assembled as _e64 here; agreeing by format %v), %d skipped", checked, len(cases), fromMC, perFormat, skipped)
	if checked == 0 {
		t.Error("no VOP3 example could be checked: the database has no llvm-mc encodings")
	}
}

type vop3Case struct {
	arch string
	in   *isa.Instruction
	enc  isa.Encoding
}

func (c vop3Case) key() string { return c.arch + " " + c.in.Name + " " + c.enc.Name }

// ownExamples are the instruction's examples whose llvm-mc bytes are a
// 64-bit word of this encoding.
func ownExamples(in *isa.Instruction, e isa.Encoding) []isa.Example {
	var out []isa.Example
	for _, ex := range in.Examples {
		if _, ok := wordOf(e, parseBytes(ex.Encoding)); ok {
			out = append(out, ex)
		}
	}
	return out
}

// assembleE64 has llvm-mc encode, per target, the _e64 form of the plain
// example of every encoding without a 64-bit example of its own.
func assembleE64(t *testing.T, cases []vop3Case) map[string][]isa.Example {
	byTarget := map[string]*verify.Batch{}
	want := map[string][][2]string{} // case key -> (target, asm)
	for _, c := range cases {
		if len(ownExamples(c.in, c.enc)) > 0 {
			continue
		}
		for _, ex := range c.in.Examples {
			mn, rest, _ := strings.Cut(strings.TrimSpace(ex.Asm), " ")
			if mn != c.in.Name || ex.Target == "" {
				continue
			}
			asm := mn + "_e64 " + rest
			if byTarget[ex.Target] == nil {
				byTarget[ex.Target] = &verify.Batch{}
			}
			byTarget[ex.Target].Add(asm)
			want[c.key()] = append(want[c.key()], [2]string{ex.Target, asm})
			break
		}
	}
	out := map[string][]isa.Example{}
	if len(want) == 0 {
		return out
	}
	if _, err := verify.FindLLVMMC(); err != nil {
		t.Logf("SKIPPING %d VOP3 encodings without an example of their own: no llvm-mc (%v)", len(want), err)
		return out
	}
	results := map[string]verify.Results{}
	for target, b := range byTarget {
		r, err := verify.Run(context.Background(), b.Inputs, []string{target}, verify.Options{})
		if err != nil {
			t.Fatalf("llvm-mc on %s: %v", target, err)
		}
		results[target] = r
	}
	for key, list := range want {
		for _, ta := range list {
			o, ok := results[ta[0]].Get(byTarget[ta[0]].Index[ta[1]], ta[0])
			if !ok || !o.Supported {
				continue
			}
			out[key] = append(out[key], isa.Example{Asm: ta[1], Target: ta[0], Encoding: byteList(o.Encoding)})
		}
	}
	return out
}

func byteList(b []byte) string {
	parts := make([]string, len(b))
	for i, x := range b {
		parts[i] = "0x" + strconv.FormatUint(uint64(x), 16)
	}
	return strings.Join(parts, ",")
}

// wordOf is the 64-bit word of bytes when they are one of e's words.
func wordOf(e isa.Encoding, bytes []byte) (uint64, bool) {
	enc, op := fieldNamed(e.Fields, "ENCODING"), fieldNamed(e.Fields, "OP")
	if enc == nil || op == nil || enc.Fixed == "" || len(bytes) != 8 {
		return 0, false
	}
	fixed, err := strconv.ParseUint(enc.Fixed, 2, 64)
	word := binary.LittleEndian.Uint64(bytes)
	return word, err == nil && get(word, *enc) == fixed && get(word, *op) == uint64(e.Opcode)
}

// checkVOP3 places one example in e's layout: ok when it agrees with
// llvm-mc's word, a message when it does not, neither when the example
// cannot be placed.
func checkVOP3(in *isa.Instruction, e isa.Encoding, ex isa.Example) (bool, string) {
	word, ok := wordOf(e, parseBytes(ex.Encoding))
	if !ok {
		return false, ""
	}
	ops, ok := exampleOperands(ex.Asm)
	if !ok || len(ops) != len(in.Operands) || len(ops) == 0 {
		return false, ""
	}
	var outs, ins []operand
	for i, o := range in.Operands {
		switch {
		case o.Output && !o.Input:
			outs = append(outs, ops[i])
		case o.Input && !o.Output:
			ins = append(ins, ops[i])
		default:
			return false, ""
		}
	}
	enc, op := fieldNamed(e.Fields, "ENCODING"), fieldNamed(e.Fields, "OP")
	fixed, _ := strconv.ParseUint(enc.Fixed, 2, 64)
	want := set(set(0, *enc, fixed), *op, uint64(e.Opcode))
	compare := ^uint64(0)
	for _, group := range []struct {
		names []string
		ops   []operand
		dst   bool
	}{{[]string{"VDST", "SDST"}, outs, true}, {[]string{"SRC0", "SRC1", "SRC2"}, ins, false}} {
		i := 0
		for _, name := range group.names {
			f := fieldNamed(e.Fields, name)
			if f == nil {
				continue
			}
			if i >= len(group.ops) {
				if group.dst {
					compare = set(compare, *f, 0) // an implicit destination
				}
				continue
			}
			v := group.ops[i].src
			if group.dst {
				v = group.ops[i].dst
			}
			want = set(want, *f, v)
			i++
		}
		if i < len(group.ops) {
			return true, "the layout has no field for operand " + strconv.Itoa(i+1) + " of " + strconv.Quote(ex.Asm) + " (llvm-mc " + ex.Target + ": " + ex.Encoding + ")"
		}
	}
	if want&compare != word&compare {
		return true, "layout gives 0x" + strconv.FormatUint(want, 16) + " for " + strconv.Quote(ex.Asm) + ", llvm-mc (" + ex.Target + ") 0x" + strconv.FormatUint(word, 16)
	}
	return true, ""
}

func fieldNamed(fields []isa.Field, name string) *isa.Field {
	for i := range fields {
		if fields[i].Name == name && len(fields[i].Ranges) == 0 {
			return &fields[i]
		}
	}
	return nil
}

func get(w uint64, f isa.Field) uint64 {
	return w >> uint(f.LSB) & (1<<uint(f.MSB-f.LSB+1) - 1)
}

func set(w uint64, f isa.Field, v uint64) uint64 {
	m := uint64(1)<<uint(f.MSB-f.LSB+1) - 1
	return w&^(m<<uint(f.LSB)) | (v&m)<<uint(f.LSB)
}

func parseBytes(s string) []byte {
	var out []byte
	for _, p := range strings.Split(s, ",") {
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(p), "0x"), 16, 8)
		if err != nil {
			return nil
		}
		out = append(out, byte(v))
	}
	return out
}

// operand is one register operand's code as a destination field holds it
// (VGPR n: n) and as a source field does (VGPR n: 256 + n).
type operand struct{ dst, src uint64 }

var (
	regRe    = regexp.MustCompile(`^([vs])(?:(\d+)|\[(\d+):\d+\])$`)
	specials = map[string]uint64{"null": 125, "vcc": 106, "vcc_lo": 106, "vcc_hi": 107, "m0": 124, "exec": 126, "exec_lo": 126, "exec_hi": 127}
	floats   = map[string]uint64{"0.5": 240, "-0.5": 241, "1.0": 242, "-1.0": 243, "2.0": 244, "-2.0": 245, "4.0": 246, "-4.0": 247}
)

// exampleOperands reads an example's operands: registers, the special
// scalar registers and inline constants; false for anything else
// (modifiers, literals, named options).
func exampleOperands(asm string) ([]operand, bool) {
	_, rest, _ := strings.Cut(strings.TrimSpace(asm), " ")
	if strings.TrimSpace(rest) == "" {
		return nil, false
	}
	var out []operand
	for _, p := range strings.Split(rest, ",") {
		p = strings.TrimSpace(p)
		if m := regRe.FindStringSubmatch(p); m != nil {
			n, _ := strconv.ParseUint(m[2]+m[3], 10, 64)
			if m[1] == "v" {
				out = append(out, operand{dst: n, src: 256 + n})
			} else {
				out = append(out, operand{dst: n, src: n})
			}
			continue
		}
		if v, ok := specials[p]; ok {
			out = append(out, operand{dst: v, src: v})
			continue
		}
		if v, ok := floats[p]; ok {
			out = append(out, operand{dst: v, src: v})
			continue
		}
		if n, err := strconv.ParseInt(p, 10, 64); err == nil && n >= -16 && n <= 64 {
			c := uint64(128 + n)
			if n < 0 {
				c = uint64(192 - n)
			}
			out = append(out, operand{dst: c, src: c})
			continue
		}
		return nil, false
	}
	return out, true
}
