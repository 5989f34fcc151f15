/* SPDX-License-Identifier: Apache-2.0 */
/* benchrun on a terminal (a pseudo-terminal), as a
 * user sees it: the compile shows on the progress line with its module and
 * time, and no note lands inside the progress line. */
#include <criterion/criterion.h>

#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_util.h"
#include "platform/device.h"
#include "pty_screen.h"

#define SUITE BR_SOURCE_DIR "/docs/examples/axpy/axpy.yaml"

/* Run benchrun with args (NULL-terminated) on a new 120-column terminal;
 * *raw is every byte it wrote there (owned). Returns its exit status. */
static int run_on_terminal(char **raw, size_t *len, const char *const *args) {
    struct winsize ws = {.ws_row = 40, .ws_col = 120};
    int master;
    const char *argv[32] = {"benchrun"};
    for (size_t i = 0; args[i] && i < 30; i++)
        argv[i + 1] = args[i];
    pid_t pid = forkpty(&master, NULL, NULL, &ws);
    cr_assert_geq(pid, 0, "forkpty");
    if (pid == 0) {
        execv(BR_BENCHRUN_EXE, (char *const *)argv);
        _exit(127);
    }
    size_t cap = 0;
    *raw = NULL;
    *len = 0;
    pty_drain(master, raw, len, &cap, 120000); /* until the terminal closes */
    close(master);
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

Test(terminal, compile_progress_shows_and_no_note_lands_inside_the_progress_line) {
    char *dir = e2e_tmpdir();
    char *cache = br_strfmt("%s/cache", dir); /* empty: the module is compiled */
    const char *args[] = {SUITE,           "--cache-dir", cache, "-k",         "saxpy", "-p",
                          "n=[2^12,2^16]", "--warmup",    "2ms", "--min-time", "10ms",  NULL};
    char *raw = NULL;
    size_t len = 0;
    int status = run_on_terminal(&raw, &len, args);
    cr_assert_not_null(raw);
    cr_assert_eq(status, 0, "%s", raw);

    /* The compile, on the progress line: the module and its time so far. */
    cr_expect(strstr(raw, "\r\033[Kcompiling axpy.c 0s  (0 of 1 done)"), "%s", raw);
    /* The cases' progress line was drawn. */
    cr_expect(strstr(raw, "\r\033[K[1/2] saxpy n=2^12"), "%s", raw);

    /* The CPU note came while a case's progress line was up: the line was
     * cleared before it and drawn again after it. */
    const char *note = strstr(raw, "benchrun: host cases on CPU");
    cr_assert_not_null(note, "%s", raw);
    cr_expect(note - raw >= 4 && strncmp(note - 4, "\r\033[K", 4) == 0, "%s", raw);
    const char *eol = strstr(note, "\r\n");
    cr_assert_not_null(eol);
    cr_expect(strncmp(eol + 2, "\r\033[K[1/2] saxpy", 15) == 0, "%s", eol);

    /* What the terminal shows at the end: every note on a line of its own
     * and no progress line left over. */
    char *screen = pty_screen(raw, len);
    size_t notes = 0;
    for (char *line = strtok(screen, "\n"); line; line = strtok(NULL, "\n")) {
        const char *b = strstr(line, "benchrun:");
        cr_expect(!b || b == line, "a note inside a line: '%s'", line);
        cr_expect(!strstr(line, "elapsed") && !strstr(line, "compiling "),
                  "a progress line left: '%s'", line);
        notes += b == line;
    }
    cr_expect_geq(notes, 3, "building, the CPU, the summary: %s", raw);
    free(screen);
    free(raw);
    free(cache);
    e2e_rmtree(dir);
    free(dir);
}

/* The table on a terminal: the box's top comes when the run begins, each
 * case's row as soon as the case is measured (before the next case's
 * progress line), the box closes at the end, and it is printed once (the
 * newcomer waited for the last case to see any row). */
Test(terminal, rows_are_printed_as_the_cases_finish) {
    char *dir = e2e_tmpdir();
    char *cache = br_strfmt("%s/cache", dir);
    const char *args[] = {SUITE,      "--cache-dir", cache,        "--no-compare",
                          "-k",       "saxpy",       "-p",         "n=[2^12,2^14,2^16]",
                          "--warmup", "2ms",         "--min-time", "10ms",
                          NULL};
    char *raw = NULL;
    size_t len = 0;
    int status = run_on_terminal(&raw, &len, args);
    cr_assert_not_null(raw);
    cr_assert_eq(status, 0, "%s", raw);
    const char *top = strstr(raw, "╔"), *row1 = strstr(raw, "║ saxpy  │ 2^12");
    const char *second = strstr(raw, "[2/3] saxpy n=2^14"), *third = strstr(raw, "[3/3]");
    const char *row2 = strstr(raw, "║ saxpy  │ 2^14"), *bottom = strstr(raw, "╚");
    cr_assert(top && row1 && second && third && row2 && bottom, "%s", raw);
    cr_expect_lt(top, row1, "the box's top before the first row");
    cr_expect_lt(row1, second, "the first row before the second case's progress line");
    cr_expect_lt(row2, third, "the second row before the third case's progress line");
    cr_expect_lt(row2, bottom, "the box closes at the end");
    cr_expect_null(strstr(top + 1, "╔"), "one box, printed once:\n%s", raw);
    /* What the terminal shows: the rows between the heads and the bottom,
     * no progress line left inside the box. */
    char *screen = pty_screen(raw, len);
    const char *heads = strstr(screen, "║ kernel"), *end = strstr(screen, "╚");
    cr_assert(heads && end, "%s", screen);
    for (const char *p = heads; p < end; p = strchr(p, '\n') + 1)
        cr_expect(strncmp(p, "║", strlen("║")) == 0 || strncmp(p, "╟", strlen("╟")) == 0 ||
                      strncmp(p, "benchrun:", 9) == 0,
                  "a line inside the box: '%.60s'", p);
    free(screen);
    free(raw);
    free(cache);
    e2e_rmtree(dir);
    free(dir);
}

/* The progress counter counts the cases that will be measured: without a
 * GPU the GPU case of a mixed suite is no step of it (the newcomer's
 * [k/42] counted 35 GPU cases that never ran). */
Test(terminal, the_counter_counts_only_the_cases_that_run) {
    char *dir = e2e_tmpdir();
    char *cache = br_strfmt("%s/cache", dir);
    const char *args[] = {BR_FIXTURES_DIR "/e2e/gpu_mixed.yaml", "--cache-dir", cache,
                          "--no-compare", NULL};
    char why[256];
    int gpu = br_device_available(why, sizeof why);
    char *raw = NULL;
    size_t len = 0;
    int status = run_on_terminal(&raw, &len, args);
    cr_assert_not_null(raw);
    cr_assert_eq(status, 0, "%s", raw);
    if (gpu) {
        cr_expect(strstr(raw, "[1/2] "), "%s", raw);
    } else {
        cr_expect(strstr(raw, "[1/1] sum_ok"), "%s", raw);
        cr_expect_null(strstr(raw, "/2] "), "a skipped case counted:\n%s", raw);
    }
    free(raw);
    free(cache);
    e2e_rmtree(dir);
    free(dir);
}
