// The single-precision math library: transcendental, special and classification functions.
__global__ void f32_lib(const float *a, float *o, int *k) {
  int i = threadIdx.x;
  float x = a[i];
  float s, c, ip;
  sincosf(x, &s, &c);
  o[i] = expf(x) + exp2f(x) + expm1f(x) + logf(x) + log1pf(x) + log2f(x) + powf(x, 1.5f);
  o[i + 64] = sinf(x) + cosf(x) + tanf(x) + asinf(x) + acosf(x) + atanf(x) + sinhf(x) + tanhf(x) + s + c;
  o[i + 128] = erff(x) + erfcf(x) + lgammaf(x) + tgammaf(x) + erfinvf(x) + normcdff(x) + j0f(x);
  o[i + 192] = fmodf(x, 2.0f) + remainderf(x, 3.0f) + cbrtf(x) + hypotf(x, 2.0f) + modff(x, &ip) + ip;
  k[i] = isnan(x) + isinf(x) * 2 + signbit(x) * 4 + ilogbf(x) + lrintf(x) + (int)llroundf(x);
}
