; targets: ^gfx(950|11|120)
; f16 and bf16 dot products into f32.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @dot_bf16(ptr addrspace(1) %p, i32 %c, float %f, <2 x bfloat> %bb) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %a2 = bitcast i32 %a to <2 x i16>
  %b2 = bitcast i32 %b to <2 x i16>
  %h2 = bitcast i32 %a to <2 x half>
  %g2 = bitcast i32 %b to <2 x half>
  %r0 = call float @llvm.amdgcn.fdot2(<2 x half> %h2, <2 x half> %g2, float %f, i1 true)
  %x0 = bitcast float %r0 to i32
  %r1 = call float @llvm.amdgcn.fdot2.f32.bf16(<2 x bfloat> %bb, <2 x bfloat> %bb, float %f, i1 false)
  %x1 = bitcast float %r1 to i32
  %o = getelementptr i32, ptr addrspace(1) %q, i32 512
  store i32 %x1, ptr addrspace(1) %o
  ret void
}
