; Still more compiled code every family selects: bytes and shorts (SDWA
; and 16-bit forms), shuffles and byte permutes, 64-bit division, float
; atomics with return, DPP row shifts and mirrors, a switch, uniform
; scalar loops, struct buffer accesses, transcendental and
; conversion instructions, and register pressure that spills to scratch.
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workgroup.id.y()
declare i32 @llvm.amdgcn.mov.dpp.i32(i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare float @llvm.sin.f32(float)
declare float @llvm.cos.f32(float)
declare float @llvm.amdgcn.rsq.f32(float)
declare float @llvm.amdgcn.fract.f32(float)
declare float @llvm.ldexp.f32.i32(float, i32)
declare { float, i32 } @llvm.frexp.f32.i32(float)
declare double @llvm.amdgcn.rcp.f64(double)
declare float @llvm.copysign.f32(float, float)
declare float @llvm.trunc.f32(float)
declare float @llvm.rint.f32(float)
declare i32 @llvm.amdgcn.ubfe.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.sbfe.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.perm(i32, i32, i32)
declare i32 @llvm.amdgcn.alignbyte(i32, i32, i32)
declare i32 @llvm.cttz.i32(i32, i1)
declare i64 @llvm.ctlz.i64(i64, i1)
declare i32 @llvm.abs.i32(i32, i1)
declare i16 @llvm.umax.i16(i16, i16)
declare <2 x i32> @llvm.amdgcn.raw.buffer.load.v2i32(<4 x i32>, i32, i32, i32)
declare float @llvm.amdgcn.struct.buffer.load.f32(<4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.struct.buffer.store.v4i32(<4 x i32>, <4 x i32>, i32, i32, i32, i32)
declare void @llvm.amdgcn.s.setprio(i16)
declare void @llvm.amdgcn.wave.barrier()
declare void @llvm.amdgcn.s.barrier()

; Bytes and shorts: sign and zero extension, 16-bit arithmetic, byte
; permutes and shuffles of i8 vectors.
define amdgpu_kernel void @bytes(ptr addrspace(1) %p, ptr addrspace(1) %q, i32 %sel) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr <4 x i8>, ptr addrspace(1) %p, i32 %tid
  %v = load <4 x i8>, ptr addrspace(1) %a
  %s = shufflevector <4 x i8> %v, <4 x i8> poison, <4 x i32> <i32 3, i32 1, i32 2, i32 0>
  %b0 = extractelement <4 x i8> %v, i32 1
  %b1 = extractelement <4 x i8> %v, i32 2
  %e0 = sext i8 %b0 to i32
  %e1 = zext i8 %b1 to i32
  %m = mul i32 %e0, %e1
  %w = getelementptr <2 x i16>, ptr addrspace(1) %q, i32 %tid
  %hv = load <2 x i16>, ptr addrspace(1) %w
  %h0 = extractelement <2 x i16> %hv, i32 0
  %h1 = extractelement <2 x i16> %hv, i32 1
  %hs = add i16 %h0, 1234
  %hm = mul i16 %hs, %h1
  %hx = call i16 @llvm.umax.i16(i16 %hm, i16 300)
  %hsh = lshr i16 %hx, 3
  %hz = zext i16 %hsh to i32
  %pk = add <2 x i16> %hv, <i16 5, i16 -9>
  %psh = shl <2 x i16> %pk, <i16 2, i16 2>
  store <2 x i16> %psh, ptr addrspace(1) %w
  %pm = call i32 @llvm.amdgcn.perm(i32 %m, i32 %hz, i32 %sel)
  %al = call i32 @llvm.amdgcn.alignbyte(i32 %pm, i32 %m, i32 3)
  %ub = call i32 @llvm.amdgcn.ubfe.i32(i32 %al, i32 5, i32 7)
  %sb = call i32 @llvm.amdgcn.sbfe.i32(i32 %al, i32 %sel, i32 9)
  %tz = call i32 @llvm.cttz.i32(i32 %ub, i1 false)
  %ab = call i32 @llvm.abs.i32(i32 %sb, i1 false)
  %r = add i32 %tz, %ab
  store <4 x i8> %s, ptr addrspace(1) %a
  %o = getelementptr i32, ptr addrspace(1) %q, i32 1024
  store i32 %r, ptr addrspace(1) %o
  %c8 = getelementptr i8, ptr addrspace(1) %q, i32 %tid
  %t8 = trunc i32 %r to i8
  store i8 %t8, ptr addrspace(1) %c8
  ret void
}

; 64-bit division and remainder (an expanded sequence), leading zeros of a
; 64-bit value, and 32x32->64 multiplies.
define amdgpu_kernel void @div64(ptr addrspace(1) %p, i64 %d, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i64, ptr addrspace(1) %p, i32 %tid
  %v = load i64, ptr addrspace(1) %a
  %q = udiv i64 %v, %d
  %r = srem i64 %v, 1000000007
  %z = call i64 @llvm.ctlz.i64(i64 %q, i1 false)
  %t = zext i32 %tid to i64
  %k64 = sext i32 %k to i64
  %mm = mul i64 %t, %k64
  %s1 = add i64 %q, %r
  %s2 = add i64 %s1, %z
  %s3 = add i64 %s2, %mm
  store i64 %s3, ptr addrspace(1) %a
  ret void
}

; Float atomics that return, on global and LDS memory, and f64 ones.
@fl = internal addrspace(3) global [256 x float] undef, align 4
define amdgpu_kernel void @fatomics(ptr addrspace(1) %p, ptr addrspace(1) %d, float %x, double %y) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr float, ptr addrspace(1) %p, i32 %tid
  %o1 = atomicrmw fadd ptr addrspace(1) %a, float %x syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !0
  %o2 = atomicrmw fmin ptr addrspace(1) %a, float %o1 syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !0
  %l = getelementptr [256 x float], ptr addrspace(3) @fl, i32 0, i32 %tid
  %o3 = atomicrmw fmax ptr addrspace(3) %l, float %o2 seq_cst
  %o4 = atomicrmw fadd ptr addrspace(3) %l, float %o3 seq_cst
  %da = getelementptr double, ptr addrspace(1) %d, i32 %tid
  %o5 = atomicrmw fadd ptr addrspace(1) %da, double %y syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !0
  %o6 = atomicrmw xchg ptr addrspace(1) %da, double %o5 syncscope("agent") monotonic
  %f = fpext float %o4 to double
  %s = fadd double %f, %o6
  %b = getelementptr double, ptr addrspace(1) %da, i32 64
  store double %s, ptr addrspace(1) %b
  ret void
}
!0 = !{}

; DPP data movement: row shifts and rotates, row mirror, quad permutes
; and half mirrors; bound_ctrl and row and bank masks.
define amdgpu_kernel void @dpp(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a
  %d1 = call i32 @llvm.amdgcn.mov.dpp.i32(i32 %v, i32 27, i32 15, i32 15, i1 false)
  %d2 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %v, i32 %d1, i32 257, i32 15, i32 15, i1 true)
  %d3 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %d2, i32 280, i32 10, i32 5, i1 false)
  %d4 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d3, i32 %d2, i32 289, i32 15, i32 15, i1 false)
  %d5 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d4, i32 %d4, i32 320, i32 15, i32 15, i1 false)
  %d6 = call i32 @llvm.amdgcn.update.dpp.i32(i32 %d5, i32 %d5, i32 321, i32 3, i32 12, i1 true)
  %s = add i32 %d6, %v
  %f = bitcast i32 %s to float
  %g = fmul float %f, 2.0
  %gi = bitcast float %g to i32
  %d7 = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %gi, i32 273, i32 15, i32 15, i1 true)
  store i32 %d7, ptr addrspace(1) %a
  ret void
}

; A switch on a uniform value, a uniform loop on scalar registers, and
; a divergent if/else with a barrier after it.
define amdgpu_kernel void @control(ptr addrspace(1) %p, i32 %sel, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  switch i32 %sel, label %def [ i32 0, label %c0
                                i32 1, label %c1
                                i32 7, label %c7
                                i32 100, label %c100 ]
c0:
  br label %join
c1:
  br label %join
c7:
  br label %join
c100:
  br label %join
def:
  br label %join
join:
  %base = phi i32 [ 11, %c0 ], [ 222, %c1 ], [ 3333, %c7 ], [ -44444, %c100 ], [ 5, %def ]
  br label %sloop
sloop:
  %i = phi i32 [ 0, %join ], [ %i.next, %sloop ]
  %acc = phi i32 [ %base, %join ], [ %acc.next, %sloop ]
  %acc.next = mul i32 %acc, 69069
  %i.next = add i32 %i, 3
  %cmp = icmp slt i32 %i.next, %n
  br i1 %cmp, label %sloop, label %div
div:
  %odd = and i32 %tid, 1
  %c = icmp eq i32 %odd, 0
  br i1 %c, label %then, label %else
then:
  %x = shl i32 %acc.next, 1
  br label %end
else:
  %y = lshr i32 %acc.next, 2
  br label %end
end:
  %r = phi i32 [ %x, %then ], [ %y, %else ]
  call void @llvm.amdgcn.s.setprio(i16 2)
  call void @llvm.amdgcn.wave.barrier()
  call void @llvm.amdgcn.s.barrier()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 %r, ptr addrspace(1) %a
  ret void
}

; Struct (indexed) and raw buffer accesses.
define amdgpu_kernel void @structbuf(<4 x i32> %rsrc, i32 %soff) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %f = call float @llvm.amdgcn.struct.buffer.load.f32(<4 x i32> %rsrc, i32 %tid, i32 8, i32 %soff, i32 0)
  %t = call <2 x i32> @llvm.amdgcn.raw.buffer.load.v2i32(<4 x i32> %rsrc, i32 %tid, i32 12, i32 0)
  %fi = bitcast float %f to i32
  %t0 = extractelement <2 x i32> %t, i32 0
  %t1 = extractelement <2 x i32> %t, i32 1
  %fm = add i32 %t1, %soff
  %v0 = insertelement <4 x i32> undef, i32 %fi, i32 0
  %v1 = insertelement <4 x i32> %v0, i32 %t0, i32 1
  %v2 = insertelement <4 x i32> %v1, i32 %t1, i32 2
  %v3 = insertelement <4 x i32> %v2, i32 %fm, i32 3
  call void @llvm.amdgcn.struct.buffer.store.v4i32(<4 x i32> %v3, <4 x i32> %rsrc, i32 %tid, i32 16, i32 0, i32 3)
  ret void
}

; Transcendental and conversion instructions, f16 conversions and a
; reciprocal in f64.
define amdgpu_kernel void @convert(ptr addrspace(1) %p, float %x, double %y) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr float, ptr addrspace(1) %p, i32 %tid
  %v = load float, ptr addrspace(1) %a
  %s = call float @llvm.sin.f32(float %v)
  %c = call float @llvm.cos.f32(float %v)
  %r = call float @llvm.amdgcn.rsq.f32(float %s)
  %f = call float @llvm.amdgcn.fract.f32(float %c)
  %l = call float @llvm.ldexp.f32.i32(float %r, i32 %tid)
  %fx = call { float, i32 } @llvm.frexp.f32.i32(float %l)
  %m = extractvalue { float, i32 } %fx, 0
  %e = extractvalue { float, i32 } %fx, 1
  %cs = call float @llvm.copysign.f32(float %m, float %x)
  %tr = call float @llvm.trunc.f32(float %cs)
  %ri = call float @llvm.rint.f32(float %f)
  %h = fptrunc float %ri to half
  %hh = fadd half %h, 0xH3C00
  %he = fpext half %hh to float
  %u = fptoui float %tr to i32
  %uf = uitofp i32 %e to float
  %sum = fadd float %he, %uf
  %d = fpext float %sum to double
  %rc = call double @llvm.amdgcn.rcp.f64(double %d)
  %dm = fmul double %rc, %y
  %dt = fptrunc double %dm to float
  %ui = uitofp i32 %u to float
  %out = fadd float %dt, %ui
  store float %out, ptr addrspace(1) %a
  ret void
}

; Enough live values across a loop to need many VGPRs and a 2-D thread id.
define amdgpu_kernel void @pressure(ptr addrspace(1) %p, i32 %n) {
entry:
  %tx = call i32 @llvm.amdgcn.workitem.id.x()
  %ty = call i32 @llvm.amdgcn.workitem.id.y()
  %gy = call i32 @llvm.amdgcn.workgroup.id.y()
  %row = add i32 %ty, %gy
  %idx = mul i32 %row, 256
  %i0 = add i32 %idx, %tx
  %a = getelementptr <16 x float>, ptr addrspace(1) %p, i32 %i0
  %v = load <16 x float>, ptr addrspace(1) %a
  %b = getelementptr <16 x float>, ptr addrspace(1) %a, i32 4096
  %w = load <16 x float>, ptr addrspace(1) %b
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi <16 x float> [ %v, %entry ], [ %acc.next, %loop ]
  %mul = fmul <16 x float> %acc, %w
  %acc.next = fadd <16 x float> %mul, <float 1.0, float 2.0, float 3.0, float 4.0, float 5.0, float 6.0, float 7.0, float 8.0, float 9.0, float 10.0, float 11.0, float 12.0, float 13.0, float 14.0, float 15.0, float 16.0>
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  store <16 x float> %acc.next, ptr addrspace(1) %a
  ret void
}
