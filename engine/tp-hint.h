/* tp-hint.h: what a diagnostic adds for the idioms every learner of ML
 * tries first (docs/language.md, Diagnostics): a bias added to every row
 * of a matrix, and `mean`.  The hint follows the message as D18's "did
 * you mean" does, so every front end shows it. */
#ifndef TP_HINT_H
#define TP_HINT_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-hint.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stddef.h>

#include "tp-buf.h"
#include "tp-shape.h"

/* For `a OP b` refused for its shapes: when one side is [N, M] and the
 * other a row that would go with each of its N rows ([M] or [1, M]), how
 * to spread the row with a column of ones.  a_name and b_name are the
 * sides' statement names, or NULL. */
void tp_hint_row (TpBuf *m, const TpShape *a, const TpShape *b,
                  const char *a_name, const char *b_name);
/* For a name that is not defined: what to write instead of a function
 * the language does not have (`mean`, `average`). */
void tp_hint_function (TpBuf *m, const char *name, size_t len);

#endif /* TP_HINT_H */
