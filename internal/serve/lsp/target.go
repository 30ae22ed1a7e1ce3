package lsp

import (
	"encoding/json"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// settings are the client's "gpuisa" settings (initializationOptions or
// workspace/didChangeConfiguration).
type settings struct {
	// Target is the gfx target for AMDGPU files that do not name one.
	Target string `json:"target"`
	// Verify runs llvm-mc / ptxas on the file in the background.
	Verify bool `json:"verify"`
	// URL is where gpuisa pages are served, for hover links.
	URL string `json:"url"`
}

// settingsJSON is settings as a client sends them: a field it leaves out
// keeps its value.
type settingsJSON struct {
	Target *string `json:"target"`
	Verify *bool   `json:"verify"`
	URL    *string `json:"url"`
}

// parseSettings reads {"gpuisa": {...}} or the bare {...}.
func parseSettings(raw any, into *settings) {
	b, err := json.Marshal(raw)
	if err != nil {
		return
	}
	var wrapped struct {
		GPUISA *settingsJSON `json:"gpuisa"`
	}
	if json.Unmarshal(b, &wrapped) == nil && wrapped.GPUISA != nil {
		merge(into, *wrapped.GPUISA)
		return
	}
	var bare settingsJSON
	if json.Unmarshal(b, &bare) == nil {
		merge(into, bare)
	}
}

func merge(into *settings, s settingsJSON) {
	if s.Target != nil && strings.TrimSpace(*s.Target) != "" {
		into.Target = strings.ToLower(strings.TrimSpace(*s.Target))
	}
	if s.Verify != nil {
		into.Verify = *s.Verify
	}
	if s.URL != nil && *s.URL != "" {
		into.URL = strings.TrimRight(*s.URL, "/")
	}
}

// context is what a file's instructions are checked against.
type fileContext struct {
	lang   string
	target string // gfx target or sm_ target; "" when unknown
	family string // AMD family id; "ptx"
	// from says where the target came from, for hovers and messages.
	from string
	// ptxVersion is the PTX file's .version.
	ptxVersion string
}

// contextOf decides a file's target: for AMDGPU the file's .amdgcn_target,
// else the client's gpuisa.target, else a "gpuisa: target=" comment (or
// an llvm-mc RUN line's -mcpu=); for PTX its .version and .target.
func contextOf(d *document, s settings) fileContext {
	if d.lang == langPTX {
		return fileContext{lang: langPTX, family: "ptx", target: d.target, ptxVersion: d.ptxVersion, from: ".target"}
	}
	c := fileContext{lang: langAMD}
	switch {
	case isGFX(d.target):
		c.target, c.from = d.target, ".amdgcn_target"
	case isGFX(s.Target):
		c.target, c.from = s.Target, "the gpuisa.target setting"
	case isGFX(d.comment):
		c.target, c.from = d.comment, "the file's gpuisa: target= comment"
	}
	if c.target != "" {
		if fam, ok := isa.ArchForTarget(c.target); ok {
			c.family = fam
		} else if info, ok := isa.LookupArch(c.target); ok && info.Vendor == isa.VendorAMD {
			// A family id in the setting ("rdna3"): its first target.
			c.family, c.target = info.ID, info.Targets[0]
		}
	}
	return c
}

func isGFX(t string) bool {
	if t == "" {
		return false
	}
	if strings.HasPrefix(t, "gfx") {
		return true
	}
	info, ok := isa.LookupArch(t)
	return ok && info.Vendor == isa.VendorAMD
}

// targetLabel is "gfx942 (CDNA 3)".
func (k *knowledge) targetLabel(c fileContext) string {
	if c.target == "" {
		return "no target"
	}
	if a := k.byID[c.family]; a != nil && c.lang == langAMD {
		return c.target + " (" + a.Name + ")"
	}
	return c.target
}
