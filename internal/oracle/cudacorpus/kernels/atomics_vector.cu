// Vector float atomics (float2/float4 adds, sm_90) and red/atom through inline PTX with semantics and scopes.
__global__ void atomics_vec(float2 *f2, float4 *f4, float *f) {
#if __CUDA_ARCH__ >= 900
  atomicAdd(f2, make_float2(1.0f, 2.0f));
  atomicAdd(f4, make_float4(1.0f, 2.0f, 3.0f, 4.0f));
#endif
  atomicAdd(f, 1.0f);
}

__global__ void red_inline(unsigned *u, unsigned long long *ul, float *f) {
  asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" :: "l"(u), "r"(1u) : "memory");
  asm volatile("red.release.sys.global.or.b32 [%0], %1;" :: "l"(u + 1), "r"(2u) : "memory");
  asm volatile("red.global.add.u64 [%0], %1;" :: "l"(ul), "l"(3ull) : "memory");
  asm volatile("red.global.add.f32 [%0], %1;" :: "l"(f), "f"(1.0f) : "memory");
  unsigned old;
  asm volatile("atom.acquire.gpu.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "l"(u + 2), "r"(10u) : "memory");
  asm volatile("atom.acq_rel.cta.global.exch.b32 %0, [%1], %2;" : "=r"(old) : "l"(u + 3), "r"(old) : "memory");
  unsigned long long o64;
  asm volatile("atom.relaxed.sys.global.cas.b64 %0, [%1], %2, %3;" : "=l"(o64) : "l"(ul + 1), "l"(0ull), "l"(1ull) : "memory");
  u[4] = old + (unsigned)o64;
}
