package ingest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// TestDerivationKept: a derivation is kept under the pseudocode and the
// linked concepts, so other pseudocode or another concept is another file
// (never the kept answer), one kept reads back byte for byte, and past
// keptDerivations the oldest go while the newest stays.
func TestDerivationKept(t *testing.T) {
	dir := t.TempDir()
	libs := func(code string) map[string]*sem.Library {
		return map[string]*sem.Library{"cdna4": sem.NewLibrary("cdna4", map[string]string{"V_MAX_F32": code})}
	}
	cat := func(id string) *concepts.Catalogue {
		return &concepts.Catalogue{Concepts: []*concepts.Concept{{ID: id, Name: id}}}
	}
	base := derivationFile(dir, cat("max"), libs("D0.f32 = S0.f32"))
	if base == "" {
		t.Skip("no code identity for this test binary (selfid)")
	}
	if again := derivationFile(dir, cat("max"), libs("D0.f32 = S0.f32")); again != base {
		t.Errorf("the same inputs key %s and %s", base, again)
	}
	for name, other := range map[string]string{
		"other pseudocode": derivationFile(dir, cat("max"), libs("D0.f32 = S1.f32")),
		"other concepts":   derivationFile(dir, cat("min"), libs("D0.f32 = S0.f32")),
		"no cache":         derivationFile("", cat("max"), libs("D0.f32 = S0.f32")),
	} {
		if other == base {
			t.Errorf("%s: keyed as the base derivation (%s)", name, base)
		}
	}
	if got := loadDerivation(base); got != nil {
		t.Errorf("nothing kept yet, read %q", got)
	}
	doc := []byte(`{"pairs":[]}`)
	if err := keepDerivation(base, doc); err != nil {
		t.Fatal(err)
	}
	if got := loadDerivation(base); string(got) != string(doc) {
		t.Errorf("read back %q, want %q", got, doc)
	}
	if err := os.WriteFile(base, []byte(`{"pairs":[`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := loadDerivation(base); got != nil {
		t.Errorf("a damaged file read back as %q", got)
	}
	var last string
	for i := range keptDerivations + 3 {
		last = derivationFile(dir, cat(string(rune('a'+i))), libs("D0.f32 = S0.f32"))
		if err := keepDerivation(last, doc); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(base), "derive-*.json"))
	if len(files) != keptDerivations {
		t.Errorf("%d derivations kept, want %d", len(files), keptDerivations)
	}
	if loadDerivation(last) == nil {
		t.Errorf("the newest derivation was removed")
	}
}
