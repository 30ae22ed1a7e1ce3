package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/serve/web/webfake"
)

var webfakeNew = webfake.New

// svgTexts returns the text of every <text> of the diagrams under n.
func svgTexts(n *html.Node) []string {
	return texts(findAll(n, func(n *html.Node) bool { return n.Data == "text" }))
}

func TestDecodeFormWorksWithoutJavaScript(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/decode")
	forms := findAll(doc, func(n *html.Node) bool { return n.Data == "form" && hasClass(n, "decodebox") })
	if len(forms) != 2 || attr(forms[0], "method") != "get" || attr(forms[0], "action") != "/decode" {
		t.Fatal("no GET form to /decode (and an assemble form)")
	}
	// The second form assembles: a labelled asm input, GET to /decode too.
	if attr(forms[1], "method") != "get" || attr(forms[1], "action") != "/decode" ||
		len(findAll(forms[1], func(n *html.Node) bool { return n.Data == "label" && attr(n, "for") == "encode-asm" })) != 1 ||
		len(findAll(forms[1], func(n *html.Node) bool { return n.Data == "input" && attr(n, "name") == "asm" })) != 1 {
		t.Error("the assemble form lacks its labelled asm input")
	}
	for _, id := range []string{"decode-arch", "decode-hex"} {
		labels := findAll(forms[0], func(n *html.Node) bool { return n.Data == "label" && attr(n, "for") == id })
		if len(labels) != 1 {
			t.Errorf("#%s has no label", id)
		}
	}
	if sel := findAll(forms[0], tag("select")); len(sel) != 1 || attr(sel[0], "name") != "arch" {
		t.Error("no arch select")
	} else if opts := findAll(sel[0], tag("option")); len(opts) != 4 { // the AMD families only
		t.Errorf("%d families to decode for, want 4", len(opts))
	}
	if ta := findAll(forms[0], tag("textarea")); len(ta) != 1 || attr(ta[0], "name") != "hex" {
		t.Error("no hex textarea")
	}
	if n := len(findAll(doc, tag("svg"))); n != 0 {
		t.Errorf("an empty form shows %d diagrams", n)
	}
}

func TestDecodePage(t *testing.T) {
	s := newTestServer(t)
	// v_max_f32 v5, -1, v2 (VOP2), then a dword no encoding of the sample
	// family matches.
	path := "/decode?arch=cdna4&hex=" + url.QueryEscape("0x160a04c1 ffffffff")
	doc := mustPage(t, s, path)
	dec := findAll(doc, func(n *html.Node) bool { return hasClass(n, "decoded") && n.Data == "div" })
	if len(dec) != 1 {
		t.Fatalf("%d decoded instructions, want 1", len(dec))
	}
	head := text(findAll(dec[0], func(n *html.Node) bool { return hasClass(n, "dec-head") })[0])
	for _, w := range []string{"v_max_f32", "VOP2", "opcode 11", "offset 0", "0xc1,0x04,0x0a,0x16"} {
		if !strings.Contains(head, w) {
			t.Errorf("decoded head %q lacks %q", head, w)
		}
	}
	if !slices.Contains(hrefs(dec[0]), "/amdgpu/cdna4/v_max_f32") {
		t.Error("the mnemonic does not link its page")
	}
	// the diagram holds the actual bits: OP 11, VDST 5, VSRC1 2, SRC0 193
	bits := svgTexts(dec[0])
	for _, w := range []string{"001011", "00000101", "00000010", "011000001"} {
		if !slices.Contains(bits, w) {
			t.Errorf("diagram lacks the value %s: %q", w, bits)
		}
	}
	var vdst []string
	for _, tr := range findAll(findAll(dec[0], tag("tbody"))[0], tag("tr")) {
		if text(findAll(tr, tag("th"))[0]) == "VDST" {
			vdst = texts(findAll(tr, tag("td")))
		}
	}
	if strings.Join(vdst, "|") != "24:17|00000101|5|0x5" {
		t.Errorf("VDST row %q", vdst)
	}
	errsShown := texts(findAll(doc, func(n *html.Node) bool { return n.Data == "li" && hasClass(n, "error") }))
	if len(errsShown) != 1 || !strings.HasPrefix(errsShown[0], "Byte offset 4:") {
		t.Errorf("errors %q, want one at byte offset 4", errsShown)
	}
	// The answer is the first heading, the forms' help after it.
	if h2 := texts(findAll(doc, tag("h2"))); len(h2) != 2 || h2[0] != "1 instruction in 8 bytes, 1 undecodable" || h2[1] != "What the boxes take" {
		t.Errorf("h2 %q", h2)
	}
}

func TestDecodeInputErrors(t *testing.T) {
	s := newTestServer(t)
	for _, c := range []struct {
		query  string
		status int
		want   string
	}{
		{"arch=ptx&hex=0x160a04c1", http.StatusBadRequest, "virtual ISA"},
		{"arch=nosuch&hex=0x160a04c1", http.StatusNotFound, "nosuch"},
		{"arch=cdna4&hex=" + strings.Repeat("0x160a04c1+", 300), http.StatusBadRequest, "at most 1024"},
		{"arch=cdna4&hex=" + strings.Repeat("a", maxHexLen+1), http.StatusBadRequest, "longer than"},
	} {
		rec := get(t, s, "/decode?"+c.query)
		if rec.Code != c.status || !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("/decode?%.40s: %d, want %d with %q", c.query, rec.Code, c.status, c.want)
		}
		rec = get(t, s, "/api/v1/decode?"+c.query)
		var e apiError
		decodeJSON(t, rec, c.status, &e)
		if !strings.Contains(e.Error, c.want) {
			t.Errorf("/api/v1/decode?%.40s: error %q lacks %q", c.query, e.Error, c.want)
		}
	}
	var e apiError
	decodeJSON(t, get(t, s, "/api/v1/decode?arch=cdna4"), http.StatusBadRequest, &e)
	decodeJSON(t, get(t, s, "/api/v1/decode?hex=0x160a04c1"), http.StatusBadRequest, &e)
	if !strings.Contains(e.Error, "missing arch") {
		t.Errorf("missing arch: %q", e.Error)
	}
}

func TestDecodeAPI(t *testing.T) {
	s := newTestServer(t)
	var res DecodeResult
	decodeJSON(t, get(t, s, "/api/v1/decode?arch=gfx950&hex="+url.QueryEscape("[0xc1,0x04,0x0a,0x16,0xff,0xff,0xff,0xff]")), http.StatusOK, &res)
	if res.Arch != "cdna4" || res.Length != 8 || len(res.Instructions) != 1 || len(res.Errors) != 1 {
		t.Fatalf("answer %+v", res)
	}
	in := res.Instructions[0]
	if in.Name != "v_max_f32" || in.Encoding != "VOP2" || in.Opcode != 11 || strings.Join(in.Operands, " ") != "v5 -1 v2" {
		t.Errorf("instruction %+v", in)
	}
	var vdst decode.FieldValue
	for _, f := range in.Fields {
		if f.Name == "VDST" {
			vdst = f
		}
	}
	if vdst.Value != 5 || vdst.Bits != "00000101" || vdst.MSB != 24 || vdst.LSB != 17 {
		t.Errorf("VDST %+v", vdst)
	}
	if res.Errors[0].Offset != 4 || res.Errors[0].Message == "" {
		t.Errorf("error %+v", res.Errors[0])
	}
}

func TestHexSearch(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/search?q=0x160a04c1")
	h2 := texts(findAll(doc, tag("h2")))
	if len(h2) == 0 || h2[0] != "Decoded as machine code" {
		t.Fatalf("h2 %q: decoded instructions are not first", h2)
	}
	sec := findAll(doc, func(n *html.Node) bool { return n.Data == "ul" && hasClass(n, "decoded-hits") })[0]
	links := hrefs(sec)
	for _, w := range []string{"/amdgpu/cdna4/v_max_f32", "/amdgpu/cdna3/v_max_f32", "/decode?arch=cdna4&hex=0x160a04c1"} {
		if !slices.Contains(links, w) {
			t.Errorf("decoded section has no link %s: %q", w, links)
		}
	}
	// A search in one family goes straight to the decoding there.
	if rec := get(t, s, "/search?q=160a04c1&arch=cdna3"); rec.Code != http.StatusFound ||
		rec.Header().Get("Location") != "/decode?arch=cdna3&hex=160a04c1" {
		t.Errorf("arch=cdna3 hex search: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	// ... and an instruction's name to its page there.
	if rec := get(t, s, "/search?q=V_MAX_F32&arch=cdna3"); rec.Code != http.StatusFound ||
		rec.Header().Get("Location") != "/amdgpu/cdna3/v_max_f32" {
		t.Errorf("arch=cdna3 name search: %d to %q", rec.Code, rec.Header().Get("Location"))
	}
	var res SearchResult
	decodeJSON(t, get(t, s, "/api/v1/search?q="+url.QueryEscape("[0xc1,0x04,0x0a,0x16]")), http.StatusOK, &res)
	var archs []string
	for _, d := range res.Decoded {
		archs = append(archs, d.Arch)
		if len(d.Instructions) != 1 || d.Instructions[0].Name != "v_max_f32" || d.Instructions[0].Text == "" {
			t.Errorf("decoded %+v", d)
		}
	}
	if strings.Join(archs, " ") != "cdna4 cdna3" {
		t.Errorf("decoded on %q, want cdna4 cdna3 (the sample RDNA families have other opcodes)", archs)
	}
	// a name search decodes nothing
	var byName SearchResult
	decodeJSON(t, get(t, s, "/api/v1/search?q=v_max_f32"), http.StatusOK, &byName)
	if byName.Decoded != nil {
		t.Errorf("a name search decoded %+v", byName.Decoded)
	}
}

func TestExampleBytesBrokenIntoFields(t *testing.T) {
	s := newTestServer(t)
	doc := mustPage(t, s, "/amdgpu/cdna4/v_max_f32")
	if !slices.Contains(texts(findAll(doc, tag("h3"))), "Example encodings, field by field") {
		t.Fatal("no example field section")
	}
	ex := findAll(doc, func(n *html.Node) bool { return hasClass(n, "example-decoded") })
	if len(ex) != 1 { // the second example has no bytes
		t.Fatalf("%d decoded examples, want 1", len(ex))
	}
	// [0x01,0x05,0x0a,0x16]: SRC0 = 1 + 256 (v1), VSRC1 = 2, VDST = 5
	bits := svgTexts(ex[0])
	for _, w := range []string{"001011", "00000101", "00000010", "100000001"} {
		if !slices.Contains(bits, w) {
			t.Errorf("example diagram lacks %s: %q", w, bits)
		}
	}
	if len(findAll(ex[0], func(n *html.Node) bool { return hasClass(n, "bad") })) != 0 {
		t.Error("the example's bytes are reported as another instruction")
	}
}

func TestDecodedDiagramNamesTrailingDwords(t *testing.T) {
	s := newTestServer(t)
	in := decode.Inst{Name: "v_sample", Encoding: "VOP2", Bytes: []byte{0xff, 0x04, 0x0a, 0x16, 0x00, 0x00, 0x80, 0x3f},
		Fields: []decode.FieldValue{{Name: "SRC0", MSB: 8, LSB: 0, Value: 255, Bits: "011111111"},
			{Name: "ENCODING", MSB: 31, LSB: 31, Bits: "0"}}}
	v := s.viewDecoded("cdna4", in)
	var names []string
	for _, f := range v.Fields {
		names = append(names, f.Name+"="+f.Hex)
	}
	if strings.Join(names, " ") != "SRC0=0xFF ENCODING=0x0 LITERAL=0x3F800000" {
		t.Errorf("fields %q", names)
	}
	if !v.Fields[1].Fixed {
		t.Error("ENCODING is fixed in the sample VOP2 format but not marked so")
	}
	svg := string(v.Wide.SVG())
	// uncovered bits 30:9 are shown with their values; the literal's dword is named
	if !strings.Contains(svg, ">LITERAL<") || !strings.Contains(svg, ">00111111100000000000000000000000<") {
		t.Errorf("wide diagram lacks the named literal:\n%s", svg)
	}
	if len(v.Wide.Rows) != 2 || len(v.Narrow.Rows) != 4 {
		t.Errorf("rows %d wide, %d narrow", len(v.Wide.Rows), len(v.Narrow.Rows))
	}
	if s.viewDecoded("cdna4", in).URL != "" {
		t.Error("links a page the family does not have")
	}
}

// FuzzDecodeInput feeds arbitrary text to the decode page, the decode and
// encode APIs and search: they answer 200 or 4xx and never panic.
func FuzzDecodeInput(f *testing.F) {
	s := newTestServer(f)
	for _, seed := range []string{"0x160a04c1", "[0xc1,0x04,0x0a,0x16]", "ffffffff 0x7e0a02ff", "0x", "\x00\x01\x02",
		"; comment only", "[0xc1,0x04", "0x160a04c1 // v_max"} {
		f.Add("cdna4", seed)
	}
	f.Add("rdna3", "0xd4100005 0x00000501")
	f.Add("ptx", "0x160a04c1")
	f.Add("cdna4", "v_max_f32 v5, -1, v2")
	f.Fuzz(func(t *testing.T, arch, hex string) {
		s.cache = newAnswerCache(-1)
		for _, p := range []string{"/decode", "/api/v1/decode", "/api/v1/encode", "/search"} {
			q := url.Values{"arch": {arch}, "hex": {hex}, "q": {hex}, "asm": {hex}}
			rec := get(t, s, p+"?"+q.Encode())
			if rec.Code >= 500 {
				t.Fatalf("%s arch=%q hex=%q: %d", p, arch, hex, rec.Code)
			}
		}
	})
}

// BenchmarkNewPages renders the concept, quality and decode pages of the
// sample store with the page cache off.
func BenchmarkNewPages(b *testing.B) {
	s := testServer(b, webfakeNew(b), Options{CacheBytes: -1})
	for _, p := range []string{"/concepts", "/concepts/max", "/quality", "/quality/cdna4",
		"/decode?arch=cdna4&hex=0x160a04c1", "/search?q=0x160a04c1", "/api/v1/decode?arch=cdna4&hex=0x160a04c1"} {
		b.Run(strings.NewReplacer("/", "_", "?", "_", "&", "_", "=", "_").Replace(p), func(b *testing.B) {
			get(b, s, p)
			for b.Loop() {
				if rec := get(b, s, p); rec.Code != http.StatusOK {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

func TestEncodeAPI(t *testing.T) {
	s := newTestServer(t)
	var res EncodeResult
	decodeJSON(t, get(t, s, "/api/v1/encode?arch=gfx950&asm="+url.QueryEscape("v_max_f32 v5, -1, v2")), http.StatusOK, &res)
	if res.Arch != "cdna4" || res.Bytes != "0xc1,0x04,0x0a,0x16" || strings.Join(res.Words, " ") != "0x160a04c1" ||
		res.Instruction.Text() != "v_max_f32_e32 v5, -1, v2" {
		t.Errorf("answer %+v", res)
	}
	for _, c := range []struct{ query, want string }{
		{"arch=cdna4", "missing asm"},
		{"asm=v_max_f32", "missing arch"},
		{"arch=cdna4&asm=" + url.QueryEscape("v_bogus v1, v2"), "no such instruction"},
		{"arch=ptx&asm=" + url.QueryEscape("max.f32 d, a, b"), "virtual ISA"},
		{"arch=cdna4&asm=" + strings.Repeat("x", 600), "at most 512"},
	} {
		var e struct {
			Error string `json:"error"`
		}
		rec := get(t, s, "/api/v1/encode?"+c.query)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("/api/v1/encode?%.40s: status %d", c.query, rec.Code)
		}
		decodeJSON(t, rec, rec.Code, &e)
		if !strings.Contains(e.Error, c.want) {
			t.Errorf("/api/v1/encode?%.40s: error %q lacks %q", c.query, e.Error, c.want)
		}
	}
}

// TestAssembleForm: the decode page's assemble form encodes the
// instruction and shows it decoded; a refusal is shown as an error.
func TestAssembleForm(t *testing.T) {
	s := newTestServer(t)
	rec := get(t, s, "/decode?arch=cdna4&asm="+url.QueryEscape("v_max_f32 v5, -1, v2"))
	body := rec.Body.String()
	for _, want := range []string{"assembles to <code>0xc1,0x04,0x0a,0x16</code>", "v_max_f32_e32 v5, -1, v2", `name="asm"`} {
		if rec.Code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("assemble form: %d, page lacks %q", rec.Code, want)
		}
	}
	rec = get(t, s, "/decode?arch=cdna4&asm="+url.QueryEscape("v_bogus v1"))
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "no such instruction") {
		t.Errorf("bad instruction: %d %.300s", rec.Code, rec.Body.String())
	}
}
