/* tp-diff.c: differentiate.
 *
 * The seed is a Leaf of ones.  The scan walks the loss's ancestors from
 * the loss down; each op's backward rule records its arithmetic as
 * ordinary nodes and returns one optional cotangent per operand, which is
 * accumulated onto the operand's running sum: the first contribution
 * records Leaf(zeros) then Add, later ones one Add each.  This happens for
 * every ancestor (inputs and leaves too); the scan does not prune to the
 * wrt set.
 *
 * Every node recorded here gets its provenance on the tape as it is
 * recorded (tp-tape.h): a rule's node comes with the phrase that says
 * what its step computes, in the letters of the explain reading (g the
 * cotangent, a and b the operands, y the forward value). */
#include "tp-diff.h"

#include <string.h>

#include "tp-alloc.h"

#define NONE TP_NO_NODE

int tp_diff_break_op = -1;

/* Differentiate's walk: the tape, and whose rule is recording. */
typedef struct
{
  TpTape *t;
  uint32_t cap;          /* room in t->provenance */
  TpNode of;             /* the forward node whose rule records */
  uint32_t step;         /* the next step of that rule */
} Diff;

/* Stores why node n, the tape's newest, was recorded, and returns n;
 * NONE (a failed record) passes through.  NONE with tape->error set when
 * the provenance finds no room. */
static TpNode
note (Diff *d, TpNode n, const TpProvenance *why)
{
  TpTape *t = d->t;
  uint32_t k;

  if (n == NONE)
    return NONE;
  k = n - t->derived;
  if (k >= d->cap)
    {
      uint32_t cap = d->cap < 64 ? 64 : d->cap * 2;
      TpProvenance *grown;

      if (cap <= k)
        cap = k + 1;
      grown = tp_arena_grow (t->arena, t->provenance, t->n_provenance, cap,
                             sizeof *grown);
      if (grown == NULL)
        {
          t->error = TP_TAPE_NO_MEMORY;
          return NONE;
        }
      t->provenance = grown;
      d->cap = cap;
    }
  /* Nodes before n that a rule recorded without a note get none: explain
   * says only that differentiate appended them. */
  while (t->n_provenance < k)
    t->provenance[t->n_provenance++] = (TpProvenance) {
      .of = NONE, .from = NONE, .role = TP_PROVENANCE_NONE };
  t->provenance[k] = *why;
  t->n_provenance = k + 1;
  return n;
}

/* Node n is the next step of d->of's backward rule, which phrase
 * describes. */
static TpNode
rule (Diff *d, TpNode n, const char *phrase)
{
  TpProvenance why = { .phrase = phrase, .of = d->of, .from = NONE,
                       .step = d->step, .role = TP_PROVENANCE_RULE };

  d->step++;
  return note (d, n, &why);
}

/* Node n has role, for node of. */
static TpNode
note_role (Diff *d, TpNode n, TpProvenanceRole role, TpNode of)
{
  TpProvenance why = { .of = of, .from = NONE, .role = (uint8_t) role };

  return note (d, n, &why);
}

/* Records the backward rule of node i under cotangent g into c[0..1]
 * (NONE where an operand gets nothing), each node with its phrase.  False
 * when a record fails. */
static bool
backward_rule (Diff *d, TpNode i, TpNode g, TpNode c[2])
{
  TpTape *t = d->t;
  TpOp op = (TpOp) t->op[i];
  TpNode a = t->arg[i][0], b = t->arg[i][1], y = i;
  const TpAttr *attr = &t->attr[i];
  TpNode u, v, w;

  d->of = i;
  d->step = 0;
  c[0] = c[1] = NONE;
  switch (op)
    {
    case TP_OP_ADD:
      c[0] = g;
      c[1] = g;
      return true;
    case TP_OP_SUB:
      c[0] = g;
      c[1] = rule (d, tp_tape_unary (t, TP_OP_NEG, g),
                   "-g, the right operand's share");
      return c[1] != NONE;
    case TP_OP_MUL:
      c[0] = rule (d, tp_tape_binary (t, TP_OP_MUL, g, b),
                   "g * b, the left operand's share: the cotangent times "
                   "the other operand");
      c[1] = c[0] == NONE ? NONE
             : rule (d, tp_tape_binary (t, TP_OP_MUL, g, a),
                     "g * a, the right operand's share: the cotangent times "
                     "the other operand");
      return c[1] != NONE;
    case TP_OP_DIV:
      c[0] = rule (d, tp_tape_binary (t, TP_OP_DIV, g, b),
                   "g / b, the left operand's share");
      if (c[0] == NONE
          || (u = rule (d, tp_tape_binary (t, TP_OP_MUL, g, y),
                        "g * y")) == NONE
          || (v = rule (d, tp_tape_binary (t, TP_OP_DIV, u, b),
                        "(g * y) / b")) == NONE)
        return false;
      c[1] = rule (d, tp_tape_unary (t, TP_OP_NEG, v),
                   "-(g * y) / b, the right operand's share");
      return c[1] != NONE;
    case TP_OP_NEG:
      c[0] = rule (d, tp_tape_unary (t, TP_OP_NEG, g),
                   "-g, the operand's share");
      return c[0] != NONE;
    case TP_OP_EXP:
      c[0] = rule (d, tp_tape_binary (t, TP_OP_MUL, g, y),
                   "g * y, the operand's share: exp is its own derivative");
      return c[0] != NONE;
    case TP_OP_LN:
      c[0] = rule (d, tp_tape_binary (t, TP_OP_DIV, g, a),
                   "g / a, the operand's share");
      return c[0] != NONE;
    case TP_OP_SQRT:
      if ((u = rule (d, tp_tape_binary (t, TP_OP_ADD, y, y),
                     "y + y")) == NONE)
        return false;
      c[0] = rule (d, tp_tape_binary (t, TP_OP_DIV, g, u),
                   "g / (y + y), the operand's share");
      return c[0] != NONE;
    case TP_OP_TANH:
      if ((u = rule (d, tp_tape_fill (t, TP_OP_LEAF, &t->shape[y], 1.0f),
                     "ones")) == NONE
          || (v = rule (d, tp_tape_binary (t, TP_OP_MUL, y, y),
                        "y * y")) == NONE
          || (w = rule (d, tp_tape_binary (t, TP_OP_SUB, u, v),
                        "1 - y * y, tanh's derivative")) == NONE)
        return false;
      c[0] = rule (d, tp_tape_binary (t, TP_OP_MUL, g, w),
                   "g * (1 - y * y), the operand's share");
      return c[0] != NONE;
    case TP_OP_SIN:
      if ((u = rule (d, tp_tape_unary (t, TP_OP_COS, a),
                     "cos(a), sin's derivative")) == NONE)
        return false;
      c[0] = rule (d, tp_tape_binary (t, TP_OP_MUL, g, u),
                   "g * cos(a), the operand's share");
      return c[0] != NONE;
    case TP_OP_COS:
      if ((u = rule (d, tp_tape_unary (t, TP_OP_SIN, a), "sin(a)")) == NONE
          || (v = rule (d, tp_tape_binary (t, TP_OP_MUL, g, u),
                        "g * sin(a)")) == NONE)
        return false;
      c[0] = rule (d, tp_tape_unary (t, TP_OP_NEG, v),
                   "-(g * sin(a)), the operand's share");
      return c[0] != NONE;
    case TP_OP_MATMUL:
      {
        static const uint8_t swap[2] = { 1, 0 };
        if ((u = rule (d, tp_tape_permute (t, b, swap),
                       "transpose(b)")) == NONE
            || (c[0] = rule (d, tp_tape_binary (t, TP_OP_MATMUL, g, u),
                             "g @ transpose(b), the left operand's share"))
               == NONE
            || (v = rule (d, tp_tape_permute (t, a, swap),
                          "transpose(a)")) == NONE)
          return false;
        c[1] = rule (d, tp_tape_binary (t, TP_OP_MATMUL, v, g),
                     "transpose(a) @ g, the right operand's share");
        return c[1] != NONE;
      }
    case TP_OP_SUM:
      c[0] = rule (d, tp_tape_shaped (t, TP_OP_BROADCAST, g, &t->shape[a]),
                   "g broadcast to a's shape, the operand's share: every "
                   "element counts once");
      return c[0] != NONE;
    case TP_OP_SUM_ALONG:
      c[0] = rule (d, tp_tape_broadcast_along (t, g, attr->axis,
                                               t->shape[a].dims[attr->axis]),
                   "g repeated along the summed axis, the operand's share");
      return c[0] != NONE;
    case TP_OP_BROADCAST:
      if ((u = rule (d, tp_tape_unary (t, TP_OP_SUM, g),
                     "sum(g): every copy sends its share back")) == NONE)
        return false;
      c[0] = rule (d, tp_tape_shaped (t, TP_OP_BROADCAST, u, &t->shape[a]),
                   "that sum in a's shape, the operand's share");
      return c[0] != NONE;
    case TP_OP_BROADCAST_ALONG:
      c[0] = rule (d, tp_tape_axis (t, TP_OP_SUM_ALONG, g, attr->axis),
                   "sum_along(g) over the repeated axis, the operand's share");
      return c[0] != NONE;
    case TP_OP_RESHAPE:
      c[0] = rule (d, tp_tape_shaped (t, TP_OP_RESHAPE, g, &t->shape[a]),
                   "g reshaped to a's shape, the operand's share");
      return c[0] != NONE;
    case TP_OP_PERMUTE:
      {
        uint8_t inverse[TP_MAX_RANK];
        for (uint32_t k = 0; k < t->shape[i].rank; k++)
          inverse[attr->order[k]] = (uint8_t) k;
        c[0] = rule (d, tp_tape_permute (t, g, inverse),
                     "g permuted by the inverse order, the operand's share");
        return c[0] != NONE;
      }
    case TP_OP_MAXIMUM:
      if ((w = rule (d, tp_tape_binary (t, TP_OP_STEP, a, b),
                     "step(a, b): 1 where a won (ties go to a)")) == NONE
          || (c[0] = rule (d, tp_tape_binary (t, TP_OP_MUL, g, w),
                           "g * step(a, b), the left operand's share"))
             == NONE
          || (u = rule (d, tp_tape_fill (t, TP_OP_LEAF, &t->shape[y], 1.0f),
                        "ones")) == NONE
          || (v = rule (d, tp_tape_binary (t, TP_OP_SUB, u, w),
                        "1 - step(a, b): 1 where b won")) == NONE)
        return false;
      c[1] = rule (d, tp_tape_binary (t, TP_OP_MUL, g, v),
                   "g * (1 - step(a, b)), the right operand's share");
      return c[1] != NONE;
    case TP_OP_STEP:
      return true;
    case TP_OP_LOG_SOFTMAX:
      {
        uint32_t n = t->shape[a].dims[attr->axis];
        if ((u = rule (d, tp_tape_axis (t, TP_OP_SUM_ALONG, g, attr->axis),
                       "sum_along(g)")) == NONE
            || (v = rule (d, tp_tape_broadcast_along (t, u, attr->axis, n),
                          "that sum repeated along the axis")) == NONE
            || (w = rule (d, tp_tape_unary (t, TP_OP_EXP, y),
                          "exp(y), the softmax")) == NONE
            || (u = rule (d, tp_tape_binary (t, TP_OP_MUL, w, v),
                          "softmax * sum_along(g)")) == NONE)
          return false;
        c[0] = rule (d, tp_tape_binary (t, TP_OP_SUB, g, u),
                     "g - softmax * sum_along(g), the operand's share");
        return c[0] != NONE;
      }
    case TP_OP_LOG_SUM_EXP:
      {
        uint32_t n = t->shape[a].dims[attr->axis];
        if ((u = rule (d, tp_tape_broadcast_along (t, y, attr->axis, n),
                       "y repeated along the axis")) == NONE
            || (v = rule (d, tp_tape_binary (t, TP_OP_SUB, a, u),
                          "a - y")) == NONE
            || (w = rule (d, tp_tape_unary (t, TP_OP_EXP, v),
                          "exp(a - y), the softmax")) == NONE
            || (u = rule (d, tp_tape_broadcast_along (t, g, attr->axis, n),
                          "g repeated along the axis")) == NONE)
          return false;
        c[0] = rule (d, tp_tape_binary (t, TP_OP_MUL, u, w),
                     "g * softmax, the operand's share");
        return c[0] != NONE;
      }
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      return true;
    }
  return true;          /* not reached: every op returns above */
}

/* The one place gradients accumulate: zero-seeded, then Add.  The Add is
 * consumer from's share into operand's sum, the shares[operand]th. */
static bool
accumulate (Diff *d, TpNode *cot, uint32_t *shares, TpNode operand,
            TpNode contribution, TpNode from)
{
  TpTape *t = d->t;
  TpNode sum = cot[operand];
  TpProvenance why = { .of = operand, .from = from,
                       .step = ++shares[operand],
                       .role = TP_PROVENANCE_SHARE };

  if (sum == NONE)
    {
      sum = note_role (d, tp_tape_fill (t, TP_OP_LEAF, &t->shape[operand],
                                        0.0f),
                       TP_PROVENANCE_ZERO, operand);
      if (sum == NONE)
        return false;
    }
  cot[operand] = note (d, tp_tape_binary (t, TP_OP_ADD, sum, contribution),
                       &why);
  return cot[operand] != NONE;
}

bool
tp_differentiate (TpTape *t, TpNode loss, const TpNode *wrt, uint32_t n_wrt,
                  TpNode *grads)
{
  Diff d = { .t = t };
  TpNode *cot;
  uint8_t *ancestor;
  uint32_t *shares;
  TpNode seed;

  t->provenance = NULL;
  t->derived = t->len;
  t->n_provenance = 0;
  cot = tp_arena_alloc (t->arena, ((size_t) loss + 1) * sizeof *cot);
  ancestor = tp_arena_calloc (t->arena, (size_t) loss + 1, 1);
  shares = tp_arena_calloc (t->arena, (size_t) loss + 1, sizeof *shares);
  if (cot == NULL || ancestor == NULL || shares == NULL)
    {
      t->error = TP_TAPE_NO_MEMORY;
      return false;
    }
  for (TpNode i = 0; i <= loss; i++)
    cot[i] = NONE;
  seed = note_role (&d, tp_tape_fill (t, TP_OP_LEAF, &t->shape[loss], 1.0f),
                    TP_PROVENANCE_SEED, loss);
  if (seed == NONE)
    return false;
  cot[loss] = seed;
  ancestor[loss] = 1;

  for (TpNode i = loss + 1; i-- > 0;)
    {
      TpNode c[2];
      uint32_t arity = tp_op_info[t->op[i]].arity;

      if (!ancestor[i] || arity == 0)
        continue;
      if (!backward_rule (&d, i, cot[i], c))
        return false;
      if ((int) t->op[i] == tp_diff_break_op && c[0] != NONE
          && (c[0] = rule (&d, tp_tape_binary (t, TP_OP_ADD, c[0], c[0]),
                           "the first operand's share counted twice: a rule "
                           "broken on purpose (tp_diff_break_op)")) == NONE)
        return false;
      for (uint32_t k = 0; k < arity; k++)
        {
          TpNode operand = t->arg[i][k];
          if (c[k] == NONE)
            continue;
          ancestor[operand] = 1;
          if (!accumulate (&d, cot, shares, operand, c[k], i))
            return false;
        }
    }

  for (uint32_t k = 0; k < n_wrt; k++)
    {
      TpNode w = wrt[k];
      if (w <= loss && ancestor[w] && cot[w] != NONE)
        grads[k] = cot[w];
      else
        {
          grads[k] = note_role (&d, tp_tape_fill (t, TP_OP_LEAF,
                                                  &t->shape[w], 0.0f),
                                TP_PROVENANCE_UNREACHED, w);
          if (grads[k] == NONE)
            return false;
        }
    }
  return true;
}
