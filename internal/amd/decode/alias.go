package decode

import (
	"slices"
	"strings"
)

// Other spellings llvm-mc takes for an instruction (gfx942's
// v_mfma_f32_16x16x16f16 for v_mfma_f32_16x16x16_f16, RDNA 3's ds_read_b32
// for ds_load_b32) are the model's aliases that the build saw llvm-mc
// assemble into the instruction's own bytes on a target (isa.Alias.Targets).
// A name only documented (AMD's machine-readable aliases, a rename read from
// the guides) or verified on another family's target is no spelling here:
// llvm-mc refuses it, so the encoder does too.

// AliasOf is the name of the instruction that name spells on d's target
// (the family's first, the reference target, for a whole-family decoder),
// where name is a verified alias and no instruction of the family has it as
// its own name; ok is false otherwise.
func (d *Decoder) AliasOf(name string) (canonical string, ok bool) {
	name = strings.ToLower(name)
	d.aliasOnce.Do(d.indexAliases)
	canonical, ok = d.aliases[name]
	if !ok {
		return "", false
	}
	// An instruction's own name (or the name the decoder prints for one)
	// is never shadowed by another's alias.
	if len(d.Templates(name)) > 0 || len(d.PairTemplates(name)) > 0 {
		return "", false
	}
	return canonical, true
}

// aliasTarget is the target whose verdicts AliasOf follows.
func (d *Decoder) aliasTarget() string {
	if d.target != "" {
		return d.target
	}
	if len(d.arch.Targets) > 0 {
		return d.arch.Targets[0]
	}
	return ""
}

// indexAliases maps each alias verified on d's target to its instruction.
// A spelling two instructions claim stays out: llvm-mc's bytes for it can
// be only one instruction's, and which one the model cannot tell.
func (d *Decoder) indexAliases() {
	target := d.aliasTarget()
	d.aliases = map[string]string{}
	if target == "" {
		return
	}
	claimed := map[string]int{}
	for _, in := range d.instructions() {
		for _, a := range in.Aliases {
			n := strings.ToLower(a.Name)
			if n == in.Name || !slices.Contains(a.Targets, target) {
				continue
			}
			if prev, dup := d.aliases[n]; dup && prev == in.Name {
				continue
			}
			claimed[n]++
			d.aliases[n] = in.Name
		}
	}
	for n, c := range claimed {
		if c > 1 {
			delete(d.aliases, n)
		}
	}
}
