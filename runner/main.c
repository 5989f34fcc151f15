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
          "measurement (each replaces the suite's setting of the same name):\n"
          "      --mode MODE       cold, batch or both\n"
          "      --headline MODE   which time the metric uses: cold or batch\n"
          "      --cache POLICY    flush, warm or flush-memset (comparison only)\n"
          "      --warmup DUR      warmup time budget per case, e.g. 25ms\n"
          "      --min-samples N   at least N samples\n"
          "      --min-time DUR    at least DUR of measured time\n"
          "      --max-noise PCT   stop once the noise (stddev/mean) is under PCT, e.g. 0.5%\n"
          "      --timeout DUR     never sample one case for longer than DUR\n"
          "      --max-samples N   never take more than N samples\n"
          "      --throttle PCT    discard GPU samples below PCT of the maximum SM clock (0: off)\n"
          "      --no-hold         do not hold the GPU stream while a sample is enqueued\n"
          "\n"
          "exit status: 0 every case verified and measured; 1 a case failed (compile,\n"
          "verify or run); 2 bad input or usage.\n",
          f);
}

enum {
    OPT_LIST = 256,
    OPT_CSV,
    OPT_JSON,
    OPT_CACHE,
    OPT_ASCII,
    OPT_MODE,
    OPT_HEADLINE,
    OPT_CACHE_POLICY,
    OPT_WARMUP,
    OPT_MIN_SAMPLES,
    OPT_MIN_TIME,
    OPT_MAX_NOISE,
    OPT_TIMEOUT,
    OPT_MAX_SAMPLES,
    OPT_THROTTLE,
    OPT_NO_HOLD
};

/* Apply one measurement option (--mode ... --no-hold) to *mo. Returns 0, or
 * -1 with the error set naming the option. */
static int parse_measure_option(br_measure_overrides *mo, int opt, const char *arg) {
    switch (opt) {
    case OPT_MODE:
    case OPT_HEADLINE:
        if (br_parse_mode(opt == OPT_MODE ? &mo->mode : &mo->headline,
                          opt == OPT_MODE ? "--mode" : "--headline", arg, opt == OPT_MODE) != 0)
            return -1;
        break;
    case OPT_CACHE_POLICY:
        if (strcmp(arg, "flush") == 0)
            mo->cache = BR_CACHE_FLUSH;
        else if (strcmp(arg, "warm") == 0)
            mo->cache = BR_CACHE_WARM;
        else if (strcmp(arg, "flush-memset") == 0)
            mo->cache = BR_CACHE_FLUSH_MEMSET;
        else {
            br_error_set("--cache: unknown cache policy '%s' (expected flush, warm or "
                         "flush-memset)",
                         arg);
            return -1;
        }
        break;
    case OPT_WARMUP:
        if (br_parse_duration(&mo->warmup_ns, "--warmup", arg) != 0)
            return -1;
        break;
    case OPT_MIN_TIME:
        if (br_parse_duration(&mo->min_time_ns, "--min-time", arg) != 0)
            return -1;
        break;
    case OPT_TIMEOUT:
        if (br_parse_duration(&mo->timeout_ns, "--timeout", arg) != 0)
            return -1;
        if (mo->timeout_ns <= 0) {
            br_error_set("--timeout: must be longer than 0");
            return -1;
        }
        break;
    case OPT_MAX_NOISE:
        if (br_parse_fraction(&mo->max_noise, "--max-noise", arg) != 0)
            return -1;
        break;
    case OPT_THROTTLE:
        if (strcmp(arg, "0") == 0 || strcmp(arg, "0%") == 0)
            mo->throttle = 0;
        else if (br_parse_fraction(&mo->throttle, "--throttle", arg) != 0)
            return -1;
        break;
    case OPT_MIN_SAMPLES:
    case OPT_MAX_SAMPLES: {
        const char *name = opt == OPT_MIN_SAMPLES ? "--min-samples" : "--max-samples";
        char *end;
        errno = 0;
        long long n = strtoll(arg, &end, 10);
        if (*end || end == arg || errno || n < 1 || n > (long long)BR_MAX_SAMPLES_LIMIT) {
            br_error_set("%s: expected a number from 1 to %llu, found '%s'", name,
                         (unsigned long long)BR_MAX_SAMPLES_LIMIT, arg);
            return -1;
        }
        *(opt == OPT_MIN_SAMPLES ? &mo->min_samples : &mo->max_samples) = (size_t)n;
        break;
    }
    case OPT_NO_HOLD:
        mo->hold = 0;
        break;
    }
    return 0;
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
    static const struct option longopts[] = {
        {"kernel", required_argument, NULL, 'k'},
        {"list", no_argument, NULL, OPT_LIST},
        {"csv", required_argument, NULL, OPT_CSV},
        {"json", required_argument, NULL, OPT_JSON},
        {"cache-dir", required_argument, NULL, OPT_CACHE},
        {"ascii", no_argument, NULL, OPT_ASCII},
        {"mode", required_argument, NULL, OPT_MODE},
        {"headline", required_argument, NULL, OPT_HEADLINE},
        {"cache", required_argument, NULL, OPT_CACHE_POLICY},
        {"warmup", required_argument, NULL, OPT_WARMUP},
        {"min-samples", required_argument, NULL, OPT_MIN_SAMPLES},
        {"min-time", required_argument, NULL, OPT_MIN_TIME},
        {"max-noise", required_argument, NULL, OPT_MAX_NOISE},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"max-samples", required_argument, NULL, OPT_MAX_SAMPLES},
        {"throttle", required_argument, NULL, OPT_THROTTLE},
        {"no-hold", no_argument, NULL, OPT_NO_HOLD},
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
    br_measure_overrides_init(&ro.measure);
    br_measure_overrides *mo = &ro.measure;
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
        case OPT_MODE:
        case OPT_HEADLINE:
        case OPT_CACHE_POLICY:
        case OPT_WARMUP:
        case OPT_MIN_TIME:
        case OPT_TIMEOUT:
        case OPT_MAX_NOISE:
        case OPT_THROTTLE:
        case OPT_MIN_SAMPLES:
        case OPT_MAX_SAMPLES:
        case OPT_NO_HOLD:
            if (parse_measure_option(mo, opt, optarg) != 0) {
                fprintf(stderr, "benchrun: %s\n", br_error_get());
                goto done;
            }
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
