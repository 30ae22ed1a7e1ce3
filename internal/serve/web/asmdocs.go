package web

import (
	"bytes"
	"fmt"
	"html/template"
	"maps"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// Compiler Explorer's assembly documentation: /api/asm/{arch}/{opcode}
// answers {tooltip, html, url} exactly as its AssemblyInstructionInfo, so a
// Compiler Explorer instance can take its AMDGPU and PTX documentation from
// a gpuisa server. Arch ids: Compiler Explorer's own instruction-set keys
// ("amd_cdna3", "amd_rdna3_5", "ptx": each family's CEKey in the family
// table), "amdgpu/rdna3" and the other family ids (also bare: "rdna3",
// "gfx942"), and "amdgpu". Bare "amdgpu" names no family: it answers the
// newest family that has the opcode, and says so, with the families whose
// encoding of it differs, in both the tooltip and the html. A PTX opcode
// written with modifiers ("max.NaN.f32") shows the form they select. Unknown opcodes are 404 {"error": "Unknown opcode
// 'X'"} as Compiler Explorer's own endpoint answers, with gpuisa's
// suggestions beside.

// AsmDoc is Compiler Explorer's AssemblyInstructionInfo.
type AsmDoc struct {
	Tooltip string `json:"tooltip"`
	HTML    string `json:"html"`
	URL     string `json:"url"`
}

func (s *server) apiAsmDoc(w http.ResponseWriter, r *http.Request) {
	arch, opcode := r.PathValue("arch"), strings.TrimSpace(r.PathValue("opcode"))
	if strings.EqualFold(arch, "sass") {
		// SASS is a top-level name only: /api/asm/amdgpu/sass/FFMA is
		// no AMD family's.
		if s.knownOpcodeLength(w, r, opcode) {
			s.sassAsmDoc(w, r, opcode)
		}
		return
	}
	s.asmDoc(w, r, arch, opcode)
}

func (s *server) apiAsmDocFamily(w http.ResponseWriter, r *http.Request) {
	if !strings.EqualFold(r.PathValue("arch"), "amdgpu") {
		s.apiFail(w, r, errs.NotFound(nil, "No documentation for '%s/%s'", r.PathValue("arch"), r.PathValue("family")))
		return
	}
	s.asmDoc(w, r, r.PathValue("family"), r.PathValue("opcode"))
}

// knownOpcodeLength answers an empty or overlong opcode as unknown and
// says whether the opcode may be looked up.
func (s *server) knownOpcodeLength(w http.ResponseWriter, r *http.Request, opcode string) bool {
	if opcode == "" || len(opcode) > 100 {
		s.apiFail(w, r, errs.NotFound(nil, "Unknown opcode '%s'", strings.ToUpper(opcode)))
		return false
	}
	return true
}

func (s *server) asmDoc(w http.ResponseWriter, r *http.Request, arch, opcode string) {
	ctx := r.Context()
	opcode = strings.TrimSpace(opcode)
	if !s.knownOpcodeLength(w, r, opcode) {
		return
	}
	var in *isa.Instruction
	var err error
	bare := strings.EqualFold(arch, "amdgpu")
	if bare {
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
	doc, err := s.asmDocOf(r, in, opcode, bare)
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
		`{{with .Bare}}<p>“amdgpu” names no family: this is {{.Family}}, the newest with the instruction.{{if .Differs}} Its encoding differs in {{.Differs}}; ask for {{.Key}} (Compiler Explorer's key) and the like for theirs.{{end}}</p>{{end}}` +
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
	Bare         *bareNote
	Counterparts []string
	Source       string
}

type asmDocOperand struct{ Name, Role string }

// asmDocOf renders one instruction in Compiler Explorer's format; every
// upstream string is escaped by html/template (PTX prose through the
// pages' Markdown renderer, which drops raw HTML and links).
func (s *server) asmDocOf(r *http.Request, in *isa.Instruction, opcode string, bare bool) (AsmDoc, error) {
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
		if f := ptxFormOf(in, opcode); f != nil {
			v.Syntax = f.Syntax
			version, target := writtenNeeds(f, opcode)
			tooltip += " [" + f.Syntax + " — PTX ISA " + orDash(version) + ", " + orDash(target) + "]"
			v.Forms = fmt.Sprintf("The form of %s: %s; as written, from PTX ISA %s and %s; %d documented forms.", opcode, strings.TrimSuffix(f.Syntax, ";"), orDash(version), orDash(target), len(in.Forms))
		} else if n := len(in.Forms); n > 0 {
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
		if bare {
			v.Bare = s.bareNote(in)
			if v.Bare.Differs != "" {
				tooltip += fmt.Sprintf(" (amdgpu: %s, the newest family with it; the encoding differs in %s)", a.Name, v.Bare.Differs)
			}
		}
	}
	if len(in.Syntax) > 0 && v.Syntax == "" {
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

// bareNote says what bare "amdgpu" resolved to: the family, the families
// whose opcodes for the instruction differ from its, and the Compiler
// Explorer key of the first of them.
type bareNote struct{ Family, Differs, Key string }

func (s *server) bareNote(in *isa.Instruction) *bareNote {
	n := &bareNote{Family: archName(in.Arch)}
	var differ []string
	for _, a := range s.archs {
		ops, ok := in.Opcodes[a.ID]
		if a.ID == in.Arch || !ok || maps.Equal(ops, in.Opcodes[in.Arch]) {
			continue
		}
		differ = append(differ, a.Name)
		if info, ok := isa.ArchByID(a.ID); ok && n.Key == "" {
			n.Key = info.CEKey
		}
	}
	n.Differs = strings.Join(differ, ", ")
	if n.Key == "" {
		n.Key = "amd_<family>"
	}
	return n
}

// ptxFormOf is the form of a PTX instruction that the modifiers written
// after its mnemonic select ("max.NaN.f32": the .f32 form with .NaN), nil
// when none are written or none fits. A written type must be the form's
// type; modifiers count for the form that takes them; the first form of
// the best count wins.
func ptxFormOf(in *isa.Instruction, opcode string) *isa.Form {
	rest, ok := strings.CutPrefix(strings.ToLower(opcode), strings.ToLower(in.Name))
	if !ok || rest == "" {
		return nil
	}
	written := strings.FieldsFunc(rest, func(r rune) bool { return r == '.' })
	types := map[string]bool{}
	for _, f := range in.Forms {
		for _, t := range f.Types {
			types[strings.ToLower(strings.TrimPrefix(t, "."))] = true
		}
	}
	var best *isa.Form
	bestScore := 0
	for i := range in.Forms {
		f := &in.Forms[i]
		has := map[string]bool{}
		for _, m := range append(append([]string(nil), f.Types...), f.Modifiers...) {
			for _, part := range strings.FieldsFunc(strings.ToLower(m), func(r rune) bool { return r == '.' }) {
				has[part] = true
			}
		}
		score := 0
		for _, w := range written {
			switch {
			case has[w]:
				score++
			case types[w]:
				score = -1 // another form's type
			}
			if score < 0 {
				break
			}
		}
		if score > bestScore {
			best, bestScore = f, score
		}
	}
	return best
}

// writtenNeeds is what the opcode as written needs: the form's PTX ISA
// version and target, raised by each written modifier that ptxas found
// needs more (.NaN of max's f32 form: PTX ISA 7.0, sm_80).
func writtenNeeds(f *isa.Form, opcode string) (version, target string) {
	version, target = f.PTXVersion, f.MinTarget
	written := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(opcode), func(r rune) bool { return r == '.' }) {
		written[w] = true
	}
	for _, m := range f.ModifierChecks {
		parts := strings.FieldsFunc(strings.ToLower(m.Modifier), func(r rune) bool { return r == '.' })
		if !m.Raises || len(parts) == 0 || !allWritten(parts, written) {
			continue
		}
		if c := m.Check; c.PTXVersion != "" && (version == "" || ptxorder.CompareVersions(c.PTXVersion, version) > 0) {
			version = c.PTXVersion
		}
		if c := m.Check; c.MinTarget != "" && (target == "" || ptxorder.CompareTargets(c.MinTarget, target) > 0) {
			target = c.MinTarget
		}
	}
	return version, target
}

func allWritten(parts []string, written map[string]bool) bool {
	for _, p := range parts {
		if !written[p] {
			return false
		}
	}
	return true
}
