/* SPDX-License-Identifier: Apache-2.0 */
/* Drawing an SVG with gnuplot (gnuplot.h). */
#include "gnuplot.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/proc.h"
#include "base/tmp.h"
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
        if (ch == '\\' || ch == '"' || ch == '`')
            fputc('\\', f); /* gnuplot runs `...` in a double-quoted string as a command */
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

/* Create the temporary SVG for `base` (base/tmp.h; its name into tmp_svg,
 * PATH_MAX bytes) with the mode a new file would get. Returns 0, or -1 with
 * the error set (the file, if made, is left for the caller to unlink; *made
 * says whether it was). */
static int make_tmp_svg(char *tmp_svg, int *made, const char *base, const char *option,
                        const char *svg_path) {
    int svg_fd = br_tmp_create(tmp_svg, PATH_MAX, base, NULL);
    *made = svg_fd >= 0;
    if (svg_fd < 0)
        return br_error_prefix("%s %s: ", option, svg_path);
    /* Made 0600; the plot gets the mode a new file would. */
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

/* Write the script (fn) drawing into tmp_svg to a new temporary file for
 * `base` (its name into script, PATH_MAX bytes). Returns 0, or -1 with the
 * error set (*made says whether `script` exists). */
static int write_script(char *script, int *made, const char *base, br_gnuplot_script_fn fn,
                        void *ctx, const char *tmp_svg) {
    int fd = br_tmp_create(script, PATH_MAX, base, NULL);
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

/* gnuplot's messages in out (its standard output and error): how many
 * there are (the lines that name the script, "\"SCRIPT\" line N: ..."),
 * and the first in first[0..len) with the temporary script's name left
 * out ("line N of its script: ..."); "" when there is none. */
static size_t gnuplot_messages(const char *out, const char *script, char *first, size_t len) {
    size_t n = 0, sl = strlen(script);
    first[0] = '\0';
    for (const char *line = out; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        const char *at = memchr(line, '"', ll);
        if (at && (size_t)(line + ll - at) > sl + 1 && strncmp(at + 1, script, sl) == 0 &&
            at[sl + 1] == '"') {
            if (n++ == 0) {
                const char *rest = at + sl + 2;
                int no = 0;
                if (sscanf(rest, " line %d:", &no) == 1 && strchr(rest, ':'))
                    rest = strchr(rest, ':') + 1;
                while (*rest == ' ')
                    rest++;
                snprintf(first, len, "line %d of its script: %.*s", no,
                         (int)(ll - (size_t)(rest - line)), rest);
            }
        }
        line = end ? end + 1 : NULL;
    }
    return n;
}

/* Run gnuplot on `script` (drawing svg_path) and wait for it, its messages
 * caught: a success's said in one warning (how many, and the first), a
 * failure's first one in the error. Returns 0, or -1 with the error set. */
static int run_gnuplot(const char *script, const char *svg_path) {
    const char *argv[] = {"gnuplot", script, NULL};
    char *out = NULL, first[512];
    int st;
    if (br_proc_capture(&out, &st, argv, (size_t)1 << 16) != 0)
        return -1;
    size_t n = gnuplot_messages(out ? out : "", script, first, sizeof first);
    int rc = 0;
    if (!WIFEXITED(st))
        rc = br_error_set("gnuplot was killed by signal %d drawing %s", WTERMSIG(st), svg_path);
    else if (WEXITSTATUS(st) != 0)
        rc = br_error_set("gnuplot failed (exit status %d) drawing %s%s%s", WEXITSTATUS(st),
                          svg_path, first[0] ? ": " : "", first);
    else if (n)
        br_log(BR_LOG_WARN, "benchrun: gnuplot: %zu message(s) drawing %s; the first: %s\n", n,
               svg_path, first);
    free(out);
    return rc;
}

/* br_write_atomic's writer: the drawn SVG (the path in ctx) copied. */
static int copy_svg(FILE *f, void *ctx) {
    const char *from = ctx;
    char *text = NULL;
    size_t len = 0;
    if (br_read_file(&text, &len, from, (size_t)1 << 30) != 0)
        return -1;
    int rc = fwrite(text, 1, len, f) == len ? 0 : br_error_set("cannot write: %s", strerror(errno));
    free(text);
    return rc;
}

/* The paths the temporary files are named after (base/tmp.h): the script
 * in TMPDIR; the SVG beside the target when it is a file (renamed over it),
 * else in TMPDIR too (copied to the stream). */
static int tmp_names(char *script, char *tmp_svg, size_t len, const char *real, int to_file) {
    const char *tmpdir = getenv("TMPDIR");
    char in_tmp[PATH_MAX];
    snprintf(in_tmp, sizeof in_tmp, "%s/benchrun-plot", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int a = snprintf(script, len, "%s", in_tmp),
        b = snprintf(tmp_svg, len, "%s", to_file ? real : in_tmp);
    if (a < 0 || (size_t)a >= len || b < 0 || (size_t)b >= len)
        return br_error_set("%s: the name is too long", real);
    char *dir = br_path_dir(in_tmp);
    if (dir)
        br_tmp_sweep(dir);
    free(dir);
    return 0;
}

int br_gnuplot_draw(const char *svg_path, const char *option, br_gnuplot_script_fn fn, void *ctx) {
    for (const char *s = svg_path; *s; s++) {
        if ((unsigned char)*s < 0x20)
            return br_error_set("%s %s: a control character in the file name", option, svg_path);
    }
    br_target_kind kind;
    char real[PATH_MAX] = "";
    if (br_output_kind(&kind, svg_path) != 0 ||
        (kind == BR_TARGET_FILE && br_output_resolve(real, sizeof real, svg_path) != 0))
        return br_error_prefix("%s ", option);
    int rc = -1, svg_made = 0, script_made = 0;
    char script[PATH_MAX], tmp_svg[PATH_MAX], script_base[PATH_MAX], svg_base[PATH_MAX];
    if (tmp_names(script_base, svg_base, sizeof script_base, real, kind == BR_TARGET_FILE) != 0)
        return -1;
    if (kind == BR_TARGET_FILE) {
        char *dir = br_path_dir(real);
        if (dir)
            br_tmp_sweep(dir);
        free(dir);
    }
    if (make_tmp_svg(tmp_svg, &svg_made, svg_base, option, svg_path) != 0 ||
        write_script(script, &script_made, script_base, fn, ctx, tmp_svg) != 0 ||
        run_gnuplot(script, svg_path) != 0)
        goto done;
    struct stat sb;
    if (stat(tmp_svg, &sb) != 0 || sb.st_size == 0) {
        br_error_set("gnuplot wrote nothing drawing %s", svg_path);
        goto done;
    }
    if (kind != BR_TARGET_FILE) {
        /* A FIFO or a device: written in place, never replaced. */
        if (br_write_atomic(svg_path, copy_svg, tmp_svg) != 0)
            goto done;
    } else if (rename(tmp_svg, real) != 0) {
        br_error_set("%s %s: cannot rename %s over it: %s", option, svg_path, tmp_svg,
                     strerror(errno));
        goto done;
    } else {
        svg_made = 0;
    }
    rc = 0;
done:
    if (script_made)
        unlink(script);
    if (svg_made)
        unlink(tmp_svg);
    return rc;
}
