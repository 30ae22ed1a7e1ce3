// Conversions between integer widths and floats with every rounding, reinterpretations and saturation.
__global__ void cvt_int_float(const float *f, const double *d, int *oi, long long *ol, unsigned *ou, float *of, double *od) {
  int i = threadIdx.x;
  float x = f[i];
  double y = d[i];
  oi[i] = __float2int_rn(x) + __float2int_rz(x) + __float2int_ru(x) + __float2int_rd(x) + __double2int_rn(y);
  ol[i] = __float2ll_rn(x) + __float2ll_rz(x) + __double2ll_ru(y) + __double2ll_rd(y) + (long long)__double2ull_rn(y);
  ou[i] = __float2uint_rn(x) + __float2uint_rz(x) + __double2uint_ru(y) + __float_as_uint(x) + (unsigned)__double2hiint(y) + (unsigned)__double2loint(y);
  of[i] = __int2float_rn(oi[i]) + __int2float_rz(oi[i]) + __uint2float_ru(ou[i]) + __ll2float_rd(ol[i]) + __ull2float_rn(ol[i]) + __int_as_float(oi[i]) + __double2float_ru(y) + __double2float_rz(y);
  od[i] = __int2double_rn(oi[i]) + __ll2double_rz(ol[i]) + __ull2double_ru(ou[i]) + __hiloint2double(oi[i], oi[i + 1]) + __longlong_as_double(ol[i]);
}

__global__ void cvt_widths(const long long *a, signed char *o8, short *o16, unsigned char *u8, unsigned short *u16, int *o32) {
  int i = threadIdx.x;
  long long v = a[i];
  o8[i] = (signed char)v;
  o16[i] = (short)(v >> 3);
  u8[i] = (unsigned char)(v >> 5);
  u16[i] = (unsigned short)(v >> 7);
  o32[i] = (int)o8[i] + (int)o16[i] + (int)u8[i] + (int)u16[i] + (int)(v >> 40) + max(min((int)v, 127), -128);
}
