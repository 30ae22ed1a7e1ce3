// Inline PTX: predicates, prmt, bfe/bfi, lop3, vector loads and fences.
__global__ void inline_bits(unsigned *o, const unsigned *a) {
  unsigned x = a[threadIdx.x], r, e, f;
  asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(r) : "r"(x), "r"(x >> 3));
  asm("bfe.u32 %0, %1, 4, 8;" : "=r"(e) : "r"(x));
  asm("bfi.b32 %0, %1, %2, 8, 4;" : "=r"(f) : "r"(e), "r"(x));
  unsigned l;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(l) : "r"(x), "r"(e), "r"(f));
  asm volatile("fence.acq_rel.gpu;");
  asm volatile("membar.sys;");
  o[threadIdx.x] = r + e + f + l;
}

__global__ void inline_ld(float4 *o, const float4 *in) {
  float a, b, c, d;
  asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(in + threadIdx.x));
  asm volatile("st.global.wb.v4.f32 [%0], {%1,%2,%3,%4};" :: "l"(o + threadIdx.x), "f"(a), "f"(b), "f"(c), "f"(d));
}
