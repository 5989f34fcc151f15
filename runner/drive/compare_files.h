/* SPDX-License-Identifier: Apache-2.0 */
/* What `benchrun compare OLD.json NEW.json` does: two
 * results files compared run by run (matched by suite name) with the
 * baseline rules (gate/baseline.h), NEW's table printed with the
 * comparison. */
#ifndef BR_COMPARE_FILES_H
#define BR_COMPARE_FILES_H

#include "pipeline.h"

/* Load old_path and new_path (results documents or baselines), compare
 * every run of NEW with OLD's run of the same suite under p->gate (the
 * rules each run records, replaced by p->gate's threshold and alpha; a
 * comparison a file carries is dropped), then print NEW's table on stdout
 * (unless --markdown - or --json - takes it) and write p->outputs.markdown
 * and .json. Fills *out (zeroed first): error when a file cannot be read,
 * NEW holds no run, no suite of NEW is in OLD, a comparison fails or an
 * output cannot be written (each said on stderr as "benchrun compare:
 * ..."); slower when a comparison fails the run under p->gate.fail_on
 * (said unless p->run.quiet). A suite of NEW without a run in OLD is said
 * and left uncompared. Returns 0, or -1 when out->error was set. */
int br_compare_files(br_outcome *out, const char *old_path, const char *new_path,
                     const br_pipeline_opts *p);

#endif
