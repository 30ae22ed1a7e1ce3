package amdmanual

import "fmt"

// undocumented lists, per guide, the instructions AMD's own opcode tables
// list but the guide never gives a section (checked by hand in the 2026
// copies: no heading, no table row, no text beyond the opcode table). They
// are the guide as AMD published it, not a gap in the copy.
var undocumented = map[string]map[string]bool{
	"cdna1": set("V_ACCVGPR_WRFED"), // VOP3P opcode 92
	"cdna5": set("S_MUL_HI_U32", "S_SLEEP", "S_SET_VGPR_MSB", "S_WAIT_ALU", "V_MIN3_U16", "V_S_LOG_F16",
		"V_MINIMUM_F16", "V_WMMA_F32_16X16X128_F8F6F4", "DS_CONSUME", "BUFFER_LOAD_B128"),
	"rdna3": set("V_ALIGNBYTE_B32", "V_PK_LSHLREV_B16"),
	"rdna4": set("S_WAIT_ALU"),
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// findGaps holds the guide's instruction sections to its own opcode
// tables: every instruction a microcode format's opcode table lists has a
// section (a heading, a table row, or text recovered from a lost heading)
// somewhere in the instruction chapter, unless AMD's guide never had one.
// A guide cut short, or with a section or a whole subsection removed,
// loses the sections but keeps the opcode tables (or, when the cut reaches
// them, the table of contents says so). Unclosed pseudocode blocks are
// recorded by finishEntry.
func (p *parser) findGaps() {
	g := p.guide
	documented := map[string]bool{}
	for _, e := range g.Instructions {
		if !e.FromOpcodeTable {
			documented[e.Name] = true
		}
	}
	if len(documented) == 0 {
		return // no instruction chapter: the table of contents check names what is missing
	}
	reported := map[string]bool{}
	for _, e := range g.Instructions {
		if !e.FromOpcodeTable || documented[e.Name] || reported[e.Name] || undocumented[g.Family][e.Name] {
			continue
		}
		reported[e.Name] = true
		p.gap(e.Line, e.Name, fmt.Sprintf("the %s opcode table lists %s (opcode %d), which has no section in the instruction chapter: its description and pseudocode are missing", e.Encoding, e.Name, e.Opcode))
	}
}
