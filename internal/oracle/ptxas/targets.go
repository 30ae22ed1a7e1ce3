package ptxas

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
	"github.com/gpuisa/gpuisa/internal/ptx/ptxorder"
)

// TargetInfo says which ptxas assembles a target and with which PTX ISA
// versions: a .target is accepted from MinPTX on (sm_90 needs PTX 7.8).
type TargetInfo struct {
	Target   string   `json:"target"`
	Tool     string   `json:"tool"` // ptxas version
	MinPTX   string   `json:"min_ptx"`
	Versions []string `json:"versions"` // every accepted version, oldest first
}

// EmptyUnit is a kernel that does nothing: what a version/target probe
// assembles.
var EmptyUnit = Unit{Entry: ".visible .entry $U()\n{\nret;\n}"}

// Targets returns, for every target some ptxas knows (oldest first), the
// PTX ISA versions it accepts, probing ptxas once per tool and version and
// then by binary search per target (cached like every other answer).
func (s *Session) Targets(ctx context.Context) ([]TargetInfo, error) {
	s.init()
	s.mu.Lock()
	if s.targets != nil {
		t := s.targets
		s.mu.Unlock()
		return t, nil
	}
	s.mu.Unlock()
	accepted := map[string][]string{} // tool version -> versions it parses
	for _, tool := range s.Tools.PTXAS {
		vs, err := s.toolVersions(ctx, tool)
		if err != nil {
			return nil, err
		}
		accepted[tool.Version] = vs
	}
	targets := s.Tools.Targets()
	out := make([]TargetInfo, len(targets))
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for i, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tool, _ := s.Tools.ToolFor(t)
			vs := accepted[tool.Version]
			ok := func(v string) (bool, error) {
				res, err := s.Assemble(ctx, v, t, []Unit{EmptyUnit})
				if err != nil {
					return false, err
				}
				return res[0].OK, nil
			}
			// Versions that accept the target form a suffix of vs.
			lo, hi := 0, len(vs)
			for lo < hi {
				m := (lo + hi) / 2
				good, err := ok(vs[m])
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				if good {
					hi = m
				} else {
					lo = m + 1
				}
			}
			info := TargetInfo{Target: t, Tool: tool.Version}
			if lo < len(vs) {
				info.MinPTX = vs[lo]
				info.Versions = append([]string(nil), vs[lo:]...)
			}
			out[i] = info
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	var usable []TargetInfo
	for _, info := range out {
		if info.MinPTX != "" {
			usable = append(usable, info)
		}
	}
	s.mu.Lock()
	s.targets = usable
	s.mu.Unlock()
	return usable, nil
}

// toolVersions returns the known PTX ISA versions the tool parses at all
// ("Unsupported .version 8.9" otherwise), cached per tool version.
func (s *Session) toolVersions(ctx context.Context, tool Tool) ([]string, error) {
	path := ""
	if s.CacheDir != "" {
		path = filecache.Path(s.CacheDir, "ptxas-"+tool.Version, "versions")
	}
	cached, err := filecache.Load[[]string](path)
	if err != nil {
		return nil, fmt.Errorf("ptxas: %w", err)
	}
	if vs, ok := cached["versions"]; ok && len(vs) > 0 {
		return vs, nil
	}
	var vs []string
	for _, v := range ptxorder.VersionsUpTo(tool.MaxPTX) {
		src, _ := Compose(v, tool.Targets[0], []Unit{EmptyUnit})
		stderr, _, err := s.runPTXAS(ctx, tool, tool.Targets[0], src, os.DevNull)
		if err != nil {
			return nil, err
		}
		s.processes.Add(1)
		if !strings.Contains(stderr, "Unsupported .version") {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("ptxas %s accepts none of the known PTX ISA versions", tool.Version)
	}
	if err := filecache.Save(path, map[string][]string{"versions": vs}); err != nil {
		return nil, fmt.Errorf("ptxas: %w", err)
	}
	return vs, nil
}

// Target returns the info of one target.
func (s *Session) Target(ctx context.Context, target string) (TargetInfo, bool, error) {
	infos, err := s.Targets(ctx)
	if err != nil {
		return TargetInfo{}, false, err
	}
	for _, i := range infos {
		if i.Target == target {
			return i, true, nil
		}
	}
	return TargetInfo{}, false, nil
}
