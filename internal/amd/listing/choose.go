package listing

import (
	"fmt"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

// Choice is what a reader asked for: a family id or gfx target given as a
// flag or a form field ("" for none), and how the reader names one, for
// messages: Ask is "pass --arch" (the default) on the command line,
// "choose the family" on a web form.
type Choice struct {
	Arch, Target string
	Ask          string
}

// ask is how the messages tell the reader to name the family.
func (c Choice) ask() string {
	if c.Ask == "" {
		return "pass --arch"
	}
	return c.Ask
}

// ChooseFamily picks the family to read in with: the override (--target,
// then --arch), else the input's own target (e_flags, .amdgcn_target),
// else a guess from the lines (Guess over every AMD family, newest first
// within each line). It returns the family and how it was chosen.
// machinesErr is the error reading the e_flags table gave, if any: a code
// object whose e_flags name no known target is explained with it.
func ChooseFamily(in *Input, c Choice, machinesErr error, get func(arch string) (Codec, error)) (arch, how string, err error) {
	for _, v := range []struct{ val, flag string }{{c.Target, "--target"}, {c.Arch, "--arch"}} {
		if v.val == "" {
			continue
		}
		info, ok := isa.LookupArch(v.val)
		if !ok || info.Vendor != isa.VendorAMD {
			return "", "", errs.NotFound(isa.AMDArchIDs(), "unknown AMD family or target %q", v.val)
		}
		return info.ID, v.flag, nil
	}
	if in.Target != "" {
		info, ok := isa.LookupArch(in.Target)
		if !ok || info.Vendor != isa.VendorAMD {
			return "", "", errs.Invalid("the input is for %s, which no family here covers: %s", in.Target, c.ask())
		}
		how := ".amdgcn_target"
		if in.Kind == KindObject {
			how = fmt.Sprintf("e_flags 0x%x", in.Flags)
		}
		return info.ID, how, nil
	}
	if in.Kind == KindObject {
		if machinesErr != nil {
			return "", "", errs.Invalid("%v; or %s", machinesErr, c.ask())
		}
		return "", "", errs.Invalid("the code object's e_flags 0x%x name no target LLVM's table knows: %s", in.Flags, c.ask())
	}
	if arch, why := guess(in, isa.AMDArchIDs(), get, c.ask()); arch != "" {
		return arch, why, nil
	}
	return "", "", errs.Invalid("the input does not name its target (no code object, no .amdgcn_target): %s (%s)", c.ask(), strings.Join(isa.AMDArchIDs(), ", "))
}

// TargetFor is the gfx target a listing of in as family arch is for: a
// --target, or an --arch that is a gfx target, names it; else the input's
// own, when it is of that family; "" for the family alone.
func TargetFor(in *Input, c Choice, arch string) string {
	switch {
	case c.Target != "":
		return c.Target
	case c.Arch != "":
		if info, ok := isa.LookupArch(c.Arch); ok && info.ID != strings.ToLower(c.Arch) {
			return strings.ToLower(c.Arch)
		}
	}
	if in != nil && in.Target != "" {
		if ti, ok := isa.LookupArch(in.Target); ok && ti.ID == arch {
			return in.Target
		}
	}
	return ""
}

// SetTarget settles the listing's gfx target after ChooseFamily
// (TargetFor); with neither flag the input's target stands.
func (l *Listing) SetTarget(in *Input, c Choice) {
	if c.Target == "" && c.Arch == "" {
		return
	}
	if t := TargetFor(in, c, l.Arch); t != l.Target {
		l.Target, l.TargetID = t, t
	}
}
