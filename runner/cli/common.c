/* SPDX-License-Identifier: Apache-2.0 */
/* What the subcommands share (common.h). */
#include "common.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "msg.h"

int br_cli_locale(void) {
    static int done, ascii;
    if (!done) {
        setlocale(LC_ALL, "");
        setlocale(LC_NUMERIC, "C"); /* numbers in every output use '.' */
        const char *codeset = nl_langinfo(CODESET);
        ascii = !codeset || strcmp(codeset, "UTF-8") != 0;
        done = 1;
    }
    return ascii;
}

int br_cli_is_suite_arg(const char *arg) {
    struct stat st;
    return br_has_suffix(arg, ".yaml") || br_has_suffix(arg, ".yml") ||
           (stat(arg, &st) == 0 && S_ISREG(st.st_mode));
}

int br_cli_use_color(int fd) {
    const char *no = getenv("NO_COLOR");
    return isatty(fd) && !(no && no[0]);
}

void br_cli_opts_init(br_cli_opts *o) {
    memset(o, 0, sizeof *o);
    br_pipeline_opts_init(&o->p);
    o->p.outputs.ascii = br_cli_locale();
}

void br_cli_opts_finish(br_cli_opts *o, const br_opt_parsed *a) {
    br_pipeline_opts *p = &o->p;
    p->suites = a->args;
    p->n_suites = a->n_args;
    p->run.patterns = o->patterns.items;
    p->run.n_patterns = o->patterns.n;
    p->run.params = o->params.items;
    p->run.n_params = o->params.n;
    p->outputs.color = br_cli_use_color(STDOUT_FILENO);
}

void br_cli_opts_dispose(br_cli_opts *o) {
    free(o->p.shard.times);
    br_opt_list_free(&o->patterns);
    br_cli_params_dispose(&o->params);
}

int br_cli_outputs_check(const br_opt_spec *opts, const void *dst) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (!o->output)
            continue;
        char option[64];
        snprintf(option, sizeof option, "--%s", o->name);
        if (br_output_check(option, *(const char *const *)((const char *)dst + o->offset)) != 0) {
            fprintf(stderr, "%s\n", br_error_get());
            return -1;
        }
    }
    return 0;
}

/* cmd->args_bad after "<prog>: ", its "%zu" (when there is one) the count n. */
static void say_args_bad(const br_opt_cmd *cmd, size_t n) {
    const char *at = strstr(cmd->args_bad, "%zu");
    if (at)
        br_msg_error(cmd->prog, "%.*s%zu%s", (int)(at - cmd->args_bad), cmd->args_bad, n, at + 3);
    else
        br_msg_error(cmd->prog, "%s", cmd->args_bad);
}

int br_cli_parse(br_opt_parsed *a, const br_opt_cmd *cmd, void *dst, int argc, char **argv) {
    switch (br_opt_parse(a, cmd, dst, argc, argv)) {
    case BR_PARSE_OK:
        if (cmd->args_bad &&
            (a->n_args < cmd->min_args || (cmd->max_args && a->n_args > cmd->max_args))) {
            say_args_bad(cmd, a->n_args);
            return 2;
        }
        if ((cmd->check && cmd->check(dst, a) != 0) || br_cli_outputs_check(cmd->opts, dst) != 0)
            return 2;
        return BR_CLI_GO_ON;
    case BR_PARSE_HELP:
        br_opt_help(stdout, cmd);
        return 0;
    case BR_PARSE_VERSION:
        printf("benchrun %s\n", BR_VERSION);
        return 0;
    case BR_PARSE_ACTION:
        return cmd->action ? cmd->action(a) : 2;
    default:
        return 2;
    }
}

int br_cli_run(br_cli_opts *o, const br_opt_cmd *cmd, int argc, char **argv,
               int (*go)(br_cli_opts *o, const br_opt_parsed *a)) {
    br_opt_parsed a;
    int status = br_cli_parse(&a, cmd, o, argc, argv);
    if (status == BR_CLI_GO_ON) {
        br_cli_opts_finish(o, &a);
        status = go(o, &a);
    }
    free(a.args);
    br_cli_opts_dispose(o);
    return status;
}
