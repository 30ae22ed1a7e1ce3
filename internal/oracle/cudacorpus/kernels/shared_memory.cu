// Shared memory: static 2D tiles, 64-bit and vector accesses, shared atomics of each type, volatile accesses.
__global__ void transpose_tile(const float *in, float *out, int w) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  out[(blockIdx.x * 32 + threadIdx.y) * w + blockIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void shared_kinds(double *od, int4 *o4, unsigned *ou) {
  __shared__ double sd[64];
  __shared__ int4 s4[64];
  __shared__ unsigned su[4];
  __shared__ float sf;
  volatile __shared__ int flag;
  int i = threadIdx.x;
  sd[i] = i * 0.5;
  s4[i] = make_int4(i, i + 1, i + 2, i + 3);
  if (i < 4) su[i] = 0;
  if (i == 0) { sf = 0.0f; flag = 0; }
  __syncthreads();
  atomicAdd(&su[0], 1u);
  atomicMax(&su[1], (unsigned)i);
  atomicInc(&su[2], 16u);
  atomicCAS(&su[3], 0u, (unsigned)i);
  atomicAdd(&sf, 1.0f);
  if (i == 5) flag = 1;
  __syncthreads();
  od[i] = sd[63 - i] + sf + flag;
  o4[i] = s4[(i + 1) & 63];
  if (i < 4) ou[i] = su[i];
}
