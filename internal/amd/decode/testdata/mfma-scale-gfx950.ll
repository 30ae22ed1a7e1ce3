; targets: ^gfx950
; CDNA 4 scaled MFMAs: the 4-dword v_mfma_scale_f32_16x16x128_f8f6f4 and
; v_mfma_scale_f32_32x32x64_f8f6f4 (a Load-Scale word pair, then the
; f8f6f4 MFMA's), with FP8, BF8, FP6, BF6 and FP4 operands (cbsz/blgp),
; scales from VGPRs and every scale byte select (op_sel/op_sel_hi).
target triple = "amdgcn-amd-amdhsa"
declare <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32(<8 x i32>, <8 x i32>, <4 x float>, i32, i32, i32, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v6i32.v4i32(<6 x i32>, <4 x i32>, <4 x float>, i32, i32, i32, i32, i32, i32)
declare <16 x float> @llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4.v8i32.v6i32(<8 x i32>, <6 x i32>, <16 x float>, i32, i32, i32, i32, i32, i32)
declare <16 x float> @llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4.v4i32.v4i32(<4 x i32>, <4 x i32>, <16 x float>, i32, i32, i32, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @mfma_scale16(ptr addrspace(1) %p, i32 %sa, i32 %sb) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %qa = getelementptr <8 x i32>, ptr addrspace(1) %p, i32 %tid
  %a = load <8 x i32>, ptr addrspace(1) %qa
  %qb = getelementptr <8 x i32>, ptr addrspace(1) %qa, i32 64
  %b = load <8 x i32>, ptr addrspace(1) %qb
  %qc = getelementptr <4 x float>, ptr addrspace(1) %p, i32 %tid
  %c = load <4 x float>, ptr addrspace(1) %qc
  %qs = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %s = load i32, ptr addrspace(1) %qs
  %r0 = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32(<8 x i32> %a, <8 x i32> %b, <4 x float> %c, i32 0, i32 1, i32 0, i32 %s, i32 3, i32 %sb)
  %r1 = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v8i32.v8i32(<8 x i32> %b, <8 x i32> %a, <4 x float> %r0, i32 1, i32 0, i32 1, i32 %sa, i32 2, i32 %s)
  %a6 = shufflevector <8 x i32> %a, <8 x i32> poison, <6 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5>
  %b4 = shufflevector <8 x i32> %b, <8 x i32> poison, <4 x i32> <i32 4, i32 5, i32 6, i32 7>
  %r2 = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v6i32.v4i32(<6 x i32> %a6, <4 x i32> %b4, <4 x float> %r1, i32 2, i32 4, i32 2, i32 %s, i32 1, i32 %s)
  %r3 = call <4 x float> @llvm.amdgcn.mfma.scale.f32.16x16x128.f8f6f4.v6i32.v4i32(<6 x i32> %a6, <4 x i32> %b4, <4 x float> %r2, i32 3, i32 4, i32 3, i32 %sb, i32 0, i32 %sa)
  store <4 x float> %r3, ptr addrspace(1) %qc
  ret void
}

define amdgpu_kernel void @mfma_scale32(ptr addrspace(1) %p, i32 %sa) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %qa = getelementptr <8 x i32>, ptr addrspace(1) %p, i32 %tid
  %a = load <8 x i32>, ptr addrspace(1) %qa
  %qc = getelementptr <16 x float>, ptr addrspace(1) %p, i32 %tid
  %c = load <16 x float>, ptr addrspace(1) %qc
  %qs = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %s = load i32, ptr addrspace(1) %qs
  %b6 = shufflevector <8 x i32> %a, <8 x i32> poison, <6 x i32> <i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %r0 = call <16 x float> @llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4.v8i32.v6i32(<8 x i32> %a, <6 x i32> %b6, <16 x float> %c, i32 1, i32 3, i32 1, i32 %s, i32 2, i32 %sa)
  %a4 = shufflevector <8 x i32> %a, <8 x i32> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %r1 = call <16 x float> @llvm.amdgcn.mfma.scale.f32.32x32x64.f8f6f4.v4i32.v4i32(<4 x i32> %a4, <4 x i32> %a4, <16 x float> %r0, i32 4, i32 4, i32 0, i32 %sa, i32 3, i32 %s)
  store <16 x float> %r1, ptr addrspace(1) %qc
  ret void
}
