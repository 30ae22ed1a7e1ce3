// Atomics at every scope through cuda::atomic_ref and the _block/_system intrinsics, with memory orders.
#include <cuda/atomic>
__global__ void atomic_ref_scopes(int *g, unsigned long long *u, float *f) {
  cuda::atomic_ref<int, cuda::thread_scope_block> blk(g[0]);
  cuda::atomic_ref<int, cuda::thread_scope_device> dev(g[1]);
  cuda::atomic_ref<int, cuda::thread_scope_system> sys(g[2]);
  blk.fetch_add(1, cuda::memory_order_relaxed);
  dev.fetch_add(2, cuda::memory_order_acq_rel);
  sys.fetch_sub(3, cuda::memory_order_seq_cst);
  int e = 0;
  dev.compare_exchange_strong(e, 7, cuda::memory_order_acquire, cuda::memory_order_relaxed);
  blk.fetch_or(4, cuda::memory_order_release);
  dev.fetch_and(~1, cuda::memory_order_relaxed);
  sys.fetch_xor(8, cuda::memory_order_relaxed);
  dev.fetch_min(-1, cuda::memory_order_relaxed);
  dev.fetch_max(100, cuda::memory_order_relaxed);
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> d64(u[0]);
  d64.store(5, cuda::memory_order_release);
  u[1] = d64.load(cuda::memory_order_acquire) + d64.exchange(9, cuda::memory_order_acq_rel);
  cuda::atomic_ref<float, cuda::thread_scope_block> fb(f[0]);
  fb.fetch_add(1.5f, cuda::memory_order_relaxed);
  g[3] = sys.load(cuda::memory_order_seq_cst) + blk.load(cuda::memory_order_relaxed);
}

__global__ void atomic_block_system(int *g, unsigned *u, double *d, float *f) {
  atomicAdd_block(g, 1);
  atomicAdd_system(g + 1, 1);
  atomicMax_block(g + 2, threadIdx.x);
  atomicMin_system(g + 3, -(int)threadIdx.x);
  atomicCAS_block(u, 0u, 1u);
  atomicCAS_system(u + 1, 0u, 1u);
  atomicExch_system(u + 2, threadIdx.x);
  atomicInc_block(u + 3, 100u);
  atomicDec_system(u + 4, 100u);
  atomicAnd_block(u + 5, 0xf0u);
  atomicOr_system(u + 6, 0x0fu);
  atomicXor_block(u + 7, 0xffu);
  atomicAdd_block(d, 1.0);
  atomicAdd_system(f, 2.0f);
}
