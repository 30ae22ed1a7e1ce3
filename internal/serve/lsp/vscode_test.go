package lsp

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestVSCodeExtensionLanguages: the extension's language ids and file
// extensions are the ones the server takes for AMDGPU assembly and PTX.
func TestVSCodeExtensionLanguages(t *testing.T) {
	raw, err := os.ReadFile("../../../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Main        string `json:"main"`
		Contributes struct {
			Languages []struct {
				ID         string   `json:"id"`
				Extensions []string `json:"extensions"`
			} `json:"languages"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("../../../editors/vscode/" + strings.TrimPrefix(pkg.Main, "./")); err != nil {
		t.Errorf("main %q: %v", pkg.Main, err)
	}
	want := map[string]string{"amdgpu": langAMD, "ptx": langPTX}
	seen := 0
	for _, l := range pkg.Contributes.Languages {
		lang, ok := want[l.ID]
		if !ok {
			t.Errorf("unexpected language id %q", l.ID)
			continue
		}
		seen++
		if got := languageOf("file:///x", l.ID); got != lang {
			t.Errorf("language id %q is %q to the server", l.ID, got)
		}
		for _, ext := range l.Extensions {
			if got := languageOf("file:///x"+ext, ""); got != lang {
				t.Errorf("%s (%s) is %q to the server", ext, l.ID, got)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("package.json declares %d of the languages %v", seen, want)
	}
}
