package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// maxAsmLen bounds the assembly one encode request takes.
const maxAsmLen = 512

// EncodeResult is the answer of /api/v1/encode: the bytes as llvm-mc's
// -show-encoding prints them, the dwords as the guides write encodings, and
// the instruction decoded back from those bytes.
type EncodeResult struct {
	Arch        string      `json:"arch"`
	Asm         string      `json:"asm"`
	Bytes       string      `json:"bytes"` // "0xc1,0x04,0x0a,0x16"
	Words       []string    `json:"words"` // "0x160a04c1"
	Instruction decode.Inst `json:"instruction"`
}

// runEncode assembles one instruction on a family given by id or gfx target.
func (s *server) runEncode(r *http.Request, arch, asm string) (EncodeResult, error) {
	if strings.TrimSpace(arch) == "" {
		return EncodeResult{}, errs.Invalid("missing arch: the family to encode for (cdna4, rdna3, gfx950, ...)")
	}
	asm = strings.TrimSpace(asm)
	if asm == "" {
		return EncodeResult{}, errs.Invalid("missing asm: one instruction in LLVM syntax (v_max_f32 v5, -1, v2)")
	}
	if len(asm) > maxAsmLen {
		return EncodeResult{}, errs.Invalid("asm is %d characters; at most %d", len(asm), maxAsmLen)
	}
	a, err := s.lookupArch(r.Context(), arch)
	if err != nil {
		return EncodeResult{}, err
	}
	if a.Kind != isa.KindNative {
		return EncodeResult{}, errs.Invalid("%s is a virtual ISA without machine code", a.Name)
	}
	enc, err := s.encoder(a.ID)
	if err != nil {
		return EncodeResult{}, err
	}
	d, _ := s.decoder(a.ID)
	b, err := enc.Encode(asm)
	if err != nil {
		// The input is what cannot be encoded (or is not supported yet).
		return EncodeResult{}, errs.Invalid("%v", err)
	}
	in, _, err := d.Decode(b, 0)
	if err != nil {
		return EncodeResult{}, fmt.Errorf("decoding the encoder's own bytes: %w", err)
	}
	res := EncodeResult{Arch: a.ID, Asm: asm, Bytes: in.Hex, Instruction: in, Words: []string{}}
	for i := 0; i+4 <= len(b); i += 4 {
		w := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		res.Words = append(res.Words, fmt.Sprintf("0x%08x", w))
	}
	return res, nil
}

func (s *server) apiEncode(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := s.runEncode(r, q.Get("arch"), q.Get("asm"))
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.sendJSON(w, r, res)
}
