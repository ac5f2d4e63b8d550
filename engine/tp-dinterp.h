/* tp-dinterp.h: the gradient check's double interpreter.
 *
 * The forward ops evaluated again, element by element in double, apart
 * from the f32 interpreter (tp-run.c), for the finite differences of the
 * gradient check (tp-check.c).  It evaluates the target's ancestors once
 * (the base run), then perturbed runs of one selected parameter: the
 * caller writes the parameter's perturbed values and a run re-evaluates
 * what depends on them, either every dependent node whole, or only the
 * elements a change of one element reaches (its region).  Both give
 * exactly the bits a full evaluation of every node would. */
#ifndef TP_DINTERP_H
#define TP_DINTERP_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-dinterp.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-tape.h"

/* n_region of a node evaluated whole. */
#define TP_DINTERP_WHOLE UINT32_MAX

typedef struct
{
  const TpTape *tape;
  TpArena *arena;
  TpNode loss;
  uint8_t *anc;             /* per node: an ancestor of the loss */
  uint64_t *volume;         /* per ancestor: its elements */
  uint64_t *work;           /* per ancestor: its estimated work */
  TpNode (*args)[2];        /* per node: its operands, loss + 1 for none */
  uint64_t elements;        /* base and perturbed values together */
  uint64_t base_work;       /* the base run's estimated work */
  uint64_t max_volume;
  double **base;            /* the base run's values */
  double **pert;            /* a perturbed run's values */
  double **cur;             /* what a run reads: pert for the dependents */
  uint8_t **decide;         /* per Maximum and Step: the base branches */
  uint8_t *clean;           /* per node: pert equals base */
  uint8_t *dep;             /* per node and loss + 1, zero between uses */
  /* The selected parameter and the nodes after it that depend on it. */
  TpNode param;
  TpNode *deps;
  uint32_t n_deps;
  uint64_t deps_work;       /* their estimated work, evaluated whole */
  /* The region of one perturbed element: per node, the elements a run
   * evaluates (n_region[i] of them in region[i], TP_DINTERP_WHOLE, or 0
   * for none). */
  bool regional;
  uint32_t param_element;
  uint32_t *n_region;
  uint32_t **region;
  uint8_t *mark;            /* max_volume bytes, zero between uses */
  uint32_t *scratch;        /* 2 max_volume + 2 indices */
  uint8_t *branch;          /* max_volume: one node's branches in a run */
} TpDInterp;

/* The interpreter's estimated work for node i: the op table's WORK
 * column, as the tape counts it against its limit (tp_tape_node_work). */
uint64_t tp_dinterp_node_work (const TpTape *tape, TpNode i);

/* Evaluates node i in double into out; v[j] holds node j's values.  For
 * Maximum and Step, decide (when not NULL) receives the branch per element
 * (1: the second operand, or a >= b). */
void     tp_dinterp_eval_node (const TpTape *tape, TpNode i,
                               double *const *v, double *out,
                               uint8_t *decide);

/* Finds loss's ancestors, how many elements they hold and the base run's
 * work; allocates nothing for values yet.  False when memory runs out. */
bool     tp_dinterp_init      (TpDInterp *d, const TpTape *tape, TpNode loss,
                               TpArena *arena);
/* The base run (counted by tp_check_runs).  False when memory runs out. */
bool     tp_dinterp_run_base  (TpDInterp *d);
/* Selects the ancestor parameter p, scanning the nodes from p to the loss
 * for its dependents, and returns the values its perturbed runs read
 * (base values, for the caller to change and restore); runs evaluate
 * every dependent whole until tp_dinterp_region.  NULL when memory runs
 * out. */
double  *tp_dinterp_select    (TpDInterp *d, TpNode p);
/* Later runs evaluate only the region of element e of the selected
 * parameter: the elements of each dependent that a change of that element
 * alone can change (see tp-dinterp.c for each op).  *work receives the
 * region's estimated work per run, one more per dependent node walked.
 * False when memory runs out. */
bool     tp_dinterp_region    (TpDInterp *d, uint64_t e, uint64_t *work);
/* Later runs evaluate every dependent whole again. */
void     tp_dinterp_whole     (TpDInterp *d);
/* One perturbed run from the selected parameter's values as the caller
 * wrote them: the loss.  *kink becomes true when a Maximum or a Step takes
 * another branch than in the base run at an evaluated element. */
double   tp_dinterp_run       (TpDInterp *d, bool *kink);
/* After the runs of a region: the evaluated elements back to the base
 * values (the parameter's own values are the caller's). */
void     tp_dinterp_restore   (TpDInterp *d);

#endif /* TP_DINTERP_H */
