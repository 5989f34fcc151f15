/* SPDX-License-Identifier: Apache-2.0 */
#include "device.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"

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

/* The few NVML declarations benchrun needs, from the NVML API Reference Guide
 * (https://docs.nvidia.com/deploy/nvml-api/): nvmlReturn_t is an enum whose
 * NVML_SUCCESS is 0; nvmlDevice_t is an opaque handle (a pointer to struct
 * nvmlDevice_st); nvmlClockType_t has NVML_CLOCK_GRAPHICS 0, NVML_CLOCK_SM 1,
 * NVML_CLOCK_MEM 2. Functions: nvmlInit_v2(void), nvmlShutdown(void)
 * ("Initialization and Cleanup"); nvmlDeviceGetHandleByUUID(const char *uuid,
 * nvmlDevice_t *device) and nvmlDeviceGetClockInfo(nvmlDevice_t device,
 * nvmlClockType_t type, unsigned int *clock), the current clock in MHz
 * ("Device Queries"). nvml.h is not included and NVML is not linked: the
 * library is loaded with dlopen so benchrun runs where there is no driver. */
typedef int br_nvml_return;
typedef struct br_nvml_device_st *br_nvml_device;
#define BR_NVML_SUCCESS  0
#define BR_NVML_CLOCK_SM 1

/* A function pointer from dlsym, without the object-to-function pointer cast
 * ISO C leaves undefined (the POSIX dlsym rationale's idiom). */
static int nvml_sym(void *lib, const char *name, void *fn_out, size_t fn_size) {
    void *p = dlsym(lib, name);
    if (!p || fn_size != sizeof p)
        return -1;
    memcpy(fn_out, &p, sizeof p);
    return 0;
}

/* The current SM clock of the device with this uuid ("GPU-..."), MHz, read
 * through NVML; 0 when NVML is missing or any call fails. */
static int nvml_sm_clock_now_mhz(const char *uuid) {
    br_nvml_return (*init)(void) = NULL;
    br_nvml_return (*shutdown)(void) = NULL;
    br_nvml_return (*by_uuid)(const char *, br_nvml_device *) = NULL;
    br_nvml_return (*clock_info)(br_nvml_device, int, unsigned *) = NULL;
    int mhz = 0;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!lib)
        return 0;
    if (nvml_sym(lib, "nvmlInit_v2", &init, sizeof init) ||
        nvml_sym(lib, "nvmlShutdown", &shutdown, sizeof shutdown) ||
        nvml_sym(lib, "nvmlDeviceGetHandleByUUID", &by_uuid, sizeof by_uuid) ||
        nvml_sym(lib, "nvmlDeviceGetClockInfo", &clock_info, sizeof clock_info))
        goto done;
    if (init() != BR_NVML_SUCCESS)
        goto done;
    br_nvml_device dev = NULL;
    unsigned clock = 0;
    if (by_uuid(uuid, &dev) == BR_NVML_SUCCESS &&
        clock_info(dev, BR_NVML_CLOCK_SM, &clock) == BR_NVML_SUCCESS && clock > 0 &&
        clock < 1000000)
        mhz = (int)clock;
    shutdown();
done:
    dlclose(lib);
    return mhz;
}

int br_device_query(br_device *out, int index) {
    memset(out, 0, sizeof *out);
    out->ecc = -1;
    out->measured_peak_gbps = NAN;
    out->peak_gflops = NAN;
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
    out->ecc = p.ECCEnabled ? 1 : 0;
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
    out->peak_gflops =
        br_device_peak_gflops_fp32(out->cc_major, out->cc_minor, out->sm_count, out->sm_clock_khz);
    out->sm_clock_now_mhz = nvml_sm_clock_now_mhz(out->uuid);
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
    out->ecc = -1;
    out->measured_peak_gbps = NAN;
    out->peak_gflops = NAN;
    return br_error_set("benchrun was built without CUDA");
}

#endif

/* FP32 lanes per SM by compute capability: "32-bit floating-point add,
 * multiply, multiply-add" in the throughput table of the CUDA C++ Programming
 * Guide, section "Arithmetic Instructions" (Number of Results per Clock Cycle
 * per Multiprocessor): 5.x (5.0, 5.2, 5.3) 128, 6.0 64, 6.1 128, 6.2 128, 7.x
 * (7.0, 7.2, 7.5) 64, 8.0 64, 8.6 128, 8.9 128, 9.0 128, 10.x 128, 12.x 128;
 * 3.x (3.0, 3.2, 3.5, 3.7) 192 in the editions that still cover Kepler (CUDA
 * 11). 8.7 (Jetson Orin) and 11.0 (Jetson Thor, 10.1 before CUDA 13) are not
 * columns of every edition; their 128 is from NVIDIA's cuda-samples,
 * Common/helper_cuda.h, _ConvertSMVer2Cores (0x87 and 0xb0: 128), which
 * agrees with the guide everywhere else. minor -1 stands for every minor
 * version of that major one (the guide's "x"). Anything else is unknown. */
static const struct {
    int major, minor, lanes;
} fp32_lanes[] = {
    {3, -1, 192}, {5, -1, 128},  {6, 0, 64},   {6, 1, 128},   {6, 2, 128},
    {7, -1, 64},  {8, 0, 64},    {8, 6, 128},  {8, 7, 128},   {8, 9, 128},
    {9, 0, 128},  {10, -1, 128}, {11, 0, 128}, {12, -1, 128},
};

int br_device_fp32_lanes_per_sm(int cc_major, int cc_minor) {
    if (cc_major <= 0 || cc_minor < 0)
        return 0;
    for (size_t i = 0; i < sizeof fp32_lanes / sizeof fp32_lanes[0]; i++) {
        if (fp32_lanes[i].major == cc_major &&
            (fp32_lanes[i].minor == -1 || fp32_lanes[i].minor == cc_minor))
            return fp32_lanes[i].lanes;
    }
    return 0;
}

/* GFLOP/s = SMs x lanes x 2 FLOP (an FMA) x clock (kHz x 1e3 Hz) / 1e9. H100
 * SXM (9.0, 132 SMs, 1980 MHz): 132 x 128 x 2 x 1.98e9 = 66.9 TFLOP/s
 * (66908.16 GFLOP/s), NVIDIA's datasheet figure for FP32 on the SXM5 part
 * ("67 teraFLOPS"). */
double br_device_peak_gflops_fp32(int cc_major, int cc_minor, int sm_count, int sm_clock_khz) {
    int lanes = br_device_fp32_lanes_per_sm(cc_major, cc_minor);
    if (lanes <= 0 || sm_count <= 0 || sm_clock_khz <= 0)
        return NAN;
    return (double)sm_count * (double)lanes * 2.0 * (double)sm_clock_khz * 1e3 / 1e9;
}

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
