package build

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/gpuisa/gpuisa/internal/quality"
)

func TestZZScratch(t *testing.T) {
	ctx := context.Background()
	t0 := time.Now()
	archs, insts, _, err := LoadAMD(ctx, upstreamDir(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	res, err := ApplyLLVM(ctx, Options{CacheDir: "/tmp/scratch/cache"}, archs, insts, &LineProgress{W: os.Stdout})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load %s llvm %s", t1.Sub(t0), time.Since(t1))
	f, _ := os.Create("/tmp/scratch/quality.txt")
	quality.WriteText(f, res.Report)
	f.Close()
	quality.WriteSummary(os.Stdout, res.Report)
	t.Log(res.Problems)
}
