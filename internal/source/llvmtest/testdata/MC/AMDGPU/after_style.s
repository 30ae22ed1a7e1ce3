// Made-up fixture in the layout of LLVM's MC tests: checks follow the line.
// RUN: llvm-mc -triple=amdgcn -mcpu=gfx1100 -show-encoding %s \
// RUN:   | FileCheck --check-prefixes=NEW,W32 %s
// RUN: llvm-mc -triple=amdgcn -mcpu=gfx1150 -show-encoding %s | FileCheck --check-prefixes=NEW,W32 %s
// RUN: not llvm-mc -arch=amdgcn -mcpu gfx900 -mattr=+wavefrontsize64 -show-encoding %s 2>&1 | FileCheck -check-prefix=OLD %s
// RUN: llvm-mc -triple=amdgcn -mcpu=gfx1100 -disassemble -show-encoding %s | FileCheck --check-prefix=DIS %s

v_max_f32 v5, v1, v2
// NEW: v_max_f32_e32 v5, v1, v2   ; encoding: [0x01,0x05,0x0a,0x20]
// OLD: v_max_f32_e32 v5, v1, v2   ; encoding: [0x01,0x05,0x0a,0x16]

v_made_up_b32 v1, v2 ; trailing comment
// NEW: :[[@LINE-1]]:1: error: instruction not supported on this GPU
// OLD-NEXT: v_made_up_b32 v1, v2 ; encoding: [0xaa,0xbb,0xcc,0xdd]
// NEW-NOT: warning

label_1:
.text
symbol = 7
s_nop 0 // comment after
// W32: s_nop 0 ; encoding: [0x00,0x00,0x80,0xbf]
// NOTE: not a prefix, ignored
