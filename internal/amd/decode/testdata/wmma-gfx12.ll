; targets: ^gfx120
; A WMMA kernel for RDNA 4 (wave32, f16 inputs in 4-VGPR tuples).
target triple = "amdgcn-amd-amdhsa"
declare <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v8f16(<8 x half>, <8 x half>, <8 x float>)
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @wmma(ptr addrspace(1) %a, ptr addrspace(1) %c) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %pa = getelementptr <8 x half>, ptr addrspace(1) %a, i32 %tid
  %pc = getelementptr <8 x float>, ptr addrspace(1) %c, i32 %tid
  %va = load <8 x half>, ptr addrspace(1) %pa
  %acc = load <8 x float>, ptr addrspace(1) %pc
  %r = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v8f16(<8 x half> %va, <8 x half> %va, <8 x float> %acc)
  store <8 x float> %r, ptr addrspace(1) %pc
  ret void
}
