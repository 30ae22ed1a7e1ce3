; targets: ^gfx(103|11|12)
; The legacy (0 * x = 0) fused multiply-add of RDNA 2 and later.
; (One small kernel per operation: each reads a loaded value and stores its result.)
target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x i32] undef, align 4
@sink = addrspace(1) global [64 x i8] undef
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k_fmalegacy(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.fma.legacy(float %f, float %f, float 1.0)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
