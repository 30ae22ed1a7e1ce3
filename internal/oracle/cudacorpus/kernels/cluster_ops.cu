// Clusters (sm_90): compile-time cluster dims, distributed shared memory loads and atomics, cluster barriers, elect.sync.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// __cluster_dims__ is an error below sm_90: the attribute only where it exists.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER_DIMS(x) __cluster_dims__(x, 1, 1)
#else
#define CLUSTER_DIMS(x)
#endif
__global__ void CLUSTER_DIMS(4) dsmem_histogram(const int *in, int *out) {
#if __CUDA_ARCH__ >= 900
  __shared__ int hist[64];
  cg::cluster_group cl = cg::this_cluster();
  hist[threadIdx.x & 63] = 0;
  cl.sync();
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned dst = (unsigned)(v & 3);
  int *remote = cl.map_shared_rank(hist, dst);
  atomicAdd(remote + ((v >> 2) & 63), 1);
  cl.sync();
  unsigned sa = (unsigned)__cvta_generic_to_shared(hist), ra, val;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(sa), "r"(dst));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(val) : "r"(ra));
  out[blockIdx.x * 64 + (threadIdx.x & 63)] = hist[threadIdx.x & 63] + val + (int)cl.num_blocks() + (int)cl.dim_blocks().x;
  cl.sync();
#endif
}

__global__ void cluster_misc(unsigned *out) {
#if __CUDA_ARCH__ >= 900
  unsigned leader, isx, rank;
  asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; }" : "=r"(leader));
  asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(isx));
  asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(rank) : "r"(0u));
  asm volatile("barrier.cluster.arrive.relaxed.aligned;");
  asm volatile("barrier.cluster.wait.aligned;");
  out[threadIdx.x] = leader + isx + rank;
#endif
}
