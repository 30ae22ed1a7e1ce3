package store

// The keys of the named documents the build stores beside the model
// (Build.Extras, read back with DB.Extra), each with what it holds. The
// build writes them and serving reads them under these names; the
// per-architecture documents keep their key functions with the packages
// that read them (costview.ExtraKey, famdiff.ExtraKey, codec.CodecKey), and so does the
// SASS reference's index (sassindex.Key).
const (
	// KeyPTXModel holds the PTX reader's full model, a JSON
	// []ptx.Instruction (forms with their template variables and
	// requirements): what the PTX checker needs.
	KeyPTXModel = "ptx_model"
	// KeyConcepts holds the concept catalogue's files (a JSON object:
	// path → YAML text), for `gpuisa concepts`, `gpuisa port` and the
	// concepts page.
	KeyConcepts = "concepts"
	// KeyConceptVerdicts holds the assembler's verdicts on what the concept
	// catalogue proposes (a JSON concepts.VerdictTable), so `gpuisa port`
	// offers only what assembles on the target.
	KeyConceptVerdicts = "concept_verdicts"
	// KeyQuality holds the data-quality report (a JSON quality.Report).
	KeyQuality = "quality"
	// KeySemDifferences holds the semantic differences between ported
	// instructions (JSON semdiff documents).
	KeySemDifferences = "sem_differences"
)
