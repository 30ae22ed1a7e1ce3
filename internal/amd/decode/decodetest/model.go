// Package decodetest gives the decoder and encoder tests what they need from
// outside the package: the project's real model of every AMD family (read
// with the same pipeline as `gpuisa build`: internal/ingest's AMD readers,
// merge and LLVM pass), and llvm-mc-22 as the oracle (llvm.go).
//
// The model is read from shared/upstream at test time only; nothing read
// from it is stored in the repository.
package decodetest

import (
	"context"
	"fmt"
	"sync"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/isa"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// Family is one AMD family of the model: what decode.New and encode.New take.
type Family struct {
	Arch   isa.Architecture
	Instrs []isa.Instruction
}

var (
	modelOnce sync.Once
	model     map[string]Family
	modelErr  error
)

// Model reads every AMD family once per test binary. With llvm-mc-22 on PATH
// the LLVM pass verifies the examples (cached in the user cache directory,
// like `gpuisa build`), so instructions carry Examples with encodings and
// TargetDetails; without it they carry none. It returns an error when the
// sources cannot be found or read.
func Model() (map[string]Family, error) {
	modelOnce.Do(func() {
		src := testenv.FindUpstream()
		if src == "" {
			modelErr = fmt.Errorf("shared/upstream not found (set GPUISA_SOURCES)")
			return
		}
		ctx := context.Background()
		archs, insts, _, err := ingest.LoadAMD(ctx, src, nil)
		if err != nil {
			modelErr = fmt.Errorf("reading the AMD sources: %w", err)
			return
		}
		res, err := ingest.ApplyLLVM(ctx, ingest.Options{Sources: src, NoVerify: !HaveLLVM()}, archs, insts, nil)
		if err != nil {
			modelErr = fmt.Errorf("LLVM pass: %w", err)
			return
		}
		insts = append(insts, res.Added...)
		model = map[string]Family{}
		for _, a := range archs {
			model[a.ID] = Family{Arch: a}
		}
		for _, in := range insts {
			f, ok := model[in.Arch]
			if !ok {
				continue
			}
			f.Instrs = append(f.Instrs, *in)
			model[in.Arch] = f
		}
	})
	return model, modelErr
}

// Load returns one family of the model; a missing family is an error.
func Load(arch string) (Family, error) {
	m, err := Model()
	if err != nil {
		return Family{}, err
	}
	f, ok := m[arch]
	if !ok {
		return Family{}, fmt.Errorf("family %q is not in the model", arch)
	}
	return f, nil
}

// FuzzFamilies is what the fuzz tests run on: the hand-made fixture family
// first, then the named families of the real model when the sources are
// present (a family that does not load is left out; the fuzz tests are
// about panics, not data).
func FuzzFamilies(archs ...string) []Family {
	a, ins := Fixture()
	out := []Family{{Arch: a, Instrs: ins}}
	if testenv.FindUpstream() == "" {
		return out
	}
	for _, arch := range archs {
		if f, err := Load(arch); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// FamilyTarget is an AMD family with the gfx target its tests run on.
type FamilyTarget struct{ Arch, MCPU string }

// Families lists the AMD families with their reference targets
// (isa.ArchInfo.RefTarget), oldest first: what the differential, round-trip
// and compiled-kernel tests run over.
func Families() []FamilyTarget {
	archs := isa.Archs()
	var out []FamilyTarget
	for i := len(archs) - 1; i >= 0; i-- {
		if a := archs[i]; a.Vendor == isa.VendorAMD {
			out = append(out, FamilyTarget{a.ID, a.RefTarget()})
		}
	}
	return out
}
