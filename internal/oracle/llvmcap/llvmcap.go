// Package llvmcap decides, tool by tool, whether the LLVM found can check
// what the build asks of it, so that no oracle older than the facts need
// is used silently: llvm-mc is asked which gfx targets it knows (the
// families whose targets it lacks are reported unverified), llvm-mca is
// given the flags the cost step passes, opt the AMDGPU intrinsics the
// semantics check folds, and LLVM's syntax pages are looked for. It also
// installs Debian's llvm-22 and llvm-22-doc when they are missing and it
// may (root, apt-get), or names the command that does.
package llvmcap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Major is the LLVM release the stored facts are checked with.
const Major = 22

// Packages are Debian's packages holding the LLVM tools and syntax pages.
var Packages = []string{"llvm-22", "llvm-22-doc"}

// InstallCommand is the one command that installs them.
const InstallCommand = "apt-get install -y --no-install-recommends llvm-22 llvm-22-doc"

// Fix is the advice a report gives where an older or missing LLVM left
// something unchecked.
const Fix = "install LLVM 22: " + InstallCommand + " (as root; `gpuisa build` runs it itself when it may)"

// Short is a version line without its vendor: "llvm-mc 14.0.6".
func Short(tool, version string) string {
	if _, v, ok := strings.Cut(version, "LLVM version "); ok {
		return tool + " " + strings.TrimSpace(v)
	}
	return tool
}

// FamilyGap is one family whose targets llvm-mc does not know: all of them
// (Partial false: nothing of the family is verified) or some.
type FamilyGap struct {
	Arch, Name string
	Targets    []string // the family's targets llvm-mc does not know
	Partial    bool     // llvm-mc knows some of the family's targets
}

// MissingTargets lists, in the family table's order, the AMD families
// whose gfx targets known lacks.
func MissingTargets(known map[string]bool) []FamilyGap {
	var out []FamilyGap
	for _, a := range isa.Archs() {
		if a.Vendor != isa.VendorAMD || len(a.Targets) == 0 {
			continue
		}
		g := FamilyGap{Arch: a.ID, Name: a.Name}
		for _, t := range a.Targets {
			if known[t] {
				g.Partial = true
			} else {
				g.Targets = append(g.Targets, t)
			}
		}
		if len(g.Targets) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// Gap is one line of what llvm-mc leaves unverified, with the families
// (names) and targets it names.
type Gap struct {
	Text              string
	Families, Targets []string
}

// DescribeGaps words MissingTargets for a log and a report: the families
// not verified at all in one line, then one line for each verified on
// some targets only ("RDNA 4, CDNA 4: not verified: llvm-mc 14.0.6 does
// not know gfx1200, gfx1201, gfx950"). tool is "llvm-mc 14.0.6".
func DescribeGaps(tool string, gaps []FamilyGap) []Gap {
	var none Gap
	var some []Gap
	for _, g := range gaps {
		if g.Partial {
			some = append(some, Gap{Text: fmt.Sprintf("%s: verified on its other targets only: %s does not know %s", g.Name, tool, strings.Join(g.Targets, ", ")),
				Families: []string{g.Name}, Targets: g.Targets})
			continue
		}
		none.Families = append(none.Families, g.Name)
		none.Targets = append(none.Targets, g.Targets...)
	}
	var out []Gap
	if len(none.Families) > 0 {
		none.Text = fmt.Sprintf("%s: not verified: %s does not know %s", strings.Join(none.Families, ", "), tool, strings.Join(none.Targets, ", "))
		out = append(out, none)
	}
	return append(out, some...)
}

// Missing lists the packages of Packages not installed: llvm-22 when no
// llvm-mc-22 is on PATH (nor in /usr/lib/llvm-22/bin), llvm-22-doc when
// its AMDGPU pages are not in /usr/share/doc.
func Missing() []string {
	var out []string
	if !onPath() && OffPath() == "" {
		out = append(out, Packages[0])
	}
	if st, err := os.Stat("/usr/share/doc/llvm-22-doc/html/AMDGPU"); err != nil || !st.IsDir() {
		out = append(out, Packages[1])
	}
	return out
}

// OffPath is the folder of an installed llvm-22 whose llvm-mc-22 is not on
// PATH (the build then finds another llvm-mc, or none); "" otherwise.
func OffPath() string {
	if onPath() {
		return ""
	}
	if _, err := os.Stat(llvm22Bin + "/llvm-mc"); err == nil {
		return llvm22Bin
	}
	return ""
}

// llvm22Bin is where Debian's llvm-22 puts its unsuffixed tools.
const llvm22Bin = "/usr/lib/llvm-22/bin"

// onPath says whether llvm-22's llvm-mc-22 is on PATH.
func onPath() bool {
	_, err := exec.LookPath("llvm-mc-22")
	return err == nil
}

// CanInstall says whether Install may run: as root with apt-get on PATH;
// else why not.
func CanInstall() (bool, string) {
	if os.Geteuid() != 0 {
		return false, "not running as root"
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return false, "apt-get not found"
	}
	return true, ""
}

// InstallTimeout bounds Install: a machine without a reachable mirror
// goes on with what it has.
const InstallTimeout = 10 * time.Minute

// ErrCannotInstall is returned when Install may not run (CanInstall).
var ErrCannotInstall = errors.New("llvmcap: cannot install")

// Install installs pkgs with apt-get (apt-get update first when apt does
// not know a package), writing apt's output to log, within InstallTimeout.
func Install(ctx context.Context, pkgs []string, log io.Writer) error {
	if ok, why := CanInstall(); !ok {
		return fmt.Errorf("%w: %s", ErrCannotInstall, why)
	}
	if len(pkgs) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, InstallTimeout)
	defer cancel()
	run := func(args ...string) error {
		cmd := exec.CommandContext(ctx, "apt-get", args...)
		cmd.Stdout, cmd.Stderr = log, log
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("apt-get %s: %w", args[0], ctx.Err())
			}
			return fmt.Errorf("apt-get %s: %w", args[0], err)
		}
		return nil
	}
	if !known(ctx, pkgs) {
		if err := run("update", "-q"); err != nil {
			return err
		}
	}
	return run(append([]string{"install", "-y", "-q", "--no-install-recommends"}, pkgs...)...)
}

// known says whether apt has a candidate for every package.
func known(ctx context.Context, pkgs []string) bool {
	for _, p := range pkgs {
		out, err := exec.CommandContext(ctx, "apt-cache", "policy", p).Output()
		if err != nil || !strings.Contains(string(out), "Candidate:") || strings.Contains(string(out), "Candidate: (none)") {
			return false
		}
	}
	return true
}
