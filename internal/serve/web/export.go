package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/store"
)

// ExportStats says what Export wrote.
type ExportStats struct {
	Pages  int      // HTML pages written
	Files  int      // static assets and JSON documents written
	Bytes  int64    // total size
	Failed []string // URLs that did not render (status and path)
}

// ExportOptions configure Export.
type ExportOptions struct {
	// Progress, when not nil, is called as files are written.
	Progress func(done, total int)
	// Precompress writes FILE.gz beside every file of minGzipSize bytes or
	// more, for static servers that send them as they are (nginx's
	// gzip_static, most CDNs).
	Precompress bool
}

// Export writes the site as static files under dir, for any web server or
// CDN: every page becomes PATH/index.html (/amdgpu/cdna4/v_max_f32 ->
// amdgpu/cdna4/v_max_f32/index.html), /static assets keep their names, and
// the JSON API's read-only documents become PATH.json (api/v1/archs.json,
// api/v1/archs/cdna4/instructions.json,
// api/v1/archs/cdna4/instructions/v_max_f32.json, api/v1/openapi.json).
// Search and decode need the server and are not exported.
//
// The site is written to a new directory beside dir and renamed into place
// when it is complete, so a failed export (a full disk, a cancelled context)
// leaves whatever was at dir as it was.
func Export(ctx context.Context, r store.Reader, dir string, opts ExportOptions) (ExportStats, error) {
	var st ExportStats
	s, err := newServer(r, Options{CacheBytes: -1})
	if err != nil {
		return st, err
	}
	pages, docs, err := s.exportURLs(ctx)
	if err != nil {
		return st, err
	}
	dir = filepath.Clean(dir)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return st, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".export-*")
	if err != nil {
		return st, err
	}
	defer os.RemoveAll(tmp) // a no-op once it is renamed into place
	type job struct {
		url  string
		file string
		page bool
	}
	var jobs []job
	for _, u := range pages {
		jobs = append(jobs, job{u, pageFile(u), true})
	}
	for _, u := range docs {
		file, _ := url.PathUnescape(strings.TrimPrefix(u, "/"))
		if !strings.HasSuffix(file, ".json") {
			file += ".json"
		}
		jobs = append(jobs, job{u, file, false})
	}
	for name := range s.static {
		jobs = append(jobs, job{"/static/" + name, "static/" + name, false})
	}
	urls := make([]string, len(jobs))
	for i, j := range jobs {
		urls[i] = j.url
	}
	var mu sync.Mutex
	err = renderEach(ctx, s, urls, opts.Progress, func(i int, rec *httptest.ResponseRecorder) error {
		j := jobs[i]
		if rec.Code == http.StatusOK {
			if err := writeExported(filepath.Join(tmp, filepath.FromSlash(j.file)), rec.Body.Bytes(), opts.Precompress); err != nil {
				return err
			}
		}
		mu.Lock()
		defer mu.Unlock()
		switch {
		case rec.Code != http.StatusOK:
			st.Failed = append(st.Failed, fmt.Sprintf("%d %s", rec.Code, j.url))
		case j.page:
			st.Pages++
			st.Bytes += int64(rec.Body.Len())
		default:
			st.Files++
			st.Bytes += int64(rec.Body.Len())
		}
		return nil
	})
	sort.Strings(st.Failed)
	if err != nil {
		return st, err
	}
	return st, replaceDir(tmp, dir)
}

// writeExported writes one exported file, and its gzip twin when asked.
func writeExported(target string, body []byte, precompress bool) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(target, body, 0o644); err != nil {
		return err
	}
	if !precompress || len(body) < minGzipSize {
		return nil
	}
	return os.WriteFile(target+".gz", gzipKept(body), 0o644)
}

// replaceDir puts the complete directory tmp at dir: a previous site there
// is moved aside first and removed once the new one is in place.
func replaceDir(tmp, dir string) error {
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it private
		return err
	}
	old := ""
	if _, err := os.Lstat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return err
	}
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// pageFile maps a page URL to its file: the path, unescaped, plus
// index.html, so that a static server finds it at the same URL.
func pageFile(u string) string {
	p, err := url.PathUnescape(u)
	if err != nil {
		p = u
	}
	p = strings.TrimPrefix(path.Clean(p), "/")
	if p == "" || p == "." {
		return "index.html"
	}
	return p + "/index.html"
}

// exportURLs lists every page and API document of the database.
func (s *server) exportURLs(ctx context.Context) (pages, docs []string, err error) {
	pages = []string{"/", "/ptx", "/concepts", "/quality", "/about"}
	docs = []string{"/api/v1/info", "/api/v1/archs", "/api/v1/openapi.json"}
	compare := map[string]bool{}
	for _, a := range s.archs {
		list, err := s.store.List(ctx, a.ID)
		if err != nil {
			return nil, nil, err
		}
		if a.ID != "ptx" {
			pages = append(pages, archURL(a.ID))
		}
		if a.Vendor == isa.VendorAMD {
			pages = append(pages, costTableURL(a.ID))
			docs = append(docs, "/api/v1/archs/"+url.PathEscape(a.ID)+"/cost")
		}
		docs = append(docs, "/api/v1/archs/"+url.PathEscape(a.ID), "/api/v1/archs/"+url.PathEscape(a.ID)+"/instructions")
		pages = append(pages, familyPageURLs(a, list)...)
		for _, in := range list {
			pages = append(pages, instrURL(a.ID, in.Name))
			docs = append(docs, "/api/v1/archs/"+url.PathEscape(a.ID)+"/instructions/"+url.PathEscape(in.Name))
			if a.Vendor == isa.VendorAMD {
				compare[in.Name] = true
			}
		}
	}
	for name := range compare {
		pages = append(pages, "/compare/"+url.PathEscape(name))
	}
	if q, err := s.qualityReport(); err == nil {
		for _, f := range q.Families {
			pages = append(pages, "/quality/"+url.PathEscape(f.Arch))
		}
	}
	if cd, err := s.conceptCatalogue(); err == nil {
		for _, c := range cd.cat.Concepts {
			pages = append(pages, "/concepts/"+url.PathEscape(c.ID))
		}
	}
	pages = append(pages, s.sassURLs()...)
	gp, gd := s.generationURLs(ctx)
	pages, docs = append(pages, gp...), append(docs, gd...)
	sort.Strings(pages)
	sort.Strings(docs)
	return pages, docs, nil
}
