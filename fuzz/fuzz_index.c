/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_index.c - libFuzzer target over the history index's rows: an input
 * is the bytes of an index file (.benchrun-index.sqlite), put in a results
 * folder holding the history fixtures' files; its rows are read as they are
 * (br_index_runs, the change point cache), then the folder's history is
 * loaded through it (checked, rebuilt or moved to memory, never trusted),
 * viewed, and its change points found through the cache.
 *
 *   scripts/fuzz.sh 20 fuzz_index
 *   build-fuzz/fuzz/fuzz_index CRASH_FILE   # replay one input */
#include <dirent.h>
#include <git2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/files.h"
#include "base/log.h"
#include "history/history.h"
#include "history/index.h"

static char dir[256], db[300];

static void quiet(void *ctx, br_log_level level, const char *msg) {
    (void)ctx;
    (void)level;
    (void)msg;
}

static void cleanup(void) {
    git_libgit2_shutdown();
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[600];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* The history fixtures' files copied into dir. */
static void copy_fixtures(void) {
    const char *from = BR_FUZZ_FIXTURES "/history/runs";
    DIR *d = opendir(from);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char src[600], dst[600], *text = NULL;
        size_t len = 0;
        snprintf(src, sizeof src, "%s/%s", from, e->d_name);
        snprintf(dst, sizeof dst, "%s/%s", dir, e->d_name);
        FILE *f = br_read_file(&text, &len, src, 1 << 24) == 0 ? fopen(dst, "wb") : NULL;
        if (f) {
            fwrite(text, 1, len, f);
            fclose(f);
        }
        free(text);
    }
    if (d)
        closedir(d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/br_fuzz_index.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    snprintf(db, sizeof db, "%s/%s", dir, BR_INDEX_NAME);
    copy_fixtures();
    br_log_set_sink(quiet, NULL);
    atexit(cleanup);
    /* Hold libgit2 initialized: br_hash_blob's own init/shutdown pair would
     * otherwise set up (and tear down) its TLS library for every file. */
    git_libgit2_init();
    return 0;
}

/* The rows as they are: runs, and a change point cache entry. */
static void read_rows(void) {
    br_index *ix = NULL;
    if (br_index_open(&ix, dir) != 0)
        return;
    br_index_run *runs = NULL;
    size_t n = 0;
    if (br_index_runs(&runs, &n, ix, NULL) == 0)
        br_index_runs_free(runs, n);
    br_changepoint *cps = NULL;
    size_t n_cps = 0;
    if (br_index_cp_get(&cps, &n_cps, ix, "reduction", "NVIDIA H100 80GB HBM3", "k", 0, 4) > 0)
        free(cps);
    br_index_close(ix);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char journal[320];
    snprintf(journal, sizeof journal, "%s-journal", db);
    unlink(journal);
    FILE *f = fopen(db, "wb");
    if (!f)
        return 0;
    size_t put = fwrite(data, 1, size, f);
    if (fclose(f) != 0 || put != size)
        return 0;
    read_rows();
    /* The seed's cache, as written: the file again, read by a history. */
    f = fopen(db, "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
    br_history h;
    br_history_filter flt = {0};
    flt.use_index = 1;
    flt.lenient = 1;
    if (br_history_load(&h, dir, &flt) == 0 && h.n_runs > 0) {
        br_history_view v;
        if (br_history_view_build(&v, &h, 0, 1, 1) == 0) {
            br_history_view_changes(&v, NULL);
            br_history_view_dispose(&v);
        }
    }
    br_history_dispose(&h);
    return 0;
}
