/* Kernels of rouge155py: token ids, union LCS (ROUGE-L, ROUGE-W), clipped unit hits,
 * bootstrap sums, Porter stems.
 *
 * union_lcs scores one model against one peer: for each model sentence, the
 * LCS with every peer sentence marks model positions (the Perl's backtrack:
 * diagonal on equal tokens, else up when the cell above is >= the cell to the
 * left, else left); marked positions are then counted while the token's
 * budget (min of model and peer unigram counts) lasts.  With a weight table
 * f[k] = k ** w the weighted DP and run weights are used instead.  One routine,
 * mark_lcs, makes either table and walks the backtrack.  The weighted table is
 * kept as two rows of values and one bit per cell (up or left, where the tokens
 * differ), so a pair of sentences of m and n tokens takes m * n / 8 bytes; its
 * float operations are those of the pure-Python path: (diag + f[k+1]) - f[k].
 * ROUGE-L keeps each row as n bits (bit vectors: a row costs n / 64 word
 * operations), as many bytes.  Each text's clipping budget is counted once, by
 * budget().
 *
 * No function keeps state from call to call: every buffer belongs to one call, so calls
 * from several threads, or from a signal handler run in the middle of a call, never
 * share one.  A long computation copies or holds what it reads (a held buffer cannot be
 * resized or freed), lets the GIL go, and takes it back only to look at pending signals.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdio.h>
#include <time.h>
#if defined(__SSE2__)
#include <emmintrin.h> /* SSE2: on every x86-64 */
#endif

#include "_rs_text.h"

/* Cells between two looks at pending signals: Ctrl-C stops a long table within ~10 ms. */
#define CHECK_CELLS ((size_t)1 << 23)
/* Work below this many cells keeps the GIL: letting it go and taking it back would cost
 * more than another thread gains (and a thread waiting for the GIL waits up to 5 ms). */
#define RELEASE_CELLS ((size_t)1 << 18)

#define GIL_RELEASE_AT RELEASE_CELLS
#define GIL_CHECK_EVERY CHECK_CELLS
#include "_gil.h"

#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

typedef struct {
    /* ROUGE-W, by cells */
    double *cells[2];     /* the row above and the current row of the table's values */
    int *runs[2];         /* lengths of the consecutive matches ending in a cell */
    unsigned char *up;    /* one bit per cell: the backtrack goes up there (when tokens differ) */
    /* ROUGE-L, by bit vectors */
    unsigned long long *rows;  /* the rows of the table: (m + 1) * n / 64 words */
    unsigned long long *masks; /* per peer token given one, the positions holding it */
    int *slots;           /* a hash table of the peer sentence's tokens: (token, its kind) */
    int *kinds;           /* per peer position, the kind of its token (the order of first sight) */
    int *mask_of;         /* per kind, the index of its mask; -1: none */
    int *given;           /* the kinds given a mask for the current model sentence */
    int *kept;            /* the kinds of the model sentence's tokens that the peer sentence holds */
    int *kept_at;         /* their positions in the model sentence */
    Py_ssize_t words, table_slots; /* the current peer sentence's words per row, and slots */
    int every_kind;       /* every kind has its mask, for all model sentences */
    void *block;          /* all of the above, in one allocation */
    /* The batch kernels' token ids are dense: per id its kind in the current peer sentence
     * (-1: none, and all -1 between two sentences), instead of the hash table of slots. */
    int *direct;
    const int *direct_peer; /* the sentence whose kinds direct holds (NULL: none) */
    Py_ssize_t direct_n;
    Gil gil;
} Work;

/* Slots of the hash table of a peer sentence of n tokens (a power of two, at least 2n). */
static Py_ssize_t peer_slots(Py_ssize_t n) {
    Py_ssize_t slots = 16;
    while (slots < 2 * n) slots *= 2;
    return slots;
}

/* The most kinds of token a peer sentence may have for their masks to be made once, for
 * model sentences of up to m tokens: beyond it they would take more memory than the rows. */
static Py_ssize_t vector_tokens(Py_ssize_t m) { return m + 1 > 64 ? m + 1 : 64; }

/* Every buffer of a model sentence of up to m tokens against a peer sentence of up to n, in
 * one block made once per call: -1 on no memory.  Eight-byte items come first, as malloc
 * aligns them. */
static int work_make(Work *w, Py_ssize_t m, Py_ssize_t n, int weighted) {
    size_t rows = (size_t)n + 1, words = ((size_t)n + 63) / 64;
    size_t masks = ((size_t)vector_tokens(m) < (size_t)n ? (size_t)vector_tokens(m) : (size_t)n) * words;
    size_t slots = (size_t)peer_slots(n), vectors = ((size_t)m + 1) * words;
    char *at;
    if (weighted)
        at = (char *)malloc(rows * 2 * (sizeof(double) + sizeof(int)) + (size_t)m * ((size_t)n / 8 + 1) + 1);
    else
        at = (char *)malloc((vectors + masks) * 8 + (slots * 2 + (size_t)n * 2 + (size_t)m * 3 + 1) * sizeof(int));
    if (!at) return -1;
    w->block = at;
    if (weighted) {
        w->cells[0] = (double *)at;
        w->cells[1] = w->cells[0] + rows;
        w->runs[0] = (int *)(w->cells[1] + rows);
        w->runs[1] = w->runs[0] + rows;
        w->up = (unsigned char *)(w->runs[1] + rows);
    } else {
        w->rows = (unsigned long long *)at;
        w->masks = w->rows + vectors;
        w->slots = (int *)(w->masks + masks);
        w->kinds = w->slots + 2 * slots;
        w->mask_of = w->kinds + n;
        w->given = w->mask_of + n;
        w->kept = w->given + m + 1;
        w->kept_at = w->kept + m;
    }
    return 0;
}

/* After each row: -1 (an exception is set) when a signal handler raised. */
static int row_done(Work *w, Py_ssize_t n) { return gil_check(&w->gil, (size_t)n); }

/* Bit j of a row of backtrack bits, j = 1 .. n (bit 0 is the unused boundary column). */
#define UP_BIT(row, j) (((row)[(j) >> 3] >> ((j) & 7)) & 1)

/* Bit j of a row of backtrack bits, gathered in *acc and stored a byte at a time (a
 * read-modify-write of the same byte per cell would chain the cells through memory).
 * The caller stores the last, partial byte: bits[n >> 3] = *acc unless n & 7 == 7. */
static inline void put_bit(unsigned char *bits, Py_ssize_t j, int up, unsigned int *acc) {
    *acc |= (unsigned int)up << (j & 7);
    if ((j & 7) == 7) {
        bits[j >> 3] = (unsigned char)*acc;
        *acc = 0;
    }
}

/* Set bits of a word, without a library call (the CPU's instruction is not assumed). */
static inline int popcount(unsigned long long x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* L[i][j] of a row kept as bits: the number of clear bits below bit j. */
static inline Py_ssize_t lcs_at(const unsigned long long *row, Py_ssize_t j) {
    Py_ssize_t k, set = 0;
    for (k = 0; k < (j >> 6); k++) set += popcount(row[k]);
    if (j & 63) set += popcount(row[j >> 6] & ((1ULL << (j & 63)) - 1));
    return j - set;
}

/* The slot of a token in the table of `slots` slots (a power of two): where it is or would go. */
static Py_ssize_t token_slot(const int *table, Py_ssize_t slots, int token) {
    Py_ssize_t at = (Py_ssize_t)(((unsigned int)token * 2654435761u) & (unsigned int)(slots - 1));
    while (table[2 * at + 1] >= 0 && table[2 * at] != token) at = (at + 1) & (slots - 1);
    return at;
}

/* ROUGE-L by bit vectors (Allison-Dix, Hyyro).  Row i of the LCS table of a model sentence
 * against a peer sentence of n tokens is kept as n bits V_i: bit j-1 is clear where
 * L[i][j] = L[i][j-1] + 1, so L[i][j] is the number of clear bits below bit j.  Model token
 * i turns V_{i-1} into V_i in n/64 word operations, with the mask M of the peer positions
 * holding it: V_i = (V + (V & M)) | (V & ~M).  The values, and so the backtrack's choices
 * (up when the cell above >= the cell to the left), are those of the plain DP. */

/* The peer sentence's kinds of token, and their masks when they are few enough to be made
 * once for model sentences of up to m tokens (else sentence_masks makes those of each model
 * sentence). */
/* Back to all -1: the kinds of the last peer sentence given to a direct table. */
static void lcs_peer_forget(Work *w) {
    Py_ssize_t j;
    if (!w->direct || !w->direct_peer) return;
    for (j = 0; j < w->direct_n; j++) w->direct[w->direct_peer[j]] = -1;
    w->direct_peer = NULL;
}

static void lcs_peer(Work *w, const int *peer, Py_ssize_t n, Py_ssize_t m) {
    Py_ssize_t words = (n + 63) / 64, slots = peer_slots(n), distinct = 0, j, k;
    int *table = w->slots;
    if (w->direct) {
        lcs_peer_forget(w);
        for (j = 0; j < n; j++) {
            int *kind = &w->direct[peer[j]];
            if (*kind < 0) *kind = (int)distinct++;
            w->kinds[j] = *kind;
        }
        w->direct_peer = peer;
        w->direct_n = n;
    } else {
        for (k = 0; k < slots; k++) table[2 * k + 1] = -1;
        for (j = 0; j < n; j++) {
            Py_ssize_t at = token_slot(table, slots, peer[j]);
            if (table[2 * at + 1] < 0) {
                table[2 * at] = peer[j];
                table[2 * at + 1] = (int)distinct++;
            }
            w->kinds[j] = table[2 * at + 1];
        }
    }
    w->words = words;
    w->table_slots = slots;
    w->every_kind = distinct <= vector_tokens(m);
    for (k = 0; k < distinct; k++) w->mask_of[k] = w->every_kind ? (int)k : -1;
    if (!w->every_kind) return;
    memset(w->masks, 0, (size_t)distinct * (size_t)words * 8);
    for (j = 0; j < n; j++) w->masks[w->kinds[j] * words + (j >> 6)] |= 1ULL << (j & 63);
}

/* The kind of a model token in the peer sentence of lcs_peer; -1: the sentence lacks it. */
static int token_kind(const Work *w, int token) {
    if (w->direct) return w->direct[token];
    return w->slots[2 * token_slot(w->slots, w->table_slots, token) + 1];
}

/* The masks of the kinds of a model sentence's kept tokens: a mask per kind at most, so no
 * more than the model sentence has tokens.  Returns how many kinds were given one. */
static Py_ssize_t sentence_masks(Work *w, const int *kinds, Py_ssize_t m, Py_ssize_t n) {
    Py_ssize_t words = w->words, given = 0, i, j;
    for (i = 0; i < m; i++) {
        int kind = kinds[i];
        if (w->mask_of[kind] < 0) {
            w->mask_of[kind] = (int)given;
            w->given[given++] = kind;
        }
    }
    memset(w->masks, 0, (size_t)given * (size_t)words * 8);
    for (j = 0; j < n; j++) {
        int at = w->mask_of[w->kinds[j]];
        if (at >= 0) w->masks[at * words + (j >> 6)] |= 1ULL << (j & 63);
    }
    return given;
}

/* The rows of the table by bit vectors, against the peer sentence of lcs_peer: row i of the
 * model tokens of kinds[0..m), each a kind the peer sentence holds. */
static int vector_rows(const int *kinds, Py_ssize_t m, Py_ssize_t n, Work *w) {
    Py_ssize_t words = w->words, given = w->every_kind ? 0 : sentence_masks(w, kinds, m, n), i, k;
    unsigned long long *rows = w->rows;
    int status = 0;
    for (k = 0; k < words; k++) rows[k] = ~0ULL;
    if (words == 1) { /* a peer sentence of up to 64 tokens: a row is a word */
        unsigned long long v = ~0ULL;
        for (i = 1; i <= m; i++) {
            unsigned long long match = w->masks[w->mask_of[kinds[i - 1]]];
            v = (v + (v & match)) | (v & ~match);
            rows[i] = v;
        }
        status = gil_check(&w->gil, (size_t)m * (size_t)n);
    } else {
        for (i = 1; i <= m && status == 0; i++) {
            const unsigned long long *above = rows + (i - 1) * words;
            const unsigned long long *match = w->masks + w->mask_of[kinds[i - 1]] * words;
            unsigned long long *row = rows + i * words, carry = 0;
            for (k = 0; k < words; k++) {
                unsigned long long v = above[k], sum = v + (v & match[k]), out = sum + carry;
                carry = (unsigned long long)(sum < v) | (unsigned long long)(out < sum);
                row[k] = out | (v & ~match[k]);
            }
            status = row_done(w, n);
        }
    }
    for (k = 0; k < given; k++) w->mask_of[w->given[k]] = -1;
    return status;
}

/* The backtrack bits of the weighted table by cells, two rows of values at a time:
 * f[k] = k ** w, a match adds f[k+1] then subtracts f[k] (the Perl's two roundings, in its
 * order). */
static int cell_rows(const int *model, Py_ssize_t m, const int *peer, Py_ssize_t n, const double *f,
                     Work *w) {
    Py_ssize_t i, j;
    size_t stride = (size_t)n / 8 + 1;
    double *above = w->cells[0], *row = w->cells[1];
    int *rabove = w->runs[0], *rrow = w->runs[1];
    for (j = 0; j <= n; j++) {
        above[j] = 0.0;
        rabove[j] = 0;
    }
    for (i = 1; i <= m; i++) {
        unsigned char *bits = w->up + (size_t)(i - 1) * stride;
        int token = model[i - 1], *rswap;
        double *swap;
        /* Without branches: a match's value is computed at every cell (k < m, so f[k + 1] is
         * in the table) and kept where the tokens are equal; the up bit is set there too,
         * where the backtrack never reads it. */
        unsigned int acc = 0;
        double left = 0.0, diag = 0.0; /* row[j - 1] and above[j - 1], kept in registers */
        row[0] = 0.0;
        rrow[0] = 0;
        for (j = 1; j <= n; j++) {
            double a = above[j];
            int up = a >= left, equal = token == peer[j - 1], k = rabove[j - 1];
            double match = diag + f[k + 1] - f[k];
            left = equal ? match : up ? a : left;
            rrow[j] = equal ? k + 1 : 0;
            diag = a;
            row[j] = left;
            put_bit(bits, j, up, &acc);
        }
        if ((n & 7) != 7) bits[n >> 3] = (unsigned char)acc;
        swap = above;
        above = row;
        row = swap;
        rswap = rabove;
        rabove = rrow;
        rrow = rswap;
        if (row_done(w, n) < 0) return -1;
    }
    return 0;
}

/* The LCS table of model[0..m) against peer[0..n) (f NULL: plain, by bit vectors against the
 * peer sentence of lcs_peer; else weighted, f[k] = k ** w, by cells), then the Perl's
 * backtrack from (m, n): diagonal on equal tokens, else up when the cell above is >= the cell
 * to the left, else left.  It marks model positions.  Where the tokens differ, the plain
 * L[i][j] is the larger of the cell above and the one to the left, so on bit vectors the
 * backtrack goes up exactly where L[i-1][j] = L[i][j].  It follows here = L[i][j] and above =
 * L[i-1][j], counting the bits of a row once, as it reaches the row below it: a diagonal move
 * takes one from here, a move up keeps it, and a move left keeps both (it is taken where
 * L[i][j-1] = L[i][j] = L[i-1][j] + 1, so L[i-1][j-1] = L[i-1][j]).  Plain, the table is made
 * of the model tokens that the peer sentence holds, in order: the row of a token it lacks is
 * the row above, where the backtrack goes up (the tokens differ, and the cell above equals
 * this one), so leaving those rows out gives the same moves between the rows kept, and the
 * same marks.  -1 when a signal handler raised. */
static ALWAYS_INLINE int mark_lcs(const int *model, Py_ssize_t m, const int *peer, Py_ssize_t n,
                                  const double *f, Work *w, unsigned char *mask) {
    const unsigned long long *rows = w->rows;
    const int *kinds, *at; /* plain: the kind and the model position of each row kept */
    Py_ssize_t words = w->words, kept = 0, i, j = n, here, above;
    if (f) {
        size_t stride = (size_t)n / 8 + 1;
        if (cell_rows(model, m, peer, n, f, w) < 0) return -1;
        for (i = m; i && j;) {
            if (model[i - 1] == peer[j - 1]) {
                j--;
                mask[--i] = 1;
            } else if (UP_BIT(w->up + (size_t)(i - 1) * stride, j)) {
                i--;
            } else {
                j--;
            }
        }
        return 0;
    }
    for (i = 0; i < m; i++) {
        int kind = token_kind(w, model[i]);
        if (kind < 0) continue;
        w->kept[kept] = kind;
        w->kept_at[kept++] = (int)i;
    }
    if (kept == 0) return 0; /* no token in common: nothing to mark */
    kinds = w->kept;
    at = w->kept_at;
    if (vector_rows(kinds, kept, n, w) < 0) return -1;
    i = kept;
    here = lcs_at(rows + i * words, n);
    above = lcs_at(rows + (i - 1) * words, n);
    /* The walk ends where L[i][j] is 0: no token of model[0..i) is in peer[0..j), so nothing
     * is left to mark.  Where it goes left (the tokens differ and L[i-1][j] < L[i][j]), it goes
     * on left to the nearest peer position holding model[i-1], then diagonally: to its left
     * L[i-1][j] only falls, so it stays below L[i][j], which the row keeps only through a match
     * (L[i][0] is 0). */
    while (i && j && here) {
        const int kind = kinds[i - 1]; /* equal kinds, equal tokens */
        if (kind != w->kinds[j - 1]) {
            if (above == here) {
                if (--i) above = lcs_at(rows + (i - 1) * words, j);
                continue;
            }
            do j--;
            while (j > 0 && kind != w->kinds[j - 1]);
            if (j == 0) break; /* not reached: a match is left of a cell that goes left */
        }
        j--;
        i--;
        mask[at[i]] = 1;
        here--;
        if (i) above = lcs_at(rows + (i - 1) * words, j);
    }
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

#define N_BUFFERS 6

/* Sorts an array of TYPE in place (compared with <, no NaN): quicksort (median of three,
 * the smaller side first) down to short runs, then one insertion sort; no comparison
 * callback as qsort has. */
#define DEFINE_SORT(NAME, TYPE)                                                                \
    static void NAME(TYPE *a, Py_ssize_t n) {                                                  \
        Py_ssize_t k;                                                                          \
        while (n > 24) {                                                                       \
            Py_ssize_t i = 0, j = n - 1, mid = n / 2;                                          \
            TYPE x = a[0], y = a[mid], z = a[n - 1], pivot;                                    \
            pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));     \
            for (;;) {                                                                         \
                TYPE t;                                                                        \
                while (a[i] < pivot) i++;                                                      \
                while (pivot < a[j]) j--;                                                      \
                if (i >= j) break;                                                             \
                t = a[i];                                                                      \
                a[i++] = a[j];                                                                 \
                a[j--] = t;                                                                    \
            }                                                                                  \
            /* [0, j] <= pivot <= [j + 1, n) */                                                \
            if (j + 1 < n - j - 1) {                                                           \
                NAME(a, j + 1);                                                                \
                a += j + 1;                                                                    \
                n -= j + 1;                                                                    \
            } else {                                                                           \
                NAME(a + j + 1, n - j - 1);                                                    \
                n = j + 1;                                                                     \
            }                                                                                  \
        }                                                                                      \
        for (k = 1; k < n; k++) {                                                              \
            TYPE v = a[k];                                                                     \
            Py_ssize_t j = k;                                                                  \
            while (j > 0 && v < a[j - 1]) {                                                    \
                a[j] = a[j - 1];                                                               \
                j--;                                                                           \
            }                                                                                  \
            a[j] = v;                                                                          \
        }                                                                                      \
    }

DEFINE_SORT(sort_ints, int)
DEFINE_SORT(sort_doubles, double)

/* budget(unigrams) -> bytes: the clipping budget of a text, made once for all its pairs.
 *   unigrams: int32, the text's tokens from the n-gram reader (any order).
 * Returns 2k int32 (native order): the k distinct ids ascending, then their counts.
 */
static PyObject *budget(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_unigrams, *result;
    Py_buffer unigrams;
    Py_ssize_t n, k, distinct = 0;
    int *ids, *counts;
    if (!PyArg_ParseTuple(args, "O", &o_unigrams)) return NULL;
    if (get_buffer(o_unigrams, &unigrams, "unigrams", 4) < 0) return NULL;
    n = unigrams.len / 4;
    ids = (int *)PyMem_Malloc((size_t)(2 * n + 1) * sizeof(int));
    if (!ids) {
        PyBuffer_Release(&unigrams);
        return PyErr_NoMemory();
    }
    counts = ids + n;
    memcpy(ids, unigrams.buf, (size_t)n * sizeof(int));
    PyBuffer_Release(&unigrams);
    sort_ints(ids, n);
    for (k = 0; k < n; k++) {
        if (distinct && ids[distinct - 1] == ids[k]) {
            counts[distinct - 1]++;
        } else {
            ids[distinct] = ids[k];
            counts[distinct++] = 1;
        }
    }
    memmove(ids + distinct, counts, (size_t)distinct * sizeof(int));
    result = PyBytes_FromStringAndSize((const char *)ids, (Py_ssize_t)(2 * distinct * sizeof(int)));
    PyMem_Free(ids);
    return result;
}

/* One model and one peer for union_lcs.  The token buffers are held (they cannot be resized
 * or freed) and their ids are only compared and hashed; offsets, budgets and weights, which
 * index memory, are copied and checked.  The computation then runs with the GIL let go. */
typedef struct {
    const int *mt, *mo, *pt, *po; /* tokens and sentence offsets */
    const int *mu, *mc, *pu, *pc; /* clipping budgets: distinct ids, then their counts */
    const double *f;              /* ROUGE-W: f[k] = k ** w, k = 0 .. longest model sentence + 1;
                                   * NULL: ROUGE-L */
    Py_ssize_t total, ms, ps, nmu, npu, mlongest, longest;
    unsigned char *mask;          /* per model position: marked by some LCS */
    int *used, *cap, *slot;       /* per model unigram: budget spent, budget; per position: unigram */
    Py_buffer bufs[N_BUFFERS];    /* the arguments' buffers, held until the pair is let go */
    int held;
    void *block;                  /* the copies and the counts, in one allocation */
} LcsPair;

static void lcs_pair_free(LcsPair *p) {
    while (p->held > 0) PyBuffer_Release(&p->bufs[--p->held]);
    free(p->block);
}

/* The longest sentence, or -1 when the offsets do not cut [0, len) into sentences. */
static Py_ssize_t longest_sentence(const int *off, Py_ssize_t sentences, Py_ssize_t len) {
    Py_ssize_t s, longest = 0;
    if (sentences < 0 || (sentences > 0 && off[0] < 0) || (sentences > 0 && off[sentences] > len)) return -1;
    for (s = 0; s < sentences; s++) {
        if (off[s + 1] < off[s]) return -1;
        if (off[s + 1] - off[s] > longest) longest = off[s + 1] - off[s];
    }
    return longest;
}

/* The marks of every model sentence against every peer sentence, into mask (ROUGE-L: each
 * peer sentence's masks made once, for all model sentences): 0, -1 when a signal handler raised. */
/* On x86-64 Linux with GCC, union_marks (mark_lcs inlined in it) is built twice, and the
 * loader picks the build for the CPU: one counts a row's bits with the popcnt instruction
 * (GCC turns popcount's sum of bits into it), the other runs anywhere. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && defined(__GLIBC__)
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define POPCNT_CLONES
#endif

POPCNT_CLONES
static int union_marks(const int *mt, const int *mo, Py_ssize_t ms, Py_ssize_t mlongest, const int *pt,
                       const int *po, Py_ssize_t ps, const double *f, Work *w, unsigned char *mask) {
    Py_ssize_t s, t;
    int marked = 0;
    for (t = 0; t < ps && marked == 0; t++) {
        Py_ssize_t n = po[t + 1] - po[t];
        if (n == 0) continue;
        if (!f) lcs_peer(w, pt + po[t], n, mlongest);
        for (s = 0; s < ms && marked == 0; s++) {
            Py_ssize_t start = mo[s], m = mo[s + 1] - mo[s];
            if (m > 0) marked = mark_lcs(mt + start, m, pt + po[t], n, f, w, mask + start);
        }
    }
    lcs_peer_forget(w);
    return marked;
}

/* The counts in the model's order: a token's budget goes to its first marked occurrences.
 * Position pos spends from used[slot[pos]], up to cap[slot[pos]]. */
static void union_hits(const int *mo, Py_ssize_t ms, const unsigned char *mask, const int *slot, int *used,
                       const int *cap, const double *f, double *hit_out, double *base_out) {
    double hit = 0.0, base = 0.0;
    Py_ssize_t s;
    for (s = 0; s < ms; s++) {
        Py_ssize_t start = mo[s], m = mo[s + 1] - mo[s], j, run = 0;
        base += f ? f[m] : (double)m;
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
    *hit_out = hit;
    *base_out = base;
}

/* (hit, base) of union_lcs, on the pair's own memory: 0, -1 when a signal handler raised
 * (an exception is set), -2 on no memory. */
static int union_counts(const LcsPair *p, Work *w, double *hit_out, double *base_out) {
    const int *mt = p->mt, *mo = p->mo, *pt = p->pt, *po = p->po;
    const double *f = p->f;
    unsigned char *mask = p->mask;
    int *used = p->used, *cap = p->cap, *slot = p->slot, marked;
    Py_ssize_t nmu = p->nmu, k;

    if (work_make(w, p->mlongest, p->longest, f != NULL) < 0) return -2;
    memset(mask, 0, (size_t)p->total);
    memset(used, 0, (size_t)(nmu + 1) * sizeof(int));
    memset(cap, 0, (size_t)(nmu + 1) * sizeof(int));
    /* A model token's budget is shared by all its occurrences: slot[pos]
     * is its index in the model's unigram table (nmu when it has none). */
    for (k = 0; k < nmu; k++) {
        int peer_budget = lookup(p->pu, p->pc, p->npu, p->mu[k]);
        cap[k] = p->mc[k] < peer_budget ? p->mc[k] : peer_budget;
    }
    for (k = 0; k < p->total; k++) {
        Py_ssize_t lo = 0, hi = nmu;
        while (lo < hi) {
            Py_ssize_t mid = lo + (hi - lo) / 2;
            if (p->mu[mid] < mt[k]) lo = mid + 1;
            else hi = mid;
        }
        slot[k] = lo < nmu && p->mu[lo] == mt[k] ? (int)lo : (int)nmu;
    }
    marked = union_marks(mt, mo, p->ms, p->mlongest, pt, po, p->ps, f, w, mask);
    if (marked < 0) return marked;
    union_hits(mo, p->ms, mask, slot, used, cap, f, hit_out, base_out);
    return 0;
}

/* The pair of union_lcs's arguments: 0, or -1 with an exception set (and nothing held) when
 * an argument is not what union_lcs takes. */
static int lcs_pair(PyObject *const objs[N_BUFFERS], PyObject *o_weights, LcsPair *p) {
    static const char *names[N_BUFFERS] = {"model", "model offsets", "model budget",
                                           "peer", "peer offsets", "peer budget"};
    Py_buffer weights;
    Py_ssize_t lens[N_BUFFERS], nf = 0, copied = 0, k;
    int *at;
    double *f;

    memset(p, 0, sizeof(*p));
    for (p->held = 0; p->held < N_BUFFERS; p->held++) {
        if (get_buffer(objs[p->held], &p->bufs[p->held], names[p->held], 4) < 0) goto fail;
        lens[p->held] = p->bufs[p->held].len / 4;
    }
    if (o_weights != Py_None) {
        if (get_buffer(o_weights, &weights, "weights", 8) < 0) goto fail;
        nf = weights.len / 8;
    }
    p->mt = (const int *)p->bufs[0].buf;
    p->pt = (const int *)p->bufs[3].buf;
    p->total = lens[0];
    p->ms = lens[1] - 1;
    p->nmu = lens[2] / 2;
    p->ps = lens[4] - 1;
    p->npu = lens[5] / 2;
    /* The weights (doubles first), offsets, budgets, then used, cap, slot and the mask. */
    for (k = 1; k < N_BUFFERS; k++)
        if (k != 3) copied += k == 2 || k == 5 ? 2 * (lens[k] / 2) : lens[k];
    p->block = malloc((size_t)nf * sizeof(double) + (size_t)(copied + 2 * (p->nmu + 1) + p->total) * sizeof(int) +
                      (size_t)p->total + 1);
    if (!p->block) {
        PyErr_NoMemory();
        if (nf) PyBuffer_Release(&weights);
        goto fail;
    }
    f = (double *)p->block;
    at = (int *)(f + nf);
    for (k = 1; k < N_BUFFERS; k++) {
        Py_ssize_t count = k == 2 || k == 5 ? 2 * (lens[k] / 2) : lens[k];
        if (k == 3) continue;
        memcpy(at, p->bufs[k].buf, (size_t)count * sizeof(int));
        if (k == 1) p->mo = at;
        else if (k == 2) p->mu = at, p->mc = at + p->nmu;
        else if (k == 4) p->po = at;
        else p->pu = at, p->pc = at + p->npu;
        at += count;
    }
    p->used = at;
    p->cap = at + p->nmu + 1;
    p->slot = at + 2 * (p->nmu + 1);
    p->mask = (unsigned char *)(at + 2 * (p->nmu + 1) + p->total);
    p->mlongest = longest_sentence(p->mo, p->ms, p->total);
    p->longest = longest_sentence(p->po, p->ps, lens[3]);
    if (o_weights != Py_None) {
        /* A run is at most a model sentence long: f[0 .. mlongest + 1] is all that is read. */
        if (p->mlongest >= 0 && p->mlongest + 1 < nf) {
            memcpy(f, weights.buf, (size_t)(p->mlongest + 2) * sizeof(double));
            p->f = f;
        }
        PyBuffer_Release(&weights);
    }
    if (p->mlongest < 0 || p->longest < 0 || (o_weights != Py_None && !p->f)) {
        PyErr_SetString(PyExc_ValueError, p->mlongest < 0 || p->longest < 0
                                              ? "union_lcs: offsets do not cut the tokens into sentences"
                                              : "union_lcs: weight table too short");
        goto fail;
    }
    return 0;
fail:
    lcs_pair_free(p);
    return -1;
}

/* union_lcs(model, model_offsets, model_budget, peer, peer_offsets, peer_budget, weights)
 *   model, peer: int32 token ids, sentences concatenated;
 *   *_offsets: int32, sentence s is [off[s], off[s+1]);
 *   *_budget: int32, the text's clipping budget as budget() makes it;
 *   weights: None for ROUGE-L, else float64 f[k] = k ** w for k = 0 .. longest+1.
 * Returns (hit, base): counted hits (weighted runs for ROUGE-W) and the model
 * length (sum of f[len] per sentence for ROUGE-W).
 */
static PyObject *union_lcs(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *objs[N_BUFFERS], *o_weights;
    LcsPair p;
    Work w;
    double hit = 0.0, base = 0.0;
    int status;

    if (!PyArg_ParseTuple(args, "OOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &o_weights))
        return NULL;
    if (lcs_pair(objs, o_weights, &p) < 0) return NULL;
    memset(&w, 0, sizeof(w));
    gil_release(&w.gil, (size_t)p.total * (size_t)(p.ps >= 0 ? p.po[p.ps] : 0));
    status = union_counts(&p, &w, &hit, &base);
    gil_restore(&w.gil);
    free(w.block);
    lcs_pair_free(&p);
    if (status == -2) return PyErr_NoMemory();
    if (status < 0) return NULL; /* a signal handler raised */
    return Py_BuildValue("(dd)", hit, base);
}

/* The sums of resamples of T tables of the same n instances, their rows packed side by side
 * (row i of the group at p[3T * i .. 3T * i + 3T): table t's three values at 3t): per
 * resample n indices drawn by drand48 from its state, the rows at those indices added in
 * draw order (the first drawn row as it is: 0.0 + -0.0 would be 0.0), table t's sums into
 * out[3t .. 3t + 3).  The packed rows make a draw read one place, not T; DRAWS2 walks two
 * resamples at once, each with its own sums in its own order, so that the two chains of
 * draws and loads overlap.  One function per number of tables (1 to 4), so that the sums
 * stay in registers. */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLLED _Pragma("GCC unroll 12")
#elif defined(__clang__)
#define UNROLLED _Pragma("unroll")
#else
#define UNROLLED
#endif
/* DRAWS2 asks for the rows drawn DRAWS_AHEAD draws later while it adds this draw's (the draws
 * are known in advance): a table larger than the caches (100,000 instances of 3 tables: 7 MB)
 * is then read at the speed of a smaller one; the sums and their order are unchanged.  Each
 * draw is made once, when its row is asked for, and its row kept in a ring until it is added. */
#define DRAWS_AHEAD 8
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)0)
#endif
#define DRAND48_NEXT(state) (((state) * 0x5DEECE66DULL + 0xBULL) & 0xFFFFFFFFFFFFULL)
/* Perl's int(n * drand48()) is (int)(n * (state * 2^-48)): state * 2^-48 is exact, so that is
 * one rounding of the real n * state * 2^-48.  DRAW_SCALE(n) = n * 2^-48 is exact too
 * (n < 2^53), so one multiply, scale * state, rounds the same real number: the same index, one
 * multiply less a draw.  A loop makes its scale once, before its draws. */
#define DRAW_SCALE(n) ((double)(n) * 0x1p-48)
#define DRAWN_ROW(scale, state, width) ((width) * (Py_ssize_t)((scale) * (double)(state)))
/* The generator's state `steps` draws later. */
static inline unsigned long long drand48_ahead(unsigned long long state, int steps) {
    while (steps-- > 0) state = DRAND48_NEXT(state);
    return state;
}
#define DEFINE_DRAWS(NAME, T)                                                                    \
    static void NAME(const double *p, Py_ssize_t n, unsigned long long state, double *out) {   \
        double acc[3 * (T)] = {0.0};                                                             \
        const double scale = DRAW_SCALE(n);                                                      \
        Py_ssize_t k, c;                                                                         \
        for (k = 0; k < n; k++) {                                                                \
            const double *row;                                                                   \
            state = DRAND48_NEXT(state);                                                         \
            row = p + DRAWN_ROW(scale, state, 3 * (T));                                          \
            if (k == 0) {                                                                        \
                UNROLLED for (c = 0; c < 3 * (T); c++) acc[c] = row[c];                          \
            } else {                                                                             \
                UNROLLED for (c = 0; c < 3 * (T); c++) acc[c] += row[c];                         \
            }                                                                                    \
        }                                                                                        \
        for (c = 0; c < 3 * (T); c++) out[c] = acc[c]; /* zeros when n is 0 */                  \
    }
#define DRAWS_RING 16 /* a power of two above DRAWS_AHEAD: the rows of the draws on their way */
#define DEFINE_DRAWS2(NAME, T)                                                                   \
    static void NAME(const double *p, Py_ssize_t n, unsigned long long sa, unsigned long long sb, \
                     double *oa, double *ob) {                                                   \
        double a[3 * (T)] = {0.0}, b[3 * (T)] = {0.0};                                           \
        const double *ra[DRAWS_RING], *rb[DRAWS_RING];                                           \
        Py_ssize_t k, c, ahead = n < DRAWS_AHEAD ? n : DRAWS_AHEAD;                              \
        const double scale = DRAW_SCALE(n);                                                      \
        for (k = 0; k < ahead; k++) {                                                            \
            sa = DRAND48_NEXT(sa);                                                               \
            sb = DRAND48_NEXT(sb);                                                               \
            ra[k] = p + DRAWN_ROW(scale, sa, 3 * (T));                                           \
            rb[k] = p + DRAWN_ROW(scale, sb, 3 * (T));                                           \
            PREFETCH(ra[k]);                                                                     \
            PREFETCH(rb[k]);                                                                     \
        }                                                                                        \
        for (k = 0; k < n; k++) {                                                                \
            const double *xa, *xb;                                                               \
            if (k + DRAWS_AHEAD < n) {                                                           \
                sa = DRAND48_NEXT(sa);                                                           \
                sb = DRAND48_NEXT(sb);                                                           \
                xa = ra[(k + DRAWS_AHEAD) & (DRAWS_RING - 1)] = p + DRAWN_ROW(scale, sa, 3 * (T)); \
                xb = rb[(k + DRAWS_AHEAD) & (DRAWS_RING - 1)] = p + DRAWN_ROW(scale, sb, 3 * (T)); \
                PREFETCH(xa);                                                                    \
                PREFETCH(xb);                                                                    \
            }                                                                                    \
            xa = ra[k & (DRAWS_RING - 1)];                                                       \
            xb = rb[k & (DRAWS_RING - 1)];                                                       \
            if (k == 0) {                                                                        \
                UNROLLED for (c = 0; c < 3 * (T); c++) a[c] = xa[c];                             \
                UNROLLED for (c = 0; c < 3 * (T); c++) b[c] = xb[c];                             \
            } else {                                                                             \
                UNROLLED for (c = 0; c < 3 * (T); c++) a[c] += xa[c];                            \
                UNROLLED for (c = 0; c < 3 * (T); c++) b[c] += xb[c];                            \
            }                                                                                    \
        }                                                                                        \
        for (c = 0; c < 3 * (T); c++) {                                                          \
            oa[c] = a[c];                                                                        \
            ob[c] = b[c];                                                                        \
        }                                                                                        \
    }

DEFINE_DRAWS(draws_1, 1)
DEFINE_DRAWS(draws_2, 2)
DEFINE_DRAWS(draws_3, 3)
DEFINE_DRAWS(draws_4, 4)
DEFINE_DRAWS2(draws2_1, 1)
DEFINE_DRAWS2(draws2_2, 2)
DEFINE_DRAWS2(draws2_3, 3)
DEFINE_DRAWS2(draws2_4, 4)

#define MAX_TABLES 32

/* The same sums from keyed rows: a table whose rows take few distinct values (3 doubles that
 * are equal bit for bit) is kept as those values once, and each instance as their number (its
 * key): the keys of a group of T tables side by side, T to an instance.  A draw then reads T
 * keys (2 bytes each where a table has at most 65,536 distinct rows, else 4; a row is 24) and
 * the values they name, the most frequent first, which mostly stay in the nearer caches: the
 * million CNN-like pairs of 3 tables have 6 MB of keys beside 72 MB of rows.  The values added,
 * and the order they are added in, are the rows' own, so the sums are the same bit for bit.
 * Two resamples at a time; the keys drawn `ahead->keys` later, and the values of those drawn
 * `ahead->values` later, asked for in advance (each draw made once, its keys' place kept in a
 * ring). */
typedef struct {
    Py_ssize_t keys, values;
} Ahead;
/* How far ahead to ask: the best distance depends on where the keys are.  On a 2-core AMD
 * EPYC, draws from 1,000,000 instances' keys (6 MB, in the third-level cache) took 3.2 ns
 * with 8 and 3, 3.9 ns with 16 and 8; from 8,000,000 (48 MB, in memory), 11.7 ns with 48 and
 * 24, 15 ns with 16 and 8; from 100,000 (in the second-level cache), 1.25 ns with any.  So
 * the first resamples try each (AheadTrial), and the rest take the fastest. */
static const Ahead AHEADS[] = {{8, 3}, {16, 8}, {48, 24}};
#define N_AHEADS ((Py_ssize_t)(sizeof AHEADS / sizeof AHEADS[0]))
#define KEYS_RING 64 /* a power of two above every keys distance: the keys of the draws on their way */
/* A table's running sums of one resample: on x86-64 (SSE2, always there) R and P as one pair
 * of doubles added together (each half is its own IEEE addition: the same sums), F alone, so
 * that two resamples of three tables keep their 12 sums in the 16 registers (as 18 doubles,
 * some went to the stack and back every draw). */
#if defined(__SSE2__)
typedef struct {
    __m128d rp;
    double f;
} RowSum;
#define ROW_SET(s, v) ((s).rp = _mm_loadu_pd(v), (s).f = (v)[2])
#define ROW_ADD(s, v) ((s).rp = _mm_add_pd((s).rp, _mm_loadu_pd(v)), (s).f += (v)[2])
#define ROW_OUT(o, s) (_mm_storeu_pd((o), (s).rp), (o)[2] = (s).f)
#else
typedef struct {
    double r, p, f;
} RowSum;
#define ROW_SET(s, v) ((s).r = (v)[0], (s).p = (v)[1], (s).f = (v)[2])
#define ROW_ADD(s, v) ((s).r += (v)[0], (s).p += (v)[1], (s).f += (v)[2])
#define ROW_OUT(o, s) ((o)[0] = (s).r, (o)[1] = (s).p, (o)[2] = (s).f)
#endif
#define DEFINE_KEYED2(NAME, T, KEY)                                                              \
    static void NAME(const KEY *keys, const double *const *values, Py_ssize_t n,                 \
                     unsigned long long sa, unsigned long long sb, double *oa, double *ob,       \
                     const Ahead *far) {                                                         \
        RowSum a[T], b[T];                                                                       \
        const KEY *ra[KEYS_RING], *rb[KEYS_RING];                                                \
        const Py_ssize_t keys_ahead = far->keys, values_ahead = far->values;                     \
        Py_ssize_t k, t, ahead = n < keys_ahead ? n : keys_ahead;                                \
        const double scale = DRAW_SCALE(n);                                                      \
        memset(a, 0, sizeof a); /* the sums of no draw: zeros */                                 \
        memset(b, 0, sizeof b);                                                                  \
        for (k = 0; k < ahead; k++) {                                                            \
            sa = DRAND48_NEXT(sa);                                                               \
            sb = DRAND48_NEXT(sb);                                                               \
            ra[k] = keys + DRAWN_ROW(scale, sa, (T));                                            \
            rb[k] = keys + DRAWN_ROW(scale, sb, (T));                                            \
            PREFETCH(ra[k]);                                                                     \
            PREFETCH(rb[k]);                                                                     \
        }                                                                                        \
        for (k = 0; k < n; k++) {                                                                \
            const KEY *ka, *kb;                                                                  \
            if (k + keys_ahead < n) {                                                            \
                sa = DRAND48_NEXT(sa);                                                           \
                sb = DRAND48_NEXT(sb);                                                           \
                ka = ra[(k + keys_ahead) & (KEYS_RING - 1)] = keys + DRAWN_ROW(scale, sa, (T));  \
                kb = rb[(k + keys_ahead) & (KEYS_RING - 1)] = keys + DRAWN_ROW(scale, sb, (T));  \
                PREFETCH(ka);                                                                    \
                PREFETCH(kb);                                                                    \
            }                                                                                    \
            if (k + values_ahead < n) {                                                          \
                ka = ra[(k + values_ahead) & (KEYS_RING - 1)];                                   \
                kb = rb[(k + values_ahead) & (KEYS_RING - 1)];                                   \
                UNROLLED for (t = 0; t < (T); t++) {                                             \
                    PREFETCH(values[t] + 3 * (size_t)ka[t]);                                     \
                    PREFETCH(values[t] + 3 * (size_t)kb[t]);                                     \
                }                                                                                \
            }                                                                                    \
            ka = ra[k & (KEYS_RING - 1)];                                                        \
            kb = rb[k & (KEYS_RING - 1)];                                                        \
            UNROLLED for (t = 0; t < (T); t++) {                                                 \
                const double *va = values[t] + 3 * (size_t)ka[t], *vb = values[t] + 3 * (size_t)kb[t]; \
                if (k == 0) {                                                                    \
                    ROW_SET(a[t], va);                                                           \
                    ROW_SET(b[t], vb);                                                           \
                } else {                                                                         \
                    ROW_ADD(a[t], va);                                                           \
                    ROW_ADD(b[t], vb);                                                           \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        UNROLLED for (t = 0; t < (T); t++) {                                                     \
            ROW_OUT(oa + 3 * t, a[t]);                                                           \
            ROW_OUT(ob + 3 * t, b[t]);                                                           \
        }                                                                                        \
    }

DEFINE_KEYED2(keyed2_1, 1, unsigned)
DEFINE_KEYED2(keyed2_2, 2, unsigned)
DEFINE_KEYED2(keyed2_3, 3, unsigned)
DEFINE_KEYED2(keyed2_4, 4, unsigned)
DEFINE_KEYED2(short2_1, 1, unsigned short)
DEFINE_KEYED2(short2_2, 2, unsigned short)
DEFINE_KEYED2(short2_3, 3, unsigned short)
DEFINE_KEYED2(short2_4, 4, unsigned short)

/* Keyed rows are worth making when the plain rows outgrow the nearer caches. */
#define KEYED_BYTES ((size_t)2 << 20)

typedef struct {
    unsigned *keys;                 /* group g's keys at keys + 4 * n * g, `size` to an instance */
    unsigned short *shorts;         /* the same keys in 2 bytes, when every table has at most 65,536 */
    double *values[MAX_TABLES];     /* table t's distinct rows, 3 doubles each */
} Keyed;

static void keyed_free(Keyed *k, Py_ssize_t tables) {
    Py_ssize_t t;
    free(k->keys);
    free(k->shorts);
    for (t = 0; t < tables; t++) free(k->values[t]);
}

static unsigned long long row_hash(const double *row) {
    unsigned long long x[3], h;
    memcpy(x, row, sizeof x);
    h = x[0] * 0x9E3779B97F4A7C15ULL;
    h ^= (x[1] * 0xC2B2AE3D27D4EB4FULL) >> 17 | (x[1] * 0xC2B2AE3D27D4EB4FULL) << 47;
    h ^= (x[2] * 0x165667B19E3779F9ULL) >> 31 | (x[2] * 0x165667B19E3779F9ULL) << 33;
    return h ^ (h >> 29);
}

typedef struct {
    unsigned count, key;
} KeyCount;

static int by_count(const void *x, const void *y) {
    const KeyCount *a = (const KeyCount *)x, *b = (const KeyCount *)y;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

/* A table's keys (one per instance) renumbered by how often they are drawn from, the most
 * frequent first, so that most draws find their values among the first few, in the nearest
 * cache. */
static int keys_by_count(unsigned *keys, Py_ssize_t n, double *values, size_t distinct) {
    KeyCount *order = (KeyCount *)calloc(distinct, sizeof(KeyCount));
    double *moved = (double *)malloc(distinct * 3 * sizeof(double));
    unsigned *renamed = (unsigned *)malloc(distinct * sizeof(unsigned));
    size_t d;
    Py_ssize_t r;
    if (!order || !moved || !renamed) {
        free(order);
        free(moved);
        free(renamed);
        return 0;
    }
    for (d = 0; d < distinct; d++) order[d].key = (unsigned)d;
    for (r = 0; r < n; r++) order[keys[r]].count++;
    qsort(order, distinct, sizeof(KeyCount), by_count);
    for (d = 0; d < distinct; d++) {
        renamed[order[d].key] = (unsigned)d;
        memcpy(moved + 3 * d, values + 3 * (size_t)order[d].key, 3 * sizeof(double));
    }
    memcpy(values, moved, distinct * 3 * sizeof(double));
    for (r = 0; r < n; r++) keys[r] = renamed[keys[r]];
    free(order);
    free(moved);
    free(renamed);
    return 1;
}

/* The keys held so far in 2 bytes, moved to 4 (a table has more than 65,536 distinct rows). */
static int widen_keys(Keyed *k, size_t all) {
    size_t i;
    k->keys = (unsigned *)malloc(all * sizeof(unsigned));
    if (!k->keys) return 0;
    for (i = 0; i < all; i++) k->keys[i] = k->shorts[i];
    free(k->shorts);
    k->shorts = NULL;
    return 1;
}

/* Keys and distinct values of the tables (row r of each is row order[r], given order): 1 when
 * made, 0 when a table has more than n / 4 distinct rows (the keys would not save enough) or
 * memory is short, and then nothing is held.  Each table's keys are made in one scratch array
 * of n and then placed among the group's, in 2 bytes while every table allows it. */
static int keyed_rows(Keyed *k, const double *const *v, Py_ssize_t tables, Py_ssize_t n,
                      const long long *order) {
    size_t slots = 1, mask, most = (size_t)n / 4 + 1, all = (size_t)n * (size_t)tables;
    unsigned *slot = NULL, *scratch = NULL;
    Py_ssize_t t, r;
    memset(k, 0, sizeof *k);
    if (n <= 0 || (unsigned long long)n > 0x7fffffffULL) return 0;
    while (slots < 2 * most) slots <<= 1; /* at most half full */
    mask = slots - 1;
    slot = (unsigned *)malloc(slots * sizeof(unsigned));
    scratch = (unsigned *)malloc((size_t)n * sizeof(unsigned));
    k->shorts = (unsigned short *)malloc(all * sizeof(unsigned short));
    if (!slot || !scratch || !k->shorts) goto no;
    for (t = 0; t < tables; t++) {
        Py_ssize_t first = t - t % 4, size = tables - first < 4 ? tables - first : 4;
        size_t at_group = (size_t)n * (size_t)first + (size_t)(t - first);
        double *values = (double *)malloc(most * 3 * sizeof(double));
        size_t distinct = 0;
        if (!values) goto no;
        k->values[t] = values;
        memset(slot, 0, slots * sizeof(unsigned));
        for (r = 0; r < n; r++) {
            const double *row = v[t] + 3 * (order ? (Py_ssize_t)order[r] : r);
            size_t at = (size_t)row_hash(row) & mask;
            while (slot[at] && memcmp(values + 3 * (size_t)(slot[at] - 1), row, 3 * sizeof(double)))
                at = (at + 1) & mask;
            if (!slot[at]) {
                if (distinct == most) goto no;
                memcpy(values + 3 * distinct, row, 3 * sizeof(double));
                slot[at] = (unsigned)++distinct;
            }
            scratch[r] = slot[at] - 1;
        }
        if (!keys_by_count(scratch, n, values, distinct)) goto no;
        if (k->shorts && distinct > 65536 && !widen_keys(k, all)) goto no;
        if (k->shorts)
            for (r = 0; r < n; r++) k->shorts[at_group + (size_t)size * (size_t)r] = (unsigned short)scratch[r];
        else
            for (r = 0; r < n; r++) k->keys[at_group + (size_t)size * (size_t)r] = scratch[r];
    }
    free(slot);
    free(scratch);
    return 1;
no:
    free(slot);
    free(scratch);
    keyed_free(k, tables);
    memset(k, 0, sizeof *k);
    return 0;
}

/* The trial of AHEADS on a call's first pairs of resamples: each distance in turn, each
 * TRIAL_ROUNDS times; the rest of the call takes the one whose least time was least.  A call of
 * too few pairs, or a build without a monotonic clock, keeps DEFAULT_AHEAD.  The sums are the
 * same whichever is taken. */
#define TRIAL_ROUNDS 2
#define DEFAULT_AHEAD 1
typedef struct {
    Py_ssize_t timed;         /* pairs timed so far */
    Py_ssize_t chosen;        /* the index into AHEADS, or -1 while trying */
    double least[N_AHEADS];   /* each distance's least time */
} AheadTrial;

static double trial_clock(void) {
#if defined(CLOCK_MONOTONIC)
    struct timespec t;
    if (clock_gettime(CLOCK_MONOTONIC, &t) == 0) return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
#endif
    return -1.0;
}

static void trial_start(AheadTrial *trial, Py_ssize_t pairs, Py_ssize_t asked) {
    Py_ssize_t i;
    trial->timed = 0;
    trial->chosen = asked >= 0 ? asked : DEFAULT_AHEAD;
    if (asked < 0 && pairs >= 4 * N_AHEADS * TRIAL_ROUNDS && trial_clock() >= 0.0) trial->chosen = -1;
    for (i = 0; i < N_AHEADS; i++) trial->least[i] = HUGE_VAL;
}

/* The distance for the next pair. */
static Py_ssize_t trial_next(const AheadTrial *trial) {
    return trial->chosen >= 0 ? trial->chosen : trial->timed % N_AHEADS;
}

/* A pair done with distance `taken` in `seconds`, while trying. */
static void trial_note(AheadTrial *trial, Py_ssize_t taken, double seconds) {
    Py_ssize_t i;
    if (seconds < trial->least[taken]) trial->least[taken] = seconds;
    if (++trial->timed < N_AHEADS * TRIAL_ROUNDS) return;
    trial->chosen = 0;
    for (i = 1; i < N_AHEADS; i++)
        if (trial->least[i] < trial->least[trial->chosen]) trial->chosen = i;
}

/* bootstrap_sums(rows, resamples, out[, divisor[, first[, step[, order[, keyed[, ahead]]]]]])
 *   rows: float64 (n x 3), the instance values in sorted instance order; or a tuple of such
 *   tables of the same n instances (at most 32), which then share the draws; given order
 *   (int64, n positions, each in [0, n)), row i is the row at order[i] of each table;
 *   out: float64 (resamples x 3 per table).  Row i of out is resample s = first + i * step
 *   (first 0 and step 1 by default): it seeds Perl's drand48 with srand(s), draws n indices
 *   int(n * drand48()) and adds the drawn rows in draw order (each table's three sums side
 *   by side); each sum is then divided by divisor when one is given.  keyed: -1 (the default)
 *   draws from keyed rows when the rows are large and allow it, 0 never, 1 whenever they allow
 *   it; the sums are the same either way.  ahead: how far ahead keyed draws ask for their keys
 *   and values: -1 (the default) tries each of AHEADS on the first resamples and keeps the
 *   fastest, 0 to 2 takes that one of AHEADS; the same sums again.
 */
static PyObject *bootstrap_sums(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_rows, *o_out, *o_order = Py_None;
    Py_ssize_t resamples, first = 0, step = 1, tables = 1, held = 0, n = 0, width, i, c, keyed = -1, ahead = -1;
    double divisor = 0.0;
    Py_buffer rows[MAX_TABLES], out, order_view;
    const double *v[MAX_TABLES];
    const long long *order = NULL;
    if (!PyArg_ParseTuple(args, "OnO|dnnOnn", &o_rows, &resamples, &o_out, &divisor, &first, &step, &o_order,
                          &keyed, &ahead))
        return NULL;
    if (ahead < -1 || ahead >= N_AHEADS) {
        PyErr_SetString(PyExc_ValueError, "ahead: -1, 0, 1 or 2");
        return NULL;
    }
    if (resamples < 0 || first < 0 || step < 1) {
        PyErr_SetString(PyExc_ValueError, "resamples and first must not be negative, step must be positive");
        return NULL;
    }
    if (PyTuple_Check(o_rows)) {
        tables = PyTuple_GET_SIZE(o_rows);
        if (tables < 1 || tables > MAX_TABLES) {
            PyErr_SetString(PyExc_ValueError, "rows: 1 to 32 tables");
            return NULL;
        }
    }
    width = 3 * tables;
    for (held = 0; held < tables; held++) {
        PyObject *table = PyTuple_Check(o_rows) ? PyTuple_GET_ITEM(o_rows, held) : o_rows;
        if (get_buffer(table, &rows[held], "rows", 8) < 0) goto fail;
        v[held] = (const double *)rows[held].buf;
        if (held == 0) n = rows[0].len / 24;
        if (rows[held].len % 24 || rows[held].len / 24 != n) {
            PyErr_SetString(PyExc_ValueError, "rows: tables of 3 values a row, as many rows each");
            held++;
            goto fail;
        }
    }
    if (o_order != Py_None) {
        if (get_buffer(o_order, &order_view, "order", 8) < 0) goto fail;
        order = (const long long *)order_view.buf;
        for (i = 0; i < n && order_view.len / 8 == n; i++)
            if (order[i] < 0 || order[i] >= n) break;
        if (order_view.len / 8 != n || i < n) {
            PyErr_SetString(PyExc_ValueError, "order: n positions, each from 0 to n - 1");
            PyBuffer_Release(&order_view);
            goto fail;
        }
    }
    if (get_buffer(o_out, &out, "out", 8) < 0) {
        if (order) PyBuffer_Release(&order_view);
        goto fail;
    }
    if (out.len / 8 != resamples * width) {
        PyErr_SetString(PyExc_ValueError, "output has the wrong size");
        PyBuffer_Release(&out);
        if (order) PyBuffer_Release(&order_view);
        goto fail;
    }
    {
        /* Every buffer is held, so none can be resized or freed while the GIL is let go;
         * every index comes from the generator, none from the values. */
        double *o = (double *)out.buf;
        int raised = 0;
        Gil gil;
        static void (*const draws[5])(const double *, Py_ssize_t, unsigned long long, double *) = {
            NULL, draws_1, draws_2, draws_3, draws_4};
        static void (*const draws2[5])(const double *, Py_ssize_t, unsigned long long, unsigned long long,
                                       double *, double *) = {NULL, draws2_1, draws2_2, draws2_3, draws2_4};
        static void (*const keyed2[5])(const unsigned *, const double *const *, Py_ssize_t, unsigned long long,
                                       unsigned long long, double *, double *, const Ahead *) = {
            NULL, keyed2_1, keyed2_2, keyed2_3, keyed2_4};
        static void (*const short2[5])(const unsigned short *, const double *const *, Py_ssize_t,
                                       unsigned long long, unsigned long long, double *, double *, const Ahead *) = {
            NULL, short2_1, short2_2, short2_3, short2_4};
        AheadTrial trial;
        Py_ssize_t groups = (tables + 3) / 4, g, t;
        double *packed = NULL, spare[12];
        const double *group_rows[(MAX_TABLES + 3) / 4];
        Keyed keys;
        int is_keyed = 0;
        gil_release(&gil, (size_t)resamples * (size_t)(n + 1) * (size_t)tables);
        if (keyed != 0 && n > 0 && resamples > 0 &&
            (keyed == 1 || (size_t)n * (size_t)width * sizeof(double) >= KEYED_BYTES))
            is_keyed = keyed_rows(&keys, v, tables, n, order);
        /* Each group of up to four tables with its rows side by side (one table is so already,
         * unless the rows are taken in another order). */
        if ((tables > 1 || order) && n > 0 && resamples > 0 && !is_keyed) {
            packed = (double *)malloc((size_t)n * (size_t)width * sizeof(double));
            if (!packed) raised = 2;
        }
        for (g = 0; g < groups && !raised && !is_keyed; g++) {
            Py_ssize_t first_table = 4 * g, size = tables - first_table < 4 ? tables - first_table : 4, r;
            double *at;
            if (!packed) {
                group_rows[g] = v[first_table];
                continue;
            }
            at = packed + (size_t)n * (size_t)(3 * first_table);
            group_rows[g] = at;
            for (r = 0; r < n; r++) {
                Py_ssize_t from = order ? (Py_ssize_t)order[r] : r;
                for (t = 0; t < size; t++)
                    memcpy(at + (3 * size) * r + 3 * t, v[first_table + t] + 3 * from, 3 * sizeof(double));
            }
        }
        trial_start(&trial, is_keyed ? resamples / 2 : 0, ahead);
        for (i = 0; i < resamples && !raised; i += 2) {
            Py_ssize_t both = i + 1 < resamples, taken = trial_next(&trial);
            unsigned long long seed = (unsigned long long)first + (unsigned long long)i * (unsigned long long)step;
            unsigned long long next = seed + (unsigned long long)step;
            double *row = o + width * i, *after = row + width, started = trial.chosen < 0 ? trial_clock() : 0.0;
            for (g = 0; g < groups; g++) {
                Py_ssize_t size = tables - 4 * g < 4 ? tables - 4 * g : 4;
                unsigned long long sa = (seed << 16) + 0x330EULL, sb = both ? (next << 16) + 0x330EULL : sa;
                if (is_keyed && keys.shorts)
                    short2[size](keys.shorts + (size_t)n * (size_t)(4 * g), (const double *const *)keys.values + 4 * g,
                                 n, sa, sb, row + 12 * g, both ? after + 12 * g : spare, &AHEADS[taken]);
                else if (is_keyed)
                    keyed2[size](keys.keys + (size_t)n * (size_t)(4 * g), (const double *const *)keys.values + 4 * g,
                                 n, sa, sb, row + 12 * g, both ? after + 12 * g : spare, &AHEADS[taken]);
                else if (both)
                    draws2[size](group_rows[g], n, (seed << 16) + 0x330EULL, (next << 16) + 0x330EULL, row + 12 * g,
                                 after + 12 * g);
                else
                    draws[size](group_rows[g], n, (seed << 16) + 0x330EULL, row + 12 * g);
            }
            if (trial.chosen < 0) trial_note(&trial, taken, trial_clock() - started);
            if (divisor != 0.0)
                for (c = 0; c < width * (1 + both); c++) row[c] /= divisor;
            raised = gil_check(&gil, (size_t)(n + 1) * (size_t)tables * (size_t)(1 + both)) < 0;
        }
        free(packed);
        if (is_keyed) keyed_free(&keys, tables);
        gil_restore(&gil);
        PyBuffer_Release(&out);
        if (order) PyBuffer_Release(&order_view);
        while (held > 0) PyBuffer_Release(&rows[--held]);
        if (raised == 2) return PyErr_NoMemory();
        if (raised) return NULL;
    }
    Py_RETURN_NONE;
fail:
    while (held > 0) PyBuffer_Release(&rows[--held]);
    return NULL;
}

/* sort_and_sum(values) -> float
 *   values: float64, sorted in place (ascending, NaN last); returns their sum
 *   added left to right, as the Perl adds its sorted resample means.
 */
static PyObject *sort_and_sum(PyObject *Py_UNUSED(self), PyObject *args) {
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
    {
        Py_ssize_t numbers = 0; /* NaNs go last (in any order: each is NaN), the rest is sorted */
        for (i = 0; i < n; i++) {
            if (v[i] == v[i]) {
                double t = v[numbers];
                v[numbers++] = v[i];
                v[i] = t;
            }
        }
        sort_doubles(v, numbers);
    }
    for (i = 0; i < n; i++) total += v[i];
    PyBuffer_Release(&values);
    return PyFloat_FromDouble(total);
}

/* ---- Kendall's tau-b of rows of paired numbers (the statistics' correlations) ---- */

/* Stable merge sort of positions by key, then by second (where not NULL); returns the pairs
   of positions it swapped, those whose keys were out of order. */
static long long sort_positions(Py_ssize_t *at, Py_ssize_t *spare, Py_ssize_t n, const double *key,
                                const double *second) {
    Py_ssize_t width, lo, i, j, k, mid, hi;
    Py_ssize_t *from = at, *to = spare, *swap;
    long long swaps = 0;
    for (width = 1; width < n; width *= 2) {
        for (lo = 0; lo < n; lo += 2 * width) {
            mid = lo + width < n ? lo + width : n;
            hi = lo + 2 * width < n ? lo + 2 * width : n;
            i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                Py_ssize_t a = from[i], b = from[j];
                if (key[b] < key[a] || (second && key[b] == key[a] && second[b] < second[a])) {
                    swaps += mid - i;
                    to[k++] = from[j++];
                } else {
                    to[k++] = from[i++];
                }
            }
            while (i < mid) to[k++] = from[i++];
            while (j < hi) to[k++] = from[j++];
        }
        swap = from, from = to, to = swap;
    }
    if (from != at) memcpy(at, from, (size_t)n * sizeof(Py_ssize_t));
    return swaps;
}

/* Pairs within runs of equal values, the positions sorted by them. */
static long long tied_pairs(const Py_ssize_t *at, const double *v, Py_ssize_t n) {
    long long pairs = 0, run = 1;
    Py_ssize_t i;
    for (i = 1; i <= n; i++) {
        if (i < n && v[at[i]] == v[at[i - 1]]) {
            run++;
        } else {
            pairs += run * (run - 1) / 2;
            run = 1;
        }
    }
    return pairs;
}

/* Kendall's tau-b from the counts of pairs: all, tied in x, in y, in both, and discordant; NaN
   where x or y ties every pair. With two_roots, divided by each root in turn (scipy's rounding). */
static double tau_b_of(long long pairs, long long x_ties, long long y_ties, long long joint_ties,
                       long long discordant, int two_roots) {
    long long s = pairs - x_ties - y_ties + joint_ties - 2 * discordant;
    long long untied_x = pairs - x_ties, untied_y = pairs - y_ties;
    double tau;
    if (untied_x == 0 || untied_y == 0) return Py_NAN;
    if (two_roots)
        tau = (double)s / sqrt((double)untied_x) / sqrt((double)untied_y);
    else
        tau = (double)s / sqrt((double)untied_x * (double)untied_y);
    return tau > 1.0 ? 1.0 : tau < -1.0 ? -1.0 : tau;
}

/* Each row's ranks (1 for the least), tied values all given their mean rank: (before + through
   + 1) / 2 for the values before their run and through its end, as scipy.stats.rankdata rounds;
   a row with a NaN is all NaN. */
static PyObject *average_ranks(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_values, *o_out;
    Py_buffer bv, bout;
    Py_ssize_t n, rows, r, i, start;
    Py_ssize_t *at = NULL, *spare = NULL;
    if (!PyArg_ParseTuple(args, "OnO", &o_values, &n, &o_out)) return NULL;
    if (PyObject_GetBuffer(o_values, &bv, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(o_out, &bout, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&bv);
        return NULL;
    }
    if (n < 1 || bv.len != bout.len || bv.len % (n * 8)) {
        PyErr_SetString(PyExc_ValueError, "average_ranks: rows of values and out do not agree");
        goto done;
    }
    rows = bv.len / (n * 8);
    at = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    spare = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    if (!at || !spare) {
        PyErr_NoMemory();
        goto done;
    }
    for (r = 0; r < rows; r++) {
        const double *v = (const double *)bv.buf + r * n;
        double *rank = (double *)bout.buf + r * n;
        for (i = 0; i < n && v[i] == v[i]; i++) at[i] = i;
        if (i < n) { /* a NaN */
            for (i = 0; i < n; i++) rank[i] = Py_NAN;
            continue;
        }
        sort_positions(at, spare, n, v, NULL);
        for (start = 0, i = 1; i <= n; i++) {
            if (i == n || v[at[i]] != v[at[start]]) {
                double mean = 0.5 * (double)(start + i + 1);
                for (; start < i; start++) rank[at[start]] = mean;
            }
        }
    }
done:
    PyMem_Free(at);
    PyMem_Free(spare);
    PyBuffer_Release(&bv);
    PyBuffer_Release(&bout);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* Mean ranks of samples of rows of values, each row ranked apart, from how many times a sample
   holds each value of a row (held: int64, samples x width; one count per position of a row,
   the same for every row), laid out as each sample's row of laid_out says (flat positions,
   row * width + position). runs: each row's positions sorted by value (order), then for each
   sorted place where its run of equal values starts, then where it ends. A run held through the
   t-th value, after b others, ranks 0.5 * (b + t + 1), as scipy.stats.rankdata ranks. */
static PyObject *counted_ranks(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_runs, *o_held, *o_laid, *o_out;
    Py_buffer b[4];
    Py_ssize_t width, cells, samples, laid, r, i, k, got = 0;
    long long *through = NULL;
    double *rank = NULL;
    if (!PyArg_ParseTuple(args, "OOOnO", &o_runs, &o_held, &o_laid, &width, &o_out)) return NULL;
    {
        PyObject *objects[4] = {o_runs, o_held, o_laid, o_out};
        for (got = 0; got < 4; got++) {
            int flags = PyBUF_C_CONTIGUOUS | (got == 3 ? PyBUF_WRITABLE : 0);
            if (PyObject_GetBuffer(objects[got], &b[got], flags) < 0) goto done;
        }
    }
    cells = b[0].len / 24;
    samples = width > 0 ? b[1].len / (width * 8) : 0;
    laid = samples > 0 ? b[2].len / (samples * 8) : 0;
    if (width < 1 || cells % width || b[0].len != cells * 24 || b[1].len != samples * width * 8 ||
        b[2].len != samples * laid * 8 || b[3].len != b[2].len) {
        PyErr_SetString(PyExc_ValueError, "counted_ranks: the buffers do not agree");
        goto done;
    }
    {
        const Py_ssize_t *order = b[0].buf, *first = order + cells, *last = first + cells, *at = b[2].buf;
        for (i = 0; i < cells; i++) {
            Py_ssize_t base = i - i % width;
            if (order[i] < 0 || order[i] >= width || first[i] < base || first[i] > i || last[i] < i ||
                last[i] >= base + width) {
                PyErr_SetString(PyExc_ValueError, "counted_ranks: a position out of its row");
                goto done;
            }
        }
        for (i = 0; i < samples * laid; i++) {
            if (at[i] < 0 || at[i] >= cells) {
                PyErr_SetString(PyExc_ValueError, "counted_ranks: a laid-out position out of range");
                goto done;
            }
        }
        through = PyMem_Malloc((size_t)cells * sizeof(long long));
        rank = PyMem_Malloc((size_t)cells * sizeof(double));
        if (!through || !rank) {
            PyErr_NoMemory();
            goto done;
        }
        for (r = 0; r < samples; r++) {
            const long long *held = (const long long *)b[1].buf + r * width;
            const Py_ssize_t *place = at + r * laid;
            double *out = (double *)b[3].buf + r * laid;
            for (i = 0; i < cells; i += width) {
                long long sum = 0;
                for (k = i; k < i + width; k++) through[k] = sum += held[order[k]];
            }
            for (k = 0; k < cells; k++) {
                long long before = through[first[k]] - held[order[first[k]]];
                rank[k - k % width + order[k]] = 0.5 * (double)(before + through[last[k]] + 1);
            }
            for (i = 0; i < laid; i++) out[i] = rank[place[i]];
        }
    }
done:
    PyMem_Free(through);
    PyMem_Free(rank);
    while (got > 0) PyBuffer_Release(&b[--got]);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* Kendall's tau-b of each row of n (x, y) pairs, by Knight's sort: concordant minus discordant
   pairs over sqrt(pairs untied in x * pairs untied in y), NaN where either is 0. With
   two_roots, divided by each root in turn (scipy.stats.kendalltau's rounding). */
static PyObject *kendall_tau_b(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_x, *o_y, *o_out;
    Py_buffer bx, by, bout;
    Py_ssize_t n, rows, r, i;
    int two_roots;
    Py_ssize_t *at = NULL, *spare_at = NULL;
    if (!PyArg_ParseTuple(args, "OOnpO", &o_x, &o_y, &n, &two_roots, &o_out)) return NULL;
    if (PyObject_GetBuffer(o_x, &bx, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(o_y, &by, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&bx);
        return NULL;
    }
    if (PyObject_GetBuffer(o_out, &bout, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&bx);
        PyBuffer_Release(&by);
        return NULL;
    }
    rows = bout.len / 8;
    if (n < 1 || bx.len != by.len || bx.len != rows * n * 8 || bout.len % 8) {
        PyErr_SetString(PyExc_ValueError, "kendall_tau_b: rows of x, y and out do not agree");
        goto done;
    }
    at = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    spare_at = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
    if (!at || !spare_at) {
        PyErr_NoMemory();
        goto done;
    }
    for (r = 0; r < rows; r++) {
        const double *x = (const double *)bx.buf + r * n, *y = (const double *)by.buf + r * n;
        long long pairs = (long long)n * (n - 1) / 2, x_ties = 0, joint_ties = 0, run = 1, joint = 1;
        long long swaps, y_ties;
        for (i = 0; i < n; i++) at[i] = i;
        sort_positions(at, spare_at, n, x, y);
        for (i = 1; i <= n; i++) {
            if (i < n && x[at[i]] == x[at[i - 1]]) {
                run++;
                if (y[at[i]] == y[at[i - 1]]) {
                    joint++;
                } else {
                    joint_ties += joint * (joint - 1) / 2;
                    joint = 1;
                }
            } else {
                x_ties += run * (run - 1) / 2;
                joint_ties += joint * (joint - 1) / 2;
                run = joint = 1;
            }
        }
        swaps = sort_positions(at, spare_at, n, y, NULL); /* the discordant pairs */
        y_ties = tied_pairs(at, y, n);
        ((double *)bout.buf)[r] = tau_b_of(pairs, x_ties, y_ties, joint_ties, swaps, two_roots);
    }
done:
    PyMem_Free(at);
    PyMem_Free(spare_at);
    PyBuffer_Release(&bx);
    PyBuffer_Release(&by);
    PyBuffer_Release(&bout);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* Kendall's tau-b of samples of n cells (cells: their x values, then their y values), each
   sample given by how many times it holds each cell (weights, int64 rows): the number
   kendall_tau_b gives of the sample laid out, from counts of pairs alone. Cells in order sorted
   by x, then y (at); a Fenwick tree over y's distinct values
   counts the discordant pairs. */
static PyObject *kendall_tau_b_counted(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_at, *o_cells, *o_weights, *o_out;
    Py_buffer bat, bcells, bw, bout;
    Py_ssize_t n, samples, r, i, k, levels = 0;
    int two_roots, got = 0;
    Py_ssize_t *by_y = NULL, *spare = NULL, *level = NULL;
    long long *tree = NULL, *y_weight = NULL;
    if (!PyArg_ParseTuple(args, "OOOpO", &o_at, &o_cells, &o_weights, &two_roots, &o_out)) return NULL;
    if (PyObject_GetBuffer(o_at, &bat, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    got = 1;
    if (PyObject_GetBuffer(o_cells, &bcells, PyBUF_C_CONTIGUOUS) < 0) goto done;
    got = 2;
    if (PyObject_GetBuffer(o_weights, &bw, PyBUF_C_CONTIGUOUS) < 0) goto done;
    got = 3;
    if (PyObject_GetBuffer(o_out, &bout, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) goto done;
    got = 4;
    n = bcells.len / 16;
    samples = bout.len / 8;
    if (n < 1 || bcells.len != n * 16 || bat.len != n * 8 || bw.len != samples * n * 8) {
        PyErr_SetString(PyExc_ValueError, "kendall_tau_b_counted: cells, weights and out do not agree");
        goto done;
    }
    {
        const Py_ssize_t *at = (const Py_ssize_t *)bat.buf;
        const double *x = (const double *)bcells.buf, *y = x + n;
        for (i = 0; i < n; i++) {
            if (at[i] < 0 || at[i] >= n) {
                PyErr_SetString(PyExc_ValueError, "kendall_tau_b_counted: a position out of range");
                goto done;
            }
        }
        by_y = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
        spare = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
        level = PyMem_Malloc((size_t)n * sizeof(Py_ssize_t));
        tree = PyMem_Malloc((size_t)(n + 1) * sizeof(long long));
        y_weight = PyMem_Malloc((size_t)n * sizeof(long long));
        if (!by_y || !spare || !level || !tree || !y_weight) {
            PyErr_NoMemory();
            goto done;
        }
        for (i = 0; i < n; i++) by_y[i] = i;
        sort_positions(by_y, spare, n, y, NULL);
        for (i = 0; i < n; i++) { /* y's distinct values, 1 for the least */
            if (i == 0 || y[by_y[i]] != y[by_y[i - 1]]) levels++;
            level[by_y[i]] = levels;
        }
        for (r = 0; r < samples; r++) {
            const long long *w = (const long long *)bw.buf + r * n;
            long long total = 0, x_ties = 0, y_ties = 0, joint_ties = 0, discordant = 0, inserted = 0;
            long long run = 0, joint = 0;
            Py_ssize_t first = 0;
            memset(tree, 0, (size_t)(levels + 1) * sizeof(long long));
            memset(y_weight, 0, (size_t)levels * sizeof(long long));
            for (i = 0; i <= n; i++) {
                if (i == n || (i > 0 && x[at[i]] != x[at[i - 1]])) { /* the run of equal x ends */
                    for (; first < i; first++) { /* then its cells go into the tree */
                        long long c = w[at[first]];
                        if (!c) continue;
                        for (k = level[at[first]]; k <= levels; k += k & -k) tree[k] += c;
                        inserted += c;
                    }
                    x_ties += run * (run - 1) / 2;
                    run = 0;
                }
                if (i < n && i > 0 && (x[at[i]] != x[at[i - 1]] || y[at[i]] != y[at[i - 1]])) {
                    joint_ties += joint * (joint - 1) / 2;
                    joint = 0;
                }
                if (i == n) {
                    joint_ties += joint * (joint - 1) / 2;
                    break;
                }
                {
                    long long c = w[at[i]], below = 0;
                    if (c < 0) {
                        PyErr_SetString(PyExc_ValueError, "kendall_tau_b_counted: a negative count");
                        goto done;
                    }
                    for (k = level[at[i]]; k > 0; k -= k & -k) below += tree[k];
                    discordant += c * (inserted - below); /* earlier x, greater y */
                    run += c, joint += c, total += c;
                    y_weight[level[at[i]] - 1] += c;
                }
            }
            for (k = 0; k < levels; k++) y_ties += y_weight[k] * (y_weight[k] - 1) / 2;
            ((double *)bout.buf)[r] = tau_b_of(total * (total - 1) / 2, x_ties, y_ties, joint_ties, discordant,
                                               two_roots);
        }
    }
done:
    PyMem_Free(by_y);
    PyMem_Free(spare);
    PyMem_Free(level);
    PyMem_Free(tree);
    PyMem_Free(y_weight);
    if (got >= 4) PyBuffer_Release(&bout);
    if (got >= 3) PyBuffer_Release(&bw);
    if (got >= 2) PyBuffer_Release(&bcells);
    if (got >= 1) PyBuffer_Release(&bat);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
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

/* ---- The common case of unit_hits: each unit packed into one 64-bit key ---- */

/* How many units a sequence of len tokens has under the rule (the Perl's count). */
static long long unit_count(const UnitRule *rule, Py_ssize_t len) {
    long long last = (long long)len - 1, r = rule->reach, pairs;
    if (rule->mode == 0) return len >= rule->n ? (long long)(len - rule->n + 1) : 0;
    if (last < 1) return 0;
    /* Token i < last pairs with min(reach, last - i) tokens after it: sum over k = 1 .. last. */
    pairs = r < 0 || r >= last ? last * (last + 1) / 2 : r * (r + 1) / 2 + (last - r) * r;
    return pairs + (rule->unigrams ? last : 0);
}

/* A skip-bigram (a, b) as a key, and a -u unigram a (no id is negative on this path). */
#define PAIR_KEY(a, b) (((unsigned long long)(unsigned int)(a) << 32) | ((unsigned long long)(unsigned int)(b) + 1))
#define UNIGRAM_KEY(a) ((unsigned long long)(unsigned int)(a) << 32)

/* Runs BODY with `key` set to each unit of t[0 .. len) in the Perl's order (n-grams as
 * `bits`-bit fields).  Skip-bigrams then run AFTER_ROW with `row` the number of units token
 * i began (n-grams are as many as the tokens: no row of them takes long). */
#define FOR_EACH_KEY(rule, bits, t, len, key, BODY, AFTER_ROW)                                   \
    do {                                                                                         \
        Py_ssize_t ki, kj;                                                                       \
        unsigned long long key;                                                                  \
        if ((rule)->mode == 0) {                                                                 \
            for (ki = 0; ki + (rule)->n <= (len); ki++) {                                        \
                key = 0;                                                                         \
                for (kj = 0; kj < (rule)->n; kj++) key = (key << (bits)) | (unsigned int)(t)[ki + kj]; \
                BODY                                                                             \
            }                                                                                    \
        } else {                                                                                 \
            for (ki = 0; ki + 1 < (len); ki++) {                                                 \
                Py_ssize_t last = (len) - 1;                                                     \
                size_t row;                                                                      \
                if ((rule)->reach >= 0 && ki + (rule)->reach < last) last = ki + (rule)->reach;  \
                row = (size_t)(last - ki) + 1;                                                   \
                if ((rule)->unigrams) {                                                          \
                    key = UNIGRAM_KEY((t)[ki]);                                                  \
                    BODY                                                                         \
                }                                                                                \
                for (kj = ki + 1; kj <= last; kj++) {                                            \
                    key = PAIR_KEY((t)[ki], (t)[kj]);                                            \
                    BODY                                                                         \
                }                                                                                \
                AFTER_ROW                                                                        \
            }                                                                                    \
        }                                                                                        \
    } while (0)

/* The bitwise or of token ids: what key_bits needs to know of them. */
static unsigned int ids_top(const int *t, Py_ssize_t len) {
    unsigned int top = 0;
    Py_ssize_t i;
    for (i = 0; i < len; i++) top |= (unsigned int)t[i];
    return top;
}

/* Bits per token id for packing n ids in 64 bits, or 0 when some id (all or'ed in top) does not fit. */
static int key_bits(const UnitRule *rule, unsigned int top) {
    int bits = rule->mode == 0 ? (rule->n <= 2 ? 32 : 64 / (int)rule->n) : 32;
    if (rule->mode == 0 && rule->n > 64 / 8) return 0;
    if (top >> 31) return 0; /* a negative id: the general path */
    if (bits < 32 && top >> bits) return 0;
    return bits;
}

/* Units a table makes room for at once (2 MiB); past them it grows with the distinct units. */
#define UNITS_AT_ONCE ((long long)1 << 16)

/* The distinct units of one text with their counts (a hash table of keys), and beside each
 * how many copies another text holds. */
typedef struct {
    unsigned long long *keys; /* the distinct units, in the order first met (and the block of all four) */
    long long *count;         /* copies in this text */
    long long *seen;          /* copies in the other text */
    int *slot;                /* per slot: an index into keys, or -1 */
    Py_ssize_t size, slots;   /* units stored; slots, a power of two at least twice size */
    unsigned int shift;       /* 64 - log2(slots) */
} Units;

static void units_free(Units *u) {
    free(u->keys); /* the block of all four arrays */
    memset(u, 0, sizeof(*u));
}

/* The slot of a key: where it is, or the empty slot where it would go. */
static inline Py_ssize_t units_slot(const Units *u, unsigned long long key) {
    Py_ssize_t at = (Py_ssize_t)((key * 0x9E3779B97F4A7C15ULL) >> u->shift);
    while (u->slot[at] >= 0 && u->keys[u->slot[at]] != key) at = (at + 1) & (u->slots - 1);
    return at;
}

/* Room for `size` units (a table at most half full); -1 on no memory (u is left as it was). */
static int units_room(Units *u, Py_ssize_t size) {
    Units grown;
    Py_ssize_t k, cap;
    if (u->slot && 2 * size <= u->slots) return 0;
    if (size > INT_MAX / 2) return -1;
    memset(&grown, 0, sizeof(grown));
    grown.slots = 16;
    grown.shift = 60;
    while (grown.slots < 2 * size) {
        grown.slots *= 2;
        grown.shift--;
    }
    cap = grown.slots / 2;
    grown.keys = (unsigned long long *)malloc((size_t)cap * 3 * 8 + (size_t)grown.slots * sizeof(int));
    if (!grown.keys) return -1;
    grown.count = (long long *)(grown.keys + cap);
    grown.seen = grown.count + cap;
    grown.slot = (int *)(grown.seen + cap);
    memset(grown.slot, 0xff, (size_t)grown.slots * sizeof(int));
    if (u->size) {
        memcpy(grown.keys, u->keys, (size_t)u->size * sizeof(unsigned long long));
        memcpy(grown.count, u->count, (size_t)u->size * sizeof(long long));
    }
    for (k = 0; k < u->size; k++) grown.slot[units_slot(&grown, grown.keys[k])] = (int)k;
    grown.size = u->size;
    units_free(u);
    *u = grown;
    return 0;
}

/* The units of t[0 .. len), counted into an empty table: 0, -1 when a signal handler raised,
 * -2 on no memory.  Room is made for all units up to UNITS_AT_ONCE of them, then the table
 * doubles with the distinct units (a text of n tokens has n^2 / 2 skip-bigrams, few of
 * them distinct where the text repeats itself). */
static int units_count(Units *u, const UnitRule *rule, int bits, const int *t, Py_ssize_t len, Gil *g) {
    long long all = unit_count(rule, len);
    if (units_room(u, all < UNITS_AT_ONCE ? (Py_ssize_t)all : (Py_ssize_t)UNITS_AT_ONCE) < 0) return -2;
    FOR_EACH_KEY(rule, bits, t, len, key, {
        Py_ssize_t at = units_slot(u, key);
        if (u->slot[at] >= 0) {
            u->count[u->slot[at]]++;
        } else {
            if (2 * (u->size + 1) > u->slots) {
                if (units_room(u, u->slots) < 0) return -2;
                at = units_slot(u, key);
            }
            u->slot[at] = (int)u->size;
            u->keys[u->size] = key;
            u->count[u->size++] = 1;
        }
    }, { if (gil_check(g, row) < 0) return -1; });
    return 0;
}

/* The clipped hits of t[0 .. len) against u, into *hit, by looking each unit of t up: a unit
 * hits while it has fewer copies so far than u holds.  0, or -1 when a signal handler raised. */
static int hits_by_units(Units *u, const UnitRule *rule, int bits, const int *t, Py_ssize_t len, Gil *g,
                         long long *hit) {
    memset(u->seen, 0, (size_t)u->size * sizeof(long long));
    *hit = 0;
    FOR_EACH_KEY(rule, bits, t, len, key, {
        int at = u->slot[units_slot(u, key)];
        if (at >= 0 && u->seen[at]++ < u->count[at]) (*hit)++;
    }, { if (gil_check(g, row) < 0) return -1; });
    return 0;
}

/* Skip-bigrams only: copies of u's units in t[0 .. len) without going through t's units,
 * which number up to len^2 / 2.  One backward pass keeps, per token that ends some unit
 * of u, its copies among the tokens token i pairs with (all later ones, or the next
 * `reach`): a unit (a, b) gains that count of b at each a.  The work is len plus, per
 * position, the units of u its token begins.  0; 1 when that is not cheaper than looking
 * the `direct` units of t up (nothing is counted then); -1 when a signal handler raised;
 * -2 on no memory. */
static int seen_by_window(Units *u, const UnitRule *rule, const int *t, Py_ssize_t len, long long direct,
                          Gil *g) {
    Py_ssize_t tokens = 0, slots = 16, k, i, last = len - 1;
    int *table = NULL, *dense = NULL, *start = NULL, *unigram = NULL, *second = NULL, *unit = NULL;
    long long *window = NULL, work = len;
    int status = -2;

    /* The tokens of u's units, numbered densely: table holds (token, number) pairs. */
    while (slots < 4 * u->size + 4) slots *= 2;
    table = (int *)malloc((size_t)slots * 2 * sizeof(int));
    dense = (int *)malloc((size_t)(len > 0 ? len : 1) * sizeof(int));
    if (!table || !dense) goto done;
    for (k = 0; k < slots; k++) table[2 * k + 1] = -1;
    for (k = 0; k < 2 * u->size; k++) {
        unsigned long long key = u->keys[k / 2];
        int token, at;
        if (k & 1) {
            if (!(key & 0xFFFFFFFFULL)) continue; /* a unigram: no second token */
            token = (int)((key & 0xFFFFFFFFULL) - 1);
        } else {
            token = (int)(key >> 32);
        }
        at = (int)token_slot(table, slots, token);
        if (table[2 * at + 1] < 0) {
            table[2 * at] = token;
            table[2 * at + 1] = (int)tokens++;
        }
    }
    /* Per first token, its units and their second tokens (grouped by counting), its unigram. */
    start = (int *)calloc((size_t)tokens + 1, sizeof(int));
    unigram = (int *)malloc((size_t)(tokens > 0 ? tokens : 1) * sizeof(int));
    second = (int *)malloc((size_t)(u->size > 0 ? u->size : 1) * sizeof(int));
    unit = (int *)malloc((size_t)(u->size > 0 ? u->size : 1) * sizeof(int));
    window = (long long *)calloc((size_t)tokens + 1, sizeof(long long));
    if (!start || !unigram || !second || !unit || !window) goto done;
    for (k = 0; k < tokens; k++) unigram[k] = -1;
    for (k = 0; k < u->size; k++) {
        unsigned long long key = u->keys[k];
        int a = table[2 * token_slot(table, slots, (int)(key >> 32)) + 1];
        if (key & 0xFFFFFFFFULL) start[a + 1]++;
        else unigram[a] = (int)k;
    }
    for (k = 0; k < tokens; k++) start[k + 1] += start[k];
    for (k = 0; k < u->size; k++) {
        unsigned long long key = u->keys[k];
        int at;
        if (!(key & 0xFFFFFFFFULL)) continue;
        at = start[table[2 * token_slot(table, slots, (int)(key >> 32)) + 1]]++;
        second[at] = table[2 * token_slot(table, slots, (int)((key & 0xFFFFFFFFULL) - 1)) + 1];
        unit[at] = (int)k;
    }
    for (k = tokens; k > 0; k--) start[k] = start[k - 1]; /* each start had moved to the next */
    start[0] = 0;
    /* start[a] .. start[a + 1] now holds a's units; the work is counted before it is done. */
    for (i = 0; i < len; i++) {
        Py_ssize_t at = token_slot(table, slots, t[i]);
        dense[i] = table[2 * at + 1];
        if (i < last && dense[i] >= 0) work += start[dense[i] + 1] - start[dense[i]];
    }
    if (work >= direct) {
        status = 1;
        goto done;
    }
    memset(u->seen, 0, (size_t)u->size * sizeof(long long));
    /* Before token i's turn the window holds t[i + 1 .. min(i + reach, last)]. */
    for (i = last - 1; i >= 0; i--) {
        int a = dense[i], b = dense[i + 1];
        if (b >= 0) window[b]++;
        if (rule->reach >= 0 && i + 1 + rule->reach <= last && dense[i + 1 + rule->reach] >= 0)
            window[dense[i + 1 + rule->reach]]--;
        if (a < 0) continue;
        for (k = start[a]; k < start[a + 1]; k++) u->seen[unit[k]] += window[second[k]];
        if (rule->unigrams && unigram[a] >= 0) u->seen[unigram[a]]++;
        if (gil_check(g, (size_t)(start[a + 1] - start[a]) + 1) < 0) {
            status = -1;
            goto done;
        }
    }
    status = 0;
done:
    free(table);
    free(dense);
    free(start);
    free(unigram);
    free(second);
    free(unit);
    free(window);
    return status;
}

/* The same counts for any unit rule and any ids, with a hash table of whole units. */
static int general_hits(const UnitRule *rule, const int *pt, Py_ssize_t pl, const int *mt, Py_ssize_t ml,
                        long long *hit) {
    UnitSet set = {0, 0, NULL, NULL, NULL, 0};
    Py_ssize_t capacity = 0, slots = 16;
    int unit[64];
    set.width = rule->mode == 0 ? rule->n : 2;
    FOR_EACH_UNIT(rule, mt, ml, unit, { capacity++; });
    while (slots < 2 * capacity) slots *= 2;
    set.mask = slots - 1;
    set.slot = (Py_ssize_t *)malloc((size_t)slots * sizeof(Py_ssize_t));
    set.keys = (int *)malloc((size_t)(capacity ? capacity : 1) * (size_t)set.width * sizeof(int));
    set.count = (long long *)malloc((size_t)(capacity ? capacity : 1) * sizeof(long long));
    if (!set.slot || !set.keys || !set.count) {
        free(set.slot);
        free(set.keys);
        free(set.count);
        return -1;
    }
    memset(set.slot, 0xff, (size_t)slots * sizeof(Py_ssize_t));
    FOR_EACH_UNIT(rule, mt, ml, unit, {
        Py_ssize_t at = find_slot(&set, unit);
        if (set.slot[at] < 0) {
            set.slot[at] = set.size;
            memcpy(set.keys + set.size * set.width, unit, (size_t)set.width * sizeof(int));
            set.count[set.size++] = 1;
        } else {
            set.count[set.slot[at]]++;
        }
    });
    /* Each peer unit takes one of the model's remaining copies: min(peer, model). */
    *hit = 0;
    FOR_EACH_UNIT(rule, pt, pl, unit, {
        Py_ssize_t at = find_slot(&set, unit);
        if (set.slot[at] >= 0 && set.count[set.slot[at]] > 0) {
            set.count[set.slot[at]]--;
            (*hit)++;
        }
    });
    free(set.slot);
    free(set.keys);
    free(set.count);
    return 0;
}

/* The clipped hits of t[0 .. len) against u, into *hit: through t's units, or for skip-bigrams
 * far apart by the window of seen_by_window where that is cheaper, then the sum over u's units
 * of min(copies in u, copies in t).  0, -1 when a signal handler raised, -2 on no memory. */
static int units_hits(Units *u, const UnitRule *rule, int bits, const int *t, Py_ssize_t len, Gil *g,
                      long long *hit) {
    long long direct = unit_count(rule, len);
    if (rule->mode == 1 && direct > 4 * ((long long)len + u->size)) {
        int status = seen_by_window(u, rule, t, len, direct, g);
        Py_ssize_t k;
        if (status < 0) return status;
        if (status == 0) {
            *hit = 0;
            for (k = 0; k < u->size; k++) *hit += u->count[k] < u->seen[k] ? u->count[k] : u->seen[k];
            return 0;
        }
    }
    return hits_by_units(u, rule, bits, t, len, g, hit);
}

/* A peer of at most UNITS_AT_ONCE units has its table made once for all its models; a larger
 * one only when it has no more units than the model: the table is always that of the text
 * with fewer units, and the other text is read without holding its units. */

/* The clipped hits of each model against the peer, into hits[]: 0, -1 when a signal
 * handler raised, -2 on no memory. */
static int all_hits(const UnitRule *rule, int bits, const int *pt, Py_ssize_t pl, const int *const *models,
                    const Py_ssize_t *lengths, Py_ssize_t k, long long *hits, Gil *g) {
    Units peer, own;
    long long pc = unit_count(rule, pl);
    int status = 0, peer_counted = 0;
    Py_ssize_t i;
    memset(&peer, 0, sizeof(peer));
    for (i = 0; i < k && status == 0; i++) {
        const int *mt = models[i];
        Py_ssize_t ml = lengths[i];
        if (!bits) {
            status = general_hits(rule, pt, pl, mt, ml, &hits[i]) < 0 ? -2 : 0;
        } else if (pc <= UNITS_AT_ONCE || pc <= unit_count(rule, ml)) {
            if (!peer_counted) {
                peer_counted = 1;
                status = units_count(&peer, rule, bits, pt, pl, g);
            }
            if (status == 0) status = units_hits(&peer, rule, bits, mt, ml, g, &hits[i]);
        } else {
            memset(&own, 0, sizeof(own));
            status = units_count(&own, rule, bits, mt, ml, g);
            if (status == 0) status = units_hits(&own, rule, bits, pt, pl, g, &hits[i]);
            units_free(&own);
        }
    }
    units_free(&peer);
    return status;
}

/* unit_hits(peer, models, mode, n, reach, unigrams) -> ((hit, model units, peer units), ...)
 *   peer: int32 token ids (ids >= 0); models: a sequence of such arrays;
 *   mode 0: n-grams of size n; mode 1: skip-bigrams with j - i <= reach
 *   (reach < 0: any), plus token i's unigram when unigrams is true.
 *   hit = sum over units of min(count in peer, count in model), per model.
 * The buffers are held (not resizable, not freed) while the GIL is let go; token ids are
 * only hashed and compared, never used as indices.
 */
static PyObject *unit_hits(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_peer, *o_models, *fast = NULL, *result = NULL;
    Py_buffer peer, *model = NULL;
    const int **tokens = NULL;
    Py_ssize_t *lengths = NULL;
    UnitRule rule;
    Py_ssize_t n, reach, k = 0, got = 0, i, pl;
    long long *hits = NULL, work;
    int mode, unigrams, status;
    unsigned int top;
    Gil gil;

    if (!PyArg_ParseTuple(args, "OOinnp", &o_peer, &o_models, &mode, &n, &reach, &unigrams)) return NULL;
    if ((mode == 0 && (n < 1 || n > 64)) || (mode != 0 && mode != 1)) {
        PyErr_SetString(PyExc_ValueError, "unit_hits: bad unit rule");
        return NULL;
    }
    rule.mode = mode;
    rule.n = n;
    rule.reach = reach;
    rule.unigrams = unigrams;
    if (get_buffer(o_peer, &peer, "peer", 4) < 0) return NULL;
    fast = PySequence_Fast(o_models, "unit_hits: models must be a sequence");
    if (!fast) goto done;
    k = PySequence_Fast_GET_SIZE(fast);
    model = (Py_buffer *)PyMem_Malloc((size_t)(k ? k : 1) * sizeof(Py_buffer));
    hits = (long long *)PyMem_Malloc((size_t)(k ? k : 1) * sizeof(long long));
    tokens = (const int **)PyMem_Malloc((size_t)(k ? k : 1) * sizeof(int *));
    lengths = (Py_ssize_t *)PyMem_Malloc((size_t)(k ? k : 1) * sizeof(Py_ssize_t));
    if (!model || !hits || !tokens || !lengths) {
        PyErr_NoMemory();
        goto done;
    }
    for (got = 0; got < k; got++)
        if (get_buffer(PySequence_Fast_GET_ITEM(fast, got), &model[got], "model", 4) < 0) goto done;
    pl = peer.len / 4;
    top = ids_top((const int *)peer.buf, pl);
    work = unit_count(&rule, pl);
    for (i = 0; i < k; i++) {
        tokens[i] = (const int *)model[i].buf;
        lengths[i] = model[i].len / 4;
        top |= ids_top(tokens[i], lengths[i]);
        work += unit_count(&rule, lengths[i]);
    }
    gil_release(&gil, (size_t)work);
    status = all_hits(&rule, key_bits(&rule, top), (const int *)peer.buf, pl, tokens, lengths, k, hits, &gil);
    gil_restore(&gil);
    if (status == -2) PyErr_NoMemory();
    if (status < 0) goto done; /* else -1: a signal handler raised */
    result = PyTuple_New(k);
    if (!result) goto done;
    for (i = 0; i < k; i++) {
        PyObject *item = Py_BuildValue("(LLL)", hits[i], unit_count(&rule, model[i].len / 4), unit_count(&rule, pl));
        if (!item) {
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, i, item);
    }
done:
    for (i = 0; i < got; i++) PyBuffer_Release(&model[i]);
    PyMem_Free(model);
    PyMem_Free(hits);
    PyMem_Free(tokens);
    PyMem_Free(lengths);
    Py_XDECREF(fast);
    PyBuffer_Release(&peer);
    return result;
}

/* ---- ROUGE-1.5.5's Porter stemmer variant (-m), for words of a-z and 0-9 ---- */

/* The letter classes of rouge155py/text/stem.py, one bit each.  A consonant run opens with
 * [^aeiou] and goes on with [^aeiouy]; a vowel run opens with [aeiouy] and goes on with
 * [aeiou]; a short stem ends in [^aeiouwxy].  An initial "y" is stored as "Y", in no vowel
 * class. */
#define OPENS_C 1   /* [^aeiou] */
#define GOES_ON_C 2 /* [^aeiouy] */
#define OPENS_V 4   /* [aeiouy] */
#define GOES_ON_V 8 /* [aeiou] */
#define ENDS_CVC 16 /* [^aeiouwxy] */

static unsigned int stem_class(unsigned char c) {
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
        return OPENS_V | GOES_ON_V;
    case 'y':
        return OPENS_C | OPENS_V;
    case 'w': case 'x':
        return OPENS_C | GOES_ON_C;
    default:
        return OPENS_C | GOES_ON_C | ENDS_CVC;
    }
}

/* One element of a measure pattern: a run of letters that opens with a letter of class
 * `opens` and goes on with letters of class `goes_on` (0: a single letter), maybe optional. */
typedef struct {
    unsigned char opens, goes_on, optional;
} StemElement;

/* A pattern anchored at the start of the stem, and at its end when to_end is set. */
typedef struct {
    int count, to_end;
    StemElement e[5];
} StemPattern;

#define C_RUN {OPENS_C, GOES_ON_C, 0}
#define V_RUN {OPENS_V, GOES_ON_V, 0}
#define C_RUN_OPTIONAL {OPENS_C, GOES_ON_C, 1}
#define V_RUN_OPTIONAL {OPENS_V, GOES_ON_V, 1}

/* ^C?VC (m > 0), ^C?VCV?$ (m == 1), ^C?VCVC (m > 1), ^C?[aeiouy] (a vowel), ^CV[^aeiouwxy]$ */
static const StemPattern M_GT_0 = {3, 0, {C_RUN_OPTIONAL, V_RUN, C_RUN}};
static const StemPattern M_EQ_1 = {4, 1, {C_RUN_OPTIONAL, V_RUN, C_RUN, V_RUN_OPTIONAL}};
static const StemPattern M_GT_1 = {5, 0, {C_RUN_OPTIONAL, V_RUN, C_RUN, V_RUN, C_RUN}};
static const StemPattern HAS_VOWEL = {2, 0, {C_RUN_OPTIONAL, {OPENS_V, 0, 0}}};
static const StemPattern SHORT_CVC = {3, 1, {C_RUN, {OPENS_V, 0, 0}, {ENDS_CVC, 0, 0}}};

/* States of a pattern's matcher, as bits: bit k, elements 0 .. k-1 matched (bit count: the
 * whole pattern); bit 8 + k, inside element k (it may go on or end here).  Adds the states
 * reached without reading a letter. */
static unsigned int stem_closure(const StemPattern *p, unsigned int states) {
    int k;
    for (k = 0; k < p->count; k++)
        if (((states >> (8 + k)) & 1) || (((states >> k) & 1) && p->e[k].optional)) states |= 1u << (k + 1);
    return states;
}

/* Whether the pattern matches w[0 .. n): every position each element can reach is followed,
 * so this is the existence of a match, as a backtracking regex search finds it. */
static int stem_matches(const StemPattern *p, const unsigned char *w, Py_ssize_t n) {
    unsigned int states = stem_closure(p, 1), done = 1u << p->count;
    Py_ssize_t i;
    for (i = 0; i < n && states; i++) {
        unsigned int c = stem_class(w[i]), next = 0;
        int k;
        if (!p->to_end && (states & done)) return 1;
        for (k = 0; k < p->count; k++) {
            if (((states >> k) & 1) && (c & p->e[k].opens)) next |= 1u << (8 + k);
            if (((states >> (8 + k)) & 1) && (c & p->e[k].goes_on)) next |= 1u << (8 + k);
        }
        states = stem_closure(p, next);
    }
    return (states & done) != 0;
}

static inline int stem_ends_with(const unsigned char *w, Py_ssize_t n, const char *suffix, Py_ssize_t len) {
    return n >= len && w[n - 1] == (unsigned char)suffix[len - 1] && memcmp(w + n - len, suffix, (size_t)len) == 0;
}

/* Whether w[0 .. n) ends with a string literal. */
#define STEM_ENDS(w, n, literal) stem_ends_with(w, n, literal, (Py_ssize_t)sizeof(literal) - 1)

/* A suffix of a rule and what replaces it, with their lengths. */
typedef struct {
    const char *suffix, *replacement;
    Py_ssize_t len, replacement_len;
} StemSuffix;

#define SUFFIX(s, r) {s, r, (Py_ssize_t)sizeof(s) - 1, (Py_ssize_t)sizeof(r) - 1}

/* (s1|s2|...)$ searched from the left: the longest listed suffix w ends with, or NULL. */
static const StemSuffix *stem_longest(const unsigned char *w, Py_ssize_t n, const StemSuffix *table, int count) {
    const StemSuffix *found = NULL;
    int k;
    for (k = 0; k < count; k++)
        if ((!found || table[k].len > found->len) && stem_ends_with(w, n, table[k].suffix, table[k].len))
            found = &table[k];
    return found;
}

static const StemSuffix STEP2[] = {
    SUFFIX("ational", "ate"), SUFFIX("tional", "tion"), SUFFIX("enci", "ence"), SUFFIX("anci", "ance"),
    SUFFIX("izer", "ize"),    SUFFIX("bli", "ble"),     SUFFIX("alli", "al"),   SUFFIX("entli", "ent"),
    SUFFIX("eli", "e"),       SUFFIX("ousli", "ous"),   SUFFIX("ization", "ize"), SUFFIX("ation", "ate"),
    SUFFIX("ator", "ate"),    SUFFIX("alism", "al"),    SUFFIX("iveness", "ive"), SUFFIX("fulness", "ful"),
    SUFFIX("ousness", "ous"), SUFFIX("aliti", "al"),    SUFFIX("iviti", "ive"), SUFFIX("biliti", "ble"),
    SUFFIX("logi", "log"),
};
static const StemSuffix STEP3[] = {
    SUFFIX("icate", "ic"), SUFFIX("ative", ""), SUFFIX("alize", "al"), SUFFIX("iciti", "ic"),
    SUFFIX("ical", "ic"),  SUFFIX("ful", ""),   SUFFIX("ness", ""),
};
static const StemSuffix STEP4[] = {
    SUFFIX("al", ""),  SUFFIX("ance", ""), SUFFIX("ence", ""),  SUFFIX("er", ""), SUFFIX("ic", ""),  SUFFIX("able", ""),
    SUFFIX("ible", ""), SUFFIX("ant", ""), SUFFIX("ement", ""), SUFFIX("ou", ""), SUFFIX("ism", ""), SUFFIX("ate", ""),
    SUFFIX("iti", ""), SUFFIX("ous", ""),  SUFFIX("ive", ""),   SUFFIX("ize", ""),
};
#define TABLE_SIZE(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* Steps 2 and 3: the longest listed suffix becomes its replacement when the stem has m > 0
 * (no replacement is longer than its suffix). */
static Py_ssize_t stem_replace(unsigned char *w, Py_ssize_t n, const StemSuffix *table, int count) {
    const StemSuffix *found = stem_longest(w, n, table, count);
    if (found && stem_matches(&M_GT_0, w, n - found->len)) {
        n -= found->len;
        memcpy(w + n, found->replacement, (size_t)found->replacement_len);
        n += found->replacement_len;
    }
    return n;
}

/* Stems w[0 .. n) in place (n >= 3; no step makes the word longer than it was); its new length. */
static Py_ssize_t stem_word(unsigned char *w, Py_ssize_t n) {
    const StemSuffix *found;
    int initial_y = w[0] == 'y';
    if (initial_y) w[0] = 'Y';

    /* Step 1a: (ss|i)es$ -> ss, i; else ([^s])s$ -> the letter. */
    if (STEM_ENDS(w, n, "sses") || STEM_ENDS(w, n, "ies")) n -= 2;
    else if (n >= 2 && w[n - 1] == 's' && w[n - 2] != 's') n -= 1;

    /* Step 1b: eed$ -> ee when m > 0; else (ed|ing)$ dropped after a vowel, then at, bl, iz
     * take an e, a doubled letter ([^aeiouylsz])\1$ is halved, a short stem takes an e. */
    if (STEM_ENDS(w, n, "eed")) {
        if (stem_matches(&M_GT_0, w, n - 3)) n -= 1;
    } else {
        Py_ssize_t cut = STEM_ENDS(w, n, "ed") ? 2 : STEM_ENDS(w, n, "ing") ? 3 : 0;
        if (cut && stem_matches(&HAS_VOWEL, w, n - cut)) {
            n -= cut;
            if (STEM_ENDS(w, n, "at") || STEM_ENDS(w, n, "bl") || STEM_ENDS(w, n, "iz")) w[n++] = 'e';
            else if (n >= 2 && w[n - 1] == w[n - 2] && !strchr("aeiouylsz", w[n - 1])) n -= 1;
            else if (stem_matches(&SHORT_CVC, w, n)) w[n++] = 'e';
        }
    }

    /* Step 1c: y$ -> i after a vowel. */
    if (n >= 1 && w[n - 1] == 'y' && stem_matches(&HAS_VOWEL, w, n - 1)) w[n - 1] = 'i';

    n = stem_replace(w, n, STEP2, TABLE_SIZE(STEP2));
    n = stem_replace(w, n, STEP3, TABLE_SIZE(STEP3));

    /* Step 4: the group, then ment, then ent or else (s|t)ion, each dropped when m > 1. */
    found = stem_longest(w, n, STEP4, TABLE_SIZE(STEP4));
    if (found && stem_matches(&M_GT_1, w, n - found->len)) n -= found->len;
    if (STEM_ENDS(w, n, "ment") && stem_matches(&M_GT_1, w, n - 4)) n -= 4;
    if (STEM_ENDS(w, n, "ent")) {
        if (stem_matches(&M_GT_1, w, n - 3)) n -= 3;
    } else if ((STEM_ENDS(w, n, "sion") || STEM_ENDS(w, n, "tion")) && stem_matches(&M_GT_1, w, n - 3)) {
        n -= 3;
    }

    /* Step 5: e$ dropped when m > 1, or m == 1 and the stem is not short; ll$ -> l when m > 1. */
    if (n >= 1 && w[n - 1] == 'e' &&
        (stem_matches(&M_GT_1, w, n - 1) || (stem_matches(&M_EQ_1, w, n - 1) && !stem_matches(&SHORT_CVC, w, n - 1))))
        n -= 1;
    if (STEM_ENDS(w, n, "ll") && stem_matches(&M_GT_1, w, n)) n -= 1;

    if (initial_y) {
        w[0] = 'y';
        if (n == 0) n = 1; /* as "y" + w[1:] would give (no step removes the first letter) */
    }
    return n;
}

/* porter_stem(word) -> str or None
 *   The stem of a word of ASCII a-z and 0-9 as rouge155py.text.stem.porter_stem gives it;
 *   None for any other word (empty, other characters), which the Python path stems.
 */
static PyObject *porter_stem(PyObject *Py_UNUSED(self), PyObject *word) {
    unsigned char small[64], *w = small;
    const unsigned char *data;
    Py_ssize_t n, i;
    PyObject *result;
    if (!PyUnicode_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "porter_stem: word must be a str");
        return NULL;
    }
    if (PyUnicode_READY(word) < 0) return NULL;
    n = PyUnicode_GET_LENGTH(word);
    if (n == 0 || !PyUnicode_IS_ASCII(word)) Py_RETURN_NONE;
    data = PyUnicode_1BYTE_DATA(word);
    for (i = 0; i < n; i++)
        if (!((data[i] >= 'a' && data[i] <= 'z') || (data[i] >= '0' && data[i] <= '9'))) Py_RETURN_NONE;
    if (n < 3) {
        Py_INCREF(word);
        return word;
    }
    if ((size_t)n > sizeof(small)) {
        w = (unsigned char *)PyMem_Malloc((size_t)n);
        if (!w) return PyErr_NoMemory();
    }
    memcpy(w, data, (size_t)n);
    n = stem_word(w, n);
    result = PyUnicode_FromStringAndSize((const char *)w, n);
    if (w != small) PyMem_Free(w);
    return result;
}

/* ---- A batch of pairs: the Perl's text stage and every metric of each pair, in one call ----
 *
 * text_state(stopwords, exceptions) keeps, across calls, what a run's text stage knows: the
 * stopword list, the WordNet exceptions and every token met, each with its id, whether it
 * is a stopword and the id of its -m form (stemmed once).  score_pairs() then turns whole
 * documents (the texts of SPL files: sentences are lines) into token ids and scores each
 * (peer, models) pair on every metric, the GIL let go throughout; it returns the rows as
 * the Perl keeps them (R, P and F rounded to 5 decimals), or the first pair whose scoring
 * the Perl dies on, for the caller to score again the slow way (and raise its error). */

/* A string met: where its bytes are in the arena. */
typedef struct {
    Py_ssize_t off, value_off; /* the string; an exception's value (the exceptions table) */
    int len, value_len;
} StrEntry;

/* A slot of a table: its string's length and first 16 bytes (two words, zero-padded as the
 * table keeps strings), which tell a string of up to 16 bytes from any other without reading
 * the entry, and what the table keeps of the string (read with the slot, in its 32 bytes). */
typedef struct {
    unsigned long long head[2];
    int id;           /* its entry; -1: an empty slot */
    int len;          /* -1 in an empty slot */
    int stem;         /* the id of its -m form; -2: not known yet */
    signed char stop; /* 1: a stopword, 0: not, -1: not known yet */
} StrSlot;

/* Strings by their bytes: entry k has id k; slots is a hash table of the entries.  Strings
 * are handled padded: their bytes, then zeros to the end of the next word of 8 bytes (at
 * least one zero) and to 16 bytes at least, so that they are hashed and compared a word at
 * a time; the arena keeps them so. */
typedef struct {
    char *arena;
    size_t used, room;
    StrEntry *entries;
    Py_ssize_t size, capacity;
    StrSlot *slots;
    Py_ssize_t nslots; /* a power of two, at least twice size */
} StrTable;

/* The bytes of a padded string of len bytes. */
#define PADDED(len) ((len) < 8 ? (size_t)16 : ((size_t)(len) + 8) & ~(size_t)7)

/* The thread that imported the kernel: the main thread, where Python runs signal handlers. */
static unsigned long import_thread;

/* Pairs (and documents) between two looks at pending signals in score_pairs, on the thread
 * that handles them: a handler runs within a fraction of a millisecond, as it would between
 * two pairs scored from Python (a worker's end reported by SIGCHLD must not overtake it). */
#define SIGNAL_PAIRS 16

/* The strings' hash multiplies words by odd constants (2^64 / the golden ratio, and
 * MurmurHash3's first finalizer constant). */
#define HASH_PRIME 0x9E3779B97F4A7C15ULL
#define HASH_PRIME2 0xFF51AFD7ED558CCDULL
/* A word of 8 bytes c. */
#define BYTES(c) (0x0101010101010101ULL * (unsigned char)(c))

/* Per byte: its lowercase (the Perl's lc) where it is an ASCII letter or digit, else 0. */
static unsigned char TOKEN_BYTE[256];
/* FIRST_BYTES[r]: the word of the first r bytes of a word (all ones there, zeros above). */
static unsigned long long FIRST_BYTES[9];

static void token_bytes_init(void) {
    int c;
    for (c = 0; c < 256; c++)
        TOKEN_BYTE[c] = (unsigned char)((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c
                                        : c >= 'A' && c <= 'Z'                          ? c + 32
                                                                                        : 0);
    for (c = 0; c < 8; c++) FIRST_BYTES[c] = (1ULL << (8 * c)) - 1;
    FIRST_BYTES[8] = ~0ULL;
}

/* The hash of a string of len bytes whose first two words (zero-padded) are w0 and w1: of
 * up to 16 bytes, all of it (two multiplications side by side); str_hash goes on with the
 * other words. */
static inline unsigned long long head_hash(unsigned long long w0, unsigned long long w1, Py_ssize_t len) {
    return (w0 * HASH_PRIME) ^ ((w1 + (unsigned long long)len) * HASH_PRIME2);
}

static inline unsigned long long hash_end(unsigned long long h) { return h ^ (h >> 32); }

/* The hash of a padded string (docs_add makes the same as it reads a token). */
static unsigned long long str_hash(const char *s, Py_ssize_t len) {
    unsigned long long h = head_hash(load_word(s), load_word(s + 8), len);
    Py_ssize_t k;
    for (k = 16; k < len; k += 8) h = (h ^ load_word(s + k)) * HASH_PRIME;
    return hash_end(h);
}

static void strtab_free(StrTable *t) {
    free(t->arena);
    free(t->entries);
    free(t->slots);
    memset(t, 0, sizeof(*t));
}

/* Whether two padded strings of len bytes, equal in their first 16, are equal. */
static int str_rest_equal(const char *a, const char *b, Py_ssize_t len) {
    Py_ssize_t k;
    for (k = 16; k < len; k += 8)
        if (load_word(a + k) != load_word(b + k)) return 0;
    return 1;
}

/* The slot of a padded string: where its entry is, or the empty slot where it would go.
 * Past 16 bytes, the rest of the string is compared in the arena. */
static inline Py_ssize_t strtab_slot(const StrTable *t, const char *s, Py_ssize_t len, unsigned long long h) {
    unsigned long long w0 = load_word(s), w1 = load_word(s + 8), mask = (unsigned long long)t->nslots - 1;
    unsigned long long at = h & mask;
    for (;;) {
        const StrSlot *x = &t->slots[at];
        if (!((x->head[0] ^ w0) | (x->head[1] ^ w1) | (unsigned long long)(x->len ^ len))) {
            if (len <= 16 || str_rest_equal(t->arena + t->entries[x->id].off, s, len)) return (Py_ssize_t)at;
        } else if (x->id < 0) {
            return (Py_ssize_t)at;
        }
        at = (at + 1) & mask;
    }
}

/* The id of a padded string, -1 when the table lacks it. */
static inline int strtab_find(const StrTable *t, const char *s, Py_ssize_t len, unsigned long long h) {
    if (!t->nslots) return -1;
    return t->slots[strtab_slot(t, s, len, h)].id;
}

/* Twice the slots (1024 at first), the strings placed again: 0, -1 on no memory. */
static int strtab_grow(StrTable *t) {
    Py_ssize_t nslots = t->nslots ? 2 * t->nslots : 1024, k;
    unsigned long long mask = (unsigned long long)nslots - 1;
    StrSlot *slots = (StrSlot *)malloc((size_t)nslots * sizeof(StrSlot));
    if (!slots) return -1;
    for (k = 0; k < nslots; k++) {
        slots[k].id = -1;
        slots[k].len = -1;
    }
    for (k = 0; k < t->nslots; k++) {
        const StrSlot *x = &t->slots[k];
        unsigned long long at;
        if (x->id < 0) continue;
        at = str_hash(t->arena + t->entries[x->id].off, x->len) & mask;
        while (slots[at].id >= 0) at = (at + 1) & mask;
        slots[at] = *x;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

/* A padded string copied into the arena: its offset, -1 on no memory. */
static Py_ssize_t strtab_keep(StrTable *t, const char *s, Py_ssize_t len) {
    size_t size = PADDED(len), off = t->used;
    if (len > INT_MAX - 8) return -1;
    if (t->used + size > t->room) {
        size_t room = t->room ? 2 * t->room : 8192;
        char *grown;
        while (room < t->used + size) room *= 2;
        grown = (char *)realloc(t->arena, room);
        if (!grown) return -1;
        t->arena = grown;
        t->room = room;
    }
    memcpy(t->arena + off, s, size);
    t->used += size;
    return (Py_ssize_t)off;
}

/* The id of a padded string, added when new (stop -1, stem -2); -1 on no memory. */
static int strtab_add(StrTable *t, const char *s, Py_ssize_t len, unsigned long long h) {
    Py_ssize_t at, off;
    StrEntry *e;
    if (t->size >= INT_MAX / 4) return -1;
    if (2 * (t->size + 1) > t->nslots && strtab_grow(t) < 0) return -1;
    at = strtab_slot(t, s, len, h);
    if (t->slots[at].id >= 0) return t->slots[at].id;
    if (t->size == t->capacity) {
        Py_ssize_t capacity = t->capacity ? 2 * t->capacity : 512;
        StrEntry *grown = (StrEntry *)realloc(t->entries, (size_t)capacity * sizeof(StrEntry));
        if (!grown) return -1;
        t->entries = grown;
        t->capacity = capacity;
    }
    off = strtab_keep(t, s, len);
    if (off < 0) return -1;
    e = &t->entries[t->size];
    e->off = off;
    e->len = (int)len;
    e->value_off = 0;
    e->value_len = -1;
    t->slots[at].head[0] = load_word(s);
    t->slots[at].head[1] = load_word(s + 8);
    t->slots[at].id = (int)t->size;
    t->slots[at].len = (int)len;
    t->slots[at].stem = -2;
    t->slots[at].stop = -1;
    return (int)t->size++;
}

/* Tokens forgotten past this many (ids then start again: they only need to agree within a call). */
#define MAX_REMEMBERED ((Py_ssize_t)1 << 20)

typedef struct {
    StrTable stopwords;  /* the -s list */
    StrTable exceptions; /* WordNet exceptions: key, and its value beside it */
    StrTable tokens;     /* tokens and -m forms met: id = entry */
    char *scratch;       /* a string being padded, a token being stemmed */
    Py_ssize_t scratch_room;
    int *counts;         /* score_pairs's five per-id arrays: four all zeros between calls, the
                          * fifth (LCS kinds) all -1 */
    Py_ssize_t count_ids;
    int busy;            /* a call is using the state (one thread at a time) */
} TextState;

static void text_state_free(PyObject *capsule) {
    TextState *s = (TextState *)PyCapsule_GetPointer(capsule, "rouge155py.TextState");
    if (!s) return;
    strtab_free(&s->stopwords);
    strtab_free(&s->exceptions);
    strtab_free(&s->tokens);
    free(s->scratch);
    free(s->counts);
    free(s);
}

/* The UTF-8 bytes of a str (all this state compares: tokens are ASCII). */
static const char *utf8_of(PyObject *o, Py_ssize_t *len) {
    if (!PyUnicode_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "text_state: stopwords and exceptions must be str");
        return NULL;
    }
    return PyUnicode_AsUTF8AndSize(o, len);
}

/* s[0 .. len) padded in the state's scratch: NULL on no memory. */
static char *scratch_padded(TextState *st, const char *s, Py_ssize_t len) {
    Py_ssize_t size = (Py_ssize_t)PADDED(len);
    if (size > st->scratch_room) {
        char *grown = (char *)realloc(st->scratch, (size_t)size);
        if (!grown) return NULL;
        st->scratch = grown;
        st->scratch_room = size;
    }
    memcpy(st->scratch, s, (size_t)len);
    memset(st->scratch + len, 0, (size_t)(size - len));
    return st->scratch;
}

/* text_state(stopwords, exceptions) -> capsule
 *   stopwords: an iterable of str (the tokens -s drops; empty without -s);
 *   exceptions: a dict str -> str (the WordNet exceptions -m looks up first).
 */
static PyObject *text_state(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_stop, *o_exc, *iter = NULL, *item, *key, *value, *capsule;
    Py_ssize_t pos = 0, len, vlen, off;
    const char *s, *v;
    char *padded;
    TextState *st;
    if (!PyArg_ParseTuple(args, "OO!", &o_stop, &PyDict_Type, &o_exc)) return NULL;
    st = (TextState *)calloc(1, sizeof(TextState));
    if (!st) return PyErr_NoMemory();
    iter = PyObject_GetIter(o_stop);
    if (!iter) goto fail;
    while ((item = PyIter_Next(iter))) {
        s = utf8_of(item, &len);
        padded = s ? scratch_padded(st, s, len) : NULL;
        if (!padded || strtab_add(&st->stopwords, padded, len, str_hash(padded, len)) < 0) {
            if (s) PyErr_NoMemory();
            Py_DECREF(item);
            goto fail;
        }
        Py_DECREF(item);
    }
    if (PyErr_Occurred()) goto fail;
    Py_CLEAR(iter);
    while (PyDict_Next(o_exc, &pos, &key, &value)) {
        int k;
        s = utf8_of(key, &len);
        if (!s) goto fail;
        v = utf8_of(value, &vlen);
        if (!v) goto fail;
        padded = scratch_padded(st, s, len);
        k = padded ? strtab_add(&st->exceptions, padded, len, str_hash(padded, len)) : -1;
        /* the value's bytes go in the arena as a string of their own (never looked up) */
        padded = k >= 0 ? scratch_padded(st, v, vlen) : NULL;
        off = padded ? strtab_keep(&st->exceptions, padded, vlen) : -1;
        if (off < 0) {
            PyErr_NoMemory();
            goto fail;
        }
        st->exceptions.entries[k].value_off = off;
        st->exceptions.entries[k].value_len = (int)vlen;
    }
    capsule = PyCapsule_New(st, "rouge155py.TextState", text_state_free);
    if (!capsule) goto fail_free;
    return capsule;
fail:
    Py_XDECREF(iter);
fail_free:
    strtab_free(&st->stopwords);
    strtab_free(&st->exceptions);
    free(st->scratch);
    free(st);
    return NULL;
}

/* The id of a token of s[0 .. len) (lowercase ASCII letters and digits, padded; h its
 * str_hash) as counted: its -m form's under stem; -1 for a stopword under drop; -2 on no
 * memory. */
static int token_id(TextState *st, const char *s, Py_ssize_t len, unsigned long long h, int stem, int drop) {
    StrTable *t = &st->tokens;
    StrSlot *x = t->nslots ? &t->slots[strtab_slot(t, s, len, h)] : NULL; /* without strtab_add's call */
    int form;
    if (!x || x->id < 0) {
        if (strtab_add(t, s, len, h) < 0) return -2;
        x = &t->slots[strtab_slot(t, s, len, h)];
    }
    if (drop) {
        if (x->stop < 0) x->stop = strtab_find(&st->stopwords, s, len, h) >= 0;
        if (x->stop) return -1;
    }
    if (!stem) return x->id;
    if (x->stem >= 0) return x->stem;
    if (len < 4) { /* the Perl stems tokens longer than 3 bytes */
        x->stem = x->id;
        return x->id;
    }
    {
        int k = strtab_find(&st->exceptions, s, len, h);
        const char *f;
        Py_ssize_t n;
        if (k >= 0) {
            f = st->exceptions.arena + st->exceptions.entries[k].value_off;
            n = st->exceptions.entries[k].value_len;
        } else {
            char *w = scratch_padded(st, s, len);
            if (!w) return -2;
            n = stem_word((unsigned char *)w, len);
            memset(w + n, 0, PADDED(n) - (size_t)n); /* the stem is no longer than the token */
            f = w;
        }
        /* f may point into the exceptions arena or the scratch: neither moves while adding. */
        form = strtab_add(t, f, n, str_hash(f, n));
        if (form < 0) return -2;
        t->slots[strtab_slot(t, s, len, h)].stem = form; /* the slots may have moved */
        return form;
    }
}

/* The documents of a batch as token ids: per document its tokens (tok[first[d] ..
 * first[d+1])), its sentences (sent[sfirst[d] .. sfirst[d+1]] offsets into its tokens) and
 * its longest sentence. */
typedef struct {
    RsInts tok, sent;
    Py_ssize_t *first, *sfirst, *longest; /* ndocs + 1 each */
    unsigned int top;                               /* every id or'ed */
} Docs;

static void docs_free(Docs *d) {
    free(d->tok.items);
    free(d->sent.items);
    free(d->first);
    memset(d, 0, sizeof(*d));
}

/* The word of a text at byte at (as many bytes as it has there, then zeros). */
static inline unsigned long long text_word(const unsigned char *text, Py_ssize_t at, Py_ssize_t len) {
    unsigned char tail[8] = {0};
    if (at + 8 <= len) return load_word(text + at);
    if (at < len) memcpy(tail, text + at, (size_t)(len - at)); /* at the text's end */
    return load_word(tail);
}

/* How many of a word's bytes, from its first, are ASCII letters or digits (0 to 8), all
 * bytes at once: a byte's high bit is set in a sum where it is past a bound. */
static inline int alnum_run(unsigned long long x) {
    const unsigned long long highs = BYTES(0x80);
    unsigned long long t = x & ~highs, u = t | BYTES(0x20); /* u: letters folded to lowercase */
    unsigned long long digit = (t + BYTES(0x80 - '0')) & ~(t + BYTES(0x7f - '9'));
    unsigned long long letter = (u + BYTES(0x80 - 'a')) & ~(u + BYTES(0x7f - 'z'));
    unsigned long long other = ~((digit | letter) & ~x) & highs, before = ((other & (0 - other)) - 1) & highs;
    return (int)(((before >> 7) * BYTES(1)) >> 56);
}

/* A token's bytes, padded as the string tables keep them: in `small` up to 64 bytes, else in
 * `big` (grown as needed, freed by the owner). */
typedef struct {
    unsigned long long small[8], *words, *big;
    Py_ssize_t room; /* words of 8 bytes */
} TokenWords;

static void token_words_init(TokenWords *w) {
    w->words = w->small;
    w->big = NULL;
    w->room = 8;
}

/* Room in w->words for nwords words, the words held kept: 0, or -1 on no memory. */
static int token_words_room(TokenWords *w, Py_ssize_t nwords) {
    unsigned long long *grown;
    if (nwords <= w->room) return 0;
    grown = (unsigned long long *)realloc(w->big, (size_t)(2 * nwords) * 8);
    if (!grown) return -1;
    if (!w->big) memcpy(grown, w->small, sizeof(w->small));
    w->words = w->big = grown;
    w->room = 2 * nwords;
    return 0;
}

/* The token that starts at text[i] (an ASCII letter or digit): its bytes lowercased (the Perl's
 * lc: an ASCII letter or digit with bit 0x20 set is lowercase) and padded into w->words, which
 * it returns (NULL on no memory), its length and its hash as str_hash makes it, its first two
 * words read at once. */
/* (Inlined into its callers' loops: as a call, score_pairs' tokens took 5% longer.) */
static ALWAYS_INLINE const char *token_at(const unsigned char *text, Py_ssize_t i, Py_ssize_t len, TokenWords *w,
                                          Py_ssize_t *length, unsigned long long *hash) {
    unsigned long long x0 = text_word(text, i, len), x1 = text_word(text, i + 8, len), h;
    unsigned long long *words = w->words; /* read once: the stores below could be to w itself */
    int r0 = alnum_run(x0), r1 = alnum_run(x1);
    /* Without branches (they would go either way as tokens of up to 8 bytes and longer ones
     * come): the second word counts where the first is full. */
    unsigned long long full = 0 - (unsigned long long)(r0 >> 3);
    Py_ssize_t n = r0 + (Py_ssize_t)(r1 & (int)full), q;
    unsigned long long w0 = (x0 | BYTES(0x20)) & FIRST_BYTES[r0], w1 = (x1 | BYTES(0x20)) & FIRST_BYTES[r1] & full;
    store_word(words, w0);
    store_word(words + 1, w1);
    h = hash_end(head_hash(w0, w1, n));
    if (n == 16) { /* a longer token: the rest a byte at a time, then its words */
        Py_ssize_t j = i + 16, nwords;
        while (j < len && TOKEN_BYTE[text[j]]) j++;
        n = j - i;
        nwords = (Py_ssize_t)PADDED(n) / 8;
        if (token_words_room(w, nwords) < 0) return NULL;
        words = w->words;
        for (q = 2; q < nwords; q++)
            store_word(words + q,
                       (text_word(text, i + 8 * q, len) | BYTES(0x20)) & FIRST_BYTES[n - 8 * q < 8 ? n - 8 * q : 8]);
        h = str_hash((const char *)words, n);
    }
    *hash = h;
    *length = n;
    return (const char *)words;
}

/* ---- The run's token ids of texts (Corpus.encode), each token asked of the run once ----
 *
 * A memo holds, for one dict of token -> id (a Corpus's TokenIds, whose __missing__ numbers
 * a new token), the id of every token met: the dict is asked once per distinct token, not
 * once per token read.  The dict never changes an id it has given, so the memo's ids are
 * the dict's. */

typedef struct {
    StrTable tokens;    /* tokens met: entry k's id is ids[k] */
    long *ids;
    Py_ssize_t room;
    const void *table;  /* the dict it remembers (compared, never dereferenced) */
} TokenMemo;

static const char MEMO_NAME[] = "rouge155py.TokenMemo";

static void token_memo_free(PyObject *capsule) {
    TokenMemo *m = (TokenMemo *)PyCapsule_GetPointer(capsule, MEMO_NAME);
    if (!m) return;
    strtab_free(&m->tokens);
    free(m->ids);
    free(m);
}

/* token_memo(table) -> capsule: an empty memo of the dict `table`. */
static PyObject *token_memo(PyObject *Py_UNUSED(self), PyObject *table) {
    TokenMemo *m = (TokenMemo *)calloc(1, sizeof(TokenMemo));
    PyObject *capsule;
    if (!m) return PyErr_NoMemory();
    m->table = table;
    capsule = PyCapsule_New(m, MEMO_NAME, token_memo_free);
    if (!capsule) free(m);
    return capsule;
}

/* The id of a token (s, padded, of len bytes of ASCII letters and digits; h its str_hash): from
 * the memo, or asked of the dict and remembered.  0, or -1 with an exception set. */
static int memo_id(TokenMemo *m, PyObject *table, const char *s, Py_ssize_t len, unsigned long long h, long *id) {
    PyObject *token, *found;
    int k = strtab_find(&m->tokens, s, len, h);
    long value;
    if (k >= 0) {
        *id = m->ids[k];
        return 0;
    }
    token = PyUnicode_FromStringAndSize(s, len);
    if (!token) return -1;
    found = PyObject_GetItem(table, token); /* may run Python code (the dict's __missing__) */
    Py_DECREF(token);
    if (!found) return -1;
    value = PyLong_AsLong(found);
    Py_DECREF(found);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < INT_MIN || value > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "encode: token id out of range");
        return -1;
    }
    k = strtab_add(&m->tokens, s, len, h);
    if (k >= 0 && k >= m->room) {
        Py_ssize_t room = 2 * (Py_ssize_t)k + 64;
        long *grown = (long *)realloc(m->ids, (size_t)room * sizeof(long));
        if (grown) {
            m->ids = grown;
            m->room = room;
        } else {
            k = -1;
        }
    }
    if (k < 0) {
        PyErr_NoMemory();
        return -1;
    }
    m->ids[k] = value;
    *id = value;
    return 0;
}

/* Appends the ids of the tokens of data[0..len) to out: each maximal run of ASCII letters and
 * digits, lowercased under `lower` (the Perl's lc); else only a run that starts with a
 * lowercase letter or a digit counts, as it is.  drop: leave out negative ids (stopwords).
 * w holds each token as it is looked up.  0, or -1 with an exception set. */
static int memo_tokens(TokenMemo *m, PyObject *table, const unsigned char *data, Py_ssize_t len, int lower,
                       int drop, RsInts *out, TokenWords *w) {
    Py_ssize_t i = 0;
    while (i < len) {
        Py_ssize_t start, n;
        unsigned long long h;
        const char *token;
        long id;
        if (!TOKEN_BYTE[data[i]]) {
            i++;
            continue;
        }
        if (lower) {
            if (!(token = token_at(data, i, len, w, &n, &h))) {
                PyErr_NoMemory();
                return -1;
            }
            i += n;
        } else {
            start = i;
            while (i < len && TOKEN_BYTE[data[i]]) i++;
            if (data[start] >= 'A' && data[start] <= 'Z') continue; /* not a counted token */
            n = i - start;
            if (token_words_room(w, (Py_ssize_t)PADDED(n) / 8) < 0) {
                PyErr_NoMemory();
                return -1;
            }
            memset(w->words, 0, PADDED(n));
            memcpy(w->words, data + start, (size_t)n);
            token = (const char *)w->words;
            h = str_hash(token, n);
        }
        if (memo_id(m, table, token, n, h, &id) < 0) return -1;
        if (id < 0 && drop) continue;
        if (rs_ints_push(out, (int)id) < 0 || out->count > INT_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* The memo of a call's arguments, checked to be the table's. */
static TokenMemo *memo_of(PyObject *capsule, PyObject *table) {
    TokenMemo *m = (TokenMemo *)PyCapsule_GetPointer(capsule, MEMO_NAME);
    if (m && m->table != (const void *)table) {
        PyErr_SetString(PyExc_ValueError, "encode: the memo is another table's");
        return NULL;
    }
    return m;
}

/* The ids and the offsets as int32 bytes. */
static PyObject *ids_and_offsets(const RsInts *ids, const RsInts *offsets) {
    /* y# makes None of a NULL pointer: no ids are empty bytes */
    return Py_BuildValue("(y#y#)", ids->items ? (const char *)ids->items : "", ids->count * (Py_ssize_t)sizeof(int),
                         (const char *)offsets->items, offsets->count * (Py_ssize_t)sizeof(int));
}

/* A str's bytes (one a character), or NULL with an exception set. */
static const unsigned char *latin1_bytes(PyObject *text, Py_ssize_t *len) {
    if (!PyUnicode_Check(text) || PyUnicode_READY(text) < 0 || PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "encode: texts must be str of latin-1 characters");
        return NULL;
    }
    *len = PyUnicode_GET_LENGTH(text);
    return PyUnicode_1BYTE_DATA(text);
}

/* encode(texts, table, drop, memo) -> (ids, offsets), both int32 bytes
 *   texts: a list of str holding bytes one-to-one (latin-1); a token is a maximal run of
 *   ASCII letters and digits that starts with a lowercase letter or a digit;
 *   table: token -> id (a dict, its __missing__ called for a new token), memo: its memo;
 *   drop: leave out tokens whose id is negative (stopwords).
 *   offsets: where each text's ids start, and the end (len(texts) + 1 values).
 */
static PyObject *encode(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *list, *texts = NULL, *table, *capsule, *result = NULL;
    int drop;
    TokenMemo *m;
    RsInts ids = {NULL, 0, 0}, offsets = {NULL, 0, 0};
    TokenWords w;
    Py_ssize_t t;
    if (!PyArg_ParseTuple(args, "O!OpO", &PyList_Type, &list, &table, &drop, &capsule)) return NULL;
    if (!(m = memo_of(capsule, table))) return NULL;
    token_words_init(&w);
    texts = PyList_AsTuple(list); /* held as it is: the dict's __missing__ runs Python code */
    if (!texts) return NULL;
    if (rs_ints_push(&offsets, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (t = 0; t < PyTuple_GET_SIZE(texts); t++) {
        Py_ssize_t len;
        const unsigned char *data = latin1_bytes(PyTuple_GET_ITEM(texts, t), &len);
        if (!data || memo_tokens(m, table, data, len, 0, drop, &ids, &w) < 0) goto done;
        if (rs_ints_push(&offsets, (int)ids.count) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    result = ids_and_offsets(&ids, &offsets);
done:
    Py_XDECREF(texts);
    free(w.big);
    rs_ints_free(&ids);
    rs_ints_free(&offsets);
    return result;
}

/* encode_lines(text, table, drop, memo) -> (ids, offsets), both int32 bytes
 *   The sentences of an SPL text (its lines that are not empty) lowercased and encoded as
 *   encode() encodes them; offsets: where each sentence's ids start, and the end.
 *   None where the text is not a str of latin-1 characters. */
static PyObject *encode_lines(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *text, *table, *capsule, *result = NULL;
    int drop;
    TokenMemo *m;
    RsInts ids = {NULL, 0, 0}, offsets = {NULL, 0, 0};
    TokenWords w;
    const unsigned char *data;
    Py_ssize_t len, at = 0;
    if (!PyArg_ParseTuple(args, "UOpO", &text, &table, &drop, &capsule)) return NULL;
    if (!(m = memo_of(capsule, table))) return NULL;
    token_words_init(&w);
    if (PyUnicode_READY(text) < 0) return NULL;
    if (PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND) Py_RETURN_NONE;
    data = PyUnicode_1BYTE_DATA(text);
    len = PyUnicode_GET_LENGTH(text);
    Py_INCREF(text);
    if (rs_ints_push(&offsets, 0) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    while (at < len) {
        const unsigned char *end = (const unsigned char *)memchr(data + at, '\n', (size_t)(len - at));
        Py_ssize_t stop = end ? end - data : len;
        if (stop > at) {
            if (memo_tokens(m, table, data + at, stop - at, 1, drop, &ids, &w) < 0) goto done;
            if (rs_ints_push(&offsets, (int)ids.count) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        }
        at = stop + 1;
    }
    result = ids_and_offsets(&ids, &offsets);
done:
    Py_DECREF(text);
    free(w.big);
    rs_ints_free(&ids);
    rs_ints_free(&offsets);
    return result;
}

/* Tokens of a text of SPL lines, lowercased as the Perl's lc: runs of ASCII letters and
 * digits, each line a sentence.  0, -2 on no memory. */
static int docs_add(Docs *d, Py_ssize_t k, TextState *st, const unsigned char *text, Py_ssize_t len, int stem,
                    int drop) {
    TokenWords tw;
    Py_ssize_t i = 0, start = d->tok.count, sentence = 0, longest = 0;
    token_words_init(&tw);
    d->first[k] = start;
    d->sfirst[k] = d->sent.count;
    if (rs_ints_push(&d->sent, 0) < 0) return -2;
    while (i <= len) {
        unsigned char c = i < len ? text[i] : '\n';
        if (c == '\n') {
            Py_ssize_t here = d->tok.count - start;
            if (here - sentence > 0) { /* an empty line is no sentence (it has no token either) */
                if (rs_ints_push(&d->sent, (int)here) < 0) return -2;
                if (here - sentence > longest) longest = here - sentence;
                sentence = here;
            }
            i++;
            continue;
        }
        if (TOKEN_BYTE[c]) {
            Py_ssize_t n;
            unsigned long long h;
            int id;
            const char *token = token_at(text, i, len, &tw, &n, &h);
            if (!token) {
                free(tw.big);
                return -2;
            }
            id = token_id(st, token, n, h, stem, drop);
            if (id == -2 || (id >= 0 && rs_ints_push(&d->tok, id) < 0)) {
                free(tw.big);
                return -2;
            }
            if (id >= 0) d->top |= (unsigned int)id;
            i += n;
            continue;
        }
        i++;
    }
    free(tw.big);
    if (d->tok.count > INT_MAX / 2) return -2;
    d->longest[k] = longest;
    return 0;
}

/* A metric of a batch. */
typedef struct {
    int kind;         /* 0: n-grams, 1: skip-bigrams, 2: ROUGE-L, 3: ROUGE-W */
    UnitRule rule;    /* kinds 0 and 1 */
    double weight;    /* kind 3 */
    double *f;        /* kind 3: f[k] = k ** weight */
} BatchMetric;

/* The value round(x, 5) gives (the Perl's sprintf("%7.5f") read back): the decimal nearest x
 * at 5 places (ties to even, on x's exact value), as the nearest double.  Below 1e9, x * 1e5
 * is within 1e-7 of the exact product, so away from a tie its nearest integer is the right
 * one, and k / 1e5 is the double nearest the decimal; elsewhere the digits come from
 * printf, which rounds the exact value, and strtod reads them back. */
static double round5(double x) {
    double y, k, frac;
    if (!(x == x) || x - x != 0.0) return x; /* NaN, infinities */
    y = x * 1e5;
    k = floor(y);
    frac = y - k;
    if (y > 1e9 || y < -1e9 || (frac > 0.5 - 1e-6 && frac < 0.5 + 1e-6)) {
        char digits[400]; /* %.5f of the largest double: 309 digits, the point and 5 more */
        snprintf(digits, sizeof(digits), "%.5f", x);
        return strtod(digits, NULL);
    }
    if (frac > 0.5) k += 1.0;
    return k / 1e5;
}

/* A Work made for sentences of up to m and n tokens, kept for the pairs of a batch. */
typedef struct {
    Work w;
    Py_ssize_t m, n;
} BatchWork;

/* Room in b for a model sentence of m tokens against a peer sentence of n: 0, -2 on no memory. */
static int batch_work(BatchWork *b, Py_ssize_t m, Py_ssize_t n, int weighted) {
    if (b->w.block && m <= b->m && n <= b->n) return 0;
    if (m < b->m) m = b->m;
    if (n < b->n) n = b->n;
    free(b->w.block);
    b->w.block = NULL;
    if (work_make(&b->w, m, n, weighted) < 0) return -2;
    b->m = m;
    b->n = n;
    return 0;
}

/* Per token id, counts of one pair's texts: each array is all zeros between two pairs. */
typedef struct {
    int *model, *peer, *used, *cap;
    int *kind;           /* per token id, its kind in an LCS's peer sentence: all -1 between two */
    unsigned char *mask; /* per model position: marked by some LCS */
} PairCounts;

/* Counts the pair's unigrams into c (undone by pair_forget). */
static void pair_count(PairCounts *c, const int *mt, Py_ssize_t ml, const int *pt, Py_ssize_t pl) {
    Py_ssize_t k;
    for (k = 0; k < ml; k++) c->model[mt[k]]++;
    for (k = 0; k < pl; k++) c->peer[pt[k]]++;
}

static void pair_forget(PairCounts *c, const int *mt, Py_ssize_t ml, const int *pt, Py_ssize_t pl) {
    Py_ssize_t k;
    for (k = 0; k < ml; k++) c->model[mt[k]] = c->used[mt[k]] = 0;
    for (k = 0; k < pl; k++) c->peer[pt[k]] = 0;
}

/* ROUGE-1's clipped hits of a counted pair: a model token hits while the peer has copies left. */
static long long pair_unigram_hits(PairCounts *c, const int *mt, Py_ssize_t ml) {
    long long hit = 0;
    Py_ssize_t k;
    for (k = 0; k < ml; k++)
        if (c->used[mt[k]]++ < c->peer[mt[k]]) hit++;
    for (k = 0; k < ml; k++) c->used[mt[k]] = 0;
    return hit;
}

/* (hit, base) of the union LCS of model document md against peer document pd (f NULL:
 * ROUGE-L, else ROUGE-W's weights), as union_counts makes them, on a counted pair whose
 * clipping budgets are those counts: a marked model token counts while it has fewer hits
 * than min(model copies, peer copies).  0, -1 when a signal handler raised, -2 on no memory. */
static int pair_union(const Docs *d, Py_ssize_t md, Py_ssize_t pd, const double *f, BatchWork *b, Gil *gil,
                      PairCounts *c, double *hit_out, double *base_out) {
    const int *mt = d->tok.items + d->first[md], *pt = d->tok.items + d->first[pd];
    const int *mo = d->sent.items + d->sfirst[md], *po = d->sent.items + d->sfirst[pd];
    Py_ssize_t ms = d->sfirst[md + 1] - d->sfirst[md] - 1, ps = d->sfirst[pd + 1] - d->sfirst[pd] - 1;
    Py_ssize_t total = d->first[md + 1] - d->first[md], mlongest = d->longest[md];
    unsigned char *mask = c->mask;
    Py_ssize_t k;
    int marked;
    if (batch_work(b, mlongest, d->longest[pd], f != NULL) < 0) return -2;
    memset(mask, 0, (size_t)total);
    b->w.gil = *gil;
    b->w.direct = f ? NULL : c->kind;
    marked = union_marks(mt, mo, ms, mlongest, pt, po, ps, f, &b->w, mask);
    *gil = b->w.gil;
    if (marked < 0) return marked;
    for (k = 0; k < total; k++) c->cap[mt[k]] = c->model[mt[k]] < c->peer[mt[k]] ? c->model[mt[k]] : c->peer[mt[k]];
    union_hits(mo, ms, mask, mt, c->used, c->cap, f, hit_out, base_out);
    for (k = 0; k < total; k++) c->used[mt[k]] = c->cap[mt[k]] = 0;
    return 0;
}

/* One model's counts, as ModelCounts holds them. */
typedef struct {
    double hit, model_count, peer_count, score;
    int has_score;
} Counted;

/* score_pairs(state, texts, stem, drop, peers, model_starts, models, metrics, alpha,
 *             best_model, max_cells) -> (rows, failed)
 *   texts: a list of str of latin-1 characters, each the bytes of an SPL document;
 *   stem (-m), drop (-s): the text stage; state: text_state()'s, kept by the caller;
 *   peers: int32, the peer document of each pair; model_starts: int32 (pairs + 1) and
 *   models: int32, its model documents; metrics: a sequence of (kind, n, reach, unigrams,
 *   weight) with kind 0 n-grams of size n, 1 skip-bigrams within reach (-1: any) with or
 *   without unigrams, 2 ROUGE-L, 3 ROUGE-W with weight; alpha (-p), best_model (-f B);
 *   max_cells: the largest LCS table of two sentences.
 * rows: float64 bytes, per metric then pair, R, P, F rounded as the Perl keeps them.
 * failed: -1, or the first pair the Perl would die on (or whose table is too large): no
 * rows then.
 */
static PyObject *score_pairs(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_state, *o_texts, *o_metrics, *o_peers, *o_starts, *o_models, *texts = NULL, *metrics = NULL;
    PyObject *result = NULL, *rows_bytes = NULL;
    Py_buffer peers, starts, models;
    int stem, drop, best_model, held = 0;
    double alpha;
    long long max_cells;
    TextState *st;
    Docs d;
    BatchMetric *spec = NULL;
    Py_ssize_t ndocs, npairs, nmetrics, i, k, failed = -1;
    double *rows;
    int status = 0;
    Gil gil;
    const int **mtok = NULL;
    Py_ssize_t *mlen = NULL;
    long long *hits = NULL;
    Counted *counted = NULL;
    Py_ssize_t most_models = 0, longest_doc = 0;
    int signals;
    PairCounts pc_;
    BatchWork lwork, wwork;

    memset(&d, 0, sizeof(d));
    memset(&pc_, 0, sizeof(pc_));
    memset(&lwork, 0, sizeof(lwork));
    memset(&wwork, 0, sizeof(wwork));
    if (!PyArg_ParseTuple(args, "OOppOOOOdpL", &o_state, &o_texts, &stem, &drop, &o_peers, &o_starts, &o_models,
                          &o_metrics, &alpha, &best_model, &max_cells))
        return NULL;
    st = (TextState *)PyCapsule_GetPointer(o_state, "rouge155py.TextState");
    if (!st) return NULL;
    if (st->busy) {
        PyErr_SetString(PyExc_RuntimeError, "score_pairs: the text state is in use by another thread");
        return NULL;
    }
    texts = PySequence_Tuple(o_texts);
    if (!texts) return NULL;
    ndocs = PyTuple_GET_SIZE(texts);
    for (i = 0; i < ndocs; i++) {
        PyObject *t = PyTuple_GET_ITEM(texts, i);
        if (!PyUnicode_Check(t) || PyUnicode_READY(t) < 0 || PyUnicode_KIND(t) != PyUnicode_1BYTE_KIND) {
            PyErr_SetString(PyExc_TypeError, "score_pairs: texts must be str of latin-1 characters");
            goto done;
        }
    }
    metrics = PySequence_Tuple(o_metrics);
    if (!metrics) goto done;
    nmetrics = PyTuple_GET_SIZE(metrics);
    spec = (BatchMetric *)calloc((size_t)(nmetrics ? nmetrics : 1), sizeof(BatchMetric));
    if (!spec) {
        PyErr_NoMemory();
        goto done;
    }
    for (k = 0; k < nmetrics; k++) {
        int kind, unigrams;
        Py_ssize_t n, reach;
        double weight;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(metrics, k), "innpd", &kind, &n, &reach, &unigrams, &weight))
            goto done;
        if (kind < 0 || kind > 3 || (kind == 0 && (n < 1 || n > 64)) || (kind == 3 && !(weight > 0))) {
            PyErr_SetString(PyExc_ValueError, "score_pairs: bad metric");
            goto done;
        }
        spec[k].kind = kind;
        spec[k].rule.mode = kind == 1;
        spec[k].rule.n = n;
        spec[k].rule.reach = reach;
        spec[k].rule.unigrams = unigrams;
        spec[k].weight = weight;
    }
    if (get_buffer(o_peers, &peers, "peers", 4) < 0) goto done;
    held = 1;
    if (get_buffer(o_starts, &starts, "model_starts", 4) < 0) goto done;
    held = 2;
    if (get_buffer(o_models, &models, "models", 4) < 0) goto done;
    held = 3;
    npairs = peers.len / 4;
    {
        const int *p = (const int *)peers.buf, *s = (const int *)starts.buf, *m = (const int *)models.buf;
        Py_ssize_t nm = models.len / 4;
        if (starts.len / 4 != npairs + 1 || (npairs >= 0 && s[0] != 0) || s[npairs] != nm) goto bad_pairs;
        for (i = 0; i < npairs; i++) {
            if (p[i] < 0 || p[i] >= ndocs || s[i + 1] < s[i]) goto bad_pairs;
            if (s[i + 1] - s[i] > most_models) most_models = s[i + 1] - s[i];
        }
        for (i = 0; i < nm; i++)
            if (m[i] < 0 || m[i] >= ndocs) goto bad_pairs;
    }
    rows_bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(3 * sizeof(double)) * nmetrics * npairs);
    if (!rows_bytes) goto done;
    rows = (double *)PyBytes_AS_STRING(rows_bytes);
    d.first = (Py_ssize_t *)malloc((size_t)(ndocs + 1) * 3 * sizeof(Py_ssize_t));
    mtok = (const int **)malloc((size_t)(most_models + 1) * sizeof(int *));
    mlen = (Py_ssize_t *)malloc((size_t)(most_models + 1) * sizeof(Py_ssize_t));
    hits = (long long *)malloc((size_t)(most_models + 1) * sizeof(long long));
    counted = (Counted *)malloc((size_t)(most_models + 1) * sizeof(Counted));
    if (!d.first || !mtok || !mlen || !hits || !counted) {
        PyErr_NoMemory();
        goto done;
    }
    d.sfirst = d.first + ndocs + 1;
    d.longest = d.sfirst + ndocs + 1;
    st->busy = 1;
    if (st->tokens.size > MAX_REMEMBERED) strtab_free(&st->tokens);

    signals = PyThread_get_thread_ident() == import_thread;
    gil_release(&gil, RELEASE_CELLS);
    /* The text stage: every document once. */
    for (i = 0; i < ndocs && status == 0; i++) {
        PyObject *t = PyTuple_GET_ITEM(texts, i);
        size_t cells = signals && i % SIGNAL_PAIRS == SIGNAL_PAIRS - 1 ? CHECK_CELLS : (size_t)PyUnicode_GET_LENGTH(t);
        status = docs_add(&d, i, st, PyUnicode_1BYTE_DATA(t), PyUnicode_GET_LENGTH(t), stem, drop);
        if (status == 0 && gil_check(&gil, cells) < 0) status = -1;
    }
    d.first[ndocs] = d.tok.count;
    d.sfirst[ndocs] = d.sent.count;
    /* Per token id, the counts of the pair at hand (ids are below the number of tokens met):
     * kept by the state and grown with it, so that a call touches only the ids it counts. */
    if (status == 0 && st->tokens.size + 1 > st->count_ids) {
        Py_ssize_t ids = 2 * (st->tokens.size + 1);
        free(st->counts);
        st->counts = (int *)calloc((size_t)ids * 5, sizeof(int));
        st->count_ids = st->counts ? ids : 0;
        if (!st->counts) status = -2;
        else memset(st->counts + 4 * ids, 0xff, (size_t)ids * sizeof(int));
    }
    if (status == 0) {
        Py_ssize_t ids = st->count_ids;
        for (i = 0; i < ndocs; i++)
            if (d.first[i + 1] - d.first[i] > longest_doc) longest_doc = d.first[i + 1] - d.first[i];
        pc_.model = st->counts;
        pc_.peer = pc_.model + ids;
        pc_.used = pc_.peer + ids;
        pc_.cap = pc_.used + ids;
        pc_.kind = pc_.cap + ids;
        pc_.mask = (unsigned char *)malloc((size_t)longest_doc + 1);
        if (!pc_.mask) status = -2;
    }
    /* ROUGE-W's weights, up to the longest sentence + 1. */
    for (k = 0; k < nmetrics && status == 0; k++) {
        Py_ssize_t longest = 0, j;
        if (spec[k].kind != 3) continue;
        for (i = 0; i < ndocs; i++)
            if (d.longest[i] > longest) longest = d.longest[i];
        spec[k].f = (double *)malloc((size_t)(longest + 2) * sizeof(double));
        if (!spec[k].f) status = -2;
        else
            for (j = 0; j < longest + 2; j++) spec[k].f[j] = pow((double)j, spec[k].weight);
    }
    /* Every metric of every pair. */
    for (i = 0; i < npairs && status == 0 && failed < 0; i++) {
        if (signals && i % SIGNAL_PAIRS == SIGNAL_PAIRS - 1 && gil_check(&gil, CHECK_CELLS) < 0) {
            status = -1;
            break;
        }
        const int *s = (const int *)starts.buf, *m = (const int *)models.buf + s[i];
        Py_ssize_t pd = ((const int *)peers.buf)[i], nm = s[i + 1] - s[i], q;
        const int *pt = d.tok.items + d.first[pd];
        Py_ssize_t pl = d.first[pd + 1] - d.first[pd];
        for (q = 0; q < nm; q++) {
            mtok[q] = d.tok.items + d.first[m[q]];
            mlen[q] = d.first[m[q] + 1] - d.first[m[q]];
        }
        for (k = 0; k < nmetrics && status == 0 && failed < 0; k++) {
            const BatchMetric *x = &spec[k];
            double power = 0.0, hit = 0.0, mc = 0.0, pc = 0.0, recall, precision, den, *row;
            if (x->kind == 0 && x->rule.n == 1) {
                for (q = 0; q < nm; q++) {
                    pair_count(&pc_, mtok[q], 0, pt, pl);
                    hits[q] = pair_unigram_hits(&pc_, mtok[q], mlen[q]);
                    pair_forget(&pc_, mtok[q], 0, pt, pl);
                }
            } else if (x->kind < 2) {
                status = all_hits(&x->rule, key_bits(&x->rule, d.top), pt, pl, mtok, mlen, nm, hits, &gil);
            }
            if (x->kind < 2) {
                for (q = 0; q < nm; q++) {
                    counted[q].hit = (double)hits[q];
                    counted[q].model_count = (double)unit_count(&x->rule, mlen[q]);
                    counted[q].peer_count = (double)unit_count(&x->rule, pl);
                    counted[q].has_score = 0;
                }
            } else {
                for (q = 0; q < nm && status == 0; q++) {
                    Py_ssize_t md = m[q];
                    double h = 0.0, base = 0.0;
                    if ((long long)d.longest[md] * (long long)d.longest[pd] > max_cells) {
                        failed = i;
                        break;
                    }
                    pair_count(&pc_, mtok[q], mlen[q], pt, pl);
                    status = pair_union(&d, md, pd, x->kind == 3 ? x->f : NULL, x->kind == 3 ? &wwork : &lwork,
                                        &gil, &pc_, &h, &base);
                    pair_forget(&pc_, mtok[q], mlen[q], pt, pl);
                    if (status < 0) break;
                    if (x->kind == 2) {
                        counted[q].hit = h;
                        counted[q].model_count = base;
                        counted[q].peer_count = (double)pl;
                        counted[q].score = base > 0 ? h / base : 0.0;
                    } else {
                        double score = pow(h / base, 1.0 / x->weight), c = pow(base, x->weight);
                        if (base == 0 || !isfinite(h) || !isfinite(c) || !isfinite(score)) {
                            failed = i; /* the Perl dies (or prints NaN): the slow path raises */
                            break;
                        }
                        counted[q].hit = h;
                        counted[q].model_count = c;
                        counted[q].peer_count = pow((double)pl, x->weight);
                        counted[q].score = score;
                    }
                    counted[q].has_score = 1;
                }
            }
            if (status != 0 || failed >= 0) break;
            if (!best_model) {
                for (q = 0; q < nm; q++) {
                    hit += counted[q].hit;
                    mc += counted[q].model_count;
                    pc += counted[q].peer_count;
                }
            } else {
                double best = -1.0;
                for (q = 0; q < nm; q++) {
                    double score = counted[q].has_score
                                       ? counted[q].score
                                       : (counted[q].model_count != 0 ? round5(counted[q].hit / counted[q].model_count) : 0.0);
                    if (score > best) {
                        best = score;
                        hit = counted[q].hit;
                        mc = counted[q].model_count;
                        pc = counted[q].peer_count;
                    }
                }
            }
            if (x->kind == 3) power = 1.0 / x->weight;
            recall = mc != 0 ? round5(power != 0.0 ? pow(hit / mc, power) : hit / mc) : 0.0;
            precision = pc != 0 ? round5(power != 0.0 ? pow(hit / pc, power) : hit / pc) : 0.0;
            den = (1 - alpha) * precision + alpha * recall;
            row = rows + 3 * (k * npairs + i);
            row[0] = recall;
            row[1] = precision;
            row[2] = round5(den > 0 ? precision * recall / den : 0.0);
        }
    }
    gil_restore(&gil);
    st->busy = 0;
    if (status == -2) {
        PyErr_NoMemory();
        goto done;
    }
    if (status < 0) goto done; /* a signal handler raised */
    if (failed >= 0) {
        Py_CLEAR(rows_bytes);
        result = Py_BuildValue("(yn)", "", failed);
    } else {
        result = Py_BuildValue("(On)", rows_bytes, (Py_ssize_t)-1);
    }
    goto done;
bad_pairs:
    PyErr_SetString(PyExc_ValueError, "score_pairs: pairs do not index the documents");
done:
    if (held > 2) PyBuffer_Release(&models);
    if (held > 1) PyBuffer_Release(&starts);
    if (held > 0) PyBuffer_Release(&peers);
    for (k = 0; spec && k < nmetrics; k++) free(spec[k].f);
    free(pc_.mask);
    free(lwork.w.block);
    free(wwork.w.block);
    free(spec);
    free(mtok);
    free(mlen);
    free(hits);
    free(counted);
    docs_free(&d);
    Py_XDECREF(rows_bytes);
    Py_XDECREF(texts);
    Py_XDECREF(metrics);
    return result;
}

/* ---- rouge-score's dialect: its text stage, its counts (the batches' union LCS for rougeLsum
 * of lines), its scores ---- */

/* A Score of rouge-score (a tuple subclass of three items) of the given values; its items
 * are stolen (NULL on no memory: they are released). */
static PyObject *rs_score_of(PyTypeObject *type, PyObject *p, PyObject *r, PyObject *f) {
    PyObject *score = p && r && f ? type->tp_alloc(type, 3) : NULL;
    if (!score) {
        Py_XDECREF(p);
        Py_XDECREF(r);
        Py_XDECREF(f);
        return NULL;
    }
    PyTuple_SET_ITEM(score, 0, p);
    PyTuple_SET_ITEM(score, 1, r);
    PyTuple_SET_ITEM(score, 2, f);
    /* Three numbers (rouge-score's Score keeps no __dict__) are in no reference cycle: the
     * collector need not walk a batch's hundreds of thousands of them, as it does not walk a
     * plain tuple of numbers once it has seen it. */
    if (!type->tp_dictoffset && PyObject_IS_GC(score) && PyObject_GC_IsTracked(score)) PyObject_GC_UnTrack(score);
    return score;
}

/* The documents of rouge-score's texts: tokens by its tokenizer (rs_tokenize), each line
 * holding a token a sentence.  0, -2 on no memory. */
static int rs_docs_add(Docs *d, Py_ssize_t k, RsVocab *v, PyObject *text, RsInts *ends) {
    Py_ssize_t start = d->tok.count, e, longest = 0, last = 0;
    d->first[k] = start;
    d->sfirst[k] = d->sent.count;
    ends->count = 0;
    if (rs_ints_push(&d->sent, 0) < 0) return -2;
    if (rs_tokenize(v, PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text), 1, &d->tok, ends) < 0)
        return -2;
    if (d->tok.count > INT_MAX / 2) return -2;
    for (e = 0; e < ends->count; e++) {
        Py_ssize_t end = ends->items[e] - start;
        if (rs_ints_push(&d->sent, (int)end) < 0) return -2;
        if (end - last > longest) longest = end - last;
        last = end;
    }
    d->longest[k] = longest;
    return 0;
}

/* The scratch of rs_score_pairs's counts, kept for a call's pairs. */
typedef struct {
    /* n-grams of n >= 2 tokens, each packed into one key: a table of one text's n-grams, a
     * slot being the current pair's where its stamp is the pair's */
    unsigned long long *keys;
    int *left;             /* per slot: copies not yet taken by the other text */
    unsigned int *stamps;  /* per slot: the pair that filled it (0: none) */
    unsigned int stamp;
    Py_ssize_t slots;      /* a power of two, or 0 */
    int shift;             /* 64 - log2(slots) */
    /* the LCS length by bit vectors: a mask per kind of token, and the row */
    unsigned long long *masks, *row;
    size_t mask_room, row_room; /* words */
} RsWork;

static void rs_work_free(RsWork *w) {
    free(w->keys);
    free(w->left);
    free(w->stamps);
    free(w->masks);
    free(w->row);
    memset(w, 0, sizeof(*w));
}

/* ROUGE-1's hits of a pair: each token of b takes one of a's copies while some are left.
 * left: per id, all 0 (and so again on return). */
static long long rs_unigram_hits(int *left, const int *a, Py_ssize_t al, const int *b, Py_ssize_t bl) {
    long long hits = 0;
    Py_ssize_t k;
    for (k = 0; k < al; k++) left[a[k]]++;
    for (k = 0; k < bl; k++)
        if (left[b[k]] > 0) {
            left[b[k]]--;
            hits++;
        }
    for (k = 0; k < al; k++) left[a[k]] = 0;
    return hits;
}

/* ROUGE-N's hits of a pair (n >= 2, each id in `bits` bits of a key): the sum over n-grams of
 * the smaller of their counts, the text of fewer n-grams counted in w's table, then taken by
 * the other's.  0, -2 on no memory. */
static int rs_gram_hits(RsWork *w, Py_ssize_t n, int bits, const int *a, Py_ssize_t al, const int *b, Py_ssize_t bl,
                        long long *hits) {
    unsigned long long key = 0, keep = n * bits >= 64 ? ~0ULL : (1ULL << (n * bits)) - 1;
    Py_ssize_t grams, k, at, last;
    *hits = 0;
    if (al > bl) {
        const int *t = a;
        a = b;
        b = t;
        k = al;
        al = bl;
        bl = k;
    }
    if (al < n) return 0; /* then the text of fewer tokens has no n-gram */
    grams = al - n + 1;
    if (2 * grams > w->slots) {
        Py_ssize_t slots = 16;
        int shift = 60;
        while (slots < 2 * grams) {
            slots *= 2;
            shift--;
        }
        free(w->keys);
        free(w->left);
        free(w->stamps);
        w->keys = (unsigned long long *)malloc((size_t)slots * sizeof(unsigned long long));
        w->left = (int *)malloc((size_t)slots * sizeof(int));
        w->stamps = (unsigned int *)calloc((size_t)slots, sizeof(unsigned int));
        if (!w->keys || !w->left || !w->stamps) {
            rs_work_free(w);
            return -2;
        }
        w->slots = slots;
        w->shift = shift;
        w->stamp = 0;
    }
    if (++w->stamp == 0) { /* 2^32 pairs: every slot free again */
        memset(w->stamps, 0, (size_t)w->slots * sizeof(unsigned int));
        w->stamp = 1;
    }
    last = w->slots - 1;
    for (k = 0; k < n - 1; k++) key = (key << bits) | (unsigned int)a[k];
    for (k = n - 1; k < al; k++) {
        key = ((key << bits) | (unsigned int)a[k]) & keep;
        at = (Py_ssize_t)((key * 0x9E3779B97F4A7C15ULL) >> w->shift);
        while (w->stamps[at] == w->stamp && w->keys[at] != key) at = (at + 1) & last;
        if (w->stamps[at] != w->stamp) {
            w->stamps[at] = w->stamp;
            w->keys[at] = key;
            w->left[at] = 1;
        } else {
            w->left[at]++;
        }
    }
    key = 0;
    for (k = 0; k < n - 1; k++) key = (key << bits) | (unsigned int)b[k];
    for (k = n - 1; k < bl; k++) {
        key = ((key << bits) | (unsigned int)b[k]) & keep;
        at = (Py_ssize_t)((key * 0x9E3779B97F4A7C15ULL) >> w->shift);
        while (w->stamps[at] == w->stamp && w->keys[at] != key) at = (at + 1) & last;
        if (w->stamps[at] == w->stamp && w->left[at] > 0) {
            w->left[at]--;
            (*hits)++;
        }
    }
    return 0;
}

/* The length of an LCS of a and b (no backtrack: rougeL, or rougeLsum of two one-line texts)
 * by bit vectors over the longer one (Allison-Dix, Hyyro): its row has a bit per token of
 * the longer text, clear where the LCS grows; each token of the shorter that the longer holds
 * turns row V into (V + (V & M)) | (V & ~M), M the positions holding it.  kind: per id, -1
 * (and so again on return).  >= 0; -1 when a signal handler raised; -2 on no memory. */
static Py_ssize_t rs_lcs_length(RsWork *w, int *kind, const int *a, Py_ssize_t al, const int *b, Py_ssize_t bl,
                                Gil *gil) {
    Py_ssize_t words, kinds = 0, i, j, length = 0;
    int checked, status = 0;
    unsigned long long *row;
    if (al > bl) {
        const int *t = a;
        a = b;
        b = t;
        i = al;
        al = bl;
        bl = i;
    }
    if (al == 0) return 0;
    words = (bl + 63) / 64;
    /* a mask for each kind of token both texts hold: no more kinds than the shorter's tokens */
    for (j = 0; j < bl; j++) kind[b[j]] = -2;
    for (i = 0; i < al; i++)
        if (kind[a[i]] == -2) kind[a[i]] = (int)kinds++;
    if (kinds > PY_SSIZE_T_MAX / 8 / words) status = -2;
    else if ((size_t)(kinds * words) > w->mask_room) {
        free(w->masks);
        w->masks = (unsigned long long *)malloc((size_t)(kinds * words) * sizeof(unsigned long long));
        w->mask_room = w->masks ? (size_t)(kinds * words) : 0;
        if (!w->masks) status = -2;
    }
    if ((size_t)words > w->row_room) {
        free(w->row);
        w->row = (unsigned long long *)malloc((size_t)words * sizeof(unsigned long long));
        w->row_room = w->row ? (size_t)words : 0;
        if (!w->row) status = -2;
    }
    if (status == 0) {
        unsigned long long *masks = w->masks;
        row = w->row;
        memset(masks, 0, (size_t)(kinds * words) * sizeof(unsigned long long));
        for (j = 0; j < bl; j++)
            if (kind[b[j]] >= 0) masks[(size_t)kind[b[j]] * (size_t)words + (size_t)(j >> 6)] |= 1ULL << (j & 63);
        for (j = 0; j < words; j++) row[j] = ~0ULL;
        checked = (size_t)al * (size_t)words >= RELEASE_CELLS; /* a long pair looks at signals by rows */
        for (i = 0; i < al && status == 0; i++) {
            const unsigned long long *match;
            unsigned long long carry = 0;
            if (kind[a[i]] < 0) continue; /* a token the longer text lacks leaves the row as it is */
            match = masks + (size_t)kind[a[i]] * (size_t)words;
            for (j = 0; j < words; j++) {
                unsigned long long v = row[j], sum = v + (v & match[j]), out = sum + carry;
                carry = (unsigned long long)(sum < v) | (unsigned long long)(out < sum);
                row[j] = out | (v & ~match[j]);
            }
            if (checked && gil_check(gil, (size_t)words * 64) < 0) status = -1;
        }
        if (bl & 63) row[words - 1] |= ~0ULL << (bl & 63); /* past the last token: not the LCS's */
        for (j = 0; j < words; j++) length += 64 - popcount(row[j]);
    }
    for (j = 0; j < bl; j++) kind[b[j]] = -1;
    return status < 0 ? status : length;
}

/* rs_score_pairs(targets, predictions, stem, metrics, names, score_type, max_cells) -> list or None
 *   targets, predictions: sequences of str, as many (pair i is targets[i], predictions[i]);
 *   stem: nltk's Porter stemmer on tokens longer than 3 characters; metrics: a sequence of
 *   (kind, n), kind 0 n-grams of size n (1 .. 64), 1 rougeL (the LCS of the whole texts),
 *   2 rougeLsum (the union LCS of their lines, clipped by both texts' token counts);
 *   names: a str per metric; score_type: rouge-score's Score (a tuple subclass of three);
 *   max_cells: the largest LCS table of two sentences.
 * Per pair a dict name -> Score(precision, recall, fmeasure) as rouge-score 0.1.2 makes it
 * (unrounded hit / max(count, 1), F = 2PR / (P + R); Score(0, 0, 0) of ints for an LCS
 * where a text has no token); None when some pair's table is too large (no scores then).
 */
static PyObject *rs_score_pairs(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_targets, *o_predictions, *o_metrics, *o_names, *o_type;
    PyObject *targets = NULL, *predictions = NULL, *metrics = NULL, *names = NULL, *result = NULL;
    PyObject *zeros = NULL;
    PyTypeObject *type;
    int stem, status = 0, signals, failed = 0;
    long long max_cells;
    Py_ssize_t npairs, ndocs, nmetrics, i, k, total = 0, longest_doc = 0, ids;
    int *kinds = NULL;
    UnitRule *rules = NULL;
    double *rows = NULL;
    unsigned char *empty = NULL;
    Docs d, whole;
    RsInts ends = {NULL, 0, 0};
    RsVocab *v = NULL;
    PairCounts pc_;
    BatchWork lwork;
    RsWork rw;
    int *counts = NULL;
    Gil gil;

    memset(&rw, 0, sizeof(rw));
    memset(&d, 0, sizeof(d));
    memset(&whole, 0, sizeof(whole));
    memset(&pc_, 0, sizeof(pc_));
    memset(&lwork, 0, sizeof(lwork));
    if (!PyArg_ParseTuple(args, "OOpOOOL", &o_targets, &o_predictions, &stem, &o_metrics, &o_names, &o_type,
                          &max_cells))
        return NULL;
    if (!PyType_Check(o_type) || !PyType_IsSubtype((PyTypeObject *)o_type, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "rs_score_pairs: score_type must be a tuple subclass");
        return NULL;
    }
    type = (PyTypeObject *)o_type;
    targets = PySequence_Tuple(o_targets); /* the texts are held while the GIL is let go */
    if (!targets) goto done;
    predictions = PySequence_Tuple(o_predictions);
    if (!predictions) goto done;
    metrics = PySequence_Tuple(o_metrics);
    if (!metrics) goto done;
    names = PySequence_Tuple(o_names);
    if (!names) goto done;
    npairs = PyTuple_GET_SIZE(targets);
    nmetrics = PyTuple_GET_SIZE(metrics);
    if (PyTuple_GET_SIZE(predictions) != npairs || PyTuple_GET_SIZE(names) != nmetrics) {
        PyErr_SetString(PyExc_ValueError, "rs_score_pairs: as many predictions as targets, a name per metric");
        goto done;
    }
    ndocs = 2 * npairs;
    for (i = 0; i < ndocs; i++) {
        PyObject *t = i < npairs ? PyTuple_GET_ITEM(targets, i) : PyTuple_GET_ITEM(predictions, i - npairs);
        if (!PyUnicode_Check(t)) {
            PyErr_SetString(PyExc_TypeError, "rs_score_pairs: texts must be str");
            goto done;
        }
        if (PyUnicode_READY(t) < 0) goto done;
        total += PyUnicode_GET_LENGTH(t);
    }
    kinds = (int *)malloc((size_t)(nmetrics + 1) * sizeof(int));
    rules = (UnitRule *)calloc((size_t)(nmetrics + 1), sizeof(UnitRule));
    if (!kinds || !rules) {
        PyErr_NoMemory();
        goto done;
    }
    for (k = 0; k < nmetrics; k++) {
        Py_ssize_t n;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(metrics, k), "in", &kinds[k], &n)) goto done;
        if (kinds[k] < 0 || kinds[k] > 2 || (kinds[k] == 0 && (n < 1 || n > 64))) {
            PyErr_SetString(PyExc_ValueError, "rs_score_pairs: bad metric");
            goto done;
        }
        rules[k].mode = 0;
        rules[k].n = n;
    }
    rows = (double *)malloc((size_t)(3 * nmetrics * npairs + 1) * sizeof(double));
    empty = (unsigned char *)calloc((size_t)(nmetrics * npairs + 1), 1);
    d.first = (Py_ssize_t *)malloc((size_t)(ndocs + 1) * 3 * sizeof(Py_ssize_t));
    whole.sfirst = (Py_ssize_t *)malloc((size_t)(ndocs + 1) * 2 * sizeof(Py_ssize_t));
    v = rs_vocab_new(stem);
    if (!rows || !empty || !d.first || !whole.sfirst || !v) {
        PyErr_NoMemory();
        goto done;
    }
    d.sfirst = d.first + ndocs + 1;
    d.longest = d.sfirst + ndocs + 1;
    whole.longest = whole.sfirst + ndocs + 1;

    signals = PyThread_get_thread_ident() == import_thread;
    rs_vocab_take_memo(v); /* the stems of earlier calls, where no other call holds them */
    gil_release(&gil, (size_t)total);
    /* The text stage: every text once; as one sentence too (rougeL). */
    for (i = 0; i < ndocs && status == 0; i++) {
        PyObject *t = i < npairs ? PyTuple_GET_ITEM(targets, i) : PyTuple_GET_ITEM(predictions, i - npairs);
        size_t cells = signals && i % SIGNAL_PAIRS == SIGNAL_PAIRS - 1 ? CHECK_CELLS : (size_t)PyUnicode_GET_LENGTH(t);
        status = rs_docs_add(&d, i, v, t, &ends);
        if (status == 0 && gil_check(&gil, cells) < 0) status = -1;
    }
    rs_vocab_give_memo(v);
    if (status == 0) {
        d.first[ndocs] = d.tok.count;
        d.sfirst[ndocs] = d.sent.count;
        for (k = 0; k < d.tok.count; k++) d.top |= (unsigned int)d.tok.items[k];
        whole.tok = d.tok; /* borrowed: freed with d */
        whole.first = d.first;
        whole.top = d.top;
        for (i = 0; i < ndocs && status == 0; i++) {
            Py_ssize_t len = d.first[i + 1] - d.first[i];
            whole.sfirst[i] = whole.sent.count;
            whole.longest[i] = len;
            if (len > longest_doc) longest_doc = len;
            if (rs_ints_push(&whole.sent, 0) < 0 || (len > 0 && rs_ints_push(&whole.sent, (int)len) < 0))
                status = -2;
        }
        whole.sfirst[ndocs] = whole.sent.count;
    }
    /* Per token id, the counts of the pair at hand (all zeros between two pairs). */
    if (status == 0) {
        ids = rs_vocab_size(v) + 1;
        counts = (int *)calloc((size_t)ids * 5, sizeof(int));
        pc_.mask = (unsigned char *)malloc((size_t)longest_doc + 1);
        if (!counts || !pc_.mask) status = -2;
        else {
            pc_.model = counts;
            pc_.peer = pc_.model + ids;
            pc_.used = pc_.peer + ids;
            pc_.cap = pc_.used + ids;
            pc_.kind = pc_.cap + ids;
            memset(pc_.kind, 0xff, (size_t)ids * sizeof(int));
        }
    }
    for (i = 0; i < npairs && status == 0 && !failed; i++) {
        Py_ssize_t md = i, pd = npairs + i;
        const int *mt = d.tok.items + d.first[md], *pt = d.tok.items + d.first[pd];
        Py_ssize_t ml = d.first[md + 1] - d.first[md], pl = d.first[pd + 1] - d.first[pd];
        if (signals && i % SIGNAL_PAIRS == SIGNAL_PAIRS - 1 && gil_check(&gil, CHECK_CELLS) < 0) {
            status = -1;
            break;
        }
        for (k = 0; k < nmetrics && status == 0; k++) {
            double hit = 0.0, model_count, peer_count, precision, recall, *row = rows + 3 * (k * npairs + i);
            if (kinds[k] == 0) {
                long long hits = 0;
                if (rules[k].n == 1) {
                    hits = rs_unigram_hits(pc_.model, mt, ml, pt, pl);
                } else {
                    int bits = key_bits(&rules[k], d.top);
                    status = bits ? rs_gram_hits(&rw, rules[k].n, bits, mt, ml, pt, pl, &hits)
                                  : all_hits(&rules[k], 0, pt, pl, &mt, &ml, 1, &hits, &gil);
                    if (status < 0) break;
                }
                hit = (double)hits;
                model_count = (double)unit_count(&rules[k], ml);
                peer_count = (double)unit_count(&rules[k], pl);
            } else {
                const Docs *at = kinds[k] == 1 ? &whole : &d;
                double base = 0.0;
                if (!ml || !pl) {
                    empty[k * npairs + i] = 1;
                    continue;
                }
                if ((long long)at->longest[md] * (long long)at->longest[pd] > max_cells) {
                    failed = 1;
                    break;
                }
                if (kinds[k] == 1 || (d.sfirst[md + 1] - d.sfirst[md] == 2 && d.sfirst[pd + 1] - d.sfirst[pd] == 2)) {
                    /* one sentence each: the union is the LCS, whose tokens the counts never clip */
                    Py_ssize_t length = rs_lcs_length(&rw, pc_.kind, mt, ml, pt, pl, &gil);
                    if (length < 0) {
                        status = (int)length;
                        break;
                    }
                    hit = (double)length;
                } else {
                    pair_count(&pc_, mt, ml, pt, pl);
                    status = pair_union(at, md, pd, NULL, &lwork, &gil, &pc_, &hit, &base);
                    pair_forget(&pc_, mt, ml, pt, pl);
                    if (status < 0) break;
                }
                model_count = (double)ml;
                peer_count = (double)pl;
            }
            recall = hit / (model_count > 1 ? model_count : 1.0);
            precision = hit / (peer_count > 1 ? peer_count : 1.0);
            row[0] = precision;
            row[1] = recall;
            row[2] = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
        }
    }
    gil_restore(&gil);
    if (status == -2) {
        PyErr_NoMemory();
        goto done;
    }
    if (status < 0) goto done; /* a signal handler raised */
    if (failed) {
        Py_INCREF(Py_None);
        result = Py_None;
        goto done;
    }
    {
        PyObject *zero = PyLong_FromLong(0);
        Py_XINCREF(zero);
        Py_XINCREF(zero);
        zeros = rs_score_of(type, zero, zero, zero);
        if (!zeros) goto done;
    }
    result = PyList_New(npairs);
    for (i = 0; result && i < npairs; i++) {
        PyObject *scores = PyDict_New();
        if (!scores) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, scores);
        for (k = 0; k < nmetrics; k++) {
            PyObject *score;
            int bad;
            if (empty[k * npairs + i]) {
                Py_INCREF(zeros);
                score = zeros;
            } else {
                const double *row = rows + 3 * (k * npairs + i);
                score = rs_score_of(type, PyFloat_FromDouble(row[0]), PyFloat_FromDouble(row[1]),
                                    PyFloat_FromDouble(row[2]));
                if (!score) {
                    Py_CLEAR(result);
                    break;
                }
            }
            bad = PyDict_SetItem(scores, PyTuple_GET_ITEM(names, k), score);
            Py_DECREF(score);
            if (bad < 0) {
                Py_CLEAR(result);
                break;
            }
        }
    }
done:
    free(lwork.w.block);
    rs_work_free(&rw);
    free(pc_.mask);
    free(counts);
    free(whole.sent.items);
    free(whole.sfirst);
    docs_free(&d);
    rs_ints_free(&ends);
    if (v) rs_vocab_give_memo(v);
    rs_vocab_free(v);
    free(rows);
    free(empty);
    free(kinds);
    free(rules);
    Py_XDECREF(zeros);
    Py_XDECREF(targets);
    Py_XDECREF(predictions);
    Py_XDECREF(metrics);
    Py_XDECREF(names);
    return result;
}

/* plain_texts(texts, longest) -> bool
 *   Whether every item of the list is a str (not a subclass) of ASCII characters, at most
 *   longest of them: texts whose files' bytes they are, taken as they are (one pass, in C,
 *   over objects that a Python loop would each look at several times). */
static PyObject *plain_texts(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *list;
    Py_ssize_t longest, i;
    if (!PyArg_ParseTuple(args, "O!n", &PyList_Type, &list, &longest)) return NULL;
    for (i = 0; i < PyList_GET_SIZE(list); i++) {
        PyObject *t = PyList_GET_ITEM(list, i);
        if (!PyUnicode_CheckExact(t) || PyUnicode_READY(t) < 0 || !PyUnicode_IS_ASCII(t) ||
            PyUnicode_GET_LENGTH(t) > longest)
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
    {"union_lcs", union_lcs, METH_VARARGS, "Union-LCS hits and base of one model against one peer."},
    {"budget", budget, METH_VARARGS, "A text's clipping budget: its distinct unigram ids, then their counts."},
    {"bootstrap_sums", bootstrap_sums, METH_VARARGS, "Perl-exact bootstrap resample sums."},
    {"sort_and_sum", sort_and_sum, METH_VARARGS, "Sort doubles in place; their sum in that order."},
    {"kendall_tau_b", kendall_tau_b, METH_VARARGS, "Kendall's tau-b of each row of paired numbers."},
    {"kendall_tau_b_counted", kendall_tau_b_counted, METH_VARARGS, "Kendall's tau-b of samples given by counts of cells."},
    {"counted_ranks", counted_ranks, METH_VARARGS, "Mean ranks of samples given by counts of values."},
    {"average_ranks", average_ranks, METH_VARARGS, "Each row's ranks, ties given their mean rank."},
    {"unit_hits", unit_hits, METH_VARARGS, "Clipped n-gram or skip-bigram hits of a peer against its models."},
    {"encode", encode, METH_VARARGS, "Token ids of texts split as the Perl splits them."},
    {"encode_lines", encode_lines, METH_VARARGS, "Token ids of an SPL text's sentences, lowercased."},
    {"token_memo", token_memo, METH_O, "An empty memo of a dict of token ids, for encode."},
    {"text_state", text_state, METH_VARARGS, "A run's text stage state: stopwords, exceptions, tokens met."},
    {"score_pairs", score_pairs, METH_VARARGS, "Rows of a batch of pairs of SPL texts, every metric, in one call."},
    {"rs_score_pairs", rs_score_pairs, METH_VARARGS, "rouge-score's scores of pairs of texts, every metric, in one call."},
    {"plain_texts", plain_texts, METH_VARARGS, "Whether every item of a list is a str of ASCII, at most so long."},
    {"porter_stem", porter_stem, METH_O, "The -m Porter stem of a word of a-z and 0-9; None for any other word."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_accel", "rouge155py kernels: union LCS, unit hits, bootstrap sums.", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__accel(void) {
    PyObject *m;
    token_bytes_init();
    import_thread = PyThread_get_thread_ident();
    m = PyModule_Create(&module);
    if (m && PyModule_AddFunctions(m, rs_text_methods) < 0) Py_CLEAR(m);
    return m;
}
