/* SPDX-License-Identifier: Apache-2.0 */
/* `benchrun merge (-o OUT.json | --results-dir DIR)
 * PART.json...`: the options, then drive/merge_files.h. */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "common.h"
#include "drive/merge_files.h"
#include "msg.h"

#define PROG "benchrun merge"

#define AT(field) offsetof(br_merge_opts, field)

/* Where the merged file goes: 0, or -1 after a message. */
static int merge_check(void *dst, const br_opt_parsed *a) {
    const br_merge_opts *o = dst;
    (void)a;
    if (o->output || o->results_dir)
        return 0;
    br_msg_error(PROG, "say where the merged file goes: -o OUT.json or --results-dir DIR");
    return -1;
}

const br_opt_cmd br_cmd_merge_spec = {
    .prog = PROG,
    .synopsis = "(-o OUT.json | --results-dir DIR) PART.json...",
    .about = "Merge the parts of a sharded plan (each written by benchrun --shard I/N --json\n"
             "PART.json) into one results document, as if one machine had run the whole\n"
             "plan. The parts must be one plan: the same suites (blob ids), commit, benchrun\n"
             "version, -k and -p, shard count and rule, device model and settings; a case\n"
             "may not appear twice. A shard that gave no part (or a part without some of its\n"
             "cases) leaves those cases in the merged file, skipped with stage \"missing\".\n",
    .foot = "Then: benchrun report MERGED.json [--markdown F] [--gbench F] [--save-baseline]\n"
            "compares it with the baselines; benchrun history DIR reads it.\n",
    .exit_status =
        "0 every case of the plan is there and none failed; 1 a case is\n"
        "missing (a shard gave no results or was interrupted) or failed, or the output\n"
        "could not be written (the merged file is written whenever the parts agree);\n"
        "2 bad input or usage: parts of different plans, a case twice (nothing written).\n",
    .min_args = 1,
    .args_bad = "expected the parts to merge, PART.json...",
    .check = merge_check,
    .opts =
        (const br_opt_spec[]){
            {BR_OPT_VALUE, "output", 'o', AT(output), "FILE",
             "write the merged results document to FILE (atomically)", .output = 1},
            {BR_OPT_FN, "results-dir", 0, AT(results_dir), "DIR",
             "write it as DIR/<date>-<commit>.json, as benchrun\n"
             "--results-dir does (never overwritten; see benchrun history)",
             br_cli_dir},
            {BR_OPT_FLAG, "allow-mixed-hosts", 0, AT(allow_mixed_hosts), NULL,
             "merge host shards run on different CPU models (the merged\n"
             "file names the models; refused without it)",
             .flag_value = 1},
            BR_CLI_ROW_QUIET_AT(AT(quiet), "only errors on standard error"),
            BR_CLI_ROW_HELP,
            {BR_OPT_END},
        },
};

int br_cmd_merge(int argc, char **argv) {
    br_merge_opts o = {0};
    br_opt_parsed a;
    int status = br_cli_parse(&a, &br_cmd_merge_spec, &o, argc, argv);
    if (status == BR_CLI_GO_ON)
        status = br_merge_files(&o, a.args, a.n_args);
    free(a.args);
    return status;
}
