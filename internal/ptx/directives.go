package ptx

import (
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// This file applies the directives' own minima to a file: a performance
// directive or linkage word at the start of a line (".maxclusterrank 2"
// needs PTX ISA 7.8 and sm_90) is judged like a statement, as ptxas
// judges it ("Feature '.maxclusterrank' requires .target sm_90 or
// higher"). .version and .target are the header's (headerProblem).

// directiveNeeds reads the model's directive entries: the PTX ISA version
// and target each needs, by name (".maxclusterrank").
func directiveNeeds(instrs []Instruction) map[string]Option {
	out := map[string]Option{}
	for i := range instrs {
		in := &instrs[i]
		if in.Kind != KindDirective || in.Name == ".version" || in.Name == ".target" || !strings.HasPrefix(in.Name, ".") {
			continue
		}
		if in.PTXVersion != "" || in.MinTarget != "" {
			out[in.Name] = Option{PTXVersion: in.PTXVersion, MinTarget: in.MinTarget}
		}
	}
	return out
}

// checkDirectives judges the directives that start a line where ctx says
// the file is assembled: each raises the file's needs, and one the context
// does not meet is an invalid result at its line.
func (c *Checker) checkDirectives(rep *FileReport, src string, ctx Context) {
	if len(c.directives) == 0 {
		return
	}
	added := false
	defer func() {
		if added { // in line order, among the statements
			sort.SliceStable(rep.Results, func(i, j int) bool { return rep.Results[i].Line < rep.Results[j].Line })
		}
	}()
	for n := 1; len(src) > 0; n++ {
		line := src
		if nl := strings.IndexByte(src, '\n'); nl >= 0 {
			line, src = src[:nl], src[nl+1:]
		} else {
			src = ""
		}
		line = strings.TrimLeft(line, " \t")
		if len(line) < 2 || line[0] != '.' {
			continue
		}
		name := line
		if k := strings.IndexAny(line, " \t;({,"); k > 0 {
			name = line[:k]
		}
		need, ok := c.directives[name]
		if !ok {
			continue
		}
		r := Result{Text: strings.TrimRight(strings.TrimSpace(line), ";"), Line: n, Valid: true, Mnemonic: name, PTXVersion: need.PTXVersion, MinTarget: need.MinTarget}
		raiseNeed(&rep.NeedsVersion, &rep.VersionLines, r.PTXVersion, n, ptxorder.CompareVersions)
		raiseNeed(&rep.NeedsTarget, &rep.TargetLines, r.MinTarget, n, ptxorder.CompareTargets)
		c.judge(&r, ctx)
		if !r.Valid {
			r.Reason = "directive " + name + " " + r.Reason
			rep.Results = append(rep.Results, r)
			rep.Invalid++
			added = true
		}
	}
}
