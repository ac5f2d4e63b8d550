/* tp-dot.h: the picture's source, a graphviz DOT graph of the tape. */
#ifndef TP_DOT_H
#define TP_DOT_H

#include <stdbool.h>

#include "tp-buf.h"
#include "tp-plan.h"

/* What the picture shows besides the tape itself. */
typedef struct
{
  const TpPlan *plan;          /* its tape is the one drawn */
  uint32_t spec_nodes;         /* nodes at or after this are derived */
  const char *const *names;    /* per node: the statement naming it, or NULL */
  TpNode target;
  const char *target_name;
  const TpNode *observe;       /* observed nodes */
  uint32_t n_observe;
  const TpNode *wrt;           /* parameters, declaration order */
  const TpNode *grads;         /* their gradients; NULL when none */
  uint32_t n_wrt;
} TpDotInput;

void tp_dot_write (const TpDotInput *in, TpBuf *out);

#endif /* TP_DOT_H */
