/* tp-dinterp.h: the gradient check's double interpreter.
 *
 * The forward ops evaluated again, element by element in double, apart
 * from the f32 interpreter (tp-run.c), for the finite differences of the
 * gradient check (tp-check.c). */
#ifndef TP_DINTERP_H
#define TP_DINTERP_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-dinterp.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdint.h>

#include "tp-tape.h"

/* The double interpreter's estimated work for node i. */
uint64_t tp_dinterp_node_cost (const TpTape *tape, TpNode i);

/* Evaluates node i in double into out; v[j] holds node j's values.  For
 * Maximum and Step, decide (when not NULL) receives the branch per element
 * (1: the second operand, or a >= b).  scratch is unused. */
void tp_dinterp_eval_node (const TpTape *tape, TpNode i, double *const *v,
                           double *out, uint8_t *decide, double *scratch);

#endif /* TP_DINTERP_H */
