// fp8 (e4m3, e5m2) conversions.
#include <cuda_fp8.h>
__global__ void fp8_to_float(float *o, const __nv_fp8_e4m3 *a, const __nv_fp8_e5m2 *b) {
  int i = threadIdx.x;
  o[i] = float(a[i]) + float(b[i]);
}

__global__ void float_to_fp8(__nv_fp8_e4m3 *o, __nv_fp8x2_e5m2 *o2, const float *f) {
  int i = threadIdx.x;
  o[i] = __nv_fp8_e4m3(f[i]);
  o2[i] = __nv_fp8x2_e5m2(make_float2(f[i], f[i + 1]));
}
