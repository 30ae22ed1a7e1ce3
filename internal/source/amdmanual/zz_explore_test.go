package amdmanual

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func TestZZExplore(t *testing.T) {
	gs := loadGuides(t)
	dir := sourcesDir(t)
	for _, fam := range []string{"cdna3", "cdna4", "cdna5", "rdna3", "rdna3.5", "rdna4", "cdna1"} {
		g := gs[fam]
		data, _ := os.ReadFile(filepath.Join(dir, "amd-isa-manuals", fam, "README.md"))
		lines := strings.Split(string(data), "\n")
		inSec := map[string]bool{}
		for _, e := range g.Instructions {
			if !e.FromOpcodeTable {
				inSec[e.Name] = true
			}
		}
		for _, e := range g.Instructions {
			if !e.FromOpcodeTable || inSec[e.Name] {
				continue
			}
			// previous section entry in same encoding with largest opcode < e.Opcode
			var prev *Entry
			var secs []Entry
			for i, s := range g.Instructions {
				if !s.FromOpcodeTable && s.Encoding == e.Encoding {
					secs = append(secs, s)
					if s.Opcode < e.Opcode && (prev == nil || s.Opcode > prev.Opcode) {
						prev = &g.Instructions[i]
					}
				}
			}
			sort.Slice(secs, func(i, j int) bool { return secs[i].Line < secs[j].Line })
			fmt.Printf("==== %s %s %s %d", fam, e.Name, e.Encoding, e.Opcode)
			if prev == nil {
				fmt.Printf(" (no prev)\n")
				continue
			}
			end := len(lines)
			for _, s := range secs {
				if s.Line > prev.Line {
					end = s.Line
					break
				}
			}
			fmt.Printf(" prev %s %d line %d..%d\n", prev.Name, prev.Opcode, prev.Line, end)
			if os.Getenv("SHOW") != "" {
				for k := prev.Line - 1; k < end-1 && k < prev.Line+80; k++ {
					fmt.Printf("  %d| %s\n", k+1, lines[k])
				}
			}
		}
	}
}
