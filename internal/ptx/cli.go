package ptx

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// RunCheck implements "gpuisa ptx check ARG [--json]": ARG is a .ptx file if
// such a file exists, else PTX instruction text. Exit status: 0 all valid,
// 1 some invalid, 2 unusable input.
func RunCheck(args []string, stdout, stderr io.Writer, instrs []Instruction) int {
	asJSON := false
	var pos []string
	for _, a := range args {
		switch a {
		case "--json", "-json":
			asJSON = true
		case "-h", "--help":
			fmt.Fprintln(stdout, "usage: gpuisa ptx check 'INSTRUCTION;' | FILE.ptx [--json]")
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
	rep := NewChecker(instrs).CheckSource(name, src)
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
		writeReport(stdout, rep)
	}
	if rep.Invalid > 0 {
		return 1
	}
	return 0
}

func writeReport(w io.Writer, rep FileReport) {
	for _, r := range rep.Results {
		loc := ""
		if rep.File != "<argument>" {
			loc = fmt.Sprintf("%s:%d: ", rep.File, r.Line)
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
		fmt.Fprintln(w)
	}
	if len(rep.Results) > 1 || rep.File != "<argument>" {
		fmt.Fprintf(w, "%d valid, %d invalid", rep.Valid, rep.Invalid)
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
