// Integer arithmetic: bit ops, funnel shifts, mul.hi, byte permutes, dp4a.
__global__ void imath(unsigned *o, const unsigned *a, const unsigned *b, long long *l) {
  int i = threadIdx.x;
  unsigned x = a[i], y = b[i];
  unsigned r = __popc(x) + __clz(y) + __ffs(x) + __brev(y);
  r += __funnelshift_l(x, y, 5) + __funnelshift_r(x, y, 3);
  r += __umulhi(x, y) + __byte_perm(x, y, 0x5410) + __sad(x, y, 1u);
  r += __usad(x, y, 2u) + __vabsdiffu4(x, y);
  l[i] = __mul64hi(l[i], (long long)x) + __popcll(l[i]) + __clzll(l[i]);
  o[i] = r + (x / (y | 1)) + (x % (y | 1));
}

__global__ void dp4a(int *o, const int *a, const int *b) {
#if __CUDA_ARCH__ >= 610
  int i = threadIdx.x;
  o[i] = __dp4a(a[i], b[i], o[i]) + __dp2a_lo(a[i], b[i], 1);
#endif
}
