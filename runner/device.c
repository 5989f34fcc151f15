#include "device.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "error.h"

#if BR_HAVE_CUDA
#include <dlfcn.h>

#include "cuda_check.h"

int br_cuda_check(cudaError_t e, const char *call, const char *file, int line) {
    if (e == cudaSuccess)
        return 0;
    return br_error_set("CUDA error at %s:%d: %s: %s: %s", file, line, call, cudaGetErrorName(e),
                        cudaGetErrorString(e));
}

int br_device_available(char *why, size_t why_len) {
    /* Without the driver library the runtime only says "driver version is
     * insufficient", which misleads on a machine that has no driver at all. */
    void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!driver) {
        snprintf(why, why_len, "no NVIDIA driver on this machine (%s)", dlerror());
        return 0;
    }
    dlclose(driver);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        snprintf(why, why_len, "no usable CUDA device (cudaGetDeviceCount: %s)",
                 cudaGetErrorString(e));
        return 0;
    }
    if (count == 0) {
        snprintf(why, why_len, "no CUDA device found");
        return 0;
    }
    return 1;
}

int br_device_query(br_device *out, int index) {
    memset(out, 0, sizeof *out);
    struct cudaDeviceProp p;
    if (BR_CUDA(cudaGetDeviceProperties(&p, index)))
        return -1;
    out->index = index;
    snprintf(out->name, sizeof out->name, "%s", p.name);
    const unsigned char *u = (const unsigned char *)p.uuid.bytes;
    snprintf(out->uuid, sizeof out->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14],
             u[15]);
    out->cc_major = p.major;
    out->cc_minor = p.minor;
    out->sm_count = p.multiProcessorCount;
    out->bus_width_bits = p.memoryBusWidth;
    out->l2_bytes = (size_t)p.l2CacheSize;
    out->global_mem_bytes = p.totalGlobalMem;
    if (BR_CUDA(cudaDeviceGetAttribute(&out->sm_clock_khz, cudaDevAttrClockRate, index)) ||
        BR_CUDA(cudaDeviceGetAttribute(&out->mem_clock_khz, cudaDevAttrMemoryClockRate, index)) ||
        BR_CUDA(cudaDriverGetVersion(&out->driver_version)) ||
        BR_CUDA(cudaRuntimeGetVersion(&out->runtime_version)))
        return -1;
    /* Theoretical peak DRAM bandwidth = 2 (double data rate) x memory clock x
     * bus width in bytes, as in M. Harris, "How to Implement Performance
     * Metrics in CUDA C/C++", NVIDIA Developer Blog, 2012:
     *   BW = memoryClockRate(kHz) * 1e3 * (memoryBusWidth / 8) * 2 / 1e9  [GB/s].
     * For an H100 SXM5 (2619 MHz, 5120 bit) this gives 3352 GB/s, its datasheet
     * figure. */
    out->peak_gbps =
        (double)out->mem_clock_khz * 1e3 * ((double)out->bus_width_bits / 8.0) * 2.0 / 1e9;
    return 0;
}

#else /* !BR_HAVE_CUDA */

int br_device_available(char *why, size_t why_len) {
    snprintf(why, why_len, "benchrun was built without CUDA (no nvcc found at configure time)");
    return 0;
}

int br_device_query(br_device *out, int index) {
    (void)index;
    memset(out, 0, sizeof *out);
    return br_error_set("benchrun was built without CUDA");
}

#endif

static void read_first_line(const char *path, char *buf, size_t len) {
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(buf, (int)len, f))
        buf[strcspn(buf, "\n")] = '\0';
    else
        buf[0] = '\0';
    fclose(f);
}

void br_host_query(br_host *out) {
    memset(out, 0, sizeof *out);
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                const char *colon = strchr(line, ':');
                if (colon) {
                    colon++;
                    while (*colon == ' ' || *colon == '\t')
                        colon++;
                    snprintf(out->cpu_model, sizeof out->cpu_model, "%s", colon);
                    out->cpu_model[strcspn(out->cpu_model, "\n")] = '\0';
                }
                break;
            }
        }
        fclose(f);
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    out->logical_cores = n > 0 ? (int)n : 0;
    read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", out->governor,
                    sizeof out->governor);
    if (gethostname(out->hostname, sizeof out->hostname) != 0)
        out->hostname[0] = '\0';
    out->hostname[sizeof out->hostname - 1] = '\0';
}
