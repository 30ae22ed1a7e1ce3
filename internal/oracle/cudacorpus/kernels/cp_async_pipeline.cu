// Asynchronous copies: cuda::memcpy_async with a pipeline, zero-fill copies, cp.async with mbarrier completion (sm_80).
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void pipeline_stages(const float4 *in, float4 *out, int n) {
  __shared__ float4 buf[2][128];
  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto pipe = cuda::make_pipeline(block, &state);
  for (int stage = 0; stage < 2; ++stage) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, buf[stage], in + stage * 128, sizeof(float4) * 128, pipe);
    pipe.producer_commit();
  }
  for (int stage = 0; stage < 2; ++stage) {
    pipe.consumer_wait();
    out[stage * 128 + threadIdx.x] = buf[stage][threadIdx.x];
    pipe.consumer_release();
  }
}

__global__ void zfill_and_mbarrier(const int4 *in, int4 *out, int valid) {
#if __CUDA_ARCH__ >= 800
  __shared__ int4 s[128];
  __shared__ unsigned long long bar;
  int i = threadIdx.x;
  __pipeline_memcpy_async(&s[i], &in[i], sizeof(int4), i < valid ? 0 : sizeof(int4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[i]), ba = (unsigned)__cvta_generic_to_shared(&bar);
  if (i == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(ba), "r"(blockDim.x));
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, 4;" :: "r"(sa), "l"(in + i + 128));
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(ba));
  unsigned long long tok;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(tok) : "r"(ba));
  asm volatile("cp.async.wait_all;");
  out[i] = s[i];
#endif
}
