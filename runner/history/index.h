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
 *   - The index is never trusted and never fatal. On open, SQLite's
 *     quick_check and the shape of every table (each column read) are
 *     checked; every value read back is checked before use (indexes in
 *     range, counts, names, finite or missing numbers, a file name that
 *     stays in the folder). Any damage (not a database, a corrupt page, a
 *     missing table or column, another layout, an unexpected value) means
 *     a rebuild from the files, with a note saying why, never an exit.
 *   - A database at the index's name that another program made (another
 *     application_id), or a symbolic link or anything but a regular file
 *     there, is left alone, with a note; the index is built in memory.
 *   - Concurrent processes (two nightlies finishing at once, a publish
 *     during a history) rely on SQLite's own locking: a sync that has
 *     files to store or forget does it all in one transaction (BEGIN
 *     IMMEDIATE; a writer waits up to 60 s for another, saying so after a
 *     second, then builds in memory), in which the new and changed files
 *     are read in batches on a thread per CPU (a cold year of nightlies is
 *     parse-bound; issue 43). The listing and the rows read before it are
 *     older than that lock, and so may be a file's bytes against its
 *     writer, so under it the sync checks them again: a file is
 *     stored only if its stat (size, mtime, inode, taken before reading
 *     it) is still the file's, else read again (a few times; a file still
 *     being written is left to the next sync); a row is removed only if
 *     its file is absent then. So a sync never writes over a newer reading
 *     of another process, nor forgets a file written since its listing.
 *     Files written atomically (temp + rename, base/files.h) are whole or
 *     absent; their temporary names start with '.' and are never indexed.
 *   - On a network file system (NFS, SMB/CIFS: statfs's f_type) SQLite's
 *     locks cannot be relied on (https://sqlite.org/faq.html#q5, "file
 *     locking is broken on many NFS implementations"; and
 *     https://sqlite.org/howtocorrupt.html, section 2.1), so the index is
 *     not kept beside the files there but in the user's cache
 *     ($XDG_CACHE_HOME/benchrun/index/HASH.sqlite, HASH that of the
 *     folder's real path): on a local disk, one per host and user. The
 *     JSON files stay the record, so each host's index is a faithful
 *     cache of them. BENCHRUN_INDEX_NETWORK_FS set in the environment
 *     treats every folder as one (a shared file system statfs does not
 *     name: Lustre, GPFS, BeeGFS).
 *   - A folder where the index cannot be written (read-only, or an index
 *     file this user may not write, as in a group-shared folder made by
 *     another user) gets an index in memory for this process, with a note.
 *     A new index in a group-writable folder is made group-writable.
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

/* After a call on ix failed: when the failure was the index's own (damage:
 * a corrupt page, a table gone, an unexpected value; or trouble: busy past
 * the wait, an I/O error, read-only), say so on the log and replace it by a
 * new empty index (damage), or by one in memory for this run (trouble, or
 * when the file cannot be made again); the caller syncs again. Returns 0
 * when it did, -1 when the failure was not the index's (a results file
 * that cannot be read, out of memory: the error stays) or the new index
 * could not be made (error set). */
int br_index_recover(br_index *ix);

/* 1 when dir is on a network file system (see above), else 0. */
int br_index_on_network_fs(const char *dir);

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

/* The cached change points of one series of n_series values: the case
 * `key` (gate/case_key.h) of `suite` on `device`, valid while `hash` (of the
 * series and the parameters, br_index_series_hash) is the one stored and
 * every change point read is one of that series (indexes within it and in
 * order, finite levels, p and q in [0, 1]). 1 and *out (caller frees; NULL
 * when none) with *n_out, 0 when nothing valid is cached, -1 with the error
 * set. */
int br_index_cp_get(br_changepoint **out, size_t *n_out, br_index *ix, const char *suite,
                    const char *device, const char *key, uint64_t hash, size_t n_series);

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
