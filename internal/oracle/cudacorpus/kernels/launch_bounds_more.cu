// Launch bounds with a minimum block count and a maximum cluster size (sm_90), __maxnreg__, and required block sizes.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define LB3(a, b, c) __launch_bounds__(a, b, c)
#else
#define LB3(a, b, c) __launch_bounds__(a, b)
#endif
__global__ void __launch_bounds__(256, 2) bounded_two(float *x) {
  x[blockIdx.x * 256 + threadIdx.x] *= 2.0f;
}

__global__ void LB3(128, 4, 2) bounded_cluster(float *x) {
  x[blockIdx.x * 128 + threadIdx.x] += 1.0f;
}

__global__ void __maxnreg__(40) register_capped(const float *a, float *b) {
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k) acc += a[threadIdx.x * 16 + k] * k;
  b[threadIdx.x] = acc;
}

__global__ void __launch_bounds__(1024) big_block(int *x) {
  __shared__ int s[1024];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = s[1023 - threadIdx.x];
}
