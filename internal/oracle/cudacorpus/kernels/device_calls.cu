// Device function calls: non-inlined functions with .param passing, recursion, indirect calls, printf, assert and device malloc.
#include <cstdio>
#include <cassert>
__device__ __noinline__ float poly(float x, float a, float b) { return a * x * x + b * x; }
__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ float twice(float x) { return 2.0f * x; }
__device__ float halve(float x) { return 0.5f * x; }
typedef float (*unary)(float);
__device__ unary table[2] = {twice, halve};

__global__ void calls(const float *in, float *out, int sel) {
  int i = threadIdx.x;
  float x = in[i];
  out[i] = poly(x, 1.5f, -2.0f) + (float)fact(i & 7) + table[sel & 1](x);
}

__global__ void host_services(int *buf, int n) {
  if (threadIdx.x == 0) {
    printf("block %d n=%d %f\n", blockIdx.x, n, 1.5);
    int *p = (int *)malloc(n * sizeof(int));
    if (p) {
      p[0] = n;
      buf[blockIdx.x] = p[0];
      free(p);
    }
  }
  assert(n >= 0);
}
