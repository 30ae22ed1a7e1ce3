package loadbench

import (
	"strings"
	"testing"
	"time"
)

// wrkSample is wrk 4.1's --latency report, numbers made up.
const wrkSample = `Running 10s test @ http://127.0.0.1:8080/amdgpu/cdna4/v_max_f32
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.10ms  512.00us  20.00ms   90.00%
    Req/Sec    30.00k     1.00k   32.00k    70.00%
  Latency Distribution
     50%  850.00us
     75%    1.20ms
     90%    1.80ms
     99%    4.25ms
  600000 requests in 10.00s, 4.00GB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 5
Requests/sec:  60000.50
Transfer/sec:    409.60MB
`

func TestParseWrk(t *testing.T) {
	r, err := parseWrk(wrkSample)
	if err != nil {
		t.Fatal(err)
	}
	if r.rps != 60000.50 || r.requests != 600000 || r.p50 != 850*time.Microsecond || r.p99 != 4250*time.Microsecond ||
		r.non2xx != 5 || r.sockErrors != 3 {
		t.Errorf("%+v", r)
	}
	if _, err := parseWrk("unable to connect to 127.0.0.1:1 Connection refused"); err == nil {
		t.Error("no error for a failed run")
	}
}

func TestNginxConfigIsLoopbackOnly(t *testing.T) {
	conf := nginxConfig("/srv/site", "/tmp/x", 18080, 2)
	if !strings.Contains(conf, "listen 127.0.0.1:18080;") || strings.Count(conf, "listen ") != 1 {
		t.Errorf("listen directives:\n%s", conf)
	}
	for _, want := range []string{"gzip_static on;", "try_files $uri $uri/index.html $uri.json =404;", "root /srv/site;", "access_log off;"} {
		if !strings.Contains(conf, want) {
			t.Errorf("no %q", want)
		}
	}
}

func TestSearchQueriesAreDistinct(t *testing.T) {
	fams := []family{{id: "cdna4", names: []string{"v_max_f32", "v_min_f32", "s_mov_b32"}}, {id: "ptx", names: []string{"max", "mma.sync"}}}
	qs := searchQueries(fams, 50)
	seen := map[string]bool{}
	for _, q := range qs {
		if seen[q] {
			t.Errorf("%q twice", q)
		}
		seen[q] = true
	}
	if len(qs) < 20 {
		t.Errorf("only %d queries", len(qs))
	}
}
