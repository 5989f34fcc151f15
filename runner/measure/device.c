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

/* A line being assembled from parts joined by a separator; writes stop at
 * the end of the buffer, which stays NUL-terminated. */
typedef struct summary {
    char *buf;
    size_t len;
    size_t used;
    int truncated;
    const char *sep;
} summary;

static void summary_init(summary *s, char *buf, size_t len, int ascii) {
    s->buf = buf;
    s->len = len;
    s->used = 0;
    s->truncated = 0;
    s->sep = ascii ? " - " : " \xc2\xb7 "; /* U+00B7 MIDDLE DOT */
    if (len > 0)
        buf[0] = '\0';
}

static void summary_vadd(summary *s, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void summary_vadd(summary *s, const char *fmt, va_list ap) {
    if (s->truncated || s->len == 0) {
        s->truncated = 1;
        return;
    }
    int n = vsnprintf(s->buf + s->used, s->len - s->used, fmt, ap);
    if (n < 0) {
        s->buf[s->used] = '\0';
        s->truncated = 1;
        return;
    }
    if ((size_t)n >= s->len - s->used) {
        s->used = s->len - 1;
        s->truncated = 1;
        return;
    }
    s->used += (size_t)n;
}

static void summary_raw(summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void summary_raw(summary *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    summary_vadd(s, fmt, ap);
    va_end(ap);
}

/* Append a new part, preceded by the separator unless it is the first. */
static void summary_part(summary *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void summary_part(summary *s, const char *fmt, ...) {
    if (s->used > 0)
        summary_raw(s, "%s", s->sep);
    va_list ap;
    va_start(ap, fmt);
    summary_vadd(s, fmt, ap);
    va_end(ap);
}

/* When the line was cut, drop a partial UTF-8 sequence at its end. */
static void summary_finish(summary *s) {
    if (!s->truncated || s->len == 0)
        return;
    size_t end = s->used;
    size_t i = end;
    while (i > 0 && ((unsigned char)s->buf[i - 1] & 0xC0) == 0x80)
        i--; /* continuation bytes */
    if (i > 0 && ((unsigned char)s->buf[i - 1] & 0x80)) {
        unsigned char lead = (unsigned char)s->buf[i - 1];
        size_t want = (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : 4;
        if (end - (i - 1) < want)
            end = i - 1;
    }
    s->buf[end] = '\0';
    s->used = end;
}

/* The length of s without leading and trailing blanks; *start skips the leading ones. */
static int trimmed(const char *s, const char **start) {
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        n--;
    *start = s;
    return n > 0x7fffffff ? 0x7fffffff : (int)n;
}

void br_device_summary(char *buf, size_t len, const br_device *d, int ascii) {
    summary s;
    summary_init(&s, buf, len, ascii);
    if (!d)
        return;
    const char *name;
    int name_len = trimmed(d->name, &name);
    if (name_len > 0)
        summary_part(&s, "%.*s", name_len, name);
    if (d->cc_major > 0)
        summary_part(&s, "sm_%d%d", d->cc_major, d->cc_minor);
    if (d->sm_count > 0)
        summary_part(&s, "%d SMs", d->sm_count);
    int max_mhz =
        d->sm_clock_khz > 0 ? d->sm_clock_khz / 1000 + (d->sm_clock_khz % 1000 >= 500) : 0;
    if (max_mhz > 0 && d->sm_clock_now_mhz > 0)
        summary_part(&s, "%d MHz (now %d)", max_mhz, d->sm_clock_now_mhz);
    else if (max_mhz > 0)
        summary_part(&s, "%d MHz", max_mhz);
    else if (d->sm_clock_now_mhz > 0)
        summary_part(&s, "now %d MHz", d->sm_clock_now_mhz);
    int have_peak = isfinite(d->peak_gbps) && d->peak_gbps > 0.0;
    int have_measured = isfinite(d->measured_peak_gbps) && d->measured_peak_gbps > 0.0;
    if (have_peak && have_measured)
        summary_part(&s, "%.0f GB/s (measured %.0f)", d->peak_gbps, d->measured_peak_gbps);
    else if (have_peak)
        summary_part(&s, "%.0f GB/s", d->peak_gbps);
    else if (have_measured)
        summary_part(&s, "measured %.0f GB/s", d->measured_peak_gbps);
    if (d->ecc == 1 || d->ecc == 0)
        summary_part(&s, "ECC %s", d->ecc ? "on" : "off");
    summary_finish(&s);
}

void br_host_summary(char *buf, size_t len, const br_host *h, int ascii) {
    summary s;
    summary_init(&s, buf, len, ascii);
    if (!h)
        return;
    const char *model, *governor;
    int model_len = trimmed(h->cpu_model, &model);
    int governor_len = trimmed(h->governor, &governor);
    if (model_len > 0)
        summary_part(&s, "%.*s", model_len, model);
    if (h->logical_cores > 0)
        summary_part(&s, "%d %s", h->logical_cores, h->logical_cores == 1 ? "core" : "cores");
    if (governor_len > 0)
        summary_part(&s, "governor %.*s", governor_len, governor);
    summary_finish(&s);
}
