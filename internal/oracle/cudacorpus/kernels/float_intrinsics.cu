// Single-precision intrinsics with explicit rounding, fast approximations and saturation.
__global__ void f32_rounding(const float *a, const float *b, float *o) {
  int i = threadIdx.x;
  float x = a[i], y = b[i];
  o[i] = __fadd_rn(x, y) + __fadd_rz(x, y) + __fadd_ru(x, y) + __fadd_rd(x, y);
  o[i + 64] = __fmul_rn(x, y) + __fmul_rz(x, y) + __fmul_ru(x, y) + __fmul_rd(x, y);
  o[i + 128] = __fmaf_rn(x, y, x) + __fmaf_rz(x, y, x) + __fmaf_ru(x, y, x) + __fmaf_rd(x, y, x);
  o[i + 192] = __frcp_rn(x) + __frcp_rz(y) + __fsqrt_rn(x) + __fsqrt_ru(y) + __frsqrt_rn(x);
  o[i + 256] = __fdiv_rn(x, y) + __fdiv_rz(x, y) + __fdiv_ru(x, y) + __fdiv_rd(x, y) + __fsub_rn(x, y);
}

__global__ void f32_fast(const float *a, float *o) {
  int i = threadIdx.x;
  float x = a[i];
  float s, c;
  __sincosf(x, &s, &c);
  o[i] = __expf(x) + __exp10f(x) + __logf(x) + __log2f(x) + __log10f(x) + __powf(x, 2.5f);
  o[i + 64] = __sinf(x) + __cosf(x) + __tanf(x) + s + c + __fdividef(x, 3.0f) + __saturatef(x);
  o[i + 128] = rsqrtf(x) + sqrtf(x) + fabsf(x) + copysignf(x, -1.0f) + fminf(x, 1.0f) + fmaxf(x, 0.0f);
}
