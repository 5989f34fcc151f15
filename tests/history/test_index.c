/* SPDX-License-Identifier: Apache-2.0 */
/* test_index.c - the results directory's index (history/index.h): the
 * history read through it equals the history parsed from the files; a
 * changed file is read again, a touched one only hashed, a removed one
 * forgotten; a corrupt or foreign index is replaced; a bad file is noted;
 * the change point cache; and two processes refreshing one directory at
 * once (two nightlies) leave a consistent index. */
#include <criterion/criterion.h>

#include <sqlite3.h>
#include <sys/wait.h>
#include <utime.h>

#include "reporters/history_fixture.h"

TestSuite(index, .init = history_init, .fini = history_fini, .timeout = 240);

static br_index_stats sync_dir(const char *dir) {
    br_index *ix;
    br_index_stats st;
    cr_assert_eq(br_index_open(&ix, dir), 0, "%s", br_error_get());
    cr_assert_eq(br_index_sync(ix, &st), 0, "%s", br_error_get());
    br_index_close(ix);
    return st;
}

static void load(br_history *h, const char *dir, int use_index) {
    br_history_filter f = {0};
    f.use_index = use_index;
    cr_assert_eq(br_history_load(h, dir, &f), 0, "%s", br_error_get());
}

/* The same runs in the same order with the same values shown. */
static void same_history(const br_history *a, const br_history *b) {
    cr_assert_eq(a->n_runs, b->n_runs);
    for (size_t i = 0; i < a->n_runs; i++) {
        const br_run *x = &a->runs[i].run, *y = &b->runs[i].run;
        cr_assert_str_eq(x->suite_name, y->suite_name);
        cr_assert_str_eq(x->git.sha, y->git.sha);
        cr_assert_str_eq(x->date, y->date);
        cr_assert_str_eq(a->runs[i].path, b->runs[i].path);
        cr_assert_eq(x->n_cases, y->n_cases);
        cr_assert_eq(x->metric, y->metric);
        for (size_t c = 0; c < x->n_cases; c++) {
            double vx = br_history_case_value(x, &x->cases[c], x->metric);
            double vy = br_history_case_value(y, &y->cases[c], y->metric);
            cr_assert(vx == vy || (isnan(vx) && isnan(vy)), "run %zu case %zu: %g vs %g", i, c, vx,
                      vy);
            cr_assert_eq(x->cases[c].status, y->cases[c].status);
            const br_timing *tx = br_case_headline(x, &x->cases[c]);
            const br_timing *ty = br_case_headline(y, &y->cases[c]);
            cr_assert_eq(tx->n_samples, ty->n_samples);
            cr_assert(tx->stop == ty->stop, "stop %d vs %d", (int)tx->stop, (int)ty->stop);
        }
    }
}

Test(index, reads_what_the_files_hold) {
    write_history(tmp);
    br_history a, b, c;
    load(&a, tmp, 0);
    load(&b, tmp, 1); /* builds the index */
    cr_assert_not_null(b.index);
    cr_assert_eq(b.index_stats.parsed, 5);
    same_history(&a, &b);
    load(&c, tmp, 1); /* reads it */
    cr_assert_eq(c.index_stats.parsed, 0);
    cr_assert_eq(c.index_stats.files, 5);
    same_history(&a, &c);
    cr_assert_eq(a.n_files, c.n_files);
    br_history_dispose(&a);
    br_history_dispose(&b);
    br_history_dispose(&c);
}

/* A TFLOP/s run: the index keeps its metric, and the values it shows are
 * the files' (GFLOP/s / 1000). */
Test(index, keeps_a_tflops_run) {
    br_run sg;
    build_sgemm_h100(&sg);
    sg.metric = BR_METRIC_TFLOPS;
    write_doc(tmp, "2026-11-25T100000Z-ddddddd.json", &sg, 1);
    br_history a, b, c;
    load(&a, tmp, 0);
    load(&b, tmp, 1);
    load(&c, tmp, 1);
    cr_assert_eq(c.index_stats.parsed, 0, "read from the index");
    cr_assert_eq(a.n_runs, 1);
    cr_assert_eq(c.runs[0].run.metric, BR_METRIC_TFLOPS);
    same_history(&a, &c);
    const br_run *r = &c.runs[0].run;
    cr_expect_eq(br_history_case_value(r, &r->cases[1], r->metric), 2e9 / 250000.0 / 1000.0);
    br_history_dispose(&a);
    br_history_dispose(&b);
    br_history_dispose(&c);
    br_run_dispose(&sg);
}

Test(index, follows_the_files) {
    write_history(tmp);
    br_index_stats st = sync_dir(tmp);
    cr_assert_eq(st.parsed, 5);
    /* Touched, same content: hashed, not read. */
    char *lat = br_path_join(tmp, "latency.json");
    struct timespec later[2] = {{.tv_sec = 2000000000}, {.tv_sec = 2000000000}};
    cr_assert_eq(utimensat(AT_FDCWD, lat, later, 0), 0);
    st = sync_dir(tmp);
    cr_assert_eq(st.parsed, 0);
    cr_assert_eq(st.rehashed, 1);
    br_history a, b;
    load(&a, tmp, 0);
    load(&b, tmp, 1);
    same_history(&a, &b); /* its runs stay in the index */
    br_history_dispose(&a);
    br_history_dispose(&b);
    /* Changed: read again; removed: forgotten. */
    br_run red[4];
    build_reduction_history(red);
    write_doc(tmp, "latency.json", &red[0], 1);
    char *gone = br_path_join(tmp, "2026-11-20T100000Z-bbbbbbb.json");
    cr_assert_eq(unlink(gone), 0);
    st = sync_dir(tmp);
    cr_assert_eq(st.parsed, 1);
    cr_assert_eq(st.removed, 1);
    cr_assert_eq(st.files, 4);
    load(&a, tmp, 0);
    load(&b, tmp, 1);
    same_history(&a, &b);
    br_history_dispose(&a);
    br_history_dispose(&b);
    for (size_t k = 0; k < 4; k++)
        br_run_dispose(&red[k]);
    free(lat);
    free(gone);
}

static void write_text(const char *dir, const char *name, const char *text) {
    char *p = br_path_join(dir, name);
    FILE *f = fopen(p, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
    free(p);
}

Test(index, replaces_a_corrupt_index_and_leaves_a_foreign_database_alone) {
    write_history(tmp);
    write_text(tmp, BR_INDEX_NAME, "this is not a database, just text\n");
    br_index_stats st = sync_dir(tmp);
    cr_assert_eq(st.rebuilt, 1);
    cr_assert_eq(st.parsed, 5);
    cr_assert_eq(st.in_memory, 0);
    /* Another program's database at that name. */
    char *path = br_path_join(tmp, BR_INDEX_NAME);
    cr_assert_eq(unlink(path), 0);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(
        sqlite3_exec(db, "CREATE TABLE run(x); INSERT INTO run VALUES(1);", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    st = sync_dir(tmp);
    cr_assert_eq(st.rebuilt, 0, "another program's database was replaced");
    cr_assert_eq(st.in_memory, 1, "the index was not built in memory beside a foreign database");
    cr_assert_eq(st.parsed, 5);
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "SELECT x FROM run", NULL, NULL, NULL), SQLITE_OK,
                 "the foreign database was changed");
    sqlite3_close(db);
    cr_assert_eq(unlink(path), 0);
    st = sync_dir(tmp);
    cr_assert_eq(st.in_memory, 0);
    /* A truncated index: the first half of a good one. */
    struct stat sb;
    cr_assert_eq(stat(path, &sb), 0);
    cr_assert_eq(truncate(path, sb.st_size / 2), 0);
    br_history h;
    load(&h, tmp, 1);
    cr_assert_eq(h.n_runs, 6);
    br_history_dispose(&h);
    free(path);
}

Test(index, notes_bad_files_and_skips_them_when_lenient) {
    write_history(tmp);
    write_text(tmp, "truncated.json", "{\"schema_version\": 4, \"runs\": [");
    write_text(tmp, "foreign.json", "{\"name\": \"a package.json\", \"version\": \"1.0.0\"}\n");
    br_history h;
    br_history_filter f = {0};
    f.use_index = 1;
    cr_assert_eq(br_history_load(&h, tmp, &f), -1);
    char *foreign = br_path_join(tmp, "foreign.json");
    cr_assert(strncmp(br_error_get(), foreign, strlen(foreign)) == 0, "%s", br_error_get());
    br_history_dispose(&h);
    f.lenient = 1;
    f.suite = "reduction";
    cr_assert_eq(br_history_load(&h, tmp, &f), 0, "%s", br_error_get());
    cr_assert_eq(h.n_runs, 4);
    cr_assert_eq(h.n_skipped, 3, "%zu skipped", h.n_skipped);
    int saw_truncated = 0, saw_foreign = 0, saw_suite = 0;
    for (size_t i = 0; i < h.n_skipped; i++) {
        saw_truncated |= strstr(h.skipped[i], "truncated.json: ") != NULL;
        saw_foreign |= strstr(h.skipped[i], "foreign.json: ") != NULL;
        saw_suite |= strstr(h.skipped[i], "latency.json: runs of suite 'latency', not "
                                          "'reduction'") != NULL;
    }
    cr_assert(saw_truncated && saw_foreign && saw_suite, "%s | %s | %s", h.skipped[0], h.skipped[1],
              h.skipped[2]);
    br_history_dispose(&h);
    free(foreign);
}

Test(index, caches_change_points_per_series) {
    char *dir = step_history_dir();
    br_history h;
    load(&h, dir, 1);
    br_history_view v, w;
    cr_assert_eq(br_history_view_build(&v, &h, 0, h.n_runs, 0), 0);
    cr_assert_eq(br_history_view_changes(&v, NULL), 0, "%s", br_error_get());
    cr_assert_eq(v.n_changes, 3);
    sqlite3 *db;
    char *path = br_path_join(dir, BR_INDEX_NAME);
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db, "SELECT count(*) FROM cp", -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int(st, 0), 5); /* one series per case */
    sqlite3_finalize(st);
    /* A second view reads them back: the same change points. */
    cr_assert_eq(br_history_view_build(&w, &h, 0, h.n_runs, 0), 0);
    cr_assert_eq(br_history_view_changes(&w, NULL), 0, "%s", br_error_get());
    cr_assert_eq(w.n_changes, v.n_changes);
    for (size_t k = 0; k < v.n_changes; k++) {
        cr_assert_eq(w.changes[k].run, v.changes[k].run);
        cr_assert_eq(w.changes[k].row, v.changes[k].row);
        cr_assert_float_eq(w.changes[k].step, v.changes[k].step, 1e-15);
    }
    /* A tampered cache entry under the same hash is what the view shows:
     * proof that it was read, not recomputed. */
    cr_assert_eq(sqlite3_exec(db, "UPDATE cp SET cps = zeroblob(0)", NULL, NULL, NULL), SQLITE_OK);
    br_history_view_dispose(&w);
    cr_assert_eq(br_history_view_build(&w, &h, 0, h.n_runs, 0), 0);
    cr_assert_eq(br_history_view_changes(&w, NULL), 0, "%s", br_error_get());
    cr_assert_eq(w.n_changes, 0);
    sqlite3_close(db);
    br_history_view_dispose(&v);
    br_history_view_dispose(&w);
    br_history_dispose(&h);
    free(path);
    free(dir);
}

/* The runs the index at `path` holds of the files named WHO-*.json, and
 * of them those recorded as not a results document; -1 when it cannot be
 * read. */
static int own_runs(const char *path, const char *who, int *bad) {
    sqlite3 *db;
    sqlite3_stmt *st = NULL;
    int n = -1;
    char sql[256];
    snprintf(sql, sizeof sql,
             "SELECT (SELECT count(*) FROM run WHERE file LIKE '%s-%%'),"
             " (SELECT count(*) FROM file WHERE name LIKE '%s-%%' AND error IS NOT NULL)",
             who, who);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        return -1;
    sqlite3_busy_timeout(db, 60000);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
        n = sqlite3_column_int(st, 0);
        *bad = sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

/* One "nightly": write `n` results files of its own into dir, refreshing
 * the index after each; exits 0 when every refresh worked and, after each,
 * the index held every file this nightly had written (whatever the other
 * process did meanwhile: a sync never forgets a file that is there, nor
 * writes over a file's rows with what it read before the file changed). */
static void nightly(const char *dir, const char *who, size_t n) {
    br_run red[4];
    build_reduction_history(red);
    char *path = br_path_join(dir, BR_INDEX_NAME);
    for (size_t i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s-%02zu.json", who, i);
        write_doc(dir, name, &red[i % 4], 1);
        br_index *ix;
        if (br_index_open(&ix, dir) != 0 || br_index_sync(ix, NULL) != 0) {
            fprintf(stderr, "%s: %s\n", who, br_error_get());
            _exit(1);
        }
        br_index_close(ix);
        int bad = 0, runs = own_runs(path, who, &bad);
        if (runs != (int)i + 1 || bad != 0) {
            fprintf(stderr, "%s: after writing %s, its index held %d runs of its files (%d bad)\n",
                    who, name, runs, bad);
            _exit(2);
        }
    }
    free(path);
    for (size_t k = 0; k < 4; k++)
        br_run_dispose(&red[k]);
    _exit(0);
}

Test(index, two_nightlies_at_once_leave_a_consistent_index) {
    write_history(tmp);
    sync_dir(tmp);
    pid_t a = fork();
    if (a == 0)
        nightly(tmp, "night-a", 12);
    pid_t b = fork();
    if (b == 0)
        nightly(tmp, "night-b", 12);
    int sa, sb;
    cr_assert_eq(waitpid(a, &sa, 0), a);
    cr_assert_eq(waitpid(b, &sb, 0), b);
    cr_assert(WIFEXITED(sa) && WEXITSTATUS(sa) == 0, "nightly a failed");
    cr_assert(WIFEXITED(sb) && WEXITSTATUS(sb) == 0, "nightly b failed");
    /* SQLite finds no damage, every file is in it once, and it reads as
     * the files do. */
    char *path = br_path_join(tmp, BR_INDEX_NAME);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *st;
    cr_assert_eq(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_str_eq((const char *)sqlite3_column_text(st, 0), "ok");
    sqlite3_finalize(st);
    cr_assert_eq(
        sqlite3_prepare_v2(db, "SELECT count(*), count(DISTINCT file) FROM run", -1, &st, NULL),
        SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_assert_eq(sqlite3_column_int(st, 0), 30); /* 4 + 2 + 24 runs */
    cr_assert_eq(sqlite3_column_int(st, 1), 29); /* 5 + 24 files */
    sqlite3_finalize(st);
    sqlite3_close(db);
    br_history a_h, b_h;
    load(&a_h, tmp, 0);
    load(&b_h, tmp, 1);
    cr_assert_eq(b_h.index_stats.parsed, 0, "the nightlies left %zu files unindexed",
                 b_h.index_stats.parsed);
    same_history(&a_h, &b_h);
    br_history_dispose(&a_h);
    br_history_dispose(&b_h);
    free(path);
}

Test(index, a_read_only_directory_gets_an_index_in_memory) {
    if (geteuid() == 0) {
        /* root writes anywhere: make the directory unusable another way. */
        cr_skip_test("running as root: a read-only directory is writable");
    }
    write_history(tmp);
    cr_assert_eq(chmod(tmp, 0555), 0);
    br_history h;
    load(&h, tmp, 1);
    cr_assert_eq(h.index_stats.in_memory, 1);
    cr_assert_eq(h.n_runs, 6);
    br_history_dispose(&h);
    cr_assert_eq(chmod(tmp, 0755), 0);
}
