; Three small kernels written for gpuisa's decoder tests: llc-22 compiles them for
; every family and the decoder must read the code object as llvm-objdump-22
; does (TestCompiledKernels). They use global and LDS memory, a barrier, a
; branch, a loop, f64, f16 and integer min/max, DPP, readfirstlane, atomics,
; packed f16 FMA, ctlz, rcp and s_sleep.
target triple = "amdgcn-amd-amdhsa"

@lds = internal addrspace(3) global [256 x float] undef, align 4

declare i32 @llvm.amdgcn.workitem.id.x()
declare float @llvm.fma.f32(float, float, float)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.sqrt.f32(float)
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @saxpy(ptr addrspace(1) %x, ptr addrspace(1) %y, float %a, i32 %n) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %px = getelementptr float, ptr addrspace(1) %x, i32 %tid
  %py = getelementptr float, ptr addrspace(1) %y, i32 %tid
  %vx = load float, ptr addrspace(1) %px
  %vy = load float, ptr addrspace(1) %py
  %r = call float @llvm.fma.f32(float %a, float %vx, float %vy)
  %m = call float @llvm.maxnum.f32(float %r, float 0.0)
  %s = call float @llvm.sqrt.f32(float %m)
  %pl = getelementptr [256 x float], ptr addrspace(3) @lds, i32 0, i32 %tid
  store float %s, ptr addrspace(3) %pl
  call void @llvm.amdgcn.s.barrier()
  %t2 = xor i32 %tid, 1
  %pl2 = getelementptr [256 x float], ptr addrspace(3) @lds, i32 0, i32 %t2
  %o = load float, ptr addrspace(3) %pl2
  %sum = fadd float %s, %o
  %c = icmp slt i32 %tid, %n
  br i1 %c, label %store, label %done
store:
  store float %sum, ptr addrspace(1) %py
  br label %done
done:
  ret void
}

define amdgpu_kernel void @reduce(ptr addrspace(1) %in, ptr addrspace(1) %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %loop ]
  %h = phi half [ 0.0, %entry ], [ %h.next, %loop ]
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %p
  %sh = shl i32 %v, 3
  %mx = call i32 @llvm.smax.i32(i32 %sh, i32 %v)
  %f = sitofp i32 %mx to double
  %acc.next = fadd double %acc, %f
  %hv = sitofp i32 %v to half
  %h.next = fmul half %h, %hv
  %i.next = add i32 %i, 1
  %c = icmp ult i32 %i.next, %n
  br i1 %c, label %loop, label %exit
exit:
  store double %acc.next, ptr addrspace(1) %out
  %o2 = getelementptr half, ptr addrspace(1) %out, i32 8
  store half %h.next, ptr addrspace(1) %o2
  ret void
}
declare i32 @llvm.smax.i32(i32, i32)

declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
declare i32 @llvm.amdgcn.readfirstlane.i32(i32)
declare <2 x half> @llvm.fma.v2f16(<2 x half>, <2 x half>, <2 x half>)
declare float @llvm.amdgcn.rcp.f32(float)
declare i32 @llvm.ctlz.i32(i32, i1)
declare void @llvm.amdgcn.s.sleep(i32)

define amdgpu_kernel void @mixed(ptr addrspace(1) %p, ptr addrspace(1) %q, <2 x half> %h, float %f) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  %v = load i32, ptr addrspace(1) %a
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %v, i32 273, i32 15, i32 15, i1 false)
  %s = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %d)
  %old = atomicrmw add ptr addrspace(1) %q, i32 %s seq_cst
  %z = call i32 @llvm.ctlz.i32(i32 %old, i1 false)
  %hp = getelementptr <2 x half>, ptr addrspace(1) %p, i32 %z
  %hv = load <2 x half>, ptr addrspace(1) %hp
  %hr = call <2 x half> @llvm.fma.v2f16(<2 x half> %hv, <2 x half> %h, <2 x half> %hv)
  store <2 x half> %hr, ptr addrspace(1) %hp
  %fv = sitofp i32 %z to float
  %r = call float @llvm.amdgcn.rcp.f32(float %fv)
  %m = fmul float %r, %f
  %fp = getelementptr float, ptr addrspace(1) %q, i32 %tid
  store float %m, ptr addrspace(1) %fp
  call void @llvm.amdgcn.s.sleep(i32 2)
  %x = atomicrmw fmax ptr addrspace(1) %fp, float %m syncscope("agent") monotonic
  ret void
}
