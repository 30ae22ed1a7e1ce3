package famdiff

import "github.com/gpuisa/gpuisa/internal/isa"

// Line is one product line of AMD families, oldest generation first.
type Line struct {
	Name     string   // "RDNA", "CDNA", "GCN"
	Families []string // family ids, oldest first
}

// Lines are AMD's lines (isa.Lines, with isa.LineFamilies): each
// family's previous generation is the one before it in its line (CDNA 1
// and RDNA 1 begin theirs).
var Lines = func() []Line {
	var out []Line
	for _, l := range isa.Lines() {
		out = append(out, Line{Name: l.Name, Families: isa.LineFamilies(l.ID)})
	}
	return out
}()

// LineOf returns the line of a family and its place in it.
func LineOf(arch string) (Line, int, bool) {
	for _, l := range Lines {
		for i, f := range l.Families {
			if f == arch {
				return l, i, true
			}
		}
	}
	return Line{}, 0, false
}

// Previous returns the previous generation of the same line, "" for the
// first of a line or a family in none.
func Previous(arch string) string {
	l, i, ok := LineOf(arch)
	if !ok || i == 0 {
		return ""
	}
	return l.Families[i-1]
}

// Next returns the next generation of the same line, "" for the newest.
func Next(arch string) string {
	l, i, ok := LineOf(arch)
	if !ok || i == len(l.Families)-1 {
		return ""
	}
	return l.Families[i+1]
}

// Span is where an instruction appears within one line: its first and
// last family (by this name or a renamed one), and whether it is still in
// the line's newest family.
type Span struct {
	Line        string `json:"line"`
	First       string `json:"first"`
	FirstName   string `json:"first_name"` // the mnemonic there
	Last        string `json:"last"`
	LastName    string `json:"last_name"`
	StillNewest bool   `json:"still_newest"`
}

// Spans says, per line, where an instruction first and last appears,
// from its own family and its links to the others (in.Related, renames
// included).
func Spans(in *isa.Instruction) []Span {
	names := map[string]string{in.Arch: in.Name}
	for _, rel := range in.Related {
		names[rel.Arch] = rel.Name
	}
	var out []Span
	for _, l := range Lines {
		var sp Span
		for _, f := range l.Families {
			n, ok := names[f]
			if !ok {
				continue
			}
			if sp.First == "" {
				sp.First, sp.FirstName = f, n
			}
			sp.Last, sp.LastName = f, n
		}
		if sp.First == "" {
			continue
		}
		sp.Line = l.Name
		sp.StillNewest = sp.Last == l.Families[len(l.Families)-1]
		out = append(out, sp)
	}
	return out
}

// Novelty says which of a family's instructions its previous generation
// lacks (New) and which it renamed (Renamed: new name -> old name), from
// the diff of the two.
type Novelty struct {
	Previous string            // the previous family's id
	New      map[string]bool   // names the previous generation does not have
	Renamed  map[string]string // this family's name -> the previous family's
}

// NoveltyOf computes a family's novelty against its previous generation,
// given the diff from that generation to it.
func NoveltyOf(r *Result) Novelty {
	n := Novelty{Previous: r.From.ID, New: map[string]bool{}, Renamed: map[string]string{}}
	for _, it := range r.Added {
		n.New[it.Name] = true
	}
	for _, rn := range r.Renamed {
		n.Renamed[rn.To] = rn.From
	}
	return n
}
