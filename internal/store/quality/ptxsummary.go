package quality

import (
	"io"
	"strings"
)

// WritePTXSummary writes what ptxas said about the PTX documentation in a
// few lines: tools, forms, example statements and the disagreements.
func WritePTXSummary(w io.Writer, r *PTXReport) error {
	ew := &errWriter{w: w}
	if r == nil {
		ew.printf("PTX: no report.\n")
		return ew.err
	}
	if !r.Verified {
		ew.printf("PTX: not verified by ptxas.\n")
		for _, n := range r.Notes {
			ew.printf("Note: %s\n", n)
		}
		return ew.err
	}
	ew.printf("PTX verified with %s on %d sm_ targets (%s ... %s), PTX ISA %s.\n", strings.Join(toolNames(r.Tools), " and "),
		len(r.Targets), first(r.Targets), last(r.Targets), r.DocVersion)
	ew.printf("%d statements; %d ptxas processes, %d kernels assembled, %d from the cache; %d needed another operand typing.\n",
		r.Run.Statements, r.Run.Processes, r.Run.Assembled, r.Run.CacheHits, r.Run.Searched)
	ew.printf("Forms: %d — %d verified, %d rejected by ptxas, %d not verified; %d show ptxas's version or target instead of the documentation's.\n",
		r.Forms, r.FormsVerified, r.FormsRejected, r.FormsNotVerified, r.FormsCorrected)
	ew.printf("Example statements: %d — %d accepted in their documented context.\n", r.ExampleStatements, r.ExamplesAccepted)
	ew.printf("Documentation too strict: %d; too loose: %d; example errata: %d.\n", len(r.TooStrict), len(r.TooLoose), len(r.Errata))
	for _, n := range r.Notes {
		ew.printf("Note: %s\n", n)
	}
	return ew.err
}

// toolNames keeps "ptxas 13.5.37" of each tool's description.
func toolNames(tools []string) []string {
	var out []string
	for _, t := range tools {
		if f := strings.Fields(t); len(f) >= 2 && f[0] == "ptxas" {
			out = append(out, f[0]+" "+f[1])
		}
	}
	return out
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}
