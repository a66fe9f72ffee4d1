/* The GIL around a computation that touches no Python object, for the kernels' sources: each
 * defines GIL_RELEASE_AT (the work, in its own units, worth letting the GIL go for) and
 * GIL_CHECK_EVERY (the work between two looks at pending signals) before including this. */
#ifndef ROUGE155PY_GIL_H
#define ROUGE155PY_GIL_H

#include <Python.h>

typedef struct {
    PyThreadState *saved; /* NULL while this thread holds the GIL */
    size_t since_check;   /* work done since the last look at pending signals */
} Gil;

/* Lets the GIL go when the work is long enough to be worth it. */
static void gil_release(Gil *g, size_t work) {
    g->since_check = 0;
    g->saved = work >= GIL_RELEASE_AT ? PyEval_SaveThread() : NULL;
}

/* Takes the GIL back, before anything Python is touched again. */
static void gil_restore(Gil *g) {
    if (g->saved) PyEval_RestoreThread(g->saved);
    g->saved = NULL;
}

/* After `work` more units: -1 (an exception is set) when a signal handler raised.  Every
 * GIL_CHECK_EVERY units the GIL is taken back for PyErr_CheckSignals (a handler may run any
 * Python code, the kernels' functions included), then let go again. */
static int gil_check(Gil *g, size_t work) {
    int raised;
    g->since_check += work;
    if (g->since_check < GIL_CHECK_EVERY) return 0;
    g->since_check = 0;
    if (!g->saved) return PyErr_CheckSignals();
    PyEval_RestoreThread(g->saved);
    raised = PyErr_CheckSignals();
    g->saved = PyEval_SaveThread();
    return raised;
}

#endif
