// Generic addressing: space predicates (isspacep), conversions to and from each window, pointers chosen at run time.
#include <cstdint>
__device__ int g_buf[256];
__constant__ int c_buf[256];
__global__ void spaces(int *out, int sel, const __grid_constant__ int4 gc) {
  __shared__ int s_buf[256];
  int l_buf[16];
  int i = threadIdx.x;
  s_buf[i] = i;
  for (int k = 0; k < 16; ++k) l_buf[k] = k * i;
  __syncthreads();
  int *p = sel == 0 ? g_buf : sel == 1 ? s_buf : l_buf;
  const int *cp = c_buf;
  int flags = __isGlobal(p) + 2 * __isShared(p) + 4 * __isLocal(p) + 8 * __isConstant(cp) + 16 * __isGridConstant(&gc);
  size_t sh = __cvta_generic_to_shared(s_buf);
  size_t gl = __cvta_generic_to_global(g_buf);
  size_t lo = __cvta_generic_to_local(l_buf);
  size_t co = __cvta_generic_to_constant(c_buf);
  int *back = (int *)__cvta_shared_to_generic(sh);
  out[i] = flags + p[i & 15] + back[i] + (int)(gl + lo + co) + cp[i];
}

__global__ void pointer_math(const double *base, long long stride, double *out, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double *p = base + i * stride;
  const char *bytes = reinterpret_cast<const char *>(p);
  out[i] = *reinterpret_cast<const double *>(bytes + 8 * (i & 1)) + (double)(uintptr_t)p;
}
