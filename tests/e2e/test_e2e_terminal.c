/* SPDX-License-Identifier: Apache-2.0 */
/* test_e2e_terminal.c - benchrun on a terminal (a pseudo-terminal), as a
 * user sees it: the compile shows on the progress line with its module and
 * time, and no note lands inside the progress line. */
#include <criterion/criterion.h>

#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_util.h"
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
