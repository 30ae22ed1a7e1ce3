// mma.sync and ldmatrix through inline PTX.
#include <cstdint>
__global__ void mma_m16n8k16(float *d, const uint32_t *a, const uint32_t *b) {
#if __CUDA_ARCH__ >= 800
  float c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  uint32_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], b0 = b[0], b1 = b[1];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  d[threadIdx.x * 4] = c0 + c1 + c2 + c3;
#endif
}

__global__ void mma_m16n8k32_s8(int *d, const uint32_t *a, const uint32_t *b) {
#if __CUDA_ARCH__ >= 800
  int c0 = 0, c1 = 0, c2 = 0, c3 = 0;
  asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+r"(c0), "+r"(c1), "+r"(c2), "+r"(c3)
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  d[threadIdx.x] = c0 ^ c1 ^ c2 ^ c3;
#endif
}

__global__ void ldmatrix_x4(uint32_t *o) {
#if __CUDA_ARCH__ >= 750
  __shared__ uint32_t tile[256];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  uint32_t r0, r1, r2, r3;
  unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(threadIdx.x % 16) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  o[threadIdx.x] = r0 + r1 + r2 + r3;
#endif
}
