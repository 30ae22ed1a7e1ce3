// Loads and stores with cache operators (__ldg, __ldcg, __ldcs, __stwb ...), L2 hints and prefetches.
__global__ void cache_ops(const float *in, float *out, const float4 *in4, float4 *out4) {
  int i = threadIdx.x;
  float a = __ldg(in + i) + __ldcg(in + i + 32) + __ldca(in + i + 64) + __ldcs(in + i + 96) + __ldlu(in + i + 128) + __ldcv(in + i + 160);
  float4 v = __ldg(in4 + i);
  float4 w = __ldcs(in4 + i + 32);
  __stwb(out + i, a);
  __stcg(out + i + 32, a);
  __stcs(out + i + 64, a);
  __stwt(out + i + 96, a);
  __stcs(out4 + i, make_float4(v.x + w.x, v.y, v.z, v.w));
}

__global__ void l2_hints(const int *in, int *out) {
  int i = threadIdx.x, v;
  asm volatile("prefetch.global.L2 [%0];" :: "l"(in + i + 256));
  asm volatile("prefetch.global.L1 [%0];" :: "l"(in + i + 512));
  asm volatile("prefetchu.L1 [%0];" :: "l"(in + i + 768));
#if __CUDA_ARCH__ >= 800
  asm volatile("ld.global.L2::128B.b32 %0, [%1];" : "=r"(v) : "l"(in + i));
  asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(in + i + 1024));
  asm volatile("{ .reg .b64 pol; createpolicy.fractional.L2::evict_first.b64 pol, 1.0;\n\t"
               "st.global.L2::cache_hint.b32 [%0], %1, pol; }" :: "l"(out + i), "r"(v));
#else
  v = in[i];
  out[i] = v;
#endif
  asm volatile("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(v) : "l"(in + i + 32));
  out[i + 32] = v;
}
