// Texture and surface objects.
__global__ void tex2d(float *o, cudaTextureObject_t t, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  o[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f) + tex1Dfetch<float>(t, x);
}

__global__ void surf2d(cudaSurfaceObject_t s, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  float v;
  surf2Dread(&v, s, x * 4, y);
  surf2Dwrite(v * 2.0f, s, x * 4, y);
}
