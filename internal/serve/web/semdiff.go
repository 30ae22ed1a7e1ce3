package web

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/xvendor/semdiff"
)

// The differences by evaluation on concept pages: each relation's AMD
// pseudocode and PTX model run on the same special-value corpus by the
// build (package semdiff), stored in the store.KeySemDifferences extra.

// semDifferences loads the stored differences once; nil when the build
// made none.
func (s *server) semDifferences() *semdiff.Result {
	s.semDiffOnce.Do(func() {
		raw, err := s.store.Extra(context.Background(), store.KeySemDifferences)
		if err != nil {
			return
		}
		var r semdiff.Result
		if err := json.Unmarshal(raw, &r); err != nil {
			s.log.Warn("reading the stored differences", "err", err)
			return
		}
		s.semDiff = &r
	})
	return s.semDiff
}

// evaluatedView is a concept's pairs: those that differ with their
// groups, the ones that agree listed by name.
type evaluatedView struct {
	Differ         []evaluatedPair
	Agree          []evaluatedPair
	Contradictions []semdiff.Contradiction
}

// evaluatedPair is one relation and type on the families where it
// behaves the same (the corpus is the same in every family).
type evaluatedPair struct {
	semdiff.Pair
	PTXName, ArchName, AMDURL, PTXURL string
}

// fingerprint is what must match for families to share a row.
func fingerprint(p semdiff.Pair) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s|%s|%d|%d|", p.PTX, p.Variant, p.AMD, p.Cases, p.Differ)
	for _, g := range p.Differences {
		fmt.Fprintf(&b, "%s|%s|%s|%d;", g.When, g.AMD, g.PTX, g.Count)
	}
	return b.String()
}

func (s *server) evaluated(conceptID string) *evaluatedView {
	r := s.semDifferences()
	if r == nil {
		return nil
	}
	v := &evaluatedView{}
	rows := map[string]*evaluatedPair{}
	var order []string
	for _, p := range r.Pairs {
		if p.Concept != conceptID {
			continue
		}
		k := fingerprint(p)
		if ep, ok := rows[k]; ok {
			ep.ArchName += ", " + archName(p.Arch)
			continue
		}
		rows[k] = &evaluatedPair{Pair: p, PTXName: p.PTX + p.Variant, ArchName: archName(p.Arch), AMDURL: instrURL(p.Arch, p.AMD),
			PTXURL: instrURL("ptx", p.PTX)}
		order = append(order, k)
	}
	for _, k := range order {
		if ep := rows[k]; ep.Differ > 0 {
			v.Differ = append(v.Differ, *ep)
		} else {
			v.Agree = append(v.Agree, *ep)
		}
	}
	for _, c := range r.Contradictions {
		if c.Concept == conceptID {
			v.Contradictions = append(v.Contradictions, c)
		}
	}
	if len(v.Differ) == 0 && len(v.Agree) == 0 {
		return nil
	}
	sort.SliceStable(v.Differ, func(i, j int) bool { return v.Differ[i].PTXName < v.Differ[j].PTXName })
	return v
}
