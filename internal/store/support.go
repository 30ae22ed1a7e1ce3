package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Support is llvm-mc's verdict on one instruction's name on every gfx
// target, without the encodings and messages of isa.TargetResult: what an
// editor needs to check a whole file against its target at once.
type Support struct {
	Name string `json:"-"`
	// Supported lists the targets llvm-mc assembles the name on, sorted.
	Supported []string `json:"supported"`
	// OtherSpellings maps a target that rejects the name to the name of
	// the same instruction that assembles there (isa.TargetResult's
	// OtherSpelling).
	OtherSpellings map[string]string `json:"other_spellings,omitempty"`
}

// Supports reports whether llvm-mc assembles the name on target.
func (s Support) Supports(target string) bool {
	i := sort.SearchStrings(s.Supported, target)
	return i < len(s.Supported) && s.Supported[i] == target
}

// supportOf is the support column of one instruction, empty when llvm-mc
// gave no verdict on it.
func supportOf(in *isa.Instruction) (string, error) {
	if len(in.Targets) == 0 && len(in.TargetDetails) == 0 {
		return "", nil
	}
	s := Support{Supported: []string{}}
	for t, st := range in.Targets {
		if st == "supported" {
			s.Supported = append(s.Supported, t)
		}
	}
	for _, d := range in.TargetDetails {
		if d.Status != "supported" && d.OtherSpelling != "" {
			if s.OtherSpellings == nil {
				s.OtherSpellings = map[string]string{}
			}
			s.OtherSpellings[d.Target] = d.OtherSpelling
		}
	}
	sort.Strings(s.Supported)
	b, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("support of %s/%s: %w", in.Arch, in.Name, err)
	}
	return string(b), nil
}

// Support returns llvm-mc's target verdicts on every instruction of a
// family that was verified, by name (one query, no document inflated).
func (s *DB) Support(ctx context.Context, arch string) (map[string]Support, error) {
	canon, err := s.resolveArch(arch)
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, "SELECT name, support FROM instructions WHERE arch = ? AND support != ''", canon)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Support{}
	for rows.Next() {
		var name, doc string
		if err := rows.Scan(&name, &doc); err != nil {
			return nil, err
		}
		var sp Support
		if err := json.Unmarshal([]byte(doc), &sp); err != nil {
			return nil, fmt.Errorf("support of %s/%s: %w", canon, name, err)
		}
		sp.Name = name
		out[name] = sp
	}
	return out, rows.Err()
}
