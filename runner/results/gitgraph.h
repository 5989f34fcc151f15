/* SPDX-License-Identifier: Apache-2.0 */
/* The commit graph of a repository, asked whether one commit
 * is an ancestor of another: what orders runs whose commits have the same
 * committer time (a rebase, a scripted series of commits) in `history`,
 * `--plot` and `publish`. Through libgit2 (git_graph_descendant_of). */
#ifndef BR_GITGRAPH_H
#define BR_GITGRAPH_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct br_gitgraph br_gitgraph;

/* Open the repository holding `path` (searched upward as git does) into
 * *out (br_gitgraph_close frees it). Returns 0, or -1 when there is none
 * (no error kept: a history outside git orders as before). */
int br_gitgraph_open(br_gitgraph **out, const char *path);

/* 1 when the commit of full SHA `anc` is a proper ancestor of that of
 * `desc`, 0 when not, -1 when either is not in the repository. */
int br_gitgraph_is_ancestor(br_gitgraph *g, const char *anc, const char *desc);

/* Close g; accepts NULL. */
void br_gitgraph_close(br_gitgraph *g);

#ifdef __cplusplus
}
#endif
#endif
