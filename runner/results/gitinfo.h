/* SPDX-License-Identifier: Apache-2.0 */
/* The git commit a suite was run at, read through libgit2. */
#ifndef BR_GITINFO_H
#define BR_GITINFO_H

#include "model/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Describe the repository that holds `path` (a file or directory; the search
 * walks up from it as git does) into *out. Not being in a repository is not
 * an error: out->present = 0. Starts libgit2 (base/gitlib.h). Returns 0, or -1
 * with the error set (a repository that libgit2 cannot read). */
int br_gitinfo_read(br_gitinfo *out, const char *path);

#ifdef __cplusplus
}
#endif
#endif
