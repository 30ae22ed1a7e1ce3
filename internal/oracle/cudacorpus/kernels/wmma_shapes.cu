// WMMA shapes beyond 16x16x16: m32n8k16 and m8n32k16 half, f64 m8n8k4 (sm_80), sub-byte s4 and b1 (sm_75), column-major stores.
#include <mma.h>
using namespace nvcuda;
__global__ void wmma_rect(const half *a, const half *b, float *c) {
  wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 32);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 32, wmma::mem_col_major);
  wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> ga;
  wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::col_major> gb;
  wmma::fragment<wmma::accumulator, 8, 32, 16, half> gc;
  wmma::fill_fragment(gc, __float2half(1.0f));
  wmma::load_matrix_sync(ga, a + 512, 16);
  wmma::load_matrix_sync(gb, b + 512, 16);
  wmma::mma_sync(gc, ga, gb, gc);
  wmma::store_matrix_sync((half *)(c + 512), gc, 32, wmma::mem_row_major);
}

__global__ void wmma_f64_subbyte(const double *a, const double *b, double *c, const void *sa, const void *sb, int *sc) {
#if __CUDA_ARCH__ >= 800
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
  wmma::load_matrix_sync(fa, a, 4);
  wmma::load_matrix_sync(fb, b, 4);
  wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 8, wmma::mem_col_major);
#endif
  wmma::fragment<wmma::matrix_a, 8, 8, 32, wmma::experimental::precision::s4, wmma::row_major> xa;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, wmma::experimental::precision::s4, wmma::col_major> xb;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> xc;
  wmma::fill_fragment(xc, 0);
  wmma::load_matrix_sync(xa, sa, 32);
  wmma::load_matrix_sync(xb, sb, 32);
  wmma::mma_sync(xc, xa, xb, xc);
  wmma::store_matrix_sync(sc, xc, 8, wmma::mem_row_major);
  wmma::fragment<wmma::matrix_a, 8, 8, 128, wmma::experimental::precision::b1, wmma::row_major> ba;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, wmma::experimental::precision::b1, wmma::col_major> bb;
  wmma::load_matrix_sync(ba, sa, 128);
  wmma::load_matrix_sync(bb, sb, 128);
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> bc;
  wmma::fill_fragment(bc, 0);
  wmma::bmma_sync(bc, ba, bb, bc, wmma::experimental::bmmaBitOpXOR);
  wmma::store_matrix_sync(sc + 64, bc, 8, wmma::mem_col_major);
}
