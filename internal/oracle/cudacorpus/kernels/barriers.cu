// Block barriers: counted, reduction barriers, named barriers, fences.
__global__ void barriers(int *o, const int *in) {
  int x = in[threadIdx.x];
  int n = __syncthreads_count(x > 0);
  int a = __syncthreads_and(x != 0);
  int b = __syncthreads_or(x < 0);
  __syncwarp();
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  asm volatile("bar.sync 1, 64;");
  asm volatile("bar.arrive 2, 64;");
  o[threadIdx.x] = n + a + b;
}
