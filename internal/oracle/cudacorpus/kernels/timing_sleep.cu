// Timing and back-off: clock(), clock64(), the global timer, __nanosleep in a spin loop, and pmevent.
__global__ void spin_backoff(int *flag, long long *t) {
  long long t0 = clock64();
  unsigned c0 = (unsigned)clock();
  unsigned ns = 8;
  while (atomicAdd(flag, 0) == 0) {
    __nanosleep(ns);
    if (ns < 1024) ns *= 2;
  }
  unsigned long long g;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
  asm volatile("pmevent 3;");
  asm volatile("pmevent.mask 0x5;");
  t[threadIdx.x] = clock64() - t0 + (long long)((unsigned)clock() - c0) + (long long)g;
}

__global__ void fixed_sleep(int *out) {
  __nanosleep(100);
  asm volatile("nanosleep.u32 %0;" :: "r"(200u));
  out[threadIdx.x] = (int)clock();
}
