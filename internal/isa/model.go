// Package isa is the one model every upstream reader's output is merged into
// and every consumer (database, web pages, JSON API, CLI) reads from.
//
// An instruction is identified by (architecture id, mnemonic). Every fact
// carries a Prov saying which source, file and line it came from, so a page
// can cite it and disagreements between sources can be shown (Conflict)
// instead of silently resolved.
//
// The JSON tags are the stable snake_case contract of `gpuisa show --json`
// and of /api/v1 (see DESIGN.md).
package isa

import (
	"strconv"
	"strings"
)

// Source ids name the upstream a fact was read from.
const (
	SourceAMDManual = "amd-manual" // AMD ISA reference guide (Markdown conversion of the PDF)
	SourceAMDXML    = "amd-xml"    // AMD machine-readable ISA specification (XML)
	SourceLLVMDoc   = "llvm-doc"   // LLVM AMDGPU assembler syntax pages
	SourceLLVMMC    = "llvm-mc"    // the LLVM assembler, run by gpuisa verify
	SourceLLVMTest  = "llvm-test"  // LLVM's MC test files (llvm/test/MC/AMDGPU)
	SourcePTXDoc    = "ptx-doc"    // NVIDIA PTX ISA documentation
	SourcePTXAS     = "ptxas"      // NVIDIA's PTX assembler (and nvdisasm), run by gpuisa build
	SourceLLVMMCA   = "llvm-mca"   // LLVM's scheduling model, run by gpuisa build
	SourceGPUISA    = "gpuisa"     // authored by this project (concept catalogue) or derived by it
)

// Vendors and kinds.
const (
	VendorAMD    = "AMD"
	VendorNVIDIA = "NVIDIA"

	KindNative  = "native"  // a GPU's machine ISA with binary encodings
	KindVirtual = "virtual" // a virtual ISA (PTX) compiled further by the driver
)

// Prov says where one fact came from.
type Prov struct {
	Source string `json:"source"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
}

// Architecture is one ISA family: an AMD generation or PTX.
type Architecture struct {
	ID      string   `json:"id"`              // "cdna4", "ptx"
	Name    string   `json:"name"`            // "CDNA 4"
	Vendor  string   `json:"vendor"`          // "AMD"
	Kind    string   `json:"kind"`            // "native" | "virtual"
	Order   int      `json:"order"`           // display order, newest first within a vendor
	Targets []string `json:"targets"`         // gfx targets LLVM knows for this family ("gfx950")
	Title   string   `json:"title,omitempty"` // the reference document's title
	// Documents are the upstream documents this family was built from.
	Documents []Document `json:"documents,omitempty"`
	// Formats are the microcode formats (encodings) of this family.
	Formats []Format `json:"formats,omitempty"`
	// Count is the number of instructions in the database for this family.
	Count int `json:"count"`
	// Processors are the family's targets as LLVM's processor table
	// (AMDGPUUsage) describes them, with the products built on them; for
	// PTX the sm_ targets with the PTX ISA version that introduced each.
	Processors []Processor `json:"processors,omitempty"`
	// Generic are LLVM's generic targets with a member in this family.
	Generic []GenericTarget `json:"generic,omitempty"`
	// Releases are, for PTX, the PTX ISA versions as NVIDIA's release notes
	// describe them, oldest first.
	Releases []PTXRelease `json:"releases,omitempty"`
}

// Processor is one target as people know it: gfx942 is "AMD Instinct
// MI300X" and "AMD Instinct MI300A"; sm_90 came with PTX ISA 7.8.
type Processor struct {
	Target string `json:"target"` // "gfx942", "sm_90a"
	// Alternatives are other names LLVM accepts for it ("tahiti").
	Alternatives []string `json:"alternatives,omitempty"`
	Kind         string   `json:"kind,omitempty"`       // "dGPU" | "APU"
	Generation   string   `json:"generation,omitempty"` // the table's heading: "GCN GFX11 (RDNA 3)"
	Products     []string `json:"products"`             // "AMD Instinct MI300X"
	Features     []string `json:"features,omitempty"`   // target features: "xnack", "sramecc"
	// PTXVersion is, for an sm_ target, the PTX ISA version that
	// introduced it.
	PTXVersion string `json:"ptx_version,omitempty"`
	Prov       Prov   `json:"prov"`
}

// GenericTarget is one of LLVM's generic targets: one code object for all
// its members, with what is not available on some of them.
type GenericTarget struct {
	Target  string   `json:"target"`  // "gfx11-generic"
	Members []string `json:"members"` // "gfx1100", ...
	// Restrictions are the table's sentences on what the generic target
	// excludes; Excluded the instructions it names, per member target
	// ("" when the table names no target).
	Restrictions []string            `json:"restrictions"`
	Excluded     map[string][]string `json:"excluded,omitempty"`
	Prov         Prov                `json:"prov"`
}

// PTXRelease is one PTX ISA version as NVIDIA's release notes describe it.
type PTXRelease struct {
	Version string   `json:"version"`        // "8.0"
	CUDA    string   `json:"cuda,omitempty"` // "CUDA 12.0, driver r525"
	Targets []string `json:"targets"`        // the sm_ targets it introduced
	// Notes are the release notes' items (Markdown, as NVIDIA wrote them).
	Notes []string `json:"notes"`
	Prov  Prov     `json:"prov"`
}

// Document describes one upstream document used in a build.
type Document struct {
	Source      string `json:"source"` // source id
	File        string `json:"file"`
	Title       string `json:"title,omitempty"`
	Version     string `json:"version,omitempty"` // schema / ISA version, release date...
	Attribution string `json:"attribution,omitempty"`
	License     string `json:"license,omitempty"`
}

// Format is a microcode format (encoding) with its bit layout.
type Format struct {
	Name        string   `json:"name"`  // "VOP2" (AMD guide spelling; XML ENC_ prefix dropped)
	Width       int      `json:"width"` // bits
	Description string   `json:"description,omitempty"`
	Fields      []Field  `json:"fields"`
	Notes       []string `json:"notes,omitempty"` // repairs applied to the upstream layout
	// IdentifierMask is the mask of the bits that identify an instruction in
	// this format ("0x…" hex), when known.
	IdentifierMask string `json:"identifier_mask,omitempty"`
	Prov           Prov   `json:"prov"`
	// Documented is the layout as the vendor's guide draws it, kept when
	// Fields differ from it (Fields are then the layout llvm-mc encodes;
	// package amdlayout says where and why).
	Documented *Layout `json:"documented,omitempty"`
}

// Layout is a bit layout as a document draws it, kept beside the verified
// one shown in its place.
type Layout struct {
	Fields []Field `json:"fields"`
	// Identifier is what this layout gives for the encoding's opcode
	// (in an Encoding; empty in a Format).
	Identifier string `json:"identifier,omitempty"`
	// Changes say how the layout shown differs from this one and why, one
	// sentence each.
	Changes []string `json:"changes"`
	Prov    Prov     `json:"prov"`
}

// Field is one named bit field of a format. MSB/LSB describe the first
// (most significant) range; Ranges lists every range for split fields.
type Field struct {
	Name        string     `json:"name"`
	MSB         int        `json:"msb"`
	LSB         int        `json:"lsb"`
	Ranges      []BitRange `json:"ranges,omitempty"`
	Fixed       string     `json:"fixed,omitempty"` // binary value a fixed field must hold
	Description string     `json:"description,omitempty"`
	// Parts are the documented sub-fields of an immediate (s_waitcnt's
	// SIMM16: vmcnt, expcnt, lgkmcnt), at instruction bit positions.
	Parts []Field `json:"parts,omitempty"`
}

// BitRange is an inclusive range of instruction bits.
type BitRange struct {
	MSB int `json:"msb"`
	LSB int `json:"lsb"`
}

// BitRanges are the field's bit ranges, most significant first: Ranges of
// a split field, else its one range MSB:LSB.
func (f Field) BitRanges() []BitRange {
	if len(f.Ranges) == 0 {
		return []BitRange{{MSB: f.MSB, LSB: f.LSB}}
	}
	return f.Ranges
}

// BitsText spells the field's bit ranges: "25:18", "7", "63:56, 31:30".
func (f Field) BitsText() string {
	var parts []string
	for _, r := range f.BitRanges() {
		if r.MSB == r.LSB {
			parts = append(parts, strconv.Itoa(r.MSB))
		} else {
			parts = append(parts, strconv.Itoa(r.MSB)+":"+strconv.Itoa(r.LSB))
		}
	}
	return strings.Join(parts, ", ")
}

// Width returns the number of bits in the field.
func (f Field) Width() int {
	if len(f.Ranges) == 0 {
		return f.MSB - f.LSB + 1
	}
	n := 0
	for _, r := range f.Ranges {
		n += r.MSB - r.LSB + 1
	}
	return n
}

// Put writes v into the field's bits of words (dword 0 holds bits 0-31);
// ranges are most significant first, so v's low bits land in the last one.
// Bits past the end of words are dropped.
func (f Field) Put(words []uint32, v uint64) {
	rs := f.BitRanges()
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		for b := r.LSB; b <= r.MSB; b++ {
			if b >= 0 && b/32 < len(words) {
				if v&1 == 1 {
					words[b/32] |= 1 << (uint(b) % 32)
				} else {
					words[b/32] &^= 1 << (uint(b) % 32)
				}
			}
			v >>= 1
		}
	}
}

// Get reads the field from words (dword 0 holds bits 0-31), its ranges
// concatenated most significant first; ranges past the end of words, or
// wider than 64 bits, are skipped. Put is its inverse.
func (f Field) Get(words []uint32) uint64 {
	rs := f.BitRanges()
	var v uint64
	for _, r := range rs {
		if r.MSB < r.LSB || r.LSB < 0 || r.MSB >= 32*len(words) || r.MSB-r.LSB >= 64 {
			continue
		}
		for b := r.MSB; b >= r.LSB; b-- {
			v = v<<1 | uint64(words[b/32]>>(uint(b)%32)&1)
		}
	}
	return v
}

// Instruction is one instruction of one architecture, or one PTX mnemonic.
type Instruction struct {
	Arch     string `json:"arch"`
	Name     string `json:"name"` // lower case as written in assembly: "v_max_f32", "max"
	Vendor   string `json:"vendor"`
	Kind     string `json:"kind"`
	Unit     string `json:"unit,omitempty"`    // "Vector", "Scalar", "Memory", "Matrix", ...
	Category string `json:"category"`          // "Vector Arithmetic", "Integer Arithmetic"
	Section  string `json:"section,omitempty"` // the document section: "VOP2 Instructions"
	Summary  string `json:"summary"`           // first sentence of the description
	Entry    string `json:"entry,omitempty"`   // PTX: "instruction" | "special-register" | "directive"

	Description string `json:"description,omitempty"`
	// DescriptionFrom is set when the family's own guide gives no
	// description (only pseudocode, or a fragment the PDF conversion cut)
	// and Description is the same instruction's text in the nearest family
	// whose guide gives one.
	DescriptionFrom *TextSource `json:"description_from,omitempty"`
	Semantics       string      `json:"semantics,omitempty"`
	// SemanticsElsewhere is set when the family's own guide gives no
	// pseudocode and the same instruction (same lineage, same name) has
	// some in the nearest family whose guide gives it: the page points
	// there rather than showing another guide's text as this one's.
	SemanticsElsewhere *TextSource `json:"semantics_elsewhere,omitempty"`
	Notes              string      `json:"notes,omitempty"`

	Aliases   []Alias    `json:"aliases"`
	Encodings []Encoding `json:"encodings"`
	Operands  []Operand  `json:"operands"`         // operands of the preferred encoding
	Flags     []string   `json:"flags,omitempty"`  // instruction flags from the XML (is_branch, ...)
	Groups    []string   `json:"groups,omitempty"` // functional groups from the XML
	// Opcodes maps arch id -> format -> opcode for this instruction (and its
	// documented renames) in every family, filled by the merge.
	Opcodes map[string]map[string]int `json:"opcodes"`
	// Related lists the same instruction in other families (same mnemonic or a
	// documented rename), in family order.
	Related []Related `json:"related,omitempty"`

	Syntax        []Syntax          `json:"syntax,omitempty"` // LLVM assembler syntax per GFX family
	Examples      []Example         `json:"examples"`         // verified or documented examples
	Targets       map[string]string `json:"targets"`          // gfx target -> "supported"|"unsupported"
	TargetDetails []TargetResult    `json:"target_details,omitempty"`
	// Cost is LLVM's scheduling model per gfx target (llvm-mca), for the
	// targets where an example of the instruction assembles: the compiler's
	// model, not a measurement.
	Cost     map[string]Cost `json:"cost,omitempty"`
	Concepts []ConceptRef    `json:"concepts"`

	// Measured are timings of the instruction on a real GPU (PTX: from a
	// results file of gpuisa ptx bench run on a lent GPU); empty otherwise.
	Measured []Measurement `json:"measured,omitempty"`

	// PTX only.
	Forms      []Form   `json:"forms,omitempty"`
	PTXVersion string   `json:"ptx_version,omitempty"`
	MinTarget  string   `json:"min_target,omitempty"`
	PTXNotes   []string `json:"ptx_notes,omitempty"` // version/target notes kept as text

	Conflicts []Conflict `json:"conflicts,omitempty"`
	// Repairs say where gpuisa reconstructed text the PDF conversion damaged
	// (a heading lost at a page break), so readers can weigh it.
	Repairs []string `json:"repairs,omitempty"`
	Sources []Prov   `json:"sources"`
}

// Alias is another name of the instruction.
type Alias struct {
	Name string `json:"name"`
	Note string `json:"note,omitempty"` // where the name comes from, in words
	Prov Prov   `json:"prov"`
	// LLVMName marks the name llvm-mc gives the instruction's encoding on
	// the family where it rejects AMD's name (it prints this one when it
	// disassembles the instruction).
	LLVMName bool `json:"llvm_name,omitempty"`
	// Targets are the gfx targets of the instruction's family on which
	// llvm-mc assembles the instruction's example written with this name
	// into the example's own bytes (the build's alias check); empty where
	// no target takes it or it was never checked. The encoder takes the
	// name on these targets only.
	Targets []string `json:"targets,omitempty"`
}

// Encoding is the instruction in one microcode format.
type Encoding struct {
	Name       string `json:"name"`   // "VOP2"; for VOP2-as-VOP3 facts "VOP3A"
	Format     string `json:"format"` // the format the bit layout comes from
	Width      int    `json:"width"`
	Opcode     int    `json:"opcode"`
	Identifier string `json:"identifier,omitempty"` // "0x16000000"
	// IdentifierCheck states how the identifier was checked against the
	// identifiers AMD lists (XML), in words.
	IdentifierCheck string    `json:"identifier_check,omitempty"`
	Fields          []Field   `json:"fields"`
	Operands        []Operand `json:"operands"`
	Prov            Prov      `json:"prov"`
	// Documented is the guide's layout and identifier where they differ
	// from Fields and Identifier, which are then the ones llvm-mc encodes.
	Documented *Layout `json:"documented,omitempty"`
	// Assembler is llvm-mc's verdict on Identifier, from the encoding of
	// a verified example; nil when none was compared.
	Assembler *AssemblerCheck `json:"assembler,omitempty"`
}

// AssemblerCheck is how llvm-mc encoded an example of the instruction,
// compared with the identifier the layout gives.
type AssemblerCheck struct {
	Agrees     bool   `json:"agrees"`
	Identifier string `json:"identifier"` // the identifying bits of llvm-mc's first dword, "0x…"
	Asm        string `json:"asm"`
	Target     string `json:"target"`
	Encoding   string `json:"encoding"` // llvm-mc's bytes
}

// Operand is one operand of an encoding, in AMD's order.
type Operand struct {
	Name        string `json:"name"` // field name: "vdst", "src0"
	Order       int    `json:"order"`
	Input       bool   `json:"input"`
	Output      bool   `json:"output"`
	Implicit    bool   `json:"implicit,omitempty"`
	DataFormat  string `json:"data_format,omitempty"`  // "FMT_NUM_F32"
	OperandType string `json:"operand_type,omitempty"` // "OPR_VGPR"
	Size        int    `json:"size,omitempty"`         // bits (in the family's default wave size)
	Description string `json:"description,omitempty"`  // PTX: the Description sentences naming it
	Prov        Prov   `json:"prov"`
	// Optional: the assembly may leave the operand out (an atomic's
	// returned value, LLVM's ":opt").
	Optional bool `json:"optional,omitempty"`
	// SizeWave32 and SizeWave64 are the sizes in bits under wave32 and
	// wave64 where they differ (lane masks, WMMA matrices).
	SizeWave32 int `json:"size_wave32,omitempty"`
	SizeWave64 int `json:"size_wave64,omitempty"`
	// TypeFrom says where DataFormat comes from (TypeFrom* values; empty
	// for AMD's XML); Note names the page or row.
	TypeFrom string `json:"type_from,omitempty"`
	// Note says how a fact of the operand was established where its first
	// source was wrong or silent.
	Note string `json:"note,omitempty"`
}

// Where an operand's data format comes from (Operand.TypeFrom).
const (
	TypeFromTag       = "LLVM type tag" // on the instruction's own syntax row
	TypeFromOtherPage = "LLVM type tag of the same instruction on an older family's page"
	TypeFromSuffix    = "type suffix of the mnemonic (LLVM's type rule)" // llvmdoc.SuffixTypes
)

// TextSource names the instruction another family's text was taken from.
type TextSource struct {
	Arch string `json:"arch"`
	Name string `json:"name"`
	Prov Prov   `json:"prov"`
	// Why says what this family's guide lacks: "pseudocode only", "a
	// fragment" (text the PDF conversion cut at a page break), or "no
	// description or pseudocode" (an opcode table lists it, no section
	// documents it).
	Why string `json:"why"`
}

// Related points to the same instruction in another family.
type Related struct {
	Arch    string `json:"arch"`
	Name    string `json:"name"`
	Same    bool   `json:"same"`              // same encodings and opcodes as this one
	Renamed bool   `json:"renamed,omitempty"` // the same instruction spelled differently there
	// Evidence says how the rename is known: a documented rename, or what
	// llvm-mc did with one spelling on the other family's targets.
	Evidence string `json:"evidence,omitempty"`
}

// Syntax is LLVM's documented assembler syntax for one GFX family.
type Syntax struct {
	GFX       string   `json:"gfx"`      // LLVM page: "GFX11"
	Text      string   `json:"text"`     // "v_max_f32 vdst, src0, src1"
	Operands  []string `json:"operands"` // "vdst:v32", ...
	Modifiers []string `json:"modifiers,omitempty"`
	Prov      Prov     `json:"prov"`
}

// Example is a real instruction with where it comes from.
type Example struct {
	Asm      string `json:"asm"`
	Source   string `json:"source"`             // provenance in words
	Encoding string `json:"encoding,omitempty"` // bytes as llvm-mc prints them
	Target   string `json:"target,omitempty"`   // the target Encoding was produced for
	// Checks are ptxas's verdicts on the statements of a PTX example, in
	// their documented context.
	Checks []PTXCheck `json:"checks,omitempty"`
	Prov   Prov       `json:"prov"`
}

// TargetResult is the assembler's verdict for one gfx target.
type TargetResult struct {
	Target   string `json:"target"`
	Status   string `json:"status"` // "supported" | "unsupported"
	Encoding string `json:"encoding,omitempty"`
	Printed  string `json:"printed,omitempty"` // what llvm-mc printed back
	Message  string `json:"message,omitempty"` // the assembler's error
	// OtherSpelling is, on a target that rejects this name, the name of
	// the same instruction that assembles there (a rename across
	// generations, or LLVM's name for the opcode); Encoding and Printed are
	// then that spelling's.
	OtherSpelling string `json:"other_spelling,omitempty"`
}

// Measurement is one statement timed on one GPU: cycles per instruction of
// one warp in a dependent chain (latency) and over independent chains
// (throughput), with where and when.
type Measurement struct {
	Statement        string  `json:"statement"`
	GPU              string  `json:"gpu"`    // "NVIDIA H200"
	Target           string  `json:"target"` // "sm_90"
	Driver           string  `json:"driver,omitempty"`
	CUDA             string  `json:"cuda,omitempty"`
	Date             string  `json:"date,omitempty"`
	LatencyCycles    float64 `json:"latency_cycles"`
	ThroughputCycles float64 `json:"throughput_cycles"`
}

// Cost is LLVM's scheduling model of an instruction on one target, as
// llvm-mca -instruction-tables=full reports it for Asm.
type Cost struct {
	Asm         string         `json:"asm"` // the line modelled
	UOps        int            `json:"uops"`
	Latency     int            `json:"latency"`     // cycles
	RThroughput float64        `json:"rthroughput"` // reciprocal throughput, cycles
	MayLoad     bool           `json:"may_load,omitempty"`
	MayStore    bool           `json:"may_store,omitempty"`
	SideEffects bool           `json:"side_effects,omitempty"`
	Unit        string         `json:"unit"`                // the execution unit: HWVALU, HWXDL, HWVMEM, ...
	Resources   []CostResource `json:"resources,omitempty"` // every resource with its cycles
	Opcode      string         `json:"opcode,omitempty"`    // LLVM's internal opcode name
	// Formats are the same instruction modelled with its other operand
	// formats, where modifiers choose them (an F8F6F4 instruction's FP6
	// and FP4, F8F6F4Line): each its own line and LLVM opcode.
	Formats []Cost `json:"formats,omitempty"`
}

// CostResource is one hardware resource for Cycles cycles (0: one).
type CostResource struct {
	Name   string `json:"name"`
	Cycles int    `json:"cycles,omitempty"`
}

// ConceptRef links an instruction to a cross-vendor concept.
type ConceptRef struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Relation     string   `json:"relation"`
	Restrictions []string `json:"restrictions,omitempty"`
	Sequence     string   `json:"sequence,omitempty"`
	// Variants are the PTX modifiers or types the relation serves (a
	// shuffle's .idx or .up), empty when it serves them all; Forms are AMD
	// lines showing the counterpart in that use (the catalogue's, each
	// assembled by the build; port shows those a target takes).
	Variants []string `json:"variants,omitempty"`
	Forms    []string `json:"forms,omitempty"`
	Members  []Member `json:"members"` // the other ISA's instructions
}

// Member is an instruction named by a concept.
type Member struct {
	Arch string `json:"arch"`
	Name string `json:"name"`
}

// Form is one valid PTX syntax form.
type Form struct {
	Syntax      string   `json:"syntax"`
	Types       []string `json:"types"`
	Modifiers   []string `json:"modifiers"`
	StateSpaces []string `json:"state_spaces"`
	// MinTarget and PTXVersion are the form's requirements: ptxas's when
	// it verified the form (Check), else what the documentation states;
	// DocMinTarget/DocPTXVersion keep the documentation's where it differs.
	// A form ptxas rejects on every target has no requirement to meet:
	// both are empty, the documentation's kept in the Doc fields.
	MinTarget     string `json:"min_target"`
	PTXVersion    string `json:"ptx_version"`
	DocMinTarget  string `json:"doc_min_target,omitempty"`
	DocPTXVersion string `json:"doc_ptx_version,omitempty"`
	Description   string `json:"description,omitempty"`
	// Status is ptxas's verdict on the form (Check.Status) where it
	// judged one, so that a reader of the form's requirements sees at
	// once that a rejected form has none: "verified" | "rejected" |
	// "not-verified"; empty when ptxas was not run.
	Status string `json:"status,omitempty"`
	// Targets is ptxas's verdict per sm_ target ("supported" |
	// "unsupported") on the form's statement; empty when not verified.
	Targets map[string]string `json:"targets,omitempty"`
	// Check is what ptxas said about the form's statement, and
	// ModifierChecks what it said about the statement with each optional
	// modifier, other variable choice or optional operand.
	Check          *PTXCheck       `json:"check,omitempty"`
	ModifierChecks []ModifierCheck `json:"modifier_checks,omitempty"`
	Prov           Prov            `json:"prov"`
}

// PTX check statuses.
const (
	PTXVerified    = "verified"     // ptxas accepts the statement on some target
	PTXRejected    = "rejected"     // ptxas rejects it on every target
	PTXNotVerified = "not-verified" // ptxas could not be run on it (absent, or no operand typing it accepts)
)

// PTXCheck is ptxas's verdict on one statement.
type PTXCheck struct {
	Statement string `json:"statement"`
	Status    string `json:"status"`
	// PTXVersion and MinTarget are the lowest PTX ISA version and target
	// ptxas accepts the statement with; Floor says the version is the
	// lowest the target allows at all (ptxas cannot test older ones).
	PTXVersion string `json:"ptx_version,omitempty"`
	MinTarget  string `json:"min_target,omitempty"`
	Floor      bool   `json:"floor,omitempty"`
	// Options are the (PTX version, target) pairs none beats on both,
	// when newer targets accept the statement with an older PTX version.
	Options []PTXOption `json:"options,omitempty"`
	Message string      `json:"message,omitempty"` // ptxas's reason when rejected or not verified
	Tool    string      `json:"tool,omitempty"`    // "ptxas 13.5.37"
	// Searched says ptxas accepted the statement only with operand types
	// or vector lengths other than the harness's first guess.
	Searched bool   `json:"searched,omitempty"`
	SASS     []SASS `json:"sass,omitempty"`
}

// PTXOption is one (PTX ISA version, target) pair.
type PTXOption struct {
	PTXVersion string `json:"ptx_version"`
	MinTarget  string `json:"min_target"`
}

// ModifierCheck is ptxas's verdict on a form's statement with one
// modifier added (".NaN"), a variable at another choice (".rz") or an
// optional operand.
type ModifierCheck struct {
	Modifier string   `json:"modifier"`
	Variable string   `json:"variable,omitempty"` // the template variable it is a choice of
	Check    PTXCheck `json:"check"`
	// Raises is set when the modifier needs more than the form's
	// statement: a later PTX ISA version or a newer target.
	Raises bool `json:"raises,omitempty"`
}

// SASS is the machine code ptxas generates for a statement on one target,
// without the harness's own loads and stores.
type SASS struct {
	Target string     `json:"target"`
	Lines  []SASSLine `json:"lines"`
}

// SASSLine is one SASS instruction as nvdisasm prints it.
type SASSLine struct {
	Text     string `json:"text"`
	Encoding string `json:"encoding,omitempty"`
	Control  string `json:"control,omitempty"`
}

// Conflict records two or more sources that disagree on one fact.
type Conflict struct {
	Fact   string          `json:"fact"` // "opcode of VOP2", "width of VOP3P"
	Values []ConflictValue `json:"values"`
	Note   string          `json:"note,omitempty"`
	// CorrectedBy names the source whose value is shown as the fact (an
	// oracle, "llvm-mc"); the others are documented variants. Empty when
	// the disagreement is not resolved.
	CorrectedBy string `json:"corrected_by,omitempty"`
}

// ConflictValue is one source's value for a disputed fact.
type ConflictValue struct {
	Value string `json:"value"`
	Prov  Prov   `json:"prov"`
}

// Summary is the short form of an instruction used in lists and search.
type Summary struct {
	Arch     string   `json:"arch"`
	Name     string   `json:"name"`
	Category string   `json:"category"`
	Section  string   `json:"section,omitempty"`
	Summary  string   `json:"summary"`
	Formats  []string `json:"formats,omitempty"`
}

// SearchHit is one ranked search result.
type SearchHit struct {
	Summary
	Score float64  `json:"score"`
	Why   string   `json:"why,omitempty"`   // "name", "name prefix", "typo", "description"
	Archs []string `json:"archs,omitempty"` // every family with this name (searches over all families)
}

// BuildInfo describes one database build.
type BuildInfo struct {
	ID        string         `json:"id"`      // content hash of the build, used for ETags
	Built     string         `json:"built"`   // RFC 3339, UTC
	Version   string         `json:"version"` // gpuisa version
	Documents []Document     `json:"documents"`
	Counts    map[string]int `json:"counts"` // arch -> instructions
	// Provisional says what a database built for a first serve's answers
	// has not verified yet ("" for a build that ran every oracle it was
	// asked to): that serve runs the oracle passes in the background and
	// swaps to each database they write.
	Provisional string `json:"provisional,omitempty"`
}
