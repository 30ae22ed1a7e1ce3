// cvt.rn.f16x2.f32 and half2 packing (sm_80 for the packed conversion).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void pack(__half2 *o, __nv_bfloat162 *ob, const float *f) {
  int i = threadIdx.x;
  o[i] = __floats2half2_rn(f[i], f[i + 1]);
  ob[i] = __floats2bfloat162_rn(f[i], f[i + 2]);
  __half2 h = __float2half2_rn(f[i]);
  o[i + 64] = __hmax2(h, o[i]);
}

__global__ void relu(__half *o, const __half *a, const __half *b) {
#if __CUDA_ARCH__ >= 800
  int i = threadIdx.x;
  o[i] = __hmax_nan(a[i], b[i]);
  o[i + 1] = __hmin(a[i], __float2half(0.0f));
#endif
}
