/* SPDX-License-Identifier: Apache-2.0 */
/* test_merge.c - merging the parts of a sharded plan (results/merge.c) and
 * what reads the merge (benchrun merge, report, history): the parts are
 * written by the real benchrun over the host fixture suites. */
#include <criterion/criterion.h>

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"
#include "e2e_util.h"
#include "results/merge.h"
#include "results/run_read.h"
#include "results/run_write.h"
#include "results/shardinfo.h"

#define SHARD_A BR_FIXTURES_DIR "/shard/shard_a.yaml"
#define SHARD_B BR_FIXTURES_DIR "/shard/shard_b.yaml"

static void make_tmp(void) {
    e2e_tmp_make();
}
static void drop_tmp(void) {
    e2e_tmp_drop();
}
TestSuite(merge, .init = make_tmp, .fini = drop_tmp, .timeout = 180);

/* benchrun ARGS... over the fixture suites, which must exit `want`. */
static void benchrun(int want, const char *a0, const char *a1, const char *a2, const char *a3) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *given[] = {a0, a1, a2, a3}, *args[10] = {cache, "-q"};
    size_t n = 2;
    for (size_t i = 0; i < 4; i++) /* NULL arguments are left out */
        if (given[i])
            args[n++] = given[i];
    args[n++] = SHARD_A;
    args[n++] = SHARD_B;
    args[n] = NULL;
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, want, "benchrun exited %d: %s", r.status, r.err);
    e2e_free(&r);
    free(cache);
}

/* tmp/part-I.json for I = 1..n (of n shards), with the option `extra`. */
static void make_parts(unsigned n, const char *extra) {
    for (unsigned i = 1; i <= n; i++) {
        char shard[32], *json = br_strfmt("%s/part-%u.json", tmp, i);
        snprintf(shard, sizeof shard, "--shard=%u/%u", i, n);
        benchrun(0, shard, "--json", json, extra);
        free(json);
    }
}

static char *part(unsigned i) {
    return br_strfmt("%s/part-%u.json", tmp, i);
}

/* Load the parts 1..n except `skip` (0: none). */
static size_t load_parts(br_merge_part *parts, unsigned n, unsigned skip) {
    size_t k = 0;
    for (unsigned i = 1; i <= n; i++) {
        if (i == skip)
            continue;
        parts[k].path = part(i);
        cr_assert_eq(br_results_load(&parts[k].runs, &parts[k].n_runs, parts[k].path), 0, "%s",
                     br_error_get());
        k++;
    }
    return k;
}

static void free_parts(br_merge_part *parts, size_t n) {
    for (size_t i = 0; i < n; i++) {
        br_results_free(parts[i].runs, parts[i].n_runs);
        free((char *)parts[i].path);
    }
}

/* Merging parts that should be refused: -1, kind input, message has `what`. */
static void refused(br_merge_part *parts, size_t n, const char *what) {
    br_run *runs = NULL;
    size_t nr = 0;
    br_merge_report rep;
    cr_assert_eq(br_merge_parts(&runs, &nr, &rep, parts, n, 0), -1, "merged, expected: %s", what);
    cr_assert_null(runs);
    cr_assert_eq(br_error_kind_get(), BR_E_INPUT);
    cr_assert(strstr(br_error_get(), what), "expected '%s' in: %s", what, br_error_get());
}

/* The merge of 3 parts holds exactly the cases of an unsharded run, each
 * once, in the same (plan) order, measured. */
Test(merge, merged_parts_hold_the_cases_of_an_unsharded_run) {
    char *whole = br_strfmt("%s/whole.json", tmp);
    benchrun(0, "--json", whole, NULL, NULL);
    make_parts(3, NULL);
    br_merge_part parts[3];
    size_t n = load_parts(parts, 3, 0);
    /* A compute peak only the last part recorded is the merge's too. */
    for (size_t i = 0; i < parts[2].n_runs; i++)
        parts[2].runs[i].compute_peaks[BR_PRECISION_BF16_TENSOR] =
            (br_compute_peak){1, 4096, 1e6, 1980, "table"};
    br_run *runs = NULL, *ref = NULL;
    size_t nr = 0, nref = 0;
    br_merge_report rep;
    cr_assert_eq(br_merge_parts(&runs, &nr, &rep, parts, n, 0), 0, "%s", br_error_get());
    cr_assert_eq(br_results_load(&ref, &nref, whole), 0, "%s", br_error_get());
    cr_assert_eq(rep.n_missing, 0);
    cr_assert_eq(rep.n_missing_shards, 0);
    cr_assert_eq(rep.n_parts, 3);
    cr_assert_eq(nr, nref);
    for (size_t i = 0; i < nr; i++) {
        cr_assert_str_eq(runs[i].suite_name, ref[i].suite_name);
        cr_assert_eq(runs[i].n_cases, ref[i].n_cases, "suite %s", runs[i].suite_name);
        for (size_t c = 0; c < runs[i].n_cases; c++) {
            const br_case_result *a = &runs[i].cases[c], *b = &ref[i].cases[c];
            cr_assert_str_eq(runs[i].kernels[a->kernel].name, ref[i].kernels[b->kernel].name);
            cr_assert_eq(memcmp(a->params, b->params, runs[i].n_params * sizeof *a->params), 0,
                         "case %zu of %s", c, runs[i].suite_name);
            cr_assert_eq(a->status, BR_STATUS_OK);
            cr_assert(a->cold.present && a->cold.n_samples > 0);
            cr_assert_eq(a->combo, b->combo);
        }
        cr_assert_eq(runs[i].compute_peaks[BR_PRECISION_BF16_TENSOR].present, 1);
        cr_assert_eq(runs[i].compute_peaks[BR_PRECISION_BF16_TENSOR].gflops, 1e6);
        cr_assert_not_null(runs[i].shard);
        cr_assert_eq(runs[i].shard->index, 0, "a merge has no index");
        cr_assert_eq(runs[i].shard->n_merged, 3);
    }
    br_results_free(runs, nr);
    br_results_free(ref, nref);
    br_merge_report_dispose(&rep);
    free_parts(parts, n);
    free(whole);
}

/* Parts of different plans, commits, devices or settings are refused. */
Test(merge, parts_of_different_plans_are_refused) {
    make_parts(2, NULL);
    br_merge_part parts[3];
    size_t n = load_parts(parts, 2, 0);

    /* A part of a 3-shard cut of the same suites. */
    char *other = br_strfmt("%s/other.json", tmp);
    benchrun(0, "--shard=3/3", "--json", other, NULL);
    parts[2].path = other;
    cr_assert_eq(br_results_load(&parts[2].runs, &parts[2].n_runs, other), 0);
    refused(parts, 3, "part of 3 shards");
    br_results_free(parts[2].runs, parts[2].n_runs);

    /* Another -p. */
    benchrun(0, "--shard=2/2", "--json", other, "-pn=[256,300]");
    cr_assert_eq(br_results_load(&parts[2].runs, &parts[2].n_runs, other), 0);
    br_merge_part pair[2] = {parts[0], parts[2]};
    refused(pair, 2, "different plans (-p differs)");
    br_results_free(parts[2].runs, parts[2].n_runs);
    free(other);

    /* Another commit, device model, measurement setting, in one part. */
    br_run *r = &parts[1].runs[0];
    char sha[41];
    memcpy(sha, r->git.sha, sizeof sha);
    snprintf(r->git.sha, sizeof r->git.sha, "%s", "0123456789abcdef0123456789abcdef01234567");
    r->git.present = 1;
    refused(parts, 2, "ran at commit");
    memcpy(r->git.sha, sha, sizeof sha);
    r->git.present = parts[0].runs[0].git.present;
    r->has_device = 1;
    snprintf(r->device.name, sizeof r->device.name, "NVIDIA H100 80GB HBM3");
    refused(parts, 2, "on NVIDIA H100 80GB HBM3");
    r->has_device = 0;
    r->measure.min_samples++;
    refused(parts, 2, "different settings");
    r->measure.min_samples--;

    /* A whole run, not a part; a merge, not a part. */
    br_run_shard *keep = r->shard;
    r->shard = NULL;
    refused(parts, 2, "not a part of a sharded plan");
    r->shard = keep;
    free_parts(parts, n);
}

/* A case twice: one part given twice, or a case twice inside a part. */
Test(merge, a_case_twice_is_refused) {
    make_parts(2, NULL);
    br_merge_part parts[2];
    size_t n = load_parts(parts, 2, 0);
    br_merge_part twice[2] = {parts[0], parts[0]};
    refused(twice, 2, "are both shard 1/2");
    br_run *r = &parts[0].runs[0];
    cr_assert_geq(r->n_cases, 2);
    memcpy(r->cases[1].params, r->cases[0].params, r->n_params * sizeof *r->cases[0].params);
    refused(parts, 2, "appears twice");
    free_parts(parts, n);
}

/* A missing part: its cases are in the merged file as missing (exactly its
 * cases), the message names the shard, and the exit status is 1. */
Test(merge, missing_cases_are_marked_and_the_exit_is_nonzero) {
    make_parts(3, NULL);
    char *out = br_strfmt("%s/merged.json", tmp), *p1 = part(1), *p2 = part(2), *p3 = part(3);
    const char *args[] = {"merge", "-o", out, p1, p3, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.err, "shard 2/3 gave no results"), "%s", r.err);
    cr_assert(strstr(r.err, "case(s) of the plan are missing"), "%s", r.err);
    e2e_free(&r);

    br_run *m = NULL, *two = NULL;
    size_t nm = 0, ntwo = 0, missing = 0, in_two = 0;
    cr_assert_eq(br_results_load(&m, &nm, out), 0, "%s", br_error_get());
    cr_assert_eq(br_results_load(&two, &ntwo, p2), 0, "%s", br_error_get());
    for (size_t i = 0; i < nm; i++) {
        cr_assert_eq(m[i].shard->n_missing, 1);
        cr_assert_eq(m[i].shard->missing[0], 2);
        for (size_t c = 0; c < m[i].n_cases; c++) {
            const br_case_result *k = &m[i].cases[c];
            int is_in_two = 0;
            for (size_t t = 0; t < ntwo; t++)
                for (size_t d = 0; d < two[t].n_cases; d++)
                    is_in_two |= strcmp(two[t].suite_name, m[i].suite_name) == 0 &&
                                 memcmp(two[t].cases[d].params, k->params,
                                        m[i].n_params * sizeof *k->params) == 0;
            cr_assert_eq(br_merge_case_missing(k), is_in_two, "case %zu of %s", c, m[i].suite_name);
            missing += br_merge_case_missing(k);
            in_two += is_in_two;
            if (is_in_two)
                cr_assert(strstr(k->message, "shard 2/3"), "%s", k->message);
        }
    }
    cr_assert_eq(missing, 4, "12 cases in 3 shards by count: 4 in shard 2");
    br_results_free(m, nm);
    br_results_free(two, ntwo);

    /* Every part there: exit 0. */
    const char *all[] = {"merge", "-q", "-o", out, p1, p2, p3, NULL};
    cr_assert_eq(e2e_run(&r, NULL, all), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    free(out);
    free(p1);
    free(p2);
    free(p3);
}

/* The shard record survives a write and a read; a bad one is refused with
 * the JSON path of the bad value. */
Test(merge, the_shard_record_reads_back) {
    make_parts(2, NULL);
    char *p1 = part(1), *text = NULL;
    size_t len = 0;
    br_run *runs = NULL;
    size_t n = 0;
    cr_assert_eq(br_read_file(&text, &len, p1, 1 << 24), 0);
    cr_assert_eq(br_results_parse(&runs, &n, text, len, p1), 0, "%s", br_error_get());
    const br_run_shard *s = runs[0].shard;
    cr_assert_not_null(s);
    cr_assert_eq(s->index, 1);
    cr_assert_eq(s->count, 2);
    cr_assert_eq(strlen(s->plan.id), 40);
    cr_assert_eq(s->plan.n_suites, 2);
    cr_assert_eq(s->n_plan, 6, "shard-a's whole plan");
    size_t mine = 0;
    for (size_t i = 0; i < s->n_plan; i++)
        mine += s->plan_shard[i] == 1;
    cr_assert_eq(mine, runs[0].n_cases, "the part holds its shard's cases");
    br_results_free(runs, n);

    char *at = strstr(text, "\"index\": 1");
    cr_assert_not_null(at);
    at[9] = '7';
    cr_assert_eq(br_results_parse(&runs, &n, text, len, p1), -1);
    cr_assert(strstr(br_error_get(), "runs[0].shard.index"), "%s", br_error_get());
    free(text);
    free(p1);
}

/* report and history read the merged file: the baseline is saved from it and
 * then compared with; Markdown and Google Benchmark outputs are written. */
Test(merge, report_save_baseline_and_history_read_a_merge) {
    make_parts(2, NULL);
    char *dir = br_strfmt("%s/results", tmp), *base = br_strfmt("%s/base", tmp);
    char *p1 = part(1), *p2 = part(2);
    const char *merge[] = {"merge", "-q", "--results-dir", dir, p1, p2, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, merge), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    const char *ls[] = {"history", "--ascii", dir, NULL};
    cr_assert_eq(e2e_run(&r, NULL, ls), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "shard-a") && strstr(r.out, "shard-b"), "%s", r.out);
    e2e_free(&r);

    char *cmd = br_strfmt("ls %s/*.json", dir), line[512] = "";
    FILE *f = popen(cmd, "r");
    cr_assert(f && fgets(line, sizeof line, f));
    pclose(f);
    line[strcspn(line, "\n")] = '\0';

    char *md = br_strfmt("%s/r.md", tmp), *gb = br_strfmt("%s/r.gbench.json", tmp);
    const char *save[] = {
        "report", "-q", "--save-baseline", "--baseline-dir", base, "--markdown", md, "--gbench", gb,
        line,     NULL};
    cr_assert_eq(e2e_run(&r, NULL, save), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    struct stat st;
    cr_assert_eq(stat(md, &st), 0);
    cr_assert_eq(stat(gb, &st), 0);
    char *bfile = br_strfmt("ls %s/shard-a/*.json", base);
    f = popen(bfile, "r");
    char bl[512] = "";
    cr_assert(f && fgets(bl, sizeof bl, f), "no baseline of shard-a under %s", base);
    pclose(f);

    char *json = br_strfmt("%s/cmp.json", tmp);
    const char *cmp[] = {
        "report", "-q", "--baseline-dir", base, "--fail-on", "never", "--json", json, line, NULL};
    cr_assert_eq(e2e_run(&r, NULL, cmp), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, json, 1 << 24), 0);
    cr_assert(strstr(text, "\"comparison\""), "compared with the baseline saved");
    cr_assert(strstr(text, "\"status\": \"same\""),
              "the merge compared with a baseline saved from itself: the same");
    free(text);
    free(json);
    free(bfile);
    free(md);
    free(gb);
    free(cmd);
    free(dir);
    free(base);
    free(p1);
    free(p2);
}

/* A run made in a git work tree finds its baselines at the top of that work
 * tree; `report` of its results file, from the same directory, finds the
 * same baselines (a results file does not record the work tree's path). */
Test(merge, report_finds_a_git_runs_baselines_at_the_top_of_its_work_tree) {
    char *repo = br_strfmt("%s/repo", tmp), *sub = br_strfmt("%s/repo/bench/x", tmp);
    char *mk = br_strfmt("mkdir -p %s", sub);
    cr_assert_eq(system(mk), 0);
    git_libgit2_init();
    git_repository *g = NULL;
    cr_assert_eq(git_repository_init(&g, repo, 0), 0);
    git_repository_free(g);
    git_libgit2_shutdown();
    /* The fixture suite, its source named by its absolute path. */
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, SHARD_A, 1 << 20), 0);
    const char *from = "source: ../e2e/host_kernels.c";
    char *at = strstr(text, from);
    cr_assert_not_null(at);
    *at = '\0';
    char *suite = br_strfmt("%s/suite.yaml", sub);
    FILE *f = fopen(suite, "w");
    cr_assert_not_null(f);
    fprintf(f, "%ssource: %s/e2e/host_kernels.c%s", text, BR_FIXTURES_DIR, at + strlen(from));
    cr_assert_eq(fclose(f), 0);

    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *run[] = {cache, "-q", "--json", "r.json", "bench/x/suite.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, repo, run), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    const char *save[] = {"report", "-q", "--save-baseline", "r.json", NULL};
    cr_assert_eq(e2e_run(&r, repo, save), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    char *top = br_strfmt("%s/baselines/shard-a", repo), *beside = br_strfmt("%s/baselines", sub);
    struct stat st;
    cr_assert_eq(stat(top, &st), 0, "report saved the baseline at the top of the work tree");
    cr_assert_neq(stat(beside, &st), 0, "nothing beside the suite");
    /* A run of the suite compares with the baseline report saved. */
    const char *again[] = {cache, "--fail-on", "never", "bench/x/suite.yaml", NULL};
    cr_assert_eq(e2e_run(&r, repo, again), 0);
    cr_assert(strstr(r.out, "vs baseline"), "the run found the baseline report saved: %s", r.out);
    e2e_free(&r);
    free(top), free(beside), free(cache), free(text), free(suite), free(mk), free(sub), free(repo);
}

/* Host shards run on different CPU models are refused (their times are of
 * different machines); with BR_MERGE_ALLOW_MIXED_HOSTS they merge and the
 * merged run's shard record names the models, through its JSON too. */
Test(merge, host_shards_of_different_cpu_models_are_refused_unless_allowed) {
    make_parts(2, NULL);
    br_merge_part parts[2];
    size_t n = load_parts(parts, 2, 0);
    for (size_t i = 0; i < parts[1].n_runs; i++)
        snprintf(parts[1].runs[i].host.cpu_model, sizeof parts[1].runs[i].host.cpu_model,
                 "Another CPU @ 1.0GHz");
    refused(parts, n, "the host shards of one plan run on one CPU model");
    br_run *runs = NULL;
    size_t nr = 0;
    br_merge_report rep;
    cr_assert_eq(br_merge_parts(&runs, &nr, &rep, parts, n, BR_MERGE_ALLOW_MIXED_HOSTS), 0, "%s",
                 br_error_get());
    cr_assert_gt(nr, 0);
    cr_assert_eq(runs[0].shard->n_mixed_hosts, 2);
    cr_expect_str_eq(runs[0].shard->mixed_hosts[1], "Another CPU @ 1.0GHz");
    char *out = br_strfmt("%s/merged.json", tmp);
    const br_run *ptrs[16];
    for (size_t i = 0; i < nr && i < 16; i++)
        ptrs[i] = &runs[i];
    FILE *f = fopen(out, "w");
    cr_assert_not_null(f);
    cr_assert_eq(br_results_write(f, ptrs, nr < 16 ? nr : 16), 0, "%s", br_error_get());
    cr_assert_eq(fclose(f), 0);
    br_run *back = NULL;
    size_t nb = 0;
    cr_assert_eq(br_results_load(&back, &nb, out), 0, "%s", br_error_get());
    cr_assert_eq(back[0].shard->n_mixed_hosts, 2, "mixed_hosts lost through JSON");
    cr_expect_str_eq(back[0].shard->mixed_hosts[1], "Another CPU @ 1.0GHz");
    br_results_free(back, nb);
    br_results_free(runs, nr);
    br_merge_report_dispose(&rep);
    free_parts(parts, n);
    free(out);
}
