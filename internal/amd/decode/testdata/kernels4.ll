; Scalar and wave operations, SAD and cube instructions, comparisons to masks, whole-wave modes and other intrinsics every family selects.
; (One small kernel per operation: each reads a loaded value and stores its result.)
target triple = "amdgcn-amd-amdhsa"
@lds = internal addrspace(3) global [256 x i32] undef, align 4
@sink = addrspace(1) global [64 x i8] undef
declare i32 @llvm.amdgcn.workitem.id.x()
define amdgpu_kernel void @k_getreg(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.s.getreg(i32 6146)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_sendmsg(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  call void @llvm.amdgcn.s.sendmsg(i32 3, i32 %c)


  ret void
}
define amdgpu_kernel void @k_getpc(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i64 @llvm.amdgcn.s.getpc()
  %u = freeze i64 %r
  store i64 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_dsappend(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.ds.append.p3(ptr addrspace(3) @lds, i1 false)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_dsconsume(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.ds.consume.p3(ptr addrspace(3) @lds, i1 false)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_icmp(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i64 @llvm.amdgcn.icmp.i64.i32(i32 %a, i32 %b, i32 34)
  %u = freeze i64 %r
  store i64 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_fcmp(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i64 @llvm.amdgcn.fcmp.i64.f32(float %f, float 3.0, i32 4)
  %u = freeze i64 %r
  store i64 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_wqm(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.wqm.i32(i32 %a)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_setinactive(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.set.inactive.i32(i32 %a, i32 7)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_wwm(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %a)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_sffbh(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.sffbh.i32(i32 %a)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_lerp(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.lerp(i32 %a, i32 %b, i32 %c)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_sadu8(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.sad.u8(i32 %a, i32 %b, i32 %c)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_msad(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.msad.u8(i32 %a, i32 %b, i32 %c)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_sadhi(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.sad.hi.u8(i32 %a, i32 %b, i32 %c)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_sadu16(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.sad.u16(i32 %a, i32 %b, i32 %c)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_qsad(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i64 @llvm.amdgcn.qsad.pk.u16.u8(i64 %w, i32 %a, i64 %w)
  %u = freeze i64 %r
  store i64 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_cubeid(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.cubeid(float %f, float 1.0, float 2.0)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_cubema(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.cubema(float %f, float %f, float 0.5)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_frexpmant(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.frexp.mant.f32(float %f)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_class(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i1 @llvm.amdgcn.class.f32(float %f, i32 3)
  %u = freeze i1 %r
  store i1 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_trigpreop(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call double @llvm.amdgcn.trig.preop.f64(double %d, i32 %a)
  %u = freeze double %r
  store double %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_fmullegacy(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.fmul.legacy(float %f, float 3.0)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_dcacheinv(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  call void @llvm.amdgcn.s.dcache.inv()


  ret void
}
define amdgpu_kernel void @k_ttrace(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  call void @llvm.amdgcn.s.ttracedata(i32 %c)


  ret void
}
define amdgpu_kernel void @k_sethalt(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  call void @llvm.amdgcn.s.sethalt(i32 1)


  ret void
}
define amdgpu_kernel void @k_incperf(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  call void @llvm.amdgcn.s.incperflevel(i32 3)


  ret void
}
define amdgpu_kernel void @k_wavereduce(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.wave.reduce.umax.i32(i32 %a, i32 0)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_dsbperm(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.ds.permute(i32 %a, i32 %b)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_mbcnt(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call i32 @llvm.amdgcn.mbcnt.lo(i32 %a, i32 0)
  %u = freeze i32 %r
  store i32 %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_fdiv(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.fdiv.fast(float %f, float 3.0)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_rsqclamp(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.rsq.clamp.f32(float %f)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_log(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.log.f32(float %f)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_exp2(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call float @llvm.amdgcn.exp2.f32(float %f)
  %u = freeze float %r
  store float %u, ptr addrspace(1) @sink
  ret void
}
define amdgpu_kernel void @k_sqrtf16(ptr addrspace(1) %p, i32 %c, float %f, double %d, i64 %w, <4 x i32> %rsrc) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %a = load i32, ptr addrspace(1) %q
  %b = add i32 %a, %tid
  %r = call half @llvm.amdgcn.sqrt.f16(half 0xH4000)
  %u = freeze half %r
  store half %u, ptr addrspace(1) @sink
  ret void
}
