// 64-bit pointers, generic addressing, address-space conversions, local memory.
__device__ int gdata[64];
__constant__ int cdata[16];
__global__ void generic(int *o, int sel) {
  __shared__ int s[64];
  int local[8];
  for (int k = 0; k < 8; k++) local[k] = k * sel;
  s[threadIdx.x] = cdata[threadIdx.x % 16];
  __syncthreads();
  int *p = sel ? s : gdata;
  int v = p[threadIdx.x] + local[sel & 7];
  o[threadIdx.x] = v + __isShared(p) + __isGlobal(p) + (int)__cvta_generic_to_shared(s);
}

__global__ void prefetch_ldg(float *o, const float *__restrict__ in) {
  float v = __ldg(in + threadIdx.x) + __ldcg(in + threadIdx.x + 1) + __ldcs(in + 2) + __ldlu(in + 3);
  __stcg(o + threadIdx.x, v);
  __stwt(o + 64, v);
}
