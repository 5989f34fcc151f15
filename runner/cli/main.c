/* benchrun - command line. Parses options and hands over to run.c. */
#include <getopt.h>
#include <math.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/baseline.h"
#include "base/error.h"
#include "results/history.h"
#include "cmd_history.h"
#include "plan/plan.h"
#include "reporters/reporter.h"
#include "results/results.h"
#include "results/resultsfile.h"
#include "measure/run.h"
#include "base/util.h"

enum { EXIT_OK = 0, EXIT_CASE_FAILED = 1, EXIT_BAD_INPUT = 2, EXIT_SLOWER = 3 };

/* SIGINT, SIGTERM: the first asks the run to stop (br_stop_request: no new
 * case starts, the outputs are written, the exit status is 128 + signal);
 * a second one exits at once, leaving no temporary file. */
static void on_stop_signal(int sig) {
    if (br_stop_signal()) {
        br_write_atomic_abandon();
        _exit(128 + sig);
    }
    int saved = errno;
    br_stop_request(sig);
    static const char msg[] = "\nbenchrun: interrupted: no new case starts; writing the results "
                              "of the finished ones (interrupt again to quit at once)\n";
    ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)n;
    errno = saved;
}

/* Also: a reader that went away (`benchrun ... | tee log` and Ctrl-C kills
 * tee too) fails the write to standard output instead of killing benchrun
 * before it writes the other outputs. */
static void catch_stop_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT); /* one handler at a time */
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static void usage(FILE *f) {
    fputs("usage: benchrun [options] SUITE.yaml...\n"
          "       benchrun compare [options] OLD.json NEW.json\n"
          "       benchrun history DIR [-k GLOB] [-p NAME=VALUE] [--plot FILE.svg]\n"
          "\n"
          "Compile, verify and measure the kernels of each suite and print a table.\n"
          "\n"
          "options:\n"
          "  -k, --kernel PATTERN  run only kernels whose name matches the glob (repeatable)\n"
          "  -p, --param NAME=VALUE  set a parameter in every suite that has it: one value\n"
          "                        or a list NAME=[A,B,...] (values may be expressions such\n"
          "                        as 2^20); for a zipped parameter, keep the group's\n"
          "                        entries with those values (repeatable)\n"
          "      --list            print the planned cases (and the plan's size) and exit\n"
          "      --budget DUR      bound the whole run's measuring time, e.g. 10m: each case's\n"
          "                        warmup and timeout are shortened to fit (suite: budget)\n"
          "      --results-dir DIR also write the results as DIR/<date>-<commit>.json\n"
          "                        (never overwritten; see benchrun history)\n"
          "      --csv FILE        also write the results as CSV ('-': standard output)\n"
          "      --json FILE       also write the results as JSON ('-': standard output)\n"
          "      --markdown FILE   also write the results and the comparison as Markdown\n"
          "      --gbench FILE     also write the results in Google Benchmark's JSON format\n"
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
          "      --watchdog DUR    kill a case that runs DUR past its warmup and timeout and\n"
          "                        record it as timed out (default 1min)\n"
          "      --max-samples N   never take more than N samples\n"
          "      --throttle PCT    discard GPU samples below PCT of the maximum SM clock (0: off)\n"
          "      --no-hold         do not hold the GPU stream while a sample is enqueued\n"
          "      --clock CLOCK     GPU times: kernel (default: the GPU operations' own\n"
          "                        durations from CUPTI activity records; falls back to events\n"
          "                        where CUPTI cannot be used) or events (CUDA events)\n"
          "      --no-cupti        collect no CUPTI records (GPU times are CUDA events only)\n"
          "\n"
          "baselines (baselines/<suite>/<device>.json in the suite's git work tree):\n"
          "      --save-baseline   save this run as the baseline (updates only the cases run;\n"
          "                        the comparison with the old one is shown, never exit 3)\n"
          "      --baseline FILE   compare with (and save to) FILE instead\n"
          "      --baseline-dir DIR  keep baselines under DIR/<suite>/<device>.json\n"
          "      --no-compare      do not compare with the baseline\n"
          "      --threshold PCT   minimum change that counts, e.g. 2% (suite: "
          "regression.threshold)\n"
          "      --alpha P         significance level of the test, e.g. 0.01 (regression.alpha)\n"
          "      --fail-on WHAT    slower (default), any-change or never: when a comparison\n"
          "                        fails the run with exit status 3\n"
          "      --force-device    compare with a baseline measured on another device\n"
          "\n"
          "Each case runs in a worker process: a case that crashes or hangs is recorded\n"
          "as failed and a fresh worker goes on with the next. On SIGINT or SIGTERM\n"
          "benchrun starts no new case, writes every output for the cases finished (the\n"
          "rest marked interrupted) and exits; a second signal exits at once.\n"
          "\n"
          "exit status: 0 every case verified and measured (and none slower than the\n"
          "baseline); 1 a case failed (compile, verify, run, crash or timeout); 2 bad\n"
          "input or usage; 3 a case is slower than the baseline (see --fail-on);\n"
          "130 / 143 interrupted by SIGINT / SIGTERM.\n",
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
    OPT_WATCHDOG,
    OPT_MAX_SAMPLES,
    OPT_THROTTLE,
    OPT_NO_HOLD,
    OPT_MARKDOWN,
    OPT_GBENCH,
    OPT_SAVE_BASELINE,
    OPT_BASELINE,
    OPT_BASELINE_DIR,
    OPT_NO_COMPARE,
    OPT_THRESHOLD,
    OPT_ALPHA,
    OPT_FAIL_ON,
    OPT_FORCE_DEVICE,
    OPT_CLOCK,
    OPT_NO_CUPTI,
    OPT_BUDGET,
    OPT_RESULTS_DIR
};

/* What the baseline options ask for. */
typedef struct compare_opts {
    const char *baseline; /* --baseline FILE, or NULL */
    const char *dir;      /* --baseline-dir DIR, or NULL */
    int save, no_compare, force_device;
    br_fail_on fail_on;
    double threshold, alpha; /* NAN: the suite's */
} compare_opts;

/* Apply one baseline option to *co. Returns 0, or -1 with the error set. */
static int parse_compare_option(compare_opts *co, int opt, const char *arg) {
    switch (opt) {
    case OPT_SAVE_BASELINE:
        co->save = 1;
        break;
    case OPT_BASELINE:
        if (!arg[0] || strcmp(arg, "-") == 0)
            return br_error_set("--baseline expects a file name");
        co->baseline = arg;
        break;
    case OPT_BASELINE_DIR:
        if (!arg[0])
            return br_error_set("--baseline-dir expects a directory name");
        co->dir = arg;
        break;
    case OPT_NO_COMPARE:
        co->no_compare = 1;
        break;
    case OPT_FORCE_DEVICE:
        co->force_device = 1;
        break;
    case OPT_THRESHOLD:
        if (strcmp(arg, "0") == 0 || strcmp(arg, "0%") == 0)
            co->threshold = 0;
        else if (br_parse_fraction(&co->threshold, "--threshold", arg) != 0)
            return -1;
        break;
    case OPT_ALPHA:
        if (br_parse_fraction(&co->alpha, "--alpha", arg) != 0)
            return -1;
        break;
    case OPT_FAIL_ON:
        if (strcmp(arg, "slower") == 0)
            co->fail_on = BR_FAIL_ON_SLOWER;
        else if (strcmp(arg, "any-change") == 0)
            co->fail_on = BR_FAIL_ON_ANY;
        else if (strcmp(arg, "never") == 0)
            co->fail_on = BR_FAIL_ON_NEVER;
        else
            return br_error_set("--fail-on: expected slower, any-change or never, found '%s'", arg);
        break;
    }
    return 0;
}

/* The rules for run r: the suite's, with the command line's over them. */
static br_regression_cfg rules_for(const br_run *r, const compare_opts *co) {
    br_regression_cfg g = r->regression;
    if (!(g.alpha > 0 && g.alpha < 1))
        g.alpha = BR_DEFAULT_REGRESSION_ALPHA;
    if (!(g.threshold >= 0))
        g.threshold = BR_DEFAULT_REGRESSION_THRESHOLD;
    if (!isnan(co->threshold))
        g.threshold = co->threshold;
    if (!isnan(co->alpha))
        g.alpha = co->alpha;
    return g;
}

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
    case OPT_WATCHDOG:
        if (br_parse_duration(&mo->watchdog_ns, "--watchdog", arg) != 0)
            return -1;
        if (mo->watchdog_ns <= 0)
            return br_error_set("--watchdog: must be longer than 0");
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

/* Write the runs' JSON document into dir as <date>-<short sha>.json (UTC
 * date and time of the run; "-dirty" after the sha for a dirty work tree,
 * "nogit" outside a repository), never replacing a file: a name taken
 * gets "-2", "-3", ... The file appears whole or not at all (br_write_new).
 * Returns 0, or -1 after a message on stderr. */
static int save_results(const char *dir, const br_run *const *runs, size_t n,
                        const br_report_opts *opts, int quiet) {
    if (n == 0)
        return 0;
    const br_run *r = runs[0];
    char stamp[32] = "", sha[64];
    /* "2026-11-22T03:15:00Z" -> "20261122T031500Z" */
    for (size_t i = 0, k = 0; r->date[i] && k + 1 < sizeof stamp; i++)
        if (r->date[i] != '-' && r->date[i] != ':')
            stamp[k++] = r->date[i], stamp[k] = '\0';
    if (r->git.present && r->git.short_sha[0])
        snprintf(sha, sizeof sha, "%s%s", r->git.short_sha, r->git.dirty ? "-dirty" : "");
    else
        snprintf(sha, sizeof sha, "nogit");
    if (br_mkdir_p(dir) != 0) {
        fprintf(stderr, "benchrun: --results-dir %s: %s\n", dir, br_error_get());
        return -1;
    }
    write_ctx w = {br_reporter_find("json"), runs, n, opts};
    int rc = 1;
    for (int k = 1; k < 1000 && rc == 1; k++) {
        char *name = k == 1 ? br_strfmt("%s/%s-%s.json", dir, stamp, sha)
                            : br_strfmt("%s/%s-%s-%d.json", dir, stamp, sha, k);
        if (!name || !w.rep) {
            free(name);
            return -1;
        }
        rc = br_write_new(name, write_report, &w);
        if (rc == 0 && !quiet)
            fprintf(stderr, "benchrun: results written to %s\n", name);
        else if (rc < 0)
            fprintf(stderr, "benchrun: --results-dir: cannot write %s: %s\n", name, br_error_get());
        free(name);
    }
    if (rc == 1)
        fprintf(stderr, "benchrun: --results-dir %s: no free name for %s-%s (999 taken)\n", dir,
                stamp, sha);
    return rc == 0 ? 0 : -1;
}

static void list_job(const br_job *j) {
    const br_suite *s = &j->suite;
    printf("%s (%s): %zu case(s)", s->name.text, s->path, j->plan.n_cases);
    if (j->plan.n_swept != j->plan.n_combos)
        printf(", %zu of %zu parameter combinations kept by 'where'", j->plan.n_combos,
               j->plan.n_swept);
    if (j->n_variants > 1)
        printf(", %zu compile-time variants", j->n_variants);
    if (s->budget_ns > 0) {
        char b[64];
        br_format_duration(b, sizeof b, s->budget_ns);
        printf(", budget %s", b);
    }
    putchar('\n');
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

/* ANSI colours on fd: a terminal, and NO_COLOR unset or empty (no-color.org). */
static int use_color(int fd) {
    const char *no = getenv("NO_COLOR");
    return isatty(fd) && !(no && no[0]);
}

/* The baseline file of run r: --baseline FILE, else the default path under
 * --baseline-dir or the work tree. Caller frees; NULL when out of memory. */
static char *baseline_file(const compare_opts *co, const br_run *r) {
    return co->baseline ? br_strdup(co->baseline) : br_baseline_path(co->dir, r);
}

/* Compare run r with its baseline (--baseline FILE, else the default path)
 * and attach the comparison to r. Returns 0 (also when there is no baseline
 * to compare with: said on stderr unless quiet), or -1 with the error set. */
static int attach_comparison(br_run *r, const compare_opts *co, int quiet) {
    int rc = -1;
    char *path = baseline_file(co, r);
    br_run base;
    memset(&base, 0, sizeof base);
    br_comparison *cmp = NULL;
    if (!path) {
        br_error_set("out of memory");
        goto done;
    }
    int lr = br_baseline_load(&base, path, r);
    if (lr < 0)
        goto done;
    if (lr == 1) {
        if (co->baseline && !co->save) {
            br_error_set("--baseline %s: no such file", path);
            goto done;
        }
        if (!quiet)
            fprintf(stderr,
                    "benchrun: %s: no baseline for this suite and device yet "
                    "(--save-baseline writes one)\n",
                    path);
        rc = 0;
        goto done;
    }
    if (!(cmp = calloc(1, sizeof *cmp))) {
        br_error_set("out of memory");
        goto done;
    }
    br_regression_cfg rules = r->regression;
    if (br_baseline_compare(cmp, &base, path, r, &rules, co->force_device) != 0) {
        br_comparison_dispose(cmp);
        free(cmp);
        cmp = NULL;
        goto done;
    }
    r->comparison = cmp;
    rc = 0;
done:
    br_run_dispose(&base);
    free(path);
    return rc;
}

/* --save-baseline for run r. Returns 0, or (after saying why on stderr) -2
 * when an existing file was refused, -1 for any other failure. */
static int save_baseline(const br_run *r, const compare_opts *co, int quiet) {
    size_t n_ok, n_failed, n_skipped;
    br_run_count(r, &n_ok, &n_failed, &n_skipped);
    if (n_ok == 0) {
        fprintf(stderr, "benchrun: %s: no case was measured: the baseline is not saved\n",
                r->suite_path);
        return 0;
    }
    char *path = baseline_file(co, r);
    br_save_stats st;
    int rc = -1;
    if (!path)
        fprintf(stderr, "benchrun: out of memory\n");
    else if ((rc = br_baseline_save(path, r, &st)) != 0)
        fprintf(stderr, "benchrun: cannot save the baseline: %s\n", br_error_get());
    else {
        rc = 0;
        if (!quiet) {
            fprintf(stderr, "benchrun: saved baseline %s: %zu case(s) written, %zu kept", path,
                    st.written, st.kept);
            if (st.refused)
                fprintf(stderr, ", %zu failed or skipped not written", st.refused);
            if (st.dropped)
                fprintf(stderr, ", %zu dropped (their params no longer match the suite)",
                        st.dropped);
            fputc('\n', stderr);
        }
    }
    free(path);
    return rc;
}

/* benchrun compare [options] OLD.json NEW.json: compare two results files
 * run by run (matched by suite name) with the baseline rules; prints the
 * table of NEW with the comparison. Exit status 0, 2 (bad input) or 3. */
static int compare_main(int argc, char **argv, int ascii) {
    static const struct option longopts[] = {
        {"threshold", required_argument, NULL, OPT_THRESHOLD},
        {"alpha", required_argument, NULL, OPT_ALPHA},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"force-device", no_argument, NULL, OPT_FORCE_DEVICE},
        {"markdown", required_argument, NULL, OPT_MARKDOWN},
        {"json", required_argument, NULL, OPT_JSON},
        {"ascii", no_argument, NULL, OPT_ASCII},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    compare_opts co = {.threshold = NAN, .alpha = NAN};
    const char *markdown = NULL, *json = NULL;
    int quiet = 0, status = EXIT_BAD_INPUT, opt;
    br_run *old = NULL, *cur = NULL;
    size_t n_old = 0, n_cur = 0;
    const br_run **ptrs = NULL;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_THRESHOLD:
        case OPT_ALPHA:
        case OPT_FAIL_ON:
        case OPT_FORCE_DEVICE:
            if (parse_compare_option(&co, opt, optarg) != 0) {
                fprintf(stderr, "benchrun compare: %s\n", br_error_get());
                return EXIT_BAD_INPUT;
            }
            break;
        case OPT_MARKDOWN:
            markdown = optarg;
            break;
        case OPT_JSON:
            json = optarg;
            break;
        case OPT_ASCII:
            ascii = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            fputs("usage: benchrun compare [options] OLD.json NEW.json\n"
                  "\n"
                  "Compare two results files (--json output or baselines) with the baseline\n"
                  "rules and print NEW's table with the comparison.\n"
                  "\n"
                  "options: --threshold PCT, --alpha P, --fail-on slower|any-change|never,\n"
                  "         --force-device, --markdown FILE, --json FILE, --ascii, -q\n"
                  "\n"
                  "exit status: 0 nothing slower; 2 bad input; 3 a case is slower.\n",
                  stdout);
            return EXIT_OK;
        default:
            fprintf(stderr, "usage: benchrun compare [options] OLD.json NEW.json\n");
            return EXIT_BAD_INPUT;
        }
    }
    if (argc - optind != 2) {
        fprintf(stderr, "benchrun compare: expected two results files, OLD.json NEW.json\n");
        return EXIT_BAD_INPUT;
    }
    const char *old_path = argv[optind], *new_path = argv[optind + 1];
    if (check_output("--markdown", markdown) != 0 || check_output("--json", json) != 0) {
        fprintf(stderr, "%s\n", br_error_get());
        return EXIT_BAD_INPUT;
    }
    if (br_results_load(&old, &n_old, old_path) != 0 ||
        br_results_load(&cur, &n_cur, new_path) != 0) {
        fprintf(stderr, "benchrun compare: %s\n", br_error_get());
        goto done;
    }
    if (n_cur == 0) {
        fprintf(stderr, "benchrun compare: %s: holds no run\n", new_path);
        goto done;
    }
    ptrs = calloc(n_cur, sizeof *ptrs);
    if (!ptrs) {
        fprintf(stderr, "benchrun compare: out of memory\n");
        goto done;
    }
    int slower = 0, matched = 0;
    for (size_t i = 0; i < n_cur; i++) {
        br_run *r = &cur[i];
        ptrs[i] = r;
        r->regression = rules_for(r, &co);
        br_comparison_dispose(r->comparison); /* a results file may carry one */
        free(r->comparison);
        r->comparison = NULL;
        const br_run *base = NULL;
        for (size_t j = 0; j < n_old && !base; j++) {
            if (old[j].suite_name && r->suite_name && strcmp(old[j].suite_name, r->suite_name) == 0)
                base = &old[j];
        }
        if (!base) {
            fprintf(stderr, "benchrun compare: %s holds no run of suite '%s'\n", old_path,
                    r->suite_name ? r->suite_name : "?");
            continue;
        }
        br_comparison *cmp = calloc(1, sizeof *cmp);
        if (!cmp) {
            fprintf(stderr, "benchrun compare: out of memory\n");
            goto done;
        }
        br_regression_cfg rules = r->regression;
        if (br_baseline_compare(cmp, base, old_path, r, &rules, co.force_device) != 0) {
            fprintf(stderr, "benchrun compare: %s\n", br_error_get());
            br_comparison_dispose(cmp);
            free(cmp);
            goto done;
        }
        r->comparison = cmp;
        matched++;
        slower |= br_baseline_fails(cmp, co.fail_on);
    }
    if (!matched) {
        fprintf(stderr, "benchrun compare: no suite of %s is in %s\n", new_path, old_path);
        goto done;
    }
    br_report_opts opts = {.ascii = ascii, .color = use_color(STDOUT_FILENO)};
    int stdout_taken = (markdown && strcmp(markdown, "-") == 0) || (json && strcmp(json, "-") == 0);
    if (!stdout_taken && emit("table", "-", ptrs, n_cur, &opts) != 0)
        goto done;
    opts.color = 0;
    if (markdown && emit("markdown", markdown, ptrs, n_cur, &opts) != 0)
        goto done;
    if (json && emit("json", json, ptrs, n_cur, &opts) != 0)
        goto done;
    status = slower ? EXIT_SLOWER : EXIT_OK;
    if (slower && !quiet)
        fprintf(stderr, "benchrun compare: %s (exit status 3)\n",
                co.fail_on == BR_FAIL_ON_ANY ? "a case changed" : "a case is slower");
done:
    free(ptrs);
    br_results_free(old, n_old);
    br_results_free(cur, n_cur);
    return status;
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
        {"watchdog", required_argument, NULL, OPT_WATCHDOG},
        {"max-samples", required_argument, NULL, OPT_MAX_SAMPLES},
        {"throttle", required_argument, NULL, OPT_THROTTLE},
        {"no-hold", no_argument, NULL, OPT_NO_HOLD},
        {"markdown", required_argument, NULL, OPT_MARKDOWN},
        {"gbench", required_argument, NULL, OPT_GBENCH},
        {"save-baseline", no_argument, NULL, OPT_SAVE_BASELINE},
        {"baseline", required_argument, NULL, OPT_BASELINE},
        {"baseline-dir", required_argument, NULL, OPT_BASELINE_DIR},
        {"no-compare", no_argument, NULL, OPT_NO_COMPARE},
        {"threshold", required_argument, NULL, OPT_THRESHOLD},
        {"alpha", required_argument, NULL, OPT_ALPHA},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {"force-device", no_argument, NULL, OPT_FORCE_DEVICE},
        {"clock", required_argument, NULL, OPT_CLOCK},
        {"no-cupti", no_argument, NULL, OPT_NO_CUPTI},
        {"param", required_argument, NULL, 'p'},
        {"budget", required_argument, NULL, OPT_BUDGET},
        {"results-dir", required_argument, NULL, OPT_RESULTS_DIR},
        {"jobs", required_argument, NULL, 'j'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    const char **patterns = calloc((size_t)argc, sizeof *patterns);
    size_t n_patterns = 0;
    br_param_override *params = calloc((size_t)argc, sizeof *params);
    size_t n_params = 0;
    const char *results_dir = NULL;
    int list = 0, ascii = 0;
    const char *csv = NULL, *json = NULL, *markdown = NULL, *gbench = NULL;
    compare_opts co = {.threshold = NAN, .alpha = NAN};
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
    if (!patterns || !params) {
        free(patterns);
        free(params);
        fprintf(stderr, "benchrun: out of memory\n");
        return EXIT_BAD_INPUT;
    }
    if (argc > 1 && strcmp(argv[1], "compare") == 0) {
        free(patterns);
        free(params);
        return compare_main(argc - 1, argv + 1, ascii);
    }
    if (argc > 1 && strcmp(argv[1], "history") == 0) {
        free(patterns);
        free(params);
        return br_history_main(argc - 1, argv + 1);
    }

    int opt;
    while ((opt = getopt_long(argc, argv, "k:p:j:qhV", longopts, NULL)) != -1) {
        switch (opt) {
        case 'k':
            patterns[n_patterns++] = optarg;
            break;
        case 'p':
            if (br_param_override_parse(&params[n_params++], optarg) != 0) {
                fprintf(stderr, "benchrun: %s\n", br_error_get());
                goto done;
            }
            for (size_t i = 0; i + 1 < n_params; i++) {
                if (strcmp(params[i].name, params[n_params - 1].name) == 0) {
                    fprintf(stderr, "benchrun: -p %s: parameter '%s' is set twice\n", optarg,
                            params[i].name);
                    goto done;
                }
            }
            break;
        case OPT_BUDGET:
            br_error_clear();
            if (br_parse_duration(&ro.budget_ns, "--budget", optarg) != 0 || ro.budget_ns <= 0) {
                fprintf(stderr, "benchrun: %s\n",
                        br_error_get()[0] ? br_error_get() : "--budget: must be longer than 0");
                goto done;
            }
            break;
        case OPT_RESULTS_DIR:
            if (!optarg[0]) {
                fprintf(stderr, "benchrun: --results-dir expects a directory name\n");
                goto done;
            }
            results_dir = optarg;
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
        case OPT_MARKDOWN:
            markdown = optarg;
            break;
        case OPT_GBENCH:
            gbench = optarg;
            break;
        case OPT_SAVE_BASELINE:
        case OPT_BASELINE:
        case OPT_BASELINE_DIR:
        case OPT_NO_COMPARE:
        case OPT_THRESHOLD:
        case OPT_ALPHA:
        case OPT_FAIL_ON:
        case OPT_FORCE_DEVICE:
            if (parse_compare_option(&co, opt, optarg) != 0) {
                fprintf(stderr, "benchrun: %s\n", br_error_get());
                goto done;
            }
            break;
        case OPT_CACHE:
            ro.cache_dir = optarg;
            break;
        case OPT_CLOCK:
            if (strcmp(optarg, "kernel") == 0) {
                ro.gpu_clock = BR_CLOCK_KERNEL;
            } else if (strcmp(optarg, "events") == 0) {
                ro.gpu_clock = BR_CLOCK_EVENTS;
            } else {
                fprintf(stderr, "benchrun: --clock: expected kernel or events, found '%s'\n",
                        optarg);
                goto done;
            }
            break;
        case OPT_NO_CUPTI:
            ro.no_cupti = 1;
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
        case OPT_WATCHDOG:
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
    if (ro.no_cupti && ro.gpu_clock == BR_CLOCK_KERNEL) {
        fprintf(stderr, "benchrun: --clock kernel needs CUPTI; it cannot go with --no-cupti\n");
        goto done;
    }
    ro.patterns = patterns;
    ro.n_patterns = n_patterns;
    ro.params = params;
    ro.n_params = n_params;
    ro.progress = !ro.quiet && isatty(STDERR_FILENO);
    if (ro.cache_dir && !ro.cache_dir[0]) {
        fprintf(stderr, "benchrun: --cache-dir expects a directory name\n");
        goto done;
    }
    if (check_output("--csv", csv) != 0 || check_output("--json", json) != 0 ||
        check_output("--markdown", markdown) != 0 || check_output("--gbench", gbench) != 0) {
        fprintf(stderr, "%s\n", br_error_get());
        goto done;
    }

    /* Check every suite before running any. */
    n_jobs = (size_t)(argc - optind);
    if (co.baseline && n_jobs > 1) {
        fprintf(stderr, "benchrun: --baseline names one file: give one suite with it\n");
        goto done;
    }
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
        ro.total_cases += jobs[i].plan.n_cases;
    }
    /* A -p that no suite has is a typo, not a no-op. */
    for (size_t p = 0; p < n_params; p++) {
        int found = 0;
        for (size_t i = 0; i < n_jobs && !found; i++)
            for (size_t q = 0; q < jobs[i].suite.n_params && !found; q++)
                found = strcmp(jobs[i].suite.params[q].name, params[p].name) == 0;
        if (!found) {
            fprintf(stderr, "benchrun: -p %s: no suite given has a parameter '%s'\n",
                    params[p].name, params[p].name);
            goto done;
        }
    }
    if (list) {
        size_t cases = 0, modules = 0;
        for (size_t i = 0; i < n_jobs; i++) {
            list_job(&jobs[i]);
            cases += jobs[i].plan.n_cases;
            modules += jobs[i].n_variants * jobs[i].suite.n_sources;
        }
        if (n_jobs > 1)
            printf("%zu case(s) in %zu suites, %zu kernel module(s) to build\n", cases, n_jobs,
                   modules);
        status = EXIT_OK;
        goto done;
    }

    catch_stop_signals();
    if (br_session_open(&session, &ro) != 0) {
        fprintf(stderr, "benchrun: %s\n", br_error_get());
        goto done;
    }
    /* Build every suite's kernels and resolve their names before measuring
     * anything: a bad kernel name in the last suite runs nothing. */
    size_t n_built = 0;
    for (; n_built < n_jobs && !br_stop_signal(); n_built++) {
        if (br_job_build(&jobs[n_built], session) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
            goto done;
        }
    }
    /* After an interrupt the suites built list their cases as interrupted;
     * the others are left out. */
    for (size_t i = 0; i < n_built; i++) {
        if (br_job_execute(&runs[i], &jobs[i], session) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
            goto done;
        }
        run_ptrs[n_runs++] = &runs[i];
    }
    int stopped = br_stop_signal(); /* what the outputs say, and the exit status */

    status = EXIT_OK;
    size_t ok = 0, failed = 0, skipped = 0;
    for (size_t i = 0; i < n_runs; i++) {
        size_t a, b, c;
        br_run_count(&runs[i], &a, &b, &c);
        ok += a;
        failed += b;
        skipped += c;
    }
    int bad_baseline = 0, slower = 0;
    for (size_t i = 0; i < n_runs; i++) {
        runs[i].regression = rules_for(&runs[i], &co);
        if (co.no_compare)
            continue;
        int rc = attach_comparison(&runs[i], &co, ro.quiet);
        if (rc < 0) {
            fprintf(stderr, "benchrun: %s\n", br_error_get());
            bad_baseline = 1;
        }
        /* Saving accepts the run as the new reference: the comparison is
         * shown, but it does not fail the run. */
        if (!co.save)
            slower |= br_baseline_fails(runs[i].comparison, co.fail_on);
    }

    br_report_opts opts = {.ascii = ascii, .color = use_color(STDOUT_FILENO)};
    int stdout_taken = (csv && strcmp(csv, "-") == 0) || (json && strcmp(json, "-") == 0) ||
                       (markdown && strcmp(markdown, "-") == 0) ||
                       (gbench && strcmp(gbench, "-") == 0);
    int write_failed = 0;
    if (!stdout_taken && emit("table", "-", run_ptrs, n_runs, &opts) != 0)
        write_failed = 1;
    opts.color = 0;
    if (csv && emit("csv", csv, run_ptrs, n_runs, &opts) != 0)
        write_failed = 1;
    if (json && emit("json", json, run_ptrs, n_runs, &opts) != 0)
        write_failed = 1;
    if (results_dir && save_results(results_dir, run_ptrs, n_runs, &opts, ro.quiet) != 0)
        write_failed = 1;
    if (markdown && emit("markdown", markdown, run_ptrs, n_runs, &opts) != 0)
        write_failed = 1;
    if (gbench && emit("gbench", gbench, run_ptrs, n_runs, &opts) != 0)
        write_failed = 1;
    if (co.save && stopped) {
        fprintf(stderr, "benchrun: the run was interrupted: the baseline is not saved\n");
    } else if (co.save) {
        for (size_t i = 0; i < n_runs; i++) {
            int sr = save_baseline(&runs[i], &co, ro.quiet);
            if (sr == -2)
                bad_baseline = 1; /* an existing file refused: bad input */
            else if (sr != 0)
                write_failed = 1;
        }
    }
    if (!ro.quiet)
        fprintf(stderr, "benchrun: %zu case(s): %zu ok, %zu failed, %zu skipped%s\n",
                ok + failed + skipped, ok, failed, skipped, stopped ? " (interrupted)" : "");
    if (stopped)
        status = 128 + stopped;
    else if (failed || write_failed)
        status = EXIT_CASE_FAILED;
    else if (bad_baseline)
        status = EXIT_BAD_INPUT;
    else if (slower)
        status = EXIT_SLOWER;
    if (slower && !ro.quiet)
        fprintf(stderr,
                "benchrun: %s than the baseline (exit status %d; --fail-on never only "
                "reports)\n",
                co.fail_on == BR_FAIL_ON_ANY ? "a case is slower or faster" : "a case is slower",
                status);
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
    for (size_t i = 0; i < n_params; i++)
        br_param_override_dispose(&params[i]);
    free(params);
    return status;
}
