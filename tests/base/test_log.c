/* SPDX-License-Identifier: Apache-2.0 */
/* test_log.c - the one door for messages (base/log.c): a note never lands
 * inside the progress line, which is drawn again under it; on a
 * pseudo-terminal, as a user sees it. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "pty_screen.h"

#define LINE  "\r\033[K[1/2] sdot n=2^12  0s elapsed, ETA ?"
#define CLEAR "\r\033[K"
#define NOTE  "benchrun: host cases on CPU 1 (chosen), the parent on CPU 0\n"

/* What the sink got: "P:" or "N:" and the text, one per message. */
static char seen[4096];

static void record(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    size_t n = strlen(seen);
    snprintf(seen + n, sizeof seen - n, "%s%s|", level == BR_LOG_PROGRESS ? "P:" : "N:", msg);
}

Test(log, a_note_clears_the_progress_line_and_it_is_drawn_again) {
    br_log_set_sink(record, NULL);
    br_log(BR_LOG_NOTE, "before\n");
    br_log(BR_LOG_PROGRESS, LINE);
    br_log(BR_LOG_NOTE, NOTE);
    br_log(BR_LOG_WARN, "benchrun: warning: %s\n", "noisy");
    br_log(BR_LOG_PROGRESS, CLEAR); /* the run cleared it: notes go straight */
    br_log(BR_LOG_NOTE, "after\n");
    br_log_set_sink(NULL, NULL);
    cr_expect_str_eq(seen, "N:before\n|"
                           "P:" LINE "|"
                           "P:" CLEAR "|N:" NOTE "|P:" LINE "|"
                           "P:" CLEAR "|N:benchrun: warning: noisy\n|P:" LINE "|"
                           "P:" CLEAR "|"
                           "N:after\n|");
}

Test(log, a_message_that_does_not_end_its_line_is_not_drawn_over) {
    br_log_set_sink(record, NULL);
    br_log(BR_LOG_PROGRESS, LINE);
    br_log(BR_LOG_NOTE, "benchrun: compiling... ");
    br_log(BR_LOG_NOTE, "done\n"); /* the progress line is gone until redrawn */
    br_log_set_sink(NULL, NULL);
    cr_expect_str_eq(seen, "P:" LINE "|P:" CLEAR "|N:benchrun: compiling... |N:done\n|");
}

Test(log, on_a_terminal_no_note_lands_inside_the_progress_line) {
    int master, slave;
    cr_assert_eq(openpty(&master, &slave, NULL, NULL, NULL), 0);
    fflush(stderr);
    int saved = dup(2);
    cr_assert_eq(dup2(slave, 2), 2);
    br_log_set_sink(NULL, NULL); /* the default: verbatim to standard error */
    br_log(BR_LOG_PROGRESS, LINE);
    br_log(BR_LOG_NOTE, NOTE);
    br_log(BR_LOG_PROGRESS, "\r\033[K[2/2] sdot n=2^16  1s elapsed, ETA 1s");
    br_log(BR_LOG_WARN, "benchrun: warning: CPU frequency scaling is enabled\n");
    dup2(saved, 2);
    close(saved);
    close(slave);
    char *raw = NULL;
    size_t len = 0, cap = 0;
    pty_drain(master, &raw, &len, &cap, 200);
    close(master);
    cr_assert_not_null(raw);
    char *screen = pty_screen(raw, len);
    cr_expect_str_eq(screen, "benchrun: host cases on CPU 1 (chosen), the parent on CPU 0\n"
                             "benchrun: warning: CPU frequency scaling is enabled\n"
                             "[2/2] sdot n=2^16  1s elapsed, ETA 1s");
    free(screen);
    free(raw);
}
