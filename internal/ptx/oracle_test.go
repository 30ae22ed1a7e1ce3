package ptx

import (
	"slices"
	"strings"
	"testing"
)

// TestOracleNotVerifiedPartKeepsNotes: where ptxas could not judge an
// optional part (the build's probe of st{.level::cache_hint} lacked the
// cache-policy operand the part needs), the notes about that part still
// raise the statement (.L2::cache_hint: PTX ISA 7.4, sm_80, as ptxas 13.5
// says of st.global.L2::cache_hint.b32 on sm_75); a part ptxas verified
// speaks for itself.
func TestOracleNotVerifiedPartKeepsNotes(t *testing.T) {
	_, real, _ := realDocs(t)
	instrs := slices.Clone(real)
	k := slices.IndexFunc(instrs, func(in Instruction) bool { return in.Name == "st" })
	if k < 0 {
		t.Fatal("no st entry")
	}
	instrs[k].Forms = slices.Clone(instrs[k].Forms)
	form := -1
	for i, f := range instrs[k].Forms {
		if strings.HasPrefix(f.Syntax, "st{.weak}{.ss}{.cop}{.level::cache_hint}{.vec}.b32 ") {
			form = i
		}
	}
	if form < 0 {
		t.Fatal("no st{.weak}{.ss}{.cop}{.level::cache_hint}{.vec}.b32 form")
	}
	low := []Option{{PTXVersion: "4.0", MinTarget: "sm_50"}}
	stmt := "st.global.L2::cache_hint.b32 [%rd1], %r1, %rd2;"
	for _, tc := range []struct {
		status, want string
	}{{"not-verified", "7.4 sm_80"}, {"verified", "4.0 sm_50"}} {
		ft := OracleFeature{Feature: ".L2::cache_hint", Variable: ".level::cache_hint", Status: tc.status}
		if tc.status == "verified" {
			ft.Options = low
		}
		instrs[k].Forms[form].Oracle = &FormOracle{Status: "verified", Statement: "st.b32 [a], b;", Options: low,
			Features: []OracleFeature{{Feature: ".global", Variable: ".ss", Status: "verified", Options: low}, ft}}
		r := NewChecker(instrs).Check(stmt)
		if got := r.PTXVersion + " " + r.MinTarget; !r.Valid || got != tc.want || r.Verified != "ptxas" {
			t.Errorf(".L2::cache_hint %s: valid=%v %s verified=%q (%s), want %s", tc.status, r.Valid, got, r.Verified, r.Reason, tc.want)
		}
		if tc.status == "not-verified" && !slices.Contains(r.RaisedBy, ".L2::cache_hint") {
			t.Errorf("raised by %v, want .L2::cache_hint", r.RaisedBy)
		}
	}
}
