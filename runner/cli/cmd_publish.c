/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun publish`: options, then drive/publish.c. */
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "commands.h"
#include "common.h"
#include "drive/publish.h"
#include "msg.h"

#define PROG "benchrun publish"

/* What `benchrun publish` parses into. */
typedef struct publish_opts {
    const char *out;        /* -o */
    const char *suite;      /* --suite */
    const char *against;    /* --against */
    const char *commit_url; /* --commit-url */
} publish_opts;

#define AT(field) offsetof(publish_opts, field)

/* One results directory, and -o SITE: 0, or -1 after a message. */
static int publish_check(void *dst, const br_opt_parsed *a) {
    const publish_opts *o = dst;
    if (a->n_args == 1 && o->out && *o->out)
        return 0;
    br_msg_error(PROG, "%s",
                 a->n_args != 1 ? "expected one directory of results files"
                                : "-o SITE is required");
    br_opt_help(stderr, &br_cmd_publish_spec);
    return -1;
}

const br_opt_cmd br_cmd_publish_spec = {
    .prog = PROG,
    .synopsis = "RESULTS_DIR -o SITE [--suite NAME] [--against COMMIT]\n"
                "[--commit-url PATTERN]",
    .about = "Write the results files in RESULTS_DIR (the files --results-dir writes) as a\n"
             "static site in SITE: per suite and device the latest run's table and its\n"
             "roofline, per kernel the metric against problem size (latest and an earlier\n"
             "run), per case the trend over commits with its change points. Charts are SVG\n"
             "files drawn by gnuplot; the pages open from the file system or any web server\n"
             "and load nothing from the network. A file that is not a results document is\n"
             "skipped with a message; the site is written into a temporary directory, then\n"
             "renamed into place.\n",
    .exit_status = "0 written; 2 bad input or usage, or the site could not be written.\n",
    .check = publish_check,
    .opts =
        (const br_opt_spec[]){
            {BR_OPT_VALUE, "output", 'o', AT(out), "SITE",
             "the site's directory (new, or one publish wrote: replaced\nwhole)"},
            {BR_OPT_VALUE, "suite", 0, AT(suite), "NAME", "only runs of suite NAME"},
            {BR_OPT_VALUE, "against", 0, AT(against), "COMMIT",
             "compare the latest run with the run at COMMIT (a SHA\nprefix; default: the oldest "
             "run)"},
            {BR_OPT_VALUE, "commit-url", 0, AT(commit_url), "PATTERN",
             "link each commit to PATTERN with %s replaced by its SHA\n"
             "(https://github.com/OWNER/REPO/commit/%s)"},
            BR_CLI_ROW_HELP_AS(1),
            {BR_OPT_END},
        },
};

/* Write the site; the exit status. */
static int publish_go(const publish_opts *o, const char *dir) {
    br_publish_opts p = {dir, o->out, o->suite, {o->against, o->commit_url, 1}};
    br_site_stats st;
    if (br_publish(&p, stderr, &st) != 0) {
        br_msg_error(PROG, "%s", br_error_get());
        return 2;
    }
    br_msg_error(PROG,
                 "wrote %s: %zu pages, %zu charts (%zu suite%s, %zu device%s, %zu cases, %zu "
                 "change points)",
                 o->out, st.pages, st.charts, st.suites, st.suites == 1 ? "" : "s", st.devices,
                 st.devices == 1 ? "" : "s", st.cases, st.changes);
    return 0;
}

int br_cmd_publish(int argc, char **argv) {
    publish_opts o = {0};
    br_opt_parsed a;
    int status = br_cli_parse(&a, &br_cmd_publish_spec, &o, argc, argv);
    if (status == BR_CLI_GO_ON)
        status = publish_go(&o, a.args[0]);
    free(a.args);
    return status;
}
