package listing

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// WriteOptions choose the listing's form.
type WriteOptions struct {
	Fields bool // each instruction's fields under its line (needs Options.Fields)
	// Annotate, when set, gives the comment written after an instruction
	// (gpuisa explain); "" writes none.
	Annotate func(e *Entry) string
}

// WriteText writes the listing one line per instruction, like
// llvm-objdump: address, words in hex, text (branch targets as labels),
// and a comment with the objdump reference of a branch.
func WriteText(w io.Writer, l *Listing, o WriteOptions) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "// %s\n", l.Header())
	width := addrWidth(l)
	line := make([]byte, 0, 256)
	for _, s := range l.Sections {
		if len(l.Sections) > 1 || (s.Name != "" && s.Name != ".text") {
			fmt.Fprintf(bw, "\n// section %s\n", s.Name)
		}
		kernels := map[string]*codeobj.Kernel{}
		for i := range s.Kernels {
			kernels[s.Kernels[i].Name] = &s.Kernels[i]
		}
		for i := range s.Entries {
			e := &s.Entries[i]
			for j, lab := range e.Labels() {
				if j == 0 && e.Func {
					bw.WriteByte('\n')
				}
				bw.WriteString(lab)
				bw.WriteByte(':')
				if k := kernels[lab]; k != nil {
					bw.WriteString("  // ")
					bw.WriteString(KernelText(k, l.Target))
				} else if d := s.Directives[lab]; d != nil {
					bw.WriteString("  // ")
					bw.WriteString(directiveText(d))
				}
				bw.WriteByte('\n')
			}
			line = appendEntry(line[:0], e, width)
			if o.Annotate != nil {
				if c := o.Annotate(e); c != "" {
					line = pad(line, 72)
					line = append(line, "// "...)
					line = append(line, c...)
				}
			}
			line = append(line, '\n')
			bw.Write(line)
			if o.Fields && e.Inst != nil {
				writeFields(bw, e.Inst)
			}
		}
	}
	return bw.Flush()
}

// Header is the listing's first line: target, where it came from, counts.
func (l *Listing) Header() string {
	var parts []string
	t := l.TargetID
	if t == "" {
		t = l.Target
	}
	if t != "" {
		parts = append(parts, t)
	}
	parts = append(parts, l.Arch)
	what := l.Kind
	if l.Kind == KindObject {
		what = fmt.Sprintf("code object v%d, e_flags 0x%x", l.CodeObject, l.Flags)
	}
	parts = append(parts, what)
	if l.Chosen != "" && !strings.HasPrefix(l.Chosen, "e_flags") && l.Chosen != ".amdgcn_target" {
		parts = append(parts, "family from "+l.Chosen)
	}
	n, pad := l.counts()
	s := strings.Join(parts, ", ") + ": " + plural(n-pad, "instruction")
	if pad > 0 {
		s += fmt.Sprintf(" and %d padding words", pad)
	}
	if l.Errors > 0 {
		s += fmt.Sprintf(", %d not decoded", l.Errors)
	}
	return s
}

// plural writes "1 instruction", "2 instructions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func addrWidth(l *Listing) int {
	var hi int64
	for _, s := range l.Sections {
		if n := len(s.Entries); n > 0 {
			hi = max(hi, s.Entries[n-1].Addr)
		}
	}
	w := len(strconv.FormatInt(hi, 16))
	return max(w, 6)
}

// appendEntry writes "  000048: 160a04c1 00000000   text".
func appendEntry(b []byte, e *Entry, width int) []byte {
	b = append(b, ' ', ' ')
	b = appendAddr(b, e.Addr, width)
	b = append(b, ':', ' ')
	wstart := len(b)
	b = appendWords(b, e.Bytes)
	b = padASCII(b, wstart+27)
	switch {
	case e.Err() != "" && e.How == FromTextAlone:
		b = append(b, e.Text...)
		b = pad(b, 72)
		b = append(b, "// not assembled: "...)
		b = append(b, e.Err()...)
		return b
	case e.Err() != "":
		b = append(b, "<invalid: "...)
		b = append(b, e.Err()...)
		b = append(b, '>')
		return b
	}
	b = append(b, e.Display()...)
	if e.Repeat > 1 {
		b = append(b, " ×"...)
		b = strconv.AppendInt(b, int64(e.Repeat), 10)
	}
	var notes []string
	if ref := e.TargetRef(); ref != "" {
		notes = append(notes, ref)
	}
	if given := e.Given(); given != "" {
		notes = append(notes, "input: "+given)
	}
	if len(notes) > 0 {
		b = pad(b, 72)
		b = append(b, "// "...)
		b = append(b, strings.Join(notes, "; ")...)
	}
	return b
}

// appendAddr writes a in hex with zeros in front to width digits.
func appendAddr(b []byte, a int64, width int) []byte {
	if a < 0 || width > len(zeros) { // not an address a listing has: as strconv writes it
		start := len(b)
		b = strconv.AppendInt(b, a, 16)
		if n := len(b) - start; n < width {
			b = append(b[:start], strings.Repeat("0", width-n)...)
			b = strconv.AppendInt(b, a, 16)
		}
		return b
	}
	v := uint64(a)
	digits := (bits.Len64(v|1) + 3) / 4
	start := len(b)
	b = append(b, zeros[:max(digits, width)]...)
	for k := len(b) - 2; v != 0; k -= 2 { // two digits at a time
		p := hexPairs[v&0xff]
		if k >= start { // (an odd count's first digit is the high one alone)
			b[k] = p[0]
		}
		b[k+1] = p[1]
		v >>= 8
	}
	return b
}

// hexPairs are each byte's two hex digits.
var hexPairs = func() (t [256][2]byte) {
	for i := range t {
		t[i] = [2]byte{hexDigits[i>>4], hexDigits[i&15]}
	}
	return t
}()

// zeros pads an address: as wide as any int64 in hex.
var zeros = []byte("0000000000000000")

// pad pads b with at least one space to column to, counting characters,
// not bytes (a collapsed run's "×" is two bytes wide in UTF-8).
func pad(b []byte, to int) []byte { return padFrom(b, len(b)-continuationBytes(b), to) }

// padASCII is pad for a line that is ASCII so far (address and words),
// where a byte is a column.
func padASCII(b []byte, to int) []byte { return padFrom(b, len(b), to) }

// padFrom pads b, whose end is at column col, with at least one space to
// column to.
func padFrom(b []byte, col, to int) []byte {
	b = append(b, ' ')
	if n := col + 1; n < to {
		b = append(b, spaces[:min(to-n, len(spaces))]...)
		for n += len(spaces); n < to; n++ { // wider than spaces: rare
			b = append(b, ' ')
		}
	}
	return b
}

// spaces pads a line a run at a time.
var spaces = []byte(strings.Repeat(" ", 80))

func continuationBytes(b []byte) int {
	n := 0
	for len(b) >= 8 { // eight ASCII bytes at once: a line is mostly ASCII
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 == 0 {
			b = b[8:]
			continue
		}
		for _, c := range b[:8] {
			if c&0xc0 == 0x80 {
				n++
			}
		}
		b = b[8:]
	}
	for _, c := range b {
		if c&0xc0 == 0x80 {
			n++
		}
	}
	return n
}

// Words is the entry's machine code as little-endian dwords in hex,
// "d3cc8000 04020d08", as the listing prints it.
func (e *Entry) Words() string { return string(appendWords(nil, e.Bytes)) }

// LabelNote is what the listing writes after a label of s: the kernel's
// descriptor summary, or an assembly input's .amdhsa directives; "" for
// a plain label.
func (s *Section) LabelNote(label, target string) string {
	for i := range s.Kernels {
		if s.Kernels[i].Name == label {
			return KernelText(&s.Kernels[i], target)
		}
	}
	if d := s.Directives[label]; d != nil {
		return directiveText(d)
	}
	return ""
}

const hexDigits = "0123456789abcdef"

// appendWords writes code as little-endian dwords, as the guides and
// llvm-objdump do; a tail shorter than a dword as bytes.
func appendWords(b, code []byte) []byte {
	for i := 0; i+4 <= len(code); i += 4 {
		if i > 0 {
			b = append(b, ' ')
		}
		// The dword's bytes, most significant first, two digits each.
		p3, p2, p1, p0 := hexPairs[code[i+3]], hexPairs[code[i+2]], hexPairs[code[i+1]], hexPairs[code[i]]
		b = append(b, p3[0], p3[1], p2[0], p2[1], p1[0], p1[1], p0[0], p0[1])
	}
	for i := len(code) &^ 3; i < len(code); i++ {
		b = append(b, ' ', hexDigits[code[i]>>4], hexDigits[code[i]&15])
	}
	return b
}

// writeFields writes the format, opcode and every field of an instruction.
func writeFields(w *bufio.Writer, in *decode.Inst) {
	note := ""
	if in.Partial {
		note = "; operands not fully rendered for this encoding"
	}
	if in.Extra != "" {
		note += "; followed by a " + in.Extra + " dword"
	}
	if y := in.Dual; y != nil {
		fmt.Fprintf(w, "            %s X opcode %d (%s), Y opcode %d (%s)%s\n", in.Encoding, in.Opcode, in.Name, y.Opcode, y.Name, note)
	} else {
		fmt.Fprintf(w, "            %s opcode %d (%s)%s\n", in.Encoding, in.Opcode, in.Name, note)
	}
	parts := make([]string, 0, len(in.Fields))
	for _, f := range in.Fields {
		s := FieldText(f)
		if len(f.Parts) > 0 {
			var sub []string
			for _, p := range f.Parts {
				sub = append(sub, FieldText(p))
			}
			s += " {" + strings.Join(sub, " ") + "}"
		}
		parts = append(parts, s)
	}
	fmt.Fprintf(w, "            %s\n", strings.Join(parts, " "))
}

// FieldText writes "NAME[msb:lsb]=value (0bbits)".
func FieldText(f decode.FieldValue) string {
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

// KernelText summarises a kernel's descriptor and resource counts:
// "LDS 1024 B, scratch 0 B, kernarg 280 B, 9 VGPRs (16 allocated), 8 SGPRs, wave64".
func KernelText(k *codeobj.Kernel, target string) string {
	var parts []string
	if d := k.Descriptor; d != nil {
		parts = append(parts, fmt.Sprintf("LDS %d B", d.GroupSegmentFixedSize), fmt.Sprintf("scratch %d B", d.PrivateSegmentFixedSize),
			fmt.Sprintf("kernarg %d B", d.KernargSize))
	}
	vg, hasV := k.Counts["num_vgpr"]
	if d := k.Descriptor; d != nil {
		alloc := (d.VGPRBlocks() + 1) * codeobj.VGPRGranule(target, d.Wave32())
		if hasV {
			parts = append(parts, fmt.Sprintf("%d VGPRs (%d allocated)", vg, alloc))
		} else {
			parts = append(parts, fmt.Sprintf("%d VGPRs allocated", alloc))
		}
	} else if hasV {
		parts = append(parts, fmt.Sprintf("%d VGPRs", vg))
	}
	if ag, ok := k.Counts["num_agpr"]; ok && ag > 0 {
		parts = append(parts, fmt.Sprintf("%d AGPRs", ag))
	}
	if sg, ok := k.Counts["numbered_sgpr"]; ok {
		parts = append(parts, fmt.Sprintf("%d SGPRs", sg))
	}
	if d := k.Descriptor; d != nil {
		if major, ok := isa.GFXMajor(target); ok && major >= 10 {
			// GFX10 and later run wave32 or wave64.
			if d.Wave32() {
				parts = append(parts, "wave32")
			} else {
				parts = append(parts, "wave64")
			}
		}
		if d.DynamicStack() {
			parts = append(parts, "dynamic stack")
		}
	}
	if len(parts) == 0 {
		return "kernel"
	}
	return "kernel: " + strings.Join(parts, ", ")
}

// directiveText summarises an assembly input's .amdhsa directives.
func directiveText(d map[string]string) string {
	var parts []string
	for _, k := range [][2]string{{".amdhsa_group_segment_fixed_size", "LDS %s B"}, {".amdhsa_private_segment_fixed_size", "scratch %s B"},
		{".amdhsa_kernarg_size", "kernarg %s B"}, {".amdhsa_next_free_vgpr", "next free VGPR %s"}, {".amdhsa_next_free_sgpr", "next free SGPR %s"},
		{".amdhsa_accum_offset", "AGPRs from v%s"}} {
		if v, ok := d[k[0]]; ok {
			parts = append(parts, fmt.Sprintf(k[1], v))
		}
	}
	if v := d[".amdhsa_wavefront_size32"]; v == "1" {
		parts = append(parts, "wave32")
	}
	return "kernel: " + strings.Join(parts, ", ")
}

// JSON is the listing as `gpuisa decode --json` prints it.
type JSON struct {
	Arch       string        `json:"arch"`
	Target     string        `json:"target,omitempty"`
	TargetID   string        `json:"target_id,omitempty"`
	Input      string        `json:"input"`
	Chosen     string        `json:"family_from,omitempty"`
	Flags      string        `json:"e_flags,omitempty"`
	CodeObject int           `json:"code_object_version,omitempty"`
	Sections   []JSONSection `json:"sections"`
	// Instructions and Errors are every section's, in order (the
	// sections list them too, with their kernels).
	Instructions []JSONEntry `json:"instructions"`
	Errors       []JSONError `json:"errors"`
}

// JSONSection is one section.
type JSONSection struct {
	Name    string       `json:"name"`
	Kernels []JSONKernel `json:"kernels"`
	Count   int          `json:"instructions"`
}

// JSONKernel is a kernel with its descriptor.
type JSONKernel struct {
	Name       string              `json:"name"`
	Address    int64               `json:"address"`
	Summary    string              `json:"summary"`
	Descriptor *codeobj.Descriptor `json:"descriptor,omitempty"`
	Counts     map[string]int64    `json:"counts,omitempty"`
}

// JSONEntry is one instruction: the decoder's Inst with the listing's
// address, labels and branch target.
type JSONEntry struct {
	*decode.Inst
	Address     int64    `json:"address"`
	Text        string   `json:"text"`
	Labels      []string `json:"labels,omitempty"`
	Target      *int64   `json:"branch_target,omitempty"`
	TargetLabel string   `json:"branch_label,omitempty"`
	Repeat      int      `json:"repeat,omitempty"`
	Given       string   `json:"input_text,omitempty"`
	How         string   `json:"from"`
	Line        int      `json:"line,omitempty"`
}

// JSONError is a word that did not decode or a line that did not assemble.
type JSONError struct {
	Offset int64  `json:"offset"`
	Line   int    `json:"line,omitempty"`
	Error  string `json:"error"`
}

// ToJSON builds the JSON document.
func (l *Listing) ToJSON() JSON {
	doc := JSON{Arch: l.Arch, Target: l.Target, TargetID: l.TargetID, Input: l.Kind, Chosen: l.Chosen, CodeObject: l.CodeObject,
		Sections: []JSONSection{}, Instructions: []JSONEntry{}, Errors: []JSONError{}}
	if l.Kind == KindObject {
		doc.Flags = fmt.Sprintf("0x%x", l.Flags)
	}
	for _, s := range l.Sections {
		js := JSONSection{Name: s.Name, Kernels: []JSONKernel{}}
		for i := range s.Kernels {
			k := &s.Kernels[i]
			js.Kernels = append(js.Kernels, JSONKernel{Name: k.Name, Address: int64(k.Offset), Summary: KernelText(k, l.Target), Descriptor: k.Descriptor, Counts: k.Counts})
		}
		for i := range s.Entries {
			e := &s.Entries[i]
			if e.Err() != "" && e.How != FromTextAlone {
				doc.Errors = append(doc.Errors, JSONError{Offset: e.Addr, Line: int(e.Src), Error: e.Err()})
				continue
			}
			if e.Err() != "" {
				doc.Errors = append(doc.Errors, JSONError{Offset: e.Addr, Line: int(e.Src), Error: "not assembled: " + e.Err()})
			}
			je := JSONEntry{Inst: e.Inst, Address: e.Addr, Text: e.Display(), Labels: e.Labels(), TargetLabel: e.TargetLabel(), Given: e.Given(), How: e.How.String(), Line: int(e.Src)}
			if e.Repeat > 1 {
				je.Repeat = e.Repeat
			}
			if e.Target >= 0 {
				t := e.Target
				je.Target = &t
			}
			doc.Instructions = append(doc.Instructions, je)
			js.Count += e.Repeat
		}
		doc.Sections = append(doc.Sections, js)
	}
	return doc
}

// WriteJSON writes the JSON document.
func WriteJSON(w io.Writer, l *Listing) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l.ToJSON()); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteShowEncoding writes llvm-mc's -show-encoding layout: labels, and
// each instruction with its bytes ("v_max_f32_e32 v5, -1, v2 ; encoding:
// [0xc1,0x04,0x0a,0x16]"); lines that did not assemble are left out.
func WriteShowEncoding(w io.Writer, l *Listing) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	line := make([]byte, 0, 160)
	for _, s := range l.Sections {
		for i := range s.Entries {
			e := &s.Entries[i]
			for _, lab := range e.Labels() {
				bw.WriteString(lab)
				bw.WriteString(":\n")
			}
			if e.Err() != "" {
				continue
			}
			for r := 0; r < e.Repeat; r++ {
				line = append(line[:0], '\t')
				line = append(line, e.Display()...)
				line = pad(line, 41)
				line = append(line, "; encoding: ["...)
				for j, c := range e.Bytes {
					if j > 0 {
						line = append(line, ',')
					}
					line = append(line, '0', 'x', hexDigits[c>>4], hexDigits[c&15])
				}
				line = append(line, "]\n"...)
				bw.Write(line)
			}
		}
	}
	return bw.Flush()
}
