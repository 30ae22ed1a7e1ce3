package lsp

import "testing"

// TestSettings: wrapped or bare, a field the client leaves out keeps its
// value (the --verify flag survives Neovim's settings without it).
func TestSettings(t *testing.T) {
	s := settings{Verify: true, URL: "http://localhost:8080"}
	parseSettings(map[string]any{"gpuisa": map[string]any{"target": " GFX942 "}}, &s)
	if s.Target != "gfx942" || !s.Verify || s.URL != "http://localhost:8080" {
		t.Errorf("after target: %+v", s)
	}
	parseSettings(map[string]any{"verify": false, "url": "https://isa.example/"}, &s)
	if s.Target != "gfx942" || s.Verify || s.URL != "https://isa.example" {
		t.Errorf("after bare verify/url: %+v", s)
	}
	parseSettings("not an object", &s)
	if s.Target != "gfx942" {
		t.Errorf("a bad value changed the settings: %+v", s)
	}
}
