/* SPDX-License-Identifier: Apache-2.0 */
/* init_templates.h - the files `benchrun init` writes, embedded at build
 * time from templates/init/ (cmake/embed_templates.cmake generates the
 * table), so the installed executable needs no source tree. */
#ifndef BR_CLI_INIT_TEMPLATES_H
#define BR_CLI_INIT_TEMPLATES_H

#include <stddef.h>

/* One file of the scaffold. */
typedef struct br_init_template {
    const char *path; /* relative to the target directory, '/'-separated: "suites/example.yaml" */
    const char *data; /* its bytes (NUL-terminated too) */
    size_t len;       /* bytes, without the terminating NUL */
} br_init_template;

/* Every file, sorted by path. */
extern const br_init_template br_init_templates[];
extern const size_t br_init_n_templates;

#endif
