; LDS atomics and swizzles, cross-lane reads, a 64-bit compare-and-swap
; and a nested loop with an early exit: more control flow and memory for
; the listing test.
target triple = "amdgcn-amd-amdhsa"
@tile = internal addrspace(3) global [512 x i32] undef, align 4
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)
declare i32 @llvm.amdgcn.readlane.i32(i32, i32)
declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)
declare void @llvm.amdgcn.s.barrier()

define amdgpu_kernel void @lds(ptr addrspace(1) %out, ptr addrspace(1) %q, i32 %n, i64 %cmp) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr [512 x i32], ptr addrspace(3) @tile, i32 0, i32 %tid
  store i32 %tid, ptr addrspace(3) %p
  call void @llvm.amdgcn.s.barrier()
  %old = atomicrmw add ptr addrspace(3) %p, i32 7 seq_cst
  %sw = call i32 @llvm.amdgcn.ds.swizzle(i32 %old, i32 31)
  %lane = call i32 @llvm.amdgcn.readlane.i32(i32 %sw, i32 3)
  %mb = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %check ]
  %acc = phi i32 [ %lane, %entry ], [ %acc2, %check ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %a = phi i32 [ %acc, %outer ], [ %a.next, %inner ]
  %x = xor i32 %a, %j
  %a.next = mul i32 %x, 17
  %j.next = add i32 %j, 1
  %done = icmp eq i32 %j.next, %mb
  br i1 %done, label %outer.latch, label %inner
outer.latch:
  %acc2 = add i32 %a.next, %i
  %i.next = add i32 %i, 1
  %early = icmp eq i32 %acc2, 12345
  br i1 %early, label %exit, label %check
check:
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %outer, label %exit
exit:
  %r = phi i32 [ %acc2, %outer.latch ], [ %acc2, %check ]
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %tid
  store i32 %r, ptr addrspace(1) %po
  %pair = cmpxchg ptr addrspace(1) %q, i64 %cmp, i64 42 seq_cst seq_cst
  %v = extractvalue { i64, i1 } %pair, 0
  %pq = getelementptr i64, ptr addrspace(1) %q, i32 1
  store i64 %v, ptr addrspace(1) %pq
  ret void
}
