package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

func answersBuild(answers ...Answer) *Build {
	return &Build{
		Info:  isa.BuildInfo{Version: "test"},
		Archs: []isa.Architecture{{ID: "cdna4", Name: "CDNA 4", Vendor: isa.VendorAMD}},
		Answers: func(ctx context.Context, r Reader, put func(Answer) error) error {
			if _, err := r.Info(ctx); err != nil { // the rows are readable
				return err
			}
			for _, a := range answers {
				if err := put(a); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// TestAnswersAreStoredAndRead: what Build.Answers hands over is read back by
// key, with its renderer; a database without answers says NotFound.
func TestAnswersAreStoredAndRead(t *testing.T) {
	ctx := context.Background()
	b := answersBuild(Answer{Key: "/b", ContentType: "text/html", Gzip: []byte("bb"), Renderer: "r1"},
		Answer{Key: "/a", ContentType: "text/html", Gzip: []byte("aa"), Renderer: "r1"})
	db := writeOpen(t, b)
	if n, err := db.AnswerCount(ctx); n != 2 || err != nil {
		t.Errorf("AnswerCount = %d, %v", n, err)
	}
	a, err := db.Answer(ctx, "/a")
	if err != nil || string(a.Gzip) != "aa" || a.Renderer != "r1" || a.ContentType != "text/html" {
		t.Errorf("Answer(/a) = %+v, %v", a, err)
	}
	if _, err := db.Answer(ctx, "/c"); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("Answer(/c): %v, want NotFound", err)
	}
	b.Answers = nil
	if _, err := writeOpen(t, b).Answer(ctx, "/a"); errs.KindOf(err) != errs.KindNotFound {
		t.Errorf("a database built without answers: %v, want NotFound", err)
	}
}

// TestAnswersRefuseMixedOrDuplicate: one renderer per database, one answer
// per key, keys that are request targets; a refused build writes nothing.
func TestAnswersRefuseMixedOrDuplicate(t *testing.T) {
	for name, tc := range map[string][]Answer{
		"two renderers": {{Key: "/a", Gzip: []byte("a"), Renderer: "r1"}, {Key: "/b", Gzip: []byte("b"), Renderer: "r2"}},
		"twice":         {{Key: "/a", Gzip: []byte("a"), Renderer: "r1"}, {Key: "/a", Gzip: []byte("b"), Renderer: "r1"}},
		"not a target":  {{Key: "a", Gzip: []byte("a"), Renderer: "r1"}},
		"no renderer":   {{Key: "/a", Gzip: []byte("a")}},
	} {
		path := filepath.Join(t.TempDir(), "a.db")
		err := Write(context.Background(), path, answersBuild(tc...))
		if err == nil || !strings.Contains(err.Error(), "answer") {
			t.Errorf("%s: %v, want an error about the answers", name, err)
		}
		if _, serr := Open(path); serr == nil {
			t.Errorf("%s: a refused build left a database", name)
		}
	}
}
