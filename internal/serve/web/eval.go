package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// The evaluator behind "Try it" and /api/v1/eval: an AMD instruction's
// pseudocode from its guide run on the inputs given (package sem).

// semLibrary returns the family's pseudocode library, read from the store
// as the evaluator asks for it (a callee only when called), one per family.
func (s *server) semLibrary(ctx context.Context, arch string) *sem.Library {
	if l, ok := s.semLibs.Load(arch); ok {
		return l.(*sem.Library)
	}
	st := s.store
	l := sem.NewLibraryFunc(arch, func(name string) (string, bool) {
		// Exact names only: a rename (v_max_f32 is v_max_num_f32 on RDNA 4)
		// is not the instruction a pseudocode calls.
		in, err := st.Instruction(context.WithoutCancel(ctx), arch, name)
		if err != nil || in.Name != name || in.Semantics == "" {
			return "", false
		}
		return in.Semantics, true
	})
	actual, _ := s.semLibs.LoadOrStore(arch, l)
	return actual.(*sem.Library)
}

// evalRequest reads the query of /api/v1/eval (and of the try-it form).
func evalRequest(q url.Values) (sem.Request, error) {
	req := sem.Request{Sources: map[string][]string{}, Exec: q.Get("exec"), Round: q.Get("round"), Denorm: q.Get("denorm"),
		SCC: q.Get("scc"), VCC: q.Get("vcc"), M0: q.Get("m0"), Trace: q.Get("trace") == "1" || q.Get("trace") == "true"}
	for i := 0; i < 4; i++ {
		key := "s" + strconv.Itoa(i)
		if v := strings.TrimSpace(q.Get(key)); v != "" {
			req.Sources["S"+strconv.Itoa(i)] = strings.Split(v, ",")
		}
	}
	if w := q.Get("wave"); w != "" {
		n, err := strconv.Atoi(w)
		if err != nil {
			return req, errs.Invalid("wave %q: 32 or 64", w)
		}
		req.Wave = n
	}
	switch q.Get("ieee") {
	case "":
	case "1", "true", "on":
		on := true
		req.IEEE = &on
	case "0", "false", "off":
		off := false
		req.IEEE = &off
	default:
		return req, errs.Invalid("ieee %q: 1 or 0", q.Get("ieee"))
	}
	for key, set := range map[string]*[3]bool{"abs": &req.Mods.Abs, "neg": &req.Mods.Neg} {
		if v := q.Get(key); v != "" {
			for _, p := range strings.Split(v, ",") {
				i, err := strconv.Atoi(strings.TrimSpace(p))
				if err != nil || i < 0 || i > 2 {
					return req, errs.Invalid("%s %q: source numbers 0, 1, 2", key, v)
				}
				set[i] = true
			}
		}
	}
	req.Mods.Clamp = q.Get("clamp") == "1" || q.Get("clamp") == "true"
	if v := q.Get("omod"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 3 {
			return req, errs.Invalid("omod %q: 0 to 3", v)
		}
		req.Mods.OMod = n
	}
	for key, set := range map[string]*uint64{"op_sel": &req.Mods.OpSel, "op_sel_hi": &req.Mods.OpSelHi} {
		if v := q.Get(key); v != "" {
			n, err := strconv.ParseUint(v, 0, 8)
			if err != nil {
				return req, errs.Invalid("%s %q: the OPSEL bits as a number, 0 to 0xff", key, v)
			}
			*set = n
		}
	}
	return req, nil
}

// runEval evaluates one request on an AMD instruction.
func (s *server) runEval(ctx context.Context, arch, name string, req sem.Request) (*sem.Response, error) {
	if strings.TrimSpace(arch) == "" || strings.TrimSpace(name) == "" {
		return nil, errs.Invalid("missing arch or name: the family (rdna4, cdna3, gfx942) and the instruction (v_max_num_f32)")
	}
	a, err := s.lookupArch(ctx, arch)
	if err != nil {
		return nil, err
	}
	if a.Vendor != isa.VendorAMD {
		return nil, errs.Invalid("%s: eval runs AMD's pseudocode; PTX has none to run", a.Name)
	}
	arch, canon, err := s.store.Resolve(ctx, a.ID, name)
	if err != nil {
		return nil, err
	}
	in := s.semLibrary(ctx, arch).Get(canon)
	if in == nil {
		return nil, errs.Invalid("%s has no pseudocode in the %s guide", canon, a.Name)
	}
	resp, err := sem.Evaluate(in, req)
	if err != nil {
		var ie *sem.InputError
		if errors.As(err, &ie) || errors.Is(err, sem.ErrNotExecutable) {
			return nil, errs.Invalid("%v", err)
		}
		return nil, err
	}
	return resp, nil
}

func (s *server) apiEval(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req, err := evalRequest(q)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	resp, err := s.runEval(r.Context(), q.Get("arch"), q.Get("name"), req)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.sendJSON(w, r, resp)
}

// tryitView is the data of the "Try it" box on an instruction page.
type tryitView struct {
	Arch, Name string
	// Why says why the instruction cannot be run, when it cannot.
	Why     string
	Sources []tryitSource
	Vector  bool
	// Matrix: a matrix operation, run over whole matrices.
	Matrix bool
	// Example is the box's inputs run when the page was made, so the
	// page (and a static export) shows a result without a request.
	Example *sem.Response
}

type tryitSource struct {
	Name, Param, Type, Value string
}

// tryit builds the box for an AMD instruction with pseudocode; nil for
// the others.
func (s *server) tryit(ctx context.Context, in *isa.Instruction) *tryitView {
	if in.Vendor != isa.VendorAMD || in.Semantics == "" {
		return nil
	}
	lib := s.semLibrary(ctx, in.Arch)
	lib.Offer(in.Name, in.Semantics)
	si := lib.Get(in.Name)
	if si == nil {
		return nil
	}
	v := &tryitView{Arch: in.Arch, Name: in.Name}
	if !si.Executable() {
		switch {
		case si.Err != nil:
			v.Why = "its pseudocode does not parse (" + si.Err.Error() + ")"
		default:
			v.Why = si.Info.Problems[0]
		}
		return v
	}
	v.Vector, v.Matrix = si.Info.Vector, si.Matrix != nil
	req := sem.Request{Sources: map[string][]string{}}
	for i, name := range si.SourceNames() {
		t := si.InputType(name)
		val := sampleInput(t, i)
		if si.Matrix != nil {
			// Every element the same: a NaN would fill D with NaN.
			val = []string{"1.5", "-2", "0.25", "3", "5", "1"}[i%3+3*btoi(!strings.HasPrefix(t, "f") && !strings.HasPrefix(t, "bf"))]
		}
		v.Sources = append(v.Sources, tryitSource{Name: name, Param: strings.ToLower(name), Type: t, Value: val})
		req.Sources[name] = []string{val}
	}
	// The wave state it reads is asked for like a source.
	for _, name := range si.Info.Inputs {
		st, ok := stateInputs[name]
		if !ok {
			continue
		}
		v.Sources = append(v.Sources, tryitSource{Name: name, Param: strings.ToLower(name), Type: st.kind, Value: st.sample})
		*st.field(&req) = st.sample
	}
	if resp, err := sem.Evaluate(si, req); err == nil {
		v.Example = resp
	}
	return v
}

// stateInputs are the try-it fields of the wave state a program reads.
var stateInputs = map[string]struct {
	kind, sample string
	field        func(*sem.Request) *string
}{
	"SCC": {"0 or 1", "1", func(r *sem.Request) *string { return &r.SCC }},
	"VCC": {"lane mask, hex", "0x1", func(r *sem.Request) *string { return &r.VCC }},
	"M0":  {"u32", "0", func(r *sem.Request) *string { return &r.M0 }},
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sampleInput is a first value for a source: a NaN against a number shows
// most of what float pseudocode does; integers get small distinct values.
func sampleInput(t string, i int) string {
	if strings.HasPrefix(t, "f") || strings.HasPrefix(t, "bf") {
		return []string{"nan", "1.5", "-2"}[i%3]
	}
	return []string{"0x12345678", "5", "3", "1"}[i%4]
}
