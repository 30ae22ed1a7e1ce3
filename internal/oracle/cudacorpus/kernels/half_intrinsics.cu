// Half-precision math functions, comparisons, relu and NaN-propagating min/max, packed half2 ops.
#include <cuda_fp16.h>
__global__ void half_funcs(__half *h, int n) {
  int i = threadIdx.x;
  __half x = h[i], y = h[i + n];
  __half r = hsqrt(x) + hrsqrt(y) + hexp(x) + hlog(y) + hsin(x) + hcos(y) + hrcp(x);
  r = __hadd(r, hexp2(x)) + hlog2(y) + hexp10(x) + hlog10(y) + hceil(x) + hfloor(y) + htrunc(x) + hrint(y);
  r = __hfma(r, x, y) + __hfma_sat(x, y, r) + __hmul_sat(x, y) + __hneg(x) + __habs(y);
#if __CUDA_ARCH__ >= 800
  r = __hfma_relu(r, x, y) + __hmax_nan(x, y) + __hmin_nan(x, y);
#endif
  r = r + __hmax(x, y) + __hmin(x, y);
  bool c = __hgt(x, y) || __hle(x, y) || __hequ(x, y) || __hisnan(x) || __hisinf(y);
  h[i] = c ? r : __hdiv(x, y);
}

__global__ void half2_funcs(__half2 *h, unsigned *mask) {
  int i = threadIdx.x;
  __half2 a = h[i], b = h[i + 32];
  __half2 r = h2sqrt(a) + h2exp(b) + h2log(a) + h2sin(b) + h2cos(a) + h2rcp(b) + h2rint(a);
  r = __hfma2(r, a, b) + __hmul2_sat(a, b) + __hsub2(a, b) + __habs2(a) + __hneg2(b);
#if __CUDA_ARCH__ >= 800
  r = __hfma2_relu(r, a, b) + __hmax2_nan(a, b) + __hcmadd(a, b, r);
#endif
  r = __h2div(r, a) + __hmax2(a, b) + __hmin2(a, b) + __lowhigh2highlow(a);
  mask[i] = __hgt2_mask(a, b) ^ __hle2_mask(a, b);
  h[i] = __hbeq2(a, b) ? r : __hge2(a, b);
}
