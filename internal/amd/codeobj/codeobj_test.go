package codeobj

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// compiled compiles a small kernel with llc-22, or skips.
func compiled(t testing.TB, mcpu string) []byte {
	if _, err := exec.LookPath("llc-22"); err != nil {
		t.Skip("llc-22 not on PATH: install llvm-22")
	}
	dir := t.TempDir()
	ll := filepath.Join(dir, "k.ll")
	src := `target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [64 x i32] undef, align 4
define amdgpu_kernel void @first(ptr addrspace(1) %p) {
  %v = load i32, ptr addrspace(1) %p
  %q = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %v
  store i32 %v, ptr addrspace(3) %q
  ret void
}
define amdgpu_kernel void @second(ptr addrspace(1) %p) {
  store i32 7, ptr addrspace(1) %p
  ret void
}
`
	if err := os.WriteFile(ll, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "k.o")
	if out, err := exec.Command("llc-22", "-mtriple=amdgcn-amd-amdhsa", "-mcpu="+mcpu, "-filetype=obj", "-o", obj, ll).CombinedOutput(); err != nil {
		t.Fatalf("llc-22: %v %s", err, out)
	}
	b, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadCompiled(t *testing.T) {
	for _, c := range []struct {
		mcpu   string
		mach   uint32
		wave32 bool
	}{{"gfx942", 0x4c, false}, {"gfx1100", 0x41, true}} {
		b := compiled(t, c.mcpu)
		objs, err := Read(b)
		if err != nil {
			t.Fatal(err)
		}
		o := objs[0]
		if o.Mach() != c.mach || o.Type != "relocatable" || o.CodeObjectVersion() < 4 {
			t.Errorf("%s: mach 0x%x type %s v%d", c.mcpu, o.Mach(), o.Type, o.CodeObjectVersion())
		}
		if len(o.Code) != 1 || o.Code[0].Name != ".text" || len(o.Code[0].Symbols) != 2 {
			t.Fatalf("%s: code %+v", c.mcpu, o.Code)
		}
		if len(o.Kernels) != 2 || o.Kernels[0].Name != "first" || o.Kernels[1].Name != "second" {
			t.Fatalf("%s: kernels %+v", c.mcpu, o.Kernels)
		}
		k := o.Kernels[0]
		if k.Descriptor == nil || k.Descriptor.GroupSegmentFixedSize != 256 || k.Offset != 0 || k.Descriptor.Wave32() != c.wave32 {
			t.Errorf("%s: first %+v %+v", c.mcpu, k, k.Descriptor)
		}
		if o.Kernels[1].Offset <= 0 || o.Kernels[1].Descriptor.GroupSegmentFixedSize != 0 {
			t.Errorf("%s: second %+v", c.mcpu, o.Kernels[1])
		}
		if _, ok := k.Counts["num_vgpr"]; !ok {
			t.Errorf("%s: no resource symbols: %v", c.mcpu, k.Counts)
		}
		// The same object in an offload bundle, after a host entry.
		objs, err = Read(bundle(b))
		if err != nil || len(objs) != 1 || objs[0].Name != "hipv4-amdgcn-amd-amdhsa--"+c.mcpu || len(objs[0].Kernels) != 2 {
			t.Errorf("%s bundle: %v %+v", c.mcpu, err, objs)
		}
	}
	m := NewMachines(map[uint32]string{0x4c: "gfx942"}, []FlagRow{{"EF_AMDGPU_FEATURE_XNACK_V4", 0x300}, {"EF_AMDGPU_FEATURE_XNACK_ON_V4", 0x300},
		{"EF_AMDGPU_FEATURE_XNACK_OFF_V4", 0x200}, {"EF_AMDGPU_FEATURE_SRAMECC_V4", 0xc00}, {"EF_AMDGPU_FEATURE_SRAMECC_ON_V4", 0xc00}}, "fixture")
	o := &Object{Flags: 0xe4c, ABIVersion: 2}
	if p, id, err := m.Target(o); err != nil || p != "gfx942" || id != "gfx942:sramecc+:xnack-" {
		t.Errorf("target %q %q %v", p, id, err)
	}
	if _, _, err := m.Target(&Object{Flags: 0x99}); err == nil {
		t.Error("unknown machine accepted")
	}
}

// bundle wraps an object in a clang offload bundle with an empty host entry.
func bundle(obj []byte) []byte {
	ids := []string{"host-x86_64-unknown-linux-gnu-", "hipv4-amdgcn-amd-amdhsa--gfx" + mcpuOf(obj)}
	var head bytes.Buffer
	head.WriteString(bundleMagic)
	binary.Write(&head, binary.LittleEndian, uint64(len(ids)))
	size := head.Len()
	for _, id := range ids {
		size += 24 + len(id)
	}
	var hdr bytes.Buffer
	hdr.Write(head.Bytes())
	for i, id := range ids {
		off, n := uint64(size), uint64(0)
		if i == 1 {
			n = uint64(len(obj))
		}
		binary.Write(&hdr, binary.LittleEndian, off)
		binary.Write(&hdr, binary.LittleEndian, n)
		binary.Write(&hdr, binary.LittleEndian, uint64(len(id)))
		hdr.WriteString(id)
	}
	return append(hdr.Bytes(), obj...)
}

func mcpuOf(obj []byte) string {
	if o, err := readELF(obj); err == nil && o.Mach() == 0x41 {
		return "1100"
	}
	return "942"
}

func TestReadRejects(t *testing.T) {
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not elf":   []byte("hello"),
		"truncated": []byte("\x7fELF\x02\x01\x01\x40"),
		"bundle":    []byte(bundleMagic + "\xff\xff\xff\xff\xff\xff\xff\xff"),
		"ccob":      []byte("CCOB\x01\x00"),
	} {
		if _, err := Read(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("\x7fELF\x02\x01\x01\x40\x04"))
	f.Add([]byte(bundleMagic + "\x01\x00\x00\x00\x00\x00\x00\x00"))
	if _, err := exec.LookPath("llc-22"); err == nil {
		b := compiled(f, "gfx942")
		f.Add(b)
		f.Add(bundle(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		objs, err := Read(b)
		if err == nil && len(objs) == 0 {
			t.Error("no error and no object")
		}
	})
}
