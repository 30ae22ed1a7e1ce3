; targets: ^gfx(94|95|120|1250)
; FP8/BF8 conversions of CDNA 3-4, RDNA 4 and CDNA 5: packs, stochastic rounding and byte selects.
; (One small kernel per operation: each reads a loaded value and stores its result.)
target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x i32] undef, align 4
@sink = addrspace(1) global [64 x i8] undef
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k_cvtf32bf8(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.cvt.f32.bf8(i32 %a, i32 1)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_cvtpkfp8(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.cvt.pk.fp8.f32(float %f, float %f, i32 %a, i1 true)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_cvtsrfp8(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.cvt.sr.fp8.f32(float %f, i32 %b, i32 %a, i32 2)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
