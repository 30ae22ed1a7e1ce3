package amdxml

import "testing"

func TestExprString(t *testing.T) {
	id := func(v string) *Expr { return &Expr{Name: "id", Attrs: []Attr{{"val", v}}} }
	op := func(typ string, args ...*Expr) *Expr {
		return &Expr{Name: "op", Attrs: []Attr{{"type", typ}}, Children: args}
	}
	ty := &Expr{Name: "ty", Children: []*Expr{{Name: "t", Attrs: []Attr{{"base", "U"}, {"size", "1"}}}}}
	for _, tc := range []struct {
		x    *Expr
		want string
	}{
		{id("A"), "A"},
		{op("+", id("A"), id("B"), ty), "A + B"},
		{op("||", op("<", id("A"), id("B")), op("!", id("C"))), "(A < B) || !C"},
		{op(".fieldderef", op(".fieldderef", id("X"), id("Y")), id("Z")), "X.Y.Z"},
		{op(".cast", id("A"), id("B")), ".cast(A, B)"},
		{op("?:", id("C"), id("A"), id("B")), "?:(C, A, B)"},
		{&Expr{Name: "Expression", Attrs: []Attr{{"Type", "literal"}}, Children: []*Expr{{Name: "Value", Text: "255"}}}, "Expression[Type=literal](Value{255})"},
		{ty, "ty(t[base=U size=1])"},
	} {
		if got := tc.x.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}
