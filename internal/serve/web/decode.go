package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/encode"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Decoders, encoders and notes come from the shared per-family cache
// (package codecache) over the store: built on first use from the tables
// the build prepared, and kept, since the database is read-only while
// served.

// maxDecodeBytes bounds the machine code one request decodes; maxHexLen the
// text it may paste.
const (
	maxDecodeBytes = 1024
	maxHexLen      = 8192
)

// decoder returns the family's decoder, building it on first use. The
// build does not use the request's context: a cancelled request must not
// leave the family without a decoder for good.
func (s *server) decoder(arch string) (*decode.Decoder, error) {
	d, err := s.codecs.Decoder(context.Background(), arch)
	if err != nil && errs.KindOf(err) == errs.KindOther {
		s.log.Error("building decoder", "arch", arch, "err", err)
		return nil, fmt.Errorf("loading %s for the decoder: %w", arch, err)
	}
	return d, err
}

// encoder returns the family's encoder, built with its decoder.
func (s *server) encoder(arch string) (*encode.Encoder, error) {
	if _, err := s.decoder(arch); err != nil {
		return nil, err
	}
	return s.codecs.Encoder(context.Background(), arch)
}

// DecodeError is one piece of machine code that did not decode.
type DecodeError struct {
	Offset  int    `json:"offset"` // byte offset into the input
	Message string `json:"message"`
}

// DecodeResult is the answer of /api/v1/decode.
type DecodeResult struct {
	Arch         string        `json:"arch"`
	Length       int           `json:"length"` // bytes of machine code read from hex
	Instructions []decode.Inst `json:"instructions"`
	Errors       []DecodeError `json:"errors"`
}

// decodeAll decodes code from the start; like llvm-mc it reports an
// undecodable dword and goes on 4 bytes later.
func decodeAll(d *decode.Decoder, code []byte) ([]decode.Inst, []DecodeError) {
	insts := []decode.Inst{}
	bad := []DecodeError{}
	for off := 0; off < len(code); {
		in, n, err := d.Decode(code, off)
		if err != nil {
			de := DecodeError{Offset: off, Message: err.Error()}
			var e *decode.Error
			if errors.As(err, &e) {
				de.Offset, de.Message = e.Offset, e.Msg
			}
			bad = append(bad, de)
			off += 4
			continue
		}
		if n <= 0 { // never loop forever on a decoder bug
			bad = append(bad, DecodeError{Offset: off, Message: "the decoder consumed no bytes"})
			off += 4
			continue
		}
		insts = append(insts, in)
		off += n
	}
	return insts, bad
}

// parseMachineCode reads pasted text as the decoder's input.
func parseMachineCode(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, errs.Invalid("no machine code given: paste hex words (0x160a04c1) or an llvm-mc byte list ([0xc1,0x04,0x0a,0x16])")
	}
	if len(text) > maxHexLen {
		return nil, errs.Invalid("the input is longer than %d characters", maxHexLen)
	}
	code, err := decode.ParseInput([]byte(text))
	if err != nil {
		return nil, errs.Invalid("%v", err)
	}
	if len(code) == 0 {
		return nil, errs.Invalid("no machine code found in the input")
	}
	if len(code) > maxDecodeBytes {
		return nil, errs.Invalid("%d bytes of machine code; at most %d are decoded per request", len(code), maxDecodeBytes)
	}
	return code, nil
}

// decodeArch turns a search's family filter into the id decodeQuery takes:
// "" for none, and a value no family answers to as itself (so nothing is
// decoded for an unknown family; the search reports it).
func (s *server) decodeArch(ctx context.Context, arch string) string {
	if arch == "" {
		return ""
	}
	if a, err := s.lookupArch(ctx, arch); err == nil {
		return a.ID
	}
	return arch
}

// machineCode is the machine code of a search and the family to decode it
// on (decodeArch's id): the query and the family filter, or the words
// beside a family, target or product the query names ("0xbf810000
// gfx942": gfx942's family), as the page's shortcut decodes them.
func (s *server) machineCode(ctx context.Context, q, arch string) (string, string) {
	return decode.ScopedMachineCode(q, s.decodeArch(ctx, arch), func(q string) (string, string) {
		sc := s.processors.ScopeOf(q)
		return sc.Arch, sc.Rest
	})
}

// DecodedHit is the machine code of a hex search decoded on one family.
type DecodedHit struct {
	Arch         string           `json:"arch"`
	Instructions []DecodedSummary `json:"instructions"`
}

// DecodedSummary is one decoded instruction of a hex search.
type DecodedSummary struct {
	Offset   int    `json:"offset"`
	Name     string `json:"name"` // the model's mnemonic, the instruction page's name
	Text     string `json:"text"` // in LLVM's assembler syntax
	Encoding string `json:"encoding"`
}

// decodeQuery decodes a hex search on one family (arch) or on every AMD
// family; it keeps the families on which every byte decoded.
func (s *server) decodeQuery(q, arch string) []DecodedHit {
	if !decode.LooksLikeMachineCode(q) {
		return nil
	}
	code, err := parseMachineCode(q)
	if err != nil {
		return nil
	}
	var archs []string
	for _, a := range s.archs {
		if a.Kind == isa.KindNative && (arch == "" || a.ID == arch) {
			archs = append(archs, a.ID)
		}
	}
	// The first search over every family builds every decoder; build them
	// side by side rather than one after another.
	decs := make([]*decode.Decoder, len(archs))
	var wg sync.WaitGroup
	for i, id := range archs {
		wg.Go(func() { decs[i], _ = s.decoder(id) })
	}
	wg.Wait()
	var out []DecodedHit
	for i, id := range archs {
		d := decs[i]
		if d == nil {
			continue
		}
		insts, bad := decodeAll(d, code)
		if len(bad) > 0 || len(insts) == 0 {
			continue
		}
		h := DecodedHit{Arch: id}
		for _, in := range insts {
			h.Instructions = append(h.Instructions, DecodedSummary{Offset: in.Offset, Name: in.Name, Text: in.Text(), Encoding: in.Encoding})
		}
		out = append(out, h)
	}
	return out
}

// decodedGroup is a set of families on which the same words decode to the
// same text, for the search page.
type decodedGroup struct {
	Text      string
	Links     []link // the instruction on each family (Text: family name)
	DecodeURL string // the decode page of the first family, with the bit diagram
}

func groupDecoded(hits []DecodedHit, q string) []decodedGroup {
	var out []decodedGroup
	index := map[string]int{}
	for _, h := range hits {
		var parts []string
		for _, in := range h.Instructions {
			parts = append(parts, in.Text)
		}
		text := strings.Join(parts, "\n")
		i, ok := index[text]
		if !ok {
			i = len(out)
			index[text] = i
			out = append(out, decodedGroup{Text: text,
				DecodeURL: "/decode?arch=" + url.QueryEscape(h.Arch) + "&hex=" + url.QueryEscape(q)})
		}
		first := h.Instructions[0]
		out[i].Links = append(out[i].Links, link{Text: archName(h.Arch), URL: instrURL(h.Arch, first.Name)})
	}
	return out
}

// --- decoded instructions on pages ---

// decodedView is one decoded instruction as the pages show it.
type decodedView struct {
	Inst         decode.Inst
	Text         string
	URL          string // its instruction page, "" when the family has none
	DualURL      string // the page of a VOPD word's Y operation
	Wide, Narrow diagram
	Fields       []fieldValueRow
}

type fieldValueRow struct {
	Name, Range, Bits, Hex string
	Value                  uint64
	Fixed                  bool
}

// viewDecoded prepares a decoded instruction for a page: the bit diagram with
// the value of every field written in its box, and the field table.
func (s *server) viewDecoded(arch string, in decode.Inst) decodedView {
	v := decodedView{Inst: in, Text: in.Text()}
	if in.Name != "" && s.hasInstruction(arch, in.Name) {
		v.URL = instrURL(arch, in.Name)
	}
	if in.Dual != nil && s.hasInstruction(arch, in.Dual.Name) {
		v.DualURL = instrURL(arch, in.Dual.Name)
	}
	fixed := map[string]bool{}
	for _, a := range s.archs {
		if a.ID != arch {
			continue
		}
		for _, f := range a.Formats {
			if strings.EqualFold(f.Name, in.Encoding) {
				for _, fl := range f.Fields {
					if fl.Fixed != "" {
						fixed[strings.ToUpper(fl.Name)] = true
					}
				}
			}
		}
	}
	width := len(in.Bytes) * 8
	var ps []fieldPiece
	covered := make([]bool, max(width, 1))
	for _, f := range in.Fields {
		class := "val"
		switch {
		case fixed[strings.ToUpper(f.Name)]:
			class = "fixed"
		case strings.EqualFold(f.Name, "OP"):
			class = "op"
		}
		ranges := f.Ranges
		if len(ranges) == 0 {
			ranges = []isa.BitRange{{MSB: f.MSB, LSB: f.LSB}}
		}
		used := 0
		var rs []string
		for _, r := range ranges {
			if r.MSB < r.LSB {
				continue
			}
			n := r.MSB - r.LSB + 1
			p := fieldPiece{name: f.Name, msb: r.MSB, lsb: r.LSB, class: class}
			if used+n <= len(f.Bits) {
				p.bits = f.Bits[used : used+n]
			}
			used += n
			ps = append(ps, p)
			for b := r.LSB; b <= r.MSB && b < width; b++ {
				if b >= 0 {
					covered[b] = true
				}
			}
			if r.MSB == r.LSB {
				rs = append(rs, strconv.Itoa(r.MSB))
			} else {
				rs = append(rs, fmt.Sprintf("%d:%d", r.MSB, r.LSB))
			}
		}
		v.Fields = append(v.Fields, fieldValueRow{Name: f.Name, Range: strings.Join(rs, ", "), Bits: f.Bits,
			Value: f.Value, Hex: fmt.Sprintf("0x%X", f.Value), Fixed: class == "fixed"})
	}
	// A literal constant or a DPP/SDWA control word follows the instruction
	// in its own dword, which no field of the format describes: name each
	// wholly uncovered trailing dword so the diagram says what it is.
	extraName := strings.ToUpper(in.Extra)
	if extraName == "" {
		extraName = "LITERAL"
	}
	for lo := 32; lo+32 <= width; lo += 32 {
		free := true
		for b := lo; b < lo+32; b++ {
			free = free && !covered[b]
		}
		if !free {
			continue
		}
		bits := wordBits(in.Bytes, lo+31, lo)
		ps = append(ps, fieldPiece{name: extraName, msb: lo + 31, lsb: lo, bits: bits, class: "val"})
		val, _ := strconv.ParseUint(bits, 2, 64)
		v.Fields = append(v.Fields, fieldValueRow{Name: extraName, Range: fmt.Sprintf("%d:%d", lo+31, lo),
			Bits: bits, Value: val, Hex: fmt.Sprintf("0x%X", val)})
	}
	label := fmt.Sprintf("Bits of %s as decoded (%s encoding, %d bits)", v.Text, in.Encoding, width)
	gap := func(msb, lsb int) string { return wordBits(in.Bytes, msb, lsb) }
	v.Wide = layoutDiagram(width, label, ps, 32, gap)
	v.Narrow = layoutDiagram(width, label, ps, 16, gap)
	return v
}

// wordBits returns bits msb..lsb of little-endian machine code as binary,
// most significant first.
func wordBits(code []byte, msb, lsb int) string {
	var b strings.Builder
	for i := msb; i >= lsb; i-- {
		if i < 0 || i/8 >= len(code) {
			b.WriteByte('0')
			continue
		}
		if code[i/8]>>(uint(i)%8)&1 == 1 {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// exampleView is an example's encoding broken into fields.
type exampleView struct {
	Asm      string
	Target   string
	Encoding string
	Decoded  []decodedView
	Errors   []DecodeError
	// Mismatch names what the bytes decode to when it is not this instruction.
	Mismatch string
}

// decodeExamples decodes the encoding bytes of an AMD instruction's examples.
func (s *server) decodeExamples(in *isa.Instruction) ([]exampleView, string) {
	var withBytes []isa.Example
	for _, ex := range in.Examples {
		if ex.Encoding != "" {
			withBytes = append(withBytes, ex)
		}
	}
	if len(withBytes) == 0 {
		return nil, ""
	}
	d, err := s.decoder(in.Arch)
	if err != nil {
		return nil, "The decoder is not available for this family: " + err.Error()
	}
	var out []exampleView
	for _, ex := range withBytes {
		ev := exampleView{Asm: ex.Asm, Target: ex.Target, Encoding: ex.Encoding}
		code, err := decode.ParseInput([]byte(ex.Encoding))
		if err != nil {
			ev.Errors = []DecodeError{{Message: err.Error()}}
			out = append(out, ev)
			continue
		}
		insts, bad := decodeAll(d, code)
		ev.Errors = bad
		for _, di := range insts {
			ev.Decoded = append(ev.Decoded, s.viewDecoded(in.Arch, di))
			if di.Name != in.Name && !aliasOf(in, di.Name) {
				ev.Mismatch = di.Name
			}
		}
		out = append(out, ev)
	}
	return out, ""
}

func aliasOf(in *isa.Instruction, name string) bool {
	for _, a := range in.Aliases {
		if a.Name == name {
			return true
		}
	}
	return false
}

// --- the decode page and API ---

type decodeView struct {
	Archs []isa.Architecture
	Arch  string
	Hex   string
	Asm   string // the assemble form's input
	// Assembled is the bytes the assemble form produced (then decoded).
	Assembled string
	Length    int
	Insts     []decodedView
	Errors    []DecodeError
	Error     string
	Done      bool // a decode ran
	// Answered: the page answers a request (a decoding, an assembly or
	// an error); the form that asked leads, the answer right under it.
	Answered bool
}

func (s *server) nativeArchs() []isa.Architecture {
	return s.archsWhere(func(a isa.Architecture) bool { return a.Kind == isa.KindNative })
}

func (s *server) handleDecode(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := decodeView{Archs: s.nativeArchs(), Arch: strings.TrimSpace(q.Get("arch")), Hex: q.Get("hex"), Asm: q.Get("asm")}
	if v.Arch == "" && len(v.Archs) > 0 {
		v.Arch = v.Archs[0].ID
	}
	status := http.StatusOK
	// userError keeps a 4xx answer's message for the page; a server fault
	// ends the request (and says so).
	userError := func(err error) bool {
		status = errs.HTTPStatus(err)
		if status == http.StatusInternalServerError {
			s.fail(w, r, err)
			return false
		}
		v.Error = err.Error()
		return true
	}
	if strings.TrimSpace(v.Asm) != "" && strings.TrimSpace(v.Hex) == "" {
		// The assemble form: encode, then show the result decoded.
		if res, err := s.runEncode(r, v.Arch, v.Asm); err != nil {
			if !userError(err) {
				return
			}
		} else {
			v.Hex, v.Assembled = strings.Join(res.Words, " "), res.Bytes
		}
	}
	if strings.TrimSpace(v.Hex) != "" {
		if res, err := s.runDecode(r.Context(), v.Arch, v.Hex); err != nil {
			if !userError(err) {
				return
			}
		} else {
			v.Arch, v.Length, v.Errors, v.Done = res.Arch, res.Length, res.Errors, true
			for _, in := range res.Instructions {
				v.Insts = append(v.Insts, s.viewDecoded(res.Arch, in))
			}
		}
	}
	v.Answered = v.Done || v.Error != "" || v.Assembled != ""
	s.render(w, r, status, "decode", page{Title: "Decode machine code",
		Description: "Paste AMD GPU machine code and see each instruction with its fields and bit values.", Data: v})
}

// runDecode decodes pasted text on a family given by id or gfx target.
func (s *server) runDecode(ctx context.Context, arch, text string) (DecodeResult, error) {
	if strings.TrimSpace(arch) == "" {
		return DecodeResult{}, errs.Invalid("missing arch: the family to decode for (cdna4, rdna3, gfx950, ...)")
	}
	a, err := s.lookupArch(ctx, arch)
	if err != nil {
		return DecodeResult{}, err
	}
	if a.Kind != isa.KindNative {
		return DecodeResult{}, errs.Invalid("%s is a virtual ISA without machine code", a.Name)
	}
	code, err := parseMachineCode(text)
	if err != nil {
		return DecodeResult{}, err
	}
	d, err := s.decoder(a.ID)
	if err != nil {
		return DecodeResult{}, err
	}
	insts, bad := decodeAll(d, code)
	return DecodeResult{Arch: a.ID, Length: len(code), Instructions: insts, Errors: bad}, nil
}

func (s *server) apiDecode(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := s.runDecode(r.Context(), q.Get("arch"), q.Get("hex"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.sendJSON(w, r, res)
}
