/* tp-check.c: the gradient check and the non-finite origin (tp-check.h).
 *
 * The forward program is evaluated again in double by tp-dinterp.c: the
 * target's ancestors among the program's own nodes (never the appended
 * gradient), from the sources' f32 payloads widened to double.  A
 * perturbed run re-evaluates only the nodes that depend on the perturbed
 * parameter.
 *
 * Central differences: numeric = (f(p + h) - f(p - h)) / (2 h) with
 * h = cbrt(DBL_EPSILON) * max(1, |p|) (the step that balances truncation,
 * O(h^2), against rounding, O(eps / h)).
 *
 * A kink: an element whose perturbed runs take a different branch of a
 * Maximum or a Step (for either sign of h) than the unperturbed run, such
 * as relu at 0 or a maximum tie; the one-sided slopes differ there, so
 * the element is reported as `kink` and not counted as differing. */
#include "tp-check.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "tp-dinterp.h"
#include "tp-engine.h"
#include "tp-json.h"

/* cbrt(DBL_EPSILON), written out so no libm rounding decides it. */
#define STEP_SCALE 6.0554544523933395e-06

static bool
finite_f (float x)
{
  return x == x && x <= FLT_MAX && x >= -FLT_MAX;
}

/* Whether each of node i's operands has one value per element of i at
 * the same flat index (element-wise), or one value (broadcast). */
static void
operands_at (const TpTape *t, TpNode i, float *const *values, uint64_t e,
             TpNonfinite *out)
{
  TpOp op = (TpOp) t->op[i];
  TpNode a = t->arg[i][0], b = t->arg[i][1];

  out->n_operands = 0;
  switch (op)
    {
    case TP_OP_ADD:
    case TP_OP_SUB:
    case TP_OP_MUL:
    case TP_OP_DIV:
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
      out->operands[0] = values[a][e];
      out->operands[1] = values[b][e];
      out->n_operands = 2;
      break;
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SQRT:
    case TP_OP_TANH:
    case TP_OP_SIN:
    case TP_OP_COS:
    case TP_OP_RESHAPE:
    case TP_OP_LOG_SOFTMAX:
      out->operands[0] = values[a][e];
      out->n_operands = 1;
      break;
    case TP_OP_BROADCAST:
      out->operands[0] = values[a][0];
      out->n_operands = 1;
      break;
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
    case TP_OP_MATMUL:
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_PERMUTE:
    case TP_OP_LOG_SUM_EXP:
      break;
    }
}

bool
tp_check_nonfinite (const TpTape *t, float *const *values, TpArena *arena,
                    TpNonfinite *out)
{
  uint8_t *bad;

  memset (out, 0, sizeof *out);
  out->node = TP_NO_NODE;
  for (TpNode i = 0; i < t->len && !out->found; i++)
    {
      uint64_t volume = tp_shape_volume (&t->shape[i]);
      for (uint64_t e = 0; e < volume; e++)
        if (!finite_f (values[i][e]))
          {
            out->found = true;
            out->node = i;
            out->element = e;
            out->value = values[i][e];
            operands_at (t, i, values, e, out);
            break;
          }
    }
  if (!out->found)
    return true;
  /* Later nodes that depend on it and hold a non-finite value too. */
  bad = tp_arena_calloc (arena, t->len, 1);
  if (bad == NULL)
    return false;
  bad[out->node] = 1;
  for (TpNode i = out->node + 1; i < t->len; i++)
    {
      uint32_t arity = tp_op_info[t->op[i]].arity;
      bool dep = false;
      uint64_t volume;
      for (uint32_t k = 0; k < arity; k++)
        dep = dep || bad[t->arg[i][k]];
      if (!dep)
        continue;
      bad[i] = 1;
      volume = tp_shape_volume (&t->shape[i]);
      for (uint64_t e = 0; e < volume; e++)
        if (!finite_f (values[i][e]))
          {
            out->inherited_by++;
            break;
          }
    }
  return true;
}

typedef struct
{
  const TpTape *t;
  TpNode loss;
  uint8_t *anc;           /* per node: an ancestor of the loss */
  uint8_t *dep;           /* per node: depends on the perturbed parameter */
  double **base;          /* unperturbed values */
  double **pert;          /* perturbed values of dependent nodes */
  double **cur;           /* what a perturbed run reads */
  uint8_t **decide;       /* per Maximum and Step: the base branches */
  uint8_t *tmp_decide;    /* one node's branches in a perturbed run */
} Dbl;

/* One perturbed run; true when some Maximum or Step changed branch. */
static double
perturbed_run (Dbl *d, TpNode param, bool *kink)
{
  const TpTape *t = d->t;

  for (TpNode i = param + 1; i <= d->loss; i++)
    {
      TpOp op;
      if (!d->dep[i])
        continue;
      op = (TpOp) t->op[i];
      if (op == TP_OP_MAXIMUM || op == TP_OP_STEP)
        {
          uint64_t volume = tp_shape_volume (&t->shape[i]);
          tp_dinterp_eval_node (t, i, d->cur, d->pert[i], d->tmp_decide, NULL);
          for (uint64_t e = 0; e < volume && !*kink; e++)
            *kink = d->tmp_decide[e] != d->decide[i][e];
        }
      else
        tp_dinterp_eval_node (t, i, d->cur, d->pert[i], NULL, NULL);
    }
  return d->cur[d->loss][0];
}

static double
relative_error (double a, double n)
{
  double scale = fabs (a) > fabs (n) ? fabs (a) : fabs (n);

  if (scale < 1.0)
    scale = 1.0;
  return fabs (a - n) / scale;
}

bool
tp_check_gradients (const TpTape *t, uint32_t spec_nodes, TpNode loss,
                    const TpNode *wrt, const TpNode *grads, uint32_t n_wrt,
                    float *const *values, TpArena *arena, TpCheck *out)
{
  Dbl d;
  uint64_t elements = 0, budget = TP_CHECK_WORK, base_cost = 0;
  uint64_t max_volume = 1;

  memset (out, 0, sizeof *out);
  if (!tp_check_nonfinite (t, values, arena, &out->nonfinite))
    return false;
  if (grads == NULL || n_wrt == 0 || loss >= spec_nodes)
    {
      out->state = TP_CHECK_NO_DERIVATIVE;
      return true;
    }
  out->grads = tp_arena_calloc (arena, n_wrt, sizeof *out->grads);
  if (out->grads == NULL)
    return false;
  out->n_grads = n_wrt;
  for (uint32_t k = 0; k < n_wrt; k++)
    {
      TpCheckGradient *g = &out->grads[k];
      g->parameter = wrt[k];
      g->gradient = grads[k];
      g->volume = tp_shape_volume (&t->shape[wrt[k]]);
      g->sampled = g->volume > TP_CHECK_SAMPLE ? TP_CHECK_SAMPLE : g->volume;
      g->verdict = TP_VERDICT_UNCHECKED;
    }

  memset (&d, 0, sizeof d);
  d.t = t;
  d.loss = loss;
  d.anc = tp_arena_calloc (arena, loss + 1, 1);
  d.dep = tp_arena_calloc (arena, loss + 1, 1);
  d.base = tp_arena_calloc (arena, loss + 1, sizeof *d.base);
  d.pert = tp_arena_calloc (arena, loss + 1, sizeof *d.pert);
  d.cur = tp_arena_calloc (arena, loss + 1, sizeof *d.cur);
  d.decide = tp_arena_calloc (arena, loss + 1, sizeof *d.decide);
  if (d.anc == NULL || d.dep == NULL || d.base == NULL || d.pert == NULL
      || d.cur == NULL || d.decide == NULL)
    return false;
  d.anc[loss] = 1;
  for (TpNode i = loss + 1; i-- > 0;)
    if (d.anc[i])
      {
        uint64_t volume = tp_shape_volume (&t->shape[i]);
        for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
          d.anc[t->arg[i][k]] = 1;
        elements += 2 * volume;
        base_cost += tp_dinterp_node_cost (t, i);
        if (volume > max_volume)
          max_volume = volume;
      }
  out->elements = elements;
  if (elements > TP_CHECK_ELEMENTS)
    {
      out->state = TP_CHECK_TOO_BIG;
      return true;
    }
  if (base_cost > budget)
    {
      out->cut = true;
      out->work = 0;
      return true;
    }
  d.tmp_decide = tp_arena_alloc (arena, (size_t) max_volume);  /* <= TP_CHECK_ELEMENTS */
  if (d.tmp_decide == NULL)
    return false;
  /* The base run. */
  for (TpNode i = 0; i <= loss; i++)
    {
      size_t volume;
      TpOp op;
      if (!d.anc[i])
        continue;
      volume = (size_t) tp_shape_volume (&t->shape[i]);
      op = (TpOp) t->op[i];
      d.base[i] = tp_arena_alloc (arena, volume * sizeof (double));
      d.pert[i] = tp_arena_alloc (arena, volume * sizeof (double));
      if (d.base[i] == NULL || d.pert[i] == NULL)
        return false;
      if (op == TP_OP_MAXIMUM || op == TP_OP_STEP)
        {
          d.decide[i] = tp_arena_alloc (arena, volume);
          if (d.decide[i] == NULL)
            return false;
        }
      tp_dinterp_eval_node (t, i, d.base, d.base[i], d.decide[i], NULL);
    }
  budget -= base_cost;
  out->work = base_cost;
  for (TpNode i = 0; i <= loss; i++)
    d.cur[i] = d.base[i];

  for (uint32_t k = 0; k < n_wrt; k++)
    {
      TpCheckGradient *g = &out->grads[k];
      TpNode p = wrt[k];
      const float *analytic = values[grads[k]];
      uint64_t cost = 0, share, n_check;
      bool have_worst = false, have_kink = false;
      uint64_t first_kink = 0;
      double worst = -1.0;

      if (p > loss || !d.anc[p])
        {
          /* The loss does not depend on it: the numeric gradient is 0,
           * with no run needed. */
          for (uint64_t s = 0; s < g->sampled; s++)
            {
              uint64_t e = g->volume > TP_CHECK_SAMPLE
                           ? s * g->volume / TP_CHECK_SAMPLE : s;
              double err = relative_error ((double) analytic[e], 0.0);
              if (!finite_f (analytic[e]))
                err = (double) INFINITY;
              if (err > worst)
                {
                  worst = err;
                  g->element = e;
                  g->analytic = analytic[e];
                  g->numeric = 0.0;
                  g->relative_error = err;
                }
            }
          g->checked = g->sampled;
          g->verdict = !(worst <= TP_CHECK_TOLERANCE)
                       ? (isinf (worst) ? TP_VERDICT_NONFINITE
                                        : TP_VERDICT_DIFFERS)
                       : TP_VERDICT_OK;
          continue;
        }
      /* Finding the dependent nodes scans [p, loss]: that is paid from
       * the budget too, so many parameters cannot make it quadratic. */
      if (loss - p + 1 > budget)
        {
          out->cut = true;
          continue;
        }
      budget -= loss - p + 1;
      out->work += loss - p + 1;
      d.dep[p] = 1;
      for (TpNode i = p; i <= loss; i++)
        {
          if (!d.anc[i])
            continue;
          for (uint32_t a = 0; a < tp_op_info[t->op[i]].arity; a++)
            d.dep[i] = d.dep[i] || d.dep[t->arg[i][a]];
          if (d.dep[i])
            {
              if (i != p)
                d.cur[i] = d.pert[i];
              cost += tp_dinterp_node_cost (t, i);
            }
        }
      /* a perturbed run walks [p, loss] and evaluates the dependents */
      cost = 2 * (cost + (loss - p + 1));
      share = budget / (n_wrt - k);
      n_check = cost > 0 ? share / cost : g->sampled;
      if (n_check > g->sampled)
        n_check = g->sampled;
      if (n_check < g->sampled)
        out->cut = true;
      budget -= n_check * cost;
      out->work += n_check * cost;
      for (uint64_t s = 0; s < n_check; s++)
        {
          uint64_t e = g->volume > TP_CHECK_SAMPLE
                       ? s * g->volume / TP_CHECK_SAMPLE : s;
          double x = d.base[p][e];
          double h = STEP_SCALE * (fabs (x) > 1.0 ? fabs (x) : 1.0);
          double up, down, numeric, err;
          bool kink = false;

          d.base[p][e] = x + h;
          up = perturbed_run (&d, p, &kink);
          d.base[p][e] = x - h;
          down = perturbed_run (&d, p, &kink);
          d.base[p][e] = x;
          numeric = (up - down) / (2.0 * h);
          g->checked++;
          if (kink)
            {
              g->kinks++;
              if (!have_kink)
                first_kink = e;
              have_kink = true;
              continue;
            }
          err = relative_error ((double) analytic[e], numeric);
          if (!finite_f (analytic[e]) || !isfinite (numeric) || err != err)
            err = (double) INFINITY;
          if (!have_worst || err > worst)
            {
              worst = err;
              have_worst = true;
              g->element = e;
              g->analytic = analytic[e];
              g->numeric = numeric;
              g->relative_error = err;
            }
        }
      /* Back to the base run for the next parameter. */
      for (TpNode i = p; i <= loss; i++)
        {
          d.dep[i] = 0;
          d.cur[i] = d.base[i];
        }
      if (have_worst)
        g->verdict = isinf (worst) ? TP_VERDICT_NONFINITE
                     : worst > TP_CHECK_TOLERANCE ? TP_VERDICT_DIFFERS
                     : TP_VERDICT_OK;
      else if (have_kink)
        {
          /* Every checked element is a kink: show the first. */
          double x = d.base[p][first_kink];
          double h = STEP_SCALE * (fabs (x) > 1.0 ? fabs (x) : 1.0);
          bool kink = false;
          double up, down;
          d.base[p][first_kink] = x + h;
          up = perturbed_run (&d, p, &kink);
          d.base[p][first_kink] = x - h;
          down = perturbed_run (&d, p, &kink);
          d.base[p][first_kink] = x;
          g->verdict = TP_VERDICT_KINK;
          g->element = first_kink;
          g->analytic = analytic[first_kink];
          g->numeric = (up - down) / (2.0 * h);
          g->relative_error = relative_error ((double) g->analytic, g->numeric);
        }
    }
  return true;
}

static const char *const verdict_names[] = {
  [TP_VERDICT_OK] = "ok",
  [TP_VERDICT_DIFFERS] = "differs",
  [TP_VERDICT_KINK] = "kink",
  [TP_VERDICT_NONFINITE] = "nonfinite",
  [TP_VERDICT_UNCHECKED] = "unchecked",
};

/* "[0, 1]" for a flat index of shape; "[]" for rank 0. */
static void
put_element (TpBuf *out, const TpShape *s, uint64_t e)
{
  uint32_t idx[TP_MAX_RANK];

  for (uint32_t d = s->rank; d-- > 0;)
    {
      idx[d] = (uint32_t) (e % s->dims[d]);
      e /= s->dims[d];
    }
  tp_buf_putc (out, '[');
  for (uint32_t d = 0; d < s->rank; d++)
    {
      if (d > 0)
        tp_buf_puts (out, ", ");
      tp_buf_u64 (out, idx[d]);
    }
  tp_buf_putc (out, ']');
}

/* A relative error with two significant digits: "0", "6.0e-8", "1.2e0";
 * non-finite as "inf".  Digits come from integer arithmetic on a value
 * scaled by exact powers of ten (computed by repeated multiplication),
 * so no printf decides them. */
static void
put_error (TpBuf *out, double x)
{
  int exp10 = 0;
  uint64_t digits;

  if (!(x == x) || x > DBL_MAX)
    {
      tp_buf_puts (out, "inf");
      return;
    }
  if (x <= 0.0)
    {
      tp_buf_putc (out, '0');
      return;
    }
  while (x >= 10.0)
    {
      x /= 10.0;
      exp10++;
    }
  while (x < 1.0)
    {
      x *= 10.0;
      exp10--;
    }
  digits = (uint64_t) (x * 10.0 + 0.5);
  if (digits >= 100)
    {
      digits /= 10;
      exp10++;
    }
  tp_buf_putc (out, (char) ('0' + digits / 10));
  tp_buf_putc (out, '.');
  tp_buf_putc (out, (char) ('0' + digits % 10));
  tp_buf_putc (out, 'e');
  if (exp10 < 0)
    {
      tp_buf_putc (out, '-');
      exp10 = -exp10;
    }
  tp_buf_u64 (out, (uint64_t) exp10);
}

/* The numeric value as the f32 it rounds to, Rust Display. */
static void
put_numeric (TpBuf *out, double x)
{
  tp_buf_f32 (out, (float) x);
}

static const char *
op_symbol (TpOp op)
{
  switch (op)
    {
    case TP_OP_ADD:
      return " + ";
    case TP_OP_SUB:
      return " - ";
    case TP_OP_MUL:
      return " * ";
    case TP_OP_DIV:
      return " / ";
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
    case TP_OP_NEG:
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SQRT:
    case TP_OP_TANH:
    case TP_OP_SIN:
    case TP_OP_COS:
    case TP_OP_MATMUL:
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
    case TP_OP_BROADCAST:
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_RESHAPE:
    case TP_OP_PERMUTE:
    case TP_OP_LOG_SOFTMAX:
    case TP_OP_LOG_SUM_EXP:
      break;
    }
  return NULL;
}

/* "ln(-0.5)", "0 / 0", "maximum(a, b)", or for an op without per-element
 * operands a phrase. */
static void
put_birth (TpBuf *out, const TpTape *t, const TpNonfinite *nf)
{
  TpOp op = (TpOp) t->op[nf->node];
  const char *sym = op_symbol (op);

  switch (op)
    {
    case TP_OP_LEAF:
    case TP_OP_PARAMETER:
    case TP_OP_INPUT:
      tp_buf_puts (out, "the written value");
      return;
    case TP_OP_MATMUL:
      tp_buf_puts (out, "the sum of products");
      return;
    case TP_OP_SUM:
    case TP_OP_SUM_ALONG:
      tp_buf_puts (out, "the running sum");
      return;
    case TP_OP_LOG_SUM_EXP:
      tp_buf_puts (out, "logsumexp of the row");
      return;
    case TP_OP_BROADCAST_ALONG:
    case TP_OP_PERMUTE:
      tp_buf_puts (out, "a copy");
      return;
    case TP_OP_NEG:
      tp_buf_putc (out, '-');
      tp_buf_f32 (out, nf->operands[0]);
      return;
    case TP_OP_ADD:
    case TP_OP_SUB:
    case TP_OP_MUL:
    case TP_OP_DIV:
      tp_buf_f32 (out, nf->operands[0]);
      tp_buf_puts (out, sym);
      tp_buf_f32 (out, nf->operands[1]);
      return;
    case TP_OP_MAXIMUM:
    case TP_OP_STEP:
      tp_buf_puts (out, op == TP_OP_MAXIMUM ? "maximum(" : "step(");
      tp_buf_f32 (out, nf->operands[0]);
      tp_buf_puts (out, ", ");
      tp_buf_f32 (out, nf->operands[1]);
      tp_buf_putc (out, ')');
      return;
    case TP_OP_EXP:
    case TP_OP_LN:
    case TP_OP_SQRT:
    case TP_OP_TANH:
    case TP_OP_SIN:
    case TP_OP_COS:
    case TP_OP_RESHAPE:
    case TP_OP_BROADCAST:
    case TP_OP_LOG_SOFTMAX:
      {
        static const char *const fn[TP_N_OPS] = {
          [TP_OP_EXP] = "exp", [TP_OP_LN] = "ln", [TP_OP_SQRT] = "sqrt",
          [TP_OP_TANH] = "tanh", [TP_OP_SIN] = "sin", [TP_OP_COS] = "cos",
          [TP_OP_RESHAPE] = "reshape", [TP_OP_BROADCAST] = "broadcast",
          [TP_OP_LOG_SOFTMAX] = "log_softmax at",
        };
        tp_buf_puts (out, fn[op]);
        tp_buf_putc (out, op == TP_OP_LOG_SOFTMAX ? ' ' : '(');
        tp_buf_f32 (out, nf->operands[0]);
        if (op != TP_OP_LOG_SOFTMAX)
          tp_buf_putc (out, ')');
      }
      return;
    }
}

static void
put_nonfinite_sentence (TpBuf *out, const TpTape *t, const TpNonfinite *nf)
{
  tp_buf_puts (out, "node ");
  tp_buf_u64 (out, nf->node);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, tp_op_info[t->op[nf->node]].name);
  tp_buf_puts (out, ", element ");
  put_element (out, &t->shape[nf->node], nf->element);
  tp_buf_puts (out, ": ");
  put_birth (out, t, nf);
  tp_buf_puts (out, " = ");
  tp_buf_f32 (out, nf->value);
  tp_buf_puts (out, "; ");
  tp_buf_u64 (out, nf->inherited_by);
  tp_buf_puts (out, nf->inherited_by == 1 ? " later node inherits it"
                                          : " later nodes inherit it");
}

void
tp_check_describe (const TpCheck *c, const TpTape *t, const char *loss_name,
                   const char *const *names, float *const *values,
                   TpBuf *out, TpCheckVerdict *verdict)
{
  uint32_t differs = 0, kinks = 0, unchecked = 0, nonfinite = 0;
  size_t width = 0;

  (void) values;
  verdict->at = out->len + strlen ("gradient check: ");
  verdict->outcome = TP_OUTCOME_UNCHECKED;
  verdict->differing = 0;
  switch (c->state)
    {
    case TP_CHECK_NO_DERIVATIVE:
      tp_buf_puts (out, "gradient check: no derivative to check\n");
      break;
    case TP_CHECK_TOO_BIG:
      tp_buf_puts (out, "gradient check: not run: the target's ancestors "
                        "hold ");
      tp_buf_u64 (out, c->elements / 2);
      tp_buf_puts (out, " elements, over the double interpreter's ");
      tp_buf_u64 (out, TP_CHECK_ELEMENTS / 2);
      tp_buf_putc (out, '\n');
      break;
    case TP_CHECK_DONE:
      tp_buf_puts (out, "gradient check: central differences in double, "
                        "step cbrt(eps) * max(1, |p|), tolerance 1e-3\n");
      for (uint32_t k = 0; k < c->n_grads && k < TP_CHECK_TEXT_LINES; k++)
        {
          size_t len = strlen (loss_name) + strlen (names[k]) + 7;
          if (len > width)
            width = len;
        }
      for (uint32_t k = 0; k < c->n_grads; k++)
        {
          const TpCheckGradient *g = &c->grads[k];
          const TpShape *s = &t->shape[g->parameter];
          size_t mark = out->len;
          differs += g->verdict == TP_VERDICT_DIFFERS;
          kinks += g->verdict == TP_VERDICT_KINK;
          unchecked += g->verdict == TP_VERDICT_UNCHECKED;
          nonfinite += g->verdict == TP_VERDICT_NONFINITE;
          if (k >= TP_CHECK_TEXT_LINES)
            continue;
          tp_buf_puts (out, "d ");
          tp_buf_puts (out, loss_name);
          tp_buf_puts (out, " / d ");
          tp_buf_puts (out, names[k]);
          tp_buf_pad_from (out, mark, width);
          tp_buf_putc (out, ' ');
          mark = out->len;
          tp_buf_puts (out, verdict_names[g->verdict]);
          tp_buf_pad_from (out, mark, 10);
          tp_buf_putc (out, ' ');
          if (g->verdict == TP_VERDICT_UNCHECKED)
            tp_buf_puts (out, "no element fits the work budget");
          else
            {
              tp_buf_puts (out, g->verdict == TP_VERDICT_KINK ? "at "
                                                              : "worst ");
              put_element (out, s, g->element);
              tp_buf_puts (out, ": analytic ");
              tp_buf_f32 (out, g->analytic);
              tp_buf_puts (out, ", numeric ");
              put_numeric (out, g->numeric);
              tp_buf_puts (out, ", relative error ");
              put_error (out, g->relative_error);
            }
          tp_buf_puts (out, " (");
          tp_buf_u64 (out, g->checked);
          tp_buf_puts (out, " of ");
          tp_buf_u64 (out, g->volume);
          tp_buf_puts (out, g->volume == 1 ? " element" : " elements");
          if (g->sampled < g->volume)
            tp_buf_puts (out, ", sampled");
          if (g->kinks > 0)
            {
              tp_buf_puts (out, ", ");
              tp_buf_u64 (out, g->kinks);
              tp_buf_puts (out, g->kinks == 1 ? " kink" : " kinks");
            }
          tp_buf_puts (out, ")\n");
        }
      if (c->n_grads > TP_CHECK_TEXT_LINES)
        {
          tp_buf_puts (out, "... ");
          tp_buf_u64 (out, c->n_grads - TP_CHECK_TEXT_LINES);
          tp_buf_puts (out, " more parameters: the text lists the first ");
          tp_buf_u64 (out, TP_CHECK_TEXT_LINES);
          tp_buf_putc (out, '\n');
        }
      if (c->cut)
        {
          tp_buf_puts (out, "the work budget (");
          tp_buf_u64 (out, TP_CHECK_WORK);
          tp_buf_puts (out, ") checked fewer elements\n");
        }
      verdict->at = out->len;
      verdict->differing = differs;
      verdict->outcome = differs > 0 ? TP_OUTCOME_DIFFER
                         : nonfinite > 0 ? TP_OUTCOME_NONFINITE
                         : unchecked == c->n_grads ? TP_OUTCOME_UNCHECKED
                         : TP_OUTCOME_AGREE;
      if (differs > 0)
        {
          tp_buf_u64 (out, differs);
          tp_buf_puts (out, differs == 1
                            ? " gradient differs from finite differences\n"
                            : " gradients differ from finite differences\n");
        }
      else if (nonfinite > 0)
        tp_buf_puts (out, "a gradient or the loss is not finite: see where "
                          "the non-finite value is born\n");
      else if (unchecked == c->n_grads)
        tp_buf_puts (out, "no gradient was checked\n");
      else if (kinks > 0)
        tp_buf_puts (out, "the checked gradients agree with finite "
                          "differences, away from kinks\n");
      else if (unchecked > 0 || c->cut)
        tp_buf_puts (out, "the checked elements agree with finite "
                          "differences\n");
      else
        tp_buf_puts (out, "all gradients agree with finite differences\n");
      break;
    }
  {
    const char *nl = out->data != NULL && verdict->at < out->len
                     ? memchr (out->data + verdict->at, '\n',
                               out->len - verdict->at) : NULL;
    verdict->len = nl != NULL ? (size_t) (nl - out->data) - verdict->at : 0;
  }
  if (c->nonfinite.found)
    {
      tp_buf_puts (out, "non-finite: ");
      put_nonfinite_sentence (out, t, &c->nonfinite);
      tp_buf_putc (out, '\n');
    }
  else
    tp_buf_puts (out, "non-finite: none, every value is finite\n");
}

static void
json_element (TpBuf *out, const TpShape *s, uint64_t e)
{
  uint32_t idx[TP_MAX_RANK];

  for (uint32_t d = s->rank; d-- > 0;)
    {
      idx[d] = (uint32_t) (e % s->dims[d]);
      e /= s->dims[d];
    }
  tp_buf_putc (out, '[');
  for (uint32_t d = 0; d < s->rank; d++)
    {
      if (d > 0)
        tp_buf_putc (out, ',');
      tp_buf_u64 (out, idx[d]);
    }
  tp_buf_putc (out, ']');
}

/* A relative error in JSON: a number, or "inf". */
static void
json_error (TpBuf *out, double x)
{
  if (!(x == x) || x > DBL_MAX)
    tp_buf_puts (out, "\"inf\"");
  else
    put_error (out, x);
}

void
tp_check_json (const TpCheck *c, const TpTape *t, const char *const *names,
               const TpCheckVerdict *v, const char *text, TpBuf *out)
{
  static const char *const outcomes[] = {
    [TP_OUTCOME_AGREE] = "agree", [TP_OUTCOME_DIFFER] = "differ",
    [TP_OUTCOME_NONFINITE] = "nonfinite", [TP_OUTCOME_UNCHECKED] = "unchecked",
  };

  tp_buf_puts (out, "{\"outcome\":");
  if (c == NULL)
    tp_buf_puts (out, "null,\"verdict\":\"\"");
  else
    {
      tp_buf_putc (out, '"');
      tp_buf_puts (out, outcomes[v->outcome]);
      tp_buf_puts (out, "\",\"verdict\":");
      tp_json_string (out, text + v->at, v->len);
    }
  tp_buf_puts (out, ",\"gradients\":[");
  for (uint32_t k = 0; c != NULL && k < c->n_grads; k++)
    {
      const TpCheckGradient *g = &c->grads[k];
      bool none = g->verdict == TP_VERDICT_UNCHECKED;
      if (k > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"parameter\":");
      tp_json_string (out, names[k], strlen (names[k]));
      tp_buf_puts (out, ",\"element\":");
      if (none)
        tp_buf_puts (out, "[]");
      else
        json_element (out, &t->shape[g->parameter], g->element);
      tp_buf_puts (out, ",\"analytic\":");
      if (none)
        tp_buf_puts (out, "null");
      else
        tp_json_f32 (out, g->analytic);
      tp_buf_puts (out, ",\"numeric\":");
      if (none)
        tp_buf_puts (out, "null");
      else
        tp_json_f32 (out, (float) g->numeric);
      tp_buf_puts (out, ",\"relative_error\":");
      if (none)
        tp_buf_puts (out, "null");
      else
        json_error (out, g->relative_error);
      tp_buf_puts (out, ",\"verdict\":\"");
      tp_buf_puts (out, verdict_names[g->verdict]);
      tp_buf_puts (out, "\"}");
    }
  tp_buf_puts (out, "],\"nonfinite\":");
  if (c == NULL || !c->nonfinite.found)
    tp_buf_puts (out, "null");
  else
    {
      const TpNonfinite *nf = &c->nonfinite;
      tp_buf_puts (out, "{\"node\":");
      tp_buf_u64 (out, nf->node);
      tp_buf_puts (out, ",\"element\":");
      json_element (out, &t->shape[nf->node], nf->element);
      tp_buf_puts (out, ",\"op\":\"");
      tp_buf_puts (out, tp_op_info[t->op[nf->node]].name);
      tp_buf_puts (out, "\",\"operands\":[");
      for (uint32_t k = 0; k < nf->n_operands; k++)
        {
          if (k > 0)
            tp_buf_putc (out, ',');
          tp_json_f32 (out, nf->operands[k]);
        }
      tp_buf_puts (out, "],\"value\":\"");
      tp_buf_puts (out, nf->value != nf->value ? "NaN"
                        : nf->value > 0 ? "inf" : "-inf");
      tp_buf_puts (out, "\",\"inherited_by\":");
      tp_buf_u64 (out, nf->inherited_by);
      tp_buf_putc (out, '}');
    }
  tp_buf_putc (out, '}');
}
