// mbarrier through cuda::barrier and inline PTX.
#include <cstdint>
__global__ void mbar_inline(int *out) {
#if __CUDA_ARCH__ >= 800
  __shared__ uint64_t bar;
  unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(a), "r"((int)blockDim.x));
  __syncthreads();
  uint64_t state;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(a));
  int done = 0;
  while (!done) {
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(a), "l"(state));
  }
  if (threadIdx.x == 0) asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(a));
  out[threadIdx.x] = done;
#endif
}

__global__ void mbar_expect_tx(int *out) {
#if __CUDA_ARCH__ >= 900
  __shared__ uint64_t bar;
  unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(a));
  __syncthreads();
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 0;" :: "r"(a));
  unsigned ok;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.b32 %0, 1, 0, p; }" : "=r"(ok) : "r"(a));
  out[threadIdx.x] = ok;
#endif
}
