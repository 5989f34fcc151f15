/* benchrun - command line. Parses options and hands over to run.c. */
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "reporter.h"
#include "results.h"
#include "run.h"
#include "util.h"

enum { EXIT_OK = 0, EXIT_CASE_FAILED = 1, EXIT_BAD_INPUT = 2 };

static void usage(FILE *f) {
    fputs("usage: benchrun [options] SUITE.yaml...\n"
          "\n"
          "Compile, verify and measure the kernels of each suite and print a table.\n"
          "\n"
          "options:\n"
          "  -k, --kernel PATTERN  run only kernels whose name matches the glob (repeatable)\n"
          "      --list            print the planned cases and exit without running them\n"
          "      --csv FILE        also write the results as CSV ('-': standard output)\n"
          "      --json FILE       also write the results as JSON ('-': standard output)\n"
          "      --cache-dir DIR   compile cache (default $XDG_CACHE_HOME/benchrun,\n"
          "                        else ~/.cache/benchrun)\n"
          "      --ascii           plain ASCII table (the default when the locale is not UTF-8)\n"
          "  -j, --jobs N          compile at most N kernel sources at once (default: CPUs)\n"
          "  -q, --quiet           no progress messages on standard error\n"
          "  -h, --help            show this help\n"
          "  -V, --version         show the version\n"
          "\n"
          "exit status: 0 every case verified and measured; 1 a case failed (compile,\n"
          "verify or run); 2 bad input or usage.\n",
          f);
}

typedef struct write_ctx {
    const br_reporter *rep;
    const br_run *const *runs;
    size_t n_runs;
    const br_report_opts *opts;
} write_ctx;

static int write_report(FILE *f, void *p) {
    write_ctx *w = p;
    return w->rep->write(f, w->runs, w->n_runs, w->opts);
}

static int emit(const char *name, const char *path, const br_run *const *runs, size_t n,
                const br_report_opts *opts) {
    write_ctx w = {br_reporter_find(name), runs, n, opts};
    if (!w.rep)
        return br_error_set("no reporter '%s'", name);
    if (br_write_atomic(path, write_report, &w) != 0) {
        fprintf(stderr, "benchrun: cannot write %s: %s\n", path, br_error_get());
        return -1;
    }
    return 0;
}

/* Refuse an output path that cannot be written, before anything runs. */
static int check_output(const char *option, const char *path) {
    if (!path || strcmp(path, "-") == 0)
        return 0;
    struct stat st;
    char *dir = br_path_dir(path);
    int rc = 0;
    if (!path[0])
        rc = br_error_set("benchrun: %s expects a file name", option);
    else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        rc = br_error_set("benchrun: %s %s: is a directory", option, path);
    else if (!dir || access(dir, W_OK) != 0)
        rc = br_error_set("benchrun: %s %s: cannot write in %s: %s", option, path, dir ? dir : "?",
                          strerror(errno));
    free(dir);
    return rc;
}

static void list_job(const br_job *j) {
    const br_suite *s = &j->suite;
    printf("%s (%s): %zu case(s)\n", s->name.text, s->path, j->plan.n_cases);
    for (size_t i = 0; i < j->plan.n_cases; i++) {
        const br_plan_case *c = &j->plan.cases[i];
        const int64_t *v = br_plan_params(&j->plan, c->combo);
        printf("  %-20s", s->kernels[c->kernel].text);
        for (size_t p = 0; p < s->n_params; p++) {
            char val[32];
            br_format_param(val, sizeof val, v[p]);
            printf(" %s=%s", s->params[p].name, val);
        }
        putchar('\n');
    }
}

int main(int argc, char **argv) {
    enum { OPT_LIST = 256, OPT_CSV, OPT_JSON, OPT_CACHE, OPT_ASCII };
    static const struct option longopts[] = {
        {"kernel", required_argument, NULL, 'k'},
        {"list", no_argument, NULL, OPT_LIST},
        {"csv", required_argument, NULL, OPT_CSV},
        {"json", required_argument, NULL, OPT_JSON},
        {"cache-dir", required_argument, NULL, OPT_CACHE},
        {"ascii", no_argument, NULL, OPT_ASCII},
        {"jobs", required_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char **patterns = calloc((size_t)argc, sizeof *patterns);
    size_t n_patterns = 0;
    int list = 0, ascii = 0;
    const char *csv = NULL, *json = NULL;
    br_run_opts ro = {0};
    int status = EXIT_BAD_INPUT;
    br_job *jobs = NULL;
    br_run *runs = NULL;
    const br_run **run_ptrs = NULL;
    size_t n_jobs = 0, n_runs = 0;
    br_session *session = NULL;

    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* numbers in every output use '.' */
    const char *codeset = nl_langinfo(CODESET);
    if (!codeset || strcmp(codeset, "UTF-8") != 0)
        ascii = 1;
    if (!patterns) {
        fprintf(stderr, "benchrun: out of memory\n");
        return EXIT_BAD_INPUT;
    }

    int opt;
    while ((opt = getopt_long(argc, argv, "k:j:qhV", longopts, NULL)) != -1) {
        switch (opt) {
        case 'k':
            patterns[n_patterns++] = optarg;
            break;
        case 'j': {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*end || n < 1 || n > 1024) {
                fprintf(stderr, "benchrun: --jobs expects a number from 1 to 1024, got '%s'\n",
                        optarg);
                goto done;
            }
            ro.jobs = (int)n;
            break;
        }
        case 'q':
            ro.quiet = 1;
            break;
        case OPT_LIST:
            list = 1;
            break;
        case OPT_CSV:
            csv = optarg;
            break;
        case OPT_JSON:
            json = optarg;
            break;
        case OPT_CACHE:
            ro.cache_dir = optarg;
            break;
        case OPT_ASCII:
            ascii = 1;
            break;
        case 'h':
            usage(stdout);
            status = EXIT_OK;
            goto done;
        case 'V':
            printf("benchrun %s\n", BR_VERSION);
            status = EXIT_OK;
            goto done;
        default:
            usage(stderr);
            goto done;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "benchrun: no suite file given\n");
        usage(stderr);
        goto done;
    }
    ro.patterns = patterns;
    ro.n_patterns = n_patterns;
    if (ro.cache_dir && !ro.cache_dir[0]) {
        fprintf(stderr, "benchrun: --cache-dir expects a directory name\n");
        goto done;
    }
    if (check_output("--csv", csv) != 0 || check_output("--json", json) != 0) {
        fprintf(stderr, "%s\n", br_error_get());
        goto done;
    }

    /* Check every suite before running any. */
    n_jobs = (size_t)(argc - optind);
    jobs = calloc(n_jobs, sizeof *jobs);
    runs = calloc(n_jobs, sizeof *runs);
    run_ptrs = calloc(n_jobs, sizeof *run_ptrs);
    if (!jobs || !runs || !run_ptrs) {
        fprintf(stderr, "benchrun: out of memory\n");
        goto done;
    }
    for (size_t i = 0; i < n_jobs; i++) {
        if (br_job_prepare(&jobs[i], argv[optind + (int)i], &ro) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
            goto done;
        }
    }
    if (list) {
        for (size_t i = 0; i < n_jobs; i++)
            list_job(&jobs[i]);
        status = EXIT_OK;
        goto done;
    }

    if (br_session_open(&session, &ro) != 0) {
        fprintf(stderr, "benchrun: %s\n", br_error_get());
        goto done;
    }
    /* Build every suite's kernels and resolve their names before measuring
     * anything: a bad kernel name in the last suite runs nothing. */
    for (size_t i = 0; i < n_jobs; i++) {
        if (br_job_build(&jobs[i], session) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
            goto done;
        }
    }
    for (size_t i = 0; i < n_jobs; i++) {
        if (br_job_execute(&runs[i], &jobs[i], session) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
            goto done;
        }
        run_ptrs[n_runs++] = &runs[i];
    }

    status = EXIT_OK;
    size_t ok = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < n_runs; i++) {
        size_t a, b, c;
        br_run_count(&runs[i], &a, &b, &c);
        ok += a;
        failed += b;
        skipped += c;
    }
    br_report_opts opts = {.ascii = ascii};
    int stdout_taken = (csv && strcmp(csv, "-") == 0) || (json && strcmp(json, "-") == 0);
    if (!stdout_taken && emit("table", "-", run_ptrs, n_runs, &opts) != 0)
        status = EXIT_CASE_FAILED;
    if (csv && emit("csv", csv, run_ptrs, n_runs, &opts) != 0)
        status = EXIT_CASE_FAILED;
    if (json && emit("json", json, run_ptrs, n_runs, &opts) != 0)
        status = EXIT_CASE_FAILED;
    if (!ro.quiet)
        fprintf(stderr, "benchrun: %zu case(s): %zu ok, %zu failed, %zu skipped\n",
                ok + failed + skipped, ok, failed, skipped);
    if (failed)
        status = EXIT_CASE_FAILED;
done:
    for (size_t i = 0; i < n_jobs && runs; i++)
        br_run_dispose(&runs[i]);
    for (size_t i = 0; i < n_jobs && jobs; i++)
        br_job_dispose(&jobs[i]);
    br_session_close(session);
    free(runs);
    free(run_ptrs);
    free(jobs);
    free(patterns);
    return status;
}
