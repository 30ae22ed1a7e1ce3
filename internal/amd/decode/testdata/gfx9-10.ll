; targets: ^gfx(9|10)
; Operations RDNA 3 dropped: the real-time counter and loads from memory straight into LDS.
; (One small kernel per operation: each reads a loaded value and stores its result.)
target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x i32] undef, align 4
@sink = addrspace(1) global [64 x i8] undef
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k_memrealtime(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i64 @llvm.amdgcn.s.memrealtime()
  %u = freeze i64 %r
  store i64 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_globalloadlds(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  call void @llvm.amdgcn.global.load.lds(ptr addrspace(1) %p, ptr addrspace(3) @lds, i32 4, i32 0, i32 0)


  ret void
}
define amdgpu_kernel void @k_bufferloadlds(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  call void @llvm.amdgcn.raw.buffer.load.lds(<4 x i32> %rsrc, ptr addrspace(3) @lds, i32 4, i32 %a, i32 0, i32 0, i32 0)


  ret void
}
