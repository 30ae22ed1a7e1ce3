package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Compiler Explorer's assembly documentation: /api/asm/{arch}/{opcode}
// answers {tooltip, html, url} exactly as its AssemblyInstructionInfo, so a
// Compiler Explorer instance can take its AMDGPU and PTX documentation from
// a gpuisa server. Arch ids: "amdgpu" (the newest family that has the
// opcode), "amdgpu/rdna3" and the other family ids (also bare: "rdna3",
// "gfx942"), and "ptx". Unknown opcodes are 404 {"error": "Unknown opcode
// 'X'"} as Compiler Explorer's own endpoint answers, with gpuisa's
// suggestions beside.

// AsmDoc is Compiler Explorer's AssemblyInstructionInfo.
type AsmDoc struct {
	Tooltip string `json:"tooltip"`
	HTML    string `json:"html"`
	URL     string `json:"url"`
}

func (s *server) apiAsmDoc(w http.ResponseWriter, r *http.Request) {
	s.asmDoc(w, r, r.PathValue("arch"), r.PathValue("opcode"))
}

func (s *server) apiAsmDocFamily(w http.ResponseWriter, r *http.Request) {
	if !strings.EqualFold(r.PathValue("arch"), "amdgpu") {
		s.apiFail(w, r, errs.NotFound(nil, "No documentation for '%s/%s'", r.PathValue("arch"), r.PathValue("family")))
		return
	}
	s.asmDoc(w, r, r.PathValue("family"), r.PathValue("opcode"))
}

func (s *server) asmDoc(w http.ResponseWriter, r *http.Request, arch, opcode string) {
	ctx := r.Context()
	opcode = strings.TrimSpace(opcode)
	if opcode == "" || len(opcode) > 100 {
		s.apiFail(w, r, errs.NotFound(nil, "Unknown opcode '%s'", strings.ToUpper(opcode)))
		return
	}
	var in *isa.Instruction
	var err error
	if strings.EqualFold(arch, "amdgpu") {
		in, err = s.newestWith(r, opcode)
	} else {
		a, aerr := s.lookupArch(ctx, arch)
		if aerr != nil {
			s.apiFail(w, r, errs.NotFound(errs.SuggestionsOf(aerr), "No documentation for '%s'", arch))
			return
		}
		in, err = s.store.Instruction(ctx, a.ID, opcode)
		// PTX is written with modifiers: max.NaN.f32 is max's.
		for parts := strings.Split(opcode, "."); err != nil && errs.KindOf(err) == errs.KindNotFound && len(parts) > 1; {
			parts = parts[:len(parts)-1]
			if shorter, serr := s.store.Instruction(ctx, a.ID, strings.Join(parts, ".")); serr == nil {
				in, err = shorter, nil
			}
		}
	}
	if err != nil {
		if errs.KindOf(err) == errs.KindNotFound {
			err = errs.NotFound(errs.SuggestionsOf(err), "Unknown opcode '%s'", strings.ToUpper(opcode))
		}
		s.apiFail(w, r, err)
		return
	}
	doc, err := s.asmDocOf(r, in)
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.sendJSON(w, r, doc)
}

// newestWith finds the opcode in the newest AMD family whose own name it
// is, else the newest that takes it as another name (v_max_f32 is
// RDNA 3.5's, and RDNA 4's v_max_num_f32 only after that).
func (s *server) newestWith(r *http.Request, opcode string) (*isa.Instruction, error) {
	bare := isa.BaseMnemonic(strings.ToLower(opcode))
	for _, a := range s.archs {
		if a.Vendor == isa.VendorAMD && s.hasInstruction(a.ID, bare) {
			return s.store.Instruction(r.Context(), a.ID, bare)
		}
	}
	var first error
	for _, a := range s.archs {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		in, err := s.store.Instruction(r.Context(), a.ID, opcode)
		if err == nil {
			return in, nil
		}
		if errs.KindOf(err) != errs.KindNotFound {
			return nil, err
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		first = errs.NotFound(nil, "no AMD family in this database")
	}
	return nil, first
}

var asmDocTemplate = template.Must(template.New("asmdoc").Parse(
	`{{.Summary}}` +
		`{{if .Encodings}}<p><b>{{.Family}}</b>: {{range $i, $e := .Encodings}}{{if $i}} · {{end}}{{$e}}{{end}}</p>{{end}}` +
		`{{if .Syntax}}<p><code>{{.Syntax}}</code></p>{{end}}` +
		`{{if .Operands}}<p>Operands: {{range $i, $o := .Operands}}{{if $i}}, {{end}}<code>{{$o.Name}}</code> {{$o.Role}}{{end}}</p>{{end}}` +
		`{{if .Forms}}<p>{{.Forms}}</p>{{end}}` +
		`{{if .Opcodes}}<p>Opcodes by family: {{.Opcodes}}</p>{{end}}` +
		`{{range .Counterparts}}<p>{{.}}</p>{{end}}` +
		`<p><small>From {{.Source}}; gpuisa.</small></p>`))

type asmDocView struct {
	Summary      template.HTML
	Family       string
	Encodings    []string
	Syntax       string
	Operands     []asmDocOperand
	Forms        string
	Opcodes      string
	Counterparts []string
	Source       string
}

type asmDocOperand struct{ Name, Role string }

// asmDocOf renders one instruction in Compiler Explorer's format; every
// upstream string is escaped by html/template (PTX prose through the
// pages' Markdown renderer, which drops raw HTML and links).
func (s *server) asmDocOf(r *http.Request, in *isa.Instruction) (AsmDoc, error) {
	a, err := s.lookupArch(r.Context(), in.Arch)
	if err != nil {
		return AsmDoc{}, err
	}
	v := asmDocView{Family: a.Name, Source: a.Title}
	if v.Source == "" {
		v.Source = a.Vendor + " " + a.Name + " documentation"
	}
	tooltip := in.Summary
	if in.Kind == isa.KindVirtual {
		v.Summary = markdownHTML(in.Summary)
		tooltip = plainMarkdown(in.Summary)
		if n := len(in.Forms); n > 0 {
			v.Forms = fmt.Sprintf("%d documented forms (the first: %s), from PTX ISA %s and %s.", n, in.Forms[0].Syntax, orDash(in.PTXVersion), orDash(in.MinTarget))
		}
	} else {
		v.Summary = template.HTML("<p>" + template.HTMLEscapeString(in.Summary) + "</p>")
		for _, e := range in.Encodings {
			v.Encodings = append(v.Encodings, fmt.Sprintf("%s opcode %d", e.Name, e.Opcode))
		}
		if len(in.Encodings) > 0 {
			tooltip += fmt.Sprintf(" [%s: %s]", a.Name, strings.Join(v.Encodings, ", "))
		}
		v.Opcodes = opcodesLine(s.archs, in.Opcodes)
	}
	if len(in.Syntax) > 0 {
		v.Syntax = in.Syntax[0].Text
	}
	for _, o := range in.Operands {
		role := "read"
		switch {
		case o.Input && o.Output:
			role = "read and written"
		case o.Output:
			role = "written"
		}
		if o.DataFormat != "" {
			role += " " + o.DataFormat
		}
		v.Operands = append(v.Operands, asmDocOperand{Name: o.Name, Role: role})
	}
	seen := map[string]bool{}
	for _, c := range in.Concepts {
		// One name once, with the families that have it.
		var names []string
		families := map[string][]string{}
		for _, m := range c.Members {
			if _, ok := families[m.Name]; !ok {
				names = append(names, m.Name)
			}
			if m.Arch != "ptx" {
				families[m.Name] = append(families[m.Name], archName(m.Arch))
			} else {
				families[m.Name] = families[m.Name][:0:0]
			}
		}
		for i, n := range names {
			if fs := families[n]; len(fs) > 0 {
				names[i] = n + " (" + strings.Join(fs, ", ") + ")"
			}
		}
		line := fmt.Sprintf("%s, %s: %s", c.Name, c.Relation, strings.Join(names, ", "))
		if len(names) > 0 && !seen[line] {
			seen[line] = true
			v.Counterparts = append(v.Counterparts, line)
		}
	}
	var b bytes.Buffer
	if err := asmDocTemplate.Execute(&b, v); err != nil {
		return AsmDoc{}, err
	}
	return AsmDoc{Tooltip: tooltip, HTML: b.String(), URL: absoluteURL(r, pagePath(in))}, nil
}

// pagePath is the instruction's page on this server.
func pagePath(in *isa.Instruction) string {
	if in.Kind == isa.KindVirtual {
		return "/ptx/" + url.PathEscape(in.Name)
	}
	return "/amdgpu/" + url.PathEscape(in.Arch) + "/" + url.PathEscape(in.Name)
}

// absoluteURL makes a path absolute on the host the request came to:
// Compiler Explorer shows the link on its own origin.
func absoluteURL(r *http.Request, path string) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path
}

// opcodesLine is "CDNA 4 VOP2 11, RDNA 3 VOP2 16, ..." in family order.
func opcodesLine(archs []isa.Architecture, ops map[string]map[string]int) string {
	var parts []string
	for _, a := range archs {
		m := ops[a.ID]
		if len(m) == 0 {
			continue
		}
		formats := make([]string, 0, len(m))
		for f := range m {
			formats = append(formats, f)
		}
		sort.Strings(formats)
		var fs []string
		for _, f := range formats {
			fs = append(fs, fmt.Sprintf("%s %d", f, m[f]))
		}
		parts = append(parts, a.Name+" "+strings.Join(fs, "/"))
	}
	return strings.Join(parts, ", ")
}

// plainMarkdown drops Markdown's code marks for a plain-text tooltip.
func plainMarkdown(s string) string { return strings.ReplaceAll(s, "`", "") }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// cors lets browser tools call the read-only API from any origin; a
// preflight OPTIONS is answered with 204.
func cors(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	if r.Method != http.MethodOptions {
		return false
	}
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
	if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
		h.Set("Access-Control-Allow-Headers", req)
	}
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
	return true
}
