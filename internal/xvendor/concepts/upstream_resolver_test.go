package concepts

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/source/amdmanual"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// guideResolver is a Resolver over the upstream documents themselves: AMD
// mnemonics from what the guide reader finds in each ISA guide (headings,
// description tables, opcode tables), PTX mnemonics from the instruction and special-register section
// headings. It is deliberately small; the build's resolver uses the database.
type guideResolver struct {
	amd map[string]map[string]bool // arch -> mnemonic set
	ptx map[string]bool
}

func (g *guideResolver) HasAMD(arch, m string) bool { return g.amd[arch][m] }
func (g *guideResolver) HasPTX(m string) bool       { return g.ptx[m] }
func (g *guideResolver) AMDArchs(m string) []string {
	var out []string
	for _, a := range KnownArchs {
		if g.amd[a][m] {
			out = append(out, a)
		}
	}
	return out
}
func (g *guideResolver) PTXMnemonics() []string { return slices.Sorted(maps.Keys(g.ptx)) }

func (g *guideResolver) amdNames() map[string][]string {
	out := map[string][]string{}
	for a, set := range g.amd {
		out[a] = slices.Sorted(maps.Keys(set))
	}
	return out
}

// upstreamDir returns the real sources or skips the test.
func upstreamDir(t testing.TB) string { return testenv.Upstream(t) }

var (
	amdPrefix  = regexp.MustCompile(`^(S|V|DS|BUFFER|TBUFFER|FLAT|GLOBAL|SCRATCH|IMAGE|EXP|EXPORT|TENSOR|CLUSTER)(_|$)`)
	ptxHeading = regexp.MustCompile(`(?m)^#+ [0-9.]+ \[([^\]]*)\]`)
	backticked = regexp.MustCompile("`([^`]+)`")
)

func loadGuideResolver(t testing.TB, upstream string) *guideResolver {
	g := &guideResolver{amd: map[string]map[string]bool{}, ptx: map[string]bool{}}
	// The AMD names are every instruction the guide reader finds: headings,
	// description tables and microcode opcode tables.
	for arch, texts := range loadGuideTexts(t, upstream) {
		set := map[string]bool{}
		for name := range texts {
			if amdPrefix.MatchString(strings.ToUpper(name)) {
				set[name] = true
			}
		}
		g.amd[arch] = set
	}
	ptxRoot := filepath.Join(upstream, "ptx-isa-9.1")
	for _, sub := range []string{"9_instruction_set/97_instructions", "10_special_registers"} {
		err := filepath.WalkDir(filepath.Join(ptxRoot, sub), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || d.Name() == "overview.md" {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h := ptxHeading.FindStringSubmatch(string(data))
			if h == nil {
				return nil
			}
			// Instruction sections are titled "<Group>: `name`, `name`";
			// layout and background sections have no ": " before the names.
			_, names, ok := strings.Cut(h[1], ": ")
			if !ok {
				return nil
			}
			for _, m := range backticked.FindAllStringSubmatch(names, -1) {
				g.ptx[m[1]] = true
			}
			return nil
		})
		if err != nil {
			t.Fatalf("scanning PTX documentation: %v", err)
		}
	}
	if len(g.ptx) < 100 {
		t.Fatalf("found only %d PTX mnemonics under %s; the scan no longer matches the documents", len(g.ptx), ptxRoot)
	}
	return g
}

func catalogueDir() string { return filepath.Join("..", "..", "..", "concepts") }

// TestCatalogueAgainstUpstream validates the project's catalogue against the
// upstream documents: no dangling AMD or PTX references, every PTX mnemonic
// covered.
func TestCatalogueAgainstUpstream(t *testing.T) {
	up := upstreamDir(t)
	g := loadGuideResolver(t, up)
	c, err := LoadDir(catalogueDir())
	if err != nil {
		t.Fatalf("loading catalogue:\n%v", err)
	}
	errs := Validate(c, g)
	byKind := map[string]int{}
	for _, e := range errs {
		byKind[e.Kind]++
		t.Errorf("%v", e)
	}
	covered := 0
	for _, m := range g.PTXMnemonics() {
		if c.byPTX[m] != nil || c.noCP[m] != nil {
			covered++
		}
	}
	inConcept := 0
	for _, m := range g.PTXMnemonics() {
		if c.byPTX[m] != nil {
			inConcept++
		}
	}
	t.Logf("%d concepts; PTX mnemonics: %d known, %d covered (%d by a concept, %d no counterpart), %d not covered; findings by kind: %v",
		len(c.Concepts), len(g.ptx), covered, inConcept, covered-inConcept, len(g.ptx)-covered, byKind)
	if len(c.Concepts) < 120 {
		t.Errorf("catalogue has %d concepts, want at least 120", len(c.Concepts))
	}
}

func TestGuideResolverFindsKnownNames(t *testing.T) {
	g := loadGuideResolver(t, upstreamDir(t))
	cases := []struct {
		arch, name string
		want       bool
	}{
		{"cdna4", "v_max_f32", true},
		{"rdna4", "v_max_f32", false},
		{"rdna4", "v_max_num_f32", true},
		{"vega", "v_perm_b32", true},
		{"cdna3", "v_mfma_f32_32x32x8_f16", true},
		{"rdna1", "v_mfma_f32_32x32x8_f16", false},
	}
	for _, c := range cases {
		if got := g.HasAMD(c.arch, c.name); got != c.want {
			t.Errorf("HasAMD(%s, %s) = %v, want %v", c.arch, c.name, got, c.want)
		}
	}
	for _, p := range []string{"max", "prmt", "cp.async.bulk.tensor", "%laneid", "mma.sp::ordered_metadata"} {
		if !g.HasPTX(p) {
			t.Errorf("HasPTX(%q) = false", p)
		}
	}
	names := g.PTXMnemonics()
	if !sort.StringsAreSorted(names) {
		t.Error("PTXMnemonics not sorted")
	}
}

// guideTexts is Texts over the ISA guides themselves: per family and
// mnemonic, the description, pseudocode and notes the guide gives.
type guideTexts map[string]map[string]string

func (g guideTexts) AMDText(arch, m string) string { return g[arch][m] }

var (
	guideTextsOnce sync.Once
	guideTextsVal  guideTexts
	guideTextsErr  error
)

func loadGuideTexts(t testing.TB, upstream string) guideTexts {
	t.Helper()
	guideTextsOnce.Do(func() {
		g := guideTexts{}
		for _, arch := range KnownArchs {
			guide, err := amdmanual.ParseFile(filepath.Join(upstream, "amd-isa-manuals", arch, "README.md"), arch)
			if err != nil {
				guideTextsErr = err
				return
			}
			texts := map[string]string{}
			for _, e := range guide.Instructions {
				name := strings.ToLower(e.Name)
				if _, ok := texts[name]; !ok {
					texts[name] = ""
				}
				for _, part := range []string{e.Description, e.Pseudocode, e.Notes} {
					if part != "" && !strings.Contains(texts[name], part) {
						texts[name] += part + "\n"
					}
				}
			}
			g[arch] = texts
		}
		guideTextsVal = g
	})
	if guideTextsErr != nil {
		t.Fatalf("reading the ISA guides: %v", guideTextsErr)
	}
	return guideTextsVal
}
