; targets: ^gfx(950|1250)
; A three-input bit operation llc-22 selects as v_bitop3_b32 on gfx950 and gfx1250 (its BITOP3 immediate lives in the VOP3 modifier bits). Written for the listing tests.
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @bitop3(ptr addrspace(1) %out, i32 %a, i32 %b, i32 %c) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %x = xor i32 %id, %a
  %na = xor i32 %x, -1
  %t1 = and i32 %x, %b
  %t2 = and i32 %na, %c
  %r = or i32 %t1, %t2
  %r2 = xor i32 %r, 32
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %r2, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
