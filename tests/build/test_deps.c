/* test_deps.c - the compiler's dependency file: its syntax. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "build/deps.h"
#include "e2e_util.h"

TestSuite(deps, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

/* ---- the dependency file's syntax ------------------------------------------- */

static void parses_to(const char *text, const char *const *want, size_t n_want) {
    br_dep_list l = {0};
    cr_assert_eq(br_deps_parse(&l, text), 0, "%s: %s", text, br_error_get());
    cr_assert_eq(l.n, n_want, "%zu prerequisites of:\n%s", l.n, text);
    for (size_t i = 0; i < n_want; i++)
        cr_assert_str_eq(l.v[i].path, want[i], "prerequisite %zu of:\n%s", i, text);
    br_dep_list_free(&l);
}

Test(deps, parse_gcc_rule_with_escapes) {
    const char *want[] = {"b.c", "/tmp/inc dir/h#x.h", "/tmp/a$b.h"};
    parses_to("b.so: b.c /tmp/inc\\ dir/h\\#x.h /tmp/a$$b.h\n", want, 3);
}

Test(deps, parse_nvcc_rule_with_continuations) {
    const char *want[] = {"/tmp/a.cu", "/usr/include/stdc-predef.h", "/tmp/inc dir/h#x.h"};
    parses_to("/tmp/a.so : /tmp/a.cu \\\n    /usr/include/stdc-predef.h \\\n"
              "    /tmp/inc\\ dir/h#x.h\n",
              want, 3);
}

Test(deps, parse_crlf_phony_rules_and_repeats) {
    const char *want[] = {"a.c", "h.h", "g.h"};
    parses_to("a.o: a.c \\\r\n h.h\r\n\r\nh.h:\r\ng.h: h.h\r\nx.o: g.h a.c", want, 3);
}

Test(deps, parse_backslashes) {
    /* two backslashes and a space: one backslash, then a separator; a
     * backslash elsewhere is itself. */
    const char *want[] = {"x\\", "y", "dir\\name.h"};
    parses_to("t: x\\\\ y dir\\name.h\n", want, 3);
}

Test(deps, parse_empty_and_refused) {
    parses_to("", NULL, 0);
    parses_to("\n\n", NULL, 0);
    br_dep_list l = {0};
    cr_assert_eq(br_deps_parse(&l, "a.o: a.c\nno colon here\n"), -1);
    cr_assert(strstr(br_error_get(), "no ':'"), "%s", br_error_get());
    br_dep_list_free(&l);
}
