package quality

import "github.com/gpuisa/gpuisa/internal/isa"

// PTXReport is what NVIDIA's assembler said about the PTX documentation:
// how many forms and example statements ptxas accepts, and every place
// where the documentation and ptxas disagree.
type PTXReport struct {
	// Tools are the tools that ran ("ptxas 13.5.37 (CUDA 13.5 ...)"),
	// empty when none did; Notes say why not.
	Tools    []string `json:"tools,omitempty"`
	Verified bool     `json:"verified"`
	Notes    []string `json:"notes,omitempty"`
	Targets  []string `json:"targets,omitempty"` // the sm_ targets of the grid
	// DocVersion is the PTX ISA version the grid assembles with.
	DocVersion string `json:"doc_version,omitempty"`
	// FloorTarget and FloorVersion are the oldest target ptxas compiles for
	// and the oldest PTX ISA version that target allows: a documented
	// requirement below them cannot be checked, only found consistent.
	FloorTarget  string `json:"floor_target,omitempty"`
	FloorVersion string `json:"floor_version,omitempty"`
	Run          struct {
		Statements int   `json:"statements"`
		Processes  int64 `json:"processes"`
		Assembled  int64 `json:"assembled"`
		CacheHits  int64 `json:"cache_hits"`
		Searched   int   `json:"searched"` // statements that needed another operand typing
	} `json:"run"`

	Forms            int `json:"forms"`
	FormsVerified    int `json:"forms_verified"`
	FormsRejected    int `json:"forms_rejected"`
	FormsNotVerified int `json:"forms_not_verified"`
	// FormsCorrected counts forms whose shown minimum PTX ISA version or
	// target is ptxas's, not the documentation's.
	FormsCorrected int `json:"forms_corrected"`

	ExampleStatements int `json:"example_statements"`
	ExamplesAccepted  int `json:"examples_accepted"`

	// TooStrict: the documentation (its syntax and notes as gpuisa reads
	// them; a finding can be the reader's miss as well as NVIDIA's error)
	// asks for a later PTX ISA version or a newer target than ptxas needs.
	TooStrict []PTXFinding `json:"too_strict"`
	// TooLoose: the documentation allows an older PTX ISA version or target
	// than ptxas accepts.
	TooLoose []PTXFinding `json:"too_loose"`
	// Errata: statements of NVIDIA's own examples that ptxas rejects (in
	// their documented context; Context says whether they assemble without
	// it).
	Errata []PTXFinding `json:"errata"`
	// RejectedForms: documented forms ptxas rejects on every target.
	RejectedForms []PTXFinding `json:"rejected_forms"`
	// NotVerified: forms or statements the harness could not give ptxas in
	// a shape it accepts, with ptxas's last message.
	NotVerified []PTXFinding `json:"not_verified"`
	// BeyondDocuments: what ptxas assembles that no documented syntax
	// line writes, and documented choices it rejects — the facts gpuisa's
	// checker follows (internal/ptx ptxasForms), each put to this build's
	// ptxas: Doc is what the documents say, PTXAS its verdict.
	BeyondDocuments []PTXFinding `json:"beyond_documents,omitempty"`
}

// PTXFinding is one disagreement or one unverified statement.
type PTXFinding struct {
	Mnemonic  string `json:"mnemonic"`
	Statement string `json:"statement"`
	Fact      string `json:"fact,omitempty"` // "minimum target", "PTX ISA version"
	Doc       string `json:"doc,omitempty"`
	PTXAS     string `json:"ptxas,omitempty"`
	Message   string `json:"message,omitempty"`
	// Context is set for an example statement that ptxas accepts once the
	// example's own declarations are left out.
	Context bool     `json:"context,omitempty"`
	Prov    isa.Prov `json:"prov"`
}

// FindingKinds lists the report's findings kind by kind, in the order the
// report (web page and text) shows them: the documentation asking too
// much, asking too little, NVIDIA's example statements ptxas rejects,
// forms ptxas rejects, ptxas's facts beyond the documents, and what could
// not be verified.
func (r *PTXReport) FindingKinds() []PTXFindingKind {
	return []PTXFindingKind{
		{ID: "too-strict", Title: "Documentation too strict",
			Intro:    "NVIDIA's documentation asks for a later PTX ISA version or a newer target than ptxas needs.",
			Findings: r.TooStrict},
		{ID: "too-loose", Title: "Documentation too loose",
			Intro:    "NVIDIA's documentation allows an older PTX ISA version or target than ptxas accepts.",
			Findings: r.TooLoose},
		{ID: "errata", Title: "Example statements ptxas rejects (documentation errata)",
			Intro:    "Statements of NVIDIA's own examples that ptxas rejects in their documented context.",
			Findings: r.Errata},
		{ID: "rejected-forms", Title: "Forms ptxas rejects",
			Intro:    "Documented forms that ptxas rejects on every target.",
			Findings: r.RejectedForms},
		{ID: "beyond-documents", Title: "ptxas's facts beyond the documents",
			Intro:    "Forms ptxas assembles that no documented syntax line writes, and documented choices it rejects: gpuisa's checker follows ptxas, with the documents' text beside it.",
			Findings: r.BeyondDocuments},
		{ID: "not-verified", Title: "Not verified",
			Intro:    "Forms and example statements gpuisa could not give ptxas in a shape it accepts, with ptxas's last message.",
			Findings: r.NotVerified},
	}
}

// PTXFindingKind is one kind of finding with its list.
type PTXFindingKind struct {
	ID, Title, Intro string
	Findings         []PTXFinding
}
