/* SPDX-License-Identifier: Apache-2.0 */
/* The suite key `precision` (internal to suite/): what each kernel's FLOPs
 * are, one br_precision for the whole suite or one per kernel. */
#ifndef BR_SUITE_PRECISION_H
#define BR_SUITE_PRECISION_H

#include "suite.h"
#include "yamltree.h"

/* Read `precision` (value v) into s->precision, once s->kernels is known:
 *   precision: fp16-tensor                          every kernel
 *   precision: {hgemm_wmma: fp16-tensor, sgemm: fp32}  per kernel; a
 *                                                   kernel not named stays
 *                                                   BR_PRECISION_NONE
 * A name is one of br_precision_names but "none". Returns 0, or -1 with the
 * error at the bad node's file:line:column: "unknown precision 'x' (did you
 * mean 'y'?)" or "(expected one of: ...)", "precision names kernel 'k',
 * which is not in the suite's kernels", a repeated kernel, or a value that
 * is neither a name nor a mapping. */
int br_suite_precision_load(br_suite *s, const br_node *v);

#endif
