/* SPDX-License-Identifier: Apache-2.0 */
/* e2e_util.h - run the benchrun executable from tests and capture what it says. */
#ifndef BR_E2E_UTIL_H
#define BR_E2E_UTIL_H

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

extern char **environ;

typedef struct e2e_result {
    int status; /* exit status, or 128 + signal */
    char *out;  /* standard output (owned) */
    char *err;  /* standard error (owned) */
} e2e_result;

static inline void e2e_free(e2e_result *r) {
    free(r->out);
    free(r->err);
}

/* A benchrun started in the background (e2e_start), its output captured. */
typedef struct e2e_proc {
    pid_t pid;
    char out_path[32], err_path[32];
    int own_group; /* set before e2e_start: run it in a process group of its own (pid) */
} e2e_proc;

/* Start BR_BENCHRUN_EXE with argv (NULL-terminated, without argv[0]) in
 * `cwd`, without waiting; e2e_finish waits and collects. Returns 0 or -1. */
static inline int e2e_start(e2e_proc *p, const char *cwd, const char *const *args) {
    snprintf(p->out_path, sizeof p->out_path, "/tmp/br-e2e-out-XXXXXX");
    snprintf(p->err_path, sizeof p->err_path, "/tmp/br-e2e-err-XXXXXX");
    int ofd = mkstemp(p->out_path), efd = mkstemp(p->err_path);
    if (ofd < 0 || efd < 0)
        return -1;
    const char *argv[64] = {BR_BENCHRUN_EXE};
    size_t n = 1;
    for (; args[n - 1] && n < 63; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, ofd, 1);
    posix_spawn_file_actions_adddup2(&fa, efd, 2);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    if (p->own_group) {
        posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&at, 0);
    }
    char *prev = getcwd(NULL, 0);
    int e = cwd && chdir(cwd) != 0 ? -1 : 0;
    if (e == 0)
        e = posix_spawn(&p->pid, BR_BENCHRUN_EXE, &fa, &at, (char *const *)argv, environ);
    posix_spawnattr_destroy(&at);
    if (prev && chdir(prev) != 0)
        e = -1;
    free(prev);
    posix_spawn_file_actions_destroy(&fa);
    close(ofd);
    close(efd);
    return e == 0 ? 0 : -1;
}

/* Wait for p and fill *r as e2e_run does. */
static inline void e2e_finish(e2e_proc *p, e2e_result *r) {
    int st;
    waitpid(p->pid, &st, 0);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    br_read_file(&r->out, NULL, p->out_path, 1 << 24);
    br_read_file(&r->err, NULL, p->err_path, 1 << 24);
    unlink(p->out_path);
    unlink(p->err_path);
}

/* Run BR_BENCHRUN_EXE with argv (NULL-terminated, without argv[0]) in
 * `cwd` and wait for it (e2e_start, e2e_finish). Returns 0 or -1. */
static inline int e2e_run(e2e_result *r, const char *cwd, const char *const *args) {
    e2e_proc p = {0};
    if (e2e_start(&p, cwd, args) != 0)
        return -1;
    e2e_finish(&p, r);
    return 0;
}

/* The entries of dir whose name contains `part` (NULL: any), dot entries
 * not counted; 0 for a directory that does not exist. */
static inline int e2e_count_entries(const char *dir, const char *part) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.' && (!part || strstr(e->d_name, part));
    if (d)
        closedir(d);
    return n;
}

/* A fresh temporary directory (caller removes it with e2e_rmtree). */
static inline char *e2e_tmpdir(void) {
    char tmpl[] = "/tmp/br-test-XXXXXX";
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

static inline void e2e_rmtree(const char *dir) {
    char *cmd = br_strfmt("rm -rf '%s'", dir);
    if (cmd && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    free(cmd);
}

/* A fresh temporary directory per test: name e2e_tmp_make and e2e_tmp_drop as a
 * TestSuite's .init and .fini; tests use `tmp`. A test that skips
 * (cr_skip_test) ends without its .fini: the folder is then removed at the
 * exit of the process that made it (not of a child it forked). */
static char *tmp;
static pid_t tmp_owner;

static inline void e2e_tmp_at_exit(void) {
    if (tmp && getpid() == tmp_owner)
        e2e_rmtree(tmp);
}

static inline void e2e_tmp_make(void) {
    tmp = e2e_tmpdir();
    if (!tmp)
        abort();
    if (tmp_owner != getpid()) { /* once per process */
        tmp_owner = getpid();
        atexit(e2e_tmp_at_exit);
    }
}

/* Write `text` to tmp/name and return that path (caller frees); aborts the
 * test process if the file cannot be written. */
static inline char *e2e_put(const char *name, const char *text) {
    char *path = br_strfmt("%s/%s", tmp, name);
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path ? path : name);
        abort();
    }
    return path;
}

/* Directory dir holds nothing but dot entries, or does not exist (a
 * command's scratch space was cleaned up). */
static inline void e2e_assert_empty_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL)
            cr_assert(e->d_name[0] == '.', "left in %s: %s", dir, e->d_name);
        closedir(d);
    }
}

static inline void e2e_tmp_drop(void) {
    e2e_rmtree(tmp);
    free(tmp);
    tmp = NULL;
}

#endif
