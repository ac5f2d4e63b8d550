/* tp-diff.h: reverse mode recorded as more tape (docs/language.md,
 * derivative). */
#ifndef TP_DIFF_H
#define TP_DIFF_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-diff.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>

#include "tp-tape.h"

/* Appends the gradient of the rank-0 node loss with respect to each
 * wrt[k] to the tape and stores its node in grads[k].  Existing nodes
 * never change.  False when a record fails (tape->error says why). */
bool tp_differentiate (TpTape *tape, TpNode loss, const TpNode *wrt,
                       uint32_t n_wrt, TpNode *grads);

/* Test-only (tests/engine/test-check.c): an op whose backward rule is
 * made wrong, its first operand's share doubled; -1 (the default) for
 * none. */
extern int tp_diff_break_op;

#endif /* TP_DIFF_H */
