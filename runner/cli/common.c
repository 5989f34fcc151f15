/* SPDX-License-Identifier: Apache-2.0 */
/* What the subcommands share (common.h). */
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

void br_cli_opts_init(br_cli_opts *o) {
    memset(o, 0, sizeof *o);
    br_measure_layer_init(&o->p.run.measure);
    br_gate_opts_init(&o->p.gate);
}

void br_cli_opts_dispose(br_cli_opts *o) {
    br_opt_list_free(&o->patterns);
    br_cli_params_dispose(&o->params);
}
