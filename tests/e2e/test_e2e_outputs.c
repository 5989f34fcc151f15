/* SPDX-License-Identifier: Apache-2.0 */
/* test_e2e_outputs.c - every output option, given a FIFO or a character
 * device, writes to it in place and leaves it as it was: never a regular
 * file renamed over it (before: `--json /dev/null`, run as root, replaced the
 * machine's /dev/null with a JSON file). docs/outputs.md, "Where an output
 * goes".
 *
 * For each command (run, report, compare, merge, history --plot) every
 * output option it has points at a node of its own in a temporary
 * directory:
 *   - a FIFO, read by a `cat` started before benchrun: after the run the
 *     FIFO is still a FIFO, and what the reader got is the output;
 *   - a character device made with mknod, the null device (1:3): after the
 *     run it is still that device. mknod needs root: these skip, saying so,
 *     for another user (CI runs as root).
 * A baseline is read as well as written, so --baseline given a FIFO or a
 * device is refused, with its name, and the node stays. `benchrun compare`
 * given a FIFO returns at once with exit 2. Outputs of ab go through the
 * same writer (test_e2e_ab.c covers them), as do profile's --json and --raw
 * (base/files.c, tests/base/test_files.c). */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "e2e_util.h"
#include "reporters/gnuplot.h"

#define GOLDEN   BR_FIXTURES_DIR "/golden/results.json"
#define ROOFLINE BR_FIXTURES_DIR "/roofline/h100.json"
#define OK_SUITE BR_FIXTURES_DIR "/e2e/ok.yaml"

TestSuite(e2e_outputs, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

/* One output node: its path, and for a FIFO the reader and what it got. */
typedef struct node {
    char *path;
    char *got;    /* FIFO: the file the reader writes */
    pid_t reader; /* FIFO: `cat PATH > GOT` */
    int fifo;
} node;

static node make_node(const char *name, int fifo) {
    node n = {br_strfmt("%s/%s", tmp, name), NULL, -1, fifo};
    cr_assert_not_null(n.path);
    if (!fifo) {
        cr_assert_eq(mknod(n.path, S_IFCHR | 0666, makedev(1, 3)), 0, "mknod %s: %s", n.path,
                     strerror(errno));
        return n;
    }
    cr_assert_eq(mkfifo(n.path, 0666), 0, "mkfifo %s: %s", n.path, strerror(errno));
    n.got = br_strfmt("%s.got", n.path);
    char *cmd = br_strfmt("exec cat '%s' > '%s'", n.path, n.got);
    char *argv[] = {"sh", "-c", cmd, NULL};
    cr_assert_eq(posix_spawn(&n.reader, "/bin/sh", NULL, NULL, argv, environ), 0);
    free(cmd);
    return n;
}

/* After the run: the node is what it was; a FIFO's reader is ended (if
 * benchrun never opened the FIFO, an open and close here gives it its end)
 * and what it read is returned (owned), else NULL. */
static char *check_node(node *n) {
    struct stat st;
    cr_assert_eq(lstat(n->path, &st), 0, "%s is gone", n->path);
    char *text = NULL;
    if (n->fifo) {
        cr_expect(S_ISFIFO(st.st_mode), "%s is no longer a FIFO (mode %o)", n->path,
                  (unsigned)st.st_mode);
        if (S_ISFIFO(st.st_mode)) {
            int fd = open(n->path, O_WRONLY | O_NONBLOCK);
            if (fd >= 0)
                close(fd);
        } else {
            kill(n->reader, SIGKILL); /* it waits on a FIFO no longer there */
        }
        int status;
        waitpid(n->reader, &status, 0);
        br_read_file(&text, NULL, n->got, 1 << 26);
    } else {
        cr_expect(S_ISCHR(st.st_mode), "%s is no longer a device (mode %o)", n->path,
                  (unsigned)st.st_mode);
        cr_expect(S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3,
                  "%s is another device now", n->path);
    }
    free(n->path);
    free(n->got);
    return text;
}

/* No temporary file is left in tmp. */
static void expect_no_litter(void) {
    char *cmd = br_strfmt("ls -A '%s' | grep -q 'benchrun-tmp\\|\\.tmp\\.'", tmp);
    cr_expect_neq(system(cmd), 0, "a temporary file was left in %s", tmp);
    free(cmd);
}

static void need_root(void) {
    if (geteuid() != 0)
        cr_skip_test("mknod of a character device needs root; this runs as uid %d (CI runs as "
                     "root)",
                     (int)geteuid());
}

/* An output option and the text its output starts with (NULL: nothing is
 * checked, as for an SVG gnuplot may not draw). */
typedef struct option {
    const char *flag;
    const char *starts;
} option;

/* Run `head` (argv before the options) + each option given its own node
 * (FIFOs or devices) + `tail`; check the status, the nodes and, for FIFOs,
 * what each got. */
static void run_with_nodes(const char *const *head, const option *opts, size_t n_opts,
                           const char *const *tail, int fifo, int want_status) {
    const char *args[48];
    node nodes[8];
    size_t k = 0;
    for (; head[k]; k++)
        args[k] = head[k];
    for (size_t i = 0; i < n_opts; i++) {
        static int made; /* names unique within a test */
        char name[32];
        snprintf(name, sizeof name, "out%d%s", made++, fifo ? ".fifo" : ".dev");
        nodes[i] = make_node(name, fifo);
        args[k++] = opts[i].flag;
        args[k++] = nodes[i].path;
    }
    for (size_t t = 0; tail && tail[t]; t++)
        args[k++] = tail[t];
    args[k] = NULL;
    e2e_result r;
    cr_assert_eq(e2e_run(&r, tmp, args), 0);
    cr_expect_eq(r.status, want_status, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out,
                 r.err);
    for (size_t i = 0; i < n_opts; i++) {
        char *text = check_node(&nodes[i]);
        if (fifo && opts[i].starts)
            cr_expect(text && strncmp(text, opts[i].starts, strlen(opts[i].starts)) == 0,
                      "%s: the FIFO's reader got '%.60s', expected it to start with '%s'",
                      opts[i].flag, text ? text : "(nothing)", opts[i].starts);
        free(text);
    }
    expect_no_litter();
    e2e_free(&r);
}

static const option report_opts[] = {
    {"--json", "{"}, {"--csv", "suite,"}, {"--markdown", "#"}, {"--gbench", "{"}};
static const option roofline_opt[] = {{"--roofline", "<?xml"}};

static void report_outputs(int fifo) {
    const char *head[] = {"report", "--no-compare", GOLDEN, NULL};
    /* exit 1: the golden results hold a failed case */
    run_with_nodes(head, report_opts, 4, NULL, fifo, 1);
    if (!br_gnuplot_have())
        cr_skip_test("gnuplot is not on PATH: --roofline not tried");
    const char *roof[] = {"report", "--no-compare", ROOFLINE, NULL};
    run_with_nodes(roof, roofline_opt, 1, NULL, fifo, 1);
}

Test(e2e_outputs, report_writes_every_output_into_fifos) {
    report_outputs(1);
}

Test(e2e_outputs, report_leaves_device_nodes_as_they_are) {
    need_root();
    report_outputs(0);
}

static const option run_opts[] = {
    {"--json", "{"},     {"--csv", "suite,"}, {"--samples-csv", "suite,"},
    {"--markdown", "#"}, {"--gbench", "{"},   {"--roofline", NULL}};

static void run_outputs(int fifo) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *head[] = {cache, "-q", "--no-compare", "--max-noise", "50%", NULL};
    const char *tail[] = {OK_SUITE, NULL};
    /* exit 1: a host-only run has no roofline to draw (said, nothing written) */
    run_with_nodes(head, run_opts, 6, tail, fifo, 1);
    free(cache);
}

Test(e2e_outputs, run_writes_every_output_into_fifos) {
    run_outputs(1);
}

Test(e2e_outputs, run_leaves_device_nodes_as_they_are) {
    need_root();
    run_outputs(0);
}

static const option compare_opts[] = {{"--json", "{"}, {"--markdown", "#"}};
static const option merge_opt[] = {{"-o", "{"}};

static void compare_and_merge(int fifo) {
    const char *cmp[] = {"compare", "--fail-on", "never", GOLDEN, GOLDEN, NULL};
    run_with_nodes(cmp, compare_opts, 2, NULL, fifo, 0);
    /* merge takes the parts of a sharded run: ok.yaml's two cases, one each */
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    char *part[2];
    for (int i = 0; i < 2; i++) {
        part[i] = br_strfmt("%s/part%d.json", tmp, i + 1);
        const char *shard = i ? "2/2" : "1/2";
        const char *args[] = {cache, "-q",     "--no-compare", "--max-noise", "50%", "--shard",
                              shard, "--json", part[i],        OK_SUITE,      NULL};
        e2e_result r;
        cr_assert_eq(e2e_run(&r, tmp, args), 0);
        cr_assert(r.status == 0 || r.status == 1, "shard %s: exit %d\n%s", shard, r.status, r.err);
        e2e_free(&r);
    }
    const char *merge[] = {"merge", "-q", NULL};
    const char *parts[] = {part[0], part[1], NULL};
    run_with_nodes(merge, merge_opt, 1, parts, fifo, 0);
    free(part[0]);
    free(part[1]);
    free(cache);
}

Test(e2e_outputs, compare_and_merge_write_into_fifos) {
    compare_and_merge(1);
}

Test(e2e_outputs, compare_and_merge_leave_device_nodes_as_they_are) {
    need_root();
    compare_and_merge(0);
}

static const option plot_opt[] = {{"--plot", "<?xml"}};

static void history_plot(int fifo) {
    if (!br_gnuplot_have())
        cr_skip_test("gnuplot is not on PATH: history --plot not tried");
    char *dir = br_strfmt("%s/results", tmp);
    cr_assert_eq(mkdir(dir, 0755), 0);
    char *cp = br_strfmt("cp '%s' '%s/20261122T031500Z-abc.json'", GOLDEN, dir);
    cr_assert_eq(system(cp), 0);
    const char *head[] = {"history", "--suite", "reduction", dir, NULL};
    run_with_nodes(head, plot_opt, 1, NULL, fifo, 0);
    free(cp);
    free(dir);
}

Test(e2e_outputs, history_plot_writes_into_a_fifo) {
    history_plot(1);
}

Test(e2e_outputs, history_plot_leaves_a_device_node_as_it_is) {
    need_root();
    history_plot(0);
}

/* A baseline is read before it is saved: a FIFO or a device is refused with
 * its name (exit 2), and nothing replaces it. */
static void baseline_refused(int fifo) {
    node n = make_node(fifo ? "base.fifo" : "base.dev", fifo);
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *args[] = {cache,        "-q",   "--max-noise", "50%", "--save-baseline",
                          "--baseline", n.path, OK_SUITE,      NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, tmp, args), 0);
    cr_expect_eq(r.status, 2, "exit %d\n%s", r.status, r.err);
    cr_expect(strstr(r.err, fifo ? "cannot read: a FIFO, not a regular file"
                                 : "cannot read: a character device, not a regular file"),
              "%s", r.err);
    cr_expect(strstr(r.err, n.path), "the message names the file:\n%s", r.err);
    free(check_node(&n));
    expect_no_litter();
    e2e_free(&r);
    free(cache);
}

Test(e2e_outputs, a_fifo_as_the_baseline_is_refused) {
    baseline_refused(1);
}

Test(e2e_outputs, a_device_as_the_baseline_is_refused) {
    need_root();
    baseline_refused(0);
}

/* compare reading a FIFO nobody writes: at once, exit 2, the file named
 * (before: it waited for a writer forever). */
Test(e2e_outputs, compare_on_a_fifo_returns_at_once, .timeout = 20) {
    char *fifo = br_strfmt("%s/old.fifo", tmp);
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    const char *args[] = {"compare", fifo, GOLDEN, NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    e2e_result r;
    cr_assert_eq(e2e_run(&r, tmp, args), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_expect_eq(r.status, 2, "exit %d\n%s", r.status, r.err);
    char *want = br_strfmt("%s: cannot read: a FIFO, not a regular file", fifo);
    cr_expect(strstr(r.err, want), "%s", r.err);
    cr_log_info("compare on a FIFO: %.3f s",
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    free(want);
    free(fifo);
    e2e_free(&r);
}

/* A name of standard output (as /dev/stdout is: a link to /proc/self/fd/1)
 * is standard output: the JSON goes there, no table with it, and nothing is
 * renamed over the link. The link is made in tmp, not the machine's
 * /dev/stdout: an older benchrun, run as root, would replace that. */
Test(e2e_outputs, a_link_to_standard_output_is_standard_output) {
    char *link = br_strfmt("%s/stdout", tmp);
    cr_assert_eq(symlink("/proc/self/fd/1", link), 0);
    const char *args[] = {"report", "-q", "--no-compare", "--json", link, GOLDEN, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, tmp, args), 0);
    cr_expect_eq(r.status, 1, "exit %d\n%s", r.status, r.err);
    cr_expect(strncmp(r.out, "{", 1) == 0, "stdout:\n%.200s", r.out);
    cr_expect(!strstr(r.out, "╔") && !strstr(r.out, "+--"), "a table beside the JSON");
    struct stat st;
    cr_expect(lstat(link, &st) == 0 && S_ISLNK(st.st_mode), "the link was replaced");
    expect_no_litter();
    e2e_free(&r);
    free(link);
}

/* Where an output cannot go: said before anything runs, nothing written. */
Test(e2e_outputs, a_directory_or_a_dangling_link_is_refused) {
    char *link = br_strfmt("%s/dangling.json", tmp);
    cr_assert_eq(symlink("missing/x.json", link), 0);
    const char *args[] = {"report", "--no-compare", "--json", link, GOLDEN, NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, tmp, args), 0);
    cr_expect_eq(r.status, 2, "exit %d\n%s", r.status, r.err);
    cr_expect(strstr(r.err, "is a symbolic link to missing/x.json, which does not exist"), "%s",
              r.err);
    e2e_free(&r);
    const char *dir_args[] = {"report", "--no-compare", "--csv", tmp, GOLDEN, NULL};
    cr_assert_eq(e2e_run(&r, tmp, dir_args), 0);
    cr_expect_eq(r.status, 2, "exit %d\n%s", r.status, r.err);
    cr_expect(strstr(r.err, ": is a directory"), "%s", r.err);
    e2e_free(&r);
    free(link);
}

/* Past `ulimit -f`: the write fails with "File too large" like any other
 * write error, and no temporary file is left (before: SIGXFSZ killed
 * benchrun, exit 153, no message, and the partial file stayed). */
Test(e2e_outputs, a_write_past_ulimit_f_is_an_error_not_a_signal) {
    char *out = br_strfmt("%s/big.json", tmp);
    char *cmd = br_strfmt("ulimit -f 16 && exec '%s' report -q --no-compare --json '%s' '%s'",
                          BR_BENCHRUN_EXE, out, GOLDEN);
    const char *args[] = {"-c", cmd, NULL};
    char err_path[] = "/tmp/br-e2e-err-XXXXXX";
    int efd = mkstemp(err_path);
    cr_assert_geq(efd, 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    pid_t pid;
    char *argv[] = {"sh", (char *)args[0], (char *)args[1], NULL};
    cr_assert_eq(posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(efd);
    int st;
    waitpid(pid, &st, 0);
    char *err = NULL;
    br_read_file(&err, NULL, err_path, 1 << 20);
    unlink(err_path);
    cr_expect(WIFEXITED(st), "killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 128 + SIGXFSZ, "exit %d",
              WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    cr_expect(err && strstr(err, "File too large"), "stderr:\n%s", err ? err : "");
    struct stat sb;
    cr_expect_neq(stat(out, &sb), 0, "a part of %s appeared", out);
    expect_no_litter();
    free(err);
    free(cmd);
    free(out);
}

/* Start `benchrun report -q --no-compare --json FIFO GOLDEN` with nobody
 * reading the FIFO; its pid, its stderr going to `err`. */
static pid_t report_to_fifo(const char *fifo, const char *err) {
    char *cmd = br_strfmt("exec '%s' report -q --no-compare --json '%s' '%s' >/dev/null 2>'%s'",
                          BR_BENCHRUN_EXE, fifo, GOLDEN, err);
    char *argv[] = {"sh", "-c", cmd, NULL};
    pid_t pid;
    cr_assert_eq(posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ), 0);
    free(cmd);
    return pid;
}

static double mono_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A FIFO output nobody reads: opened without blocking, waited for (saying
 * so), then a clear error, not a hang (before: blocked at the end of the
 * run for ever); and one SIGTERM ends the wait (before: it did not). */
Test(e2e_outputs, a_fifo_without_a_reader_is_an_error_and_sigterm_ends_the_wait) {
    char *fifo = br_strfmt("%s/out.fifo", tmp), *err = br_strfmt("%s/err.txt", tmp);
    cr_assert_eq(mkfifo(fifo, 0666), 0);
    double t0 = mono_s();
    pid_t pid = report_to_fifo(fifo, err);
    int st;
    waitpid(pid, &st, 0);
    double took = mono_s() - t0;
    char *text = NULL;
    br_read_file(&text, NULL, err, 1 << 16);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) != 0, "status %d", st);
    cr_expect(took < 20, "it took %.1f s", took);
    cr_expect(text && strstr(text, "waiting for a reader of"), "%s", text ? text : "");
    cr_expect(text && strstr(text, "a FIFO with no reader: none came in 10 s"), "%s",
              text ? text : "");
    free(text);
    t0 = mono_s();
    pid = report_to_fifo(fifo, err);
    usleep(1500 * 1000);
    kill(pid, SIGTERM);
    waitpid(pid, &st, 0);
    took = mono_s() - t0;
    cr_expect(took < 4, "one SIGTERM did not end it (%.1f s)", took);
    struct stat sb;
    cr_expect(lstat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode), "the FIFO is gone");
    free(fifo);
    free(err);
}
