/* Union-LCS kernel for ROUGE-L and ROUGE-W.
 *
 * One call scores one model against one peer: for each model sentence, the
 * LCS with every peer sentence marks model positions (the Perl's backtrack:
 * diagonal on equal tokens, else up when the cell above is >= the cell to the
 * left, else left); marked positions are then counted while the token's
 * budget (min of model and peer unigram counts) lasts.  With a weight table
 * f[k] = k ** w the weighted DP and run weights are used instead.  The float
 * operations are those of the pure-Python path: (diag + f[k+1]) - f[k].
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double *c;
    int *runs;
    size_t cells;
} Work;

static int work_reserve(Work *w, size_t cells, int weighted) {
    if (cells <= w->cells) return 0;
    double *c = (double *)realloc(w->c, cells * sizeof(double));
    if (!c) return -1;
    w->c = c;
    if (weighted) {
        int *r = (int *)realloc(w->runs, cells * sizeof(int));
        if (!r) return -1;
        w->runs = r;
    }
    w->cells = cells;
    return 0;
}

/* Fill the DP table of model[0..m) x peer[0..n) and mark the backtrack. */
static void mark_pair(const int *model, Py_ssize_t m, const int *peer, Py_ssize_t n,
                      const double *f, Work *w, unsigned char *mask) {
    Py_ssize_t i, j, stride = n + 1;
    double *c = w->c;
    int *runs = w->runs;
    for (j = 0; j <= n; j++) {
        c[j] = 0.0;
        if (f) runs[j] = 0;
    }
    for (i = 1; i <= m; i++) {
        double *row = c + i * stride, *above = row - stride;
        int *rrow = f ? runs + i * stride : NULL, *rabove = f ? rrow - stride : NULL;
        int token = model[i - 1];
        row[0] = 0.0;
        if (f) rrow[0] = 0;
        for (j = 1; j <= n; j++) {
            if (token == peer[j - 1]) {
                if (f) {
                    int k = rabove[j - 1];
                    double v = above[j - 1] + f[k + 1];
                    row[j] = v - f[k];
                    rrow[j] = k + 1;
                } else {
                    row[j] = above[j - 1] + 1.0;
                }
            } else {
                row[j] = above[j] >= row[j - 1] ? above[j] : row[j - 1];
                if (f) rrow[j] = 0;
            }
        }
    }
    i = m;
    j = n;
    while (i && j) {
        if (model[i - 1] == peer[j - 1]) {
            i--;
            j--;
            mask[i] = 1;
        } else if (c[(i - 1) * stride + j] >= c[i * stride + j - 1]) {
            i--;
        } else {
            j--;
        }
    }
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

/* union_lcs(model, model_offsets, peer, peer_offsets, local_ids, caps, weights)
 *   model, peer: int32 token ids, sentences concatenated;
 *   *_offsets: int32, sentence s is [off[s], off[s+1]);
 *   local_ids: int32 per model position, index into caps;
 *   caps: int32 per local token, min(model count, peer count) of that token;
 *   weights: None for ROUGE-L, else float64 f[k] = k ** w for k = 0 .. longest+1.
 * Returns (hit, base): counted hits (weighted runs for ROUGE-W) and the model
 * length (sum of f[len] per sentence for ROUGE-W).
 */
static PyObject *union_lcs(PyObject *self, PyObject *args) {
    PyObject *o_model, *o_moff, *o_peer, *o_poff, *o_lid, *o_caps, *o_weights;
    Py_buffer model, moff, peer, poff, lid, caps, weights;
    int have_weights;
    Work w = {NULL, NULL, 0};
    PyObject *result = NULL;
    unsigned char *mask = NULL;
    int *used = NULL;

    if (!PyArg_ParseTuple(args, "OOOOOOO", &o_model, &o_moff, &o_peer, &o_poff, &o_lid, &o_caps,
                          &o_weights))
        return NULL;
    have_weights = o_weights != Py_None;
    if (get_buffer(o_model, &model, "model", 4) < 0) return NULL;
    if (get_buffer(o_moff, &moff, "model offsets", 4) < 0) goto release_model;
    if (get_buffer(o_peer, &peer, "peer", 4) < 0) goto release_moff;
    if (get_buffer(o_poff, &poff, "peer offsets", 4) < 0) goto release_peer;
    if (get_buffer(o_lid, &lid, "local ids", 4) < 0) goto release_poff;
    if (get_buffer(o_caps, &caps, "caps", 4) < 0) goto release_lid;
    if (have_weights) {
        if (get_buffer(o_weights, &weights, "weights", 8) < 0) goto release_caps;
    }
    {
        const int *mt = (const int *)model.buf, *mo = (const int *)moff.buf;
        const int *pt = (const int *)peer.buf, *po = (const int *)poff.buf;
        const int *ids = (const int *)lid.buf, *cap = (const int *)caps.buf;
        const double *f = have_weights ? (const double *)weights.buf : NULL;
        Py_ssize_t nf = have_weights ? weights.len / 8 : 0;
        Py_ssize_t ms = moff.len / 4 - 1, ps = poff.len / 4 - 1, s, t, longest = 0;
        Py_ssize_t total = model.len / 4;
        double hit = 0.0, base = 0.0;

        for (t = 0; t < ps; t++)
            if (po[t + 1] - po[t] > longest) longest = po[t + 1] - po[t];
        mask = (unsigned char *)malloc(total ? total : 1);
        used = (int *)calloc(caps.len / 4 + 1, sizeof(int));
        if (!mask || !used) {
            PyErr_NoMemory();
            goto done;
        }
        memset(mask, 0, total ? total : 1);
        for (s = 0; s < ms; s++) {
            Py_ssize_t start = mo[s], m = mo[s + 1] - mo[s], j, run = 0;
            if (f) {
                if (m >= nf) {
                    PyErr_SetString(PyExc_ValueError, "weight table too short");
                    goto done;
                }
                base += f[m];
            } else {
                base += (double)m;
            }
            if (m == 0) continue;
            if (f && (m + 1 >= nf || longest + 1 >= nf)) {
                PyErr_SetString(PyExc_ValueError, "weight table too short");
                goto done;
            }
            for (t = 0; t < ps; t++) {
                Py_ssize_t n = po[t + 1] - po[t];
                if (n == 0) continue;
                if (work_reserve(&w, (size_t)(m + 1) * (size_t)(n + 1), have_weights) < 0) {
                    PyErr_NoMemory();
                    goto done;
                }
                mark_pair(mt + start, m, pt + po[t], n, f, &w, mask + start);
            }
            for (j = 0; j < m; j++) {
                Py_ssize_t pos = start + j;
                if (!mask[pos]) continue;
                if (used[ids[pos]] < cap[ids[pos]]) {
                    used[ids[pos]]++;
                    if (f) {
                        run++;
                        if ((j + 1 < m && !mask[pos + 1]) || j + 1 == m) {
                            hit += f[run];
                            run = 0;
                        }
                    } else {
                        hit += 1.0;
                    }
                }
            }
        }
        result = Py_BuildValue("(dd)", hit, base);
    }
done:
    free(mask);
    free(used);
    free(w.c);
    free(w.runs);
    if (have_weights) PyBuffer_Release(&weights);
release_caps:
    PyBuffer_Release(&caps);
release_lid:
    PyBuffer_Release(&lid);
release_poff:
    PyBuffer_Release(&poff);
release_peer:
    PyBuffer_Release(&peer);
release_moff:
    PyBuffer_Release(&moff);
release_model:
    PyBuffer_Release(&model);
    return result;
}

static PyMethodDef methods[] = {
    {"union_lcs", union_lcs, METH_VARARGS, "Union-LCS hits and base of one model against one peer."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_accel", "ROUGE-L/W kernel.", -1, methods};

PyMODINIT_FUNC PyInit__accel(void) { return PyModule_Create(&module); }
