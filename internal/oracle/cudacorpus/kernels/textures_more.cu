// Texture objects: 1D fetches, 2D with LOD and gradients, 3D, layered, cubemap, gather, integer and normalized reads.
// float4 has no + of its own.
__device__ inline float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__global__ void tex_kinds(cudaTextureObject_t t1, cudaTextureObject_t t2, cudaTextureObject_t t3, cudaTextureObject_t tl,
                          cudaTextureObject_t tc, cudaTextureObject_t ti, float4 *out, int4 *iout) {
  int i = threadIdx.x;
  float u = i * 0.01f, v = i * 0.02f;
  float4 a = tex1Dfetch<float4>(t1, i);
  float4 b = tex1D<float4>(t1, u) + tex1DLod<float4>(t1, u, 1.0f) + tex1DGrad<float4>(t1, u, 0.1f, 0.2f);
  float4 c = tex2D<float4>(t2, u, v) + tex2DLod<float4>(t2, u, v, 2.0f) + tex2DGrad<float4>(t2, u, v, make_float2(0.1f, 0.f), make_float2(0.f, 0.1f));
  float4 d = tex3D<float4>(t3, u, v, 0.5f) + tex3DLod<float4>(t3, u, v, 0.5f, 1.0f);
  float4 e = tex2DLayered<float4>(tl, u, v, i & 3) + tex1DLayered<float4>(tl, u, 1) + texCubemap<float4>(tc, u, v, 1.0f);
  float4 g = tex2Dgather<float4>(t2, u, v, 1);
  out[i] = make_float4(a.x + b.x + c.x + d.x + e.x + g.x, a.y + b.y, c.z + d.z, e.w + g.w);
  int4 k = tex1Dfetch<int4>(ti, i);
  int r = tex2D<int>(ti, u, v);
  iout[i] = make_int4(k.x + r, k.y, k.z, k.w);
}

__global__ void tex_query(cudaTextureObject_t t2, float *out) {
  int i = threadIdx.x;
  float f = tex2D<float>(t2, i + 0.5f, 0.5f);
  uchar4 c = tex2D<uchar4>(t2, i + 0.5f, 1.5f);
  float n = tex1Dfetch<float>(t2, i);
  out[i] = f + c.x + c.w + n;
}
