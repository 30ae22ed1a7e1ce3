; targets: ^gfx(9|10|11|120)
; Typed (MTBUF) and formatted buffer loads and a typed store, which CDNA 5
; no longer has.
target triple = "amdgcn-amd-amdhsa"
declare i32 @llvm.amdgcn.workitem.id.x()
declare <2 x i32> @llvm.amdgcn.raw.tbuffer.load.v2i32(<4 x i32>, i32, i32, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.load.format.i32(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.struct.tbuffer.store.v4f32(<4 x float>, <4 x i32>, i32, i32, i32, i32, i32)
define amdgpu_kernel void @typedbuf(<4 x i32> %rsrc, i32 %soff) {
entry:
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %t = call <2 x i32> @llvm.amdgcn.raw.tbuffer.load.v2i32(<4 x i32> %rsrc, i32 %tid, i32 0, i32 22, i32 0)
  %fm = call i32 @llvm.amdgcn.raw.buffer.load.format.i32(<4 x i32> %rsrc, i32 %tid, i32 32, i32 1)
  %t0 = extractelement <2 x i32> %t, i32 0
  %t1 = extractelement <2 x i32> %t, i32 1
  %s = add i32 %t0, %t1
  %x = add i32 %s, %fm
  %f = bitcast i32 %x to float
  %v0 = insertelement <4 x float> undef, float %f, i32 0
  %v1 = insertelement <4 x float> %v0, float 1.0, i32 1
  %v2 = insertelement <4 x float> %v1, float %f, i32 2
  %v3 = insertelement <4 x float> %v2, float -2.0, i32 3
  call void @llvm.amdgcn.struct.tbuffer.store.v4f32(<4 x float> %v3, <4 x i32> %rsrc, i32 %tid, i32 64, i32 %soff, i32 63, i32 0)
  ret void
}
