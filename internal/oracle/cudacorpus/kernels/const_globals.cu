// Constant memory, device globals, extern dynamic shared memory, by-value structs and __grid_constant__ parameters.
struct Params { float scale; int n; float coeff[8]; };
__constant__ float c_table[256];
__constant__ Params c_params;
__device__ int g_counter;
__device__ float g_array[1024];

__global__ void use_constant(const int *idx, float *out) {
  int i = threadIdx.x;
  float v = c_table[idx[i] & 255] * c_params.scale + c_params.coeff[i & 7];
  atomicAdd(&g_counter, 1);
  g_array[i] = v;
  out[i] = v + g_array[(i + 1) & 1023];
}

__global__ void by_value(Params p, const __grid_constant__ Params q, float *out) {
  extern __shared__ float dyn[];
  int i = threadIdx.x;
  dyn[i] = p.coeff[i & 7] * q.scale + (float)q.n;
  __syncthreads();
  out[i] = dyn[(i + 1) % blockDim.x] + (float)p.n + q.coeff[(i >> 3) & 7];
}
