/* tp-diff.c: differentiate.
 *
 * The seed is a Leaf of ones.  The scan walks the loss's ancestors from
 * the loss down; each op's backward rule records its arithmetic as
 * ordinary nodes and returns one optional cotangent per operand, which is
 * accumulated onto the operand's running sum: the first contribution
 * records Leaf(zeros) then Add, later ones one Add each.  This happens for
 * every ancestor (inputs and leaves too); the scan does not prune to the
 * wrt set. */
#include "tp-diff.h"

#include <string.h>

#include "tp-alloc.h"

#define NONE TP_NO_NODE

int tp_diff_break_op = -1;

/* Records the backward rule of node i under cotangent g into c[0..1]
 * (NONE where an operand gets nothing).  False when a record fails. */
static bool
backward_rule (TpTape *t, TpNode i, TpNode g, TpNode c[2])
{
  TpOp op = (TpOp) t->op[i];
  TpNode a = t->arg[i][0], b = t->arg[i][1], y = i;
  const TpAttr *attr = &t->attr[i];
  TpNode u, v, w;

  c[0] = c[1] = NONE;
  switch (op)
    {
    case TP_OP_ADD:
      c[0] = g;
      c[1] = g;
      return true;
    case TP_OP_SUB:
      c[0] = g;
      c[1] = tp_tape_unary (t, TP_OP_NEG, g);
      return c[1] != NONE;
    case TP_OP_MUL:
      c[0] = tp_tape_binary (t, TP_OP_MUL, g, b);
      c[1] = c[0] == NONE ? NONE : tp_tape_binary (t, TP_OP_MUL, g, a);
      return c[1] != NONE;
    case TP_OP_DIV:
      c[0] = tp_tape_binary (t, TP_OP_DIV, g, b);
      if (c[0] == NONE || (u = tp_tape_binary (t, TP_OP_MUL, g, y)) == NONE
          || (v = tp_tape_binary (t, TP_OP_DIV, u, b)) == NONE)
        return false;
      c[1] = tp_tape_unary (t, TP_OP_NEG, v);
      return c[1] != NONE;
    case TP_OP_NEG:
      c[0] = tp_tape_unary (t, TP_OP_NEG, g);
      return c[0] != NONE;
    case TP_OP_EXP:
      c[0] = tp_tape_binary (t, TP_OP_MUL, g, y);
      return c[0] != NONE;
    case TP_OP_LN:
      c[0] = tp_tape_binary (t, TP_OP_DIV, g, a);
      return c[0] != NONE;
    case TP_OP_SQRT:
      if ((u = tp_tape_binary (t, TP_OP_ADD, y, y)) == NONE)
        return false;
      c[0] = tp_tape_binary (t, TP_OP_DIV, g, u);
      return c[0] != NONE;
    case TP_OP_TANH:
      if ((u = tp_tape_fill (t, TP_OP_LEAF, &t->shape[y], 1.0f)) == NONE
          || (v = tp_tape_binary (t, TP_OP_MUL, y, y)) == NONE
          || (w = tp_tape_binary (t, TP_OP_SUB, u, v)) == NONE)
        return false;
      c[0] = tp_tape_binary (t, TP_OP_MUL, g, w);
      return c[0] != NONE;
    case TP_OP_SIN:
      if ((u = tp_tape_unary (t, TP_OP_COS, a)) == NONE)
        return false;
      c[0] = tp_tape_binary (t, TP_OP_MUL, g, u);
      return c[0] != NONE;
    case TP_OP_COS:
      if ((u = tp_tape_unary (t, TP_OP_SIN, a)) == NONE
          || (v = tp_tape_binary (t, TP_OP_MUL, g, u)) == NONE)
        return false;
      c[0] = tp_tape_unary (t, TP_OP_NEG, v);
      return c[0] != NONE;
    case TP_OP_MATMUL:
      {
        static const uint8_t swap[2] = { 1, 0 };
        if ((u = tp_tape_permute (t, b, swap)) == NONE
            || (c[0] = tp_tape_binary (t, TP_OP_MATMUL, g, u)) == NONE
            || (v = tp_tape_permute (t, a, swap)) == NONE)
          return false;
        c[1] = tp_tape_binary (t, TP_OP_MATMUL, v, g);
        return c[1] != NONE;
      }
    case TP_OP_SUM:
      c[0] = tp_tape_shaped (t, TP_OP_BROADCAST, g, &t->shape[a]);
      return c[0] != NONE;
    case TP_OP_SUM_ALONG:
      c[0] = tp_tape_broadcast_along (t, g, attr->axis,
                                      t->shape[a].dims[attr->axis]);
      return c[0] != NONE;
    case TP_OP_BROADCAST:
      if ((u = tp_tape_unary (t, TP_OP_SUM, g)) == NONE)
        return false;
      c[0] = tp_tape_shaped (t, TP_OP_BROADCAST, u, &t->shape[a]);
      return c[0] != NONE;
    case TP_OP_BROADCAST_ALONG:
      c[0] = tp_tape_axis (t, TP_OP_SUM_ALONG, g, attr->axis);
      return c[0] != NONE;
    case TP_OP_RESHAPE:
      c[0] = tp_tape_shaped (t, TP_OP_RESHAPE, g, &t->shape[a]);
      return c[0] != NONE;
    case TP_OP_PERMUTE:
      {
        uint8_t inverse[TP_MAX_RANK];
        for (uint32_t d = 0; d < t->shape[i].rank; d++)
          inverse[attr->order[d]] = (uint8_t) d;
        c[0] = tp_tape_permute (t, g, inverse);
        return c[0] != NONE;
      }
    case TP_OP_MAXIMUM:
      if ((w = tp_tape_binary (t, TP_OP_STEP, a, b)) == NONE
          || (c[0] = tp_tape_binary (t, TP_OP_MUL, g, w)) == NONE
          || (u = tp_tape_fill (t, TP_OP_LEAF, &t->shape[y], 1.0f)) == NONE
          || (v = tp_tape_binary (t, TP_OP_SUB, u, w)) == NONE)
        return false;
      c[1] = tp_tape_binary (t, TP_OP_MUL, g, v);
      return c[1] != NONE;
    case TP_OP_STEP:
      return true;
    case TP_OP_LOG_SOFTMAX:
      {
        uint32_t n = t->shape[a].dims[attr->axis];
        if ((u = tp_tape_axis (t, TP_OP_SUM_ALONG, g, attr->axis)) == NONE
            || (v = tp_tape_broadcast_along (t, u, attr->axis, n)) == NONE
            || (w = tp_tape_unary (t, TP_OP_EXP, y)) == NONE
            || (u = tp_tape_binary (t, TP_OP_MUL, w, v)) == NONE)
          return false;
        c[0] = tp_tape_binary (t, TP_OP_SUB, g, u);
        return c[0] != NONE;
      }
    case TP_OP_LOG_SUM_EXP:
      {
        uint32_t n = t->shape[a].dims[attr->axis];
        if ((u = tp_tape_broadcast_along (t, y, attr->axis, n)) == NONE
            || (v = tp_tape_binary (t, TP_OP_SUB, a, u)) == NONE
            || (w = tp_tape_unary (t, TP_OP_EXP, v)) == NONE
            || (u = tp_tape_broadcast_along (t, g, attr->axis, n)) == NONE)
          return false;
        c[0] = tp_tape_binary (t, TP_OP_MUL, u, w);
        return c[0] != NONE;
      }
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      return true;
    }
  return true;          /* not reached: every op returns above */
}

/* The one place gradients accumulate: zero-seeded, then Add. */
static bool
accumulate (TpTape *t, TpNode *cot, TpNode operand, TpNode contribution)
{
  TpNode sum = cot[operand];

  if (sum == NONE)
    {
      sum = tp_tape_fill (t, TP_OP_LEAF, &t->shape[operand], 0.0f);
      if (sum == NONE)
        return false;
    }
  cot[operand] = tp_tape_binary (t, TP_OP_ADD, sum, contribution);
  return cot[operand] != NONE;
}

bool
tp_differentiate (TpTape *t, TpNode loss, const TpNode *wrt, uint32_t n_wrt,
                  TpNode *grads)
{
  TpNode *cot;
  uint8_t *ancestor;
  TpNode seed;

  cot = tp_arena_alloc (t->arena, ((size_t) loss + 1) * sizeof *cot);
  ancestor = tp_arena_calloc (t->arena, (size_t) loss + 1, 1);
  if (cot == NULL || ancestor == NULL)
    {
      t->error = TP_TAPE_NO_MEMORY;
      return false;
    }
  for (TpNode i = 0; i <= loss; i++)
    cot[i] = NONE;
  seed = tp_tape_fill (t, TP_OP_LEAF, &t->shape[loss], 1.0f);
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
      if (!backward_rule (t, i, cot[i], c))
        return false;
      if ((int) t->op[i] == tp_diff_break_op && c[0] != NONE
          && (c[0] = tp_tape_binary (t, TP_OP_ADD, c[0], c[0])) == NONE)
        return false;
      for (uint32_t k = 0; k < arity; k++)
        {
          TpNode operand = t->arg[i][k];
          if (c[k] == NONE)
            continue;
          ancestor[operand] = 1;
          if (!accumulate (t, cot, operand, c[k]))
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
          grads[k] = tp_tape_fill (t, TP_OP_LEAF, &t->shape[w], 0.0f);
          if (grads[k] == NONE)
            return false;
        }
    }
  return true;
}
