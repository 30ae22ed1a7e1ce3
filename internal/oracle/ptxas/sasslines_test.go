package ptxas

import (
	"regexp"
	"strings"
	"testing"
)

// The expressions the hand-written readers implement (sasslines.go).
var (
	sectionExpr = regexp.MustCompile(`^\s*\.section\s+\.text\.([A-Za-z_$][\w$]*),`)
	instrExpr   = regexp.MustCompile(`^\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;?\s*/\*\s*(0x[0-9a-f]+)\s*\*/\s*$`)
	hexOnlyExpr = regexp.MustCompile(`^\s*/\*\s*(0x[0-9a-f]+)\s*\*/\s*$`)
)

var listingLines = []string{
	"\t.section\t.text.gpuisa_u1,\"ax\",@progbits",
	"  .section .text.$__internal_0_$__cuda_sm20_div_rn_f64_full,\"ax\"",
	".section .text.9bad,",
	".section .text.ok",
	".section.text.x,",
	"        /*0010*/                   LDC.64 R4, c[0x4][0x10] ;         /* 0x01000400ff047b82 */",
	"        /*0000*/                   MOV R1, c[0x0][0x28] ;  /* 0x00000a0000017a02 */  ",
	"                                                                             /* 0x000fe40000000f00 */",
	"  /* 0x000fe40000000f00 */ x",
	"/*0020*/ @!P0 BRA `(.L_x_0) ;; /* 0x0000000000008947 */",
	"/*0030*/ EXIT ; /*0x000000000000794d*/",
	"/*003*/ EXIT ; /* 0x1 */",
	"/*0040*/EXIT ; /* 0x1 */",
	"/*0050*/ /* 0x1 */",
	"/*0060*/ NOP /* 0x */",
	"/*0070*/ A /* 0x1 */ B /* 0x2 */",
	"/*0080*/ FOO ; /* 0X1 */",
	"",
	"/*",
	".L_x_3:",
}

func TestListingReadersMatchTheirExpressions(t *testing.T) {
	for _, l := range listingLines {
		checkListingLine(t, l)
	}
}

func FuzzListingLines(f *testing.F) {
	for _, l := range listingLines {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if strings.ContainsAny(l, "\n") {
			return // the scanner splits lines
		}
		checkListingLine(t, l)
	})
}

func checkListingLine(t *testing.T, l string) {
	t.Helper()
	name, ok := sectionName(l)
	if m := sectionExpr.FindStringSubmatch(l); (m != nil) != ok || ok && m[1] != name {
		t.Errorf("sectionName(%q) = %q, %v; the expression: %q", l, name, ok, m)
	}
	text, enc, ok := instructionLine(l)
	if m := instrExpr.FindStringSubmatch(l); (m != nil) != ok || ok && (strings.TrimSpace(m[1]) != text || m[2] != enc) {
		t.Errorf("instructionLine(%q) = %q, %q, %v; the expression: %q", l, text, enc, ok, m)
	}
	word, ok := encodingLine(l)
	if m := hexOnlyExpr.FindStringSubmatch(l); (m != nil) != ok || ok && m[1] != word {
		t.Errorf("encodingLine(%q) = %q, %v; the expression: %q", l, word, ok, m)
	}
}

// TestNormaliseRenamesTheKernelInDerivedNames: the kernel's place in its
// batch also ends the names ptxas derives from it, which must read as the
// kernel alone, gpuisa_u0; other kernels' names stay.
func TestNormaliseRenamesTheKernelInDerivedNames(t *testing.T) {
	in := []SASSLine{{Text: "CALL.REL.NOINC `($gpuisa_u18$init_gpuisa_u18)"}, {Text: "MOV R2, gpuisa_u3"}}
	got := normalise(in, "gpuisa_u18")
	if got[0].Text != "CALL.REL.NOINC `($gpuisa_u0$init_gpuisa_u0)" || got[1].Text != "MOV R2, gpuisa_u3" {
		t.Errorf("normalise: %q, %q", got[0].Text, got[1].Text)
	}
}
