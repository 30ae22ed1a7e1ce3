package cudacorpus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gpuisa/gpuisa/internal/oracle/filecache"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/ptx"
)

// Judge runs ptxas on whole PTX files, caching its messages by the
// file's hash under the cache directory (one file per ptxas release).
type Judge struct {
	Session *ptxas.Session
	path    string
	mu      sync.Mutex
	cache   map[string][]ptxas.LineMessage
	dirty   bool
	unsaved int // verdicts since the last save
}

// saveEvery is how many new verdicts the judge keeps before writing its
// cache: a corpus run of thousands of ptxas calls that is stopped keeps
// what it learned.
const saveEvery = 200

// NewJudge loads the cache of ptxas's verdicts on corpus files.
func NewJudge(sess *ptxas.Session, cacheDir string) (*Judge, error) {
	ver := "none"
	if len(sess.Tools.PTXAS) > 0 {
		ver = sess.Tools.PTXAS[0].Version
	}
	p := ""
	if cacheDir != "" {
		p = filecache.Path(cacheDir, "cuda-corpus", "ptxas-"+ver)
	}
	m, err := filecache.Load[[]ptxas.LineMessage](p)
	if err != nil {
		return nil, err
	}
	return &Judge{Session: sess, path: p, cache: m}, nil
}

// Messages returns ptxas's messages on src assembled for target.
func (j *Judge) Messages(ctx context.Context, target, src string) ([]ptxas.LineMessage, error) {
	sum := sha256.Sum256([]byte(target + "\x00" + src))
	key := hex.EncodeToString(sum[:16])
	j.mu.Lock()
	msgs, ok := j.cache[key]
	j.mu.Unlock()
	if ok {
		return msgs, nil
	}
	msgs, err := j.Session.AssembleModule(ctx, target, src)
	if err != nil {
		return nil, err
	}
	if msgs == nil {
		msgs = []ptxas.LineMessage{}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.cache[key], j.dirty = msgs, true
	if j.unsaved++; j.unsaved >= saveEvery {
		if err := j.saveLocked(); err != nil {
			return nil, err
		}
	}
	return msgs, nil
}

// Save writes the cache when it grew.
func (j *Judge) Save() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.saveLocked()
}

func (j *Judge) saveLocked() error {
	if !j.dirty {
		return nil
	}
	if err := filecache.Save(j.path, j.cache); err != nil {
		return err
	}
	j.dirty, j.unsaved = false, 0
	return nil
}

// Verdict compares the checker's and ptxas's verdicts on one file.
type Verdict struct {
	PTXASValid, CheckerValid bool
	// Lines are the statement lines where the two differ, with what each
	// said; Statements counts the statement lines compared (a line with
	// several statements counts once).
	Lines      []LineDiff
	Statements int
	// ByGroup counts statement lines and agreements per mnemonic group
	// (the opcode's first token).
	ByGroup map[string]*Count
	// Groups is each compared statement line's mnemonic group; PTXASBad
	// the lines ptxas rejects.
	Groups   map[int]string
	PTXASBad map[int]bool
}

// Count is lines compared and lines agreed.
type Count struct{ Lines, Agree int }

// LineDiff is one statement line the checker and ptxas judge differently.
type LineDiff struct {
	Line       int
	Text       string
	PTXASValid bool
	PTXAS      string // ptxas's first message on the line
	Checker    string // the checker's reason, or "valid"
}

// Compare puts the checker's report on a file beside ptxas's messages on
// it. Statements the checker does not judge (a file newer than its
// documents) count as agreeing with neither and are left out.
func Compare(rep ptx.FileReport, msgs []ptxas.LineMessage) Verdict {
	bad := map[int]string{}
	v := Verdict{PTXASValid: true, CheckerValid: rep.Invalid == 0 && len(rep.Header) == 0, ByGroup: map[string]*Count{}, Groups: map[int]string{}, PTXASBad: map[int]bool{}}
	for _, m := range msgs {
		if m.Severity == "warning" {
			continue
		}
		v.PTXASValid = false
		if _, seen := bad[m.Line]; !seen && m.Line > 0 {
			bad[m.Line] = m.Message
		}
	}
	// A failed file's warnings that name a line in their text ("Program
	// uses 32-bit address on line '84' which is conflicting with
	// .address_size 64", before the fatal "32-Bit compilation is no longer
	// supported") say which line it failed on.
	for _, m := range msgs {
		if sub := onLineRe.FindStringSubmatch(m.Message); sub != nil && !v.PTXASValid && m.Line == 0 {
			if n, err := strconv.Atoi(sub[1]); err == nil {
				if _, seen := bad[n]; !seen {
					bad[n] = m.Message
				}
			}
		}
	}
	// ptxas names lines, not statements: a line ("{ .reg .pred p;
	// mbarrier.test_wait ... p, ...; selp.b32 ... }" from inline asm) is
	// invalid for the checker when one of its statements is.
	type lineVerdict struct {
		r     ptx.Result // the first invalid statement, else the first
		valid bool
	}
	byLine := map[int]*lineVerdict{}
	var order []int
	for _, r := range rep.Results {
		if r.Unjudged {
			continue
		}
		lv := byLine[r.Line]
		if lv == nil {
			lv = &lineVerdict{r: r, valid: true}
			byLine[r.Line] = lv
			order = append(order, r.Line)
		}
		if !r.Valid && lv.valid {
			lv.r, lv.valid = r, false
		}
	}
	for _, line := range order {
		lv := byLine[line]
		v.Statements++
		msg, ptxasBad := bad[line]
		g := group(lv.r.Text)
		v.Groups[line] = g
		if ptxasBad {
			v.PTXASBad[line] = true
		}
		c := v.ByGroup[g]
		if c == nil {
			c = &Count{}
			v.ByGroup[g] = c
		}
		c.Lines++
		if ptxasBad == !lv.valid {
			c.Agree++
			continue
		}
		why := "valid"
		if !lv.valid {
			why = lv.r.Reason
		}
		v.Lines = append(v.Lines, LineDiff{Line: line, Text: lv.r.Text, PTXASValid: !ptxasBad, PTXAS: msg, Checker: why})
	}
	sort.Slice(v.Lines, func(i, j int) bool { return v.Lines[i].Line < v.Lines[j].Line })
	return v
}

var onLineRe = regexp.MustCompile(`on line '(\d+)'`)

// group is a statement's mnemonic group: its opcode's first token.
func group(text string) string {
	toks, _, err := ptx.ParseInstruction(text)
	if err != nil || len(toks) == 0 {
		return "?"
	}
	return toks[0]
}

// Opcode is a statement's opcode as written ("shfl.sync.bfly.b32").
func Opcode(text string) string {
	toks, _, err := ptx.ParseInstruction(text)
	if err != nil {
		return ""
	}
	return strings.Join(toks, ".")
}
