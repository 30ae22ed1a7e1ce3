package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/serve/web"
	"github.com/gpuisa/gpuisa/internal/store"
)

func newServeCmd(e *env) *cobra.Command {
	var addr string
	var bf buildFlags
	var rebuild, logRequests, fastPath bool
	var cacheMB int
	var watch time.Duration
	cmd := &cobra.Command{
		Use:   "serve [--addr :8080] [--db FILE]",
		Short: "Serve the reference website and JSON API",
		Long: `Serve opens the database read-only and serves the website and the JSON API
(/api/v1/...). The server stops cleanly on SIGINT/SIGTERM.

When the database does not exist yet (or with --rebuild), serve first builds it from
the sources (--sources, $GPUISA_SOURCES or ../shared/upstream) with the documents'
facts alone, which takes seconds, and answers every page from that provisional
database (a banner says what is not verified yet) while the oracle passes run in the
background: llvm-mc, llvm-mca and opt first (a minute or two with empty caches), then
ptxas and nvdisasm with every page rendered into the database (several minutes). Each pass writes a more-verified database onto the path and the server swaps
to it whole; /about and /api/v1/status show the progress and /healthz stays 200.
Stopped before the last pass lands, the next serve finds the provisional database and
verifies it again. With --no-verify serve builds the unverified database and stops
there.

Updating a running site: run "gpuisa build --out FILE" onto the served file. The build
writes a new file and renames it into place; serve checks the path every --watch
interval, takes a private copy of the new file (unlinked, beside it or in the temporary
directory), validates all of it (SQLite header, schema version, SQLite's integrity
check, every table's row count and checksum against the manifest the build wrote) and
swaps to it whole: every answer comes from one database, and the X-Gpuisa-Build header
and the ETags name the build that produced it. Requests already running finish on the
old copy. When the file is deleted, unreadable, damaged or written over in place with
something that does not validate, serve goes on answering from the copy it has open
and /healthz answers 503 naming the reason and the build answering, until a valid file
is back at the path. Validating takes about a second per 100 MB.

Every page and API answer is rendered once and kept, compressed, for the database it
came from (--page-cache-mb bounds the memory); a GET or HEAD of a kept answer is
written straight from those bytes by a small HTTP/1.1 loop in front of Go's net/http
(--fast-path=false turns it off), everything else goes to net/http. Request sizes are
bounded: headers 64 KiB, search queries 200 characters, decode input 8 KiB of text
(1 KiB of machine code), encode input 512 characters.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			verify, err := e.prepareServe(ctx, &bf, rebuild)
			if err != nil {
				return err
			}
			logger := slog.New(slog.NewTextHandler(e.stderr, nil))
			if watch <= 0 {
				watch = -1
			}
			opts := web.Options{Logger: logger, LogRequests: logRequests, CacheBytes: cacheBytes(cacheMB), WatchInterval: watch}
			var status *verifyStatus
			if verify {
				// Lines, not a bar: the server logs between them.
				status = newVerifyStatus(&ingest.LineProgress{W: e.stderr})
				opts.Verification = status.snapshot
			}
			site, err := web.Open(e.dbPath, opts)
			if err != nil {
				return err
			}
			defer site.Close()
			srv := web.NewServer(addr, site)
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "serving %s (build %s) on http://%s/\n", e.dbPath, site.BuildID(), displayAddr(ln.Addr()))
			if fastPath && !logRequests {
				ln = site.Listener(ln)
			}
			bg, stopBG := context.WithCancel(ctx)
			var verifying sync.WaitGroup
			if verify {
				verifying.Add(1)
				go func() {
					defer verifying.Done()
					e.verifyInBackground(bg, &bf, site, status)
				}()
			}
			// A pass stopped midway leaves the database it was replacing;
			// its oracle processes stop with the context.
			defer waitAtMost(&verifying, 5*time.Second)
			defer stopBG()
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
			select {
			case err := <-errc:
				return err
			case <-ctx.Done():
				shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				return srv.Shutdown(shut)
			}
		},
	}
	cmd.Flags().StringVar(&addr, "addr", ":8080", "address to listen on")
	bf.register(cmd.Flags())
	cmd.Flags().BoolVar(&rebuild, "rebuild", false, "rebuild the database before serving")
	cmd.Flags().IntVar(&cacheMB, "page-cache-mb", web.DefaultCacheBytes>>20, "memory for kept pages and API answers, in MiB (0 turns the cache off)")
	cmd.Flags().DurationVar(&watch, "watch", time.Second, "how often to check the database file for a new build (0: never)")
	cmd.Flags().BoolVar(&logRequests, "log-requests", false, "log one line per request to stderr (turns the fast path off)")
	cmd.Flags().BoolVar(&fastPath, "fast-path", true, "answer requests for kept pages without net/http (see web.Site.Listener)")
	return cmd
}

// documentsOnly is what the first, provisional database leaves unverified.
const documentsOnly = "the documents' facts alone, before llvm-mc, llvm-mca, ptxas and nvdisasm have checked them"

// prepareServe makes sure there is a database to serve. A missing one (or
// any with --rebuild) is built without its oracles, in seconds, unless
// --no-verify asks for no more than that; verify says whether the served
// database is provisional and the oracle passes are to run behind it.
func (e *env) prepareServe(ctx context.Context, bf *buildFlags, rebuild bool) (verify bool, err error) {
	_, statErr := os.Stat(e.dbPath)
	if !rebuild && statErr == nil {
		provisional, err := provisionalOf(ctx, e.dbPath)
		if err != nil {
			return false, err
		}
		if provisional != "" && !bf.noVerify {
			fmt.Fprintf(e.stderr, "%s is provisional (%s): verifying it in the background\n", e.dbPath, provisional)
			return true, nil
		}
		return false, nil
	}
	if !rebuild && !errors.Is(statErr, os.ErrNotExist) {
		return false, statErr
	}
	if bf.noVerify {
		_, err := runBuild(ctx, e, bf, e.dbPath, false)
		return false, err
	}
	quick := *bf
	quick.noVerify, quick.noPrerender, quick.provisional = true, true, documentsOnly
	start := time.Now()
	if _, err := runBuild(ctx, e, &quick, e.dbPath, false); err != nil {
		return false, err
	}
	fmt.Fprintf(e.stderr, "first answers from the documents' facts after %s; llvm-mc, llvm-mca, ptxas and nvdisasm verify them in the background (/about shows the progress)\n",
		time.Since(start).Round(time.Millisecond))
	return true, nil
}

// provisionalOf reads what the database at path has not verified yet.
func provisionalOf(ctx context.Context, path string) (string, error) {
	db, err := store.Open(path)
	if err != nil {
		return "", err
	}
	defer db.Close()
	info, err := db.Info(ctx)
	if err != nil {
		return "", err
	}
	return info.Provisional, nil
}

// verifyPass is one background oracle pass over a provisional database: the
// build flags it changes and what the database it writes still leaves
// unverified ("" for the last pass, which writes the verified database).
type verifyPass struct {
	name string
	left string
	set  func(*buildFlags)
}

// verifyPasses put llvm-mc's verdicts (about a minute with empty caches)
// before ptxas's and nvdisasm's (several): AMD's pages are verified long
// before PTX's. Only the last renders every page into the database.
func verifyPasses(bf *buildFlags) []verifyPass {
	last := verifyPass{name: "ptxas, nvdisasm, pages", set: func(*buildFlags) {}}
	if bf.noPTXAS {
		last.name = "llvm-mc, llvm-mca, opt, pages"
		return []verifyPass{last}
	}
	llvm := verifyPass{name: "llvm-mc, llvm-mca, opt", left: "PTX forms not yet assembled by ptxas, no SASS listings yet",
		set: func(f *buildFlags) { f.noPTXAS, f.noPrerender = true, true }}
	return []verifyPass{llvm, last}
}

// verifyInBackground runs the oracle passes one after another, each writing
// its database onto the served path and swapping the site to it.
func (e *env) verifyInBackground(ctx context.Context, bf *buildFlags, site *web.Site, status *verifyStatus) {
	passes := verifyPasses(bf)
	for i, p := range passes {
		pf := *bf
		p.set(&pf)
		pf.provisional = p.left
		label := fmt.Sprintf("%d of %d: %s", i+1, len(passes), p.name)
		status.startPass(label)
		start := time.Now()
		_, err := ingest.Run(ctx, pf.options(e.dbPath, e.stderr, status))
		if err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(e.stderr, "verification pass %s failed: %v; serving the database it would have replaced\n", label, err)
			}
			status.fail(err)
			return
		}
		site.Reload()
		took := time.Since(start).Round(time.Second)
		status.landed(label, took)
		fmt.Fprintf(e.stderr, "verification pass %s landed in %s: serving build %s\n", label, took, site.BuildID())
	}
	status.finish()
}

// verifyStatus is the background passes' progress: an ingest.Progress that
// records the step it is in for the server to show, passing every report on
// to the log.
type verifyStatus struct {
	log ingest.Progress
	mu  sync.Mutex
	v   web.Verification
}

func newVerifyStatus(log ingest.Progress) *verifyStatus {
	return &verifyStatus{log: log, v: web.Verification{Running: true, Started: time.Now()}}
}

func (p *verifyStatus) Start(step string, total int) {
	p.mu.Lock()
	p.v.Step, p.v.Done, p.v.Total = strings.TrimSuffix(step, "…"), 0, total
	p.mu.Unlock()
	if p.log != nil {
		p.log.Start(step, total)
	}
}

func (p *verifyStatus) Advance(n int) {
	p.mu.Lock()
	p.v.Done += n
	p.mu.Unlock()
	if p.log != nil {
		p.log.Advance(n)
	}
}

func (p *verifyStatus) Done() {
	if p.log != nil {
		p.log.Done()
	}
}

func (p *verifyStatus) startPass(label string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.v.Pass, p.v.Step, p.v.Done, p.v.Total = label, "", 0, 0
}

func (p *verifyStatus) landed(label string, took time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.v.Landed = append(p.v.Landed, fmt.Sprintf("%s (%s)", label, took))
}

func (p *verifyStatus) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.v.Running = false
	if errors.Is(err, context.Canceled) {
		p.v.Failed = "stopped with the server"
	} else {
		p.v.Failed = err.Error()
	}
	p.v.Elapsed = time.Since(p.v.Started).Round(time.Second).String()
}

func (p *verifyStatus) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.v.Running, p.v.Pass, p.v.Step, p.v.Done, p.v.Total = false, "", "", 0, 0
	p.v.Elapsed = time.Since(p.v.Started).Round(time.Second).String()
}

// snapshot is web.Options.Verification.
func (p *verifyStatus) snapshot() web.Verification {
	p.mu.Lock()
	defer p.mu.Unlock()
	v := p.v
	v.Landed = append([]string(nil), p.v.Landed...)
	if v.Running {
		v.Elapsed = time.Since(v.Started).Round(time.Second).String()
	}
	return v
}

// waitAtMost waits for wg, or d at most.
func waitAtMost(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// cacheBytes converts the --page-cache-mb flag to web.Options.CacheBytes,
// where zero means the default and a negative value turns the cache off.
func cacheBytes(mb int) int {
	if mb <= 0 {
		return -1
	}
	return mb << 20
}

func displayAddr(a net.Addr) string {
	s := a.String()
	if strings.HasPrefix(s, "[::]:") {
		return "localhost:" + strings.TrimPrefix(s, "[::]:")
	}
	return s
}
