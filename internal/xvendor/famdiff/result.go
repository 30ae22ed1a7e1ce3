package famdiff

import "github.com/gpuisa/gpuisa/internal/isa"

// Result kinds.
const (
	KindFamilies    = "families"     // two AMD families
	KindPTXVersions = "ptx-versions" // two PTX ISA versions
	KindPTXTargets  = "ptx-targets"  // two sm_ targets
)

// Result is what changed from one generation to the next. Lists are
// never nil (the JSON contract); the rows of each list are sorted by
// category, then name.
type Result struct {
	Kind   string `json:"kind"`
	From   Side   `json:"from"`
	To     Side   `json:"to"`
	Counts Counts `json:"counts"`
	// Categories count the rows per instruction category.
	Categories []CategoryCount `json:"categories"`
	Added      []Item          `json:"added"`
	Removed    []Item          `json:"removed"`
	// Renamed are instructions of From that To spells differently, each
	// with what shows they are one instruction.
	Renamed []Rename `json:"renamed"`
	// Changed are the instructions in both (same name or renamed) whose
	// encodings, operands, semantics or target support differ.
	Changed []Change `json:"changed"`
	// Formats are the microcode formats whose bit layout differs, that
	// To renamed, or that only one side has.
	Formats []FormatChange `json:"formats"`
	// Releases are, for PTX, the PTX ISA versions in the range with the
	// targets they introduced and NVIDIA's release notes.
	Releases []isa.PTXRelease `json:"releases"`
	// Notes say how the diff was made and where its facts come from.
	Notes []string `json:"notes"`
}

// Counts are the totals at the top of a diff. Added and Removed exclude
// renames.
type Counts struct {
	Added     int `json:"added"`
	Removed   int `json:"removed"`
	Renamed   int `json:"renamed"`
	Changed   int `json:"changed"`
	Unchanged int `json:"unchanged"`
	// The kinds of change among Changed (one instruction may have several).
	Opcodes   int `json:"opcodes"`
	Encodings int `json:"encodings"` // encodings added, removed or moved to another format
	Operands  int `json:"operands"`
	Semantics int `json:"semantics"`
	Targets   int `json:"targets"`
	Formats   int `json:"formats"` // formats with a layout change, renamed, added or removed
}

// CategoryCount counts one category's rows.
type CategoryCount struct {
	Category string `json:"category"`
	Added    int    `json:"added"`
	Removed  int    `json:"removed"`
	Renamed  int    `json:"renamed"`
	Changed  int    `json:"changed"`
}

// Item is an instruction (or, for PTX, a form or modifier) only one side
// has.
type Item struct {
	Name     string `json:"name"`
	Category string `json:"category"`
	// PTX: Level is "instruction", "form" or "modifier"; Syntax the form,
	// Modifier the modifier; PTXVersion and MinTarget the requirement,
	// Targets the targets of the generation that accept it, Source
	// "ptxas" or "documentation".
	Level      string   `json:"level,omitempty"`
	Syntax     string   `json:"syntax,omitempty"`
	Modifier   string   `json:"modifier,omitempty"`
	PTXVersion string   `json:"ptx_version,omitempty"`
	MinTarget  string   `json:"min_target,omitempty"`
	Targets    []string `json:"targets,omitempty"`
	Source     string   `json:"source,omitempty"`
}

// Evidence kinds of a rename.
const (
	EvidenceLink      = "link"      // the model links the two spellings (documented, or what llvm-mc did)
	EvidenceAlias     = "alias"     // one is an alias of the other (LLVM's name, a documented rename)
	EvidenceEncoding  = "encoding"  // identical formats and opcodes, the only such pair
	EvidenceSemantics = "semantics" // identical pseudocode, the only such pair
)

// Rename is one instruction spelled differently on the two sides.
type Rename struct {
	From     string     `json:"from"`
	To       string     `json:"to"`
	Category string     `json:"category"`
	Evidence []Evidence `json:"evidence"`
}

// Evidence is one reason two spellings are one instruction.
type Evidence struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Change is one instruction on both sides and what differs.
type Change struct {
	From      string           `json:"from"`
	To        string           `json:"to"`
	Category  string           `json:"category"`
	Renamed   bool             `json:"renamed,omitempty"`
	Encodings []EncodingChange `json:"encodings"`
	Operands  []OperandChange  `json:"operands"`
	// Semantics is a word diff of the pseudocode (whitespace and renamed
	// identifiers ignored); empty when it is the same.
	Semantics []Word        `json:"semantics"`
	Targets   *TargetChange `json:"targets,omitempty"`
}

// EncodingChange kinds.
const (
	ChangeOpcode  = "opcode"  // same format, another opcode
	ChangeFormat  = "format"  // moved to another format (not one the family renamed wholesale)
	ChangeAdded   = "added"   // To has an encoding From lacks
	ChangeRemoved = "removed" // From has an encoding To lacks
	ChangeMoved   = "moved"   // a field at other bits
	ChangeFixed   = "fixed"   // a fixed field holds another value
	ChangeResized = "resized" // the format's width
	ChangeRenamed = "renamed" // a format To calls by another name
	ChangeTyped   = "changed" // an operand's type or size
)

// EncodingChange is one difference between the encodings of an instruction:
// "VOP2 16" -> "VOP2 22".
type EncodingChange struct {
	Kind string `json:"kind"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// OperandChange is one operand added, removed or of another type or size.
type OperandChange struct {
	Kind    string `json:"kind"` // "added", "removed", "changed"
	Operand string `json:"operand"`
	From    string `json:"from,omitempty"` // "f32, 32 bits"
	To      string `json:"to,omitempty"`
}

// Word is one token of a word diff: Op "=" in both, "-" only in From,
// "+" only in To.
type Word struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// TargetChange is where llvm-mc accepts the instruction within each
// family's own targets, when that differs in kind (all of them, some,
// none).
type TargetChange struct {
	From   []string `json:"from"`
	FromOf int      `json:"from_of"` // the family's target count
	To     []string `json:"to"`
	ToOf   int      `json:"to_of"`
}

// FormatChange is one format whose layout differs between the sides, that
// To renamed (DS -> VDS), or that only one side has.
type FormatChange struct {
	Kind string `json:"kind"` // "changed", "renamed", "added", "removed"
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Instructions counts the instructions whose encoding moved from From
	// to To (renamed formats).
	Instructions int           `json:"instructions,omitempty"`
	FromWidth    int           `json:"from_width,omitempty"`
	ToWidth      int           `json:"to_width,omitempty"`
	Fields       []FieldChange `json:"fields"`
}

// FieldChange is one bit field added, removed, moved or holding another
// fixed value.
type FieldChange struct {
	Kind  string `json:"kind"` // "added", "removed", "moved", "fixed"
	Field string `json:"field"`
	From  string `json:"from,omitempty"` // "25:18", "= 110110"
	To    string `json:"to,omitempty"`
}
