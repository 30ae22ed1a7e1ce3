// Warpgroup MMA (wgmma, sm_90a only): fences, f16 and bf16 with shared-memory descriptors, commit and wait groups.
#include <cstdint>
__global__ void wgmma_f16(float *out, const uint64_t *descs) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  float d[4] = {0.f, 0.f, 0.f, 0.f};
  uint64_t da = descs[0], db = descs[1];
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 0;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, %4, %5, 1, 1, 1, 0, 1;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  for (int k = 0; k < 4; ++k) out[threadIdx.x * 4 + k] = d[k];
#endif
}

__global__ void wgmma_regs(int *out, const uint64_t *descs, const unsigned *a) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  int d[4] = {0, 0, 0, 0};
  float f[4] = {0.f, 0.f, 0.f, 0.f};
  uint64_t db = descs[1];
  unsigned a0 = a[threadIdx.x], a1 = a[threadIdx.x + 128], a2 = a[threadIdx.x + 256], a3 = a[threadIdx.x + 384];
  asm volatile("wgmma.fence.sync.aligned;");
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%0, %1, %2, %3}, %4, %5, 0;"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(descs[0]), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 1, 1, 1, 1;"
               : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(db));
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%0, %1, %2, %3}, %4, %5, 1, 1, 1;"
               : "+f"(f[0]), "+f"(f[1]), "+f"(f[2]), "+f"(f[3]) : "l"(descs[0]), "l"(db));
  asm volatile("wgmma.commit_group.sync.aligned;");
  asm volatile("wgmma.wait_group.sync.aligned 0;");
  for (int k = 0; k < 4; ++k) out[threadIdx.x * 4 + k] = d[k] + (int)f[k];
#endif
}
