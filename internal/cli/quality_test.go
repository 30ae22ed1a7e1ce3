package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// The test database is built without llvm-mc: the report says so and still
// lists every AMD family.
func TestQualityCommand(t *testing.T) {
	needDB(t)
	out, errOut, code := run(t, "quality", "--db", testDB)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Not verified with llvm-mc.", "verification skipped", "cdna4", "rdna4", "PTX: not verified by ptxas."} {
		if !strings.Contains(out, want) {
			t.Errorf("quality output lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = run(t, "quality", "--json", "--db", testDB)
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var rep quality.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v", err)
	}
	if rep.Verified || len(rep.Families) != 12 || rep.Families[0].Instructions == 0 {
		t.Errorf("report: verified %v, %d families", rep.Verified, len(rep.Families))
	}
	if _, _, code := run(t, "quality", "extra-arg", "--db", testDB); code != 2 {
		t.Errorf("extra argument: exit %d, want 2", code)
	}
}
