// Integer intrinsics: bit reverse, count leading zeros, find first set, popcount, funnel shifts, 24-bit and high multiplies, averages.
__global__ void int_bits(const unsigned *a, const unsigned long long *b, unsigned *o) {
  int i = threadIdx.x;
  unsigned x = a[i];
  unsigned long long y = b[i];
  o[i] = __brev(x) + (unsigned)__brevll(y) + __clz(x) + __clzll(y) + __ffs(x) + __ffsll(y);
  o[i + 64] = __popc(x) + __popcll(y) + __byte_perm(x, x >> 3, 0x3210) + __funnelshift_l(x, x >> 1, 5) + __funnelshift_rc(x, x, 40);
  o[i + 128] = __mul24((int)x, 3) + __umul24(x, 5u) + __mulhi((int)x, 7) + __umulhi(x, 9u) + (unsigned)__umul64hi(y, y) + (unsigned)__mul64hi((long long)y, 3);
  o[i + 192] = __sad((int)x, 4, 1u) + __usad(x, 3u, 2u) + __rhadd((int)x, 1) + __uhadd(x, 2u) + __urhadd(x, 3u) + __hadd((int)x, 5);
}

__global__ void int_wide(const __int128 *a, const unsigned __int128 *b, __int128 *o, unsigned __int128 *p) {
  int i = threadIdx.x;
  __int128 x = a[i];
  unsigned __int128 y = b[i];
  o[i] = x * x + (x >> 7) - (x << 3) + (x / 13) + (x % 5);
  p[i] = y * y + (y >> 65) + (y / 7u) + (y ^ (y << 17));
}
