; targets: ^gfx1[0-2]
; RDNA and CDNA 5 lane permutes within and across rows of 16.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @permlane(ptr addrspace(1) %p, i32 %c, float %f, <2 x bfloat> %bb) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %a2 = bitcast i32 %a to <2 x i16>
  %b2 = bitcast i32 %b to <2 x i16>
  %h2 = bitcast i32 %a to <2 x half>
  %g2 = bitcast i32 %b to <2 x half>
  %r0 = call i32 @llvm.amdgcn.permlane16.i32(i32 %a, i32 %b, i32 %c, i32 291, i1 false, i1 false)
  %r1 = call i32 @llvm.amdgcn.permlanex16.i32(i32 %a, i32 %r0, i32 %b, i32 -19088744, i1 true, i1 true)
  %o = getelementptr i32, ptr addrspace(1) %q, i32 512
  store i32 %r1, ptr addrspace(1) %o
  ret void
}
