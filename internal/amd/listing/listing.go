package listing

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/encode"
)

// maxEntries bounds the entries a listing expands collapsed runs into.
const maxEntries = 1 << 22

// Codec is one family's decoder and the encoder that shares it.
type Codec struct {
	Dec *decode.Decoder
	Enc *encode.Encoder
}

// Options shape a listing.
type Options struct {
	// Fields keeps every instruction's decoded fields and operands (Entry.Inst):
	// the field view, JSON and explanations need them; a plain listing does not.
	Fields bool
	// NoCollapse prints padding runs word by word.
	NoCollapse bool
}

// How says how an entry's instruction was recognised. It is a byte, not
// the string it prints as (String): a listing holds an Entry per
// instruction, and 200,000 of them were 3 MB of string headers.
type How uint8

// How an entry's instruction was recognised.
const (
	FromBytes     How = iota + 1 // decoded from the input's machine code
	FromText                     // assembled by gpuisa from the input's text and decoded back
	FromTextAlone                // text the encoder could not assemble: not checked
)

// howNames are the words JSON and the pages print for How.
var howNames = [...]string{FromBytes: "bytes", FromText: "text", FromTextAlone: "unchecked"}

func (h How) String() string {
	if int(h) < len(howNames) {
		return howNames[h]
	}
	return ""
}

// Listing is machine code read into instructions.
type Listing struct {
	Arch     string // the family decoded with
	Target   string // the gfx target, when known
	TargetID string
	Kind     string // the input's kind
	// Chosen says how the family was chosen when the input did not name
	// it: "--arch", "e_flags 0x54c", ".amdgcn_target", or a guess.
	Chosen     string
	Flags      uint32
	CodeObject int
	Sections   []Section
	// Errors counts the words that did not decode and the lines that did
	// not assemble.
	Errors int
}

// Section is one unit of the input with its instructions.
type Section struct {
	Name       string
	Entries    []Entry
	Kernels    []codeobj.Kernel
	Directives map[string]map[string]string
}

// Entry is one line of the listing: an instruction (or a collapsed run of
// one), or a word that did not decode. A listing holds one per
// instruction, so what few entries have (an error, labels, a branch's
// label and reference, the input's differing text) hangs off pointers,
// read through methods: 112 bytes where it was 208, and the entries of
// 200,000 words had been most of a decode's memory and of its time
// faulting that memory in.
type Entry struct {
	// The fields every pass over a listing reads (branches, padding,
	// counts, errors) come first, in one cache line.
	Addr int64
	// Target is a branch's destination address (-1: not a branch).
	Target int64
	// Text is the instruction in LLVM's syntax as llvm-mc prints it (a
	// branch target as the number in the word); Display puts the label in.
	Text   string
	Repeat int   // >1: the entry stands for Repeat identical words
	Src    int32 // input line, 0 for code objects
	How    How
	// Func says the first of Labels is a function (kernel) symbol.
	Func bool
	// Padding marks alignment words after a kernel (see collapse).
	Padding bool
	// err is why the word did not decode (Err), apart from more: an
	// input of garbage is an error an entry, and a pointer to the
	// message alone keeps its entries as small as they were.
	err   *string
	more  *entryMore
	Bytes []byte
	Inst  *decode.Inst // with Options.Fields
	Name  string       // the model's mnemonic; "" when not recognised
}

// entryMore is what few entries have. Entries are copied (a repeated
// line, a line assembled once for all that have its text, collapse), and
// the copies share it: it is never written in place, edit copies it.
type entryMore struct {
	labels                 []string
	targetLabel, targetRef string
	given                  string
}

// edit gives e its own copy of what few entries have, to write.
func (e *Entry) edit() *entryMore {
	m := new(entryMore)
	if e.more != nil {
		*m = *e.more
	}
	e.more = m
	return m
}

// Err says why the entry's word did not decode or its text did not
// assemble; "" when it did.
func (e *Entry) Err() string {
	if e.err == nil {
		return ""
	}
	return *e.err
}

// SetErr records why the entry did not decode or assemble ("": it did).
func (e *Entry) SetErr(msg string) {
	if msg == "" {
		e.err = nil
		return
	}
	e.err = &msg
}

// Labels are the labels defined at this entry.
func (e *Entry) Labels() []string {
	if e.more == nil {
		return nil
	}
	return e.more.labels
}

// SetLabels sets the labels defined at this entry.
func (e *Entry) SetLabels(labels []string) {
	if len(labels) == 0 && len(e.Labels()) == 0 {
		return
	}
	e.edit().labels = labels
}

// TargetLabel is a branch's destination label; TargetRef "<kernel+0x48>"
// as llvm-objdump writes it.
func (e *Entry) TargetLabel() string {
	if e.more == nil {
		return ""
	}
	return e.more.targetLabel
}

// TargetRef is a branch's destination as llvm-objdump writes it:
// "<kernel+0x48>".
func (e *Entry) TargetRef() string {
	if e.more == nil {
		return ""
	}
	return e.more.targetRef
}

// Given is the input's own text where it reads differently from the
// decoded one (a listing from another tool, or another target).
func (e *Entry) Given() string {
	if e.more == nil {
		return ""
	}
	return e.more.given
}

// Size is the entry's length in bytes (of one instruction of a run).
func (e *Entry) Size() int { return len(e.Bytes) }

// Display is the text with a branch target written as its label: the
// last operand (the branch offset) is replaced, the others are kept
// ("s_call_b64 s[30:31], .LBB0_1").
func (e *Entry) Display() string {
	if e.Target < 0 || e.TargetLabel() == "" {
		return e.Text
	}
	return branchHead(e.Text) + e.TargetLabel()
}

// branchHead is a branch's text up to its last operand, the offset:
// "s_call_b64 s[30:31], " or "s_branch ".
func branchHead(text string) string {
	if i := strings.LastIndex(text, ", "); i >= 0 {
		return text[:i+2]
	}
	mn, _, _ := strings.Cut(text, " ")
	return mn + " "
}

// Build reads in with fam into a listing.
func Build(in *Input, arch string, fam Codec, opts Options) *Listing {
	l := &Listing{Arch: arch, Target: in.Target, TargetID: in.TargetID, Kind: in.Kind, Flags: in.Flags, CodeObject: in.CodeObject}
	for _, u := range in.Units {
		s := Section{Name: u.Name, Kernels: u.Kernels, Directives: u.Directives}
		if u.Code != nil {
			s.Entries = decodeCode(fam.Dec, u.Code, int64(u.Addr), 0, opts, nil)
			labelSymbols(s.Entries, u.Symbols, int64(u.Addr))
		} else {
			s.Entries = readLines(fam, u.Lines, opts)
		}
		resolveBranches(s.Entries)
		s.Entries = collapse(s.Entries, opts.NoCollapse)
		for i := range s.Entries {
			if s.Entries[i].Err() != "" {
				l.Errors++
			}
		}
		l.Sections = append(l.Sections, s)
	}
	return l
}

// decodeCode decodes code from the start; like llvm-mc it reports an
// undecodable dword and goes on 4 bytes later. Entries are appended to
// appendTo, each with src as its input line. Without Options.Fields the
// texts are written into one buffer and are substrings of it: a large
// listing allocates a few objects, not one per instruction; code of
// splitAbove bytes or more is then decoded in two halves at once
// (decodeSplit).
func decodeCode(d *decode.Decoder, code []byte, base int64, src int32, opts Options, appendTo []Entry) []Entry {
	if !opts.Fields && len(code) >= splitAbove && uint64(len(code)) <= math.MaxUint32 && runtime.GOMAXPROCS(0) > 1 {
		return decodeSplit(d, code, base, src, appendTo)
	}
	out, _ := decodeRange(d, code, 0, len(code), base, src, opts, appendTo)
	return out
}

// splitAbove is the code decodeCode decodes in two halves at once: the
// decoding of 200,000 words was half a listing's time, and a second core
// takes half of it.
const splitAbove = 128 << 10

// decodeSplit decodes code's second half on another goroutine while this
// one decodes the first, then decodes on from where the first half ended
// until an instruction starts where one of the second half's does: the
// decoder reads the same bytes from there, so from that instruction on
// the second half's are the instructions decoding straight through finds
// (its first words, read from the middle of an instruction, are dropped).
// When the two never meet the first half is decoded to the end. The
// second half is kept as brief records, a fifth of an Entry, and becomes
// entries once joined: the listing's memory stays what it was.
func decodeSplit(d *decode.Decoder, code []byte, base int64, src int32, appendTo []Entry) []Entry {
	mid := len(code) / 2 &^ 3
	var tail []briefInst
	var arena []byte
	done := make(chan struct{})
	go func() {
		defer close(done)
		tail, arena = decodeBrief(d, code, mid)
	}()
	out, off := decodeRange(d, code, 0, mid, base, src, Options{}, appendTo)
	<-done
	j := 0
	for off < len(code) {
		for j < len(tail) && int(tail[j].off) < off {
			j++
		}
		if j < len(tail) && int(tail[j].off) == off {
			break
		}
		out, off = decodeRange(d, code, off, off+1, base, src, Options{}, out)
	}
	if off >= len(code) {
		return out
	}
	out = slices.Grow(out, len(tail)-j)
	all := unsafe.String(unsafe.SliceData(arena), len(arena))
	for _, b := range tail[j:] {
		out = append(out, Entry{Addr: base + int64(b.off), Target: -1, Repeat: 1, How: FromBytes, Src: src,
			Text: all[b.textStart:b.textEnd], Bytes: code[b.off : b.off+uint32(b.n) : b.off+uint32(b.n)], err: b.err})
		if e := &out[len(out)-1]; b.branch {
			e.Target = e.Addr + 4 + int64(b.simm)*4
		}
	}
	return out
}

// briefInst is what decodeSplit keeps of an instruction of the second
// half until it is joined: where it is, its text in the half's arena, its
// branch offset, its error.
type briefInst struct {
	off                uint32
	textStart, textEnd uint32
	n                  uint8
	branch             bool
	simm               int16
	err                *string
}

// decodeBrief decodes code[from:] into brief records and one arena of
// their texts.
func decodeBrief(d *decode.Decoder, code []byte, from int) ([]briefInst, []byte) {
	recs := make([]briefInst, 0, (len(code)-from)/5+16)
	arena := make([]byte, 0, (len(code)-from)*6)
	for off := from; off < len(code); {
		start := len(arena)
		var b briefInst
		var err error
		var n int
		arena, n, b.simm, b.branch, err = d.AppendTextBranch(arena, code, off)
		if err != nil {
			msg := errText(err)
			b.err, n = &msg, min(4, len(code)-off)
		}
		b.off, b.n, b.textStart, b.textEnd = uint32(off), uint8(n), uint32(start), uint32(len(arena))
		recs = append(recs, b)
		off += n
	}
	return recs, arena
}

// decodeRange appends the entries of the instructions that start in
// code[from:to] (the last may run past to) and gives the offset after
// them.
func decodeRange(d *decode.Decoder, code []byte, from, to int, base int64, src int32, opts Options, appendTo []Entry) ([]Entry, int) {
	// Room for the instructions of the range's first piece; past it,
	// for as many as the rest of the code holds at the density seen so
	// far (room for the most, a word each, was a third more entries than
	// compiled code has, all of it zeroed and faulted in).
	out := slices.Grow(appendTo, min(to-from, entrySample)/4+1)
	first := len(out)
	var arena []byte
	if !opts.Fields {
		arena = make([]byte, 0, (to-from)*6)
	}
	off := from
	for off < to {
		if len(out) == cap(out) {
			out = slices.Grow(out, roomFor(len(code)-off, off-from, len(out)-first))
		}
		// Built in place: an Entry is large, and a listing holds one per
		// instruction.
		out = append(out, Entry{Addr: base + int64(off), Target: -1, Repeat: 1, How: FromBytes, Src: src})
		e := &out[len(out)-1]
		var n int
		var err error
		var simm int16
		var branch bool
		if opts.Fields {
			var in decode.Inst
			in, n, err = d.Decode(code, off)
			if err == nil {
				in.Offset = int(e.Addr)
				e.Inst, e.Text, e.Name = &in, in.Text(), in.Name
				simm, branch = d.BranchOffset(code, off)
			}
		} else {
			start := len(arena)
			arena, n, simm, branch, err = d.AppendTextBranch(arena, code, off)
			if err == nil && len(arena) > start {
				// A piece of the arena, which nothing writes again: a
				// larger arena append moves to leaves the old one to
				// the texts already in it (a copy of each text was 4 MB
				// of fresh memory for 200,000 words, a pass at the end
				// another walk over every entry).
				e.Text = unsafe.String(&arena[start], len(arena)-start)
			}
		}
		if err != nil {
			e.SetErr(errText(err))
			n = min(4, len(code)-off)
		}
		e.Bytes = code[off : off+n : off+n]
		if branch {
			e.Target = e.Addr + 4 + int64(simm)*4
		}
		off += n
	}
	return out, off
}

// entrySample is how much code decodeCode reads before it estimates how
// many instructions the rest holds.
const entrySample = 16 << 10

// roomFor is how many more entries to make room for when rest bytes of
// code remain and done bytes made n entries: the rest at the density so
// far and an eighth more, at least a quarter of n (so a wrong estimate
// grows the slice geometrically), at most a word each.
func roomFor(rest, done, n int) int {
	most := rest/4 + 1
	est := int(int64(rest) * int64(n) / int64(max(done, 1)))
	return min(most, max(est+est/8+16, n/4))
}

func errText(err error) string {
	var de *decode.Error
	if errors.As(err, &de) {
		return de.Msg
	}
	return err.Error()
}

// labelSymbols puts each symbol on the entry at its address.
func labelSymbols(es []Entry, syms []codeobj.Symbol, base int64) {
	if len(syms) == 0 {
		return
	}
	at := indexByAddr(es)
	for _, s := range syms {
		if i, ok := at.find(base + int64(s.Offset)); ok {
			e := &es[i]
			if len(e.Labels()) == 0 {
				e.Func = s.Func
			}
			if !slices.Contains(e.Labels(), s.Name) {
				e.SetLabels(append(e.Labels(), s.Name))
			}
		}
	}
}

// addrIndex finds entries by address: by binary search over their
// addresses, a slice of their own (a search over the entries themselves
// missed the cache at every step), when the entries are in address order
// (always for code, nearly always for listings), else through a map.
type addrIndex struct {
	addrs []int64
	m     map[int64]int
}

func indexByAddr(es []Entry) addrIndex {
	addrs := make([]int64, len(es))
	for i := range es {
		addrs[i] = es[i].Addr
		if i > 0 && addrs[i] <= addrs[i-1] {
			m := make(map[int64]int, len(es))
			for i := range es {
				if _, dup := m[es[i].Addr]; !dup {
					m[es[i].Addr] = i
				}
			}
			return addrIndex{m: m}
		}
	}
	return addrIndex{addrs: addrs}
}

func (x addrIndex) find(a int64) (int, bool) {
	if x.m != nil {
		i, ok := x.m[a]
		return i, ok
	}
	i, ok := slices.BinarySearch(x.addrs, a)
	return i, ok
}

// branchOffset gives the destination of a PC-relative branch: SOPP
// s_branch and s_cbranch_* and SOPK s_call_b64 jump to PC + 4 +
// SIMM16 * 4 (the guides' SOPP and SOPK chapters: "PC = PC + signext(SIMM16
// * 4) + 4"); SIMM16 is bits 15:0 of the word in every family.
func branchTarget(e *Entry) (int64, bool) {
	if !isBranch(e.Text) || len(e.Bytes) < 4 {
		return 0, false
	}
	simm := int16(uint16(e.Bytes[0]) | uint16(e.Bytes[1])<<8)
	return e.Addr + 4 + int64(simm)*4, true
}

func isBranch(text string) bool {
	return strings.HasPrefix(text, "s_cbranch_") || strings.HasPrefix(text, "s_branch ") || strings.HasPrefix(text, "s_call_b64 ")
}

// resolveBranches finds every branch's destination, gives each
// destination without a label one (.LBB<function>_<n>, numbered in address
// order within the function they fall in, as LLVM names basic blocks), and
// writes the llvm-objdump reference <function+0xoffset>.
func resolveBranches(es []Entry) {
	at := indexByAddr(es)
	var dests []int64
	var branches []int // the entries with a target, for the last pass
	// Functions in address order, for numbering and references.
	type fn struct {
		name string
		addr int64
	}
	var fns []fn
	for i := range es { // by index: an Entry is large to copy
		e := &es[i]
		if e.Func && len(e.Labels()) > 0 {
			fns = append(fns, fn{e.Labels()[0], e.Addr})
		}
		if e.Err() != "" {
			continue
		}
		if e.Target < 0 && e.How != FromBytes {
			// Decoded words had their branches found by the decoder
			// (decodeCode); text is read by the mnemonic.
			t, ok := branchTarget(e)
			if !ok {
				continue
			}
			e.Target = t
		}
		if e.Target >= 0 {
			dests = append(dests, e.Target)
			branches = append(branches, i)
		}
	}
	fnAt := func(a int64) (int, bool) {
		i := sort.Search(len(fns), func(i int) bool { return fns[i].addr > a }) - 1
		return i, i >= 0
	}
	slices.Sort(dests)
	next := map[int]int{}
	for k, d := range dests {
		if k > 0 && dests[k-1] == d {
			continue
		}
		i, ok := at.find(d)
		if !ok || len(es[i].Labels()) > 0 {
			continue
		}
		f, _ := fnAt(d)
		fi := max(f, 0)
		next[fi]++
		es[i].SetLabels(append(es[i].Labels(), fmt.Sprintf(".LBB%d_%d", fi, next[fi])))
	}
	for _, i := range branches {
		e := &es[i]
		label, ref := e.TargetLabel(), e.TargetRef()
		if j, ok := at.find(e.Target); ok && len(es[j].Labels()) > 0 {
			label = es[j].Labels()[0]
		}
		if f, ok := fnAt(e.Target); ok {
			ref = "<" + fns[f].name + "+0x" + strconv.FormatInt(e.Target-fns[f].addr, 16) + ">"
			if e.Target == fns[f].addr {
				ref = "<" + fns[f].name + ">"
			}
		}
		if label != e.TargetLabel() || ref != e.TargetRef() {
			m := e.edit()
			m.targetLabel, m.targetRef = label, ref
		}
	}
}

// padding says whether an entry is alignment padding LLVM emits after a
// kernel: s_code_end (gfx10+) or s_nop 0.
func padding(e *Entry) bool { return e.Err() == "" && (e.Text == "s_code_end" || e.Text == "s_nop 0") }

// collapse marks alignment padding — a run of identical s_code_end or
// s_nop 0 words that follows s_endpgm, or (two or more) reaches the next
// function or the end of the code, with no label inside — and folds each
// run into one entry unless noCollapse. It works in place.
func collapse(es []Entry, noCollapse bool) []Entry {
	w := 0
	for i := 0; i < len(es); {
		if !padding(&es[i]) {
			if w != i {
				es[w] = es[i]
			}
			w++
			i++
			continue
		}
		e := &es[i]
		j := i + 1
		for j < len(es) && len(es[j].Labels()) == 0 && es[j].Text == e.Text && string(es[j].Bytes) == string(e.Bytes) && es[j].Repeat == 1 {
			j++
		}
		afterEnd := w > 0 && strings.HasPrefix(es[w-1].Text, "s_endpgm")
		toNext := j == len(es) || es[j].Func
		if afterEnd || toNext && j-i >= 2 {
			es[w] = es[i]
			es[w].Repeat, es[w].Padding = j-i, true
			if noCollapse {
				// Marked, not folded: each word keeps its line.
				for k := i; k < j; k++ {
					es[w] = es[k]
					es[w].Padding = true
					w++
				}
				i = j
				continue
			}
			w++
			i = j
			continue
		}
		for ; i < j; i++ {
			es[w] = es[i]
			w++
		}
	}
	return es[:w]
}

// readLines turns the lines of a text input into entries: machine code
// where a line has it (consecutive lines of bare bytes form one stream,
// so a 64-bit word may span two lines), else the text assembled by the
// encoder with labels resolved (two passes: sizes, then branch offsets).
func readLines(fam Codec, lines []Line, opts Options) []Entry {
	// Nearly every line is one instruction: sized once, the entries are
	// not copied as they grow (for 10,000 lines of assembly the copies
	// were 10 MB of fresh memory, four times the entries themselves).
	out := make([]Entry, 0, len(lines))
	var pending []string // labels waiting for the next instruction
	next := int64(0)     // running address where the input gives none
	assemble := false    // some line is text alone
	flushLabels := func(e *Entry) {
		e.SetLabels(append(pending, e.Labels()...))
		// A symbol (llvm-objdump's <saxpy>:, a global label) starts a
		// function; local labels (.LBB0_1) do not.
		e.Func = len(e.Labels()) > 0 && !strings.HasPrefix(e.Labels()[0], ".")
		pending = nil
	}
	for i := 0; i < len(lines); i++ {
		ln := lines[i]
		if ln.Label != "" && ln.Text == "" && len(ln.Bytes) == 0 {
			if ln.Addr >= 0 {
				next = ln.Addr
			}
			pending = append(pending, ln.Label)
			continue
		}
		if ln.Label != "" {
			pending = append(pending, ln.Label)
		}
		addr := next
		if ln.Addr >= 0 {
			addr = ln.Addr
		}
		start := len(out)
		switch {
		case len(ln.Bytes) > 0 && ln.Text == "":
			// A stream of bare machine code, possibly over several lines.
			// The line's own bytes unless others join them (clipped: an
			// append copies, and the input's bytes are never written).
			code := slices.Clip(ln.Bytes)
			for i+1 < len(lines) && lines[i+1].Text == "" && lines[i+1].Label == "" && len(lines[i+1].Bytes) > 0 && lines[i+1].Addr < 0 {
				i++
				code = append(code, lines[i].Bytes...)
			}
			out = decodeCode(fam.Dec, code, addr, int32(ln.Src), opts, out)
		case len(ln.Bytes) > 0:
			out = decodeCode(fam.Dec, ln.Bytes, addr, int32(ln.Src), opts, out)
			if norm := normText(ln.Text); out[start].Err() == "" && normText(out[start].Text) != norm && !sameBranch(&out[start], ln.Text) {
				out[start].edit().given = ln.Text
			}
		default:
			e := Entry{Addr: addr, Text: ln.Text, Target: -1, Repeat: 1, Src: int32(ln.Src)}
			out = append(out, e)
			assemble = true
		}
		if len(out) > start {
			flushLabels(&out[start])
			last := &out[len(out)-1]
			next = last.Addr + int64(len(last.Bytes))
		}
		for r := 1; r < ln.Repeat && len(out) > start && len(out) < maxEntries; r++ {
			e := out[len(out)-1]
			e.Addr, e.Func = next, false
			e.SetLabels(nil)
			out = append(out, e)
			next += int64(len(e.Bytes))
		}
	}
	if len(pending) > 0 && len(out) > 0 {
		// Labels after the last instruction mark the end; keep them on it.
		out[len(out)-1].SetLabels(append(out[len(out)-1].Labels(), pending...))
	}
	if assemble {
		// (Machine code alone has nothing to assemble, and two passes
		// over 200,000 entries were a tenth of its listing's time.)
		assembleText(fam, out, opts)
	}
	return out
}

// sameBranch: a listing that writes a branch's destination as a label
// ("s_cbranch_execz .LBB0_2") agrees with the decoded number.
func sameBranch(e *Entry, given string) bool {
	if !isBranch(e.Text) {
		return false
	}
	return normText(branchHead(given)) == normText(branchHead(e.Text))
}

func normText(s string) string {
	if isNormText(s) {
		return s // the decoder's own text is (nearly always) normal already
	}
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.ReplaceAll(s, " ,", ",")
}

// isNormText says whether normText would give s back: ASCII without
// upper case, separated by single spaces, no space before a comma.
func isNormText(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80 || c < ' ' || 'A' <= c && c <= 'Z':
			return false
		case c == ' ' && (i == 0 || i == len(s)-1 || s[i+1] == ' ' || s[i+1] == ','):
			return false
		}
	}
	return true
}

// assembleText encodes the entries that have text but no bytes. A branch
// to a label is assembled with offset 0 first, for its size; once every
// address is known it is assembled again with the real offset.
func assembleText(fam Codec, es []Entry, opts Options) {
	labels := map[string]bool{}
	for i := range es { // by index here and below: an Entry is large to copy
		for _, l := range es[i].Labels() {
			labels[l] = true
		}
	}
	type fix struct {
		i     int
		mn    string
		label string
	}
	var fixes []fix
	shift := int64(0) // addresses move as text gets its real size
	// A repeated line is assembled once: its text -> the entry that has it
	// (its index, not a copy: an Entry is large, and most lines are not
	// repeated).
	seen := make(map[string]int, len(es))
	for i := range es {
		e := &es[i]
		e.Addr += shift
		if e.Bytes != nil || e.Err() != "" || e.Text == "" {
			continue
		}
		text := e.Text
		mn, rest, _ := strings.Cut(text, " ")
		if isBranch(text) && labels[strings.TrimSpace(rest)] {
			fixes = append(fixes, fix{i, mn, strings.TrimSpace(rest)})
			text = mn + " 0"
		}
		before := int64(len(e.Bytes))
		if j, ok := seen[text]; ok {
			addr, src, labels, fn := e.Addr, e.Src, e.Labels(), e.Func
			*e = es[j]
			e.Addr, e.Src, e.Func = addr, src, fn
			e.SetLabels(labels)
			if e.Inst != nil {
				in := *e.Inst
				in.Offset = int(addr)
				e.Inst = &in
			}
		} else {
			assembleOne(fam, e, text, opts)
			seen[text] = i
		}
		shift += int64(len(e.Bytes)) - before
	}
	if len(fixes) == 0 {
		return
	}
	at := map[string]int64{}
	for i := range es {
		for _, l := range es[i].Labels() {
			if _, dup := at[l]; !dup {
				at[l] = es[i].Addr
			}
		}
	}
	for _, f := range fixes {
		e := &es[f.i]
		dest := at[f.label]
		off := (dest - e.Addr - 4) / 4
		if (dest-e.Addr-4)%4 != 0 || off < -32768 || off > 32767 {
			e.Bytes, e.Inst, e.Name, e.How = nil, nil, "", FromTextAlone
			e.SetErr(fmt.Sprintf("branch to %s is out of range", f.label))
			continue
		}
		given := e.Text
		e.Bytes, e.Inst = nil, nil
		assembleOne(fam, e, f.mn+" "+strconv.FormatInt(off, 10), opts)
		e.Text = given
		if e.Err() == "" {
			if e.Inst != nil {
				e.Text = e.Inst.Text()
			} else if t, _, err := fam.Dec.AppendText(nil, e.Bytes, 0); err == nil {
				e.Text = string(t)
			}
		}
		e.Target = dest
		e.edit().targetLabel = f.label
	}
}

// assembleOne encodes text into e and decodes the bytes back; an encoder
// error leaves e as unchecked text with the mnemonic looked up by name.
func assembleOne(fam Codec, e *Entry, text string, opts Options) {
	if fam.Enc == nil {
		e.How = FromTextAlone
		e.SetErr("no encoder")
		return
	}
	b, err := fam.Enc.Encode(text)
	var tooLong *encode.TooLongError
	if errors.As(err, &tooLong) {
		// The listing shows the line's start, as the error does, not a
		// line no instruction could be.
		e.How, e.Text = FromTextAlone, tooLong.Start
		e.SetErr(err.Error())
		e.Name = mnemonicName(tooLong.Start)
		return
	}
	if err != nil {
		e.How = FromTextAlone
		e.SetErr(err.Error())
		e.Name = mnemonicName(text)
		return
	}
	e.Bytes, e.How = b, FromText
	var got string
	if opts.Fields {
		in, _, err := fam.Dec.Decode(b, 0)
		if err != nil {
			e.SetErr(errText(err))
			return
		}
		in.Offset = int(e.Addr)
		e.Name, e.Inst, got = in.Name, &in, in.Text()
	} else {
		in, _, err := fam.Dec.DecodeBrief(b, 0)
		if err != nil {
			e.SetErr(errText(err))
			return
		}
		e.Name, got = in.Name, in.Text
	}
	if got != e.Text && normText(got) != normText(e.Text) && !isBranch(e.Text) {
		e.edit().given = e.Text
	}
	e.Text = got
}

// mnemonicName is the first word of an instruction's text, lower case.
func mnemonicName(text string) string {
	mn, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	return strings.ToLower(mn)
}

// Instructions counts the instructions (runs counted word by word).
func (l *Listing) Instructions() int {
	n, _ := l.counts()
	return n
}

// counts gives the instructions, padding words included, and the padding
// words alone (alignment after a kernel).
func (l *Listing) counts() (all, padding int) {
	for _, s := range l.Sections {
		for i := range s.Entries {
			if e := &s.Entries[i]; e.Err() == "" || e.How == FromTextAlone {
				all += e.Repeat
				if e.Padding {
					padding += e.Repeat
				}
			}
		}
	}
	return all, padding
}
