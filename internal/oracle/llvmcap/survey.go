package llvmcap

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/llvmfold"
	"github.com/gpuisa/gpuisa/internal/oracle/mca"
	"github.com/gpuisa/gpuisa/internal/oracle/toolpath"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"
)

// Tool is one LLVM oracle as found: where, which release, and what it
// can check (Covers) or why it cannot (Missing, with the fix).
type Tool struct {
	Name    string // "llvm-mc"
	Path    string // "" when not found
	Version string // its version line
	Covers  string // what the build or the tests check with it
	Missing string // what it cannot check, "" when nothing
}

// Line is the tool as `gpuisa tools` prints it.
func (t Tool) Line() string {
	switch {
	case t.Path == "":
		return fmt.Sprintf("%s: not found: %s; to install: %s", t.Name, t.Missing, InstallCommand)
	case t.Missing != "":
		return fmt.Sprintf("%s: %s (%s): %s; NOT %s; to fix: %s", t.Name, t.Path, t.Version, t.Covers, t.Missing, InstallCommand)
	}
	return fmt.Sprintf("%s: %s (%s): %s", t.Name, t.Path, t.Version, t.Covers)
}

// Survey finds every LLVM oracle and asks each what it can do: one
// process per question (llvm-mc's processor list, llvm-mca with the cost
// step's flags, opt on the folding probes, the others' versions).
func Survey(ctx context.Context) []Tool {
	return []Tool{surveyMC(ctx), surveyMCA(ctx), surveyOpt(ctx),
		surveyPlain(ctx, "llc", "llc-22", "AMD listings in the tests (llc-22 compiles the project's IR kernels)"),
		surveyPlain(ctx, "llvm-objdump", "llvm-objdump-22", "AMD listings in the tests (the decoder is held to llvm-objdump-22)"),
		surveyDoc()}
}

func surveyMC(ctx context.Context) Tool {
	t := Tool{Name: "llvm-mc"}
	path, err := verify.FindLLVMMC()
	if err != nil {
		t.Missing = "no AMD encoding, target or example verified"
		return t
	}
	t.Path = path
	t.Version, _ = verify.Version(ctx, path)
	known, err := verify.KnownTargets(ctx, path)
	if err != nil {
		t.Missing = err.Error()
		return t
	}
	n := 0
	for _, tgt := range isa.AllGFXTargets {
		if known[tgt] {
			n++
		}
	}
	gaps := MissingTargets(known)
	t.Covers = fmt.Sprintf("AMD encodings, targets and examples on %d of %d gfx targets", n, len(isa.AllGFXTargets))
	var texts []string
	for _, g := range DescribeGaps(Short("llvm-mc", t.Version), gaps) {
		texts = append(texts, g.Text)
	}
	t.Missing = strings.Join(texts, "; ")
	return t
}

func surveyMCA(ctx context.Context) Tool {
	t := Tool{Name: "llvm-mca"}
	path, err := mca.Find()
	if err != nil {
		t.Missing = "no cost from LLVM's scheduling model"
		return t
	}
	t.Path = path
	t.Version, _ = mca.Version(ctx, path)
	t.Covers = "the cost model on every target llvm-mc verifies"
	if err := mca.CheckFlags(ctx, path); err != nil {
		t.Covers = "nothing"
		t.Missing = "the cost model: it " + err.Error()
	}
	return t
}

func surveyOpt(ctx context.Context) Tool {
	t := Tool{Name: "opt"}
	path, err := llvmfold.Find()
	if err != nil {
		t.Missing = "the pseudocode is not checked against LLVM's constant folding"
		return t
	}
	t.Path = path
	t.Version, _ = llvmfold.Version(ctx, path)
	t.Covers = "the AMD pseudocode held to LLVM's constant folding of the AMDGPU intrinsics"
	target := ""
	for _, a := range isa.Archs() {
		if a.Vendor == isa.VendorAMD && len(a.Targets) > 0 {
			target = a.Targets[0]
			break
		}
	}
	if err := llvmfold.Capable(ctx, path, target); err != nil {
		t.Covers = "nothing"
		t.Missing = "the semantics check: " + err.Error()
	}
	return t
}

// surveyPlain finds a tool the tests run by its suffixed name alone; an
// unsuffixed one of another release is named, since nothing uses it.
func surveyPlain(ctx context.Context, name, suffixed, covers string) Tool {
	t := Tool{Name: name, Covers: covers}
	if p, err := exec.LookPath(suffixed); err == nil {
		t.Path = p
		t.Version, _ = toolpath.LLVMVersion(ctx, p)
		return t
	}
	t.Missing = "the tests that need " + suffixed + " skip"
	if p, err := exec.LookPath(name); err == nil {
		v, _ := toolpath.LLVMVersion(ctx, p)
		t.Missing += " (" + p + ", " + v + ", is not used)"
	}
	return t
}

var docVersionRe = regexp.MustCompile(`llvm-(\d+)-doc`)

func surveyDoc() Tool {
	t := Tool{Name: "llvm-22-doc"}
	dir := llvmdoc.DocDir()
	if dir == "" {
		t.Missing = "LLVM's AMDGPU syntax pages: no LLVM syntax attached to the AMD instructions"
		return t
	}
	t.Path = filepath.Join(dir, "AMDGPU")
	t.Version = "LLVM's AMDGPU syntax pages"
	if m := docVersionRe.FindStringSubmatch(dir); m != nil {
		t.Version = "llvm-" + m[1] + "-doc"
		if n, _ := strconv.Atoi(m[1]); n < Major {
			t.Missing = fmt.Sprintf("the syntax of targets LLVM %d does not describe", n)
		}
	}
	pages, _ := filepath.Glob(filepath.Join(t.Path, "AMDGPUAsmGFX*.html"))
	t.Covers = fmt.Sprintf("LLVM's AMDGPU syntax (%d pages)", len(pages))
	return t
}
