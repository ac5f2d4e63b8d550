/* tp-explain.c: one sentence per node (tp-explain.h).
 *
 * Forward nodes say what they compute, with shapes, in their op's formula
 * (engine/tp-ops.def).  For the nodes differentiate appended, the
 * sentence needs to know which forward node's backward rule recorded
 * each one: differentiate's walk is replayed here
 * (the seed, then for each ancestor of the loss from the loss down its
 * rule's nodes, then per operand a zero Leaf the first time and an Add),
 * and each step is checked against the tape (a Leaf where a zero start
 * must be, an Add of the running sum where a share must be).  Should the
 * replay ever disagree with the tape, the derived nodes get a plain
 * sentence instead of a wrong one. */
#include "tp-explain.h"

#include <string.h>

/* How many nodes each op's backward rule records (tp-diff.c). */
static uint32_t
rule_nodes (TpOp op)
{
  switch (op)
    {
    case TP_OP_ADD:
    case TP_OP_STEP:
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      return 0;
    case TP_OP_SUB:
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_RESHAPE:
    case TP_OP_PERMUTE:
      return 1;
    case TP_OP_MUL:
    case TP_OP_SQRT:
    case TP_OP_SIN:
    case TP_OP_BROADCAST:
      return 2;
    case TP_OP_COS:
      return 3;
    case TP_OP_DIV:
    case TP_OP_TANH:
    case TP_OP_MATMUL:
      return 4;
    case TP_OP_MAXIMUM:
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      return 5;
    }
  return 0;
}

/* What node k of op's backward rule computes, in the letters of the
 * sentence: g the cotangent, a and b the operands, y the forward value. */
static const char *
rule_phrase (TpOp op, uint32_t k)
{
  static const char *const sub[] = { "-g, the right operand's share" };
  static const char *const mul[] = {
    "g * b, the left operand's share: the cotangent times the other operand",
    "g * a, the right operand's share: the cotangent times the other operand",
  };
  static const char *const div[] = {
    "g / b, the left operand's share", "g * y", "(g * y) / b",
    "-(g * y) / b, the right operand's share",
  };
  static const char *const neg[] = { "-g, the operand's share" };
  static const char *const exp_[] = {
    "g * y, the operand's share: exp is its own derivative" };
  static const char *const ln[] = { "g / a, the operand's share" };
  static const char *const sqrt_[] = {
    "y + y", "g / (y + y), the operand's share" };
  static const char *const tanh_[] = {
    "ones", "y * y", "1 - y * y, tanh's derivative",
    "g * (1 - y * y), the operand's share" };
  static const char *const sin_[] = {
    "cos(a), sin's derivative", "g * cos(a), the operand's share" };
  static const char *const cos_[] = {
    "sin(a)", "g * sin(a)", "-(g * sin(a)), the operand's share" };
  static const char *const matmul[] = {
    "transpose(b)", "g @ transpose(b), the left operand's share",
    "transpose(a)", "transpose(a) @ g, the right operand's share" };
  static const char *const sum[] = {
    "g broadcast to a's shape, the operand's share: every element counts "
    "once" };
  static const char *const sum_along[] = {
    "g repeated along the summed axis, the operand's share" };
  static const char *const broadcast[] = {
    "sum(g): every copy sends its share back",
    "that sum in a's shape, the operand's share" };
  static const char *const broadcast_along[] = {
    "sum_along(g) over the repeated axis, the operand's share" };
  static const char *const reshape[] = {
    "g reshaped to a's shape, the operand's share" };
  static const char *const permute[] = {
    "g permuted by the inverse order, the operand's share" };
  static const char *const maximum[] = {
    "step(a, b): 1 where a won (ties go to a)",
    "g * step(a, b), the left operand's share", "ones",
    "1 - step(a, b): 1 where b won",
    "g * (1 - step(a, b)), the right operand's share" };
  static const char *const log_softmax[] = {
    "sum_along(g)", "that sum repeated along the axis",
    "exp(y), the softmax", "softmax * sum_along(g)",
    "g - softmax * sum_along(g), the operand's share" };
  static const char *const log_sum_exp[] = {
    "y repeated along the axis", "a - y", "exp(a - y), the softmax",
    "g repeated along the axis", "g * softmax, the operand's share" };
  const char *const *phrases = NULL;

  switch (op)
    {
    case TP_OP_SUB:
      phrases = sub;
      break;
    case TP_OP_MUL:
      phrases = mul;
      break;
    case TP_OP_DIV:
      phrases = div;
      break;
    case TP_OP_NEG:
      phrases = neg;
      break;
    case TP_OP_EXP:
      phrases = exp_;
      break;
    case TP_OP_LN:
      phrases = ln;
      break;
    case TP_OP_SQRT:
      phrases = sqrt_;
      break;
    case TP_OP_TANH:
      phrases = tanh_;
      break;
    case TP_OP_SIN:
      phrases = sin_;
      break;
    case TP_OP_COS:
      phrases = cos_;
      break;
    case TP_OP_MATMUL:
      phrases = matmul;
      break;
    case TP_OP_SUM:
      phrases = sum;
      break;
    case TP_OP_SUM_ALONG:
      phrases = sum_along;
      break;
    case TP_OP_BROADCAST:
      phrases = broadcast;
      break;
    case TP_OP_BROADCAST_ALONG:
      phrases = broadcast_along;
      break;
    case TP_OP_RESHAPE:
      phrases = reshape;
      break;
    case TP_OP_PERMUTE:
      phrases = permute;
      break;
    case TP_OP_MAXIMUM:
      phrases = maximum;
      break;
    case TP_OP_LOG_SOFTMAX:
      phrases = log_softmax;
      break;
    case TP_OP_LOG_SUM_EXP:
      phrases = log_sum_exp;
      break;
    case TP_OP_ADD:
    case TP_OP_STEP:
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      break;
    }
  return phrases != NULL && k < rule_nodes (op) ? phrases[k] : "";
}

/* Replays differentiate; false when the tape does not follow it. */
static bool
replay (const TpExplainInput *in, TpArena *arena, TpExplainOrigin *origin)
{
  const TpTape *t = in->plan->tape;
  TpNode loss = in->target, p = in->spec_nodes;
  TpNode *cot;
  uint8_t *anc;
  uint32_t *shares;

  if (in->grads == NULL)
    return true;
  cot = tp_arena_alloc (arena, ((size_t) loss + 1) * sizeof *cot);
  anc = tp_arena_calloc (arena, (size_t) loss + 1, 1);
  shares = tp_arena_calloc (arena, (size_t) loss + 1, sizeof *shares);
  if (cot == NULL || anc == NULL || shares == NULL)
    return false;
  for (TpNode i = 0; i <= loss; i++)
    cot[i] = TP_NO_NODE;
  if (p >= t->len || t->op[p] != TP_OP_LEAF)
    return false;
  origin[p].role = TP_EXPLAIN_SEED;
  cot[loss] = p++;
  anc[loss] = 1;
  for (TpNode i = loss + 1; i-- > 0;)
    {
      TpOp op = (TpOp) t->op[i];
      uint32_t arity = tp_op_info[op].arity, n = rule_nodes (op);
      if (!anc[i] || arity == 0)
        continue;
      if (p + n > t->len)
        return false;
      for (uint32_t k = 0; k < n; k++, p++)
        {
          origin[p].role = TP_EXPLAIN_RULE;
          origin[p].of = i;
          origin[p].share = k;
        }
      if (op == TP_OP_STEP)
        continue;
      for (uint32_t k = 0; k < arity; k++)
        {
          TpNode a = t->arg[i][k];
          anc[a] = 1;
          if (cot[a] == TP_NO_NODE)
            {
              if (p >= t->len || t->op[p] != TP_OP_LEAF)
                return false;
              origin[p].role = TP_EXPLAIN_ZERO;
              origin[p].of = a;
              cot[a] = p++;
            }
          if (p >= t->len || t->op[p] != TP_OP_ADD || t->arg[p][0] != cot[a])
            return false;
          origin[p].role = TP_EXPLAIN_SHARE;
          origin[p].of = a;
          origin[p].from = i;
          origin[p].share = ++shares[a];
          cot[a] = p++;
        }
    }
  for (uint32_t k = 0; k < in->n_wrt; k++)
    {
      TpNode w = in->wrt[k];
      if (w <= loss && anc[w] && cot[w] != TP_NO_NODE)
        continue;
      if (p >= t->len || t->op[p] != TP_OP_LEAF)
        return false;
      origin[p].role = TP_EXPLAIN_UNREACHED;
      origin[p].of = w;
      p++;
    }
  return p == t->len;
}

static void
put_name (const TpExplainInput *in, TpBuf *out, TpNode i)
{
  if (i < in->spec_nodes && in->names[i] != NULL)
    tp_buf_puts (out, in->names[i]);
  else
    {
      tp_buf_puts (out, "node ");
      tp_buf_u64 (out, i);
    }
}

/* "x [1, 2]" */
static void
put_operand (const TpExplainInput *in, TpBuf *out, TpNode i)
{
  put_name (in, out, i);
  tp_buf_putc (out, ' ');
  tp_buf_shape (out, &in->plan->tape->shape[i]);
}

/* d loss / d x */
static void
put_grad_of (const TpExplainInput *in, TpBuf *out, TpNode i)
{
  tp_buf_puts (out, "d ");
  tp_buf_puts (out, in->target_name);
  tp_buf_puts (out, " / d ");
  put_name (in, out, i);
}

/* A source: its name and shape, its value when every element is the
 * same, and what kind of value it is. */
static void
put_source (const TpExplainInput *in, TpBuf *out, TpNode i)
{
  const TpTape *t = in->plan->tape;
  TpOp op = (TpOp) t->op[i];
  uint64_t volume = tp_shape_volume (&t->shape[i]);
  const float *v = t->payload[i];
  bool same = volume > 0 && v != NULL;

  if (in->names[i] != NULL)
    {
      tp_buf_puts (out, in->names[i]);
      tp_buf_putc (out, ' ');
    }
  tp_buf_shape (out, &t->shape[i]);
  for (uint64_t e = 1; same && e < volume; e++)
    same = v[e] == v[0] || (v[e] != v[e] && v[0] != v[0]);
  if (same)
    {
      tp_buf_puts (out, volume == 1 ? " = " : " filled with ");
      tp_buf_f32 (out, v[0]);
    }
  tp_buf_puts (out, op == TP_OP_PARAMETER
                    ? ", a trainable value: the derivative is taken "
                      "with respect to it"
                    : op == TP_OP_INPUT ? ", a value fed in"
                    : ", a constant");
}

/* What forward node i computes, without its index and op: its op's
 * formula with the operands and their shapes ("-%a" with the operand
 * bracketed: "-(x [2])"), then the result's shape. */
static void
put_forward (const TpExplainInput *in, TpBuf *out, TpNode i)
{
  const TpTape *t = in->plan->tape;
  const TpAttr *attr = &t->attr[i];
  const char *f = tp_op_info[t->op[i]].formula;

  if (f == NULL)
    {
      put_source (in, out, i);
      return;
    }
  for (size_t k = 0; f[k] != '\0'; k++)
    {
      char c = f[k] == '%' ? f[k + 1] : '\0';

      if (c == 'a' || c == 'b')
        {
          bool bracket = k > 0 && f[k - 1] != ' ' && f[k - 1] != '(';
          if (bracket)
            tp_buf_putc (out, '(');
          put_operand (in, out, t->arg[i][c - 'a']);
          if (bracket)
            tp_buf_putc (out, ')');
        }
      else if (c == 'x' || c == 'n')
        tp_buf_u64 (out, c == 'x' ? attr->axis : attr->extent);
      else if (c == 'o')
        {
          uint32_t order[TP_MAX_RANK];
          for (uint32_t d = 0; d < t->shape[i].rank; d++)
            order[d] = attr->order[d];
          tp_buf_dims (out, order, t->shape[i].rank);
        }
      else
        {
          tp_buf_putc (out, f[k]);
          continue;
        }
      k++;
    }
  tp_buf_puts (out, " gives ");
  tp_buf_shape (out, &t->shape[i]);
  if (in->names[i] != NULL)
    {
      tp_buf_puts (out, ", named ");
      tp_buf_puts (out, in->names[i]);
    }
}

/* Why the plan keeps, frees or skips node i. */
static void
put_plan (const TpExplainInput *in, TpBuf *out, TpNode i)
{
  const TpPlan *plan = in->plan;

  if (!plan->wanted[i])
    {
      tp_buf_puts (out, "; not evaluated: no result of the plan needs it");
      return;
    }
  if (!plan->readable[i])
    {
      tp_buf_puts (out, "; freed after node ");
      tp_buf_u64 (out, plan->last[i]);
      tp_buf_puts (out, ", its last reader");
      return;
    }
  tp_buf_puts (out, "; kept: readable because it is ");
  if (i == in->target)
    {
      tp_buf_puts (out, "the target");
      return;
    }
  for (uint32_t k = 0; in->grads != NULL && k < in->n_wrt; k++)
    if (in->grads[k] == i)
      {
        tp_buf_puts (out, "the gradient ");
        put_grad_of (in, out, in->wrt[k]);
        return;
      }
  tp_buf_puts (out, "observed");
}

bool
tp_explain_write (const TpExplainInput *in, TpArena *arena, TpBuf *out,
                  TpExplainOrigin **origins)
{
  const TpTape *t = in->plan->tape;
  uint32_t n = t->len < TP_EXPLAIN_NODES ? t->len : TP_EXPLAIN_NODES;
  TpExplainOrigin *origin = tp_arena_calloc (arena, t->len + 1, sizeof *origin);
  bool replayed;

  if (origin == NULL)
    return false;
  replayed = replay (in, arena, origin);
  if (!replayed)
    memset (origin, 0, (t->len + 1) * sizeof *origin);
  *origins = origin;
  for (TpNode i = 0; i < n; i++)
    {
      const TpExplainOrigin *o = &origin[i];
      TpOp op = (TpOp) t->op[i];

      tp_buf_u64 (out, i);
      tp_buf_putc (out, ' ');
      tp_buf_puts (out, tp_op_info[op].name);
      tp_buf_puts (out, ": ");
      if (i < in->spec_nodes)
        put_forward (in, out, i);
      else if (!replayed)
        {
          tp_buf_puts (out, "appended by differentiate, ");
          tp_buf_shape (out, &t->shape[i]);
        }
      else
        switch ((TpExplainRole) o->role)
          {
          case TP_EXPLAIN_SEED:
            tp_buf_puts (out, "the seed, ");
            put_grad_of (in, out, in->target);
            tp_buf_puts (out, " = 1, where the backward pass starts");
            break;
          case TP_EXPLAIN_RULE:
            {
              TpOp fop = (TpOp) t->op[o->of];
              tp_buf_puts (out, "the backward rule of node ");
              tp_buf_u64 (out, o->of);
              tp_buf_putc (out, ' ');
              tp_buf_puts (out, tp_op_info[fop].name);
              tp_buf_puts (out, ", with g = ");
              put_grad_of (in, out, o->of);
              tp_buf_puts (out, ", a = ");
              put_name (in, out, t->arg[o->of][0]);
              if (tp_op_info[fop].arity == 2)
                {
                  tp_buf_puts (out, ", b = ");
                  put_name (in, out, t->arg[o->of][1]);
                }
              tp_buf_puts (out, ", y = ");
              put_name (in, out, o->of);
              tp_buf_puts (out, ": ");
              tp_buf_puts (out, rule_phrase (fop, o->share));
            }
            break;
          case TP_EXPLAIN_ZERO:
            put_grad_of (in, out, o->of);
            tp_buf_puts (out, " starts at zero ");
            tp_buf_shape (out, &t->shape[i]);
            tp_buf_puts (out, "; each consumer adds its share with an Add");
            break;
          case TP_EXPLAIN_SHARE:
            put_grad_of (in, out, o->of);
            tp_buf_puts (out, " adds share ");
            tp_buf_u64 (out, o->share);
            tp_buf_puts (out, ", the one that flows back through node ");
            tp_buf_u64 (out, o->from);
            tp_buf_putc (out, ' ');
            tp_buf_puts (out, tp_op_info[t->op[o->from]].name);
            break;
          case TP_EXPLAIN_UNREACHED:
            put_grad_of (in, out, o->of);
            tp_buf_puts (out, " is zero: ");
            tp_buf_puts (out, in->target_name);
            tp_buf_puts (out, " does not depend on it");
            break;
          case TP_EXPLAIN_NONE:
            tp_buf_puts (out, "appended by differentiate, ");
            tp_buf_shape (out, &t->shape[i]);
            break;
          }
      put_plan (in, out, i);
      tp_buf_putc (out, '\n');
    }
  if (n < t->len)
    {
      tp_buf_puts (out, "... ");
      tp_buf_u64 (out, t->len - n);
      tp_buf_puts (out, " more nodes not explained: the reading explains "
                        "the first ");
      tp_buf_u64 (out, TP_EXPLAIN_NODES);
      tp_buf_putc (out, '\n');
    }
  return !out->failed;
}
