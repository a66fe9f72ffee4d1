/* rouge-score's text stage in C: its tokenizer (lowercase, runs of a-z and 0-9) and nltk's
 * Porter stemmer in its default mode (NLTK_EXTENSIONS), for the kernel's batch paths and
 * for the Python wrappers of rouge155py/_rs_text.c.
 */
#ifndef ROUGE155PY_RS_TEXT_H
#define ROUGE155PY_RS_TEXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* A growable array of int32 values. */
typedef struct {
    int *items;
    Py_ssize_t count, capacity;
} RsInts;

/* Appends one value: 0, or -1 when memory runs out (inline: the kernels push every token). */
static inline int rs_ints_push(RsInts *a, int value) {
    if (a->count == a->capacity) {
        Py_ssize_t capacity = a->capacity ? a->capacity * 2 : 256;
        int *grown = (int *)realloc(a->items, (size_t)capacity * sizeof(int));
        if (!grown) return -1;
        a->items = grown;
        a->capacity = capacity;
    }
    a->items[a->count++] = value;
    return 0;
}
void rs_ints_free(RsInts *a);

/* Token -> id, the ids given in the order the counted forms are first met; with stemming,
 * each distinct token is stemmed once. */
typedef struct RsVocab RsVocab;

/* A vocabulary that stems tokens longer than 3 characters when `stem` is set; NULL: no memory. */
RsVocab *rs_vocab_new(int stem);
void rs_vocab_free(RsVocab *v);
/* With the GIL held: lend `v` (a stemming vocabulary) the stems of earlier calls, where no
 * other call holds them: 1 when lent (give them back, with or without the GIL, by
 * rs_vocab_give_memo before any other call may take them), else 0. */
int rs_vocab_take_memo(RsVocab *v);
void rs_vocab_give_memo(RsVocab *v);
/* The number of ids given, and the counted form (a-z, 0-9) of one of them. */
Py_ssize_t rs_vocab_size(const RsVocab *v);
const char *rs_vocab_word(const RsVocab *v, int id, Py_ssize_t *len);

/* nltk's PorterStemmer().stem of a word of ASCII a-z and 0-9, in place: its new length
 * (never more than n). */
Py_ssize_t rs_porter_stem(unsigned char *w, Py_ssize_t n);

/* Appends to `ids` the ids of the tokens of one text given as code points (a PyUnicode
 * kind and its data), as rouge-score's tokenizer finds them.  With `lines` set, the text's
 * lines (split at '\n') are its sentences, and the end (in `ids`) of each line holding a
 * token is appended to `ends`.  0, or -1 when memory runs out (nothing is raised). */
int rs_tokenize(RsVocab *v, int kind, const void *data, Py_ssize_t len, int lines, RsInts *ids, RsInts *ends);

/* The Python functions of this file, added to the _accel module. */
extern PyMethodDef rs_text_methods[];

/* 8 bytes of memory as a word whose low byte is the first (and back): texts and strings read
 * as words the same on any CPU. */
static inline unsigned long long load_word(const void *p) {
    unsigned long long w;
    memcpy(&w, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline void store_word(void *p, unsigned long long w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, 8);
}

#endif
