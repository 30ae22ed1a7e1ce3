// Thread block clusters and distributed shared memory (sm_90).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Launched with a cluster dimension of 2 (cudaLaunchKernelEx).
__global__ void cluster_dsmem(int *out) {
#if __CUDA_ARCH__ >= 900
  __shared__ int s[64];
  cg::cluster_group cl = cg::this_cluster();
  unsigned rank = cl.block_rank();
  s[threadIdx.x] = rank * 100 + threadIdx.x;
  cl.sync();
  int *peer = cl.map_shared_rank(s, rank ^ 1);
  out[rank * 64 + threadIdx.x] = peer[threadIdx.x];
  cl.sync();
#endif
}

__global__ void cluster_sregs(unsigned *out) {
#if __CUDA_ARCH__ >= 900
  unsigned cx, ncx, rank, nrank, ctaid;
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(cx));
  asm("mov.u32 %0, %%nclusterid.x;" : "=r"(ncx));
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
  asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(ctaid));
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;");
  out[threadIdx.x] = cx + ncx + rank + nrank + ctaid;
#endif
}
