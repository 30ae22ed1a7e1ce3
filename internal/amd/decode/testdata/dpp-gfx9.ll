; targets: ^gfx9
; The GCN 5 / CDNA DPP controls RDNA dropped: wavefront shifts and rotates
; and row broadcasts.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
define amdgpu_kernel void @dpp_gfx9(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a
  %d1 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 304, i32 15, i32 15, i1 false)
  %d2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d1, i32 %d1, i32 308, i32 15, i32 15, i1 true)
  %d3 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d2, i32 %d2, i32 312, i32 15, i32 15, i1 false)
  %d4 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d3, i32 %d3, i32 316, i32 15, i32 15, i1 false)
  %d5 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d4, i32 %d4, i32 322, i32 10, i32 15, i1 false)
  %d6 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d5, i32 %d5, i32 323, i32 12, i32 15, i1 false)
  %s = add i32 %d6, %v
  store i32 %s, ptr addrspace(1) %a
  ret void
}
