// Package ptxorder is the PTX model's order of PTX ISA versions and sm_
// targets, and the versions NVIDIA has released: the checker
// (internal/ptx), the pages, the language server, the family diffs and the
// ptxas runner all order them here. It is a leaf so the tool runner can
// use it without the model (whose tests find ptxas through the runner).
package ptxorder

import (
	"sort"
	"strconv"
	"strings"
)

// CompareTargets orders sm_ targets by number, then plain < "f"
// (family-specific) < "a" (architecture-specific) at the same number; ""
// and unparsable names sort first.
func CompareTargets(a, b string) int {
	na, sa := targetKey(a)
	nb, sb := targetKey(b)
	if na != nb {
		return cmpInt(na, nb)
	}
	return cmpInt(sa, sb)
}

// TargetNumber returns 90 for "sm_90a", -1 when t is not an sm_ target.
func TargetNumber(t string) int { n, _ := targetKey(t); return n }

// TargetSuffix returns "a", "f" or "" for an sm_ target.
func TargetSuffix(t string) string {
	switch _, s := targetKey(t); s {
	case 1:
		return "f"
	case 2:
		return "a"
	}
	return ""
}

func targetKey(t string) (num, suffix int) {
	rest, ok := strings.CutPrefix(t, "sm_")
	if !ok {
		rest, ok = strings.CutPrefix(t, "sm")
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if !ok || i == 0 {
		return -1, 0
	}
	num, _ = strconv.Atoi(rest[:i])
	switch rest[i:] {
	case "f":
		suffix = 1
	case "a":
		suffix = 2
	}
	return num, suffix
}

// SortTargets sorts targets oldest first.
func SortTargets(ts []string) {
	sort.SliceStable(ts, func(i, j int) bool { return CompareTargets(ts[i], ts[j]) < 0 })
}

// CompareVersions orders PTX ISA versions "1.0" < "7.0" < "8.10"; "" first.
func CompareVersions(a, b string) int {
	ma, na := versionKey(a)
	mb, nb := versionKey(b)
	if ma != mb {
		return cmpInt(ma, mb)
	}
	return cmpInt(na, nb)
}

func versionKey(v string) (major, minor int) {
	if v == "" {
		return -1, 0
	}
	a, b, _ := strings.Cut(v, ".")
	major, _ = strconv.Atoi(a)
	minor, _ = strconv.Atoi(b)
	return major, minor
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// KnownPTXVersions are the PTX ISA versions NVIDIA has released, oldest
// first; a ptxas accepts those up to its MaxPTX (and the ptxas runner
// probes which ones a target allows).
var KnownPTXVersions = []string{
	"1.0", "1.1", "1.2", "1.3", "1.4", "1.5",
	"2.0", "2.1", "2.2", "2.3",
	"3.0", "3.1", "3.2",
	"4.0", "4.1", "4.2", "4.3",
	"5.0",
	"6.0", "6.1", "6.2", "6.3", "6.4", "6.5",
	"7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8",
	"8.0", "8.1", "8.2", "8.3", "8.4", "8.5", "8.6", "8.7", "8.8",
	"9.0", "9.1", "9.2", "9.3", "9.4", "9.5",
}

// VersionsUpTo returns the known versions not newer than max.
func VersionsUpTo(max string) []string {
	var out []string
	for _, v := range KnownPTXVersions {
		if CompareVersions(v, max) <= 0 {
			out = append(out, v)
		}
	}
	return out
}
