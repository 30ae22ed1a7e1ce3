// Package loadbench compares `gpuisa serve` with nginx serving `gpuisa
// export` of the same database, on loopback, with wrk (Debian's wrk and
// nginx): a repeated instruction page, 1,000 distinct instruction pages over
// every family, the API instruction document, the first page of every family
// on a fresh server, and uncached search. Each workload starts a fresh
// server, runs a bounded wrk load, and alternates the two servers; it prints
// requests per second, p50/p99 latency, server CPU per request and server
// RSS. Nothing leaves 127.0.0.1.
package loadbench

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gpuisa/gpuisa/internal/store"
)

// Config is one benchmark run.
type Config struct {
	DB          string        // the database both servers serve
	GPUISA      string        // the gpuisa binary; "" builds one with go build
	Site        string        // an existing `gpuisa export --gzip` of DB; "" exports one
	Seconds     int           // length of each wrk run
	Rounds      int           // how many times each workload runs per server
	Connections int           // wrk connections
	Threads     int           // wrk threads
	Pages       int           // distinct instruction pages of the mixed workload
	Out         io.Writer     // where the report goes
	Log         io.Writer     // progress
	Keep        bool          // keep the temporary directory
	startWait   time.Duration // how long a server may take to answer
}

// Main runs the benchmark with command-line flags and returns the exit
// status.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := Config{Out: stdout, Log: stderr}
	fs.StringVar(&c.DB, "db", os.Getenv("GPUISA_DB"), "database to serve (default $GPUISA_DB)")
	fs.StringVar(&c.GPUISA, "gpuisa", "", "gpuisa binary (default: go build ./cmd/gpuisa)")
	fs.StringVar(&c.Site, "site", "", "`gpuisa export --gzip` of the database (default: export one)")
	fs.IntVar(&c.Seconds, "seconds", 20, "seconds per wrk run")
	fs.IntVar(&c.Rounds, "rounds", 2, "runs per workload and server, alternating")
	fs.IntVar(&c.Connections, "connections", 64, "wrk connections")
	fs.IntVar(&c.Threads, "threads", 2, "wrk threads")
	fs.IntVar(&c.Pages, "pages", 1000, "distinct instruction pages in the mixed workload")
	fs.BoolVar(&c.Keep, "keep", false, "keep the temporary directory (export, configuration, logs)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if c.DB == "" {
		fmt.Fprintln(stderr, "loadbench: --db FILE (or $GPUISA_DB) is required")
		return 2
	}
	if err := Run(context.Background(), c); err != nil {
		fmt.Fprintln(stderr, "loadbench:", err)
		return 1
	}
	return 0
}

// workload is one wrk load.
type workload struct {
	name  string
	paths []string // one path, or the paths a Lua script cycles through
}

// server is one of the two servers under test.
type server interface {
	name() string
	start() error // a fresh process, answering when start returns
	stop()
	base() string
	pids() []int // the processes whose CPU and memory count
	readyIn() time.Duration
}

// Run runs the benchmark.
func Run(ctx context.Context, c Config) error {
	if c.Seconds <= 0 || c.Seconds > 120 {
		return fmt.Errorf("--seconds %d: from 1 to 120", c.Seconds)
	}
	if c.Rounds <= 0 {
		c.Rounds = 1
	}
	if c.startWait == 0 {
		c.startWait = 30 * time.Second
	}
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		return errors.New("wrk not found: apt-get install wrk")
	}
	nginxBin, err := findNginx()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "gpuisa-loadbench-")
	if err != nil {
		return err
	}
	if c.Keep {
		fmt.Fprintln(c.Log, "keeping", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	// nginx's workers run as another user when started as root.
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	if c.GPUISA == "" {
		c.GPUISA = filepath.Join(dir, "gpuisa")
		fmt.Fprintln(c.Log, "building gpuisa…")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", c.GPUISA, "github.com/gpuisa/gpuisa/cmd/gpuisa")
		cmd.Stdout, cmd.Stderr = c.Log, c.Log
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building gpuisa: %w", err)
		}
	}
	if c.Site == "" {
		c.Site = filepath.Join(dir, "site")
		fmt.Fprintln(c.Log, "exporting the site for nginx (gpuisa export --gzip)…")
		cmd := exec.CommandContext(ctx, c.GPUISA, "export", "--db", c.DB, "--out", c.Site, "--gzip")
		cmd.Stderr = io.Discard
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("exporting: %w", err)
		}
	}
	pages, families, err := choosePages(c.DB, c.Pages)
	if err != nil {
		return err
	}
	pathsFile := filepath.Join(dir, "paths.txt")
	if err := os.WriteFile(pathsFile, []byte(strings.Join(pages, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	script := filepath.Join(dir, "paths.lua")
	if err := os.WriteFile(script, []byte(luaScript(pathsFile)), 0o644); err != nil {
		return err
	}
	g := &gpuisaServer{bin: c.GPUISA, db: c.DB, dir: dir, process: process{wait: c.startWait, quit: syscall.SIGTERM}}
	// SIGQUIT is nginx's graceful stop: the workers exit with the master.
	n := &nginxServer{bin: nginxBin, site: c.Site, dir: dir, process: process{wait: c.startWait, quit: syscall.SIGQUIT}}
	servers := []server{g, n}
	defer g.stop()
	defer n.stop()

	loads := []workload{
		{name: "one instruction page, repeated", paths: []string{"/amdgpu/cdna4/v_max_f32"}},
		{name: fmt.Sprintf("%d distinct instruction pages", len(pages)), paths: pages},
		{name: "API instruction document", paths: []string{"/api/v1/archs/cdna4/instructions/v_max_f32"}},
	}
	rep := &report{}
	for _, l := range loads {
		for round := 0; round < c.Rounds; round++ {
			order := servers
			if round%2 == 1 {
				order = []server{n, g}
			}
			for _, s := range order {
				fmt.Fprintf(c.Log, "%s: %s, round %d…\n", l.name, s.name(), round+1)
				res, err := runWrk(ctx, c, wrk, s, l, script)
				if err != nil {
					return err
				}
				rep.add(l.name, s.name(), res)
			}
		}
	}
	for _, s := range servers {
		fmt.Fprintf(c.Log, "first pages: %s…\n", s.name())
		fp, err := firstPages(s, families)
		if err != nil {
			return err
		}
		rep.first = append(rep.first, fp)
	}
	fmt.Fprintln(c.Log, "search…")
	sr, err := searchLatency(g, n, families)
	if err != nil {
		return err
	}
	rep.search = sr
	rep.print(c.Out, g.name(), n.name())
	return nil
}

func findNginx() (string, error) {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/sbin/nginx", "/usr/local/sbin/nginx"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("nginx not found: apt-get install nginx-light")
}

// choosePages picks n instruction pages evenly over every family and, per
// family, its index page and the first page of its list.
func choosePages(db string, n int) ([]string, []family, error) {
	r, err := store.Open(db)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	ctx := context.Background()
	archs, err := r.Archs(ctx)
	if err != nil {
		return nil, nil, err
	}
	var all []string
	var fams []family
	for _, a := range archs {
		list, err := r.List(ctx, a.ID)
		if err != nil {
			return nil, nil, err
		}
		f := family{id: a.ID, index: "/amdgpu/" + url.PathEscape(a.ID)}
		prefix := f.index + "/"
		if a.ID == "ptx" {
			f.index, prefix = "/ptx", "/ptx/"
		}
		for _, s := range list {
			all = append(all, prefix+url.PathEscape(s.Name))
		}
		if len(list) > 0 {
			f.page = prefix + url.PathEscape(list[len(list)/2].Name)
			for _, s := range list {
				f.names = append(f.names, s.Name)
			}
		}
		fams = append(fams, f)
	}
	step := max(1, len(all)/n)
	var out []string
	for i := 0; i < len(all) && len(out) < n; i += step {
		out = append(out, all[i])
	}
	return out, fams, nil
}

type family struct {
	id, index, page string
	names           []string
}

// luaScript makes wrk cycle through the paths in file, each thread from its
// own starting point.
func luaScript(file string) string {
	return fmt.Sprintf(`local paths = {}
for line in io.lines(%q) do paths[#paths + 1] = line end
local counter = 0
local i = 0
function setup(thread)
  thread:set("start", counter * 997)
  counter = counter + 1
end
function init(args)
  i = tonumber(start) or 0
end
function request()
  i = i %% #paths + 1
  return wrk.format("GET", paths[i])
end
`, file)
}

// wrkResult is what one wrk run measured.
type wrkResult struct {
	rps        float64
	p50, p99   time.Duration
	requests   int64
	non2xx     int64
	sockErrors int64
	cpuPerReq  time.Duration // server CPU per request
	rssKB      int64         // server RSS after the run
	readyIn    time.Duration
}

func runWrk(ctx context.Context, c Config, wrk string, s server, l workload, script string) (wrkResult, error) {
	if err := s.start(); err != nil {
		return wrkResult{}, err
	}
	defer s.stop()
	args := []string{"-t", strconv.Itoa(c.Threads), "-c", strconv.Itoa(c.Connections), "-d", strconv.Itoa(c.Seconds) + "s",
		"--latency", "--timeout", "10s", "-H", "Accept-Encoding: gzip"}
	if len(l.paths) > 1 {
		args = append(args, "-s", script, s.base()+"/")
	} else {
		args = append(args, s.base()+l.paths[0])
	}
	cpu0 := cpuTime(s.pids())
	out, err := exec.CommandContext(ctx, wrk, args...).CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %v: %s", err, out)
	}
	cpu := cpuTime(s.pids()) - cpu0
	res, err := parseWrk(string(out))
	if err != nil {
		return res, err
	}
	if res.requests > 0 {
		res.cpuPerReq = cpu / time.Duration(res.requests)
	}
	res.rssKB = rss(s.pids())
	res.readyIn = s.readyIn()
	return res, nil
}

var (
	reRPS      = regexp.MustCompile(`Requests/sec:\s+([\d.]+)`)
	reRequests = regexp.MustCompile(`(\d+) requests in`)
	rePct      = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$`)
	reNon2xx   = regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`)
	reSocket   = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
)

// parseWrk reads wrk's --latency report.
func parseWrk(out string) (wrkResult, error) {
	var r wrkResult
	m := reRPS.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("no Requests/sec in wrk's output: %s", out)
	}
	r.rps, _ = strconv.ParseFloat(m[1], 64)
	if m := reRequests.FindStringSubmatch(out); m != nil {
		r.requests, _ = strconv.ParseInt(m[1], 10, 64)
	}
	for _, m := range rePct.FindAllStringSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		d := time.Duration(v * float64(map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[m[3]]))
		if m[1] == "50" {
			r.p50 = d
		} else {
			r.p99 = d
		}
	}
	if m := reNon2xx.FindStringSubmatch(out); m != nil {
		r.non2xx, _ = strconv.ParseInt(m[1], 10, 64)
	}
	if m := reSocket.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			n, _ := strconv.ParseInt(s, 10, 64)
			r.sockErrors += n
		}
	}
	return r, nil
}

// cpuTime sums the user and system CPU time of pids.
func cpuTime(pids []int) time.Duration {
	var total time.Duration
	for _, pid := range pids {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// Fields after the command name, which is in parentheses.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 13 {
			continue
		}
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(ut+st) * time.Second / 100 // USER_HZ
	}
	return total
}

// rss sums VmRSS of pids, in KiB.
func rss(pids []int) int64 {
	var total int64
	for _, pid := range pids {
		f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				total += n
			}
		}
		f.Close()
	}
	return total
}

// freePort returns a loopback port nothing listens on.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls url until it answers 200 or wait passes.
func waitReady(u string, wait time.Duration) (time.Duration, error) {
	start := time.Now()
	client := &http.Client{Timeout: time.Second}
	for time.Since(start) < wait {
		resp, err := client.Get(u)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return time.Since(start), nil
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	return 0, fmt.Errorf("%s did not answer within %s", u, wait)
}

// process is a server under test run as a child process on a free
// loopback port, its output appended to a log file.
type process struct {
	wait  time.Duration // how long it may take to answer /healthz
	quit  os.Signal     // asks it to exit gracefully
	cmd   *exec.Cmd
	port  int
	ready time.Duration
}

func (p *process) base() string           { return fmt.Sprintf("http://127.0.0.1:%d", p.port) }
func (p *process) readyIn() time.Duration { return p.ready }

// pids is the process alone; nil when it is not running.
func (p *process) pids() []int {
	if p.cmd == nil || p.cmd.Process == nil {
		return nil
	}
	return []int{p.cmd.Process.Pid}
}

// pickPort chooses the free port the next launch listens on.
func (p *process) pickPort() error {
	port, err := freePort()
	p.port = port
	return err
}

// launch starts cmd, its output appended to logPath, and waits until it
// answers /healthz; ready is how long that took.
func (p *process) launch(cmd *exec.Cmd, logPath string) error {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	p.cmd = cmd
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	start := time.Now()
	if err := p.cmd.Start(); err != nil {
		return err
	}
	if _, err := waitReady(p.base()+"/healthz", p.wait); err != nil {
		p.stop()
		return err
	}
	p.ready = time.Since(start)
	return nil
}

// stop sends the quit signal and kills the process if it has not exited
// within 10 s.
func (p *process) stop() {
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	p.cmd.Process.Signal(p.quit)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
	p.cmd = nil
}

// gpuisaServer runs `gpuisa serve`.
type gpuisaServer struct {
	bin, db, dir string
	process
}

func (g *gpuisaServer) name() string { return "gpuisa serve" }

func (g *gpuisaServer) start() error {
	if err := g.pickPort(); err != nil {
		return err
	}
	return g.launch(exec.Command(g.bin, "serve", "--db", g.db, "--addr", fmt.Sprintf("127.0.0.1:%d", g.port)),
		filepath.Join(g.dir, "gpuisa.log"))
}

// nginxServer runs nginx over the export, with gzip_static so it sends the
// export's precompressed files as they are.
type nginxServer struct {
	bin, site, dir string
	process
}

func (n *nginxServer) name() string { return "nginx (export)" }

// pids are the master and its workers.
func (n *nginxServer) pids() []int {
	out := n.process.pids()
	if out == nil {
		return nil
	}
	master := out[0]
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == strconv.Itoa(master) {
			out = append(out, pid)
		}
	}
	return out
}

// nginxConfig serves site on port like a CDN serves an export: every page
// at its URL, API documents without their .json, gzip_static.
func nginxConfig(site, dir string, port, workers int) string {
	return fmt.Sprintf(`worker_processes %d;
daemon off;
pid %s/nginx.pid;
error_log %s/nginx-error.log warn;
events { worker_connections 4096; }
http {
  types { text/html html; application/json json; text/css css; text/javascript js; image/svg+xml svg; }
  default_type application/octet-stream;
  charset utf-8;
  charset_types application/json;
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 100000000;
  keepalive_timeout 65;
  open_file_cache max=50000 inactive=120s;
  open_file_cache_valid 120s;
  gzip_static on;
  gzip_vary on;
  client_body_temp_path %s/nginx-body;
  proxy_temp_path %s/nginx-proxy;
  fastcgi_temp_path %s/nginx-fastcgi;
  uwsgi_temp_path %s/nginx-uwsgi;
  scgi_temp_path %s/nginx-scgi;
  server {
    listen 127.0.0.1:%d;
    root %s;
    location = /healthz { return 200 "ok\n"; }
    location / { try_files $uri $uri/index.html $uri.json =404; }
  }
}
`, workers, dir, dir, dir, dir, dir, dir, dir, port, site)
}

func (n *nginxServer) start() error {
	if err := n.pickPort(); err != nil {
		return err
	}
	conf := filepath.Join(n.dir, "nginx.conf")
	if err := os.WriteFile(conf, []byte(nginxConfig(n.site, n.dir, n.port, max(1, numCPU()))), 0o644); err != nil {
		return err
	}
	return n.launch(exec.Command(n.bin, "-c", conf, "-p", n.dir), filepath.Join(n.dir, "nginx.log"))
}

func numCPU() int {
	b, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
				n := 0
				for _, part := range strings.Split(strings.TrimSpace(v), ",") {
					lo, hi, found := strings.Cut(part, "-")
					a, _ := strconv.Atoi(lo)
					b := a
					if found {
						b, _ = strconv.Atoi(hi)
					}
					n += b - a + 1
				}
				if n > 0 {
					return n
				}
			}
		}
	}
	return 1
}

// firstPageResult is one server's first answers after a fresh start.
type firstPageResult struct {
	server  string
	ready   time.Duration
	index   map[string]time.Duration // family -> its index page, first request
	page    map[string]time.Duration // family -> one instruction page, first request
	failure string
}

// firstPages starts s fresh and asks, per family, for its index page and
// then one of its instruction pages: each the family's first request.
func firstPages(s server, fams []family) (firstPageResult, error) {
	res := firstPageResult{server: s.name(), index: map[string]time.Duration{}, page: map[string]time.Duration{}}
	if err := s.start(); err != nil {
		return res, err
	}
	defer s.stop()
	res.ready = s.readyIn()
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	for _, f := range fams {
		for _, p := range []struct {
			path string
			into map[string]time.Duration
		}{{f.index, res.index}, {f.page, res.page}} {
			if p.path == "" {
				continue
			}
			d, code, err := timedGet(client, s.base()+p.path)
			if err != nil {
				return res, err
			}
			if code != 200 && res.failure == "" {
				res.failure = fmt.Sprintf("%s answered %d", p.path, code)
			}
			p.into[f.id] = d
		}
	}
	return res, nil
}

func timedGet(client *http.Client, u string) (time.Duration, int, error) {
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Accept-Encoding", "gzip")
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return time.Since(start), resp.StatusCode, nil
}

// searchResult compares uncached search with a static JSON file.
type searchResult struct {
	queries            int
	p50, p99           time.Duration
	staticP50, static9 time.Duration
}

// searchQueries are what people type: names, prefixes, typos, words.
func searchQueries(fams []family, n int) []string {
	words := []string{"fused multiply add", "population count", "count leading zeros", "maximum", "atomic add",
		"load global", "barrier", "shuffle", "dot product", "convert float", "reciprocal square root", "wmma",
		"matrix multiply", "bit field extract", "saturate", "byte permute", "compare exchange", "shared memory"}
	var out []string
	seen := map[string]bool{}
	addQ := func(q string) {
		if q != "" && !seen[q] && len(out) < n {
			seen[q] = true
			out = append(out, q)
		}
	}
	for i := 0; len(out) < n && i < 10000; i++ {
		if i < len(words) {
			addQ(words[i])
		}
		f := fams[i%len(fams)]
		if len(f.names) == 0 {
			continue
		}
		name := f.names[(i*7919)%len(f.names)]
		switch i % 3 {
		case 0:
			addQ(name)
		case 1:
			addQ(name[:min(len(name), 6)])
		case 2:
			if len(name) > 5 { // a typo: two letters swapped
				b := []byte(name)
				b[3], b[4] = b[4], b[3]
				addQ(string(b))
			}
		}
	}
	return out
}

func searchLatency(g *gpuisaServer, n *nginxServer, fams []family) (searchResult, error) {
	var res searchResult
	qs := searchQueries(fams, 300)
	res.queries = len(qs)
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	if err := g.start(); err != nil {
		return res, err
	}
	var lat []time.Duration
	for _, q := range qs {
		d, code, err := timedGet(client, g.base()+"/api/v1/search?q="+url.QueryEscape(q))
		if err != nil {
			g.stop()
			return res, err
		}
		if code != 200 && code != 404 {
			g.stop()
			return res, fmt.Errorf("search %q: %d", q, code)
		}
		lat = append(lat, d)
	}
	g.stop()
	res.p50, res.p99 = percentile(lat, 50), percentile(lat, 99)
	if err := n.start(); err != nil {
		return res, err
	}
	defer n.stop()
	lat = lat[:0]
	for range qs {
		d, _, err := timedGet(client, n.base()+"/api/v1/archs.json")
		if err != nil {
			return res, err
		}
		lat = append(lat, d)
	}
	res.staticP50, res.static9 = percentile(lat, 50), percentile(lat, 99)
	return res, nil
}

func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, len(s)*p/100)]
}

// report collects the results.
type report struct {
	order  []string
	runs   map[string]map[string][]wrkResult // workload -> server -> runs
	first  []firstPageResult
	search searchResult
}

func (r *report) add(workload, server string, res wrkResult) {
	if r.runs == nil {
		r.runs = map[string]map[string][]wrkResult{}
	}
	if r.runs[workload] == nil {
		r.runs[workload] = map[string][]wrkResult{}
		r.order = append(r.order, workload)
	}
	r.runs[workload][server] = append(r.runs[workload][server], res)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func (r *report) print(w io.Writer, gpuisa, nginx string) {
	fmt.Fprintln(w, "workload | server | req/s (each run) | p50 | p99 | errors | server CPU/request | server RSS after")
	fmt.Fprintln(w, "---|---|---|---|---|---|---|---")
	for _, wl := range r.order {
		best := map[string]float64{}
		for _, srv := range []string{gpuisa, nginx} {
			runs := r.runs[wl][srv]
			var rps []string
			var p50, p99 []time.Duration
			var errs int64
			var cpu time.Duration
			var rssKB int64
			for _, x := range runs {
				rps = append(rps, fmt.Sprintf("%.0f", x.rps))
				p50, p99 = append(p50, x.p50), append(p99, x.p99)
				errs += x.non2xx + x.sockErrors
				cpu += x.cpuPerReq
				rssKB = max(rssKB, x.rssKB)
				best[srv] = math.Max(best[srv], x.rps)
			}
			if len(runs) > 0 {
				cpu /= time.Duration(len(runs))
			}
			fmt.Fprintf(w, "%s | %s | %s | %s | %s | %d | %.1f µs | %.1f MB\n", wl, srv, strings.Join(rps, ", "),
				ms(percentile(p50, 50)), ms(maxDuration(p99)), errs, float64(cpu)/float64(time.Microsecond), float64(rssKB)/1024)
		}
		if best[nginx] > 0 {
			fmt.Fprintf(w, "%s | ratio (best runs) | %.2f | | | | |\n", wl, best[gpuisa]/best[nginx])
		}
	}
	fmt.Fprintln(w)
	for _, f := range r.first {
		var idx, pg []time.Duration
		worst, worstFam := time.Duration(0), ""
		for fam, d := range f.index {
			idx = append(idx, d)
			if d > worst {
				worst, worstFam = d, fam+" index"
			}
		}
		for fam, d := range f.page {
			pg = append(pg, d)
			if d > worst {
				worst, worstFam = d, fam+" instruction page"
			}
		}
		fmt.Fprintf(w, "fresh %s: ready in %s; first family index page p50 %s, first instruction page of a family p50 %s, slowest %s (%s)",
			f.server, ms(f.ready), ms(percentile(idx, 50)), ms(percentile(pg, 50)), ms(worst), worstFam)
		if f.failure != "" {
			fmt.Fprintf(w, "; %s", f.failure)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "uncached search (%d distinct queries, one at a time, fresh server): p50 %s, p99 %s; a static JSON file from nginx: p50 %s, p99 %s\n",
		r.search.queries, ms(r.search.p50), ms(r.search.p99), ms(r.search.staticP50), ms(r.search.static9))
}

func maxDuration(d []time.Duration) time.Duration {
	var m time.Duration
	for _, x := range d {
		m = max(m, x)
	}
	return m
}
