/* hlo-cases.h: tapes built through the engine's tape API for what the
 * tape language cannot write (a Broadcast from a rank-1 one-element value,
 * BroadcastAlong and Step as forward ops, batched MatMul, rank-3 Permute,
 * non-finite and signed-zero constants).  Shared by test-hlo (exact text)
 * and hlo-extra (the round trip through XLA). */
#ifndef HLO_CASES_H
#define HLO_CASES_H

#include <math.h>
#include <string.h>

#include "tp-diff.h"
#include "tp-parse.h"
#include "tp-tape.h"

#define HLO_MAX_ROOTS 16

typedef struct
{
  TpTape tape;
  TpNode roots[HLO_MAX_ROOTS];
  uint32_t n_roots;
  TpNode observe[HLO_MAX_ROOTS];
  uint32_t n_observe;
} HloCase;

static inline TpShape
hlo_shape (uint32_t rank, uint32_t d0, uint32_t d1, uint32_t d2)
{
  TpShape s;

  memset (&s, 0, sizeof s);
  s.rank = rank;
  s.dims[0] = d0;
  s.dims[1] = d1;
  s.dims[2] = d2;
  return s;
}

/* A source of the given kind holding uniform(seed) draws. */
static inline TpNode
hlo_seeded (TpTape *t, TpOp kind, TpShape shape, uint64_t seed)
{
  float *p = tp_tape_alloc_payload (t, &shape);

  if (p == NULL)
    return TP_NO_NODE;
  tp_uniform_fill (seed, p, tp_shape_volume (&shape));
  return tp_tape_record (t, kind, TP_NO_NODE, TP_NO_NODE, NULL, &shape, p);
}

/* A source holding exactly values[0 .. volume). */
static inline TpNode
hlo_values (TpTape *t, TpOp kind, TpShape shape, const float *values)
{
  float *p = tp_tape_alloc_payload (t, &shape);

  if (p == NULL)
    return TP_NO_NODE;
  memcpy (p, values, (size_t) tp_shape_volume (&shape) * sizeof *p);
  return tp_tape_record (t, kind, TP_NO_NODE, TP_NO_NODE, NULL, &shape, p);
}

/* Differentiates loss with respect to every parameter and makes the
 * roots loss, then the gradients. */
static inline void
hlo_differentiate (HloCase *c, TpNode loss)
{
  TpNode wrt[HLO_MAX_ROOTS], grads[HLO_MAX_ROOTS];
  uint32_t n = 0;

  for (TpNode i = 0; i < c->tape.len; i++)
    if (c->tape.op[i] == TP_OP_PARAMETER)
      wrt[n++] = i;
  c->roots[c->n_roots++] = loss;
  if (!tp_differentiate (&c->tape, loss, wrt, n, grads))
    return;
  for (uint32_t k = 0; k < n; k++)
    c->roots[c->n_roots++] = grads[k];
}

/* A batched product [2, 2, 3] @ [2, 3, 4]. */
static inline void
hlo_case_batched_matmul (HloCase *c)
{
  TpTape *t = &c->tape;
  TpNode a = hlo_seeded (t, TP_OP_PARAMETER, hlo_shape (3, 2, 2, 3), 2);
  TpNode b = hlo_seeded (t, TP_OP_INPUT, hlo_shape (3, 2, 3, 4), 3);

  c->roots[c->n_roots++] = tp_tape_binary (t, TP_OP_MATMUL, a, b);
}

/* Broadcast of a [1, 1] value (the _scalar reshape), differentiated, so
 * the gradient broadcasts a rank-0 sum back to [1, 1]. */
static inline void
hlo_case_broadcast_rank2 (HloCase *c)
{
  TpTape *t = &c->tape;
  TpShape to = hlo_shape (2, 2, 3, 0);
  TpNode a = hlo_seeded (t, TP_OP_PARAMETER, hlo_shape (2, 1, 1, 0), 2);
  TpNode x = hlo_seeded (t, TP_OP_INPUT, to, 3);
  TpNode b = tp_tape_shaped (t, TP_OP_BROADCAST, a, &to);
  TpNode m = tp_tape_binary (t, TP_OP_MUL, b, x);

  hlo_differentiate (c, tp_tape_unary (t, TP_OP_SUM, m));
}

/* BroadcastAlong at every axis of a [2, 3] value, differentiated. */
static inline void
hlo_case_broadcast_along (HloCase *c)
{
  TpTape *t = &c->tape;
  TpNode a = hlo_seeded (t, TP_OP_PARAMETER, hlo_shape (2, 2, 3, 0), 2);
  TpNode loss = TP_NO_NODE;

  for (uint32_t axis = 0; axis <= 2; axis++)
    {
      TpNode b = tp_tape_broadcast_along (t, a, axis, 2 + axis);
      TpNode s = tp_tape_unary (t, TP_OP_SUM,
                                tp_tape_binary (t, TP_OP_MUL, b, b));
      loss = loss == TP_NO_NODE ? s : tp_tape_binary (t, TP_OP_ADD, loss, s);
    }
  hlo_differentiate (c, loss);
}

/* A rank-3 Permute and its inverse in the gradient. */
static inline void
hlo_case_permute3 (HloCase *c)
{
  static const uint8_t order[3] = { 2, 0, 1 };
  TpTape *t = &c->tape;
  TpNode a = hlo_seeded (t, TP_OP_PARAMETER, hlo_shape (3, 2, 3, 4), 2);
  TpNode x = hlo_seeded (t, TP_OP_INPUT, hlo_shape (3, 4, 2, 3), 3);
  TpNode p = tp_tape_permute (t, a, order);

  hlo_differentiate (c, tp_tape_unary (t, TP_OP_SUM,
                                       tp_tape_binary (t, TP_OP_MUL, p, x)));
}

/* Step and Maximum as forward results, with ties (signed zeros too). */
static inline void
hlo_case_step (HloCase *c)
{
  static const float av[6] = { 1.0f, -0.0f, 0.0f, 2.0f, -3.0f, 0.5f };
  static const float bv[6] = { 1.0f, 0.0f, -0.0f, 3.0f, -4.0f, 0.25f };
  TpTape *t = &c->tape;
  TpNode a = hlo_values (t, TP_OP_PARAMETER, hlo_shape (2, 2, 3, 0), av);
  TpNode b = hlo_values (t, TP_OP_INPUT, hlo_shape (2, 2, 3, 0), bv);

  c->roots[c->n_roots++] = tp_tape_binary (t, TP_OP_STEP, a, b);
  c->roots[c->n_roots++] = tp_tape_binary (t, TP_OP_MAXIMUM, a, b);
  c->roots[c->n_roots++] = tp_tape_binary (t, TP_OP_STEP, b, a);
}

/* Leaves with every kind of literal: non-finite, signed zeros, extremes,
 * exponent forms, splat and nested; each one a result. */
static inline void
hlo_case_constants (HloCase *c)
{
  TpTape *t = &c->tape;
  const float nan = NAN, inf = INFINITY;
  const float scalars[] = { nan, -inf, inf, -0.0f, 1e-5f, 1e16f, 3.4028235e38f,
                            1.17549435e-38f, 123456.79f, 0.1f };
  const float zeros[2] = { 0.0f, -0.0f };
  const float mixed[6] = { 1.0f, inf, -2.5e-7f, -0.0f, 1e20f, -inf };
  const float same[4] = { 0.25f, 0.25f, 0.25f, 0.25f };

  for (size_t k = 0; k < sizeof scalars / sizeof scalars[0]; k++)
    c->roots[c->n_roots++] = hlo_values (t, TP_OP_LEAF, hlo_shape (0, 0, 0, 0),
                                         &scalars[k]);
  c->roots[c->n_roots++] = hlo_values (t, TP_OP_LEAF, hlo_shape (1, 2, 0, 0),
                                       zeros);
  c->roots[c->n_roots++] = hlo_values (t, TP_OP_LEAF, hlo_shape (3, 1, 2, 3),
                                       mixed);
  c->roots[c->n_roots++] = hlo_values (t, TP_OP_LEAF, hlo_shape (2, 2, 2, 0),
                                       same);
}

/* round_trip is false where the interpreter has no kernel to compare
 * with: it multiplies rank-2 matrices only, the one MatMul the language and
 * differentiate record, so the batched form is checked as text alone. */
typedef struct
{
  const char *name;
  void (*build) (HloCase *c);
  bool round_trip;
} HloCaseInfo;

static const HloCaseInfo hlo_cases[] = {
  { "batched-matmul", hlo_case_batched_matmul, false },
  { "broadcast-rank2", hlo_case_broadcast_rank2, true },
  { "broadcast-along", hlo_case_broadcast_along, true },
  { "permute-rank3", hlo_case_permute3, true },
  { "step", hlo_case_step, true },
  { "constants", hlo_case_constants, true },
};

#endif /* HLO_CASES_H */
