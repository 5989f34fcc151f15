/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun check` does: every suite through the
 * pipeline's prepare and build (br_pipeline_opts.check), measuring
 * nothing, and one summary line per suite. */
#ifndef BR_CHECK_SUITES_H
#define BR_CHECK_SUITES_H

#include "pipeline.h"

/* Check each of p->suites[0..p->n_suites) on its own (so one bad suite
 * does not hide the next one's problems) as a run with p's other options
 * would prepare and build it: loaded, planned, its sources compiled and its
 * kernels resolved. The pipeline's messages go to stderr; one summary line
 * per suite to stdout, flushed before the next suite's messages ("PATH: ok:
 * N case(s), ..." or "PATH: FAILED: ..."). p->check, p->suites and
 * p->n_suites are used and left as they were. Returns the exit status: 0
 * every suite would run, 2 a suite has bad input, a kernel no source
 * defines, or a source that does not compile. */
int br_check_suites(const br_pipeline_opts *p);

#endif
