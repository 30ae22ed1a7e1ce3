package web

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// postExplain posts the /explain form: fields, and a file when name is set.
func postExplain(t *testing.T, h http.Handler, fields map[string]string, name string, file []byte) *httptest.ResponseRecorder {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	if name != "" {
		fw, err := mw.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	mw.Close()
	req := httptest.NewRequest(http.MethodPost, "/explain", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// TestExplainPage: the form, a pasted word explained with its mnemonic
// linked, a field view and a permalink that answers the same; the
// posted answer is never cached (the empty form stays the empty form).
func TestExplainPage(t *testing.T) {
	s := newTestServer(t)
	form := get(t, s, "/explain")
	if form.Code != http.StatusOK || !strings.Contains(form.Body.String(), `enctype="multipart/form-data"`) {
		t.Fatalf("GET /explain: %d", form.Code)
	}
	rec := postExplain(t, s, map[string]string{"arch": "cdna4", "text": "0x160a04c1"}, "", nil)
	body := rec.Body.String()
	if rec.Code != http.StatusOK {
		t.Fatalf("POST: %d\n%s", rec.Code, body)
	}
	for _, want := range []string{`<a href="/amdgpu/cdna4/v_max_f32">v_max_f32_e32</a>`, `class="xfields"`, "VOP2 encoding", "Permalink"} {
		if !strings.Contains(body, want) {
			t.Errorf("POST answer lacks %q", want)
		}
	}
	if cc := rec.Header().Get("Cache-Control"); cc != "no-store" || rec.Header().Get("ETag") != "" {
		t.Errorf("POST answer: Cache-Control %q, ETag %q: a posted answer must not be cached", cc, rec.Header().Get("ETag"))
	}
	if again := get(t, s, "/explain"); strings.Contains(again.Body.String(), "v_max_f32_e32") {
		t.Error("GET /explain after a POST shows the posted answer")
	}
	perm := get(t, s, "/explain?"+url.Values{"arch": {"cdna4"}, "text": {"0x160a04c1"}}.Encode())
	if perm.Code != http.StatusOK || !strings.Contains(perm.Body.String(), "v_max_f32_e32") {
		t.Errorf("permalink: %d", perm.Code)
	}
}

// TestExplainLimits: the limits are enforced and said.
func TestExplainLimits(t *testing.T) {
	s := newTestServer(t)
	cases := []struct {
		name   string
		fields map[string]string
		file   []byte
		status int
		says   string
	}{
		{"empty", map[string]string{"text": "  "}, nil, http.StatusBadRequest, "Nothing to explain"},
		{"too large", nil, bytes.Repeat([]byte{0}, maxExplainInput+100<<10), http.StatusRequestEntityTooLarge, "larger than 4 MB"},
		{"ptx without statements", map[string]string{"text": ".version 8.0\n.target sm_90\n"}, nil, http.StatusBadRequest, "no PTX statement found"},
		{"bad also", map[string]string{"arch": "cdna4", "text": "0x160a04c1", "also": "sm_90"}, nil, http.StatusBadRequest, "not a gfx target"},
		{"unknown family", map[string]string{"arch": "nope", "text": "0x160a04c1"}, nil, http.StatusNotFound, "unknown AMD family"},
		{"no target", map[string]string{"text": "0x160a04c1"}, nil, http.StatusBadRequest, "does not name its target"},
	}
	for _, c := range cases {
		name := ""
		if c.file != nil {
			name = "big.o"
		}
		rec := postExplain(t, s, c.fields, name, c.file)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.says) {
			t.Errorf("%s: status %d (want %d), says %q: %v", c.name, rec.Code, c.status, c.says, strings.Contains(rec.Body.String(), c.says))
		}
		// Web words: the page names its own form, not the command line's flags.
		if body := rec.Body.String(); strings.Contains(body, "--arch") || strings.Contains(body, "pass --") {
			t.Errorf("%s: a command-line flag in the page's message: %s", c.name, errorLine(body))
		}
	}
}

// TestExplainCapsInstructionsNotLines: hex words, which merge into one
// line of bytes, count one instruction a word, so a paste over the cap is
// refused (413) in a short page that does not repeat it; so are pastes
// over the byte limit, urlencoded as well as multipart.
func TestExplainCapsInstructionsNotLines(t *testing.T) {
	s := newTestServer(t)
	check := func(name string, rec *httptest.ResponseRecorder, says, input string) {
		t.Helper()
		body := rec.Body.String()
		if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(body, says) || strings.Contains(body, input) || len(body) > 64<<10 {
			t.Errorf("%s: %d, %d bytes, says %q: %v, echoes the input: %v", name, rec.Code, len(body), says,
				strings.Contains(body, says), strings.Contains(body, input))
		}
	}
	for _, word := range []string{"0x160a04c1\n", "c1 04 0a 16\n"} {
		paste := strings.Repeat(word, maxExplainInstructions+10)
		rec := postExplain(t, s, map[string]string{"arch": "cdna4", "text": paste}, "", nil)
		check(strings.TrimSpace(word)+" words", rec, "at most 65536 per request", strings.Repeat(word, 3))
	}
	big := strings.Repeat("0x160a04c1 ", maxExplainInput/11+10)
	check("multipart paste over 4 MB", postExplain(t, s, map[string]string{"text": big}, "", nil), "larger than 4 MB", strings.Repeat("0x160a04c1 ", 3))
	req := httptest.NewRequest(http.MethodPost, "/explain", strings.NewReader(url.Values{"text": {big + big}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	check("urlencoded paste over the limit", rec, "larger than 4 MB", "0x160a04c1+0x160a04c1")
}

// TestExplainErrorPagesEchoAnExcerpt: a large paste that cannot be read
// (4 MB of brackets, a line that is neither code nor an instruction) is
// answered 400 with a short page: the error quotes the line's start and
// the box is not refilled with the paste; a small paste stays in the box
// to be corrected.
func TestExplainErrorPagesEchoAnExcerpt(t *testing.T) {
	s := newTestServer(t)
	for name, paste := range map[string]string{
		"brackets":   strings.Repeat("[", maxExplainInput-100),
		"one line":   strings.Repeat("[0x", maxExplainInput/4),
		"many lines": strings.Repeat("@@@@ nothing\n", maxExplainInput/16),
	} {
		rec := postExplain(t, s, map[string]string{"arch": "cdna4", "text": paste}, "", nil)
		if body := rec.Body.String(); rec.Code != http.StatusBadRequest || len(body) > 64<<10 || strings.Contains(body, paste[:400]) {
			t.Errorf("%s: %d, %d bytes; want 400 in a short page that does not repeat the paste", name, rec.Code, len(body))
		}
	}
	small := "@@@@ nothing\n"
	rec := postExplain(t, s, map[string]string{"arch": "cdna4", "text": small}, "", nil)
	if body := rec.Body.String(); rec.Code != http.StatusBadRequest || !strings.Contains(body, ">"+small) {
		t.Errorf("small paste: %d; want 400 with the paste kept in the box", rec.Code)
	}
}

// errorLine is the page's error paragraph.
func errorLine(body string) string {
	if i := strings.Index(body, `class="error"`); i >= 0 {
		return body[i:min(len(body), i+300)]
	}
	return ""
}

// TestExplainPTXPage: /explain explains PTX as gpuisa explain FILE.ptx
// does: a pasted file (its .version and .target), an uploaded .ptx file
// and bare statements with PTX chosen each get every statement's PTX ISA
// version and target and its AMD counterparts, linked to the chosen
// family's pages; an invalid statement says why.
func TestExplainPTXPage(t *testing.T) {
	s := newTestServer(t)
	file := ".version 8.0\n.target sm_90\n.entry k() {\n  max.f32 %f1, %f2, %f3;\n  max.s32 %r1, %r2, %r3;\n}\n"
	for _, c := range []struct {
		name   string
		fields map[string]string
		upload string
		want   []string
	}{
		{"pasted file, any family", map[string]string{"text": file}, "",
			[]string{"PTX statements", `href="/ptx/max"`, `<a href="/compare/v_max_f32">v_max_f32`, "counterparts for any AMD family", "choose a family or target above"}},
		{"pasted file, for CDNA 4", map[string]string{"text": file, "arch": "cdna4"}, "",
			[]string{`<a href="/amdgpu/cdna4/v_max_f32">v_max_f32`, "counterparts for CDNA 4"}},
		{"uploaded .ptx", map[string]string{"arch": "gfx950"}, "k.ptx",
			[]string{"PTX statements", "counterparts for gfx950 (CDNA 4)"}},
		{"statements, PTX chosen", map[string]string{"text": "max.f32 %f1, %f2, %f3;", "arch": "ptx"}, "",
			[]string{"PTX statements", "PTX ISA ", "AMD: <a href=\"/compare/v_max_f32\">v_max_f32"}},
	} {
		var upload []byte
		if c.upload != "" {
			upload = []byte(file)
		}
		rec := postExplain(t, s, c.fields, c.upload, upload)
		body := rec.Body.String()
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d %s", c.name, rec.Code, errorLine(body))
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the page lacks %q", c.name, w)
			}
		}
		if strings.Contains(body, "--arch") {
			t.Errorf("%s: the page tells the reader to pass --arch", c.name)
		}
	}
	rec := postExplain(t, s, map[string]string{"text": "max.q99 %f1, %f2;", "arch": "ptx"}, "", nil)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "invalid: ") {
		t.Errorf("an invalid statement: %d %s", rec.Code, errorLine(rec.Body.String()))
	}
}
