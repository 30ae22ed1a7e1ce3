// Warp shuffles: every mode, with an explicit mask and the active mask.
__global__ void shfl_all(float *out, const float *in) {
  unsigned m = __activemask();
  float v = in[threadIdx.x];
  v += __shfl_xor_sync(m, v, 16);
  v += __shfl_down_sync(0xffffffffu, v, 8);
  v += __shfl_up_sync(0xffffffffu, v, 1);
  v += __shfl_sync(0xffffffffu, v, 0);
  out[threadIdx.x] = v;
}

__global__ void shfl_int64(long long *out, const long long *in, int width) {
  long long v = in[threadIdx.x];
  for (int o = width / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o, width);
  out[threadIdx.x] = v;
}

__global__ void shfl_double(double *out, const double *in) {
  double v = in[threadIdx.x];
  v = __shfl_down_sync(0xffffffffu, v, 4);
  out[threadIdx.x] = v;
}
