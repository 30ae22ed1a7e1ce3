; targets: ^gfx1[12]
; Mixed-sign and unsigned integer dot products of RDNA 3-4 and CDNA 5.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @dot_gfx11(ptr addrspace(1) %p, i32 %c, float %f, <2 x bfloat> %bb) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %a2 = bitcast i32 %a to <2 x i16>
  %b2 = bitcast i32 %b to <2 x i16>
  %h2 = bitcast i32 %a to <2 x half>
  %g2 = bitcast i32 %b to <2 x half>
  %r0 = call i32 @llvm.amdgcn.sudot4(i1 true, i32 %a, i1 false, i32 %b, i32 %c, i1 false)
  %r1 = call i32 @llvm.amdgcn.udot4(i32 %a, i32 %b, i32 %r0, i1 true)
  %r2 = call i32 @llvm.amdgcn.sudot8(i1 false, i32 %a, i1 true, i32 %b, i32 %r1, i1 false)
  %r3 = call i32 @llvm.amdgcn.udot8(i32 %a, i32 -559038737, i32 %r2, i1 false)
  %o = getelementptr i32, ptr addrspace(1) %q, i32 512
  store i32 %r3, ptr addrspace(1) %o
  ret void
}
