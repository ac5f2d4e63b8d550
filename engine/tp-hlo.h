/* tp-hlo.h: the plan written as StableHLO text (docs/language.md,
 * stablehlo). */
#ifndef TP_HLO_H
#define TP_HLO_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-hlo.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>

#include "tp-buf.h"
#include "tp-plan.h"

/* Appends the module for plan to out: arguments are the wanted
 * parameters then the wanted inputs, each in index order; results are
 * plan->results in order. */
void tp_hlo_emit (const TpPlan *plan, TpBuf *out);
/* The same, mapped into map (NULL for none). */
void tp_hlo_write (const TpPlan *plan, TpBuf *out, TpMap *map);

/* The argument order: writes the wanted parameters then the wanted inputs
 * into args (room for tape->len nodes) and returns their count. */
uint32_t tp_hlo_arguments (const TpPlan *plan, TpNode *args);

#endif /* TP_HLO_H */
