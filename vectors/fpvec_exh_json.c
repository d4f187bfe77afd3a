/* fpvec_exh_json.c - an exhaustive run's result as JSON and back (fpvec_exh_result.h). The
 * histogram cells carry their class and bucket as numbers (read back) and as names (for
 * people); the schema is in vectors/README.md. */
#include "fpvec_exh_result.h"
#include "json_input.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

exh_result *exh_result_new(void)
{
    exh_result *r = calloc(1, sizeof *r);
    if (r)
        r->rev = otpu_rev_desc_of(OTPU_REV_CURRENT);
    return r;
}

void exh_result_free(exh_result *r)
{
    if (r) {
        free(r->ranges);
        free(r->shards);
    }
    free(r);
}

int exh_result_add_shard(exh_result *r, uint64_t i)
{
    size_t k = 0;
    while (k < r->nshards && r->shards[k] < i)
        k++;
    if (k < r->nshards && r->shards[k] == i)
        return -1;
    uint64_t *s = realloc(r->shards, (r->nshards + 1) * sizeof *s);
    if (!s)
        return -1;
    memmove(s + k + 1, s + k, (r->nshards - k) * sizeof *s);
    s[k] = i;
    r->shards = s;
    r->nshards++;
    return 0;
}

int exh_result_add_range(exh_result *r, uint64_t lo, uint64_t hi)
{
    size_t i = 0;
    while (i < r->nranges && r->ranges[i][0] < lo)
        i++;
    if ((i > 0 && r->ranges[i - 1][1] > lo) || (i < r->nranges && r->ranges[i][0] < hi))
        return -1;
    if (i > 0 && r->ranges[i - 1][1] == lo) { /* joins the one before (and maybe the next) */
        r->ranges[i - 1][1] = hi;
        if (i < r->nranges && r->ranges[i][0] == hi) {
            r->ranges[i - 1][1] = r->ranges[i][1];
            memmove(&r->ranges[i], &r->ranges[i + 1], (r->nranges - i - 1) * sizeof r->ranges[0]);
            r->nranges--;
        }
        return 0;
    }
    if (i < r->nranges && r->ranges[i][0] == hi) {
        r->ranges[i][0] = lo;
        return 0;
    }
    uint64_t(*n)[2] = realloc(r->ranges, (r->nranges + 1) * sizeof r->ranges[0]);
    if (!n)
        return -1;
    r->ranges = n;
    memmove(&r->ranges[i + 1], &r->ranges[i], (r->nranges - i) * sizeof r->ranges[0]);
    r->ranges[i][0] = lo;
    r->ranges[i][1] = hi;
    r->nranges++;
    return 0;
}

static json_t *hex32(uint32_t x)
{
    char b[16];
    snprintf(b, sizeof b, "%08" PRIx32, x);
    return json_string(b);
}

int exh_json_write(const char *path, const exh_result *r, char *err, size_t errlen)
{
    json_t *root = json_object(), *ranges = json_array(), *funcs = json_array();
    uint64_t per_func = 0, total = 0, mism = 0;
    for (size_t i = 0; i < r->nranges; i++) {
        json_array_append_new(ranges, json_pack("[II]", (json_int_t)r->ranges[i][0],
                                                (json_int_t)r->ranges[i][1]));
        per_func += r->ranges[i][1] - r->ranges[i][0];
    }
    for (unsigned op = 0; op < FPVEC_NOPS; op++) {
        if (!(r->ops & (1u << op)))
            continue;
        const fpvec_exh_tally *t = &r->tally[op];
        json_t *hist = json_array(), *first = json_array();
        for (unsigned c = 0; c < FPVEC_EXH_NCLASS; c++)
            for (unsigned b = 0; b < FPVEC_EXH_NBUCKET; b++) {
                if (!t->hist[c][b])
                    continue;
                char cn[48], bn[48];
                json_array_append_new(hist, json_pack("{sisssisssI}", "class", (int)c,
                                                      "class_name",
                                                      fpvec_exh_class_name(op, c, cn, sizeof cn),
                                                      "bucket", (int)b, "ulp",
                                                      fpvec_exh_bucket_name(b, bn, sizeof bn),
                                                      "count", (json_int_t)t->hist[c][b]));
            }
        for (unsigned i = 0; i < t->nfirst; i++)
            json_array_append_new(first, json_pack("{soso so}", "a", hex32(t->first[i].a),
                                                   "expected", hex32(t->first[i].expected),
                                                   "got", hex32(t->first[i].got)));
        json_array_append_new(funcs, json_pack("{sisssIsIsIsoso}", "op", (int)op, "name",
                                               fpvec_op_name(op), "inputs",
                                               (json_int_t)t->inputs, "skipped",
                                               (json_int_t)t->skipped, "mismatches",
                                               (json_int_t)t->mismatches, "histogram", hist,
                                               "first_mismatches", first));
        total += t->inputs;
        mism += t->mismatches;
    }
    json_object_set_new(root, "schema", json_string(FPVEC_EXH_SCHEMA));
    json_object_set_new(root, "sv", json_string(r->sv));
    json_object_set_new(root, "sv_sha256", json_string(r->sv_sha256));
    json_object_set_new(root, "rev", json_string(r->rev->name));
    json_object_set_new(root, "ranges", ranges);
    json_object_set_new(root, "whole", json_pack("[II]", (json_int_t)r->whole[0],
                                                 (json_int_t)r->whole[1]));
    json_t *shards = json_array();
    for (size_t i = 0; i < r->nshards; i++)
        json_array_append_new(shards, json_integer((json_int_t)r->shards[i]));
    json_object_set_new(root, "shards", shards);
    json_object_set_new(root, "of", json_integer((json_int_t)r->of));
    json_object_set_new(root, "inputs_per_function", json_integer((json_int_t)per_func));
    json_object_set_new(root, "inputs", json_integer((json_int_t)total));
    json_object_set_new(root, "mismatches", json_integer((json_int_t)mism));
    json_object_set_new(root, "wall_s", json_real(r->wall_s));
    json_object_set_new(root, "processes", json_integer(r->procs));
    json_object_set_new(root, "mismatch_file", json_string(r->mismatch_file));
    json_object_set_new(root, "functions", funcs);
    /* (the caller's output.h file: a temporary file renamed into place, or a device) */
    int rc = json_dump_file(root, path, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    if (rc)
        snprintf(err, errlen, "cannot write %s", path);
    json_decref(root);
    return rc ? -1 : 0;
}

/* ---- reading back ---------------------------------------------------------------------------- */

static int bad(char *err, size_t errlen, const char *path, const char *what)
{
    snprintf(err, errlen, "%s: not an otpu-fpvec exhaustive result: %s", path, what);
    return -1;
}

static int get_u64(json_t *o, const char *k, uint64_t max, uint64_t *v)
{
    json_t *x = json_object_get(o, k);
    if (!json_is_integer(x) || json_integer_value(x) < 0 ||
        (uint64_t)json_integer_value(x) > max)
        return -1;
    *v = (uint64_t)json_integer_value(x);
    return 0;
}

static int get_hex32(json_t *o, const char *k, uint32_t *v)
{
    const char *s = json_string_value(json_object_get(o, k));
    char *end;
    if (!s || !*s || strlen(s) > 8)
        return -1;
    unsigned long x = strtoul(s, &end, 16);
    if (*end)
        return -1;
    *v = (uint32_t)x;
    return 0;
}

static int read_function(json_t *f, exh_result *r, char *what, size_t n)
{
    uint64_t op, x;
    if (get_u64(f, "op", FPVEC_NOPS - 1, &op) || !fpvec_op_unary((unsigned)op)) {
        snprintf(what, n, "a function without a one-operand op");
        return -1;
    }
    if (r->ops & (1u << op)) {
        snprintf(what, n, "function %s twice", fpvec_op_name((unsigned)op));
        return -1;
    }
    r->ops |= 1u << op;
    fpvec_exh_tally *t = &r->tally[op];
    if (get_u64(f, "inputs", UINT64_MAX, &t->inputs) ||
        get_u64(f, "skipped", UINT64_MAX, &t->skipped) ||
        get_u64(f, "mismatches", UINT64_MAX, &t->mismatches)) {
        snprintf(what, n, "%s: inputs, skipped or mismatches missing", fpvec_op_name((unsigned)op));
        return -1;
    }
    json_t *hist = json_object_get(f, "histogram"), *first = json_object_get(f,
                                                                             "first_mismatches");
    if (!json_is_array(hist) || !json_is_array(first)) {
        snprintf(what, n, "%s: histogram or first_mismatches missing", fpvec_op_name((unsigned)op));
        return -1;
    }
    size_t i;
    json_t *e;
    uint64_t sum = 0;
    json_array_foreach(hist, i, e) {
        uint64_t c, b;
        if (get_u64(e, "class", FPVEC_EXH_NCLASS - 1, &c) ||
            get_u64(e, "bucket", FPVEC_EXH_NBUCKET - 1, &b) ||
            get_u64(e, "count", UINT64_MAX, &x)) {
            snprintf(what, n, "%s: a bad histogram cell", fpvec_op_name((unsigned)op));
            return -1;
        }
        t->hist[c][b] += x;
        sum += x;
    }
    if (sum != t->mismatches) {
        snprintf(what, n, "%s: the histogram does not add up to the mismatches",
                 fpvec_op_name((unsigned)op));
        return -1;
    }
    json_array_foreach(first, i, e) {
        fpvec_exh_mm m;
        if (get_hex32(e, "a", &m.a) || get_hex32(e, "expected", &m.expected) ||
            get_hex32(e, "got", &m.got)) {
            snprintf(what, n, "%s: a bad first mismatch", fpvec_op_name((unsigned)op));
            return -1;
        }
        fpvec_exh_keep(t, &m);
    }
    return 0;
}

/* whole, of and shards: the split the result's inputs come from */
static int read_shards(json_t *root, exh_result *r, char *what, size_t n)
{
    json_t *whole = json_object_get(root, "whole"), *shards = json_object_get(root, "shards");
    json_t *lo = json_array_get(whole, 0), *hi = json_array_get(whole, 1);
    if (json_array_size(whole) != 2 || !json_is_integer(lo) || !json_is_integer(hi) ||
        json_integer_value(lo) < 0 || json_integer_value(hi) <= json_integer_value(lo) ||
        json_integer_value(hi) > (json_int_t)1 << 32 || get_u64(root, "of", 1ull << 32, &r->of) ||
        !r->of || !json_is_array(shards) || !json_array_size(shards)) {
        snprintf(what, n, "whole, of or shards missing or bad");
        return -1;
    }
    r->whole[0] = (uint64_t)json_integer_value(lo);
    r->whole[1] = (uint64_t)json_integer_value(hi);
    size_t i;
    json_t *e;
    json_array_foreach(shards, i, e) {
        if (!json_is_integer(e) || json_integer_value(e) < 0 ||
            (uint64_t)json_integer_value(e) >= r->of ||
            exh_result_add_shard(r, (uint64_t)json_integer_value(e))) {
            snprintf(what, n, "a shard out of 0..%llu, or twice", (unsigned long long)(r->of - 1));
            return -1;
        }
    }
    return 0;
}

/* Every function's inputs and skipped inputs are the result's ranges, each once. */
static int counts_add_up(const exh_result *r, char *what, size_t n)
{
    uint64_t size = 0;
    for (size_t i = 0; i < r->nranges; i++)
        size += r->ranges[i][1] - r->ranges[i][0];
    for (unsigned op = 0; op < FPVEC_NOPS; op++)
        if ((r->ops & (1u << op)) && r->tally[op].inputs + r->tally[op].skipped != size) {
            snprintf(what, n, "%s: %llu inputs and %llu skipped, but its ranges hold %llu",
                     fpvec_op_name(op), (unsigned long long)r->tally[op].inputs,
                     (unsigned long long)r->tally[op].skipped, (unsigned long long)size);
            return -1;
        }
    return 0;
}

int exh_json_read(const char *path, exh_result *r, char *err, size_t errlen)
{
    json_t *root = otpu_json_read(path, OTPU_JSON_MAX_BYTES, err, errlen);
    if (!root)
        return -1;
    int rc = -1;
    char what[160];
    const char *schema = json_string_value(json_object_get(root, "schema"));
    const char *sv = json_string_value(json_object_get(root, "sv"));
    const char *hash = json_string_value(json_object_get(root, "sv_sha256"));
    const char *rev = json_string_value(json_object_get(root, "rev"));
    json_t *ranges = json_object_get(root, "ranges"), *funcs = json_object_get(root, "functions");
    otpu_revision rv;
    if (!schema || strcmp(schema, FPVEC_EXH_SCHEMA) != 0) {
        rc = bad(err, errlen, path, "schema is not " FPVEC_EXH_SCHEMA);
        goto out;
    }
    if (!sv || !hash || strlen(hash) != 64 || !rev || otpu_rev_from_name(rev, &rv) != 0 ||
        !json_is_array(ranges) || !json_is_array(funcs)) {
        rc = bad(err, errlen, path, "sv, sv_sha256, rev, ranges or functions missing or bad");
        goto out;
    }
    snprintf(r->sv, sizeof r->sv, "%s", sv);
    snprintf(r->sv_sha256, sizeof r->sv_sha256, "%s", hash);
    r->rev = otpu_rev_desc_of(rv);
    r->wall_s = json_number_value(json_object_get(root, "wall_s"));
    size_t i;
    json_t *e;
    json_array_foreach(ranges, i, e) {
        json_t *lo = json_array_get(e, 0), *hi = json_array_get(e, 1);
        if (json_array_size(e) != 2 || !json_is_integer(lo) || !json_is_integer(hi) ||
            json_integer_value(lo) < 0 || json_integer_value(hi) <= json_integer_value(lo) ||
            json_integer_value(hi) > (json_int_t)1 << 32 ||
            exh_result_add_range(r, (uint64_t)json_integer_value(lo),
                                 (uint64_t)json_integer_value(hi)) != 0) {
            rc = bad(err, errlen, path, "a bad or overlapping range");
            goto out;
        }
    }
    json_array_foreach(funcs, i, e) {
        if (read_function(e, r, what, sizeof what) != 0) {
            rc = bad(err, errlen, path, what);
            goto out;
        }
    }
    if (!r->nranges || !r->ops) {
        rc = bad(err, errlen, path, "no range or no function");
        goto out;
    }
    if (read_shards(root, r, what, sizeof what) || counts_add_up(r, what, sizeof what)) {
        rc = bad(err, errlen, path, what);
        goto out;
    }
    rc = 0;
out:
    json_decref(root);
    return rc;
}
