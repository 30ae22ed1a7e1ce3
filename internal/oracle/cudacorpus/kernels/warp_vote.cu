// Warp votes, ballots, match and the lane masks.
__global__ void vote_all(int *out, const int *in) {
  int x = in[threadIdx.x];
  unsigned b = __ballot_sync(0xffffffffu, x > 0);
  int a = __all_sync(0xffffffffu, x != 0);
  int y = __any_sync(0xffffffffu, x < 0);
  int u = __uni_sync(0xffffffffu, x);
  out[threadIdx.x] = __popc(b) + a + y + u;
}

__global__ void match_any(unsigned *out, const int *in) {
#if __CUDA_ARCH__ >= 700
  unsigned m = __match_any_sync(0xffffffffu, in[threadIdx.x]);
  int pred;
  unsigned n = __match_all_sync(0xffffffffu, in[threadIdx.x], &pred);
  out[threadIdx.x] = m ^ n ^ pred;
#endif
}

__global__ void lanemasks(unsigned *out) {
  unsigned lt, le, gt, ge, eq;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  out[threadIdx.x] = lt ^ le ^ gt ^ ge ^ eq;
}
