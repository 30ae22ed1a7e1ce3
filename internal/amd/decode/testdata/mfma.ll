; targets: ^gfx(908|90a|94|95)
; An MFMA kernel for CDNA 1-4: a loop of 32x32x8 f16 MFMAs (accumulators in AGPRs on CDNA 1,
; VGPRs from CDNA 2 on), then a 16x16x16 one.
target triple = "amdgcn-amd-amdhsa"
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half>, <4 x half>, <16 x float>, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half>, <4 x half>, <4 x float>, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @mfma(ptr addrspace(1) %a, ptr addrspace(1) %b, ptr addrspace(1) %c, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <4 x half>, ptr addrspace(1) %a, i32 %tid
  %pb = getelementptr <4 x half>, ptr addrspace(1) %b, i32 %tid
  %pc = getelementptr <16 x float>, ptr addrspace(1) %c, i32 %tid
  %acc0 = load <16 x float>, ptr addrspace(1) %pc
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi <16 x float> [ %acc0, %entry ], [ %acc.next, %loop ]
  %off = mul i32 %i, 64
  %qa = getelementptr <4 x half>, ptr addrspace(1) %pa, i32 %off
  %qb = getelementptr <4 x half>, ptr addrspace(1) %pb, i32 %off
  %va = load <4 x half>, ptr addrspace(1) %qa
  %vb = load <4 x half>, ptr addrspace(1) %qb
  %acc.next = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> %va, <4 x half> %vb, <16 x float> %acc, i32 0, i32 0, i32 0)
  %i.next = add i32 %i, 1
  %c1 = icmp ult i32 %i.next, %n
  br i1 %c1, label %loop, label %exit
exit:
  %small = shufflevector <16 x float> %acc.next, <16 x float> poison, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %va2 = load <4 x half>, ptr addrspace(1) %pa
  %r = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x16f16(<4 x half> %va2, <4 x half> %va2, <4 x float> %small, i32 0, i32 0, i32 0)
  store <16 x float> %acc.next, ptr addrspace(1) %pc
  %pc2 = getelementptr <4 x float>, ptr addrspace(1) %c, i32 %n
  store <4 x float> %r, ptr addrspace(1) %pc2
  ret void
}
