; targets: ^gfx(9|101)
; A scalar data cache write-back (GCN 5, CDNA, RDNA 1).
; (One small kernel per operation: each reads a loaded value and stores its result.)
target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x i32] undef, align 4
@sink = addrspace(1) global [64 x i8] undef
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k_dcachewb(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  call void @llvm.amdgcn.s.dcache.wb()


  ret void
}
