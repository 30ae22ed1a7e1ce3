// mbarrier operations: arrive counts, drop, no-complete arrivals, test_wait, try_wait with a time limit, pending counts and inval.
#include <cstdint>
__global__ void mbar_phases(unsigned *out) {
#if __CUDA_ARCH__ >= 800
  __shared__ uint64_t bar;
  unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(ba), "r"(blockDim.x + 1));
  __syncthreads();
  uint64_t st;
  if (threadIdx.x == 0) asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 1;" : "=l"(st) : "r"(ba));
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(ba));
  unsigned done = 0, pend;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(ba), "l"(st));
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pend) : "l"(st));
  asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(st) : "r"(ba));
  __syncthreads();
  if (threadIdx.x == 0) asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(ba));
  out[threadIdx.x] = pend;
#endif
}

__global__ void mbar_sm90(unsigned *out) {
#if __CUDA_ARCH__ >= 900
  __shared__ uint64_t bar;
  unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(ba), "r"(blockDim.x));
  __syncthreads();
  uint64_t st;
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(st) : "r"(ba));
  unsigned ok = 0;
  while (!ok)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
                 : "=r"(ok) : "r"(ba), "l"(st), "r"(1000000u));
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 p, [%1], 1; selp.u32 %0, 1, 0, p; }" : "=r"(ok) : "r"(ba));
  out[threadIdx.x] = ok;
#endif
}
