package quality

// CostReport is what LLVM's scheduling model (llvm-mca) gave the AMD
// instructions: coverage per family and where AMD's guides state other
// pass counts than the model.
type CostReport struct {
	LLVMMCA string   `json:"llvm_mca,omitempty"` // version line, "" when it did not run
	Notes   []string `json:"notes,omitempty"`
	// Gap is set when the llvm-mca found cannot model (an older release).
	Gap           *OracleGap         `json:"gap,omitempty"`
	Processes     int                `json:"processes"`
	Analysed      int                `json:"analysed"`
	CacheHits     int                `json:"cache_hits"`
	Families      []CostFamily       `json:"families"`
	Disagreements []CostDisagreement `json:"disagreements"`
}

// CostFamily is one family's coverage.
type CostFamily struct {
	Arch         string  `json:"arch"`
	Instructions int     `json:"instructions"`
	WithCost     int     `json:"with_cost"` // model numbers on at least one target
	Share        float64 `json:"share"`     // %
}

// CostDisagreement is a fact the guide states that the model contradicts.
type CostDisagreement struct {
	Arch   string `json:"arch"`
	Name   string `json:"name"`
	Target string `json:"target"`
	Fact   string `json:"fact"`  // "passes"
	Doc    string `json:"doc"`   // the guide's value
	Model  string `json:"model"` // the model's: "HWXDL[8]"
}
