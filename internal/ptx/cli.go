package ptx

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// CheckUsage is "ptx check"'s usage with every flag it takes.
const CheckUsage = `usage: gpuisa ptx check 'INSTRUCTION;' | FILE.ptx [flags]

Flags:
  --target sm_XX[,sm_YY]  judge as assembled for these targets (in place of the file's .target);
                          a statement that needs a later target is invalid there
  --ptxas                 also run NVIDIA's ptxas on the input and report its verdict
  --json                  write the report as JSON
  --db FILE               the database to read (default: the installed one)
  -h, --help              this help`

// RunCheck implements "gpuisa ptx check ARG [--json]": ARG is a .ptx file if
// such a file exists, else PTX instruction text. Each of targets (none: the
// file's own .target) is checked in turn. Exit status: 0 all valid, 1 some
// invalid (also where a statement needs a later target or version than the
// file's or --target's), 2 unusable input.
func RunCheck(args []string, stdout, stderr io.Writer, instrs []Instruction, targets ...string) int {
	asJSON := false
	var pos []string
	for _, a := range args {
		switch a {
		case "--json", "-json":
			asJSON = true
		case "-h", "--help":
			fmt.Fprintln(stdout, CheckUsage)
			return 0
		default:
			if strings.HasPrefix(a, "--") {
				fmt.Fprintf(stderr, "ptx check: unknown flag %s\n", a)
				return 2
			}
			pos = append(pos, a)
		}
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "ptx check: want one argument: an instruction in quotes or a .ptx file")
		return 2
	}
	if len(instrs) == 0 {
		fmt.Fprintln(stderr, "ptx check: no PTX instructions in the database")
		return 2
	}
	arg := pos[0]
	name, src := "<argument>", arg
	if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		data, err := os.ReadFile(arg)
		if err != nil {
			fmt.Fprintf(stderr, "ptx check: %v\n", err)
			return 2
		}
		name, src = arg, string(data)
	} else if !strings.ContainsAny(arg, " \t;") && strings.HasSuffix(arg, ".ptx") {
		fmt.Fprintf(stderr, "ptx check: %s: no such file\n", arg)
		return 2
	}
	for _, t := range targets {
		if ptxorder.TargetNumber(t) < 0 {
			fmt.Fprintf(stderr, "ptx check: --target %s: not an sm_ target\n", t)
			return 2
		}
	}
	if len(targets) == 0 {
		targets = []string{""}
	}
	checker, code := NewChecker(instrs), 0
	for _, t := range targets {
		rep := checker.CheckFile(name, src, t)
		if len(rep.Results) == 0 {
			fmt.Fprintf(stderr, "ptx check: %s: no instruction found\n", name)
			return 2
		}
		if asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(rep); err != nil {
				fmt.Fprintf(stderr, "ptx check: %v\n", err)
				return 2
			}
		} else {
			if len(targets) > 1 {
				fmt.Fprintf(stdout, "target %s:\n", t)
			}
			writeReport(stdout, rep)
		}
		if rep.Invalid > 0 || len(rep.Header) > 0 {
			code = 1
		}
	}
	return code
}

func writeReport(w io.Writer, rep FileReport) {
	for _, h := range rep.Header {
		fmt.Fprintf(w, "%s: invalid: %s\n", rep.File, h)
	}
	for _, r := range rep.Results {
		loc := ""
		if rep.File != "<argument>" {
			loc = fmt.Sprintf("%s:%d: ", rep.File, r.Line)
		}
		if r.Unjudged {
			fmt.Fprintf(w, "%snot judged: %s: %s\n", loc, r.Text, r.Reason)
			continue
		}
		if !r.Valid {
			fmt.Fprintf(w, "%sinvalid: %s: %s\n", loc, r.Text, r.Reason)
			continue
		}
		if len(r.Alternatives) > 1 && rep.File == "<argument>" {
			parts := make([]string, len(r.Alternatives))
			for i, o := range r.Alternatives {
				parts[i] = "PTX ISA " + orUnknown(o.PTXVersion) + " with " + orUnknown(o.MinTarget)
			}
			fmt.Fprintf(w, "%svalid: %s: %s", loc, r.Text, strings.Join(parts, ", or "))
		} else {
			fmt.Fprintf(w, "%svalid: %s: PTX ISA %s, %s", loc, r.Text, orUnknown(r.PTXVersion), orUnknown(r.MinTarget))
		}
		if len(r.RaisedBy) > 0 {
			fmt.Fprintf(w, " (because of %s)", strings.Join(r.RaisedBy, ", "))
		}
		if rm := r.RemovedFrom; rm != nil {
			fmt.Fprintf(w, "; not supported on %s and higher from PTX ISA %s", rm.MinTarget, rm.PTXVersion)
		}
		fmt.Fprintln(w)
	}
	if len(rep.Results) > 1 || rep.File != "<argument>" {
		fmt.Fprintf(w, "%d valid, %d invalid", rep.Valid, rep.Invalid)
		if rep.Unjudged > 0 {
			fmt.Fprintf(w, ", %d not judged", rep.Unjudged)
		}
		if rep.NeedsVersion != "" || rep.NeedsTarget != "" {
			fmt.Fprintf(w, "; needs PTX ISA %s%s, %s%s", orUnknown(rep.NeedsVersion), linesOf(rep.VersionLines),
				orUnknown(rep.NeedsTarget), linesOf(rep.TargetLines))
		}
		fmt.Fprintln(w)
	}
	for _, warn := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
}

// linesOf writes " (lines 3, 7)", nothing for no lines.
func linesOf(lines []int) string {
	if len(lines) == 0 {
		return ""
	}
	return " (lines " + joinInts(lines) + ")"
}

func orUnknown(s string) string {
	if s == "" {
		return "not stated in the docs"
	}
	return s
}
