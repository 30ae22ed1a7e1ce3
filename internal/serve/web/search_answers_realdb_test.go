package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The search page and API answer what the query's words say: a family in
// them scopes the search (and with an exact name opens its page), a
// product lists its targets without "Nothing matched" under them, half of
// a 64-bit word says so, and a name in many families links each.
func TestSearchAnswersTheWordsRealDB(t *testing.T) {
	s := realServer(t)
	if rec := get(t, s, "/search?q="+url.QueryEscape("v_max_f32 cdna3")); rec.Code != http.StatusFound || rec.Header().Get("Location") != "/amdgpu/cdna3/v_max_f32" {
		t.Errorf("v_max_f32 cdna3: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	body := text(mustPage(t, s, "/search?q="+url.QueryEscape("gfx1100 v_max")))
	if !strings.Contains(body, "In RDNA 3 only (“gfx1100” in the query)") {
		t.Errorf("gfx1100 v_max: no scope note: %.300s", body)
	}
	for _, q := range []string{"H100", "MI300X", "RTX 4090", "MI355X", "Jetson AGX Orin", "0x160a04c1"} {
		body := text(mustPage(t, s, "/search?q="+url.QueryEscape(q)))
		if strings.Contains(body, "Nothing matched") || strings.Contains(body, "0 results") {
			t.Errorf("%s: a product's targets or a decoding with \"Nothing matched\" under them: %.400s", q, body)
		}
	}
	// The first word of a VOP3 instruction on RDNA 3, alone.
	rec := get(t, s, "/api/v1/search?arch=rdna3&q=d5100000")
	var res SearchResult
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || len(res.Incomplete) == 0 || !strings.Contains(res.Incomplete[0].Message, "truncated") {
		t.Errorf("half a VOP3 word: %v %.300s", err, rec.Body.String())
	}
	if body := text(mustPage(t, s, "/search?arch=rdna3&q=d5100000")); strings.Contains(body, "Nothing matched") || !strings.Contains(body, "paste the words that follow it") {
		t.Errorf("half a VOP3 word on the page: %.400s", body)
	}
	rec = get(t, s, "/api/v1/search?q="+url.QueryEscape("H100 wgmma"))
	res = SearchResult{}
	if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil || res.Scope == nil || res.Scope.Arch != "ptx" || res.Scope.Target != "sm_90" {
		t.Errorf("H100 wgmma: scope %+v (%v)", res.Scope, err)
	}
	doc := mustPage(t, s, "/search?q=v_max_f3")
	if !strings.Contains(text(doc), "Also in") || !strings.Contains(strings.Join(hrefs(doc), " "), "/amdgpu/cdna3/v_max_f32") {
		t.Errorf("v_max_f3: the other families of v_max_f32 are not linked")
	}
}
