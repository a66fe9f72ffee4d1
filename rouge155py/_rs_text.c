/* rouge-score's text stage: its tokens, and nltk's Porter stemmer (default mode).
 *
 * rouge-score lowercases a text with str.lower(), turns every run of characters other
 * than a-z and 0-9 into one space and splits there; with its stemmer, tokens longer
 * than 3 characters are stemmed by nltk's PorterStemmer.  Outside ASCII, str.lower()
 * makes a-z of two characters only: U+212A KELVIN SIGN gives "k" and U+0130 (I with a
 * dot above) gives "i" followed by a combining dot, which ends the token
 * (tests/rouge_score/test_text.py checks this against the running Python's tables).
 *
 * The stemmer follows nltk's rule lists: in each list the first rule whose suffix the
 * word ends with decides, applied or not.  Digits are consonants, as there.
 */
#include "_rs_text.h"

#include <stdlib.h>
#include <string.h>

void rs_ints_free(RsInts *a) {
    free(a->items);
    a->items = NULL;
    a->count = a->capacity = 0;
}

/* ---- nltk's Porter stemmer, NLTK_EXTENSIONS mode ---- */

static int is_vowel(unsigned char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

/* Whether w[i] is a consonant: not a vowel, and a "y" only after a vowel or first (a run of
 * "y"s alternates). */
static int is_consonant(const unsigned char *w, Py_ssize_t i) {
    int negate = 0;
    if (is_vowel(w[i])) return 0;
    if (w[i] != 'y') return 1;
    while (i > 0 && w[i] == 'y') {
        negate = !negate;
        i--;
    }
    return (!is_vowel(w[i])) != negate;
}

/* The measure m of w[0 .. n): the number of vowel-consonant transitions. */
static int measure(const unsigned char *w, Py_ssize_t n) {
    int m = 0, before = -1, consonant;
    Py_ssize_t i;
    for (i = 0; i < n; i++) {
        if (is_vowel(w[i])) consonant = 0;
        else if (w[i] == 'y') consonant = i == 0 ? 1 : !before;
        else consonant = 1;
        if (before == 0 && consonant) m++;
        before = consonant;
    }
    return m;
}

static int has_vowel(const unsigned char *w, Py_ssize_t n) {
    Py_ssize_t i;
    for (i = 0; i < n; i++)
        if (!is_consonant(w, i)) return 1;
    return 0;
}

/* *o: consonant, vowel, consonant other than w, x, y at the end; or (this mode) a
 * two-letter stem vowel then consonant. */
static int ends_cvc(const unsigned char *w, Py_ssize_t n) {
    if (n >= 3 && is_consonant(w, n - 3) && !is_consonant(w, n - 2) && is_consonant(w, n - 1) &&
        w[n - 1] != 'w' && w[n - 1] != 'x' && w[n - 1] != 'y')
        return 1;
    return n == 2 && !is_consonant(w, 0) && is_consonant(w, 1);
}

static int ends_with(const unsigned char *w, Py_ssize_t n, const char *suffix) {
    Py_ssize_t len = (Py_ssize_t)strlen(suffix);
    return n >= len && memcmp(w + n - len, suffix, (size_t)len) == 0;
}

/* The condition of a rule, on the stem w[0 .. stem) of the word w[0 .. n). */
typedef enum { ANY, M_GT_0, M_GT_1, M_GT_1_ST, LOGI } Condition;

typedef struct {
    const char *suffix, *replacement;
    Condition condition;
} Rule;

static int holds(Condition c, const unsigned char *w, Py_ssize_t n, Py_ssize_t stem) {
    switch (c) {
    case ANY: return 1;
    case M_GT_0: return measure(w, stem) > 0;
    case M_GT_1: return measure(w, stem) > 1;
    case M_GT_1_ST: return measure(w, stem) > 1 && (w[stem - 1] == 's' || w[stem - 1] == 't');
    case LOGI: return measure(w, n - 3) > 0; /* the word without "ogi" */
    }
    return 0;
}

/* The first rule whose suffix ends the word decides: its replacement when its condition
 * holds, else the word unchanged. */
static Py_ssize_t apply_rules(unsigned char *w, Py_ssize_t n, const Rule *rules, size_t count) {
    size_t k;
    for (k = 0; k < count; k++) {
        Py_ssize_t stem;
        size_t len;
        if (!ends_with(w, n, rules[k].suffix)) continue;
        stem = n - (Py_ssize_t)strlen(rules[k].suffix);
        if (!holds(rules[k].condition, w, n, stem)) return n;
        len = strlen(rules[k].replacement);
        memcpy(w + stem, rules[k].replacement, len);
        return stem + (Py_ssize_t)len;
    }
    return n;
}

#define RULES(table) (table), sizeof(table) / sizeof((table)[0])

static const Rule STEP1A[] = {{"sses", "ss", ANY}, {"ies", "i", ANY}, {"ss", "ss", ANY}, {"s", "", ANY}};
static const Rule STEP2[] = {
    {"ational", "ate", M_GT_0}, {"tional", "tion", M_GT_0}, {"enci", "ence", M_GT_0}, {"anci", "ance", M_GT_0},
    {"izer", "ize", M_GT_0},    {"bli", "ble", M_GT_0},     {"alli", "al", M_GT_0},   {"entli", "ent", M_GT_0},
    {"eli", "e", M_GT_0},       {"ousli", "ous", M_GT_0},   {"ization", "ize", M_GT_0}, {"ation", "ate", M_GT_0},
    {"ator", "ate", M_GT_0},    {"alism", "al", M_GT_0},    {"iveness", "ive", M_GT_0}, {"fulness", "ful", M_GT_0},
    {"ousness", "ous", M_GT_0}, {"aliti", "al", M_GT_0},    {"iviti", "ive", M_GT_0}, {"biliti", "ble", M_GT_0},
    {"fulli", "ful", M_GT_0},   {"logi", "log", LOGI},
};
static const Rule STEP3[] = {
    {"icate", "ic", M_GT_0}, {"ative", "", M_GT_0}, {"alize", "al", M_GT_0}, {"iciti", "ic", M_GT_0},
    {"ical", "ic", M_GT_0},  {"ful", "", M_GT_0},   {"ness", "", M_GT_0},
};
static const Rule STEP4[] = {
    {"al", "", M_GT_1},   {"ance", "", M_GT_1}, {"ence", "", M_GT_1}, {"er", "", M_GT_1},   {"ic", "", M_GT_1},
    {"able", "", M_GT_1}, {"ible", "", M_GT_1}, {"ant", "", M_GT_1},  {"ement", "", M_GT_1}, {"ment", "", M_GT_1},
    {"ent", "", M_GT_1},  {"ion", "", M_GT_1_ST}, {"ou", "", M_GT_1}, {"ism", "", M_GT_1},  {"ate", "", M_GT_1},
    {"iti", "", M_GT_1},  {"ous", "", M_GT_1},  {"ive", "", M_GT_1},  {"ize", "", M_GT_1},
};

/* Irregular forms this mode maps whole: word, then its stem. */
static const char *const IRREGULAR[][2] = {
    {"sky", "sky"},         {"skies", "sky"},     {"dying", "die"},       {"lying", "lie"},
    {"tying", "tie"},       {"news", "news"},     {"innings", "inning"},  {"inning", "inning"},
    {"outings", "outing"},  {"outing", "outing"}, {"cannings", "canning"}, {"canning", "canning"},
    {"howe", "howe"},       {"proceed", "proceed"}, {"exceed", "exceed"}, {"succeed", "succeed"},
};

static Py_ssize_t step1a(unsigned char *w, Py_ssize_t n) {
    if (n == 4 && ends_with(w, n, "ies")) return 3; /* "ies" -> "ie" */
    return apply_rules(w, n, RULES(STEP1A));
}

static Py_ssize_t step1b(unsigned char *w, Py_ssize_t n) {
    Py_ssize_t k;
    if (ends_with(w, n, "ied")) return n == 4 ? 3 : n - 2; /* "ie", else "i" */
    if (ends_with(w, n, "eed")) return measure(w, n - 3) > 0 ? n - 1 : n;
    if (ends_with(w, n, "ed") && has_vowel(w, n - 2)) k = n - 2;
    else if (ends_with(w, n, "ing") && has_vowel(w, n - 3)) k = n - 3;
    else return n;
    if (ends_with(w, k, "at") || ends_with(w, k, "bl") || ends_with(w, k, "iz")) {
        w[k] = 'e';
        return k + 1;
    }
    if (k >= 2 && w[k - 1] == w[k - 2] && is_consonant(w, k - 1))
        return w[k - 1] == 'l' || w[k - 1] == 's' || w[k - 1] == 'z' ? k : k - 1;
    if (measure(w, k) == 1 && ends_cvc(w, k)) {
        w[k] = 'e';
        return k + 1;
    }
    return k;
}

static Py_ssize_t step1c(unsigned char *w, Py_ssize_t n) {
    if (n >= 1 && w[n - 1] == 'y' && n - 1 > 1 && is_consonant(w, n - 2)) w[n - 1] = 'i';
    return n;
}

static Py_ssize_t step2(unsigned char *w, Py_ssize_t n) {
    if (ends_with(w, n, "alli") && measure(w, n - 4) > 0) n -= 2; /* "alli" -> "al", then again */
    return apply_rules(w, n, RULES(STEP2));
}

static Py_ssize_t step5(unsigned char *w, Py_ssize_t n) {
    if (n >= 1 && w[n - 1] == 'e') {
        int m = measure(w, n - 1);
        if (m > 1 || (m == 1 && !ends_cvc(w, n - 1))) n -= 1;
    }
    if (ends_with(w, n, "ll") && measure(w, n - 1) > 1) n -= 1;
    return n;
}

Py_ssize_t rs_porter_stem(unsigned char *w, Py_ssize_t n) {
    size_t k;
    for (k = 0; k < sizeof(IRREGULAR) / sizeof(IRREGULAR[0]); k++) {
        size_t len = strlen(IRREGULAR[k][0]);
        if ((size_t)n == len && memcmp(w, IRREGULAR[k][0], len) == 0) {
            len = strlen(IRREGULAR[k][1]);
            memcpy(w, IRREGULAR[k][1], len);
            return (Py_ssize_t)len;
        }
    }
    if (n <= 2) return n;
    n = step1a(w, n);
    n = step1b(w, n);
    n = step1c(w, n);
    n = step2(w, n);
    n = apply_rules(w, n, RULES(STEP3));
    n = apply_rules(w, n, RULES(STEP4));
    return step5(w, n);
}

/* ---- The vocabulary: strings -> ids, by open addressing ---- */

/* A key (a token or a stem) is bytes a-z and 0-9, never a zero byte.  Wherever it is held its
 * bytes are followed by zeros up to a multiple of 8, so that it is read, hashed and compared
 * a word of 8 bytes at a time. */
#define KEY_BYTES(n) ((((size_t)(n) + 7) / 8) * 8)

typedef unsigned long long KeyHash;

static inline unsigned long long key_word(const char *s) {
    unsigned long long w;
    memcpy(&w, s, 8);
    return w;
}

/* Word after word: xor, multiply by an odd constant, fold the high half in. */
static inline KeyHash key_hash(const char *s, Py_ssize_t n) {
    KeyHash h = (KeyHash)n * 0x9E3779B97F4A7C15ULL;
    Py_ssize_t k;
    for (k = 0; k < n; k += 8) {
        h = (h ^ key_word(s + k)) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
    }
    return h;
}

typedef struct {
    unsigned long long head; /* the key's first word: all of a key shorter than 8 bytes */
    unsigned int check;      /* the hash's high half */
    int entry;               /* the key's entry; -1: an empty slot */
} Slot;

/* Slots (a power of two, at most half used) and per entry its key (arena offset, length)
 * and value. */
typedef struct {
    Slot *slots;
    size_t mask;
    RsInts at, len, value;
} Table;

struct RsVocab {
    int stem;
    char *arena; /* every key, each at a multiple of 8, zero-padded */
    Py_ssize_t arena_len, arena_capacity;
    Table read;  /* with stemming: a token as read -> the id of its stem */
    Table words; /* a counted form -> its id (its entry) */
    char *token; /* the token being read, zero-padded */
    Py_ssize_t token_capacity;
    unsigned char *scratch; /* a token being stemmed, zero-padded */
    Py_ssize_t scratch_capacity;
    RsVocab *memo; /* the stems met by earlier calls (see rs_vocab_take_memo), or NULL */
};

static void table_free(Table *t) {
    free(t->slots);
    t->slots = NULL;
    rs_ints_free(&t->at);
    rs_ints_free(&t->len);
    rs_ints_free(&t->value);
}

static int slots_make(Table *t, size_t slots) {
    size_t i;
    t->slots = (Slot *)malloc(slots * sizeof(Slot));
    if (!t->slots) return -1;
    for (i = 0; i < slots; i++) t->slots[i].entry = -1;
    t->mask = slots - 1;
    return 0;
}

/* The slot of key s (n bytes, of that hash) in t: its own, or the empty one where it goes. */
static inline size_t table_find(const RsVocab *v, const Table *t, const char *s, Py_ssize_t n, KeyHash hash) {
    unsigned long long head = key_word(s);
    unsigned int check = (unsigned int)(hash >> 32);
    size_t j;
    for (j = (size_t)hash & t->mask; t->slots[j].entry >= 0; j = (j + 1) & t->mask) {
        const Slot *at = &t->slots[j];
        Py_ssize_t k;
        const char *key;
        if (at->head != head || at->check != check) continue;
        if (n < 8) return j; /* its zero bytes in the head say its length */
        if (t->len.items[at->entry] != n) continue;
        key = v->arena + t->at.items[at->entry];
        for (k = 8; k < n && key_word(key + k) == key_word(s + k); k += 8) {
        }
        if (k >= n) return j;
    }
    return j;
}

/* Twice the slots, the keys placed again from the arena: 0, or -1 (no memory). */
static int table_grow(const RsVocab *v, Table *t) {
    Slot *old = t->slots;
    size_t slots = (t->mask + 1) * 2, i;
    if (slots_make(t, slots) < 0) {
        t->slots = old;
        return -1;
    }
    for (i = 0; i < (size_t)t->at.count; i++) {
        const char *key = v->arena + t->at.items[i];
        Py_ssize_t n = t->len.items[i];
        KeyHash hash = key_hash(key, n);
        size_t j;
        for (j = (size_t)hash & t->mask; t->slots[j].entry >= 0; j = (j + 1) & t->mask) {
        }
        t->slots[j].head = key_word(key);
        t->slots[j].check = (unsigned int)(hash >> 32);
        t->slots[j].entry = (int)i;
    }
    free(old);
    return 0;
}

/* Copies key s (zero-padded) into the arena: its offset, or -1 when memory runs out (offsets
 * are kept as int). */
static Py_ssize_t arena_add(RsVocab *v, const char *s, Py_ssize_t n) {
    Py_ssize_t at = v->arena_len, bytes = (Py_ssize_t)KEY_BYTES(n);
    if (bytes > INT_MAX - at) return -1;
    if (at + bytes > v->arena_capacity) {
        Py_ssize_t capacity = v->arena_capacity * 2;
        char *grown;
        while (capacity < at + bytes) capacity *= 2;
        grown = (char *)realloc(v->arena, (size_t)capacity);
        if (!grown) return -1;
        v->arena = grown;
        v->arena_capacity = capacity;
    }
    memcpy(v->arena + at, s, (size_t)bytes);
    v->arena_len += bytes;
    return at;
}

/* Puts key s in t with the value, at the empty slot j found for it (the slots grown first
 * when they would be more than half used): 0, or -1 when memory runs out (t is left as it was). */
static int table_add(RsVocab *v, Table *t, size_t j, const char *s, Py_ssize_t n, KeyHash hash, int value) {
    Py_ssize_t at, entry = t->at.count;
    if (entry >= INT_MAX || n > INT_MAX) return -1;
    if ((size_t)(entry + 1) * 2 > t->mask + 1) {
        if (table_grow(v, t) < 0) return -1;
        for (j = (size_t)hash & t->mask; t->slots[j].entry >= 0; j = (j + 1) & t->mask) {
        }
    }
    at = arena_add(v, s, n);
    if (at < 0 || rs_ints_push(&t->at, (int)at) < 0 || rs_ints_push(&t->len, (int)n) < 0 ||
        rs_ints_push(&t->value, value) < 0) {
        t->at.count = t->len.count = t->value.count = entry;
        return -1;
    }
    t->slots[j].head = key_word(s);
    t->slots[j].check = (unsigned int)(hash >> 32);
    t->slots[j].entry = (int)entry;
    return 0;
}

/* A vocabulary's two tables start at 64 slots and double as they fill. score() called once per
 * pair makes a vocabulary at each call: emptying 1,024 slots in each table took about 0.9 us
 * of that call's 2.7 (a batch's tables grow to its size at the same cost as before). */
RsVocab *rs_vocab_new(int stem) {
    RsVocab *v = (RsVocab *)calloc(1, sizeof(RsVocab));
    if (!v) return NULL;
    v->stem = stem;
    v->arena_capacity = 4096;
    v->arena = (char *)malloc((size_t)v->arena_capacity);
    v->token_capacity = 64;
    v->token = (char *)malloc((size_t)v->token_capacity);
    if (!v->arena || !v->token || slots_make(&v->words, 64) < 0 || slots_make(&v->read, 64) < 0) {
        rs_vocab_free(v);
        return NULL;
    }
    return v;
}

void rs_vocab_free(RsVocab *v) {
    if (!v) return;
    free(v->arena);
    table_free(&v->read);
    table_free(&v->words);
    free(v->token);
    free(v->scratch);
    free(v);
}

Py_ssize_t rs_vocab_size(const RsVocab *v) { return v->words.at.count; }

const char *rs_vocab_word(const RsVocab *v, int id, Py_ssize_t *len) {
    *len = v->words.len.items[id];
    return v->arena + v->words.at.items[id];
}

/* The id of a counted form (of that hash), given one if new: >= 0, or -1 (no memory). */
static inline int word_id(RsVocab *v, const char *s, Py_ssize_t n, KeyHash hash) {
    size_t j = table_find(v, &v->words, s, n, hash);
    int id = v->words.slots[j].entry;
    if (id >= 0) return id;
    id = (int)v->words.at.count;
    return table_add(v, &v->words, j, s, n, hash, id) < 0 ? -1 : id;
}

/* ---- The stems of earlier calls ---- */

/* nltk's Porter stem is a function of the token alone, so the stems found by one call serve
 * the next: a call of a few pairs (rouge-score's score(), once per pair in a training loop)
 * would otherwise stem every token of its texts anew. The memo is a vocabulary of its own
 * whose `read` table maps a token to the id of its stem among the memo's words.
 * One call at a time holds it (the GIL is let go while it is used); it is emptied when it
 * grows past MEMO_BYTES. */
#define MEMO_BYTES ((Py_ssize_t)1 << 24)
static RsVocab *memo_vocab = NULL;
static PyThread_type_lock memo_lock = NULL;

int rs_vocab_take_memo(RsVocab *v) {
    if (!v->stem) return 0;
    if (!memo_lock) {
        memo_lock = PyThread_allocate_lock(); /* with the GIL held: made once */
        if (!memo_lock) return 0;
    }
    if (!PyThread_acquire_lock(memo_lock, NOWAIT_LOCK)) return 0; /* another call holds it */
    if (memo_vocab && memo_vocab->arena_len > MEMO_BYTES) {
        rs_vocab_free(memo_vocab);
        memo_vocab = NULL;
    }
    if (!memo_vocab) memo_vocab = rs_vocab_new(0);
    if (!memo_vocab) {
        PyThread_release_lock(memo_lock);
        return 0;
    }
    v->memo = memo_vocab;
    return 1;
}

void rs_vocab_give_memo(RsVocab *v) {
    if (!v->memo) return;
    v->memo = NULL;
    PyThread_release_lock(memo_lock);
}

/* The stem of a token (a-z, 0-9) in v's scratch (zero-padded), its length returned: from the
 * memo where an earlier call stemmed it, else stemmed now (and kept in the memo); -1: no
 * memory. */
static Py_ssize_t stem_of(RsVocab *v, const char *s, Py_ssize_t n, KeyHash hash) {
    RsVocab *memo = v->memo;
    size_t j = 0;
    Py_ssize_t stemmed, padded = (Py_ssize_t)KEY_BYTES(n);
    if (padded > v->scratch_capacity) {
        unsigned char *grown = (unsigned char *)realloc(v->scratch, (size_t)padded);
        if (!grown) return -1;
        v->scratch = grown;
        v->scratch_capacity = padded;
    }
    if (memo) {
        j = table_find(memo, &memo->read, s, n, hash);
        if (memo->read.slots[j].entry >= 0) {
            int id = memo->read.value.items[memo->read.slots[j].entry];
            stemmed = memo->words.len.items[id];
            memcpy(v->scratch, memo->arena + memo->words.at.items[id], KEY_BYTES(stemmed));
            return stemmed;
        }
    }
    memcpy(v->scratch, s, (size_t)padded);
    stemmed = rs_porter_stem(v->scratch, n);
    memset(v->scratch + stemmed, 0, (size_t)(padded - stemmed));
    if (memo && memo->words.at.count < INT_MAX && memo->read.at.count < INT_MAX) {
        const char *stem = (const char *)v->scratch;
        int id = word_id(memo, stem, stemmed, key_hash(stem, stemmed));
        if (id < 0 || table_add(memo, &memo->read, j, s, n, hash, id) < 0) return -1;
    }
    return stemmed;
}

/* The id of a token as read (a-z, 0-9, zero-padded; of that hash): its stem's with stemming,
 * else its own. */
static int token_id(RsVocab *v, const char *s, Py_ssize_t n, KeyHash hash) {
    size_t j;
    Py_ssize_t stemmed;
    int id;
    if (!v->stem || n <= 3) return word_id(v, s, n, hash);
    j = table_find(v, &v->read, s, n, hash);
    if (v->read.slots[j].entry >= 0) return v->read.value.items[v->read.slots[j].entry];
    stemmed = stem_of(v, s, n, hash);
    if (stemmed < 0) return -1;
    id = word_id(v, (const char *)v->scratch, stemmed, key_hash((const char *)v->scratch, stemmed));
    if (id < 0 || table_add(v, &v->read, j, s, n, hash, id) < 0) return -1; /* j: read is as it was */
    return id;
}

/* ---- Tokens of a text ---- */

/* The token character a code point gives after str.lower() (ASCII and Latin-1), or 0. */
static unsigned char token_char(Py_UCS4 c) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return (unsigned char)c;
    if (c >= 'A' && c <= 'Z') return (unsigned char)(c + 32);
    return 0;
}

#define KELVIN_SIGN 0x212A
#define CAPITAL_I_WITH_DOT 0x0130

typedef struct {
    RsVocab *v;
    RsInts *ids, *ends;
    Py_ssize_t len, sentence_start; /* len: bytes of the token being read, in v->token */
    int lines;
} Scan;

/* Room in v->token for a key of n bytes and its padding: 0, -1 (no memory). */
static int token_room(RsVocab *v, Py_ssize_t n) {
    Py_ssize_t capacity = v->token_capacity;
    char *grown;
    if ((Py_ssize_t)KEY_BYTES(n) <= capacity) return 0;
    while (capacity < (Py_ssize_t)KEY_BYTES(n)) capacity *= 2;
    grown = (char *)realloc(v->token, (size_t)capacity);
    if (!grown) return -1;
    v->token = grown;
    v->token_capacity = capacity;
    return 0;
}

/* The id of the key in v->token (n bytes, padded), appended to the text's ids. */
static inline int token_push(Scan *s, Py_ssize_t n) {
    RsVocab *v = s->v;
    KeyHash hash = key_hash(v->token, n);
    int id = v->stem ? token_id(v, v->token, n, hash) : word_id(v, v->token, n, hash);
    if (id < 0) return -1;
    return rs_ints_push(s->ids, id);
}

static inline int scan_char(Scan *s, char c) {
    if (s->len + 1 > s->v->token_capacity - 8 && token_room(s->v, s->len + 9) < 0) return -1;
    s->v->token[s->len++] = c;
    return 0;
}

static inline int scan_token_end(Scan *s) {
    Py_ssize_t n = s->len;
    if (!n) return 0;
    s->len = 0;
    memset(s->v->token + n, 0, KEY_BYTES(n) - (size_t)n);
    return token_push(s, n);
}

static int scan_line_end(Scan *s) {
    if (scan_token_end(s) < 0) return -1;
    if (!s->lines || s->ids->count == s->sentence_start) return 0;
    if (s->ids->count > INT_MAX) return -1;
    s->sentence_start = s->ids->count;
    return rs_ints_push(s->ends, (int)s->ids->count);
}

/* One code point: part of a token, or what ends one (a line too, at '\n'). */
static inline int scan_code(Scan *s, Py_UCS4 c) {
    unsigned char t = token_char(c);
    if (t) return scan_char(s, (char)t);
    if (c == '\n') return scan_line_end(s);
    if (c == KELVIN_SIGN) return scan_char(s, 'k');
    if (c == CAPITAL_I_WITH_DOT) return scan_char(s, 'i') < 0 ? -1 : scan_token_end(s);
    return s->len ? scan_token_end(s) : 0; /* a separator, maybe after another */
}

/* The loop over a text's code points, for the wider kinds. */
#define SCAN_TEXT(TYPE)                                                                            \
    do {                                                                                           \
        const TYPE *at = (const TYPE *)data;                                                       \
        for (i = 0; i < len && status == 0; i++) status = scan_code(&s, at[i]);                   \
    } while (0)

/* Per byte of a 1-byte text (ASCII or Latin-1): TOKEN_BYTE for A-Z, a-z, 0-9; LINE_BYTE for
 * '\n'; 0 for any other (str.lower() of a Latin-1 character other than A-Z is no a-z). */
#define TOKEN_BYTE 2
#define LINE_BYTE 1
static const unsigned char BYTE_CLASS[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

#define EVERY_BYTE(c) (0x0101010101010101ULL * (unsigned char)(c))

/* The word of a text at byte `at`: its bytes there, zeros past the text's end. */
static inline unsigned long long text_word(const unsigned char *text, Py_ssize_t at, Py_ssize_t len) {
    unsigned char tail[8] = {0};
    if (len - at >= 8) return load_word(text + at);
    memcpy(tail, text + at, (size_t)(len - at));
    return load_word(tail);
}

/* How many of a word's first bytes are ASCII letters or digits (0 to 8), all 8 bytes at
 * once: in each byte's sum below, the high bit says whether it reached a bound. */
static inline int token_run(unsigned long long x) {
    const unsigned long long high = EVERY_BYTE(0x80);
    unsigned long long low7 = x & ~high, folded = low7 | EVERY_BYTE(0x20); /* letters lowercase */
    unsigned long long letters = (folded + EVERY_BYTE(0x80 - 'a')) & ~(folded + EVERY_BYTE(0x7f - 'z'));
    unsigned long long digits = (low7 + EVERY_BYTE(0x80 - '0')) & ~(low7 + EVERY_BYTE(0x7f - '9'));
    unsigned long long other = ~((letters | digits) & ~x) & high; /* high bit: not a token byte */
    unsigned long long before = ((other & (0 - other)) - 1) & high;
    return (int)(((before >> 7) * EVERY_BYTE(1)) >> 56);
}

/* A 1-byte text (ASCII or Latin-1): each run of token bytes is a token, read 8 bytes at a
 * time; a letter or digit with bit 0x20 set is its lowercase. */
static int scan_bytes(Scan *s, const unsigned char *text, Py_ssize_t len) {
    RsVocab *v = s->v;
    Py_ssize_t i = 0;
    while (i < len) {
        Py_ssize_t n = 0;
        int run;
        unsigned char c = BYTE_CLASS[text[i]];
        if (c != TOKEN_BYTE) {
            if (c == LINE_BYTE && scan_line_end(s) < 0) return -1;
            i++;
            continue;
        }
        do {
            unsigned long long x = text_word(text, i + n, len);
            run = token_run(x);
            if (token_room(v, n + 8) < 0) return -1;
            store_word(v->token + n, (x | EVERY_BYTE(0x20)) & (run < 8 ? (1ULL << (8 * run)) - 1 : ~0ULL));
            n += run;
        } while (run == 8);
        if (token_push(s, n) < 0) return -1;
        i += n;
    }
    return 0;
}

int rs_tokenize(RsVocab *v, int kind, const void *data, Py_ssize_t len, int lines, RsInts *ids, RsInts *ends) {
    Scan s;
    Py_ssize_t i;
    int status = 0;
    s.v = v;
    s.ids = ids;
    s.ends = ends;
    s.len = 0;
    s.sentence_start = ids->count;
    s.lines = lines;
    if (kind == PyUnicode_1BYTE_KIND) status = scan_bytes(&s, (const unsigned char *)data, len);
    else if (kind == PyUnicode_2BYTE_KIND) SCAN_TEXT(Py_UCS2);
    else SCAN_TEXT(Py_UCS4);
    if (status == 0) status = scan_line_end(&s);
    return status;
}

/* ---- Python wrappers ---- */

/* rs_stem(word) -> str or None: nltk's PorterStemmer().stem(word) for a word of a-z and 0-9;
 * None for any other word. */
static PyObject *rs_stem(PyObject *Py_UNUSED(self), PyObject *word) {
    unsigned char small[64], *w = small;
    Py_ssize_t n, i;
    PyObject *result;
    if (!PyUnicode_Check(word)) {
        PyErr_SetString(PyExc_TypeError, "rs_stem: word must be a str");
        return NULL;
    }
    if (PyUnicode_READY(word) < 0) return NULL;
    n = PyUnicode_GET_LENGTH(word);
    if (!PyUnicode_IS_ASCII(word)) Py_RETURN_NONE;
    for (i = 0; i < n; i++) {
        unsigned char c = PyUnicode_1BYTE_DATA(word)[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) Py_RETURN_NONE;
    }
    if ((size_t)n > sizeof(small)) {
        w = (unsigned char *)PyMem_Malloc((size_t)n);
        if (!w) return PyErr_NoMemory();
    }
    memcpy(w, PyUnicode_1BYTE_DATA(word), (size_t)n);
    n = rs_porter_stem(w, n);
    result = PyUnicode_FromStringAndSize((const char *)w, n);
    if (w != small) PyMem_Free(w);
    return result;
}

/* Characters of text beyond which the GIL is let go while tokenizing. */
#define RELEASE_CHARS ((Py_ssize_t)1 << 16)

static PyObject *int32_bytes(const RsInts *a) {
    return PyBytes_FromStringAndSize((const char *)a->items, a->count * (Py_ssize_t)sizeof(int));
}

/* rs_encode(texts, stem, lines, words) -> (ids, ends, starts, vocabulary)
 *   texts: a list of str; stem: stem tokens longer than 3 characters; lines: each text's
 *   lines (at '\n') holding a token are its sentences, else each text is one sentence.
 *   ids: int32 bytes, every token's id, text after text (an id is the same counted form
 *   across all texts of the call); ends: int32, where each sentence ends in ids; starts:
 *   int32, text t has sentences starts[t] .. starts[t + 1] - 1; vocabulary: per id its
 *   counted form when `words` is set, else None.
 */
static PyObject *rs_encode(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *o_texts, *texts = NULL, *result = NULL, *vocabulary = NULL;
    PyObject *b_ids = NULL, *b_ends = NULL, *b_starts = NULL;
    int stem, lines, words, status = 0;
    RsVocab *v = NULL;
    RsInts ids = {NULL, 0, 0}, ends = {NULL, 0, 0}, starts = {NULL, 0, 0};
    Py_ssize_t n, t, total = 0;
    PyThreadState *saved = NULL;

    if (!PyArg_ParseTuple(args, "Oppp", &o_texts, &stem, &lines, &words)) return NULL;
    texts = PySequence_Tuple(o_texts); /* holds every text while the GIL is let go */
    if (!texts) return NULL;
    n = PyTuple_GET_SIZE(texts);
    for (t = 0; t < n; t++) {
        PyObject *text = PyTuple_GET_ITEM(texts, t);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "rs_encode: texts must be str");
            goto done;
        }
        if (PyUnicode_READY(text) < 0) goto done;
        total += PyUnicode_GET_LENGTH(text);
    }
    v = rs_vocab_new(stem);
    if (!v) {
        PyErr_NoMemory();
        goto done;
    }
    if (total >= RELEASE_CHARS) saved = PyEval_SaveThread();
    for (t = 0; t < n && status == 0; t++) {
        PyObject *text = PyTuple_GET_ITEM(texts, t);
        if (ends.count > INT_MAX) status = -1;
        else status = rs_ints_push(&starts, (int)ends.count);
        if (status == 0)
            status = rs_tokenize(v, PyUnicode_KIND(text), PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text), lines,
                                 &ids, &ends);
        if (status == 0 && !lines) status = ids.count > INT_MAX ? -1 : rs_ints_push(&ends, (int)ids.count);
    }
    if (status == 0) status = ends.count > INT_MAX ? -1 : rs_ints_push(&starts, (int)ends.count);
    if (saved) PyEval_RestoreThread(saved);
    if (status < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (words) {
        Py_ssize_t k, size = rs_vocab_size(v);
        vocabulary = PyList_New(size);
        if (!vocabulary) goto done;
        for (k = 0; k < size; k++) {
            Py_ssize_t len;
            const char *word = rs_vocab_word(v, (int)k, &len);
            PyObject *item = PyUnicode_FromStringAndSize(word, len);
            if (!item) goto done;
            PyList_SET_ITEM(vocabulary, k, item);
        }
    } else {
        Py_INCREF(Py_None);
        vocabulary = Py_None;
    }
    b_ids = int32_bytes(&ids);
    b_ends = int32_bytes(&ends);
    b_starts = int32_bytes(&starts);
    if (b_ids && b_ends && b_starts) result = PyTuple_Pack(4, b_ids, b_ends, b_starts, vocabulary);
done:
    Py_XDECREF(b_ids);
    Py_XDECREF(b_ends);
    Py_XDECREF(b_starts);
    Py_XDECREF(vocabulary);
    Py_DECREF(texts);
    rs_vocab_free(v);
    rs_ints_free(&ids);
    rs_ints_free(&ends);
    rs_ints_free(&starts);
    return result;
}

PyMethodDef rs_text_methods[] = {
    {"rs_stem", rs_stem, METH_O, "nltk's Porter stem (default mode) of a word of a-z and 0-9; None for any other."},
    {"rs_encode", rs_encode, METH_VARARGS, "Token ids of texts as rouge-score's tokenizer finds them."},
    {NULL, NULL, 0, NULL},
};
