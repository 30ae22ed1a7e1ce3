// Inline PTX: scoped registers, predicates and guards, selp/slct, testp, bit-field and permute variants, copysign, isspacep.
__global__ void inline_misc(const float *f, const unsigned *u, unsigned *o, float *of) {
  int i = threadIdx.x;
  unsigned r, s, t;
  float x = f[i], y;
  asm("{ .reg .pred p, q;\n\t"
      "setp.gt.f32 p, %1, 0f3F000000;\n\t"
      "setp.lt.and.f32 q, %1, 0f40000000, p;\n\t"
      "@q add.u32 %0, %2, 1;\n\t"
      "@!q sub.u32 %0, %2, 1; }" : "=r"(r) : "f"(x), "r"(u[i]));
  asm("slct.u32.f32 %0, %1, %2, %3;" : "=r"(s) : "r"(u[i]), "r"(r), "f"(x));
  asm("{ .reg .pred p; testp.finite.f32 p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(t) : "f"(x));
  asm("copysign.f32 %0, %1, %2;" : "=f"(y) : "f"(x), "f"(-1.0f));
  unsigned bf, fn, pm, sh;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(bf) : "r"(u[i]));
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(fn) : "r"(u[i]), "r"(0u), "r"(2));
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(pm) : "r"(u[i]), "r"(r), "r"(0x1u));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(sh) : "r"(u[i]), "r"(r), "r"(40u));
#if __CUDA_ARCH__ >= 700
  unsigned bm, sz;
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(bm) : "r"(3u), "r"(5u));
  asm("szext.wrap.s32 %0, %1, %2;" : "=r"(sz) : "r"(u[i]), "r"(12u));
  sh ^= bm ^ sz;
#endif
  unsigned g;
  asm("{ .reg .pred p; isspacep.global p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(g) : "l"(u));
  o[i] = r + s + t + bf + fn + pm + sh + g;
  of[i] = y;
}

__global__ void inline_float_ops(const float *a, float *o, double *od) {
  int i = threadIdx.x;
  float x = a[i], r0, r1, r2, r3;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r0) : "f"(x));
  asm("sqrt.approx.f32 %0, %1;" : "=f"(r1) : "f"(x));
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r2) : "f"(x));
  asm("tanh.approx.f32 %0, %1;" : "=f"(r3) : "f"(x));
  double d;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(d) : "d"((double)x));
  asm("fma.rn.sat.f32 %0, %1, %2, %3;" : "=f"(r0) : "f"(x), "f"(r1), "f"(r0));
#if __CUDA_ARCH__ >= 800
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r1) : "f"(x), "f"(r2));
#endif
  o[i] = r0 + r1 + r2 + r3;
  od[i] = d;
}
