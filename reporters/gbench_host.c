/* SPDX-License-Identifier: Apache-2.0 */
/* Host facts for the Google Benchmark JSON context, read as
 * google/benchmark src/sysinfo.cc reads them on Linux (CpuScaling,
 * GetCPUCyclesPerSecond, GetCacheSizesFromKVFS, CountSetBitsInCPUMap,
 * GetLoadAvg). */
#include "gbench_host.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CPU_DIR "/sys/devices/system/cpu"

/* The first whitespace-delimited word of root/rel into buf; 0, or -1 when
 * the file cannot be read or is empty. */
static int read_word(char *buf, size_t len, const char *root, const char *rel) {
    char path[4096];
    snprintf(path, sizeof path, "%s%s", root, rel);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    char word[512];
    if (sscanf(line, "%511s", word) != 1)
        return -1;
    size_t n = strlen(word);
    if (n >= len)
        return -1;
    memcpy(buf, word, n + 1);
    return 0;
}

/* A non-negative decimal integer from root/rel; -1 when absent or malformed. */
static long long read_integer(const char *root, const char *rel) {
    char w[64];
    if (read_word(w, sizeof w, root, rel) != 0)
        return -1;
    char *end;
    long long v = strtoll(w, &end, 10);
    return end != w && *end == '\0' && v >= 0 ? v : -1;
}

int br_gbench_cpu_map_count(const char *map) {
    int total = 0;
    const char *p = map;
    for (;;) {
        size_t n = strcspn(p, ",\n");
        if (n == 0 || n > 16)
            return -1;
        for (size_t i = 0; i < n; i++) {
            if (!isxdigit((unsigned char)p[i]))
                return -1;
            int d =
                isdigit((unsigned char)p[i]) ? p[i] - '0' : tolower((unsigned char)p[i]) - 'a' + 10;
            total += __builtin_popcount((unsigned)d);
        }
        p += n;
        if (*p != ',')
            return *p == '\0' || (*p == '\n' && p[1] == '\0') ? total : -1;
        p++;
    }
}

/* sysinfo.cc CpuScaling: 1 as soon as a governor is not "performance". */
static int read_scaling(const char *root, int num_cpus) {
    int seen = 0;
    for (int cpu = 0; cpu < num_cpus; cpu++) {
        char rel[128], gov[64];
        snprintf(rel, sizeof rel, CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu);
        if (read_word(gov, sizeof gov, root, rel) != 0)
            continue;
        if (strcmp(gov, "performance") != 0)
            return 1;
        seen = 1;
    }
    return seen ? 0 : -1;
}

/* The value after ':' on a /proc/cpuinfo line, if positive; else -1. */
static double cpuinfo_value(const char *line) {
    const char *colon = strchr(line, ':');
    if (!colon)
        return -1;
    char *end;
    double v = strtod(colon + 1, &end);
    return end != colon + 1 ? v : -1;
}

/* sysinfo.cc GetCPUCyclesPerSecond on Linux, in MHz; 0 when unknown. */
static double read_mhz(const char *root, int scaling) {
    long long khz = read_integer(root, CPU_DIR "/cpu0/tsc_freq_khz");
    if (khz < 0 && scaling != 1)
        khz = read_integer(root, CPU_DIR "/cpu0/cpufreq/scaling_cur_freq");
    if (khz < 0)
        khz = read_integer(root, CPU_DIR "/cpu0/cpufreq/cpuinfo_max_freq");
    if (khz >= 0)
        return (double)khz / 1000.0;
    char path[4096];
    snprintf(path, sizeof path, "%s/proc/cpuinfo", root);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    double bogo = -1;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (strncasecmp(line, "cpu MHz", 7) == 0) {
            double v = cpuinfo_value(line);
            if (v > 0) {
                fclose(f);
                return v;
            }
        } else if (strncasecmp(line, "bogomips", 8) == 0) {
            bogo = cpuinfo_value(line);
        }
    }
    fclose(f);
    return bogo > 0 ? bogo : 0;
}

/* One cache of cpu0 (index idx); 0, or -1 when it is absent or malformed. */
static int read_cache(br_gbench_cache *c, const char *root, int idx) {
    char rel[160], w[256];
    snprintf(rel, sizeof rel, CPU_DIR "/cpu0/cache/index%d/size", idx);
    if (read_word(w, sizeof w, root, rel) != 0)
        return -1;
    char *end;
    long long size = strtoll(w, &end, 10);
    if (end == w || size < 0 || (*end && strcmp(end, "K") != 0))
        return -1;
    c->size = *end ? size * 1024 : size;
    snprintf(rel, sizeof rel, CPU_DIR "/cpu0/cache/index%d/type", idx);
    if (read_word(c->type, sizeof c->type, root, rel) != 0)
        return -1;
    snprintf(rel, sizeof rel, CPU_DIR "/cpu0/cache/index%d/level", idx);
    long long level = read_integer(root, rel);
    snprintf(rel, sizeof rel, CPU_DIR "/cpu0/cache/index%d/shared_cpu_map", idx);
    if (level < 0 || level > 16 || read_word(w, sizeof w, root, rel) != 0)
        return -1;
    c->level = (int)level;
    c->num_sharing = br_gbench_cpu_map_count(w);
    return c->num_sharing < 0 ? -1 : 0;
}

void br_gbench_host_read(br_gbench_host *out, const char *root, int num_cpus) {
    memset(out, 0, sizeof *out);
    out->scaling = read_scaling(root, num_cpus);
    out->mhz = read_mhz(root, out->scaling);
    while (out->n_caches < BR_GBENCH_MAX_CACHES &&
           read_cache(&out->caches[out->n_caches], root, (int)out->n_caches) == 0)
        out->n_caches++;
    if (root[0] == '\0') {
        int n = getloadavg(out->load_avg, 3);
        out->n_load_avg = n > 0 ? (size_t)n : 0;
    }
}
