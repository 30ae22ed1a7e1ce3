// Package codeobj reads AMDGPU code objects: the ELF files llc, clang and
// hipcc produce (relocatable objects and linked .hsaco shared objects), and
// clang offload bundles holding several of them. It gives each object's
// machine (the EF_AMDGPU_MACH field of e_flags, which names the gfx target),
// its code sections, the symbols in them, and every kernel with its kernel
// descriptor (LDS and scratch sizes, register blocks, wave size).
//
// The layouts follow LLVM's AMDGPUUsage document: "ELF Header", "Kernel
// Descriptor" and the compute_pgm_rsrc1 table. Which gfx target a machine
// value means is not written here: the build reads that table from the
// document (package amdgpuusage) and Machines maps it.
package codeobj

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// MaxInput bounds the code objects read (a large HIP bundle is tens of MB).
const MaxInput = 256 << 20

// Object is one AMDGPU code object.
type Object struct {
	// Name is the offload bundle entry id ("hipv4-amdgcn-amd-amdhsa--gfx942")
	// or "" for a plain ELF file.
	Name       string
	Type       string // "relocatable" | "shared object" | "executable"
	Flags      uint32 // e_flags
	ABIVersion uint8  // EI_ABIVERSION: 2 = code object V4, 3 = V5, 4 = V6
	Code       []Section
	Kernels    []Kernel
}

// Mach is the EF_AMDGPU_MACH field of e_flags (bits 7:0).
func (o *Object) Mach() uint32 { return o.Flags & 0xff }

// CodeObjectVersion is the code object version the ABI version byte names
// (AMDGPUUsage "ELF Header": ELFABIVERSION_AMDGPU_HSA_V4 is 2); 0 when unknown.
func (o *Object) CodeObjectVersion() int {
	if o.ABIVersion >= 1 && o.ABIVersion <= 10 {
		return int(o.ABIVersion) + 2
	}
	return 0
}

// Section is an executable section: its bytes, the address they load at,
// and the symbols in it sorted by offset.
type Section struct {
	Name    string
	Addr    uint64
	Data    []byte
	Symbols []Symbol
}

// Symbol is a named offset into a section.
type Symbol struct {
	Name   string
	Offset int
	Size   int
	Func   bool // STT_FUNC (a kernel or a function); else a label
}

// Kernel is a kernel: its entry symbol and its descriptor (the NAME.kd
// object), when the object has one.
type Kernel struct {
	Name       string
	Section    string // the code section holding the entry, "" when not found
	Offset     int    // entry offset into that section, -1 when not found
	Descriptor *Descriptor
	// Counts are the register and stack facts LLVM records as absolute
	// symbols (saxpy.num_vgpr, saxpy.numbered_sgpr, ...): exact numbers
	// where the descriptor has only allocation granules. Nil when absent.
	Counts map[string]int64
}

// Descriptor is the 64-byte kernel descriptor (AMDGPUUsage "Kernel
// Descriptor", code object V3 and later).
type Descriptor struct {
	GroupSegmentFixedSize   uint32 // LDS bytes
	PrivateSegmentFixedSize uint32 // scratch bytes per work-item
	KernargSize             uint32
	EntryOffset             int64 // from the descriptor's address to the entry; 0 in relocatable objects (a relocation)
	PgmRsrc3                uint32
	PgmRsrc1                uint32
	PgmRsrc2                uint32
	Properties              uint16 // kernel code properties, bits 463:448
	KernargPreload          uint16
}

// VGPRBlocks is COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT (bits 5:0).
func (d *Descriptor) VGPRBlocks() int { return int(d.PgmRsrc1 & 0x3f) }

// SGPRBlocks is COMPUTE_PGM_RSRC1.GRANULATED_WAVEFRONT_SGPR_COUNT (bits
// 9:6); GFX10 and later leave it 0.
func (d *Descriptor) SGPRBlocks() int { return int(d.PgmRsrc1 >> 6 & 0xf) }

// Wave32 is ENABLE_WAVEFRONT_SIZE32 (bit 458 of the descriptor, GFX10+).
func (d *Descriptor) Wave32() bool { return d.Properties>>10&1 == 1 }

// DynamicStack is USES_DYNAMIC_STACK (bit 459).
func (d *Descriptor) DynamicStack() bool { return d.Properties>>11&1 == 1 }

// AccumOffset is COMPUTE_PGM_RSRC3.ACCUM_OFFSET (GFX90A, GFX942, GFX950):
// the first AGPR of the unified register file, in VGPRs ((value+1)*4).
func (d *Descriptor) AccumOffset() int { return (int(d.PgmRsrc3&0x3f) + 1) * 4 }

// VGPRGranule is the allocation granule of GRANULATED_WORKITEM_VGPR_COUNT
// for a gfx target (AMDGPUUsage, compute_pgm_rsrc1 table): the family's
// (isa.ArchInfo.VGPRGranule) for a target of the family table; else, as
// the table has it for GFX6-GFX9 and GFX10-GFX12, 4, or on GFX10 and later
// 4 or 8 for wave64 or wave32.
func VGPRGranule(target string, wave32 bool) int {
	if id, ok := isa.ArchForTarget(target); ok {
		info := isa.MustArch(id)
		if wave32 {
			return info.VGPRGranuleWave32
		}
		return info.VGPRGranule
	}
	if major, ok := isa.GFXMajor(target); ok && major >= 10 && wave32 {
		return 8
	}
	return 4
}

// bundleMagic starts a clang offload bundle (uncompressed).
const bundleMagic = "__CLANG_OFFLOAD_BUNDLE__"

// IsCodeObject says whether b looks like something Read takes.
func IsCodeObject(b []byte) bool {
	return bytes.HasPrefix(b, []byte(elf.ELFMAG)) || bytes.HasPrefix(b, []byte(bundleMagic)) || bytes.HasPrefix(b, []byte("CCOB"))
}

// ErrNotAMDGPU is returned for an ELF file of another machine.
var ErrNotAMDGPU = errors.New("not an AMDGPU code object")

// Read reads a code object, or every AMDGPU code object of an offload
// bundle (host entries are skipped).
func Read(b []byte) ([]*Object, error) {
	if len(b) > MaxInput {
		return nil, fmt.Errorf("code object larger than %d MB", MaxInput>>20)
	}
	switch {
	case bytes.HasPrefix(b, []byte("CCOB")):
		return nil, fmt.Errorf("compressed offload bundle: unbundle it first (clang-offload-bundler --unbundle, or --offload-compress off)")
	case bytes.HasPrefix(b, []byte(bundleMagic)):
		return readBundle(b)
	}
	o, err := readELF(b)
	if err != nil {
		return nil, err
	}
	return []*Object{o}, nil
}

// readBundle splits an offload bundle: magic, entry count, then per entry
// offset, size, id length and id (all 64-bit little endian).
func readBundle(b []byte) ([]*Object, error) {
	r := b[len(bundleMagic):]
	u64 := func() (uint64, bool) {
		if len(r) < 8 {
			return 0, false
		}
		v := binary.LittleEndian.Uint64(r)
		r = r[8:]
		return v, true
	}
	n, ok := u64()
	if !ok || n > 4096 {
		return nil, fmt.Errorf("offload bundle: bad entry count")
	}
	var out []*Object
	for i := uint64(0); i < n; i++ {
		off, ok1 := u64()
		size, ok2 := u64()
		idLen, ok3 := u64()
		if !ok1 || !ok2 || !ok3 || idLen > uint64(len(r)) {
			return nil, fmt.Errorf("offload bundle: entry %d truncated", i)
		}
		id := string(r[:idLen])
		r = r[idLen:]
		if off > uint64(len(b)) || size > uint64(len(b))-off {
			return nil, fmt.Errorf("offload bundle: entry %s outside the file", id)
		}
		if !strings.Contains(id, "amdgcn") || size == 0 {
			continue // the host entry
		}
		o, err := readELF(b[off : off+size])
		if err != nil {
			return nil, fmt.Errorf("offload bundle entry %s: %w", id, err)
		}
		o.Name = id
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("offload bundle has no AMDGPU code object")
	}
	return out, nil
}

func readELF(b []byte) (o *Object, err error) {
	// debug/elf trusts section headers; a damaged file must not panic.
	defer func() {
		if r := recover(); r != nil {
			o, err = nil, fmt.Errorf("malformed ELF file: %v", r)
		}
	}()
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not an ELF code object: %w", err)
	}
	defer f.Close()
	if f.Machine != elf.EM_AMDGPU {
		return nil, fmt.Errorf("%w: ELF machine is %v", ErrNotAMDGPU, f.Machine)
	}
	o = &Object{ABIVersion: f.ABIVersion}
	if len(b) >= 52 {
		// e_flags: offset 48 in ELF64 headers, 36 in ELF32.
		off := 48
		if f.Class == elf.ELFCLASS32 {
			off = 36
		}
		o.Flags = f.ByteOrder.Uint32(b[off:])
	}
	switch f.Type {
	case elf.ET_REL:
		o.Type = "relocatable"
	case elf.ET_DYN:
		o.Type = "shared object"
	case elf.ET_EXEC:
		o.Type = "executable"
	default:
		o.Type = f.Type.String()
	}
	codeIdx := map[int]int{} // section index -> index into o.Code
	for i, s := range f.Sections {
		if s.Type != elf.SHT_PROGBITS || s.Flags&elf.SHF_EXECINSTR == 0 || s.Size == 0 {
			continue
		}
		if s.Size > uint64(len(b)) {
			return nil, fmt.Errorf("section %s is larger than the file", s.Name)
		}
		data, err := s.Data()
		if err != nil {
			return nil, fmt.Errorf("section %s: %w", s.Name, err)
		}
		codeIdx[i] = len(o.Code)
		o.Code = append(o.Code, Section{Name: s.Name, Addr: s.Addr, Data: data})
	}
	if len(o.Code) == 0 {
		return nil, fmt.Errorf("code object has no code section (.text)")
	}
	syms, _ := f.Symbols()
	if dyn, _ := f.DynamicSymbols(); len(syms) == 0 {
		syms = dyn
	}
	type kdRef struct {
		sec  *elf.Section
		addr uint64
	}
	kds := map[string]kdRef{}
	counts := map[string]map[string]int64{}
	for _, s := range syms {
		if s.Name == "" {
			continue
		}
		typ := elf.ST_TYPE(s.Info)
		if s.Section == elf.SHN_ABS {
			// saxpy.num_vgpr = 9: LLVM's resource symbols.
			if k, fact, ok := strings.Cut(s.Name, "."); ok && k != "" && resourceSymbol[fact] {
				if counts[k] == nil {
					counts[k] = map[string]int64{}
				}
				counts[k][fact] = int64(s.Value)
			}
			continue
		}
		if int(s.Section) >= len(f.Sections) || s.Section == elf.SHN_UNDEF {
			continue
		}
		if typ == elf.STT_OBJECT && strings.HasSuffix(s.Name, ".kd") && s.Size == 64 {
			kds[strings.TrimSuffix(s.Name, ".kd")] = kdRef{f.Sections[s.Section], s.Value}
			continue
		}
		ci, ok := codeIdx[int(s.Section)]
		if !ok || (typ != elf.STT_FUNC && typ != elf.STT_NOTYPE) {
			continue
		}
		sec := &o.Code[ci]
		if s.Value < sec.Addr || s.Value-sec.Addr >= uint64(len(sec.Data)) {
			continue
		}
		if typ == elf.STT_NOTYPE && strings.HasPrefix(s.Name, "$") {
			continue // mapping symbols
		}
		sec.Symbols = append(sec.Symbols, Symbol{Name: s.Name, Offset: int(s.Value - sec.Addr), Size: int(min(s.Size, 1<<31)), Func: typ == elf.STT_FUNC})
	}
	for i := range o.Code {
		ss := o.Code[i].Symbols
		sort.SliceStable(ss, func(a, b int) bool {
			if ss[a].Offset != ss[b].Offset {
				return ss[a].Offset < ss[b].Offset
			}
			return ss[a].Func && !ss[b].Func
		})
	}
	names := slices.Sorted(maps.Keys(kds))
	for _, name := range names {
		ref := kds[name]
		k := Kernel{Name: name, Offset: -1, Counts: counts[name]}
		if d, err := readDescriptor(ref.sec, ref.addr); err == nil {
			k.Descriptor = d
		}
		// The entry: the function symbol of the same name, else the
		// descriptor's byte offset (linked objects).
		for _, sec := range o.Code {
			for _, s := range sec.Symbols {
				if s.Name == name && s.Func {
					k.Section, k.Offset = sec.Name, s.Offset
				}
			}
		}
		if k.Offset < 0 && k.Descriptor != nil && k.Descriptor.EntryOffset != 0 {
			entry := ref.addr + uint64(k.Descriptor.EntryOffset)
			for _, sec := range o.Code {
				if entry >= sec.Addr && entry-sec.Addr < uint64(len(sec.Data)) {
					k.Section, k.Offset = sec.Name, int(entry-sec.Addr)
				}
			}
		}
		o.Kernels = append(o.Kernels, k)
	}
	sort.SliceStable(o.Kernels, func(i, j int) bool {
		a, b := o.Kernels[i], o.Kernels[j]
		if a.Section != b.Section {
			return a.Section < b.Section
		}
		return a.Offset < b.Offset
	})
	return o, nil
}

// resourceSymbol are the absolute symbols LLVM 19+ writes per function.
var resourceSymbol = map[string]bool{"num_vgpr": true, "num_agpr": true, "numbered_sgpr": true, "private_seg_size": true,
	"uses_vcc": true, "uses_flat_scratch": true, "has_dyn_sized_stack": true, "has_recursion": true, "has_indirect_call": true}

func readDescriptor(sec *elf.Section, addr uint64) (*Descriptor, error) {
	if sec.Type == elf.SHT_NOBITS || addr < sec.Addr || addr-sec.Addr+64 > sec.Size {
		return nil, fmt.Errorf("descriptor outside its section")
	}
	var b [64]byte
	if _, err := sec.ReadAt(b[:], int64(addr-sec.Addr)); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	return &Descriptor{
		GroupSegmentFixedSize:   le.Uint32(b[0:]),
		PrivateSegmentFixedSize: le.Uint32(b[4:]),
		KernargSize:             le.Uint32(b[8:]),
		EntryOffset:             int64(le.Uint64(b[16:])),
		PgmRsrc3:                le.Uint32(b[44:]),
		PgmRsrc1:                le.Uint32(b[48:]),
		PgmRsrc2:                le.Uint32(b[52:]),
		Properties:              le.Uint16(b[56:]),
		KernargPreload:          le.Uint16(b[58:]),
	}, nil
}
