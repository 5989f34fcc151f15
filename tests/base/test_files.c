/* SPDX-License-Identifier: Apache-2.0 */
/* test_files.c - bounded reads and outputs that replace only what they may
 * (base/files.c): a FIFO, a device or a huge file is refused before it is
 * read; an output to a FIFO or a character device is written in place and
 * the node stays; a symbolic link stays and its file is replaced; temporary
 * files are named so they can be recognised, and only stale ones of this
 * user are removed; a write past `ulimit -f` is an error, not a signal. */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/error.h"
#include "base/files.h"
#include "base/tmp.h"
#include "base/util.h"

static char dir[64];

static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/br-files-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void drop_dir(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

static char *in_dir(const char *name) {
    char *p = br_strfmt("%s/%s", dir, name);
    cr_assert_not_null(p);
    return p;
}

static int write_hello(FILE *f, void *ctx) {
    (void)ctx;
    return fputs("hello\n", f) == EOF ? br_error_set("fputs failed") : 0;
}

/* Names in dir that are temporary files (".benchrun-tmp." in them). */
static int count_tmp(void) {
    char cmd[160];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c 'benchrun-tmp' > /dev/null", dir);
    return system(cmd) == 0;
}

TestSuite(files, .init = make_dir, .fini = drop_dir);

/* A FIFO with no writer: refused at once (before: the read blocked forever). */
Test(files, a_fifo_is_refused_without_waiting_for_a_writer, .timeout = 10) {
    char *p = in_dir("fifo");
    cr_assert_eq(mkfifo(p, 0600), 0);
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, p, 1 << 20), -1);
    char *want = br_strfmt("%s: cannot read: a FIFO, not a regular file", p);
    cr_expect_str_eq(br_error_get(), want);
    cr_expect_null(text);
    free(want);
    free(p);
}

/* A device and a sparse file past the limit: refused on fstat, nothing read
 * (before: /dev/zero was read up to the limit, a GiB). */
Test(files, devices_and_files_past_the_limit_are_refused_before_reading) {
    char *text = NULL;
    cr_expect_eq(br_read_file(&text, NULL, "/dev/zero", (size_t)1 << 30), -1);
    cr_expect_str_eq(br_error_get(), "/dev/zero: cannot read: a character device, not a regular "
                                     "file");
    char *p = in_dir("sparse.json");
    int fd = open(p, O_CREAT | O_WRONLY, 0600);
    cr_assert_geq(fd, 0);
    cr_assert_eq(ftruncate(fd, (off_t)2 << 30), 0); /* 2 GiB of nothing */
    close(fd);
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    cr_expect_eq(br_read_file(&text, NULL, p, (size_t)1 << 30), -1);
    getrusage(RUSAGE_SELF, &after);
    char *want = br_strfmt("%s: file is larger than the limit of 1073741824 bytes", p);
    cr_expect_str_eq(br_error_get(), want);
    cr_expect_lt(after.ru_maxrss - before.ru_maxrss, 100 * 1024, "the file was read (%ld kB)",
                 after.ru_maxrss - before.ru_maxrss);
    cr_expect_eq(br_read_file(&text, NULL, dir, 100), -1);
    cr_expect(strstr(br_error_get(), "is a directory"), "%s", br_error_get());
    free(want);
    free(p);
}

Test(files, a_regular_file_is_read_whole_and_bounded) {
    char *p = in_dir("a.txt");
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    for (int i = 0; i < 10000; i++)
        fputs("0123456789", f);
    fclose(f);
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(br_read_file(&text, &len, p, 100000), 0, "%s", br_error_get());
    cr_expect_eq(len, 100000);
    cr_expect_eq(strlen(text), 100000);
    free(text);
    cr_expect_eq(br_read_file(&text, &len, p, 99999), -1);
    cr_expect(strstr(br_error_get(), "larger than the limit of 99999 bytes"));
    /* /proc gives no size: read to its end all the same. */
    cr_expect_eq(br_read_file(&text, &len, "/proc/self/status", 1 << 20), 0);
    cr_expect_gt(len, 0);
    free(text);
    free(p);
}

Test(files, what_an_output_path_is) {
    br_target_kind k;
    cr_expect_eq(br_output_kind(&k, "-"), 0);
    cr_expect_eq(k, BR_TARGET_STDOUT);
    char *p = in_dir("new.json");
    cr_expect_eq(br_output_kind(&k, p), 0);
    cr_expect_eq(k, BR_TARGET_FILE);
    char *fifo = in_dir("fifo");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    cr_expect_eq(br_output_kind(&k, fifo), 0);
    cr_expect_eq(k, BR_TARGET_STREAM);
    cr_expect_eq(br_output_kind(&k, dir), -1);
    cr_expect(strstr(br_error_get(), ": is a directory"));
    char *link = in_dir("dangling");
    cr_assert_eq(symlink("nowhere", link), 0);
    cr_expect_eq(br_output_kind(&k, link), -1);
    cr_expect(strstr(br_error_get(), "is a symbolic link to nowhere, which does not exist"), "%s",
              br_error_get());
    /* Standard output, however it is named. */
    int saved = dup(1);
    int fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    cr_assert(saved >= 0 && fd >= 0);
    fflush(stdout);
    dup2(fd, 1);
    close(fd);
    char *out_link = in_dir("stdout"); /* as /dev/stdout is, not the machine's own */
    cr_assert_eq(symlink("/proc/self/fd/1", out_link), 0);
    cr_expect(br_path_is_stdout(out_link));
    cr_expect(br_path_is_stdout("/proc/self/fd/1"));
    cr_expect(br_path_is_stdout(p), "the file standard output is");
    free(out_link);
    cr_expect(br_path_is_stdout("-"));
    cr_expect(!br_path_is_stdout(fifo));
    cr_expect(!br_path_is_stdout(NULL));
    dup2(saved, 1);
    close(saved);
    free(p);
    free(fifo);
    free(link);
}

/* A FIFO given as an output is written as a stream and stays a FIFO
 * (before: it was replaced by a regular file). */
Test(files, a_fifo_output_is_written_in_place, .timeout = 20) {
    char *fifo = in_dir("out.fifo");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    int rfd = open(fifo, O_RDONLY | O_NONBLOCK);
    cr_assert_geq(rfd, 0);
    cr_assert_eq(br_write_atomic(fifo, write_hello, NULL), 0, "%s", br_error_get());
    char buf[32] = "";
    ssize_t n = read(rfd, buf, sizeof buf - 1);
    close(rfd);
    cr_expect_eq(n, 6);
    cr_expect_str_eq(buf, "hello\n");
    struct stat st;
    cr_assert_eq(lstat(fifo, &st), 0);
    cr_expect(S_ISFIFO(st.st_mode), "the FIFO was replaced");
    cr_expect(!count_tmp(), "a temporary file was left");
    free(fifo);
}

/* A character device made here (the null device, 1:3) stays a device; as
 * root a rename over it would replace it (as it replaced /dev/null). */
Test(files, a_device_output_is_written_in_place) {
    if (geteuid() != 0)
        cr_skip_test("mknod of a device needs root; this test runs as uid %d", (int)geteuid());
    char *node = in_dir("null");
    cr_assert_eq(mknod(node, S_IFCHR | 0666, makedev(1, 3)), 0, "mknod: %s", strerror(errno));
    cr_assert_eq(br_write_atomic(node, write_hello, NULL), 0, "%s", br_error_get());
    struct stat st;
    cr_assert_eq(lstat(node, &st), 0);
    cr_expect(S_ISCHR(st.st_mode), "the device node was replaced");
    cr_expect_eq(major(st.st_rdev), 1);
    cr_expect_eq(minor(st.st_rdev), 3);
    cr_expect(!count_tmp(), "a temporary file was left");
    free(node);
}

Test(files, a_symbolic_link_stays_and_its_file_is_replaced) {
    char *target = in_dir("real.json"), *link = in_dir("link.json");
    FILE *f = fopen(target, "w");
    cr_assert_not_null(f);
    fputs("old\n", f);
    fclose(f);
    cr_assert_eq(symlink("real.json", link), 0);
    cr_assert_eq(br_write_atomic(link, write_hello, NULL), 0, "%s", br_error_get());
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link was replaced by a file");
    char *text = NULL;
    cr_assert_eq(br_read_file(&text, NULL, target, 100), 0);
    cr_expect_str_eq(text, "hello\n");
    free(text);
    free(target);
    free(link);
}

/* A process id that no process has: a child that has exited and been reaped. */
static pid_t dead_pid(void) {
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    int st;
    waitpid(pid, &st, 0);
    return pid;
}

static char *touch(const char *name, time_t age_s) {
    char *p = in_dir(name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f, "%s", p);
    fputs("partial", f);
    fclose(f);
    if (age_s) {
        struct timeval tv[2];
        gettimeofday(&tv[0], NULL);
        tv[0].tv_sec -= age_s;
        tv[1] = tv[0];
        cr_assert_eq(utimes(p, tv), 0);
    }
    return p;
}

static int exists(const char *p) {
    struct stat st;
    return lstat(p, &st) == 0;
}

/* Litter of a killed writer goes the next time a file is written into its
 * directory (the rules themselves: test_tmp.c). */
Test(files, a_dead_writers_temporary_file_is_swept_by_a_write) {
    char name[160];
    const br_tmp_owner *me = br_tmp_self();
    snprintf(name, sizeof name, ".r.json.benchrun-tmp.%s.%llu.%ld.0123456789abcdef", me->host,
             me->ns, (long)dead_pid());
    char *gone = touch(name, 0);
    char *other = touch("r.json.tmp.AbC123", 0); /* not ours */
    char *out = in_dir("r.json");
    cr_assert_eq(br_write_atomic(out, write_hello, NULL), 0, "%s", br_error_get());
    cr_expect(!exists(gone), "a temporary file of a dead writer stayed");
    cr_expect(exists(other), "a file that is not a temporary file of benchrun was removed");
    free(gone);
    free(other);
    free(out);
}

/* Only this user's temporary files are removed (root included). */
Test(files, another_users_temporary_file_stays) {
    if (geteuid() != 0)
        cr_skip_test("chown to another user needs root; this test runs as uid %d", (int)geteuid());
    char *theirs = touch(".r.json.benchrun-tmp.12345.AbC123", 2 * 24 * 3600);
    cr_assert_eq(chown(theirs, 65534, 65534), 0);
    char *out = in_dir("r.json");
    cr_assert_eq(br_write_atomic(out, write_hello, NULL), 0, "%s", br_error_get());
    cr_expect(exists(theirs), "another user's file was removed");
    free(theirs);
    free(out);
}

static int write_big(FILE *f, void *ctx) {
    (void)ctx;
    static char block[4096];
    memset(block, 'x', sizeof block);
    for (int i = 0; i < 64; i++)
        if (fwrite(block, 1, sizeof block, f) != sizeof block)
            return br_error_set("write failed");
    return 0;
}

/* Past `ulimit -f` (RLIMIT_FSIZE) with SIGXFSZ ignored, as main() does: the
 * write fails with EFBIG, is reported, and leaves no temporary file
 * (before: the signal killed the process, exit 153, and the file stayed). */
Test(files, a_write_past_the_file_size_limit_is_an_error) {
    char *out = in_dir("big.json");
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {16384, 16384};
        setrlimit(RLIMIT_FSIZE, &rl);
        int rc = br_write_atomic(out, write_big, NULL);
        const char *e = br_error_get();
        _exit(rc == -1 && strstr(e, "File too large") ? 0 : 1);
    }
    int st;
    waitpid(pid, &st, 0);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
    cr_expect(!exists(out), "a part of the file appeared");
    cr_expect(!count_tmp(), "the temporary file stayed");
    free(out);
}

Test(files, write_new_never_replaces) {
    char *p = in_dir("n.json");
    cr_assert_eq(br_write_new(p, write_hello, NULL), 0, "%s", br_error_get());
    cr_expect_eq(br_write_new(p, write_hello, NULL), 1);
    cr_expect_eq(br_error_kind_get(), BR_E_EXISTS);
    cr_expect(!count_tmp());
    free(p);
}
