// Shuffles of 64-bit, double, half2 and bf16 values and sub-warp widths.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void shfl_wide(double *d, long long *l, unsigned long long *u) {
  int i = threadIdx.x;
  double x = d[i];
  long long y = l[i];
  unsigned long long z = u[i];
  x += __shfl_down_sync(0xffffffffu, x, 1);
  y += __shfl_xor_sync(0xffffffffu, y, 2, 16);
  z ^= __shfl_up_sync(0xffffffffu, z, 3, 8);
  d[i] = x + __shfl_sync(0xffffffffu, x, 5, 4);
  l[i] = y;
  u[i] = z;
}

__global__ void shfl_half(__half2 *h, __nv_bfloat16 *b, float *f) {
  int i = threadIdx.x;
  __half2 v = h[i];
  v = __hadd2(v, __shfl_xor_sync(0xffffffffu, v, 1));
  __nv_bfloat16 w = __shfl_down_sync(0xffffffffu, b[i], 2);
  float g = __shfl_up_sync(0xffffffffu, f[i], 1, 2);
  h[i] = v;
  b[i] = w;
  f[i] = g;
}
