/* tp-forward.h: forward mode, the tangent tape (docs/language.md,
 * forward).
 *
 * Beside differentiate's reverse pass, the program's tangent tape: a copy
 * of the program's own nodes (numbered as on the session's tape), then,
 * for each node the target depends on through a parameter, in tape order,
 * its tangent (JVP) rule recorded as ordinary nodes.  Every parameter's
 * tangent starts as a Leaf holding its part of the direction; inputs and
 * leaves have a zero tangent, which no node stands for.  The interpreter
 * runs the tangent nodes with the program's own values, so every tangent
 * is exact f32 arithmetic, the same bits in every build. */
#ifndef TP_FORWARD_H
#define TP_FORWARD_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-forward.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "tp-alloc.h"
#include "tp-tape.h"

/* A direction's element: two directions agree within this, relative to
 * max(1, |tangent|, sum |g v|) (docs/language.md, forward). */
#define TP_FORWARD_TOLERANCE 1e-4

/* The seeded direction's generator: parameter node p draws the
 * language's SplitMix64 stream (docs/language.md, Sources) from the seed
 * TP_FORWARD_SEED + p, and element e is its e-th output's top three bits
 * k mapped to (k < 4 ? k - 4 : k - 3) / 4: -1, -0.75, ..., -0.25, 0.25,
 * ..., 1, each exact in f32. */
#define TP_FORWARD_SEED (UINT64_C (1) << 32)

/* The direction: per parameter its elements, and how it was chosen. */
typedef struct
{
  float **v;                /* per parameter (declaration order) */
  bool one_hot;             /* one element of one parameter is 1 */
  uint32_t hot;             /* that parameter's position in wrt */
  uint64_t hot_element;     /* and the element, row-major */
  const char *error;        /* why the direction asked for is not used
                               (then it is the seeded one); NULL */
} TpDirection;

typedef struct
{
  TpTape tape;              /* the program's nodes, then the tangent's */
  uint32_t spec_nodes;
  TpNode target;
  TpNode tangent;           /* the target's tangent node */
  TpNode *tan;              /* per program node: its tangent node, or
                               TP_NO_NODE for a zero tangent */
  TpNode *seeds;            /* per parameter: its direction's Leaf, or
                               TP_NO_NODE when the target does not use it */
  /* why each tangent node was recorded, (TpProvenance of tp-tape.h): a
   * direction's Leaf is a SEED of its parameter, a rule's node a RULE
   * step of a program node's tangent rule, a zero tangent of a target
   * that no parameter reaches UNREACHED */
  TpProvenance *why;
  bool limited;             /* a limit stopped the recording */
  TpTapeError limit;
  float **values;           /* per node of tape, after tp_forward_run */
  /* The costs, in the op table's estimated multiply-adds: the program's
   * nodes the target depends on (both modes run them once), one pass of
   * the tangent nodes, and the parameters' elements (one pass each for
   * the whole gradient). */
  uint64_t work_program;
  uint64_t work_tangent;
  uint64_t n_elements;
} TpForward;

/* What a session keeps of forward mode (tp-session-forward.c) and the
 * JAX program (tp-jax.c). */
typedef struct
{
  const char *asked;        /* the direction chosen, a copy; NULL */
  const char **names;       /* per parameter its display name */
  TpDirection direction;    /* TP_STAGE_DIRECTION */
  TpForward tape;           /* TP_STAGE_FORWARD */
  bool compared;            /* there is a reverse-mode gradient */
  double reverse;           /* sum of g . v over the parameters, in double */
  double scale;             /* max(1, |tangent|, sum |g v|) */
  bool finite;              /* the tangent and reverse are finite */
  bool agrees;
  uint64_t work_backward;   /* the backward pass, without the program */
  uint64_t work_forward;    /* the whole gradient by forward mode */
  uint64_t work_reverse;    /* and by reverse mode */
  size_t verdict_at, verdict_len;   /* sentences within the reading */
  size_t cost_at, cost_len;
  const char *steps;        /* the first TP_STEP_TEXTS sentences ... */
  uint32_t *step_at;        /* ... k's at [step_at[k], step_at[k + 1]) */
  uint32_t n_step_texts;
  uint32_t n_steps;         /* one per tangent node */
  char *late_step;          /* a later one, made when asked for */
} TpForwardFacts;

/* Fills d with the direction asked for: NULL or "" for the seeded one,
 * "NAME" for 1 at the first element of the parameter whose display name
 * is NAME, "NAME[i, j]" at that element; anything else is the seeded one
 * with d->error saying why.  False when memory runs out. */
bool tp_forward_direction (TpDirection *d, const TpTape *tape,
                           const TpNode *wrt, const char *const *names,
                           uint32_t n_wrt, const char *asked,
                           TpArena *arena);

/* Records the tangent tape of target along direction over tape's first
 * spec_nodes nodes (their values are values[0 .. spec_nodes)), then runs
 * it.  A limit met on the way leaves f->limited set.  False when memory
 * runs out. */
bool tp_forward_build (TpForward *f, const TpTape *tape, uint32_t spec_nodes,
                       TpNode target, const TpNode *wrt, uint32_t n_wrt,
                       const TpDirection *direction, float *const *values,
                       TpArena *arena);

#endif /* TP_FORWARD_H */
