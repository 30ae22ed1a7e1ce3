// Surface objects: 1D/2D/3D and layered reads and writes with each boundary mode, and cubemap surfaces.
__global__ void surf_rw(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2, cudaSurfaceObject_t s3, cudaSurfaceObject_t sl, cudaSurfaceObject_t sc) {
  int x = threadIdx.x, y = blockIdx.x;
  float v = surf1Dread<float>(s1, x * 4);
  surf1Dwrite(v * 2.0f, s1, x * 4);
  float4 w = surf2Dread<float4>(s2, x * 16, y, cudaBoundaryModeClamp);
  surf2Dwrite(make_float4(w.x, w.y, w.z, 1.0f), s2, x * 16, y, cudaBoundaryModeZero);
  int k = surf3Dread<int>(s3, x * 4, y, 1, cudaBoundaryModeTrap);
  surf3Dwrite(k + 1, s3, x * 4, y, 2);
  uchar4 c = surf2DLayeredread<uchar4>(sl, x * 4, y, 1);
  surf2DLayeredwrite(c, sl, x * 4, y, 0);
  short2 h = surfCubemapread<short2>(sc, x * 4, y, 3);
  surfCubemapwrite(h, sc, x * 4, y, 4);
  unsigned long long l = surf1Dread<unsigned long long>(s1, x * 8 + 512);
  surf1Dwrite(l ^ 1ull, s1, x * 8 + 512, cudaBoundaryModeClamp);
}

__global__ void surf_inline(cudaSurfaceObject_t s, unsigned *out) {
  unsigned r;
  asm volatile("suld.b.2d.b32.trap {%0}, [%1, {%2, %3}];" : "=r"(r) : "l"(s), "r"((int)threadIdx.x * 4), "r"(0));
  asm volatile("sust.b.2d.b32.clamp [%0, {%1, %2}], {%3};" :: "l"(s), "r"((int)threadIdx.x * 4), "r"(1), "r"(r) : "memory");
  unsigned q;
  asm volatile("suq.width.b32 %0, [%1];" : "=r"(q) : "l"(s));
  out[threadIdx.x] = r + q;
}
