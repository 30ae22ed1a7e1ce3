// Programmatic dependent launch (griddepcontrol, sm_90), register reallocation (setmaxnreg, sm_90a) and a warpgroup producer/consumer split.
__global__ void dependent_launch(const float *in, float *out) {
#if __CUDA_ARCH__ >= 900
  cudaGridDependencySynchronize();
  out[threadIdx.x] = in[threadIdx.x] * 2.0f;
  cudaTriggerProgrammaticLaunchCompletion();
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;");
#else
  out[threadIdx.x] = in[threadIdx.x] * 2.0f;
#endif
}

__global__ void __launch_bounds__(384, 1) warp_specialized(float *out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  unsigned wg = threadIdx.x / 128;
  if (wg == 0) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    out[threadIdx.x] = 1.0f;
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
    out[threadIdx.x] = 2.0f;
  }
#else
  out[threadIdx.x] = 0.0f;
#endif
}
