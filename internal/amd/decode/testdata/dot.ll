; targets: ^gfx(906|908|90a|94|95|103)
; Integer and f16 dot products of the GCN 5.1, CDNA and RDNA 2 dot instructions.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @dot(ptr addrspace(1) %p, i32 %c, float %f, <2 x bfloat> %bb) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %a2 = bitcast i32 %a to <2 x i16>
  %b2 = bitcast i32 %b to <2 x i16>
  %h2 = bitcast i32 %a to <2 x half>
  %g2 = bitcast i32 %b to <2 x half>
  %r0 = call i32 @llvm.amdgcn.sdot2(<2 x i16> %a2, <2 x i16> %b2, i32 %c, i1 false)
  %r1 = call i32 @llvm.amdgcn.udot2(<2 x i16> %a2, <2 x i16> %b2, i32 %r0, i1 true)
  %r2 = call i32 @llvm.amdgcn.sdot4(i32 %a, i32 %b, i32 %r1, i1 false)
  %r3 = call i32 @llvm.amdgcn.udot4(i32 %a, i32 12345678, i32 %r2, i1 false)
  %r4 = call i32 @llvm.amdgcn.sdot8(i32 %a, i32 %b, i32 %r3, i1 true)
  %r5 = call i32 @llvm.amdgcn.udot8(i32 %a, i32 %b, i32 %r4, i1 false)
  %o = getelementptr i32, ptr addrspace(1) %q, i32 512
  store i32 %r5, ptr addrspace(1) %o
  %fd = call float @llvm.amdgcn.fdot2(<2 x half> %h2, <2 x half> %g2, float %f, i1 false)
  store float %fd, ptr addrspace(1) %q
  ret void
}
