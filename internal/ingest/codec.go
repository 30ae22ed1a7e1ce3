package ingest

import (
	"encoding/json"
	"fmt"

	"github.com/gpuisa/gpuisa/internal/amd/codec"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/amdgpuusage"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
)

// prepareCodecs writes the tables package codec loads at run time: per AMD
// family the decoder facts and the annotation notes, and the e_flags table
// read from LLVM's AMDGPUUsage (skipped, with a problem noted, when the
// document is not installed). They go into extras.
func prepareCodecs(opts Options, archs []isa.Architecture, insts []*isa.Instruction, extras map[string][]byte) (problems []string, err error) {
	byArch := map[string][]*isa.Instruction{}
	for _, in := range insts {
		byArch[in.Arch] = append(byArch[in.Arch], in)
	}
	for _, a := range archs {
		if a.Kind != isa.KindNative {
			continue
		}
		if extras[codec.CodecKey(a.ID)], err = codec.PrepareTable(a, byArch[a.ID]); err != nil {
			return nil, fmt.Errorf("decoder table of %s: %w", a.ID, err)
		}
		if extras[codec.NotesKey(a.ID)], err = codec.PrepareNotes(a, byArch[a.ID]); err != nil {
			return nil, fmt.Errorf("notes of %s: %w", a.ID, err)
		}
	}
	docDir := opts.LLVMDocDir
	if docDir == "" {
		docDir = llvmdoc.DocDir()
	}
	if docDir == "" {
		return []string{"llvm: AMDGPUUsage not found (install llvm-22-doc): code objects need --arch to be decoded"}, nil
	}
	h, err := amdgpuusage.ReadHeader(docDir)
	if err != nil {
		return []string{fmt.Sprintf("llvm: %v: code objects need --arch to be decoded", err)}, nil
	}
	if extras[codec.KeyMachines], err = json.Marshal(h.CodeObjectMachines(lastElems(h.File, 3))); err != nil {
		return nil, err
	}
	return nil, nil
}
