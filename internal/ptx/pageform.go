package ptx

import (
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// PageForm is the form as pages and the API show it: the one derivation of
// an isa.Form from the checker's Form (an instruction's page forms are its
// Forms' PageForms, in order, so the build's ptxas verdict on Forms[i] goes
// to the page's Forms[i]). file is the path recorded in provenance.
func (f Form) PageForm(file string) isa.Form {
	return isa.Form{
		Syntax: f.Syntax, Types: nonNil(f.Types), Modifiers: nonNil(append(append([]string(nil), f.Modifiers...), f.Scopes...)),
		StateSpaces: nonNil(f.StateSpaces), MinTarget: f.MinTarget, PTXVersion: f.PTXVersion,
		Description: f.Description,
		Prov:        isa.Prov{Source: isa.SourcePTXDoc, File: file, Line: f.Line},
	}
}

// DocMinimums are the documentation's lowest version and target for the
// form over its alternatives: what ptxas's verdict is held to.
func (f Form) DocMinimums() (version, target string) {
	version, target = f.PTXVersion, f.MinTarget
	for _, o := range f.Alternatives {
		if version == "" || o.PTXVersion != "" && ptxorder.CompareVersions(o.PTXVersion, version) < 0 {
			version = o.PTXVersion
		}
		if target == "" || o.MinTarget != "" && ptxorder.CompareTargets(o.MinTarget, target) < 0 {
			target = o.MinTarget
		}
	}
	return version, target
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
