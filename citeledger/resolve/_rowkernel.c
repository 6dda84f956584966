/*
 * citeledger.resolve._rowkernel: the compiled steps of Catalog.from_records' bulk loop (see
 * _rows.py, whose PyTitleIndex and _fold are the pure-Python contract this module matches;
 * tests/resolve/test_rowkernel.py builds catalogs both ways and compares them).
 *
 * - fold(value, other): Paper's conversion of a title, volume or page range.  For an ASCII str
 *   this is " ".join(value.split()) when that differs from value (None when it is empty), else
 *   value itself; any other value is other(value).
 * - TitleIndex: a catalog's title indexes for a batch of papers.  add(title, pid) appends the
 *   normalised title and its word-sorted form (the catalog's _normalized list and title table)
 *   and adds pid to the posting list of each of the title's tokens, for None, "" and any ASCII
 *   title without markup ('<') or entities ('&'); it returns False for any other title, which
 *   the caller indexes in Python and whose tokens it passes to add_tokens(tokens, pid).  The
 *   posting lists are kept here (one growable uint32 vector per token, in a hash table keyed by
 *   the token's PEP 393 kind and bytes) and merged into the catalog's dict of array('I') by
 *   finish(): each list in ascending pid order, merged with any list the dict holds already
 *   (papers the caller indexed itself), so the dict is the one appending pids one at a time
 *   would have built.
 *
 * ASCII normalisation (normalize_text of an ASCII title without '<' and '&'): letters and
 * digits lower-cased, every other character a space, words joined by one space.  Tokens are
 * the distinct words that are not in the drop set given to TitleIndex (stopwords and
 * one-character words).  Words sort as Python sorts ASCII str: bytewise, a prefix first.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* ASCII whitespace as str.split() sees it: \t \n \v \f \r, \x1c-\x1f and space. */
static int
is_space(unsigned char c)
{
    return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31);
}

/* ASCII letters and digits lower-cased, anything else (and any byte >= 128) 0 (a separator). */
static unsigned char fold_table[256];

static void
init_fold_table(void)
{
    for (int c = 0; c < 256; c++) {
        unsigned char v = 0;
        if (c >= '0' && c <= '9')
            v = (unsigned char)c;
        else if (c >= 'a' && c <= 'z')
            v = (unsigned char)c;
        else if (c >= 'A' && c <= 'Z')
            v = (unsigned char)(c - 'A' + 'a');
        fold_table[c] = v;
    }
}

/* ------------------------------------------------------------------------------------ fold */

static PyObject *
rowkernel_fold(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "fold() takes exactly 2 arguments (value, other)");
        return NULL;
    }
    PyObject *value = args[0];
    if (!PyUnicode_CheckExact(value) || !PyUnicode_IS_ASCII(value))
        return PyObject_CallOneArg(args[1], value);
    Py_ssize_t n = PyUnicode_GET_LENGTH(value);
    const unsigned char *s = PyUnicode_1BYTE_DATA(value);
    int clean = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (is_space(c) &&
            (c != ' ' || i == 0 || i == n - 1 || s[i - 1] == ' ')) {
            clean = 0;
            break;
        }
    }
    if (clean)
        return Py_NewRef(value);
    /* collapse: words joined by one space */
    Py_ssize_t len = 0, i = 0;
    int first = 1;
    while (i < n) {
        while (i < n && is_space(s[i]))
            i++;
        if (i == n)
            break;
        Py_ssize_t j = i;
        while (j < n && !is_space(s[j]))
            j++;
        len += (j - i) + (first ? 0 : 1);
        first = 0;
        i = j;
    }
    if (len == 0)
        Py_RETURN_NONE;
    PyObject *out = PyUnicode_New(len, 127);
    if (out == NULL)
        return NULL;
    unsigned char *d = PyUnicode_1BYTE_DATA(out);
    Py_ssize_t k = 0;
    i = 0;
    while (i < n) {
        while (i < n && is_space(s[i]))
            i++;
        if (i == n)
            break;
        if (k)
            d[k++] = ' ';
        while (i < n && !is_space(s[i]))
            d[k++] = s[i++];
    }
    return out;
}

/* ------------------------------------------------------------------------------ TitleIndex */

typedef struct {
    uint64_t hash;
    size_t key_off;   /* into the key arena */
    size_t key_len;   /* bytes */
    uint32_t *pids;
    uint32_t n, cap;
    unsigned char kind;    /* PEP 393 kind of the token */
    unsigned char dropped; /* a stopword: not indexed by the ASCII path */
} Entry;

typedef struct {
    const unsigned char *p;
    Py_ssize_t len;
} Word;

typedef struct {
    PyObject_HEAD
    PyObject *normalized;   /* list: the catalog's normalised titles */
    PyObject *titles;       /* callable: the title table's append */
    PyObject *postings;     /* dict: token -> array('I') (merged into by finish) */
    Entry *entries;
    size_t n_entries, cap_entries;
    uint32_t *slots;        /* entry index + 1, 0 for empty; size mask + 1 (a power of 2) */
    size_t mask;
    char *keys;
    size_t keys_len, keys_cap;
    /* scratch for one title */
    unsigned char *buf;
    Word *words, *sorted;
    Py_ssize_t scratch_cap;
} TitleIndex;

static PyObject *array_type; /* array.array */

static uint64_t
hash_key(unsigned char kind, const unsigned char *p, size_t len)
{
    uint64_t h = 1469598103934665603ULL ^ kind;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h ^ (h >> 29);
}

static int
grow_slots(TitleIndex *self)
{
    size_t size = self->slots == NULL ? 1024 : (self->mask + 1) * 2;
    uint32_t *slots = PyMem_Calloc(size, sizeof(uint32_t));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    size_t mask = size - 1;
    for (size_t e = 0; e < self->n_entries; e++) {
        size_t i = (size_t)self->entries[e].hash & mask;
        while (slots[i])
            i = (i + 1) & mask;
        slots[i] = (uint32_t)(e + 1);
    }
    PyMem_Free(self->slots);
    self->slots = slots;
    self->mask = mask;
    return 0;
}

/* The entry of a token, added when missing; NULL with an exception set on failure. */
static Entry *
find_entry(TitleIndex *self, unsigned char kind, const unsigned char *p, size_t len)
{
    if (self->slots == NULL || (self->n_entries + 1) * 2 > self->mask + 1) {
        if (self->n_entries >= UINT32_MAX - 1) {
            PyErr_SetString(PyExc_OverflowError, "too many distinct title tokens");
            return NULL;
        }
        if (grow_slots(self) < 0)
            return NULL;
    }
    uint64_t h = hash_key(kind, p, len);
    size_t i = (size_t)h & self->mask;
    uint32_t slot;
    while ((slot = self->slots[i]) != 0) {
        Entry *e = &self->entries[slot - 1];
        if (e->hash == h && e->kind == kind && e->key_len == len &&
            memcmp(self->keys + e->key_off, p, len) == 0)
            return e;
        i = (i + 1) & self->mask;
    }
    if (self->n_entries == self->cap_entries) {
        size_t cap = self->cap_entries ? self->cap_entries * 2 : 1024;
        Entry *entries = PyMem_Realloc(self->entries, cap * sizeof(Entry));
        if (entries == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        self->entries = entries;
        self->cap_entries = cap;
    }
    if (self->keys_len + len > self->keys_cap) {
        size_t cap = self->keys_cap ? self->keys_cap : 4096;
        while (self->keys_len + len > cap)
            cap *= 2;
        char *keys = PyMem_Realloc(self->keys, cap);
        if (keys == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        self->keys = keys;
        self->keys_cap = cap;
    }
    if (len)
        memcpy(self->keys + self->keys_len, p, len);
    Entry *e = &self->entries[self->n_entries];
    e->hash = h;
    e->key_off = self->keys_len;
    e->key_len = len;
    e->pids = NULL;
    e->n = e->cap = 0;
    e->kind = kind;
    e->dropped = 0;
    self->keys_len += len;
    self->n_entries++;
    self->slots[i] = (uint32_t)self->n_entries;
    return e;
}

static int
entry_append(Entry *e, uint32_t pid)
{
    if (e->n == e->cap) {
        if (e->cap >= UINT32_MAX / 2) {
            PyErr_SetString(PyExc_OverflowError, "posting list too long");
            return -1;
        }
        uint32_t cap = e->cap ? e->cap * 2 : 4;
        uint32_t *pids = PyMem_Realloc(e->pids, (size_t)cap * sizeof(uint32_t));
        if (pids == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        e->pids = pids;
        e->cap = cap;
    }
    e->pids[e->n++] = pid;
    return 0;
}

static int
pid_of(PyObject *obj, uint32_t *pid)
{
    unsigned long v = PyLong_AsUnsignedLong(obj);
    if (v == (unsigned long)-1 && PyErr_Occurred())
        return -1;
    if (v > UINT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "paper id is greater than the maximum of array('I')");
        return -1;
    }
    *pid = (uint32_t)v;
    return 0;
}

/* The Python objects a TitleIndex holds, each given to EACH (Py_VISIT, Py_CLEAR): the one list
 * the collector's traverse and clear share. */
#define TITLEINDEX_OBJECTS(EACH)                                                               \
    EACH(self->normalized);                                                                    \
    EACH(self->titles);                                                                        \
    EACH(self->postings)

static int
TitleIndex_traverse(TitleIndex *self, visitproc visit, void *arg)
{
    TITLEINDEX_OBJECTS(Py_VISIT);
    return 0;
}

static int
TitleIndex_clear(TitleIndex *self)
{
    TITLEINDEX_OBJECTS(Py_CLEAR);
    return 0;
}

static void
free_store(TitleIndex *self)
{
    for (size_t e = 0; e < self->n_entries; e++)
        PyMem_Free(self->entries[e].pids);
    PyMem_Free(self->entries);
    PyMem_Free(self->slots);
    PyMem_Free(self->keys);
    PyMem_Free(self->buf);
    PyMem_Free(self->words);
    PyMem_Free(self->sorted);
    self->entries = NULL;
    self->slots = NULL;
    self->keys = NULL;
    self->buf = NULL;
    self->words = self->sorted = NULL;
    self->n_entries = self->cap_entries = 0;
    self->keys_len = self->keys_cap = 0;
    self->mask = 0;
    self->scratch_cap = 0;
}

static void
TitleIndex_dealloc(TitleIndex *self)
{
    PyObject_GC_UnTrack(self);
    TitleIndex_clear(self);
    free_store(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
TitleIndex_init(TitleIndex *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"normalized", "titles", "postings", "drop", NULL};
    PyObject *normalized, *titles, *postings, *drop;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!OO!O:TitleIndex", kwlist, &PyList_Type,
                                     &normalized, &titles, &PyDict_Type, &postings, &drop))
        return -1;
    if (!PyCallable_Check(titles)) {
        PyErr_SetString(PyExc_TypeError, "titles must be callable (a title table's append)");
        return -1;
    }
    Py_XSETREF(self->normalized, Py_NewRef(normalized));
    Py_XSETREF(self->titles, Py_NewRef(titles));
    Py_XSETREF(self->postings, Py_NewRef(postings));
    free_store(self);
    PyObject *it = PyObject_GetIter(drop);
    if (it == NULL)
        return -1;
    PyObject *word;
    while ((word = PyIter_Next(it)) != NULL) {
        if (!PyUnicode_Check(word)) {
            Py_DECREF(word);
            Py_DECREF(it);
            PyErr_SetString(PyExc_TypeError, "drop must hold str");
            return -1;
        }
        Entry *e = find_entry(self, (unsigned char)PyUnicode_KIND(word),
                              (const unsigned char *)PyUnicode_DATA(word),
                              (size_t)PyUnicode_GET_LENGTH(word) * PyUnicode_KIND(word));
        Py_DECREF(word);
        if (e == NULL) {
            Py_DECREF(it);
            return -1;
        }
        e->dropped = 1;
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : 0;
}

static int
word_less(const Word *a, const Word *b)
{
    Py_ssize_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->p, b->p, (size_t)n);
    return c < 0 || (c == 0 && a->len < b->len);
}

static int
word_cmp(const void *pa, const void *pb)
{
    const Word *a = pa, *b = pb;
    return word_less(a, b) ? -1 : (word_less(b, a) ? 1 : 0);
}

static PyObject *
join_words(const Word *words, Py_ssize_t nw, Py_ssize_t total)
{
    PyObject *out = PyUnicode_New(total, 127);
    if (out == NULL)
        return NULL;
    unsigned char *d = PyUnicode_1BYTE_DATA(out);
    Py_ssize_t k = 0;
    for (Py_ssize_t w = 0; w < nw; w++) {
        if (w)
            d[k++] = ' ';
        memcpy(d + k, words[w].p, (size_t)words[w].len);
        k += words[w].len;
    }
    return out;
}

static int
append_titles(TitleIndex *self, PyObject *normalized, PyObject *sorted)
{
    if (PyList_Append(self->normalized, normalized) < 0)
        return -1;
    PyObject *r = PyObject_CallOneArg(self->titles, sorted);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

static PyObject *
TitleIndex_add(TitleIndex *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "add() takes exactly 2 arguments (title, pid)");
        return NULL;
    }
    PyObject *title = args[0];
    uint32_t pid;
    if (pid_of(args[1], &pid) < 0)
        return NULL;
    if (title != Py_None && (!PyUnicode_CheckExact(title) || !PyUnicode_IS_ASCII(title)))
        Py_RETURN_FALSE;
    Py_ssize_t n = title == Py_None ? 0 : PyUnicode_GET_LENGTH(title);
    if (n == 0) {
        PyObject *empty = PyUnicode_New(0, 0);
        if (empty == NULL)
            return NULL;
        int rc = append_titles(self, empty, empty);
        Py_DECREF(empty);
        if (rc < 0)
            return NULL;
        Py_RETURN_TRUE;
    }
    const unsigned char *s = PyUnicode_1BYTE_DATA(title);
    if (memchr(s, '<', (size_t)n) != NULL || memchr(s, '&', (size_t)n) != NULL)
        Py_RETURN_FALSE;
    if (n > self->scratch_cap) {
        Py_ssize_t cap = n < 256 ? 256 : n;
        unsigned char *buf = PyMem_Realloc(self->buf, (size_t)cap);
        if (buf == NULL)
            return PyErr_NoMemory();
        self->buf = buf;
        Word *words = PyMem_Realloc(self->words, (size_t)(cap / 2 + 1) * sizeof(Word));
        if (words == NULL)
            return PyErr_NoMemory();
        self->words = words;
        Word *sorted = PyMem_Realloc(self->sorted, (size_t)(cap / 2 + 1) * sizeof(Word));
        if (sorted == NULL)
            return PyErr_NoMemory();
        self->sorted = sorted;
        self->scratch_cap = cap;
    }
    unsigned char *buf = self->buf;
    Word *words = self->words, *sorted = self->sorted;
    Py_ssize_t nw = 0, total = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        buf[i] = fold_table[s[i]];
    for (Py_ssize_t i = 0; i < n;) {
        if (!buf[i]) {
            i++;
            continue;
        }
        Py_ssize_t j = i;
        while (j < n && buf[j])
            j++;
        words[nw].p = buf + i;
        words[nw].len = j - i;
        total += j - i;
        nw++;
        i = j;
    }
    if (nw)
        total += nw - 1;
    memcpy(sorted, words, (size_t)nw * sizeof(Word));
    if (nw <= 16) {
        for (Py_ssize_t a = 1; a < nw; a++) {
            Word w = sorted[a];
            Py_ssize_t b = a;
            while (b > 0 && word_less(&w, &sorted[b - 1])) {
                sorted[b] = sorted[b - 1];
                b--;
            }
            sorted[b] = w;
        }
    }
    else {
        qsort(sorted, (size_t)nw, sizeof(Word), word_cmp);
    }
    PyObject *norm = join_words(words, nw, total);
    if (norm == NULL)
        return NULL;
    PyObject *sort = join_words(sorted, nw, total);
    if (sort == NULL) {
        Py_DECREF(norm);
        return NULL;
    }
    int rc = append_titles(self, norm, sort);
    Py_DECREF(norm);
    Py_DECREF(sort);
    if (rc < 0)
        return NULL;
    for (Py_ssize_t w = 0; w < nw; w++) {
        const Word *word = &sorted[w];
        if (word->len < 2)
            continue;
        if (w && sorted[w - 1].len == word->len &&
            memcmp(sorted[w - 1].p, word->p, (size_t)word->len) == 0)
            continue;
        Entry *e = find_entry(self, PyUnicode_1BYTE_KIND, word->p, (size_t)word->len);
        if (e == NULL)
            return NULL;
        if (!e->dropped && entry_append(e, pid) < 0)
            return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *
TitleIndex_add_tokens(TitleIndex *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "add_tokens() takes exactly 2 arguments (tokens, pid)");
        return NULL;
    }
    uint32_t pid;
    if (pid_of(args[1], &pid) < 0)
        return NULL;
    PyObject *it = PyObject_GetIter(args[0]);
    if (it == NULL)
        return NULL;
    PyObject *tok;
    while ((tok = PyIter_Next(it)) != NULL) {
        if (!PyUnicode_Check(tok)) {
            PyErr_Format(PyExc_TypeError, "a title token is a str, not %.100s",
                         Py_TYPE(tok)->tp_name);
            Py_DECREF(tok);
            Py_DECREF(it);
            return NULL;
        }
        Entry *e = find_entry(self, (unsigned char)PyUnicode_KIND(tok),
                              (const unsigned char *)PyUnicode_DATA(tok),
                              (size_t)PyUnicode_GET_LENGTH(tok) * PyUnicode_KIND(tok));
        Py_DECREF(tok);
        if (e == NULL || entry_append(e, pid) < 0) {
            Py_DECREF(it);
            return NULL;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

/* A new array('I') holding n pids. */
static PyObject *
new_array(const uint32_t *pids, size_t n)
{
    PyObject *arr = PyObject_CallFunction(array_type, "s", "I");
    if (arr == NULL || n == 0)
        return arr;
    PyObject *view = PyMemoryView_FromMemory((char *)pids, (Py_ssize_t)(n * sizeof(uint32_t)),
                                             PyBUF_READ);
    if (view == NULL) {
        Py_DECREF(arr);
        return NULL;
    }
    PyObject *r = PyObject_CallMethod(arr, "frombytes", "O", view);
    Py_DECREF(view);
    if (r == NULL) {
        Py_DECREF(arr);
        return NULL;
    }
    Py_DECREF(r);
    return arr;
}

/* The posting list of e merged with the array('I') `have` (both ascending). */
static PyObject *
merged_array(const Entry *e, PyObject *have)
{
    Py_buffer view;
    if (PyObject_GetBuffer(have, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0)
        return NULL;
    if (view.itemsize != (Py_ssize_t)sizeof(uint32_t) || view.format == NULL ||
        strcmp(view.format, "I") != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_TypeError, "a posting list is an array('I')");
        return NULL;
    }
    const uint32_t *a = view.buf;
    size_t na = (size_t)(view.len / view.itemsize), nb = e->n;
    const uint32_t *b = e->pids;
    uint32_t *out = PyMem_Malloc((na + nb) * sizeof(uint32_t) + 1);
    if (out == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
    PyBuffer_Release(&view);
    PyObject *arr = new_array(out, k);
    PyMem_Free(out);
    return arr;
}

static PyObject *
TitleIndex_finish(TitleIndex *self, PyObject *Py_UNUSED(ignored))
{
    for (size_t i = 0; i < self->n_entries; i++) {
        Entry *e = &self->entries[i];
        if (e->n == 0)
            continue;
        PyObject *key = PyUnicode_FromKindAndData(
            e->kind, self->keys + e->key_off, (Py_ssize_t)(e->key_len / e->kind));
        if (key == NULL)
            return NULL;
        PyObject *have = PyDict_GetItemWithError(self->postings, key);
        PyObject *arr;
        if (have != NULL)
            arr = merged_array(e, have);
        else if (PyErr_Occurred())
            arr = NULL;
        else
            arr = new_array(e->pids, e->n);
        if (arr == NULL || PyDict_SetItem(self->postings, key, arr) < 0) {
            Py_DECREF(key);
            Py_XDECREF(arr);
            return NULL;
        }
        Py_DECREF(key);
        Py_DECREF(arr);
        PyMem_Free(e->pids);
        e->pids = NULL;
        e->n = e->cap = 0;
    }
    Py_RETURN_NONE;
}

static PyMethodDef TitleIndex_methods[] = {
    {"add", (PyCFunction)(void (*)(void))TitleIndex_add, METH_FASTCALL,
     "Index one title (None, '' or ASCII without '<' and '&'); False for any other."},
    {"add_tokens", (PyCFunction)(void (*)(void))TitleIndex_add_tokens, METH_FASTCALL,
     "Add pid to the posting lists of these tokens."},
    {"finish", (PyCFunction)TitleIndex_finish, METH_NOARGS,
     "Merge the posting lists into the postings dict."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TitleIndexType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "citeledger.resolve._rowkernel.TitleIndex",
    .tp_basicsize = sizeof(TitleIndex),
    .tp_dealloc = (destructor)TitleIndex_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A catalog's title indexes for a batch of papers (see _rows.PyTitleIndex).",
    .tp_traverse = (traverseproc)TitleIndex_traverse,
    .tp_clear = (inquiry)TitleIndex_clear,
    .tp_methods = TitleIndex_methods,
    .tp_init = (initproc)TitleIndex_init,
    .tp_new = PyType_GenericNew,
};

static PyMethodDef rowkernel_methods[] = {
    {"fold", (PyCFunction)(void (*)(void))rowkernel_fold, METH_FASTCALL,
     "Paper's conversion of a title, volume or pages: ASCII str here, else other(value)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef rowkernel_module = {
    PyModuleDef_HEAD_INIT,
    "citeledger.resolve._rowkernel",
    "Compiled steps of Catalog.from_records (see _rows.py).",
    -1,
    rowkernel_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__rowkernel(void)
{
    if (sizeof(unsigned int) != sizeof(uint32_t)) {
        PyErr_SetString(PyExc_ImportError, "array('I') items are not 32 bits here");
        return NULL;
    }
    init_fold_table();
    if (array_type == NULL) {
        PyObject *mod = PyImport_ImportModule("array");
        if (mod == NULL)
            return NULL;
        array_type = PyObject_GetAttrString(mod, "array");
        Py_DECREF(mod);
        if (array_type == NULL)
            return NULL;
    }
    if (PyType_Ready(&TitleIndexType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&rowkernel_module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddObjectRef(m, "TitleIndex", (PyObject *)&TitleIndexType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
