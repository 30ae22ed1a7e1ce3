package llvmdoc

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/html"
)

// operandDocs loads operand description pages on first use; many rows link
// to the same few pages.
type operandDocs struct {
	dir   string
	cache map[string]*OperandDoc
}

func newOperandDocs(dir string) *operandDocs {
	return &operandDocs{dir: dir, cache: map[string]*OperandDoc{}}
}

func (d *operandDocs) get(link string) *OperandDoc {
	file := link
	if i := strings.IndexByte(file, '#'); i >= 0 {
		file = file[:i]
	}
	// Only pages beside the syntax page: "../AMDGPUModifierSyntax.html" and
	// absolute links are not operand pages.
	if file == "" || strings.ContainsAny(file, "/\\:") {
		return nil
	}
	if doc, ok := d.cache[file]; ok {
		return doc
	}
	var doc *OperandDoc
	if f, err := os.Open(filepath.Join(d.dir, file)); err == nil {
		doc = ParseOperandDoc(f)
		f.Close()
	}
	d.cache[file] = doc
	return doc
}

// ParseOperandDoc reads an operand description page: its first h1 heading
// and the paragraphs and list items of the section that heading opens.
// It never fails: a page it cannot make sense of gives an empty OperandDoc.
func ParseOperandDoc(r io.Reader) *OperandDoc {
	doc := &OperandDoc{}
	z := html.NewTokenizer(r)
	var (
		inBody     bool // inside the section the h1 opens
		depth      int  // section nesting inside it
		inH1       bool
		headerLink bool
		block      strings.Builder
		blockDepth int
		paragraphs []string
	)
	flush := func() {
		t := strings.Join(strings.Fields(block.String()), " ")
		if t != "" {
			paragraphs = append(paragraphs, t)
		}
		block.Reset()
	}
loop:
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			break loop
		case html.StartTagToken:
			tn, hasAttr := z.TagName()
			isHeaderLink := false
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) == "class" && string(v) == "headerlink" {
					isHeaderLink = true
				}
			}
			switch string(tn) {
			case "h1":
				if doc.Title == "" && !inBody {
					inH1 = true
				}
			case "a":
				headerLink = isHeaderLink
			case "section":
				if inBody {
					depth++
				}
			case "p", "li", "td", "th":
				if inBody {
					if blockDepth == 0 {
						flush()
					}
					blockDepth++
				}
			}
		case html.EndTagToken:
			tn, _ := z.TagName()
			switch string(tn) {
			case "h1":
				if inH1 {
					inH1 = false
					inBody = true
					doc.Title = strings.TrimSpace(doc.Title)
				}
			case "a":
				headerLink = false
			case "section":
				if inBody {
					if depth == 0 {
						break loop
					}
					depth--
				}
			case "p", "li", "td", "th":
				if inBody && blockDepth > 0 {
					blockDepth--
					if blockDepth == 0 {
						flush()
					}
				}
			}
		case html.TextToken:
			if inH1 && !headerLink {
				doc.Title += string(z.Text())
			} else if inBody && blockDepth > 0 {
				block.Write(z.Text())
			}
		}
	}
	flush()
	doc.Text = strings.Join(paragraphs, "\n")
	for _, p := range paragraphs {
		if rest, ok := strings.CutPrefix(p, "Size: "); ok && doc.Size == "" {
			doc.Size, _, _ = strings.Cut(rest, ".")
		}
		if rest, ok := strings.CutPrefix(p, "Operands: "); ok && doc.Accepts == nil {
			for _, a := range strings.Split(rest, ",") {
				if a = strings.TrimSuffix(strings.TrimSpace(a), "."); a != "" {
					doc.Accepts = append(doc.Accepts, a)
				}
			}
		}
	}
	return doc
}
