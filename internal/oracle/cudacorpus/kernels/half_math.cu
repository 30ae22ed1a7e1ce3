// Half-precision arithmetic and conversions.
#include <cuda_fp16.h>
__global__ void half_ops(__half *o, const __half *a, const __half *b, float *of) {
  int i = threadIdx.x;
  __half x = a[i], y = b[i];
  __half r = __hadd(x, y);
  r = __hmul(r, y);
  r = __hfma(r, x, y);
  r = __hmax(r, x);
  r = __hmin(r, y);
  r = __hneg(r);
  r = __habs(r);
  o[i] = r;
  of[i] = __half2float(r) + __half2float(__hsub(x, y));
}

__global__ void half2_ops(__half2 *o, const __half2 *a, const float *f) {
  int i = threadIdx.x;
  __half2 x = a[i];
  __half2 y = __floats2half2_rn(f[i], f[i + 1]);
  x = __hfma2(x, y, x);
  x = __hmax2(x, y);
  x = __hadd2_sat(x, y);
  o[i] = __hmul2(x, y);
}

__global__ void half_cmp(int *o, const __half *a, const __half *b) {
  int i = threadIdx.x;
  o[i] = __hlt(a[i], b[i]) + __hge(a[i], b[i]) * 2 + __hisnan(a[i]) * 4;
}
