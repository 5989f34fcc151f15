/* SPDX-License-Identifier: Apache-2.0 */
/* A results directory as tables and a plot
 * (history_show.h). */
#include "history_show.h"

#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "reporters/history_plot.h"
#include "reporters/history_table.h"

#define PROG "benchrun history"

/* Print, plot. Returns the exit status. */
static int show_loaded(const br_history *h, const char *dir, const br_history_show_opts *o) {
    if (o->plot && br_history_suite_runs(h, 0) != h->n_runs) {
        char suites[512];
        br_history_suite_list(suites, sizeof suites, h);
        br_log(BR_LOG_ERROR,
               PROG ": --plot draws one suite and %s holds several (%s): choose one with "
                    "--suite NAME\n",
               dir, suites);
        return 2;
    }
    int printed = o->changes ? br_history_print_changes(stdout, h, o->ascii)
                             : br_history_print(stdout, h, o->ascii,
                                                o->neighbours ? BR_HISTORY_MARK_NEIGHBOURS
                                                              : BR_HISTORY_MARK_NONE);
    if (printed != 0 || fflush(stdout) != 0) {
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
        return 2;
    }
    if (!o->plot)
        return 0;
    if (br_history_plot(h, o->plot) != 0) {
        const char *e = br_error_get(); /* one that names the command already stands alone */
        br_log(BR_LOG_ERROR, "%s%s\n", strncmp(e, "benchrun ", 9) ? PROG ": " : "", e);
        return 1;
    }
    br_log(BR_LOG_NOTE, PROG ": drew %s\n", o->plot);
    return 0;
}

int br_history_show(const char *dir, const br_history_show_opts *o) {
    br_history h = {0};
    int status = 2;
    if (br_history_load(&h, dir, &o->filter) != 0)
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
    else
        status = show_loaded(&h, dir, o);
    br_history_dispose(&h);
    return status;
}
