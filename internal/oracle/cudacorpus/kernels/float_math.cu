// Single and double precision math: rounding, fast math, min/max with NaN.
__global__ void fmath(float *o, const float *a, const float *b) {
  int i = threadIdx.x;
  float x = a[i], y = b[i];
  float r = __fadd_rn(x, y) + __fmul_rz(x, y) + __fdividef(x, y) + __frcp_rn(y);
  r += __fsqrt_rn(fabsf(x)) + rsqrtf(y) + __expf(x) + __logf(y) + __sinf(x) + __cosf(y);
  r += fmaxf(x, y) + fminf(x, y) + copysignf(x, y) + truncf(r) + floorf(y) + ceilf(x);
  r = __saturatef(r);
  o[i] = fmaf(r, x, y);
}

__global__ void dmath(double *o, const double *a) {
  int i = threadIdx.x;
  double x = a[i];
  o[i] = __dadd_rn(x, 1.0) * __drcp_rn(x) + sqrt(x) + fma(x, x, 2.0) + fmax(x, 0.5) + rint(x);
}

__global__ void fminmax_nan(float *o, const float *a, const float *b) {
#if __CUDA_ARCH__ >= 800
  int i = threadIdx.x;
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a[i]), "f"(b[i]));
  float s;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(s) : "f"(a[i]), "f"(b[i]));
  o[i] = r + s;
#endif
}
