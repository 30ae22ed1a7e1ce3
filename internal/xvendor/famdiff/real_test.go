package famdiff_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/store"
	"github.com/gpuisa/gpuisa/internal/testing/realdb"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// realFacts opens GPUISA_DB, else builds a database from the upstream
// sources without llvm-mc and ptxas: the renames must be found from the
// documents alone (the identical encodings), and the verified database's
// rename links only add evidence.
func realFacts(t *testing.T) *famdiff.Facts {
	t.Helper()
	path := os.Getenv("GPUISA_DB")
	if path == "" {
		src := testenv.Upstream(t)
		var err error
		if path, err = realdb.Shared(ingest.Options{Sources: src, NoVerify: true}); err != nil {
			t.Fatal(err)
		}
	}
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return famdiff.NewFacts(db)
}

func TestRealDiffs(t *testing.T) {
	f := realFacts(t)
	ctx := context.Background()

	r, err := f.Compare(ctx, "rdna3", "rdna4")
	if err != nil {
		t.Fatal(err)
	}
	renamed := map[string]famdiff.Rename{}
	for _, rn := range r.Renamed {
		renamed[rn.From] = rn
		if len(rn.Evidence) == 0 {
			t.Errorf("rename %s -> %s without evidence", rn.From, rn.To)
		}
	}
	if rn := renamed["v_max_f32"]; rn.To != "v_max_num_f32" {
		t.Errorf("rdna3 -> rdna4: v_max_f32 renamed to %q, want v_max_num_f32", rn.To)
	}
	for _, it := range r.Added {
		if it.Name == "v_max_num_f32" {
			t.Error("v_max_num_f32 counted as added")
		}
	}
	for _, it := range r.Removed {
		if it.Name == "v_max_f32" {
			t.Error("v_max_f32 counted as removed")
		}
	}
	if r.Counts.Added != len(r.Added) || r.Counts.Removed != len(r.Removed) || r.Counts.Renamed < 20 {
		t.Errorf("rdna3 -> rdna4 counts %+v", r.Counts)
	}
	formats := map[string]famdiff.FormatChange{}
	for _, fc := range r.Formats {
		formats[fc.From+">"+fc.To] = fc
	}
	for _, k := range []string{"DS>VDS", "MUBUF>VBUFFER", "MTBUF>VBUFFER", "FLAT>VFLAT"} {
		fc, ok := formats[k]
		if !ok || fc.Kind != famdiff.ChangeRenamed || len(fc.Fields) == 0 || fc.Instructions == 0 {
			t.Errorf("rdna3 -> rdna4: format %s = %+v", k, fc)
		}
	}

	r, err = f.Compare(ctx, "cdna2", "cdna3")
	if err != nil {
		t.Fatal(err)
	}
	mfma := 0
	for _, rn := range r.Renamed {
		if strings.HasPrefix(rn.From, "v_mfma_") {
			mfma++
		}
	}
	want := map[string]string{"v_mfma_f32_32x32x8f16": "v_mfma_f32_32x32x8_f16", "v_mfma_f32_4x4x4f16": "v_mfma_f32_4x4x4_16b_f16", "v_mfma_i32_32x32x4i8": "v_mfma_i32_32x32x4_2b_i8"}
	for _, rn := range r.Renamed {
		if w, ok := want[rn.From]; ok {
			if rn.To != w {
				t.Errorf("cdna2 -> cdna3: %s renamed to %s, want %s", rn.From, rn.To, w)
			}
			delete(want, rn.From)
		}
	}
	if len(want) > 0 || mfma < 10 {
		t.Errorf("cdna2 -> cdna3: %d MFMA renames, missing %v", mfma, want)
	}
	for _, it := range r.Added {
		if it.Name == "v_mfma_f32_32x32x8_f16" {
			t.Error("cdna2 -> cdna3: v_mfma_f32_32x32x8_f16 counted as added")
		}
	}

	r, err = f.Compare(ctx, "sm_80", "sm_90")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, it := range r.Added {
		if it.Level == "instruction" {
			found[it.Name] = true
		}
	}
	for _, m := range []string{"wgmma.mma_async", "cp.async.bulk"} {
		if !found[m] {
			t.Errorf("sm_80 -> sm_90 lacks %s", m)
		}
	}

	r, err = f.Compare(ctx, "ptx:7.8", "ptx:8.0")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Releases) != 1 || r.Releases[0].Version != "8.0" || len(r.Releases[0].Notes) == 0 {
		t.Errorf("ptx 7.8 -> 8.0 releases = %+v", r.Releases)
	}
	found = map[string]bool{}
	for _, it := range r.Added {
		found[it.Name] = true
	}
	if !found["wgmma.mma_async"] {
		t.Error("ptx 7.8 -> 8.0 lacks wgmma.mma_async")
	}

	if _, err := f.Compare(ctx, "rdna3", "sm_90"); err == nil {
		t.Error("an AMD family compared with an sm_ target")
	}
}
