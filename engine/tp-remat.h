/* tp-remat.h: rematerialisation, as a what-if on the plan's schedule
 * (docs/language.md, plan and --remat).
 *
 * A rematerialised node is freed after its last forward reader and
 * computed again, from what is still live (recomputing in turn the
 * rematerialised nodes it reads), just before the first gradient step
 * that reads it; that copy serves every gradient step after it.  The
 * values are the same bits: the same kernel on the same operands.  A
 * node can be rematerialised when the plan evaluates it, it is computed
 * (no source), not a result, and both a forward and a gradient step read
 * it.
 *
 * auto picks its set after Chen et al. (2016), "Training deep nets with
 * sublinear memory cost": along the candidates in tape order it keeps
 * every ceil(sqrt(n))-th as a checkpoint and rematerialises the others,
 * once over every candidate and once over the candidates of the biggest
 * buffer size alone, and takes the one with the lower peak (then the
 * less extra work); when neither lowers the peak it takes none. */
#ifndef TP_REMAT_H
#define TP_REMAT_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-remat.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-plan.h"

typedef struct
{
  uint8_t *candidate;      /* per node: can be rematerialised */
  uint32_t n_candidates;
  uint8_t *chosen;         /* per node: rematerialised */
  uint32_t n_chosen;
  bool on;                 /* a rematerialisation was asked for */
  bool automatic;          /* its set was picked by auto */
  uint32_t n_asked;        /* names asked for, auto aside */
  uint64_t peak_before;    /* the schedule's peak without it */
  TpNode peak_at_before;
  uint64_t work_extra;     /* the recomputations' estimated work */
} TpRemat;

/* The candidates of plan (its schedule in tape order, unchanged). */
bool tp_remat_candidates (TpRemat *r, const TpPlan *plan,
                          uint32_t spec_nodes, TpArena *arena);
/* Reschedules plan with r->chosen rematerialised (r->candidates made
 * first), or with auto's set when automatic; plan->peak and peak_at then
 * measure the new schedule.  False when memory runs out. */
bool tp_remat_apply      (TpRemat *r, TpPlan *plan, uint32_t spec_nodes,
                          TpArena *arena);

#endif /* TP_REMAT_H */
