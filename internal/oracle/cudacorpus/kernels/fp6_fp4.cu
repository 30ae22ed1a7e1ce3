// fp6 (e2m3, e3m2), fp4 (e2m1) and e8m0 scale conversions (native on sm_100a/sm_120a, emulated elsewhere).
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
__global__ void fp4_fp6(const float2 *in, __nv_fp4x2_storage_t *o4, __nv_fp6x2_storage_t *o6, float2 *back) {
  int i = threadIdx.x;
  float2 v = in[i];
  o4[i] = __nv_cvt_float2_to_fp4x2(v, __NV_E2M1, cudaRoundNearest);
  o6[i] = __nv_cvt_float2_to_fp6x2(v, __NV_E2M3, cudaRoundNearest);
  o6[i + 64] = __nv_cvt_float2_to_fp6x2(v, __NV_E3M2, cudaRoundNearest);
  __half2_raw h4 = __nv_cvt_fp4x2_to_halfraw2(o4[i], __NV_E2M1);
  __half2_raw h6 = __nv_cvt_fp6x2_to_halfraw2(o6[i], __NV_E2M3);
  back[i] = make_float2(__half2float(__half(__half_raw{h4.x})), __half2float(__half(__half_raw{h6.y})));
}

__global__ void e8m0_scale(const float *in, __nv_fp8_storage_t *o, float *back) {
  int i = threadIdx.x;
  o[i] = __nv_cvt_float_to_e8m0(in[i], __NV_SATFINITE, cudaRoundPosInf);
  __nv_fp8_e8m0 e(in[i]);
  back[i] = float(e);
}
