// cp.async (sm_80) through the pipeline primitives and inline PTX.
#include <cuda_pipeline.h>
__global__ void cp_async_copy(float *out, const float *in) {
  __shared__ float s[256];
#if __CUDA_ARCH__ >= 800
  __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
#else
  s[threadIdx.x] = in[threadIdx.x];
#endif
  __syncthreads();
  out[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void cp_async_16(int4 *out, const int4 *in) {
  __shared__ int4 s[128];
#if __CUDA_ARCH__ >= 800
  unsigned dst = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x]);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(&in[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(dst), "l"(&in[threadIdx.x]));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;");
  asm volatile("cp.async.wait_all;");
#endif
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}
