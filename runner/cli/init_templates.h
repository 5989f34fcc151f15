/* SPDX-License-Identifier: Apache-2.0 */
/* The files `benchrun init` writes, embedded at build
 * time from templates/init/ and schema/suite.schema.json
 * (cmake/embed_templates.cmake generates the table), so the installed
 * executable needs no source tree. */
#ifndef BR_CLI_INIT_TEMPLATES_H
#define BR_CLI_INIT_TEMPLATES_H

#include <stddef.h>

#include "drive/scaffold.h"

/* One file of the scaffold. */
typedef br_scaffold_file br_init_template;

/* Every file, sorted by path. */
extern const br_init_template br_init_templates[];
extern const size_t br_init_n_templates;

#endif
