package cli

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
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
