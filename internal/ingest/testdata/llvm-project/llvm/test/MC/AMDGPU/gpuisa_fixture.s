// A made-up test file in the shape of LLVM's MC tests, for gpuisa's own tests.
// RUN: llvm-mc -triple=amdgcn -mcpu=gfx908 -show-encoding %s | FileCheck --check-prefix=CDNA %s

v_max_f32 v7, v3, v4
// CDNA: v_max_f32_e32 v7, v3, v4 ; encoding: [0x03,0x09,0x0e,0x16]

v_min_f32 v7, v3, v4
// CDNA: v_min_f32_e32 v7, v3, v4 ; encoding: [0x03,0x09,0x0e,0x14]
