// Bulk asynchronous copies (cp.async.bulk, sm_90) with an mbarrier.
#include <cstdint>
__global__ void bulk_copy(int4 *out, const int4 *in) {
#if __CUDA_ARCH__ >= 900
  __shared__ alignas(128) int4 s[64];
  __shared__ uint64_t bar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), ba = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(ba));
    asm volatile("fence.proxy.async.shared::cta;");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 1024;" :: "r"(ba));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                 :: "r"(sa), "l"(in), "r"(ba) : "memory");
  }
  __syncthreads();
  unsigned ok = 0;
  while (!ok)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.b32 %0, 1, 0, p; }" : "=r"(ok) : "r"(ba));
  out[threadIdx.x] = s[threadIdx.x];
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 1024;" :: "l"(out + 64), "r"(sa) : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group 0;");
  }
#endif
}
