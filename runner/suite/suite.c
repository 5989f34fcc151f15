/* SPDX-License-Identifier: Apache-2.0 */
/* The suite model's accessors and memory (suite.h); the loader
 * that fills it is load.c. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

static void located_free(br_located *l, size_t n) {
    for (size_t i = 0; l && i < n; i++)
        free(l[i].text);
    free(l);
}

const br_located *br_work_expr(const br_work *w, size_t kernel) {
    if (w->by_kernel)
        return w->by_kernel[kernel].text ? &w->by_kernel[kernel] : NULL;
    return w->all.text ? &w->all : NULL;
}

int br_work_present(const br_work *w) {
    return w->all.text != NULL || w->by_kernel != NULL;
}

static void work_dispose(br_work *w, size_t n_kernels) {
    free(w->all.text);
    for (size_t i = 0; w->by_kernel && i < n_kernels; i++)
        free(w->by_kernel[i].text);
    free(w->by_kernel);
}

/* Free what *s owns and zero it; accepts NULL and partly loaded suites. */
br_precision br_suite_precision(const br_suite *s, size_t kernel) {
    return s && s->precision && kernel < s->n_kernels ? s->precision[kernel] : BR_PRECISION_NONE;
}

void br_suite_dispose(br_suite *s) {
    if (!s)
        return;
    free(s->name.text);
    free(s->description.text);
    for (size_t i = 0; s->sources && i < s->n_sources; i++)
        free(s->sources[i].text);
    free(s->sources);
    for (size_t i = 0; s->kernels && i < s->n_kernels; i++)
        free(s->kernels[i].text);
    free(s->kernels);
    for (size_t i = 0; s->params && i < s->n_params; i++) {
        free(s->params[i].name);
        free(s->params[i].values);
        free(s->params[i].group);
    }
    free(s->params);
    work_dispose(&s->bytes, s->n_kernels);
    work_dispose(&s->flops, s->n_kernels);
    work_dispose(&s->memory, s->n_kernels);
    free(s->precision);
    free(s->where.text);
    for (size_t i = 0; s->libs && i < s->n_libs; i++)
        free(s->libs[i].text);
    free(s->libs);
    located_free(s->cflags, s->n_cflags);
    located_free(s->nvcc_flags, s->n_nvcc_flags);
    located_free(s->include_dirs, s->n_include_dirs);
    free(s->path);
    free(s->dir);
    memset(s, 0, sizeof *s);
}
