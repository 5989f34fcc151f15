/* SPDX-License-Identifier: Apache-2.0 */
/* Devices and case keys of baselines (case_key.h). */
#include "case_key.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

const char *br_baseline_device(const br_run *r) {
    if (r->has_device && r->device.name[0])
        return r->device.name;
    if (r->host.cpu_model[0])
        return r->host.cpu_model;
    return "host";
}

void br_baseline_file_name(char *buf, size_t len, const char *device) {
    if (len == 0)
        return;
    size_t n = 0;
    int gap = 0;
    for (const char *p = device ? device : ""; *p && n + 1 < len; p++) {
        unsigned char ch = (unsigned char)*p;
        int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                   (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
        if (!keep) {
            gap = n > 0;
            continue;
        }
        if (gap && n + 2 < len)
            buf[n++] = '-';
        gap = 0;
        buf[n++] = (char)ch;
    }
    buf[n] = '\0';
    /* "." and ".." are not file names to write. */
    if (n == 0 || strcmp(buf, ".") == 0 || strcmp(buf, "..") == 0)
        snprintf(buf, len, "unknown");
}

static const char *const *sort_keys; /* qsort has no context argument */

static int cmp_order(const void *a, const void *b) {
    return strcmp(sort_keys[*(const size_t *)a], sort_keys[*(const size_t *)b]);
}

void br_case_keys_dispose(br_case_keys *k) {
    for (size_t i = 0; k->keys && i < k->n; i++)
        free(k->keys[i]);
    free(k->keys);
    free(k->order);
    memset(k, 0, sizeof *k);
}

int br_case_keys_build(br_case_keys *out, const br_run *r) {
    memset(out, 0, sizeof *out);
    out->keys = calloc(r->n_cases ? r->n_cases : 1, sizeof *out->keys);
    out->order = calloc(r->n_cases ? r->n_cases : 1, sizeof *out->order);
    if (!out->keys || !out->order) {
        br_case_keys_dispose(out);
        return br_error_nomem();
    }
    out->n = r->n_cases;
    for (size_t i = 0; i < r->n_cases; i++) {
        if (!(out->keys[i] = br_baseline_case_key(r, &r->cases[i]))) {
            br_case_keys_dispose(out);
            return -1;
        }
        out->order[i] = i;
    }
    sort_keys = (const char *const *)out->keys;
    qsort(out->order, out->n, sizeof *out->order, cmp_order);
    sort_keys = NULL;
    return 0;
}

size_t br_case_keys_find(const br_case_keys *k, const char *key, const unsigned char *used) {
    size_t lo = 0, hi = k->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(k->keys[k->order[mid]], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < k->n && strcmp(k->keys[k->order[lo]], key) == 0; lo++)
        if (!used || !used[k->order[lo]])
            return k->order[lo];
    return SIZE_MAX;
}

char *br_baseline_case_key(const br_run *r, const br_case_result *c) {
    const char *kernel =
        c->kernel < r->n_kernels && r->kernels[c->kernel].name ? r->kernels[c->kernel].name : "?";
    size_t cap = strlen(kernel) + 1;
    for (size_t p = 0; p < r->n_params; p++)
        cap += strlen(r->param_names[p]) + 24;
    char *key = malloc(cap);
    if (!key) {
        br_error_nomem();
        return NULL;
    }
    size_t used = (size_t)snprintf(key, cap, "%s", kernel);
    /* Params by name: a selection over at most BR_SUITE_MAX_PARAMS-ish names. */
    char done_mask[256] = {0};
    for (size_t k = 0; k < r->n_params && k < sizeof done_mask; k++) {
        size_t best = SIZE_MAX;
        for (size_t p = 0; p < r->n_params && p < sizeof done_mask; p++) {
            if (!done_mask[p] &&
                (best == SIZE_MAX || strcmp(r->param_names[p], r->param_names[best]) < 0))
                best = p;
        }
        done_mask[best] = 1;
        used += (size_t)snprintf(key + used, cap - used, "\x1f%s=%lld", r->param_names[best],
                                 (long long)c->params[best]);
    }
    return key;
}
