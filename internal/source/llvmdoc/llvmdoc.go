// Package llvmdoc reads LLVM's AMDGPU assembler syntax pages (the HTML pages
// AMDGPUAsmGFX*.html that the llvm-NN-doc package installs, with the operand
// description pages beside them) and turns them into per-instruction syntax:
// operands in assembly order with their kinds, type overrides and optional
// flags, and the modifiers each instruction accepts. It also builds
// representative instructions from that syntax (BuildExample) and maps the
// pages to gpuisa's architecture ids and gfx targets.
package llvmdoc

import "strings"

// Page is one syntax page, e.g. AMDGPUAsmGFX11.html.
type Page struct {
	GFX          string // family as spelled in the file name: "GFX11", "GFX90a"
	File         string // path of the page that was read
	Instructions []Syntax
}

// Syntax is one row of a syntax table: one assembly form of an instruction.
// A mnemonic may have several rows on one page (a DPP16 and a DPP8 form of
// v_max_f32_dpp, say).
type Syntax struct {
	Mnemonic string // lower case, as written in assembly
	Family   string // the page's family: "GFX11"
	Section  string // the table's heading, usually the encoding: "VOP2", "FLAT GLOBAL"
	// Table counts the tables under one heading from 0: GFX11 lists the
	// VOPD X opcodes in table 0 and the Y opcodes in table 1.
	Table     int
	Operands  []Operand // in assembly order
	Modifiers []string  // modifier names as shown: "offset12", "glc", "clamp"
	// ModifierIDs parallels Modifiers with the anchor of each modifier's
	// description on AMDGPUModifierSyntax.html ("flat-offset12"); the anchor
	// is more precise than the name (offset means different ranges).
	ModifierIDs []string
	Line        int // line of the row in the HTML file
}

// Operand is one operand of a Syntax row, e.g. "vsrc1:b16" or "vdst:opt".
type Operand struct {
	Name     string   // as written: "src0", "vdst"
	Kind     string   // the operand class the name links to: "src", "vdst", "simm32"
	Type     string   // type override after a colon ("b16", "f16x2"), or ""
	Optional bool     // the ":opt" tag
	Mods     []string // other tags: "m" (abs/neg allowed), "fx" (f16 or f32)
	Column   string   // table column: "DST", "DST0", "SRC1", ...
	Link     string   // description page and anchor: "gfx11_src_25d8ac.html#amdgpu-synid-gfx11-src-25d8ac"
	Doc      *OperandDoc
}

// OperandDoc is what an operand description page says.
type OperandDoc struct {
	Title   string   // page heading: "vdst"
	Text    string   // the description, one paragraph or list item a line
	Size    string   // "1 dword", "2 dwords", "1-12 dwords", or ""
	Accepts []string // the "Operands:" list: "v", "s", "vcc", "ttmp", "constant", ...
}

// Dwords returns the operand size in 32-bit registers: from the type
// override when there is one (b64 -> 2), else the low bound of the page's
// Size line; 0 when neither says.
func (o Operand) Dwords() int {
	if n := typeDwords(o.Type); n > 0 {
		return n
	}
	if o.Doc == nil {
		return 0
	}
	if strings.Contains(o.Doc.Size, "bits") { // "16 bits": half of one register
		return 1
	}
	return leadingInt(o.Doc.Size)
}

// IsDest reports whether the operand sits in a destination column.
func (o Operand) IsDest() bool { return len(o.Column) >= 3 && o.Column[:3] == "DST" }
