// Bulk copies (sm_90): shared::cta to shared::cluster, bulk reductions, L2 prefetch and multicast within a cluster.
#include <cstdint>
// __cluster_dims__ is an error below sm_90: the attribute only where it exists.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER_DIMS(x) __cluster_dims__(x, 1, 1)
#else
#define CLUSTER_DIMS(x)
#endif
__global__ void CLUSTER_DIMS(2) bulk_ops(int *g, unsigned *u) {
#if __CUDA_ARCH__ >= 900
  __shared__ alignas(128) int s[256];
  __shared__ uint64_t bar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), ba = (unsigned)__cvta_generic_to_shared(&bar);
  unsigned remote, rbar;
  asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remote) : "r"(sa));
  asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(rbar) : "r"(ba));
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(ba));
    asm volatile("fence.proxy.async.shared::cta;");
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 512, [%2];" :: "r"(remote), "r"(sa), "r"(rbar) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%0], [%1], 512;" :: "l"(u), "r"(sa) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [%0], [%1], 512;" :: "l"(g), "r"(sa) : "memory");
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], 1024;" :: "l"(g + 1024));
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group 0;");
  }
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;");
#endif
}

__global__ void bulk_global(int4 *dst, const int4 *src) {
#if __CUDA_ARCH__ >= 900
  __shared__ alignas(16) int4 s[64];
  __shared__ uint64_t bar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(s), ba = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(ba));
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], 1024;" :: "r"(ba));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], 1024, [%2], %3;"
                 :: "r"(sa), "l"(src), "r"(ba), "l"(0ull) : "memory");
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" :: "r"(ba));
  }
  __syncthreads();
  asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" :: "r"(ba));
  dst[threadIdx.x] = s[threadIdx.x];
#endif
}
