/* SPDX-License-Identifier: Apache-2.0 */
/* test_gitlib.c - libgit2 is started once per process (issue 43): blob
 * hashes, repository look-ups and a cold index of several files, each of
 * which started and shut libgit2 down before, leave one git_libgit2_init;
 * and no other source of the runner starts or stops libgit2 itself. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/files.h"
#include "base/gitlib.h"
#include "base/util.h"
#include "history/index.h"
#include "results/gitinfo.h"

/* Copy the fixture runs into a new directory (returned; caller removes). */
static char *copy_runs(size_t *n_out) {
    char tmpl[] = "/tmp/br-gitlib-XXXXXX";
    char *dir = mkdtemp(tmpl) ? br_strdup(tmpl) : NULL;
    cr_assert_not_null(dir);
    DIR *d = opendir(BR_FIXTURES_DIR "/history/runs");
    cr_assert_not_null(d);
    struct dirent *e;
    *n_out = 0;
    while ((e = readdir(d))) {
        if (!br_has_suffix(e->d_name, ".json"))
            continue;
        char *from = br_path_join(BR_FIXTURES_DIR "/history/runs", e->d_name);
        char *to = br_path_join(dir, e->d_name), *text = NULL;
        size_t len = 0;
        cr_assert_eq(br_read_file(&text, &len, from, 1 << 24), 0, "%s", br_error_get());
        FILE *f = fopen(to, "wb");
        cr_assert_not_null(f);
        cr_assert_eq(fwrite(text, 1, len, f), len);
        fclose(f);
        free(text), free(from), free(to);
        ++*n_out;
    }
    closedir(d);
    return dir;
}

Test(gitlib, one_start_per_process_whatever_uses_git) {
    cr_assert_eq(br_gitlib_init_count(), 0, "nothing started libgit2 yet");
    char id[41];
    for (int i = 0; i < 3; i++)
        cr_assert_eq(br_hash_blob(id, "abc", 3), 0, "%s", br_error_get());
    cr_assert_str_eq(id, "f2ba8f84ab5c1bce84a7b441cb1959cfc7093b7f", "git hash-object of 'abc'");
    br_gitinfo gi;
    for (int i = 0; i < 2; i++)
        cr_assert_eq(br_gitinfo_read(&gi, BR_SOURCE_DIR), 0, "%s", br_error_get());
    size_t n = 0;
    char *dir = copy_runs(&n);
    cr_assert_geq(n, 3, "the fixture has several files");
    br_index *ix = NULL;
    br_index_stats st;
    cr_assert_eq(br_index_open(&ix, dir), 0, "%s", br_error_get());
    cr_assert_eq(br_index_sync(ix, &st), 0, "%s", br_error_get());
    cr_assert_eq(st.parsed, n, "a cold index hashes and parses every file");
    br_index_close(ix);
    cr_assert_eq(br_gitlib_init_count(), 1, "libgit2 started %d times", br_gitlib_init_count());
    char *cmd = br_strfmt("rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    free(cmd);
    free(dir);
}

/* The runner's sources under `dir` (recursively) that call `fn`, other
 * than base/gitlib.c, appended to bad. */
static void scan(char *bad, size_t cap, const char *dir, const char *fn) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d, "%s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *path = br_path_join(dir, e->d_name), *text = NULL;
        size_t len = 0;
        if (!br_has_suffix(e->d_name, ".c") && !br_has_suffix(e->d_name, ".h")) {
            DIR *sub = opendir(path);
            if (sub) {
                closedir(sub);
                scan(bad, cap, path, fn);
            }
        } else if (!br_has_suffix(path, "/base/gitlib.c")) {
            cr_assert_eq(br_read_file(&text, &len, path, 1 << 24), 0, "%s", br_error_get());
            if (strstr(text, fn))
                snprintf(bad + strlen(bad), cap - strlen(bad), " %s", path);
            free(text);
        }
        free(path);
    }
    closedir(d);
}

Test(gitlib, only_gitlib_starts_or_stops_libgit2) {
    const char *fns[] = {"git_libgit2_init(", "git_libgit2_shutdown("};
    for (int i = 0; i < 2; i++) {
        char bad[4096] = "";
        scan(bad, sizeof bad, BR_SOURCE_DIR "/runner", fns[i]);
        scan(bad, sizeof bad, BR_SOURCE_DIR "/reporters", fns[i]);
        cr_assert_str_empty(bad, "%s called outside base/gitlib.c:%s", fns[i], bad);
    }
}
