/* tp-dinterp.c: the gradient check's double interpreter (tp-dinterp.h).
 *
 * A second interpreter, written apart from the f32 one (tp-run.c) so that
 * a mistake in one is not repeated in the other: every forward op
 * evaluated element by element in double, its transcendentals from
 * tp-dmath.c.
 *
 * Perturbed runs.  A run reads the selected parameter's perturbed values
 * and re-evaluates only the nodes after it that depend on it (its
 * dependents), in tape order; every other node keeps its base values.
 * Within a dependent, a region run evaluates only the elements that a
 * change of one element of the parameter can reach, each with exactly
 * the operations its whole-node evaluation does, so a region run, a
 * whole run and a full evaluation of every node give the same bits:
 * - element-wise ops (Add ... Step, Neg ... Cos) and Reshape keep the
 *   changed elements; a binary op takes those of both operands;
 * - MatMul: a changed element of the left operand changes its row of the
 *   result, one of the right operand its column;
 * - SumAlong and LogSumExp: the reduced element of each changed one;
 *   LogSoftmax: each changed element's whole row along the axis;
 * - BroadcastAlong: every copy of a changed element; Permute: where each
 *   changed element moves.
 * Whole nodes instead, honestly: Sum (one element anyway), Broadcast
 * (every element reads the one operand element), and any node whose
 * region would hold more than half of its elements (evaluating it whole
 * costs at most about twice as much and needs no index list); a whole
 * node makes every dependent after it whole too. */
#include "tp-dinterp.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tp-dmath.h"

#define WHOLE TP_DINTERP_WHOLE

uint64_t
tp_dinterp_node_work (const TpTape *t, TpNode i)
{
  return tp_tape_node_work (t, i);
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

/* The peak of the row (o, x) of a along an axis of extent n, and the log
 * of the sum of exp(a - peak) over it: LogSumExp's and LogSoftmax's
 * shared part. */
static void
row_stats (const double *a, size_t o, size_t x, size_t n, size_t inner,
           double *peak, double *z)
{
  double top = a[o * n * inner + x], total = 0.0;

  for (size_t k = 1; k < n; k++)
    {
      double y = a[(o * n + k) * inner + x];
      if (top != top || top < y)
        top = y;
    }
  for (size_t k = 0; k < n; k++)
    total += tp_dmath_exp (a[(o * n + k) * inner + x] - top);
  *peak = top;
  *z = tp_dmath_log (total);
}

/* Row-major strides of shape s. */
static void
strides (const TpShape *s, size_t *stride)
{
  if (s->rank == 0)
    return;
  stride[s->rank - 1] = 1;
  for (uint32_t d = s->rank - 1; d > 0; d--)
    stride[d - 1] = stride[d] * s->dims[d];
}

/* Where Permute's output element e (of shape s) reads its operand, given
 * the operand's strides: out's index (i_0, ..., i_r) reads in's index
 * with axis order[d] at i_d. */
static size_t
permute_source (const TpShape *s, const size_t *stride, const uint8_t *order,
                size_t e)
{
  size_t src = 0;

  for (uint32_t d = s->rank; d-- > 0;)
    {
      src += (e % s->dims[d]) * stride[order[d]];
      e /= s->dims[d];
    }
  return src;
}

void
tp_dinterp_eval_node (const TpTape *t, TpNode i, double *const *v,
                      double *out, uint8_t *decide)
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
    case TP_OP_STEP:
      for (size_t e = 0; e < volume; e++)
        {
          uint8_t k = branch (op, a[e], b[e]);
          out[e] = op == TP_OP_STEP ? (k ? 1.0 : 0.0) : k ? b[e] : a[e];
          if (decide != NULL)
            decide[e] = k;
        }
      break;
    case TP_OP_NEG:
      for (size_t e = 0; e < volume; e++)
        out[e] = -a[e];
      break;
    case TP_OP_EXP:
      tp_dmath_exp_n (a, out, volume);
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
      tp_dmath_tanh_n (a, out, volume);
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
        /* Each result element sums its products from 0.0 in the order
         * p = 0 .. k-1; four columns at a time, so that four sums
         * advance together in registers. */
        size_t m = t->shape[ia].dims[0], k = t->shape[ia].dims[1];
        size_t n = s->dims[1];
        for (size_t r = 0; r < m; r++)
          {
            const double *arow = a + r * k;
            size_t c = 0;
            for (; c + 4 <= n; c += 4)
              {
                double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
                for (size_t p = 0; p < k; p++)
                  {
                    const double *bp = b + p * n + c;
                    double x = arow[p];
                    s0 += x * bp[0];
                    s1 += x * bp[1];
                    s2 += x * bp[2];
                    s3 += x * bp[3];
                  }
                out[r * n + c] = s0;
                out[r * n + c + 1] = s1;
                out[r * n + c + 2] = s2;
                out[r * n + c + 3] = s3;
              }
            for (; c < n; c++)
              {
                double acc = 0.0;
                for (size_t p = 0; p < k; p++)
                  acc += arow[p] * b[p * n + c];
                out[r * n + c] = acc;
              }
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
        size_t stride[TP_MAX_RANK];
        strides (&t->shape[ia], stride);
        for (size_t e = 0; e < volume; e++)
          out[e] = a[permute_source (s, stride, attr->order, e)];
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
              double peak, z;
              row_stats (a, o, x, n, inner, &peak, &z);
              if (op == TP_OP_LOG_SUM_EXP)
                out[o * inner + x] = peak + z;
              else
                for (size_t k = 0; k < n; k++)
                  out[(o * n + k) * inner + x]
                    = a[(o * n + k) * inner + x] - peak - z;
            }
      }
      break;
    }
}

/* Evaluates the n listed elements of node i (never a source, a Sum or a
 * Broadcast, which are whole), the same operations per element as
 * tp_dinterp_eval_node.  For Maximum and Step, kink is set when an
 * element's branch differs from base_decide's. */
static void
eval_elements (const TpTape *t, TpNode i, double *const *v, double *out,
               const uint32_t *list, uint32_t n_list,
               const uint8_t *base_decide, bool *kink)
{
  TpOp op = (TpOp) t->op[i];
  const TpShape *s = &t->shape[i];
  TpNode ia = t->arg[i][0], ib = t->arg[i][1];
  const double *a = ia != TP_NO_NODE ? v[ia] : NULL;
  const double *b = ib != TP_NO_NODE ? v[ib] : NULL;
  const TpAttr *attr = &t->attr[i];

  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
    case TP_OP_SUM:
    case TP_OP_BROADCAST:
      break;
    case TP_OP_ADD:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = a[list[j]] + b[list[j]];
      break;
    case TP_OP_SUB:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = a[list[j]] - b[list[j]];
      break;
    case TP_OP_MUL:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = a[list[j]] * b[list[j]];
      break;
    case TP_OP_DIV:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = a[list[j]] / b[list[j]];
      break;
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
      for (uint32_t j = 0; j < n_list; j++)
        {
          uint32_t e = list[j];
          uint8_t k = branch (op, a[e], b[e]);
          out[e] = op == TP_OP_STEP ? (k ? 1.0 : 0.0) : k ? b[e] : a[e];
          *kink = *kink || k != base_decide[e];
        }
      break;
    case TP_OP_NEG:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = -a[list[j]];
      break;
    case TP_OP_EXP:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = tp_dmath_exp (a[list[j]]);
      break;
    case TP_OP_LN:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = tp_dmath_log (a[list[j]]);
      break;
    case TP_OP_SQRT:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = sqrt (a[list[j]]);
      break;
    case TP_OP_TANH:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = tp_dmath_tanh (a[list[j]]);
      break;
    case TP_OP_SIN:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = tp_dmath_sin (a[list[j]]);
      break;
    case TP_OP_COS:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = tp_dmath_cos (a[list[j]]);
      break;
    case TP_OP_RESHAPE:
      for (uint32_t j = 0; j < n_list; j++)
        out[list[j]] = a[list[j]];
      break;
    case TP_OP_MATMUL:
      {
        size_t k = t->shape[ia].dims[1], n = s->dims[1];
        for (uint32_t j = 0; j < n_list; j++)
          {
            size_t r = list[j] / n, c = list[j] % n;
            double acc = 0.0;
            for (size_t p = 0; p < k; p++)
              acc += a[r * k + p] * b[p * n + c];
            out[list[j]] = acc;
          }
      }
      break;
    case TP_OP_SUM_ALONG:
      {
        size_t outer, n, inner;
        split (&t->shape[ia], attr->axis, &outer, &n, &inner);
        for (uint32_t j = 0; j < n_list; j++)
          {
            size_t o = list[j] / inner, x = list[j] % inner;
            double acc = 0.0;
            for (size_t k = 0; k < n; k++)
              acc += a[(o * n + k) * inner + x];
            out[list[j]] = acc;
          }
      }
      break;
    case TP_OP_BROADCAST_ALONG:
      {
        size_t outer, n, inner;
        split (s, attr->axis, &outer, &n, &inner);
        for (uint32_t j = 0; j < n_list; j++)
          out[list[j]] = a[list[j] / (n * inner) * inner + list[j] % inner];
      }
      break;
    case TP_OP_PERMUTE:
      {
        size_t stride[TP_MAX_RANK];
        strides (&t->shape[ia], stride);
        for (uint32_t j = 0; j < n_list; j++)
          out[list[j]] = a[permute_source (s, stride, attr->order,
                                           list[j])];
      }
      break;
    case TP_OP_LOG_SUM_EXP:
    case TP_OP_LOG_SOFTMAX:
      {
        /* A region lists a LogSoftmax row's elements one after another:
         * the row's statistics serve them all. */
        size_t outer, n, inner, row = SIZE_MAX;
        double peak = 0.0, z = 0.0;
        split (&t->shape[ia], attr->axis, &outer, &n, &inner);
        for (uint32_t j = 0; j < n_list; j++)
          {
            size_t e = list[j], o, x, at;
            if (op == TP_OP_LOG_SUM_EXP)
              o = e / inner;
            else
              o = e / (n * inner);
            x = e % inner;
            at = o * inner + x;
            if (at != row)
              {
                row_stats (a, o, x, n, inner, &peak, &z);
                row = at;
              }
            out[e] = op == TP_OP_LOG_SUM_EXP ? peak + z : a[e] - peak - z;
          }
      }
      break;
    }
}

bool
tp_dinterp_init (TpDInterp *d, const TpTape *t, TpNode loss, TpArena *arena)
{
  size_t n = (size_t) loss + 1;

  memset (d, 0, sizeof *d);
  d->tape = t;
  d->arena = arena;
  d->loss = loss;
  d->param = TP_NO_NODE;
  d->max_volume = 1;
  d->anc = tp_arena_calloc (arena, n, 1);
  d->volume = tp_arena_calloc (arena, n, sizeof *d->volume);
  d->work = tp_arena_calloc (arena, n, sizeof *d->work);
  d->args = tp_arena_alloc (arena, n * sizeof *d->args);
  if (d->anc == NULL || d->volume == NULL || d->work == NULL
      || d->args == NULL)
    return false;
  /* Each node's operands, a missing one as node n (never dependent), so
   * that the scan for dependents needs no arity. */
  for (TpNode i = 0; i <= loss; i++)
    for (uint32_t k = 0; k < 2; k++)
      d->args[i][k] = k < tp_op_info[t->op[i]].arity ? t->arg[i][k]
                                                      : (TpNode) n;
  d->anc[loss] = 1;
  for (TpNode i = loss + 1; i-- > 0;)
    if (d->anc[i])
      {
        uint64_t volume = tp_shape_volume (&t->shape[i]);
        for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
          d->anc[t->arg[i][k]] = 1;
        d->volume[i] = volume;
        d->work[i] = tp_dinterp_node_work (t, i);
        d->elements += 2 * volume;
        d->base_work += d->work[i];
        if (volume > d->max_volume)
          d->max_volume = volume;
      }
  return true;
}

bool
tp_dinterp_run_base (TpDInterp *d)
{
  const TpTape *t = d->tape;
  TpArena *arena = d->arena;
  size_t n = (size_t) d->loss + 1, maxv = (size_t) d->max_volume;

  d->base = tp_arena_calloc (arena, n, sizeof *d->base);
  d->pert = tp_arena_calloc (arena, n, sizeof *d->pert);
  d->cur = tp_arena_calloc (arena, n, sizeof *d->cur);
  d->decide = tp_arena_calloc (arena, n, sizeof *d->decide);
  d->clean = tp_arena_calloc (arena, n, 1);
  d->dep = tp_arena_calloc (arena, n + 1, 1);
  d->deps = tp_arena_alloc (arena, n * sizeof *d->deps);
  d->n_region = tp_arena_calloc (arena, n, sizeof *d->n_region);
  d->region = tp_arena_calloc (arena, n, sizeof *d->region);
  d->mark = tp_arena_calloc (arena, maxv, 1);
  d->scratch = tp_arena_alloc (arena, (2 * maxv + 2) * sizeof *d->scratch);
  d->branch = tp_arena_alloc (arena, maxv);
  if (d->base == NULL || d->pert == NULL || d->cur == NULL
      || d->decide == NULL || d->clean == NULL || d->dep == NULL
      || d->deps == NULL || d->n_region == NULL || d->region == NULL
      || d->mark == NULL || d->scratch == NULL || d->branch == NULL)
    return false;
  for (TpNode i = 0; i <= d->loss; i++)
    {
      size_t volume;
      TpOp op;
      if (!d->anc[i])
        continue;
      volume = (size_t) d->volume[i];
      op = (TpOp) t->op[i];
      d->base[i] = tp_arena_alloc (arena, volume * sizeof (double));
      d->pert[i] = tp_arena_alloc (arena, volume * sizeof (double));
      if (d->base[i] == NULL || d->pert[i] == NULL)
        return false;
      if (op == TP_OP_MAXIMUM || op == TP_OP_STEP)
        {
          d->decide[i] = tp_arena_alloc (arena, volume);
          if (d->decide[i] == NULL)
            return false;
        }
      tp_dinterp_eval_node (t, i, d->base, d->base[i], d->decide[i]);
      memcpy (d->pert[i], d->base[i], volume * sizeof (double));
      d->clean[i] = 1;
      d->cur[i] = d->base[i];
    }
  return true;
}

double *
tp_dinterp_select (TpDInterp *d, TpNode p)
{
  uint8_t *dep = d->dep;

  if (d->param != TP_NO_NODE)
    {
      d->cur[d->param] = d->base[d->param];
      for (uint32_t k = 0; k < d->n_deps; k++)
        {
          d->cur[d->deps[k]] = d->base[d->deps[k]];
          d->n_region[d->deps[k]] = 0;
        }
    }
  d->param = p;
  d->n_deps = 0;
  d->deps_work = 0;
  d->regional = false;
  /* The dependents, by one scan from p: a node depends on p when an
   * operand does. */
  dep[p] = 1;
  for (TpNode i = p + 1; i <= d->loss; i++)
    {
      uint8_t on = (dep[d->args[i][0]] | dep[d->args[i][1]]) & d->anc[i];
      if (!on)
        continue;
      dep[i] = 1;
      d->deps[d->n_deps++] = i;
      d->deps_work += d->work[i];
      d->cur[i] = d->pert[i];
      d->n_region[i] = WHOLE;
    }
  dep[p] = 0;
  for (uint32_t k = 0; k < d->n_deps; k++)
    dep[d->deps[k]] = 0;
  d->cur[p] = d->pert[p];
  return d->pert[p];
}

void
tp_dinterp_whole (TpDInterp *d)
{
  d->regional = false;
  for (uint32_t k = 0; k < d->n_deps; k++)
    d->n_region[d->deps[k]] = WHOLE;
}

/* A node's region as it is built: its elements listed once each (the
 * marks say which are in), up to cap, past which it is whole. */
typedef struct
{
  uint8_t *mark;
  uint32_t *list;
  uint32_t n;
  uint32_t cap;
  bool whole;
} Region;

static void
put (Region *r, size_t e)
{
  if (r->whole || r->mark[e])
    return;
  if (r->n == r->cap)
    {
      r->whole = true;
      return;
    }
  r->mark[e] = 1;
  r->list[r->n++] = (uint32_t) e;
}

/* The distinct values of list[j] / div % mod, into out (the marks
 * cleared again); their count. */
static uint32_t
distinct (uint8_t *mark, const uint32_t *list, uint32_t n, size_t div,
          size_t mod, uint32_t *out)
{
  uint32_t m = 0;

  for (uint32_t j = 0; j < n; j++)
    {
      size_t v = list[j] / div % mod;
      if (!mark[v])
        {
          mark[v] = 1;
          out[m++] = (uint32_t) v;
        }
    }
  for (uint32_t j = 0; j < m; j++)
    mark[out[j]] = 0;
  return m;
}

/* Node i's region from its operands' (each whole, listed, or 0: not
 * changed), into r. */
static void
build_region (TpDInterp *d, TpNode i, Region *r)
{
  const TpTape *t = d->tape;
  TpOp op = (TpOp) t->op[i];
  const TpShape *s = &t->shape[i];
  const TpAttr *attr = &t->attr[i];
  uint32_t arity = tp_op_info[op].arity;
  const uint32_t *list[2] = { NULL, NULL };
  uint32_t n_list[2] = { 0, 0 };

  for (uint32_t k = 0; k < arity; k++)
    {
      TpNode a = t->arg[i][k];
      if (a == d->param)
        {
          list[k] = &d->param_element;
          n_list[k] = 1;
        }
      else
        {
          n_list[k] = d->n_region[a];
          list[k] = d->region[a];
        }
      if (n_list[k] == WHOLE)
        {
          r->whole = true;
          return;
        }
    }
  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
    case TP_OP_SUM:
    case TP_OP_BROADCAST:
      r->whole = true;
      break;
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
    case TP_OP_RESHAPE:
      for (uint32_t k = 0; k < arity; k++)
        for (uint32_t j = 0; j < n_list[k]; j++)
          put (r, list[k][j]);
      break;
    case TP_OP_MATMUL:
      {
        size_t m = s->dims[0], n = s->dims[1];
        size_t k = t->shape[t->arg[i][0]].dims[1];
        uint32_t *rows = d->scratch, *cols = d->scratch + m;
        uint32_t n_rows = distinct (r->mark, list[0], n_list[0], k, m, rows);
        uint32_t n_cols = distinct (r->mark, list[1], n_list[1], 1, n, cols);
        if ((uint64_t) n_rows * n + (uint64_t) n_cols * m > r->cap)
          {
            r->whole = true;
            break;
          }
        for (uint32_t j = 0; j < n_rows; j++)
          for (size_t c = 0; c < n; c++)
            put (r, rows[j] * n + c);
        for (uint32_t j = 0; j < n_cols; j++)
          for (size_t row = 0; row < m; row++)
            put (r, row * n + cols[j]);
      }
      break;
    case TP_OP_SUM_ALONG:
    case TP_OP_LOG_SUM_EXP:
    case TP_OP_LOG_SOFTMAX:
      {
        size_t outer, n, inner;
        split (&t->shape[t->arg[i][0]], attr->axis, &outer, &n, &inner);
        for (uint32_t j = 0; j < n_list[0] && !r->whole; j++)
          {
            size_t e = list[0][j], o = e / (n * inner), x = e % inner;
            if (op != TP_OP_LOG_SOFTMAX)
              put (r, o * inner + x);
            else
              for (size_t q = 0; q < n; q++)
                put (r, (o * n + q) * inner + x);
          }
      }
      break;
    case TP_OP_BROADCAST_ALONG:
      {
        size_t outer, n, inner;
        split (s, attr->axis, &outer, &n, &inner);
        for (uint32_t j = 0; j < n_list[0] && !r->whole; j++)
          {
            size_t e = list[0][j], o = e / inner, x = e % inner;
            for (size_t q = 0; q < n; q++)
              put (r, (o * n + q) * inner + x);
          }
      }
      break;
    case TP_OP_PERMUTE:
      {
        const TpShape *in = &t->shape[t->arg[i][0]];
        size_t ostride[TP_MAX_RANK];
        strides (s, ostride);
        /* out axis q reads in axis order[q]: an operand element with
         * index j moves to the index whose axis q is j[order[q]]. */
        for (uint32_t j = 0; j < n_list[0]; j++)
          {
            size_t e = list[0][j], at = 0;
            size_t idx[TP_MAX_RANK];
            for (uint32_t q = in->rank; q-- > 0;)
              {
                idx[q] = e % in->dims[q];
                e /= in->dims[q];
              }
            for (uint32_t q = 0; q < s->rank; q++)
              at += idx[attr->order[q]] * ostride[q];
            put (r, at);
          }
      }
      break;
    }
}

bool
tp_dinterp_region (TpDInterp *d, uint64_t e, uint64_t *work)
{
  uint64_t total = d->n_deps;

  d->regional = true;
  d->param_element = (uint32_t) e;
  for (uint32_t k = 0; k < d->n_deps; k++)
    {
      TpNode i = d->deps[k];
      uint64_t volume = d->volume[i], node_work = d->work[i];
      Region r = { d->mark, NULL, 0, (uint32_t) (volume / 2), false };

      if (r.cap > 0 && d->region[i] == NULL)
        {
          d->region[i] = tp_arena_alloc (d->arena, r.cap * sizeof (uint32_t));
          if (d->region[i] == NULL)
            return false;
        }
      r.list = d->region[i];
      if (r.cap == 0)
        r.whole = true;
      else
        build_region (d, i, &r);
      for (uint32_t j = 0; j < r.n; j++)
        d->mark[r.list[j]] = 0;
      if (r.whole)
        {
          d->n_region[i] = WHOLE;
          total += node_work;
          continue;
        }
      d->n_region[i] = r.n;
      total += r.n * ((node_work + volume - 1) / volume);
      if (!d->clean[i])
        {
          memcpy (d->pert[i], d->base[i], (size_t) volume * sizeof (double));
          d->clean[i] = 1;
        }
    }
  *work = total;
  return true;
}

double
tp_dinterp_run (TpDInterp *d, bool *kink)
{
  const TpTape *t = d->tape;

  for (uint32_t k = 0; k < d->n_deps; k++)
    {
      TpNode i = d->deps[k];
      TpOp op = (TpOp) t->op[i];
      bool decides = op == TP_OP_MAXIMUM || op == TP_OP_STEP;

      if (d->n_region[i] != WHOLE)
        {
          eval_elements (t, i, d->cur, d->pert[i], d->region[i],
                         d->n_region[i], d->decide[i], kink);
          continue;
        }
      d->clean[i] = 0;
      tp_dinterp_eval_node (t, i, d->cur, d->pert[i],
                            decides ? d->branch : NULL);
      if (decides)
        {
          uint64_t volume = d->volume[i];
          for (uint64_t e = 0; e < volume && !*kink; e++)
            *kink = d->branch[e] != d->decide[i][e];
        }
    }
  return d->cur[d->loss][0];
}

void
tp_dinterp_restore (TpDInterp *d)
{
  for (uint32_t k = 0; k < d->n_deps; k++)
    {
      TpNode i = d->deps[k];
      if (d->n_region[i] == WHOLE)
        continue;
      for (uint32_t j = 0; j < d->n_region[i]; j++)
        d->pert[i][d->region[i][j]] = d->base[i][d->region[i][j]];
    }
}
