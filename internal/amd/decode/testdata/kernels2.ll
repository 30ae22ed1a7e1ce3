; More kernels for the decoder's and the listing's compiled-code tests, in IR
; every family's llc-22 selects: packed f16 and bf16 math, 64-bit integer
; math and address arithmetic, global, flat and LDS atomics that return,
; LDS accesses at offsets (ds_read2/ds_write2 included), scalar loads at
; offsets, raw buffer loads and stores, fma/fmed3, cross-lane reads and a
; ballot, float and integer constants that are not inline constants,
; negative memory offsets, branches, loops and a variety of s_waitcnt.
target triple = "amdgcn-amd-amdhsa"

@buf = internal addrspace(3) global [1024 x i32] undef, align 16

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)
declare <2 x half> @llvm.maxnum.v2f16(<2 x half>, <2 x half>)
declare <2 x half> @llvm.minnum.v2f16(<2 x half>, <2 x half>)
declare half @llvm.fma.f16(half, half, half)
declare float @llvm.fma.f32(float, float, float)
declare double @llvm.fma.f64(double, double, double)
declare float @llvm.amdgcn.fmed3.f32(float, float, float)
declare float @llvm.fabs.f32(float)
declare float @llvm.floor.f32(float)
declare float @llvm.exp2.f32(float)
declare float @llvm.log2.f32(float)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare i64 @llvm.amdgcn.ballot.i64(i1)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare i64 @llvm.ctpop.i64(i64)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.smin.i32(i32, i32)
declare i64 @llvm.umax.i64(i64, i64)
declare i32 @llvm.bitreverse.i32(i32)
declare i32 @llvm.fshl.i32(i32, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32>, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.raw.buffer.load.v4f32(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.v2f32(<2 x float>, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32>, i32, i32)
declare void @llvm.amdgcn.s.sleep(i32)
declare i64 @llvm.readcyclecounter()

; Packed and scalar half math, bf16 arithmetic (promoted to f32 where the
; target has no bf16 ALU), and constants that need literals.
define amdgpu_kernel void @halfmath(ptr addrspace(1) %p, ptr addrspace(1) %q, <2 x half> %k, bfloat %b) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr <2 x half>, ptr addrspace(1) %p, i32 %tid
  %v = load <2 x half>, ptr addrspace(1) %a
  %f = call <2 x half> @llvm.fma.v2f16(<2 x half> %v, <2 x half> <half 0xH3555, half 0xH4B00>, <2 x half> %k)
  %g = fmul <2 x half> %f, <half 0xH3800, half 0xH3800>
  %h = call <2 x half> @llvm.maxnum.v2f16(<2 x half> %g, <2 x half> %v)
  %i = call <2 x half> @llvm.minnum.v2f16(<2 x half> %h, <2 x half> <half 0xH5640, half 0xHD640>)
  %j = fsub <2 x half> %i, %k
  %e0 = extractelement <2 x half> %j, i32 0
  %e1 = extractelement <2 x half> %j, i32 1
  %s = call half @llvm.fma.f16(half %e0, half 0xH4D00, half %e1)
  %t = fadd half %s, 0xH3E00
  %j2 = insertelement <2 x half> %j, half %t, i32 1
  store <2 x half> %j2, ptr addrspace(1) %a
  %bq = getelementptr bfloat, ptr addrspace(1) %q, i32 %tid
  %bv = load bfloat, ptr addrspace(1) %bq
  %bm = fmul bfloat %bv, %b
  %ba = fadd bfloat %bm, 0xR4049
  store bfloat %ba, ptr addrspace(1) %bq
  %bx = getelementptr <2 x bfloat>, ptr addrspace(1) %q, i32 %tid
  %bw = load <2 x bfloat>, ptr addrspace(1) %bx
  %bs = fadd <2 x bfloat> %bw, <bfloat 0xR3F80, bfloat 0xRC0A0>
  %bf = fpext <2 x bfloat> %bs to <2 x float>
  %b0 = extractelement <2 x float> %bf, i32 0
  %b1 = extractelement <2 x float> %bf, i32 1
  %bsum = fadd float %b0, %b1
  %fq = getelementptr float, ptr addrspace(1) %q, i32 64
  store float %bsum, ptr addrspace(1) %fq
  ret void
}

; 64-bit integer math and address arithmetic, large integer constants,
; bit manipulation and negative global offsets.
define amdgpu_kernel void @int64(ptr addrspace(1) %p, i64 %k, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %t64 = zext i32 %tid to i64
  %w64 = zext i32 %wg to i64
  %base = mul i64 %w64, 4096
  %idx = add i64 %base, %t64
  %a = getelementptr i64, ptr addrspace(1) %p, i64 %idx
  %v = load i64, ptr addrspace(1) %a
  %m = mul i64 %v, %k
  %x = xor i64 %m, 81985529216486895
  %sh = lshr i64 %x, 17
  %sa = ashr i64 %v, 40
  %o = or i64 %sh, %sa
  %ad = add i64 %o, -123456789
  %su = sub i64 %ad, %k
  %mx = call i64 @llvm.umax.i64(i64 %su, i64 4294967296)
  %pc = call i64 @llvm.ctpop.i64(i64 %mx)
  %neg = getelementptr i64, ptr addrspace(1) %a, i64 -32
  %nv = load i64, ptr addrspace(1) %neg
  %r = add i64 %pc, %nv
  store i64 %r, ptr addrspace(1) %a
  %lo = trunc i64 %r to i32
  %br = call i32 @llvm.bitreverse.i32(i32 %lo)
  %fs = call i32 @llvm.fshl.i32(i32 %br, i32 %lo, i32 %n)
  %mn = call i32 @llvm.umin.i32(i32 %fs, i32 1000000)
  %sm = call i32 @llvm.smin.i32(i32 %mn, i32 -70000)
  %d = udiv i32 %sm, 12345
  %rm = srem i32 %d, 7
  %p32 = getelementptr i32, ptr addrspace(1) %a, i64 5
  store i32 %rm, ptr addrspace(1) %p32
  %far = getelementptr i8, ptr addrspace(1) %a, i64 -4100
  store i32 %d, ptr addrspace(1) %far
  ret void
}

; Atomics that return their old value on global, flat and LDS memory, with
; and without offsets, 32 and 64 bits, integer and float.
define amdgpu_kernel void @atomics(ptr addrspace(1) %g, ptr %f, ptr addrspace(1) %out, i32 %v, i64 %w) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %ga = getelementptr i32, ptr addrspace(1) %g, i32 %tid
  %a0 = atomicrmw add ptr addrspace(1) %ga, i32 %v syncscope("agent") monotonic
  %gb = getelementptr i32, ptr addrspace(1) %ga, i32 16
  %a1 = atomicrmw umax ptr addrspace(1) %gb, i32 %a0 syncscope("agent") monotonic
  %a2 = atomicrmw xchg ptr addrspace(1) %gb, i32 %a1 syncscope("workgroup") monotonic
  %pair = cmpxchg ptr addrspace(1) %ga, i32 %a2, i32 %v syncscope("agent") monotonic monotonic
  %a3 = extractvalue { i32, i1 } %pair, 0
  %g64 = getelementptr i64, ptr addrspace(1) %g, i32 %tid
  %a4 = atomicrmw add ptr addrspace(1) %g64, i64 %w syncscope("agent") monotonic
  %a5 = atomicrmw and ptr addrspace(1) %g64, i64 %a4 syncscope("agent") monotonic
  %fa = getelementptr i32, ptr %f, i32 %tid
  %a6 = atomicrmw sub ptr %fa, i32 %a3 syncscope("agent") monotonic
  %fb = getelementptr i32, ptr %fa, i32 32
  %a7 = atomicrmw or ptr %fb, i32 %a6 syncscope("agent") monotonic
  %la = getelementptr [1024 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  %a8 = atomicrmw add ptr addrspace(3) %la, i32 %a7 seq_cst
  %lb = getelementptr i32, ptr addrspace(3) %la, i32 100
  %a9 = atomicrmw min ptr addrspace(3) %lb, i32 %a8 seq_cst
  %lc = getelementptr i32, ptr addrspace(3) %la, i32 200
  %lpair = cmpxchg ptr addrspace(3) %lc, i32 %a9, i32 %tid seq_cst seq_cst
  %a10 = extractvalue { i32, i1 } %lpair, 0
  %lf = getelementptr float, ptr addrspace(3) %la, i32 300
  %fv = sitofp i32 %a10 to float
  %a11 = atomicrmw fadd ptr addrspace(3) %lf, float %fv seq_cst
  %ai = fptosi float %a11 to i32
  %s64 = trunc i64 %a5 to i32
  %sum = add i32 %ai, %s64
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %sum, ptr addrspace(1) %o
  ret void
}

; LDS at offsets: pairs of loads and stores the backend merges into
; ds_read2/ds_write2, wide accesses, 64-bit ones, bytes and shorts.
define amdgpu_kernel void @ldsoff(ptr addrspace(1) %out, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p0 = getelementptr [1024 x i32], ptr addrspace(3) @buf, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p0
  %p1 = getelementptr i32, ptr addrspace(3) %p0, i32 64
  store i32 %k, ptr addrspace(3) %p1
  %p2 = getelementptr i32, ptr addrspace(3) %p0, i32 300
  store i32 %k, ptr addrspace(3) %p2
  call void @llvm.amdgcn.s.barrier()
  %q0 = getelementptr i32, ptr addrspace(3) %p0, i32 1
  %q1 = getelementptr i32, ptr addrspace(3) %p0, i32 2
  %v0 = load i32, ptr addrspace(3) %q0
  %v1 = load i32, ptr addrspace(3) %q1
  %q2 = getelementptr i32, ptr addrspace(3) %p0, i32 512
  %v2 = load i32, ptr addrspace(3) %q2
  %w = getelementptr <4 x i32>, ptr addrspace(3) @buf, i32 %tid
  %wv = load <4 x i32>, ptr addrspace(3) %w, align 16
  %d = getelementptr i64, ptr addrspace(3) @buf, i32 %tid
  %d1 = getelementptr i64, ptr addrspace(3) %d, i32 3
  %dv = load i64, ptr addrspace(3) %d1
  %b = getelementptr i8, ptr addrspace(3) @buf, i32 %tid
  %b1 = getelementptr i8, ptr addrspace(3) %b, i32 1001
  %bv = load i8, ptr addrspace(3) %b1
  %bx = sext i8 %bv to i32
  %s = getelementptr i16, ptr addrspace(3) %b1, i32 7
  %sv = load i16, ptr addrspace(3) %s
  %sx = zext i16 %sv to i32
  %e0 = extractelement <4 x i32> %wv, i32 0
  %e3 = extractelement <4 x i32> %wv, i32 3
  %t0 = add i32 %v0, %v1
  %t1 = add i32 %t0, %v2
  %t2 = add i32 %t1, %e0
  %t3 = add i32 %t2, %e3
  %t4 = add i32 %t3, %bx
  %t5 = add i32 %t4, %sx
  %dl = trunc i64 %dv to i32
  %t6 = xor i32 %t5, %dl
  store i8 %bv, ptr addrspace(3) %b
  store i16 %sv, ptr addrspace(3) %s
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %t6, ptr addrspace(1) %o
  ret void
}

; Uniform (scalar) loads at several offsets from a kernel argument pointer,
; a large one included, and scalar buffer loads.
define amdgpu_kernel void @scalar(ptr addrspace(4) %c, ptr addrspace(1) %out, <4 x i32> %rsrc, i32 %off) {
entry:
  %c1 = getelementptr i32, ptr addrspace(4) %c, i64 3
  %v1 = load i32, ptr addrspace(4) %c1
  %c2 = getelementptr <2 x i32>, ptr addrspace(4) %c, i64 40
  %v2 = load <2 x i32>, ptr addrspace(4) %c2
  %c3 = getelementptr <8 x i32>, ptr addrspace(4) %c, i64 1000
  %v3 = load <8 x i32>, ptr addrspace(4) %c3
  %c4 = getelementptr i32, ptr addrspace(4) %c, i64 300000
  %v4 = load i32, ptr addrspace(4) %c4
  %sb = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %rsrc, i32 64, i32 0)
  %sv = call i32 @llvm.amdgcn.s.buffer.load.i32(<4 x i32> %rsrc, i32 %off, i32 0)
  %e0 = extractelement <2 x i32> %v2, i32 1
  %e1 = extractelement <8 x i32> %v3, i32 5
  %e2 = extractelement <8 x i32> %v3, i32 7
  %s0 = add i32 %v1, %e0
  %s1 = mul i32 %s0, %e1
  %s2 = xor i32 %s1, %e2
  %s3 = add i32 %s2, %v4
  %s4 = add i32 %s3, %sb
  %s5 = sub i32 %s4, %sv
  %s6 = and i32 %s5, 65535
  %s7 = or i32 %s6, 1193046
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  %s8 = add i32 %s7, %tid
  store i32 %s8, ptr addrspace(1) %o
  ret void
}

; Raw buffer loads, stores and an atomic with immediate and register
; offsets.
define amdgpu_kernel void @buffers(<4 x i32> %rsrc, i32 %soff, float %scale) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %vo = shl i32 %tid, 2
  %a = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %rsrc, i32 %vo, i32 0, i32 0)
  %vo2 = add i32 %vo, 256
  %b = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %rsrc, i32 %vo2, i32 %soff, i32 1)
  %v4 = call <4 x float> @llvm.amdgcn.raw.buffer.load.v4f32(<4 x i32> %rsrc, i32 %vo, i32 16, i32 0)
  %x = extractelement <4 x float> %v4, i32 0
  %y = extractelement <4 x float> %v4, i32 2
  %xs = fmul float %x, %scale
  %ys = fmul float %y, 1.500000e+03
  %p0 = insertelement <2 x float> undef, float %xs, i32 0
  %p1 = insertelement <2 x float> %p0, float %ys, i32 1
  call void @llvm.amdgcn.raw.buffer.store.v2f32(<2 x float> %p1, <4 x i32> %rsrc, i32 %vo, i32 0, i32 0)
  %s = add i32 %a, %b
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %s, <4 x i32> %rsrc, i32 %vo2, i32 %soff, i32 0)
  %old = call i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32 %s, <4 x i32> %rsrc, i32 %vo, i32 0, i32 0)
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %old, <4 x i32> %rsrc, i32 4095, i32 0, i32 0)
  ret void
}

; fma, fmed3, clamps and float constants that are not inline constants,
; f64 math, transcendental approximations.
define amdgpu_kernel void @floats(ptr addrspace(1) %p, float %a, double %d) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr float, ptr addrspace(1) %p, i32 %tid
  %v = load float, ptr addrspace(1) %q
  %f = call float @llvm.fma.f32(float %v, float 0x400921FB60000000, float %a)
  %m = call float @llvm.amdgcn.fmed3.f32(float %f, float -1.000000e+02, float 2.500000e+02)
  %ab = call float @llvm.fabs.f32(float %m)
  %fl = call float @llvm.floor.f32(float %ab)
  %e = call float @llvm.exp2.f32(float %fl)
  %l = call float @llvm.log2.f32(float %e)
  %c = fcmp ogt float %l, 0x3FB99999A0000000
  %s = select i1 %c, float %l, float -7.500000e-01
  %dq = getelementptr double, ptr addrspace(1) %p, i32 %tid
  %dv = load double, ptr addrspace(1) %dq
  %df = call double @llvm.fma.f64(double %dv, double 1.000000e+10, double %d)
  %dm = fmul double %df, 0.1
  %dd = fdiv double %dm, %d
  store double %dd, ptr addrspace(1) %dq
  store float %s, ptr addrspace(1) %q
  ret void
}

; Cross-lane reads, a ballot with a popcount, and a loop whose trip count
; depends on the ballot: wave-level control flow.
define amdgpu_kernel void @lanes(ptr addrspace(1) %p, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %q
  %r = call i32 @llvm.amdgcn.readlane.i32(i32 %v, i32 5)
  %rf = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %v)
  %c = icmp sgt i32 %v, %r
  %b = call i64 @llvm.amdgcn.ballot.i64(i1 %c)
  %pc = call i64 @llvm.ctpop.i64(i64 %b)
  %pc32 = trunc i64 %pc to i32
  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  %hi = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi i32 [ %rf, %entry ], [ %acc.next, %body ]
  %done = icmp sge i32 %i, %pc32
  br i1 %done, label %exit, label %body
body:
  %x = mul i32 %acc, 1664525
  %acc.next = add i32 %x, 1013904223
  %i.next = add i32 %i, 1
  %early = icmp eq i32 %acc.next, %hi
  br i1 %early, label %exit, label %loop
exit:
  %res = phi i32 [ %acc, %loop ], [ %acc.next, %body ]
  store i32 %res, ptr addrspace(1) %q
  %t = call i64 @llvm.readcyclecounter()
  %t32 = trunc i64 %t to i32
  %q2 = getelementptr i32, ptr addrspace(1) %q, i32 1024
  store i32 %t32, ptr addrspace(1) %q2
  ret void
}

; Flat loads and stores at offsets (positive and negative) and a scratch
; array indexed by the thread: private memory.
define amdgpu_kernel void @flatmem(ptr %f, ptr addrspace(1) %out, i32 %k) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i32, ptr %f, i32 %tid
  %a1 = getelementptr i32, ptr %a, i32 100
  %v1 = load i32, ptr %a1
  %a2 = getelementptr i32, ptr %a, i32 -8
  %v2 = load i32, ptr %a2
  %a3 = getelementptr <4 x i32>, ptr %a, i32 2
  %v3 = load <4 x i32>, ptr %a3
  %arr = alloca [64 x i32], align 4, addrspace(5)
  %pi = getelementptr [64 x i32], ptr addrspace(5) %arr, i32 0, i32 %k
  store i32 %v1, ptr addrspace(5) %pi
  %k2 = and i32 %tid, 63
  %pj = getelementptr [64 x i32], ptr addrspace(5) %arr, i32 0, i32 %k2
  %vj = load i32, ptr addrspace(5) %pj
  %e = extractelement <4 x i32> %v3, i32 3
  %s = add i32 %v2, %e
  %s2 = add i32 %s, %vj
  store i32 %s2, ptr %a2
  %a4 = getelementptr i16, ptr %a, i32 3
  %t16 = trunc i32 %s2 to i16
  store i16 %t16, ptr %a4
  %o = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %s2, ptr addrspace(1) %o
  ret void
}
