package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
	"github.com/gpuisa/gpuisa/internal/store"
)

// maxPTXCheck bounds the PTX text one /api/v1/ptx/check request may send.
const maxPTXCheck = 64 << 10

// ptxChecker builds the PTX checker from the stored model once.
func (s *server) ptxChecker() (*ptx.Checker, error) {
	s.ptxCheckOnce.Do(func() {
		raw, err := s.store.Extra(context.Background(), store.KeyPTXModel)
		if err != nil {
			s.ptxCheckErr = err
			return
		}
		var instrs []ptx.Instruction
		if err := json.Unmarshal(raw, &instrs); err != nil {
			s.ptxCheckErr = fmt.Errorf("web: reading the stored PTX model: %w", err)
			return
		}
		s.ptxCheck = ptx.NewChecker(instrs)
	})
	return s.ptxCheck, s.ptxCheckErr
}

// apiPTXCheck answers /api/v1/ptx/check: the checker's report on PTX
// text (one statement or a file), judged with the file's .version and
// .target or the target given — the verdicts `gpuisa ptx check` gives.
func (s *server) apiPTXCheck(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	text, target := q.Get("ptx"), q.Get("target")
	switch {
	case text == "":
		s.apiFail(w, r, errs.Invalid("ptx: the PTX text to check is missing"))
		return
	case len(text) > maxPTXCheck:
		s.apiFail(w, r, errs.Invalid("ptx: %d bytes, more than the %d one request may check", len(text), maxPTXCheck))
		return
	case target != "" && ptxorder.TargetNumber(target) < 0:
		s.apiFail(w, r, errs.Invalid("target %q: not an sm_ target", target))
		return
	}
	c, err := s.ptxChecker()
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	rep := c.CheckFile("<request>", text, target)
	if len(rep.Results) == 0 {
		s.apiFail(w, r, errs.Invalid("ptx: no PTX statement found"))
		return
	}
	s.sendJSON(w, r, rep)
}
