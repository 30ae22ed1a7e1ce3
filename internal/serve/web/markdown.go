package web

import (
	"bytes"
	"html/template"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	gmtext "github.com/yuin/goldmark/text"
)

// markdownRenderer renders NVIDIA's Markdown prose (inline code, emphasis,
// lists, tables). goldmark escapes text; raw HTML in the source is turned
// into text below, so upstream markup never reaches a page as HTML.
var markdownRenderer = goldmark.New(goldmark.WithExtensions(extension.Table))

// markdownHTML renders upstream Markdown safely. Links and images are
// reduced to their text: they point into NVIDIA's document tree, not ours.
func markdownHTML(src string) template.HTML {
	source := []byte(src)
	doc := markdownRenderer.Parser().Parse(gmtext.NewReader(source), parser.WithContext(parser.NewContext()))
	var drop []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindLink, ast.KindAutoLink, ast.KindImage, ast.KindRawHTML, ast.KindHTMLBlock:
			drop = append(drop, n)
		}
		return ast.WalkContinue, nil
	})
	for _, n := range drop {
		parent := n.Parent()
		if parent == nil {
			continue
		}
		for c := n.FirstChild(); c != nil; {
			next := c.NextSibling()
			parent.InsertBefore(parent, n, c)
			c = next
		}
		switch v := n.(type) {
		case *ast.AutoLink:
			parent.InsertBefore(parent, n, ast.NewString(v.Label(source)))
		case *ast.RawHTML:
			// Markup in upstream prose is shown as text, escaped.
			var raw []byte
			for i := 0; i < v.Segments.Len(); i++ {
				seg := v.Segments.At(i)
				raw = append(raw, seg.Value(source)...)
			}
			parent.InsertBefore(parent, n, ast.NewString(raw))
		case *ast.HTMLBlock:
			var raw []byte
			for i := 0; i < v.Lines().Len(); i++ {
				seg := v.Lines().At(i)
				raw = append(raw, seg.Value(source)...)
			}
			if v.HasClosure() {
				raw = append(raw, v.ClosureLine.Value(source)...)
			}
			para := ast.NewParagraph()
			para.AppendChild(para, ast.NewString(bytes.TrimRight(raw, "\n")))
			parent.InsertBefore(parent, n, para)
		}
		parent.RemoveChild(parent, n)
	}
	var buf bytes.Buffer
	if err := markdownRenderer.Renderer().Render(&buf, source, doc); err != nil {
		return template.HTML(template.HTMLEscapeString(src))
	}
	// Safe: every text node is escaped by goldmark, and raw HTML nodes were
	// replaced by text nodes above.
	return template.HTML(buf.String())
}

// markdownInline renders a one-line piece of upstream Markdown (a summary)
// without the paragraph around it.
func markdownInline(src string) template.HTML {
	h := strings.TrimSpace(string(markdownHTML(src)))
	if strings.HasPrefix(h, "<p>") && strings.HasSuffix(h, "</p>") && strings.Count(h, "<p>") == 1 {
		h = h[len("<p>") : len(h)-len("</p>")]
	}
	return template.HTML(h) // safe: markdownHTML's output
}

// plainSummary is upstream Markdown reduced to its text ("Dynamic [Tensor
// Memory](…) allocation" is "Dynamic Tensor Memory allocation"), for meta
// descriptions and tooltips.
func plainSummary(src string) string {
	if !strings.ContainsAny(src, "`*_[]<&\\") {
		return src
	}
	source := []byte(src)
	doc := markdownRenderer.Parser().Parse(gmtext.NewReader(source), parser.WithContext(parser.NewContext()))
	var b strings.Builder
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Kind() == ast.KindParagraph && b.Len() > 0 {
				b.WriteByte(' ')
			}
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Text:
			b.Write(v.Segment.Value(source))
			if v.SoftLineBreak() || v.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(v.Value)
		case *ast.AutoLink:
			b.Write(v.Label(source))
		case *ast.RawHTML:
			for i := 0; i < v.Segments.Len(); i++ {
				seg := v.Segments.At(i)
				b.Write(seg.Value(source))
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

// summaryHTML is a list entry's summary: NVIDIA's is Markdown, rendered;
// AMD's is plain text ("S0_LO * S1_LO" is no emphasis), escaped.
func summaryHTML(sum isa.Summary) template.HTML {
	if sum.Arch == "ptx" {
		return markdownInline(sum.Summary)
	}
	return template.HTML(template.HTMLEscapeString(sum.Summary))
}
