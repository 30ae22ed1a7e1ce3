package web

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/testing/realdb"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// ptxasDB is the real database built with NVIDIA's assembler:
// GPUISA_PTXAS_DB, else one built once from the upstream sources with the
// installed ptxas, shared with the other test binaries. The llvm-mc and ptxas caches make
// a rebuild take seconds.
var ptxasDB = realdb.DB{Env: "GPUISA_PTXAS_DB"}

// ptxasServer serves that database, or skips the test without ptxas or
// the upstream sources.
func ptxasServer(t *testing.T) *server {
	t.Helper()
	if os.Getenv(ptxasDB.Env) == "" {
		testenv.PTXAS(t)
		testenv.Upstream(t)
	}
	// The tools the build finds itself are the ones testenv found: the same
	// options as the language server's tests, so both share one build.
	path, err := ptxasDB.Path(ingest.Options{NoInstall: true})
	if err != nil {
		t.Fatalf("building the database with ptxas: %v", err)
	}
	return testServer(t, realdb.Open(t, path), Options{CacheBytes: -1})
}

// TestPTXPagesShowPTXASRealDB: on a database built with ptxas, /ptx/max
// has the ptxas grid, .NaN needs PTX 7.0 and sm_80, three-input max needs
// sm_100, and a SASS listing names FMNMX; /quality lists the PTX findings.
func TestPTXPagesShowPTXASRealDB(t *testing.T) {
	s := ptxasServer(t)
	doc := mustPage(t, s, "/ptx/max")

	grid := gridItems(t, doc)
	if len(grid) < 30 {
		t.Fatalf("the ptxas grid has %d targets", len(grid))
	}
	var targets []string
	for _, li := range grid {
		target := text(findAll(li, tag("code"))[0])
		targets = append(targets, target)
		if !hasClass(li, "t-supported") {
			t.Errorf("max is not supported on %s: %q", target, attr(li, "title"))
		}
	}
	if targets[0] != "sm_50" || !slices.Contains(targets, "sm_90a") || !slices.Contains(targets, "sm_120") {
		t.Errorf("grid targets %q", targets)
	}

	wantText(t, "max .f32 form", formRowOf(t, doc, "max{.ftz}{.NaN}{.xorsign.abs}.f32 d, a, b;"),
		".NaN requires PTX 7.0, sm_80", ".xorsign.abs requires PTX 7.2, sm_86", "every target")
	three := formRowOf(t, doc, "max{.ftz}{.NaN}{.abs}.f32 d, a, b, c;")
	wantText(t, "three-input max", three, "sm_100 ptxas", "sm_100 and newer", "✓ verified as max.f32 d, a, b, c;")

	sass := text(section(t, doc, "sass"))
	wantText(t, "max SASS", sass, "FMNMX", "max.NaN.f32", "forms[].check.sass")
	// The SASS page has every statement the page leaves out.
	all := text(section(t, mustPage(t, s, "/ptx/max/sass"), "sass"))
	wantText(t, "max SASS page", all, "FMNMX.NAN", "FMNMX.FTZ", "max.NaN.f32", "IMNMX.U32")
	for _, target := range []string{"sm_75", "sm_80", "sm_90", "sm_100", "sm_120"} {
		if !strings.Contains(sass, "SASS on "+target) {
			t.Errorf("no SASS tab for %s", target)
		}
	}
	ex := text(section(t, doc, "examples"))
	wantText(t, "max examples", ex, "accepted from sm_80 · PTX 7.0", "accepted from sm_86 · PTX 7.2")

	q := section(t, mustPage(t, s, "/quality"), "ptx")
	wantText(t, "/quality PTX", text(q), "ptxas 13.", "Documentation too strict", "Documentation too loose", "documentation errata", "Forms ptxas rejects",
		"ptxas's facts beyond the documents")
	// ptxas's facts the checker follows are shown where they apply, as
	// ptxas's, with the documents' text beside them.
	set := text(section(t, mustPage(t, s, "/ptx/set"), "sources"))
	wantText(t, "/ptx/set", set, "syntax ptxas assembles beyond the documents", "corrected by ptxas", "has no .bf16", "set.eq.bf16.bf16")
	if !slices.Contains(hrefs(q), "/quality/ptx") {
		t.Error("/quality does not link /quality/ptx")
	}
	if rec := get(t, s, "/quality/ptx"); rec.Code != 200 {
		t.Errorf("/quality/ptx: %d", rec.Code)
	}
}
