// Packed and special conversions: tf32 rounding, f16x2/bf16x2 from two floats with relu and satfinite (inline PTX).
#include <mma.h>
#include <cuda_fp16.h>
__global__ void tf32_round(const float *in, float *out) {
#if __CUDA_ARCH__ >= 800
  out[threadIdx.x] = nvcuda::wmma::__float_to_tf32(in[threadIdx.x]);
  unsigned t;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(in[threadIdx.x]));
  out[threadIdx.x + 64] = __uint_as_float(t);
#endif
}

__global__ void packed_f32_pairs(const float *a, unsigned *o) {
#if __CUDA_ARCH__ >= 800
  int i = threadIdx.x;
  unsigned r0, r1, r2, r3;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r0) : "f"(a[i]), "f"(a[i + 1]));
  asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(r1) : "f"(a[i]), "f"(a[i + 1]));
  asm("cvt.rz.bf16x2.f32 %0, %1, %2;" : "=r"(r2) : "f"(a[i]), "f"(a[i + 1]));
  asm("cvt.rn.relu.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(r3) : "f"(a[i]), "f"(a[i + 1]));
  o[i] = r0 ^ r1 ^ r2 ^ r3;
#endif
#if __CUDA_ARCH__ >= 890
  unsigned short e;
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(e) : "f"(a[threadIdx.x]), "f"(a[threadIdx.x + 2]));
  o[threadIdx.x + 64] = e;
#endif
}
