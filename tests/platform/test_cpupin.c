/* SPDX-License-Identifier: Apache-2.0 */
/* The host cases' CPU (cpupin.c) chosen from fake sysfs topologies built in
 * a scratch directory, --cpu's check, and pinning this thread for real. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "platform/cpufreq.h"
#include "platform/cpupin.h"

static char root[64];

static void put_file(const char *rel, const char *text) {
    char path[512], dir[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++) {
        if (*p == '/') {
            snprintf(dir, sizeof dir, "%.*s", (int)(p - path), path);
            mkdir(dir, 0755);
        }
    }
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* cpuN/topology with the given siblings list. */
static void cpu_topo(int cpu, int core, const char *siblings) {
    char rel[128], text[64];
    snprintf(rel, sizeof rel, "cpu%d/topology/thread_siblings_list", cpu);
    snprintf(text, sizeof text, "%s\n", siblings);
    put_file(rel, text);
    snprintf(rel, sizeof rel, "cpu%d/topology/core_id", cpu);
    snprintf(text, sizeof text, "%d\n", core);
    put_file(rel, text);
}

static void setup(void) {
    snprintf(root, sizeof root, "/tmp/br_cpupin_XXXXXX");
    cr_assert_not_null(mkdtemp(root));
}

static void teardown(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(cpupin, .init = setup, .fini = teardown);

static br_cpu_set set_of(const char *list) {
    br_cpu_set s;
    cr_assert_eq(br_cpu_list_parse(&s, list), 0, "%s", list);
    return s;
}

static void expect_set(const br_cpu_set *s, const char *want) {
    char got[64];
    br_cpu_list_format(got, sizeof got, s);
    cr_expect_str_eq(got, want);
}

Test(cpupin, lists_parse_and_format) {
    br_cpu_set s = set_of("0-3,6,8-9\n");
    expect_set(&s, "0-3,6,8-9");
    cr_expect_eq(br_cpu_list_parse(&s, ""), -1);
    cr_expect_eq(br_cpu_list_parse(&s, "3-1"), -1);
    cr_expect_eq(br_cpu_list_parse(&s, "1,x"), -1);
    cr_expect_eq(br_cpu_list_parse(&s, "5000"), -1);
}

/* Two cores of two threads each, numbered as Linux does on x86: CPU 0 and
 * 2 share core 0, CPU 1 and 3 core 1. */
static void smt_2x2(void) {
    cpu_topo(0, 0, "0,2");
    cpu_topo(1, 1, "1,3");
    cpu_topo(2, 0, "0,2");
    cpu_topo(3, 1, "1,3");
}

Test(cpupin, default_is_a_core_the_parent_keeps_off) {
    smt_2x2();
    br_cpu_set all = set_of("0-3");
    br_cpu_choice c;
    cr_assert_eq(br_cpu_choose(&c, root, &all, -1), 0);
    cr_expect_eq(c.cpu, 3, "the highest CPU not on CPU 0's core");
    cr_expect_eq(c.core, 1);
    expect_set(&c.parent, "0,2");
    cr_expect_eq(c.shares_core, 0);
    cr_expect(strstr(c.note, "CPU 3") != NULL, "%s", c.note);
}

Test(cpupin, one_core_leaves_the_sibling_to_the_parent) {
    smt_2x2();
    br_cpu_set two = set_of("0,2"); /* both threads of core 0 */
    br_cpu_choice c;
    cr_assert_eq(br_cpu_choose(&c, root, &two, -1), 0);
    cr_expect_eq(c.cpu, 2);
    expect_set(&c.parent, "0");
    cr_expect_eq(c.shares_core, 1);
    cr_expect(strstr(c.note, "same core") != NULL, "%s", c.note);

    br_cpu_set one = set_of("1");
    cr_assert_eq(br_cpu_choose(&c, root, &one, -1), 0);
    cr_expect_eq(c.cpu, 1);
    expect_set(&c.parent, "1");
}

Test(cpupin, two_cores_without_smt) {
    cpu_topo(0, 0, "0");
    cpu_topo(1, 1, "1");
    br_cpu_set all = set_of("0-1");
    br_cpu_choice c;
    cr_assert_eq(br_cpu_choose(&c, root, &all, -1), 0);
    cr_expect_eq(c.cpu, 1);
    expect_set(&c.parent, "0");
}

Test(cpupin, unreadable_topology_counts_each_cpu_as_a_core) {
    br_cpu_set all = set_of("0-5");
    br_cpu_choice c;
    cr_assert_eq(br_cpu_choose(&c, root, &all, -1), 0);
    cr_expect_eq(c.cpu, 5);
    expect_set(&c.parent, "0-4");
}

Test(cpupin, asked_for_cpu_and_its_check) {
    smt_2x2();
    br_cpu_set all = set_of("0-3");
    br_cpu_choice c;
    cr_assert_eq(br_cpu_choose(&c, root, &all, 2), 0);
    cr_expect_eq(c.cpu, 2);
    expect_set(&c.parent, "1,3");
    cr_expect(strstr(c.note, "--cpu") != NULL, "%s", c.note);

    br_error_clear();
    cr_assert_eq(br_cpu_choose(&c, root, &all, 7), -1);
    cr_expect_eq(br_error_kind_get(), BR_E_INPUT);
    cr_expect_str_eq(br_error_get(),
                     "--cpu 7: CPU 7 is not one this process may run on (allowed: 0-3)");

    cr_assert_eq(br_cpu_choose(&c, root, &all, -2), 0, "off");
    cr_expect_eq(c.cpu, -1);
}

Test(cpupin, pins_this_thread_and_restores_it) {
    br_cpu_choice c;
    cr_assert_eq(br_cpu_choose(&c, NULL, NULL, -1), 0, "%s", br_error_get());
    cr_assert_geq(c.cpu, 0);
    br_cpu_set saved;
    cr_assert_eq(br_cpu_pin_self(c.cpu, &saved), 0, "%s", br_error_get());
    cr_expect_eq(sched_getcpu(), c.cpu);
    cr_assert_eq(br_cpu_set_self(&saved, NULL), 0);
    cpu_set_t now;
    cr_assert_eq(sched_getaffinity(0, sizeof now, &now), 0);
    cr_expect_eq(memcmp(&now, &saved, sizeof now), 0, "the old mask is back");
}

/* ---- the frequency settings (cpufreq.c) ------------------------------------------ */

Test(cpupin, governor_scaling_and_turbo_from_sysfs) {
    put_file("cpu0/cpufreq/scaling_governor", "performance\n");
    put_file("cpu1/cpufreq/scaling_governor", "powersave\n");
    put_file("intel_pstate/no_turbo", "1\n");
    br_cpufreq_state st;
    br_cpufreq_state_read(&st, root, 1);
    cr_expect_str_eq(st.governor, "powersave");
    cr_expect_eq(st.scaling, 1, "Google Benchmark's rule: some governor is not performance");
    cr_expect_eq(st.turbo, 0, "no_turbo 1");

    put_file("cpu1/cpufreq/scaling_governor", "performance\n");
    br_cpufreq_state_read(&st, root, 0);
    cr_expect_str_eq(st.governor, "performance");
    cr_expect_eq(st.scaling, 0);
}

Test(cpupin, no_cpufreq_reads_unknown) {
    cpu_topo(0, 0, "0");
    br_cpufreq_state st;
    br_cpufreq_state_read(&st, root, 0);
    cr_expect_str_eq(st.governor, "");
    cr_expect_eq(st.scaling, -1);
    cr_expect_eq(st.turbo, -1);
    put_file("cpufreq/boost", "1\n");
    br_cpufreq_state_read(&st, root, 0);
    cr_expect_eq(st.turbo, 1, "cpufreq/boost where intel_pstate is absent");
}

Test(cpupin, the_probe_counts_context_switches) {
    br_cpu_probe p = {0};
    br_cpu_probe_open(&p, sched_getcpu());
    br_cpu_reading r;
    br_cpu_probe_begin(&p, &r);
    long n;
    double mhz, off;
    br_cpu_probe_end(&p, &r, &n, &off, &mhz);
    cr_expect_geq(n, 0, "getrusage(RUSAGE_THREAD) is readable on Linux");
    cr_expect(off >= 0 && off <= 1, "%g", off);
    cr_expect(isnan(mhz) || mhz > 0);
    /* Sleeping 2 ms is time off the CPU (a voluntary switch, not counted). */
    br_cpu_probe_begin(&p, &r);
    usleep(2000);
    br_cpu_probe_end(&p, &r, &n, &off, &mhz);
    cr_expect_geq(n, 0);
    cr_expect_gt(off, 0.5, "asleep for most of the interval: %g", off);
    br_cpu_probe_close(&p);
}
