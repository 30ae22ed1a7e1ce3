// Memory fences and ordering: thread fences at each scope, atomic_thread_fence orders, acquire/release loads and stores.
#include <cuda/atomic>
__global__ void fences(int *data, int *flag) {
  data[threadIdx.x] = threadIdx.x;
  __threadfence_block();
  __threadfence();
  __threadfence_system();
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_system);
  cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device);
  if (threadIdx.x == 0) atomicExch(flag, 1);
}

__global__ void acquire_release(int *data, int *flag, int *out) {
  int v;
#if __CUDA_ARCH__ >= 700
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(flag) : "memory");
  asm volatile("ld.relaxed.sys.global.b32 %0, [%1];" : "=r"(v) : "l"(flag + 1) : "memory");
  asm volatile("st.release.cta.global.b32 [%0], %1;" :: "l"(data), "r"(v) : "memory");
  asm volatile("st.relaxed.gpu.global.b32 [%0], %1;" :: "l"(data + 1), "r"(v) : "memory");
  asm volatile("fence.sc.gpu;" ::: "memory");
  asm volatile("fence.acq_rel.sys;" ::: "memory");
  asm volatile("ld.volatile.global.b32 %0, [%1];" : "=r"(v) : "l"(flag + 2) : "memory");
#else
  v = *(volatile int *)flag;
#endif
#if __CUDA_ARCH__ >= 900
  asm volatile("fence.acq_rel.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.global;" ::: "memory");
  asm volatile("fence.proxy.alias;" ::: "memory");
#endif
  out[threadIdx.x] = v;
}
