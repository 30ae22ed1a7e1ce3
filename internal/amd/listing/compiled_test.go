package listing_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/decode"
	"github.com/gpuisa/gpuisa/internal/amd/decode/decodetest"
	"github.com/gpuisa/gpuisa/internal/amd/encode"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/source/amdgpuusage"
	"github.com/gpuisa/gpuisa/internal/source/llvmdoc"

	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// compiledFamilies are one gfx target per family. Each compiles the
// decoder's kernels (../decode/testdata/*.ll, the capability files for the
// targets their headers allow: dot products, permlanes, MFMA on CDNA 1-4,
// WMMA on RDNA 3-4 and CDNA 5, V_BITOP3 on CDNA 4-5) and the listing's own
// LDS atomics and swizzles with nested loops.
var compiledFamilies = []struct{ arch, mcpu string }{
	{"vega", "gfx900"}, {"vega7", "gfx906"},
	{"cdna1", "gfx908"}, {"cdna2", "gfx90a"}, {"cdna3", "gfx942"}, {"cdna4", "gfx950"},
	{"rdna1", "gfx1010"}, {"rdna2", "gfx1030"}, {"rdna3", "gfx1100"}, {"rdna3.5", "gfx1150"},
	{"rdna4", "gfx1200"}, {"cdna5", "gfx1250"},
}

// kernelFiles are the IR files compiled for mcpu.
func kernelFiles(t *testing.T, mcpu string) []string {
	t.Helper()
	files, err := decodetest.KernelFiles("../decode/testdata", mcpu)
	if err != nil {
		t.Fatal(err)
	}
	return append(files, "testdata/lds.ll")
}

// objdumpInst is one instruction line of llvm-objdump-22 -d.
type objdumpInst struct {
	addr int64
	text string
	ref  string // "<saxpy+0x104>" after a branch
}

var (
	objdumpInstRe = regexp.MustCompile(`^\s+(\S.*?)\s*// ([0-9A-F]+): [0-9A-F ]+?(?: (<\S+>))?$`)
	objdumpSymRe  = regexp.MustCompile(`^([0-9a-f]+) <(\S+)>:$`)
	inlineComment = regexp.MustCompile(`/\*.*?\*/`)
)

func readObjdump(out string) ([]objdumpInst, map[string]int64) {
	var insts []objdumpInst
	syms := map[string]int64{}
	for _, l := range strings.Split(out, "\n") {
		if m := objdumpSymRe.FindStringSubmatch(l); m != nil {
			a, _ := strconv.ParseInt(m[1], 16, 64)
			syms[m[2]] = a
			continue
		}
		if m := objdumpInstRe.FindStringSubmatch(l); m != nil {
			a, _ := strconv.ParseInt(m[2], 16, 64)
			text := strings.Join(strings.Fields(inlineComment.ReplaceAllString(m[1], "")), " ")
			insts = append(insts, objdumpInst{addr: a, text: text, ref: m[3]})
		}
	}
	return insts, syms
}

// difference is a row of testdata/objdump_differences.tsv: where the
// listing may read differently from llvm-objdump, and why.
type difference struct {
	arch    string
	objdump *regexp.Regexp
	gpuisa  *regexp.Regexp
	reason  string
	used    int
}

func loadDifferences(t *testing.T, file string, cols int) []*difference {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*difference
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		c := strings.Split(l, "\t")
		if cols == 3 && len(c) == 3 {
			c = []string{c[0], c[1], c[1], c[2]} // one regexp for both texts
		}
		if len(c) != 4 || c[3] == "" {
			t.Fatalf("%s:%d: want %d tab-separated columns, the last a reason", file, n, cols)
		}
		out = append(out, &difference{arch: c[0], objdump: regexp.MustCompile(c[1]), gpuisa: regexp.MustCompile(c[2]), reason: c[3]})
	}
	return out
}

func explained(ds []*difference, arch, objdump, gpuisa string) *difference {
	for _, d := range ds {
		if (d.arch == "*" || d.arch == arch) && d.objdump.MatchString(objdump) && d.gpuisa.MatchString(gpuisa) {
			d.used++
			return d
		}
	}
	return nil
}

var (
	codecMu sync.Mutex
	codecs  = map[string]listing.Codec{}
)

// modelCodec builds a family's decoder and encoder from the real model.
func modelCodec(t *testing.T, arch string) listing.Codec {
	t.Helper()
	codecMu.Lock()
	defer codecMu.Unlock()
	if c, ok := codecs[arch]; ok {
		return c
	}
	f, err := decodetest.Load(arch)
	if err != nil {
		t.Fatal(err)
	}
	d, err := decode.New(f.Arch, f.Instrs)
	if err != nil {
		t.Fatal(err)
	}
	c := listing.Codec{Dec: d, Enc: encode.FromDecoder(d)}
	codecs[arch] = c
	return c
}

// installedMachines reads the e_flags table from the installed AMDGPUUsage,
// as the build does.
func installedMachines(t *testing.T) codeobj.Machines {
	t.Helper()
	dir := llvmdoc.DocDir()
	if dir == "" {
		t.Skip("llvm-22-doc not installed: the e_flags table comes from its AMDGPUUsage")
	}
	h, err := amdgpuusage.ReadHeader(dir)
	if err != nil {
		t.Skipf("AMDGPUUsage: %v", err)
	}
	return h.CodeObjectMachines(h.File)
}

func compile(t *testing.T, ll, mcpu, dir string) ([]byte, string) {
	t.Helper()
	obj := filepath.Join(dir, strings.TrimSuffix(filepath.Base(ll), ".ll")+"-"+mcpu+".o")
	if out, err := exec.Command("llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu="+mcpu, "-O2", "-filetype=obj", "-o", obj, ll).CombinedOutput(); err != nil {
		t.Fatalf("llc-22 -mcpu=%s %s: %v: %s", mcpu, ll, err, out)
	}
	dump, err := exec.Command("llvm-objdump-22", "-d", obj).Output()
	if err != nil {
		t.Fatalf("llvm-objdump-22: %v", err)
	}
	b, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	return b, string(dump)
}

// flat is one instruction of a listing with runs expanded.
type flat struct {
	addr  int64
	bytes string
	text  string
	e     *listing.Entry
}

func expand(l *listing.Listing) []flat {
	var out []flat
	for si := range l.Sections {
		for i := range l.Sections[si].Entries {
			e := &l.Sections[si].Entries[i]
			for r := 0; r < e.Repeat; r++ {
				out = append(out, flat{addr: e.Addr + int64(r*len(e.Bytes)), bytes: string(e.Bytes), text: e.Text, e: e})
			}
		}
	}
	return out
}

// TestCompiledListings compiles kernels with llc-22 for one target of
// every family, reads each code object without being told its family (the
// target comes from e_flags through LLVM's table), and compares every line
// with llvm-objdump-22 -d: the text, and for branches the destination,
// which must carry a label at the address llvm-objdump's <kernel+0xoff>
// names. Lines that read differently must be explained in
// testdata/objdump_differences.tsv. Then llvm-objdump's own listing is read
// as a pasted listing and must give the same instructions.
func TestCompiledListings(t *testing.T) {
	if _, err := exec.LookPath("llc-22"); err != nil {
		t.Skip("llc-22 not on PATH: install llvm-22 to compile the test kernels")
	}
	if _, err := exec.LookPath("llvm-objdump-22"); err != nil {
		t.Skip("llvm-objdump-22 not on PATH")
	}
	if testenv.FindUpstream() == "" {
		t.Skip("shared/upstream not found (set GPUISA_SOURCES): the real-data tests need the AMD sources")
	}
	machines := installedMachines(t)
	diffs := loadDifferences(t, "testdata/objdump_differences.tsv", 4)
	reencode := loadDifferences(t, "testdata/reencode_differences.tsv", 3)
	dir := t.TempDir()
	var summary []string
	for _, fam := range compiledFamilies {
		t.Run(fam.arch, func(t *testing.T) {
			c := modelCodec(t, fam.arch)
			lines, differ, branches, encoded, notEncoded := 0, 0, 0, 0, 0
			for _, ll := range kernelFiles(t, fam.mcpu) {
				obj, dump := compile(t, ll, fam.mcpu, dir)
				in, err := listing.Parse(obj, machines)
				if err != nil {
					t.Fatal(err)
				}
				if in.Target != fam.mcpu {
					t.Fatalf("%s: target %q from e_flags 0x%x, want %s", ll, in.Target, in.Flags, fam.mcpu)
				}
				if info, ok := isa.LookupArch(in.Target); !ok || info.ID != fam.arch {
					t.Fatalf("%s: %s is not family %s", ll, in.Target, fam.arch)
				}
				l := listing.Build(in, fam.arch, c, listing.Options{Fields: true})
				want, syms := readObjdump(dump)
				got := expand(l)
				if len(got) != len(want) {
					t.Fatalf("%s: %d instructions, llvm-objdump %d", ll, len(got), len(want))
				}
				kds := strings.Count(dump, ">:\n") // symbols in the listing
				if len(in.Units[0].Kernels) == 0 || len(in.Units[0].Kernels) > kds {
					t.Errorf("%s: %d kernels with descriptors", ll, len(in.Units[0].Kernels))
				}
				for _, k := range in.Units[0].Kernels {
					if k.Descriptor == nil || k.Offset != int(syms[k.Name]) {
						t.Errorf("%s: kernel %s: descriptor %v at %d, symbol at %d", ll, k.Name, k.Descriptor != nil, k.Offset, syms[k.Name])
					}
				}
				for i, w := range want {
					g := got[i]
					lines++
					if g.addr != w.addr {
						t.Fatalf("%s: instruction %d at 0x%x, llvm-objdump 0x%x", ll, i, g.addr, w.addr)
					}
					gt := strings.Join(strings.Fields(g.text), " ")
					if g.e.Err() != "" {
						gt = "<invalid: " + g.e.Err() + ">"
					}
					if gt != w.text {
						differ++
						if d := explained(diffs, fam.arch, w.text, gt); d == nil {
							t.Errorf("%s 0x%x: gpuisa %q, llvm-objdump %q (not in testdata/objdump_differences.tsv)", ll, w.addr, gt, w.text)
						}
					}
					if w.ref == "" {
						continue
					}
					branches++
					if g.e.TargetRef() != w.ref {
						t.Errorf("%s 0x%x %s: branch to %s, llvm-objdump %s", ll, w.addr, w.text, g.e.TargetRef(), w.ref)
					}
					dest, ok := refAddr(w.ref, syms)
					if !ok || g.e.Target != dest || g.e.TargetLabel() == "" || !labelAt(l, g.e.TargetLabel(), dest) {
						t.Errorf("%s 0x%x: label %q at 0x%x, llvm-objdump's %s is 0x%x", ll, w.addr, g.e.TargetLabel(), g.e.Target, w.ref, dest)
					}
				}
				// The encoder assembles every instruction back to its bytes
				// (branches and padding aside), MFMA and AGPR moves
				// included.
				for _, g := range got {
					if g.e.Err() != "" || g.e.Target >= 0 || g.e.Padding {
						continue
					}
					encoded++
					b, err := c.Enc.Encode(g.text)
					if err != nil || string(b) != g.bytes {
						notEncoded++
						if d := explained(reencode, fam.arch, g.text, g.text); d == nil {
							t.Errorf("%s: encode %q: % x, %v; llc wrote % x (not in testdata/reencode_differences.tsv)", ll, g.text, b, err, []byte(g.bytes))
						}
					}
				}
				// llvm-objdump's listing pasted back: the same instructions.
				pin, err := listing.Parse([]byte(dump), codeobj.Machines{})
				if err != nil {
					t.Fatal(err)
				}
				if pin.Kind != listing.KindObjdump {
					t.Errorf("pasted listing read as %q", pin.Kind)
				}
				pl := expand(listing.Build(pin, fam.arch, c, listing.Options{Fields: true}))
				if len(pl) != len(got) {
					t.Fatalf("%s pasted: %d instructions, the object %d", ll, len(pl), len(got))
				}
				for i := range pl {
					if pl[i].addr != got[i].addr || pl[i].bytes != got[i].bytes || pl[i].text != got[i].text {
						t.Errorf("%s pasted 0x%x: %q, the object 0x%x %q", ll, pl[i].addr, pl[i].text, got[i].addr, got[i].text)
						break
					}
				}
			}
			summary = append(summary, fmt.Sprintf("%s (%s): %d lines, %d branches, %d read differently, all explained in objdump_differences.tsv; %d of %d re-encode to their bytes",
				fam.arch, fam.mcpu, lines, branches, differ, encoded-notEncoded, encoded))
		})
	}
	for _, s := range summary {
		t.Log(s)
	}
	for _, d := range append(diffs, reencode...) {
		if d.used == 0 && !t.Failed() && len(summary) == len(compiledFamilies) {
			t.Errorf("differences table: no line needs %q / %q (%s): remove it", d.objdump, d.gpuisa, d.reason)
		}
	}
}

// refAddr resolves "<saxpy+0x104>" with the listing's symbols.
func refAddr(ref string, syms map[string]int64) (int64, bool) {
	s := strings.Trim(ref, "<>")
	name, off, _ := strings.Cut(s, "+")
	base, ok := syms[name]
	if !ok {
		return 0, false
	}
	if off == "" {
		return base, true
	}
	v, err := strconv.ParseInt(strings.TrimPrefix(off, "0x"), 16, 64)
	return base + v, err == nil
}

func labelAt(l *listing.Listing, label string, addr int64) bool {
	for _, s := range l.Sections {
		for _, e := range s.Entries {
			for _, lab := range e.Labels() {
				if lab == label {
					return e.Addr == addr
				}
			}
		}
	}
	return false
}
