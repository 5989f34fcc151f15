/* SPDX-License-Identifier: Apache-2.0 */
/* The host facts Google Benchmark writes in its JSON
 * "context" and benchrun's results do not record (CPU clock, caches, load
 * average, every CPU's cpufreq governor), read the way Google Benchmark's
 * src/sysinfo.cc reads them on Linux. */
#ifndef BR_GBENCH_HOST_H
#define BR_GBENCH_HOST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most caches read (index0 .. index15 of cpu0). */
#define BR_GBENCH_MAX_CACHES 16

/* One CPU cache as sysinfo.cc's CacheInfo: sysfs
 * /sys/devices/system/cpu/cpu0/cache/index<i>/{type,level,size,shared_cpu_map}. */
typedef struct br_gbench_cache {
    char type[32];   /* "Data", "Instruction" or "Unified", as sysfs writes it */
    int level;       /* 1, 2, 3 */
    long long size;  /* bytes ("32K" in sysfs is 32 * 1024) */
    int num_sharing; /* CPUs sharing it: the set bits of shared_cpu_map */
} br_gbench_cache;

typedef struct br_gbench_host {
    /* CPU clock, MHz: tsc_freq_khz; else scaling_cur_freq when no governor
     * scales; else cpuinfo_max_freq; else /proc/cpuinfo's "cpu MHz", else its
     * "bogomips" (sysinfo.cc GetCPUCyclesPerSecond). 0 when none is readable. */
    double mhz;
    /* 1: some CPU's cpufreq governor is not "performance"; 0: every readable
     * governor is "performance"; -1: no governor file is readable (Google
     * Benchmark then writes false; benchrun leaves the key out). */
    int scaling;
    br_gbench_cache caches[BR_GBENCH_MAX_CACHES];
    size_t n_caches;
    double load_avg[3]; /* getloadavg(3): 1, 5 and 15 minutes */
    size_t n_load_avg;  /* 0 when unknown */
} br_gbench_host;

/* Read *out from the file system under `root` ("" for the real one; a
 * directory holding sys/devices/system/cpu/... and proc/cpuinfo for tests).
 * num_cpus bounds the governors read (cpu0 .. cpu<num_cpus - 1>). The load
 * average is read only when root is "" (it has no file under a root). A
 * fact that cannot be read is left empty; a cache entry with a missing or
 * malformed file ends the list there. Never fails. */
void br_gbench_host_read(br_gbench_host *out, const char *root, int num_cpus);

/* CPUs in a sysfs CPU map ("00000000,0000ffff": comma-separated hex words;
 * Google Benchmark's CountSetBitsInCPUMap). -1 when it is not such a map. */
int br_gbench_cpu_map_count(const char *map);

#ifdef __cplusplus
}
#endif
#endif
