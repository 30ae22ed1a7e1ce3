// Held-out non-inlined device functions returning float, double, half and int (their return
// parameter func_retval0 is declared in the function header), with floating-point constants.
#include <cuda_fp16.h>
__device__ __noinline__ float scale_f(float x) { return x * 0.125f + 3.0f; }
__device__ __noinline__ double scale_d(double x) { return x * 1.0e-3 - 27.0; }
__device__ __noinline__ __half twice_h(__half x) { return __hmul(x, __float2half(2.0f)); }
__device__ __noinline__ int clampi(int x, int lo) { return x < lo ? lo : x; }
__device__ __noinline__ float pick(float a, float b, int k) { return k ? a : 1.5f * b; }

__global__ void returns(float *f, double *d, __half *h, int *n) {
  int i = threadIdx.x;
  f[i] = scale_f(f[i]) + pick(f[i + 1], 4.0f, i & 1);
  d[i] = scale_d(d[i]) + 1.0;
  h[i] = twice_h(h[i]);
  n[i] = clampi(n[i], 27);
}

__global__ void relaxed_wait(unsigned *out) {
#if __CUDA_ARCH__ >= 900
  __shared__ unsigned long long bar;
  unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(ba), "r"(blockDim.x));
  __syncthreads();
  unsigned ok = 0;
  asm volatile("{ .reg .pred q; mbarrier.try_wait.relaxed.cluster.shared::cta.b64 q, [%1], %2; selp.u32 %0, 1, 0, q; }"
               : "=r"(ok) : "r"(ba), "l"(0ull));
  out[threadIdx.x] = ok;
#endif
}
