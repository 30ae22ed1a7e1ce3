package amdmanual

import "fmt"

// undocumented lists, per guide, the instructions AMD's own opcode table
// of an encoding lists but the guide gives no section in that encoding
// ("ENCODING NAME"; checked in the 2026 copies: most have no heading or
// table row at all, the rest are documented only in their VOP1/VOP2/VOPC
// form). They are the guide as AMD published it, not a gap in the copy.
var undocumented = map[string]map[string]bool{
	"cdna1": set("VOP3P V_ACCVGPR_WRFED"),
	"cdna5": set("SOP2 S_MUL_HI_U32", "SOPP S_SET_VGPR_MSB", "SOPP S_SLEEP", "SOPP S_WAIT_ALU",
		"VBUFFER BUFFER_LOAD_B128", "VDS DS_CONSUME", "VOP3 V_CMP_LT_F16", "VOP3 V_MIN3_U16",
		"VOP3 V_MINIMUM_F16", "VOP3 V_S_LOG_F16", "VOP3P V_WMMA_F32_16X16X128_F8F6F4"),
	"rdna3": set("VOP3 V_ADD_NC_U32", "VOP3 V_ALIGNBYTE_B32", "VOP3 V_CMPX_GT_F16", "VOP3 V_CMPX_LE_F64",
		"VOP3 V_CMPX_T_F32", "VOP3 V_CMPX_U_F16", "VOP3 V_CMP_GT_U32", "VOP3 V_CMP_NLT_F64",
		"VOP3 V_CVT_F64_I32", "VOP3 V_TRUNC_F64", "VOP3P V_PK_LSHLREV_B16"),
	"rdna4": set("SOPP S_WAIT_ALU", "VOPC V_CMP_LT_F64"),
}

// untabled lists the sections whose encoding's opcode table does not list
// them, in AMD's published guides ("ENCODING NAME").
var untabled = map[string]map[string]bool{
	"cdna1": set("GLOBAL GLOBAL_ATOMIC_DEC_X2", "SOPP S_NOP"),
	"cdna2": set("SOPK S_CALL_B64"),
}

// noOpcodeTable lists the encodings whose instructions AMD's guides
// document without an opcode table in the microcode chapter.
var noOpcodeTable = map[string]map[string]bool{
	"cdna1": set("VINTRP"), "cdna5": set("VOP3PX2"), "rdna1": set("VINTRP"), "rdna2": set("VINTRP"),
	"rdna3": set("LDSDIR"), "rdna3.5": set("LDSDIR"), "rdna4": set("VDSDIR"), "vega": set("VINTRP"),
	"vega7": set("VINTRP"),
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// findGaps holds the guide's instruction sections to its own opcode
// tables, encoding by encoding: every instruction a microcode format's
// opcode table lists has a section (a heading, a table row, or text
// recovered from a lost heading) of that encoding in the instruction
// chapter, and every section of an encoding with an opcode table is in
// it, unless AMD's guide is so (undocumented, untabled). A guide cut
// short, or with a section or a whole subsection removed, loses sections
// but keeps the opcode tables, or (guides whose opcode tables come last)
// loses opcode-table rows but keeps the sections; when the cut reaches a
// chapter, the table of contents says so. Unclosed pseudocode blocks are
// recorded by finishEntry.
func (p *parser) findGaps() {
	g := p.guide
	inTable, inSection, tabled := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, e := range g.Instructions {
		if e.FromOpcodeTable {
			inTable[e.Encoding+" "+e.Name] = true
			tabled[e.Encoding] = true
		} else {
			inSection[e.Encoding+" "+e.Name] = true
		}
	}
	if len(inSection) == 0 {
		return // no instruction chapter: the table of contents check names what is missing
	}
	reported := map[string]bool{}
	for _, e := range g.Instructions {
		if e.FromOpcodeTable || tabled[e.Encoding] || reported[e.Encoding] || noOpcodeTable[g.Family][e.Encoding] || e.Encoding == "" {
			continue
		}
		reported[e.Encoding] = true
		line, where := e.Line, "the microcode chapter"
		if f := g.FormatByName(e.Encoding); f != nil {
			line, where = f.Line, fmt.Sprintf("its microcode format (documented from line %d)", f.Line)
		}
		p.gap(line, e.Name, fmt.Sprintf("%s instructions such as %s (line %d) have sections, but %s has no %s opcode table: the table is missing (cut short?)", e.Encoding, e.Name, e.Line, where, e.Encoding))
	}
	for _, e := range g.Instructions {
		key := e.Encoding + " " + e.Name
		if reported[key] {
			continue
		}
		switch {
		case e.FromOpcodeTable && !inSection[key] && !undocumented[g.Family][key]:
			p.gap(e.Line, e.Name, fmt.Sprintf("the %s opcode table lists %s (opcode %d), which has no %s section in the instruction chapter: its description and pseudocode are missing", e.Encoding, e.Name, e.Opcode, e.Encoding))
		case !e.FromOpcodeTable && tabled[e.Encoding] && !inTable[key] && !untabled[g.Family][key]:
			p.gap(e.Line, e.Name, fmt.Sprintf("%s (%s opcode %d) has a section, but the %s opcode table does not list it (the table is cut short?)", e.Name, e.Encoding, e.Opcode, e.Encoding))
		default:
			continue
		}
		reported[key] = true
	}
}
