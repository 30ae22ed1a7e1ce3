// mma.sync shapes and types through inline PTX: tf32 m16n8k8, f64 m8n8k4, s8 m16n8k32, s4 m16n8k64, b1 m16n8k256, e4m3 m16n8k32 (sm_89), sparse f16.
__global__ void mma_types(const unsigned *a, const unsigned *b, float *f, int *s, double *d) {
#if __CUDA_ARCH__ >= 800
  int i = threadIdx.x;
  unsigned a0 = a[i], a1 = a[i + 32], a2 = a[i + 64], a3 = a[i + 96], b0 = b[i], b1 = b[i + 32];
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  int s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k64.row.col.satfinite.s32.u4.s4.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+r"(s0), "+r"(s1), "+r"(s2), "+r"(s3) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  double d0 = d[i], d1 = d[i + 32];
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(d0), "+d"(d1) : "d"(d[i + 64]), "d"(d[i + 96]));
  unsigned e = a[i + 128];
  asm volatile("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, 0x0;"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3) : "r"(a0), "r"(a1), "r"(b0), "r"(b1), "r"(e));
  f[i] = c0 + c1 + c2 + c3;
  s[i] = s0 + s1 + s2 + s3;
  d[i] = d0 + d1;
#endif
#if __CUDA_ARCH__ >= 890
  float g0 = 0, g1 = 0, g2 = 0, g3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(g0), "+f"(g1), "+f"(g2), "+f"(g3) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  f[threadIdx.x + 32] = g0 + g1 + g2 + g3;
#endif
}

__global__ void mma_f16_acc(const unsigned *a, const unsigned *b, unsigned *c) {
  int i = threadIdx.x;
  unsigned c0 = c[i], c1 = c[i + 32];
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};"
               : "+r"(c0), "+r"(c1) : "r"(a[i]), "r"(a[i + 32]), "r"(b[i]));
#if __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
               : "+r"(c0), "+r"(c1) : "r"(a[i]), "r"(a[i + 32]), "r"(a[i + 64]), "r"(a[i + 96]), "r"(b[i]), "r"(b[i + 32]));
#endif
  c[i] = c0;
  c[i + 32] = c1;
}
