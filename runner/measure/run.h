/* run.h - orchestration: suite -> plan -> build -> measure -> results, for
 * the command line, which includes this one header.
 *
 * The parts live in the stages they belong to: the run settings and the
 * session in measure/session.h, the job in plan/job.h, the build and kernel
 * resolution in build/resolve.h, the measuring of a built job in
 * measure/execute.h. This header only gathers them (and so points from
 * measure/ to plan/ and build/): callers may include the parts instead.
 */
#ifndef BR_RUN_H
#define BR_RUN_H

#include "build/resolve.h"
#include "execute.h"
#include "plan/job.h"
#include "session.h"

#endif
