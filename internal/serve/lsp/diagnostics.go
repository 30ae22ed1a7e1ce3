package lsp

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
	"github.com/gpuisa/gpuisa/internal/store"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Diagnostic codes, also the code actions' keys.
const (
	codeUnknown     = "unknown-mnemonic"
	codeUnsupported = "unsupported-on-target"
	codePTXInvalid  = "ptx-invalid"
	codePTXNeeds    = "ptx-needs-newer"
	codeTarget      = "unknown-target"
	codeAssembler   = "assembler"
	codeCapped      = "too-many-diagnostics"
)

// maxDiagnostics bounds one publication: a file of garbage should not
// flood the client.
const maxDiagnostics = 1000

// diagData rides on a diagnostic for its code action.
type diagData struct {
	Replace string `json:"replace,omitempty"` // the mnemonic to write instead
}

// diagnose checks a document: AMDGPU mnemonics against the family and
// llvm-mc's verdicts for the target, PTX statements with the PTX checker
// and against the file's .version and .target.
func diagnose(ctx context.Context, k *knowledge, d *document, c fileContext) []protocol.Diagnostic {
	out := []protocol.Diagnostic{}
	if len(d.lines) == 0 {
		if len(d.text) > maxDocument {
			out = append(out, diag(d, 0, 0, 0, protocol.DiagnosticSeverityInformation, codeTarget, fmt.Sprintf("the file is larger than %d MiB: gpuisa does not check it", maxDocument>>20), nil))
		}
		return out
	}
	if d.lang == langPTX {
		return diagnosePTX(ctx, k, d, c, out)
	}
	if c.target != "" && c.family == "" {
		out = append(out, diag(d, 0, 0, len(d.lines[0].text), protocol.DiagnosticSeverityWarning, codeTarget,
			fmt.Sprintf("unknown target %s (from %s): instructions are not checked", c.target, c.from), nil))
	}
	// Real files repeat a few hundred mnemonics: judge each once per
	// family and target, for every file and version.
	memo := k.verdicts(c.family + "/" + c.target)
	judge := func(written string) *verdict {
		key := strings.ToLower(written)
		if v, ok := memo.get(key); ok {
			return v
		}
		var v *verdict
		fam := c.family
		if fam == "" {
			// No target: only names no family has are wrong.
			if _, ok := k.homeOf(ctx, written); !ok {
				v = &verdict{msg: unknownMessage(ctx, k, "", written), severity: protocol.DiagnosticSeverityError, code: codeUnknown}
			}
			memo.put(key, v)
			return v
		}
		resolved, found := k.resolve(ctx, fam, written)
		if !found {
			sup, known := k.supportAny[bareMnemonic(written)]
			home, elsewhere := k.homeOf(ctx, written)
			switch {
			case spellingVerdict(sup, known, c.target, bareMnemonic(written)) == rejected:
				v = unsupported(c, written, sup)
			case elsewhere && spellingVerdict(sup, known, c.target, bareMnemonic(written)) == notVerified:
				v = &verdict{msg: fmt.Sprintf("%s is not an instruction of %s (%s has it; llvm-mc did not verify it)", key, k.familyName(fam), k.familyName(home)),
					severity: protocol.DiagnosticSeverityError, code: codeUnsupported}
			case !elsewhere:
				v = &verdict{msg: unknownMessage(ctx, k, fam, written), severity: protocol.DiagnosticSeverityError, code: codeUnknown}
			}
			memo.put(key, v)
			return v
		}
		if sup, ok := k.supportOf(fam, written, resolved); spellingVerdict(sup, ok, c.target, bareMnemonic(written)) == rejected {
			v = unsupported(c, written, sup)
		}
		memo.put(key, v)
		return v
	}
	operands := k.operandChecker(ctx, c.family)
	for n := range d.lines {
		if n%4096 == 0 && ctx.Err() != nil {
			return out // a newer version is on its way
		}
		toks := d.tokensOf(n)
		for _, t := range toks {
			if t.kind != tokMnemonic {
				continue
			}
			v := judge(t.text)
			if v == nil && operands != nil {
				if dg, bad := operandDiagnostic(operands, d, n, toks, t); bad {
					if len(out) >= maxDiagnostics {
						return append(out, capped(d, n))
					}
					out = append(out, dg)
				}
			}
			if v == nil {
				continue
			}
			if len(out) >= maxDiagnostics {
				return append(out, capped(d, n))
			}
			out = append(out, diag(d, n, t.start, t.end, v.severity, v.code, v.msg, v.data))
		}
	}
	return out
}

// capped is the diagnostic that ends a full publication: where checking
// stopped, so that a clean rest of the file is not taken for checked.
func capped(d *document, n int) protocol.Diagnostic {
	return diag(d, n, 0, 0, protocol.DiagnosticSeverityInformation, codeCapped,
		fmt.Sprintf("gpuisa stopped after %d diagnostics: none from line %d on is shown", maxDiagnostics, n+1), nil)
}

// verdictMemo remembers verdicts on spellings for one family and target;
// it forgets everything past a bound (every partial word typed is a
// spelling).
type verdictMemo struct {
	mu sync.Mutex
	m  map[string]*verdict
}

const maxVerdicts = 20000

func (m *verdictMemo) get(key string) (*verdict, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	return v, ok
}

func (m *verdictMemo) put(key string, v *verdict) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.m) >= maxVerdicts {
		m.m = map[string]*verdict{}
	}
	m.m[key] = v
}

// verdicts returns the memo of one family and target.
func (k *knowledge) verdicts(key string) *verdictMemo {
	v, _ := k.memos.LoadOrStore(key, &verdictMemo{m: map[string]*verdict{}})
	return v.(*verdictMemo)
}

// verdict is a diagnostic for one spelling, before it is placed.
type verdict struct {
	msg      string
	severity protocol.DiagnosticSeverity
	code     string
	data     *diagData
}

// unsupported words llvm-mc's verdict: the spelling the target takes
// instead, and the targets that take this one.
func unsupported(c fileContext, written string, sup store.Support) *verdict {
	bare := bareMnemonic(written)
	v := &verdict{severity: protocol.DiagnosticSeverityError, code: codeUnsupported,
		msg: fmt.Sprintf("%s is not supported on %s (llvm-mc rejects it)", bare, c.target)}
	if o := sup.OtherSpellings[c.target]; o != "" {
		v.msg += fmt.Sprintf("; %s assembles %s", c.target, o)
		v.data = &diagData{Replace: o + suffixOf(written)}
	}
	if ts := targetsSupporting(sup); len(ts) > 0 {
		v.msg += "; targets that accept " + bare + ": " + shortList(ts, 16)
	} else {
		v.msg += "; no target accepts " + bare
	}
	return v
}

func diag(d *document, n, start, end int, sev protocol.DiagnosticSeverity, code, msg string, data *diagData) protocol.Diagnostic {
	src := "gpuisa"
	dg := protocol.Diagnostic{Range: *d.rangeOf(n, start, end), Severity: &sev, Code: &protocol.IntegerOrString{Value: code}, Source: &src, Message: msg}
	if data != nil {
		dg.Data = data
	}
	return dg
}

// unknownMessage is "unknown mnemonic x (did you mean y?)".
func unknownMessage(ctx context.Context, k *knowledge, fam, written string) string {
	where := ""
	var sugg []string
	if fam != "" {
		where = " in " + k.familyName(fam)
		_, _, err := k.db.Resolve(ctx, fam, written)
		sugg = errs.SuggestionsOf(err)
	} else {
		for _, a := range k.archs {
			if a.Vendor == "AMD" {
				_, _, err := k.db.Resolve(ctx, a.ID, written)
				sugg = errs.SuggestionsOf(err)
				break
			}
		}
	}
	msg := fmt.Sprintf("unknown mnemonic %s%s", strings.ToLower(written), where)
	if len(sugg) > 0 {
		msg += " (did you mean " + strings.Join(sugg, ", ") + "?)"
	}
	return msg
}

// diagnosePTX runs the PTX checker over the file.
func diagnosePTX(ctx context.Context, k *knowledge, d *document, c fileContext, out []protocol.Diagnostic) []protocol.Diagnostic {
	if err := k.loadPTX(ctx); err != nil {
		return append(out, diag(d, 0, 0, 0, protocol.DiagnosticSeverityInformation, codePTXInvalid, "PTX statements are not checked: "+err.Error(), nil))
	}
	rep := k.checker.CheckSource(d.uri, d.text)
	// Results come in statement order; find each on its line.
	cursor := map[int]int{} // line -> statements of that line consumed
	for _, r := range rep.Results {
		n := r.Line - 1
		if n < 0 || n >= len(d.lines) {
			continue
		}
		if len(out) >= maxDiagnostics {
			out = append(out, capped(d, n))
			break
		}
		t, ok := nthMnemonic(d, n, cursor[n])
		cursor[n]++
		if !ok {
			continue
		}
		switch {
		case r.Unjudged:
			out = append(out, diag(d, n, t.start, t.end, protocol.DiagnosticSeverityInformation, codePTXInvalid, r.Reason, nil))
		case !r.Valid && (r.Rule == "target" || r.Rule == "version"):
			out = append(out, diag(d, n, t.start, t.end, protocol.DiagnosticSeverityError, codePTXNeeds, strings.TrimSuffix(r.Text, ";")+": "+r.Reason, nil))
		case !r.Valid:
			out = append(out, diag(d, n, t.start, t.end, protocol.DiagnosticSeverityError, codePTXInvalid, r.Reason, nil))
		default:
			if msg := ptxNeeds(r, c); msg != "" {
				out = append(out, diag(d, n, t.start, t.end, protocol.DiagnosticSeverityError, codePTXNeeds, msg, nil))
			}
		}
	}
	return out
}

// nthMnemonic is the i-th instruction mnemonic of line n, or of the line
// a statement that began there continues to.
func nthMnemonic(d *document, n, i int) (token, bool) {
	for _, t := range d.tokensOf(n) {
		if t.kind == tokMnemonic {
			if i == 0 {
				return t, true
			}
			i--
		}
	}
	return token{}, false
}

// ptxNeeds says what a valid statement needs beyond the file's .version
// and .target, "" when the file gives it.
func ptxNeeds(r ptx.Result, c fileContext) string {
	lowVersion := c.ptxVersion != "" && r.PTXVersion != "" && ptxorder.CompareVersions(c.ptxVersion, r.PTXVersion) < 0
	lowTarget := c.target != "" && r.MinTarget != "" && !r.Allows(c.target)
	if !lowVersion && !lowTarget {
		return ""
	}
	need := joinNonEmpty(" and ", prefixed("PTX ", r.PTXVersion), r.MinTarget)
	var have []string
	if lowVersion {
		have = append(have, ".version "+c.ptxVersion)
	}
	if lowTarget {
		have = append(have, ".target "+c.target)
	}
	who := "the documentation"
	if r.Verified != "" {
		who = r.Verified
	}
	msg := fmt.Sprintf("%s needs %s (%s); the file declares %s", strings.TrimSuffix(r.Text, ";"), need, who, strings.Join(have, " and "))
	if len(r.Alternatives) > 1 {
		var alts []string
		for _, o := range r.Alternatives {
			alts = append(alts, joinNonEmpty(" with ", prefixed("PTX ", o.PTXVersion), o.MinTarget))
		}
		msg += " (or " + strings.Join(alts, ", or ") + ")"
	}
	return msg
}
