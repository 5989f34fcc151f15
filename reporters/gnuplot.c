/* SPDX-License-Identifier: Apache-2.0 */
/* gnuplot.c - drawing an SVG with gnuplot (gnuplot.h). */
#include "gnuplot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.h"
#include "base/proc.h"
#include "base/util.h"

/* `s` as the inside of a double-quoted gnuplot string: backslash and double
 * quote escaped, control characters (a newline would end the command) and
 * runs of white space as one space. */
void br_gnuplot_string(FILE *f, const char *s) {
    int space = 0;
    fputc('"', f);
    for (const char *p = s ? s : ""; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch < 0x20 || ch == 0x7f || ch == ' ') {
            space = 1;
            continue;
        }
        if (space)
            fputc(' ', f);
        space = 0;
        if (ch == '\\' || ch == '"')
            fputc('\\', f);
        fputc(ch, f);
    }
    fputc('"', f);
}

int br_gnuplot_have(void) {
    char *path = br_proc_find("gnuplot");
    int found = path != NULL;
    free(path);
    return found;
}

/* Create the temporary SVG beside svg_path (tmp_svg: "svg_path.XXXXXX",
 * replaced by the name made) with the mode a new file would get. Returns 0,
 * or -1 with the error set (the file, if made, is left for the caller to
 * unlink; *made says whether it was). */
static int make_tmp_svg(char *tmp_svg, int *made, const char *option, const char *svg_path) {
    int svg_fd = mkstemp(tmp_svg);
    *made = svg_fd >= 0;
    if (svg_fd < 0)
        return br_error_set("%s %s: cannot create %s: %s", option, svg_path, tmp_svg,
                            strerror(errno));
    /* mkstemp made it 0600; the plot gets the mode a new file would. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(svg_fd, 0666 & ~mask) != 0) {
        br_error_set("%s %s: cannot set the mode of %s: %s", option, svg_path, tmp_svg,
                     strerror(errno));
        close(svg_fd);
        return -1;
    }
    close(svg_fd);
    return 0;
}

/* Write the script (fn) drawing into tmp_svg to a new temporary file `script`
 * ("DIR/benchrun-history-XXXXXX.gp", replaced by the name made). Returns 0,
 * or -1 with the error set (*made says whether `script` exists). */
static int write_script(char *script, int *made, br_gnuplot_script_fn fn, void *ctx,
                        const char *tmp_svg) {
    int fd = mkstemps(script, 3);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    *made = fd >= 0;
    if (!f) {
        br_error_set("cannot create a temporary gnuplot script %s: %s", script, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int wrc = fn(f, ctx, tmp_svg);
    if (fclose(f) != 0 && wrc == 0)
        wrc = br_error_set("cannot write the gnuplot script %s: %s", script, strerror(errno));
    return wrc;
}

/* Run gnuplot on `script` (drawing svg_path) and wait for it. Returns 0, or
 * -1 with the error set. */
static int run_gnuplot(const char *script, const char *svg_path) {
    const char *argv[] = {"gnuplot", script, NULL};
    int st;
    if (br_proc_run(&st, argv, NULL) != 0)
        return -1;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (WIFEXITED(st))
            return br_error_set(
                "gnuplot failed (exit status %d) drawing %s; its messages are above",
                WEXITSTATUS(st), svg_path);
        return br_error_set("gnuplot was killed by signal %d drawing %s", WTERMSIG(st), svg_path);
    }
    return 0;
}

int br_gnuplot_draw(const char *svg_path, const char *option, br_gnuplot_script_fn fn, void *ctx) {
    for (const char *s = svg_path; *s; s++) {
        if ((unsigned char)*s < 0x20)
            return br_error_set("%s %s: a control character in the file name", option, svg_path);
    }
    int rc = -1, svg_made = 0, script_made = 0;
    const char *tmpdir = getenv("TMPDIR");
    char *script = br_strfmt("%s/benchrun-plot-XXXXXX.gp", tmpdir && *tmpdir ? tmpdir : "/tmp");
    char *tmp_svg = br_strfmt("%s.XXXXXX", svg_path);
    if (!script || !tmp_svg || make_tmp_svg(tmp_svg, &svg_made, option, svg_path) != 0 ||
        write_script(script, &script_made, fn, ctx, tmp_svg) != 0 ||
        run_gnuplot(script, svg_path) != 0)
        goto done;
    struct stat sb;
    if (stat(tmp_svg, &sb) != 0 || sb.st_size == 0) {
        br_error_set("gnuplot wrote nothing drawing %s", svg_path);
        goto done;
    }
    if (rename(tmp_svg, svg_path) != 0) {
        br_error_set("%s %s: cannot rename %s over it: %s", option, svg_path, tmp_svg,
                     strerror(errno));
        goto done;
    }
    svg_made = 0;
    rc = 0;
done:
    if (script_made)
        unlink(script);
    if (svg_made)
        unlink(tmp_svg);
    free(script);
    free(tmp_svg);
    return rc;
}
