/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_suite.c - libFuzzer target over the suite loader, the plan and the
 * expression evaluator.
 *
 * An input is a suite file: it is written to a file in a per-process
 * temporary directory that also holds the kernel sources the shipped suites
 * and the test fixtures name (empty stand-ins: loading only checks that they
 * exist), then br_job_prepare loads it, builds the plan and evaluates bytes
 * and flops for every case. An input that starts with "#expr\n" is instead an
 * expression (runner/expr.h), evaluated with several parameter bindings.
 *
 *   scripts/fuzz.sh 60                      # build, seed, fuzz for 60 s
 *   build-fuzz/fuzz/fuzz_suite CRASH_FILE   # replay one input
 */
#include "suite/expr.h"
#include "plan/plan.h"
#include "compile/resolve.h"
#include "drive/execute.h"
#include "worker/session.h"
#include "plan/job.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXPR_MARKER "#expr\n"
/* Most expression characters one input may have the plan parse (about 1 s
 * in this build); see LLVMFuzzerTestOneInput. */
#define FUZZ_MAX_WORK 1e7

/* Sources named relative to the suite's directory (<tmp>/s) by the seeds. */
static const char *const sources[] = {
    "dummy.c",
    "dummy.cu",
    "kernels/other.c",
    "defines.c",
    "host_kernels.c",
    "broken.c",
    "../suites/dummy.c",
    "../kernels/reduction.cu",
    "../kernels/sgemm.cu",
    "../kernels/stream.cu",
    "../kernels/transpose.cu",
    "../kernels/reduction_cpu.c",
};

static char root[256];       /* the per-process temporary directory */
static char suite_path[300]; /* where each input is written */

static void cleanup(void) {
    char path[400];
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        snprintf(path, sizeof path, "%s/s/%s", root, sources[i]);
        unlink(path);
    }
    unlink(suite_path);
    static const char *const dirs[] = {"s/kernels", "s", "suites", "kernels", ""};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        rmdir(path);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/br_fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        perror("fuzz_suite: mkdtemp");
        abort();
    }
    char path[400];
    static const char *const dirs[] = {"s", "s/kernels", "suites", "kernels"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        mkdir(path, 0700);
    }
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        snprintf(path, sizeof path, "%s/s/%s", root, sources[i]);
        FILE *f = fopen(path, "w");
        if (!f) {
            perror(path);
            abort();
        }
        fputs("/* a stand-in kernel source: it only has to exist */\n", f);
        fclose(f);
    }
    snprintf(suite_path, sizeof suite_path, "%s/s/suite.yaml", root);
    atexit(cleanup); /* libgit2: started once for the process by the runner (base/gitlib.h) */
    return 0;
}

/* Evaluate the expression text with several bindings; an expression that
 * evaluates must also pass br_expr_check with the same names. */
static void fuzz_expr(const uint8_t *data, size_t size) {
    char *text = malloc(size + 1);
    if (!text)
        return;
    memcpy(text, data, size);
    text[size] = '\0';
    static const char *const names[] = {"n", "m", "k", "bs"};
    static const int64_t values[][4] = {{4096, 3, 64, 256},
                                        {0, 1, -1, 0},
                                        {INT64_MAX, INT64_MIN, 2, -7},
                                        {1 << 20, 1 << 10, 31, 63}};
    const br_pos at = {"fuzz.yaml", 7, 12};
    int checked = br_expr_check(text, at, names, 4);
    for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
        br_binding vars[4];
        for (size_t i = 0; i < 4; i++)
            vars[i] = (br_binding){names[i], values[v][i]};
        int64_t out = 0;
        int rc = br_expr_eval(&out, text, at, vars, 4);
        if (rc == 0 && checked != 0) {
            fprintf(stderr, "'%s' evaluates but fails br_expr_check: %s\n", text, br_error_get());
            abort();
        }
        br_error_clear();
    }
    br_expr_eval(&(int64_t){0}, text, at, NULL, 0); /* constants only */
    br_error_clear();
    free(text);
}

/* Characters of expression text the plan and the bytes/flops evaluation
 * would parse for suite s: `where` once per combination of the sweep, bytes,
 * flops and memory once per case (each is parsed afresh every time). */
static double plan_work(const br_suite *s) {
    double raw = 1, expr = 0;
    for (size_t i = 0; i < s->n_params; i++)
        if (!(s->params[i].zip && i > 0 && s->params[i - 1].zip == s->params[i].zip))
            raw *= (double)s->params[i].n_values; /* one axis per param or zip group */
    if (raw > (double)br_plan_max_sweep(s->where.text ? strlen(s->where.text) : 0))
        return 0; /* refused before any evaluation */
    for (size_t k = 0; k < s->n_kernels; k++) {
        expr += 16;
        const br_work *per_case[] = {&s->bytes, &s->flops, &s->memory};
        for (size_t w = 0; w < 3; w++) {
            const br_located *e = br_work_expr(per_case[w], k);
            expr += e ? strlen(e->text) : 0;
        }
    }
    return raw * (16 + (s->where.text ? strlen(s->where.text) : 0)) + raw * expr;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t marker = strlen(EXPR_MARKER);
    if (size >= marker && memcmp(data, EXPR_MARKER, marker) == 0) {
        fuzz_expr(data + marker, size - marker);
        return 0;
    }
    FILE *f = fopen(suite_path, "wb");
    if (!f)
        abort();
    if (size > 0 && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);

    /* Load first: a suite that fails to load fails br_job_prepare the same
     * way. One that loads is prepared unless its plan, though within the
     * runner's limits, would take seconds here (the plan bounds its work to
     * about 10 s of a -O2 build, slower in this one): such inputs are known
     * to be slow and would drown every other finding in timeouts. */
    br_suite suite;
    int loaded = br_suite_load(&suite, suite_path) == 0;
    double work = loaded ? plan_work(&suite) : 0;
    br_suite_dispose(&suite);
    br_error_clear();
    if (!loaded || work > FUZZ_MAX_WORK)
        return 0;

    br_run_opts opts;
    memset(&opts, 0, sizeof opts);
    br_measure_layer_init(&opts.measure);
    opts.quiet = 1;
    br_job job;
    br_job_prepare(&job, suite_path, &opts);
    br_job_dispose(&job);
    br_error_clear();
    return 0;
}
