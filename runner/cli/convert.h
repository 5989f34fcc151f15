/* SPDX-License-Identifier: Apache-2.0 */
/* The value converters of the option tables (br_opt_fn): each
 * checks one option's argument and stores it at dst, the field of the
 * row's offset. Each returns 0, or -1 with the error set naming the
 * option (the parser says it as "<prog>: <error>"). */
#ifndef BR_CLI_CONVERT_H
#define BR_CLI_CONVERT_H

#include <stddef.h>

#include "model/types.h"

/* -p NAME=VALUE settings, parsed (br_param_override_parse). */
typedef struct br_cli_params {
    br_param_override *items; /* owned */
    size_t n;
} br_cli_params;

/* Release what *p owns. */
void br_cli_params_dispose(br_cli_params *p);

/* -p NAME=VALUE into the br_cli_params at dst (br_param_override_parse);
 * br_cli_param_unique refuses a name given twice. */
int br_cli_param_unique(void *dst, const char *option, const char *arg);
int br_cli_param(void *dst, const char *option, const char *arg);

/* A measurement option (--mode ... --no-hold, by its name `option`) into
 * the br_measure_layer at dst, through br_measure_layer_parse (arg: NULL for
 * --no-hold); its messages are the command line's. */
int br_cli_measure(void *dst, const char *option, const char *arg);

int br_cli_duration_positive(void *dst, const char *option, const char *arg); /* double ns > 0 */
int br_cli_fraction(void *dst, const char *option, const char *arg);          /* double */
int br_cli_fraction_or_zero(void *dst, const char *option, const char *arg);  /* "0", "0%" too */
int br_cli_jobs(void *dst, const char *option, const char *arg);              /* int 1..1024 */

/* --blocks N of ab and bisect: an even count from 2 to max into *out;
 * `pairing` says in the error why it is even (how the blocks pair up). */
int br_cli_even_count(size_t *out, const char *option, const char *arg, long max,
                      const char *pairing);
int br_cli_file(void *dst, const char *option, const char *arg); /* not empty, not "-" */
int br_cli_dir(void *dst, const char *option, const char *arg);  /* not empty */

/* --cpu N|off into the int at dst (br_run_opts.cpu: N + 1, or -1 for off);
 * N must be a CPU this process may run on (platform/cpupin.h). */
int br_cli_cpu(void *dst, const char *option, const char *arg);

/* --devices all|LIST: the list checked (plan/device_list.h), the text
 * stored in the const char * at dst (br_run_opts.devices). */
int br_cli_devices(void *dst, const char *option, const char *arg);

/* --shard I/N into the br_shard_opts at dst (plan/shard.h). */
int br_cli_shard(void *dst, const char *option, const char *arg);

/* --shard-times FILE appended to the br_shard_opts at dst; the array is
 * the caller's to free (br_shard_opts.times). */
int br_cli_shard_times(void *dst, const char *option, const char *arg);

#endif
