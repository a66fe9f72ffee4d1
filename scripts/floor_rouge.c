/* A floor for rouge-score's rouge1, rouge2 and rougeL of pairs of texts: the least work
 * those scores take, written plainly, to measure the kernel's rs_score_pairs against.
 *
 *     floor_rouge PAIRS_FILE [REPEATS]
 *
 * PAIRS_FILE (written by scripts/bench_floor.py): the 8 bytes "RSPAIRS1", the number of
 * pairs as a little-endian uint64, then every target and then every prediction, each as a
 * little-endian uint32 byte count followed by its bytes (UTF-8).
 *
 * Tokens as rouge-score makes them without stemming: lowercase, every byte other than
 * a-z and 0-9 a separator (a byte outside ASCII too: rouge-score's str.lower() makes a-z
 * of no character outside ASCII but U+212A and U+0130, which this floor does not read).
 * Token strings get dense ids from one hash table; rouge1 counts by id, rouge2 counts
 * bigrams in a hash table per pair, rougeL is the LCS length by bit vectors (Hyyro).
 * Scores: precision = hits / max(prediction units, 1), recall = hits / max(target units,
 * 1), F = 2PR / (P + R) (0 when P + R = 0); rougeL is (0, 0, 0) when a text has no token.
 *
 * Prints one line of JSON: the pairs, the CPU milliseconds of each repeat of the text
 * stage and the scoring (reading the file excluded), and a digest of the scores: FNV-1a
 * (64 bits) over the bytes (little-endian) of the doubles, pair after pair, rouge1 P R F,
 * rouge2 P R F, rougeL P R F.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void *must(void *p) {
    if (!p) {
        fprintf(stderr, "floor_rouge: out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- the texts ---- */

typedef struct {
    size_t pairs;
    const unsigned char **text; /* 2 * pairs: targets, then predictions */
    uint32_t *len;
    unsigned char *bytes;
} Texts;

static uint64_t read_le(const unsigned char *p, int n) {
    uint64_t v = 0;
    int k;
    for (k = n - 1; k >= 0; k--) v = (v << 8) | p[k];
    return v;
}

static void texts_read(const char *path, Texts *t) {
    FILE *f = fopen(path, "rb");
    long size;
    size_t at = 16, k;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 16 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "floor_rouge: cannot read %s\n", path);
        exit(2);
    }
    t->bytes = (unsigned char *)must(malloc((size_t)size));
    if (fread(t->bytes, 1, (size_t)size, f) != (size_t)size || memcmp(t->bytes, "RSPAIRS1", 8) != 0) {
        fprintf(stderr, "floor_rouge: %s is not a pairs file\n", path);
        exit(2);
    }
    fclose(f);
    t->pairs = (size_t)read_le(t->bytes + 8, 8);
    if (t->pairs > (size_t)size / 8) {
        fprintf(stderr, "floor_rouge: bad pair count\n");
        exit(2);
    }
    t->text = (const unsigned char **)must(malloc(2 * t->pairs * sizeof(*t->text) + 1));
    t->len = (uint32_t *)must(malloc(2 * t->pairs * sizeof(uint32_t) + 1));
    for (k = 0; k < 2 * t->pairs; k++) {
        if (at + 4 > (size_t)size || read_le(t->bytes + at, 4) > (size_t)size - at - 4) {
            fprintf(stderr, "floor_rouge: %s is truncated\n", path);
            exit(2);
        }
        t->len[k] = (uint32_t)read_le(t->bytes + at, 4);
        t->text[k] = t->bytes + at + 4;
        at += 4 + t->len[k];
    }
}

/* ---- token strings -> dense ids ---- */

typedef struct {
    uint64_t hash;
    uint32_t len, at; /* the string: arena[at .. at + len) */
    int32_t id;       /* -1: an empty slot */
} Slot;

typedef struct {
    Slot *slot;
    size_t mask, used;
    char *arena;
    size_t arena_len, arena_cap;
} Vocab;

static void vocab_init(Vocab *v) {
    size_t k;
    v->mask = 4095;
    v->used = 0;
    v->slot = (Slot *)must(malloc((v->mask + 1) * sizeof(Slot)));
    for (k = 0; k <= v->mask; k++) v->slot[k].id = -1;
    v->arena_cap = 1 << 16;
    v->arena_len = 0;
    v->arena = (char *)must(malloc(v->arena_cap));
}

static void vocab_free(Vocab *v) {
    free(v->slot);
    free(v->arena);
}

static void vocab_grow(Vocab *v) {
    size_t mask = 2 * v->mask + 1, k, j;
    Slot *slot = (Slot *)must(malloc((mask + 1) * sizeof(Slot)));
    for (k = 0; k <= mask; k++) slot[k].id = -1;
    for (k = 0; k <= v->mask; k++) {
        if (v->slot[k].id < 0) continue;
        for (j = v->slot[k].hash & mask; slot[j].id >= 0; j = (j + 1) & mask) {
        }
        slot[j] = v->slot[k];
    }
    free(v->slot);
    v->slot = slot;
    v->mask = mask;
}

/* The hash of a token of n bytes in buf, zero-padded to a multiple of 8: 8 bytes a step. */
static uint64_t token_hash(const unsigned char *buf, size_t n) {
    uint64_t h = 0x243F6A8885A308D3ULL ^ n, w;
    size_t k;
    for (k = 0; k < n; k += 8) {
        memcpy(&w, buf + k, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 32;
    }
    return h;
}

static int32_t vocab_id(Vocab *v, const unsigned char *buf, size_t n) {
    uint64_t h = token_hash(buf, n);
    size_t j;
    Slot *s;
    for (j = h & v->mask; v->slot[j].id >= 0; j = (j + 1) & v->mask) {
        s = &v->slot[j];
        if (s->hash == h && s->len == n && memcmp(v->arena + s->at, buf, n) == 0) return s->id;
    }
    while (v->arena_len + n > v->arena_cap) {
        v->arena_cap *= 2;
        v->arena = (char *)must(realloc(v->arena, v->arena_cap));
    }
    s = &v->slot[j];
    s->hash = h;
    s->len = (uint32_t)n;
    s->at = (uint32_t)v->arena_len;
    s->id = (int32_t)v->used++;
    memcpy(v->arena + v->arena_len, buf, n);
    v->arena_len += n;
    if (2 * v->used > v->mask + 1) {
        int32_t id = s->id;
        vocab_grow(v);
        return id;
    }
    return s->id;
}

/* ---- the text stage ---- */

static unsigned char TOKEN_CHAR[256]; /* a byte's lowercase a-z or 0-9, else 0 */

typedef struct {
    int32_t *ids;
    size_t count, cap;
    size_t *first; /* text k: ids[first[k] .. first[k + 1]) */
} Tokens;

static void tokenize_all(const Texts *t, Vocab *v, Tokens *out) {
    size_t cap = 64, k;
    unsigned char *buf = (unsigned char *)must(malloc(cap + 8));
    out->count = 0;
    for (k = 0; k < 2 * t->pairs; k++) {
        const unsigned char *s = t->text[k];
        size_t len = t->len[k], i = 0;
        out->first[k] = out->count;
        while (i < len) {
            size_t n = 0;
            if (!TOKEN_CHAR[s[i]]) {
                i++;
                continue;
            }
            while (i < len && TOKEN_CHAR[s[i]]) {
                if (n == cap) {
                    cap *= 2;
                    buf = (unsigned char *)must(realloc(buf, cap + 8));
                }
                buf[n++] = TOKEN_CHAR[s[i++]];
            }
            memset(buf + n, 0, 8);
            if (out->count == out->cap) {
                out->cap *= 2;
                out->ids = (int32_t *)must(realloc(out->ids, out->cap * sizeof(int32_t)));
            }
            out->ids[out->count++] = vocab_id(v, buf, n);
        }
    }
    out->first[2 * t->pairs] = out->count;
    free(buf);
}

/* ---- the scores of a pair ---- */

typedef struct {
    int32_t *count;     /* per id: rouge1's target copies left; all 0 between pairs */
    int32_t *kind;      /* per id: its kind in the prediction (rougeL); all -1 between pairs */
    uint64_t *key;      /* rouge2's table of target bigrams: a key per slot, EMPTY when free */
    int32_t *left;      /* per slot: target copies left */
    size_t *taken;      /* the slots filled for this pair */
    size_t key_mask;
    int key_shift;      /* 64 - log2(slots) */
    uint64_t *masks;    /* per kind, the prediction positions holding it */
    uint64_t *row;      /* the LCS row: bit j clear where the LCS grows at prediction token j */
} Scratch;

#define EMPTY UINT64_MAX

static void prf(double hits, double pred, double target, double *out) {
    double p = hits / pred, r = hits / target;
    out[0] = p;
    out[1] = r;
    out[2] = p + r > 0 ? 2 * p * r / (p + r) : 0.0;
}

static int bits_set(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static void score_pair(Scratch *s, const int32_t *tt, size_t tl, const int32_t *pt, size_t pl, double *out) {
    size_t k, j, hits = 0, taken = 0, words, kinds = 0;
    size_t tb = tl > 1 ? tl - 1 : 0, pb = pl > 1 ? pl - 1 : 0;
    /* rouge1: each prediction token takes a copy of the target's while some are left */
    for (k = 0; k < tl; k++) s->count[tt[k]]++;
    for (k = 0; k < pl; k++)
        if (s->count[pt[k]] > 0) {
            s->count[pt[k]]--;
            hits++;
        }
    for (k = 0; k < tl; k++) s->count[tt[k]] = 0;
    prf((double)hits, (double)(pl > 1 ? pl : 1), (double)(tl > 1 ? tl : 1), out);
    /* rouge2: the target's bigrams counted in the table, then taken by the prediction's */
    hits = 0;
    for (k = 0; k < tb; k++) {
        uint64_t key = (uint64_t)(uint32_t)tt[k] << 32 | (uint32_t)tt[k + 1];
        size_t at = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> s->key_shift);
        while (s->key[at] != EMPTY && s->key[at] != key) at = (at + 1) & s->key_mask;
        if (s->key[at] == EMPTY) {
            s->key[at] = key;
            s->left[at] = 0;
            s->taken[taken++] = at;
        }
        s->left[at]++;
    }
    for (k = 0; k < pb; k++) {
        uint64_t key = (uint64_t)(uint32_t)pt[k] << 32 | (uint32_t)pt[k + 1];
        size_t at = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> s->key_shift);
        while (s->key[at] != EMPTY && s->key[at] != key) at = (at + 1) & s->key_mask;
        if (s->key[at] != EMPTY && s->left[at] > 0) {
            s->left[at]--;
            hits++;
        }
    }
    for (k = 0; k < taken; k++) s->key[s->taken[k]] = EMPTY;
    prf((double)hits, (double)(pb > 1 ? pb : 1), (double)(tb > 1 ? tb : 1), out + 3);
    /* rougeL: V_i = (V + (V & M)) | (V & ~M) per target token, M its prediction positions */
    if (!tl || !pl) {
        out[6] = out[7] = out[8] = 0.0;
        return;
    }
    words = (pl + 63) / 64;
    for (j = 0; j < pl; j++) {
        int32_t *kind = &s->kind[pt[j]];
        if (*kind < 0) {
            *kind = (int32_t)kinds++;
            memset(s->masks + (size_t)*kind * words, 0, words * 8);
        }
        s->masks[(size_t)*kind * words + j / 64] |= 1ULL << (j % 64);
    }
    for (k = 0; k < words; k++) s->row[k] = ~0ULL;
    for (k = 0; k < tl; k++) {
        int32_t kind = s->kind[tt[k]];
        const uint64_t *m;
        uint64_t carry = 0;
        if (kind < 0) continue;
        m = s->masks + (size_t)kind * words;
        for (j = 0; j < words; j++) {
            uint64_t v = s->row[j], u = v & m[j], sum = v + u, next = sum + carry;
            carry = (sum < v) | (next < sum);
            s->row[j] = next | (v & ~m[j]);
        }
    }
    hits = pl;
    for (j = 0; j < words; j++) {
        uint64_t v = s->row[j];
        if (j == words - 1 && pl % 64) v &= (1ULL << (pl % 64)) - 1;
        hits -= (size_t)bits_set(v);
    }
    for (j = 0; j < pl; j++) s->kind[pt[j]] = -1;
    prf((double)hits, (double)pl, (double)tl, out + 6);
}

/* ---- one run: the text stage and every pair's scores ---- */

/* Kept out of line: an instruction count can be taken of it alone (callgrind's
 * --toggle-collect=floor_run). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void floor_run(const Texts *t, Tokens *tok, double *out) {
    Vocab v;
    Scratch s;
    size_t longest = 1, slots = 16, k;
    vocab_init(&v);
    tokenize_all(t, &v, tok);
    for (k = 0; k < 2 * t->pairs; k++)
        if (tok->first[k + 1] - tok->first[k] > longest) longest = tok->first[k + 1] - tok->first[k];
    s.key_shift = 60;
    while (slots < 2 * longest) {
        slots *= 2;
        s.key_shift--;
    }
    s.count = (int32_t *)must(calloc(v.used + 1, sizeof(int32_t)));
    s.kind = (int32_t *)must(malloc((v.used + 1) * sizeof(int32_t)));
    memset(s.kind, 0xff, (v.used + 1) * sizeof(int32_t));
    s.key = (uint64_t *)must(malloc(slots * sizeof(uint64_t)));
    memset(s.key, 0xff, slots * sizeof(uint64_t));
    s.key_mask = slots - 1;
    s.left = (int32_t *)must(malloc(slots * sizeof(int32_t)));
    s.taken = (size_t *)must(malloc(slots * sizeof(size_t)));
    s.masks = (uint64_t *)must(malloc(longest * ((longest + 63) / 64) * sizeof(uint64_t)));
    s.row = (uint64_t *)must(malloc(((longest + 63) / 64) * sizeof(uint64_t)));
    for (k = 0; k < t->pairs; k++) {
        size_t a = k, b = t->pairs + k;
        score_pair(&s, tok->ids + tok->first[a], tok->first[a + 1] - tok->first[a], tok->ids + tok->first[b],
                   tok->first[b + 1] - tok->first[b], out + 9 * k);
    }
    free(s.count);
    free(s.kind);
    free(s.key);
    free(s.left);
    free(s.taken);
    free(s.masks);
    free(s.row);
    vocab_free(&v);
}

static double cpu_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    Texts t;
    Tokens tok;
    double *out, start;
    uint64_t digest = 0xcbf29ce484222325ULL;
    long repeats = argc > 2 ? strtol(argv[2], NULL, 10) : 1, r;
    size_t k, b;
    int c;
    if (argc < 2 || repeats < 1) {
        fprintf(stderr, "usage: floor_rouge PAIRS_FILE [REPEATS]\n");
        return 2;
    }
    for (c = 0; c < 256; c++)
        TOKEN_CHAR[c] = (unsigned char)((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c
                                        : c >= 'A' && c <= 'Z'                          ? c + 32
                                                                                        : 0);
    texts_read(argv[1], &t);
    tok.cap = 1 << 16;
    tok.ids = (int32_t *)must(malloc(tok.cap * sizeof(int32_t)));
    tok.first = (size_t *)must(malloc((2 * t.pairs + 1) * sizeof(size_t)));
    out = (double *)must(malloc((9 * t.pairs + 1) * sizeof(double)));
    printf("{\"pairs\": %zu, \"ms\": [", t.pairs);
    for (r = 0; r < repeats; r++) {
        start = cpu_ms();
        floor_run(&t, &tok, out);
        printf("%s%.3f", r ? ", " : "", cpu_ms() - start);
    }
    for (k = 0; k < 9 * t.pairs; k++) {
        unsigned char bytes[8];
        uint64_t bits;
        memcpy(&bits, &out[k], 8);
        for (b = 0; b < 8; b++) bytes[b] = (unsigned char)(bits >> (8 * b));
        for (b = 0; b < 8; b++) digest = (digest ^ bytes[b]) * 0x100000001b3ULL;
    }
    printf("], \"digest\": \"%016llx\"}\n", (unsigned long long)digest);
    free(out);
    free(tok.ids);
    free(tok.first);
    free(t.text);
    free(t.len);
    free(t.bytes);
    return 0;
}
