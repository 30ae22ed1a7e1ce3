package ptxas

import (
	"debug/elf"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/base/lazyre"
)

// moduleBank is the constant bank that holds the addresses of a module's
// symbols (sm_70 and newer): its offsets depend on every symbol of the
// cubin.
const moduleBank = "c[0x4]["

// constBank holds the module's .const variables: their offsets, too,
// depend on every kernel of the cubin. Kernels that read it are listed
// alone (about one statement per target).
const constBank = "c[0x3]["

// readsModuleBank reports whether a kernel reads a bank whose offsets
// depend on its batch-mates.
func readsModuleBank(lines []SASSLine) bool {
	for _, l := range lines {
		if strings.Contains(l.Text, moduleBank) || strings.Contains(l.Text, constBank) {
			return true
		}
	}
	return false
}

// moduleBankRe matches a read of bank 4 at an immediate offset, the only
// form a symbol's address is loaded with ("c[0x4][RZ]" and "c[0x4][URZ]"
// are offset 0).
var moduleBankRe = lazyre.New(`c\[0x4\]\[(RZ|URZ|0x[0-9a-f]+)\]`)

// Bank operands of the 128-bit encodings (sm_70 and newer): the offset at
// bits [53:40] of the low word, counted as encodesBankRead says;
// the bank at [58:54].
const (
	bankOffsetShift = 40
	bankOffsetMask  = 1<<14 - 1
	bankShift       = 54
	bankMask        = 1<<5 - 1
)

// relocateModuleBank returns a kernel's lines with its reads of the module
// bank moved to the offsets they have when the kernel is alone in its
// cubin, so that a batch of kernels is listed once instead of once per
// kernel that takes a symbol's address (an nvdisasm process costs about
// 0.8 CPU-s however small its cubin). The bank holds one 64-bit slot per
// variable whose address the module takes, in the order the module
// declares them (the cubin's relocations of .nv.constant4 list the
// slots), so alone the kernel's own slots (ownSlots) are the batch's in
// the same order, from offset 0. The offset is rewritten in the text and
// in the encoding. It reports false, and the kernel is listed alone, where
// a read is not of the one form it knows (an indexed read, a pre-sm_70
// encoding, a field that does not hold the printed offset) or not of one
// of its own slots.
func relocateModuleBank(lines []SASSLine, own []uint64) ([]SASSLine, bool) {
	moved := func(off int) (int, bool) {
		i, ok := slotIndex(own, off)
		if !ok {
			return 0, false
		}
		return 8*i + off - int(own[i]), true
	}
	out := make([]SASSLine, len(lines))
	for i, l := range lines {
		if strings.Contains(l.Text, constBank) {
			return nil, false
		}
		out[i] = l
		off, shift, ok, reads := bankRead(l)
		if !reads {
			continue
		}
		to, mine := moved(off)
		if !ok || !mine || to%(1<<shift) != 0 {
			return nil, false
		}
		m := moduleBankRe.FindStringSubmatchIndex(l.Text)
		printed := "0x" + strconv.FormatInt(int64(to), 16)
		if to == 0 {
			printed = zeroIndex(l)
		}
		l.Text = l.Text[:m[2]] + printed + l.Text[m[3]:]
		l.Encoding = withBankOffset(l.Encoding, to, shift)
		out[i] = l
	}
	return out, true
}

// bankRead reports whether l reads the module bank and, when it does so
// in the one form relocation knows, the offset.
func bankRead(l SASSLine) (off, shift int, known, reads bool) {
	n := strings.Count(l.Text, moduleBank)
	if n == 0 {
		return 0, 0, false, false
	}
	m := moduleBankRe.FindStringSubmatch(l.Text)
	if n != 1 || m == nil {
		return 0, 0, false, true
	}
	off = bankOffset(m[1])
	if off < 0 {
		return 0, 0, false, true
	}
	shift, ok := encodesBankRead(l.Encoding, off)
	return off, shift, ok, true
}

// ownSlots gives each kernel of a batch the slots it reads. Variables
// declared in a kernel are named by ptxas's counter ($__x__15), not by
// the kernel, so a slot's kernel is known from the reads alone: that
// holds only when every slot is read by exactly one kernel. Otherwise (a
// variable whose address no instruction loads, a slot two kernels read)
// ok is false and the batch's kernels that read the bank are listed alone.
func ownSlots(slots []uint64, kernels [][]SASSLine) (own [][]uint64, ok bool) {
	reader := map[uint64]int{}
	own = make([][]uint64, len(kernels))
	for k, lines := range kernels {
		for _, l := range lines {
			off, _, known, reads := bankRead(l)
			if !reads {
				continue
			}
			if !known {
				continue // this kernel is listed alone (relocateModuleBank)
			}
			i, found := slotIndex(slots, off)
			if !found {
				continue
			}
			r, seen := reader[slots[i]]
			if seen && r != k {
				return nil, false
			}
			if !seen {
				reader[slots[i]] = k
				own[k] = append(own[k], slots[i])
			}
		}
	}
	if len(reader) != len(slots) {
		return nil, false
	}
	for k := range own {
		slices.Sort(own[k])
	}
	return own, true
}

// slotIndex returns the index of the 8-byte slot holding bank offset off.
func slotIndex(slots []uint64, off int) (int, bool) {
	for i, slot := range slots {
		if uint64(off) >= slot && uint64(off) < slot+8 {
			return i, true
		}
	}
	return -1, false
}

// moduleSlots reads the offsets of the module bank's slots from a cubin's
// relocations, in offset order.
func moduleSlots(cubin string) ([]uint64, error) {
	f, err := elf.Open(cubin)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// ptxas writes RELA entries (offset, info, addend) for some targets
	// and REL entries (offset, info) for others.
	rel, entry := f.Section(".rela.nv.constant4"), 24
	if rel == nil {
		rel, entry = f.Section(".rel.nv.constant4"), 16
	}
	if rel == nil {
		return nil, nil
	}
	data, err := rel.Data()
	if err != nil {
		return nil, err
	}
	var out []uint64
	for k := 0; k+entry <= len(data); k += entry {
		out = append(out, f.ByteOrder.Uint64(data[k:]))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// zeroIndex is how nvdisasm prints a bank read at offset 0 through an
// index register: LDC's Ra as "RZ", sm_100's LDCU's uniform one as "URZ";
// other instructions (MOV, IMAD) print "0x0".
func zeroIndex(l SASSLine) string {
	op, _, _ := strings.Cut(l.Opcode(), ".")
	switch op {
	case "LDC":
		return "RZ"
	case "LDCU":
		return "URZ"
	}
	return "0x0"
}

// bankOffset reads a printed bank offset; -1 when it is not one.
func bankOffset(s string) int {
	if s == "RZ" || s == "URZ" {
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 32)
	if err != nil || n%4 != 0 || n>>2 > bankOffsetMask {
		return -1
	}
	return int(n)
}

// The offset field counts words (shift 2: LDC, MOV, IMAD...) or, in
// sm_100's LDCU, 64-bit units (shift 3): encodesBankRead finds which holds
// for the printed offset.

// encodesBankRead reports whether a 128-bit encoding's bank operand is
// bank 4 at off, and the shift its offset field is counted with.
func encodesBankRead(encoding string, off int) (shift int, ok bool) {
	words := strings.Fields(encoding)
	if len(words) != 2 {
		return 0, false
	}
	lo, err := strconv.ParseUint(strings.TrimPrefix(words[0], "0x"), 16, 64)
	if err != nil || lo>>bankShift&bankMask != 4 {
		return 0, false
	}
	field := lo >> bankOffsetShift & bankOffsetMask
	for _, shift := range []int{2, 3} {
		if off%(1<<shift) == 0 && field == uint64(off>>shift) {
			return shift, true
		}
	}
	return 0, false
}

func withBankOffset(encoding string, off, shift int) string {
	words := strings.Fields(encoding)
	lo, _ := strconv.ParseUint(strings.TrimPrefix(words[0], "0x"), 16, 64)
	lo = lo&^(bankOffsetMask<<bankOffsetShift) | uint64(off>>shift)<<bankOffsetShift
	words[0] = fmt.Sprintf("0x%016x", lo)
	return strings.Join(words, " ")
}

// verifyRelocation (GPUISA_VERIFY_BANK_RELOCATION=1) lists every relocated
// kernel alone as well and reports each difference on stderr: the check
// that relocation gives what a kernel alone gives, over a whole build.
var verifyRelocation = os.Getenv("GPUISA_VERIFY_BANK_RELOCATION") != ""

func reportRelocation(target string, relocated bool, moved []SASSLine, solo Listing, batched []SASSLine) {
	if !relocated {
		fmt.Fprintf(os.Stderr, "bank relocation %s: not relocated\n", target)
		for _, l := range batched {
			if strings.Contains(l.Text, moduleBank) {
				fmt.Fprintf(os.Stderr, "  %q %s\n", l.Text, l.Encoding)
			}
		}
		return
	}
	same := solo.OK && len(solo.Lines) == len(moved)
	for j := 0; same && j < len(moved); j++ {
		same = moved[j] == solo.Lines[j]
	}
	if same {
		fmt.Fprintf(os.Stderr, "bank relocation %s: same\n", target)
		return
	}
	fmt.Fprintf(os.Stderr, "bank relocation %s: DIFFERS\n", target)
	for j := 0; j < max(len(moved), len(solo.Lines)); j++ {
		var a, b SASSLine
		if j < len(moved) {
			a = moved[j]
		}
		if j < len(solo.Lines) {
			b = solo.Lines[j]
		}
		if a != b {
			fmt.Fprintf(os.Stderr, "  relocated %q %s\n  alone     %q %s\n", a.Text, a.Encoding, b.Text, b.Encoding)
		}
	}
}

// warnedLineRe finds the line a ptxas warning names, in either of its
// spellings ("k.ptx, line 13; warning : ..." and "... 32-bit address on
// line '13' ...").
var warnedLineRe = lazyre.New(`\bline '?(\d+)'?`)

// warnedUnits returns the units of a batch that ptxas warned about, by
// the source lines (Compose's ranges) its warnings name. A warning in a
// batch can be fatal alone — "Program uses 32-bit address ... conflicting
// with .address_size 64" is, for "mov.b32 d, avar" — so such a unit is
// listed alone, as it would be if it were the only one.
func warnedUnits(stderr string, ranges [][2]int) map[int]bool {
	out := map[int]bool{}
	for _, l := range strings.Split(stderr, "\n") {
		if !strings.Contains(l, "warning") {
			continue
		}
		for _, m := range warnedLineRe.FindAllStringSubmatch(l, -1) {
			n, _ := strconv.Atoi(m[1])
			if k, found := slices.BinarySearchFunc(ranges, n, func(r [2]int, n int) int {
				switch {
				case n < r[0]:
					return 1
				case n >= r[1]:
					return -1
				}
				return 0
			}); found {
				out[k] = true
			}
		}
	}
	return out
}
