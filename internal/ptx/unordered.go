package ptx

import "strings"

// ptxas reads an instruction's modifiers as a set: "max.f32.NaN",
// "ld.u32.global" and "mma.aligned.sync..." assemble like the documented
// orders, while the data types keep their order (cvt.f32.s32 is not
// cvt.s32.f32). The checker matches that way too when the documented
// order does not match: every token but the first is consumed by one slot
// of the form, data-type slots in order.

// slot is one part of a form's pattern: a required or optional choice of
// token sequences.
type slot struct {
	required bool
	choices  [][]string
	types    bool // every choice is one data type: matched in order
}

// maxSlotChoices bounds the token sequences one optional group expands to.
const maxSlotChoices = 128

// slotsOf flattens a pattern into slots; the first node (the mnemonic's
// first token) is left out, it always comes first.
func slotsOf(nodes []node) []slot {
	var out []slot
	for i, n := range nodes {
		if n.opt {
			var choices [][]string
			for _, a := range n.alts {
				choices = append(choices, expandAlt(a, maxSlotChoices-len(choices))...)
			}
			out = append(out, slot{choices: choices, types: allTypes(choices)})
			continue
		}
		if i == 0 && len(n.choices) == 1 && len(n.choices[0]) == 1 {
			continue
		}
		choices := n.choices
		if i == 0 && len(n.choices) > 0 {
			// A first node naming more than the first token ("vop2" =
			// vadd2, ...): the rest of each choice is a slot of its own.
			var rest [][]string
			for _, c := range n.choices {
				if len(c) > 1 {
					rest = append(rest, c[1:])
				}
			}
			if len(rest) == 0 {
				continue
			}
			choices = rest
		}
		out = append(out, slot{required: true, choices: choices, types: allTypes(choices)})
	}
	return out
}

// expandAlt lists the token sequences one alternative of an optional group
// can write, at most limit of them.
func expandAlt(alt []node, limit int) [][]string {
	acc := [][]string{nil}
	for _, n := range alt {
		var opts [][]string
		if n.opt {
			opts = append(opts, nil)
			for _, a := range n.alts {
				opts = append(opts, expandAlt(a, limit)...)
			}
		} else {
			opts = n.choices
		}
		var next [][]string
		for _, a := range acc {
			for _, o := range opts {
				if len(next) >= limit {
					break
				}
				next = append(next, append(append([]string(nil), a...), o...))
			}
		}
		acc = next
	}
	return acc
}

// matchSlots reports whether tokens (the whole instruction, first token
// included) fill the slots with the modifiers in any order and the data
// types in order.
func matchSlots(first string, slots []slot, tokens []string) bool {
	if len(tokens) == 0 || tokens[0] != first && !strings.HasPrefix(tokens[0], first+"::") {
		return false
	}
	var types []string
	left := map[string]int{}
	n := 0
	for _, t := range tokens[1:] {
		if isType(t) {
			types = append(types, t)
		} else if left[t] > 0 {
			continue // ptxas reads a repeated modifier once (".sat ... .sat")
		}
		left[t]++
		n++
	}
	return fillSlots(slots, 0, types, 0, left, n)
}

func fillSlots(slots []slot, k int, types []string, ti int, left map[string]int, remaining int) bool {
	if k == len(slots) {
		return remaining == 0 && ti == len(types)
	}
	s := slots[k]
	for _, c := range s.choices {
		if s.types {
			// One data type, the next in the instruction's order.
			if len(c) != 1 || ti >= len(types) || types[ti] != c[0] || left[c[0]] == 0 {
				continue
			}
			left[c[0]]--
			ok := fillSlots(slots, k+1, types, ti+1, left, remaining-1)
			left[c[0]]++
			if ok {
				return true
			}
			continue
		}
		if !takeAll(left, c) {
			continue
		}
		// Data types inside a modifier choice still count in order.
		nt := 0
		for _, t := range c {
			if isType(t) {
				nt++
			}
		}
		ok := nt == 0 || ti+nt <= len(types) && sameTypes(types[ti:ti+nt], c)
		ok = ok && fillSlots(slots, k+1, types, ti+nt, left, remaining-len(c))
		giveBack(left, c)
		if ok {
			return true
		}
	}
	if !s.required {
		return fillSlots(slots, k+1, types, ti, left, remaining)
	}
	return false
}

func sameTypes(want []string, choice []string) bool {
	i := 0
	for _, t := range choice {
		if isType(t) {
			if want[i] != t {
				return false
			}
			i++
		}
	}
	return true
}

func takeAll(left map[string]int, c []string) bool {
	for i, t := range c {
		if left[t] == 0 {
			for _, u := range c[:i] {
				left[u]++
			}
			return false
		}
		left[t]--
	}
	return true
}

func giveBack(left map[string]int, c []string) {
	for _, t := range c {
		left[t]++
	}
}
