package amdmanual

import (
	"fmt"
	"testing"
)

func TestZZRecovered(t *testing.T) {
	gs := loadGuides(t)
	for _, fam := range families {
		g := gs[fam]
		n := 0
		for _, e := range g.Instructions {
			if e.Repair != "" {
				n++
				d := e.Description
				if len(d) > 70 {
					d = d[:70]
				}
				pc := e.Pseudocode
				if len(pc) > 50 {
					pc = pc[:50]
				}
				fmt.Printf("REC %s %s %s %d line %d | %q | %q\n", fam, e.Name, e.Encoding, e.Opcode, e.Line, d, pc)
			}
		}
		fmt.Printf("SUM %s recovered %d\n", fam, n)
		for _, pr := range g.Problems {
			fmt.Printf("PROB %s %s\n", fam, pr)
		}
	}
}
