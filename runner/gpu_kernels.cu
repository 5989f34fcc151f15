#include "gpu_kernels.h"

namespace {

__global__ void read_flush(const int4 *__restrict__ p, size_t n, unsigned *sink) {
    unsigned acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        int4 v = p[i];
        acc ^= (unsigned)(v.x ^ v.y ^ v.z ^ v.w);
    }
    /* The buffer is zeroed, so acc is 0; the compiler cannot know that, so the
     * loads stay. */
    if (acc == 0x9e3779b9u)
        *sink = acc;
}

} // namespace

extern "C" cudaError_t br_gpu_read_flush(cudaStream_t stream, const void *buf, size_t bytes,
                                         unsigned *sink, int sm_count) {
    int blocks = (sm_count > 0 ? sm_count : 80) * 8;
    read_flush<<<blocks, 256, 0, stream>>>(static_cast<const int4 *>(buf), bytes / sizeof(int4),
                                           sink);
    return cudaGetLastError();
}
