// fp8 storage types (e4m3, e5m2): x2 and x4 packs, saturation, half2 and bf16 conversions (native cvt from sm_89).
#include <cuda_fp8.h>
__global__ void fp8_packs(const float4 *in, __nv_fp8x4_e4m3 *o4, __nv_fp8x2_e5m2 *o2, float *back) {
  int i = threadIdx.x;
  float4 v = in[i];
  __nv_fp8x4_e4m3 p(v);
  o4[i] = p;
  __nv_fp8x2_e5m2 q(make_float2(v.x, v.y));
  o2[i] = q;
  float2 f = float2(q);
  __half2 h = __half2(q);
  back[i] = f.x + f.y + __low2float(h) + float(__nv_fp8_e4m3(v.z));
}

__global__ void fp8_raw(const __half2_raw *h, const __nv_bfloat162 *b, __nv_fp8x2_storage_t *o, __half2_raw *ho) {
  int i = threadIdx.x;
  o[i] = __nv_cvt_halfraw2_to_fp8x2(h[i], __NV_SATFINITE, __NV_E4M3);
  o[i + 64] = __nv_cvt_bfloat16raw2_to_fp8x2(*(const __nv_bfloat162_raw *)&b[i], __NV_NOSAT, __NV_E5M2);
  o[i + 128] = __nv_cvt_float2_to_fp8x2(make_float2(1.0f, -2.0f), __NV_SATFINITE, __NV_E5M2);
  ho[i] = __nv_cvt_fp8x2_to_halfraw2(o[i], __NV_E4M3);
  __nv_fp8_storage_t s = __nv_cvt_double_to_fp8(3.0, __NV_SATFINITE, __NV_E4M3);
  ho[i + 64] = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)s, __NV_E5M2);
}
