/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun init` does: write the files of a new kernel
 * repository (a suite, a host and a GPU kernel module, the suite schema,
 * baselines/, a GitHub Actions workflow) into a directory, never over
 * anything: every target is checked first, and when one exists nothing is
 * written. */
#ifndef BR_SCAFFOLD_H
#define BR_SCAFFOLD_H

#include <stddef.h>

/* One file of the scaffold. */
typedef struct br_scaffold_file {
    const char *path; /* relative to the target directory, '/'-separated: "suites/example.yaml" */
    const char *data; /* its bytes (NUL-terminated too) */
    size_t len;       /* bytes, without the terminating NUL */
} br_scaffold_file;

/* Write files[0..n) (at most 64) under dir ("." for the current
 * directory), making the folders they need. Checks every target first:
 * each that exists (a file, a folder or a link, even a dangling one), and a
 * file where a folder must go, is named on stderr ("benchrun init: ...")
 * and nothing is written. Each file is written new (br_write_new: never
 * replacing one that appeared since the check); when a write fails, what
 * was made is removed again. Prints what was made and the next commands on
 * stdout. Returns the exit status: 0 written, 2 a target in the way, a
 * write that failed, or out of memory. */
int br_scaffold_write(const char *dir, const br_scaffold_file *files, size_t n);

#endif
