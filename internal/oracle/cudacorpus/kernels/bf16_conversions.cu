// bfloat16 conversions: from float and double with rounding, integers, packed pairs and reinterpretation.
#include <cuda_bf16.h>
__global__ void bf16_cvt(const float *f, const double *d, const int *k, __nv_bfloat16 *b, int *oi, float2 *f2) {
  int i = threadIdx.x;
  float x = f[i];
  b[i] = __float2bfloat16_rn(x) + __float2bfloat16_rz(x) + __float2bfloat16_ru(x) + __float2bfloat16_rd(x) + __double2bfloat16(d[i]);
  b[i + 64] = __int2bfloat16_rn(k[i]) + __int2bfloat16_rz(k[i]) + __uint2bfloat16_rn((unsigned)k[i]) + __short2bfloat16_rn((short)k[i]) + __ll2bfloat16_rn(k[i]);
  __nv_bfloat16 y = b[i];
  oi[i] = __bfloat162int_rn(y) + __bfloat162int_rz(y) + __bfloat162uint_rz(y) + __bfloat162short_rn(y) + __bfloat16_as_short(y) + (int)__bfloat162ll_rz(y);
  __nv_bfloat162 p = __floats2bfloat162_rn(x, 2.0f * x);
  __nv_bfloat162 q = __float22bfloat162_rn(make_float2(x, 1.0f));
  f2[i] = __bfloat1622float2(p);
  f2[i + 64] = make_float2(__low2float(q), __high2float(q) + __bfloat162float(y));
}
