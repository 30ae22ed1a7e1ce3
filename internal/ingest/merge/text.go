package merge

import (
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// Why a description is borrowed (isa.TextSource.Why).
const (
	WhyPseudocodeOnly = "pseudocode only"
	WhyFragment       = "a fragment"
	// WhyNoText: the guide gives neither a description nor pseudocode (its
	// opcode tables list the instruction, but no section documents it).
	WhyNoText = "no description or pseudocode"
)

// familyLinks are the AMD families as generations descend from each
// other (isa.ArchInfo.Parents): GCN 5 (Vega) to CDNA and to RDNA, RDNA 4
// and CDNA 4 to CDNA 5. Each family links first to the families of its
// own side (rdnaSide), then to the others; parents before children
// (oldest first).
// The nearest family of another is found by walking these links, the
// CDNA line first.
var familyLinks = func() map[string][]string {
	var own, other = map[string][]string{}, map[string][]string{}
	link := func(a, b isa.ArchInfo) {
		if rdnaSide(a.ID) == rdnaSide(b.ID) {
			own[a.ID] = append(own[a.ID], b.ID)
		} else {
			other[a.ID] = append(other[a.ID], b.ID)
		}
	}
	archs := isa.Archs()
	for _, a := range archs {
		for _, p := range a.Parents {
			link(a, isa.MustArch(p))
		}
	}
	for i := len(archs) - 1; i >= 0; i-- {
		for _, p := range archs[i].Parents {
			link(isa.MustArch(p), archs[i])
		}
	}
	links := map[string][]string{}
	for _, a := range archs {
		if a.Vendor == isa.VendorAMD {
			links[a.ID] = append(own[a.ID], other[a.ID]...)
		}
	}
	return links
}()

// rdnaSide splits the families in two for the walk: RDNA, and CDNA with
// Vega before it.
func rdnaSide(arch string) bool { return isa.MustArch(arch).Line == isa.LineRDNA }

// nearestFamilies lists the other families by distance from arch along
// familyLinks, nearest first; at equal distance, families of arch's own
// side (CDNA, with Vega before it; or RDNA) come first.
func nearestFamilies(arch string) []string {
	dist := map[string]int{arch: 0}
	queue := []string{arch}
	var out []string
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, b := range familyLinks[a] {
			if _, seen := dist[b]; !seen {
				dist[b] = dist[a] + 1
				out = append(out, b)
				queue = append(queue, b)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if dist[out[i]] != dist[out[j]] {
			return dist[out[i]] < dist[out[j]]
		}
		return rdnaSide(out[i]) == rdnaSide(arch) && rdnaSide(out[j]) != rdnaSide(arch)
	})
	return out
}

// AMDLookup indexes the AMD instructions of insts by family and name; the
// lookup returns nil for a name the family lacks.
func AMDLookup(insts []*isa.Instruction) func(arch, name string) *isa.Instruction {
	byKey := map[[2]string]*isa.Instruction{}
	for _, in := range insts {
		if in.Vendor == isa.VendorAMD {
			byKey[[2]string{in.Arch, in.Name}] = in
		}
	}
	return func(arch, name string) *isa.Instruction { return byKey[[2]string{arch, name}] }
}

// BorrowDescriptions gives each AMD instruction whose own guide has no
// description (the older guides often give only pseudocode, which then
// served as the summary), or only a fragment of one (text recovered after
// a heading lost at a page break, "…EXEC mask."), the description of the same instruction — the
// same lineage (Related, so renames count) — from the nearest family whose
// guide has one, and records where it came from (DescriptionFrom). Only
// text from an AMD guide is lent. It returns how many it filled; call it
// after LinkFamilies.
func BorrowDescriptions(insts []*isa.Instruction) int {
	amd := AMDLookup(insts)
	lender := func(in *isa.Instruction) (isa.Prov, bool) {
		if in.Description == "" || in.DescriptionFrom != nil {
			return isa.Prov{}, false
		}
		for _, p := range in.Sources {
			if p.Source == isa.SourceAMDManual {
				return p, true
			}
		}
		return isa.Prov{}, false
	}
	n := 0
	for _, in := range insts {
		why := ""
		switch {
		case in.Vendor != isa.VendorAMD:
			continue
		case in.Description == "" && in.Semantics == "":
			why = WhyNoText
		case in.Description == "":
			why = WhyPseudocodeOnly
		case strings.HasPrefix(in.Description, "…"):
			why = WhyFragment // recovered after a lost heading: the guide's text is cut
		default:
			continue
		}
		if _, own := lender(&isa.Instruction{Description: "x", Sources: in.Sources}); !own {
			continue // not from an AMD guide (an LLVM-only instruction)
		}
		related := map[string]string{}
		for _, r := range in.Related {
			related[r.Arch] = r.Name
		}
		for _, arch := range nearestFamilies(in.Arch) {
			name, ok := related[arch]
			if !ok {
				continue
			}
			from := amd(arch, name)
			if from == nil {
				continue
			}
			prov, ok := lender(from)
			if !ok {
				continue
			}
			in.Description = from.Description
			in.DescriptionFrom = &isa.TextSource{Arch: arch, Name: name, Prov: prov, Why: why}
			in.Summary = FirstSentence(from.Description)
			n++
			break
		}
	}
	return n
}

// PointToSemantics notes, for each AMD instruction whose own guide gives
// no pseudocode, the nearest family where the same instruction (its
// lineage, Related, under the same name) has some (SemanticsElsewhere):
// the page says where it is instead of borrowing it, as one guide's
// pseudocode is not another's. It returns how many it noted; call it
// after LinkFamilies.
func PointToSemantics(insts []*isa.Instruction) int {
	amd := AMDLookup(insts)
	n := 0
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD || in.Semantics != "" || in.SemanticsElsewhere != nil {
			continue
		}
		related := map[string]string{}
		for _, r := range in.Related {
			related[r.Arch] = r.Name
		}
		for _, arch := range nearestFamilies(in.Arch) {
			from := amd(arch, in.Name)
			if related[arch] != in.Name || from == nil || from.Semantics == "" {
				continue
			}
			for _, p := range from.Sources {
				if p.Source == isa.SourceAMDManual {
					in.SemanticsElsewhere = &isa.TextSource{Arch: arch, Name: in.Name, Prov: p, Why: "no pseudocode"}
					n++
					break
				}
			}
			if in.SemanticsElsewhere != nil {
				break
			}
		}
	}
	return n
}
