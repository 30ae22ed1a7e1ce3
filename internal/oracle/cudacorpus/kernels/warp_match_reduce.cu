// Warp match on 32 and 64-bit keys, redux.sync reductions (sm_80), active masks and warp syncs.
__global__ void warp_match(const unsigned long long *keys, unsigned *out) {
  unsigned long long k = keys[threadIdx.x];
  unsigned any64 = __match_any_sync(0xffffffffu, k);
  int pred;
  unsigned all64 = __match_all_sync(0xffffffffu, k, &pred);
  unsigned any32 = __match_any_sync(__activemask(), (unsigned)k);
  unsigned all32 = __match_all_sync(0x0000ffffu, (int)k, &pred);
  out[threadIdx.x] = any64 ^ all64 ^ any32 ^ all32 ^ pred;
}

__global__ void warp_redux(const int *in, int *out) {
  int v = in[threadIdx.x];
#if __CUDA_ARCH__ >= 800
  unsigned u = (unsigned)v;
  unsigned m = 0xffffffffu;
  int r = __reduce_add_sync(m, v) + __reduce_min_sync(m, v) + __reduce_max_sync(m, v);
  unsigned ur = __reduce_add_sync(m, u) + __reduce_min_sync(m, u) + __reduce_max_sync(m, u);
  ur ^= __reduce_and_sync(m, u) | __reduce_or_sync(m, u) | __reduce_xor_sync(m, u);
  out[threadIdx.x] = r + (int)ur;
#endif
  __syncwarp(0x0000ffffu);
}

__global__ void warp_partial(int *data) {
  unsigned mask = __ballot_sync(0xffffffffu, data[threadIdx.x] > 0);
  if (data[threadIdx.x] > 0) {
    int v = __shfl_sync(mask, data[threadIdx.x], __ffs(mask) - 1);
    __syncwarp(mask);
    data[threadIdx.x] = v + __popc(__activemask());
  }
}
