; targets: ^gfx1250
; Scaled WMMA kernels for CDNA 5 (gfx1250): block-32 and block-16 scales from VGPRs and SGPRs,
; every matrix and scale format, scale rows, reuse hints and the C modifiers, so the listing
; holds the 4-dword v_wmma_scale*/v_wmma_scale16* pairs with each of their modifiers.
target triple = "amdgcn-amd-amdhsa"
declare <8 x float> @llvm.amdgcn.wmma.scale.f32.16x16x128.f8f6f4.v8f32.v16i32.v16i32(i32, <16 x i32>, i32, <16 x i32>, i16, <8 x float>, i32, i32, i32, i32, i32, i32, i1, i1)
declare <8 x float> @llvm.amdgcn.wmma.scale.f32.16x16x128.f8f6f4.v8f32.v8i32.v12i32(i32, <8 x i32>, i32, <12 x i32>, i16, <8 x float>, i32, i32, i32, i32, i32, i32, i1, i1)
declare <8 x float> @llvm.amdgcn.wmma.scale16.f32.16x16x128.f8f6f4.v8f32.v16i32.v16i32(i32, <16 x i32>, i32, <16 x i32>, i16, <8 x float>, i32, i32, i64, i32, i32, i64, i1, i1)
declare <16 x float> @llvm.amdgcn.wmma.scale.f32.32x16x128.f4.v16f32.v16i32.v8i32(<16 x i32>, <8 x i32>, i16, <16 x float>, i32, i32, i32, i32, i32, i32, i1, i1)
declare <16 x float> @llvm.amdgcn.wmma.scale16.f32.32x16x128.f4.v16f32.v16i32.v8i32(<16 x i32>, <8 x i32>, i16, <16 x float>, i32, i32, i64, i32, i32, i64, i1, i1)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @wmma_scale(ptr addrspace(1) %a, ptr addrspace(1) %s, ptr addrspace(1) %c, i32 %sa, i32 %sb) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <16 x i32>, ptr addrspace(1) %a, i32 %tid
  %ps = getelementptr <2 x i32>, ptr addrspace(1) %s, i32 %tid
  %pc = getelementptr <8 x float>, ptr addrspace(1) %c, i32 %tid
  %va = load <16 x i32>, ptr addrspace(1) %pa
  %vs = load <2 x i32>, ptr addrspace(1) %ps
  %s0 = extractelement <2 x i32> %vs, i32 0
  %s1 = extractelement <2 x i32> %vs, i32 1
  %acc = load <8 x float>, ptr addrspace(1) %pc
  %r0 = call <8 x float> @llvm.amdgcn.wmma.scale.f32.16x16x128.f8f6f4.v8f32.v16i32.v16i32(i32 0, <16 x i32> %va, i32 1, <16 x i32> %va, i16 0, <8 x float> %acc, i32 0, i32 0, i32 %s0, i32 0, i32 0, i32 %s1, i1 false, i1 false)
  %r1 = call <8 x float> @llvm.amdgcn.wmma.scale.f32.16x16x128.f8f6f4.v8f32.v16i32.v16i32(i32 1, <16 x i32> %va, i32 0, <16 x i32> %va, i16 1, <8 x float> %r0, i32 1, i32 1, i32 %s0, i32 1, i32 2, i32 %s1, i1 true, i1 false)
  %r2 = call <8 x float> @llvm.amdgcn.wmma.scale.f32.16x16x128.f8f6f4.v8f32.v16i32.v16i32(i32 1, <16 x i32> %va, i32 0, <16 x i32> %va, i16 2, <8 x float> %r1, i32 0, i32 2, i32 %sa, i32 0, i32 1, i32 %sb, i1 false, i1 true)
  %a8 = shufflevector <16 x i32> %va, <16 x i32> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %b12 = shufflevector <16 x i32> %va, <16 x i32> poison, <12 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11>
  %r3 = call <8 x float> @llvm.amdgcn.wmma.scale.f32.16x16x128.f8f6f4.v8f32.v8i32.v12i32(i32 4, <8 x i32> %a8, i32 3, <12 x i32> %b12, i16 0, <8 x float> %r2, i32 1, i32 0, i32 %s1, i32 0, i32 2, i32 %s0, i1 false, i1 false)
  store <8 x float> %r3, ptr addrspace(1) %pc
  ret void
}

define amdgpu_kernel void @wmma_scale16(ptr addrspace(1) %a, ptr addrspace(1) %s, ptr addrspace(1) %c, i64 %sa) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <16 x i32>, ptr addrspace(1) %a, i32 %tid
  %ps = getelementptr <2 x i64>, ptr addrspace(1) %s, i32 %tid
  %pc = getelementptr <8 x float>, ptr addrspace(1) %c, i32 %tid
  %va = load <16 x i32>, ptr addrspace(1) %pa
  %vs = load <2 x i64>, ptr addrspace(1) %ps
  %s0 = extractelement <2 x i64> %vs, i32 0
  %s1 = extractelement <2 x i64> %vs, i32 1
  %acc = load <8 x float>, ptr addrspace(1) %pc
  %r0 = call <8 x float> @llvm.amdgcn.wmma.scale16.f32.16x16x128.f8f6f4.v8f32.v16i32.v16i32(i32 0, <16 x i32> %va, i32 0, <16 x i32> %va, i16 0, <8 x float> %acc, i32 0, i32 0, i64 %s0, i32 0, i32 0, i64 %s1, i1 false, i1 false)
  %r1 = call <8 x float> @llvm.amdgcn.wmma.scale16.f32.16x16x128.f8f6f4.v8f32.v16i32.v16i32(i32 1, <16 x i32> %va, i32 1, <16 x i32> %va, i16 3, <8 x float> %r0, i32 1, i32 2, i64 %sa, i32 1, i32 1, i64 %s1, i1 true, i1 true)
  store <8 x float> %r1, ptr addrspace(1) %pc
  ret void
}

define amdgpu_kernel void @wmma_scale_f4(ptr addrspace(1) %a, ptr addrspace(1) %s, ptr addrspace(1) %c) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <16 x i32>, ptr addrspace(1) %a, i32 %tid
  %ps = getelementptr <2 x i64>, ptr addrspace(1) %s, i32 %tid
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %tid
  %va = load <16 x i32>, ptr addrspace(1) %pa
  %vb = shufflevector <16 x i32> %va, <16 x i32> poison, <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
  %vs = load <2 x i64>, ptr addrspace(1) %ps
  %s0 = extractelement <2 x i64> %vs, i32 0
  %s1 = extractelement <2 x i64> %vs, i32 1
  %t0 = trunc i64 %s0 to i32
  %t1 = trunc i64 %s1 to i32
  %acc = load <16 x float>, ptr addrspace(1) %pc
  %r0 = call <16 x float> @llvm.amdgcn.wmma.scale.f32.32x16x128.f4.v16f32.v16i32.v8i32(<16 x i32> %va, <8 x i32> %vb, i16 0, <16 x float> %acc, i32 1, i32 1, i32 %t0, i32 0, i32 2, i32 %t1, i1 false, i1 true)
  %r1 = call <16 x float> @llvm.amdgcn.wmma.scale16.f32.32x16x128.f4.v16f32.v16i32.v8i32(<16 x i32> %va, <8 x i32> %vb, i16 1, <16 x float> %r0, i32 0, i32 2, i64 %s0, i32 1, i32 0, i64 %s1, i1 true, i1 false)
  store <16 x float> %r1, ptr addrspace(1) %pc
  ret void
}
