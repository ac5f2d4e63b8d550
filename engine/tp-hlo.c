/* tp-hlo.c: PLACEHOLDER until the StableHLO writer of issue 3 lands: it
 * writes nothing, so the stablehlo reading is empty. */
#include "tp-hlo.h"

uint32_t
tp_hlo_arguments (const TpPlan *plan, TpNode *args)
{
  const TpTape *t = plan->tape;
  uint32_t n = 0;

  for (TpOp kind = TP_OP_PARAMETER; kind <= TP_OP_INPUT; kind++)
    for (TpNode i = 0; i < t->len; i++)
      if (plan->wanted[i] && t->op[i] == kind)
        args[n++] = i;
  return n;
}

void
tp_hlo_emit (const TpPlan *plan, TpBuf *out)
{
  (void) plan;
  (void) out;
}
