/* Kernels of rouge155py: union LCS (ROUGE-L, ROUGE-W), clipped unit hits, bootstrap sums.
 *
 * union_lcs scores one model against one peer: for each model sentence, the
 * LCS with every peer sentence marks model positions (the Perl's backtrack:
 * diagonal on equal tokens, else up when the cell above is >= the cell to the
 * left, else left); marked positions are then counted while the token's
 * budget (min of model and peer unigram counts) lasts.  With a weight table
 * f[k] = k ** w the weighted DP and run weights are used instead.  The float
 * operations are those of the pure-Python path: (diag + f[k+1]) - f[k].
 * The table is kept as two rows of values and one bit per cell (up or left,
 * where the tokens differ), so a pair of sentences of m and n tokens takes
 * m * n / 8 bytes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int *lcs[2];          /* ROUGE-L: the row above and the current row of cell values */
    double *wlcs[2];      /* ROUGE-W: the same, weighted */
    int *runs[2];         /* ROUGE-W: lengths of the consecutive matches ending in a cell */
    unsigned char *up;    /* one bit per cell: the backtrack goes up there (when tokens differ) */
    size_t row_cells, up_bytes;
    size_t since_check;   /* cells computed since the last look at pending signals */
} Work;

/* Cells between two looks at pending signals: Ctrl-C stops a long table within ~10 ms. */
#define CHECK_CELLS ((size_t)1 << 23)

static int work_rows(Work *w, size_t cells) {
    int k;
    if (cells <= w->row_cells) return 0;
    for (k = 0; k < 2; k++) {
        int *a = (int *)realloc(w->lcs[k], cells * sizeof(int));
        if (!a) return -1;
        w->lcs[k] = a;
        double *d = (double *)realloc(w->wlcs[k], cells * sizeof(double));
        if (!d) return -1;
        w->wlcs[k] = d;
        int *r = (int *)realloc(w->runs[k], cells * sizeof(int));
        if (!r) return -1;
        w->runs[k] = r;
    }
    w->row_cells = cells;
    return 0;
}

static int work_bits(Work *w, size_t bytes) {
    if (bytes <= w->up_bytes) return 0;
    free(w->up);
    w->up = (unsigned char *)malloc(bytes);
    if (!w->up) {
        w->up_bytes = 0;
        return -1;
    }
    w->up_bytes = bytes;
    return 0;
}

static void work_free(Work *w) {
    int k;
    for (k = 0; k < 2; k++) {
        free(w->lcs[k]);
        free(w->wlcs[k]);
        free(w->runs[k]);
    }
    free(w->up);
}

/* After each row: -1 (an exception is set) when a signal handler raised. */
static int row_done(Work *w, Py_ssize_t n) {
    w->since_check += (size_t)n;
    if (w->since_check < CHECK_CELLS) return 0;
    w->since_check = 0;
    return PyErr_CheckSignals();
}

/* Bit j of a row of backtrack bits, j = 1 .. n (bit 0 is the unused boundary column). */
#define UP_BIT(row, j) (((row)[(j) >> 3] >> ((j) & 7)) & 1)

/* The Perl's backtrack from (m, n): diagonal on equal tokens, else up when the
 * cell above was >= the cell to the left, else left.  Marks model positions. */
static void backtrack(const int *model, Py_ssize_t m, const int *peer, Py_ssize_t n,
                      const unsigned char *up, size_t stride, unsigned char *mask) {
    Py_ssize_t i = m, j = n;
    while (i && j) {
        if (model[i - 1] == peer[j - 1]) {
            i--;
            j--;
            mask[i] = 1;
        } else if (UP_BIT(up + (size_t)(i - 1) * stride, j)) {
            i--;
        } else {
            j--;
        }
    }
}

/* ROUGE-L: the LCS table of model[0..m) x peer[0..n), two rows at a time, then the backtrack. */
static int mark_lcs(const int *model, Py_ssize_t m, const int *peer, Py_ssize_t n, Work *w,
                    unsigned char *mask) {
    Py_ssize_t i, j;
    size_t stride = (size_t)n / 8 + 1;
    int *above = w->lcs[0], *row = w->lcs[1];
    memset(above, 0, (size_t)(n + 1) * sizeof(int));
    for (i = 1; i <= m; i++) {
        unsigned char *bits = w->up + (size_t)(i - 1) * stride;
        int token = model[i - 1], *swap;
        memset(bits, 0, stride);
        row[0] = 0;
        for (j = 1; j <= n; j++) {
            if (token == peer[j - 1]) {
                row[j] = above[j - 1] + 1;
            } else if (above[j] >= row[j - 1]) {
                row[j] = above[j];
                bits[j >> 3] |= (unsigned char)(1u << (j & 7));
            } else {
                row[j] = row[j - 1];
            }
        }
        swap = above;
        above = row;
        row = swap;
        if (row_done(w, n) < 0) return -1;
    }
    backtrack(model, m, peer, n, w->up, stride, mask);
    return 0;
}

/* ROUGE-W: the weighted LCS table, f[k] = k ** w; a match adds f[k+1] then subtracts f[k]. */
static int mark_wlcs(const int *model, Py_ssize_t m, const int *peer, Py_ssize_t n, const double *f,
                     Work *w, unsigned char *mask) {
    Py_ssize_t i, j;
    size_t stride = (size_t)n / 8 + 1;
    double *above = w->wlcs[0], *row = w->wlcs[1];
    int *rabove = w->runs[0], *rrow = w->runs[1];
    for (j = 0; j <= n; j++) {
        above[j] = 0.0;
        rabove[j] = 0;
    }
    for (i = 1; i <= m; i++) {
        unsigned char *bits = w->up + (size_t)(i - 1) * stride;
        int token = model[i - 1], *rswap;
        double *swap;
        memset(bits, 0, stride);
        row[0] = 0.0;
        rrow[0] = 0;
        for (j = 1; j <= n; j++) {
            if (token == peer[j - 1]) {
                int k = rabove[j - 1];
                double v = above[j - 1] + f[k + 1];
                row[j] = v - f[k];
                rrow[j] = k + 1;
            } else {
                if (above[j] >= row[j - 1]) {
                    row[j] = above[j];
                    bits[j >> 3] |= (unsigned char)(1u << (j & 7));
                } else {
                    row[j] = row[j - 1];
                }
                rrow[j] = 0;
            }
        }
        swap = above;
        above = row;
        row = swap;
        rswap = rabove;
        rabove = rrow;
        rrow = rswap;
        if (row_done(w, n) < 0) return -1;
    }
    backtrack(model, m, peer, n, w->up, stride, mask);
    return 0;
}

static int get_buffer(PyObject *obj, Py_buffer *view, const char *what, Py_ssize_t itemsize) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view->itemsize != itemsize) {
        PyErr_Format(PyExc_TypeError, "%s: wrong item size", what);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* Budget of a token in a sorted (ids, counts) table; 0 when absent. */
static int lookup(const int *ids, const int *counts, Py_ssize_t n, int id) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (ids[mid] < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && ids[lo] == id ? counts[lo] : 0;
}

#define N_BUFFERS 8

/* union_lcs(model, model_offsets, model_unigram_ids, model_unigram_counts,
 *           peer, peer_offsets, peer_unigram_ids, peer_unigram_counts, weights)
 *   model, peer: int32 token ids, sentences concatenated;
 *   *_offsets: int32, sentence s is [off[s], off[s+1]);
 *   *_unigram_ids (sorted) and *_unigram_counts: int32, the text's unigram
 *     counts from the n-gram reader: the clipping budgets;
 *   weights: None for ROUGE-L, else float64 f[k] = k ** w for k = 0 .. longest+1.
 * Returns (hit, base): counted hits (weighted runs for ROUGE-W) and the model
 * length (sum of f[len] per sentence for ROUGE-W).
 */
static PyObject *union_lcs(PyObject *self, PyObject *args) {
    PyObject *objs[N_BUFFERS], *o_weights;
    Py_buffer bufs[N_BUFFERS], weights;
    static const char *names[N_BUFFERS] = {"model", "model offsets", "model unigram ids",
                                           "model unigram counts", "peer", "peer offsets",
                                           "peer unigram ids", "peer unigram counts"};
    int have_weights, got = 0;
    Py_ssize_t k;
    Work w = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}, NULL, 0, 0, 0};
    PyObject *result = NULL;
    unsigned char *mask = NULL;
    int *used = NULL, *cap = NULL, *slot = NULL;

    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &o_weights))
        return NULL;
    have_weights = o_weights != Py_None;
    for (got = 0; got < N_BUFFERS; got++)
        if (get_buffer(objs[got], &bufs[got], names[got], 4) < 0) goto release;
    if (have_weights && get_buffer(o_weights, &weights, "weights", 8) < 0) goto release;
    {
        const int *mt = (const int *)bufs[0].buf, *mo = (const int *)bufs[1].buf;
        const int *mu = (const int *)bufs[2].buf, *mc = (const int *)bufs[3].buf;
        const int *pt = (const int *)bufs[4].buf, *po = (const int *)bufs[5].buf;
        const int *pu = (const int *)bufs[6].buf, *pc = (const int *)bufs[7].buf;
        Py_ssize_t nmu = bufs[2].len / 4, npu = bufs[6].len / 4;
        const double *f = have_weights ? (const double *)weights.buf : NULL;
        Py_ssize_t nf = have_weights ? weights.len / 8 : 0;
        Py_ssize_t ms = bufs[1].len / 4 - 1, ps = bufs[5].len / 4 - 1, s, t, longest = 0;
        Py_ssize_t total = bufs[0].len / 4;
        double hit = 0.0, base = 0.0;

        for (t = 0; t < ps; t++)
            if (po[t + 1] - po[t] > longest) longest = po[t + 1] - po[t];
        if (work_rows(&w, (size_t)longest + 1) < 0) {
            PyErr_NoMemory();
            goto done;
        }
        mask = (unsigned char *)calloc(total ? total : 1, 1);
        used = (int *)calloc(nmu + 1, sizeof(int));
        cap = (int *)calloc(nmu + 1, sizeof(int));
        slot = (int *)malloc((total ? total : 1) * sizeof(int));
        if (!mask || !used || !cap || !slot) {
            PyErr_NoMemory();
            goto done;
        }
        /* A model token's budget is shared by all its occurrences: slot[pos]
         * is its index in the model's unigram table (nmu when it has none). */
        for (k = 0; k < nmu; k++) {
            int peer_budget = lookup(pu, pc, npu, mu[k]);
            cap[k] = mc[k] < peer_budget ? mc[k] : peer_budget;
        }
        for (k = 0; k < total; k++) {
            Py_ssize_t lo = 0, hi = nmu;
            while (lo < hi) {
                Py_ssize_t mid = lo + (hi - lo) / 2;
                if (mu[mid] < mt[k]) lo = mid + 1;
                else hi = mid;
            }
            slot[k] = lo < nmu && mu[lo] == mt[k] ? (int)lo : (int)nmu;
        }
        for (s = 0; s < ms; s++) {
            Py_ssize_t start = mo[s], m = mo[s + 1] - mo[s], j, run = 0;
            if (f && (m + 1 >= nf || longest + 1 >= nf)) {
                PyErr_SetString(PyExc_ValueError, "weight table too short");
                goto done;
            }
            base += f ? f[m] : (double)m;
            if (m == 0) continue;
            for (t = 0; t < ps; t++) {
                Py_ssize_t n = po[t + 1] - po[t];
                if (n == 0) continue;
                if (work_bits(&w, (size_t)m * ((size_t)n / 8 + 1)) < 0) {
                    PyErr_NoMemory();
                    goto done;
                }
                if ((f ? mark_wlcs(mt + start, m, pt + po[t], n, f, &w, mask + start)
                       : mark_lcs(mt + start, m, pt + po[t], n, &w, mask + start)) < 0)
                    goto done;
            }
            for (j = 0; j < m; j++) {
                Py_ssize_t pos = start + j;
                if (!mask[pos] || used[slot[pos]] >= cap[slot[pos]]) continue;
                used[slot[pos]]++;
                if (!f) {
                    hit += 1.0;
                    continue;
                }
                run++;
                if ((j + 1 < m && !mask[pos + 1]) || j + 1 == m) {
                    hit += f[run];
                    run = 0;
                }
            }
        }
        result = Py_BuildValue("(dd)", hit, base);
    }
done:
    free(mask);
    free(used);
    free(cap);
    free(slot);
    work_free(&w);
    if (have_weights) PyBuffer_Release(&weights);
release:
    while (got-- > 0) PyBuffer_Release(&bufs[got]);
    return result;
}

/* bootstrap_sums(rows, resamples, out[, divisor])
 *   rows: float64 (n x 3), the instance values in sorted instance order;
 *   out: float64 (resamples x 3).  Resample i seeds Perl's drand48 with
 *   srand(i), draws n indices int(n * drand48()) and adds the drawn rows in
 *   draw order; each sum is then divided by divisor when one is given.
 */
static PyObject *bootstrap_sums(PyObject *self, PyObject *args) {
    PyObject *o_rows, *o_out;
    Py_ssize_t resamples;
    double divisor = 0.0;
    Py_buffer rows, out;
    if (!PyArg_ParseTuple(args, "OnO|d", &o_rows, &resamples, &o_out, &divisor)) return NULL;
    if (get_buffer(o_rows, &rows, "rows", 8) < 0) return NULL;
    if (get_buffer(o_out, &out, "out", 8) < 0) {
        PyBuffer_Release(&rows);
        return NULL;
    }
    {
        const double *v = (const double *)rows.buf;
        double *o = (double *)out.buf;
        Py_ssize_t n = rows.len / 8 / 3, i, k;
        size_t since_check = 0;
        if (out.len / 8 != resamples * 3) {
            PyErr_SetString(PyExc_ValueError, "output has the wrong size");
            PyBuffer_Release(&rows);
            PyBuffer_Release(&out);
            return NULL;
        }
        for (i = 0; i < resamples; i++) {
            unsigned long long state = ((unsigned long long)i << 16) + 0x330EULL;
            double a = 0.0, b = 0.0, c = 0.0;
            for (k = 0; k < n; k++) {
                Py_ssize_t at;
                state = (state * 0x5DEECE66DULL + 0xBULL) & 0xFFFFFFFFFFFFULL;
                at = (Py_ssize_t)((double)n * ((double)state * 0x1p-48));
                if (k == 0) {
                    a = v[3 * at];
                    b = v[3 * at + 1];
                    c = v[3 * at + 2];
                } else {
                    a += v[3 * at];
                    b += v[3 * at + 1];
                    c += v[3 * at + 2];
                }
            }
            if (divisor != 0.0) {
                a /= divisor;
                b /= divisor;
                c /= divisor;
            }
            o[3 * i] = a;
            o[3 * i + 1] = b;
            o[3 * i + 2] = c;
            since_check += (size_t)n + 1;
            if (since_check >= CHECK_CELLS) {
                since_check = 0;
                if (PyErr_CheckSignals() < 0) {
                    PyBuffer_Release(&rows);
                    PyBuffer_Release(&out);
                    return NULL;
                }
            }
        }
    }
    PyBuffer_Release(&rows);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* Ascending, NaN last: a total order (qsort must not be given an inconsistent one). */
static int by_value(const void *pa, const void *pb) {
    double a = *(const double *)pa, b = *(const double *)pb;
    if (a < b) return -1;
    if (a > b) return 1;
    if (a == b) return 0;
    return (a != a) - (b != b);
}

/* sort_and_sum(values) -> float
 *   values: float64, sorted in place (ascending, NaN last); returns their sum
 *   added left to right, as the Perl adds its sorted resample means.
 */
static PyObject *sort_and_sum(PyObject *self, PyObject *args) {
    PyObject *o_values;
    Py_buffer values;
    double total = 0.0, *v;
    Py_ssize_t n, i;
    if (!PyArg_ParseTuple(args, "O", &o_values)) return NULL;
    if (PyObject_GetBuffer(o_values, &values, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0)
        return NULL;
    if (values.itemsize != 8) {
        PyErr_SetString(PyExc_TypeError, "values: wrong item size");
        PyBuffer_Release(&values);
        return NULL;
    }
    v = (double *)values.buf;
    n = values.len / 8;
    qsort(v, (size_t)n, sizeof(double), by_value);
    for (i = 0; i < n; i++) total += v[i];
    PyBuffer_Release(&values);
    return PyFloat_FromDouble(total);
}

/* ---- Clipped unit hits of one (peer, model) pair: n-grams and skip-bigrams ---- */

typedef struct {
    Py_ssize_t width;   /* ints per unit */
    Py_ssize_t mask;    /* slots - 1 (a power of two minus one) */
    Py_ssize_t *slot;   /* index of the unit in keys, or -1 */
    int *keys;          /* units, width ints each */
    long long *count;   /* per unit */
    Py_ssize_t size;    /* units stored */
} UnitSet;

static size_t hash_unit(const int *unit, Py_ssize_t width) {
    unsigned long long h = 1469598103934665603ULL;
    Py_ssize_t k;
    for (k = 0; k < width; k++) {
        h ^= (unsigned int)unit[k];
        h *= 1099511628211ULL;
    }
    return (size_t)(h ^ (h >> 29));
}

/* Slot of the unit: where it is, or the empty slot where it would go. */
static Py_ssize_t find_slot(const UnitSet *set, const int *unit) {
    Py_ssize_t at = (Py_ssize_t)(hash_unit(unit, set->width) & (size_t)set->mask);
    while (set->slot[at] >= 0 &&
           memcmp(set->keys + set->slot[at] * set->width, unit, (size_t)set->width * sizeof(int)))
        at = (at + 1) & set->mask;
    return at;
}

/* Calls visit(unit) for every unit of a token sequence, in the Perl's order. */
typedef struct {
    int mode;           /* 0: n-grams of size n; 1: skip-bigrams */
    Py_ssize_t n;       /* n-gram size */
    Py_ssize_t reach;   /* skip-bigrams: the largest j - i, or -1 for no limit */
    int unigrams;       /* skip-bigrams: also the unigram of token i */
} UnitRule;

#define FOR_EACH_UNIT(rule, tokens, len, unit, BODY)                                   \
    do {                                                                               \
        Py_ssize_t ui, uj;                                                             \
        if ((rule)->mode == 0) {                                                       \
            for (ui = 0; ui + (rule)->n <= (len); ui++) {                              \
                memcpy(unit, (tokens) + ui, (size_t)(rule)->n * sizeof(int));         \
                BODY                                                                   \
            }                                                                          \
        } else {                                                                       \
            for (ui = 0; ui + 1 < (len); ui++) {                                       \
                Py_ssize_t last = (len) - 1;                                           \
                if ((rule)->reach >= 0 && ui + (rule)->reach < last) last = ui + (rule)->reach; \
                if ((rule)->unigrams) {                                                \
                    unit[0] = (tokens)[ui];                                            \
                    unit[1] = -1;                                                      \
                    BODY                                                               \
                }                                                                      \
                for (uj = ui + 1; uj <= last; uj++) {                                  \
                    unit[0] = (tokens)[ui];                                            \
                    unit[1] = (tokens)[uj];                                            \
                    BODY                                                               \
                }                                                                      \
            }                                                                          \
        }                                                                              \
    } while (0)

/* unit_hits(peer, model, mode, n, reach, unigrams) -> (hit, model units, peer units)
 *   peer, model: int32 token ids (ids >= 0);
 *   mode 0: n-grams of size n; mode 1: skip-bigrams with j - i <= reach
 *   (reach < 0: any), plus token i's unigram when unigrams is true.
 *   hit = sum over units of min(count in peer, count in model).
 */
static PyObject *unit_hits(PyObject *self, PyObject *args) {
    PyObject *o_peer, *o_model;
    Py_buffer peer, model;
    UnitRule rule;
    Py_ssize_t n, reach;
    int mode, unigrams;
    UnitSet set = {0, 0, NULL, NULL, NULL, 0};
    PyObject *result = NULL;
    long long hit = 0, model_units = 0, peer_units = 0;
    int unit[64];

    if (!PyArg_ParseTuple(args, "OOinnp", &o_peer, &o_model, &mode, &n, &reach, &unigrams)) return NULL;
    if ((mode == 0 && (n < 1 || n > 64)) || (mode != 0 && mode != 1)) {
        PyErr_SetString(PyExc_ValueError, "unit_hits: bad unit rule");
        return NULL;
    }
    if (get_buffer(o_peer, &peer, "peer", 4) < 0) return NULL;
    if (get_buffer(o_model, &model, "model", 4) < 0) {
        PyBuffer_Release(&peer);
        return NULL;
    }
    rule.mode = mode;
    rule.n = n;
    rule.reach = reach;
    rule.unigrams = unigrams;
    set.width = mode == 0 ? n : 2;
    {
        const int *mt = (const int *)model.buf, *pt = (const int *)peer.buf;
        Py_ssize_t ml = model.len / 4, pl = peer.len / 4, capacity = 0, slots = 16;
        FOR_EACH_UNIT(&rule, mt, ml, unit, { capacity++; });
        while (slots < 2 * capacity) slots *= 2;
        set.mask = slots - 1;
        set.slot = (Py_ssize_t *)malloc((size_t)slots * sizeof(Py_ssize_t));
        set.keys = (int *)malloc((size_t)(capacity ? capacity : 1) * (size_t)set.width * sizeof(int));
        set.count = (long long *)malloc((size_t)(capacity ? capacity : 1) * sizeof(long long));
        if (!set.slot || !set.keys || !set.count) {
            PyErr_NoMemory();
            goto done;
        }
        memset(set.slot, 0xff, (size_t)slots * sizeof(Py_ssize_t));
        FOR_EACH_UNIT(&rule, mt, ml, unit, {
            Py_ssize_t at = find_slot(&set, unit);
            model_units++;
            if (set.slot[at] < 0) {
                set.slot[at] = set.size;
                memcpy(set.keys + set.size * set.width, unit, (size_t)set.width * sizeof(int));
                set.count[set.size++] = 1;
            } else {
                set.count[set.slot[at]]++;
            }
        });
        /* Each peer unit takes one of the model's remaining copies: min(peer, model). */
        FOR_EACH_UNIT(&rule, pt, pl, unit, {
            Py_ssize_t at = find_slot(&set, unit);
            peer_units++;
            if (set.slot[at] >= 0 && set.count[set.slot[at]] > 0) {
                set.count[set.slot[at]]--;
                hit++;
            }
        });
        result = Py_BuildValue("(LLL)", hit, model_units, peer_units);
    }
done:
    free(set.slot);
    free(set.keys);
    free(set.count);
    PyBuffer_Release(&peer);
    PyBuffer_Release(&model);
    return result;
}

static PyMethodDef methods[] = {
    {"union_lcs", union_lcs, METH_VARARGS, "Union-LCS hits and base of one model against one peer."},
    {"bootstrap_sums", bootstrap_sums, METH_VARARGS, "Perl-exact bootstrap resample sums."},
    {"sort_and_sum", sort_and_sum, METH_VARARGS, "Sort doubles in place; their sum in that order."},
    {"unit_hits", unit_hits, METH_VARARGS, "Clipped n-gram or skip-bigram hits of one pair."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_accel", "rouge155py kernels: union LCS, unit hits, bootstrap sums.", -1, methods};

PyMODINIT_FUNC PyInit__accel(void) { return PyModule_Create(&module); }
