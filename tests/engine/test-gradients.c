/* Gradients are right: for every differentiable op, the composites and the
 * original page's samples, the gradient that differentiate records is compared
 * with central finite differences of the program.
 *
 * f32 finite differences are too noisy to say much (a step small enough
 * for the truncation error drowns in rounding), so this test carries its
 * own double-precision evaluation of the tape, op for op the interpreter's
 * semantics (docs/language.md, values) in double.  Per parameter element:
 *
 *   fd = (L(p + h) - L(p - h)) / 2h     in double, h = 1e-5 * max(1, |p|)
 *
 * and two checks, with these tolerances:
 *
 *   1. the recorded gradient nodes evaluated in double agree with fd:
 *      |g_double - fd| <= 1e-8 * max(1, |fd|).  The truncation error is
 *      about h^2 |L'''| / 6 and the rounding error about 1e-16 |L| / h,
 *      both near 1e-10 for these programs (the worst seen is 1.7e-10), so
 *      this proves the recorded graph is the derivative; a wrong rule
 *      misses by far more.
 *   2. the gradient the f32 interpreter computes (what the values reading
 *      prints) agrees with fd: |g_f32 - fd| <= 1e-5 * max(1, |fd|).  f32
 *      carries 24 bits (6e-8 relative) and these programs chain a few
 *      dozen roundings; the worst seen is 2.3e-7.
 *
 * The double evaluation is itself checked against the interpreter: every
 * spec node agrees within 1e-5 * max(1, |v|).
 *
 * Nothing is skipped except points at a kink: an element whose +h and -h
 * evaluations take different branches of a Maximum or Step (relu at 0, a
 * maximum tie) has no derivative there; those are counted and reported,
 * and a case says how many it expects. */
#include <math.h>

#include "tp-alloc.h"
#include "tp-diff.h"
#include "tp-parse.h"
#include "tp-run.h"
#include "tp-tape.h"
#include "tp-test-util.h"

#define TOL_DOUBLE 1e-8
#define TOL_F32 1e-5
#define TOL_FORWARD 1e-5

typedef struct
{
  const TpTape *t;
  double **v;            /* per node, volume elements */
  double **source;       /* per node: a source's payload in double */
  uint8_t **branch;      /* per Maximum/Step node: the branch per element */
} Eval;

static size_t
volume (const TpTape *t, TpNode i)
{
  return (size_t) tp_shape_volume (&t->shape[i]);
}

/* outer * n * inner = shape, n being axis k's extent. */
static void
split (const TpShape *s, uint32_t k, size_t *outer, size_t *n, size_t *inner)
{
  *outer = 1;
  *inner = 1;
  for (uint32_t d = 0; d < k; d++)
    *outer *= s->dims[d];
  *n = s->dims[k];
  for (uint32_t d = k + 1; d < s->rank; d++)
    *inner *= s->dims[d];
}

/* max_k or sum_k of x over axis k of shape s into out. */
static void
reduce_along (const double *x, const TpShape *s, uint32_t k, bool max,
              double *out)
{
  size_t outer, n, inner;

  split (s, k, &outer, &n, &inner);
  for (size_t o = 0; o < outer; o++)
    for (size_t i = 0; i < inner; i++)
      {
        double acc = x[o * n * inner + i];
        for (size_t j = 1; j < n; j++)
          {
            double e = x[(o * n + j) * inner + i];
            acc = max ? ((isnan (acc) || acc < e) ? e : acc) : acc + e;
          }
        out[o * inner + i] = acc;
      }
}

/* Evaluates node i in double from its operands' values. */
static void
eval_node (Eval *ev, TpNode i)
{
  const TpTape *t = ev->t;
  TpOp op = (TpOp) t->op[i];
  const TpShape *s = &t->shape[i];
  const TpAttr *attr = &t->attr[i];
  size_t n = volume (t, i);
  double *out = ev->v[i];
  const double *a = t->arg[i][0] != TP_NO_NODE ? ev->v[t->arg[i][0]] : NULL;
  const double *b = tp_op_info[op].arity == 2 ? ev->v[t->arg[i][1]] : NULL;
  const TpShape *sa = a != NULL ? &t->shape[t->arg[i][0]] : NULL;

  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      memcpy (out, ev->source[i], n * sizeof *out);
      break;
    case TP_OP_ADD:
      for (size_t e = 0; e < n; e++)
        out[e] = a[e] + b[e];
      break;
    case TP_OP_SUB:
      for (size_t e = 0; e < n; e++)
        out[e] = a[e] - b[e];
      break;
    case TP_OP_MUL:
      for (size_t e = 0; e < n; e++)
        out[e] = a[e] * b[e];
      break;
    case TP_OP_DIV:
      for (size_t e = 0; e < n; e++)
        out[e] = a[e] / b[e];
      break;
    case TP_OP_MAXIMUM:
      for (size_t e = 0; e < n; e++)
        {
          bool right = isnan (a[e]) || a[e] < b[e];
          out[e] = right ? b[e] : a[e];
          ev->branch[i][e] = right;
        }
      break;
    case TP_OP_STEP:
      for (size_t e = 0; e < n; e++)
        {
          out[e] = a[e] >= b[e] ? 1.0 : 0.0;
          ev->branch[i][e] = a[e] >= b[e];
        }
      break;
    case TP_OP_NEG:
      for (size_t e = 0; e < n; e++)
        out[e] = -a[e];
      break;
    case TP_OP_EXP:
      for (size_t e = 0; e < n; e++)
        out[e] = exp (a[e]);
      break;
    case TP_OP_LN:
      for (size_t e = 0; e < n; e++)
        out[e] = log (a[e]);
      break;
    case TP_OP_SQRT:
      for (size_t e = 0; e < n; e++)
        out[e] = sqrt (a[e]);
      break;
    case TP_OP_TANH:
      for (size_t e = 0; e < n; e++)
        out[e] = tanh (a[e]);
      break;
    case TP_OP_SIN:
      for (size_t e = 0; e < n; e++)
        out[e] = sin (a[e]);
      break;
    case TP_OP_COS:
      for (size_t e = 0; e < n; e++)
        out[e] = cos (a[e]);
      break;
    case TP_OP_MATMUL:
      {
        size_t m = sa->dims[0], k = sa->dims[1], p = s->dims[1];
        g_assert_cmpuint (sa->rank, ==, 2);
        for (size_t r = 0; r < m; r++)
          for (size_t c = 0; c < p; c++)
            {
              double acc = a[r * k] * b[c];
              for (size_t j = 1; j < k; j++)
                acc += a[r * k + j] * b[j * p + c];
              out[r * p + c] = acc;
            }
        break;
      }
    case TP_OP_SUM:
      {
        size_t na = (size_t) tp_shape_volume (sa);
        double acc = a[0];
        for (size_t e = 1; e < na; e++)
          acc += a[e];
        out[0] = acc;
        break;
      }
    case TP_OP_SUM_ALONG:
      reduce_along (a, sa, attr->axis, false, out);
      break;
    case TP_OP_BROADCAST:
      for (size_t e = 0; e < n; e++)
        out[e] = a[0];
      break;
    case TP_OP_BROADCAST_ALONG:
      {
        size_t outer, ext, inner;
        split (s, attr->axis, &outer, &ext, &inner);
        for (size_t o = 0; o < outer; o++)
          for (size_t j = 0; j < ext; j++)
            for (size_t in = 0; in < inner; in++)
              out[(o * ext + j) * inner + in] = a[o * inner + in];
        break;
      }
    case TP_OP_RESHAPE:
      memcpy (out, a, n * sizeof *out);
      break;
    case TP_OP_PERMUTE:
      {
        size_t stride[TP_MAX_RANK], idx[TP_MAX_RANK] = { 0 };
        size_t st = 1;
        for (uint32_t d = sa->rank; d-- > 0;)
          {
            stride[d] = st;
            st *= sa->dims[d];
          }
        for (size_t e = 0; e < n; e++)
          {
            size_t from = 0;
            for (uint32_t d = 0; d < s->rank; d++)
              from += idx[d] * stride[attr->order[d]];
            out[e] = a[from];
            for (uint32_t d = s->rank; d-- > 0;)
              {
                if (++idx[d] < s->dims[d])
                  break;
                idx[d] = 0;
              }
          }
        break;
      }
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      {
        size_t outer, ext, inner;
        size_t na = (size_t) tp_shape_volume (sa);
        double *peak = g_new (double, na / sa->dims[attr->axis]);
        double *total = g_new (double, na / sa->dims[attr->axis]);
        double *ex = g_new (double, na);
        split (sa, attr->axis, &outer, &ext, &inner);
        reduce_along (a, sa, attr->axis, true, peak);
        for (size_t o = 0; o < outer; o++)
          for (size_t j = 0; j < ext; j++)
            for (size_t in = 0; in < inner; in++)
              {
                size_t e = (o * ext + j) * inner + in;
                ex[e] = exp (a[e] - peak[o * inner + in]);
              }
        reduce_along (ex, sa, attr->axis, false, total);
        for (size_t r = 0; r < outer * inner; r++)
          total[r] = log (total[r]);
        if (op == TP_OP_LOG_SUM_EXP)
          for (size_t r = 0; r < outer * inner; r++)
            out[r] = peak[r] + total[r];
        else
          for (size_t o = 0; o < outer; o++)
            for (size_t j = 0; j < ext; j++)
              for (size_t in = 0; in < inner; in++)
                {
                  size_t e = (o * ext + j) * inner + in;
                  out[e] = (a[e] - peak[o * inner + in]) - total[o * inner + in];
                }
        g_free (peak);
        g_free (total);
        g_free (ex);
        break;
      }
    default:
      g_assert_not_reached ();
    }
}

static void
eval_init (Eval *ev, const TpTape *t)
{
  ev->t = t;
  ev->v = g_new0 (double *, t->len);
  ev->source = g_new0 (double *, t->len);
  ev->branch = g_new0 (uint8_t *, t->len);
  for (TpNode i = 0; i < t->len; i++)
    {
      size_t n = volume (t, i);
      ev->v[i] = g_new0 (double, n);
      if (tp_tape_is_source (t, i))
        {
          ev->source[i] = g_new (double, n);
          for (size_t e = 0; e < n; e++)
            ev->source[i][e] = (double) t->payload[i][e];
        }
      if (t->op[i] == TP_OP_MAXIMUM || t->op[i] == TP_OP_STEP)
        ev->branch[i] = g_new0 (uint8_t, n);
    }
}

static void
eval_clear (Eval *ev)
{
  for (TpNode i = 0; i < ev->t->len; i++)
    {
      g_free (ev->v[i]);
      g_free (ev->source[i]);
      g_free (ev->branch[i]);
    }
  g_free (ev->v);
  g_free (ev->source);
  g_free (ev->branch);
}

/* Evaluates nodes [0, upto]. */
static void
eval_upto (Eval *ev, TpNode upto)
{
  for (TpNode i = 0; i <= upto; i++)
    eval_node (ev, i);
}

/* The branches of every Maximum and Step in [0, upto], concatenated. */
static GByteArray *
branches (const Eval *ev, TpNode upto)
{
  GByteArray *out = g_byte_array_new ();

  for (TpNode i = 0; i <= upto; i++)
    if (ev->branch[i] != NULL)
      g_byte_array_append (out, ev->branch[i], (guint) volume (ev->t, i));
  return out;
}

typedef struct
{
  guint checked;
  guint kinks;
  double worst_double;   /* worst |g_double - fd| / max(1, |fd|) */
  double worst_f32;
} Report;

/* Differentiates loss with respect to every parameter of t and checks
 * each gradient element (see the top of the file). */
static void
check_tape (TpTape *t, TpArena *arena, TpNode loss, guint expect_kinks,
            Report *rep)
{
  TpNode wrt[64], grads[64];
  uint32_t n_wrt = 0;
  float **values;
  Eval ev;

  g_assert_cmpuint (t->shape[loss].rank, ==, 0);
  for (TpNode i = 0; i < t->len; i++)
    if (t->op[i] == TP_OP_PARAMETER)
      wrt[n_wrt++] = i;
  g_assert_cmpuint (n_wrt, >, 0);
  g_assert_true (tp_differentiate (t, loss, wrt, n_wrt, grads));
  values = tp_arena_alloc (arena, t->len * sizeof *values);
  g_assert_nonnull (values);
  g_assert_true (tp_run_forward (t, arena, values));

  eval_init (&ev, t);
  eval_upto (&ev, t->len - 1);
  /* The double evaluation is the interpreter's, up to rounding. */
  for (TpNode i = 0; i <= loss; i++)
    for (size_t e = 0; e < volume (t, i); e++)
      {
        double v = (double) values[i][e];
        if (fabs (ev.v[i][e] - v) > TOL_FORWARD * fmax (1.0, fabs (v)))
          g_error ("node %u element %zu: double %.9g, interpreter %.9g", i,
                   e, ev.v[i][e], v);
      }

  for (uint32_t k = 0; k < n_wrt; k++)
    {
      TpNode p = wrt[k], g = grads[k];
      size_t n = volume (t, p);
      double *gd = g_memdup2 (ev.v[g], n * sizeof *gd);
      for (size_t e = 0; e < n; e++)
        {
          double base = ev.source[p][e];
          double h = 1e-5 * fmax (1.0, fabs (base));
          double lp, lm, fd, gf = (double) values[g][e], err;
          GByteArray *bp, *bm;

          ev.source[p][e] = base + h;
          eval_upto (&ev, loss);
          lp = ev.v[loss][0];
          bp = branches (&ev, loss);
          ev.source[p][e] = base - h;
          eval_upto (&ev, loss);
          lm = ev.v[loss][0];
          bm = branches (&ev, loss);
          ev.source[p][e] = base;
          if (bp->len != bm->len
              || (bp->len > 0 && memcmp (bp->data, bm->data, bp->len) != 0))
            {
              rep->kinks++;
              g_byte_array_unref (bp);
              g_byte_array_unref (bm);
              continue;
            }
          g_byte_array_unref (bp);
          g_byte_array_unref (bm);
          fd = (lp - lm) / (2.0 * h);
          rep->checked++;

          err = fabs (gd[e] - fd) / fmax (1.0, fabs (fd));
          rep->worst_double = fmax (rep->worst_double, err);
          if (err > TOL_DOUBLE)
            g_error ("d/d node %u element %zu: recorded gradient (double) "
                     "%.12g, finite difference %.12g", p, e, gd[e], fd);
          err = fabs (gf - fd) / fmax (1.0, fabs (fd));
          rep->worst_f32 = fmax (rep->worst_f32, err);
          if (err > TOL_F32)
            g_error ("d/d node %u element %zu: recorded gradient (f32) "
                     "%.9g, finite difference %.12g", p, e, gf, fd);
        }
      g_free (gd);
    }
  eval_clear (&ev);
  g_assert_cmpuint (rep->kinks, ==, expect_kinks);
}

/* Parses src and checks the gradient of its last rank-0 statement. */
static void
check_program (const char *src, guint expect_kinks)
{
  TpArena arena;
  TpProgram prog;
  TpNode loss = TP_NO_NODE;
  Report rep = { 0, 0, 0.0, 0.0 };

  tp_arena_init (&arena);
  tp_program_init (&prog, &arena);
  if (!tp_parse (&prog, src, strlen (src)))
    g_error ("%u:%u: %s", prog.line, prog.column,
             prog.message.data != NULL ? prog.message.data : "");
  for (uint32_t k = 0; k < prog.n_stmts; k++)
    if (prog.tape.shape[prog.stmts[k].node].rank == 0)
      loss = prog.stmts[k].node;
  g_assert_cmpuint (loss, !=, TP_NO_NODE);
  check_tape (&prog.tape, &arena, loss, expect_kinks, &rep);
  g_assert_cmpuint (rep.checked, >, 0);
  g_test_message ("%u elements, %u kinks; worst error double %.3g, f32 %.3g",
                  rep.checked, rep.kinks, rep.worst_double, rep.worst_f32);
  tp_program_clear (&prog);
  tp_arena_reset (&arena);
}

typedef struct
{
  const char *path;
  const char *src;
  guint kinks;
} Case;

/* One op each (both operands parameters where there are two, weighted by
 * a seeded leaf so no symmetry hides a wrong rule), then the composites
 * and the original page's samples. */
static const Case cases[] = {
  { "/gradients/add", "a = parameter [2, 3]\nb = parameter [2, 3]\n"
    "c = leaf [2, 3]\nloss = sum((a + b) * c)\n", 0 },
  { "/gradients/sub", "a = parameter [2, 3]\nb = parameter [2, 3]\n"
    "c = leaf [2, 3]\nloss = sum((a - b) * c)\n", 0 },
  { "/gradients/mul", "a = parameter [2, 3]\nb = parameter [2, 3]\n"
    "c = leaf [2, 3]\nloss = sum(a * b * c)\n", 0 },
  { "/gradients/div", "a = parameter [2, 3]\nb = parameter [2, 3]\n"
    "c = leaf [2, 3]\nloss = sum(a / (b + 2.0) * c)\n", 0 },
  { "/gradients/neg", "a = parameter [3]\nc = leaf [3]\n"
    "loss = sum(-a * c)\n", 0 },
  { "/gradients/exp", "a = parameter [2, 3]\nc = leaf [2, 3]\n"
    "loss = sum(exp(a) * c)\n", 0 },
  { "/gradients/ln", "a = parameter [2, 3]\nc = leaf [2, 3]\n"
    "loss = sum(ln(a + 2.0) * c)\n", 0 },
  { "/gradients/sqrt", "a = parameter [2, 3]\nc = leaf [2, 3]\n"
    "loss = sum(sqrt(a + 2.0) * c)\n", 0 },
  { "/gradients/tanh", "a = parameter [2, 3]\nc = leaf [2, 3]\n"
    "loss = sum(tanh(a * 2.0) * c)\n", 0 },
  { "/gradients/sin", "a = parameter [2, 3]\nc = leaf [2, 3]\n"
    "loss = sum(sin(a * 3.0) * c)\n", 0 },
  { "/gradients/cos", "a = parameter [2, 3]\nc = leaf [2, 3]\n"
    "loss = sum(cos(a * 3.0) * c)\n", 0 },
  { "/gradients/matmul", "a = parameter [2, 3]\nb = parameter [3, 4]\n"
    "c = leaf [2, 4]\nloss = sum((a @ b) * c)\n", 0 },
  { "/gradients/sum", "a = parameter [2, 3]\ns = parameter 0.5\n"
    "loss = sum(a) * sum(a) + sum(s) * sum(a)\n", 0 },
  { "/gradients/sum-along", "a = parameter [2, 3]\nc0 = leaf [3]\n"
    "c1 = leaf [2]\nloss = sum(sum_along(a * a, 0) * c0) + "
    "sum(sum_along(a, 1) * c1)\n", 0 },
  { "/gradients/broadcast", "s = parameter 0.5\nt = parameter 1.5\n"
    "c = leaf [2, 3]\nloss = sum(broadcast(s * t, [2, 3]) * c) + "
    "sum(c * s)\n", 0 },
  { "/gradients/reshape", "a = parameter [2, 3]\nc = leaf [3, 2]\n"
    "d = leaf [6]\nloss = sum(reshape(a, [3, 2]) * c) + "
    "sum(reshape(a * a, [6]) * d)\n", 0 },
  { "/gradients/permute", "a = parameter [2, 3]\nc = leaf [3, 2]\n"
    "loss = sum(transpose(a) * c)\n", 0 },
  { "/gradients/maximum", "a = parameter [3, 3]\nc = leaf [3, 3]\n"
    "loss = sum(relu(a) * c)\n", 0 },
  { "/gradients/log-softmax", "a = parameter [3, 4]\nc = leaf [3, 4]\n"
    "loss = sum(log_softmax(a, 1) * c) + sum(log_softmax(a * 2.0, 0) * c)\n",
    0 },
  { "/gradients/logsumexp", "a = parameter [3, 4]\nc = leaf [3]\n"
    "d = leaf [4]\nloss = sum(logsumexp(a, 1) * c) + "
    "sum(logsumexp(a, 0) * d)\n", 0 },
  { "/gradients/relu", "w = parameter [2, 3]\nx = input [4, 2]\n"
    "c = leaf [4, 3]\nloss = sum(relu(x @ w) * c)\n", 0 },
  { "/gradients/transpose", "w = parameter [2, 3]\nx = input [3, 3]\n"
    "loss = sum(tanh(transpose(w) @ transpose(x @ transpose(w))))\n", 0 },
  { "/gradients/softmax", "a = parameter [2, 5]\nc = leaf [2, 5]\n"
    "loss = sum(softmax(a, 1) * c) + sum(softmax(a, 0) * softmax(a, 0))\n",
    0 },
  { "/gradients/mean-along", "a = parameter [4, 3]\nc = leaf [3]\n"
    "d = leaf [4]\nloss = sum(mean_along(a, 0) * c) + "
    "sum(mean_along(a * a, 1) * d)\n", 0 },
  { "/gradients/sample/readme", "w = parameter 0.0\nx = input 2.0\n"
    "y = input 4.0\nerror = w * x - y\nloss = error * error\n", 0 },
  { "/gradients/sample/dense-layer", "weights = parameter [2, 2]\n"
    "input = input [1, 2]\nhidden = tanh(input @ weights)\n"
    "loss = sum(hidden * hidden)\n", 0 },
  { "/gradients/sample/classifier", "w = parameter [5, 3]\n"
    "b = parameter [3]\nx = input [4, 5]\n"
    "logits = x @ w + broadcast(0.0, [4, 3])\n"
    "scores = log_softmax(logits, 1)\nloss = -sum(scores) / 4.0\n", 0 },
  { "/gradients/sample/two-layers", "w1 = parameter [3, 8]\n"
    "w2 = parameter [8, 2]\nx = input [6, 3]\nh = tanh(x @ w1)\n"
    "y = tanh(h @ w2)\nloss = sum(y * y)\n", 0 },
  /* "not yet a scalar" has no gradient until it is summed. */
  { "/gradients/sample/not-yet-a-scalar", "w = parameter [2, 2]\n"
    "x = input [1, 2]\ny = relu(x @ w)\nloss = sum(y)\n", 0 },
  { "/gradients/sample/most-of-the-language", "w = parameter [2, 2]\n"
    "x = input [1, 2]\nc = leaf [3]\nb = parameter 0.5\n"
    "h = tanh(x @ w) * b\nr = relu(h)\ns = softmax(r, 1)\n"
    "m = mean_along(s, 1)\nt = transpose(w)\n"
    "q = reshape(broadcast(2.0, [3, 4]), [12])\nloss = sum(m) + sum(t)\n", 0 },
  /* A relu exactly at its kink: b = 0 makes every h zero, a tie in
   * Maximum(h, 0), so there is no derivative with respect to b (one kink,
   * skipped).  While b = 0, w cannot move h off the tie, so w's elements
   * are checked (their gradient is 0). */
  { "/gradients/kink", "w = parameter [2, 2]\nx = input [1, 2]\n"
    "b = parameter 0.0\nloss = sum(relu(tanh(x @ w) * b))\n", 1 },
};

static void
test_case (gconstpointer data)
{
  const Case *c = data;

  check_program (c->src, c->kinks);
}

/* Builds a tape through the API for what the language cannot write:
 * BroadcastAlong, a rank-3 Permute, Maximum of two parameters with a tie,
 * and Step (which passes no gradient). */
static TpNode
seeded (TpTape *t, TpOp kind, const TpShape *shape, uint64_t seed)
{
  float *p = tp_tape_alloc_payload (t, shape);

  g_assert_nonnull (p);
  tp_uniform_fill (seed, p, tp_shape_volume (shape));
  return tp_tape_record (t, kind, TP_NO_NODE, TP_NO_NODE, NULL, shape, p);
}

static TpShape
shape3 (uint32_t rank, uint32_t d0, uint32_t d1, uint32_t d2)
{
  TpShape s;

  memset (&s, 0, sizeof s);
  s.rank = rank;
  s.dims[0] = d0;
  s.dims[1] = d1;
  s.dims[2] = d2;
  return s;
}

static void
test_tape_ops (void)
{
  static const uint8_t order[3] = { 2, 0, 1 };
  TpArena arena;
  TpTape t;
  TpShape s23 = shape3 (2, 2, 3, 0), s234 = shape3 (3, 2, 3, 4);
  TpShape s423 = shape3 (3, 4, 2, 3), s243 = shape3 (3, 2, 4, 3);
  TpNode a, p3, x, w, bb, m, st, loss;
  Report rep = { 0, 0, 0.0, 0.0 };

  tp_arena_init (&arena);
  tp_tape_init (&t, &arena);
  a = seeded (&t, TP_OP_PARAMETER, &s23, 2);
  p3 = seeded (&t, TP_OP_PARAMETER, &s234, 3);
  w = seeded (&t, TP_OP_LEAF, &s243, 4);
  x = seeded (&t, TP_OP_LEAF, &s423, 5);
  /* BroadcastAlong at a middle axis, weighted. */
  bb = tp_tape_broadcast_along (&t, a, 1, 4);
  loss = tp_tape_unary (&t, TP_OP_SUM, tp_tape_binary (&t, TP_OP_MUL, bb, w));
  /* Permute [2, 0, 1] of a rank-3 parameter, weighted. */
  loss = tp_tape_binary (&t, TP_OP_ADD, loss,
                         tp_tape_unary (&t, TP_OP_SUM,
                                        tp_tape_binary (&t, TP_OP_MUL,
                                                        tp_tape_permute (&t, p3, order),
                                                        x)));
  /* Maximum of two parameters (no ties here) and Step, which passes no
   * gradient to either side. */
  m = tp_tape_binary (&t, TP_OP_MAXIMUM, tp_tape_unary (&t, TP_OP_SIN, a),
                      tp_tape_unary (&t, TP_OP_COS, a));
  st = tp_tape_binary (&t, TP_OP_STEP, a, tp_tape_unary (&t, TP_OP_NEG, a));
  loss = tp_tape_binary (&t, TP_OP_ADD, loss,
                         tp_tape_unary (&t, TP_OP_SUM,
                                        tp_tape_binary (&t, TP_OP_MUL, m, st)));
  g_assert_cmpint (t.error, ==, TP_TAPE_OK);
  check_tape (&t, &arena, loss, 0, &rep);
  g_assert_cmpuint (rep.checked, ==, 6 + 24);
  g_test_message ("%u elements; worst error double %.3g, f32 %.3g",
                  rep.checked, rep.worst_double, rep.worst_f32);
  tp_arena_reset (&arena);
}

/* A Maximum tie between two parameters: every element a kink. */
static void
test_tie (void)
{
  TpArena arena;
  TpTape t;
  TpShape s = shape3 (1, 3, 0, 0);
  TpNode a, b, loss;
  Report rep = { 0, 0, 0.0, 0.0 };

  tp_arena_init (&arena);
  tp_tape_init (&t, &arena);
  a = seeded (&t, TP_OP_PARAMETER, &s, 2);
  b = seeded (&t, TP_OP_PARAMETER, &s, 2);
  loss = tp_tape_unary (&t, TP_OP_SUM, tp_tape_binary (&t, TP_OP_MAXIMUM, a, b));
  check_tape (&t, &arena, loss, 6, &rep);
  g_assert_cmpuint (rep.checked, ==, 0);
  tp_arena_reset (&arena);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t k = 0; k < G_N_ELEMENTS (cases); k++)
    g_test_add_data_func (cases[k].path, &cases[k], test_case);
  g_test_add_func ("/gradients/tape-ops", test_tape_ops);
  g_test_add_func ("/gradients/tie", test_tie);
  return g_test_run ();
}
