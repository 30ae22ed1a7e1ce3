// Matrix fragment moves: ldmatrix x1/x2/x4 with .trans (sm_75), movmatrix (sm_75), stmatrix (sm_90).
__global__ void fragments(unsigned *out) {
  __shared__ alignas(16) unsigned short tile[16 * 16 * 4];
  int i = threadIdx.x;
  for (int k = i; k < 16 * 16 * 4; k += 32) tile[k] = (unsigned short)k;
  __syncwarp();
  unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(i % 16) * 16 + (i / 16) * 8]);
  unsigned r0, r1, r2, r3, t;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(addr));
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r1), "=r"(r2) : "r"(addr));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t) : "r"(r0));
#if __CUDA_ARCH__ >= 900
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" :: "r"(addr), "r"(r0), "r"(r1), "r"(r2), "r"(t));
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" :: "r"(addr), "r"(r3), "r"(r2));
#endif
  __syncwarp();
  out[i] = r0 + r1 + r2 + r3 + t + tile[i];
}
