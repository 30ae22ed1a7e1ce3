; targets: ^gfx1[12]
; The wave64 half swap of RDNA 3-4 and CDNA 5.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @permlane64(ptr addrspace(1) %p, i32 %c, float %f, <2 x bfloat> %bb) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %a2 = bitcast i32 %a to <2 x i16>
  %b2 = bitcast i32 %b to <2 x i16>
  %h2 = bitcast i32 %a to <2 x half>
  %g2 = bitcast i32 %b to <2 x half>
  %r0 = call i32 @llvm.amdgcn.permlane64.i32(i32 %c)
  %o = getelementptr i32, ptr addrspace(1) %q, i32 512
  store i32 %r0, ptr addrspace(1) %o
  ret void
}
