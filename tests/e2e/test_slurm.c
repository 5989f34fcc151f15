/* SPDX-License-Identifier: Apache-2.0 */
/* test_slurm.c - the nightly on a real Slurm: a one-node cluster
 * (scripts/slurm/localcluster.sh: munged, slurmctld, slurmd on this
 * machine, no cgroups, no GPU) takes scripts/slurm/submit.sh's job array
 * of 4 shards over the host fixture suites (--no-gpu) and its merge job.
 * The merged file holds exactly the cases of an unsharded run, each once,
 * and history and the gate (benchrun report) read it; with one task
 * cancelled (scancel) the merged file names the missing cases and the merge
 * job exits non-zero. Skipped, visibly, without root or without slurm-wlm
 * and munge. Every daemon started is stopped by its pid. */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "e2e_util.h"
#include "results/merge.h"
#include "results/run_read.h"
#include "results/shardinfo.h"

#define SHARD_A "tests/fixtures/shard/shard_a.yaml"
#define SHARD_B "tests/fixtures/shard/shard_b.yaml"
#define SHARDS  4

static char *cluster; /* the cluster's directory, once started */
static char array_job[32], merge_job[32];

/* Run `cmd` in a shell, its standard output into out (when not NULL). */
static int sh(char *out, size_t len, const char *cmd) {
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    size_t n = out ? fread(out, 1, len - 1, f) : 0;
    if (out)
        out[n] = '\0';
    else {
        char sink[4096];
        while (fread(sink, 1, sizeof sink, f) > 0) {
        }
    }
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int have(const char *tool) {
    char *cmd = br_strfmt("command -v %s >/dev/null 2>&1", tool);
    int ok = system(cmd) == 0;
    free(cmd);
    return ok;
}

static void start_cluster(void) {
    e2e_tmp_make();
    if (geteuid() != 0)
        cr_skip_test("needs root to run slurmd (and the jobs) on this machine");
    const char *tools[] = {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel"};
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
        if (!have(tools[i]))
            cr_skip_test("%s not found: apt-get install slurm-wlm munge", tools[i]);
    cluster = br_strfmt("%s/cluster", tmp);
    char *cmd = br_strfmt("%s/scripts/slurm/localcluster.sh start %s 2>&1", BR_SOURCE_DIR, cluster);
    char out[4096];
    int rc = sh(out, sizeof out, cmd);
    free(cmd);
    if (rc == 77)
        cr_skip_test("the cluster cannot start here: %s", out);
    cr_assert_eq(rc, 0, "localcluster.sh start: %s", out);
    char *conf = br_strfmt("%s/slurm.conf", cluster);
    setenv("SLURM_CONF", conf, 1);
    free(conf);
}

/* Cancel what is left of this test's jobs, then stop the daemons by pid. */
static void stop_cluster(void) {
    if (cluster) {
        /* Slurm's own record of each job that ended (jobcomp/filetxt: this
         * cluster has no slurmdbd, so no sacct), for the test's log. */
        char *log = br_strfmt("%s/jobcomp.log", cluster), *text = NULL;
        if (br_read_file(&text, NULL, log, 1 << 20) == 0)
            cr_log_info("Slurm job completion records (%s):\n%s", log, text);
        free(text);
        free(log);
        char *cmd = br_strfmt("scancel %s %s 2>/dev/null; for i in $(seq 1 50); do "
                              "[ -z \"$(squeue -h -j %s,%s 2>/dev/null)\" ] && break; sleep 0.2; "
                              "done; %s/scripts/slurm/localcluster.sh stop %s",
                              array_job, merge_job, array_job[0] ? array_job : "0",
                              merge_job[0] ? merge_job : "0", BR_SOURCE_DIR, cluster);
        sh(NULL, 0, cmd);
        free(cmd);
        free(cluster);
        cluster = NULL;
    }
    e2e_tmp_drop();
}

TestSuite(slurm, .init = start_cluster, .fini = stop_cluster, .timeout = 280);

/* "key=value" of submit.sh's output into val. */
static void field(char *val, size_t len, const char *out, const char *key) {
    const char *at = strstr(out, key);
    cr_assert_not_null(at, "submit.sh said: %s", out);
    at += strlen(key);
    size_t n = strcspn(at, "\n");
    cr_assert_lt(n, len);
    memcpy(val, at, n);
    val[n] = '\0';
}

/* Submit the nightly over the host suites (`extra`: more submit.sh options). */
static void submit(const char *extra) {
    char *cmd =
        br_strfmt("cd %s && BENCHRUN=%s scripts/slurm/submit.sh -n %d --results-dir "
                  "%s/results --no-gpu --sbatch-arg=--cpus-per-task=1 %s -- %s %s "
                  "--cache-dir=%s/cache 2>&1",
                  BR_SOURCE_DIR, BR_BENCHRUN_EXE, SHARDS, tmp, extra, SHARD_A, SHARD_B, tmp);
    char out[4096];
    int rc = sh(out, sizeof out, cmd);
    free(cmd);
    cr_assert_eq(rc, 0, "submit.sh: %s", out);
    field(array_job, sizeof array_job, out, "array=");
    field(merge_job, sizeof merge_job, out, "merge=");
}

/* Wait for the merge job to end; its state ("COMPLETED", "FAILED") and exit
 * code ("1:0") into state and code. */
static void wait_merge(char *state, size_t ls, char *code, size_t lc) {
    char *cmd = br_strfmt("scontrol show job %s", merge_job), out[8192];
    time_t until = time(NULL) + 240;
    for (;;) {
        cr_assert_eq(sh(out, sizeof out, cmd), 0, "scontrol: %s", out);
        field(state, ls, out, "JobState=");
        state[strcspn(state, " ")] = '\0';
        if (strcmp(state, "PENDING") != 0 && strcmp(state, "RUNNING") != 0 &&
            strcmp(state, "CONFIGURING") != 0 && strcmp(state, "COMPLETING") != 0)
            break;
        cr_assert_lt(time(NULL), until, "the merge job did not end: %s", out);
        usleep(500 * 1000);
    }
    field(code, lc, out, "ExitCode=");
    code[strcspn(code, " \n")] = '\0';
    free(cmd);
}

static char *merged_path(void) {
    return br_strfmt("%s/results/shards/%s/merged.json", tmp, array_job);
}

static char *log_of_merge(void) {
    char *path = br_strfmt("%s/results/shards/logs/benchrun-merge-%s.out", tmp, merge_job), *text;
    cr_assert_eq(br_read_file(&text, NULL, path, 1 << 20), 0, "%s", br_error_get());
    free(path);
    return text;
}

/* "suite kernel n..." of every case of runs, in order. */
static size_t case_names(char names[][128], size_t cap, const br_run *runs, size_t n) {
    size_t k = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < runs[r].n_cases && k < cap; i++) {
            const br_case_result *c = &runs[r].cases[i];
            int len = snprintf(names[k], 128, "%s %s", runs[r].suite_name,
                               runs[r].kernels[c->kernel].name);
            for (size_t p = 0; p < runs[r].n_params; p++)
                len +=
                    snprintf(names[k] + len, 128 - (size_t)len, " %lld", (long long)c->params[p]);
            k++;
        }
    return k;
}

Test(slurm, shards_merge_into_the_cases_of_an_unsharded_run) {
    submit("");
    char state[64], code[32];
    wait_merge(state, sizeof state, code, sizeof code);
    char *log = log_of_merge();
    cr_assert_str_eq(state, "COMPLETED", "merge job: %s\n%s", code, log);
    cr_assert(strstr(log, "4 of 4 shard(s), 12 case(s): 12 ok"), "%s", log);
    free(log);

    /* The unsharded run of the same suites. */
    char *whole = br_strfmt("%s/whole.json", tmp), *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *args[] = {cache, "-q", "--json", whole, SHARD_A, SHARD_B, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, BR_SOURCE_DIR, args), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);

    char *merged = merged_path();
    br_run *m = NULL, *w = NULL;
    size_t nm = 0, nw = 0;
    cr_assert_eq(br_results_load(&m, &nm, merged), 0, "%s", br_error_get());
    cr_assert_eq(br_results_load(&w, &nw, whole), 0, "%s", br_error_get());
    static char a[64][128], b[64][128];
    size_t na = case_names(a, 64, m, nm), nb = case_names(b, 64, w, nw);
    cr_assert_eq(na, nb, "merged %zu cases, unsharded %zu", na, nb);
    for (size_t i = 0; i < na; i++) {
        cr_assert_str_eq(a[i], b[i], "case %zu", i);
        for (size_t j = 0; j < i; j++)
            cr_assert_str_neq(a[i], a[j], "case %s twice", a[i]);
    }
    for (size_t i = 0; i < nm; i++) {
        cr_assert_eq(m[i].shard->n_merged, SHARDS);
        for (size_t c = 0; c < m[i].n_cases; c++)
            cr_assert_eq(m[i].cases[c].status, BR_STATUS_OK);
    }
    br_results_free(m, nm);
    br_results_free(w, nw);

    /* history reads the results directory the merge wrote into. */
    char *dir = br_strfmt("%s/results", tmp);
    const char *hist[] = {"history", "--ascii", dir, NULL};
    cr_assert_eq(e2e_run(&r, NULL, hist), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "shard-a") && strstr(r.out, "shard-b"), "%s", r.out);
    e2e_free(&r);

    /* The gate reads the merged file: a baseline saved from it, then compared. */
    char *base = br_strfmt("%s/base", tmp);
    const char *save[] = {"report", "-q", "--save-baseline", "--baseline-dir", base, merged, NULL};
    cr_assert_eq(e2e_run(&r, NULL, save), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    char *json = br_strfmt("%s/gate.json", tmp);
    const char *gate[] = {"report", "-q", "--baseline-dir", base, "--fail-on", "never",
                          "--json", json, merged,           NULL};
    cr_assert_eq(e2e_run(&r, NULL, gate), 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_free(&r);
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, json, 1 << 24), 0);
    cr_assert(strstr(text, "\"comparison\""), "the gate compared the merge with its baseline");
    free(text);
    free(json);
    free(base);
    free(dir);
    free(merged);
    free(whole);
    free(cache);
}

Test(slurm, a_cancelled_shard_leaves_named_missing_cases_and_a_failed_merge) {
    submit("--hold");
    char *cancel = br_strfmt("scancel %s_2 && scontrol release %s", array_job, array_job);
    cr_assert_eq(sh(NULL, 0, cancel), 0, "%s", cancel);
    free(cancel);
    char state[64], code[32];
    wait_merge(state, sizeof state, code, sizeof code);
    char *log = log_of_merge();
    cr_assert_str_eq(state, "FAILED", "merge job: %s %s\n%s", state, code, log);
    cr_assert_str_eq(code, "1:0", "benchrun merge exits 1 when cases are missing\n%s", log);
    cr_assert(strstr(log, "shard 2/4 gave no results"), "%s", log);
    cr_assert(strstr(log, "case(s) of the plan are missing"), "%s", log);

    /* The merged file has every case of the plan; exactly shard 2's are missing. */
    char *merged = merged_path();
    br_run *m = NULL;
    size_t nm = 0, missing = 0, total = 0;
    cr_assert_eq(br_results_load(&m, &nm, merged), 0, "%s", br_error_get());
    char *part1 = br_strfmt("%s/results/shards/%s/part-1.json", tmp, array_job);
    br_run *p = NULL;
    size_t np = 0;
    cr_assert_eq(br_results_load(&p, &np, part1), 0, "%s", br_error_get());
    for (size_t i = 0; i < nm; i++) {
        const br_run_shard *plan = NULL;
        for (size_t j = 0; j < np; j++)
            if (strcmp(p[j].suite_name, m[i].suite_name) == 0)
                plan = p[j].shard;
        cr_assert_not_null(plan);
        cr_assert_eq(m[i].n_cases, plan->n_plan, "every case of the plan is listed");
        for (size_t c = 0; c < m[i].n_cases; c++) {
            int is_missing = br_merge_case_missing(&m[i].cases[c]);
            cr_assert_eq(is_missing, plan->plan_shard[c] == 2, "%s case %zu", m[i].suite_name, c);
            if (is_missing) {
                char name[128];
                snprintf(name, sizeof name, "%s: sum_ok", m[i].suite_name);
                cr_assert(strstr(log, name), "the log names the missing cases: %s", log);
            }
            missing += is_missing;
        }
        total += m[i].n_cases;
        cr_assert_eq(m[i].shard->n_missing, 1);
        cr_assert_eq(m[i].shard->missing[0], 2);
    }
    cr_assert_eq(total, 12);
    cr_assert_eq(missing, 3, "12 cases by count in 4 shards: 3 in shard 2");
    br_results_free(m, nm);
    br_results_free(p, np);
    free(part1);
    free(merged);
    free(log);
}
