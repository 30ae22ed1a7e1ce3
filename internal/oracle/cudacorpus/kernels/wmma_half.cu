// WMMA 16x16x16 half and bf16 tiles, float accumulate.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
__global__ void wmma_f16(float *c, const __half *a, const __half *b) {
#if __CUDA_ARCH__ >= 700
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
#endif
}

__global__ void wmma_f16acc(__half *c, const __half *a, const __half *b) {
#if __CUDA_ARCH__ >= 700
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, __half> fc;
  wmma::fill_fragment(fc, __float2half(0.0f));
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_col_major);
#endif
}
