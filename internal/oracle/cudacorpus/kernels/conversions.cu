#include <cuda_fp16.h>
// Conversions between integer and floating types, rounding modes, saturation.
__global__ void convert(int *oi, float *of, double *od, const float *f, const double *d, const long long *l) {
  int i = threadIdx.x;
  oi[i] = __float2int_rn(f[i]) + __float2int_rz(f[i]) + __float2uint_rd(f[i]) + __double2int_ru(d[i]);
  of[i] = __int2float_rn(oi[i]) + __ll2float_rz(l[i]) + __uint2float_ru(i) + __double2float_rd(d[i]);
  od[i] = __ll2double_rn(l[i]) + (double)f[i] + __longlong_as_double(l[i]);
  oi[i + 64] = __float_as_int(f[i]) + (int)__double2hiint(d[i]) + (signed char)f[i];
  unsigned short h = __half_as_ushort(__float2half(f[i]));
  oi[i + 128] = h;
}
