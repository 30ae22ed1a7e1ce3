package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/base/keepnewest"
	"github.com/gpuisa/gpuisa/internal/base/selfid"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
)

// The cross-vendor differences (semdiff.Derive) are a few seconds of a
// build whose oracles are cached, and depend on nothing but the code (the
// PTX models, the evaluator, the tolerated table: selfid.Code of semdiff
// and of semoracle, whose Known judges what is tolerated), the
// catalogue's concepts as linked, and every evaluated family's pseudocode
// (sem.Library.Fingerprint, both notations). A derivation is kept under a hash of all of
// them, as the JSON the database stores, in one file per key; the newest
// keptDerivations are kept (a test binary's are other keys and never
// replace a build's).
const keptDerivations = 8

// derivationFile is where the derivation of cat over libs is kept under
// cacheDir; "" when it cannot be keyed (no code identity, a library that
// fetches its pseudocode on demand).
func derivationFile(cacheDir string, cat *concepts.Catalogue, libs map[string]*sem.Library) string {
	// Both identities are needed: one closure can fall back to ID (its
	// sources edited since the table) while ID is unknown, and half a
	// key would keep the other half's derivations.
	derive, judge := selfid.Code("internal/xvendor/semdiff"), selfid.Code("internal/oracle/semoracle")
	if cacheDir == "" || derive == "" || judge == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s+%s\x00", derive, judge)
	for _, fam := range slices.Sorted(maps.Keys(libs)) {
		fp := libs[fam].Fingerprint()
		if fp == "" {
			return ""
		}
		fmt.Fprintf(h, "%s\x00%s\x00", fam, fp)
	}
	concepts, err := json.Marshal(cat.Concepts)
	if err != nil {
		return ""
	}
	h.Write(concepts)
	return filepath.Join(cacheDir, "semdiff", "derive-"+hex.EncodeToString(h.Sum(nil))[:32]+".json")
}

// loadDerivation returns the kept derivation at file, nil when there is
// none or it does not read back.
func loadDerivation(file string) []byte {
	if file == "" {
		return nil
	}
	b, err := os.ReadFile(file)
	if err != nil || !json.Valid(b) {
		return nil
	}
	keepnewest.Touch(file) // used: the newest, so pruning keeps it
	return b
}

// keepDerivation writes doc to file (atomically) and removes the oldest
// kept derivations past keptDerivations. The cache only saves time: a
// failure is no failed build, so callers ignore the error.
func keepDerivation(file string, doc []byte) error {
	if file == "" {
		return nil
	}
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".derive-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(doc)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	keepnewest.Prune(filepath.Join(dir, "derive-*.json"), file, keptDerivations, 0)
	return nil
}
