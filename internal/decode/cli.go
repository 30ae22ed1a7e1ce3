package decode

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Loader returns a family's formats and instructions (from the database).
type Loader func(arch string) (isa.Architecture, []isa.Instruction, error)

// RunDecode implements `gpuisa decode --arch ARCH [--json] (HEX... | FILE | -)`.
// FILE (or standard input, "-") may hold hex words, llvm-mc byte lists, raw binary or an AMDGPU ELF
// code object (its .text is decoded, with symbol names). It returns the exit
// status: 0 ok, 1 some bytes did not decode, 2 usage or load errors.
func RunDecode(args []string, stdout, stderr io.Writer, load Loader) int {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	fs.SetOutput(stderr)
	arch := fs.String("arch", "", "family id or gfx target (cdna4, rdna3, gfx942)")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if *arch == "" || len(pos) == 0 {
		fmt.Fprintln(stderr, "usage: gpuisa decode --arch ARCH [--json] (HEXWORDS... | FILE | -)")
		return 2
	}
	info, ok := isa.LookupArch(*arch)
	if !ok || info.Vendor != isa.VendorAMD {
		fmt.Fprintf(stderr, "gpuisa decode: unknown AMD family %q (try one of %s)\n", *arch, strings.Join(isa.AMDArchIDs(), ", "))
		return 2
	}
	a, instrs, err := load(info.ID)
	if err != nil {
		fmt.Fprintf(stderr, "gpuisa decode: %v\n", err)
		return 2
	}
	d, err := New(a, instrs)
	if err != nil {
		fmt.Fprintf(stderr, "gpuisa decode: %v\n", err)
		return 2
	}
	var raw []byte
	switch {
	case len(pos) == 1 && pos[0] == "-":
		if raw, err = io.ReadAll(os.Stdin); err != nil {
			fmt.Fprintf(stderr, "gpuisa decode: reading standard input: %v\n", err)
			return 2
		}
	case len(pos) == 1:
		if b, err := os.ReadFile(pos[0]); err == nil {
			raw = b
		}
	}
	var code []byte
	var syms []Symbol
	switch {
	case raw != nil && IsELF(raw):
		code, syms, err = ELFText(raw)
	case raw != nil:
		code, err = ParseInput(raw)
	default:
		code, err = ParseInput([]byte(strings.Join(pos, " ")))
	}
	if err != nil {
		fmt.Fprintf(stderr, "gpuisa decode: %v\n", err)
		return 2
	}
	insts, errs := d.DecodeAll(code)
	symAt := map[int]string{}
	for _, s := range syms {
		if _, dup := symAt[s.Offset]; !dup {
			symAt[s.Offset] = s.Name
		}
	}
	for i := range insts {
		insts[i].Symbol = symAt[insts[i].Offset]
	}
	if *asJSON {
		type jerr struct {
			Offset int    `json:"offset"`
			Error  string `json:"error"`
		}
		doc := struct {
			Arch         string `json:"arch"`
			Instructions []Inst `json:"instructions"`
			Errors       []jerr `json:"errors"`
		}{Arch: info.ID, Instructions: insts, Errors: []jerr{}}
		for _, e := range errs {
			je := jerr{Error: e.Error()}
			if de, ok := e.(*Error); ok {
				je.Offset = de.Offset
			}
			doc.Errors = append(doc.Errors, je)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return 2
		}
	} else {
		// Errors and instructions interleaved by offset.
		ei := 0
		for _, in := range insts {
			for ei < len(errs) && errOffset(errs[ei]) < in.Offset {
				fmt.Fprintf(stdout, "%06x: <error: %v>\n", errOffset(errs[ei]), errs[ei])
				ei++
			}
			writeInst(stdout, in)
		}
		for ; ei < len(errs); ei++ {
			fmt.Fprintf(stdout, "%06x: <error: %v>\n", errOffset(errs[ei]), errs[ei])
		}
	}
	if len(errs) > 0 {
		return 1
	}
	return 0
}

func errOffset(e error) int {
	if de, ok := e.(*Error); ok {
		return de.Offset
	}
	return -1
}

func writeInst(w io.Writer, in Inst) {
	if in.Symbol != "" {
		fmt.Fprintf(w, "\n%s:\n", in.Symbol)
	}
	fmt.Fprintf(w, "%06x: %-48s // [%s]\n", in.Offset, in.Text(), in.Hex)
	note := ""
	if in.Partial {
		note = "; operands not fully rendered for this encoding"
	}
	if in.Extra != "" {
		note += "; followed by a " + in.Extra + " dword"
	}
	if y := in.Dual; y != nil {
		fmt.Fprintf(w, "        %s X opcode %d (%s), Y opcode %d (%s)%s\n", in.Encoding, in.Opcode, in.Name, y.Opcode, y.Name, note)
	} else {
		fmt.Fprintf(w, "        %s opcode %d (%s)%s\n", in.Encoding, in.Opcode, in.Name, note)
	}
	var parts []string
	for _, f := range in.Fields {
		s := fieldText(f)
		if len(f.Parts) > 0 {
			var sub []string
			for _, p := range f.Parts {
				sub = append(sub, fieldText(p))
			}
			s += " {" + strings.Join(sub, " ") + "}"
		}
		parts = append(parts, s)
	}
	fmt.Fprintf(w, "        %s\n", strings.Join(parts, " "))
}

// fieldText writes "NAME[msb:lsb]=value (0bbits)".
func fieldText(f FieldValue) string {
	rng := fmt.Sprintf("[%d:%d]", f.MSB, f.LSB)
	if len(f.Ranges) > 1 {
		var rs []string
		for _, r := range f.Ranges {
			rs = append(rs, fmt.Sprintf("%d:%d", r.MSB, r.LSB))
		}
		rng = "[" + strings.Join(rs, ",") + "]"
	}
	return fmt.Sprintf("%s%s=%d (0b%s)", f.Name, rng, f.Value, f.Bits)
}

// parseInterspersed lets flags come before or after positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
