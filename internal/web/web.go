// Package web serves the reference: the HTML pages (home, family index,
// instruction pages for AMD and PTX, compare, search, 404 with suggestions,
// the cross-vendor concept pages, the data-quality report and the machine-code
// decode box) and the JSON API under /api/v1, over a store.Reader. It never
// parses upstream files.
//
// Every response is rendered into memory first, so errors become proper
// error pages, and then sent with an ETag derived from the database build id
// (and the embedded templates and assets), gzip when the client accepts it,
// and a Content-Security-Policy that allows no inline script or style.
package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gpuisa/gpuisa/internal/codecache"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/quality"
	"github.com/gpuisa/gpuisa/internal/semdiff"
	"github.com/gpuisa/gpuisa/internal/store"
)

// Options configure the handler.
type Options struct {
	// Logger receives one line per request and any internal errors; nil
	// discards them.
	Logger *slog.Logger
	// PageMaxAge is the Cache-Control max-age of pages and API answers;
	// zero means 5 minutes. Clients revalidate with the ETag afterwards.
	PageMaxAge time.Duration
	// CacheBytes bounds the in-memory cache of rendered answers; zero means
	// 32 MiB and a negative value turns the cache off.
	CacheBytes int
	// WarmDecoders builds every family's machine-code decoder in the
	// background at start, so the first decode or hex search does not wait
	// (each takes a few hundred milliseconds).
	WarmDecoders bool
}

// ContentSecurityPolicy is sent with every response: scripts and styles only
// from this origin, nothing inline, no framing.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// staticMaxAge is the cache lifetime of /static assets; their URLs carry a
// content hash, so a new build of the binary changes the URL.
const staticMaxAge = 365 * 24 * time.Hour

type server struct {
	store  store.Reader
	log    *slog.Logger
	info   isa.BuildInfo
	etag   string // weak ETag of every page and API answer of this build
	maxAge string
	pages  *pageTemplates
	static map[string]*staticFile
	mux    *http.ServeMux
	// apiPatterns records the API routes as registered, for the OpenAPI check.
	apiPatterns []string
	archs       []isa.Architecture

	listMu   sync.Mutex
	lists    map[string][]isa.Summary
	nameSets map[string]map[string]bool // arch -> names of its instruction pages

	// codecs are the families' decoders, encoders and notes.
	codecs *codecache.Cache

	conceptsOnce sync.Once
	concepts     *conceptData
	conceptsErr  error

	qualityOnce sync.Once
	quality     *quality.Report
	qualityErr  error

	semLibs sync.Map // arch -> *sem.Library, for eval (eval.go)
	// semDiff is the differences by evaluation (semdiff.go).
	semDiffOnce sync.Once
	semDiff     *semdiff.Result

	cache *pageCache
}

// New returns the handler serving the site and the API from r. It reads the
// build info and the family list once: the database is read-only while served.
func New(r store.Reader, opts Options) (http.Handler, error) {
	s, err := newServer(r, opts)
	if err != nil {
		return nil, err
	}
	if opts.WarmDecoders {
		go func() {
			for _, a := range s.nativeArchs() {
				if _, err := s.decoder(a.ID); err != nil {
					s.log.Warn("building decoder", "arch", a.ID, "err", err)
				}
			}
		}()
	}
	return s, nil
}

func newServer(r store.Reader, opts Options) (*server, error) {
	if r == nil {
		return nil, fmt.Errorf("web: nil store")
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx := context.Background()
	info, err := r.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("web: reading build info: %w", err)
	}
	archs, err := r.Archs(ctx)
	if err != nil {
		return nil, fmt.Errorf("web: listing architectures: %w", err)
	}
	static, assetHash, err := loadStatic()
	if err != nil {
		return nil, err
	}
	pages, err := parseTemplates(static)
	if err != nil {
		return nil, err
	}
	maxAge := opts.PageMaxAge
	if maxAge <= 0 {
		maxAge = 5 * time.Minute
	}
	cacheBytes := opts.CacheBytes
	if cacheBytes == 0 {
		cacheBytes = 32 << 20
	}
	s := &server{
		cache:  newPageCache(cacheBytes),
		store:  r,
		log:    log,
		info:   info,
		etag:   `W/"` + sanitizeETag(info.ID) + "." + assetHash[:12] + `"`,
		maxAge: fmt.Sprintf("public, max-age=%d", int(maxAge.Seconds())),
		pages:  pages,
		static: static,
		mux:    http.NewServeMux(),
		archs:  archs,
		codecs: codecache.New(r),
	}
	s.routes()
	return s, nil
}

// sanitizeETag keeps an ETag opaque-tag legal whatever the build id holds.
func sanitizeETag(id string) string {
	var b strings.Builder
	for _, c := range id {
		if c > 0x20 && c < 0x7f && c != '"' && c != '\\' {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "nobuild"
	}
	return b.String()
}

func (s *server) routes() {
	s.mux.HandleFunc("GET /{$}", s.handleHome)
	s.mux.HandleFunc("GET /amdgpu", s.redirectTo("/"))
	s.mux.HandleFunc("GET /amdgpu/{$}", s.redirectTo("/"))
	s.mux.HandleFunc("GET /amdgpu/{arch}", s.handleFamily)
	s.mux.HandleFunc("GET /amdgpu/{arch}/{name}", s.handleInstruction)
	s.mux.HandleFunc("GET /amdgpu/{arch}/category/{cat}", s.handleCategory)
	s.mux.HandleFunc("GET /ptx", s.handlePTXIndex)
	s.mux.HandleFunc("GET /ptx/{$}", s.redirectTo("/ptx"))
	s.mux.HandleFunc("GET /ptx/{name}", s.handlePTXInstruction)
	s.mux.HandleFunc("GET /ptx/{name}/{part}", s.handlePTXPart)
	s.mux.HandleFunc("GET /ptx/category/{cat}", s.handleCategory)
	s.mux.HandleFunc("GET /about", s.handleAbout)
	s.mux.HandleFunc("GET /compare/{name}", s.handleCompare)
	s.mux.HandleFunc("GET /search", s.handleSearch)
	s.mux.HandleFunc("GET /decode", s.handleDecode)
	s.mux.HandleFunc("GET /explain", s.handleExplain)
	s.mux.HandleFunc("POST /explain", s.handleExplain)
	s.mux.HandleFunc("GET /concepts", s.handleConcepts)
	s.mux.HandleFunc("GET /concepts/{$}", s.redirectTo("/concepts"))
	s.mux.HandleFunc("GET /concepts/{id}", s.handleConcept)
	s.mux.HandleFunc("GET /quality", s.handleQuality)
	s.mux.HandleFunc("GET /quality/{$}", s.redirectTo("/quality"))
	s.mux.HandleFunc("GET /quality/{arch}", s.handleQualityFamily)
	s.mux.HandleFunc("GET /healthz", s.handleHealth)
	s.mux.HandleFunc("GET /static/{file}", s.handleStatic)
	s.mux.HandleFunc("GET /favicon.ico", s.handleFavicon)

	s.api("GET /api/v1/info", s.apiInfo)
	s.api("GET /api/v1/archs", s.apiArchs)
	s.api("GET /api/v1/archs/{arch}", s.apiArch)
	s.api("GET /api/v1/archs/{arch}/instructions", s.apiList)
	s.api("GET /api/v1/archs/{arch}/instructions/{name}", s.apiInstruction)
	s.api("GET /api/v1/search", s.apiSearch)
	s.api("GET /api/v1/decode", s.apiDecode)
	s.api("GET /api/v1/encode", s.apiEncode)
	s.api("GET /api/v1/eval", s.apiEval)
	s.api("GET /api/v1/openapi.json", s.apiOpenAPI)
	s.api("GET /api/asm/{arch}/{opcode}", s.apiAsmDoc)
	s.api("GET /api/asm/{arch}/{family}/{opcode}", s.apiAsmDocFamily)
	s.mux.HandleFunc("/api/", s.apiNotFound)

	s.mux.HandleFunc("/", s.handleNotFound)
}

func (s *server) api(pattern string, h http.HandlerFunc) {
	s.apiPatterns = append(s.apiPatterns, pattern)
	s.mux.HandleFunc(pattern, h)
}

// ServeHTTP adds the security headers, recovers from panics and logs.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	h := w.Header()
	h.Set("Content-Security-Policy", ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
	if cors(w, r) {
		return
	}
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic serving request", "path", r.URL.Path, "panic", p)
			if !rec.wrote {
				http.Error(rec, "internal error", http.StatusInternalServerError)
			}
		}
		s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
			"duration", time.Since(start))
	}()
	if a, ok := s.cache.get(r.URL.RequestURI()); ok && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		resp := response{status: a.resp.status, contentType: a.resp.contentType, body: a.resp.body,
			cache: a.resp.cache, etag: a.resp.etag}
		if acceptsGzip(r) && len(resp.body) >= minGzipSize {
			resp.gzipped = a.gzipped()
		}
		s.send(rec, r, resp)
		return
	}
	s.mux.ServeHTTP(rec, r)
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

// NewServer returns an http.Server for h with timeouts that keep slow or idle
// clients from holding connections forever.
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}

// response is a fully rendered answer.
type response struct {
	status      int
	contentType string
	body        []byte
	cache       string // Cache-Control; "" means no-store
	etag        string
	gzipped     []byte // precompressed body, if any
}

var gzipPool = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return w
}}

// minGzipSize is the body size below which compression is not worth it.
const minGzipSize = 1024

// send writes resp, answering 304 when the client holds the same ETag and
// compressing when the client accepts gzip.
func (s *server) send(w http.ResponseWriter, r *http.Request, resp response) {
	h := w.Header()
	h.Set("Content-Type", resp.contentType)
	h.Add("Vary", "Accept-Encoding")
	if resp.cache != "" {
		h.Set("Cache-Control", resp.cache)
	} else {
		h.Set("Cache-Control", "no-store")
	}
	if resp.etag != "" && resp.status == http.StatusOK {
		h.Set("ETag", resp.etag)
		if etagMatches(r.Header.Get("If-None-Match"), resp.etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	body := resp.body
	if acceptsGzip(r) && len(body) >= minGzipSize {
		if resp.gzipped != nil {
			body = resp.gzipped
		} else {
			var buf bytes.Buffer
			buf.Grow(len(body) / 4)
			zw := gzipPool.Get().(*gzip.Writer)
			zw.Reset(&buf)
			zw.Write(body)
			zw.Close()
			gzipPool.Put(zw)
			body = buf.Bytes()
		}
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(resp.status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// etagMatches implements the weak comparison If-None-Match uses.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q = strings.ReplaceAll(strings.TrimSpace(q), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

func (s *server) redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusMovedPermanently)
	}
}

func (s *server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if _, err := s.store.Info(r.Context()); err != nil {
		s.send(w, r, response{status: http.StatusServiceUnavailable, contentType: "text/plain; charset=utf-8",
			body: []byte("database unavailable\n")})
		return
	}
	s.send(w, r, response{status: http.StatusOK, contentType: "text/plain; charset=utf-8",
		body: []byte("ok " + s.info.ID + "\n")})
}

// staticFile is an embedded asset with its precompressed body.
type staticFile struct {
	name, contentType string
	body, gzipped     []byte
	etag              string
}

func loadStatic() (map[string]*staticFile, string, error) {
	files := map[string]*staticFile{}
	all := sha256.New()
	err := fs.WalkDir(assets, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assets, path)
		if err != nil {
			return err
		}
		all.Write([]byte(path))
		all.Write(b)
		if !strings.HasPrefix(path, "static/") {
			return nil
		}
		name := strings.TrimPrefix(path, "static/")
		sum := sha256.Sum256(b)
		f := &staticFile{name: name, body: b, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		switch {
		case strings.HasSuffix(name, ".css"):
			f.contentType = "text/css; charset=utf-8"
		case strings.HasSuffix(name, ".js"):
			f.contentType = "text/javascript; charset=utf-8"
		case strings.HasSuffix(name, ".svg"):
			f.contentType = "image/svg+xml"
		default:
			f.contentType = "application/octet-stream"
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		f.gzipped = buf.Bytes()
		files[name] = f
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("web: reading embedded assets: %w", err)
	}
	return files, hex.EncodeToString(all.Sum(nil)), nil
}

func (s *server) handleStatic(w http.ResponseWriter, r *http.Request) {
	f, ok := s.static[r.PathValue("file")]
	if !ok {
		s.handleNotFound(w, r)
		return
	}
	s.send(w, r, response{status: http.StatusOK, contentType: f.contentType, body: f.body, gzipped: f.gzipped,
		etag: f.etag, cache: fmt.Sprintf("public, max-age=%d, immutable", int(staticMaxAge.Seconds()))})
}

func (s *server) handleFavicon(w http.ResponseWriter, r *http.Request) {
	f := s.static["icon.svg"]
	s.send(w, r, response{status: http.StatusOK, contentType: f.contentType, body: f.body, etag: f.etag,
		cache: fmt.Sprintf("public, max-age=%d", int(staticMaxAge.Seconds()))})
}

// staticURL is the cache-busting URL of an embedded asset.
func (s *server) staticURL(name string) string {
	if f, ok := s.static[name]; ok {
		return "/static/" + name + "?v=" + strings.Trim(f.etag, `"`)
	}
	return "/static/" + name
}
