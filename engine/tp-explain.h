/* tp-explain.h: the explain reading, one sentence per node
 * (docs/language.md, explain). */
#ifndef TP_EXPLAIN_H
#define TP_EXPLAIN_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-explain.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-plan.h"

/* The most nodes explained; past it one line says how many were not. */
#define TP_EXPLAIN_NODES 8192u

typedef struct
{
  const TpPlan *plan;          /* its tape is the one explained */
  uint32_t spec_nodes;
  const char *const *names;    /* per node: its display name, or NULL */
  TpNode target;
  const char *target_name;
  const TpNode *wrt;
  const TpNode *grads;         /* NULL when nothing was differentiated */
  uint32_t n_wrt;
} TpExplainInput;

/* Writes one line per node (line N is node N), each "N Op: sentence".
 * False when memory runs out. */
bool tp_explain_write (const TpExplainInput *in, TpArena *arena, TpBuf *out);

#endif /* TP_EXPLAIN_H */
