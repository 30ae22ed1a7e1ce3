// Half conversions with every rounding: to and from float, double and integers of each width, and reinterpretation.
#include <cuda_fp16.h>
__global__ void half_cvt(const float *f, const double *d, const int *k, __half *h, int *oi, float2 *f2) {
  int i = threadIdx.x;
  float x = f[i];
  h[i] = __float2half_rn(x) + __float2half_rz(x) + __float2half_ru(x) + __float2half_rd(x) + __double2half(d[i]);
  h[i + 64] = __int2half_rn(k[i]) + __int2half_rz(k[i]) + __uint2half_ru((unsigned)k[i]) + __short2half_rd((short)k[i]) + __ll2half_rn(k[i]) + __ushort2half_rn((unsigned short)k[i]);
  __half y = h[i];
  oi[i] = __half2int_rn(y) + __half2int_rz(y) + __half2uint_ru(y) + __half2short_rd(y) + (int)__half2ll_rz(y) + __half2ushort_rn(y) + __half_as_short(y) + __half_as_ushort(y);
  __half2 p = __floats2half2_rn(x, x * 2.0f);
  __half2 q = __float22half2_rn(make_float2(x, 1.0f));
  f2[i] = __half22float2(__hadd2(p, q));
  oi[i + 64] = __half2int_rn(__low2half(p)) + __half2int_rn(__high2half(q)) + (int)__half2char_rz(y) + (int)__half2uchar_rz(y);
}
