package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/amd/codecache"
	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/serve/explain"
	"github.com/gpuisa/gpuisa/internal/store"
)

// codecs opens the database for its prepared tables only (nothing is read
// until a family is asked for) and returns the cache over it.
func (e *env) codecs() (*codecache.Cache, func(), error) {
	db, err := store.OpenPrepared(e.dbPath)
	if err != nil {
		return nil, nil, err
	}
	return codecache.New(db), func() { db.Close() }, nil
}

func newDecodeCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "decode [--arch ARCH|--target GFX] [--fields|--json] (HEXWORDS... | FILE | -)",
		Short: "Disassemble AMD machine code into a listing",
		Long: `Decode disassembles AMD GPU machine code with the bit layouts of the family's
reference and prints a listing like llvm-objdump's: one line per instruction with its
address, its words in hex and its text in LLVM's syntax, symbols and branch targets as
labels (s_cbranch_execz .LBB0_1, with llvm-objdump's <kernel+0x48> beside it), padding
runs collapsed (s_code_end ×97).

Input: hex words (0x160a04c1), llvm-mc byte lists ([0xc1,0x04,0x0a,0x16]), raw binary,
an AMDGPU code object or offload bundle (every kernel with its descriptor: LDS, scratch,
registers), or a listing: llvm-objdump -d, llvm-mc -show-encoding, Compiler Explorer,
RGA or rocgdb output and plain assembly (lines without bytes are assembled by gpuisa's
encoder and decoded back). FILE, or "-" for standard input.

The family comes from --arch/--target (a family id or gfx target), else the code
object's e_flags (LLVM's EF_AMDGPU_MACH table) or an .amdgcn_target directive, else a
guess from a listing's lines. --fields prints every field of every instruction;
--json one object per instruction; --no-collapse every padding word.
Exit status: 0 when everything decoded, 1 when some bytes did not, 2 on unusable input.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.runListing(cmd.Context(), "decode", args, nil)
		},
	}
}

// oneShotGC tunes the collector for a one-shot command (decode, explain,
// encode), which loads a family's tables, builds one listing and exits:
// no collection at all until the heap reaches oneShotHeap (one word, a
// code object, a 200,000-word listing and a 10,000-line assembly file
// stay under it: at GOGC 400 their collections, with the assists and
// preemptions they bring, were about a tenth of their CPU, and one fell
// in the tables' load of a 20 ms start), and from the first collection
// on, one whenever the heap has grown to five times its live data (the
// 400% of before), so a large input still runs in bounded memory. A
// finalizer notices that first collection.
func oneShotGC() {
	oneShot.Lock()
	defer oneShot.Unlock()
	if !oneShot.off {
		oneShot.prevLimit = debug.SetMemoryLimit(oneShotHeap)
		oneShot.off = true
	}
	debug.SetGCPercent(-1)
	oneShot.gen++
	gen := oneShot.gen
	runtime.SetFinalizer(new(gcSentinel), func(*gcSentinel) {
		oneShot.Lock()
		defer oneShot.Unlock()
		if oneShot.off && oneShot.gen == gen {
			oneShot.restore(400)
		}
	})
}

// oneProcWhenBusy has a one-shot command run on one P while the machine's
// CPUs are all busy (as many other tasks runnable as there are CPUs) and
// $GOMAXPROCS says nothing, and returns what restores the setting. Its
// parallel steps (the tables loading beside the parse, the two halves of
// a long decode) only pay on an idle core; on busy ones the second thread
// waited for its turn and the runtime's idle threads spun, a tenth more
// CPU and more wall time than one thread doing it all.
func oneProcWhenBusy() (restore func()) {
	if os.Getenv("GOMAXPROCS") != "" || runtime.GOMAXPROCS(0) == 1 {
		return func() {}
	}
	if load, ok := machineLoad(); !ok || load < float64(runtime.NumCPU()) {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(1)
	return func() { runtime.GOMAXPROCS(prev) }
}

// machineLoad is runnableOthers, a variable so that a test can give both a
// busy and an idle machine whatever the load it runs under.
var machineLoad = runnableOthers

// steadyGC ends what oneShotGC began, at once, with the collector at
// percent (a command that streams its input wants the default's 100).
func steadyGC(percent int) {
	oneShot.Lock()
	defer oneShot.Unlock()
	oneShot.gen++ // the pending finalizer is no longer the one to restore
	if oneShot.off {
		oneShot.restore(percent)
		return
	}
	debug.SetGCPercent(percent)
}

// oneShot is what oneShotGC changed: off while the collector waits for
// oneShotHeap; prevLimit the memory limit it found; gen the latest call,
// whose finalizer alone restores (commands run in one process, as the
// tests run them, must not leave the limit behind).
var oneShot oneShotState

type oneShotState struct {
	sync.Mutex
	off       bool
	prevLimit int64
	gen       int
}

// restore turns the collector back on at percent with the memory limit
// oneShotGC found; oneShot is locked.
func (o *oneShotState) restore(percent int) {
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(o.prevLimit)
	o.off = false
}

// oneShotHeap is the heap a one-shot command may reach before its first
// collection.
const oneShotHeap = 160 << 20

// sizeForInput readies the process for an input of n bytes: huge pages
// for its heap and a wide pipe for its output when the input is large.
func (e *env) sizeForInput(n int) {
	if largeInput(n) {
		widenPipe(e.stdout)
	}
}

// largeInput advises huge pages for the heap a one-shot command is about
// to fill when its input of n bytes is large enough to fill one (for one
// word, the early collection would cost more than the faults it saves).
// The heap advised is what a 200,000-word decode fills, well under
// oneShotHeap, so the runtime keeps its free pages rather than scavenging
// them back to the limit. Once a process, and only while oneShotGC has
// the collector off. It says whether n is large (its output will be, too).
func largeInput(n int) bool {
	if n < 64<<10 {
		return false
	}
	oneShot.Lock()
	off := oneShot.off
	oneShot.Unlock()
	if !off {
		return true // not a one-shot command's heap (explain of a PTX file)
	}
	hugeOnce.Do(func() {
		hugeHeap(96 << 20)
		// That collection was hugeHeap's, not the heap's first: the
		// collector stays off (a new sentinel; the old one's finalizer
		// is no longer the one to restore).
		oneShotGC()
	})
	return true
}

var hugeOnce sync.Once

// gcSentinel is an object whose finalizer runs at the first collection
// after oneShotGC. It holds a pointer: a small object without one may
// share a tiny-allocator block with live data and never be finalized.
type gcSentinel struct{ _ *byte }

// listingFlags are decode's and explain's flags.
type listingFlags struct {
	arch, target         string
	json, fields, noColl bool
	also                 string
}

// runListing parses flags, reads the input, builds the listing and
// writes it; explain passes annotate to add its notes.
func (e *env) runListing(ctx context.Context, name string, args []string, annotate func(ctx context.Context, c *codecache.Cache, l *listing.Listing, f listingFlags) error) error {
	oneShotGC()
	defer oneProcWhenBusy()()
	args, err := takeDBFlag(e, args)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var f listingFlags
	fs.StringVar(&f.arch, "arch", "", "family id or gfx target (cdna3, gfx942); overrides the input's")
	fs.StringVar(&f.target, "target", "", "gfx target (gfx942); overrides the input's")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	fs.BoolVar(&f.fields, "fields", false, "print every field of every instruction")
	fs.BoolVar(&f.noColl, "no-collapse", false, "print padding runs word by word")
	if annotate != nil {
		fs.StringVar(&f.also, "also", "", "other gfx targets (comma-separated) to check every instruction against")
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitCode(2)
	}
	if len(pos) == 0 {
		fmt.Fprintf(e.stderr, "usage: gpuisa %s [--arch ARCH] [--json] (HEXWORDS... | FILE | -)\n", name)
		return exitCode(2)
	}
	raw, done, err := e.listingInput(ctx, pos, f, annotate == nil && !f.json && !f.fields)
	if done || err != nil {
		return err
	}
	e.sizeForInput(len(raw))
	cache, closeDB, err := e.codecs()
	if err != nil {
		return err
	}
	defer closeDB()
	prefetchCodec(cache, f.target, f.arch)
	machines, machinesErr := cache.Machines(ctx) // without the table a code object needs --arch
	in, err := listing.Parse(raw, machines)
	if err != nil {
		return errs.Invalid("%v", err)
	}
	if annotate != nil {
		// Refused before the listing is built: explaining holds every
		// instruction with its notes, decoding streams.
		if err := explain.Bound(in); err != nil {
			return errs.Invalid("%v", err)
		}
	}
	choice := listing.Choice{Arch: f.arch, Target: f.target}
	get := func(arch string) (listing.Codec, error) { return familyCodec(ctx, cache, arch) }
	arch, chosen, err := listing.ChooseFamily(in, choice, machinesErr, get)
	if err != nil {
		return err
	}
	fam, err := familyCodec(ctx, cache, arch)
	if err != nil {
		return err
	}
	if fam, err = targetCodec(fam, listing.TargetFor(in, choice, arch)); err != nil {
		return err
	}
	opts := listing.Options{Fields: f.fields || f.json || annotate != nil, NoCollapse: f.noColl}
	l := listing.Build(in, arch, fam, opts)
	l.Chosen = chosen
	l.SetTarget(in, choice)
	switch {
	case annotate != nil:
		err = annotate(ctx, cache, l, f)
	case f.json:
		err = listing.WriteJSON(e.stdout, l)
	default:
		err = listing.WriteText(e.stdout, l, listing.WriteOptions{Fields: f.fields})
	}
	if err != nil {
		return err
	}
	if l.Errors > 0 {
		return exitCode(1)
	}
	return nil
}

// listingInput reads the input; when the listing may be streamed (plain
// decode) raw machine code over listing.StreamAbove is listed here a
// piece at a time, done, from a file or from standard input alike.
func (e *env) listingInput(ctx context.Context, pos []string, f listingFlags, stream bool) (raw []byte, done bool, err error) {
	if !stream {
		raw, err = e.readInput(pos)
		return raw, false, err
	}
	if len(pos) == 1 && pos[0] == "-" {
		small, path, size, err := e.spoolStdin()
		if err != nil || path == "" {
			return small, false, err
		}
		defer os.Remove(path)
		if done, err := e.streamListing(ctx, []string{path}, f); done {
			return nil, true, err
		}
		if size > codeobj.MaxInput { // a code object or text: read whole, within its limits
			return nil, false, errs.Invalid("standard input is larger than %d MB", codeobj.MaxInput>>20)
		}
		raw, err = os.ReadFile(path)
		return raw, false, err
	}
	if done, err := e.streamListing(ctx, pos, f); done {
		return nil, true, err
	}
	raw, err = e.readInput(pos)
	return raw, false, err
}

// maxStdinSpool bounds the standard input decode keeps on disk to list
// it a piece at a time; a file by path is listed whatever its size.
const maxStdinSpool = 1 << 30

// spoolStdin reads standard input for decode: up to listing.StreamAbove
// bytes are kept in memory (small); more go to a temporary file (path,
// the caller removes it, size bytes), so raw machine code from a pipe is
// listed a piece at a time as from a path rather than held whole (100 MB
// had taken 7 GB).
func (e *env) spoolStdin() (small []byte, path string, size int64, err error) {
	head, err := io.ReadAll(io.LimitReader(e.stdin, listing.StreamAbove+1))
	if err != nil {
		return nil, "", 0, fmt.Errorf("reading standard input: %w", err)
	}
	if len(head) <= listing.StreamAbove {
		return head, "", int64(len(head)), nil
	}
	f, err := os.CreateTemp("", "gpuisa-stdin-*")
	if err != nil {
		return nil, "", 0, err
	}
	defer f.Close()
	n, err := io.Copy(f, io.LimitReader(io.MultiReader(bytes.NewReader(head), e.stdin), maxStdinSpool+1))
	if err == nil {
		err = f.Close()
	}
	switch {
	case err != nil:
		err = fmt.Errorf("reading standard input: %w", err)
	case n > maxStdinSpool:
		err = errs.Invalid("standard input is larger than %d MB: pass the file by its path", maxStdinSpool>>20)
	default:
		return nil, f.Name(), n, nil
	}
	os.Remove(f.Name())
	return nil, "", 0, err
}

// streamListing lists a file of raw machine code larger than
// listing.StreamAbove a piece at a time (memory independent of its size);
// done is false for every other input, which runListing reads whole.
func (e *env) streamListing(ctx context.Context, pos []string, f listingFlags) (done bool, err error) {
	if len(pos) != 1 {
		return false, nil
	}
	st, err := os.Stat(pos[0])
	if err != nil || !st.Mode().IsRegular() || st.Size() <= listing.StreamAbove {
		return false, nil
	}
	file, err := os.Open(pos[0])
	if err != nil {
		return false, nil
	}
	defer file.Close()
	head := make([]byte, 64<<10)
	n, _ := io.ReadFull(file, head)
	head = head[:n]
	// The head ends at a line's end: a line or a character cut in two
	// must not make text look like raw bytes, or raw bytes like text.
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i+1]
	}
	in, err := listing.Parse(head, codeobj.Machines{})
	if err != nil || in.Kind != listing.KindBytes || codeobj.IsCodeObject(head) {
		return false, nil // a code object or text: read whole, within its limits
	}
	src, size := io.ReadSeeker(file), st.Size()
	if len(in.Units) != 1 || len(in.Units[0].Code) == 0 {
		// Hex text: its bytes are listed from a file of raw code.
		raw, n, ok, err := bareCodeFile(file)
		if err != nil || !ok {
			return err != nil, err
		}
		defer os.Remove(raw.Name())
		defer raw.Close()
		src, size = raw, n
	}
	cache, closeDB, err := e.codecs()
	if err != nil {
		return true, err
	}
	defer closeDB()
	choice := listing.Choice{Arch: f.arch, Target: f.target}
	get := func(arch string) (listing.Codec, error) { return familyCodec(ctx, cache, arch) }
	arch, _, err := listing.ChooseFamily(in, choice, nil, get)
	if err != nil {
		return true, err
	}
	fam, err := familyCodec(ctx, cache, arch)
	if err != nil {
		return true, err
	}
	if fam, err = targetCodec(fam, listing.TargetFor(in, choice, arch)); err != nil {
		return true, err
	}
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return true, err
	}
	// Each piece is garbage once written: the default collector keeps the
	// heap near the live piece (oneShotGC's 400% would not).
	steadyGC(100)
	_, failed, err := listing.Stream(e.stdout, src, size, arch, fam, listing.Options{NoCollapse: f.noColl})
	if err == nil && failed > 0 {
		err = exitCode(1)
	}
	return true, err
}

// bareCodeFile writes the machine code of file, text whose every line is
// bare bytes, to a temporary file (the caller closes and removes it) of n
// bytes; ok is false, and nothing is left behind, when a line is anything
// else.
func bareCodeFile(file *os.File) (raw *os.File, n int64, ok bool, err error) {
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return nil, 0, false, err
	}
	raw, err = os.CreateTemp("", "gpuisa-code-*")
	if err != nil {
		return nil, 0, false, err
	}
	n, ok, err = listing.BareCode(raw, file)
	if err != nil || !ok {
		raw.Close()
		os.Remove(raw.Name())
		return nil, 0, false, err
	}
	return raw, n, true, nil
}

// readInput reads "-" (standard input), one file, or the arguments
// themselves (hex words, an instruction).
func (e *env) readInput(pos []string) ([]byte, error) {
	if len(pos) == 1 && pos[0] == "-" {
		b, err := io.ReadAll(io.LimitReader(e.stdin, codeobj.MaxInput+1))
		if err != nil {
			return nil, fmt.Errorf("reading standard input: %w", err)
		}
		return b, nil
	}
	if len(pos) == 1 {
		if st, err := os.Stat(pos[0]); err == nil && st.Mode().IsRegular() {
			if st.Size() > codeobj.MaxInput {
				return nil, errs.Invalid("%s is larger than %d MB", pos[0], codeobj.MaxInput>>20)
			}
			largeInput(int(st.Size())) // before the read, so the file lands in the huge pages too
			return os.ReadFile(pos[0])
		}
	}
	if err := missingFile(pos); err != nil {
		return nil, err
	}
	return []byte(strings.Join(pos, " ")), nil
}

// inputExtensions are the endings of the files decode, explain and encode
// read: code objects, listings, assembly and PTX.
var inputExtensions = []string{".o", ".hsaco", ".co", ".elf", ".so", ".out", ".bin", ".bundle",
	".s", ".asm", ".lst", ".dis", ".txt", ".ptx", ".ll", ".bc"}

// missingFile says "no such file: PATH" when the one argument is no file
// but is written as a path (a separator, or one of inputExtensions, and
// no space), and "PATH is a directory" for a directory: a mistyped path is
// not read as an instruction.
func missingFile(pos []string) error {
	if len(pos) != 1 || pos[0] == "-" || strings.ContainsAny(pos[0], " \t\n,") {
		return nil
	}
	p := pos[0]
	st, err := os.Stat(p)
	switch {
	case err == nil && st.IsDir():
		return errs.Invalid("%s is a directory, not a file", p)
	case err == nil:
		return nil
	}
	ext := strings.ToLower(filepath.Ext(p))
	if strings.ContainsRune(p, os.PathSeparator) || strings.ContainsRune(p, '/') || slices.Contains(inputExtensions, ext) {
		return errs.NotFound(nil, "no such file: %s", p)
	}
	return nil
}

func familyCodec(ctx context.Context, cache *codecache.Cache, arch string) (listing.Codec, error) {
	d, err := cache.Decoder(ctx, arch)
	if err != nil {
		if errs.KindOf(err) != errs.KindOther {
			return listing.Codec{}, err
		}
		return listing.Codec{}, fmt.Errorf("loading %s: %w", arch, err)
	}
	enc, err := cache.Encoder(ctx, arch)
	if err != nil {
		return listing.Codec{}, err
	}
	return listing.Codec{Dec: d, Enc: enc}, nil
}

// prefetchCodec starts loading the family the first of archs names (the
// flags' override: --target, then --arch) on another goroutine, so its
// tables load while the input is parsed (a few milliseconds of every
// decode and encode, on a second core); the cache builds a family once,
// and the familyCodec that needs it waits for this one. An unknown name
// does nothing here: the caller reports it.
func prefetchCodec(cache *codecache.Cache, archs ...string) {
	for _, a := range archs {
		if a != "" {
			go cache.Decoder(context.Background(), a)
			return
		}
	}
}

// parseInterspersed lets flags come before or after positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
