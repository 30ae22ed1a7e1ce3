package listing

import (
	"fmt"
	"strings"
)

// maxGuessLines bounds the lines a guess reads per family.
const maxGuessLines = 200

// Guess chooses a family for an input that does not name its target, by
// trying each of archs: where lines carry both machine code and text (a
// listing from llvm-objdump, llvm-mc, RGA), the family whose decoder reads
// the most lines as their text; where lines carry only text, the family
// whose encoder assembles the most. It returns "" when nothing matches or
// the input has only machine code, which every family decodes as
// something.
func Guess(in *Input, archs []string, get func(arch string) (Codec, error)) (arch, why string) {
	return guess(in, archs, get, "pass --arch")
}

// guess is Guess, telling the reader to ask (how they name the family)
// when families tie.
func guess(in *Input, archs []string, get func(arch string) (Codec, error), ask string) (arch, why string) {
	var both, text []Line
	for _, u := range in.Units {
		for _, l := range u.Lines {
			switch {
			case l.Text != "" && len(l.Bytes) > 0 && len(both) < maxGuessLines:
				both = append(both, l)
			case l.Text != "" && len(l.Bytes) == 0 && !isBranch(l.Text) && len(text) < maxGuessLines:
				text = append(text, l)
			}
		}
	}
	if len(both) == 0 && len(text) == 0 {
		return "", ""
	}
	best, bestN, total := "", 0, 0
	var ties []string
	for _, a := range archs {
		fam, err := get(a)
		if err != nil {
			continue
		}
		n := 0
		if len(both) > 0 {
			total = len(both)
			for _, l := range both {
				if t, _, err := fam.Dec.AppendText(nil, l.Bytes, 0); err == nil && (normText(string(t)) == normText(l.Text) || sameBranchText(string(t), l.Text)) {
					n++
				}
			}
		} else {
			total = len(text)
			for _, l := range text {
				if fam.Enc != nil {
					if _, err := fam.Enc.Encode(l.Text); err == nil {
						n++
					}
				}
			}
		}
		switch {
		case n > bestN:
			best, bestN, ties = a, n, nil
		case n == bestN && n > 0:
			ties = append(ties, a)
		}
	}
	if best == "" {
		return "", ""
	}
	how := "decode as their text"
	if len(both) == 0 {
		how = "assemble"
	}
	why = fmt.Sprintf("a guess: %d of %d lines %s on %s", bestN, total, how, best)
	if len(ties) > 0 {
		why += " (and on " + strings.Join(ties, ", ") + "; " + ask + " to choose)"
	}
	return best, why
}

func sameBranchText(decoded, given string) bool {
	if !isBranch(decoded) {
		return false
	}
	a, _, _ := strings.Cut(decoded, " ")
	b, _, _ := strings.Cut(given, " ")
	return a == b
}
