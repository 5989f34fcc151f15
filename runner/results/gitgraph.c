/* SPDX-License-Identifier: Apache-2.0 */
/* Ancestry in the commit graph (gitgraph.h). */
#include "gitgraph.h"

#include <git2.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/gitlib.h"

struct br_gitgraph {
    git_repository *repo;
};

int br_gitgraph_open(br_gitgraph **out, const char *path) {
    *out = NULL;
    if (br_gitlib_init() != 0) /* started once per process (base/gitlib.h) */
        return -1;
    br_gitgraph *g = calloc(1, sizeof *g);
    if (!g || git_repository_open_ext(&g->repo, path, 0, NULL) != 0) {
        free(g);
        return -1;
    }
    *out = g;
    return 0;
}

int br_gitgraph_is_ancestor(br_gitgraph *g, const char *anc, const char *desc) {
    git_oid a, d;
    if (git_oid_fromstrp(&a, anc) != 0 || git_oid_fromstrp(&d, desc) != 0)
        return -1;
    if (git_oid_equal(&a, &d))
        return 0;
    int rc = git_graph_descendant_of(g->repo, &d, &a);
    return rc < 0 ? -1 : rc;
}

void br_gitgraph_close(br_gitgraph *g) {
    if (!g)
        return;
    git_repository_free(g->repo);
    free(g);
}
