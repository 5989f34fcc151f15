/* SPDX-License-Identifier: Apache-2.0 */
/* The params and defines keys of a suite (internal to suite/).
 * The forms a parameter takes are described at br_param in suite.h. */
#ifndef BR_SUITE_PARAMS_H
#define BR_SUITE_PARAMS_H

#include "suite.h"
#include "yamltree.h"

/* The `params:` mapping v into s->params / s->n_params (at most
 * BR_SUITE_MAX_PARAMS; s->params owned by s, freed by br_suite_dispose also
 * after a failure). Values are checked (ranges, no value twice, zip groups of
 * one length with distinct entries, names distinct). Returns 0, or -1 with
 * the error set at the offending key or value. */
int br_params_load(br_suite *s, const br_node *v);

/* `defines: [a, b]`: marks the named params of s (loaded before) as
 * compile-time constants (br_param.define) and records v's position in
 * s->defines_pos. Returns 0, or -1 with the error set (not a list, not a
 * parameter, named twice). */
int br_defines_load(br_suite *s, const br_node *v);

#endif
