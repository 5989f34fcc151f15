/* SPDX-License-Identifier: Apache-2.0 */
/* common.c - what the subcommands share (common.h). */
#include "common.h"

#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "model/settings.h"
#include "suite/suite.h"

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

int br_cli_use_color(int fd) {
    const char *no = getenv("NO_COLOR");
    return isatty(fd) && !(no && no[0]);
}

void br_cli_params_dispose(br_cli_params *p) {
    for (size_t i = 0; i < p->n; i++)
        br_param_override_dispose(&p->items[i]);
    free(p->items);
    p->items = NULL;
    p->n = 0;
}

void br_cli_opts_init(br_cli_opts *o) {
    memset(o, 0, sizeof *o);
    br_measure_layer_init(&o->p.run.measure);
    br_gate_opts_init(&o->p.gate);
}

void br_cli_opts_dispose(br_cli_opts *o) {
    br_opt_list_free(&o->patterns);
    br_cli_params_dispose(&o->params);
}

static int param_add(br_cli_params *p, const char *arg, int unique) {
    br_param_override ov;
    memset(&ov, 0, sizeof ov);
    if (br_param_override_parse(&ov, arg) != 0) {
        br_param_override_dispose(&ov);
        return -1;
    }
    for (size_t i = 0; unique && i < p->n; i++) {
        if (strcmp(p->items[i].name, ov.name) == 0) {
            br_error_set("-p %s: parameter '%s' is set twice", arg, ov.name);
            br_param_override_dispose(&ov);
            return -1;
        }
    }
    br_param_override *items = realloc(p->items, (p->n + 1) * sizeof *items);
    if (!items) {
        br_param_override_dispose(&ov);
        return br_error_nomem();
    }
    p->items = items;
    p->items[p->n++] = ov;
    return 0;
}

int br_cli_param_unique(void *dst, const char *option, const char *arg) {
    (void)option;
    return param_add(dst, arg, 1);
}

int br_cli_param(void *dst, const char *option, const char *arg) {
    (void)option;
    return param_add(dst, arg, 0);
}

int br_cli_measure(void *dst, const char *option, const char *arg) {
    static const br_setting_parsers parsers = {br_parse_duration, br_parse_fraction, br_parse_mode};
    for (int f = 0; f < BR_SETTING_COUNT; f++)
        if (strcmp(br_setting_option((br_setting)f), option) == 0)
            return br_measure_layer_parse(dst, (br_setting)f, arg, &parsers);
    return br_error_set("%s: not a measurement option", option);
}

int br_cli_duration_positive(void *dst, const char *option, const char *arg) {
    if (br_parse_duration(dst, option, arg) != 0)
        return -1;
    if (*(double *)dst <= 0)
        return br_error_set("%s: must be longer than 0", option);
    return 0;
}

int br_cli_fraction(void *dst, const char *option, const char *arg) {
    return br_parse_fraction(dst, option, arg);
}

int br_cli_fraction_or_zero(void *dst, const char *option, const char *arg) {
    if (strcmp(arg, "0") == 0 || strcmp(arg, "0%") == 0) {
        *(double *)dst = 0;
        return 0;
    }
    return br_parse_fraction(dst, option, arg);
}

int br_cli_jobs(void *dst, const char *option, const char *arg) {
    char *end;
    long n = strtol(arg, &end, 10);
    if (*end || n < 1 || n > 1024)
        return br_error_set("%s expects a number from 1 to 1024, got '%s'", option, arg);
    *(int *)dst = (int)n;
    return 0;
}

int br_cli_file(void *dst, const char *option, const char *arg) {
    if (!arg[0])
        return br_error_set("%s expects a file name", option);
    if (strcmp(arg, "-") == 0)
        return br_error_set("%s expects a file name, not '-'", option);
    *(const char **)dst = arg;
    return 0;
}

int br_cli_dir(void *dst, const char *option, const char *arg) {
    if (!arg[0])
        return br_error_set("%s expects a directory name", option);
    *(const char **)dst = arg;
    return 0;
}
