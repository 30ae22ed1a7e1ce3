package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
)

// show prints a form ptxas rejects as rejected, never with the
// documentation's requirement as though the form met it.
func TestFormRequirement(t *testing.T) {
	ok := isa.Form{PTXVersion: "6.3", MinTarget: "sm_72", Status: isa.PTXVerified, Check: &isa.PTXCheck{Status: isa.PTXVerified}}
	if got := formRequirement(ok); !strings.HasPrefix(got, "PTX 6.3") || !strings.HasSuffix(got, "sm_72") {
		t.Errorf("verified form: %q", got)
	}
	bad := isa.Form{DocPTXVersion: "6.3", DocMinTarget: "sm_72", Status: isa.PTXRejected,
		Check: &isa.PTXCheck{Status: isa.PTXRejected, Message: "Unexpected instruction types specified for 'wmma.mma'"}}
	got := formRequirement(bad)
	for _, want := range []string{"rejected by ptxas", "documented: PTX 6.3, sm_72", "Unexpected instruction types"} {
		if !strings.Contains(got, want) {
			t.Errorf("rejected form: %q lacks %q", got, want)
		}
	}
	// A database written before rejected forms lost their requirements.
	old := isa.Form{PTXVersion: "6.3", MinTarget: "sm_72", Check: &isa.PTXCheck{Status: isa.PTXRejected}}
	if got := formRequirement(old); !strings.HasPrefix(got, "rejected by ptxas (documented: PTX 6.3, sm_72)") {
		t.Errorf("rejected form of an older database: %q", got)
	}
}

// `ptx check --help` lists every flag the command takes in one Flags
// section: those its own parser reads (ptx.CheckUsage names them) and the
// global --db.
func TestPTXCheckHelpListsEveryFlag(t *testing.T) {
	out, _, code := run(t, "ptx", "check", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	flags := regexp.MustCompile(`(?m)^\s+(--[a-z][a-z-]*)`).FindAllStringSubmatch(ptx.CheckUsage, -1)
	if len(flags) < 4 {
		t.Fatalf("CheckUsage names %d flags", len(flags))
	}
	_, section, ok := strings.Cut(out, "\nFlags:\n")
	if !ok {
		t.Fatalf("no Flags section:\n%s", out)
	}
	for _, f := range flags {
		if !strings.Contains(section, f[1]+" ") {
			t.Errorf("--help does not list %s:\n%s", f[1], section)
		}
	}
	if strings.Count(out, "Flags:\n") != 2 { // the command's and the global ones
		t.Errorf("want one Flags section and the global one:\n%s", out)
	}
}
