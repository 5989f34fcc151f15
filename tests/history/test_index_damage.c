/* SPDX-License-Identifier: Apache-2.0 */
/* test_index_damage.c - the index is never trusted and never fatal: one bit
 * flipped at every 4 KiB of an index file (and at the middle of each 4 KiB,
 * where records lie), each read by `benchrun history --changes` and by
 * `benchrun publish`: no crash and no failure; each reader shows the
 * history the files hold, or says that it rebuilt the index or did not use
 * it (before: a flipped change point index crashed both on every run, and
 * a damaged page made them exit 2 until the file was deleted). Also: a
 * table dropped, another layout, a symbolic link at the index's name, a
 * reader that may not write the index, and an index on a network file
 * system (kept in the user's cache). */
#include <criterion/criterion.h>

#include <sqlite3.h>
#include <sys/stat.h>

#include "reporters/history_fixture.h"

TestSuite(index_damage, .init = history_init, .fini = history_fini, .timeout = 600);

static e2e_result run(const char *const *args) {
    e2e_result r = {0};
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    return r;
}

/* Whether a reader's messages say that it rebuilt the index or did not
 * use it (a note of base/log). */
static int said_so(const char *err) {
    return strstr(err, "rebuilt") || strstr(err, "in memory") || strstr(err, "not used");
}

static void copy_file(const char *from, const char *to) {
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(br_read_file(&text, &len, from, 1 << 26), 0);
    FILE *f = fopen(to, "wb");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(text, 1, len, f), len);
    cr_assert_eq(fclose(f), 0);
    free(text);
}

/* Flip bit (offset % 8) of the byte at offset in path. */
static void flip(const char *path, long offset) {
    FILE *f = fopen(path, "r+b");
    cr_assert_not_null(f);
    cr_assert_eq(fseek(f, offset, SEEK_SET), 0);
    int c = fgetc(f);
    cr_assert_neq(c, EOF);
    cr_assert_eq(fseek(f, offset, SEEK_SET), 0);
    fputc(c ^ (1 << (offset % 8)), f);
    cr_assert_eq(fclose(f), 0);
}

Test(index_damage, a_bit_flipped_at_every_4_kib_never_crashes_a_reader) {
    char *dir = step_history_dir(), *site = br_path_join(tmp, "site");
    char *index = br_path_join(dir, BR_INDEX_NAME), *pristine = br_path_join(tmp, "pristine");
    const char *history[] = {"history", "--changes", dir, NULL};
    const char *publish[] = {"publish", "-o", site, dir, NULL};
    e2e_result first = run(history); /* builds the index and its change point cache */
    cr_assert_eq(first.status, 0, "%s", first.err);
    copy_file(index, pristine);
    struct stat st;
    cr_assert_eq(stat(index, &st), 0);
    int flips = 0, same = 0, said = 0, silent = 0, published = 0;
    for (long base = 0; base < st.st_size; base += 4096) {
        for (long off = base; off < base + 4096 && off < st.st_size; off += 2048) {
            flips++;
            copy_file(pristine, index);
            flip(index, off);
            e2e_result h = run(history);
            cr_expect_eq(h.status, 0, "offset %ld: history exit %d:\n%s", off, h.status, h.err);
            int shown_same = h.out && strcmp(h.out, first.out) == 0;
            same += shown_same;
            said += said_so(h.err);
            if (!shown_same && !said_so(h.err)) {
                silent++;
                cr_log_info("offset %ld: the history differs and nothing was said", off);
            }
            e2e_free(&h);
            copy_file(pristine, index);
            flip(index, off);
            e2e_result p = run(publish);
            cr_expect_eq(p.status, 0, "offset %ld: publish exit %d:\n%s", off, p.status, p.err);
            published += p.status == 0;
            e2e_free(&p);
        }
    }
    fprintf(stderr,
            "index of %lld bytes, %d flips: history exit 0 and the same table %d, said it "
            "rebuilt or fell back %d, differed silently %d; publish exit 0 %d\n",
            (long long)st.st_size, flips, same, said, silent, published);
    cr_expect_eq(silent, 0, "%d flips changed the history without a word", silent);
    cr_expect_eq(published, flips);
    e2e_free(&first);
    free(dir);
    free(site);
    free(index);
    free(pristine);
}

/* Damage SQLite's own checks do not see: a table gone, another layout, a
 * change point index beyond the series. Each: rebuilt, said, and the
 * history as the files hold it. */
Test(index_damage, a_dropped_table_another_layout_or_a_bad_cached_value_is_rebuilt) {
    char *dir = step_history_dir(), *index = br_path_join(dir, BR_INDEX_NAME);
    const char *history[] = {"history", "--changes", dir, NULL};
    e2e_result first = run(history);
    cr_assert_eq(first.status, 0, "%s", first.err);
    const char *sql[] = {"DROP TABLE kase", "PRAGMA user_version = 99",
                         "UPDATE cp SET cps = zeroblob(56)", "UPDATE kase SET kernel = 7",
                         "UPDATE run SET file = '../x.json'"};
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++) {
        sqlite3 *db;
        cr_assert_eq(sqlite3_open(index, &db), SQLITE_OK);
        cr_assert_eq(sqlite3_exec(db, sql[i], NULL, NULL, NULL), SQLITE_OK, "%s", sql[i]);
        sqlite3_close(db);
        e2e_result h = run(history);
        cr_expect_eq(h.status, 0, "%s: exit %d:\n%s", sql[i], h.status, h.err);
        cr_expect_str_eq(h.out, first.out, "%s: another history", sql[i]);
        /* zeroblob(56): one change point at index 0, last 0: not one the
         * series can have; it is computed again, as a cache miss. */
        if (i != 2)
            cr_expect(said_so(h.err), "%s: nothing said:\n%s", sql[i], h.err);
        e2e_free(&h);
    }
    e2e_free(&first);
    free(dir);
    free(index);
}

/* A symbolic link at the index's name is left alone (never written
 * through); a reader that may not write the folder's index builds in
 * memory; both say so. */
Test(index_damage, a_symbolic_link_or_a_read_only_index_is_left_alone_and_said) {
    char *dir = step_history_dir(), *index = br_path_join(dir, BR_INDEX_NAME);
    char *outside = br_path_join(tmp, "outside.sqlite");
    cr_assert_eq(symlink(outside, index), 0);
    const char *history[] = {"history", dir, NULL};
    e2e_result h = run(history);
    cr_expect_eq(h.status, 0, "%s", h.err);
    cr_expect(strstr(h.err, "a symbolic link: left alone"), "%s", h.err);
    struct stat st;
    cr_expect_neq(stat(outside, &st), 0, "the index was written through the link");
    cr_expect_eq(lstat(index, &st), 0);
    cr_expect(S_ISLNK(st.st_mode));
    e2e_free(&h);
    cr_assert_eq(unlink(index), 0);
    h = run(history);
    cr_assert_eq(h.status, 0, "%s", h.err);
    e2e_free(&h);
    /* The index of another user, as in a group-shared folder: not writable
     * by this one (root writes anything, so a child gives up root). */
    if (geteuid() != 0) {
        cr_log_info("the read-only case needs root to change user; skipped");
    } else {
        cr_assert_eq(chmod(tmp, 0755), 0);
        cr_assert_eq(chmod(dir, 0777), 0);
        char *json = br_path_join(dir, "run-31.json");
        copy_file(br_path_join(dir, "run-30.json"), json); /* a new file to index */
        chmod(json, 0644);
        pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(3);
            e2e_result r = {0};
            if (e2e_run(&r, "/", history) != 0)
                _exit(4);
            if (r.status != 0 || !strstr(r.err, "not writable by this user"))
                fprintf(stderr, "another user's history: exit %d:\n%s", r.status, r.err);
            _exit(r.status != 0 ? 1 : strstr(r.err, "not writable by this user") ? 0 : 2);
        }
        int wst;
        waitpid(pid, &wst, 0);
        cr_expect(WIFEXITED(wst) && WEXITSTATUS(wst) == 0,
                  "another user's history: %d (1 failed, 2 said nothing)", WEXITSTATUS(wst));
        free(json);
    }
    free(dir);
    free(index);
    free(outside);
}

/* On a network file system the index is kept in the user's cache, not
 * beside the files (SQLite's locks are not reliable there). */
Test(index_damage, on_a_network_file_system_the_index_lives_in_the_users_cache) {
    char *dir = step_history_dir(), *cache = br_path_join(tmp, "xdg");
    setenv("BENCHRUN_INDEX_NETWORK_FS", "1", 1);
    setenv("XDG_CACHE_HOME", cache, 1);
    const char *history[] = {"history", dir, NULL};
    e2e_result h = run(history);
    unsetenv("BENCHRUN_INDEX_NETWORK_FS");
    cr_expect_eq(h.status, 0, "%s", h.err);
    char *beside = br_path_join(dir, BR_INDEX_NAME);
    cr_expect_neq(access(beside, F_OK), 0, "an index was made beside the files");
    char *cmd = br_strfmt("ls '%s'/benchrun/index/*.sqlite >/dev/null 2>&1", cache);
    cr_expect_eq(system(cmd), 0, "no index in the user's cache");
    e2e_free(&h);
    free(cmd);
    free(beside);
    free(dir);
    free(cache);
}
