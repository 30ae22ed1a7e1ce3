// Integer atomics on global and shared memory.
__global__ void atom_int(int *g, unsigned *u, unsigned long long *l) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = 0;
  __syncthreads();
  atomicAdd(g, 1);
  atomicSub(g + 1, 2);
  atomicExch(g + 2, threadIdx.x);
  atomicMin(g + 3, -1);
  atomicMax(g + 4, 7);
  atomicInc(u, 100u);
  atomicDec(u + 1, 100u);
  atomicCAS(g + 5, 0, 1);
  atomicAnd(g + 6, 0xff);
  atomicOr(g + 7, 0x10);
  atomicXor(g + 8, 3);
  atomicAdd(l, 1ull);
  atomicCAS(l + 1, 0ull, 5ull);
  atomicMax(l + 2, 9ull);
  atomicAdd(&s[threadIdx.x % 7], 1);
  atomicMax(&s[1], (int)threadIdx.x);
  __syncthreads();
  g[9 + threadIdx.x] = s[threadIdx.x % 32];
}
