; targets: ^gfx(94|95)
; CDNA 3-4 matrix operations: fp8 and xf32-free MFMAs, an 8-bit integer
; MFMA, f64 MFMA, a sparse SMFMAC with its index operand, and cbsz/abid/blgp
; modifiers.
target triple = "amdgcn-amd-amdhsa"
declare <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8(i64, i64, <4 x float>, i32, i32, i32)
declare <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf8.fp8(i64, i64, <16 x float>, i32, i32, i32)
declare <4 x i32> @llvm.amdgcn.mfma.i32.16x16x32.i8(i64, i64, <4 x i32>, i32, i32, i32)
declare double @llvm.amdgcn.mfma.f64.4x4x4f64(double, double, double, i32, i32, i32)
declare <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double, double, <4 x double>, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.smfmac.f32.16x16x32.f16(<4 x half>, <8 x half>, <4 x float>, i32, i32, i32)
declare <4 x float> @llvm.amdgcn.mfma.f32.4x4x4f16(<4 x half>, <4 x half>, <4 x float>, i32, i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @mfma_cdna3(ptr addrspace(1) %p, i64 %a, i64 %b, double %d, i32 %idx) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %q4 = getelementptr <4 x float>, ptr addrspace(1) %p, i32 %tid
  %c4 = load <4 x float>, ptr addrspace(1) %q4
  %r1 = call <4 x float> @llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8(i64 %a, i64 %b, <4 x float> %c4, i32 0, i32 0, i32 0)
  %q16 = getelementptr <16 x float>, ptr addrspace(1) %p, i32 %tid
  %c16 = load <16 x float>, ptr addrspace(1) %q16
  %r2 = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x16.bf8.fp8(i64 %a, i64 %b, <16 x float> %c16, i32 1, i32 2, i32 3)
  store <16 x float> %r2, ptr addrspace(1) %q16
  %qi = getelementptr <4 x i32>, ptr addrspace(1) %p, i32 %tid
  %ci = load <4 x i32>, ptr addrspace(1) %qi
  %r3 = call <4 x i32> @llvm.amdgcn.mfma.i32.16x16x32.i8(i64 %a, i64 %b, <4 x i32> %ci, i32 0, i32 0, i32 0)
  store <4 x i32> %r3, ptr addrspace(1) %qi
  %r4 = call double @llvm.amdgcn.mfma.f64.4x4x4f64(double %d, double %d, double 1.0, i32 0, i32 0, i32 0)
  %qd = getelementptr <4 x double>, ptr addrspace(1) %p, i32 %tid
  %cd = load <4 x double>, ptr addrspace(1) %qd
  %r5 = call <4 x double> @llvm.amdgcn.mfma.f64.16x16x4f64(double %d, double %r4, <4 x double> %cd, i32 0, i32 0, i32 1)
  store <4 x double> %r5, ptr addrspace(1) %qd
  %h = bitcast i64 %a to <4 x half>
  %hb = insertelement <2 x i64> undef, i64 %b, i32 0
  %hb2 = insertelement <2 x i64> %hb, i64 %a, i32 1
  %h8 = bitcast <2 x i64> %hb2 to <8 x half>
  %r6 = call <4 x float> @llvm.amdgcn.smfmac.f32.16x16x32.f16(<4 x half> %h, <8 x half> %h8, <4 x float> %r1, i32 %idx, i32 0, i32 1)
  %r7 = call <4 x float> @llvm.amdgcn.mfma.f32.4x4x4f16(<4 x half> %h, <4 x half> %h, <4 x float> %r6, i32 4, i32 1, i32 0)
  store <4 x float> %r7, ptr addrspace(1) %q4
  ret void
}
