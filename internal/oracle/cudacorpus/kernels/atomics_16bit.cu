// 16-bit atomics: half, half2, bf16 and bf16x2 adds, 16-bit compare-and-swap, float exchange.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void atomics16(__half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2, unsigned short *us, float *f) {
  atomicAdd(h, __float2half(1.0f));
  atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
#if __CUDA_ARCH__ >= 800
  atomicAdd(b, __float2bfloat16(1.0f));
  atomicAdd(b2, __floats2bfloat162_rn(1.0f, 2.0f));
#endif
#if __CUDA_ARCH__ >= 700
  atomicCAS(us, (unsigned short)0, (unsigned short)threadIdx.x);
#endif
  atomicExch(f, (float)threadIdx.x);
}

__global__ void atomics16_shared(__half2 *out) {
  __shared__ __half2 s;
  if (threadIdx.x == 0) s = __floats2half2_rn(0.0f, 0.0f);
  __syncthreads();
  atomicAdd(&s, __floats2half2_rn(0.5f, 0.25f));
  __syncthreads();
  if (threadIdx.x == 0) *out = s;
}
