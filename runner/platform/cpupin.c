/* SPDX-License-Identifier: Apache-2.0 */
/* The host cases' CPU and pinning to it (cpupin.h). */
#define _GNU_SOURCE
#include "cpupin.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

_Static_assert(sizeof(br_cpu_set) == sizeof(cpu_set_t) && BR_CPU_MAX == CPU_SETSIZE,
               "br_cpu_set is laid out as cpu_set_t");

#define WORD_BITS (8 * sizeof(unsigned long))

static void set_zero(br_cpu_set *s) {
    memset(s, 0, sizeof *s);
}

static void set_add(br_cpu_set *s, int c) {
    s->bits[c / WORD_BITS] |= 1ul << (c % WORD_BITS);
}

static void set_del(br_cpu_set *s, int c) {
    s->bits[c / WORD_BITS] &= ~(1ul << (c % WORD_BITS));
}

static int set_has(const br_cpu_set *s, int c) {
    return c >= 0 && c < BR_CPU_MAX && (s->bits[c / WORD_BITS] >> (c % WORD_BITS) & 1ul);
}

static int set_count(const br_cpu_set *s) {
    int n = 0;
    for (size_t w = 0; w < sizeof s->bits / sizeof s->bits[0]; w++)
        n += __builtin_popcountl(s->bits[w]);
    return n;
}

int br_cpu_set_count(const br_cpu_set *set) {
    return set_count(set);
}

int br_cpu_list_parse(br_cpu_set *out, const char *text) {
    set_zero(out);
    const char *p = text;
    int any = 0;
    while (*p && *p != '\n') {
        char *end;
        errno = 0;
        long lo = strtol(p, &end, 10);
        if (end == p || errno || lo < 0 || lo >= BR_CPU_MAX)
            return -1;
        long hi = lo;
        p = end;
        if (*p == '-') {
            hi = strtol(p + 1, &end, 10);
            if (end == p + 1 || errno || hi < lo || hi >= BR_CPU_MAX)
                return -1;
            p = end;
        }
        for (long c = lo; c <= hi; c++)
            set_add(out, (int)c);
        any = 1;
        if (*p == ',')
            p++;
        else if (*p && *p != '\n')
            return -1;
    }
    return any ? 0 : -1;
}

void br_cpu_list_format(char *buf, size_t len, const br_cpu_set *set) {
    size_t n = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (int c = 0; c < BR_CPU_MAX && n < len; c++) {
        if (!set_has(set, c))
            continue;
        int e = c;
        while (e + 1 < BR_CPU_MAX && set_has(set, e + 1))
            e++;
        int w = e > c ? snprintf(buf + n, len - n, "%s%d-%d", n ? "," : "", c, e)
                      : snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
        n += w > 0 ? (size_t)w : 0;
        c = e;
    }
}

/* The CPUs sharing cpu's core (itself included), read from sysfs; just
 * {cpu} when the file cannot be read. */
static void siblings(br_cpu_set *out, const char *root, int cpu) {
    char path[512], line[1024];
    snprintf(path, sizeof path, "%s/cpu%d/topology/thread_siblings_list", root, cpu);
    FILE *f = fopen(path, "r");
    int ok = 0;
    if (f) {
        ok = fgets(line, sizeof line, f) && br_cpu_list_parse(out, line) == 0 && set_has(out, cpu);
        fclose(f);
    }
    if (!ok) {
        set_zero(out);
        set_add(out, cpu);
    }
}

/* The core of cpu: the lowest CPU sharing it. */
static int core_of(const char *root, int cpu) {
    br_cpu_set s;
    siblings(&s, root, cpu);
    for (int c = 0; c < BR_CPU_MAX; c++)
        if (set_has(&s, c))
            return c;
    return cpu;
}

/* The parent's CPUs: allowed minus the worker's core (minus the worker's
 * CPU when that leaves none; every allowed CPU when that leaves none). */
static void parent_cpus(br_cpu_choice *out, const char *root, const br_cpu_set *allowed) {
    br_cpu_set sib;
    siblings(&sib, root, out->cpu);
    for (size_t w = 0; w < sizeof sib.bits / sizeof sib.bits[0]; w++)
        out->parent.bits[w] = allowed->bits[w] & ~sib.bits[w];
    out->shares_core = 0;
    if (set_count(&out->parent) == 0) {
        out->parent = *allowed;
        set_del(&out->parent, out->cpu);
        out->shares_core = 1;
        if (set_count(&out->parent) == 0)
            out->parent = *allowed;
    }
}

/* benchrun's own choice (br_cpu_choose, want == -1). */
static int default_cpu(const char *root, const br_cpu_set *allowed) {
    int lowest = -1, highest = -1;
    for (int c = 0; c < BR_CPU_MAX; c++) {
        if (set_has(allowed, c)) {
            if (lowest < 0)
                lowest = c;
            highest = c;
        }
    }
    int core0 = core_of(root, lowest);
    for (int c = highest; c > lowest; c--)
        if (set_has(allowed, c) && core_of(root, c) != core0)
            return c;
    return highest;
}

int br_cpu_choose(br_cpu_choice *out, const char *sysfs_root, const br_cpu_set *allowed, int want) {
    const char *root = sysfs_root ? sysfs_root : BR_CPU_SYSFS;
    br_cpu_set mine;
    memset(out, 0, sizeof *out);
    out->cpu = out->core = -1;
    if (!allowed) {
        if (sched_getaffinity(0, sizeof(cpu_set_t), (cpu_set_t *)(void *)&mine) != 0)
            return br_error_set("cannot read this process's CPU affinity: %s", strerror(errno));
        allowed = &mine;
    }
    out->parent = *allowed;
    if (want == -2 || set_count(allowed) == 0)
        return 0;
    if (want >= 0 && (want >= BR_CPU_MAX || !set_has(allowed, want))) {
        char list[256];
        br_cpu_list_format(list, sizeof list, allowed);
        br_error_set("--cpu %d: CPU %d is not one this process may run on (allowed: %s)", want,
                     want, list);
        br_error_set_kind(BR_E_INPUT);
        return -1;
    }
    out->cpu = want >= 0 ? want : default_cpu(root, allowed);
    out->core = core_of(root, out->cpu);
    parent_cpus(out, root, allowed);
    char plist[128];
    br_cpu_list_format(plist, sizeof plist, &out->parent);
    snprintf(out->note, sizeof out->note, "host cases on CPU %d (%s), the parent on CPU %s%s",
             out->cpu, want >= 0 ? "--cpu" : "chosen", plist,
             out->shares_core ? " (the same core: no other core may be used)" : "");
    return 0;
}

int br_cpu_set_self(const br_cpu_set *cpus, br_cpu_set *saved) {
    if (saved && sched_getaffinity(0, sizeof(cpu_set_t), (cpu_set_t *)(void *)saved) != 0)
        return br_error_set("cannot read the CPU affinity: %s", strerror(errno));
    /* pid 0: the calling thread (sched_setaffinity(2)). */
    if (sched_setaffinity(0, sizeof(cpu_set_t), (const cpu_set_t *)(const void *)cpus) != 0)
        return br_error_set("cannot set the CPU affinity: %s", strerror(errno));
    return 0;
}

int br_cpu_pin_self(int cpu, br_cpu_set *saved) {
    br_cpu_set one;
    set_zero(&one);
    set_add(&one, cpu);
    return br_cpu_set_self(&one, saved);
}
