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
    int sm_clock_khz;          /* maximum SM clock, kHz (cudaDevAttrClockRate) */
    int sm_clock_now_mhz;      /* current SM clock, MHz, read through NVML when the run starts;
                                  0 when NVML cannot be read */
    int ecc;                   /* ECC: 1 on, 0 off, -1 unknown */
    int mem_clock_khz;         /* peak memory clock, kHz */
    int bus_width_bits;        /* memory bus width, bits */
    size_t l2_bytes;           /* L2 cache size, bytes */
    size_t global_mem_bytes;   /* device memory, bytes */
    double peak_gbps;          /* theoretical peak DRAM bandwidth, GB/s (1e9 B/s); see device.c */
    double measured_peak_gbps; /* device-to-device copy bandwidth measured by benchrun, GB/s;
                                  NAN when not measured (suite without `peak: measured`) */
    double peak_gflops;        /* FP32 theoretical peak, GFLOP/s (1e9 FLOP/s):
                                  br_device_peak_gflops_fp32 of this device; NAN when its
                                  compute capability is not in the table */
    int driver_version;        /* CUDA driver API version, e.g. 13000 */
    int runtime_version;       /* CUDA runtime version benchrun was linked with */
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

/* Fill *out for device `index`. ecc comes from cudaDeviceProp.ECCEnabled;
 * sm_clock_now_mhz is read through NVML (libnvidia-ml.so.1, loaded at run time)
 * and is 0 when NVML cannot be loaded or read, which is not an error;
 * measured_peak_gbps is set to NAN (the caller fills it in when it measures);
 * peak_gflops is br_device_peak_gflops_fp32 of the queried figures (NAN for a
 * compute capability outside the table). Returns 0, or -1 with the error set
 * (then peak_gflops and measured_peak_gbps are NAN). */
int br_device_query(br_device *out, int index);

/* FP32 lanes per SM of compute capability cc_major.cc_minor: the results per
 * clock cycle per multiprocessor of "32-bit floating-point add, multiply,
 * multiply-add" in the CUDA C++ Programming Guide's throughput table
 * ("Arithmetic Instructions"): 3.x 192, 5.x 128, 6.0 64, 6.1 and 6.2 128,
 * 7.x 64, 8.0 64, 8.6, 8.7 and 8.9 128, 9.0 128, 10.x 128, 11.0 128, 12.x 128
 * (device.c has the sources). Returns 0 for a compute capability not in the
 * table: an unknown architecture gets no guess. Pure. */
int br_device_fp32_lanes_per_sm(int cc_major, int cc_minor);

/* FP32 theoretical peak, GFLOP/s (1e9 FLOP/s): sm_count x FP32 lanes per SM
 * (br_device_fp32_lanes_per_sm) x 2 FLOP per lane per clock (one fused
 * multiply-add) x the maximum SM clock (sm_clock_khz, kHz, as in
 * br_device.sm_clock_khz). An H100 SXM (9.0, 132 SMs, 1980 MHz) gives
 * 132 x 128 x 2 x 1.98e9 = 66.9e12 FLOP/s, i.e. 66908.16 GFLOP/s. NAN when the
 * compute capability is not in the table or sm_count or sm_clock_khz is not
 * positive. Pure. */
double br_device_peak_gflops_fp32(int cc_major, int cc_minor, int sm_count, int sm_clock_khz);

/* Fill *out for this machine's CPU; never fails (unknown fields stay empty). */
void br_host_query(br_host *out);

/* A one-line description of d for a table title, written into buf (always
 * NUL-terminated when len > 0; cut at a character boundary when too long):
 *   "NVIDIA H100 80GB HBM3 · sm_90 · 132 SMs · 1980 MHz (now 1755) · 3352 GB/s · ECC on"
 * The clock is the maximum SM clock (sm_clock_khz) with the current one
 * (sm_clock_now_mhz) in parentheses; the bandwidth is the theoretical peak
 * (peak_gbps, GB/s = 1e9 B/s) followed by "(measured N)" when
 * measured_peak_gbps is finite and positive. Unknown parts (empty name, zero
 * counts and clocks, non-positive or NAN bandwidths, ecc -1) are left out.
 * Parts are joined by " · " (U+00B7, UTF-8), or by " - " when ascii is
 * nonzero. d may be NULL (writes ""). */
void br_device_summary(char *buf, size_t len, const br_device *d, int ascii);

/* A one-line description of h for a table title, written into buf like
 * br_device_summary: "AMD EPYC 9654 · 16 cores · governor performance".
 * Unknown parts (empty cpu_model or governor, logical_cores <= 0) are left
 * out; the hostname is not shown. h may be NULL (writes ""). */
void br_host_summary(char *buf, size_t len, const br_host *h, int ascii);

#ifdef __cplusplus
}
#endif
#endif
