; targets: ^gfx1250
; A WMMA kernel for CDNA 5 (gfx1250's 16x16x32 f16 form with its modifier operands).
target triple = "amdgcn-amd-amdhsa"
declare <8 x float> @llvm.amdgcn.wmma.f32.16x16x32.f16.v8f32.v16f16(i1, <16 x half>, i1, <16 x half>, i16, <8 x float>, i1, i1)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @wmma(ptr addrspace(1) %a, ptr addrspace(1) %c) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <16 x half>, ptr addrspace(1) %a, i32 %tid
  %pc = getelementptr <8 x float>, ptr addrspace(1) %c, i32 %tid
  %va = load <16 x half>, ptr addrspace(1) %pa
  %acc = load <8 x float>, ptr addrspace(1) %pc
  %r = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x32.f16.v8f32.v16f16(i1 0, <16 x half> %va, i1 0, <16 x half> %va, i16 0, <8 x float> %acc, i1 0, i1 0)
  store <8 x float> %r, ptr addrspace(1) %pc
  ret void
}
