// 64-bit integer and double atomics on global and shared memory.
__global__ void atomics64_global(unsigned long long *u, long long *s, double *d) {
  unsigned long long t = threadIdx.x;
  atomicAdd(u, t);
  atomicExch(u + 1, t);
  atomicCAS(u + 2, t, t + 1);
  atomicMin(u + 3, t);
  atomicMax(u + 4, t);
  atomicAnd(u + 5, ~t);
  atomicOr(u + 6, t << 32);
  atomicXor(u + 7, t * 3);
  atomicMin(s, -(long long)t);
  atomicMax(s + 1, (long long)t);
  atomicAdd(d, 0.5 * t);
}

__global__ void atomics64_shared(unsigned long long *out, double *dout) {
  __shared__ unsigned long long su[8];
  __shared__ long long ss[2];
  __shared__ double sd;
  if (threadIdx.x < 8) su[threadIdx.x] = 0;
  if (threadIdx.x < 2) ss[threadIdx.x] = 0;
  if (threadIdx.x == 0) sd = 0;
  __syncthreads();
  unsigned long long t = threadIdx.x;
  atomicAdd(&su[0], t);
  atomicCAS(&su[1], 0ull, t);
  atomicExch(&su[2], t);
  atomicMax(&su[3], t);
  atomicMin(&ss[0], -(long long)t);
  atomicOr(&su[4], 1ull << (t & 63));
  atomicAdd(&sd, 1.0);
  __syncthreads();
  if (threadIdx.x < 8) out[threadIdx.x] = su[threadIdx.x] + ss[threadIdx.x & 1];
  if (threadIdx.x == 0) *dout = sd;
}
