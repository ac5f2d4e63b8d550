/* tp-explain.c: one sentence per node (tp-explain.h).
 *
 * Forward nodes say what they compute, with shapes, in their op's formula
 * (engine/tp-ops.def).  For the nodes differentiate appended, the
 * sentence says which step of its walk recorded each one, as
 * differentiate noted it on the tape (tp-tape.h, TpProvenance): the
 * seed, a step of a forward node's backward rule with the rule's phrase
 * for it, the zero start of a gradient, a share added to it, the zero
 * gradient of a parameter the target does not reach. */
#include "tp-explain.h"

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

/* The provenance differentiate noted for node i, or NULL for a node it
 * did not append (or gave no account of). */
static const TpProvenance *
provenance_of (const TpExplainInput *in, TpNode i)
{
  const TpTape *t = in->plan->tape;

  if (in->grads == NULL || t->provenance == NULL || i < t->derived
      || i - t->derived >= t->n_provenance
      || t->provenance[i - t->derived].role == TP_PROVENANCE_NONE)
    return NULL;
  return &t->provenance[i - t->derived];
}

/* Node i's origin for tp-session.c (tp-explain.h). */
static void
fill_origin (const TpProvenance *p, TpExplainOrigin *o)
{
  static const uint8_t roles[] = {
    [TP_PROVENANCE_NONE] = TP_EXPLAIN_NONE,
    [TP_PROVENANCE_SEED] = TP_EXPLAIN_SEED,
    [TP_PROVENANCE_RULE] = TP_EXPLAIN_RULE,
    [TP_PROVENANCE_ZERO] = TP_EXPLAIN_ZERO,
    [TP_PROVENANCE_SHARE] = TP_EXPLAIN_SHARE,
    [TP_PROVENANCE_UNREACHED] = TP_EXPLAIN_UNREACHED,
  };

  o->role = roles[p->role];
  o->of = p->of;
  o->from = p->from;
  o->share = p->step;
}

/* Why differentiate appended node i, from what it noted. */
static void
put_derived (const TpExplainInput *in, TpBuf *out, TpNode i)
{
  const TpTape *t = in->plan->tape;
  const TpProvenance *p = provenance_of (in, i);

  if (p == NULL)
    {
      tp_buf_puts (out, "appended by differentiate, ");
      tp_buf_shape (out, &t->shape[i]);
      return;
    }
  switch ((TpProvenanceRole) p->role)
    {
    case TP_PROVENANCE_SEED:
      tp_buf_puts (out, "the seed, ");
      put_grad_of (in, out, in->target);
      tp_buf_puts (out, " = 1, where the backward pass starts");
      break;
    case TP_PROVENANCE_RULE:
      {
        TpOp fop = (TpOp) t->op[p->of];
        tp_buf_puts (out, "the backward rule of node ");
        tp_buf_u64 (out, p->of);
        tp_buf_putc (out, ' ');
        tp_buf_puts (out, tp_op_info[fop].name);
        tp_buf_puts (out, ", with g = ");
        put_grad_of (in, out, p->of);
        tp_buf_puts (out, ", a = ");
        put_name (in, out, t->arg[p->of][0]);
        if (tp_op_info[fop].arity == 2)
          {
            tp_buf_puts (out, ", b = ");
            put_name (in, out, t->arg[p->of][1]);
          }
        tp_buf_puts (out, ", y = ");
        put_name (in, out, p->of);
        tp_buf_puts (out, ": ");
        tp_buf_puts (out, p->phrase);
      }
      break;
    case TP_PROVENANCE_ZERO:
      put_grad_of (in, out, p->of);
      tp_buf_puts (out, " starts at zero ");
      tp_buf_shape (out, &t->shape[i]);
      tp_buf_puts (out, "; each consumer adds its share with an Add");
      break;
    case TP_PROVENANCE_SHARE:
      put_grad_of (in, out, p->of);
      tp_buf_puts (out, " adds share ");
      tp_buf_u64 (out, p->step);
      tp_buf_puts (out, ", the one that flows back through node ");
      tp_buf_u64 (out, p->from);
      tp_buf_putc (out, ' ');
      tp_buf_puts (out, tp_op_info[t->op[p->from]].name);
      break;
    case TP_PROVENANCE_UNREACHED:
      put_grad_of (in, out, p->of);
      tp_buf_puts (out, " is zero: ");
      tp_buf_puts (out, in->target_name);
      tp_buf_puts (out, " does not depend on it");
      break;
    case TP_PROVENANCE_NONE:
      break;
    }
}

bool
tp_explain_write (const TpExplainInput *in, TpArena *arena, TpBuf *out,
                  TpExplainOrigin **origins)
{
  const TpTape *t = in->plan->tape;
  uint32_t n = t->len < TP_EXPLAIN_NODES ? t->len : TP_EXPLAIN_NODES;
  TpExplainOrigin *origin = tp_arena_calloc (arena, t->len + 1, sizeof *origin);

  if (origin == NULL)
    return false;
  for (TpNode i = in->spec_nodes; i < t->len; i++)
    {
      const TpProvenance *p = provenance_of (in, i);
      if (p != NULL)
        fill_origin (p, &origin[i]);
    }
  *origins = origin;
  for (TpNode i = 0; i < n; i++)
    {
      tp_buf_u64 (out, i);
      tp_buf_putc (out, ' ');
      tp_buf_puts (out, tp_op_info[t->op[i]].name);
      tp_buf_puts (out, ": ");
      if (i < in->spec_nodes)
        put_forward (in, out, i);
      else
        put_derived (in, out, i);
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
