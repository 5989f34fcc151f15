/* SPDX-License-Identifier: Apache-2.0 */
/* Governor, turbo and per-sample CPU readings (cpufreq.h). */
#define _GNU_SOURCE
#include "cpufreq.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

#define MSR_MPERF 0xE7
#define MSR_APERF 0xE8

/* The first line of path into buf (newline cut); 0, or -1 when unreadable. */
static int first_line(const char *path, char *buf, size_t len) {
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = '\0';
    return 0;
}

/* 1 / 0 from a file holding "1" / "0", or -1. */
static int read_bool(const char *path) {
    char b[16];
    if (first_line(path, b, sizeof b) != 0)
        return -1;
    return strcmp(b, "1") == 0 ? 1 : strcmp(b, "0") == 0 ? 0 : -1;
}

void br_cpufreq_state_read(br_cpufreq_state *out, const char *sysfs_root, int cpu) {
    const char *root = sysfs_root ? sysfs_root : "/sys/devices/system/cpu";
    char path[512], gov[64];
    memset(out, 0, sizeof *out);
    snprintf(path, sizeof path, "%s/cpu%d/cpufreq/scaling_governor", root, cpu < 0 ? 0 : cpu);
    if (first_line(path, gov, sizeof gov) == 0)
        snprintf(out->governor, sizeof out->governor, "%s", gov);
    out->scaling = -1;
    for (int n = 0; n < 4096; n++) {
        snprintf(path, sizeof path, "%s/cpu%d", root, n);
        if (access(path, F_OK) != 0)
            break;
        snprintf(path, sizeof path, "%s/cpu%d/cpufreq/scaling_governor", root, n);
        if (first_line(path, gov, sizeof gov) != 0)
            continue;
        if (out->scaling < 0)
            out->scaling = 0;
        if (strcmp(gov, "performance") != 0)
            out->scaling = 1;
    }
    snprintf(path, sizeof path, "%s/intel_pstate/no_turbo", root);
    int no_turbo = read_bool(path);
    snprintf(path, sizeof path, "%s/cpufreq/boost", root);
    out->turbo = no_turbo >= 0 ? !no_turbo : read_bool(path);
}

/* ---- per-sample readings ------------------------------------------------------- */

static int read_msr(int fd, uint32_t reg, uint64_t *out) {
    return pread(fd, out, sizeof *out, reg) == (ssize_t)sizeof *out ? 0 : -1;
}

/* The TSC's frequency, MHz, over about 2 ms of the monotonic clock; 0
 * without a TSC. MPERF counts at this rate (turbostat's tsc_hz). */
static double tsc_mhz(void) {
#if HAVE_TSC
    double t0 = br_now_ns();
    uint64_t c0 = __rdtsc();
    double t1;
    while ((t1 = br_now_ns()) - t0 < 2e6) {
    }
    uint64_t c1 = __rdtsc();
    return (double)(c1 - c0) / (t1 - t0) * 1e3;
#else
    return 0;
#endif
}

void br_cpu_probe_close(br_cpu_probe *p) {
    if (p->opened) {
        if (p->msr_fd >= 0)
            close(p->msr_fd);
        if (p->cur_fd >= 0)
            close(p->cur_fd);
    }
    p->opened = 0;
    p->cpu = -1;
    p->msr_fd = p->cur_fd = -1;
}

void br_cpu_probe_open(br_cpu_probe *p, int cpu) {
    if (p->opened && p->cpu == cpu)
        return;
    br_cpu_probe_close(p);
    p->opened = 1;
    p->cpu = cpu;
    p->msr_fd = p->cur_fd = -1;
    if (cpu < 0)
        return;
    char path[128];
    uint64_t v;
    snprintf(path, sizeof path, "/dev/cpu/%d/msr", cpu);
    p->msr_fd = HAVE_TSC ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    /* The TSC runs at one rate on every CPU: measured once per probe, not
     * again (2 ms) each time the thread moves to another CPU. */
    if (p->msr_fd >= 0 &&
        (read_msr(p->msr_fd, MSR_APERF, &v) != 0 || read_msr(p->msr_fd, MSR_MPERF, &v) != 0 ||
         !(p->tsc_mhz > 0 || (p->tsc_mhz = tsc_mhz()) > 0))) {
        close(p->msr_fd);
        p->msr_fd = -1;
    }
    if (p->msr_fd < 0) {
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
        p->cur_fd = open(path, O_RDONLY | O_CLOEXEC);
    }
}

static long nivcsw_now(void) {
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : -1;
}

static double thread_cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return NAN;
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void br_cpu_probe_begin(br_cpu_probe *p, br_cpu_reading *r) {
    r->nivcsw = nivcsw_now();
    r->cpu_ns = thread_cpu_ns();
    r->wall_ns = br_now_ns();
    r->aperf = r->mperf = 0;
    if (p->opened && p->msr_fd >= 0 &&
        (read_msr(p->msr_fd, MSR_APERF, &r->aperf) != 0 ||
         read_msr(p->msr_fd, MSR_MPERF, &r->mperf) != 0))
        r->aperf = r->mperf = 0;
}

void br_cpu_probe_end(br_cpu_probe *p, const br_cpu_reading *begin, long *nivcsw, double *offcpu,
                      double *mhz) {
    uint64_t a = 0, m = 0;
    double wall = br_now_ns() - begin->wall_ns, cpu = thread_cpu_ns() - begin->cpu_ns;
    *offcpu = wall > 0 && isfinite(cpu) ? fmax(0.0, 1.0 - cpu / wall) : NAN;
    *mhz = NAN;
    if (p->opened && p->msr_fd >= 0 && begin->mperf && read_msr(p->msr_fd, MSR_APERF, &a) == 0 &&
        read_msr(p->msr_fd, MSR_MPERF, &m) == 0 && m > begin->mperf)
        *mhz = p->tsc_mhz * (double)(a - begin->aperf) / (double)(m - begin->mperf);
    else if (p->opened && p->cur_fd >= 0) {
        char b[32];
        ssize_t n = pread(p->cur_fd, b, sizeof b - 1, 0);
        if (n > 0) {
            b[n] = '\0';
            double khz = strtod(b, NULL);
            if (khz > 0)
                *mhz = khz / 1e3;
        }
    }
    long after = nivcsw_now();
    *nivcsw = after >= 0 && begin->nivcsw >= 0 ? after - begin->nivcsw : -1;
}
