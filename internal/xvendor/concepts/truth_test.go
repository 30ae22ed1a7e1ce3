package concepts

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// Issue 12, class 7: every restriction is true. TestCatalogueAgainstUpstream
// runs the structural checks (families, widths, types); this test holds the
// restrictions about float special cases to each family's own text and
// checks the claims about v_perm_b32's selectors against its pseudocode.
func TestRestrictionsAgainstGuideSemantics(t *testing.T) {
	up := upstreamDir(t)
	g := loadGuideResolver(t, up)
	tx := loadGuideTexts(t, up)
	c := loadProject(t)
	findings, st := AuditSemantics(c, g, tx)
	for _, f := range findings {
		t.Errorf("%v", f)
	}
	t.Logf("semantics audit: %d (relation, family) pairs checked against the guide's text, %d without text in that family", st.Checked, st.Unchecked)
	if st.Checked < 500 {
		t.Errorf("only %d pairs checked; the guide texts are not being read", st.Checked)
	}

	// The examples of the issue, each caught by its check.
	bad := map[string][]byte{"bad.yaml": []byte(`concepts:
  - id: bad-max
    name: Bad max
    description: d
    ptx: [{mnemonic: max, variants: [.f32]}]
    amd: [{mnemonic: v_max_num_f32}]
    relations:
      - {ptx: max, amd: v_max_num_f32, relation: equivalent with restrictions, variants: [.f32], restrictions: ["NaN and sNaN handling: AMD quiets a signalling NaN in IEEE mode"]}
  - id: bad-mulhi
    name: Bad mul.hi
    description: d
    ptx: [{mnemonic: mul, variants: [.hi]}]
    amd: [{mnemonic: v_mul_hi_u32}]
    relations:
      - {ptx: mul, amd: v_mul_hi_u32, relation: equivalent, variants: [.u32, .u64]}
  - id: bad-mma
    name: Bad mma
    description: d
    ptx: [{mnemonic: mma, variants: [.f16]}]
    amd: [{mnemonic: v_mfma_f32_16x16x16_f16}]
    relations:
      - {ptx: mma, amd: v_mfma_f32_16x16x16_f16, relation: partial, variants: [.f16.f16.f16.f16], restrictions: ["shape differs"]}
`)}
	bc, err := LoadFiles(bad)
	if err != nil {
		t.Fatal(err)
	}
	sem, _ := AuditSemantics(bc, g, tx)
	structural := Validate(bc, g)
	want := map[string]string{
		"bad-max":   "does not depend on MODE.IEEE",
		"bad-mulhi": "64-bit PTX operation is not one 32-bit AMD instruction",
		"bad-mma":   "works in f32, not .f16",
	}
	for id, msg := range want {
		found := false
		for _, f := range append(sem, structural...) {
			if strings.Contains(f.Msg, "concept "+id+":") && strings.Contains(f.Msg, msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("the checks miss the issue's example %s (%q)", id, msg)
		}
	}

	checkPermSelectors(t, c, g, tx)
}

var (
	// "elsif sel.u32 == 11U then return in[7][7].b8 * 8'0xff" and the older
	// "elsif(sel==11) then return in[7][7] * 0xff".
	permSignSel = regexp.MustCompile(`sel(?:\.u32|\.u)?\s*==\s*(\d+)U?\)?\s*then\s*return in\[(\d)\]\[7\]`)
	numberList  = regexp.MustCompile(`\b\d+\b`)
)

// checkPermSelectors derives from v_perm_b32's pseudocode in every family
// which source bytes a selector can sign-replicate, and requires the prmt
// relation to name exactly those bytes and selector values: PTX replicates
// the sign of any byte, AMD only of some.
func checkPermSelectors(t *testing.T, c *Catalogue, g *guideResolver, tx guideTexts) {
	var rel *Relation
	for _, k := range c.Concepts {
		for i := range k.Relations {
			if k.Relations[i].PTX == "prmt" && k.Relations[i].AMD == "v_perm_b32" {
				rel = &k.Relations[i]
			}
		}
	}
	if rel == nil {
		t.Fatal("no prmt <-> v_perm_b32 relation")
	}
	var claim string
	for _, r := range rel.Restrictions {
		if strings.Contains(strings.ToLower(r), "sign") {
			claim = r
		}
	}
	if claim == "" {
		t.Fatalf("prmt <-> v_perm_b32 says nothing about sign replication: %q", rel.Restrictions)
	}
	// The claim names the bytes ("bytes 1, 3, 5 and 7") and the selector
	// values ("selectors 8-11").
	bytesPart, selPart, _ := strings.Cut(strings.ToLower(claim), "selector")
	claimedBytes := numbersIn(bytesPart)
	for _, f := range g.AMDArchs("v_perm_b32") {
		text := tx.AMDText(f, "v_perm_b32")
		ms := permSignSel.FindAllStringSubmatch(text, -1)
		if len(ms) == 0 {
			t.Errorf("%s: v_perm_b32's pseudocode names no sign-replicating selector; the check no longer reads it", f)
			continue
		}
		var bytes, sels []int
		for _, m := range ms {
			s, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			sels, bytes = append(sels, s), append(bytes, b)
		}
		sort.Ints(bytes)
		sort.Ints(sels)
		if !slices.Equal(claimedBytes, bytes) {
			t.Errorf("%s: v_perm_b32 sign-replicates bytes %v; the prmt restriction %q names bytes %v", f, bytes, claim, claimedBytes)
		}
		if lo, hi := strconv.Itoa(sels[0]), strconv.Itoa(sels[len(sels)-1]); !strings.Contains(selPart, lo+"-"+hi) && !strings.Contains(selPart, lo+" to "+hi) {
			t.Errorf("%s: v_perm_b32's sign selectors are %v; the restriction %q does not name %s-%s", f, sels, claim, lo, hi)
		}
	}
}

func numbersIn(s string) []int {
	var out []int
	for _, n := range numberList.FindAllString(s, -1) {
		v, _ := strconv.Atoi(n)
		out = append(out, v)
	}
	sort.Ints(out)
	return out
}

var (
	proposalVerdictsOnce sync.Once
	proposalVerdicts     *VerdictTable
	proposalVerdictsErr  error
)

// familyTargets maps each AMD family to its gfx targets.
func familyTargets() map[string][]string {
	out := map[string][]string{}
	for _, a := range isa.Archs() {
		if a.Vendor == isa.VendorAMD {
			out[a.ID] = a.Targets
		}
	}
	return out
}

// assembleProposals runs llvm-mc on every line the catalogue proposes, on
// every gfx target of every family (cached like the build's runs).
func assembleProposals(t *testing.T, c *Catalogue) *VerdictTable {
	t.Helper()
	llvmMC := testenv.LLVMMC(t)
	proposalVerdictsOnce.Do(func() {
		var targets []string
		for _, a := range isa.Archs() {
			targets = append(targets, a.Targets...)
		}
		lines := ProposedLines(c)
		inputs := make([]verify.Input, len(lines))
		for i, l := range lines {
			inputs[i] = verify.Input{Asm: l}
		}
		cache := ""
		if d, err := os.UserCacheDir(); err == nil {
			cache = filepath.Join(d, "gpuisa")
		}
		res, err := verify.Run(context.Background(), inputs, targets, verify.Options{LLVMMC: llvmMC, CacheDir: cache})
		if err != nil {
			proposalVerdictsErr = err
			return
		}
		v := NewVerdictTable(res.Version, targets)
		for i, l := range lines {
			for j, tg := range res.Targets {
				o := res.Outcomes[i][j]
				msg := ""
				if !o.Supported {
					msg = o.Error
					if msg == "" {
						msg = "rejected"
					}
				}
				v.SetLine(l, tg, msg)
			}
		}
		proposalVerdicts = v
	})
	if proposalVerdictsErr != nil {
		t.Fatal(proposalVerdictsErr)
	}
	return proposalVerdicts
}

// Issue 12, class 8: what port proposes assembles. Every relation in force
// on a family offers, on each of the family's gfx targets, a form or a
// sequence llvm-mc accepts; every form assembles somewhere the relation
// applies; and the examples come out as they should.
func TestProposalsAssemble(t *testing.T) {
	up := upstreamDir(t)
	g := loadGuideResolver(t, up)
	c := loadProject(t)
	v := assembleProposals(t, c)
	fams := familyTargets()
	checked := 0
	// Per gfx target: forms port drops there, and sequence steps it does
	// with another alternative than the first.
	dropped, replaced := map[string]int{}, map[string]int{}
	for _, k := range c.Concepts {
		for _, rel := range k.Relations {
			if rel.Kind != Sequence && len(rel.Forms) == 0 {
				continue // a bare member: its own examples are verified by the build
			}
			m, _ := k.amdMember(rel.AMD)
			formSeen := map[string]bool{}
			for _, f := range g.AMDArchs(rel.AMD) {
				if !rel.AppliesOn(f, m) {
					continue
				}
				cp := counterpart(k, rel, m, Target{Arch: f, GFX: fams[f], Resolver: g, Verdicts: v})
				var rejectedOn []string
				for _, chk := range cp.Checks {
					checked++
					if chk.Status == Rejected {
						rejectedOn = append(rejectedOn, chk.Target)
					} else {
						dropped[chk.Target] += len(chk.Rejected)
					}
					seq := chk.Sequence
					if seq == nil {
						seq = cp.Sequence
					}
					for i, step := range rel.Sequence {
						if i < len(seq) && seq[i] != step.Alternatives[0] {
							replaced[chk.Target]++
						}
					}
				}
				if len(rejectedOn) > 0 {
					t.Errorf("%s:%d: concept %s: %s <-> %s applies on %s, but llvm-mc rejects it on %s: %s", rel.Pos.File, rel.Pos.Line, k.ID, rel.PTX, rel.AMD, f,
						strings.Join(rejectedOn, " "), rejections(cp.Checks[0].Rejected))
				}
				for _, form := range cp.Forms {
					formSeen[form] = true
				}
			}
			for _, form := range rel.Forms {
				if !formSeen[form] {
					t.Errorf("%s:%d: concept %s: form %q assembles on no target where %s <-> %s applies", rel.Pos.File, rel.Pos.Line, k.ID, form, rel.PTX, rel.AMD)
				}
			}
		}
	}
	t.Logf("%d proposed lines assembled on %d targets; %d (relation, target) pairs with forms or sequences checked", len(v.Lines), len(v.Targets), checked)
	for _, tg := range v.Targets {
		t.Logf("%s: %d example forms dropped (rejected there), %d sequence steps done with a later alternative", tg, dropped[tg], replaced[tg])
	}

	// The examples: no DPP row_xmask on gfx942, and NaN-propagating
	// max on gfx942 as a sequence that assembles.
	gfx942 := Target{Arch: "cdna3", GFX: []string{"gfx942"}, Resolver: g, Verdicts: v}
	res := Port(c, "shfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;", gfx942)
	for _, cp := range res.Counterparts {
		for _, f := range append(cp.Forms, cp.Sequence...) {
			if strings.Contains(f, "row_xmask") {
				t.Errorf("shfl.sync.bfly on gfx942 proposes %q, which llvm-mc rejects there", f)
			}
		}
	}
	if len(res.Counterparts) == 0 {
		t.Errorf("shfl.sync.bfly on gfx942: no counterpart (%s)", res.Gap)
	}
	res = Port(c, "max.NaN.f32 %f1, %f2, %f3;", gfx942)
	if len(res.Counterparts) != 1 || res.Counterparts[0].Relation != Sequence || res.Counterparts[0].Checks[0].Status != Assembles {
		t.Errorf("max.NaN.f32 on gfx942: want one sequence that assembles, got %+v (gap %q)", res.Counterparts, res.Gap)
	}
	for _, tc := range []struct{ instr, arch, gfx, amd string }{
		{"max.NaN.f32 %f1, %f2, %f3;", "rdna4", "gfx1200", "v_maximum_f32"},
		{"max.NaN.f32 %f1, %f2, %f3;", "cdna4", "gfx950", "v_maximum3_f32"},
		{"mul.hi.u64 %rd1, %rd2, %rd3;", "cdna3", "gfx942", "v_mul_hi_u32"},
	} {
		res := Port(c, tc.instr, Target{Arch: tc.arch, GFX: []string{tc.gfx}, Resolver: g, Verdicts: v})
		if got := amdOf(res.Counterparts); len(got) == 0 || got[0] != tc.amd {
			t.Errorf("%s on %s: %v, want %s first", tc.instr, tc.gfx, got, tc.amd)
		}
		if tc.amd == "v_mul_hi_u32" && res.Counterparts[0].Relation != Sequence {
			t.Errorf("mul.hi.u64 -> v_mul_hi_u32 is %q; a 64-bit high product is a sequence of 32-bit steps", res.Counterparts[0].Relation)
		}
	}
}

func rejections(rs []Rejection) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, strconv.Quote(r.Line)+" ("+firstLine(r.Message)+")")
	}
	return strings.Join(parts, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
