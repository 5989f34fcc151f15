/* SPDX-License-Identifier: Apache-2.0 */
/* test_proc.c - finding a program on PATH, running it with its output
 * captured or passed through, and waiting with a timeout (base/proc.c). */
#include <criterion/criterion.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.h"
#include "base/proc.h"
#include "base/util.h"

static char tmp[] = "/tmp/br-proc-XXXXXX";
static char *saved_path; /* the tests change PATH: put back for the clean-up */

static void make_tmp(void) {
    cr_assert_not_null(mkdtemp(tmp));
    const char *p = getenv("PATH");
    saved_path = p ? br_strdup(p) : NULL;
}

static void remove_tmp(void) {
    if (saved_path)
        setenv("PATH", saved_path, 1);
    free(saved_path);
    char *cmd = br_strfmt("rm -rf '%s'", tmp);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
}

TestSuite(proc, .init = make_tmp, .fini = remove_tmp);

/* A file tmp/rel with `text` and `mode`; returns its path (caller frees). */
static char *put(const char *rel, const char *text, mode_t mode) {
    char *path = br_strfmt("%s/%s", tmp, rel);
    char *dir = br_path_dir(path);
    cr_assert_eq(br_mkdir_p(dir), 0);
    free(dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    cr_assert_eq(chmod(path, mode), 0);
    return path;
}

static char *slurp(const char *path) {
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, path, 1 << 20), 0, "%s", br_error_get());
    return text;
}

Test(proc, finds_the_first_executable_regular_file_on_path) {
    /* a: a file that may not be run; b: a directory of the name; c: the one */
    free(put("a/prog", "#!/bin/sh\n", 0644));
    char *dir_b = br_strfmt("%s/b/prog", tmp);
    cr_assert_eq(br_mkdir_p(dir_b), 0);
    char *want = put("c/prog", "#!/bin/sh\n", 0755);
    free(put("d/prog", "#!/bin/sh\n", 0755));
    char *path = br_strfmt("%s/a:%s/b:%s/c:%s/d", tmp, tmp, tmp, tmp);
    setenv("PATH", path, 1);
    char *found = br_proc_find("prog");
    cr_assert_not_null(found, "%s", br_error_get());
    cr_expect_str_eq(found, want);
    cr_expect_null(br_proc_find("other"));
    cr_expect_str_eq(br_error_get(), "other: not found on PATH");
    free(found);
    free(path);
    free(want);
    free(dir_b);
}

Test(proc, an_empty_path_entry_is_the_current_directory) {
    free(put("here/prog", "#!/bin/sh\n", 0755));
    char *here = br_strfmt("%s/here", tmp);
    cr_assert_eq(chdir(here), 0);
    setenv("PATH", "/nonexistent-dir::", 1);
    char *found = br_proc_find("prog");
    cr_assert_not_null(found, "%s", br_error_get());
    cr_expect_str_eq(found, "./prog");
    free(found);
    free(here);
}

Test(proc, without_path_the_systems_default_is_searched) {
    unsetenv("PATH");
    char *found = br_proc_find("sh"); /* /bin/sh or /usr/bin/sh, by confstr(_CS_PATH) */
    cr_assert_not_null(found, "%s", br_error_get());
    cr_expect(strcmp(found, "/bin/sh") == 0 || strcmp(found, "/usr/bin/sh") == 0, "%s", found);
    free(found);
}

Test(proc, a_name_with_a_slash_is_a_path) {
    char *exe = put("x/tool", "#!/bin/sh\n", 0755);
    char *plain = put("x/data", "", 0644);
    setenv("PATH", "/nonexistent-dir", 1);
    char *found = br_proc_find(exe);
    cr_assert_not_null(found, "%s", br_error_get());
    cr_expect_str_eq(found, exe);
    free(found);
    cr_expect_null(br_proc_find(plain));
    char *want = br_strfmt("%s: not an executable file", plain);
    cr_expect_str_eq(br_error_get(), want);
    free(want);
    cr_expect_null(br_proc_find("/nonexistent-dir/tool"));
    cr_expect_str_eq(br_error_get(), "/nonexistent-dir/tool: No such file or directory");
    free(exe);
    free(plain);
}

Test(proc, output_is_captured_and_the_exit_status_kept) {
    char *out = br_strfmt("%s/out.txt", tmp);
    const char *argv[] = {"sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 3", NULL};
    br_proc_opts o = {.output = out};
    int st = -1;
    cr_assert_eq(br_proc_run(&st, argv, &o), 0, "%s", br_error_get());
    cr_expect(WIFEXITED(st));
    cr_expect_eq(br_proc_exit_code(st), 3);
    char *text = slurp(out);
    cr_expect_str_eq(text, "to-stdout\nto-stderr\n");
    struct stat sb;
    cr_assert_eq(stat(out, &sb), 0);
    cr_expect_eq(sb.st_mode & 0077, 0, "the captured output is private: %o", sb.st_mode);
    free(text);
    free(out);
}

Test(proc, passes_output_through_and_reads_dev_null_when_asked) {
    /* This process's standard output is a file for the while: the child's
     * output goes there, and `cat` reads an empty standard input. */
    char *out = br_strfmt("%s/through.txt", tmp);
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert_geq(fd, 0);
    fflush(stdout);
    int saved = dup(1);
    cr_assert_geq(saved, 0);
    cr_assert_eq(dup2(fd, 1), 1);
    close(fd);
    const char *argv[] = {"sh", "-c", "echo passed; cat; echo end", NULL};
    br_proc_opts o = {.null_stdin = 1};
    int st = -1, rc = br_proc_run(&st, argv, &o);
    dup2(saved, 1);
    close(saved);
    cr_assert_eq(rc, 0, "%s", br_error_get());
    cr_expect_eq(br_proc_exit_code(st), 0);
    char *text = slurp(out);
    cr_expect_str_eq(text, "passed\nend\n");
    free(text);
    free(out);
}

Test(proc, a_program_that_cannot_run_is_an_error) {
    setenv("PATH", "/nonexistent-dir", 1);
    const char *argv[] = {"no-such-program-here", NULL};
    pid_t pid;
    cr_expect_eq(br_proc_spawn(&pid, argv, NULL), -1);
    cr_expect_str_eq(br_error_get(), "cannot run no-such-program-here: not found on PATH");
    char *out = br_strfmt("%s/no-dir/out.txt", tmp);
    const char *sh[] = {"/bin/sh", "-c", "true", NULL};
    br_proc_opts o = {.output = out};
    cr_expect_eq(br_proc_spawn(&pid, sh, &o), -1);
    cr_expect(strstr(br_error_get(), "cannot create"), "%s", br_error_get());
    free(out);
}

Test(proc, a_signal_reads_as_128_plus_its_number) {
    const char *argv[] = {"/bin/sh", "-c", "kill -9 $$", NULL};
    int st = 0;
    cr_assert_eq(br_proc_run(&st, argv, NULL), 0, "%s", br_error_get());
    cr_expect(WIFSIGNALED(st));
    cr_expect_eq(br_proc_exit_code(st), 128 + SIGKILL);
}

/* Wait with a timeout for a slow process and one that exits 7 at once, in
 * `n` slots (`extra` more slow ones in the slots between: over 64 in all
 * are waited for by waitpid every 10 ms, not by their pidfds). The slow
 * ones exec sleep, so the signals below end the process that holds the
 * test's output: a sleep left behind by a killed shell would keep ctest
 * waiting for its 60 s. */
static void wait_any_in(size_t n, size_t extra) {
    pid_t *pids = calloc(n, sizeof *pids);
    cr_assert_not_null(pids);
    const char *slow[] = {"/bin/sh", "-c", "exec sleep 60", NULL};
    const char *fast[] = {"/bin/sh", "-c", "exit 7", NULL};
    cr_assert_eq(br_proc_spawn(&pids[1], slow, NULL), 0, "%s", br_error_get());
    for (size_t i = 0; i < extra; i++)
        cr_assert_eq(br_proc_spawn(&pids[2 + i], slow, NULL), 0, "%s", br_error_get());
    cr_assert_eq(br_proc_spawn(&pids[n - 1], fast, NULL), 0, "%s", br_error_get());
    size_t which = 99;
    int st = 0;
    cr_assert_eq(br_proc_wait_any(&which, &st, pids, n, 5e9), 1, "%s", br_error_get());
    cr_expect_eq(which, n - 1);
    cr_expect_eq(br_proc_exit_code(st), 7);
    pids[n - 1] = 0;

    /* The slow ones are still running: a timeout of 0.1 s ends the wait,
     * not sooner, and well before they would end. */
    double t0 = br_now_ns();
    cr_expect_eq(br_proc_wait_any(&which, &st, pids, n, 1e8), 0);
    double took = br_now_ns() - t0;
    cr_expect_geq(took, 1e8, "waited %.0f ns", took);
    cr_expect_lt(took, 2.5e9, "waited %.0f ns", took);
    cr_expect_eq(br_proc_wait_any(&which, &st, pids, n, 0), 0, "a look only");
    for (size_t i = 0; i < extra; i++) {
        kill(pids[2 + i], SIGKILL);
        cr_assert_eq(br_proc_wait(&st, pids[2 + i]), 0);
        pids[2 + i] = 0;
    }
    cr_assert_eq(kill(pids[1], SIGTERM), 0);
    cr_assert_eq(br_proc_wait_any(&which, &st, pids, n, -1), 1, "%s", br_error_get());
    cr_expect_eq(which, 1);
    cr_expect(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    pids[1] = 0;
    cr_expect_eq(br_proc_wait_any(&which, &st, pids, n, -1), 0, "nothing left to wait for");
    free(pids);
}

Test(proc, wait_any_returns_the_first_to_end_or_times_out) {
    wait_any_in(3, 0);
}

Test(proc, wait_any_for_many_polls) {
    wait_any_in(200, 64); /* 66 processes in 200 slots */
}

/* The version stamp's way: output read through a pipe, no file written;
 * what is past the limit is read and dropped (the child never blocks). */
Test(proc, capture_reads_output_through_a_pipe_and_keeps_the_status) {
    const char *argv[] = {"sh", "-c", "echo out; echo err >&2; yes | head -c 100000; exit 4", NULL};
    char *text = NULL;
    int st = -1;
    cr_assert_eq(br_proc_capture(&text, &st, argv, 10000), 0, "%s", br_error_get());
    cr_expect_eq(br_proc_exit_code(st), 4);
    cr_assert_not_null(text);
    cr_expect_eq(strncmp(text, "out\nerr\n", 8), 0, "%s", text);
    cr_expect_eq(strlen(text), 10000);
    free(text);
    const char *none[] = {"/nonexistent-dir/tool", NULL};
    cr_expect_eq(br_proc_capture(&text, &st, none, 100), -1);
    cr_expect_null(text);
}
