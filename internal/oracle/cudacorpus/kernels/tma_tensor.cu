// Tensor memory access (TMA, sm_90): tensor copies of 1 to 3 dimensions, prefetch, reduction and store through a CUtensorMap.
#include <cuda.h>
#include <cstdint>
__global__ void tma_load_store(const __grid_constant__ CUtensorMap map, int *out) {
#if __CUDA_ARCH__ >= 900
  __shared__ alignas(128) int tile[32 * 32];
  __shared__ uint64_t bar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(tile), ba = (unsigned)__cvta_generic_to_shared(&bar);
  const void *m = &map;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(ba));
    asm volatile("fence.mbarrier_init.release.cluster;");
    asm volatile("prefetch.tensormap [%0];" :: "l"(m));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" :: "r"(ba));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(sa), "l"(m), "r"(0), "r"(0), "r"(ba) : "memory");
  }
  __syncthreads();
  asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" :: "r"(ba));
  out[threadIdx.x] = tile[threadIdx.x];
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.async.shared::cta;");
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];" :: "l"(m), "r"(32), "r"(0), "r"(sa) : "memory");
    asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(m), "r"(0), "r"(32), "r"(sa) : "memory");
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" :: "l"(m), "r"(64), "r"(0));
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;");
  }
#endif
}

__global__ void tma_dims(const __grid_constant__ CUtensorMap map1, const __grid_constant__ CUtensorMap map3, int *out) {
#if __CUDA_ARCH__ >= 900
  __shared__ alignas(128) int tile[1024];
  __shared__ uint64_t bar;
  unsigned sa = (unsigned)__cvta_generic_to_shared(tile), ba = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(ba));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 8192;" :: "r"(ba));
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];"
                 :: "r"(sa), "l"(&map1), "r"(0), "r"(ba) : "memory");
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];"
                 :: "r"(sa + 4096), "l"(&map3), "r"(0), "r"(0), "r"(1), "r"(ba) : "memory");
  }
  __syncthreads();
  asm volatile("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" :: "r"(ba));
  out[threadIdx.x] = tile[threadIdx.x] + tile[threadIdx.x + 512];
#endif
}
