// Clocks, timers, ids and nanosleep.
__global__ void clocks(long long *o, unsigned *u) {
  long long t0 = clock64();
  unsigned c = clock();
  unsigned long long g;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
#if __CUDA_ARCH__ >= 700
  __nanosleep(100);
#endif
  unsigned sm, warp, lane, nsm, gl;
  asm("mov.u32 %0, %%smid;" : "=r"(sm));
  asm("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("mov.u32 %0, %%nsmid;" : "=r"(nsm));
  asm("mov.u32 %0, %%globaltimer_lo;" : "=r"(gl));
  o[threadIdx.x] = clock64() - t0 + (long long)g;
  u[threadIdx.x] = c + sm + warp + lane + nsm + gl;
}

__global__ void smem_sizes(unsigned *o) {
  unsigned tot, dyn;
  asm("mov.u32 %0, %%total_smem_size;" : "=r"(tot));
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
  unsigned long long gid;
  asm("mov.u64 %0, %%gridid;" : "=l"(gid));
  o[threadIdx.x] = tot + dyn + (unsigned)gid + gridDim.x * blockDim.y;
}
