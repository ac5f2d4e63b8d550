/* tp-plan.h: lowering an entry (roots + observes) to a forward plan
 * (docs/language.md, plan): what is evaluated, what stays readable, what is
 * freed after which node, and the live volume. */
#ifndef TP_PLAN_H
#define TP_PLAN_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-plan.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-tape.h"

typedef struct
{
  const TpTape *tape;
  uint8_t *wanted;         /* per node: evaluated */
  uint8_t *readable;       /* per node: a result, kept to the end */
  TpNode *last;            /* per node: highest wanted reader, or NO_NODE */
  TpNode *results;         /* roots then observes, first occurrence */
  uint32_t n_results;
  uint32_t n_wanted;
  uint64_t peak;           /* live elements at the peak */
  TpNode peak_at;
  uint64_t retain_all;     /* every wanted node's volume */
  bool exact;              /* carried, changes nothing printed */
} TpPlan;

/* False when memory runs out. */
bool tp_plan_lower    (TpPlan *plan, const TpTape *tape, TpArena *arena,
                       const TpNode *roots, uint32_t n_roots,
                       const TpNode *observe, uint32_t n_observe,
                       bool exact);
/* The plan reading: one line per wanted node, then the summary lines;
 * mapped into map unless it is NULL. */
void tp_plan_describe (const TpPlan *plan, TpBuf *out, TpMap *map);

/* Runs the plan: evaluates only wanted nodes, frees each released buffer
 * after its last consumer.  results[r] receives a malloc'd copy (tp_free)
 * of plan->results[r]'s value; *peak_live the most elements ever live.
 * False when memory runs out (results are then all NULL). */
bool tp_plan_run      (const TpPlan *plan, float **results,
                       uint64_t *peak_live);

#endif /* TP_PLAN_H */
