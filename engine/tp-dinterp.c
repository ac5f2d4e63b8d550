/* tp-dinterp.c: the gradient check's double interpreter (tp-dinterp.h).
 *
 * A second interpreter, written apart from the f32 one (tp-run.c) so that
 * a mistake in one is not repeated in the other: every forward op
 * evaluated element by element in double, its transcendentals from
 * tp-dmath.c. */
#include "tp-dinterp.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tp-dmath.h"

/* The double interpreter's estimated work for node i. */
uint64_t
tp_dinterp_node_cost (const TpTape *t, TpNode i)
{
  TpOp op = (TpOp) t->op[i];
  uint64_t volume = tp_shape_volume (&t->shape[i]);
  TpNode a = t->arg[i][0];

  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      return 1;
    case TP_OP_ADD:
    case TP_OP_SUB:
    case TP_OP_MUL:
    case TP_OP_DIV:
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SQRT:
    case TP_OP_TANH:
    case TP_OP_SIN:
    case TP_OP_COS:
    case TP_OP_BROADCAST:
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_RESHAPE:
    case TP_OP_PERMUTE:
      return volume;
    case TP_OP_MATMUL:
      return volume * t->shape[a].dims[1];
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
      return tp_shape_volume (&t->shape[a]);
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      return 4 * tp_shape_volume (&t->shape[a]);
    }
  return volume;
}

static void
split (const TpShape *s, uint32_t axis, size_t *outer, size_t *n,
       size_t *inner)
{
  *outer = 1;
  *inner = 1;
  for (uint32_t d = 0; d < axis; d++)
    *outer *= s->dims[d];
  *n = s->dims[axis];
  for (uint32_t d = axis + 1; d < s->rank; d++)
    *inner *= s->dims[d];
}

/* The branch a Maximum (1: the second operand) or a Step (1: a >= b)
 * takes at one element, as the f32 interpreter decides it. */
static uint8_t
branch (TpOp op, double a, double b)
{
  if (op == TP_OP_MAXIMUM)
    return (a != a || a < b) ? 1 : 0;
  return a >= b ? 1 : 0;
}

/* Evaluates node i in double into out.  For Maximum and Step, decide
 * (when not NULL) receives the branch per element.  scratch holds the
 * reduced rows of LogSoftmax and LogSumExp. */
void
tp_dinterp_eval_node (const TpTape *t, TpNode i, double *const *v, double *out,
           uint8_t *decide, double *scratch)
{
  TpOp op = (TpOp) t->op[i];
  const TpShape *s = &t->shape[i];
  size_t volume = (size_t) tp_shape_volume (s);
  TpNode ia = t->arg[i][0], ib = t->arg[i][1];
  const double *a = ia != TP_NO_NODE ? v[ia] : NULL;
  const double *b = ib != TP_NO_NODE ? v[ib] : NULL;
  const TpAttr *attr = &t->attr[i];

  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      for (size_t e = 0; e < volume; e++)
        out[e] = (double) t->payload[i][e];
      break;
    case TP_OP_ADD:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] + b[e];
      break;
    case TP_OP_SUB:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] - b[e];
      break;
    case TP_OP_MUL:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] * b[e];
      break;
    case TP_OP_DIV:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[e] / b[e];
      break;
    case TP_OP_MAXIMUM:
      for (size_t e = 0; e < volume; e++)
        {
          uint8_t k = branch (op, a[e], b[e]);
          out[e] = k ? b[e] : a[e];
          if (decide != NULL)
            decide[e] = k;
        }
      break;
    case TP_OP_STEP:
      for (size_t e = 0; e < volume; e++)
        {
          uint8_t k = branch (op, a[e], b[e]);
          out[e] = k ? 1.0 : 0.0;
          if (decide != NULL)
            decide[e] = k;
        }
      break;
    case TP_OP_NEG:
      for (size_t e = 0; e < volume; e++)
        out[e] = -a[e];
      break;
    case TP_OP_EXP:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_dmath_exp (a[e]);
      break;
    case TP_OP_LN:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_dmath_log (a[e]);
      break;
    case TP_OP_SQRT:
      for (size_t e = 0; e < volume; e++)
        out[e] = sqrt (a[e]);
      break;
    case TP_OP_TANH:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_dmath_tanh (a[e]);
      break;
    case TP_OP_SIN:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_dmath_sin (a[e]);
      break;
    case TP_OP_COS:
      for (size_t e = 0; e < volume; e++)
        out[e] = tp_dmath_cos (a[e]);
      break;
    case TP_OP_MATMUL:
      {
        size_t m = t->shape[ia].dims[0], k = t->shape[ia].dims[1];
        size_t n = s->dims[1];
        for (size_t r = 0; r < m; r++)
          for (size_t c = 0; c < n; c++)
            {
              double acc = 0.0;
              for (size_t p = 0; p < k; p++)
                acc += a[r * k + p] * b[p * n + c];
              out[r * n + c] = acc;
            }
      }
      break;
    case TP_OP_SUM:
      {
        size_t n = (size_t) tp_shape_volume (&t->shape[ia]);
        double acc = 0.0;
        for (size_t e = 0; e < n; e++)
          acc += a[e];
        out[0] = acc;
      }
      break;
    case TP_OP_SUM_ALONG:
      {
        size_t outer, n, inner;
        split (&t->shape[ia], attr->axis, &outer, &n, &inner);
        for (size_t o = 0; o < outer; o++)
          for (size_t x = 0; x < inner; x++)
            {
              double acc = 0.0;
              for (size_t k = 0; k < n; k++)
                acc += a[(o * n + k) * inner + x];
              out[o * inner + x] = acc;
            }
      }
      break;
    case TP_OP_BROADCAST:
      for (size_t e = 0; e < volume; e++)
        out[e] = a[0];
      break;
    case TP_OP_BROADCAST_ALONG:
      {
        size_t outer, n, inner;
        split (s, attr->axis, &outer, &n, &inner);
        for (size_t o = 0; o < outer; o++)
          for (size_t k = 0; k < n; k++)
            for (size_t x = 0; x < inner; x++)
              out[(o * n + k) * inner + x] = a[o * inner + x];
      }
      break;
    case TP_OP_RESHAPE:
      memcpy (out, a, volume * sizeof *out);
      break;
    case TP_OP_PERMUTE:
      {
        const TpShape *in = &t->shape[ia];
        size_t stride[TP_MAX_RANK];
        uint32_t idx[TP_MAX_RANK];
        uint32_t rank = in->rank;
        if (rank == 0)
          {
            out[0] = a[0];
            break;
          }
        stride[rank - 1] = 1;
        for (uint32_t d = rank - 1; d > 0; d--)
          stride[d - 1] = stride[d] * in->dims[d];
        /* out's index (i_0, ..., i_r) reads in's index with axis
         * order[d] at i_d. */
        for (size_t e = 0; e < volume; e++)
          {
            size_t rest = e, src = 0;
            for (uint32_t d = rank; d-- > 0;)
              {
                idx[d] = (uint32_t) (rest % s->dims[d]);
                rest /= s->dims[d];
              }
            for (uint32_t d = 0; d < rank; d++)
              src += idx[d] * stride[attr->order[d]];
            out[e] = a[src];
          }
      }
      break;
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      {
        size_t outer, n, inner;
        split (&t->shape[ia], attr->axis, &outer, &n, &inner);
        for (size_t o = 0; o < outer; o++)
          for (size_t x = 0; x < inner; x++)
            {
              double peak = a[o * n * inner + x], total = 0.0, z;
              for (size_t k = 1; k < n; k++)
                {
                  double y = a[(o * n + k) * inner + x];
                  if (peak != peak || peak < y)
                    peak = y;
                }
              for (size_t k = 0; k < n; k++)
                total += tp_dmath_exp (a[(o * n + k) * inner + x] - peak);
              z = tp_dmath_log (total);
              if (op == TP_OP_LOG_SUM_EXP)
                out[o * inner + x] = peak + z;
              else
                for (size_t k = 0; k < n; k++)
                  out[(o * n + k) * inner + x]
                    = a[(o * n + k) * inner + x] - peak - z;
            }
        (void) scratch;
      }
      break;
    }
}

