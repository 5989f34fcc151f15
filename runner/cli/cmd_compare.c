/* SPDX-License-Identifier: Apache-2.0 */
/* cmd_compare.c - `benchrun compare [options] OLD.json NEW.json`: compare
 * two results files run by run with the baseline rules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/files.h"
#include "commands.h"
#include "common.h"
#include "msg.h"
#include "gate/baseline.h"
#include "gate/compare.h"
#include "results/run_read.h"

#define PROG "benchrun compare"

enum { EXIT_OK = 0, EXIT_BAD_INPUT = 2, EXIT_SLOWER = 3 };

/* Rows name their leading fields in order and leave the rest zero. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
/* clang-format off */
static const br_opt_spec compare_opts[] = {
    BR_CLI_ROW_THRESHOLD,
    BR_CLI_ROW_ALPHA,
    BR_CLI_ROW_FAIL_ON,
    BR_CLI_ROW_FORCE_DEVICE,
    BR_CLI_ROW_MARKDOWN,
    BR_CLI_ROW_JSON,
    BR_CLI_ROW_ASCII,
    BR_CLI_ROW_QUIET,
    BR_CLI_ROW_HELP,
    {BR_OPT_END}};
/* clang-format on */
#pragma GCC diagnostic pop

const br_opt_cmd br_cmd_compare_spec = {
    PROG,
    "usage: benchrun compare [options] OLD.json NEW.json\n"
    "\n"
    "Compare two results files (--json output or baselines) with the baseline\n"
    "rules and print NEW's table with the comparison.\n"
    "\n",
    "\n"
    "exit status: 0 nothing slower; 2 bad input; 3 a case is slower.\n",
    compare_opts, 1};

/* The two files loaded. */
typedef struct compare_files {
    const char *old_path, *new_path;
    br_run *old, *cur;
    size_t n_old, n_cur;
} compare_files;

/* The run of old with r's suite, or NULL. */
static const br_run *match(const compare_files *f, const br_run *r) {
    for (size_t j = 0; j < f->n_old; j++)
        if (f->old[j].suite_name && r->suite_name &&
            strcmp(f->old[j].suite_name, r->suite_name) == 0)
            return &f->old[j];
    return NULL;
}

/* Compare every run of cur with old's run of the same suite. Returns the
 * number matched, or -1 after a message; *slower as br_baseline_fails. */
static int compare_runs(compare_files *f, const br_gate_opts *g, int *slower) {
    int matched = 0;
    for (size_t i = 0; i < f->n_cur; i++) {
        br_run *r = &f->cur[i];
        r->regression = br_gate_rules(r, g);
        br_comparison_dispose(r->comparison); /* a results file may carry one */
        free(r->comparison);
        r->comparison = NULL;
        const br_run *base = match(f, r);
        if (!base) {
            br_msg_error(PROG, "%s holds no run of suite '%s'", f->old_path,
                         r->suite_name ? r->suite_name : "?");
            continue;
        }
        br_comparison *cmp = calloc(1, sizeof *cmp);
        if (!cmp) {
            br_msg_error(PROG, "out of memory");
            return -1;
        }
        br_regression_cfg rules = r->regression;
        if (br_baseline_compare(cmp, base, f->old_path, r, &rules, g->force_device) != 0) {
            br_msg_error(PROG, "%s", br_error_get());
            br_comparison_dispose(cmp);
            free(cmp);
            return -1;
        }
        r->comparison = cmp;
        matched++;
        *slower |= br_baseline_fails(cmp, g->fail_on);
    }
    return matched;
}

/* The table (unless an output takes stdout), Markdown, JSON; stops at the
 * first that fails. Returns 0 or -1. */
static int compare_write(const br_outputs *o, const br_run *const *runs, size_t n) {
    br_report_opts opts = {.ascii = o->ascii, .color = o->color};
    int stdout_taken = br_path_is_stdout(o->markdown) || br_path_is_stdout(o->json);
    if (!stdout_taken && br_output_emit("table", "-", runs, n, &opts) != 0)
        return -1;
    opts.color = 0;
    if (o->markdown && br_output_emit("markdown", o->markdown, runs, n, &opts) != 0)
        return -1;
    if (o->json && br_output_emit("json", o->json, runs, n, &opts) != 0)
        return -1;
    return 0;
}

/* Load, compare, write. Returns the exit status. */
static int compare_files_run(compare_files *f, const br_pipeline_opts *p) {
    if (br_results_load(&f->old, &f->n_old, f->old_path) != 0 ||
        br_results_load(&f->cur, &f->n_cur, f->new_path) != 0) {
        br_msg_error(PROG, "%s", br_error_get());
        return EXIT_BAD_INPUT;
    }
    if (f->n_cur == 0) {
        br_msg_error(PROG, "%s: holds no run", f->new_path);
        return EXIT_BAD_INPUT;
    }
    const br_run **ptrs = calloc(f->n_cur, sizeof *ptrs);
    if (!ptrs) {
        br_msg_error(PROG, "out of memory");
        return EXIT_BAD_INPUT;
    }
    for (size_t i = 0; i < f->n_cur; i++)
        ptrs[i] = &f->cur[i];
    int slower = 0, status = EXIT_BAD_INPUT, matched = compare_runs(f, &p->gate, &slower);
    if (matched == 0)
        br_msg_error(PROG, "no suite of %s is in %s", f->new_path, f->old_path);
    else if (matched > 0 && compare_write(&p->outputs, ptrs, f->n_cur) == 0)
        status = slower ? EXIT_SLOWER : EXIT_OK;
    if (status == EXIT_SLOWER && !p->run.quiet)
        br_msg_error(PROG, "%s (exit status 3)",
                     p->gate.fail_on == BR_FAIL_ON_ANY ? "a case changed" : "a case is slower");
    free(ptrs);
    return status;
}

int br_cmd_compare(int argc, char **argv) {
    br_cli_opts o;
    br_cli_opts_init(&o);
    o.p.outputs.ascii = br_cli_locale();
    br_opt_parsed a;
    int status = EXIT_BAD_INPUT;
    switch (br_opt_parse(&a, &br_cmd_compare_spec, &o, argc, argv)) {
    case BR_PARSE_HELP:
        br_opt_help(stdout, &br_cmd_compare_spec);
        status = EXIT_OK;
        break;
    case BR_PARSE_OK:
        if (a.n_args != 2) {
            br_msg_error(PROG, "expected two results files, OLD.json NEW.json");
        } else if (br_output_check("--markdown", o.p.outputs.markdown) != 0 ||
                   br_output_check("--json", o.p.outputs.json) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
        } else {
            compare_files f = {a.args[0], a.args[1], NULL, NULL, 0, 0};
            o.p.outputs.color = br_cli_use_color(STDOUT_FILENO);
            status = compare_files_run(&f, &o.p);
            br_results_free(f.old, f.n_old);
            br_results_free(f.cur, f.n_cur);
        }
        break;
    default:
        break;
    }
    free(a.args);
    br_cli_opts_dispose(&o);
    return status;
}
