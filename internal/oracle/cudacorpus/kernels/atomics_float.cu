// Floating-point atomics and system/block scopes.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void atom_float(float *f, double *d, __half2 *h2, __half *h, __nv_bfloat16 *b) {
  atomicAdd(f, 1.0f);
  atomicExch(f + 1, 2.0f);
  atomicAdd(d, 1.0);
  atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
#if __CUDA_ARCH__ >= 700
  atomicAdd(h, __float2half(1.0f));
#endif
#if __CUDA_ARCH__ >= 800
  atomicAdd(b, __float2bfloat16(1.0f));
#endif
}

__global__ void atom_scopes(int *g, float *f) {
  atomicAdd_block(g, 1);
  atomicAdd_system(g + 1, 1);
  atomicMax_block(g + 2, 3);
  atomicCAS_system(g + 3, 0, 1);
  atomicAdd_block(f, 1.0f);
  atomicExch_system(f + 1, 0.5f);
}
