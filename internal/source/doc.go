// Package source groups one reader per upstream format: AMD's ISA guides
// (amdmanual) and machine-readable XML (amdxml), NVIDIA's PTX ISA
// documentation and release notes (ptxdoc), LLVM's AMDGPU syntax pages
// (llvmdoc), its processor tables (amdgpuusage) and its MC tests
// (llvmtest). Each is its own package; this one holds nothing but this
// comment. Readers know their format and nothing of the pipeline: each
// turns files into plain values that internal/ingest merges into the model.
package source
