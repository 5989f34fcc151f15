/* SPDX-License-Identifier: Apache-2.0 */
/* test_gbench_host.c - the host facts of the Google Benchmark context
 * (reporters/gbench_host.c), read from a sysfs and /proc tree written here
 * with the contents Linux writes, and checked against the rules of Google
 * Benchmark's src/sysinfo.cc. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reporters/gbench_host.h"

static char root[] = "/tmp/br_gbench_host_XXXXXX";

/* Write root/rel (its folders made) with `text`. */
static void put_file(const char *rel, const char *text) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static void setup(void) {
    cr_assert_not_null(mkdtemp(root));
}

static void teardown(void) {
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_expect_eq(system(cmd), 0);
}

#define CPU "sys/devices/system/cpu/"

static void put_cache(int idx, const char *level, const char *type, const char *size,
                      const char *map) {
    char rel[256];
    snprintf(rel, sizeof rel, CPU "cpu0/cache/index%d/level", idx);
    put_file(rel, level);
    snprintf(rel, sizeof rel, CPU "cpu0/cache/index%d/type", idx);
    put_file(rel, type);
    snprintf(rel, sizeof rel, CPU "cpu0/cache/index%d/size", idx);
    put_file(rel, size);
    snprintf(rel, sizeof rel, CPU "cpu0/cache/index%d/shared_cpu_map", idx);
    put_file(rel, map);
}

TestSuite(gbench_host, .init = setup, .fini = teardown);

Test(gbench_host, caches_as_sysinfo_reads_them) {
    /* A 2-socket EPYC-like cpu0: L1d/L1i per core pair, L2 per core pair,
     * L3 shared by 16 CPUs; a map wider than one word. */
    put_cache(0, "1\n", "Data\n", "32K\n", "00000000,00000003\n");
    put_cache(1, "1\n", "Instruction\n", "32K\n", "00000000,00000003\n");
    put_cache(2, "2\n", "Unified\n", "1024K\n", "00000000,00000003\n");
    put_cache(3, "3\n", "Unified\n", "32768K\n", "0000ffff,00000000\n");
    br_gbench_host h;
    br_gbench_host_read(&h, root, 4);
    cr_assert_eq(h.n_caches, 4);
    cr_expect_str_eq(h.caches[0].type, "Data");
    cr_expect_eq(h.caches[0].level, 1);
    cr_expect_eq(h.caches[0].size, 32 * 1024);
    cr_expect_eq(h.caches[0].num_sharing, 2);
    cr_expect_str_eq(h.caches[1].type, "Instruction");
    cr_expect_eq(h.caches[2].size, 1024 * 1024);
    cr_expect_eq(h.caches[3].level, 3);
    cr_expect_eq(h.caches[3].size, 32768LL * 1024);
    cr_expect_eq(h.caches[3].num_sharing, 16);
    cr_expect_eq(h.n_load_avg, 0, "no load average under a root");
}

Test(gbench_host, a_malformed_cache_ends_the_list) {
    put_cache(0, "1\n", "Data\n", "48K\n", "1\n");
    put_cache(1, "2\n", "Unified\n", "2M\n", "1\n"); /* sysinfo.cc accepts only K */
    put_cache(2, "3\n", "Unified\n", "1024K\n", "1\n");
    br_gbench_host h;
    br_gbench_host_read(&h, root, 1);
    cr_expect_eq(h.n_caches, 1);
    cr_expect_eq(h.caches[0].size, 48 * 1024);
}

Test(gbench_host, clock_from_tsc_then_cpufreq_then_cpuinfo) {
    br_gbench_host h;
    br_gbench_host_read(&h, root, 2);
    cr_expect_eq(h.mhz, 0.0, "nothing readable");
    cr_expect_eq(h.scaling, -1);
    cr_expect_eq(h.n_caches, 0);

    put_file("proc/cpuinfo", "processor\t: 0\nbogomips\t: 4192.04\n\n");
    br_gbench_host_read(&h, root, 2);
    cr_expect_eq(h.mhz, 4192.04, "bogomips when there is no cpu MHz");
    put_file("proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: 0.000\ncpu MHz\t\t: 2096.021\n"
                             "bogomips\t: 4192.04\n");
    br_gbench_host_read(&h, root, 2);
    cr_expect_eq(h.mhz, 2096.021, "the first positive cpu MHz");

    put_file(CPU "cpu0/cpufreq/cpuinfo_max_freq", "3700000\n");
    put_file(CPU "cpu0/cpufreq/scaling_cur_freq", "1500000\n");
    put_file(CPU "cpu0/cpufreq/scaling_governor", "performance\n");
    put_file(CPU "cpu1/cpufreq/scaling_governor", "powersave\n");
    br_gbench_host_read(&h, root, 2);
    cr_expect_eq(h.scaling, 1, "one CPU scales");
    cr_expect_eq(h.mhz, 3700.0, "scaling: the maximum clock");
    br_gbench_host_read(&h, root, 1);
    cr_expect_eq(h.scaling, 0, "cpu0 alone: performance");
    cr_expect_eq(h.mhz, 1500.0, "no scaling: the current clock");
    put_file(CPU "cpu0/tsc_freq_khz", "2100000\n");
    br_gbench_host_read(&h, root, 2);
    cr_expect_eq(h.mhz, 2100.0, "the TSC clock first");
}

Test(gbench_host, cpu_maps) {
    cr_expect_eq(br_gbench_cpu_map_count("ff"), 8);
    cr_expect_eq(br_gbench_cpu_map_count("00000001,80000000\n"), 2);
    cr_expect_eq(br_gbench_cpu_map_count("ffffffff,ffffffff,ffffffff"), 96);
    cr_expect_eq(br_gbench_cpu_map_count(""), -1);
    cr_expect_eq(br_gbench_cpu_map_count("0x3"), -1);
    cr_expect_eq(br_gbench_cpu_map_count("3,,3"), -1);
}

Test(gbench_host, the_real_host) {
    br_gbench_host h;
    br_gbench_host_read(&h, "", (int)sysconf(_SC_NPROCESSORS_ONLN));
    cr_expect_eq(h.n_load_avg, 3, "getloadavg on Linux");
    cr_expect_geq(h.mhz, 0.0);
    for (size_t i = 0; i < h.n_caches; i++) {
        cr_expect_gt(h.caches[i].level, 0);
        cr_expect_gt(h.caches[i].size, 0);
        cr_expect_gt(h.caches[i].num_sharing, 0);
    }
}
