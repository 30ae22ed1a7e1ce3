// Package famdiff says what changed between two generations: two AMD
// families (instructions added, removed and renamed, each rename with the
// evidence that it is one instruction; opcode, format, operand, semantics
// and target-support changes; bit-layout changes per format), two PTX ISA
// versions or two sm_ targets (the mnemonics, forms and modifiers that
// become available, from ptxas's measurements where it verified a form,
// else the documentation's notes).
//
// It reads Family and PTX facts, the small part of the model a diff needs,
// which the build stores beside the instruction documents (ExtraKey) so a
// diff of any pair is computed from two compact documents in milliseconds.
package famdiff

import (
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// ExtraKey is the build extra holding one family's facts: a Family (JSON)
// for an AMD family, PTX for "ptx".
func ExtraKey(arch string) string { return "famdiff/" + arch }

// NoveltyKey names the build's stored Novelty of a family against the
// previous generation the build had: a family index marks its new names
// without diffing two families on its first request.
func NoveltyKey(arch string) string { return "famdiff-novelty/" + arch }

// Family is what a diff reads of one AMD family.
type Family struct {
	Arch         string       `json:"arch"`
	Name         string       `json:"name"`
	Targets      []string     `json:"targets"`
	Formats      []isa.Format `json:"formats"`
	Instructions []Inst       `json:"instructions"` // sorted by name
}

// Inst is what a diff reads of one AMD instruction.
type Inst struct {
	Name      string      `json:"name"`
	Category  string      `json:"category"`
	Aliases   []isa.Alias `json:"aliases,omitempty"`
	Encodings []Enc       `json:"encodings"`
	Operands  []Operand   `json:"operands"`
	Semantics string      `json:"semantics,omitempty"`
	// Supported are the family's own gfx targets on which llvm-mc
	// accepts the instruction; Verified says whether any verdict was
	// recorded (without llvm-mc there is none).
	Supported []string `json:"supported,omitempty"`
	Verified  bool     `json:"verified,omitempty"`
	// Related are the model's rename links to the same instruction in
	// other families, with their evidence.
	Related []isa.Related `json:"related,omitempty"`
}

// Enc is one encoding of an instruction.
type Enc struct {
	Name   string `json:"name"`   // "VOP2", "VOP3A"
	Format string `json:"format"` // the layout's format
	Width  int    `json:"width"`
	Opcode int    `json:"opcode"`
}

// Operand is one operand as a diff compares it.
type Operand struct {
	Name        string `json:"name"`
	Input       bool   `json:"input,omitempty"`
	Output      bool   `json:"output,omitempty"`
	DataFormat  string `json:"data_format,omitempty"`
	OperandType string `json:"operand_type,omitempty"`
	Size        int    `json:"size,omitempty"`
}

// FamilyOf extracts a family's facts from its architecture and instructions.
func FamilyOf(a isa.Architecture, insts []*isa.Instruction) *Family {
	f := &Family{Arch: a.ID, Name: a.Name, Targets: append([]string{}, a.Targets...), Formats: a.Formats}
	own := map[string]bool{}
	for _, t := range a.Targets {
		own[t] = true
	}
	for _, in := range insts {
		if in.Arch != a.ID {
			continue
		}
		fi := Inst{Name: in.Name, Category: in.Category, Aliases: in.Aliases, Semantics: in.Semantics}
		for _, rel := range in.Related {
			if rel.Renamed { // the links a diff reads; the others are the same name
				fi.Related = append(fi.Related, rel)
			}
		}
		for _, e := range in.Encodings {
			fi.Encodings = append(fi.Encodings, Enc{Name: e.Name, Format: e.Format, Width: e.Width, Opcode: e.Opcode})
		}
		for _, o := range in.Operands {
			fi.Operands = append(fi.Operands, Operand{Name: o.Name, Input: o.Input, Output: o.Output,
				DataFormat: o.DataFormat, OperandType: o.OperandType, Size: o.Size})
		}
		for _, t := range a.Targets {
			switch in.Targets[t] {
			case "supported":
				fi.Supported = append(fi.Supported, t)
				fi.Verified = true
			case "unsupported":
				fi.Verified = true
			}
		}
		f.Instructions = append(f.Instructions, fi)
	}
	sort.Slice(f.Instructions, func(i, j int) bool { return f.Instructions[i].Name < f.Instructions[j].Name })
	return f
}

// Side names one end of a diff.
type Side struct {
	ID   string `json:"id"`   // "rdna3", "ptx:8.0", "sm_90"
	Name string `json:"name"` // "RDNA 3", "PTX ISA 8.0", "sm_90"
	Arch string `json:"arch"` // the family whose pages the rows link to
}

// lower-cases and trims what a user typed.
func clean(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
