package llvmcap

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

func TestMajorOf(t *testing.T) {
	for v, want := range map[string]int{"Debian LLVM version 14.0.6": 14, "LLVM version 22.1.8": 22, "other 1.0": 0} {
		if got := MajorOf(v); got != want {
			t.Errorf("MajorOf(%q) = %d, want %d", v, got, want)
		}
	}
	if got := Short("llvm-mc", "Debian LLVM version 14.0.6"); got != "llvm-mc 14.0.6" {
		t.Errorf("Short = %q", got)
	}
}

// TestDescribeGaps: with every target known but one family's all and
// another family's first, the one is named not verified, the other
// verified on its other targets, each with the targets it lacks.
func TestDescribeGaps(t *testing.T) {
	var amd []isa.ArchInfo
	for _, a := range isa.Archs() {
		if a.Vendor == isa.VendorAMD && len(a.Targets) > 1 {
			amd = append(amd, a)
		}
	}
	if len(amd) < 2 {
		t.Fatal("the family table has fewer than two AMD families with several targets")
	}
	none, some := amd[0], amd[1]
	known := map[string]bool{}
	for _, tgt := range isa.AllGFXTargets {
		known[tgt] = true
	}
	for _, tgt := range none.Targets {
		known[tgt] = false
	}
	known[some.Targets[0]] = false
	gaps := DescribeGaps("llvm-mc 14.0.6", MissingTargets(known))
	if len(gaps) != 2 {
		t.Fatalf("gaps = %+v, want two", gaps)
	}
	if want := none.Name + ": not verified: llvm-mc 14.0.6 does not know " + strings.Join(none.Targets, ", "); gaps[0].Text != want {
		t.Errorf("gap = %q, want %q", gaps[0].Text, want)
	}
	if !slices.Equal(gaps[1].Families, []string{some.Name}) || !slices.Equal(gaps[1].Targets, some.Targets[:1]) ||
		!strings.Contains(gaps[1].Text, "verified on its other targets only") {
		t.Errorf("partial gap = %+v", gaps[1])
	}
	if g := MissingTargets(known); len(g) != 2 {
		t.Errorf("MissingTargets = %+v", g)
	}
}

// llvm14Only builds a PATH holding only LLVM 14's tools, each a wrapper
// that logs its arguments to the returned file before running the tool;
// it skips loudly when LLVM 14 is not installed.
func llvm14Only(t *testing.T) (dir, log string) {
	t.Helper()
	return testenv.LLVM14Only(t, "llvm-mc", "llvm-mca", "opt", "llc", "llvm-objdump")
}

// TestLLVM14Survey: where only LLVM 14 is found, every family whose
// targets llvm-mc 14 rejects (asked target by target, independently of
// its processor list) is named not verified, with the fix; llvm-mca and
// opt, which lack what the build needs, are each asked once and reported.
func TestLLVM14Survey(t *testing.T) {
	_, log := llvm14Only(t)
	start := time.Now()
	tools := Survey(context.Background())
	t.Logf("survey of LLVM 14 in %s", time.Since(start).Round(time.Millisecond))
	calls, _ := os.ReadFile(log)
	by := map[string]Tool{}
	for _, tool := range tools {
		by[tool.Name] = tool
	}
	mc := by["llvm-mc"]
	if mc.Path == "" || MajorOf(mc.Version) != 14 {
		t.Fatalf("llvm-mc = %+v, want LLVM 14's", mc)
	}
	for _, a := range isa.Archs() {
		if a.Vendor != isa.VendorAMD {
			continue
		}
		rejected := 0
		for _, tgt := range a.Targets {
			if !accepts14(t, tgt) {
				rejected++
			}
		}
		named := strings.Contains(mc.Missing, a.Name+",") || strings.Contains(mc.Missing, a.Name+":")
		if (rejected > 0) != named {
			t.Errorf("%s: llvm-mc 14 rejects %d of its %d targets, named in the survey: %v (%q)", a.Name, rejected, len(a.Targets), named, mc.Missing)
		}
	}
	if !strings.Contains(mc.Line(), InstallCommand) {
		t.Errorf("llvm-mc line names no fix: %s", mc.Line())
	}
	for _, name := range []string{"llvm-mca", "opt"} {
		if by[name].Missing == "" || !strings.Contains(by[name].Line(), InstallCommand) {
			t.Errorf("%s 14 reported able: %s", name, by[name].Line())
		}
	}
	if n := strings.Count(string(calls), "llvm-mca "); n != 2 { // --version, and the flags once
		t.Errorf("llvm-mca ran %d times, want 2:\n%s", n, calls)
	}
}

// accepts14 asks LLVM 14's llvm-mc itself whether it knows target.
func accepts14(t *testing.T, target string) bool {
	out, err := exec.Command("/usr/lib/llvm-14/bin/llvm-mc", "-triple=amdgcn", "-mcpu="+target, "-o", "/dev/null").CombinedOutput()
	_ = err
	return !strings.Contains(string(out), "not a recognized processor")
}

// TestLLVM22Survey: with LLVM 22 found, every tool can do its step and
// llvm-mc knows every gfx target of the table.
func TestLLVM22Survey(t *testing.T) {
	if _, err := exec.LookPath("llvm-mc-22"); err != nil {
		t.Skip("SKIP: llvm-22 not installed (" + InstallCommand + ")")
	}
	for _, env := range []string{"GPUISA_LLVM_MC", "GPUISA_LLVM_MCA", "GPUISA_OPT"} {
		t.Setenv(env, "")
	}
	for _, tool := range Survey(context.Background()) {
		if tool.Missing != "" || tool.Path == "" {
			t.Errorf("with LLVM 22: %s", tool.Line())
		}
	}
	path, _ := verify.FindLLVMMC()
	known, err := verify.KnownTargets(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if g := MissingTargets(known); len(g) != 0 {
		t.Errorf("llvm-mc 22 lacks %+v", g)
	}
	n := 0
	for _, tgt := range isa.AllGFXTargets {
		if known[tgt] {
			n++
		}
	}
	if n != len(isa.AllGFXTargets) {
		t.Errorf("llvm-mc 22 knows %d of %d targets", n, len(isa.AllGFXTargets))
	}
}

// TestInstallRefused: without apt-get on PATH, Install refuses at once
// (the build then prints the command instead) and runs nothing.
func TestInstallRefused(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if ok, why := CanInstall(); ok || why == "" {
		t.Fatalf("CanInstall = %v, %q without apt-get", ok, why)
	}
	if err := Install(context.Background(), Packages, io.Discard); !errors.Is(err, ErrCannotInstall) {
		t.Errorf("Install = %v, want ErrCannotInstall", err)
	}
}

// MajorOf reads the release from a version line ("Debian LLVM version
// 14.0.6" is 14); 0 when it names none. The build decides by capability,
// never by release number: only the tests read it.
func MajorOf(version string) int {
	m := regexp.MustCompile(`LLVM version (\d+)\.`).FindStringSubmatch(version)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
