package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/serve/explain"
)

// The /explain page reads a pasted listing (llvm-objdump, llvm-mc, RGA,
// assembly, hex) or an uploaded code object, and shows the listing
// gpuisa explain prints: each line with its unit, wait counters, llvm-mc
// verdict, counterpart and summary, a field view per line (the bit
// diagram is one click away on /decode), and each kernel's summary.
const (
	// maxExplainInput bounds an upload or a paste (said on the page).
	maxExplainInput = 4 << 20
	// maxPermalinkText bounds the pasted text a permalink carries in its
	// URL; larger inputs and code objects are posted, without one.
	maxPermalinkText = 4096
	// maxErrorEcho bounds the paste an error page keeps in its box to
	// correct: a listing of a few hundred lines stays, a 4 MB paste does
	// not come back as a 4 MB page (errors quote only an excerpt).
	maxErrorEcho = 16 << 10
	// maxExplainRows bounds the rows a page shows (the kernel summaries
	// count every instruction; gpuisa explain prints them all): a row with
	// its field view is 2-3 KB of HTML.
	maxExplainRows = 1000
	// maxExplainInstructions bounds the instructions one request decodes
	// with their fields: gpuisa explain's bound (explain.Bound).
	maxExplainInstructions = explain.MaxInstructions
)

// explainSlots bounds the explanations made at once in this process, so a
// burst of large uploads queues instead of multiplying the memory above.
var explainSlots = make(chan struct{}, 2)

type explainView struct {
	Archs          []isa.Architecture
	Arch, Also     string
	Text, FileName string
	Error          string
	MaxInput       string // "4 MB"
	MaxRows        int
	Done           bool

	Header    string
	Target    string
	AlsoList  []string
	Permalink string
	Sections  []explainSection
	Kernels   []explainKernel
	Shown     int // rows shown
	Hidden    int // rows left out beyond MaxRows
	CostLabel string

	// PTX is the explanation of PTX input (the rest is for AMD code).
	PTX *ptxExplainView
}

type explainSection struct {
	Name string
	Rows []explainRow
}

// explainRow is one line: a label, or an instruction with its notes.
type explainRow struct {
	Label, LabelNote string
	Func             bool

	Addr, Words string
	Mnemonic    string // linked to URL when the family has the page
	Operands    string
	URL         string
	Repeat      int
	Ref         string // <kernel+0x48>, the input's own text where it differs
	Err         string
	Unchecked   bool // text the encoder did not assemble

	Unit, Counters    string
	Verdict           string // "ok", "bad", "" (not verified)
	VerdictText       string
	Also              []alsoVerdict
	Counterpart       string
	Short, Summary    string // the guide's summary cut to a line; whole when cut
	Unknown           bool
	Encoding, Opcode  string
	Fields            []string // FIELD[msb:lsb]=value (0b...)
	Operand, Modifier []string
	DecodeURL         string // the single-word view with the bit diagram
}

type alsoVerdict struct{ Target, Class, Text string }

type explainKernel struct {
	Name, Descriptor string
	Instructions     int
	ByUnit, Matrix   string
	Counters         string
	Unsupported      []string // "gfx1100: 7 instructions: ..."
	Supported        []string // targets where every verified instruction assembles
	Padding          int
	NotVerified      int
	Unknown          int
	CostTarget       string
	Latency          string
	LatencyTotal     int
	Mix              string
	Modelled         int
	Unmodelled       int
	UnmodelledNames  string
}

func (s *server) handleExplain(w http.ResponseWriter, r *http.Request) {
	v := explainView{Archs: s.nativeArchs(), MaxInput: fmt.Sprintf("%d MB", maxExplainInput>>20), MaxRows: maxExplainRows,
		CostLabel: explain.ModelLabel}
	var raw []byte
	switch r.Method {
	case http.MethodPost:
		r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
		// ParseForm first: ParseMultipartForm drops its error (a
		// urlencoded body over the limit) and reports only "not multipart".
		err := r.ParseForm()
		if err == nil {
			err = r.ParseMultipartForm(maxRequestBody)
		}
		if err != nil && !errors.Is(err, http.ErrNotMultipart) {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				v.Error = fmt.Sprintf("The upload is larger than %s; gpuisa explain FILE reads larger files.", v.MaxInput)
				s.renderExplain(w, r, http.StatusRequestEntityTooLarge, v)
				return
			}
			// The parser's words name its internals, not the user's mistake.
			v.Error = "The form could not be read: post it as multipart/form-data or application/x-www-form-urlencoded."
			s.renderExplain(w, r, http.StatusBadRequest, v)
			return
		}
		v.Arch, v.Also, v.Text = r.FormValue("arch"), r.FormValue("also"), r.FormValue("text")
		if f, h, err := r.FormFile("file"); err == nil {
			b, err := io.ReadAll(io.LimitReader(f, maxExplainInput+1))
			f.Close()
			if err != nil {
				s.fail(w, r, err)
				return
			}
			if len(b) > 0 {
				raw, v.FileName = b, h.Filename
			}
		}
	default:
		q := r.URL.Query()
		v.Arch, v.Also, v.Text = q.Get("arch"), q.Get("also"), q.Get("text")
	}
	if raw == nil && strings.TrimSpace(v.Text) != "" {
		raw = []byte(v.Text)
	}
	if raw == nil {
		if r.Method == http.MethodPost {
			v.Error = "Nothing to explain: paste a listing or choose a code object."
			s.renderExplain(w, r, http.StatusBadRequest, v)
			return
		}
		s.renderExplain(w, r, http.StatusOK, v)
		return
	}
	if len(raw) > maxExplainInput {
		v.Error = fmt.Sprintf("The input is larger than %s; gpuisa explain FILE reads larger files.", v.MaxInput)
		v.Text = "" // a page as large as the paste helps no one
		s.renderExplain(w, r, http.StatusRequestEntityTooLarge, v)
		return
	}
	if v.FileName != "" {
		v.Text = "" // the upload is explained; the box is left as it was
	}
	err := s.explainInto(r.Context(), &v, raw)
	if errors.Is(err, context.Canceled) {
		return
	}
	var tooMany *explain.TooMany
	if errors.As(err, &tooMany) {
		v.Error = fmt.Sprintf("The input holds about %d instructions: the page explains at most %d per request, as gpuisa explain does; gpuisa decode FILE lists any number.", tooMany.Count, maxExplainInstructions)
		v.Text = "" // the page is not the input again
		s.renderExplain(w, r, http.StatusRequestEntityTooLarge, v)
		return
	}
	if err != nil {
		status := errs.HTTPStatus(err)
		if status == http.StatusInternalServerError {
			s.fail(w, r, err)
			return
		}
		v.Error = err.Error()
		if len(v.Text) > maxErrorEcho {
			v.Text = "" // the error names the line; the page is not the paste again
		}
		s.renderExplain(w, r, status, v)
		return
	}
	if v.FileName == "" && len(v.Text) <= maxPermalinkText {
		q := url.Values{"text": {v.Text}}
		if v.Arch != "" {
			q.Set("arch", v.Arch)
		}
		if v.Also != "" {
			q.Set("also", v.Also)
		}
		v.Permalink = "/explain?" + q.Encode()
	}
	s.renderExplain(w, r, http.StatusOK, v)
}

// explainInto explains raw into v, holding one of explainSlots while the
// listing is alive (the view keeps only what the page shows).
func (s *server) explainInto(ctx context.Context, v *explainView, raw []byte) error {
	select {
	case explainSlots <- struct{}{}:
	case <-ctx.Done():
		return context.Canceled
	}
	defer func() { <-explainSlots }()
	if isPTXInput(raw, v.Arch, v.FileName) {
		to := v.Arch
		if strings.EqualFold(strings.TrimSpace(to), "ptx") {
			to = ""
		}
		px, err := s.explainPTXText(ctx, raw, to)
		if err != nil {
			return err
		}
		v.PTX, v.Done = px, true
		return nil
	}
	x, err := s.runExplain(ctx, raw, v.Arch, v.Also)
	if err != nil {
		return err
	}
	s.viewExplanation(v, x)
	return nil
}

// renderExplain renders the page. A GET answer is cached like any page
// (its URL holds the whole input); a POST answer is sent as it is, with
// no ETag and no-store, so it never stands in for the empty form.
func (s *server) renderExplain(w http.ResponseWriter, r *http.Request, status int, v explainView) {
	p := page{Title: "Explain a listing or code object",
		Description: "Paste AMD GPU disassembly or PTX, or upload a code object: every line with its unit, wait counters, target support and counterpart, each kernel's summary; each PTX statement with the version and target it needs and its AMD counterparts.",
		Data:        v}
	if r.Method != http.MethodPost {
		s.render(w, r, status, "explain", p)
		return
	}
	t, ok := s.pages.byName["explain"]
	if !ok {
		s.fail(w, r, errors.New("web: no template explain"))
		return
	}
	p.Build = s.info
	var buf strings.Builder
	if err := t.ExecuteTemplate(&buf, "layout", p); err != nil {
		s.fail(w, r, fmt.Errorf("web: rendering explain: %w", err))
		return
	}
	s.send(w, r, response{status: status, contentType: "text/html; charset=utf-8", body: []byte(buf.String())})
}

// runExplain reads raw as gpuisa explain does: the family from arch (a
// family id or gfx target), else the input's target, else a guess.
func (s *server) runExplain(ctx context.Context, raw []byte, arch, also string) (*explain.Explanation, error) {
	machines, machinesErr := s.codecs.Machines(ctx)
	in, err := listing.Parse(raw, machines)
	if err != nil {
		return nil, errs.Invalid("%v", err)
	}
	if err := explain.Bound(in); err != nil {
		return nil, err
	}
	choice := listing.Choice{Ask: "choose the family or target above"}
	if a := strings.TrimSpace(arch); a != "" {
		if strings.HasPrefix(strings.ToLower(a), "gfx") {
			choice.Target = strings.ToLower(a)
		} else {
			choice.Arch = a
		}
	}
	get := func(id string) (listing.Codec, error) {
		d, err := s.decoder(id)
		if err != nil {
			return listing.Codec{}, err
		}
		enc, err := s.encoder(id)
		if err != nil {
			return listing.Codec{}, err
		}
		return listing.Codec{Dec: d, Enc: enc}, nil
	}
	fam, how, err := listing.ChooseFamily(in, choice, machinesErr, get)
	if err != nil {
		return nil, err
	}
	c, err := get(fam)
	if err != nil {
		return nil, err
	}
	alsoList, err := alsoTargets(also)
	if err != nil {
		return nil, err
	}
	l := listing.Build(in, fam, c, listing.Options{Fields: true})
	l.Chosen = how
	l.SetTarget(in, choice)
	ns, err := s.codecs.Notes(ctx, fam)
	if err != nil {
		return nil, err
	}
	return explain.Explain(l, ns, explain.Options{Also: alsoList}), nil
}

// alsoTargets reads the "also" field: gfx targets separated by commas or
// spaces.
func alsoTargets(also string) ([]string, error) {
	var out []string
	for _, t := range strings.FieldsFunc(also, func(r rune) bool { return r == ',' || r == ' ' }) {
		t = strings.ToLower(t)
		if info, ok := isa.LookupArch(t); !ok || info.Vendor != isa.VendorAMD || !strings.HasPrefix(t, "gfx") {
			return nil, errs.Invalid("also %q: not a gfx target (gfx1100, gfx942, ...)", t)
		}
		out = append(out, t)
	}
	return out, nil
}

// isPTXInput: the form asks for PTX ("ptx" for the family), the upload is
// a .ptx file, or the text looks like PTX.
func isPTXInput(raw []byte, arch, file string) bool {
	return strings.EqualFold(strings.TrimSpace(arch), "ptx") || strings.HasSuffix(strings.ToLower(file), ".ptx") || looksLikePTX(raw)
}

// looksLikePTX: PTX text starts (after comments) with .version or names
// an sm_ target.
func looksLikePTX(raw []byte) bool {
	head := string(raw[:min(len(raw), 4096)])
	return strings.Contains(head, ".version ") && strings.Contains(head, ".target sm_")
}

// viewExplanation lays x out for the page.
func (s *server) viewExplanation(v *explainView, x *explain.Explanation) {
	l := x.Listing
	v.Done, v.Header, v.Target, v.AlsoList = true, l.Header(), x.Target, x.Also
	for si := range l.Sections {
		sec := &l.Sections[si]
		out := explainSection{Name: sec.Name}
		for i := range sec.Entries {
			e := &sec.Entries[i]
			if v.Shown >= maxExplainRows {
				v.Hidden++
				continue
			}
			for j, lab := range e.Labels() {
				out.Rows = append(out.Rows, explainRow{Label: lab, LabelNote: sec.LabelNote(lab, l.Target), Func: j == 0 && e.Func})
			}
			out.Rows = append(out.Rows, s.explainRow(x, e, x.Lines[si][i]))
			v.Shown++
		}
		if len(l.Sections) == 1 && (sec.Name == "" || sec.Name == ".text") {
			out.Name = ""
		}
		v.Sections = append(v.Sections, out)
	}
	for i := range x.Kernels {
		v.Kernels = append(v.Kernels, viewKernel(x, &x.Kernels[i]))
	}
}

func (s *server) explainRow(x *explain.Explanation, e *listing.Entry, ln explain.Line) explainRow {
	arch := x.Listing.Arch
	row := explainRow{Addr: fmt.Sprintf("%06x", e.Addr), Words: e.Words(), Repeat: e.Repeat, Err: e.Err(),
		Unchecked: e.How == listing.FromTextAlone}
	text := e.Display()
	if e.Err() != "" && e.How != listing.FromTextAlone {
		return row
	}
	row.Mnemonic, row.Operands, _ = strings.Cut(text, " ")
	var refs []string
	if ref := e.TargetRef(); ref != "" {
		refs = append(refs, ref)
	}
	if given := e.Given(); given != "" {
		refs = append(refs, "input: "+given)
	}
	row.Ref = strings.Join(refs, "; ")
	if ln.Known && s.hasInstruction(arch, ln.Name) {
		row.URL = instrURL(arch, ln.Name)
	}
	row.Unit = ln.Unit
	if len(ln.Counters) > 0 {
		row.Counters = "+" + strings.Join(ln.Counters, " +")
	}
	if x.Target != "" {
		switch ln.Verdict {
		case "supported":
			row.Verdict, row.VerdictText = "ok", "on "+x.Target
		case "unsupported":
			row.Verdict, row.VerdictText = "bad", "NOT on "+x.Target
		default:
			if ln.Known {
				row.VerdictText = "not verified on " + x.Target
			}
		}
	}
	for _, t := range x.Also {
		switch ln.Also[t] {
		case "supported":
			row.Also = append(row.Also, alsoVerdict{t, "ok", "on " + t})
		case "unsupported":
			row.Also = append(row.Also, alsoVerdict{t, "bad", "NOT on " + t})
		default:
			row.Also = append(row.Also, alsoVerdict{t, "", "not verified on " + t})
		}
	}
	row.Counterpart, row.Short, row.Unknown = ln.Counterpart, explain.Shorten(ln.Summary, 72), !ln.Known
	if strings.HasSuffix(row.Short, "…") { // the whole sentence in the field view
		row.Summary = ln.Summary
	}
	if in := e.Inst; in != nil {
		row.Encoding, row.Opcode = in.Encoding, strconv.Itoa(in.Opcode)
		for _, f := range in.Fields {
			row.Fields = append(row.Fields, listing.FieldText(f))
		}
		row.Operand, row.Modifier = in.Operands, in.Modifiers
		row.DecodeURL = "/decode?arch=" + url.QueryEscape(arch) + "&hex=" + url.QueryEscape(e.Words())
	}
	return row
}

func viewKernel(x *explain.Explanation, k *explain.Kernel) explainKernel {
	out := explainKernel{Name: k.Name, Descriptor: k.Descriptor, Instructions: k.Instructions,
		ByUnit: explain.CountsText(k.ByUnit), Matrix: explain.CountsText(k.Matrix), Counters: explain.CountsText(k.Counters),
		Padding: k.Padding, NotVerified: k.NotVerified, Unknown: k.Unknown}
	targets := []string{}
	if x.Target != "" {
		targets = append(targets, x.Target)
	}
	for _, t := range append(targets, x.Also...) {
		u := k.Unsupported[t]
		if len(u) == 0 {
			out.Supported = append(out.Supported, t)
			continue
		}
		n := 0
		for _, c := range u {
			n += c
		}
		out.Unsupported = append(out.Unsupported, fmt.Sprintf("%s: %d instructions (%s)", t, n, explain.CountsText(u)))
	}
	c := &k.Cost
	out.CostTarget, out.Modelled, out.Unmodelled = c.Target, c.Modelled, c.Unmodelled
	if c.Modelled > 0 {
		out.Latency, out.LatencyTotal, out.Mix = explain.CountsText(c.Latency), c.Total, explain.MixText(c.Mix)
	}
	out.UnmodelledNames = strings.Join(c.UnmodelledNames, ", ")
	return out
}
