// Launch bounds, maxnreg and dynamic shared memory.
extern __shared__ float dyn[];
__global__ void __launch_bounds__(256, 2) bounded(float *o, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dyn[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) dyn[threadIdx.x] += dyn[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) o[blockIdx.x] = dyn[0];
}

__global__ void __maxnreg__(32) few_regs(int *o) { o[threadIdx.x] = threadIdx.x * 3; }
