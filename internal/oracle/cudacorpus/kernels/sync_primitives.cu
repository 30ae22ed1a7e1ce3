// Barriers: named barriers with thread counts, arrive/sync pairs, bar.red, cooperative group syncs and warp syncs.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void named_barriers(int *data) {
  int i = threadIdx.x;
  data[i] = i;
  if (i < 64) {
    asm volatile("bar.sync 1, 64;");
  } else {
    asm volatile("bar.arrive 2, 64;");
  }
  asm volatile("barrier.sync 3;");
  asm volatile("barrier.sync.aligned 0;");
  unsigned cnt, pred;
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 0, p; }" : "=r"(cnt) : "r"(i & 1));
  asm volatile("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; bar.red.or.pred q, 0, p; selp.u32 %0, 1, 0, q; }" : "=r"(pred) : "r"(i & 2));
  data[i] += cnt + pred;
}

__global__ void group_syncs(int *data) {
  cg::thread_block b = cg::this_thread_block();
  data[b.thread_rank()] += 1;
  b.sync();
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  w.sync();
  __syncwarp();
  cg::thread_block_tile<4> q = cg::tiled_partition<4>(b);
  data[b.thread_rank()] += q.shfl(data[b.thread_rank()], 0);
  q.sync();
}
