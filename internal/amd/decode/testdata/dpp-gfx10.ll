; targets: ^gfx1[0-2]
; The RDNA and CDNA 5 DPP forms: DPP8 lane selects and row_share /
; row_xmask controls.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.mov.dpp8.i32(i32, i32)
define amdgpu_kernel void @dpp_gfx10(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a
  %d1 = call i32 @llvm.amdgcn.mov.dpp8.i32(i32 %v, i32 16434824)
  %d2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d1, i32 %d1, i32 339, i32 15, i32 15, i1 false)
  %d3 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d2, i32 %d2, i32 357, i32 15, i32 15, i1 true)
  %f = bitcast i32 %d3 to float
  %g = fadd float %f, 1.0
  %gi = bitcast float %g to i32
  %d4 = call i32 @llvm.amdgcn.mov.dpp8.i32(i32 %gi, i32 1)
  %s = add i32 %d4, %v
  store i32 %s, ptr addrspace(1) %a
  ret void
}
