// RUN: llvm-mc -triple=amdgcn -mcpu=gfx908 -show-encoding < %s | FileCheck %s
// RUN: not llvm-mc -triple=amdgcn -mcpu=gfx906 %s 2>&1 | FileCheck -check-prefix=ERR %s

// CHECK: s_endpgm ; encoding: [0x00,0x00,0x81,0xbf]
s_endpgm

// ERR: [[@LINE+2]]:1: error: instruction not supported on this GPU
// CHECK: v_invented_f32 v0, v1 ; encoding: [0x11,0x22,0x33,0x44]
v_invented_f32 v0, v1
