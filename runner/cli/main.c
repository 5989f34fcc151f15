/* SPDX-License-Identifier: Apache-2.0 */
/* benchrun - the executable: the locale, the message sink, and the choice
 * of subcommand. Each subcommand parses its own options (runner/cli/cmd_*.c)
 * and the run hands over to the pipeline (runner/pipeline.c). */
#include <signal.h>
#include <string.h>

#include "cmd_history.h"
#include "commands.h"
#include "common.h"
#include "msg.h"

typedef struct br_cmd {
    const char *name;
    int (*main)(int argc, char **argv); /* argv[0] is the subcommand's name */
} br_cmd;

static const br_cmd commands[] = {
    {"ab", br_cmd_ab},           {"check", br_cmd_check},
    {"compare", br_cmd_compare}, {"history", br_history_main},
    {"init", br_cmd_init},       {"merge", br_cmd_merge},
    {"profile", br_cmd_profile}, {"report", br_cmd_report},
};

int main(int argc, char **argv) {
    br_cli_locale();
    br_msg_init();
    signal(SIGXFSZ, SIG_IGN); /* past `ulimit -f` a write fails with EFBIG and is reported */
    for (size_t i = 0; argc > 1 && i < sizeof commands / sizeof *commands; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].main(argc - 1, argv + 1);
    return br_cmd_run(argc, argv); /* run, the default: benchrun SUITE.yaml... */
}
