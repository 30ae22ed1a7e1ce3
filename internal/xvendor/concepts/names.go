package concepts

import (
	"sort"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// NameIndex answers which instructions exist, for the concept validator and
// the porting helper. It implements concepts.Resolver.
type NameIndex struct {
	amd map[string]map[string]bool // mnemonic -> arch set (names and aliases)
	ptx map[string]bool            // true for instructions and special registers, false for directives
}

var _ Resolver = (*NameIndex)(nil)

// NewNameIndex indexes instructions by name.
func NewNameIndex(insts []*isa.Instruction) *NameIndex {
	ix := &NameIndex{amd: map[string]map[string]bool{}, ptx: map[string]bool{}}
	for _, in := range insts {
		if in.Arch == "ptx" && in.Entry == "directive" {
			ix.ptx[in.Name] = false
			continue
		}
		ix.Add(in.Arch, in.Name)
	}
	return ix
}

// Add records one instruction.
func (ix *NameIndex) Add(arch, name string) {
	if arch == "ptx" {
		ix.ptx[name] = true
		return
	}
	if ix.amd[name] == nil {
		ix.amd[name] = map[string]bool{}
	}
	ix.amd[name][arch] = true
}

// HasAMD reports whether arch has mnemonic.
func (ix *NameIndex) HasAMD(arch, mnemonic string) bool { return ix.amd[mnemonic][arch] }

// AMDArchs lists the families that have mnemonic, in display order.
func (ix *NameIndex) AMDArchs(mnemonic string) []string {
	var out []string
	for _, a := range isa.AMDArchIDs() {
		if ix.amd[mnemonic][a] {
			out = append(out, a)
		}
	}
	return out
}

// HasPTX reports whether mnemonic is a PTX instruction, special register or
// directive.
func (ix *NameIndex) HasPTX(mnemonic string) bool {
	_, ok := ix.ptx[mnemonic]
	return ok
}

// PTXMnemonics lists the PTX instructions and special registers (directives
// have no AMD counterpart to map and are left out).
func (ix *NameIndex) PTXMnemonics() []string {
	var out []string
	for m, mapped := range ix.ptx {
		if mapped {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// AMDNames returns arch -> names, for concept suggestions.
func (ix *NameIndex) AMDNames() map[string][]string {
	out := map[string][]string{}
	for name, archs := range ix.amd {
		for a := range archs {
			out[a] = append(out[a], name)
		}
	}
	for a := range out {
		sort.Strings(out[a])
	}
	return out
}
