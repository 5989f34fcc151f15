/* SPDX-License-Identifier: Apache-2.0 */
/* The processes of `benchrun profile` (cmd_profile.c):
 * finding Nsight Compute, running a command with or without its output
 * captured, and reading what ncu said about itself. */
#ifndef BR_CLI_PROFILE_RUN_H
#define BR_CLI_PROFILE_RUN_H

#include <stddef.h>

/* The ncu executable: $BENCHRUN_NCU when set (it must be an executable
 * file), else "ncu" found on $PATH (br_proc_find, base/proc.h), else
 * /usr/local/cuda/bin/ncu. Returns
 * a malloc'd path, or NULL with the error set saying where it looked and
 * how to get it. */
char *br_profile_find_ncu(void);

/* Run argv (argv[0] the program's path, or a name br_proc_find finds;
 * NULL-terminated) and wait for it (br_proc_run, base/proc.h).
 * With capture NULL it writes to this process's standard output and error;
 * else both go to the file `capture` (created or truncated). Returns the
 * exit status (128 + signal when killed), or -1 with the error set when it
 * could not be started. */
int br_profile_spawn(const char *const *argv, const char *capture);

/* 1 when ncu's output text[0..len) says it could not reach the GPU's
 * performance counters (ERR_NVGPUCTRPERM), else 0. */
int br_profile_no_permission(const char *text, size_t len);

/* The advice for ERR_NVGPUCTRPERM (NVIDIA's "ERR_NVGPUCTRPERM" page,
 * developer.nvidia.com/ERR_NVGPUCTRPERM): a static string. */
const char *br_profile_permission_advice(void);

#endif
