// Package ptx turns the PTX documentation's sections (internal/source/ptxdoc)
// into one entry per mnemonic with its syntax forms, the PTX ISA version and
// sm_ target each form and modifier needs, and checks PTX instructions and
// files against those forms.
//
// A form keeps the documented syntax line (with the data-type template
// variables expanded) plus the definitions of the template variables it still
// uses, so the checker can rebuild its pattern from a stored []Instruction
// without the documentation at hand.
//
// It runs no tool: ptxas's verdicts come in as data (Form.Oracle), the
// statements to put to ptxas are written here (FormProbes) and assembled by
// internal/oracle/ptxharness, and the version and target order is
// internal/ptx/ptxorder's. The builder (Build) stays beside the checker
// because both read the same form grammar.
package ptx

import "strconv"

// Kinds of entry, as in ptxdoc.
const (
	KindInstruction     = "instruction"
	KindSpecialRegister = "special-register"
	KindDirective       = "directive"
)

// Instruction is everything the documentation says about one mnemonic,
// merged over all sections that document it.
type Instruction struct {
	Name        string       `json:"name"`     // "max", "cp.async.bulk.tensor", "%tid", ".version"
	Category    string       `json:"category"` // the first section's group, "Integer Arithmetic Instructions"
	Kind        string       `json:"kind"`     // instruction | special-register | directive
	Summary     string       `json:"summary"`
	Sections    []SectionRef `json:"sections"`
	Syntax      []string     `json:"syntax"` // documented syntax lines, template variables unexpanded
	Forms       []Form       `json:"forms"`
	Operands    []Operand    `json:"operands,omitempty"`
	PTXVersion  string       `json:"ptx_version"` // earliest version any form needs ("1.0"); "" if not stated
	MinTarget   string       `json:"min_target"`  // lowest target any form needs ("sm_10"); "" if not stated
	Description string       `json:"description"`
	Semantics   string       `json:"semantics"`
	Examples    []Example    `json:"examples"`
	// Notes holds version/target sentences that were not turned into a
	// requirement (conditions the reader cannot express), kept as text.
	Notes []string `json:"notes"`
}

// SectionRef points at one documentation section.
type SectionRef struct {
	ID    string `json:"id"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	Title string `json:"title"`
}

// Example is one example code block.
type Example struct {
	Text string `json:"text"`
	File string `json:"file"`
	Line int    `json:"line"`
}

// Form is one documented syntax line with its data-type choices fixed.
type Form struct {
	// Syntax is the line as documented, with data-type variables replaced by
	// the chosen types: "max{.relu}.s32 d, a, b;".
	Syntax      string   `json:"syntax"`
	Types       []string `json:"types"`        // ".s32"
	Modifiers   []string `json:"modifiers"`    // ".relu", ".ftz", ".xorsign.abs", ".rn"
	StateSpaces []string `json:"state_spaces"` // ".global", ".shared::cta"
	Scopes      []string `json:"scopes"`       // ".cta", ".gpu"
	// Variables defines the template variables still written in Syntax.
	Variables []Variable `json:"variables"`
	// Requirements are later PTX versions / targets needed only when some
	// optional part of the form is used (".NaN", three operands).
	Requirements []Requirement `json:"requirements"`
	// Base is what the section's notes state for the instruction as a
	// whole; the checker starts from it and applies Requirements.
	Base       Option `json:"base"`
	MinTarget  string `json:"min_target"`
	PTXVersion string `json:"ptx_version"`
	// Alternatives lists every (version, target) pair that satisfies the
	// form when the notes give more than one; PTXVersion/MinTarget hold the
	// first (lowest version).
	Alternatives []Option `json:"alternatives,omitempty"`
	Description  string   `json:"description"` // the line's comment or the block's caption
	File         string   `json:"file"`
	Line         int      `json:"line"`
	// Oracle is ptxas's view of the form, filled by the build when ptxas
	// ran; the checker prefers it to the notes.
	Oracle *FormOracle `json:"oracle,omitempty"`
}

// Variable is one template variable definition: ".atype = { .u16, .u32 }".
type Variable struct {
	Name    string   `json:"name"`    // ".atype", "::op", "vop2"
	Choices []string `json:"choices"` // ".u16", ".param::entry", "::fill", "vadd2"
}

// Requirement is a PTX ISA version or minimum target that applies when the
// instruction uses certain tokens (and optionally a certain operand count).
type Requirement struct {
	Feature string `json:"feature"` // as written in the notes: "max.NaN"
	// Sequence lists elements that must appear in this order among the
	// instruction's tokens ("cvt", "f32", "bf16"); an element is met by any
	// of its "|"-separated alternatives (tokens joined by "+").
	Sequence []Element `json:"sequence,omitempty"`
	// When lists further conditions in any order, written like Sequence's
	// alternatives; "<generic>" stands for "no state space written".
	When       []string `json:"when,omitempty"`
	Operands   int      `json:"operands,omitempty"` // 0: any count
	PTXVersion string   `json:"ptx_version,omitempty"`
	MinTarget  string   `json:"min_target,omitempty"`
	// Alternatives replaces PTXVersion/MinTarget when the notes give several
	// (version, target) pairs: "PTX 7.8 with sm_90, or PTX 8.1 with sm_89".
	Alternatives []Option `json:"alternatives,omitempty"`
	File         string   `json:"file"`
	Line         int      `json:"line"`
}

// Element is one ordered part of a requirement's Sequence.
type Element struct {
	Alts string `json:"alts"` // "u8|s8|bf16"
	// Position restricts where a data type may stand: "destination" (the
	// first data type of the instruction) or "source" (a later one).
	Position string `json:"position,omitempty"`
}

// Option is one (PTX ISA version, target) pair that satisfies a requirement.
type Option struct {
	PTXVersion string `json:"ptx_version,omitempty"`
	MinTarget  string `json:"min_target,omitempty"`
}

// options returns the requirement's alternatives, or its single pair.
func (r Requirement) options() []Option {
	if len(r.Alternatives) > 0 {
		return r.Alternatives
	}
	return []Option{{r.PTXVersion, r.MinTarget}}
}

// Problem is something in the documentation the builder could not use.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Section string `json:"section"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	return p.File + ":" + strconv.Itoa(p.Line) + ": " + p.Section + ": " + p.Message
}

// FormOracle is what ptxas said about a form, as the checker uses it: the
// (version, target) pairs its statement needs, the same for each optional
// part, and the template variable one of whose choices ptxas requires
// although the syntax line shows it as optional.
type FormOracle struct {
	Status    string          `json:"status"` // isa.PTXVerified | PTXRejected | PTXNotVerified
	Statement string          `json:"statement"`
	Options   []Option        `json:"options,omitempty"`
	Features  []OracleFeature `json:"features,omitempty"`
	Required  string          `json:"required,omitempty"` // ".irnd"
	// Probes are ptxas's verdicts on every statement gpuisa wrote for the
	// form, by ProbeKey: the checker answers these exactly.
	Probes  []ProbeVerdict `json:"probes,omitempty"`
	Message string         `json:"message,omitempty"`
	// FloorTarget and FloorVersion are the oldest target and PTX version
	// ptxas could test: requirements at them may be older still.
	FloorTarget  string `json:"floor_target,omitempty"`
	FloorVersion string `json:"floor_version,omitempty"`
}

// ProbeVerdict is ptxas's verdict on one statement of a form.
type ProbeVerdict struct {
	Key     string   `json:"key"`
	Status  string   `json:"status"`
	Options []Option `json:"options,omitempty"`
	Message string   `json:"message,omitempty"`
}

// OracleFeature is ptxas's verdict on one optional part of a form.
type OracleFeature struct {
	Feature  string   `json:"feature"`            // ".NaN", ".rz", ", c"
	Variable string   `json:"variable,omitempty"` // ".rnd"
	Status   string   `json:"status"`
	Options  []Option `json:"options,omitempty"`
	Message  string   `json:"message,omitempty"`
	// Alone is set for a rejected part whose message blames only the part
	// itself ("Illegal modifier '.sat'"): rejected wherever the form's
	// statements use it.
	Alone bool `json:"alone,omitempty"`
}
