/* device.h - what benchrun records about the machine it measures on. */
#ifndef BR_DEVICE_H
#define BR_DEVICE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One CUDA device. */
typedef struct br_device {
    int index;
    char name[256];
    char uuid[48];          /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
    int cc_major, cc_minor; /* compute capability */
    int sm_count;
    int sm_clock_khz;        /* peak SM clock, kHz */
    int mem_clock_khz;       /* peak memory clock, kHz */
    int bus_width_bits;      /* memory bus width, bits */
    size_t l2_bytes;         /* L2 cache size, bytes */
    size_t global_mem_bytes; /* device memory, bytes */
    double peak_gbps;        /* theoretical peak DRAM bandwidth, GB/s (1e9 B/s); see device.c */
    int driver_version;      /* CUDA driver API version, e.g. 13000 */
    int runtime_version;     /* CUDA runtime version benchrun was linked with */
} br_device;

/* The host CPU. Fields that cannot be read are left empty (0 / ""). */
typedef struct br_host {
    char cpu_model[256];
    int logical_cores;
    char governor[64]; /* cpufreq governor of CPU 0, e.g. "performance" */
    char hostname[256];
} br_host;

/* Whether a usable CUDA device exists. Returns 1, or 0 and writes a reason a
 * user can act on into why (e.g. "no CUDA device: cudaGetDeviceCount: no
 * CUDA-capable device is detected", or "benchrun was built without CUDA"). */
int br_device_available(char *why, size_t why_len);

/* Fill *out for device `index`. Returns 0, or -1 with the error set. */
int br_device_query(br_device *out, int index);

/* Fill *out for this machine's CPU; never fails (unknown fields stay empty). */
void br_host_query(br_host *out);

#ifdef __cplusplus
}
#endif
#endif
