// bfloat16 math functions and packed bf16x2 arithmetic (native from sm_80, sm_90 for more).
#include <cuda_bf16.h>
__global__ void bf16_funcs(__nv_bfloat16 *b) {
  int i = threadIdx.x;
  __nv_bfloat16 x = b[i], y = b[i + 64];
  __nv_bfloat16 r = hsqrt(x) + hrsqrt(y) + hexp(x) + hlog(y) + hsin(x) + hcos(y) + hrcp(x);
  r = r + __hadd_sat(x, y) + __hmul(x, y) + __hsub(x, y) + __hneg(x) + __habs(y);
  r = r + __hmax(x, y) + __hmin(x, y) + __hmax_nan(x, y) + hceil(x) + hfloor(y) + htrunc(x) + hrint(y);
#if __CUDA_ARCH__ >= 800
  r = __hfma_relu(r, x, y) + __hfma(r, x, y);
#endif
  b[i] = (__hgt(x, y) || __hisnan(y)) ? r : __hdiv(x, y);
}

__global__ void bf16x2_funcs(__nv_bfloat162 *b) {
  int i = threadIdx.x;
  __nv_bfloat162 a = b[i], c = b[i + 64];
  __nv_bfloat162 r = __hadd2(a, c) + __hmul2(a, c) + __hsub2_sat(a, c);
  r = r + __hmax2(a, c) + __hmin2_nan(a, c) + h2sqrt(a) + h2exp(c) + h2rint(a) + __habs2(c);
#if __CUDA_ARCH__ >= 800
  r = __hfma2_relu(r, a, c) + __hcmadd(a, c, r) + __hfma2(a, c, a);
#endif
  b[i] = __h2div(r, c);
}
