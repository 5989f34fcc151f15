/* SPDX-License-Identifier: Apache-2.0 */
/* test_shard.c - the shard rule (plan/shard.c): every case in exactly one
 * shard, the same shard whatever the order of the suites, balanced by count
 * or by cost (within the LPT bound), the costs read from a real results
 * file, and --list --shard on the command line. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"
#include "benchrun_kernel.h"
#include "e2e_util.h"
#include "plan/job.h"
#include "plan/shard.h"

#define SHARD_A         BR_FIXTURES_DIR "/shard/shard_a.yaml"
#define SHARD_B         BR_FIXTURES_DIR "/shard/shard_b.yaml"
#define N_FIXTURE_CASES 12 /* shard_a: 6, shard_b: 3 x 2 */

static void make_tmp(void) {
    e2e_tmp_make();
}
static void drop_tmp(void) {
    e2e_tmp_drop();
}
TestSuite(shard, .init = make_tmp, .fini = drop_tmp, .timeout = 120);

/* Prepare the suites at paths[0..n) into jobs (no overrides). */
static void prepare(br_job *jobs, const char *const *paths, size_t n, const br_run_opts *ro) {
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(br_job_prepare(&jobs[i], paths[i], ro), 0, "%s", br_error_get());
}

static void dispose(br_job *jobs, size_t n) {
    for (size_t i = 0; i < n; i++)
        br_job_dispose(&jobs[i]);
}

static br_run_opts no_opts(void) {
    br_run_opts ro = {0};
    br_measure_layer_init(&ro.measure);
    return ro;
}

Test(shard, parse_accepts_i_of_n_and_refuses_the_rest) {
    unsigned i = 0, n = 0;
    cr_assert_eq(br_shard_parse(&i, &n, "2/4"), 0);
    cr_assert(i == 2 && n == 4);
    cr_assert_eq(br_shard_parse(&i, &n, "1/1"), 0);
    const char *bad[] = {"0/4", "5/4", "4", "/4", "2/", "a/4", "2/4x", "-1/4", "1/0", "1/20000"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
        cr_assert_eq(br_shard_parse(&i, &n, bad[k]), -1, "%s accepted", bad[k]);
    br_shard_parse(&i, &n, "0/4");
    cr_assert(strstr(br_error_get(), "numbered 1 to 4"), "%s", br_error_get());
}

/* For N = 1..7, by count and by cost: every case in exactly one shard, and by
 * count the shard sizes differ by at most one. */
Test(shard, every_case_lands_in_exactly_one_shard) {
    enum { N_CASES = 97 };
    uint64_t keys[N_CASES], tie[N_CASES];
    double costs[N_CASES];
    unsigned shard[N_CASES];
    for (size_t i = 0; i < N_CASES; i++) {
        char kernel[32];
        snprintf(kernel, sizeof kernel, "k%zu", i % 5);
        const char *names[] = {"n"};
        int64_t v[] = {(int64_t)(i / 5)};
        keys[i] = br_shard_key("suite", kernel, names, v, 1);
        tie[i] = i;
        costs[i] = (double)((i * 7919) % 101) + (i % 3 ? NAN : 0); /* a third unknown */
    }
    for (unsigned n = 1; n <= 7; n++)
        for (int by_cost = 0; by_cost < 2; by_cost++) {
            memset(shard, 0, sizeof shard);
            cr_assert_eq(br_shard_assign(shard, keys, by_cost ? costs : NULL, tie, N_CASES, n), 0);
            size_t per[8] = {0};
            for (size_t i = 0; i < N_CASES; i++) {
                cr_assert(shard[i] >= 1 && shard[i] <= n, "case %zu in shard %u of %u", i, shard[i],
                          n);
                per[shard[i]]++;
            }
            size_t total = 0, lo = SIZE_MAX, hi = 0;
            for (unsigned s = 1; s <= n; s++) {
                total += per[s];
                lo = per[s] < lo ? per[s] : lo;
                hi = per[s] > hi ? per[s] : hi;
            }
            cr_assert_eq(total, N_CASES);
            if (!by_cost)
                cr_assert_leq(hi - lo, 1, "by count, N=%u: shards of %zu and %zu cases", n, lo, hi);
        }
}

/* The rule sees the cases, not their order: reversing the input gives every
 * case the same shard. */
Test(shard, assignment_does_not_depend_on_input_order) {
    enum { N_CASES = 40 };
    uint64_t keys[N_CASES], tie[N_CASES], rkeys[N_CASES], rtie[N_CASES];
    double costs[N_CASES], rcosts[N_CASES];
    unsigned a[N_CASES], b[N_CASES];
    for (size_t i = 0; i < N_CASES; i++) {
        int64_t v = (int64_t)i;
        const char *names[] = {"n"};
        keys[i] = br_shard_key("s", "k", names, &v, 1);
        tie[i] = i;
        costs[i] = (double)(i % 4 + 1); /* many equal costs: ties broken by key */
        rkeys[N_CASES - 1 - i] = keys[i];
        rtie[N_CASES - 1 - i] = tie[i];
        rcosts[N_CASES - 1 - i] = costs[i];
    }
    for (int by_cost = 0; by_cost < 2; by_cost++) {
        cr_assert_eq(br_shard_assign(a, keys, by_cost ? costs : NULL, tie, N_CASES, 3), 0);
        cr_assert_eq(br_shard_assign(b, rkeys, by_cost ? rcosts : NULL, rtie, N_CASES, 3), 0);
        for (size_t i = 0; i < N_CASES; i++)
            cr_assert_eq(a[i], b[N_CASES - 1 - i], "case %zu moved", i);
    }
}

/* The best split of n costs into m shards, by trying every one (n small). */
static double best_makespan(const double *c, size_t n, unsigned m) {
    double best = INFINITY;
    size_t combos = 1;
    for (size_t i = 0; i < n; i++)
        combos *= m;
    for (size_t x = 0; x < combos; x++) {
        double load[8] = {0}, worst = 0;
        size_t r = x;
        for (size_t i = 0; i < n; i++, r /= m)
            load[r % m] += c[i];
        for (unsigned s = 0; s < m; s++)
            worst = load[s] > worst ? load[s] : worst;
        best = worst < best ? worst : best;
    }
    return best;
}

/* By cost the largest shard is within Graham's LPT bound of the best split,
 * (4/3 - 1/(3N)) x OPT, OPT found by brute force; and within the list
 * scheduling bound, total/N + the largest cost, for a bigger plan. */
Test(shard, balanced_by_cost_within_the_lpt_bound) {
    uint64_t state = 12345;
    for (int trial = 0; trial < 60; trial++) {
        size_t n = 5 + (size_t)trial % 5; /* 5..9 cases */
        unsigned m = 2 + (unsigned)trial % 2;
        double costs[16], load[4] = {0};
        uint64_t keys[16], tie[16];
        unsigned shard[16];
        for (size_t i = 0; i < n; i++) {
            costs[i] = (double)(1 + br_splitmix64(&state) % 1000);
            keys[i] = br_splitmix64(&state);
            tie[i] = i;
        }
        cr_assert_eq(br_shard_assign(shard, keys, costs, tie, n, m), 0);
        for (size_t i = 0; i < n; i++)
            load[shard[i] - 1] += costs[i];
        double worst = 0;
        for (unsigned s = 0; s < m; s++)
            worst = load[s] > worst ? load[s] : worst;
        double opt = best_makespan(costs, n, m);
        cr_assert_leq(worst, (4.0 / 3.0 - 1.0 / (3.0 * m)) * opt + 1e-9,
                      "trial %d: LPT %.0f, best %.0f", trial, worst, opt);
    }
    enum { BIG = 500 };
    static double costs[BIG];
    static uint64_t keys[BIG], tie[BIG];
    static unsigned shard[BIG];
    double total = 0, largest = 0, load[7] = {0};
    for (size_t i = 0; i < BIG; i++) {
        costs[i] = (double)(1 + br_splitmix64(&state) % 100000);
        keys[i] = br_splitmix64(&state);
        tie[i] = i;
        total += costs[i];
        largest = costs[i] > largest ? costs[i] : largest;
    }
    cr_assert_eq(br_shard_assign(shard, keys, costs, tie, BIG, 7), 0);
    for (size_t i = 0; i < BIG; i++)
        load[shard[i] - 1] += costs[i];
    for (unsigned s = 0; s < 7; s++)
        cr_assert_leq(load[s], total / 7 + largest, "shard %u: %.0f", s + 1, load[s]);
}

/* The kept cases of every shard of the fixture suites, as "suite kernel n..". */
static size_t collect(char out[][96], const br_job *jobs, size_t n_jobs) {
    size_t k = 0;
    for (size_t j = 0; j < n_jobs; j++)
        for (size_t i = 0; i < jobs[j].plan.n_cases; i++) {
            const br_plan_case *pc = &jobs[j].plan.cases[i];
            const int64_t *v = br_plan_params(&jobs[j].plan, pc->combo);
            snprintf(out[k++], 96, "%s %s %lld %lld", jobs[j].suite.name.text,
                     jobs[j].suite.kernels[pc->kernel].text, (long long)v[0],
                     jobs[j].suite.n_params > 1 ? (long long)v[1] : -1LL);
        }
    return k;
}

static int str_cmp(const void *a, const void *b) {
    return strcmp(a, b);
}

/* Over real suites, N = 1..7: the shards' cases together are the whole plan,
 * each once; bytes stay with their case. */
Test(shard, select_keeps_each_case_in_one_shard_of_real_suites) {
    const char *paths[] = {SHARD_A, SHARD_B};
    br_run_opts ro = no_opts();
    static char whole[N_FIXTURE_CASES][96], got[7 * N_FIXTURE_CASES][96];
    br_job jobs[2];
    prepare(jobs, paths, 2, &ro);
    cr_assert_eq(collect(whole, jobs, 2), N_FIXTURE_CASES);
    dispose(jobs, 2);
    qsort(whole, N_FIXTURE_CASES, sizeof *whole, str_cmp);
    for (unsigned n = 1; n <= 7; n++) {
        size_t k = 0;
        for (unsigned i = 1; i <= n; i++) {
            br_shard_opts o = {.index = i, .count = n};
            prepare(jobs, paths, 2, &ro);
            cr_assert_eq(br_shard_select(jobs, 2, &o, &ro), 0, "%s", br_error_get());
            for (size_t j = 0; j < 2; j++) {
                cr_assert_not_null(jobs[j].shard);
                cr_assert_eq(jobs[j].shard->index, i);
                for (size_t c = 0; c < jobs[j].plan.n_cases; c++) {
                    const int64_t *v = br_plan_params(&jobs[j].plan, jobs[j].plan.cases[c].combo);
                    double want = 4.0 * (double)v[0] * (j == 1 ? (double)v[1] : 1.0);
                    cr_assert_eq(jobs[j].bytes[c], want, "bytes follow their case");
                }
            }
            k += collect(got + k, jobs, 2);
            dispose(jobs, 2);
        }
        cr_assert_eq(k, N_FIXTURE_CASES, "N=%u: %zu cases in the shards", n, k);
        qsort(got, k, sizeof *got, str_cmp);
        for (size_t c = 0; c < k; c++)
            cr_assert_str_eq(got[c], whole[c], "N=%u", n);
    }
}

/* Suites given in the other order: the same plan identity, every case in
 * the same shard. */
Test(shard, stable_when_the_suites_are_given_in_another_order) {
    const char *ab[] = {SHARD_A, SHARD_B}, *ba[] = {SHARD_B, SHARD_A};
    br_run_opts ro = no_opts();
    br_shard_opts o = {.index = 2, .count = 3};
    br_job x[2], y[2];
    prepare(x, ab, 2, &ro);
    prepare(y, ba, 2, &ro);
    cr_assert_eq(br_shard_select(x, 2, &o, &ro), 0, "%s", br_error_get());
    cr_assert_eq(br_shard_select(y, 2, &o, &ro), 0, "%s", br_error_get());
    cr_assert_str_eq(x[0].shard->plan.id, y[0].shard->plan.id);
    for (size_t j = 0; j < 2; j++) {
        const br_run_shard *a = x[j].shard, *b = y[1 - j].shard;
        cr_assert_eq(a->n_plan, b->n_plan);
        cr_assert_eq(memcmp(a->plan_shard, b->plan_shard, a->n_plan * sizeof *a->plan_shard), 0,
                     "suite %s: a case changed shard", x[j].suite.name.text);
    }
    dispose(x, 2);
    dispose(y, 2);
}

/* Two suites of one name cannot be merged apart: refused. */
Test(shard, two_suites_of_one_name_are_refused) {
    const char *paths[] = {SHARD_A, SHARD_A};
    br_run_opts ro = no_opts();
    br_shard_opts o = {.index = 1, .count = 2};
    br_job jobs[2];
    prepare(jobs, paths, 2, &ro);
    cr_assert_eq(br_shard_select(jobs, 2, &o, &ro), -1);
    cr_assert(strstr(br_error_get(), "both suite 'shard-a'"), "%s", br_error_get());
    dispose(jobs, 2);
}

/* Costs from a real results file: the rule is by cost, the file's blob id is
 * in the identity, and the shards' measured costs are LPT-balanced. */
Test(shard, costs_come_from_a_results_file) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    char *times = br_strfmt("%s/times.json", tmp);
    const char *args[] = {cache, "-q", "--json", times, SHARD_A, SHARD_B, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    const char *paths[] = {SHARD_A, SHARD_B};
    const char *files[] = {times};
    br_run_opts ro = no_opts();
    br_shard_opts o = {.index = 1, .count = 3, .times = files, .n_times = 1};
    br_job jobs[2];
    prepare(jobs, paths, 2, &ro);
    cr_assert_eq(br_shard_select(jobs, 2, &o, &ro), 0, "%s", br_error_get());
    const br_shard_plan *id = &jobs[0].shard->plan;
    cr_assert_eq(id->by_cost, 1);
    cr_assert_eq(id->n_times, 1);
    char *text = NULL;
    size_t len = 0;
    char blob[41];
    cr_assert_eq(br_read_file(&text, &len, times, 1 << 24), 0);
    br_hash_blob(blob, text, len);
    cr_assert_str_eq(id->times[0], blob);
    free(text);
    dispose(jobs, 2);

    /* Without the file the same plan is cut by count: another identity. */
    br_shard_opts plain = {.index = 1, .count = 3};
    prepare(jobs, paths, 2, &ro);
    cr_assert_eq(br_shard_select(jobs, 2, &plain, &ro), 0, "%s", br_error_get());
    cr_assert_eq(jobs[0].shard->plan.by_cost, 0);
    dispose(jobs, 2);
    free(cache);
    free(times);
}

/* --list --shard I/N lists the shard's cases and the summary line. */
Test(shard, list_shows_a_shards_cases) {
    const char *args[] = {"--list", "--shard", "2/3", SHARD_A, SHARD_B, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "shard 2/3 (by count, plan "), "%s", r.out);
    cr_assert(strstr(r.out, "of 12 case(s); per shard: 4 4 4"), "%s", r.out);
    e2e_free(&r);
    const char *bad[] = {"--shard", "4/3", SHARD_A, NULL};
    cr_assert_eq(e2e_run(&r, NULL, bad), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "shards are numbered 1 to 3"), "%s", r.err);
    e2e_free(&r);
    /* What a part cannot do: save a baseline, write into the results directory. */
    const char *save[] = {"--shard", "1/2", "--save-baseline", SHARD_A, NULL};
    cr_assert_eq(e2e_run(&r, NULL, save), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--save-baseline with --shard"), "%s", r.err);
    e2e_free(&r);
    const char *dir[] = {"--shard", "1/2", "--results-dir", tmp, SHARD_A, NULL};
    cr_assert_eq(e2e_run(&r, NULL, dir), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "--results-dir with --shard"), "%s", r.err);
    e2e_free(&r);
    const char *times[] = {"--shard-times", "x.json", SHARD_A, NULL};
    cr_assert_eq(e2e_run(&r, NULL, times), 0);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "it needs --shard I/N"), "%s", r.err);
    e2e_free(&r);
}

/* --shard-times given a FIFO nobody writes, or /dev/zero: refused at once
 * with the file's name (before: the read waited for a writer, or read a GiB
 * of zeros). */
Test(shard, shard_times_that_is_not_a_file_is_refused_at_once, .timeout = 20) {
    char *fifo = br_strfmt("%s/times.fifo", tmp);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    const char *paths[] = {"/dev/zero", fifo};
    const char *kinds[] = {"a character device", "a FIFO"};
    for (int i = 0; i < 2; i++) {
        const char *args[] = {"--list", "--shard", "1/2", "--shard-times", paths[i], SHARD_A, NULL};
        e2e_result r;
        cr_assert_eq(e2e_run(&r, NULL, args), 0);
        cr_expect_eq(r.status, 2, "%s: exit %d\n%s", paths[i], r.status, r.err);
        char *want =
            br_strfmt("--shard-times: %s: cannot read: %s, not a regular file", paths[i], kinds[i]);
        cr_expect(strstr(r.err, want), "%s", r.err);
        free(want);
        e2e_free(&r);
    }
    free(fifo);
}
