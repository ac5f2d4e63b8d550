/* tp-run.h: the interpreter, the oracle for every value the engine shows.
 *
 * Each op follows the fixed evaluation orders of docs/language.md (matmul
 * seeded with the first product, sums left to right from element 0, the
 * log-softmax composition), so every faster path gives the same bits. */
#ifndef TP_RUN_H
#define TP_RUN_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-run.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>

#include "tp-alloc.h"
#include "tp-tape.h"

/* f32 maximum: if a is NaN or a < b then b, else a (ties keep a). */
static inline float
tp_maximum (float a, float b)
{
  return (a != a || a < b) ? b : a;
}

/* Computes node i into out, which holds its volume; the operands' values
 * are values[arg].  False when scratch memory runs out. */
bool tp_run_node    (const TpTape *tape, TpNode i, float *const *values,
                     float *out);

/* Evaluates every node in [0, tape->len) into values (one pointer per
 * node; sources point at their payload).  False when memory runs out. */
bool tp_run_forward (const TpTape *tape, TpArena *arena, float **values);

/* The scratch floats the costliest node of tape needs (0 for none). */
size_t tp_run_scratch_size (const TpTape *tape);
/* Evaluates again every node that is not a source, or with run every
 * node i with run[i] set (never a source), in tape order, into the buffer
 * values[i] already holds (values as tp_run_forward left them); sources
 * are read from wherever values[i] points, so a caller may point a
 * parameter at other data.  scratch holds tp_run_scratch_size floats. */
void tp_run_again   (const TpTape *tape, float *const *values,
                     float *scratch, const uint8_t *run);
/* Exact matmul [m,k] @ [k,n] in the interpreter's fixed order (exposed
 * for the benchmark and tests). */
void tp_matmul      (const float *a, const float *b, float *out,
                     uint32_t m, uint32_t k, uint32_t n);

#endif /* TP_RUN_H */
