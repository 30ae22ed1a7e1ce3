package llvmtest

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadDirFixtures(t *testing.T) {
	ex, err := ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	byAsm := map[string]Example{}
	for _, e := range ex {
		byAsm[e.Asm] = e
	}
	if len(ex) != 5 {
		t.Fatalf("got %d examples, want 5: %+v", len(ex), ex)
	}

	max := byAsm["v_max_f32 v5, v1, v2"]
	if filepath.Base(max.File) != "after_style.s" || max.Line != 8 {
		t.Errorf("v_max_f32 at %s:%d, want after_style.s:8", max.File, max.Line)
	}
	enc := max.Encodings()
	if !bytes.Equal(enc["NEW"], []byte{0x01, 0x05, 0x0a, 0x20}) || !bytes.Equal(enc["OLD"], []byte{0x01, 0x05, 0x0a, 0x16}) {
		t.Errorf("encodings %v", enc)
	}
	if got := max.Checks[0].Printed; got != "v_max_f32_e32 v5, v1, v2" {
		t.Errorf("printed %q", got)
	}
	wantCPUs := map[string][]string{"NEW": {"gfx1100", "gfx1150"}, "W32": {"gfx1100", "gfx1150"}, "OLD": {"gfx900"}}
	if !reflect.DeepEqual(max.MCPUs, wantCPUs) {
		t.Errorf("MCPUs %v, want %v", max.MCPUs, wantCPUs)
	}
	te := max.TargetEncodings()
	if !bytes.Equal(te["gfx1150"], []byte{0x01, 0x05, 0x0a, 0x20}) || !bytes.Equal(te["gfx900"], []byte{0x01, 0x05, 0x0a, 0x16}) {
		t.Errorf("target encodings %v", te)
	}

	bad := byAsm["v_made_up_b32 v1, v2"]
	var errMsg string
	var oldEnc []byte
	for _, c := range bad.Checks {
		if c.Prefix == "NEW" {
			errMsg = c.Error
		}
		if c.Prefix == "OLD" {
			oldEnc = c.Encoding
		}
	}
	if errMsg != "instruction not supported on this GPU" {
		t.Errorf("error %q", errMsg)
	}
	if !bytes.Equal(oldEnc, []byte{0xaa, 0xbb, 0xcc, 0xdd}) {
		t.Errorf("NEXT check not attached: %+v", bad.Checks)
	}
	if len(bad.Checks) != 2 {
		t.Errorf("NOT check should be dropped: %+v", bad.Checks)
	}

	nop := byAsm["s_nop 0"]
	if len(nop.Checks) != 1 || nop.Checks[0].Prefix != "W32" {
		t.Errorf("s_nop checks %+v", nop.Checks)
	}

	// Checks above their line, and an explicit [[@LINE+2]].
	end := byAsm["s_endpgm"]
	if len(end.Checks) != 1 || end.Checks[0].Line != 4 {
		t.Errorf("s_endpgm checks %+v", end.Checks)
	}
	inv := byAsm["v_invented_f32 v0, v1"]
	if len(inv.Checks) != 2 {
		t.Fatalf("v_invented checks %+v", inv.Checks)
	}
	if inv.MCPUs["CHECK"][0] != "gfx908" || inv.MCPUs["ERR"][0] != "gfx906" {
		t.Errorf("MCPUs %v", inv.MCPUs)
	}

	var runs []Run
	runs = max.Runs
	if len(runs) != 4 || runs[0].Line != 2 || runs[2].Mattr != "+wavefrontsize64" || !runs[3].Disassemble {
		t.Errorf("runs %+v", runs)
	}
}

func TestParseRun(t *testing.T) {
	for _, tc := range []struct {
		line string
		want Run
		ok   bool
	}{
		{"llvm-mc -triple=amdgcn -mcpu=gfx1200 -show-encoding %s | FileCheck --check-prefix=GFX12 %s",
			Run{MCPU: "gfx1200", Prefixes: []string{"GFX12"}}, true},
		{"not llvm-mc -arch=amdgcn -mcpu=tonga %s 2>&1 | FileCheck --check-prefixes=A,B --implicit-check-not=error: %s",
			Run{MCPU: "tonga", Prefixes: []string{"A", "B"}}, true},
		{"llvm-mc -triple=amdgcn %s | FileCheck %s", Run{Prefixes: []string{"CHECK"}}, true},
		{"%clang -c %s -o %t", Run{}, false},
	} {
		got, ok := parseRun(tc.line, 0)
		if ok != tc.ok || (ok && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("parseRun(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

func TestParseLongLine(t *testing.T) {
	in := "// RUN: llvm-mc -mcpu=gfx900 %s | FileCheck %s\n" + strings.Repeat("x", maxLine+10) + "\n"
	if _, err := Parse(strings.NewReader(in), "long.s"); err == nil || !strings.Contains(err.Error(), "long.s:2") {
		t.Errorf("want error naming long.s:2, got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("// RUN: llvm-mc -mcpu=gfx900 %s | FileCheck %s\nv_nop\n// CHECK: v_nop ; encoding: [0x00,0x00,0x00,0x7e]\n")
	f.Add("// RUN: llvm-mc -mcpu gfx1100 \\\n// RUN: | FileCheck -check-prefix X %s\n// X: [[@LINE+1]]:1: error: e\ns_nop 0\n")
	f.Add("// X: [[@LINE-99]]\n// X: encoding: [0xzz]\n;\n")
	f.Fuzz(func(t *testing.T, s string) {
		ex, err := Parse(strings.NewReader(s), "fuzz.s")
		if err != nil {
			return
		}
		for _, e := range ex {
			if e.Asm == "" || e.Line <= 0 {
				t.Fatalf("bad example %+v", e)
			}
			_ = e.TargetEncodings()
		}
	})
}
