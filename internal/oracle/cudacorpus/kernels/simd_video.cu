// SIMD-in-a-word intrinsics on 2x16 and 4x8 lanes, and the dot products of 4 bytes and 2 shorts (sm_61+).
__global__ void simd_ops(const unsigned *a, const unsigned *b, unsigned *o) {
  int i = threadIdx.x;
  unsigned x = a[i], y = b[i];
  o[i] = __vabsdiffu4(x, y) + __vadd2(x, y) + __vadd4(x, y) + __vsub2(x, y) + __vsub4(x, y);
  o[i + 64] = __vcmpeq2(x, y) + __vcmpgtu4(x, y) + __vcmples2(x, y) + __vmaxs4(x, y) + __vminu2(x, y);
  o[i + 128] = __vavgu2(x, y) + __vavgs4(x, y) + __vhaddu4(x, y) + __vsads2(x, y) + __vsadu4(x, y);
  o[i + 192] = __vabs2(x) + __vabsss4(y) + __vaddss2(x, y) + __vsubus4(x, y) + __vneg2(x) + __vseteq4(x, y);
}

__global__ void dot_products(const int *a, const int *b, const unsigned *c, int *o) {
  int i = threadIdx.x;
  o[i] = __dp4a(a[i], b[i], 0) + __dp4a(c[i], c[i + 1], 3u) + __dp2a_lo(a[i], b[i], 1) + __dp2a_hi(c[i], c[i], 2u);
}
