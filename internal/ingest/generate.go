package ingest

import (
	"context"
	"encoding/binary"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/asmtext"
	"github.com/gpuisa/gpuisa/internal/ingest/merge"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/verify"
	"github.com/gpuisa/gpuisa/internal/store/quality"
)

// Examples generated from llvm-mc's own disassembly.
//
// Where neither LLVM's syntax rows, its MC tests nor the operand patterns of
// similar instructions gave an example llvm-mc accepts on a family's
// targets (WMMA and MFMA register tuples, image address sizes, scratch
// addressing), the assembler is asked to write one: AMD's opcode is placed
// into verified words of the same format (the encodings llvm-mc produced
// for other instructions of the family, most similar names first), llvm-mc
// disassembles them on the family's first target, and what it prints,
// with its invalid registers replaced by registers of the class it names
// and tuples renumbered to aligned registers, is assembled on every
// target. A line is kept only when llvm-mc accepts it on a family target
// and its encoding carries AMD's format and opcode: the example is then
// that instruction by the assembler's own account.

// Bounds on the work per instruction.
const (
	genRefsPerInstruction = 6  // verified words an opcode is placed into
	genRefsPerFormat      = 64 // verified words kept per format to choose from
	genCandidates         = 3  // accepted lines kept per instruction
)

// genRef is a verified word of one format: the bytes llvm-mc produced on
// the disassembly target for an example of name.
type genRef struct {
	name  string
	bytes []byte
}

// genLine is one generated line for an instruction: the disassembled
// text made assemblable, and where it came from.
type genLine struct {
	in     *isa.Instruction
	asm    string
	format *isa.Format
	opcode int
	op     isa.Field // the OP field of format
}

// generated is what generateExamples made: candidates per instruction
// (accepted on a family target, with the right opcode), the verdicts on
// every line on every target (aligned with the first pass's targets) and
// the run's statistics.
type generated struct {
	cands map[*isa.Instruction][]merge.Candidate
	rows  map[string][]verify.Outcome
	stats quality.RunStats
	// failed says, for an instruction that got no candidate, what was
	// tried, for its reason in the quality report.
	failed map[*isa.Instruction]string
}

// generateExamples makes candidates for the AMD instructions results marks
// unverified or rejected (see the comment above); targets are every
// verified target in the first pass's order.
func generateExamples(ctx context.Context, llvmMC, version string, archs []isa.Architecture, insts []*isa.Instruction,
	results map[*isa.Instruction]merge.Result, famTargets map[string][]string, targets []string, cacheDir string) (*generated, error) {
	g := &generated{cands: map[*isa.Instruction][]merge.Candidate{}, rows: map[string][]verify.Outcome{}, failed: map[*isa.Instruction]string{}}
	missing := map[string][]*isa.Instruction{}
	for _, in := range insts {
		if in.Vendor != isa.VendorAMD || len(in.Encodings) == 0 {
			continue
		}
		if r, ok := results[in]; ok && !r.Verified {
			missing[in.Arch] = append(missing[in.Arch], in)
		}
	}
	var lines []genLine
	probed := map[*isa.Instruction]bool{} // a verified word of its format was found
	for i := range archs {
		arch := &archs[i]
		list := missing[arch.ID]
		if len(list) == 0 || len(famTargets[arch.ID]) == 0 {
			continue
		}
		target := famTargets[arch.ID][0]
		pool := genReferences(arch, insts, target)
		type probe struct {
			in     *isa.Instruction
			format *isa.Format
			opcode int
			op     isa.Field
		}
		var probes []probe
		var words [][]byte
		opcodeEncodings(arch, list, func(in *isa.Instruction, e isa.Encoding, f *isa.Format, op isa.Field) {
			refs := pool[f.Name]
			if len(refs) == 0 {
				refs = siblingRefs(arch, f, pool)
			}
			seenWord := map[string]bool{}
			for _, ref := range similarRefs(refs, in.Name, genRefsPerInstruction) {
				for _, ws := range fieldVariants(f, toWords(ref.bytes)) {
					op.Put(ws, uint64(e.Opcode))
					b := toBytes(ws)
					if seenWord[string(b)] {
						continue
					}
					seenWord[string(b)] = true
					probes = append(probes, probe{in, f, e.Opcode, op})
					words = append(words, b)
					probed[in] = true
				}
			}
		})
		if len(words) == 0 {
			continue
		}
		dec, err := verify.DisassembleWith(ctx, verify.Options{LLVMMC: llvmMC, CacheDir: cacheDir}, target, words)
		if err != nil {
			return nil, fmt.Errorf("llvm-mc disassembly of %s encodings: %w", arch.ID, err)
		}
		rejected := func(in *isa.Instruction) bool { return results[in].Rejected }
		for k, p := range probes {
			d := dec[k]
			if d.Error != "" || d.Text == "" || strings.Contains(d.Text, "\n") {
				continue
			}
			for _, asm := range disasmVariants(d.Text, p.in.Name, !rejected(p.in)) {
				lines = append(lines, genLine{in: p.in, asm: asm, format: p.format, opcode: p.opcode, op: p.op})
			}
		}
	}
	if len(lines) == 0 {
		g.explain(missing, nil, nil, famTargets, nil, probed)
		return g, nil
	}
	var batch verify.Batch
	for _, l := range lines {
		batch.Add(l.asm)
	}
	res, err := verify.Run(ctx, batch.Inputs, targets, verify.Options{LLVMMC: llvmMC, CacheDir: cacheDir})
	if err != nil {
		return nil, err
	}
	g.stats = runStats(&batch, res)
	for asm, i := range batch.Index {
		g.rows[asm] = res.Outcomes[i]
	}
	tIndex := targetIndex(targets)
	// Lines that repeat a register read less like real code: last.
	sort.SliceStable(lines, func(i, j int) bool { return !repeatsRegister(lines[i].asm) && repeatsRegister(lines[j].asm) })
	seen := map[*isa.Instruction]map[string]bool{}
	for _, l := range lines {
		if len(g.cands[l.in]) >= genCandidates || seen[l.in][l.asm] {
			continue
		}
		row := g.rows[l.asm]
		var ok []string
		for _, t := range famTargets[l.in.Arch] {
			i, known := tIndex[t]
			if !known || i >= len(row) || !row[i].Supported {
				continue
			}
			if carries(row[i].Encoding, l.format, l.op, l.opcode) {
				ok = append(ok, t)
			}
		}
		if len(ok) == 0 {
			continue
		}
		if seen[l.in] == nil {
			seen[l.in] = map[string]bool{}
		}
		seen[l.in][l.asm] = true
		g.cands[l.in] = append(g.cands[l.in], merge.Candidate{
			Asm: l.asm, Own: true,
			Source: fmt.Sprintf("%s (%s opcode %d), accepted by %s on %s", merge.GeneratedProvenance, l.format.Name, l.opcode,
				assemblerName(version), strings.Join(ok, ", ")),
			Prov: isa.Prov{Source: isa.SourceGPUISA, File: "internal/ingest/generate.go"},
		})
	}
	g.explain(missing, lines, g.rows, famTargets, tIndex, probed)
	return g, nil
}

// explain fills g.failed for the missing instructions that got no
// candidate: how many generated lines llvm-mc rejected, with its first
// message, or why there was nothing to generate.
func (g *generated) explain(missing map[string][]*isa.Instruction, lines []genLine, rows map[string][]verify.Outcome,
	famTargets map[string][]string, tIndex map[string]int, probed map[*isa.Instruction]bool) {
	tried := map[*isa.Instruction]int{}
	first := map[*isa.Instruction]string{}
	for _, l := range lines {
		tried[l.in]++
		if first[l.in] != "" {
			continue
		}
		row := rows[l.asm]
		for _, t := range famTargets[l.in.Arch] {
			if i, ok := tIndex[t]; ok && i < len(row) {
				switch {
				case row[i].Error != "":
					first[l.in] = row[i].Error
				case row[i].Supported:
					first[l.in] = "accepted, but as another opcode or format"
				}
				break
			}
		}
	}
	for _, list := range missing {
		for _, in := range list {
			switch {
			case len(g.cands[in]) > 0:
			case !probed[in]:
				g.failed[in] = "no example of its format was verified on the family, so there is no word to place its opcode in"
			case tried[in] == 0:
				g.failed[in] = "llvm-mc does not decode AMD's opcode placed into the family's verified words of its format"
			default:
				g.failed[in] = fmt.Sprintf("llvm-mc rejected the %d lines generated from its disassembly of AMD's encoding too (%s)", tried[in], first[in])
			}
		}
	}
}

// carries reports whether an encoding is an instruction of format f with
// the opcode op in its OP field: llvm-mc's own proof that a line is the
// instruction it was generated for.
func carries(enc []byte, f *isa.Format, op isa.Field, opcode int) bool {
	if len(enc) < 4 || op.MSB >= 8*len(enc) {
		return false
	}
	for _, r := range op.Ranges {
		if r.MSB >= 8*len(enc) {
			return false
		}
	}
	return merge.FixedMatch(*f, binary.LittleEndian.Uint32(enc)) && int(op.Get(toWords(enc))) == opcode
}

// assemblerName turns llvm-mc's version line into "llvm-mc 22.1.8".
func assemblerName(version string) string {
	f := strings.Fields(version)
	for i, w := range f {
		if w == "version" && i+1 < len(f) {
			return "llvm-mc " + f[i+1]
		}
	}
	return "llvm-mc"
}

// genReferences collects, per format of arch, verified words llvm-mc
// produced on target: one per instruction, in model order, whose fixed
// bits are the format's and whose length is its width.
func genReferences(arch *isa.Architecture, insts []*isa.Instruction, target string) map[string][]genRef {
	refs := map[string][]genRef{}
	type taken struct {
		in     *isa.Instruction
		format string
	}
	took := map[taken]bool{}
	for w := range exampleWords(arch, insts, target) {
		f, t := w.format, taken{w.in, w.format.Name}
		// MIMG words are shorter than the format's width when they need
		// no extra address dwords.
		if len(w.bytes) > f.Width/8 || len(w.bytes) < min(8, f.Width/8) || took[t] || len(refs[f.Name]) >= genRefsPerFormat {
			continue
		}
		took[t] = true
		refs[f.Name] = append(refs[f.Name], genRef{name: w.in.Name, bytes: w.bytes})
	}
	return refs
}

// siblingRefs lends a format without verified words of its own (CDNA's
// SCRATCH, where no built example assembles) those of a format of the
// same width and ENCODING value (GLOBAL), with the format's own fixed
// fields (SEG) written into them.
func siblingRefs(arch *isa.Architecture, f *isa.Format, pool map[string][]genRef) []genRef {
	enc := func(x *isa.Format) string {
		for _, fd := range x.Fields {
			if strings.EqualFold(fd.Name, "ENCODING") {
				return fmt.Sprintf("%d:%d=%s", fd.MSB, fd.LSB, fd.Fixed)
			}
		}
		return ""
	}
	mine := enc(f)
	if mine == "" {
		return nil
	}
	var out []genRef
	for i := range arch.Formats {
		o := &arch.Formats[i]
		if o == f || o.Width != f.Width || enc(o) != mine {
			continue
		}
		for _, r := range pool[o.Name] {
			ws := toWords(r.bytes)
			for _, fd := range f.Fields {
				if fd.Fixed == "" {
					continue
				}
				if v, err := strconv.ParseUint(strings.ReplaceAll(fd.Fixed, "_", ""), 2, 64); err == nil {
					fd.Put(ws, v)
				}
			}
			out = append(out, genRef{name: r.name, bytes: toBytes(ws)})
		}
	}
	return out
}

// fieldValues are values worth trying in fields that decide an
// instruction's operand shape, from the formats' field descriptions: a
// one- and a two-channel DMASK (gathers and atomics take one channel,
// compare-swap two), SADDR 0x7f ("disable use", a VGPR address), the LDS
// bit (the buffer-to-LDS stores need it) and DIM 6, 2D MSAA (the MSAA
// loads take no other).
var fieldValues = map[string][]uint64{"DMASK": {1, 3}, "SADDR": {0x7f}, "LDS": {1}, "DIM": {6}}

// fieldVariants returns the word itself and copies with one of the
// fieldValues written into the format's fields of that name.
func fieldVariants(f *isa.Format, ws []uint32) [][]uint32 {
	out := [][]uint32{ws}
	for _, fd := range f.Fields {
		for _, v := range fieldValues[strings.ToUpper(fd.Name)] {
			if v >= 1<<uint(fd.Width()) || fd.Get(ws) == v {
				continue
			}
			c := append([]uint32(nil), ws...)
			fd.Put(c, v)
			out = append(out, c)
		}
	}
	return out
}

// similarRefs picks up to n references, those whose names share the most
// leading words with name first (an image atomic learns from image
// atomics), in pool order otherwise.
func similarRefs(pool []genRef, name string, n int) []genRef {
	words := strings.Split(name, "_")
	shared := func(other string) int {
		ow := strings.Split(other, "_")
		k := 0
		for k < len(words) && k < len(ow) && words[k] == ow[k] {
			k++
		}
		return k
	}
	idx := make([]int, len(pool))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return shared(pool[idx[a]].name) > shared(pool[idx[b]].name) })
	// Among equally similar names, one of each kind first (image_sample,
	// image_load, image_store...): their words differ in more than the
	// opcode.
	kind := func(other string) string {
		ow := strings.Split(other, "_")
		k := min(shared(other)+1, len(ow))
		return strings.Join(ow[:k], "_")
	}
	var out []genRef
	used := map[int]bool{}
	kinds := map[string]bool{}
	for _, i := range idx {
		if len(out) < n && !kinds[kind(pool[i].name)] {
			kinds[kind(pool[i].name)] = true
			used[i] = true
			out = append(out, pool[i])
		}
	}
	for _, i := range idx {
		if len(out) < n && !used[i] {
			out = append(out, pool[i])
		}
	}
	return out
}

// invalidReg is llvm-mc's note on a register it printed that the operand
// cannot take: "/*Invalid register, operand has 'VReg_256' register class*/".
var invalidReg = regexp.MustCompile(`(\S+?)\s*/\*Invalid register, operand has '([A-Za-z]+)_(\d+)[A-Za-z0-9_]*' register class\*/`)

// regOperand is a register operand: v1, s[2:3], a[0:15].
var regOperand = regexp.MustCompile(`^([vsa])(?:(\d+)|\[(\d+):(\d+)\])$`)

// disasmVariants turns one line llvm-mc disassembled into lines to
// assemble, in order of preference: invalid registers replaced by a
// register of the class llvm-mc names, and every register renumbered to
// aligned, distinct registers (tuples then meet the targets' alignment and
// overlap rules); that with the last register operand tied to the first
// (accumulators); the registers as printed. With useName, the mnemonic is
// AMD's name, keeping LLVM's encoding suffix (_e64), and the printed one
// follows as well.
func disasmVariants(text, name string, useName bool) []string {
	text = strings.TrimSpace(text)
	if i := strings.Index(text, ";"); i >= 0 {
		text = strings.TrimSpace(text[:i])
	}
	text = invalidReg.ReplaceAllStringFunc(text, func(m string) string {
		sub := invalidReg.FindStringSubmatch(m)
		return classRegister(sub[2], sub[3], sub[1])
	})
	if strings.Contains(text, "/*") {
		return nil // another complaint llvm-mc wrote into the text
	}
	mn, rest, _ := strings.Cut(text, " ")
	var mnemonics []string
	if useName {
		suffix := strings.TrimPrefix(mn, merge.StripLLVMSuffix(mn))
		if merge.StripLLVMSuffix(mn) != name {
			mnemonics = append(mnemonics, name+suffix)
		}
	}
	mnemonics = append(mnemonics, mn)
	ops, mods := splitOperands(rest)
	var bodies []string
	add := func(ops []string) {
		b := strings.Join(ops, ", ")
		if mods != "" {
			b = strings.TrimSpace(b + " " + mods)
		}
		for _, x := range bodies {
			if x == b {
				return
			}
		}
		bodies = append(bodies, b)
	}
	renum := renumber(ops)
	add(renum)
	if tied := tieLast(renum); tied != nil {
		add(tied)
	}
	add(ops)
	var out []string
	for _, m := range mnemonics {
		for _, b := range bodies {
			out = append(out, strings.TrimSpace(m+" "+b))
		}
	}
	return out
}

// classRegister writes a register of an LLVM register class ("VReg", "256")
// in place of what llvm-mc printed: the same first register number where
// it printed one of the right kind, else register 0.
func classRegister(class, bits, printed string) string {
	kind := "v"
	switch {
	case strings.HasPrefix(class, "AReg"), strings.HasPrefix(class, "AGPR"):
		kind = "a"
	case strings.HasPrefix(class, "SReg"), strings.HasPrefix(class, "SGPR"):
		kind = "s"
	}
	n, _ := strconv.Atoi(bits)
	size := n / 32
	if size < 1 {
		size = 1
	}
	base := 0
	if m := regOperand.FindStringSubmatch(printed); m != nil && m[1] == kind {
		if m[2] != "" {
			base, _ = strconv.Atoi(m[2])
		} else {
			base, _ = strconv.Atoi(m[3])
		}
	}
	return regText(kind, base, size)
}

func regText(kind string, base, size int) string {
	if size == 1 {
		return fmt.Sprintf("%s%d", kind, base)
	}
	return fmt.Sprintf("%s[%d:%d]", kind, base, base+size-1)
}

// splitOperands splits the text after a mnemonic into its comma-separated
// operands and the space-separated modifiers after the last one; commas
// inside brackets (op_sel:[0,1]) do not split.
func splitOperands(rest string) (ops []string, mods string) {
	parts := asmtext.Split(rest)
	if len(parts) == 0 {
		return nil, ""
	}
	ops, last := parts[:len(parts)-1], parts[len(parts)-1]
	if i := strings.IndexByte(last, ' '); i >= 0 {
		last, mods = last[:i], strings.TrimSpace(last[i+1:])
	}
	// A line of modifiers only (s_nop's "0" is an operand, "glc" is not).
	if len(ops) == 0 && strings.Contains(last, ":") {
		return nil, strings.TrimSpace(last + " " + mods)
	}
	ops = append(ops, last)
	return ops, mods
}

// renumber gives every register operand a fresh register of its kind and
// size, aligned to its size (at most 8), so tuples meet the alignment and
// no-overlap rules of the targets that have them.
func renumber(ops []string) []string {
	return renumberFrom(map[string]int{"v": 0, "s": 0, "a": 0}, ops)
}

// renumberFrom is renumber with the next free register of each kind.
func renumberFrom(next map[string]int, ops []string) []string {
	out := make([]string, len(ops))
	for i, op := range ops {
		if inner, ok := strings.CutPrefix(op, "["); ok && strings.HasSuffix(inner, "]") {
			// A list of address registers (NSA, VIMAGE): each renumbered.
			parts := strings.Split(strings.TrimSuffix(inner, "]"), ",")
			for k := range parts {
				parts[k] = strings.TrimSpace(parts[k])
			}
			out[i] = "[" + strings.Join(renumberFrom(next, parts), ", ") + "]"
			continue
		}
		m := regOperand.FindStringSubmatch(op)
		if m == nil {
			out[i] = op
			continue
		}
		size := 1
		if m[2] == "" {
			lo, _ := strconv.Atoi(m[3])
			hi, _ := strconv.Atoi(m[4])
			size = hi - lo + 1
		}
		align := 1
		for align < size && align < 8 {
			align *= 2
		}
		base := (next[m[1]] + align - 1) / align * align
		if m[1] == "s" && base == 0 && size == 1 {
			base = 1 // s0 reads like a placeholder; any SGPR will do
		}
		next[m[1]] = base + size
		out[i] = regText(m[1], base, size)
	}
	return out
}

// tieLast returns ops with the last register operand replaced by the first
// when both are registers of the same kind and size (an accumulator that
// must be the destination), or nil when they are not.
func tieLast(ops []string) []string {
	if len(ops) < 3 {
		return nil
	}
	first, last := regOperand.FindStringSubmatch(ops[0]), regOperand.FindStringSubmatch(ops[len(ops)-1])
	if first == nil || last == nil || first[1] != last[1] || regSize(first) != regSize(last) || ops[0] == ops[len(ops)-1] {
		return nil
	}
	out := append([]string(nil), ops...)
	out[len(out)-1] = ops[0]
	return out
}

func regSize(m []string) int {
	if m[2] != "" {
		return 1
	}
	lo, _ := strconv.Atoi(m[3])
	hi, _ := strconv.Atoi(m[4])
	return hi - lo + 1
}

// attachSpelled shows, for an instruction whose AMD name llvm-mc rejects on
// its family, the generated examples (in LLVM's spelling) accepted on a
// family target, and marks those targets' details with the spelling that
// assembles there; the name itself stays unsupported. It reports whether
// any example was attached.
func attachSpelled(in *isa.Instruction, cands []merge.Candidate, outcomes func(string) ([]verify.Outcome, bool), famTargets []string, tIndex map[string]int) bool {
	attached := false
	forms := map[string]bool{}
	for _, ex := range in.Examples {
		forms[strings.Fields(ex.Asm)[0]] = true
	}
	for _, c := range cands {
		row, _ := outcomes(c.Asm)
		for _, t := range famTargets {
			i, ok := tIndex[t]
			if !ok || i >= len(row) || !row[i].Supported {
				continue
			}
			spelling := merge.StripLLVMSuffix(row[i].Mnemonic())
			markSpelling(in, t, spelling, asmtext.FormatBytes(row[i].Encoding), row[i].Printed)
			form := row[i].Mnemonic()
			if forms[form] || len(in.Examples) >= genCandidates {
				continue
			}
			forms[form] = true
			in.Examples = append(in.Examples, isa.Example{
				Asm: c.Asm, Encoding: asmtext.FormatBytes(row[i].Encoding), Target: t, Prov: c.Prov,
				Source: c.Source + merge.SpelledNote + spelling + ", since llvm-mc rejects the name " + in.Name + " here",
			})
			attached = true
		}
	}
	return attached
}

// markSpelling records on target t, which rejects the instruction's name,
// that it assembles there under another spelling, with that spelling's
// encoding and printed text, unless t's detail says so already. It
// reports whether it marked t.
func markSpelling(in *isa.Instruction, t, spelling, encoding, printed string) bool {
	if spelling == "" || spelling == in.Name {
		return false
	}
	for i := range in.TargetDetails {
		d := &in.TargetDetails[i]
		if d.Target != t {
			continue
		}
		if d.Status == "supported" || d.OtherSpelling != "" {
			return false
		}
		d.OtherSpelling, d.Encoding, d.Printed = spelling, encoding, printed
		return true
	}
	in.TargetDetails = append(in.TargetDetails, isa.TargetResult{Target: t, Status: "unsupported",
		OtherSpelling: spelling, Encoding: encoding, Printed: printed})
	return true
}

// repeatsRegister reports whether a line names the same register operand
// twice ("v_fma_mix_f32 v1, v1, s0, s0").
func repeatsRegister(asm string) bool {
	_, rest, _ := strings.Cut(asm, " ")
	ops, _ := splitOperands(rest)
	seen := map[string]bool{}
	for _, op := range ops {
		if regOperand.MatchString(op) {
			if seen[op] {
				return true
			}
			seen[op] = true
		}
	}
	return false
}
