// Vector loads and stores of every element width: char4, short2, int4, longlong2, double2, and 256-bit ones on sm_100.
struct alignas(32) f8 { float v[8]; };
__global__ void vec_ld_st(const char4 *c, const short2 *s, const int4 *i4, const longlong2 *l2, const double2 *d2, int4 *o, double2 *od) {
  int i = threadIdx.x;
  char4 a = c[i];
  short2 b = s[i];
  int4 x = i4[i];
  longlong2 y = l2[i];
  double2 z = d2[i];
  o[i] = make_int4(a.x + b.x, a.y + b.y, x.z + (int)y.x, x.w + (int)y.y);
  od[i] = make_double2(z.x * 2.0, z.y + 1.0);
  ushort4 u = reinterpret_cast<const ushort4 *>(s)[i + 64];
  o[i + 64] = make_int4(u.x, u.y, u.z, u.w);
}

__global__ void vec_256(const f8 *in, f8 *out) {
  int i = threadIdx.x;
#if __CUDA_ARCH__ >= 1000
  float r[8];
  asm volatile("ld.global.v8.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
               : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3]), "=f"(r[4]), "=f"(r[5]), "=f"(r[6]), "=f"(r[7]) : "l"(in + i));
  asm volatile("st.global.v8.f32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8};"
               :: "l"(out + i), "f"(r[0]), "f"(r[1]), "f"(r[2]), "f"(r[3]), "f"(r[4]), "f"(r[5]), "f"(r[6]), "f"(r[7]) : "memory");
#else
  out[i] = in[i];
#endif
}
