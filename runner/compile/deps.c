/* SPDX-License-Identifier: Apache-2.0 */
/* The compiler's dependency file read, and the cache's record of
 * what each object was built from (deps.h). */
#include "deps.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/util.h"

#define MAX_DEP_BYTES      ((size_t)64 << 20)
#define MAX_MANIFEST_BYTES ((size_t)16 << 20)
#define MAX_ENTRIES        8 /* objects recorded per input key, newest kept */
#define MANIFEST_HEADER    "benchrun-deps 1\n"

void br_dep_list_free(br_dep_list *l) {
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i].path);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* Append `path` unless present; *at gets its index. Returns 0 or -1 (OOM). */
static int dep_add(br_dep_list *l, const char *path, size_t *at) {
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i].path, path) == 0) {
            *at = i;
            return 0;
        }
    br_dep *nv = realloc(l->v, (l->n + 1) * sizeof *nv);
    if (!nv)
        return br_error_nomem();
    l->v = nv;
    if (!(nv[l->n].path = br_strdup(path)))
        return -1;
    nv[l->n].hash[0] = '\0';
    *at = l->n++;
    return 0;
}

/* The parser's state over one logical line. */
typedef struct rule_state {
    int in_prereqs; /* past the ':' */
    size_t n_tokens;
    const char *first; /* the line's start, for the message */
} rule_state;

static int take_token(br_dep_list *out, rule_state *r, const char *tok) {
    r->n_tokens++;
    size_t len = strlen(tok);
    if (!r->in_prereqs) {
        if (len > 0 && tok[len - 1] == ':')
            r->in_prereqs = 1; /* "target:" or a lone ":" */
        return 0;              /* a target */
    }
    size_t at;
    return dep_add(out, tok, &at);
}

static int end_line(rule_state *r, const char *next) {
    if (r->n_tokens > 0 && !r->in_prereqs) {
        int n = 0;
        while (r->first[n] && r->first[n] != '\n' && n < 80)
            n++;
        return br_error_set("not a dependency rule (no ':'): %.*s", n, r->first);
    }
    r->in_prereqs = 0;
    r->n_tokens = 0;
    r->first = next;
    return 0;
}

/* A run of k backslashes at p: what it stands for goes to tok[*tn]; returns
 * the bytes consumed, 0 when it ends the token (a continuation). */
static size_t backslashes(const char *p, char *tok, size_t *tn) {
    size_t k = 0;
    while (p[k] == '\\')
        k++;
    char after = p[k];
    if (after == '\n' || (after == '\r' && p[k + 1] == '\n')) {
        for (size_t i = 0; i + 1 < k; i++)
            tok[(*tn)++] = '\\';
        return 0;
    }
    if (after == ' ' || after == '\t' || after == '#') {
        /* 2n backslashes: n of them, then the separator; 2n+1: n, then
         * the character itself. */
        for (size_t i = 0; i < k / 2; i++)
            tok[(*tn)++] = '\\';
        if (k % 2) {
            tok[(*tn)++] = after;
            return k + 1;
        }
        return k;
    }
    for (size_t i = 0; i < k; i++)
        tok[(*tn)++] = '\\';
    return k;
}

int br_deps_parse(br_dep_list *out, const char *text) {
    char *tok = malloc(strlen(text) + 1);
    if (!tok)
        return br_error_nomem();
    rule_state r = {0, 0, text};
    size_t tn = 0;
    int rc = 0;
    for (const char *p = text; rc == 0;) {
        char c = *p;
        size_t used = 0;
        if (c == '\\' && (used = backslashes(p, tok, &tn)) > 0) {
            p += used;
            continue;
        }
        if (c == '$' && p[1] == '$') {
            tok[tn++] = '$';
            p += 2;
            continue;
        }
        int cont = c == '\\'; /* backslash-newline: a separator */
        if (!cont && c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\0') {
            tok[tn++] = c;
            p++;
            continue;
        }
        if (tn > 0) {
            tok[tn] = '\0';
            tn = 0;
            rc = take_token(out, &r, tok);
        }
        if (cont) {
            p = strchr(p, '\n') + 1;
            continue;
        }
        if (rc == 0 && (c == '\n' || c == '\0'))
            rc = end_line(&r, p + 1);
        if (c == '\0')
            break;
        p++;
    }
    free(tok);
    return rc;
}

static int hash_file(char out[41], const char *path) {
    char *text = NULL;
    size_t len = 0;
    if (br_read_file(&text, &len, path, MAX_DEP_BYTES) != 0)
        return -1;
    int rc = br_hash_blob(out, text, len);
    free(text);
    return rc;
}

static int has_prefix(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_system(const char *real, const char *toolkit_root) {
    if (has_prefix(real, "/usr/include/") || has_prefix(real, "/usr/lib/"))
        return 1;
    size_t n = toolkit_root ? strlen(toolkit_root) : 0;
    return n > 1 && strncmp(real, toolkit_root, n) == 0 && real[n] == '/';
}

int br_deps_collect(br_dep_list *out, const char *depfile, const char *toolkit_root) {
    char *text = NULL;
    br_dep_list raw = {0};
    int rc = -1;
    if (br_read_file(&text, NULL, depfile, MAX_DEP_BYTES) != 0)
        return -1;
    if (br_deps_parse(&raw, text) != 0)
        goto done;
    for (size_t i = 0; i < raw.n; i++) {
        char real[PATH_MAX];
        size_t at;
        if (!realpath(raw.v[i].path, real)) {
            br_error_set("%s: %s", raw.v[i].path, strerror(errno));
            goto done;
        }
        if (is_system(real, toolkit_root))
            continue;
        if (dep_add(out, real, &at) != 0 || hash_file(out->v[at].hash, real) != 0)
            goto done;
    }
    rc = 0;
done:
    br_dep_list_free(&raw);
    free(text);
    return rc;
}

static int at_or_after(const struct timespec *t, const struct timespec *since) {
    return t->tv_sec > since->tv_sec ||
           (t->tv_sec == since->tv_sec && t->tv_nsec >= since->tv_nsec);
}

int br_deps_changed_since(const br_dep_list *deps, const struct timespec *since) {
    for (size_t i = 0; i < deps->n; i++) {
        struct stat st;
        if (stat(deps->v[i].path, &st) != 0 || at_or_after(&st.st_mtim, since) ||
            at_or_after(&st.st_ctim, since))
            return 1;
    }
    return 0;
}

int br_deps_object_key(char out[41], const char *input_key, const br_dep_list *deps) {
    static const char tag[] = "benchrun-object";
    size_t len = sizeof tag + strlen(input_key) + 1;
    for (size_t i = 0; i < deps->n; i++)
        len += strlen(deps->v[i].path) + 1 + sizeof deps->v[i].hash;
    char *buf = malloc(len), *p = buf;
    if (!buf)
        return br_error_nomem();
    memcpy(p, tag, sizeof tag);
    p += sizeof tag;
    p = stpcpy(p, input_key) + 1;
    for (size_t i = 0; i < deps->n; i++) {
        p = stpcpy(p, deps->v[i].path) + 1;
        p = stpcpy(p, deps->v[i].hash) + 1;
    }
    int rc = br_hash_blob(out, buf, (size_t)(p - buf));
    free(buf);
    return rc;
}

/* ---- the record: "object KEY" lines, each followed by "dep HASH PATH" lines -- */

static int is_key(const char *s) {
    size_t n = strspn(s, "0123456789abcdef");
    return n == 40 && (s[40] == '\n' || s[40] == '\0');
}

/* The record's text, or NULL when absent, unreadable or not a record. */
static char *read_manifest(const char *manifest) {
    char *text = NULL;
    if (br_read_file(&text, NULL, manifest, MAX_MANIFEST_BYTES) != 0) {
        br_error_clear();
        return NULL;
    }
    if (!has_prefix(text, MANIFEST_HEADER)) {
        free(text);
        return NULL;
    }
    return text;
}

/* Whether the "dep HASH PATH" line at p holds for the file today. */
static int dep_holds(const char *p) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    if (len < 4 + 41 + 1 || p[4 + 40] != ' ')
        return 0;
    char path[PATH_MAX], now[41];
    if (len - 45 >= sizeof path)
        return 0;
    memcpy(path, p + 45, len - 45);
    path[len - 45] = '\0';
    if (hash_file(now, path) != 0) {
        br_error_clear(); /* gone or unreadable: the entry does not hold */
        return 0;
    }
    return strncmp(now, p + 4, 40) == 0;
}

int br_deps_lookup(char out[41], const char *manifest) {
    char *text = read_manifest(manifest);
    if (!text)
        return 0;
    char cur[41] = "";
    int found = 0, holds = 0;
    for (const char *p = text + strlen(MANIFEST_HEADER); *p;) {
        if (has_prefix(p, "object ") && is_key(p + 7)) {
            if (holds && (found = 1))
                memcpy(out, cur, sizeof cur);
            memcpy(cur, p + 7, 40);
            cur[40] = '\0';
            holds = 1;
        } else if (has_prefix(p, "dep ")) {
            holds = holds && dep_holds(p);
        } else {
            holds = 0; /* a line this version does not know */
        }
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    if (holds && (found = 1))
        memcpy(out, cur, sizeof cur);
    free(text);
    return found;
}

typedef struct record_ctx {
    const char *old; /* the old record's entries to keep, verbatim */
    const char *key;
    const br_dep_list *deps;
} record_ctx;

static int write_record(FILE *f, void *vctx) {
    const record_ctx *c = vctx;
    fputs(MANIFEST_HEADER, f);
    fputs(c->old, f);
    fprintf(f, "object %s\n", c->key);
    for (size_t i = 0; i < c->deps->n; i++)
        fprintf(f, "dep %s %s\n", c->deps->v[i].hash, c->deps->v[i].path);
    return ferror(f) ? br_error_set("cannot write the dependency record") : 0;
}

/* In the old record's text (past its header), drop the entry of `key` and
 * all but the newest MAX_ENTRIES - 1 others, in place. */
static void keep_entries(char *text, const char *key) {
    size_t n_entries = 0;
    for (char *p = text; (p = strstr(p, "object ")); p += 7)
        if (p == text || p[-1] == '\n')
            n_entries++;
    char *w = text;
    size_t seen = 0;
    int keep = 0;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (has_prefix(p, "object ")) {
            seen++;
            keep = n_entries - seen < MAX_ENTRIES - 1 && strncmp(p + 7, key, 40) != 0;
        }
        if (keep && nl) {
            memmove(w, p, len);
            w += len;
        }
        p += len;
    }
    *w = '\0';
}

int br_deps_record(const char *manifest, const char *object_key, const br_dep_list *deps) {
    for (size_t i = 0; i < deps->n; i++)
        if (strchr(deps->v[i].path, '\n'))
            return br_error_set("%s: a file name with a newline cannot be recorded",
                                deps->v[i].path);
    char *text = read_manifest(manifest);
    const char *old = "";
    if (text) {
        keep_entries(text + strlen(MANIFEST_HEADER), object_key);
        old = text + strlen(MANIFEST_HEADER);
    }
    record_ctx c = {old, object_key, deps};
    int rc = br_write_atomic(manifest, write_record, &c);
    free(text);
    return rc;
}
