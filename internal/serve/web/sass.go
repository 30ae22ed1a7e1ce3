package web

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
)

// The SASS reference (issue 31): /sass lists every opcode nvdisasm printed
// over the PTX pages' statements, /sass/sm_90 one target's, /sass/FFMA one
// opcode on every target, all read from the index the build derived
// (store/sassindex). /api/asm/sass/FFMA answers it in Compiler Explorer's
// format (asmdocs.go).

// sassAttribution says whose output the SASS is, on every SASS page.
const sassAttribution = "The SASS is NVIDIA's ptxas and nvdisasm output, produced on this machine by gpuisa build from the PTX pages' statements; nothing NVIDIA ships is redistributed."

func (s *server) sassIndex() (*sassindex.Index, error) {
	s.sassMu.Lock()
	defer s.sassMu.Unlock()
	if s.sassIdx != nil || s.sassErr != nil {
		return s.sassIdx, s.sassErr
	}
	x, err := sassindex.Load(context.Background(), s.store)
	switch {
	case err == nil:
		s.sassIdx = x
	case errs.KindOf(err) == errs.KindNotFound:
		s.sassErr = errs.NotFound(nil, "this database has no SASS reference: it was built without ptxas and nvdisasm (run gpuisa tools install, then gpuisa build)")
	default:
		// A failed read (a busy or damaged file) is not kept: the next
		// request reads again.
		return nil, fmt.Errorf("web: %w", err)
	}
	return s.sassIdx, s.sassErr
}

// hasSASSPage says whether /sass/OPCODE answers.
func (s *server) hasSASSPage(opcode string) bool {
	x, err := s.sassIndex()
	return err == nil && x.Opcode(opcode) != nil
}

func sassURL(name string) string { return "/sass/" + url.PathEscape(name) }

// sassURLs are the SASS reference's pages, for the prerendered list.
func (s *server) sassURLs() []string {
	x, err := s.sassIndex()
	if err != nil {
		return nil
	}
	out := []string{"/sass"}
	for _, t := range x.Targets {
		out = append(out, sassURL(t))
	}
	for _, o := range x.Opcodes {
		out = append(out, sassURL(o.Name))
	}
	return out
}

// --- /sass ---

type sassIndexView struct {
	Targets []string
	Rows    []sassIndexRow
	Lines   int
	Prov    sassindex.Provenance
	Note    string
}

type sassIndexRow struct {
	Name, URL   string
	First, Last string
	Cells       []sassCell // one per index target
	Lines       int
}

type sassCell struct {
	Target   string
	Lines    int // 0: not seen there
	Listings int // the listings read on the target
}

func (s *server) handleSASSIndex(w http.ResponseWriter, r *http.Request) {
	x, err := s.sassIndex()
	if err != nil {
		s.storeError(w, r, err, nil)
		return
	}
	v := sassIndexView{Targets: x.Targets, Prov: x.Provenance, Note: sassAttribution}
	for _, o := range x.Opcodes {
		row := sassIndexRow{Name: o.Name, URL: sassURL(o.Name), First: o.Targets[0].Target, Last: o.Targets[len(o.Targets)-1].Target}
		for _, t := range x.Targets {
			c := sassCell{Target: t, Listings: x.Provenance.ListingsOf[t]}
			if on := o.On(t); on != nil {
				c.Lines = on.Lines
				row.Lines += on.Lines
			}
			row.Cells = append(row.Cells, c)
		}
		v.Lines += row.Lines
		v.Rows = append(v.Rows, row)
	}
	s.render(w, r, http.StatusOK, "sass-index", page{Title: "SASS opcodes",
		Description: fmt.Sprintf("%d SASS opcodes NVIDIA's compiler emits for the PTX pages' statements on %s.", len(x.Opcodes), strings.Join(x.Targets, ", ")), Data: v})
}

// --- /sass/{name}: a target or an opcode ---

func (s *server) handleSASS(w http.ResponseWriter, r *http.Request) {
	x, err := s.sassIndex()
	if err != nil {
		s.storeError(w, r, err, nil)
		return
	}
	name := r.PathValue("name")
	if x.HasTarget(name) {
		s.sassTarget(w, r, x, name)
		return
	}
	if t := strings.ToLower(name); x.HasTarget(t) { // SM_90: targets are lower case
		http.Redirect(w, r, sassURL(t), http.StatusMovedPermanently)
		return
	}
	// Opcodes are upper case; one written with modifiers (FFMA.FTZ, as
	// it appears in a listing) is its opcode's page.
	op, _, _ := strings.Cut(strings.ToUpper(strings.TrimSpace(name)), ".")
	if o := x.Opcode(op); o != nil {
		if op != name {
			http.Redirect(w, r, sassURL(op), http.StatusMovedPermanently)
			return
		}
		s.sassOpcode(w, r, x, o)
		return
	}
	s.storeError(w, r, errs.NotFound(closeSASS(x, name), "no SASS opcode or target %q in the SASS reference", name), sassURL)
}

// closeSASS suggests the opcodes and targets that start like name.
func closeSASS(x *sassindex.Index, name string) []string {
	up := strings.ToUpper(name)
	var out []string
	for _, t := range x.Targets {
		if strings.HasPrefix(t, strings.ToLower(name)) {
			out = append(out, t)
		}
	}
	for _, o := range x.Opcodes {
		if len(up) >= 2 && strings.HasPrefix(o.Name, up[:2]) && len(out) < 8 {
			out = append(out, o.Name)
		}
	}
	return out
}

type sassTargetView struct {
	Target  string
	Tool    string
	Targets []link // every target, this one unlinked
	Rows    []sassTargetRow
	Lines   int
	Note    string
	// Listings are the statements' listings read on the target;
	// Specific says it is an architecture- or family-specific one.
	Listings int
	Specific bool
	// Prev is the target before this one; Gone the opcodes it has and
	// this one does not (the rows mark those new here).
	Prev string
	Gone []link
}

type sassTargetRow struct {
	Name, URL    string
	Lines        int
	Modifiers    []sassindex.Count
	Instructions []link
	MoreInsts    int
	New          bool // not seen on the previous target
}

func (s *server) sassTarget(w http.ResponseWriter, r *http.Request, x *sassindex.Index, target string) {
	v := sassTargetView{Target: target, Tool: orDash(x.Provenance.ToolOf[target]), Note: sassAttribution,
		Listings: x.Provenance.ListingsOf[target], Specific: specificTarget(target)}
	// The diff is against the previous plain target: a specific one
	// (sm_90a) lists only what no plain target accepts, so it has none
	// and is none's.
	prev, last := "", ""
	for _, t := range x.Targets {
		l := link{Text: t}
		if t != target {
			l.URL = sassURL(t)
		} else if !v.Specific {
			prev = last
		}
		if !specificTarget(t) {
			last = t
		}
		v.Targets = append(v.Targets, l)
	}
	v.Prev = prev
	for _, o := range x.Opcodes {
		on := o.On(target)
		if on == nil {
			if prev != "" && o.On(prev) != nil {
				v.Gone = append(v.Gone, link{Text: o.Name, URL: sassURL(o.Name)})
			}
			continue
		}
		row := sassTargetRow{Name: o.Name, URL: sassURL(o.Name), Lines: on.Lines, Modifiers: on.Modifiers, New: prev != "" && o.On(prev) == nil}
		for i, c := range on.Instructions {
			if i == 8 {
				row.MoreInsts = len(on.Instructions) - i
				break
			}
			row.Instructions = append(row.Instructions, s.ptxLink(c.Text))
		}
		v.Lines += on.Lines
		v.Rows = append(v.Rows, row)
	}
	s.render(w, r, http.StatusOK, "sass-target", page{Title: "SASS on " + target,
		Description: fmt.Sprintf("The %d SASS opcodes ptxas emits on %s for the PTX pages' statements.", len(v.Rows), target), Data: v})
}

// ptxLink links a PTX instruction to its page when the database has it.
func (s *server) ptxLink(name string) link {
	l := link{Text: name}
	if s.hasInstruction("ptx", name) {
		l.URL = instrURL("ptx", name)
	}
	return l
}

// --- /sass/{opcode} ---

type sassOpcodeView struct {
	Name        string
	First, Last string
	Seen        int
	Grid        []sassCell
	Targets     []sassOpcodeTarget
	Statements  []sassStatementRow
	MoreStmts   int
	Controls    []sassControlRow
	Prov        sassindex.Provenance
	Tools       []string // per target: "sm_90: ptxas 12.9.86"
	Note        string
	Lines       int
	AMD         []sassAMDRow
}

// sassAMDRow is an AMD counterpart reached through the concept map: a PTX
// instruction that lowers to the opcode, its concept, and the AMD
// instructions the concept names.
type sassAMDRow struct {
	PTX, Concept link
	Relation     string
	Members      []link // Note: the families that have it
}

// maxSASSCounterparts bounds the PTX instructions whose counterparts the
// page shows (the most direct lowerings come first).
const maxSASSCounterparts = 8

type sassOpcodeTarget struct {
	Target       string
	Lines, Reuse int
	Modifiers    []sassindex.Count
	Shapes       []sassindex.Count
	MoreShapes   int
	Instructions []link
}

// sassStatementRow is a PTX statement with the targets where it lowers to
// the opcode.
type sassStatementRow struct {
	Instruction link
	Statement   string
	From        string
	Targets     []string
}

// sassControlRow is one control string seen, decoded.
type sassControlRow struct {
	Target, Text        string
	N                   int
	Stall, Yield        int
	Write, Read, WaitOn string
}

func (s *server) sassOpcode(w http.ResponseWriter, r *http.Request, x *sassindex.Index, o *sassindex.Opcode) {
	v := sassOpcodeView{Name: o.Name, First: o.Targets[0].Target, Last: o.Targets[len(o.Targets)-1].Target,
		Seen: len(o.Targets), Prov: x.Provenance, Note: sassAttribution}
	stmtRow := map[string]int{}
	for _, t := range x.Targets {
		on := o.On(t)
		c := sassCell{Target: t, Listings: x.Provenance.ListingsOf[t]}
		if on == nil {
			v.Grid = append(v.Grid, c)
			continue
		}
		c.Lines = on.Lines
		v.Grid = append(v.Grid, c)
		v.Lines += on.Lines
		v.Tools = append(v.Tools, t+": "+orDash(x.Provenance.ToolOf[t]))
		ot := sassOpcodeTarget{Target: t, Lines: on.Lines, Reuse: on.Reuse, Modifiers: on.Modifiers, Shapes: on.Shapes, MoreShapes: on.MoreShapes}
		for _, c := range on.Instructions {
			ot.Instructions = append(ot.Instructions, s.ptxLink(c.Text))
		}
		v.Targets = append(v.Targets, ot)
		for _, st := range on.Statements {
			key := st.Instruction + "\x00" + ptx.NormalizeStatement(st.Statement)
			i, ok := stmtRow[key]
			if !ok {
				i = len(v.Statements)
				stmtRow[key] = i
				v.Statements = append(v.Statements, sassStatementRow{Instruction: s.ptxLink(st.Instruction), Statement: st.Statement, From: st.From})
			}
			v.Statements[i].Targets = append(v.Statements[i].Targets, t)
		}
		v.MoreStmts = max(v.MoreStmts, on.MoreStatements)
		for _, c := range on.Controls {
			v.Controls = append(v.Controls, controlRow(t, c))
		}
	}
	// The statements on the most targets first, then in the index's
	// order (the most lines first).
	sort.SliceStable(v.Statements, func(i, j int) bool { return len(v.Statements[i].Targets) > len(v.Statements[j].Targets) })
	amd, err := s.sassCounterparts(r.Context(), v.Statements)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v.AMD = amd
	s.render(w, r, http.StatusOK, "sass-opcode", page{Title: o.Name + " · SASS",
		Description: fmt.Sprintf("The SASS opcode %s: on %s to %s, its modifiers, operand shapes, control fields and the PTX statements that lower to it.", o.Name, v.First, v.Last), Data: v})
}

func controlRow(target string, c sassindex.Count) sassControlRow {
	row := sassControlRow{Target: target, Text: c.Text, N: c.N, Write: "—", Read: "—", WaitOn: "—"}
	d, ok := sassindex.ParseControl(c.Text)
	if !ok {
		return row
	}
	row.Stall, row.Yield = d.Stall, d.Yield
	if d.Write >= 0 {
		row.Write = fmt.Sprintf("SB%d", d.Write)
	}
	if d.Read >= 0 {
		row.Read = fmt.Sprintf("SB%d", d.Read)
	}
	if len(d.Wait) > 0 {
		var ws []string
		for _, b := range d.Wait {
			ws = append(ws, fmt.Sprintf("SB%d", b))
		}
		row.WaitOn = strings.Join(ws, ", ")
	}
	return row
}

// --- /api/asm/sass/{opcode} ---

var sassAsmTemplate = template.Must(template.New("sassdoc").Parse(
	`<p>SASS opcode <b>{{.Name}}</b>{{with .Mods}} (as written: <code>{{.}}</code>){{end}}, emitted by ptxas on {{.Targets}}.</p>` +
		`{{with .Modifiers}}<p>Modifiers on {{$.Last}}: {{range $i, $m := .}}{{if $i}}, {{end}}<code>{{if $m.Text}}{{$m.Text}}{{else}}(none){{end}}</code>{{end}}</p>{{end}}` +
		`{{with .Shapes}}<p>Operands on {{$.Last}}: {{range $i, $m := .}}{{if $i}}; {{end}}<code>{{$m.Text}}</code>{{end}}</p>{{end}}` +
		`{{with .PTX}}<p>From PTX: {{range $i, $p := .}}{{if $i}}, {{end}}<code>{{$p}}</code>{{end}}</p>{{end}}` +
		`{{with .Control}}<p>Control fields seen on {{$.Last}} (decoded by gpuisa from nvdisasm's output): {{range $i, $c := .}}{{if $i}}, {{end}}<code>{{$c.Text}}</code>{{end}}</p>{{end}}` +
		`<p><small>From {{.Tools}}, run by gpuisa build on this machine; gpuisa.</small></p>`))

type sassAsmView struct {
	Name, Mods, Targets, Last, Tools string
	Modifiers, Shapes, Control       []sassindex.Count
	PTX                              []string
}

// sassAsmDoc answers a SASS opcode in Compiler Explorer's format; the
// opcode may carry its modifiers and a guard as a listing shows them
// ("FFMA.FTZ", "@P0 BRA"): the opcode's page answers.
func (s *server) sassAsmDoc(w http.ResponseWriter, r *http.Request, opcode string) {
	x, err := s.sassIndex()
	if err != nil {
		s.apiFail(w, r, err)
		return
	}
	p, ok := sassindex.Parse(strings.ToUpper(opcode))
	var o *sassindex.Opcode
	if ok {
		o = x.Opcode(p.Opcode)
	}
	if o == nil {
		s.apiFail(w, r, errs.NotFound(closeSASS(x, opcode), "Unknown opcode '%s'", strings.ToUpper(opcode)))
		return
	}
	last := o.Targets[len(o.Targets)-1]
	v := sassAsmView{Name: o.Name, Mods: p.Modifiers, Last: last.Target, Tools: strings.Join(x.Provenance.Tools, ", "),
		Modifiers: first(last.Modifiers, 8), Shapes: first(last.Shapes, 4), Control: first(last.Controls, 4)}
	var ts []string
	for _, t := range o.Targets {
		ts = append(ts, t.Target)
	}
	v.Targets = strings.Join(ts, ", ")
	for _, c := range first(last.Instructions, 8) {
		v.PTX = append(v.PTX, c.Text)
	}
	tooltip := fmt.Sprintf("SASS %s: on %s to %s", o.Name, o.Targets[0].Target, last.Target)
	if len(v.PTX) > 0 {
		tooltip += "; from PTX " + strings.Join(v.PTX, ", ")
	}
	var b bytes.Buffer
	if err := sassAsmTemplate.Execute(&b, v); err != nil {
		s.apiFail(w, r, err)
		return
	}
	s.sendJSON(w, r, AsmDoc{Tooltip: tooltip, HTML: b.String(), URL: absoluteURL(r, sassURL(o.Name))})
}

func first(cs []sassindex.Count, n int) []sassindex.Count {
	if len(cs) > n {
		return cs[:n]
	}
	return cs
}

// sassLineHTML is a SASS line with its opcode linked to the opcode's page
// (/sass/FFMA); a line without an opcode gpuisa reads stays plain text.
// The build indexes every opcode of every listing it stores, so the link
// answers wherever the line is shown.
func sassLineHTML(text string) template.HTML {
	p, ok := sassindex.Parse(text)
	if !ok {
		return template.HTML(template.HTMLEscapeString(text))
	}
	var b strings.Builder
	if p.Guard != "" {
		b.WriteString(template.HTMLEscapeString(p.Guard) + " ")
	}
	fmt.Fprintf(&b, `<a href="%s">%s</a>`, sassURL(p.Opcode), p.Opcode)
	b.WriteString(template.HTMLEscapeString(p.Modifiers))
	if p.Operands != "" {
		b.WriteString(" " + template.HTMLEscapeString(p.Operands))
	}
	return template.HTML(b.String())
}

// sassCounterparts are the AMD instructions the concept map gives the PTX
// instructions of rows, in the rows' order.
func (s *server) sassCounterparts(ctx context.Context, rows []sassStatementRow) ([]sassAMDRow, error) {
	var out []sassAMDRow
	seen, shown := map[string]bool{}, map[string]bool{}
	for _, row := range rows {
		name := row.Instruction.Text
		if seen[name] || row.Instruction.URL == "" {
			continue
		}
		seen[name] = true
		if len(seen) > maxSASSCounterparts {
			break
		}
		in, err := s.store.Instruction(ctx, "ptx", name)
		if errs.KindOf(err) == errs.KindNotFound {
			continue
		} else if err != nil {
			return nil, err
		}
		for _, c := range in.Concepts {
			a := sassAMDRow{PTX: row.Instruction, Concept: link{Text: c.Name, URL: conceptURL(c.ID)}, Relation: c.Relation}
			at := map[string]int{}
			for _, m := range c.Members {
				if m.Arch == "ptx" {
					continue
				}
				i, ok := at[m.Name]
				if !ok {
					// The first family listed is the newest: its page.
					i = len(a.Members)
					at[m.Name] = i
					a.Members = append(a.Members, link{Text: m.Name, URL: instrURL(m.Arch, m.Name)})
				}
				if a.Members[i].Note != "" {
					a.Members[i].Note += ", "
				}
				a.Members[i].Note += archName(m.Arch)
			}
			// A concept the instruction names once per variant (mma's
			// shapes) with the same members is one row.
			key := name + "\x00" + c.ID
			for _, m := range a.Members {
				key += "\x00" + m.Text
			}
			if len(a.Members) > 0 && !shown[key] {
				shown[key] = true
				out = append(out, a)
			}
		}
	}
	return out, nil
}

// specificTarget says whether a target is architecture- or
// family-specific (sm_90a, sm_100f).
func specificTarget(t string) bool { return strings.HasSuffix(t, "a") || strings.HasSuffix(t, "f") }
