// Cooperative groups: tiled partitions, tile shuffles and reductions, coalesced and labeled groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void cg_tile_reduce(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  int v = in[block.thread_rank()];
  int sum = cg::reduce(tile, v, cg::plus<int>());
  int mx = cg::reduce(tile, v, cg::greater<int>());
  unsigned bits = cg::reduce(tile, (unsigned)v, cg::bit_xor<unsigned>());
  if (tile.thread_rank() == 0) {
    out[block.group_index().x * 64 + tile.meta_group_rank()] = sum + mx + (int)bits;
  }
  block.sync();
}

__global__ void cg_tile_shuffle(float *data) {
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  float x = data[threadIdx.x];
  x += t.shfl_down(x, 4);
  x += t.shfl_xor(x, 1);
  x = t.shfl(x, 0);
  unsigned b = t.ballot(x > 0.5f);
  bool any = t.any(x > 1.0f), all = t.all(x < 2.0f);
  data[threadIdx.x] = x + b + any + all + t.match_any(b);
}

__global__ void cg_coalesced(int *data) {
  if (threadIdx.x % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    int v = data[threadIdx.x];
    v = g.shfl(v, 0) + (int)g.size() + (int)g.thread_rank();
    g.sync();
    data[threadIdx.x] = cg::exclusive_scan(g, v);
  }
  cg::coalesced_group part = cg::labeled_partition(cg::coalesced_threads(), data[threadIdx.x] & 3);
  data[threadIdx.x + 256] = cg::reduce(part, data[threadIdx.x], cg::plus<int>());
}
