/* SPDX-License-Identifier: Apache-2.0 */
/* The index of a results directory: each results file's
 * per-case summaries, read once and kept in SQLite beside the files
 * (DIR/.benchrun-index.sqlite), so that `benchrun history` and `benchrun
 * publish` read a year of nightlies in a second instead of parsing every
 * file again; and the change points of each case, cached per series.
 *
 * Choices made here:
 *   - The JSON files stay the record. The index holds what the history's
 *     views show (per run: suite, date, git, device, metric, parameter
 *     and kernel names; per case: status, the headline timing's median,
 *     quartiles, confidence interval, noise, sample count and stop reason,
 *     GB/s, GFLOP/s, % of peak), never the samples. It can be deleted at
 *     any time and is rebuilt from the files.
 *   - A file is read again when its size, modification time or inode
 *     changed and its content did not stay the same (the git blob id of
 *     its bytes, base/util.h br_hash_blob); a file that left the directory
 *     leaves the index. A file that is not a results document is recorded
 *     with its message, so that it is not parsed again until it changes.
 *   - An index that SQLite cannot read (corrupt, truncated, not a
 *     database), that another program made (its application_id), or of
 *     another layout (user_version) is never trusted: it is replaced by a
 *     new one, built from the files.
 *   - Concurrent processes (two nightlies finishing at once, a publish
 *     during a history) rely on SQLite's own locking: a sync that has
 *     files to store or forget does it all in one transaction (BEGIN
 *     IMMEDIATE, a busy timeout of 60 s), in which the new and changed
 *     files are read in batches on a thread per CPU (a cold year of
 *     nightlies is parse-bound; issue 43). The listing and the rows read
 *     before it are older than that lock, and so may be a file's bytes
 *     against its writer, so under it the sync checks them again: a file is
 *     stored only if its stat (size, mtime, inode, taken before reading
 *     it) is still the file's, else read again (a few times; a file still
 *     being written is left to the next sync); a row is removed only if
 *     its file is absent then. So a sync never writes over a newer reading
 *     of another process, nor forgets a file written since its listing.
 *     Files written atomically (temp + rename, base/files.h) are whole or
 *     absent; their temporary names start with '.' and are never indexed.
 *   - A directory where the index cannot be written (read-only) gets an
 *     index in memory for this process, with a note saying so.
 *
 * SQLite: https://sqlite.org (libsqlite3, the embedded default). */
#ifndef BR_HISTORY_INDEX_H
#define BR_HISTORY_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "changepoint.h"
#include "model/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The index's file name inside the results directory. */
#define BR_INDEX_NAME ".benchrun-index.sqlite"

/* The layout of the index (PRAGMA user_version); another is rebuilt. */
#define BR_INDEX_VERSION 1

typedef struct br_index br_index;

/* What br_index_sync did. */
typedef struct br_index_stats {
    size_t files;    /* *.json files in the directory */
    size_t parsed;   /* of them, read (new or changed) */
    size_t rehashed; /* of them, touched but with the same content (not read again) */
    size_t removed;  /* index entries of files that left the directory */
    size_t bad;      /* files that are not results documents (br_index_bad) */
    int rebuilt;     /* 1: an unreadable or foreign index was replaced */
    int in_memory;   /* 1: the index could not be written beside the files */
} br_index_stats;

/* Open the index of `dir` (creating it, or replacing one that cannot be
 * trusted, as above) into *out (br_index_close frees it). Returns 0, or -1
 * with the error set: "DIR: cannot open directory: ...", out of memory, or
 * an SQLite error that an index in memory did not avoid ("DIR/NAME: ..."). */
int br_index_open(br_index **out, const char *dir);

/* Bring the index up to date with the *.json files directly in its
 * directory (names starting with '.' ignored), as described above; *st
 * (may be NULL) gets the counts. On 0, every such file that was in the
 * directory when the sync began and did not change while it ran is in the
 * index with its current content (another process's files that appear
 * meanwhile are that process's sync's). Returns 0, or -1 with the error
 * set (an SQLite error, a file that cannot be read: "PATH: cannot read:
 * ..."). */
int br_index_sync(br_index *ix, br_index_stats *st);

/* The files of the index that are not results documents, in name order:
 * *n_out messages ("PATH: why", as br_results_load gives it), owned by ix
 * and valid until the next call of br_index_sync or br_index_close. */
const char *const *br_index_bad(const br_index *ix, size_t *n_out);

/* One run as the index gives it back. */
typedef struct br_index_run {
    br_run run;   /* owned; the summaries only: no samples, no comparison */
    char *path;   /* owned; DIR/NAME of its file */
    size_t index; /* its position among the runs of that file */
} br_index_run;

/* Every run of the index (of `suite` only, when not NULL) into *out
 * (caller frees with br_index_runs_free), in file name order, then order
 * within the file. Each run carries what the views read: suite_name, date,
 * git (present, unborn, sha, short_sha, branch, dirty, commit_time), the
 * device's name (has_device) or the host's CPU model, metric,
 * measure.headline, peak_gbps, peak_gflops, param_names, kernels (name,
 * backend) and per case kernel, params, status, stage, message, bytes,
 * flops, gbps, gflops, pct_peak and the headline timing (present,
 * n_samples, stats: n, median, q1, q3, iqr, ci_low, ci_high, noise, min,
 * max, mean, stddev; stop_reason). Returns 0, or -1 with the error set. */
int br_index_runs(br_index_run **out, size_t *n_out, br_index *ix, const char *suite);

/* Free n runs of br_index_runs; accepts NULL. */
void br_index_runs_free(br_index_run *runs, size_t n);

/* The cached change points of one series: the case `key` (gate/case_key.h)
 * of `suite` on `device`, valid while `hash` (of the series and the
 * parameters, br_index_series_hash) is the one stored. 1 and *out (caller
 * frees; NULL when none) with *n_out, 0 when nothing valid is cached, -1
 * with the error set. */
int br_index_cp_get(br_changepoint **out, size_t *n_out, br_index *ix, const char *suite,
                    const char *device, const char *key, uint64_t hash);

/* Store the change points cps[0..n) of that series under `hash`, replacing
 * what was there. Calls between br_index_cp_begin and br_index_cp_end
 * share one transaction. Returns 0, or -1 with the error set. */
int br_index_cp_put(br_index *ix, const char *suite, const char *device, const char *key,
                    uint64_t hash, const br_changepoint *cps, size_t n);
int br_index_cp_begin(br_index *ix);
int br_index_cp_end(br_index *ix);

/* FNV-1a (64 bits) of x[0..n) and the parameters *cfg: the key of a
 * series in the change point cache. */
uint64_t br_index_series_hash(const double *x, size_t n, const br_changepoint_cfg *cfg);

/* The directory and the index file's path of ix, borrowed. */
const char *br_index_dir(const br_index *ix);
const char *br_index_path(const br_index *ix);

/* Close the index; accepts NULL. */
void br_index_close(br_index *ix);

#ifdef __cplusplus
}
#endif
#endif
