package amdxml

import "strings"

// Attr returns the value of the node's attribute called name, or "".
func (x *Expr) Attr(name string) string {
	for _, a := range x.Attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

// String renders the tree as a compact expression for people to read:
// identifiers and literals as their val, ".fieldderef" as a dot, other
// symbolic operators infix ("a != b", "(a) && (b)") and named operators as
// calls (".cast(a)"). Type annotations (<ty>) are left out. Elements other
// than op, id and lit render as name[attrs]{text}(children), so a tree in
// an unfamiliar shape still shows everything it holds.
func (x *Expr) String() string {
	var b strings.Builder
	x.render(&b, false)
	return b.String()
}

func (x *Expr) render(b *strings.Builder, nested bool) {
	switch x.Name {
	case "id", "lit":
		b.WriteString(x.Attr("val"))
		return
	case "op":
	default:
		b.WriteString(x.Name)
		for i, a := range x.Attrs {
			if i == 0 {
				b.WriteByte('[')
			} else {
				b.WriteByte(' ')
			}
			b.WriteString(a.Name + "=" + a.Value)
			if i == len(x.Attrs)-1 {
				b.WriteByte(']')
			}
		}
		if x.Text != "" {
			b.WriteString("{" + x.Text + "}")
		}
		for i, c := range x.Children {
			if i == 0 {
				b.WriteByte('(')
			} else {
				b.WriteString(", ")
			}
			c.render(b, false)
			if i == len(x.Children)-1 {
				b.WriteByte(')')
			}
		}
		return
	}
	op := x.Attr("type")
	var args []*Expr
	for _, c := range x.Children {
		if c.Name != "ty" {
			args = append(args, c)
		}
	}
	symbolic := op != "" && op[0] != '.' && op[0] != ':'
	switch {
	case op == ".fieldderef" && len(args) == 2:
		args[0].render(b, true)
		b.WriteByte('.')
		args[1].render(b, true)
	case symbolic && len(args) == 2:
		if nested {
			b.WriteByte('(')
		}
		args[0].render(b, true)
		b.WriteString(" " + op + " ")
		args[1].render(b, true)
		if nested {
			b.WriteByte(')')
		}
	case symbolic && len(args) == 1:
		b.WriteString(op)
		args[0].render(b, true)
	default:
		b.WriteString(op + "(")
		for i, a := range args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.render(b, false)
		}
		b.WriteByte(')')
	}
}
