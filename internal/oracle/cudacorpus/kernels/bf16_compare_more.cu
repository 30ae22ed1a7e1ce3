// Held-out bf16 and half comparisons and conversions: NaN/Inf tests, ordered and unordered
// compares, saturating and rounding conversions (nvcc writes them as scoped inline-PTX blocks).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
__global__ void bf16_tests(__nv_bfloat16 *b, int *flags, float *f) {
  int i = threadIdx.x;
  __nv_bfloat16 x = b[i], y = b[i + 64];
  int c = __hisnan(x) + 2 * __hisnan(y) + 4 * __hisinf(x);
  c += __hgtu(x, y) + __hltu(x, y) + __hneu(x, y) + __heq(x, y);
  flags[i] = c;
  f[i] = __bfloat162float(__hmax(x, y)) + __bfloat162float(__float2bfloat16_rz(f[i]));
  __nv_bfloat162 p = __halves2bfloat162(x, y);
  flags[i + 64] = __hisnan2(p).x != __nv_bfloat16(0.0f);
}

__global__ void half_convs(__half *h, float *f, double *d, short *s) {
  int i = threadIdx.x;
  __half x = __float2half_rd(f[i]) + __float2half_ru(f[i + 1]) + __double2half(d[i]);
  s[i] = __half2short_rz(x) + __half2short_rn(h[i]);
  h[i] = __hadd_rn(x, __ushort2half_rn((unsigned short)s[i + 1]));
  f[i] = __half2float(hexp2(x)) + __half2float(htanh_approx(h[i + 1]));
}
