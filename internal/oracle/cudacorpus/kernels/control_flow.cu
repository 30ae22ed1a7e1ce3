// Control flow: switch tables, unrolled and dynamic loops, early exits, block-wide votes, traps and hints.
__global__ void branches(const int *in, int *out, int n) {
  int i = threadIdx.x, v = in[i], acc = 0;
  switch (v & 7) {
  case 0: acc = v * 3; break;
  case 1: acc = v ^ 0x55; break;
  case 2: acc = v >> 2; break;
  case 3: acc = -v; break;
  case 4: acc = v + 100; break;
  case 5: acc = v * v; break;
  default: acc = 1;
  }
#pragma unroll 4
  for (int k = 0; k < n; ++k) acc += in[(i + k) & 255];
  if (__builtin_expect(acc < 0, 0)) return;
  __builtin_assume(n > 0);
  int c = __syncthreads_count(acc > 10);
  int a = __syncthreads_and(acc != 0);
  int o = __syncthreads_or(acc == 7);
  out[i] = acc + c + a + o;
}

__global__ void guards(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (data[i] == -12345) __trap();
  if (data[i] == -54321) __brkpt();
  while (data[i] > 1) data[i] = (data[i] & 1) ? 3 * data[i] + 1 : data[i] / 2;
}
