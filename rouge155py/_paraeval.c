/* ParaEval's three tiers (rouge155py/metrics/paraeval.py) for a chunk of pairs of texts.
 *
 * table() takes a PhraseTable's arrays once: it holds them, and adds an index of the phrases'
 * hashes, a filter of the hashes of their proper prefixes (a span that is no phrase's prefix
 * is not extended: a false positive costs a lookup, never a phrase), the one-word phrase of
 * each token id and whether a longer phrase starts with it (the first word of a span is
 * looked up by id, not hashed), where each phrase's partners begin among the sorted pair
 * keys, and the partners of the phrases that have many as bitmaps.
 *
 * match() finds each text's phrases once (the spans of one sentence whose hash, then tokens,
 * are a phrase's), then per pair of texts does what match_pair does in Python, in the same
 * order, on integers only:
 *   - tier 1: where the multi-word candidates are at most `limit`, they are listed, sorted,
 *     split in groups joined by shared words, and each group searched (taken or skipped in
 *     turn, memo on (candidate, the relevant peer words taken)) with the same states, the
 *     same count of states against the budget of the pair, the same ties; a group past its
 *     states or bytes is matched greedily.  Else every multi-word candidate greedily.
 *   - tier 2: the one-word candidates greedily: by (more model words, more peer words), each
 *     model span by start takes the first free peer span of its partners (greedy's order,
 *     without listing the candidates).
 *   - tier 3: the clipped unigram matches of the words left, after tier 1 and after tier 2.
 *
 * Nothing is kept from call to call but the table's state, which is read only.  The texts
 * are copied before the GIL is let go; it is taken back to look at pending signals.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The hash of a phrase: sum of (id + 1) * BASE^(distance from its end), modulo 2^64
 * (paraphrases._BASES[0]). */
#define BASE 0x9E3779B97F4A7C15ULL
/* A phrase with this many partners or more has them as a bitmap too (the most partnered
 * first, in at most 4 bytes per pair key): a pair looks its peer's phrases up there when they
 * are fewer than the partners by PROBE_RATIO. */
#define HEAVY 64
#define PROBE_RATIO 2
/* Spreads a hash over the slots of an index (Fibonacci hashing). */
#define SPREAD 0xD6E8FEB86659FD93ULL
/* Counts of candidates saturate here (Python's are unbounded; a limit is clamped below it). */
#define COUNT_CAP ((int64_t)1 << 62)
/* Work units between two looks at pending signals, and below which the GIL is kept. */
#define CHECK_WORK ((size_t)1 << 22)
#define RELEASE_WORK ((size_t)1 << 12)

#define GIL_RELEASE_AT RELEASE_WORK
#define GIL_CHECK_EVERY CHECK_WORK
#include "_gil.h"

/* -- the table --------------------------------------------------------------------------- */

typedef struct {
    Py_buffer views[5]; /* tokens, starts, hashes, order, keys */
    int held;           /* views held */
    const int32_t *tokens;
    const int64_t *starts;
    const uint64_t *hashes;
    const int32_t *order;
    const int64_t *keys;
    Py_ssize_t phrases, nhashes, nkeys, longest;
    int phrase_bits; /* the bits of the largest phrase id */
    unsigned char *has_length; /* longest + 1: some phrase is that long */
    int32_t *slots;            /* index of the hashes: position + 1, 0 empty */
    uint64_t slot_mask;
    int slot_shift;
    uint64_t *prefix; /* a bit per slot: some phrase has a proper prefix of that hash */
    uint64_t prefix_mask;
    int prefix_shift;
    int32_t *partners; /* phrases + 1: the first key of each phrase's pairs */
    int32_t *partner;  /* per key a * phrases + b: b */
    /* Per token id below `words` (a span of one word looked up without hashing): */
    Py_ssize_t words;
    int32_t *word_phrase; /* the phrase of that one word, -1 none */
    unsigned char *leads; /* some phrase of two words or more starts with it */
    /* The phrases of heavy_least partners or more (ascending), each's partners a bitmap of
     * bitmap_words words in `bitmaps`. */
    Py_ssize_t nheavy, heavy_least, bitmap_words;
    int32_t *heavy;
    uint64_t *bitmaps;
} Table;

static const char TABLE_NAME[] = "rouge155py._paraeval.table";

static void table_free(Table *t) {
    int k;
    for (k = 0; k < t->held; k++) PyBuffer_Release(&t->views[k]);
    free(t->has_length);
    free(t->slots);
    free(t->prefix);
    free(t->partners);
    free(t->partner);
    free(t->word_phrase);
    free(t->leads);
    free(t->heavy);
    free(t->bitmaps);
    free(t);
}

static void table_capsule_free(PyObject *capsule) {
    Table *t = (Table *)PyCapsule_GetPointer(capsule, TABLE_NAME);
    if (t) table_free(t);
}

/* The position of a hash among the table's (-1: none). */
static Py_ssize_t table_find(const Table *t, uint64_t h) {
    uint64_t at = (h * SPREAD) >> t->slot_shift;
    int32_t found;
    while ((found = t->slots[at]) != 0) {
        if (t->hashes[found - 1] == h) return found - 1;
        at = (at + 1) & t->slot_mask;
    }
    return -1;
}

static int prefix_has(const Table *t, uint64_t h) {
    uint64_t bit = (h * SPREAD) >> t->prefix_shift;
    return (int)((t->prefix[bit >> 6] >> (bit & 63)) & 1);
}

/* The smallest power of two at least `want` (at least 64), and its log. */
static int power_bits(Py_ssize_t want) {
    int bits = 6;
    while (bits < 62 && ((Py_ssize_t)1 << bits) < want) bits++;
    return bits;
}

static int get_view(PyObject *obj, Py_buffer *view, Py_ssize_t item, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) return -1;
    if (view->len % item) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s: not a buffer of %zd-byte items", name, item);
        return -1;
    }
    return 0;
}

static PyObject *refuse(Table *t, const char *why) {
    table_free(t);
    PyErr_Format(PyExc_ValueError, "paraphrase table: %s", why);
    return NULL;
}

/* table(tokens int32, starts int64, hashes uint64, order int32, keys int64) -> capsule */
static PyObject *py_table(PyObject *self, PyObject *args) {
    static const Py_ssize_t items[5] = {4, 8, 8, 4, 8};
    static const char *names[5] = {"tokens", "starts", "hashes", "order", "keys"};
    PyObject *objs[5];
    Table *t;
    Py_ssize_t i, ntokens, nstarts, norder, k;
    int bits;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOO:table", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4])) return NULL;
    t = (Table *)calloc(1, sizeof(Table));
    if (!t) return PyErr_NoMemory();
    for (k = 0; k < 5; k++) {
        if (get_view(objs[k], &t->views[k], items[k], names[k]) < 0) {
            table_free(t);
            return NULL;
        }
        t->held++;
    }
    t->tokens = (const int32_t *)t->views[0].buf;
    t->starts = (const int64_t *)t->views[1].buf;
    t->hashes = (const uint64_t *)t->views[2].buf;
    t->order = (const int32_t *)t->views[3].buf;
    t->keys = (const int64_t *)t->views[4].buf;
    ntokens = t->views[0].len / 4;
    nstarts = t->views[1].len / 8;
    t->nhashes = t->views[2].len / 8;
    norder = t->views[3].len / 4;
    t->nkeys = t->views[4].len / 8;
    if (nstarts < 1) return refuse(t, "no phrase starts");
    t->phrases = nstarts - 1;
    if (t->phrases >= INT32_MAX || t->nhashes >= INT32_MAX / 2 || t->nkeys >= INT32_MAX || norder != t->nhashes ||
        (t->phrases == 0 && (t->nhashes || t->nkeys)))
        return refuse(t, "sizes out of range");
    if (t->starts[0] < 0 || t->starts[t->phrases] > ntokens) return refuse(t, "starts out of range");
    for (i = 0; i < t->phrases; i++) {
        int64_t length = t->starts[i + 1] - t->starts[i];
        if (length < 0) return refuse(t, "starts not ascending");
        if (length > t->longest) t->longest = (Py_ssize_t)length;
    }
    for (i = 0; i < t->nhashes; i++) {
        if (i && t->hashes[i] <= t->hashes[i - 1]) return refuse(t, "hashes not strictly ascending");
        if (t->order[i] < 0 || t->order[i] >= t->phrases) return refuse(t, "order out of range");
    }
    for (i = 0; i < t->nkeys; i++) {
        if (i && t->keys[i] <= t->keys[i - 1]) return refuse(t, "keys not strictly ascending");
        if (t->keys[i] < 0 || t->keys[i] / t->phrases >= t->phrases) return refuse(t, "keys out of range");
    }
    while (t->phrase_bits < 31 && ((Py_ssize_t)1 << t->phrase_bits) < t->phrases) t->phrase_bits++;
    t->has_length = (unsigned char *)calloc((size_t)t->longest + 1, 1);
    bits = power_bits(2 * t->nhashes);
    t->slots = (int32_t *)calloc((size_t)1 << bits, sizeof(int32_t));
    t->slot_mask = ((uint64_t)1 << bits) - 1;
    t->slot_shift = 64 - bits;
    t->partners = (int32_t *)malloc(((size_t)t->phrases + 1) * sizeof(int32_t));
    t->partner = (int32_t *)malloc(((size_t)t->nkeys + 1) * sizeof(int32_t));
    if (!t->has_length || !t->slots || !t->partners || !t->partner) {
        table_free(t);
        return PyErr_NoMemory();
    }
    for (i = 0; i < t->nhashes; i++) {
        uint64_t at = (t->hashes[i] * SPREAD) >> t->slot_shift;
        int32_t phrase = t->order[i];
        while (t->slots[at]) at = (at + 1) & t->slot_mask;
        t->slots[at] = (int32_t)(i + 1);
        t->has_length[t->starts[phrase + 1] - t->starts[phrase]] = 1;
    }
    /* The proper prefixes of the phrases the index finds. */
    {
        Py_ssize_t prefixes = 0;
        for (i = 0; i < t->nhashes; i++) {
            int32_t phrase = t->order[i];
            prefixes += (Py_ssize_t)(t->starts[phrase + 1] - t->starts[phrase]) - 1;
        }
        bits = power_bits(8 * prefixes);
        t->prefix = (uint64_t *)calloc(((size_t)1 << bits) / 64, sizeof(uint64_t));
        if (!t->prefix) {
            table_free(t);
            return PyErr_NoMemory();
        }
        t->prefix_mask = ((uint64_t)1 << bits) - 1;
        t->prefix_shift = 64 - bits;
        for (i = 0; i < t->nhashes; i++) {
            int32_t phrase = t->order[i];
            int64_t at, end = t->starts[phrase + 1] - 1;
            uint64_t h = 0;
            for (at = t->starts[phrase]; at < end; at++) {
                uint64_t bit;
                h = h * BASE + (uint64_t)(int64_t)t->tokens[at] + 1;
                bit = (h * SPREAD) >> t->prefix_shift;
                t->prefix[bit >> 6] |= (uint64_t)1 << (bit & 63);
            }
        }
    }
    /* The one-word spans by id: the phrase the index finds for the hash of that word, and
     * whether a longer phrase the index finds starts with it (ids past `words` are hashed). */
    {
        int32_t top = -1;
        for (i = 0; i < t->nhashes; i++) {
            int32_t phrase = t->order[i];
            if (t->starts[phrase + 1] > t->starts[phrase] && t->tokens[t->starts[phrase]] > top)
                top = t->tokens[t->starts[phrase]];
        }
        t->words = (Py_ssize_t)top + 1;
        if (t->words > 4 * ntokens + 65536) t->words = 4 * ntokens + 65536;
        t->word_phrase = (int32_t *)malloc(((size_t)t->words + 1) * sizeof(int32_t));
        t->leads = (unsigned char *)calloc((size_t)t->words + 1, 1);
        if (!t->word_phrase || !t->leads) {
            table_free(t);
            return PyErr_NoMemory();
        }
        memset(t->word_phrase, 0xFF, ((size_t)t->words + 1) * sizeof(int32_t));
        for (i = 0; i < t->nhashes; i++) {
            int32_t phrase = t->order[i], first;
            int64_t length = t->starts[phrase + 1] - t->starts[phrase];
            if (!length) continue;
            first = t->tokens[t->starts[phrase]];
            if (first < 0 || first >= t->words) continue;
            if (length > 1)
                t->leads[first] = 1;
            else if (t->hashes[i] == (uint64_t)(int64_t)first + 1)
                t->word_phrase[first] = phrase;
        }
    }
    k = 0;
    for (i = 0; i <= t->phrases; i++) {
        int64_t first = (int64_t)i * t->phrases;
        while (k < t->nkeys && t->keys[k] < first) k++;
        t->partners[i] = (int32_t)k;
    }
    for (k = 0; k < t->nkeys; k++) t->partner[k] = (int32_t)(t->keys[k] % t->phrases);
    /* The partners of the phrases that have many, as bitmaps: from HEAVY partners, or more
     * where their bitmaps would take more than 4 bytes per key. */
    {
        Py_ssize_t h = 0;
        t->bitmap_words = t->phrases / 64 + 1;
        t->heavy_least = HEAVY;
        for (;;) {
            t->nheavy = 0;
            for (i = 0; i < t->phrases; i++)
                if (t->partners[i + 1] - t->partners[i] >= t->heavy_least) t->nheavy++;
            if (!t->nheavy || t->nheavy * t->bitmap_words * 2 <= t->nkeys) break;
            t->heavy_least *= 2;
        }
        t->heavy = (int32_t *)malloc(((size_t)t->nheavy + 1) * sizeof(int32_t));
        t->bitmaps = (uint64_t *)calloc((size_t)t->nheavy * (size_t)t->bitmap_words + 1, sizeof(uint64_t));
        if (!t->heavy || !t->bitmaps) {
            table_free(t);
            return PyErr_NoMemory();
        }
        for (i = 0; i < t->phrases; i++) {
            uint64_t *bitmap = t->bitmaps + (size_t)h * (size_t)t->bitmap_words;
            if (t->partners[i + 1] - t->partners[i] < t->heavy_least) continue;
            t->heavy[h++] = (int32_t)i;
            for (k = t->partners[i]; k < t->partners[i + 1]; k++)
                bitmap[t->partner[k] >> 6] |= (uint64_t)1 << (t->partner[k] & 63);
        }
    }
    {
        PyObject *capsule = PyCapsule_New(t, TABLE_NAME, table_capsule_free);
        if (!capsule) table_free(t);
        return capsule;
    }
}

/* What the tiers' functions return when they stop: no memory (no exception set yet, the GIL
 * may be let go), or a signal handler raised (its exception set). */
#define NO_MEMORY (-1)
#define RAISED (-2)

/* -- growing buffers ---------------------------------------------------------------------- */

/* Makes room for `want` items of `size` bytes in *at (holding *room): -1 on no memory. */
static int grow(void **at, size_t *room, size_t want, size_t size) {
    size_t next;
    void *moved;
    if (want <= *room) return 0;
    next = *room ? *room : 16;
    while (next < want) next *= 2;
    if (next > SIZE_MAX / size) return -1;
    moved = realloc(*at, next * size);
    if (!moved) return -1;
    *at = moved;
    *room = next;
    return 0;
}

#define GROW(buffer, room, want) grow((void **)&(buffer), &(room), (size_t)(want), sizeof(*(buffer)))

/* Sorts n keys phrase << 32 | index (indices ascending) by phrase, stably: by the digits of
 * the phrase from the lowest, each of at most 8 bits (`bits`: those of the largest phrase);
 * the sorted keys are in *a, *other the scratch. */
static void sort_by_phrase(uint64_t **a, uint64_t **other, Py_ssize_t n, int bits) {
    int passes = (bits + 7) / 8, width, pass;
    if (!passes) return;
    width = (bits + passes - 1) / passes;
    for (pass = 0; pass < passes; pass++) {
        Py_ssize_t count[257], k;
        int shift = 32 + pass * width;
        uint64_t mask = ((uint64_t)1 << width) - 1, *from = *a, *to = *other;
        memset(count, 0, sizeof(count));
        for (k = 0; k < n; k++) count[((from[k] >> shift) & mask) + 1]++;
        if (count[(from[0] >> shift & mask) + 1] == n) continue; /* one digit: already in order */
        for (k = 1; k <= (Py_ssize_t)mask; k++) count[k] += count[k - 1];
        for (k = 0; k < n; k++) to[count[(from[k] >> shift) & mask]++] = from[k];
        *a = to;
        *other = from;
    }
}

/* -- texts and their phrases ------------------------------------------------------------- */

typedef struct {
    int32_t *ids;
    Py_ssize_t n;
    int32_t *ends; /* per position, the end of its sentence */
    /* The spans that are phrases, by (length, start): */
    Py_ssize_t spans;
    int32_t *span_start, *span_length, *span_phrase, *span_distinct;
    Py_ssize_t *length_first; /* spans of length L: length_first[L] .. length_first[L + 1] */
    /* The distinct phrases, ascending, and their spans by start: */
    Py_ssize_t distinct;
    int32_t *phrase;        /* distinct phrase ids */
    int32_t *phrase_length; /* their lengths */
    Py_ssize_t *first;      /* distinct + 1: into by_phrase */
    int32_t *by_phrase;     /* span indices by (phrase, start) */
} Text;

static void text_free(Text *x) {
    free(x->ids);
    free(x->ends);
    free(x->span_start);
    free(x->span_length);
    free(x->span_phrase);
    free(x->span_distinct);
    free(x->length_first);
    free(x->phrase);
    free(x->phrase_length);
    free(x->first);
    free(x->by_phrase);
}

/* Scratch of text_spans, kept for a whole call. */
typedef struct {
    uint64_t *hash;
    size_t hash_room;
    int32_t *alive;
    size_t alive_room;
    uint64_t *keys, *keys2; /* phrase << 32 | span: by phrase, then start (a phrase's spans have one length) */
    size_t keys_room, keys2_room;
} SpanWork;

static int same_tokens(const int32_t *a, const int32_t *b, Py_ssize_t n) {
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

/* The phrases of a text (its ids and sentence ends set): 0, or -1 on no memory. */
static int text_spans(const Table *t, Text *x, SpanWork *w) {
    Py_ssize_t n = x->n, alive, s, L, top = t->longest < n ? t->longest : n, room = 0, k;
    uint64_t *sorted, *scratch;
    x->length_first = (Py_ssize_t *)calloc((size_t)top + 2, sizeof(Py_ssize_t));
    if (!x->length_first) return -1;
    if (GROW(w->hash, w->hash_room, n + 1) < 0 || GROW(w->alive, w->alive_room, n + 1) < 0) return -1;
    /* Length 1: the words the table knows by id, the others hashed as longer spans are. */
    alive = 0;
    x->spans = 0;
    if (top) x->length_first[1] = 0;
    for (s = 0; s < n && top; s++) {
        int32_t id = x->ids[s], phrase = -1;
        uint64_t h = w->hash[s] = (uint64_t)(int64_t)id + 1;
        int lead;
        if (id >= 0 && id < t->words) {
            phrase = t->word_phrase[id];
            lead = t->leads[id];
        } else {
            if (t->has_length[1]) {
                Py_ssize_t at = table_find(t, h);
                if (at >= 0) {
                    int32_t found = t->order[at];
                    if (t->starts[found + 1] - t->starts[found] == 1 && t->tokens[t->starts[found]] == id)
                        phrase = found;
                }
            }
            lead = t->longest > 1 && prefix_has(t, h);
        }
        if (phrase >= 0) {
            if (x->spans >= room) {
                size_t r1 = (size_t)room, r2 = (size_t)room, r3 = (size_t)room;
                if (GROW(x->span_start, r1, x->spans + 1) < 0 || GROW(x->span_length, r2, x->spans + 1) < 0 ||
                    GROW(x->span_phrase, r3, x->spans + 1) < 0)
                    return -1;
                room = (Py_ssize_t)r1;
            }
            x->span_start[x->spans] = (int32_t)s;
            x->span_length[x->spans] = 1;
            x->span_phrase[x->spans] = phrase;
            x->spans++;
        }
        if (lead) w->alive[alive++] = (int32_t)s;
    }
    for (L = 2; L <= top && alive; L++) {
        Py_ssize_t kept = 0, a;
        x->length_first[L] = x->spans;
        for (a = 0; a < alive; a++) {
            int32_t start = w->alive[a];
            uint64_t h;
            if (start + L > x->ends[start]) continue; /* past its sentence */
            h = w->hash[start] = w->hash[start] * BASE + (uint64_t)(int64_t)x->ids[start + L - 1] + 1;
            if (t->has_length[L]) {
                Py_ssize_t at = table_find(t, h);
                if (at >= 0) {
                    int32_t phrase = t->order[at];
                    const int32_t *tokens = t->tokens + t->starts[phrase];
                    if (t->starts[phrase + 1] - t->starts[phrase] == L &&
                        same_tokens(tokens, x->ids + start, L)) {
                        if (x->spans >= INT32_MAX - 1) return -1; /* int32 span indices */
                        if (x->spans >= room) {
                            size_t r1 = (size_t)room, r2 = (size_t)room, r3 = (size_t)room;
                            if (GROW(x->span_start, r1, x->spans + 1) < 0 ||
                                GROW(x->span_length, r2, x->spans + 1) < 0 ||
                                GROW(x->span_phrase, r3, x->spans + 1) < 0)
                                return -1;
                            room = (Py_ssize_t)r1;
                        }
                        x->span_start[x->spans] = start;
                        x->span_length[x->spans] = (int32_t)L;
                        x->span_phrase[x->spans] = phrase;
                        x->spans++;
                    }
                }
            }
            if (L < t->longest && prefix_has(t, h)) w->alive[kept++] = start;
        }
        alive = kept;
    }
    for (; L <= top + 1; L++) x->length_first[L] = x->spans;
    /* The distinct phrases and their spans by start. */
    x->span_distinct = (int32_t *)malloc(((size_t)x->spans + 1) * sizeof(int32_t));
    x->by_phrase = (int32_t *)malloc(((size_t)x->spans + 1) * sizeof(int32_t));
    x->phrase = (int32_t *)malloc(((size_t)x->spans + 1) * sizeof(int32_t));
    x->phrase_length = (int32_t *)malloc(((size_t)x->spans + 1) * sizeof(int32_t));
    x->first = (Py_ssize_t *)malloc(((size_t)x->spans + 2) * sizeof(Py_ssize_t));
    if (!x->span_distinct || !x->by_phrase || !x->phrase || !x->phrase_length || !x->first) return -1;
    if (GROW(w->keys, w->keys_room, x->spans + 1) < 0 || GROW(w->keys2, w->keys2_room, x->spans + 1) < 0) return -1;
    for (k = 0; k < x->spans; k++) w->keys[k] = (uint64_t)(uint32_t)x->span_phrase[k] << 32 | (uint64_t)k;
    sorted = w->keys;
    scratch = w->keys2;
    if (x->spans) sort_by_phrase(&sorted, &scratch, x->spans, t->phrase_bits);
    x->distinct = 0;
    for (k = 0; k < x->spans; k++) {
        int32_t span = (int32_t)(sorted[k] & 0xFFFFFFFFu);
        if (!k || x->span_phrase[span] != x->phrase[x->distinct - 1]) {
            x->first[x->distinct] = k;
            x->phrase_length[x->distinct] = x->span_length[span];
            x->phrase[x->distinct++] = x->span_phrase[span];
        }
        x->by_phrase[k] = span;
        x->span_distinct[span] = (int32_t)(x->distinct - 1);
    }
    x->first[x->distinct] = x->spans;
    return 0;
}

/* -- candidates -------------------------------------------------------------------------- */

typedef struct {
    int32_t ms, ml, ps, pl; /* model start, model length, peer start, peer length */
} Cand;

static int cand_cmp(const void *a, const void *b) {
    const Cand *x = (const Cand *)a, *y = (const Cand *)b;
    if (x->ms != y->ms) return x->ms < y->ms ? -1 : 1;
    if (x->ml != y->ml) return x->ml < y->ml ? -1 : 1;
    if (x->ps != y->ps) return x->ps < y->ps ? -1 : 1;
    if (x->pl != y->pl) return x->pl < y->pl ? -1 : 1;
    return 0;
}

/* greedy's order: more model words, more peer words, earlier model start, earlier peer start. */
static int greedy_cmp(const void *a, const void *b) {
    const Cand *x = (const Cand *)a, *y = (const Cand *)b;
    if (x->ml != y->ml) return x->ml > y->ml ? -1 : 1;
    if (x->pl != y->pl) return x->pl > y->pl ? -1 : 1;
    if (x->ms != y->ms) return x->ms < y->ms ? -1 : 1;
    if (x->ps != y->ps) return x->ps < y->ps ? -1 : 1;
    return 0;
}

/* A link: model distinct phrase i, peer distinct phrase j, of lengths ml and pl. */
typedef struct {
    int32_t i, j, ml, pl;
} Link;

typedef struct {
    int32_t ml, pl;
} Size;

static int size_cmp(const void *a, const void *b) {
    const Size *x = (const Size *)a, *y = (const Size *)b;
    if (x->ml != y->ml) return x->ml > y->ml ? -1 : 1;
    if (x->pl != y->pl) return x->pl > y->pl ? -1 : 1;
    return 0;
}

static int int_cmp(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

/* The settings of tier 1 (paraeval's module constants, read by the caller). */
typedef struct {
    int64_t limit, search_bytes, state_bytes, candidate_bytes;
} Limits;

/* Scratch of one pair, kept for a whole call. */
typedef struct {
    Link *links;
    size_t links_room;
    Py_ssize_t *link_first; /* per model distinct phrase, its first link */
    size_t link_first_room;
    Size *sizes;
    size_t sizes_room;
    Py_ssize_t *passed;
    size_t passed_room;
    Cand *found; /* tier 1's candidates */
    size_t found_room;
    Cand *chosen;
    size_t chosen_room;
    Py_ssize_t nchosen;
    Cand *words;
    size_t words_room;
    Py_ssize_t nwords;
    unsigned char *model_used, *peer_used;
    size_t model_room, peer_room;
    uint64_t *peer_bits; /* a bit per phrase of the table: the peer's phrases */
    int32_t *peer_slots; /* the peer's phrases hashed: (phrase, its distinct index) */
    size_t peer_slots_room;
    int32_t *clip; /* the clipped matches' hash: (id, count) per slot */
    size_t clip_room, clip_slots;
    /* groups */
    int32_t *parent, *order, *group_of, *members, *group_first;
    size_t parent_room, order_room, group_of_room, members_room, group_first_room;
    /* one group's search */
    int32_t *covered;
    size_t covered_room;
    int32_t *rank, *after;
    size_t rank_room, after_room;
    int64_t *weights;
    size_t weights_room;
    uint64_t *relevant, *masks;
    size_t relevant_room, masks_room;
    uint64_t *memo; /* per state: j | took << 32, value, then its words */
    size_t memo_room;
    int32_t *memo_slots;
    size_t memo_slots_room;
    uint64_t *stack; /* per entry: j, then its words */
    size_t stack_room;
    uint64_t *scratch;
    size_t scratch_room;
    Cand *greedy;
    size_t greedy_room;
    Gil *gil;
} Pair;

/* -- tier 1's search ----------------------------------------------------------------------- */

typedef struct {
    Pair *p;
    Py_ssize_t words; /* 64-bit words of a set of peer words */
    Py_ssize_t stride;
    Py_ssize_t count;
    size_t slots;
} Memo;

static uint64_t state_hash(int64_t j, const uint64_t *bits, Py_ssize_t words) {
    uint64_t h = (uint64_t)j * 0xC2B2AE3D27D4EB4FULL + 0x165667B19E3779F9ULL;
    Py_ssize_t k;
    for (k = 0; k < words; k++) {
        h ^= bits[k];
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

/* The state (j, bits) in the memo: its index, or -1. */
static Py_ssize_t memo_find(Memo *m, int64_t j, const uint64_t *bits) {
    uint64_t at = state_hash(j, bits, m->words) & (m->slots - 1);
    int32_t found;
    while ((found = m->p->memo_slots[at]) != 0) {
        const uint64_t *entry = m->p->memo + (size_t)(found - 1) * (size_t)m->stride;
        if ((int64_t)(uint32_t)entry[0] == j && memcmp(entry + 2, bits, (size_t)m->words * 8) == 0)
            return found - 1;
        at = (at + 1) & (m->slots - 1);
    }
    return -1;
}

static int memo_rehash(Memo *m, size_t slots) {
    Py_ssize_t k;
    int32_t *moved = (int32_t *)calloc(slots, sizeof(int32_t));
    if (!moved) return -1;
    free(m->p->memo_slots);
    m->p->memo_slots = moved;
    m->p->memo_slots_room = slots;
    m->slots = slots;
    for (k = 0; k < m->count; k++) {
        const uint64_t *entry = m->p->memo + (size_t)k * (size_t)m->stride;
        uint64_t at = state_hash((int64_t)(uint32_t)entry[0], entry + 2, m->words) & (slots - 1);
        while (moved[at]) at = (at + 1) & (slots - 1);
        moved[at] = (int32_t)(k + 1);
    }
    return 0;
}

/* The most states a memo holds (its slots are int32): far past what MAX_SEARCH_BYTES allows. */
#define MEMO_CAP ((Py_ssize_t)1 << 29)

/* Adds a state not in the memo: -1 on no memory. */
static int memo_add(Memo *m, int64_t j, const uint64_t *bits, int64_t value, int took) {
    uint64_t *entry, at;
    if (m->count >= MEMO_CAP) return -1;
    if ((size_t)(m->count + 1) * 2 > m->slots && memo_rehash(m, m->slots * 2) < 0) return -1;
    if (GROW(m->p->memo, m->p->memo_room, (size_t)(m->count + 1) * (size_t)m->stride) < 0) return -1;
    entry = m->p->memo + (size_t)m->count * (size_t)m->stride;
    entry[0] = (uint64_t)(uint32_t)j | (uint64_t)(took ? 1 : 0) << 32;
    entry[1] = (uint64_t)value;
    memcpy(entry + 2, bits, (size_t)m->words * 8);
    at = state_hash(j, bits, m->words) & (m->slots - 1);
    while (m->p->memo_slots[at]) at = (at + 1) & (m->slots - 1);
    m->p->memo_slots[at] = (int32_t)(m->count + 1);
    m->count++;
    return 0;
}

/* Index of the first of `n` ascending values >= v. */
static Py_ssize_t lower_bound32(const int32_t *values, Py_ssize_t n, int64_t v) {
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = lo + (hi - lo) / 2;
        if (values[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The best set of one group (g[0..n), sorted) as _solve_group finds it: 1 and the chosen
 * appended to p->chosen, 0 past the states or bytes (nothing appended), NO_MEMORY or RAISED;
 * *states: the states searched. */
static int solve_group(Pair *p, const Cand *g, Py_ssize_t n, int64_t scale, int64_t limit, const Limits *lim,
                       int64_t *states) {
    Py_ssize_t bits = 0, words, k, j, c;
    int64_t width, bound;
    Memo m;
    *states = 0;
    if (n == 1) {
        if (GROW(p->chosen, p->chosen_room, p->nchosen + 1) < 0) return -1;
        p->chosen[p->nchosen++] = g[0];
        return 1;
    }
    /* The peer words some candidate covers, ascending. */
    {
        Py_ssize_t total = 0, kept = 0;
        for (k = 0; k < n; k++) total += g[k].pl;
        if (GROW(p->covered, p->covered_room, total) < 0) return -1;
        for (k = 0; k < n; k++)
            for (c = 0; c < g[k].pl; c++) p->covered[bits++] = g[k].ps + (int32_t)c;
        qsort(p->covered, (size_t)bits, sizeof(int32_t), int_cmp);
        for (k = 0; k < bits; k++)
            if (!kept || p->covered[k] != p->covered[kept - 1]) p->covered[kept++] = p->covered[k];
        bits = kept;
    }
    width = bits / 8;
    if (lim->state_bytes + width <= 0) return 0; /* refused by the caller: never here */
    bound = floor_div(lim->search_bytes - (int64_t)n * (lim->candidate_bytes + 2 * width), lim->state_bytes + width);
    if (bound < limit) limit = bound;
    if ((int64_t)n + 1 > limit) return 0;
    words = (bits + 63) / 64;
    if (GROW(p->rank, p->rank_room, n) < 0 || GROW(p->after, p->after_room, n) < 0 ||
        GROW(p->weights, p->weights_room, n) < 0 ||
        GROW(p->relevant, p->relevant_room, (size_t)(n + 1) * (size_t)words) < 0 ||
        GROW(p->masks, p->masks_room, (size_t)n * (size_t)words) < 0 ||
        GROW(p->scratch, p->scratch_room, 4 * (size_t)words) < 0)
        return -1;
    for (k = 0; k < n; k++) {
        Py_ssize_t r = lower_bound32(p->covered, bits, g[k].ps);
        Py_ssize_t lo = k, hi = n, end = (Py_ssize_t)g[k].ms + g[k].ml;
        uint64_t *mask = p->masks + (size_t)k * (size_t)words;
        p->rank[k] = (int32_t)r;
        p->weights[k] = (int64_t)g[k].ml * scale + g[k].pl;
        memset(mask, 0, (size_t)words * 8);
        for (c = r; c < r + g[k].pl; c++) mask[c >> 6] |= (uint64_t)1 << (c & 63);
        /* bisect_left of the model starts for the end of candidate k (starts ascending) */
        lo = 0;
        while (lo < hi) {
            Py_ssize_t mid = lo + (hi - lo) / 2;
            if (g[mid].ms < end)
                lo = mid + 1;
            else
                hi = mid;
        }
        p->after[k] = (int32_t)lo;
    }
    memset(p->relevant + (size_t)n * (size_t)words, 0, (size_t)words * 8);
    for (j = n - 1; j >= 0; j--) {
        uint64_t *here = p->relevant + (size_t)j * (size_t)words, *next = here + words;
        const uint64_t *mask = p->masks + (size_t)j * (size_t)words;
        for (c = 0; c < words; c++) here[c] = next[c] | mask[c];
    }
    m.p = p;
    m.words = words;
    m.stride = 2 + words;
    m.count = 0;
    m.slots = 0;
    if (memo_rehash(&m, 64) < 0) return -1;
    {
        /* The stack of states to value: j, then the words of the set. */
        Py_ssize_t depth = 1, entry = 1 + words;
        uint64_t *top = p->scratch, *skip = top + words, *take = skip + words;
        if (GROW(p->stack, p->stack_room, (size_t)entry) < 0) return -1;
        p->stack[0] = 0;
        memset(p->stack + 1, 0, (size_t)words * 8);
        while (depth) {
            const uint64_t *at = p->stack + (size_t)(depth - 1) * (size_t)entry;
            int64_t sj = (int64_t)at[0], skip_j, take_j = -1, value;
            Py_ssize_t skip_at, take_at = -1;
            int can_take = 1, took = 0;
            const uint64_t *mask, *rel;
            memcpy(top, at + 1, (size_t)words * 8);
            if (memo_find(&m, sj, top) >= 0) {
                depth--;
                continue;
            }
            if (sj == n) {
                if (memo_add(&m, sj, top, 0, 0) < 0) return -1;
                depth--;
                continue;
            }
            mask = p->masks + (size_t)sj * (size_t)words;
            skip_j = sj + 1;
            rel = p->relevant + (size_t)skip_j * (size_t)words;
            for (c = 0; c < words; c++) {
                skip[c] = top[c] & rel[c];
                if (mask[c] & top[c]) can_take = 0;
            }
            skip_at = memo_find(&m, skip_j, skip);
            if (can_take) {
                take_j = p->after[sj];
                rel = p->relevant + (size_t)take_j * (size_t)words;
                for (c = 0; c < words; c++) take[c] = (top[c] | mask[c]) & rel[c];
                take_at = memo_find(&m, take_j, take);
            }
            if (skip_at < 0 || (can_take && take_at < 0)) {
                Py_ssize_t pushes = (skip_at < 0) + (can_take && take_at < 0);
                uint64_t *slot;
                if (GROW(p->stack, p->stack_room, (size_t)(depth + pushes) * (size_t)entry) < 0) return -1;
                slot = p->stack + (size_t)depth * (size_t)entry;
                if (skip_at < 0) {
                    slot[0] = (uint64_t)skip_j;
                    memcpy(slot + 1, skip, (size_t)words * 8);
                    slot += entry;
                    depth++;
                }
                if (can_take && take_at < 0) {
                    slot[0] = (uint64_t)take_j;
                    memcpy(slot + 1, take, (size_t)words * 8);
                    depth++;
                }
                continue;
            }
            value = (int64_t)p->memo[(size_t)skip_at * (size_t)m.stride + 1];
            if (can_take) {
                int64_t taken = (int64_t)p->memo[(size_t)take_at * (size_t)m.stride + 1] + p->weights[sj];
                if (taken >= value) {
                    value = taken;
                    took = 1;
                }
            }
            if (memo_add(&m, sj, top, value, took) < 0) return -1;
            depth--;
            if (m.count > limit) {
                *states = m.count;
                return 0;
            }
            if (gil_check(p->gil, (size_t)words + 8) < 0) return RAISED;
        }
    }
    *states = m.count;
    /* The choice, walked from the first candidate with nothing taken. */
    {
        uint64_t *taken = p->scratch, *key = taken + words;
        memset(taken, 0, (size_t)words * 8);
        j = 0;
        while (j < n) {
            const uint64_t *rel = p->relevant + (size_t)j * (size_t)words;
            Py_ssize_t at;
            for (c = 0; c < words; c++) key[c] = taken[c] & rel[c];
            at = memo_find(&m, j, key);
            if (at < 0) return -1; /* never: every state walked was valued */
            if (p->memo[(size_t)at * (size_t)m.stride] >> 32) {
                const uint64_t *mask = p->masks + (size_t)j * (size_t)words;
                if (GROW(p->chosen, p->chosen_room, p->nchosen + 1) < 0) return -1;
                p->chosen[p->nchosen++] = g[j];
                for (c = 0; c < words; c++) taken[c] |= mask[c];
                j = p->after[j];
            } else {
                j++;
            }
        }
    }
    return 1;
}

/* -- the tiers ------------------------------------------------------------------------------- */

static int range_free(const unsigned char *used, int32_t start, int32_t length) {
    int32_t k;
    for (k = 0; k < length; k++)
        if (used[start + k]) return 0;
    return 1;
}

static void range_use(unsigned char *used, int32_t start, int32_t length) {
    memset(used + start, 1, (size_t)length);
}

/* greedy() of candidates with fresh sets (a group of tier 1 past its states): appended to
 * p->chosen.  The words of a group are no other group's, so the pair's sets serve. */
static int greedy_group(Pair *p, const Cand *g, Py_ssize_t n) {
    Py_ssize_t k;
    if (GROW(p->greedy, p->greedy_room, n) < 0) return -1;
    memcpy(p->greedy, g, (size_t)n * sizeof(Cand));
    qsort(p->greedy, (size_t)n, sizeof(Cand), greedy_cmp);
    for (k = 0; k < n; k++) {
        const Cand *c = &p->greedy[k];
        if (range_free(p->model_used, c->ms, c->ml) && range_free(p->peer_used, c->ps, c->pl)) {
            range_use(p->model_used, c->ms, c->ml);
            range_use(p->peer_used, c->ps, c->pl);
            if (GROW(p->chosen, p->chosen_room, p->nchosen + 1) < 0) return -1;
            p->chosen[p->nchosen++] = *c;
        }
    }
    return 0;
}

/* Tier 1 over the listed candidates (p->found[0..n), sorted), as solve_phrases: the chosen in
 * p->chosen (sorted); *exact. */
static int solve_phrases(Pair *p, Py_ssize_t n, int64_t peer_words, const Limits *lim, int *exact) {
    Py_ssize_t k, groups = 0;
    int64_t left = lim->limit, scale = peer_words + 1;
    const Cand *f = p->found;
    *exact = 1;
    if (GROW(p->parent, p->parent_room, n) < 0 || GROW(p->order, p->order_room, n) < 0 ||
        GROW(p->group_of, p->group_of_room, n) < 0 || GROW(p->members, p->members_room, n) < 0 ||
        GROW(p->group_first, p->group_first_room, n + 1) < 0 || GROW(p->greedy, p->greedy_room, n) < 0)
        return -1;
    for (k = 0; k < n; k++) p->parent[k] = (int32_t)k;
#define ROOT(x, out)                                                  \
    do {                                                              \
        int32_t r_ = (x);                                             \
        while (p->parent[r_] != r_) {                                 \
            p->parent[r_] = p->parent[p->parent[r_]];                 \
            r_ = p->parent[r_];                                       \
        }                                                             \
        (out) = r_;                                                   \
    } while (0)
    /* Joined by shared model words: the candidates are sorted by model start. */
    {
        int64_t end = -1;
        int32_t last = -1;
        for (k = 0; k < n; k++) {
            if (f[k].ms < end) {
                int32_t a, b;
                ROOT((int32_t)k, a);
                ROOT(last, b);
                p->parent[a] = b;
            }
            if ((int64_t)f[k].ms + f[k].ml > end) {
                end = (int64_t)f[k].ms + f[k].ml;
                last = (int32_t)k;
            }
        }
    }
    /* By shared peer words: in order of peer start (p->greedy holds (ps, index) pairs). */
    {
        int64_t end = -1;
        int32_t last = -1;
        for (k = 0; k < n; k++) {
            p->greedy[k].ms = f[k].ps;
            p->greedy[k].ml = (int32_t)k;
            p->greedy[k].ps = 0;
            p->greedy[k].pl = 0;
        }
        qsort(p->greedy, (size_t)n, sizeof(Cand), cand_cmp);
        for (k = 0; k < n; k++) {
            int32_t i = p->greedy[k].ml;
            if (f[i].ps < end) {
                int32_t a, b;
                ROOT(i, a);
                ROOT(last, b);
                p->parent[a] = b;
            }
            if ((int64_t)f[i].ps + f[i].pl > end) {
                end = (int64_t)f[i].ps + f[i].pl;
                last = i;
            }
        }
    }
    /* The groups in order of their first candidate, each's candidates in order. */
    for (k = 0; k < n; k++) p->order[k] = -1; /* per root, its group */
    for (k = 0; k < n; k++) {
        int32_t r;
        ROOT((int32_t)k, r);
        if (p->order[r] < 0) p->order[r] = (int32_t)groups++;
        p->group_of[k] = p->order[r];
    }
#undef ROOT
    memset(p->group_first, 0, ((size_t)groups + 1) * sizeof(int32_t));
    for (k = 0; k < n; k++) p->group_first[p->group_of[k] + 1]++;
    for (k = 0; k < groups; k++) p->group_first[k + 1] += p->group_first[k];
    {
        /* p->order now counts what each group has been given */
        for (k = 0; k < groups; k++) p->order[k] = p->group_first[k];
        for (k = 0; k < n; k++) p->members[p->order[p->group_of[k]]++] = (int32_t)k;
    }
    p->nchosen = 0;
    for (k = 0; k < groups; k++) {
        Py_ssize_t size = p->group_first[k + 1] - p->group_first[k], c;
        Cand *group;
        int64_t states;
        int solved;
        /* the group's candidates, copied (the search appends to p->chosen, not to p->found) */
        if (GROW(p->greedy, p->greedy_room, size) < 0) return -1;
        group = (Cand *)malloc((size_t)size * sizeof(Cand));
        if (!group) return -1;
        for (c = 0; c < size; c++) group[c] = f[p->members[p->group_first[k] + c]];
        solved = solve_group(p, group, size, scale, left > 0 ? left : 0, lim, &states);
        if (solved < 0) {
            free(group);
            return solved;
        }
        left -= states;
        if (!solved) {
            *exact = 0;
            if (greedy_group(p, group, size) < 0) {
                free(group);
                return -1;
            }
        }
        free(group);
    }
    qsort(p->chosen, (size_t)p->nchosen, sizeof(Cand), cand_cmp);
    return 0;
}

/* Links.greedy: the candidates of the links of the sizes that `multi` says (1: both sides of
 * two words or more; 0: the others) taken in greedy's order; appended to *out. */
static int links_greedy(Pair *p, const Text *model, const Text *peer, Py_ssize_t nlinks, int multi, Cand **out,
                        size_t *room, Py_ssize_t *count) {
    Py_ssize_t k, nsizes = 0, s;
    for (k = 0; k < nlinks; k++) {
        const Link *l = &p->links[k];
        Py_ssize_t seen;
        if ((l->ml > 1 && l->pl > 1) != multi) continue;
        for (seen = nsizes - 1; seen >= 0; seen--)
            if (p->sizes[seen].ml == l->ml && p->sizes[seen].pl == l->pl) break;
        if (seen >= 0) continue;
        if (GROW(p->sizes, p->sizes_room, nsizes + 1) < 0) return -1;
        p->sizes[nsizes].ml = l->ml;
        p->sizes[nsizes].pl = l->pl;
        nsizes++;
    }
    qsort(p->sizes, (size_t)nsizes, sizeof(Size), size_cmp);
    if (GROW(p->passed, p->passed_room, peer->distinct + 1) < 0) return -1;
    for (s = 0; s < nsizes; s++) {
        int32_t ml = p->sizes[s].ml, pl = p->sizes[s].pl;
        Py_ssize_t span;
        for (k = 0; k < peer->distinct; k++) p->passed[k] = peer->first[k];
        if (ml > (int32_t)(model->spans ? model->span_length[model->spans - 1] : 0)) continue;
        for (span = model->length_first[ml]; span < model->length_first[ml + 1]; span++) {
            int32_t ms = model->span_start[span], i = model->span_distinct[span];
            int64_t best = -1;
            Py_ssize_t at;
            if (!range_free(p->model_used, ms, ml)) continue;
            for (at = p->link_first[i]; at < p->link_first[i + 1]; at++) {
                const Link *l = &p->links[at];
                Py_ssize_t spot, end;
                if (l->pl != pl) continue;
                spot = p->passed[l->j];
                end = peer->first[l->j + 1];
                while (spot < end && !range_free(p->peer_used, peer->span_start[peer->by_phrase[spot]], pl)) spot++;
                p->passed[l->j] = spot;
                if (spot < end) {
                    int32_t ps = peer->span_start[peer->by_phrase[spot]];
                    if (best < 0 || ps < best) best = ps;
                }
            }
            if (best >= 0) {
                range_use(p->model_used, ms, ml);
                range_use(p->peer_used, (int32_t)best, pl);
                if (grow((void **)out, room, (size_t)*count + 1, sizeof(Cand)) < 0) return -1;
                (*out)[*count].ms = ms;
                (*out)[*count].ml = ml;
                (*out)[*count].ps = (int32_t)best;
                (*out)[*count].pl = pl;
                (*count)++;
            }
        }
        if (gil_check(p->gil, (size_t)(model->length_first[ml + 1] - model->length_first[ml]) + 1) < 0)
            return RAISED;
    }
    return 0;
}

/* The clipped unigram matches of the words of the two texts not used: the model's words
 * left counted in a hash of (id, count), each peer word left taking one of its id. */
static int64_t clipped(Pair *p, const Text *model, const Text *peer) {
    size_t slots = p->clip_slots, mask = slots - 1;
    int32_t *table = p->clip;
    Py_ssize_t k;
    int64_t hits = 0;
    memset(table, 0xFF, 2 * slots * sizeof(int32_t)); /* count -1: an empty slot */
    for (k = 0; k < model->n; k++) {
        int32_t id = model->ids[k];
        size_t at;
        if (p->model_used[k]) continue;
        at = (size_t)(((uint32_t)id * 0x9E3779B1u) >> 7) & mask;
        while (table[2 * at + 1] >= 0 && table[2 * at] != id) at = (at + 1) & mask;
        if (table[2 * at + 1] < 0) {
            table[2 * at] = id;
            table[2 * at + 1] = 1;
        } else {
            table[2 * at + 1]++;
        }
    }
    for (k = 0; k < peer->n; k++) {
        int32_t id = peer->ids[k];
        size_t at;
        if (p->peer_used[k]) continue;
        at = (size_t)(((uint32_t)id * 0x9E3779B1u) >> 7) & mask;
        while (table[2 * at + 1] >= 0 && table[2 * at] != id) at = (at + 1) & mask;
        if (table[2 * at + 1] > 0) {
            table[2 * at + 1]--;
            hits++;
        }
    }
    return hits;
}

/* Sets link k (room made for it): model distinct phrase i (of ml words), peer distinct phrase j. */
static void add_link(Pair *p, Py_ssize_t k, Py_ssize_t i, Py_ssize_t j, int32_t ml, const Text *peer) {
    Link *l = &p->links[k];
    l->i = (int32_t)i;
    l->j = (int32_t)j;
    l->ml = ml;
    l->pl = peer->phrase_length[j];
}


/* One model against one peer: out[0..11) (model words, peer words, tier 1 model and peer
 * words, tier 2's, tier 3, tier 3 after tier 1 alone, exact, chosen, words); the chosen in
 * p->chosen, tier 2's in p->words.  NO_MEMORY or RAISED where it stopped. */
static int match_pair(const Table *t, const Text *model, const Text *peer, const Limits *lim, Pair *p,
                      int64_t *out) {
    Py_ssize_t i, nlinks = 0, k;
    size_t slots, clip_slots = 16;
    int64_t count_multi = 0, t1m = 0, t1p = 0, after1, tier3;
    while (clip_slots < 2 * (size_t)model->n) clip_slots *= 2;
    p->clip_slots = clip_slots;
    int exact = 1;
    if (GROW(p->model_used, p->model_room, model->n + 1) < 0 || GROW(p->peer_used, p->peer_room, peer->n + 1) < 0 ||
        GROW(p->clip, p->clip_room, 2 * clip_slots) < 0 ||
        GROW(p->link_first, p->link_first_room, model->distinct + 1) < 0)
        return -1;
    memset(p->model_used, 0, (size_t)model->n);
    memset(p->peer_used, 0, (size_t)peer->n);
    /* The table's pairs between the model's phrases and the peer's: a phrase's partners are
     * one run of the sorted keys, each looked up among the peer's phrases (a bit per phrase of
     * the table).  A phrase of many more partners than the peer has phrases, and with a bitmap
     * of its partners, has each of the peer's phrases looked up there instead.  Past 32
     * partners per phrase of the peer, the peer's phrases are looked up in the run instead,
     * each from where the last was found.  Either way a phrase's links are by peer phrase. */
    slots = 16;
    while (slots < 2 * (size_t)peer->distinct) slots *= 2;
    if (GROW(p->peer_slots, p->peer_slots_room, 2 * slots) < 0) return NO_MEMORY;
    memset(p->peer_slots, 0xFF, 2 * slots * sizeof(int32_t));
    for (k = 0; k < peer->distinct; k++) {
        uint32_t phrase = (uint32_t)peer->phrase[k];
        size_t at = (size_t)((phrase * 0x9E3779B1u) & (uint32_t)(slots - 1));
        while (p->peer_slots[2 * at] >= 0) at = (at + 1) & (slots - 1);
        p->peer_slots[2 * at] = (int32_t)phrase;
        p->peer_slots[2 * at + 1] = (int32_t)k;
        p->peer_bits[phrase >> 6] |= (uint64_t)1 << (phrase & 63);
    }
    for (i = 0; i < model->distinct; i++) {
        int64_t a = model->phrase[i];
        Py_ssize_t lo = t->partners[a], hi = t->partners[a + 1];
        int32_t ml = model->phrase_length[i];
        p->link_first[i] = nlinks;
        /* a link per partner and per peer phrase at most */
        if (GROW(p->links, p->links_room, nlinks + (hi - lo < peer->distinct ? hi - lo : peer->distinct) + 1) < 0)
            return NO_MEMORY;
        if (hi - lo >= t->heavy_least && hi - lo > PROBE_RATIO * peer->distinct) {
            /* each of the peer's phrases looked up in the bitmap of the partners (a is heavy) */
            const uint64_t *bitmap =
                t->bitmaps + (size_t)lower_bound32(t->heavy, t->nheavy - 1, a) * (size_t)t->bitmap_words;
            for (k = 0; k < peer->distinct; k++) {
                int32_t b = peer->phrase[k];
                if ((bitmap[b >> 6] >> (b & 63)) & 1) add_link(p, nlinks++, i, k, ml, peer);
            }
        } else if (hi - lo <= 32 * peer->distinct) {
            for (k = lo; k < hi; k++) {
                int32_t b = t->partner[k];
                size_t at;
                if (!((p->peer_bits[b >> 6] >> (b & 63)) & 1)) continue;
                at = (size_t)(((uint32_t)b * 0x9E3779B1u) & (uint32_t)(slots - 1));
                while (p->peer_slots[2 * at] != (int32_t)b) at = (at + 1) & (slots - 1);
                add_link(p, nlinks++, i, p->peer_slots[2 * at + 1], ml, peer);
            }
        } else {
            Py_ssize_t at = lo;
            for (k = 0; k < peer->distinct && at < hi; k++) {
                int32_t want = peer->phrase[k];
                Py_ssize_t step = 1, h;
                /* the first partner >= want, galloping from `at` */
                while (at + step < hi && t->partner[at + step] < want) step *= 2;
                h = at + step < hi ? at + step + 1 : hi;
                at += lower_bound32(t->partner + at, h - at, want);
                if (at < hi && t->partner[at] == want) add_link(p, nlinks++, i, k, ml, peer);
            }
        }
    }
    for (k = 0; k < peer->distinct; k++) p->peer_bits[peer->phrase[k] >> 6] = 0;
    p->link_first[model->distinct] = nlinks;
    for (k = 0; k < nlinks; k++) {
        const Link *l = &p->links[k];
        int64_t size;
        if (!(l->ml > 1 && l->pl > 1)) continue;
        size = (int64_t)(model->first[l->i + 1] - model->first[l->i]) * (peer->first[l->j + 1] - peer->first[l->j]);
        count_multi = count_multi > COUNT_CAP - size ? COUNT_CAP : count_multi + size;
    }
    /* Tier 1. */
    p->nchosen = 0;
    if (count_multi <= lim->limit) {
        Py_ssize_t n = 0;
        if (GROW(p->found, p->found_room, count_multi) < 0) return -1;
        for (k = 0; k < nlinks; k++) {
            const Link *l = &p->links[k];
            Py_ssize_t a, b;
            if (!(l->ml > 1 && l->pl > 1)) continue;
            for (a = model->first[l->i]; a < model->first[l->i + 1]; a++)
                for (b = peer->first[l->j]; b < peer->first[l->j + 1]; b++) {
                    Cand *c = &p->found[n++];
                    c->ms = model->span_start[model->by_phrase[a]];
                    c->ml = l->ml;
                    c->ps = peer->span_start[peer->by_phrase[b]];
                    c->pl = l->pl;
                }
        }
        if (n) {
            qsort(p->found, (size_t)n, sizeof(Cand), cand_cmp);
            int done = solve_phrases(p, n, peer->n, lim, &exact);
            if (done < 0) return done;
            /* greedy groups marked their words; the searched ones are marked here */
            for (k = 0; k < p->nchosen; k++) {
                range_use(p->model_used, p->chosen[k].ms, p->chosen[k].ml);
                range_use(p->peer_used, p->chosen[k].ps, p->chosen[k].pl);
            }
        }
    } else {
        exact = 0;
        int done = links_greedy(p, model, peer, nlinks, 1, &p->chosen, &p->chosen_room, &p->nchosen);
        if (done < 0) return done;
        qsort(p->chosen, (size_t)p->nchosen, sizeof(Cand), cand_cmp);
    }
    for (k = 0; k < p->nchosen; k++) {
        t1m += p->chosen[k].ml;
        t1p += p->chosen[k].pl;
    }
    after1 = clipped(p, model, peer);
    /* Tier 2. */
    p->nwords = 0;
    {
        int done = links_greedy(p, model, peer, nlinks, 0, &p->words, &p->words_room, &p->nwords);
        if (done < 0) return done;
    }
    tier3 = p->nwords ? clipped(p, model, peer) : after1;
    out[0] = model->n;
    out[1] = peer->n;
    out[2] = t1m;
    out[3] = t1p;
    out[4] = 0;
    out[5] = 0;
    for (k = 0; k < p->nwords; k++) {
        out[4] += p->words[k].ml;
        out[5] += p->words[k].pl;
    }
    out[6] = tier3;
    out[7] = after1;
    out[8] = exact;
    out[9] = p->nchosen;
    out[10] = p->nwords;
    return 0;
}

static void pair_free(Pair *p) {
    free(p->links);
    free(p->link_first);
    free(p->sizes);
    free(p->passed);
    free(p->found);
    free(p->chosen);
    free(p->words);
    free(p->model_used);
    free(p->peer_used);
    free(p->peer_bits);
    free(p->peer_slots);
    free(p->clip);
    free(p->parent);
    free(p->order);
    free(p->group_of);
    free(p->members);
    free(p->group_first);
    free(p->covered);
    free(p->rank);
    free(p->after);
    free(p->weights);
    free(p->relevant);
    free(p->masks);
    free(p->memo);
    free(p->memo_slots);
    free(p->stack);
    free(p->scratch);
    free(p->greedy);
}

/* A Python int as an int64, clamped to +-COUNT_CAP. */
static int clamped(PyObject *obj, int64_t *out) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow > 0 || v > COUNT_CAP) v = COUNT_CAP;
    if (overflow < 0 || v < -COUNT_CAP) v = -COUNT_CAP;
    *out = (int64_t)v;
    return 0;
}

/* Copies a text's ids and its sentences' ends: -1 with an exception set. */
static int text_read(PyObject *item, Text *x) {
    PyObject *ids_obj, *offsets_obj;
    Py_buffer ids, offsets;
    Py_ssize_t n, sentences, s, k;
    const int32_t *off;
    if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
        PyErr_SetString(PyExc_TypeError, "match: each text is a tuple (ids, offsets)");
        return -1;
    }
    ids_obj = PyTuple_GET_ITEM(item, 0);
    offsets_obj = PyTuple_GET_ITEM(item, 1);
    if (get_view(ids_obj, &ids, 4, "ids") < 0) return -1;
    if (get_view(offsets_obj, &offsets, 4, "offsets") < 0) {
        PyBuffer_Release(&ids);
        return -1;
    }
    n = ids.len / 4;
    sentences = offsets.len / 4 - 1;
    off = (const int32_t *)offsets.buf;
    if (n >= INT32_MAX / 2 || sentences < 0 || off[0] != 0 || off[sentences] != n) {
        PyBuffer_Release(&ids);
        PyBuffer_Release(&offsets);
        PyErr_SetString(PyExc_ValueError, "match: a text's offsets do not span its ids");
        return -1;
    }
    for (s = 0; s < sentences; s++) {
        if (off[s + 1] < off[s]) {
            PyBuffer_Release(&ids);
            PyBuffer_Release(&offsets);
            PyErr_SetString(PyExc_ValueError, "match: a text's offsets are not ascending");
            return -1;
        }
    }
    x->n = n;
    x->ids = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    x->ends = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!x->ids || !x->ends) {
        PyBuffer_Release(&ids);
        PyBuffer_Release(&offsets);
        PyErr_NoMemory();
        return -1;
    }
    if (n) memcpy(x->ids, ids.buf, (size_t)n * sizeof(int32_t));
    for (s = 0; s < sentences; s++)
        for (k = off[s]; k < off[s + 1]; k++) x->ends[k] = off[s + 1];
    PyBuffer_Release(&ids);
    PyBuffer_Release(&offsets);
    return 0;
}

/* A new instance of a tuple type (a NamedTuple's class, as tuple.__new__ makes one) of n items,
 * taken from `items` (references stolen, NULL items: NULL returned, the rest released). */
static PyObject *tuple_made(PyTypeObject *type, PyObject **items, Py_ssize_t n) {
    PyObject *made = NULL;
    Py_ssize_t k;
    for (k = 0; k < n; k++)
        if (!items[k]) goto done;
    made = type == &PyTuple_Type ? PyTuple_New(n) : type->tp_alloc(type, n);
    if (!made) goto done;
    for (k = 0; k < n; k++) {
        PyTuple_SET_ITEM(made, k, items[k]);
        items[k] = NULL;
    }
    /* Its items are ints, bools and such tuples: it is in no cycle, the collector need not see it. */
    if (PyObject_GC_IsTracked(made)) PyObject_GC_UnTrack(made);
done:
    for (k = 0; k < n; k++) Py_XDECREF(items[k]);
    return made;
}

/* The candidates as a tuple of `type` (model start, model length, peer start, peer length). */
static PyObject *candidates_made(const Cand *c, Py_ssize_t n, PyTypeObject *type) {
    PyObject *out = PyTuple_New(n);
    Py_ssize_t k;
    if (!out) return NULL;
    if (PyObject_GC_IsTracked(out)) PyObject_GC_UnTrack(out);
    for (k = 0; k < n; k++) {
        PyObject *items[4];
        PyObject *one;
        items[0] = PyLong_FromLong(c[k].ms);
        items[1] = PyLong_FromLong(c[k].ml);
        items[2] = PyLong_FromLong(c[k].ps);
        items[3] = PyLong_FromLong(c[k].pl);
        one = tuple_made(type, items, 4);
        if (!one) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k, one);
    }
    return out;
}

/* The list of PairMatch of the pairs' counts (11 per pair) and candidates (cand_type NULL: none
 * kept, each pair's two tuples of them empty). */
static PyObject *matches_made(const int64_t *out, Py_ssize_t npairs, const Cand *all, PyTypeObject *match_type,
                              PyTypeObject *cand_type) {
    PyObject *list = PyList_New(npairs);
    Py_ssize_t k, at = 0;
    if (!list) return NULL;
    for (k = 0; k < npairs; k++) {
        const int64_t *row = out + 11 * k;
        PyObject *items[9], *tier1[2], *tier2[2], *made;
        items[0] = PyLong_FromLongLong(row[0]);
        items[1] = PyLong_FromLongLong(row[1]);
        tier1[0] = PyLong_FromLongLong(row[2]);
        tier1[1] = PyLong_FromLongLong(row[3]);
        items[2] = tuple_made(&PyTuple_Type, tier1, 2);
        tier2[0] = PyLong_FromLongLong(row[4]);
        tier2[1] = PyLong_FromLongLong(row[5]);
        items[3] = tuple_made(&PyTuple_Type, tier2, 2);
        items[4] = PyLong_FromLongLong(row[6]);
        items[5] = PyLong_FromLongLong(row[7]);
        items[6] = PyBool_FromLong((long)row[8]);
        items[7] = cand_type ? candidates_made(all + at, (Py_ssize_t)row[9], cand_type) : PyTuple_New(0);
        items[8] = cand_type ? candidates_made(all + at + row[9], (Py_ssize_t)row[10], cand_type) : PyTuple_New(0);
        at += (Py_ssize_t)(row[9] + row[10]);
        made = tuple_made(match_type, items, 9);
        if (!made) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, made);
    }
    return list;
}

static int tuple_type(PyObject *type) {
    if (PyType_Check(type) && PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type)) return 0;
    PyErr_SetString(PyExc_TypeError, "match: the match and candidate types are tuples (NamedTuple classes)");
    return -1;
}

/* match(table, texts, pairs, limit, search_bytes, state_bytes, candidate_bytes, match_type,
 *       candidate_type) -> list of match_type
 * texts: a list of (ids, offsets) int32 buffers (a text's sentences: ids[offsets[k]:offsets[k+1]]);
 * pairs: int32 buffer of (model text, peer text) indices.  Per pair a match_type of (model
 * words, peer words, (tier 1's model words, peer words), (tier 2's), tier 3, tier 3 after tier
 * 1 alone, exact, tier 1's candidates, tier 2's), each candidate a candidate_type of (model
 * start, model length, peer start, peer length); candidate_type None: the counts only (the
 * tuples of candidates empty). */
static PyObject *py_match(PyObject *self, PyObject *args) {
    PyObject *capsule, *texts, *pairs_obj, *limit_obj, *bytes_obj, *state_obj, *cand_obj, *match_type, *cand_type;
    PyObject *result = NULL;
    Table *t;
    Limits lim;
    Py_buffer pairs_view;
    const int32_t *pairs;
    Py_ssize_t ntexts, npairs, k, work = 0;
    Text *xs = NULL;
    Pair p;
    SpanWork w;
    Gil gil = {NULL, 0};
    int64_t *out = NULL;
    Cand *all = NULL;
    size_t all_room = 0, nall = 0;
    int failed = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!OOOOOOO:match", &capsule, &PyList_Type, &texts, &pairs_obj, &limit_obj,
                          &bytes_obj, &state_obj, &cand_obj, &match_type, &cand_type))
        return NULL;
    if (tuple_type(match_type) < 0 || (cand_type != Py_None && tuple_type(cand_type) < 0)) return NULL;
    t = (Table *)PyCapsule_GetPointer(capsule, TABLE_NAME);
    if (!t) return NULL;
    if (clamped(limit_obj, &lim.limit) < 0 || clamped(bytes_obj, &lim.search_bytes) < 0 ||
        clamped(state_obj, &lim.state_bytes) < 0 || clamped(cand_obj, &lim.candidate_bytes) < 0)
        return NULL;
    if (lim.state_bytes < 1 || lim.candidate_bytes < 0 || lim.state_bytes > ((int64_t)1 << 40) ||
        lim.candidate_bytes > ((int64_t)1 << 40)) {
        PyErr_SetString(PyExc_ValueError, "match: state and candidate bytes out of range");
        return NULL;
    }
    if (get_view(pairs_obj, &pairs_view, 8, "pairs") < 0) return NULL;
    pairs = (const int32_t *)pairs_view.buf;
    npairs = pairs_view.len / 8;
    ntexts = PyList_GET_SIZE(texts);
    for (k = 0; k < 2 * npairs; k++) {
        if (pairs[k] < 0 || pairs[k] >= ntexts) {
            PyBuffer_Release(&pairs_view);
            PyErr_SetString(PyExc_IndexError, "match: a pair names no text");
            return NULL;
        }
    }
    xs = (Text *)calloc((size_t)ntexts + 1, sizeof(Text));
    out = (int64_t *)malloc(((size_t)npairs * 11 + 1) * sizeof(int64_t));
    if (!xs || !out) {
        free(xs);
        free(out);
        PyBuffer_Release(&pairs_view);
        return PyErr_NoMemory();
    }
    memset(&p, 0, sizeof(p));
    memset(&w, 0, sizeof(w));
    p.gil = &gil;
    p.peer_bits = (uint64_t *)calloc((size_t)t->phrases / 64 + 1, sizeof(uint64_t));
    if (!p.peer_bits) failed = NO_MEMORY;
    for (k = 0; k < ntexts && !failed; k++) {
        if (text_read(PyList_GET_ITEM(texts, k), &xs[k]) < 0) {
            failed = RAISED;
            break;
        }
        work += xs[k].n;
    }
    if (!failed) {
        gil_release(&gil, (size_t)work);
        for (k = 0; k < ntexts && !failed; k++) {
            if (text_spans(t, &xs[k], &w) < 0)
                failed = NO_MEMORY;
            else if (gil_check(&gil, (size_t)xs[k].n + 1) < 0)
                failed = RAISED;
        }
        for (k = 0; k < npairs && !failed; k++) {
            const Text *model = &xs[pairs[2 * k]], *peer = &xs[pairs[2 * k + 1]];
            int64_t *row = out + 11 * k;
            int done = match_pair(t, model, peer, &lim, &p, row);
            if (done < 0) {
                failed = done;
                break;
            }
            if (cand_type == Py_None) {
                /* no candidates kept */
            } else if (grow((void **)&all, &all_room, nall + (size_t)(row[9] + row[10]), sizeof(Cand)) < 0) {
                failed = NO_MEMORY;
                break;
            } else {
                if (row[9]) memcpy(all + nall, p.chosen, (size_t)row[9] * sizeof(Cand));
                nall += (size_t)row[9];
                if (row[10]) memcpy(all + nall, p.words, (size_t)row[10] * sizeof(Cand));
                nall += (size_t)row[10];
            }
            if (gil_check(&gil, (size_t)(model->n + peer->n) + 1) < 0) failed = RAISED;
        }
        gil_restore(&gil);
    }
    if (failed == NO_MEMORY) PyErr_NoMemory();
    if (!failed)
        result = matches_made(out, npairs, all, (PyTypeObject *)match_type,
                              cand_type == Py_None ? NULL : (PyTypeObject *)cand_type);
    for (k = 0; k < ntexts; k++) text_free(&xs[k]);
    free(xs);
    free(out);
    free(all);
    free(w.hash);
    free(w.alive);
    free(w.keys);
    free(w.keys2);
    pair_free(&p);
    PyBuffer_Release(&pairs_view);
    return result;
}

/* -- loading a table (rouge155py.metrics.paraphrases) -------------------------------------
 *
 * A reader takes a table's lines as read_pairs does, those it is sure of (pairs()): a line it
 * would refuse, or any line before the format is known, is left to the Python code, which
 * reads it and raises what it raises, or hands its pair over (reader_add()).  The kept pairs
 * of a chunk are held as indices into its distinct phrases, lowercased as summaries are.
 * A builder does build_table's work on the token ids of each chunk: the phrases hashed, the
 * pairs whose two sides hash alike dropped, the phrases kept once (where each first occurs),
 * the pairs as sorted keys.
 */

/* The other hash of a phrase (paraphrases._BASES[1]). */
#define BASE2 0xC2B2AE3D27D4EB4FULL

/* Where `needle` first occurs in s[from:n], or -1. */
static Py_ssize_t load_find(const char *s, Py_ssize_t n, Py_ssize_t from, const char *needle, Py_ssize_t len) {
    Py_ssize_t at;
    if (len == 0) return from <= n ? from : -1;
    for (at = from; at + len <= n; at++) {
        const char *hit = memchr(s + at, needle[0], (size_t)(n - len - at + 1));
        if (!hit) return -1;
        at = hit - s;
        if (memcmp(hit, needle, (size_t)len) == 0) return at;
    }
    return -1;
}

/* Where " ||| " first occurs in s[from:n], or -1. */
static Py_ssize_t load_separator(const char *s, Py_ssize_t n, Py_ssize_t from) {
    Py_ssize_t at = from + 1;
    while (at + 4 <= n) {
        const char *bar = memchr(s + at, '|', (size_t)(n - 4 - at + 1));
        if (!bar) return -1;
        at = bar - s;
        if (bar[-1] == ' ' && bar[1] == '|' && bar[2] == '|' && bar[3] == ' ') return at - 1;
        at++;
    }
    return -1;
}

/* Whether s[0:n] as a number (as float() reads bytes) is at least `threshold`: 1 or 0, 2 where
 * it is no number, -1 on an exception. */
static int load_at_least(const char *s, Py_ssize_t n, PyObject *threshold) {
    PyObject *text = PyBytes_FromStringAndSize(s, n), *value;
    int kept;
    if (!text) return -1;
    value = PyFloat_FromString(text);
    Py_DECREF(text);
    if (!value) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError)) return -1;
        PyErr_Clear();
        return 2;
    }
    kept = PyObject_RichCompareBool(value, threshold, Py_GE);
    Py_DECREF(value);
    return kept;
}

/* Whether a PPDB line's features (s[0:n]) keep it: 1 or 0, 2 where the Python code is to
 * read it (no such feature, or no number), -1 on an exception. */
static int load_feature_kept(const char *s, Py_ssize_t n, const char *key, Py_ssize_t klen, PyObject *threshold) {
    Py_ssize_t at = load_find(s, n, 0, key, klen), end;
    while (at > 0 && s[at - 1] != ' ') at = load_find(s, n, at + 1, key, klen);
    if (at < 0) return 2;
    end = load_find(s, n, at, " ", 1);
    if (end < 0) end = n;
    if (end < at + klen) return 2;
    return load_at_least(s + at + klen, end - at - klen, threshold);
}

typedef struct {
    PyObject *texts;      /* list of str: the chunk's distinct phrases */
    char *bytes;          /* their bytes (lowercased) end to end */
    size_t nbytes, bytes_room;
    size_t *ends;         /* where each ends among the bytes */
    uint64_t *text_hash;  /* the hash of each (of its bytes) */
    size_t ntexts, texts_room, ends_room;
    uint64_t *slots;      /* index of the texts: the hash's low 32 bits, then text + 1; 0 empty */
    uint64_t slot_mask;
    int slot_shift;
    int32_t *lefts, *rights; /* each pair's phrase and paraphrase */
    size_t npairs, lefts_room, rights_room;
    Py_ssize_t held; /* the bytes of the lines of the chunk's pairs */
} Reader;

static const char READER_NAME[] = "rouge155py._paraeval.reader";

static void reader_clear(Reader *r) {
    Py_CLEAR(r->texts);
    free(r->bytes);
    free(r->ends);
    free(r->text_hash);
    free(r->slots);
    free(r->lefts);
    free(r->rights);
    memset(r, 0, sizeof(Reader));
}

static void reader_capsule_free(PyObject *capsule) {
    Reader *r = (Reader *)PyCapsule_GetPointer(capsule, READER_NAME);
    if (!r) return;
    reader_clear(r);
    free(r);
}

/* A reader's index of its texts, on 2^bits slots: -1 on no memory. */
static int reader_index(Reader *r, int bits) {
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    uint64_t *slots = calloc((size_t)mask + 1, sizeof(uint64_t));
    size_t k;
    if (!slots) return -1;
    for (k = 0; k < r->ntexts; k++) {
        uint64_t h = r->text_hash[k], at = (h * SPREAD) >> (64 - bits);
        while (slots[at]) at = (at + 1) & mask;
        slots[at] = (h << 32) | (k + 1);
    }
    free(r->slots);
    r->slots = slots;
    r->slot_mask = mask;
    r->slot_shift = 64 - bits;
    return 0;
}

/* A new reader, or an emptied one (-1: no memory). */
static int reader_start(Reader *r) {
    reader_clear(r);
    if (!(r->texts = PyList_New(0))) return -1;
    if (reader_index(r, 10) < 0 || grow((void **)&r->ends, &r->ends_room, 1, sizeof(size_t)) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    r->ends[0] = 0;
    return 0;
}

/* The index of the text of s[0:n] (ASCII letters lowercased) among the chunk's, added where it
 * is new: -1 on an exception. */
static int64_t reader_text(Reader *r, const char *s, Py_ssize_t n) {
    size_t k, from = r->nbytes, words = (size_t)n / 8;
    uint64_t h = 0x84222325CBF29CE4ULL ^ (uint64_t)n, at, found;
    char *to;
    if (grow((void **)&r->bytes, &r->bytes_room, from + (size_t)n + 8, 1) < 0) goto no_memory;
    to = r->bytes + from;
    for (k = 0; k < (size_t)n; k++) {
        char c = s[k];
        to[k] = (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c;
    }
    memset(to + n, 0, 8);
    for (k = 0; k <= words; k++) {
        uint64_t w;
        memcpy(&w, to + 8 * k, 8);
        h = (h ^ w) * 0x9FB21C651E98DF25ULL;
        h ^= h >> 29;
    }
    at = (h * SPREAD) >> r->slot_shift;
    while ((found = r->slots[at]) != 0) {
        size_t t = (size_t)(found & 0xFFFFFFFFu) - 1;
        if ((found >> 32) == (h & 0xFFFFFFFFu) && r->ends[t + 1] - r->ends[t] == (size_t)n &&
            memcmp(r->bytes + r->ends[t], to, (size_t)n) == 0)
            return (int64_t)t;
        at = (at + 1) & r->slot_mask;
    }
    if (r->ntexts >= INT32_MAX - 1) goto no_memory;
    if (grow((void **)&r->ends, &r->ends_room, r->ntexts + 2, sizeof(size_t)) < 0 ||
        grow((void **)&r->text_hash, &r->texts_room, r->ntexts + 1, sizeof(uint64_t)) < 0)
        goto no_memory;
    {
        PyObject *text = PyUnicode_DecodeLatin1(to, n, NULL);
        int failed = !text || PyList_Append(r->texts, text) < 0;
        Py_XDECREF(text);
        if (failed) return -1;
    }
    r->nbytes += (size_t)n;
    r->text_hash[r->ntexts] = h;
    r->ends[++r->ntexts] = r->nbytes;
    r->slots[at] = (h << 32) | r->ntexts;
    if (r->ntexts * 2 > r->slot_mask && reader_index(r, 64 - r->slot_shift + 1) < 0) goto no_memory;
    return (int64_t)r->ntexts - 1;
no_memory:
    PyErr_NoMemory();
    return -1;
}

/* A kept pair (phrase, paraphrase, the length of its line): 1 where the chunk is full, -1 on
 * an exception. */
static int reader_pair(Reader *r, const char *left, Py_ssize_t left_n, const char *right, Py_ssize_t right_n,
                       Py_ssize_t length, Py_ssize_t max_lines, Py_ssize_t max_bytes) {
    int64_t a, b;
    if ((a = reader_text(r, left, left_n)) < 0 || (b = reader_text(r, right, right_n)) < 0) return -1;
    if (grow((void **)&r->lefts, &r->lefts_room, r->npairs + 1, sizeof(int32_t)) < 0 ||
        grow((void **)&r->rights, &r->rights_room, r->npairs + 1, sizeof(int32_t)) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    r->lefts[r->npairs] = (int32_t)a;
    r->rights[r->npairs] = (int32_t)b;
    r->npairs++;
    r->held += length;
    return (Py_ssize_t)r->npairs >= max_lines || r->held >= max_bytes;
}

static Reader *reader_of(PyObject *capsule) { return (Reader *)PyCapsule_GetPointer(capsule, READER_NAME); }

/* reader() -> a capsule that holds a chunk of pairs as they are read */
static PyObject *py_reader(PyObject *self, PyObject *args) {
    Reader *r = calloc(1, sizeof(Reader));
    PyObject *capsule;
    (void)self;
    (void)args;
    if (!r) return PyErr_NoMemory();
    if (reader_start(r) < 0) {
        reader_clear(r);
        free(r);
        return NULL;
    }
    capsule = PyCapsule_New(r, READER_NAME, reader_capsule_free);
    if (!capsule) {
        reader_clear(r);
        free(r);
    }
    return capsule;
}

/* pairs(reader, block, at, number, ppdb, key, threshold, max_lines, max_bytes)
 *   -> (at, number, full): the lines of a block (lines joined by newlines) from byte `at` (line
 *   `number`) read, up to a full chunk (full: True), or the end of the block (at: its length
 *   + 1), or a line left to the Python code (at: where it starts). */
static PyObject *py_pairs(PyObject *self, PyObject *args) {
    PyObject *capsule, *block, *threshold;
    const char *key, *data;
    Py_ssize_t klen, at, number, max_lines, max_bytes, size;
    int ppdb, full = 0;
    Reader *r;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!nniy#Onn", &capsule, &PyBytes_Type, &block, &at, &number, &ppdb, &key, &klen,
                          &threshold, &max_lines, &max_bytes))
        return NULL;
    if (!(r = reader_of(capsule))) return NULL;
    data = PyBytes_AS_STRING(block);
    size = PyBytes_GET_SIZE(block);
    if (at < 0 || at > size + 1) {
        PyErr_SetString(PyExc_ValueError, "pairs: no line starts there");
        return NULL;
    }
    while (at <= size) {
        const char *s = data + at, *end = memchr(s, '\n', (size_t)(size - at)), *left, *right;
        Py_ssize_t n = end ? end - s : size - at, whole = n, k, left_n, right_n;
        int kept = 1;
        while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == '\n')) n--;
        for (k = 0; k < n && Py_ISSPACE(s[k]); k++) {
        }
        if (k < n) {
            if (ppdb) {
                Py_ssize_t sep[4];
                int f;
                sep[0] = load_separator(s, n, 0);
                for (f = 1; f < 4; f++) sep[f] = sep[f - 1] < 0 ? -1 : load_separator(s, n, sep[f - 1] + 5);
                if (sep[2] < 0) break; /* fewer than 4 fields */
                if (sep[3] < 0) sep[3] = n;
                left = s + sep[0] + 5;
                left_n = sep[1] - sep[0] - 5;
                right = s + sep[1] + 5;
                right_n = sep[2] - sep[1] - 5;
                if (memchr(left, '[', (size_t)left_n) || memchr(right, '[', (size_t)right_n))
                    kept = 0; /* a syntactic rule */
                else if (threshold != Py_None)
                    kept = load_feature_kept(s + sep[2] + 5, sep[3] - sep[2] - 5, key, klen, threshold);
            } else {
                const char *tab = memchr(s, '\t', (size_t)n), *second;
                if (!tab) break;
                second = memchr(tab + 1, '\t', (size_t)(s + n - tab - 1));
                if (second && memchr(second + 1, '\t', (size_t)(s + n - second - 1))) break;
                left = s;
                left_n = tab - s;
                right = tab + 1;
                right_n = (second ? second : s + n) - right;
                if (threshold != Py_None) kept = second ? load_at_least(second + 1, s + n - second - 1, threshold) : 2;
            }
            if (kept < 0) return NULL;
            if (kept == 2) break;
            if (kept && (full = reader_pair(r, left, left_n, right, right_n, n, max_lines, max_bytes)) < 0) return NULL;
        }
        at += whole + 1;
        number++;
        if (full) break;
    }
    return Py_BuildValue("nnO", at, number, full ? Py_True : Py_False);
}

/* reader_add(reader, phrase, paraphrase, length, max_lines, max_bytes) -> full: a pair read by
 * the Python code */
static PyObject *py_reader_add(PyObject *self, PyObject *args) {
    PyObject *capsule;
    const char *left, *right;
    Py_ssize_t left_n, right_n, length, max_lines, max_bytes;
    Reader *r;
    int full;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oy#y#nnn", &capsule, &left, &left_n, &right, &right_n, &length, &max_lines,
                          &max_bytes))
        return NULL;
    if (!(r = reader_of(capsule))) return NULL;
    if ((full = reader_pair(r, left, left_n, right, right_n, length, max_lines, max_bytes)) < 0) return NULL;
    return PyBool_FromLong(full);
}

/* reader_chunk(reader) -> (texts, phrases, count): the chunk's distinct phrases in the order
 * they first occur among its pairs' phrases then their paraphrases, the int32 indices of its
 * pairs' phrases then of their paraphrases, its number of pairs; the reader is emptied */
static PyObject *py_reader_chunk(PyObject *self, PyObject *args) {
    PyObject *capsule, *sides = NULL, *result = NULL, **items, **moved = NULL;
    Reader *r;
    int32_t *to, *renamed = NULL, next = 0, used;
    size_t n, k;
    (void)self;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    if (!(r = reader_of(capsule))) return NULL;
    n = r->npairs;
    renamed = malloc(sizeof(int32_t) * (r->ntexts ? r->ntexts : 1));
    moved = malloc(sizeof(PyObject *) * (r->ntexts ? r->ntexts : 1));
    if (!renamed || !moved) {
        PyErr_NoMemory();
        goto done;
    }
    for (k = 0; k < r->ntexts; k++) renamed[k] = -1;
    if (!(sides = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(2 * n * sizeof(int32_t))))) goto done;
    to = (int32_t *)PyBytes_AS_STRING(sides);
    items = ((PyListObject *)r->texts)->ob_item;
    for (k = 0; k < 2 * n; k++) {
        int32_t text = k < n ? r->lefts[k] : r->rights[k - n];
        if (renamed[text] < 0) {
            moved[next] = items[text];
            renamed[text] = next++;
        }
        to[k] = renamed[text];
    }
    /* the texts reordered in place (each still held once); one whose pair was not held (the
     * reader raised in between) last, then dropped */
    used = next;
    for (k = 0; k < r->ntexts; k++)
        if (renamed[k] < 0) moved[next++] = items[k];
    memcpy(items, moved, sizeof(PyObject *) * r->ntexts);
    if ((size_t)used < r->ntexts && PyList_SetSlice(r->texts, used, (Py_ssize_t)r->ntexts, NULL) < 0) goto done;
    result = Py_BuildValue("OOn", r->texts, sides, (Py_ssize_t)n);
    if (result && reader_start(r) < 0) Py_CLEAR(result);
done:
    free(renamed);
    free(moved);
    Py_XDECREF(sides);
    return result;
}

typedef struct {
    uint64_t h1, h2, chunk_h2; /* chunk_h2: the other hash of its first phrase in the chunk */
    int32_t phrase;            /* -1: empty */
    int32_t chunk;             /* the last chunk that held the hash */
} LoadSlot;

typedef struct {
    LoadSlot *slots;
    uint64_t slot_mask;
    int slot_shift;
    Py_ssize_t phrases;
    int32_t *tokens; /* the phrases' ids end to end */
    size_t ntokens, tokens_room;
    int64_t *starts; /* phrases + 1 */
    uint64_t *hashes;
    size_t starts_room, hashes_room;
    int32_t *pairs; /* (left phrase, right phrase) */
    size_t npairs, pairs_room;
    int32_t chunk;
    int collided; /* two chunks hold different phrases of one hash */
} Builder;

static const char BUILDER_NAME[] = "rouge155py._paraeval.builder";

static void builder_capsule_free(PyObject *capsule) {
    Builder *b = (Builder *)PyCapsule_GetPointer(capsule, BUILDER_NAME);
    if (!b) return;
    free(b->slots);
    free(b->tokens);
    free(b->starts);
    free(b->hashes);
    free(b->pairs);
    free(b);
}

static int builder_rehash(Builder *b, int bits) {
    LoadSlot *slots = malloc(sizeof(LoadSlot) << bits), *old = b->slots;
    uint64_t mask = ((uint64_t)1 << bits) - 1, k;
    if (!slots) return -1;
    for (k = 0; k <= mask; k++) slots[k].phrase = -1;
    if (old) {
        for (k = 0; k <= b->slot_mask; k++) {
            uint64_t at;
            if (old[k].phrase < 0) continue;
            at = (old[k].h1 * SPREAD) >> (64 - bits);
            while (slots[at].phrase >= 0) at = (at + 1) & mask;
            slots[at] = old[k];
        }
    }
    free(old);
    b->slots = slots;
    b->slot_mask = mask;
    b->slot_shift = 64 - bits;
    return 0;
}

/* builder() -> a capsule to which chunks are added */
static PyObject *py_builder(PyObject *self, PyObject *args) {
    Builder *b;
    PyObject *capsule;
    (void)self;
    (void)args;
    b = calloc(1, sizeof(Builder));
    if (!b || builder_rehash(b, 10) < 0 || grow((void **)&b->starts, &b->starts_room, 1, sizeof(int64_t)) < 0) {
        if (b) free(b->slots);
        free(b);
        return PyErr_NoMemory();
    }
    b->starts[0] = 0;
    capsule = PyCapsule_New(b, BUILDER_NAME, builder_capsule_free);
    if (!capsule) {
        free(b->slots);
        free(b->starts);
        free(b);
    }
    return capsule;
}

/* The phrase of tokens[0:n] (hashes h1, h2), added where it is new: -1 on no memory, -2 where
 * a phrase of this chunk has the same h1 and another h2. */
static int64_t builder_phrase(Builder *b, const int32_t *tokens, Py_ssize_t n, uint64_t h1, uint64_t h2) {
    uint64_t at = (h1 * SPREAD) >> b->slot_shift;
    LoadSlot *slot;
    while ((slot = &b->slots[at])->phrase >= 0) {
        if (slot->h1 == h1) {
            if (slot->chunk != b->chunk) {
                slot->chunk = b->chunk;
                slot->chunk_h2 = h2;
                if (h2 != slot->h2) b->collided = 1;
            } else if (h2 != slot->chunk_h2) {
                return -2;
            }
            return slot->phrase;
        }
        at = (at + 1) & b->slot_mask;
    }
    if (b->phrases >= INT32_MAX) return -1;
    if (grow((void **)&b->tokens, &b->tokens_room, b->ntokens + (size_t)n, sizeof(int32_t)) < 0) return -1;
    if (grow((void **)&b->starts, &b->starts_room, (size_t)b->phrases + 2, sizeof(int64_t)) < 0) return -1;
    if (grow((void **)&b->hashes, &b->hashes_room, (size_t)b->phrases + 1, sizeof(uint64_t)) < 0) return -1;
    memcpy(b->tokens + b->ntokens, tokens, (size_t)n * sizeof(int32_t));
    b->ntokens += (size_t)n;
    b->hashes[b->phrases] = h1;
    b->starts[++b->phrases] = (int64_t)b->ntokens;
    slot->h1 = h1;
    slot->h2 = slot->chunk_h2 = h2;
    slot->phrase = (int32_t)(b->phrases - 1);
    slot->chunk = b->chunk;
    if ((uint64_t)b->phrases * 2 > b->slot_mask && builder_rehash(b, 64 - b->slot_shift + 1) < 0) return -1;
    return b->phrases - 1;
}

/* builder_add(builder, tokens, starts, phrases, count) -> False where two phrases of the chunk
 * have the same hash and not the same other hash.  The chunk's texts are int32 token ids end to
 * end and the int32 start of each, as an encoder gives them; its pairs' phrases then their
 * paraphrases are texts `phrases` (int32 indices, 2 * count), or (None) the texts in order. */
static PyObject *py_builder_add(PyObject *self, PyObject *args) {
    static const char *bad = "builder_add: starts and phrases are not those of the tokens and of 2 * count phrases";
    PyObject *capsule, *tokens_obj, *starts_obj, *phrases_obj, *result = NULL;
    Py_buffer tokens_view, starts_view, phrases_view = {0};
    Py_ssize_t count, n, texts, ntokens, i, kept = 0;
    const int32_t *tokens, *starts, *phrases = NULL;
    uint64_t *h = NULL;
    int32_t *ids = NULL, *known = NULL;
    Builder *b;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOn", &capsule, &tokens_obj, &starts_obj, &phrases_obj, &count)) return NULL;
    if (!(b = (Builder *)PyCapsule_GetPointer(capsule, BUILDER_NAME))) return NULL;
    if (get_view(tokens_obj, &tokens_view, 4, "tokens") < 0) return NULL;
    if (get_view(starts_obj, &starts_view, 4, "starts") < 0) {
        PyBuffer_Release(&tokens_view);
        return NULL;
    }
    if (phrases_obj != Py_None) {
        if (get_view(phrases_obj, &phrases_view, 4, "phrases") < 0) goto done;
        phrases = (const int32_t *)phrases_view.buf;
    }
    tokens = (const int32_t *)tokens_view.buf;
    starts = (const int32_t *)starts_view.buf;
    ntokens = tokens_view.len / 4;
    texts = starts_view.len / 4 - 1;
    n = 2 * count;
    if (count < 0 || texts < 0 || starts[0] != 0 || starts[texts] != ntokens ||
        (phrases ? phrases_view.len / 4 != n : texts != n)) {
        PyErr_SetString(PyExc_ValueError, bad);
        goto done;
    }
    for (i = 0; i < texts; i++) {
        if (starts[i + 1] < starts[i]) {
            PyErr_SetString(PyExc_ValueError, bad);
            goto done;
        }
    }
    for (i = 0; phrases && i < n; i++) {
        if (phrases[i] < 0 || phrases[i] >= texts) {
            PyErr_SetString(PyExc_ValueError, bad);
            goto done;
        }
    }
    h = malloc(sizeof(uint64_t) * 2 * (size_t)(texts ? texts : 1));
    ids = malloc(sizeof(int32_t) * (size_t)(n ? n : 1));
    known = malloc(sizeof(int32_t) * (size_t)(texts ? texts : 1));
    if (!h || !ids || !known) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < texts; i++) {
        uint64_t h1 = 0, h2 = 0;
        int32_t k;
        for (k = starts[i]; k < starts[i + 1]; k++) {
            uint64_t v = (uint64_t)(int64_t)tokens[k] + 1;
            h1 = h1 * BASE + v;
            h2 = h2 * BASE2 + v;
        }
        h[2 * i] = h1;
        h[2 * i + 1] = h2;
        known[i] = -1;
    }
    /* room for every text a new phrase: the index grows once at most */
    {
        int bits = 64 - b->slot_shift;
        while (((uint64_t)1 << bits) < 2 * ((uint64_t)b->phrases + (uint64_t)texts + 1)) bits++;
        if (bits > 64 - b->slot_shift && builder_rehash(b, bits) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    }
    b->chunk++;
    /* the kept pairs' phrases, then their paraphrases, each side in the order of its lines */
    for (i = 0; i < n; i++) {
        Py_ssize_t j = i < count ? i : i - count;
        int32_t left = phrases ? phrases[j] : (int32_t)j, right = phrases ? phrases[j + count] : (int32_t)(j + count);
        int32_t text = i < count ? left : right;
        int64_t phrase;
        if (starts[left + 1] == starts[left] || starts[right + 1] == starts[right]) continue;
        if (h[2 * left] == h[2 * right] && h[2 * left + 1] == h[2 * right + 1]) continue;
        /* a text met again in the chunk is the same phrase (its lookup changes nothing) */
        phrase = known[text] >= 0 ? known[text]
                                  : builder_phrase(b, tokens + starts[text], starts[text + 1] - starts[text],
                                                   h[2 * text], h[2 * text + 1]);
        if (phrase >= 0) known[text] = (int32_t)phrase;
        if (phrase == -1) {
            PyErr_NoMemory();
            goto done;
        }
        if (phrase == -2) {
            result = Py_False;
            goto done;
        }
        ids[kept++] = (int32_t)phrase;
    }
    /* kept / 2 pairs: their phrases, then their paraphrases */
    if (grow((void **)&b->pairs, &b->pairs_room, 2 * b->npairs + (size_t)kept, sizeof(int32_t)) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (i = 0; i < kept / 2; i++) {
        b->pairs[2 * b->npairs] = ids[i];
        b->pairs[2 * b->npairs + 1] = ids[kept / 2 + i];
        b->npairs++;
    }
    result = Py_True;
done:
    free(h);
    free(ids);
    free(known);
    PyBuffer_Release(&tokens_view);
    PyBuffer_Release(&starts_view);
    if (phrases) PyBuffer_Release(&phrases_view);
    Py_XINCREF(result);
    return result;
}

/* A new bytearray of n bytes, its contents to be written (NULL: an exception). */
static PyObject *load_bytes(size_t n, char **at) {
    PyObject *made = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (made) *at = PyByteArray_AS_STRING(made);
    return made;
}

/* A phrase's hash and the phrase. */
typedef struct {
    uint64_t hash;
    int32_t phrase;
} HashAt;

static int hash_at_cmp(const void *a, const void *b) {
    uint64_t x = ((const HashAt *)a)->hash, y = ((const HashAt *)b)->hash;
    return x < y ? -1 : x > y;
}

/* The n (at least 1) distinct hashes ascending into sorted, and the phrase of each into order:
 * counted out by their top bits (about one a bucket), then each bucket sorted, by insertion
 * where it is small.  0, or -1 on no memory. */
static int sorted_hashes(const uint64_t *hashes, Py_ssize_t n, uint64_t *sorted, int32_t *order) {
    int bits = 1;
    size_t *count, k, buckets;
    HashAt *at;
    while (bits < 40 && ((Py_ssize_t)1 << bits) < n) bits++;
    buckets = (size_t)1 << bits;
    count = (size_t *)calloc(buckets + 1, sizeof(size_t));
    at = (HashAt *)malloc((size_t)n * sizeof(HashAt));
    if (!count || !at) {
        free(count);
        free(at);
        return -1;
    }
    for (k = 0; k < (size_t)n; k++) count[(hashes[k] >> (64 - bits)) + 1]++;
    for (k = 0; k < buckets; k++) count[k + 1] += count[k];
    for (k = 0; k < (size_t)n; k++) {
        HashAt *to = &at[count[hashes[k] >> (64 - bits)]++];
        to->hash = hashes[k];
        to->phrase = (int32_t)k;
    }
    for (k = 0; k < buckets; k++) { /* bucket k is at[start .. count[k]) */
        size_t start = k ? count[k - 1] : 0, end = count[k], i;
        if (end - start > 32) {
            qsort(at + start, end - start, sizeof(HashAt), hash_at_cmp);
            continue;
        }
        for (i = start + 1; i < end; i++) {
            HashAt x = at[i];
            size_t j = i;
            while (j > start && at[j - 1].hash > x.hash) {
                at[j] = at[j - 1];
                j--;
            }
            at[j] = x;
        }
    }
    for (k = 0; k < (size_t)n; k++) {
        sorted[k] = at[k].hash;
        order[k] = at[k].phrase;
    }
    free(count);
    free(at);
    return 0;
}

/* builder_arrays(builder) -> (collided, tokens, starts, hashes, order, keys, longest): bytes
 * of the phrases' int32 token ids end to end and their int64 starts (by phrase, each where it
 * first occurs), their uint64 hashes ascending and the int32 phrase of each, the int64 keys
 * a * phrases + b of the pairs (a, b), each way, sorted and each once; longest: the most
 * tokens of a phrase; collided: two chunks hold different phrases of one hash */
static PyObject *py_builder_arrays(PyObject *self, PyObject *args) {
    PyObject *capsule, *arrays[5] = {NULL, NULL, NULL, NULL, NULL}, *result = NULL;
    char *at[5];
    Builder *b;
    size_t m, k, nkeys = 0, *count = NULL;
    int32_t *by_second = NULL;
    int64_t *keys = NULL, phrases, longest = 0;
    int a;
    (void)self;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    if (!(b = (Builder *)PyCapsule_GetPointer(capsule, BUILDER_NAME))) return NULL;
    phrases = b->phrases;
    m = 2 * b->npairs;
    count = calloc((size_t)phrases + 1, sizeof(size_t));
    by_second = malloc(sizeof(int32_t) * 2 * (m ? m : 1));
    keys = malloc(sizeof(int64_t) * (m ? m : 1));
    if (!count || !by_second || !keys) {
        PyErr_NoMemory();
        goto done;
    }
    /* each pair both ways, (a, b) and (b, a): counted out by b, then (stably) by a */
    for (k = 0; k < m; k++) count[b->pairs[k] + 1]++;
    for (k = 0; k < (size_t)phrases; k++) count[k + 1] += count[k];
    for (k = 0; k < b->npairs; k++) {
        int32_t x = b->pairs[2 * k], y = b->pairs[2 * k + 1];
        size_t to = count[y]++;
        by_second[2 * to] = x;
        by_second[2 * to + 1] = y;
        to = count[x]++;
        by_second[2 * to] = y;
        by_second[2 * to + 1] = x;
    }
    memset(count, 0, sizeof(size_t) * ((size_t)phrases + 1));
    for (k = 0; k < m; k++) count[by_second[2 * k] + 1]++;
    for (k = 0; k < (size_t)phrases; k++) count[k + 1] += count[k];
    for (k = 0; k < m; k++) {
        int32_t x = by_second[2 * k];
        keys[count[x]++] = (int64_t)x * phrases + by_second[2 * k + 1];
    }
    for (k = 0; k < m; k++)
        if (!nkeys || keys[k] != keys[nkeys - 1]) keys[nkeys++] = keys[k];
    if (!(arrays[0] = load_bytes(b->ntokens * sizeof(int32_t), &at[0]))) goto done;
    if (!(arrays[1] = load_bytes(((size_t)phrases + 1) * sizeof(int64_t), &at[1]))) goto done;
    if (!(arrays[2] = load_bytes((size_t)phrases * sizeof(uint64_t), &at[2]))) goto done;
    if (!(arrays[3] = load_bytes((size_t)phrases * sizeof(int32_t), &at[3]))) goto done;
    if (!(arrays[4] = load_bytes(nkeys * sizeof(int64_t), &at[4]))) goto done;
    if (b->ntokens) memcpy(at[0], b->tokens, b->ntokens * sizeof(int32_t));
    memcpy(at[1], b->starts, ((size_t)phrases + 1) * sizeof(int64_t));
    if (phrases && sorted_hashes(b->hashes, (Py_ssize_t)phrases, (uint64_t *)at[2], (int32_t *)at[3]) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (nkeys) memcpy(at[4], keys, nkeys * sizeof(int64_t));
    for (k = 0; k < (size_t)phrases; k++)
        if (b->starts[k + 1] - b->starts[k] > longest) longest = b->starts[k + 1] - b->starts[k];
    result = Py_BuildValue("OOOOOOL", b->collided ? Py_True : Py_False, arrays[0], arrays[1], arrays[2], arrays[3],
                           arrays[4], (long long)longest);
done:
    for (a = 0; a < 5; a++) Py_XDECREF(arrays[a]);
    free(count);
    free(by_second);
    free(keys);
    return result;
}

static PyMethodDef methods[] = {
    {"table", py_table, METH_VARARGS,
     "table(tokens, starts, hashes, order, keys) -> the table's state for match (int32, int64, uint64, int32, "
     "int64 buffers of a PhraseTable's arrays, held)."},
    {"match", py_match, METH_VARARGS,
     "match(table, texts, pairs, limit, search_bytes, state_bytes, candidate_bytes, match_type, candidate_type) -> "
     "ParaEval's tiers of each (model, peer) pair of texts, as match_type tuples."},
    {"reader", py_reader, METH_NOARGS, "reader() -> a chunk of a table's pairs as they are read (pairs)."},
    {"pairs", py_pairs, METH_VARARGS,
     "pairs(reader, block, at, number, ppdb, key, threshold, max_lines, max_bytes) -> (at, number, full): a "
     "block's lines read as read_pairs reads them, up to a full chunk or a line left to it."},
    {"reader_add", py_reader_add, METH_VARARGS,
     "reader_add(reader, phrase, paraphrase, length, max_lines, max_bytes) -> whether the chunk is full."},
    {"reader_chunk", py_reader_chunk, METH_VARARGS,
     "reader_chunk(reader) -> (texts, phrases, count): the chunk read (then emptied)."},
    {"builder", py_builder, METH_NOARGS, "builder() -> a table being built from chunks of pairs (builder_add)."},
    {"builder_add", py_builder_add, METH_VARARGS,
     "builder_add(builder, tokens, starts, phrases, count) -> False where two phrases of the chunk have one hash."},
    {"builder_arrays", py_builder_arrays, METH_VARARGS,
     "builder_arrays(builder) -> (collided, tokens, starts, hashes, order, keys, longest) of the table built."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_paraeval", "ParaEval's tiers in C (rouge155py.metrics.paraeval).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__paraeval(void) { return PyModule_Create(&module); }
