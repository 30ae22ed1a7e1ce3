// Double precision: rounding intrinsics, reciprocal and square root, library functions.
__global__ void f64_rounding(const double *a, const double *b, double *o) {
  int i = threadIdx.x;
  double x = a[i], y = b[i];
  o[i] = __dadd_rn(x, y) + __dadd_rz(x, y) + __dadd_ru(x, y) + __dadd_rd(x, y);
  o[i + 64] = __dmul_rn(x, y) + __dmul_rz(x, y) + __dmul_ru(x, y) + __dmul_rd(x, y);
  o[i + 128] = __fma_rn(x, y, x) + __fma_rz(x, y, x) + __fma_ru(x, y, x) + __fma_rd(x, y, x);
  o[i + 192] = __drcp_rn(x) + __drcp_rz(y) + __dsqrt_rn(x) + __dsqrt_rd(y) + __ddiv_rn(x, y) + __ddiv_ru(x, y);
}

__global__ void f64_lib(const double *a, double *o) {
  int i = threadIdx.x;
  double x = a[i];
  double s, c;
  sincos(x, &s, &c);
  int e;
  o[i] = exp(x) + log(x) + sin(x) + cos(x) + tan(x) + s + c + rsqrt(x) + cbrt(x);
  o[i + 64] = frexp(x, &e) + ldexp(x, e) + fmod(x, 3.0) + remainder(x, 2.0) + hypot(x, 1.0) + atan2(x, 2.0);
  o[i + 128] = floor(x) + ceil(x) + trunc(x) + round(x) + rint(x) + fmin(x, 1.0) + fmax(x, 2.0) + fabs(x);
}
