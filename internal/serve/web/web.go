// Package web serves the reference: the HTML pages (home, family index,
// instruction pages for AMD and PTX, compare, search, 404 with suggestions,
// the cross-vendor concept pages, the data-quality report and the machine-code
// decode box) and the JSON API under /api/v1, over a store.Reader. It never
// parses upstream files.
//
// Every response is rendered into memory first, so errors become proper
// error pages. A 200 answer is kept (cache.go): compressed once, with
// ready-made headers, an ETag derived from the database build id (and the
// embedded templates and assets), and sent as bytes from then on — by a
// small HTTP/1.1 loop in front of net/http where the server runs behind
// Site.Listener (fastpath.go). Open serves a database file one generation
// at a time and follows rebuilds of it (site.go). Every response carries
// the build id and a Content-Security-Policy that allows no inline script
// or style.
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/gpuisa/gpuisa/internal/amd/codecache"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/store/quality"
	"github.com/gpuisa/gpuisa/internal/store/sassindex"
	"github.com/gpuisa/gpuisa/internal/xvendor/concepts"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
	"github.com/gpuisa/gpuisa/internal/xvendor/semdiff"
)

// Options configure the handler.
type Options struct {
	// Logger receives internal errors and database swaps; nil discards
	// them.
	Logger *slog.Logger
	// LogRequests writes one line per request to Logger.
	LogRequests bool
	// PageMaxAge is the Cache-Control max-age of pages and API answers;
	// zero means 5 minutes. Clients revalidate with the ETag afterwards.
	PageMaxAge time.Duration
	// CacheBytes bounds the memory of kept answers (rendered once,
	// compressed); zero means DefaultCacheBytes and a negative value turns
	// the cache off.
	CacheBytes int
	// WatchInterval is how often a Site checks its path for a new
	// database file; zero means every second, negative never.
	WatchInterval time.Duration
	// Verification reports the oracle passes a serve runs in the background
	// over a provisional database (see Verification); nil when it runs none.
	Verification func() Verification
}

// DefaultCacheBytes is the default memory for kept answers: answers are
// kept gzip-compressed (about 7 KB a page), so this holds every page and
// API document of a full database.
const DefaultCacheBytes = 256 << 20

// ContentSecurityPolicy is sent with every response: scripts and styles only
// from this origin, nothing inline, no framing.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// staticMaxAge is the cache lifetime of /static assets; their URLs carry a
// content hash, so a new build of the binary changes the URL.
const staticMaxAge = 365 * 24 * time.Hour

type server struct {
	store       store.Reader
	log         *slog.Logger
	logRequests bool
	// health says why the database file is not what is served ("" when
	// it is); nil means the store is fixed (New).
	health func() string
	// healthNote, when set, is what /healthz adds to its answer ("" for
	// nothing): a new file being validated.
	healthNote func() string
	// verify is Options.Verification.
	verify func() Verification
	info   isa.BuildInfo
	etag   string // weak ETag of every page and API answer of this build
	// buildHeader is the BuildHeader value, info.ID.
	buildHeader []string
	maxAge      string
	pages       *pageTemplates
	static      map[string]*staticFile
	mux         *http.ServeMux
	// apiPatterns records the API routes as registered, for the OpenAPI check.
	apiPatterns []string
	archs       []isa.Architecture
	// processors finds the targets a product name leads to (search,
	// generation pages).
	processors *isa.ProcessorIndex

	listMu   sync.Mutex
	lists    map[string][]isa.Summary
	nameSets map[string]map[string]bool // arch -> names of its instruction pages

	// codecs are the families' decoders, encoders and notes.
	codecs *codecache.Cache

	ptxCheckOnce sync.Once
	ptxCheck     *ptx.Checker
	ptxCheckErr  error

	conceptsOnce sync.Once
	concepts     *conceptData
	conceptsErr  error

	// nameIndex says which instructions each family has, for porting
	// PTX (explainptx.go).
	nameIndexOnce sync.Once
	nameIndex     *concepts.NameIndex
	nameIndexErr  error

	qualityOnce sync.Once
	quality     *quality.Report
	qualityErr  error

	semLibs sync.Map // arch -> *sem.Library, for eval (eval.go)
	// semDiff is the differences by evaluation (semdiff.go).
	semDiffOnce sync.Once
	semDiff     *semdiff.Result

	cache *answerCache
	// rendering dedupes concurrent renders of one answer; renderSlots
	// bounds how many requests render at once; uploadSlots bounds how
	// many of those are uploads (uploadShare).
	rendering   inflight
	renderSlots chan struct{}
	uploadSlots chan struct{}
	// bodySlots bounds the request bodies held in memory at once (each
	// up to maxRequestBody, from its first byte to the answer's end);
	// clientBodies gives each client address its share of them.
	bodySlots    chan struct{}
	clientBodies clientShares
	// noStoredAnswers is set once the database's stored answers turn out
	// to be another program's (prerender.go).
	noStoredAnswers atomic.Bool

	costTables sync.Map // arch -> *costEntries (costtable.go)

	diffOnce sync.Once
	diffs    *famdiff.Facts

	// sassIdx is the SASS reference's index (sass.go), sassErr why the
	// database has none; a failed read keeps neither.
	sassMu  sync.Mutex
	sassIdx *sassindex.Index
	sassErr error
}

// New returns the handler serving the site and the API from r, which must
// not change while it is served (Open serves a file that builds replace).
// It reads the build info and the family list once.
func New(r store.Reader, opts Options) (http.Handler, error) {
	return newServer(r, opts)
}

func newLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return l
}

func newServer(r store.Reader, opts Options) (*server, error) {
	if r == nil {
		return nil, fmt.Errorf("web: nil store")
	}
	log := newLogger(opts.Logger)
	ctx := context.Background()
	info, err := r.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("web: reading build info: %w", err)
	}
	archs, err := r.Archs(ctx)
	if err != nil {
		return nil, fmt.Errorf("web: listing architectures: %w", err)
	}
	static, assetHash, pages, err := sharedAssets()
	if err != nil {
		return nil, err
	}
	maxAge := opts.PageMaxAge
	if maxAge <= 0 {
		maxAge = 5 * time.Minute
	}
	cacheBytes := opts.CacheBytes
	if cacheBytes == 0 {
		cacheBytes = DefaultCacheBytes
	}
	slots := max(2, runtime.GOMAXPROCS(0))
	s := &server{
		cache:        newAnswerCache(cacheBytes),
		renderSlots:  make(chan struct{}, slots),
		uploadSlots:  make(chan struct{}, uploadShare(slots)),
		bodySlots:    make(chan struct{}, maxBodiesHeld),
		clientBodies: clientShares{per: maxBodiesHeld / 4},
		store:        r,
		log:          log,
		logRequests:  opts.LogRequests,
		verify:       opts.Verification,
		info:         info,
		etag:         `W/"` + sanitizeETag(info.ID) + "." + assetHash[:12] + `"`,
		buildHeader:  []string{sanitizeETag(info.ID)},
		maxAge:       fmt.Sprintf("public, max-age=%d", int(maxAge.Seconds())),
		pages:        pages,
		static:       static,
		mux:          http.NewServeMux(),
		archs:        archs,
		processors:   isa.NewProcessorIndex(archs),
		codecs:       codecache.New(r),
	}
	s.routes()
	return s, nil
}

// The embedded assets and templates are the same for every database
// generation: parsed and compressed once per process.
var (
	assetsOnce  sync.Once
	assetsFiles map[string]*staticFile
	assetsHash  string
	assetsPages *pageTemplates
	assetsErr   error
)

func sharedAssets() (map[string]*staticFile, string, *pageTemplates, error) {
	assetsOnce.Do(func() {
		assetsFiles, assetsHash, assetsErr = loadStatic()
		if assetsErr == nil {
			assetsPages, assetsErr = parseTemplates(assetsFiles)
		}
	})
	return assetsFiles, assetsHash, assetsPages, assetsErr
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
	s.mux.HandleFunc("GET /amdgpu/{arch}/cost", s.handleCostTable)
	s.index("/ptx", s.handlePTXIndex)
	s.mux.HandleFunc("GET /ptx/{name}", s.handlePTXInstruction)
	s.mux.HandleFunc("GET /ptx/{name}/{part}", s.handlePTXPart)
	s.mux.HandleFunc("GET /ptx/category/{cat}", s.handleCategory)
	s.mux.HandleFunc("GET /about", s.handleAbout)
	s.mux.HandleFunc("GET /compare/{name}", s.handleCompare)
	s.mux.HandleFunc("GET /search", s.handleSearch)
	s.mux.HandleFunc("GET /decode", s.handleDecode)
	s.mux.HandleFunc("GET /explain", s.handleExplain)
	s.mux.HandleFunc("POST /explain", s.handleExplain)
	s.index("/concepts", s.handleConcepts)
	s.mux.HandleFunc("GET /concepts/{id}", s.handleConcept)
	s.index("/quality", s.handleQuality)
	s.mux.HandleFunc("GET /quality/{arch}", s.handleQualityFamily)
	s.index("/sass", s.handleSASSIndex)
	s.mux.HandleFunc("GET /sass/{name}", s.handleSASS)
	s.mux.HandleFunc("GET /healthz", s.handleHealth)
	s.mux.HandleFunc("GET /static/{file}", s.handleStatic)
	s.mux.HandleFunc("GET /favicon.ico", s.handleFavicon)

	s.diffRoutes()

	s.api("GET /api/v1/info", s.apiInfo)
	s.api("GET /api/v1/status", s.apiStatus)
	s.api("GET /api/v1/archs", s.apiArchs)
	s.api("GET /api/v1/archs/{arch}", s.apiArch)
	s.api("GET /api/v1/archs/{arch}/instructions", s.apiList)
	s.api("GET /api/v1/archs/{arch}/cost", s.apiCostTable)
	s.api("GET /api/v1/archs/{arch}/instructions/{name}", s.apiInstruction)
	s.api("GET /api/v1/search", s.apiSearch)
	s.api("GET /api/v1/decode", s.apiDecode)
	s.api("GET /api/v1/encode", s.apiEncode)
	s.api("GET /api/v1/eval", s.apiEval)
	s.api("GET /api/v1/ptx/check", s.apiPTXCheck)
	s.api("GET /api/v1/diff/{a}/{b}", s.apiDiff)
	s.api("GET /api/v1/openapi.json", s.apiOpenAPI)
	s.api("GET /api/asm/{arch}/{opcode}", s.apiAsmDoc)
	s.api("GET /api/asm/{arch}/{family}/{opcode}", s.apiAsmDocFamily)
	// The catch-alls are GET routes too, so any other method on any path
	// answers 405 with Allow (the mux does that for method-only mismatches).
	s.mux.HandleFunc("GET /api/", s.apiNotFound)

	s.mux.HandleFunc("GET /", s.handleNotFound)
}

// index registers a section's index page at path; path/ redirects to it.
func (s *server) index(path string, h http.HandlerFunc) {
	s.mux.HandleFunc("GET "+path, h)
	s.mux.HandleFunc("GET "+path+"/{$}", s.redirectTo(path))
}

func (s *server) api(pattern string, h http.HandlerFunc) {
	s.apiPatterns = append(s.apiPatterns, pattern)
	s.mux.HandleFunc(pattern, h)
}

// BuildHeader names the response header carrying the build id of the
// database generation that produced the answer.
const BuildHeader = "X-Gpuisa-Build"

// securityHeaders go on every response, as ready-made header values.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", ContentSecurityPolicy},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "same-origin"},
	{"X-Frame-Options", "DENY"},
	{"Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"},
	{"Cross-Origin-Opener-Policy", "same-origin"},
	{"Cross-Origin-Resource-Policy", "same-origin"},
}

// securityValues are securityHeaders' values as header slices, shared by
// every response.
var securityValues = func() [][]string {
	out := make([][]string, len(securityHeaders))
	for i, kv := range securityHeaders {
		out[i] = []string{kv[1]}
	}
	return out
}()

// inflight records the answers being rendered.
type inflight struct {
	mu   sync.Mutex
	keys map[string]chan struct{}
}

// join returns nil when the caller renders key (and must call done), else
// a channel closed when the renderer is done.
func (f *inflight) join(key string) <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ch, ok := f.keys[key]; ok {
		return ch
	}
	if f.keys == nil {
		f.keys = map[string]chan struct{}{}
	}
	f.keys[key] = make(chan struct{})
	return nil
}

func (f *inflight) done(key string) {
	f.mu.Lock()
	close(f.keys[key])
	delete(f.keys, key)
	f.mu.Unlock()
}

// ServeHTTP adds the security headers and the build id, recovers from
// panics and logs.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	h := w.Header()
	for i, kv := range securityHeaders {
		h[kv[0]] = securityValues[i]
	}
	h[BuildHeader] = s.buildHeader
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
		if s.logRequests {
			s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", rec.status,
				"duration", time.Since(start))
		}
	}()
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		key := cacheKey(r)
		if a := s.cache.get(key); a != nil {
			s.sendAnswer(rec, r, a)
			return
		}
		if a := s.storedAnswer(r.Context(), key); a != nil {
			s.sendAnswer(rec, r, a)
			return
		}
		// One render per answer: a request for one being rendered waits
		// for it and is answered from the cache.
		if s.cache != nil && len(key) <= maxCacheKey {
			if wait := s.rendering.join(key); wait != nil {
				<-wait
				if a := s.cache.get(key); a != nil {
					s.sendAnswer(rec, r, a)
					return
				}
			} else {
				defer s.rendering.done(key)
			}
		}
	}
	// A body is read before the render slot is taken: a client trickling
	// an upload must hold only its own connection, never a slot that every
	// uncached answer waits for.
	if r.Method == http.MethodPost {
		// Bodies wait for a place before a byte is read: reading first
		// holds only a connection, but every waiting body would be
		// memory. A waiting upload holds no render slot either. A client
		// waits for its own share first, so one address trickling many
		// uploads cannot hold every place.
		release, ok := s.clientBodies.acquire(r.Context(), clientHost(r.RemoteAddr))
		if !ok {
			return
		}
		defer release()
		select {
		case s.bodySlots <- struct{}{}:
			defer func() { <-s.bodySlots }()
		case <-r.Context().Done():
			return
		}
		if !bufferBody(rec, r) {
			return
		}
	}
	// Rendering is CPU work: more at once than there are cores only adds
	// memory (each holds a document and a page) and latency. An upload
	// takes its share first, so uploads (an /explain of 4 MB renders for
	// seconds) hold at most that share and every other answer always
	// has slots of its own.
	if p := r.URL.Path; p != "/healthz" && !strings.HasPrefix(p, "/static/") {
		if r.Method == http.MethodPost {
			s.uploadSlots <- struct{}{}
			defer func() { <-s.uploadSlots }()
		}
		s.renderSlots <- struct{}{}
		defer func() { <-s.renderSlots }()
	}
	// Answers are kept for every later client: one that goes away (or
	// half-closes) mid-render must not leave a page unrendered or turn it
	// into an error.
	s.mux.ServeHTTP(rec, r.WithContext(context.WithoutCancel(r.Context())))
}

// uploadShare is how many of slots render slots uploads may hold at
// once: half, at least one, and always at least one fewer than all, so
// a page, search or API answer never waits for an upload's render.
func uploadShare(slots int) int {
	return max(1, min(slots/2, slots-1))
}

// maxBodiesHeld bounds the request bodies in memory at once: 64 of the
// largest are 260 MB; more uploads wait, holding only their connections
// (and meet the server's read timeout if the wait is long).
const maxBodiesHeld = 64

// clientShares bounds how many of something each client address holds
// at once. Behind a proxy every client has the proxy's address and they
// share one share: their uploads are bounded by it, their GETs are not.
type clientShares struct {
	per int
	mu  sync.Mutex
	m   map[string]*clientShare
}

type clientShare struct {
	slots chan struct{}
	users int // holding or waiting; the entry goes with the last
}

// acquire waits for one of host's places; release gives it back. ok is
// false, with nothing held, when ctx ends first.
func (c *clientShares) acquire(ctx context.Context, host string) (release func(), ok bool) {
	c.mu.Lock()
	sh := c.m[host]
	if sh == nil {
		if c.m == nil {
			c.m = map[string]*clientShare{}
		}
		sh = &clientShare{slots: make(chan struct{}, c.per)}
		c.m[host] = sh
	}
	sh.users++
	c.mu.Unlock()
	leave := func() {
		c.mu.Lock()
		if sh.users--; sh.users == 0 {
			delete(c.m, host)
		}
		c.mu.Unlock()
	}
	select {
	case sh.slots <- struct{}{}:
		return func() { <-sh.slots; leave() }, true
	case <-ctx.Done():
		leave()
		return nil, false
	}
}

// clientHost is the address part of a RemoteAddr ("127.0.0.1:5000").
func clientHost(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}

// maxRequestBody bounds a request body: the largest any route takes (an
// /explain upload with its form fields).
const maxRequestBody = maxExplainInput + 64<<10

// bufferBody reads r's body, at most maxRequestBody bytes, into memory and
// puts it back as r.Body. A body over the limit is put back as its first
// bytes followed by the *http.MaxBytesError, so the handler answers its own
// 413. A body that does not arrive is answered here, false: 408 when it
// timed out, else 400, in words that name no socket (the read error does).
func bufferBody(w http.ResponseWriter, r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
	r.Body.Close()
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		r.Body = io.NopCloser(bytes.NewReader(b))
		return true
	case errors.As(err, &tooBig):
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(b), errReader{err}))
		return true
	}
	w.Header().Set("Connection", "close")
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		http.Error(w, "The request body did not arrive in time.", http.StatusRequestTimeout)
		return false
	}
	http.Error(w, "The request body could not be read (the connection ended before it was complete).", http.StatusBadRequest)
	return false
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

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
	if acceptedCodings(r).gzip && len(body) >= minGzipSize {
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

func (s *server) redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusMovedPermanently)
	}
}

// handleHealth answers 200 "ok BUILD" while the database file is the one
// served, else 503 with the reason (the old generation goes on serving).
func (s *server) handleHealth(w http.ResponseWriter, r *http.Request) {
	problem := ""
	if s.health != nil {
		problem = s.health()
	} else if _, err := s.store.Info(r.Context()); err != nil {
		problem = "database unavailable: " + err.Error()
	}
	note := ""
	if s.healthNote != nil {
		if n := s.healthNote(); n != "" {
			note = " (" + n + ")"
		}
	}
	if problem != "" {
		s.send(w, r, response{status: http.StatusServiceUnavailable, contentType: "text/plain; charset=utf-8",
			body: []byte("degraded: " + problem + note + "\n")})
		return
	}
	s.send(w, r, response{status: http.StatusOK, contentType: "text/plain; charset=utf-8",
		body: []byte("ok " + s.info.ID + note + "\n")})
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
		if path == "static/style.css" {
			if b, err = withPickerCSS(b); err != nil {
				return err
			}
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

// pickerMarker is the line of style.css that pickerCSS replaces.
const pickerMarker = "/* family-picker: one rule per family, written from isa's family table (web.pickerCSS) */\n"

// withPickerCSS puts the family picker's rules in place of style.css's
// marker line.
func withPickerCSS(css []byte) ([]byte, error) {
	if bytes.Count(css, []byte(pickerMarker)) != 1 {
		return nil, fmt.Errorf("web: style.css lacks the family-picker marker line")
	}
	return bytes.Replace(css, []byte(pickerMarker), []byte(pickerCSS()), 1), nil
}

// pickerCSS hides, while a family is picked on a PTX page, the relations
// and members of the other families: one rule per AMD family, by its
// isa.ArchInfo.Class, in display order.
func pickerCSS() string {
	var b strings.Builder
	ids := isa.AMDArchIDs()
	for i, id := range ids {
		c := isa.MustArch(id).Class
		fmt.Fprintf(&b, "#cpf-%[1]s:checked ~ .cps li.cpg:not(.f-%[1]s), #cpf-%[1]s:checked ~ .cps li.cp:not(.f-%[1]s), #cpf-%[1]s:checked ~ .cps ul.members > li:not(.f-%[1]s)", c)
		if i < len(ids)-1 {
			b.WriteString(",\n")
		} else {
			b.WriteString(" { display: none; }\n")
		}
	}
	return b.String()
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
