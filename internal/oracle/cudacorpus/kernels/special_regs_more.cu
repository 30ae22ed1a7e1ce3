// Special registers: lane masks, SM and warp ids and counts, timers and their halves, shared memory sizes, environment and performance counters.
__global__ void sregs_ids(unsigned *out) {
  unsigned v[12];
  asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(v[0]));
  asm volatile("mov.u32 %0, %%lanemask_le;" : "=r"(v[1]));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(v[2]));
  asm volatile("mov.u32 %0, %%lanemask_ge;" : "=r"(v[3]));
  asm volatile("mov.u32 %0, %%lanemask_gt;" : "=r"(v[4]));
  asm volatile("mov.u32 %0, %%nsmid;" : "=r"(v[5]));
  asm volatile("mov.u32 %0, %%nwarpid;" : "=r"(v[6]));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(v[7]));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(v[8]));
  asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v[9]));
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v[10]));
  asm volatile("mov.u32 %0, %%envreg0;" : "=r"(v[11]));
  unsigned s = 0;
  for (int k = 0; k < 12; ++k) s += v[k];
  out[threadIdx.x] = s;
}

__global__ void sregs_timers(unsigned long long *out) {
  unsigned lo, hi, ck, ckh, pm0, pm5;
  unsigned long long g, c64, gid, pm64;
  asm volatile("mov.u32 %0, %%globaltimer_lo;" : "=r"(lo));
  asm volatile("mov.u32 %0, %%globaltimer_hi;" : "=r"(hi));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(ck));
  asm volatile("mov.u32 %0, %%clock_hi;" : "=r"(ckh));
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c64));
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(gid));
  asm volatile("mov.u32 %0, %%pm0;" : "=r"(pm0));
  asm volatile("mov.u32 %0, %%pm5;" : "=r"(pm5));
  asm volatile("mov.u64 %0, %%pm3_64;" : "=l"(pm64));
  unsigned extra = 0;
#if __CUDA_ARCH__ >= 800
  asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(extra));
#endif
#if __CUDA_ARCH__ >= 900
  unsigned ag;
  asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(ag));
  extra += ag;
#endif
  out[threadIdx.x] = lo + hi + g + ck + ckh + c64 + gid + pm0 + pm5 + pm64 + extra;
}
