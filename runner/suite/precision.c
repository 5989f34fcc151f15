/* SPDX-License-Identifier: Apache-2.0 */
/* Reading the suite key `precision` (precision.h). */
#include "precision.h"

#include <stdlib.h>
#include <string.h>

#include "base/sort.h"
#include "keys.h"
#include "scalar.h"

/* One precision name at v into *out: any of br_precision_names but "none". */
static int get_precision(br_precision *out, const br_node *v) {
    int p = 0;
    if (br_get_name(&p, v, br_precision_names, BR_PRECISION_NONE, "precision",
                    "a precision (fp32, fp16-tensor, ...)") < 0)
        return -1;
    *out = (br_precision)p;
    return 0;
}

static int cmp_kernel(size_t i, size_t j, void *ctx) {
    const br_located *k = ctx;
    return strcmp(k[i].text, k[j].text);
}

/* br_key_cmp of a scalar node with kernel i (ctx: the suite's kernels). */
static int cmp_node_kernel(const void *key, size_t i, void *ctx) {
    const br_node *k = key;
    const char *t = ((const br_located *)ctx)[i].text;
    size_t tl = strlen(t), n = k->len < tl ? k->len : tl;
    int c = memcmp(k->text, t, n);
    return c ? c : (k->len > tl) - (k->len < tl);
}

/* The mapping form: kernel -> precision. */
static int load_by_kernel(br_suite *s, const br_node *v) {
    if (br_keys_check(v, NULL, 0, " in precision") < 0)
        return -1;
    size_t *sorted = br_sorted_index(s->n_kernels, cmp_kernel, s->kernels);
    if (!sorted)
        return br_error_at(v->pos, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < br_map_size(v) && rc == 0; i++) {
        const br_node *k = br_map_key(v, i);
        size_t idx = br_sorted_find(sorted, s->n_kernels, k, cmp_node_kernel, s->kernels);
        if (idx == (size_t)-1) {
            char q[BR_SHOW_MAX + 16];
            br_show_node(q, sizeof q, k);
            rc = br_error_at(k->pos,
                             "precision names kernel %s, which is not in the suite's kernels", q);
        } else {
            rc = get_precision(&s->precision[idx], br_map_value(v, i));
        }
    }
    free(sorted);
    return rc;
}

int br_suite_precision_load(br_suite *s, const br_node *v) {
    if (s->n_kernels == 0)
        return br_error_at(v->pos, "precision needs the suite's 'kernels' list");
    s->precision = calloc(s->n_kernels, sizeof *s->precision); /* BR_PRECISION_NONE */
    if (!s->precision)
        return br_error_at(v->pos, "out of memory");
    if (v->kind == BR_NODE_MAP)
        return load_by_kernel(s, v);
    if (v->kind != BR_NODE_SCALAR)
        return br_expected(v, "a precision (fp32, fp16-tensor, ...) or a mapping of kernel "
                              "names to precisions");
    br_precision all = BR_PRECISION_NONE;
    if (get_precision(&all, v) < 0)
        return -1;
    for (size_t i = 0; i < s->n_kernels; i++)
        s->precision[i] = all;
    return 0;
}
