/* cmd_history.c - `benchrun history`: options, then results/history.c's
 * load and reporters' views. */
#include "cmd_history.h"

#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "plan/plan.h"
#include "results/history.h"

/* ---- the command ------------------------------------------------------------------------ */

enum { OPT_PLOT = 256, OPT_SUITE, OPT_LAST, OPT_ASCII };

static void history_usage(FILE *f) {
    fputs("usage: benchrun history DIR [-k GLOB]... [-p NAME=VALUE]... [--suite NAME]\n"
          "                        [--last N] [--plot FILE.svg] [--ascii]\n"
          "\n"
          "Show the results documents in DIR (the files --results-dir writes, or any --json\n"
          "output) as one table per suite: each case's headline metric across commits, with\n"
          "the change from the previous run of the same device judged by the baseline rules.\n"
          "\n"
          "  -k, --kernel GLOB     only kernels matching the fnmatch(3) glob (repeatable)\n"
          "  -p, --param N=V       only cases with parameter N = V, or one of N=[A,B,...]\n"
          "      --suite NAME      only runs of suite NAME\n"
          "      --last N          only the newest N runs of each suite\n"
          "      --plot FILE.svg   also draw the newest run against problem size and every\n"
          "                        case across commits with gnuplot (one suite)\n"
          "      --ascii           plain ASCII (the default when the locale is not UTF-8)\n"
          "\n"
          "exit status: 0 ok; 1 the plot could not be drawn; 2 bad input or usage.\n",
          f);
}

int br_history_main(int argc, char **argv) {
    static const struct option longopts[] = {
        {"kernel", required_argument, NULL, 'k'},
        {"param", required_argument, NULL, 'p'},
        {"plot", required_argument, NULL, OPT_PLOT},
        {"suite", required_argument, NULL, OPT_SUITE},
        {"last", required_argument, NULL, OPT_LAST},
        {"ascii", no_argument, NULL, OPT_ASCII},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int status = 2, ascii = 0, opt;
    const char *plot = NULL;
    br_history h = {0};
    br_history_filter flt = {0};
    const char **globs = calloc((size_t)argc + 1, sizeof *globs);
    br_param_override *params = calloc((size_t)argc + 1, sizeof *params);
    size_t n_globs = 0, n_params = 0;

    setlocale(LC_ALL, "");
    setlocale(LC_NUMERIC, "C"); /* numbers in every output use '.' */
    const char *codeset = nl_langinfo(CODESET);
    if (!codeset || strcmp(codeset, "UTF-8") != 0)
        ascii = 1;
    if (!globs || !params) {
        fprintf(stderr, "benchrun history: out of memory\n");
        goto done;
    }
    optind = 0; /* a full reset of getopt's state: this may not be its first use */
    while ((opt = getopt_long(argc, argv, "k:p:h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'k':
            globs[n_globs++] = optarg;
            break;
        case 'p':
            if (br_param_override_parse(&params[n_params], optarg) != 0) {
                br_param_override_dispose(&params[n_params]);
                fprintf(stderr, "benchrun history: %s\n", br_error_get());
                goto done;
            }
            n_params++;
            break;
        case OPT_PLOT:
            plot = optarg;
            break;
        case OPT_SUITE:
            flt.suite = optarg;
            break;
        case OPT_LAST: {
            char *end;
            errno = 0;
            long long n = strtoll(optarg, &end, 10);
            if (errno || end == optarg || *end || n < 1) {
                fprintf(stderr,
                        "benchrun history: --last expects a number of runs >= 1, got '%s'\n",
                        optarg);
                goto done;
            }
            flt.last = (size_t)n;
            break;
        }
        case OPT_ASCII:
            ascii = 1;
            break;
        case 'h':
            history_usage(stdout);
            status = 0;
            goto done;
        default:
            history_usage(stderr);
            goto done;
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, "benchrun history: expected one directory of results files%s\n",
                argc - optind > 1 ? ", got several" : "");
        history_usage(stderr);
        goto done;
    }
    if (plot && !*plot) {
        fprintf(stderr, "benchrun history: --plot expects a file name\n");
        goto done;
    }
    flt.kernels = globs;
    flt.n_kernels = n_globs;
    flt.params = params;
    flt.n_params = n_params;
    if (br_history_load(&h, argv[optind], &flt) != 0) {
        fprintf(stderr, "benchrun history: %s\n", br_error_get());
        goto done;
    }
    if (plot && br_history_suite_runs(&h, 0) != h.n_runs) {
        char suites[512];
        br_history_suite_list(suites, sizeof suites, &h);
        fprintf(stderr,
                "benchrun history: --plot draws one suite and %s holds several (%s): choose one "
                "with --suite NAME\n",
                argv[optind], suites);
        goto done;
    }
    if (br_history_print(stdout, &h, ascii) != 0 || fflush(stdout) != 0) {
        fprintf(stderr, "benchrun history: %s\n", br_error_get());
        goto done;
    }
    status = 0;
    if (plot) {
        if (br_history_plot(&h, plot) != 0) {
            const char *e = br_error_get(); /* one that names the command already stands alone */
            fprintf(stderr, "%s%s\n", strncmp(e, "benchrun ", 9) ? "benchrun history: " : "", e);
            status = 1;
        } else {
            fprintf(stderr, "benchrun history: drew %s\n", plot);
        }
    }
done:
    br_history_dispose(&h);
    for (size_t i = 0; i < n_params; i++)
        br_param_override_dispose(&params[i]);
    free(params);
    free(globs);
    return status;
}
