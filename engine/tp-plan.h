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
  /* The schedule: the evaluated nodes in the order they run, the wanted
   * nodes in tape order unless a rematerialisation (tp-remat.h) computes
   * some of them a second time.  Per step its node, whether it computes
   * that node again, and the last step of this copy's buffer: the last
   * step that reads it, or the last step for a kept node. */
  TpNode *order;
  uint8_t *again;
  uint32_t *until;
  uint32_t n_order;
} TpPlan;

/* False when memory runs out. */
bool tp_plan_lower    (TpPlan *plan, const TpTape *tape, TpArena *arena,
                       const TpNode *roots, uint32_t n_roots,
                       const TpNode *observe, uint32_t n_observe,
                       bool exact);
/* The plan reading: one line per wanted node, then the summary lines;
 * mapped into map unless it is NULL. */
void tp_plan_describe (const TpPlan *plan, TpBuf *out, TpMap *map);

/* Measures the schedule's live volume into plan->peak and peak_at: a
 * buffer is live from its step to its until step, both included.  False
 * when memory runs out. */
bool tp_plan_measure  (TpPlan *plan);

/* Runs the plan's schedule: evaluates its steps in order, frees each
 * copy's buffer after its until step (a recomputed node is computed
 * again from what is still live).  results[r] receives a malloc'd copy (tp_free)
 * of plan->results[r]'s value; *peak_live the most elements ever live.
 * False when memory runs out, or when a step would read a buffer the
 * schedule already freed (results are then all NULL). */
bool tp_plan_run      (const TpPlan *plan, float **results,
                       uint64_t *peak_live);

#endif /* TP_PLAN_H */
