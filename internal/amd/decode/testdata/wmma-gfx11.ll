; targets: ^gfx11
; A WMMA kernel for RDNA 3 and 3.5 (wave32, f16 inputs in 8-VGPR tuples).
target triple = "amdgcn-amd-amdhsa"
declare <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16(<16 x half>, <16 x half>, <8 x float>)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @wmma(ptr addrspace(1) %a, ptr addrspace(1) %c) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <16 x half>, ptr addrspace(1) %a, i32 %tid
  %pc = getelementptr <8 x float>, ptr addrspace(1) %c, i32 %tid
  %va = load <16 x half>, ptr addrspace(1) %pa
  %acc = load <8 x float>, ptr addrspace(1) %pc
  %r = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16(<16 x half> %va, <16 x half> %va, <8 x float> %acc)
  store <8 x float> %r, ptr addrspace(1) %pc
  ret void
}
