package web

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
)

func TestExport(t *testing.T) {
	dir := t.TempDir()
	fake := webfake.New(t)
	calls := 0
	st, err := Export(context.Background(), fake, dir, ExportOptions{Progress: func(done, total int) { calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Failed) > 0 {
		t.Errorf("pages that did not render: %v", st.Failed)
	}
	if st.Pages < 10 || st.Files < 5 || calls != st.Pages+st.Files+len(st.Failed) {
		t.Errorf("stats %+v, progress calls %d", st, calls)
	}
	for _, f := range []string{
		"index.html", "amdgpu/cdna4/index.html", "amdgpu/cdna4/v_max_f32/index.html", "ptx/max/index.html",
		"compare/v_max_f32/index.html", "concepts/index.html", "quality/index.html", "about/index.html",
		"amdgpu/cdna4/category/vector-arithmetic/index.html", "ptx/category/arithmetic/index.html",
		"ptx/max/forms/index.html", "ptx/max/sass/index.html",
		"api/v1/archs.json", "api/v1/archs/cdna4/instructions/v_max_f32.json", "api/v1/openapi.json",
	} {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if strings.HasSuffix(f, ".html") && !strings.Contains(string(data), "</html>") {
			t.Errorf("%s is not a whole page", f)
		}
	}
	css, _ := filepath.Glob(filepath.Join(dir, "static", "*.css"))
	if len(css) == 0 {
		t.Error("no stylesheet exported")
	}
}

func TestPageFile(t *testing.T) {
	for in, want := range map[string]string{
		"/":                       "index.html",
		"/amdgpu/cdna4":           "amdgpu/cdna4/index.html",
		"/ptx/%25tid":             "ptx/%tid/index.html",
		"/amdgpu/cdna4/v_max_f32": "amdgpu/cdna4/v_max_f32/index.html",
	} {
		if got := pageFile(in); got != want {
			t.Errorf("pageFile(%q) = %q, want %q", in, got, want)
		}
	}
}
