/* SPDX-License-Identifier: Apache-2.0 */
/* test_tmp.c - temporary names unique across hosts and containers, and the
 * sweep that removes only what one of its two rules proves dead ("ours,
 * process gone"; "stale" and not locked), saying which at -v. */
#define _GNU_SOURCE /* F_OFD_SETLK */
#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/log.h"
#include "base/tmp.h"
#include "base/util.h"

static char dir[64];

static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/br-tmp-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void drop_dir(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(tmp, .init = make_dir, .fini = drop_dir);

static pid_t dead_pid(void) {
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    int st;
    waitpid(pid, &st, 0);
    return pid;
}

/* Create dir/name (a file, or a folder when is_dir), its change age_s ago. */
static char *touch(const char *name, time_t age_s, int is_dir) {
    char *p = br_strfmt("%s/%s", dir, name);
    cr_assert_not_null(p);
    if (is_dir)
        cr_assert_eq(mkdir(p, 0755), 0, "%s", p);
    else {
        FILE *f = fopen(p, "w");
        cr_assert_not_null(f, "%s", p);
        fputs("partial", f);
        fclose(f);
    }
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

/* A name of the new form with the given owner fields. */
static char *name_of(const char *host, unsigned long long ns, long pid) {
    char *n = br_strfmt(".r.json.benchrun-tmp.%s.%llu.%ld.0123456789abcdef", host, ns, pid);
    cr_assert_not_null(n);
    return n;
}

Test(tmp, names_carry_host_namespace_pid_and_random_bytes) {
    char a[512], b[512];
    cr_assert_eq(br_tmp_name(a, sizeof a, "out/results.json", ".so"), 0);
    cr_assert_eq(br_tmp_name(b, sizeof b, "out/results.json", ".so"), 0);
    cr_expect_str_neq(a, b, "two names for one path are the same");
    cr_expect_eq(strncmp(a, "out/.results.json.benchrun-tmp.", 31), 0, "%s", a);
    cr_expect(br_has_suffix(a, ".so"), "%s", a);
    br_tmp_owner o;
    cr_assert_eq(br_tmp_parse(&o, strrchr(a, '/') + 1), 1, "%s", a);
    const br_tmp_owner *me = br_tmp_self();
    cr_expect_str_eq(o.host, me->host);
    cr_expect_eq(o.ns, me->ns);
    cr_expect_eq(o.pid, (long)getpid());
    cr_expect_eq(me->host[0], 'b', "the boot id was not read: %s", me->host);
    cr_expect_neq(me->ns, 0ULL, "the PID namespace was not read");
    char longname[300];
    memset(longname, 'x', sizeof longname);
    longname[sizeof longname - 1] = '\0';
    cr_assert_eq(br_tmp_name(a, sizeof a, longname, NULL), 0);
    cr_expect_lt(strlen(a), 180, "the output's name is cut in its temporary name: %s", a);
    cr_expect_eq(br_tmp_parse(&o, "results.json"), 0);
    cr_expect_eq(br_tmp_parse(&o, ".r.benchrun-tmp.bxyz.1.2.0123456789abcdef"), 0);
}

Test(tmp, a_created_file_is_locked_while_its_descriptor_is_open) {
    char path[256], name[512];
    snprintf(path, sizeof path, "%s/r.json", dir);
    int fd = br_tmp_create(name, sizeof name, path, NULL);
    cr_assert_geq(fd, 0);
    int other = open(name, O_RDWR);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1};
    cr_assert_eq(fcntl(other, F_OFD_GETLK, &fl), 0);
    cr_expect_neq(fl.l_type, F_UNLCK, "a new temporary file is not locked");
    close(fd);
    fl = (struct flock){.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1};
    cr_assert_eq(fcntl(other, F_OFD_GETLK, &fl), 0);
    cr_expect_eq(fl.l_type, F_UNLCK, "the lock outlived its descriptor");
    close(other);
}

static char said[4096];
static void capture(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    strncat(said, msg, sizeof said - strlen(said) - 1);
}

/* Each rule removes what it proves dead, and says so at -v; nothing it
 * cannot prove dead is touched: another host's, another namespace's, a
 * live writer's, a locked one, and the older form while young. */
Test(tmp, only_provably_dead_temporaries_are_swept_and_the_rule_is_said) {
    const br_tmp_owner *me = br_tmp_self();
    long dead = (long)dead_pid(), live = (long)getppid();
    char *n_gone = name_of(me->host, me->ns, dead);
    char *gone = touch(n_gone, 0, 0);
    char *n_live = name_of(me->host, me->ns, live);
    char *alive = touch(n_live, 0, 0);
    char *n_host = name_of("b0000000000000001", me->ns, dead);
    char *other_host = touch(n_host, 0, 0);
    char *n_ns = name_of(me->host, me->ns + 1, dead);
    char *other_ns = touch(n_ns, 0, 0);
    char *old_form_young = touch(".r.json.benchrun-tmp.12345.AbC123", 0, 0);
    char *old_form_old = touch(".q.json.benchrun-tmp.12345.AbC123", 2 * 24 * 3600, 0);
    char *n_stale = name_of("b0000000000000002", 7, live);
    char *stale = touch(n_stale, 2 * 24 * 3600, 0);
    char *n_locked = name_of("b0000000000000003", 7, live);
    char *locked = touch(n_locked, 2 * 24 * 3600, 0);
    char *n_sdir = name_of("b0000000000000004", 7, 5);
    char *stale_dir = touch(n_sdir, 2 * 24 * 3600, 1);
    char *not_ours = touch("r.json.tmp.AbC123", 2 * 24 * 3600, 0);
    int lfd = open(locked, O_RDWR);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1};
    cr_assert_eq(fcntl(lfd, F_OFD_SETLK, &fl), 0);
    br_log_fn fn;
    void *ctx;
    br_log_get_sink(&fn, &ctx);
    br_log_set_sink(capture, NULL);
    br_log_set_verbose(1);
    said[0] = '\0';
    int removed = br_tmp_sweep(dir);
    br_log_set_verbose(0);
    br_log_set_sink(fn, ctx);
    close(lfd);
    cr_expect_eq(removed, 4, "removed %d; said:\n%s", removed, said);
    cr_expect(!exists(gone) && !exists(old_form_old) && !exists(stale) && !exists(stale_dir));
    cr_expect(exists(alive), "a live writer's temporary file was removed");
    cr_expect(exists(other_host), "another host's temporary file was removed");
    cr_expect(exists(other_ns), "another PID namespace's temporary file was removed");
    cr_expect(exists(old_form_young), "a young temporary file of the older form was removed");
    cr_expect(exists(locked), "a locked temporary file was removed");
    cr_expect(exists(not_ours), "a file that is not a temporary name was removed");
    char *want = br_strfmt("%s (ours, process gone)", n_gone);
    cr_expect(strstr(said, want), "said:\n%s", said);
    free(want);
    want = br_strfmt("%s (stale: older than a day and not locked)", n_stale);
    cr_expect(strstr(said, want), "said:\n%s", said);
    free(want);
    char *all[] = {n_gone,   gone,     n_live,         alive,        n_host,  other_host,
                   n_ns,     other_ns, old_form_young, old_form_old, n_stale, stale,
                   n_locked, locked,   n_sdir,         stale_dir,    not_ours};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
}

/* A temporary folder holds its lock in ".lock"; while held the folder
 * stays, however old. */
Test(tmp, a_locked_temporary_folder_stays_however_old) {
    char path[256], name[512];
    snprintf(path, sizeof path, "%s/SITE", dir);
    int fd = br_tmp_mkdir(name, sizeof name, path);
    cr_assert_geq(fd, 0);
    struct timeval tv[2];
    gettimeofday(&tv[0], NULL);
    tv[0].tv_sec -= 3 * 24 * 3600;
    tv[1] = tv[0];
    cr_assert_eq(utimes(name, tv), 0);
    cr_expect_eq(br_tmp_sweep(dir), 0);
    cr_expect(exists(name));
    close(fd);
    cr_expect_eq(br_tmp_sweep(dir), 1, "an old unlocked temporary folder stayed");
    cr_expect(!exists(name));
}
