package store

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Support is llvm-mc's verdict on one instruction's name on every gfx
// target, without the encodings and messages of isa.TargetResult: what an
// editor needs to check a whole file against its target at once.
type Support struct {
	Name string
	// Supported lists the targets llvm-mc assembles the name on, sorted.
	Supported []string
	// OtherSpellings maps a target that rejects the name to the name of
	// the same instruction that assembles there (isa.TargetResult's
	// OtherSpelling).
	OtherSpellings map[string]string
}

// Supports reports whether llvm-mc assembles the name on target.
func (s Support) Supports(target string) bool {
	i := sort.SearchStrings(s.Supported, target)
	return i < len(s.Supported) && s.Supported[i] == target
}

// supportOf is one instruction's row of the support table, empty when
// llvm-mc gave no verdict on it: the supported targets, then after " | "
// the target=spelling pairs ("gfx900 gfx90c | gfx950=v_fma_mix_f32"). Plain
// words rather than JSON: an editor reads every family's rows at start.
func supportOf(in *isa.Instruction) string {
	if len(in.Targets) == 0 && len(in.TargetDetails) == 0 {
		return ""
	}
	var supported, others []string
	for t, st := range in.Targets {
		if st == "supported" {
			supported = append(supported, t)
		}
	}
	for _, d := range in.TargetDetails {
		if d.Status != "supported" && d.OtherSpelling != "" {
			others = append(others, d.Target+"="+d.OtherSpelling)
		}
	}
	sort.Strings(supported)
	sort.Strings(others)
	return strings.Join(supported, " ") + " | " + strings.Join(others, " ")
}

// parseSupport reads a row written by supportOf.
func parseSupport(name, row string) (Support, error) {
	sup, other, ok := strings.Cut(row, "|")
	if !ok {
		return Support{}, fmt.Errorf("support row of %s without '|': %q", name, row)
	}
	s := Support{Name: name, Supported: strings.Fields(sup)}
	for _, p := range strings.Fields(other) {
		t, n, ok := strings.Cut(p, "=")
		if !ok {
			return Support{}, fmt.Errorf("support row of %s: %q is not target=name", name, p)
		}
		if s.OtherSpellings == nil {
			s.OtherSpellings = map[string]string{}
		}
		s.OtherSpellings[t] = n
	}
	return s, nil
}

// Support returns llvm-mc's target verdicts on every instruction of a
// family that was verified, by name (one query, no document inflated).
func (s *DB) Support(ctx context.Context, arch string) (map[string]Support, error) {
	canon, err := s.resolveArch(arch)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT name, verdicts FROM support WHERE arch = ?", canon)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Support{}
	for rows.Next() {
		var name, row string
		if err := rows.Scan(&name, &row); err != nil {
			return nil, err
		}
		sp, err := parseSupport(name, row)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", canon, err)
		}
		out[name] = sp
	}
	return out, rows.Err()
}
