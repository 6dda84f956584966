/*
 * citeledger.resolve._titlekernel: the compiled TitleTable (see _titles.py for the contract).
 *
 * A TitleTable holds the catalog's word-sorted normalised titles in one buffer, each title in
 * its own PEP 393 width (1 byte per character for Latin-1 titles, 2 or 4 otherwise), and scores
 * a query against candidate ids exactly as
 *
 *     process.extract(query, titles, scorer=fuzz.ratio, processor=None,
 *                     score_cutoff=cutoff, limit=None)
 *
 * followed by the catalog's limit / ties / window rule.
 *
 * Exactness:
 *
 * - fuzz.ratio is Indel.normalized_similarity * 100, i.e. (1.0 - dist / lensum) * 100.0 in
 *   doubles with dist = lensum - 2 * LCS (1.0 - 0 when lensum == 0), checked bit for bit
 *   against RapidFuzz in tests/resolve/test_titlekernel.py.  LCS is computed with the
 *   bit-parallel algorithm of Hyyro (2004) / Allison and Dix (1986), one 64-bit word per 64
 *   characters of the query.
 * - process.extract keeps a choice when its score >= (double)(float)score_cutoff (RapidFuzz
 *   compares against the cutoff as a float32; for cutoffs a float32 holds exactly, such as 50,
 *   this is score >= cutoff).
 * - Candidates are scored in descending order of an upper bound of their score, the same
 *   formula on LCS <= min(len_a, len_b) (the formula is monotone in the LCS, so the bound is
 *   >= the score in floating point too), and scoring stops once that bound is strictly below
 *   the running threshold max(cutoff, limit-th best so far, best so far - window).  A skipped
 *   candidate is below the final threshold; removing it changes neither the best score nor the
 *   limit-th best of the candidates at or above that threshold (the running limit-th best is
 *   never above the final one), so the result is the same set.
 * - A character-count bound (LCS <= sum over characters of the smaller count) was measured
 *   and dropped: on the resolver workload it cost more than the LCS work it saved (1, 2 and
 *   3+ word queries: 40 vs 32, 80 vs 60, 82 vs 63 us per call).
 * - A candidate is also abandoned in the middle of its LCS once the characters it has missed
 *   put its bound (LCS so far + characters left) below the running threshold: its score is
 *   below the final threshold, so dropping it is exact by the argument above.
 *
 * Speed (resolver workload, ~220 candidates and ~145 scored per query): Latin-1 candidates
 * are scored several at a time, one per 64-bit SIMD lane (AVX2: 4, AVX-512 with VPOPCNTDQ:
 * 8), the level chosen at import from what the CPU supports (__builtin_cpu_supports; the
 * SIMD functions are compiled with target attributes, so the build needs no flags and other
 * machines and compilers get the scalar path).  set_simd() / CITELEDGER_TITLEKERNEL_SIMD
 * force a level; every level gives the same results (tests compare them).  Each title has a
 * read-only 8-byte entry (offset, width, length) for ordering and scoring a candidate; titles
 * are prefetched ahead of scoring; top()'s arrays live in one scratch block per table.
 *
 * Gathering (1M-paper workload: one or two lists of ~470 ids for union calls, three of ~4000
 * ids for ~170 candidates in two-of-three calls): one or two posting lists sorted ascending
 * (the catalog's are) are merged; otherwise the ids are marked in a bitmap of 2 bits per id
 * (256 KiB per million titles, so it stays in cache where the entries would not), cleared
 * after each call by the words the call set.  The blocks of titles, offsets and entries of
 * 4 MiB and more are advised as huge pages on Linux (the candidates' entries and titles are
 * read at random: 4 KiB pages cost TLB misses).  The query's pattern is kept per table and
 * built again only for another query; hits below the final floors are dropped before the sort.
 * Measured on replayed calls of the resolver at 1M papers (benchmarks/title_kernel_replay.py):
 * CPU time per call 0.74 of the 16-byte-entry kernel with stamps.  Tried and dropped: a
 * separate array of lengths for the ordering (the entries' misses then move to scoring),
 * prefetching entries further ahead (no gain), and merges for more lists or for two of three
 * (see gather_sorted_union).
 *
 * Also tried and dropped: AVX-512 gathers for the pattern rows (slower than scalar loads and
 * inserts here), two interleaved sets of AVX2 lanes (no gain).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* candidates whose titles are prefetched ahead of the one scored (measured at 1M papers with
 * AVX2: 8 and 11 equal, 2% faster than 16, 4 and 28 slower) */
#ifndef PREFETCH_AHEAD
#define PREFETCH_AHEAD 11
#endif
/* candidates whose entries are prefetched ahead of the one ordered by length */
#ifndef ENTRY_AHEAD
#define ENTRY_AHEAD 16
#endif

#if defined(__GNUC__) || defined(__clang__)
#define POPCOUNT64(x) ((Py_ssize_t)__builtin_popcountll(x))
#else
static Py_ssize_t POPCOUNT64(uint64_t x)
{
    Py_ssize_t n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}
#endif

/* Per title, for top(): its byte offset in buf (bits 24-63), width (bits 16-23: 1, 2 or 4 bytes
 * per character) and length in characters (bits 0-15, ENTRY_LONG for 0xFFFF and more: see the
 * offsets), so that ordering and scoring a candidate touch 8 bytes; built on the first top(),
 * then kept up, and only read by top(). */
typedef uint64_t Entry;

#define ENTRY_OFF(e) ((e) >> 24)
#define ENTRY_KIND(e) ((int)(((e) >> 16) & 0xFF))
#define ENTRY_LEN(e) ((Py_ssize_t)((e) & 0xFFFF))
#define ENTRY_MAX_OFF (((uint64_t)1 << 40) - 1)
#define ENTRY_LONG 0xFFFF

/* The query's match vectors for the bit-parallel LCS: bit i of row c is set where the query's
 * character i is c.  One per table, kept from call to call: built again only for another
 * query, after clearing the rows the last one set (the Latin-1 rows stay allocated). */
typedef struct {
    Py_ssize_t len;    /* query length */
    Py_ssize_t words;  /* 64-bit words per match vector */
    uint64_t *latin;   /* 256 rows of words (room for 256 * cap_words), all zero but the query's */
    Py_ssize_t cap_words;
    /* open addressing over the query's characters >= 256 (built per query) */
    Py_ssize_t hcap;   /* power of two, 0 when none */
    uint32_t *hkey;    /* 0 = empty (0 < 256 is never a key) */
    uint64_t *hval;    /* hcap * words */
    uint64_t *state;   /* words: the running S vector (room for cap_words) */
    uint64_t lastmask; /* valid bits of the last word */
    int zero_byte;     /* the first byte not in the query (its row is 0), or -1 */
    /* the query the rows are for (when built): its PEP 393 width and code units */
    int built;
    int qkind;
    char *qdata;
    size_t qcap;
} Pattern;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;       /* titles */
    Py_ssize_t cap;     /* capacity of offsets/kinds */
    uint64_t *offsets;  /* n + 1 byte offsets into buf */
    uint8_t *kinds;     /* 1, 2 or 4 bytes per character */
    char *buf;
    size_t buf_len;
    size_t buf_cap;
    Py_ssize_t max_len; /* longest title, in characters */
    /* for top(): per id, the title's offset, width and length (see Entry) */
    Entry *entries;
    Py_ssize_t entries_n;   /* entries filled */
    Py_ssize_t entries_cap;
    /* for top(): 2 bits per id (32 ids per word) marking the candidates gathered so far in a
     * call (union / two of three); all zero between calls (a call clears the words it set) */
    uint64_t *seen;
    Py_ssize_t seen_words;
    Pattern pat;            /* the last query's, for top() */
    /* scratch for top(): candidates, their order, lengths, bounds and hits */
    void *scratch;
    size_t scratch_cap;
} TitleTable;

static void pattern_free(Pattern *p);

static inline Py_ssize_t
title_len(const TitleTable *t, Py_ssize_t i)
{
    return (Py_ssize_t)((t->offsets[i + 1] - t->offsets[i]) / t->kinds[i]);
}

static inline uint32_t
char_at(int kind, const void *data, Py_ssize_t i)
{
    switch (kind) {
    case 1:
        return ((const uint8_t *)data)[i];
    case 2:
        return ((const uint16_t *)data)[i];
    default:
        return ((const uint32_t *)data)[i];
    }
}

/* ------------------------------------------------------------------------------ storage */

/* Blocks of the table (titles, offsets, entries): those of BIG_BLOCK bytes or more are
 * aligned to 2 MiB and advised to the kernel as huge pages on Linux (MADV_HUGEPAGE: top()
 * reads titles and entries at random, so 4 KiB pages cost a TLB miss per candidate; measured
 * on the resolver workload); smaller ones come from PyMem.  A block's size class is told by
 * its capacity, which the caller keeps. */
#define BIG_BLOCK ((size_t)4 << 20)
#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define HUGE_PAGES 1
#define HUGE_PAGE ((size_t)2 << 20)
#endif

static void *
block_alloc(size_t n)
{
#ifdef HUGE_PAGES
    if (n >= BIG_BLOCK) {
        void *p = NULL;
        if (posix_memalign(&p, HUGE_PAGE, n) != 0) {
            return NULL;
        }
        (void)madvise(p, n & ~(size_t)4095, MADV_HUGEPAGE); /* advice: failure is harmless */
        return p;
    }
#endif
    return PyMem_Malloc(n ? n : 1);
}

static void
block_free(void *p, size_t cap)
{
#ifdef HUGE_PAGES
    if (cap >= BIG_BLOCK) {
        free(p);
        return;
    }
#endif
    (void)cap;
    PyMem_Free(p);
}

/* p (cap bytes, used of them in use) grown to new_cap bytes; NULL (p kept) when out of memory */
static void *
block_grow(void *p, size_t cap, size_t used, size_t new_cap)
{
#ifdef HUGE_PAGES
    if (new_cap >= BIG_BLOCK) {
        void *q = block_alloc(new_cap);
        if (q) {
            if (used) {
                memcpy(q, p, used);
            }
            block_free(p, cap);
        }
        return q;
    }
#endif
    (void)used;
    return PyMem_Realloc(p, new_cap);
}


static int
table_reserve(TitleTable *self, Py_ssize_t n_titles, size_t n_bytes)
{
    if (n_titles > self->cap) {
        Py_ssize_t cap = self->cap ? self->cap : 64;
        while (cap < n_titles) {
            cap *= 2;
        }
        /* kinds first: a larger PyMem block is harmless if offsets fail, while offsets' size
         * class must follow cap */
        uint8_t *kinds = PyMem_Realloc(self->kinds, (size_t)cap);
        if (!kinds) {
            PyErr_NoMemory();
            return -1;
        }
        self->kinds = kinds;
        uint64_t *off = block_grow(self->offsets, sizeof(uint64_t) * (size_t)(self->cap + 1),
                                   sizeof(uint64_t) * (size_t)(self->n + 1),
                                   sizeof(uint64_t) * (size_t)(cap + 1));
        if (!off) {
            PyErr_NoMemory();
            return -1;
        }
        self->offsets = off;
        self->cap = cap;
    }
    if (n_bytes > self->buf_cap) {
        size_t cap = self->buf_cap ? self->buf_cap : 4096;
        while (cap < n_bytes) {
            cap *= 2;
        }
        char *buf = self->buf ? block_grow(self->buf, self->buf_cap, self->buf_len, cap)
                              : block_alloc(cap);
        if (!buf) {
            PyErr_NoMemory();
            return -1;
        }
        self->buf = buf;
        self->buf_cap = cap;
    }
    return 0;
}

static int
table_append_raw(TitleTable *self, int kind, const void *data, Py_ssize_t len)
{
    size_t nbytes = (size_t)len * (size_t)kind;
    if (table_reserve(self, self->n + 1, self->buf_len + nbytes) < 0) {
        return -1;
    }
    if (nbytes) {
        memcpy(self->buf + self->buf_len, data, nbytes);
    }
    self->kinds[self->n] = (uint8_t)kind;
    self->offsets[self->n] = self->buf_len;
    self->buf_len += nbytes;
    self->offsets[self->n + 1] = self->buf_len;
    self->n++;
    if (len > self->max_len) {
        self->max_len = len;
    }
    return 0;
}

static PyObject *
TitleTable_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)args;
    (void)kwds;
    TitleTable *self = (TitleTable *)type->tp_alloc(type, 0);
    if (!self) {
        return NULL;
    }
    self->offsets = block_alloc(sizeof(uint64_t));
    if (!self->offsets) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    self->offsets[0] = 0;
    return (PyObject *)self;
}

static int
TitleTable_init(TitleTable *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {NULL};
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, ":TitleTable", kwlist)) {
        return -1;
    }
    return 0;
}

static void
TitleTable_dealloc(TitleTable *self)
{
    if (self->offsets) {
        block_free(self->offsets, sizeof(uint64_t) * (size_t)(self->cap + 1));
    }
    PyMem_Free(self->kinds);
    if (self->buf) {
        block_free(self->buf, self->buf_cap);
    }
    if (self->entries) {
        block_free(self->entries, sizeof(Entry) * (size_t)self->entries_cap);
    }
    PyMem_Free(self->seen);
    PyMem_Free(self->scratch);
    pattern_free(&self->pat);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
TitleTable_append(TitleTable *self, PyObject *title)
{
    if (!PyUnicode_Check(title)) {
        PyErr_Format(PyExc_TypeError, "a title is a str, not %.100s", Py_TYPE(title)->tp_name);
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(title) < 0) {
        return NULL;
    }
#endif
    if (table_append_raw(self, PyUnicode_KIND(title), PyUnicode_DATA(title),
                         PyUnicode_GET_LENGTH(title)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static Py_ssize_t
TitleTable_len(TitleTable *self)
{
    return self->n;
}

static PyObject *
TitleTable_item(TitleTable *self, Py_ssize_t i)
{
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "title index out of range");
        return NULL;
    }
    return PyUnicode_FromKindAndData(self->kinds[i], self->buf + self->offsets[i],
                                     title_len(self, i));
}

/* sq_item gets negative indexes already adjusted by len (as list does). */

/* State: (kinds: bytes, offsets: bytes of uint64, buf: bytes, byteorder: str). */
static PyObject *
TitleTable_state(TitleTable *self, PyObject *Py_UNUSED(ignored))
{
    return Py_BuildValue("(y#y#y#s)", self->kinds ? (const char *)self->kinds : "", self->n,
                         (const char *)self->offsets, (Py_ssize_t)(sizeof(uint64_t) * (size_t)(self->n + 1)),
                         self->buf ? self->buf : "", (Py_ssize_t)self->buf_len,
#if PY_LITTLE_ENDIAN
                         "little"
#else
                         "big"
#endif
    );
}

static PyObject *
TitleTable_reduce(TitleTable *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *mod = PyImport_ImportModule("citeledger.resolve._titles");
    if (!mod) {
        return NULL;
    }
    PyObject *rebuild = PyObject_GetAttrString(mod, "_rebuild_compiled");
    Py_DECREF(mod);
    if (!rebuild) {
        return NULL;
    }
    PyObject *state = TitleTable_state(self, NULL);
    if (!state) {
        Py_DECREF(rebuild);
        return NULL;
    }
    PyObject *res = Py_BuildValue("(N(N))", rebuild, state);
    return res;
}

static PyObject *
TitleTable_from_state(PyObject *cls, PyObject *args)
{
    const char *kinds, *offsets, *buf, *order;
    Py_ssize_t nk, noff, nbuf;
    if (!PyArg_ParseTuple(args, "y#y#y#s:_from_state", &kinds, &nk, &offsets, &noff, &buf, &nbuf,
                          &order)) {
        return NULL;
    }
#if PY_LITTLE_ENDIAN
    const char *native = "little";
#else
    const char *native = "big";
#endif
    if (strcmp(order, native) != 0 || noff != (Py_ssize_t)sizeof(uint64_t) * (nk + 1)) {
        PyErr_SetString(PyExc_ValueError, "TitleTable state of another layout");
        return NULL;
    }
    TitleTable *self = (TitleTable *)PyObject_CallNoArgs(cls);
    if (!self) {
        return NULL;
    }
    if (table_reserve(self, nk, (size_t)nbuf) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    memcpy(self->offsets, offsets, (size_t)noff);
    if (nk) {
        memcpy(self->kinds, kinds, (size_t)nk);
    }
    if (nbuf) {
        memcpy(self->buf, buf, (size_t)nbuf);
    }
    self->n = nk;
    self->buf_len = (size_t)nbuf;
    for (Py_ssize_t i = 0; i < nk; i++) {
        uint8_t k = self->kinds[i];
        if ((k != 1 && k != 2 && k != 4) || self->offsets[i + 1] < self->offsets[i] ||
            self->offsets[i + 1] > (uint64_t)nbuf || (self->offsets[i + 1] - self->offsets[i]) % k) {
            self->n = 0;
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "corrupt TitleTable state");
            return NULL;
        }
        Py_ssize_t len = title_len(self, i);
        if (len > self->max_len) {
            self->max_len = len;
        }
    }
    if (self->offsets[0] != 0 || self->offsets[nk] != (uint64_t)nbuf) {
        self->n = 0;
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "corrupt TitleTable state");
        return NULL;
    }
    return (PyObject *)self;
}

/* ------------------------------------------------------------------------------ scoring */


static inline const uint64_t *
pattern_row(const Pattern *p, uint32_t c)
{
    if (c < 256) {
        return p->latin + (size_t)c * (size_t)p->words;
    }
    if (!p->hcap) {
        return NULL;
    }
    size_t mask = (size_t)p->hcap - 1;
    size_t h = ((size_t)c * 2654435761u) & mask;
    while (p->hkey[h]) {
        if (p->hkey[h] == c) {
            return p->hval + h * (size_t)p->words;
        }
        h = (h + 1) & mask;
    }
    return NULL;
}

static void
pattern_free(Pattern *p)
{
    PyMem_Free(p->latin);
    PyMem_Free(p->hkey);
    PyMem_Free(p->hval);
    PyMem_Free(p->state);
    PyMem_Free(p->qdata);
    memset(p, 0, sizeof(*p));
}

/* The pattern of query in p: kept when p is built for the same query, else the last query's
 * rows cleared and the new ones set.  0, or -1 with MemoryError set (p then unbuilt, its
 * Latin-1 rows all zero). */
static int
pattern_build(Pattern *p, PyObject *query)
{
    int kind = PyUnicode_KIND(query);
    const void *data = PyUnicode_DATA(query);
    Py_ssize_t len = PyUnicode_GET_LENGTH(query);
    size_t nbytes = (size_t)len * (size_t)kind;
    if (p->built && p->qkind == kind && p->len == len &&
        (!nbytes || !memcmp(p->qdata, data, nbytes))) {
        return 0;
    }
    if (p->built) {
        for (Py_ssize_t i = 0; i < p->len; i++) {
            uint32_t c = char_at(p->qkind, p->qdata, i);
            if (c < 256) {
                memset(p->latin + (size_t)c * (size_t)p->words, 0, sizeof(uint64_t) * (size_t)p->words);
            }
        }
        p->built = 0;
    }
    PyMem_Free(p->hkey);
    PyMem_Free(p->hval);
    p->hkey = NULL;
    p->hval = NULL;
    p->hcap = 0;
    p->len = len;
    p->words = (len + 63) / 64;
    p->lastmask = (len % 64) ? (((uint64_t)1 << (len % 64)) - 1) : ~(uint64_t)0;
    if (p->words > p->cap_words) {
        PyMem_Free(p->latin);
        PyMem_Free(p->state);
        p->cap_words = 0;
        p->latin = PyMem_Calloc(256 * (size_t)p->words, sizeof(uint64_t));
        p->state = PyMem_Malloc(sizeof(uint64_t) * (size_t)p->words);
        if (!p->latin || !p->state) {
            PyMem_Free(p->latin);
            PyMem_Free(p->state);
            p->latin = NULL;
            p->state = NULL;
            PyErr_NoMemory();
            return -1;
        }
        p->cap_words = p->words;
    }
    if (nbytes > p->qcap) {
        char *q = PyMem_Realloc(p->qdata, nbytes);
        if (!q) {
            PyErr_NoMemory();
            return -1;
        }
        p->qdata = q;
        p->qcap = nbytes;
    }
    Py_ssize_t wide = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        if (char_at(kind, data, i) >= 256) {
            wide++;
        }
    }
    if (wide) {
        Py_ssize_t cap = 8;
        while (cap < 2 * wide) {
            cap *= 2;
        }
        p->hkey = PyMem_Calloc((size_t)cap, sizeof(uint32_t));
        p->hval = PyMem_Calloc((size_t)cap * (size_t)p->words, sizeof(uint64_t));
        if (!p->hkey || !p->hval) {
            PyErr_NoMemory();
            return -1;
        }
        p->hcap = cap;
    }
    uint64_t present[4] = {0, 0, 0, 0}; /* the bytes in the query */
    for (Py_ssize_t i = 0; i < len; i++) {
        uint32_t c = char_at(kind, data, i);
        uint64_t *row;
        if (c < 256) {
            row = p->latin + (size_t)c * (size_t)p->words;
            present[c / 64] |= (uint64_t)1 << (c % 64);
        }
        else {
            size_t mask = (size_t)p->hcap - 1;
            size_t h = ((size_t)c * 2654435761u) & mask;
            while (p->hkey[h] && p->hkey[h] != c) {
                h = (h + 1) & mask;
            }
            p->hkey[h] = c;
            row = p->hval + h * (size_t)p->words;
        }
        row[i / 64] |= (uint64_t)1 << (i % 64);
    }
    p->zero_byte = -1;
    for (int c = 0; c < 256; c++) {
        if (!(present[c / 64] >> (c % 64) & 1)) {
            p->zero_byte = c;
            break;
        }
    }
    if (nbytes) {
        memcpy(p->qdata, data, nbytes);
    }
    p->qkind = kind;
    p->built = 1;
    return 0;
}

/* One character of the bit-parallel LCS: the N-word state S advanced by the query's match ROW
 * for that character (S = (S + (S & M)) | (S & ~M), the addition's carry passed up the words). */
#define LCS_STEP(S, ROW, N)                                                                    \
    do {                                                                                       \
        uint64_t carry_ = 0;                                                                   \
        for (Py_ssize_t w = 0; w < (N); w++) {                                                 \
            uint64_t Sw = (S)[w];                                                              \
            uint64_t u = Sw & (ROW)[w];                                                        \
            uint64_t t = Sw + carry_;                                                          \
            uint64_t c1 = t < carry_;                                                          \
            uint64_t x = t + u;                                                                \
            carry_ = c1 | (x < u);                                                             \
            (S)[w] = x | (Sw - u);                                                             \
        }                                                                                      \
    } while (0)

/* The LCS an n-word state stands for: its zero bits, those past the query in the last word
 * masked off. */
static inline Py_ssize_t
lcs_of_state(const Pattern *p, const uint64_t *S, Py_ssize_t n)
{
    Py_ssize_t lcs = 0;
    for (Py_ssize_t w = 0; w < n - 1; w++) {
        lcs += POPCOUNT64(~S[w]);
    }
    return lcs + POPCOUNT64(~S[n - 1] & p->lastmask);
}

/* DEFINE(N) for each query width N in 64-bit words that has its own unrolled kernels (1 to 4;
 * a longer query takes the kernels of 4 or the generic loop) */
#define QUERY_WIDTHS(DEFINE) DEFINE(1) DEFINE(2) DEFINE(3) DEFINE(4)

/* LCS of the query and a Latin-1 title with N 64-bit words: the loops unrolled, S in registers. */
#define DEFINE_LCS_U8(N)                                                                       \
    static Py_ssize_t lcs_u8_##N(const Pattern *p, const uint8_t *s, Py_ssize_t len)           \
    {                                                                                          \
        uint64_t S[N];                                                                         \
        for (int w = 0; w < N; w++) {                                                          \
            S[w] = ~(uint64_t)0;                                                               \
        }                                                                                      \
        for (Py_ssize_t i = 0; i < len; i++) {                                                 \
            LCS_STEP(S, p->latin + (size_t)s[i] * N, N);                                       \
        }                                                                                      \
        return lcs_of_state(p, S, N);                                                          \
    }

QUERY_WIDTHS(DEFINE_LCS_U8)

#define LCS_LOOP(CTYPE)                                                                        \
    do {                                                                                       \
        const CTYPE *s = (const CTYPE *)data;                                                  \
        if (words == 1) {                                                                      \
            uint64_t S = ~(uint64_t)0;                                                         \
            for (Py_ssize_t i = 0; i < len; i++) {                                             \
                uint32_t c = s[i];                                                             \
                uint64_t M;                                                                    \
                if (c < 256) {                                                                 \
                    M = p->latin[c];                                                           \
                }                                                                              \
                else {                                                                         \
                    const uint64_t *row = pattern_row(p, c);                                   \
                    M = row ? row[0] : 0;                                                      \
                }                                                                              \
                uint64_t u = S & M;                                                            \
                S = (S + u) | (S - u);                                                         \
            }                                                                                  \
            return POPCOUNT64(~S & p->lastmask);                                               \
        }                                                                                      \
        uint64_t *S = p->state;                                                                \
        for (Py_ssize_t w = 0; w < words; w++) {                                               \
            S[w] = ~(uint64_t)0;                                                               \
        }                                                                                      \
        for (Py_ssize_t i = 0; i < len; i++) {                                                 \
            uint32_t c = s[i];                                                                 \
            const uint64_t *row =                                                              \
                c < 256 ? p->latin + (size_t)c * (size_t)words : pattern_row(p, c);            \
            if (!row) {                                                                        \
                continue; /* M == 0: S is unchanged */                                         \
            }                                                                                  \
            LCS_STEP(S, row, words);                                                           \
        }                                                                                      \
        return lcs_of_state(p, S, words);                                                      \
    } while (0)


/* Two Latin-1 titles against the query at once (their dependency chains interleave), each
 * exactly as lcs_u8_N: the common prefix of positions jointly, then the longer one's tail.
 * Every PAIR_CHECK characters a title that has missed more than its maxmiss characters is
 * abandoned (LCS -1), as the SIMD batches' lanes are (see there). */
#define PAIR_CHECK 16

/* The rest of one title of the pair, s[J .. LEN - 1], each PAIR_CHECK characters checked
 * against its budget MISS (LIVE false once over it); J starts at i, the common prefix's end. */
#define PAIR_TAIL(S, s, J, LEN, MISS, LIVE, N)                                                 \
    for (J = i; LIVE && J < LEN;) {                                                            \
        Py_ssize_t end = LEN - J > PAIR_CHECK ? J + PAIR_CHECK : LEN;                          \
        for (; J < end; J++) {                                                                 \
            LCS_STEP(S, p->latin + (size_t)s[J] * N, N);                                       \
        }                                                                                      \
        LIVE = J - lcs_of_state(p, S, N) <= MISS;                                              \
    }

#define DEFINE_LCS_PAIR_U8(N)                                                                  \
    static void lcs_pair_u8_##N(const Pattern *p, const uint8_t *a, Py_ssize_t la,             \
                                Py_ssize_t ma, const uint8_t *b, Py_ssize_t lb, Py_ssize_t mb, \
                                Py_ssize_t *ra, Py_ssize_t *rb)                                \
    {                                                                                          \
        uint64_t A[N], B[N];                                                                   \
        for (int w = 0; w < N; w++) {                                                          \
            A[w] = B[w] = ~(uint64_t)0;                                                        \
        }                                                                                      \
        Py_ssize_t common = la < lb ? la : lb, i = 0, ia, ib;                                  \
        int live_a = 1, live_b = 1;                                                            \
        while (live_a && live_b && i < common) {                                               \
            Py_ssize_t end = common - i > PAIR_CHECK ? i + PAIR_CHECK : common;                \
            for (; i < end; i++) {                                                             \
                LCS_STEP(A, p->latin + (size_t)a[i] * N, N);                                   \
                LCS_STEP(B, p->latin + (size_t)b[i] * N, N);                                   \
            }                                                                                  \
            live_a = i - lcs_of_state(p, A, N) <= ma;                                          \
            live_b = i - lcs_of_state(p, B, N) <= mb;                                          \
        }                                                                                      \
        PAIR_TAIL(A, a, ia, la, ma, live_a, N);                                                \
        PAIR_TAIL(B, b, ib, lb, mb, live_b, N);                                                \
        *ra = live_a ? lcs_of_state(p, A, N) : -1;                                             \
        *rb = live_b ? lcs_of_state(p, B, N) : -1;                                             \
    }

QUERY_WIDTHS(DEFINE_LCS_PAIR_U8)

/* Length of the longest common subsequence of the query and one title. */
static Py_ssize_t
lcs_length(Pattern *p, int kind, const void *data, Py_ssize_t len)
{
    Py_ssize_t words = p->words;
    if (!words || !len) {
        return 0;
    }
    if (kind == 1) {
        const uint8_t *s = data;
        switch (words) {
        case 1:
            return lcs_u8_1(p, s, len);
        case 2:
            return lcs_u8_2(p, s, len);
        case 3:
            return lcs_u8_3(p, s, len);
        case 4:
            return lcs_u8_4(p, s, len);
        default:
            break;
        }
    }
    switch (kind) {
    case 1:
        LCS_LOOP(uint8_t);
    case 2:
        LCS_LOOP(uint16_t);
    default:
        LCS_LOOP(uint32_t);
    }
}

/* fuzz.ratio from the LCS: Indel.normalized_similarity * 100 as RapidFuzz computes it. */
static inline double
ratio_of(Py_ssize_t la, Py_ssize_t lb, Py_ssize_t lcs)
{
    Py_ssize_t lensum = la + lb;
    double norm_dist = lensum ? (double)(lensum - 2 * lcs) / (double)lensum : 0.0;
    return (1.0 - norm_dist) * 100.0;
}

/* ------------------------------------------------------------------------- SIMD batches
 *
 * Several Latin-1 candidates scored at once, one per 64-bit lane (AVX2: 4, AVX-512: 8), the
 * query's words as that many vectors.  Each lane runs exactly the scalar recurrence above:
 * u = S & M, x = S + u + carry (carried across the query's words lane by lane), S = x | (S - u)
 * with S - u == S & ~u (u is a subset of S).  The titles are copied into a staging block
 * padded to the longest with a byte whose pattern row is 0 (S is unchanged by it), so every
 * lane steps through the same number of positions.
 *
 * Early abort: after i characters with an LCS of L_i so far, the title's LCS is at most
 * L_i + (len - i), i.e. len minus the characters already missed (i - L_i).  A lane whose
 * misses exceed maxmiss (so that its score bound is below the running threshold of top())
 * is abandoned (lcs = -1): its score would be below the final threshold, and top() drops it
 * as it drops a candidate skipped by its length bound.  The misses are checked in vectors
 * (the lanes' LCS by popcount) every BATCH_CHECK_* characters; the batch stops when every
 * lane is finished or abandoned.  On the resolver workload nearly all lanes (94%) are
 * abandoned, after three quarters of their characters on average.
 */
#define BATCH_MAX_LANES 8
#define BATCH_MAX_LEN 512 /* longer titles go through the scalar path */
/* characters between two checks of the misses (measured: AVX2 16 better than 8, AVX-512 8
 * better than 4 or 16) */
#define BATCH_CHECK_AVX2 16
#define BATCH_CHECK_AVX512 8

typedef struct {
    int n;                                /* lanes in use */
    const uint8_t *s[BATCH_MAX_LANES];    /* titles (Latin-1) */
    Py_ssize_t len[BATCH_MAX_LANES];      /* their lengths, <= BATCH_MAX_LEN */
    Py_ssize_t maxmiss[BATCH_MAX_LANES];  /* abandon a lane beyond this many misses */
    Py_ssize_t lcs[BATCH_MAX_LANES];      /* out: the LCS, or -1 when abandoned */
} Batch;

/* SIMD level: 0 scalar, 1 AVX2, 2 AVX-512 (F); simd_max is what this CPU and build support. */
static int simd_max = 0;
static int simd_level = 0;
static int early_abort = 1; /* abandon batch lanes that cannot reach the threshold */
static const char *const simd_names[] = {"scalar", "avx2", "avx512"};

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) &&   \
    !defined(CITELEDGER_NO_SIMD)
#define HAVE_X86_SIMD 1
#include <immintrin.h>

/* the staging block: lane k's characters at stage[k * BATCH_MAX_LEN + i]; lens[k] and
 * maxmiss[k] its length and miss budget as 64-bit lanes (0 for a lane past the batch's) */
static inline Py_ssize_t
batch_stage(const Batch *b, int lanes, uint8_t pad, uint8_t *stage, long long *lens,
            long long *maxmiss)
{
    Py_ssize_t maxlen = 0;
    for (int k = 0; k < b->n; k++) {
        if (b->len[k] > maxlen) {
            maxlen = b->len[k];
        }
    }
    for (int k = 0; k < lanes; k++) {
        uint8_t *dst = stage + (size_t)k * BATCH_MAX_LEN;
        Py_ssize_t len = k < b->n ? b->len[k] : 0;
        if (len) {
            memcpy(dst, b->s[k], (size_t)len);
        }
        memset(dst + len, pad, (size_t)(maxlen - len));
        lens[k] = (long long)len;
        maxmiss[k] = k < b->n ? (long long)b->maxmiss[k] : 0;
    }
    return maxlen;
}

/* r[0 .. LANES - 1]: the rows of the query's match table L (N words a row) for character i
 * of each of the LANES lanes staged in stage (the kernels' names for them) */
#define BATCH_ROWS(r, LANES, N)                                                                \
    const uint64_t *r[LANES];                                                                  \
    for (int k = 0; k < (LANES); k++) {                                                        \
        r[k] = L + (size_t)stage[k * BATCH_MAX_LEN + i] * (N);                                 \
    }

/* a kernel's staging of the batch b for the query p (its arguments), in the names the kernel
 * and BATCH_ROWS use: stage, lens and maxmiss (see batch_stage), maxlen (the longest title)
 * and L (the query's match table) */
#define BATCH_STAGE(LANES)                                                                     \
    uint8_t stage[(LANES) * BATCH_MAX_LEN];                                                    \
    long long lens[LANES], maxmiss[LANES];                                                     \
    Py_ssize_t maxlen = batch_stage(b, (LANES), pad, stage, lens, maxmiss);                    \
    const uint64_t *L = p->latin;

/* the chunks [i0, i1) of at most CHECK characters (the last ends at maxlen), while a lane is
 * alive: a kernel checks the lanes' misses after each */
#define BATCH_CHUNKS(i0, i1, CHECK)                                                            \
    for (Py_ssize_t i0 = 0, i1; alive && (i1 = i0 + (CHECK) < maxlen ? i0 + (CHECK) : maxlen, 1); \
         i0 += (CHECK))

/* the batch's lanes' results, from the vector of LCS (or -1) stored as 64-bit lanes */
static inline void
batch_done(Batch *b, const long long *res)
{
    for (int k = 0; k < b->n; k++) {
        b->lcs[k] = (Py_ssize_t)res[k];
    }
}

/* the kernels DEFINE_BATCH_<ISA> defines, by query width (QUERY_WIDTHS) */
#define BATCH_KERNELS(ISA)                                                                     \
    {lcs_batch_##ISA##_1, lcs_batch_##ISA##_2, lcs_batch_##ISA##_3, lcs_batch_##ISA##_4}

/* the 8 lanes' match-table rows r (n words each) turned into n vectors M, M[w] holding word w
 * of every row: two words by 128-bit loads and unpacks, other widths word by word */
__attribute__((target("avx512f,avx512vpopcntdq,popcnt"))) static inline void
lane_words_avx512(__m512i *M, const uint64_t *const *r, int n)
{
    if (n == 2) {
        __m512i lo = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)r[0]));
        __m512i hi = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)r[1]));
        lo = _mm512_inserti32x4(lo, _mm_loadu_si128((const __m128i *)r[2]), 1);
        hi = _mm512_inserti32x4(hi, _mm_loadu_si128((const __m128i *)r[3]), 1);
        lo = _mm512_inserti32x4(lo, _mm_loadu_si128((const __m128i *)r[4]), 2);
        hi = _mm512_inserti32x4(hi, _mm_loadu_si128((const __m128i *)r[5]), 2);
        lo = _mm512_inserti32x4(lo, _mm_loadu_si128((const __m128i *)r[6]), 3);
        hi = _mm512_inserti32x4(hi, _mm_loadu_si128((const __m128i *)r[7]), 3);
        M[0] = _mm512_unpacklo_epi64(lo, hi);
        M[n - 1] = _mm512_unpackhi_epi64(lo, hi);
    }
    else {
        for (int w = 0; w < n; w++) {
            M[w] = _mm512_set_epi64((long long)r[7][w], (long long)r[6][w],
                                    (long long)r[5][w], (long long)r[4][w],
                                    (long long)r[3][w], (long long)r[2][w],
                                    (long long)r[1][w], (long long)r[0][w]);
        }
    }
}

/* AVX-512 (F and VPOPCNTDQ): 8 lanes; N words of the query (1 to 4); the abort check in
 * vectors too (the lanes' LCS by vector popcount), every BATCH_CHECK_AVX512 characters */
#define DEFINE_BATCH_AVX512(N)                                                                 \
    __attribute__((target("avx512f,avx512vpopcntdq,popcnt"))) static void                      \
        lcs_batch_avx512_##N(const Pattern *p, Batch *b, uint8_t pad)                          \
    {                                                                                          \
        BATCH_STAGE(8)                                                                         \
        const __m512i one = _mm512_set1_epi64(1);                                              \
        const __m512i lastm = _mm512_set1_epi64((long long)p->lastmask);                       \
        const __m512i lenv = _mm512_loadu_si512((const void *)lens);                           \
        const __m512i missv = _mm512_loadu_si512((const void *)maxmiss);                       \
        __m512i out = _mm512_set1_epi64(-1);                                                   \
        __m512i S[N];                                                                          \
        for (int w = 0; w < N; w++) {                                                          \
            S[w] = _mm512_set1_epi64(-1);                                                      \
        }                                                                                      \
        __mmask8 alive = (__mmask8)((1 << b->n) - 1);                                          \
        BATCH_CHUNKS(i0, i1, BATCH_CHECK_AVX512) {                                             \
            for (Py_ssize_t i = i0; i < i1; i++) {                                             \
                BATCH_ROWS(r, 8, N)                                                            \
                __m512i M[N];                                                                  \
                lane_words_avx512(M, r, N);                                                    \
                __mmask8 carry = 0;                                                            \
                for (int w = 0; w < N; w++) {                                                  \
                    __m512i u = _mm512_and_si512(S[w], M[w]);                                  \
                    __m512i x = _mm512_add_epi64(S[w], u);                                     \
                    if (w > 0) {                                                               \
                        x = _mm512_mask_add_epi64(x, carry, x, one);                           \
                    }                                                                          \
                    if (w < N - 1) {                                                           \
                        carry = _mm512_cmplt_epu64_mask(x, u) |                                \
                                _mm512_mask_cmpeq_epu64_mask(carry, x, u);                     \
                    }                                                                          \
                    S[w] = _mm512_ternarylogic_epi64(x, S[w], u, 0xF4); /* x | (S & ~u) */     \
                }                                                                              \
            }                                                                                  \
            /* the lanes' LCS so far (bits of the last word past the query masked off) */      \
            __m512i lcs = _mm512_popcnt_epi64(_mm512_andnot_si512(S[N - 1], lastm));           \
            for (int w = 0; w < N - 1; w++) {                                                  \
                lcs = _mm512_add_epi64(lcs, _mm512_popcnt_epi64(_mm512_ternarylogic_epi64(     \
                                                S[w], S[w], S[w], 0x55))); /* ~S */            \
            }                                                                                  \
            __m512i pos = _mm512_min_epi64(_mm512_set1_epi64((long long)i1), lenv);            \
            __mmask8 gone = _mm512_mask_cmpgt_epi64_mask(alive, _mm512_sub_epi64(pos, lcs),    \
                                                         missv);                               \
            __mmask8 fin = (__mmask8)(i1 == maxlen ? alive                                     \
                                                   : _mm512_mask_cmpeq_epi64_mask(alive, pos, lenv)); \
            fin &= (__mmask8)~gone;                                                            \
            out = _mm512_mask_mov_epi64(out, fin, lcs);                                        \
            alive &= (__mmask8) ~(gone | fin);                                                 \
        }                                                                                      \
        long long res[8];                                                                      \
        _mm512_storeu_si512((void *)res, out);                                                 \
        batch_done(b, res);                                                                    \
    }

QUERY_WIDTHS(DEFINE_BATCH_AVX512)

/* popcount of each 64-bit lane: nibbles looked up with a byte shuffle, summed with SAD */
__attribute__((target("avx2"))) static inline __m256i
popcount_avx2(__m256i v)
{
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2,
                                         1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    __m256i lo = _mm256_and_si256(v, low);
    __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
    __m256i cnt = _mm256_add_epi8(_mm256_shuffle_epi8(lut, lo), _mm256_shuffle_epi8(lut, hi));
    return _mm256_sad_epu8(cnt, _mm256_setzero_si256());
}

/* the 4 lanes' match-table rows r (n words each) turned into n vectors M, M[w] holding word w
 * of every row: two words by 128-bit loads and unpacks, other widths word by word */
__attribute__((target("avx2"))) static inline void
lane_words_avx2(__m256i *M, const uint64_t *const *r, int n)
{
    if (n == 2) {
        __m256i lo = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)r[0])),
            _mm_loadu_si128((const __m128i *)r[2]), 1);
        __m256i hi = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)r[1])),
            _mm_loadu_si128((const __m128i *)r[3]), 1);
        M[0] = _mm256_unpacklo_epi64(lo, hi);
        M[n - 1] = _mm256_unpackhi_epi64(lo, hi);
    }
    else {
        for (int w = 0; w < n; w++) {
            M[w] = _mm256_set_epi64x((long long)r[3][w], (long long)r[2][w],
                                     (long long)r[1][w], (long long)r[0][w]);
        }
    }
}

/* AVX2: 4 lanes; no unsigned 64-bit compare, so x < u is compared with the sign bits flipped */
#define DEFINE_BATCH_AVX2(N)                                                                   \
    __attribute__((target("avx2"))) static void lcs_batch_avx2_##N(                            \
        const Pattern *p, Batch *b, uint8_t pad)                                               \
    {                                                                                          \
        BATCH_STAGE(4)                                                                         \
        const __m256i sign = _mm256_set1_epi64x((long long)0x8000000000000000ULL);             \
        __m256i S[N];                                                                          \
        for (int w = 0; w < N; w++) {                                                          \
            S[w] = _mm256_set1_epi64x(-1);                                                     \
        }                                                                                      \
        const __m256i ones = _mm256_set1_epi64x(-1);                                           \
        const __m256i lastm = _mm256_set1_epi64x((long long)p->lastmask);                      \
        const __m256i bitsv = _mm256_set_epi64x(8, 4, 2, 1);                                   \
        const __m256i lenv = _mm256_loadu_si256((const __m256i *)lens);                        \
        const __m256i missv = _mm256_loadu_si256((const __m256i *)maxmiss);                    \
        __m256i out = ones;                                                                    \
        int alive = (1 << b->n) - 1;                                                           \
        BATCH_CHUNKS(i0, i1, BATCH_CHECK_AVX2) {                                               \
            for (Py_ssize_t i = i0; i < i1; i++) {                                             \
                BATCH_ROWS(r, 4, N)                                                            \
                __m256i M[N];                                                                  \
                lane_words_avx2(M, r, N);                                                      \
                __m256i carry = _mm256_setzero_si256(); /* -1 where a carry comes in */        \
                for (int w = 0; w < N; w++) {                                                  \
                    __m256i u = _mm256_and_si256(S[w], M[w]);                                  \
                    __m256i x = _mm256_sub_epi64(_mm256_add_epi64(S[w], u), carry);            \
                    if (w < N - 1) {                                                           \
                        __m256i lt = _mm256_cmpgt_epi64(_mm256_xor_si256(u, sign),             \
                                                        _mm256_xor_si256(x, sign));            \
                        __m256i eq = _mm256_and_si256(carry, _mm256_cmpeq_epi64(x, u));        \
                        carry = _mm256_or_si256(lt, eq);                                       \
                    }                                                                          \
                    S[w] = _mm256_or_si256(x, _mm256_andnot_si256(u, S[w]));                   \
                }                                                                              \
            }                                                                                  \
            __m256i lcs = popcount_avx2(_mm256_andnot_si256(S[N - 1], lastm));                 \
            for (int w = 0; w < N - 1; w++) {                                                  \
                lcs = _mm256_add_epi64(lcs, popcount_avx2(_mm256_andnot_si256(S[w], ones)));   \
            }                                                                                  \
            __m256i iv = _mm256_set1_epi64x((long long)i1);                                    \
            __m256i pos = _mm256_blendv_epi8(iv, lenv, _mm256_cmpgt_epi64(iv, lenv));          \
            int gone = _mm256_movemask_pd(_mm256_castsi256_pd(                                 \
                           _mm256_cmpgt_epi64(_mm256_sub_epi64(pos, lcs), missv))) & alive;    \
            int fin = (i1 == maxlen ? alive                                                    \
                                    : _mm256_movemask_pd(_mm256_castsi256_pd(                  \
                                          _mm256_cmpeq_epi64(pos, lenv))) & alive) & ~gone;    \
            __m256i finv = _mm256_cmpgt_epi64(                                                 \
                _mm256_and_si256(_mm256_set1_epi64x(fin), bitsv), _mm256_setzero_si256());     \
            out = _mm256_blendv_epi8(out, lcs, finv);                                          \
            alive &= ~(gone | fin);                                                            \
        }                                                                                      \
        long long res[4];                                                                      \
        _mm256_storeu_si256((__m256i *)res, out);                                              \
        batch_done(b, res);                                                                    \
    }

QUERY_WIDTHS(DEFINE_BATCH_AVX2)

static void
simd_detect(void)
{
    __builtin_cpu_init();
    simd_max = 0;
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("avx2")) {
        simd_max = 1;
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vpopcntdq")) {
            simd_max = 2;
        }
    }
}

/* the batch kernels by SIMD level (1: AVX2, 2: AVX-512) and query words (1 to 4) */
typedef void (*BatchKernel)(const Pattern *p, Batch *b, uint8_t pad);
static const BatchKernel batch_kernels[2][4] = {
    BATCH_KERNELS(avx2),
    BATCH_KERNELS(avx512),
};

/* LCS of the batch's lanes at the current SIMD level (> 0), query of 1 to 4 words */
static void
lcs_batch(const Pattern *p, Batch *b, uint8_t pad)
{
    Py_ssize_t words = p->words >= 1 && p->words <= 3 ? p->words : 4;
    batch_kernels[simd_level == 2][words - 1](p, b, pad);
}
#else
static void
simd_detect(void)
{
}

static void
lcs_batch(const Pattern *p, Batch *b, uint8_t pad)
{
    (void)p;
    (void)b;
    (void)pad;
}
#endif

/* the most characters of a title of length lb that may miss the LCS for its score to reach
 * thr (>= 0 when the candidate's length bound reaches thr, as it does when it is scored) */
static Py_ssize_t
max_misses(Py_ssize_t lq, Py_ssize_t lb, double thr)
{
    Py_ssize_t top = lq < lb ? lq : lb;
    double want = thr / 100.0 * (double)(lq + lb) / 2.0;
    /* from the floor of the real solution: the loops below make it exact in one or two steps */
    Py_ssize_t need = want > 0.0 ? (Py_ssize_t)want : 0;
    if (need > top) {
        need = top;
    }
    while (need > 0 && ratio_of(lq, lb, need - 1) >= thr) {
        need--;
    }
    while (need <= top && ratio_of(lq, lb, need) < thr) {
        need++;
    }
    return lb - need; /* < 0 only when no LCS reaches thr: every lane is abandoned */
}

typedef struct {
    double score;
    uint32_t id;
} Hit;

static int
hit_cmp(const void *a, const void *b)
{
    const Hit *x = a, *y = b;
    if (x->score > y->score) {
        return -1;
    }
    if (x->score < y->score) {
        return 1;
    }
    return (x->id > y->id) - (x->id < y->id);
}

/* the limit best scores so far, as a min-heap */
static void
heap_push(double *heap, Py_ssize_t *size, Py_ssize_t cap, double v)
{
    if (*size < cap) {
        Py_ssize_t i = (*size)++;
        while (i > 0) {
            Py_ssize_t parent = (i - 1) / 2;
            if (heap[parent] <= v) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = v;
        return;
    }
    if (v <= heap[0]) {
        return;
    }
    Py_ssize_t i = 0, n = *size;
    for (;;) {
        Py_ssize_t l = 2 * i + 1, r = l + 1, m = i;
        double mv = v;
        if (l < n && heap[l] < mv) {
            m = l;
            mv = heap[l];
        }
        if (r < n && heap[r] < mv) {
            m = r;
        }
        if (m == i) {
            break;
        }
        heap[i] = heap[m];
        i = m;
    }
    heap[i] = v;
}

static int
get_ids(PyObject *obj, Py_buffer *view)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (f[0] == '@' || f[0] == '=') {
        f++;
    }
    if (view->itemsize != 4 || (strcmp(f, "I") != 0 && strcmp(f, "L") != 0)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "candidate lists must be array('I')");
        return -1;
    }
    return 0;
}

static int
ensure_entries(TitleTable *self)
{
    if (self->n && self->offsets[self->n] > ENTRY_MAX_OFF) {
        PyErr_SetString(PyExc_OverflowError, "TitleTable: titles beyond 2**40 bytes");
        return -1;
    }
    if (self->entries_cap < self->n) {
        Py_ssize_t cap = self->entries_cap ? self->entries_cap : 64;
        while (cap < self->n) {
            cap *= 2;
        }
        Entry *e = self->entries ? block_grow(self->entries,
                                              sizeof(Entry) * (size_t)self->entries_cap,
                                              sizeof(Entry) * (size_t)self->entries_n,
                                              sizeof(Entry) * (size_t)cap)
                                 : block_alloc(sizeof(Entry) * (size_t)cap);
        if (!e) {
            PyErr_NoMemory();
            return -1;
        }
        self->entries = e;
        self->entries_cap = cap;
    }
    for (Py_ssize_t i = self->entries_n; i < self->n; i++) {
        Py_ssize_t len = title_len(self, i);
        self->entries[i] = (self->offsets[i] << 24) | ((uint64_t)self->kinds[i] << 16) |
                           (uint64_t)(len < ENTRY_LONG ? len : ENTRY_LONG);
    }
    self->entries_n = self->n;
    Py_ssize_t words = (self->n + 31) / 32;
    if (words > self->seen_words) {
        Py_ssize_t cap = self->seen_words ? self->seen_words : 64;
        while (cap < words) {
            cap *= 2;
        }
        uint64_t *seen = PyMem_Realloc(self->seen, sizeof(uint64_t) * (size_t)cap);
        if (!seen) {
            PyErr_NoMemory();
            return -1;
        }
        memset(seen + self->seen_words, 0, sizeof(uint64_t) * (size_t)(cap - self->seen_words));
        self->seen = seen;
        self->seen_words = cap;
    }
    return 0;
}

static inline Py_ssize_t
entry_len(const TitleTable *self, Entry e, uint32_t id)
{
    return ENTRY_LEN(e) != ENTRY_LONG ? ENTRY_LEN(e) : title_len(self, id);
}

static inline const char *
entry_data(const TitleTable *self, Entry e)
{
    return self->buf + ENTRY_OFF(e);
}

/* One grow-only scratch block per table for top()'s arrays (no allocation per call). */
static void *
table_scratch(TitleTable *self, size_t nbytes)
{
    if (nbytes > self->scratch_cap) {
        size_t cap = self->scratch_cap ? self->scratch_cap : 16384;
        while (cap < nbytes) {
            cap *= 2;
        }
        void *p = PyMem_Realloc(self->scratch, cap);
        if (!p) {
            PyErr_NoMemory();
            return NULL;
        }
        self->scratch = p;
        self->scratch_cap = cap;
    }
    return self->scratch;
}

#define ALIGN16(n) (((n) + 15) & ~(size_t)15)

static inline void
prefetch_title(const TitleTable *self, uint32_t id, Py_ssize_t len)
{
#if defined(__GNUC__) || defined(__clang__)
    /* the cache lines of the title's first 256 bytes */
    Entry e = self->entries[id];
    uintptr_t s = (uintptr_t)entry_data(self, e);
    uintptr_t end = s + (uintptr_t)(len < 256 ? len : 256) * (uintptr_t)ENTRY_KIND(e);
    for (uintptr_t line = s & ~(uintptr_t)63; line < end; line += 64) {
        __builtin_prefetch((const void *)line);
    }
#else
    (void)self;
    (void)id;
    (void)len;
#endif
}

/* Zero the words of self->seen that the ids of m[l] (l < nlists) fall in. */
static void
clear_seen(TitleTable *self, const uint32_t *const *ids, const Py_ssize_t *m, Py_ssize_t nlists)
{
    uint64_t *seen = self->seen;
    Py_ssize_t n = self->n;
    for (Py_ssize_t l = 0; l < nlists; l++) {
        for (Py_ssize_t j = 0; j < m[l]; j++) {
            if ((Py_ssize_t)ids[l][j] < n) {
                seen[ids[l][j] >> 5] = 0;
            }
        }
    }
}

/* The candidates of top() into cand: returns how many, or -1 with IndexError set.  They are
 * marked in self->seen, 2 bits per id: in union mode 3 once gathered; in two-of-three mode 1
 * when seen in the first list, 2 when first seen in the second, 3 once gathered (seen in two
 * lists; the third list only reads the marks, but for the ids it gathers).  An id repeated
 * within one list thus counts once, as in PyTitleTable (sets).  The marks are cleared before
 * returning, by the words of the ids that may have set them: the candidates, and in two-of-
 * three mode the first two lists. */
#define MAX_CLEAR_LISTS 8

/* the entry of a candidate found among many ids, fetched while the gathering goes on */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH_ENTRY(id) __builtin_prefetch(&self->entries[id])
#else
#define PREFETCH_ENTRY(id) ((void)0)
#endif

static Py_ssize_t
gather_bitmap(TitleTable *self, const Py_buffer *views, Py_ssize_t nlists, int mode,
              uint32_t *cand)
{
    uint64_t *seen = self->seen;
    Py_ssize_t ncand = 0, n = self->n, l = 0, j = 0;
    for (; l < nlists; l++) {
        const uint32_t *ids = views[l].buf;
        Py_ssize_t m = views[l].len / 4;
        /* the state of an id seen in this list goes from (0 unseen, 1 seen in the first list, 2
         * first seen in the second) to: mode 0 0 -> 3 (gathered); mode 1, list 0: 0 -> 1;
         * list 1: 0 -> 2, 1 -> 3 (gathered); list 2: 1 or 2 -> 3 (gathered) */
        int step = mode == 0 ? 0 : (int)l + 1;
        for (j = 0; j < m; j++) {
            uint32_t id = ids[j];
            if ((Py_ssize_t)id >= n) {
                goto out_of_range;
            }
            uint64_t *w = &seen[id >> 5];
            unsigned sh = (id & 31) * 2;
            unsigned st = (unsigned)(*w >> sh) & 3;
            switch (step) {
            case 0:
                if (!st) {
                    *w |= (uint64_t)3 << sh;
                    cand[ncand++] = id;
                }
                break;
            case 1:
                *w |= (uint64_t)1 << sh;
                break;
            case 2:
                if (st == 1) {
                    *w |= (uint64_t)3 << sh;
                    cand[ncand++] = id;
                    PREFETCH_ENTRY(id);
                }
                else if (!st) {
                    *w |= (uint64_t)2 << sh;
                }
                break;
            default:
                if (st == 1 || st == 2) {
                    *w |= (uint64_t)3 << sh;
                    cand[ncand++] = id;
                    PREFETCH_ENTRY(id);
                }
                break;
            }
        }
    }
    {
        const uint32_t *ids[3] = {cand, mode ? views[0].buf : cand, mode ? views[1].buf : cand};
        Py_ssize_t m[3] = {ncand, mode ? views[0].len / 4 : 0, mode ? views[1].len / 4 : 0};
        clear_seen(self, ids, m, 3);
    }
    return ncand;

out_of_range: /* every word set so far: those of the lists before l and of list l up to j */
    PyErr_SetString(PyExc_IndexError, "candidate id out of range");
    {
        const uint32_t *ids[MAX_CLEAR_LISTS];
        Py_ssize_t m[MAX_CLEAR_LISTS];
        for (Py_ssize_t k = 0; k <= l; k += MAX_CLEAR_LISTS) {
            Py_ssize_t c = 0;
            for (; c < MAX_CLEAR_LISTS && k + c <= l; c++) {
                ids[c] = views[k + c].buf;
                m[c] = k + c < l ? views[k + c].len / 4 : j;
            }
            clear_seen(self, ids, m, c);
        }
    }
    return -1;
}

/* The union of the sorted lists a and b (repeats allowed) into out, ascending, each id once;
 * out is neither of them.  Returns how many. */
static Py_ssize_t
merge_unique(const uint32_t *a, Py_ssize_t ma, const uint32_t *b, Py_ssize_t mb, uint32_t *out)
{
    if (!ma) { /* the one list left as a */
        a = b;
        ma = mb;
        mb = 0;
    }
    if (!ma) {
        return 0;
    }
    /* the first id, then each id differing from the last one kept */
    const uint32_t *ea = a + ma, *eb = b + mb;
    Py_ssize_t n = 0;
    uint32_t last;
    if (mb && *b < *a) {
        last = *b++;
    }
    else {
        last = *a++;
    }
    out[n++] = last;
    if (mb) {
        while (a < ea && b < eb) {
            uint32_t x = *a <= *b ? *a : *b;
            a += *a == x;
            b += *b == x;
            out[n] = x;
            n += x != last;
            last = x;
        }
        if (a == ea) {
            a = b;
            ea = eb;
        }
    }
    for (; a < ea; a++) {
        out[n] = *a;
        n += *a != last;
        last = *a;
    }
    return n;
}

/* The union of posting lists sorted ascending (repeats allowed), as the catalog's are, into
 * cand: ids ascending, each once (tmp, as large as cand, holds every other partial union when
 * there are more lists than two).  Returns how many, -1 with IndexError set for an id out of
 * range, or -2 (nothing done) for a list not sorted or more than MERGE_MAX_LISTS lists: the
 * caller gathers with gather_bitmap() then.  Measured on the resolver workload (CPU time per
 * call): one or two lists merged 2.5% faster than the bitmap at 1M papers (even at 200k);
 * three or four merged two at a time 3% slower at 200k, so they take the bitmap.  Two of three
 * lists always take the bitmap: where they hold ~4000 ids for ~170 candidates (1M papers), a
 * three-way merge of the sorted lists took twice the bitmap's time and branch-free pairwise
 * intersections 1.4 times. */
#define MERGE_MAX_LISTS 2

static Py_ssize_t
gather_sorted_union(TitleTable *self, const Py_buffer *views, Py_ssize_t nlists,
                    uint32_t *cand, uint32_t *tmp)
{
    if (nlists < 1 || nlists > MERGE_MAX_LISTS) {
        return -2;
    }
    for (Py_ssize_t l = 0; l < nlists; l++) {
        const uint32_t *a = views[l].buf;
        Py_ssize_t m = views[l].len / 4;
        uint32_t unsorted = 0;
        for (Py_ssize_t j = 1; j < m; j++) {
            unsorted |= a[j] < a[j - 1];
        }
        if (unsorted) {
            return -2;
        }
    }
    for (Py_ssize_t l = 0; l < nlists; l++) {
        const uint32_t *a = views[l].buf;
        Py_ssize_t m = views[l].len / 4;
        if (m && (Py_ssize_t)a[m - 1] >= self->n) {
            PyErr_SetString(PyExc_IndexError, "candidate id out of range");
            return -1;
        }
    }
    /* nlists - 1 merges (one for a single list), the last one into cand */
    Py_ssize_t merges = nlists > 1 ? nlists - 1 : 1;
    uint32_t *out = merges % 2 ? cand : tmp, *other = merges % 2 ? tmp : cand;
    Py_ssize_t n = merge_unique(views[0].buf, views[0].len / 4,
                                nlists > 1 ? views[1].buf : NULL,
                                nlists > 1 ? views[1].len / 4 : 0, out);
    for (Py_ssize_t l = 2; l < nlists; l++) {
        uint32_t *prev = out;
        out = other;
        other = prev;
        n = merge_unique(prev, n, views[l].buf, views[l].len / 4, out);
    }
    return n;
}

static PyObject *
TitleTable_top(TitleTable *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"query", "lists", "mode", "limit", "cutoff", "window", NULL};
    PyObject *query, *lists;
    int mode;
    Py_ssize_t limit;
    double cutoff, window;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "UOindd:top", kwlist, &query, &lists, &mode,
                                     &limit, &cutoff, &window)) {
        return NULL;
    }
    if (mode != 0 && mode != 1) {
        PyErr_Format(PyExc_ValueError, "mode must be 0 (union) or 1 (two of three), not %d", mode);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(lists, "lists must be a sequence of array('I')");
    if (!seq) {
        return NULL;
    }
    Py_ssize_t nlists = PySequence_Fast_GET_SIZE(seq);
    if (mode == 1 && nlists != 3) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "mode 1 takes exactly three lists, not %zd", nlists);
        return NULL;
    }
    PyObject *result = NULL;
    Py_buffer views_small[8];
    Py_buffer *views = nlists <= 8 ? views_small
                                   : PyMem_Calloc((size_t)nlists, sizeof(Py_buffer));
    Py_ssize_t got = 0, total = 0;
    if (!views) {
        PyErr_NoMemory();
        goto done;
    }
    for (; got < nlists; got++) {
        if (get_ids(PySequence_Fast_GET_ITEM(seq, got), &views[got]) < 0) {
            goto done;
        }
        total += views[got].len / 4;
    }
    if (!total) {
        result = PyList_New(0);
        goto done;
    }
    /* the scratch block: cand, by_len, clen (uint32), obound, heap (double), hits, buckets */
    size_t nt = (size_t)total;
    size_t heap_n = (size_t)(limit > 0 && limit < total ? limit : total);
    size_t off_by_len = ALIGN16(nt * 4), off_clen = off_by_len + ALIGN16(nt * 4);
    size_t off_obound = off_clen + ALIGN16(nt * 4), off_heap = off_obound + ALIGN16(nt * 8);
    size_t off_hits = off_heap + ALIGN16(heap_n * 8), off_bucket = off_hits + ALIGN16(nt * sizeof(Hit));
    size_t scratch_len = off_bucket + sizeof(Py_ssize_t) * ((size_t)self->max_len + 2);
    char *scratch = table_scratch(self, scratch_len);
    if (!scratch || ensure_entries(self) < 0) {
        goto done;
    }
    uint32_t *cand = (uint32_t *)scratch;
    uint32_t *by_len = (uint32_t *)(scratch + off_by_len);
    uint32_t *clen = (uint32_t *)(scratch + off_clen);
    double *obound = (double *)(scratch + off_obound);
    double *heap = (double *)(scratch + off_heap);
    Hit *hits = (Hit *)(scratch + off_hits);
    Py_ssize_t *bucket_start = (Py_ssize_t *)(scratch + off_bucket);

    /* candidates: the union, or the ids in at least two of the three lists */
    Entry *entries = self->entries;
    Py_ssize_t ncand = mode == 0 ? gather_sorted_union(self, views, nlists, cand, by_len) : -2;
    if (ncand == -2) {
        ncand = gather_bitmap(self, views, nlists, mode, cand);
    }
    if (ncand < 0) {
        goto done;
    }
    if (!ncand) {
        result = PyList_New(0);
        goto done;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(query) < 0) {
        goto done;
    }
#endif
    Pattern *pat = &self->pat;
    if (pattern_build(pat, query) < 0) {
        goto done;
    }
    Py_ssize_t lq = pat->len;

    /* order the candidates by their length bound, best first: bucket them by length, then
     * merge the lengths below lq (bound rising with the length) and above (falling) */
    Py_ssize_t lo = PY_SSIZE_T_MAX, hi = 0;
    for (Py_ssize_t j = 0; j < ncand; j++) {
        uint32_t id = cand[j];
#if defined(__GNUC__) || defined(__clang__)
        if (j + ENTRY_AHEAD < ncand) {
            __builtin_prefetch(&entries[cand[j + ENTRY_AHEAD]]);
        }
#endif
        Py_ssize_t lb = entry_len(self, entries[id], id);
        clen[j] = (uint32_t)lb;
        if (lb < lo) {
            lo = lb;
        }
        if (lb > hi) {
            hi = lb;
        }
    }
    Py_ssize_t span = hi - lo + 1;
    memset(bucket_start, 0, sizeof(Py_ssize_t) * (size_t)(span + 1));
    for (Py_ssize_t j = 0; j < ncand; j++) {
        bucket_start[clen[j] - lo + 1]++;
    }
    for (Py_ssize_t b = 0; b < span; b++) {
        bucket_start[b + 1] += bucket_start[b];
    }
    for (Py_ssize_t j = 0; j < ncand; j++) {
        by_len[bucket_start[clen[j] - lo]++] = cand[j];
    }
    /* bucket_start[b] is now the end of bucket b; bucket b starts at bucket_start[b - 1] */

    double cut = (double)(float)cutoff; /* RapidFuzz compares the score with a float32 cutoff */
    Py_ssize_t heap_cap = limit > 0 ? limit : 0;
    Py_ssize_t heap_size = 0, nhits = 0;
    double best = 0.0;
    int have_best = 0;
    /* the candidates in descending order of their length bound: merge the lengths <= lq
     * walked downwards (bound falling) with the lengths > lq walked upwards (falling too);
     * clen[] now holds the length of cand[] in that order */
    Py_ssize_t norder = 0;
    Py_ssize_t down = (lq < hi ? lq : hi), up = (lq + 1 > lo ? lq + 1 : lo);
    for (;;) {
        while (down >= lo && (down - lo == 0 ? bucket_start[0] : bucket_start[down - lo] -
                                                                   bucket_start[down - lo - 1]) == 0) {
            down--;
        }
        while (up <= hi && (up - lo == 0 ? bucket_start[0] : bucket_start[up - lo] -
                                                               bucket_start[up - lo - 1]) == 0) {
            up++;
        }
        int has_down = down >= lo, has_up = up <= hi;
        if (!has_down && !has_up) {
            break;
        }
        double bd = has_down ? ratio_of(lq, down, down < lq ? down : lq) : -1.0;
        double bu = has_up ? ratio_of(lq, up, up < lq ? up : lq) : -1.0;
        Py_ssize_t lb;
        double bound;
        if (has_down && (!has_up || bd >= bu)) {
            lb = down--;
            bound = bd;
        }
        else {
            lb = up++;
            bound = bu;
        }
        Py_ssize_t b = lb - lo;
        for (Py_ssize_t j = b ? bucket_start[b - 1] : 0; j < bucket_start[b]; j++) {
            cand[norder] = by_len[j];
            clen[norder] = (uint32_t)lb;
            obound[norder++] = bound;
        }
    }
    /* score them until the bound falls below the running threshold */
#define RECORD(S, ID)                                                                          \
    do {                                                                                       \
        double s_ = (S);                                                                       \
        if (s_ >= cut) {                                                                       \
            hits[nhits].score = s_;                                                            \
            hits[nhits].id = (ID);                                                             \
            nhits++;                                                                           \
            if (heap_cap) {                                                                    \
                heap_push(heap, &heap_size, heap_cap, s_);                                     \
            }                                                                                  \
            if (!have_best || s_ > best) {                                                     \
                best = s_;                                                                     \
                have_best = 1;                                                                 \
            }                                                                                  \
        }                                                                                      \
    } while (0)
    Py_ssize_t pf = 0; /* candidates up to here have had their titles prefetched */
    int zero_byte = pat->words >= 1 && pat->words <= 4 && simd_level ? pat->zero_byte : -1;
    int use_simd = zero_byte >= 0;
    int lanes = simd_level == 2 ? 8 : 4;
    Py_ssize_t memo_len = -1, memo_miss = 0; /* max_misses() of the last length and thr */
    double memo_thr = 0.0;
    for (Py_ssize_t j = 0; j < norder;) {
        double thr = cut;
        if (heap_cap && heap_size == heap_cap && heap[0] > thr) {
            thr = heap[0];
        }
        if (have_best && best - window > thr) {
            thr = best - window;
        }
        if (obound[j] < thr) {
            break; /* every remaining bound is at most this one */
        }
        for (; pf < norder && pf < j + PREFETCH_AHEAD; pf++) {
            prefetch_title(self, cand[pf], clen[pf]);
        }
        if (use_simd) {
            /* the next Latin-1 candidates that may reach thr, one per lane */
            Batch batch;
            Py_ssize_t k = j;
            batch.n = 0;
            while (batch.n < lanes && k < norder && obound[k] >= thr && ENTRY_KIND(entries[cand[k]]) == 1 &&
                   clen[k] <= BATCH_MAX_LEN) {
                batch.s[batch.n] = (const uint8_t *)entry_data(self, entries[cand[k]]);
                batch.len[batch.n] = clen[k];
                if (clen[k] != memo_len || thr != memo_thr) {
                    memo_len = clen[k];
                    memo_thr = thr;
                    memo_miss = max_misses(lq, memo_len, thr);
                }
                batch.maxmiss[batch.n] = early_abort ? memo_miss : clen[k];
                batch.n++;
                k++;
            }
            if (batch.n >= 2) {
                lcs_batch(pat, &batch, (uint8_t)zero_byte);
                for (int l = 0; l < batch.n; l++) {
                    /* below thr when it misses more than maxmiss: dropped like an abandoned
                     * lane without computing its score */
                    if (batch.lcs[l] >= 0 && batch.len[l] - batch.lcs[l] <= batch.maxmiss[l]) {
                        RECORD(ratio_of(lq, batch.len[l], batch.lcs[l]), cand[j + l]);
                    }
                }
                j = k;
                continue;
            }
        }
        uint32_t id = cand[j];
        Py_ssize_t la = clen[j];
        if (j + 1 < norder && pat->words >= 1 && pat->words <= 4 && ENTRY_KIND(entries[id]) == 1 &&
            ENTRY_KIND(entries[cand[j + 1]]) == 1) {
            /* two Latin-1 candidates at a time where the query fits in four words (independent
             * dependency chains); scoring one more candidate than needed is harmless: hits are
             * filtered at the end */
            uint32_t id2 = cand[j + 1];
            Py_ssize_t lb2 = clen[j + 1], lcs1, lcs2;
            const uint8_t *s1 = (const uint8_t *)entry_data(self, entries[id]);
            const uint8_t *s2 = (const uint8_t *)entry_data(self, entries[id2]);
            Py_ssize_t m1 = la, m2 = lb2; /* no abandoning */
            if (early_abort) {
                m1 = max_misses(lq, la, thr);
                m2 = lb2 == la ? m1 : max_misses(lq, lb2, thr);
            }
            switch (pat->words) {
            case 1:
                lcs_pair_u8_1(pat, s1, la, m1, s2, lb2, m2, &lcs1, &lcs2);
                break;
            case 2:
                lcs_pair_u8_2(pat, s1, la, m1, s2, lb2, m2, &lcs1, &lcs2);
                break;
            case 3:
                lcs_pair_u8_3(pat, s1, la, m1, s2, lb2, m2, &lcs1, &lcs2);
                break;
            default:
                lcs_pair_u8_4(pat, s1, la, m1, s2, lb2, m2, &lcs1, &lcs2);
                break;
            }
            /* abandoned, or missing more than maxmiss: below thr (dropped, see the batches) */
            if (lcs1 >= 0 && la - lcs1 <= m1) {
                RECORD(ratio_of(lq, la, lcs1), id);
            }
            if (lcs2 >= 0 && lb2 - lcs2 <= m2) {
                RECORD(ratio_of(lq, lb2, lcs2), id2);
            }
            j += 2;
            continue;
        }
        RECORD(ratio_of(lq, la, lcs_length(pat, ENTRY_KIND(entries[id]), entry_data(self, entries[id]), la)),
               id);
        j++;
    }
#undef RECORD
    /* the hits below the final floors dropped before sorting (the rule below would drop them):
     * the limit-th best score (the heap's least once it holds limit scores) and the best minus
     * window (NaN drops all, as there) */
    if (nhits) {
        int full = heap_cap && heap_size == heap_cap;
        double lim_floor = full ? heap[0] : 0.0, win_floor = best - window;
        Py_ssize_t kept = 0;
        for (Py_ssize_t j = 0; j < nhits; j++) {
            double sc = hits[j].score;
            if ((!full || sc >= lim_floor) && sc >= win_floor) {
                hits[kept++] = hits[j];
            }
        }
        nhits = kept;
    }
    qsort(hits, (size_t)nhits, sizeof(Hit), hit_cmp);
    Py_ssize_t keep = nhits;
    if (nhits > limit && limit > 0) {
        double floor = hits[limit - 1].score;
        while (keep > limit && hits[keep - 1].score < floor) {
            keep--;
        }
    }
    if (keep) {
        double floor = hits[0].score - window;
        while (keep > 0 && !(hits[keep - 1].score >= floor)) {
            keep--;
        }
    }
    result = PyList_New(keep);
    if (!result) {
        goto done;
    }
    for (Py_ssize_t j = 0; j < keep; j++) {
        PyObject *score = PyFloat_FromDouble(hits[j].score);
        PyObject *id = score ? PyLong_FromUnsignedLong(hits[j].id) : NULL;
        PyObject *pair = id ? PyTuple_New(2) : NULL;
        if (!pair) {
            Py_XDECREF(score);
            Py_XDECREF(id);
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(pair, 0, score);
        PyTuple_SET_ITEM(pair, 1, id);
        PyList_SET_ITEM(result, j, pair);
    }

done:
    for (Py_ssize_t l = 0; l < got; l++) {
        PyBuffer_Release(&views[l]);
    }
    if (views != views_small) {
        PyMem_Free(views);
    }
    Py_DECREF(seq);
    return result;
}

static PyObject *
TitleTable_sizeof(TitleTable *self, PyObject *Py_UNUSED(ignored))
{
    size_t size = (size_t)Py_TYPE(self)->tp_basicsize + sizeof(uint64_t) * (size_t)(self->cap + 1) +
                  (size_t)self->cap + self->buf_cap +
                  sizeof(Entry) * (size_t)self->entries_cap + self->scratch_cap +
                  sizeof(uint64_t) * (size_t)self->seen_words +
                  sizeof(uint64_t) * 257 * (size_t)self->pat.cap_words + self->pat.qcap +
                  (sizeof(uint32_t) + sizeof(uint64_t) * (size_t)self->pat.words) * (size_t)self->pat.hcap;
    return PyLong_FromSize_t(size);
}

static PyMethodDef TitleTable_methods[] = {
    {"append", (PyCFunction)TitleTable_append, METH_O, "Add one title (a str)."},
    {"top", (PyCFunction)(void (*)(void))TitleTable_top, METH_VARARGS | METH_KEYWORDS,
     "top(query, lists, mode, limit, cutoff, window) -> list of (score, id), best first."},
    {"__reduce__", (PyCFunction)TitleTable_reduce, METH_NOARGS, "Pickle support."},
    {"_state", (PyCFunction)TitleTable_state, METH_NOARGS,
     "The table as (kinds, offsets, buffer, byteorder)."},
    {"_from_state", (PyCFunction)TitleTable_from_state, METH_VARARGS | METH_CLASS,
     "A table from _state()."},
    {"__sizeof__", (PyCFunction)TitleTable_sizeof, METH_NOARGS, "Size in memory, in bytes."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods TitleTable_as_sequence = {
    .sq_length = (lenfunc)TitleTable_len,
    .sq_item = (ssizeargfunc)TitleTable_item,
};

static PyTypeObject TitleTableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "citeledger.resolve._titlekernel.TitleTable",
    .tp_doc = PyDoc_STR("Catalog titles in one compact buffer, scored with fuzz.ratio in C."),
    .tp_basicsize = sizeof(TitleTable),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = TitleTable_new,
    .tp_init = (initproc)TitleTable_init,
    .tp_dealloc = (destructor)TitleTable_dealloc,
    .tp_methods = TitleTable_methods,
    .tp_as_sequence = &TitleTable_as_sequence,
};

static int
simd_by_name(const char *name)
{
    for (int l = 0; l < 3; l++) {
        if (strcmp(name, simd_names[l]) == 0) {
            return l;
        }
    }
    return -1;
}

static PyObject *
mod_simd_levels(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored))
{
    PyObject *levels = PyTuple_New(simd_max + 1);
    if (!levels) {
        return NULL;
    }
    for (int l = 0; l <= simd_max; l++) {
        PyObject *name = PyUnicode_FromString(simd_names[l]);
        if (!name) {
            Py_DECREF(levels);
            return NULL;
        }
        PyTuple_SET_ITEM(levels, l, name);
    }
    return levels;
}

static PyObject *
mod_get_simd(PyObject *Py_UNUSED(m), PyObject *Py_UNUSED(ignored))
{
    return PyUnicode_FromString(simd_names[simd_level]);
}

static PyObject *
mod_set_simd(PyObject *Py_UNUSED(m), PyObject *arg)
{
    const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
    if (!name) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "the SIMD level is a str");
        }
        return NULL;
    }
    int level = simd_by_name(name);
    if (level < 0 || level > simd_max) {
        PyErr_Format(PyExc_ValueError, "SIMD level %R is not one of simd_levels()", arg);
        return NULL;
    }
    simd_level = level;
    Py_RETURN_NONE;
}

static PyObject *
mod_set_early_abort(PyObject *Py_UNUSED(m), PyObject *arg)
{
    int on = PyObject_IsTrue(arg);
    if (on < 0) {
        return NULL;
    }
    early_abort = on;
    Py_RETURN_NONE;
}

/* blocking_lists(postings, tokens, max_df, block_tokens, scan_budget): the choice of
 * Catalog._blocking_lists (catalog.py, which documents it) once the title's tokens are known, in
 * one call: the distinct tokens found in ``postings`` with at most ``max_df`` ids, ordered by
 * (document frequency, token), then the union of the rarest lists within the scan budget, or two
 * of the three rarest.  Returns (lists, mode) or None, exactly as the Python method does (a test
 * compares them); the Python method is used when this module is absent. */
typedef struct {
    Py_ssize_t df;
    PyObject *tok; /* borrowed: an exact str */
    PyObject *arr; /* borrowed */
} Known;

static int
known_cmp(const void *pa, const void *pb)
{
    const Known *a = (const Known *)pa, *b = (const Known *)pb;
    if (a->df != b->df) {
        return a->df < b->df ? -1 : 1;
    }
    /* two exact str: PyUnicode_Compare cannot fail (code point order, as Python's <) */
    return PyUnicode_Compare(a->tok, b->tok);
}

static PyObject *
mod_blocking_lists(PyObject *Py_UNUSED(m), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "blocking_lists(postings, tokens, max_df, block_tokens, scan_budget)");
        return NULL;
    }
    PyObject *postings = args[0];
    if (!PyDict_CheckExact(postings)) {
        PyErr_SetString(PyExc_TypeError, "blocking_lists: postings must be a dict");
        return NULL;
    }
    Py_ssize_t max_df = PyLong_AsSsize_t(args[2]);
    Py_ssize_t block_tokens = PyLong_AsSsize_t(args[3]);
    Py_ssize_t budget = PyLong_AsSsize_t(args[4]);
    if ((max_df == -1 || block_tokens == -1 || budget == -1) && PyErr_Occurred()) {
        return NULL;
    }
    if (block_tokens < 1) {
        PyErr_SetString(PyExc_ValueError, "blocking_lists: block_tokens must be at least 1");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[1], "blocking_lists: tokens must be a sequence");
    if (!seq) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    Known stack_known[32];
    Known *known = stack_known;
    if (n > 32) {
        known = PyMem_Malloc(sizeof(Known) * (size_t)n);
        if (!known) {
            Py_DECREF(seq);
            return PyErr_NoMemory();
        }
    }
    PyObject *result = NULL;
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *tok = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyUnicode_CheckExact(tok)) {
            PyErr_SetString(PyExc_TypeError, "blocking_lists: tokens must be str");
            goto done;
        }
        PyObject *arr = PyDict_GetItemWithError(postings, tok);
        if (!arr) {
            if (PyErr_Occurred()) {
                goto done;
            }
            continue;
        }
        Py_ssize_t df = PyObject_Length(arr);
        if (df < 0) {
            goto done;
        }
        if (df > max_df) {
            continue;
        }
        known[k].df = df;
        known[k].tok = tok;
        known[k].arr = arr;
        k++;
    }
    if (k == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    qsort(known, (size_t)k, sizeof(Known), known_cmp);
    /* set(tokens): a repeated token is one (equal tokens sort next to each other) */
    Py_ssize_t d = 1;
    for (Py_ssize_t i = 1; i < k; i++) {
        if (PyUnicode_Compare(known[i].tok, known[d - 1].tok) != 0) {
            known[d++] = known[i];
        }
    }
    Py_ssize_t chosen = d < block_tokens ? d : block_tokens;
    Py_ssize_t take = chosen; /* how many of the chosen lists are returned */
    long mode = 0;
    if (chosen > 1) {
        if (known[0].df <= budget) {
            Py_ssize_t total = known[0].df;
            take = 1;
            while (take < chosen) {
                total += known[take].df;
                if (total > budget) {
                    break;
                }
                take++;
            }
        }
        else if (chosen > 2) {
            take = 3;
            mode = 1;
        }
    }
    PyObject *lists = PyList_New(take);
    if (!lists) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < take; i++) {
        PyList_SET_ITEM(lists, i, Py_NewRef(known[i].arr));
    }
    result = Py_BuildValue("(Nl)", lists, mode);
done:
    if (known != stack_known) {
        PyMem_Free(known);
    }
    Py_DECREF(seq);
    return result;
}

static PyMethodDef titlekernel_functions[] = {
    {"simd_levels", mod_simd_levels, METH_NOARGS,
     "The SIMD levels this CPU and build support: ('scalar', ['avx2', ['avx512']])."},
    {"get_simd", mod_get_simd, METH_NOARGS, "The SIMD level top() uses."},
    {"set_simd", mod_set_simd, METH_O,
     "Use this SIMD level (one of simd_levels()); the results are the same at every level."},
    {"blocking_lists", (PyCFunction)(void (*)(void))mod_blocking_lists, METH_FASTCALL,
     "Catalog._blocking_lists once the title's tokens are known: (lists, mode) or None."},
    {"_set_early_abort", mod_set_early_abort, METH_O,
     "Whether SIMD batches abandon candidates that cannot reach the threshold (for tests)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef titlekernel_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "citeledger.resolve._titlekernel",
    .m_doc = "The compiled TitleTable of citeledger.resolve._titles.",
    .m_size = -1,
    .m_methods = titlekernel_functions,
};

PyMODINIT_FUNC
PyInit__titlekernel(void)
{
    if (PyType_Ready(&TitleTableType) < 0) {
        return NULL;
    }
    /* the best SIMD level of this CPU, or the one CITELEDGER_TITLEKERNEL_SIMD names (scalar,
     * avx2 or avx512; capped at what the CPU supports, other values ignored) */
    simd_detect();
    simd_level = simd_max;
    const char *want = getenv("CITELEDGER_TITLEKERNEL_SIMD");
    if (want && simd_by_name(want) >= 0 && simd_by_name(want) < simd_max) {
        simd_level = simd_by_name(want);
    }
    PyObject *m = PyModule_Create(&titlekernel_module);
    if (!m) {
        return NULL;
    }
    Py_INCREF(&TitleTableType);
    if (PyModule_AddObject(m, "TitleTable", (PyObject *)&TitleTableType) < 0) {
        Py_DECREF(&TitleTableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
