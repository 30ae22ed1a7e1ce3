// bfloat16 arithmetic and conversions.
#include <cuda_bf16.h>
__global__ void bf16_ops(__nv_bfloat16 *o, const __nv_bfloat16 *a, const float *f) {
#if __CUDA_ARCH__ >= 800
  int i = threadIdx.x;
  __nv_bfloat16 x = a[i], y = __float2bfloat16(f[i]);
  __nv_bfloat16 r = __hadd(x, y);
  r = __hfma(r, x, y);
  r = __hmax(r, y);
  o[i] = __hmul(r, x);
#endif
}

__global__ void bf162_ops(__nv_bfloat162 *o, const __nv_bfloat162 *a, const float *f) {
#if __CUDA_ARCH__ >= 800
  int i = threadIdx.x;
  __nv_bfloat162 y = __floats2bfloat162_rn(f[i], f[i + 1]);
  __nv_bfloat162 x = __hfma2(a[i], y, a[i]);
  o[i] = __hmin2(x, y);
#endif
}

__global__ void bf16_cvt(float *o, const __nv_bfloat16 *a, const double *d) {
  int i = threadIdx.x;
  o[i] = __bfloat162float(a[i]) + __bfloat162float(__double2bfloat16(d[i]));
}
