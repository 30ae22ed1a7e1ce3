; targets: ^gfx950
; CDNA 4 matrix operations: the 16x16x32 bf16 and f16 MFMAs (cbsz/blgp
; set on one) and a permlane32 swap. (The scaled f8f6f4 MFMAs, 4-dword
; words the CDNA 4 guide's opcode tables do not list: mfma-scale-gfx950.ll.)
target triple = "amdgcn-amd-amdhsa"
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat>, <8 x bfloat>, <4 x float>, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half>, <8 x half>, <4 x float>, i32, i32, i32)
declare { i32, i32 } @llvm.amdgcn.permlane32.swap(i32, i32, i1, i1)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @mfma_gfx950(ptr addrspace(1) %p) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %qa = getelementptr <8 x i32>, ptr addrspace(1) %p, i32 %tid
  %a = load <8 x i32>, ptr addrspace(1) %qa
  %qb = getelementptr <8 x i32>, ptr addrspace(1) %qa, i32 64
  %b = load <8 x i32>, ptr addrspace(1) %qb
  %qc = getelementptr <4 x float>, ptr addrspace(1) %p, i32 %tid
  %c = load <4 x float>, ptr addrspace(1) %qc
  %hb = bitcast <8 x i32> %a to <16 x bfloat>
  %h8 = shufflevector <16 x bfloat> %hb, <16 x bfloat> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>
  %r4 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.bf16(<8 x bfloat> %h8, <8 x bfloat> %h8, <4 x float> %c, i32 0, i32 0, i32 0)
  %hh = bitcast <8 x i32> %b to <16 x half>
  %g8 = shufflevector <16 x half> %hh, <16 x half> poison, <8 x i32> <i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15>
  %r5 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.f16(<8 x half> %g8, <8 x half> %g8, <4 x float> %r4, i32 1, i32 0, i32 2)
  store <4 x float> %r5, ptr addrspace(1) %qc
  %x = extractelement <8 x i32> %a, i32 0
  %y = extractelement <8 x i32> %b, i32 1
  %sw = call { i32, i32 } @llvm.amdgcn.permlane32.swap(i32 %x, i32 %y, i1 false, i1 false)
  %s0 = extractvalue { i32, i32 } %sw, 0
  %s1 = extractvalue { i32, i32 } %sw, 1
  %s = add i32 %s0, %s1
  %qs = getelementptr i32, ptr addrspace(1) %p, i32 %tid
  store i32 %s, ptr addrspace(1) %qs
  ret void
}
