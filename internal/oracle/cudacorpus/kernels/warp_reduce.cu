// Warp reductions (redux.sync on sm_80+) and cooperative groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void redux(unsigned *out, const unsigned *in) {
#if __CUDA_ARCH__ >= 800
  unsigned v = in[threadIdx.x];
  out[0] = __reduce_add_sync(0xffffffffu, v);
  out[1] = __reduce_min_sync(0xffffffffu, v);
  out[2] = __reduce_max_sync(0xffffffffu, v);
  out[3] = __reduce_and_sync(0xffffffffu, v);
  out[4] = __reduce_or_sync(0xffffffffu, v);
  out[5] = __reduce_xor_sync(0xffffffffu, v);
  out[6] = __reduce_max_sync(0xffffffffu, (int)v);
#endif
}

__global__ void cg_reduce(int *out, const int *in) {
  cg::thread_block blk = cg::this_thread_block();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(blk);
  int v = cg::reduce(w, in[blk.thread_rank()], cg::plus<int>());
  if (w.thread_rank() == 0) atomicAdd(out, v);
  blk.sync();
}
