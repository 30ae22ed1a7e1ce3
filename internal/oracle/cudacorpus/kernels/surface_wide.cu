// Held-out surface stores and loads of 8- and 16-bit texels from wider registers, a 64-bit
// surface texel, and 256-bit global loads with an L2 prefetch size (sm_100's .v8 / .v4.b64).
#include <cuda_runtime.h>
__global__ void surf_small(cudaSurfaceObject_t s, cudaSurfaceObject_t t, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  short4 v = surf2Dread<short4>(s, x * 8, y);
  uchar2 c = surf2Dread<uchar2>(s, x * 2, y, cudaBoundaryModeZero);
  surf2Dwrite(make_short4(v.w, v.z, v.y, (short)(v.x + c.x)), t, x * 8, y);
  unsigned long long q = surf2Dread<unsigned long long>(s, x * 8, y + w);
  surf2Dwrite(q + 1ull, t, x * 8, y + w, cudaBoundaryModeClamp);
  surf1Dwrite((unsigned short)c.y, t, x * 2);
}

__global__ void wide_loads(const float *in, float *out, const double *d, double *od) {
  int i = threadIdx.x * 8;
  float f[8];
  double g[4];
#if __CUDA_ARCH__ >= 1000
  asm volatile("ld.global.L2::256B.v8.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
               : "=f"(f[0]), "=f"(f[1]), "=f"(f[2]), "=f"(f[3]), "=f"(f[4]), "=f"(f[5]), "=f"(f[6]), "=f"(f[7]) : "l"(in + i));
  asm volatile("ld.global.v4.f64 {%0, %1, %2, %3}, [%4];" : "=d"(g[0]), "=d"(g[1]), "=d"(g[2]), "=d"(g[3]) : "l"(d + threadIdx.x * 4));
#else
  for (int k = 0; k < 8; k++) f[k] = in[i + k];
  for (int k = 0; k < 4; k++) g[k] = d[threadIdx.x * 4 + k];
#endif
  float s = 0;
  for (int k = 0; k < 8; k++) s += f[k];
  out[threadIdx.x] = s;
  asm volatile("ld.global.L2::128B.f32 %0, [%1];" : "=f"(s) : "l"(in + i + 1));
  out[threadIdx.x + 1024] = s;
  od[threadIdx.x] = g[0] + g[1] + g[2] + g[3];
}
