/* tp-check.c: the gradient check and the non-finite origin (tp-check.h;
 * the reading's text and JSON are tp-check-reading.c's).
 *
 * The forward program is evaluated again in double by tp-dinterp.c: the
 * target's ancestors among the program's own nodes (never the appended
 * gradient), from the sources' f32 payloads widened to double.  A
 * perturbed run re-evaluates only the nodes that depend on the perturbed
 * parameter, and element by element only the elements the perturbed one
 * reaches.
 *
 * Element by element: numeric = (f(p + h) - f(p - h)) / (2 h) at each
 * sampled element, h = cbrt(DBL_EPSILON) * max(1, |p|) (the step that
 * balances truncation, O(h^2), against rounding, O(eps / h)).
 *
 * Along random directions, when element by element would cost more than
 * both TP_CHECK_ELEMENT_WORK and TP_CHECK_DIRECTIONS directions for every
 * parameter: numeric = (f(p + h v) - f(p - h v)) / (2 h) against the dot
 * product g . v in double, v's elements drawn in [-1, 1) by SplitMix64
 * from the seed (parameter node << 32) + direction, h = cbrt(DBL_EPSILON)
 * * max(1, max |p|).  Every parameter gets the same number of directions,
 * up to TP_CHECK_DIRECTIONS, when one each fits the budget; else one
 * each for the cheapest parameters that fit, the others unchecked.
 *
 * The budget: four times the base run's estimated work, between
 * TP_CHECK_WORK and TP_CHECK_WORK_MAX.  Element by element, the elements
 * are checked in order while their runs fit it.
 *
 * A kink: an element or direction whose perturbed runs take a different
 * branch of a Maximum or a Step (for either sign of h) than the
 * unperturbed run, such as relu at 0 or a maximum tie; the one-sided
 * slopes differ there, so it is counted as a kink and never as
 * differing. */
#include "tp-check.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tp-dinterp.h"

/* cbrt(DBL_EPSILON), written out so no libm rounding decides it. */
#define STEP_SCALE 6.0554544523933395e-06

static bool
finite_f (float x)
{
  return x == x && x <= FLT_MAX && x >= -FLT_MAX;
}

/* Whether n f32s are all finite: none has its exponent bits all ones,
 * which is when adding one at the exponent's lowest bit carries into the
 * sign's place.  Gathered by OR with no branch per element (a loop the
 * compiler can widen), where finding the first non-finite one tested
 * each. */
typedef uint32_t Words4 __attribute__ ((vector_size (4 * sizeof (uint32_t))));

static bool
all_finite (const float *v, uint64_t n)
{
  const Words4 exponent = { 0x7f800000u, 0x7f800000u, 0x7f800000u,
                            0x7f800000u };
  const Words4 one = { 0x00800000u, 0x00800000u, 0x00800000u, 0x00800000u };
  Words4 any4 = { 0, 0, 0, 0 };
  uint32_t any = 0;
  uint64_t e = 0;

  /* four at a time (one SSE2 operation each on x86-64) */
  for (; e + 4 <= n; e += 4)
    {
      Words4 bits;
      memcpy (&bits, &v[e], sizeof bits);
      any4 |= (bits & exponent) + one;
    }
  for (; e < n; e++)
    {
      uint32_t bits;
      memcpy (&bits, &v[e], sizeof bits);
      any |= (bits & 0x7f800000u) + 0x00800000u;
    }
  any |= any4[0] | any4[1] | any4[2] | any4[3];
  return (any & 0x80000000u) == 0;
}

/* Node i's operands at element e, the elements its row's AT column
 * names: each operand's element e (element-wise ops, Reshape,
 * LogSoftmax), its one element (Broadcast), or none. */
static void
operands_at (const TpTape *t, TpNode i, float *const *values, uint64_t e,
             TpNonfinite *out)
{
  const TpOpInfo *info = &tp_op_info[t->op[i]];
  uint64_t at = info->at == TP_AT_FIRST ? 0 : e;

  out->n_operands = info->at == TP_AT_NONE ? 0 : info->arity;
  for (uint32_t k = 0; k < out->n_operands; k++)
    out->operands[k] = values[t->arg[i][k]][at];
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
      if (all_finite (values[i], volume))
        continue;
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

/* How many gradient checks (base runs) the engine has run. */
static _Atomic uint64_t check_runs;

uint64_t
tp_check_runs (void)
{
  return atomic_load_explicit (&check_runs, memory_order_relaxed);
}

static double
relative_error (double a, double n)
{
  double scale = fabs (a) > fabs (n) ? fabs (a) : fabs (n);

  if (scale < 1.0)
    scale = 1.0;
  return fabs (a - n) / scale;
}

/* One gradient check in progress. */
typedef struct
{
  TpDInterp d;
  TpNode loss;
  uint64_t budget;        /* work left */
  const TpInterrupt *interrupt;
  TpCheck *out;
} Check;

/* Pays cost from the budget, or says the budget cut the check, or that
 * the caller stopped it (then nothing more is paid for). */
static bool
pay (Check *c, uint64_t cost)
{
  if (c->out->interrupted
      || (c->interrupt != NULL
          && c->interrupt->interrupted (c->interrupt->data)))
    {
      c->out->interrupted = true;
      c->budget = 0;
      return false;
    }
  if (cost > c->budget)
    {
      c->out->cut = true;
      return false;
    }
  c->budget -= cost;
  c->out->work += cost;
  return true;
}

/* The flat index of parameter g's sample s. */
static uint64_t
sample_element (const TpCheckGradient *g, uint64_t s)
{
  return g->volume > TP_CHECK_SAMPLE ? s * g->volume / TP_CHECK_SAMPLE : s;
}

/* One comparison (an element's, or a direction's), worst first; the
 * first kink is kept for a parameter whose every comparison is one. */
typedef struct
{
  bool have_worst;
  bool have_kink;
  double worst;
  uint64_t kink_at;
  float kink_analytic;
  double kink_numeric;
} Tally;

static void
tally (Tally *y, TpCheckGradient *g, uint64_t at, double analytic,
       double numeric, bool kink)
{
  double err;

  g->checked++;
  if (kink)
    {
      g->kinks++;
      if (!y->have_kink)
        {
          y->kink_at = at;
          y->kink_analytic = (float) analytic;
          y->kink_numeric = numeric;
        }
      y->have_kink = true;
      return;
    }
  err = relative_error (analytic, numeric);
  if (!isfinite (analytic) || !isfinite (numeric) || err != err)
    err = (double) INFINITY;
  if (!y->have_worst || err > y->worst)
    {
      y->worst = err;
      y->have_worst = true;
      g->element = at;
      g->analytic = (float) analytic;
      g->numeric = numeric;
      g->relative_error = err;
    }
}

static void
verdict (const Tally *y, TpCheckGradient *g)
{
  if (y->have_worst)
    g->verdict = isinf (y->worst) ? TP_VERDICT_NONFINITE
                 : y->worst > TP_CHECK_TOLERANCE ? TP_VERDICT_DIFFERS
                 : TP_VERDICT_OK;
  else if (y->have_kink)
    {
      /* Every comparison is a kink: show the first. */
      g->verdict = TP_VERDICT_KINK;
      g->element = y->kink_at;
      g->analytic = y->kink_analytic;
      g->numeric = y->kink_numeric;
      g->relative_error = relative_error ((double) g->analytic, g->numeric);
    }
}

/* A parameter the loss does not depend on: its numeric gradient is 0,
 * with no run needed. */
static void
check_independent (TpCheckGradient *g, const float *analytic)
{
  double worst = -1.0;

  for (uint64_t s = 0; s < g->sampled; s++)
    {
      uint64_t e = sample_element (g, s);
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
               ? (isinf (worst) ? TP_VERDICT_NONFINITE : TP_VERDICT_DIFFERS)
               : TP_VERDICT_OK;
}

/* Element by element: each sampled element's central difference, its
 * runs evaluating only its region. */
static bool
check_elements (Check *c, TpCheckGradient *g, const float *analytic)
{
  TpNode p = g->parameter;
  Tally y = { 0 };
  double *value;

  if (!pay (c, c->loss - p + 1))
    return true;
  value = tp_dinterp_select (&c->d, p);
  if (value == NULL)
    return false;
  for (uint64_t s = 0; s < g->sampled; s++)
    {
      uint64_t e = sample_element (g, s), work;
      double x = value[e];
      double h = STEP_SCALE * (fabs (x) > 1.0 ? fabs (x) : 1.0);
      double up, down;
      bool kink = false;

      if (!tp_dinterp_region (&c->d, e, &work))
        return false;
      if (!pay (c, 2 * work))
        break;
      value[e] = x + h;
      up = tp_dinterp_run (&c->d, &kink);
      value[e] = x - h;
      down = tp_dinterp_run (&c->d, &kink);
      value[e] = x;
      tp_dinterp_restore (&c->d);
      tally (&y, g, e, (double) analytic[e], (up - down) / (2.0 * h), kink);
    }
  verdict (&y, g);
  return true;
}

/* SplitMix64's step: a 64-bit integer generator whose output is the same
 * on every platform. */
static uint64_t
splitmix (uint64_t *state)
{
  uint64_t z = (*state += UINT64_C (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* The work of one direction of a parameter of volume elements whose
 * dependents cost run: two whole runs, the direction drawn and written
 * twice, and the dot product. */
static uint64_t
direction_cost (uint64_t run, uint64_t volume)
{
  return 2 * run + 3 * volume;
}

/* Along n seeded random directions: v_e in [-1, 1) from the seed
 * (parameter node << 32) + direction, numeric (f(p + h v) - f(p - h v))
 * / 2h against g . v in double. */
static bool
check_directions (Check *c, TpCheckGradient *g, const float *analytic,
                  uint32_t n, double *v)
{
  TpNode p = g->parameter;
  const double *base = c->d.base[p];
  uint64_t volume = g->volume, cost;
  Tally y = { 0 };
  double *value, top = 1.0, h;

  if (!pay (c, c->loss - p + 1))
    return true;
  value = tp_dinterp_select (&c->d, p);
  if (value == NULL)
    return false;
  cost = direction_cost (c->d.deps_work + c->d.n_deps, volume);
  for (uint64_t e = 0; e < volume; e++)
    if (fabs (base[e]) > top)
      top = fabs (base[e]);
  h = STEP_SCALE * top;
  for (uint32_t j = 0; j < n && pay (c, cost); j++)
    {
      uint64_t state = ((uint64_t) p << 32) + j;
      double dot = 0.0, up, down;
      bool kink = false;

      for (uint64_t e = 0; e < volume; e++)
        {
          v[e] = ((double) (splitmix (&state) >> 32) - 2147483648.0)
                 * 0x1p-31;
          dot += (double) analytic[e] * v[e];
        }
      for (uint64_t e = 0; e < volume; e++)
        value[e] = base[e] + h * v[e];
      up = tp_dinterp_run (&c->d, &kink);
      for (uint64_t e = 0; e < volume; e++)
        value[e] = base[e] - h * v[e];
      down = tp_dinterp_run (&c->d, &kink);
      memcpy (value, base, (size_t) volume * sizeof *value);
      tally (&y, g, j, dot, (up - down) / (2.0 * h), kink);
    }
  verdict (&y, g);
  return true;
}

/* A parameter's figures for choosing how to check: whether its
 * dependents were found within the budget, the scan, and one whole run. */
typedef struct
{
  bool scanned;
  uint64_t scan;
  uint64_t run;
  uint32_t directions;
  uint32_t k;
} Plan;

static int
compare_plans (const void *a, const void *b)
{
  const Plan *x = *(const Plan *const *) a, *y = *(const Plan *const *) b;
  uint64_t cx = x->scan + x->run, cy = y->scan + y->run;

  if (cx != cy)
    return cx < cy ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

/* How many directions each scanned parameter gets: the same number for
 * all, up to TP_CHECK_DIRECTIONS, when one each fits the budget left;
 * else one each for the cheapest parameters, as many as fit. */
static bool
plan_directions (Check *c, Plan *plan, uint32_t n, TpArena *arena)
{
  uint64_t fixed = 0, per = 0, left = c->budget, d = 0;
  Plan **order;
  uint32_t m = 0;

  for (uint32_t k = 0; k < n; k++)
    if (plan[k].scanned)
      {
        fixed += plan[k].scan;
        per += direction_cost (plan[k].run, c->out->grads[k].volume);
        m++;
      }
  if (left >= fixed && per > 0)
    d = (left - fixed) / per;
  if (d >= 1)
    {
      if (d > TP_CHECK_DIRECTIONS)
        d = TP_CHECK_DIRECTIONS;
      for (uint32_t k = 0; k < n; k++)
        plan[k].directions = plan[k].scanned ? (uint32_t) d : 0;
      return true;
    }
  order = tp_arena_alloc (arena, (m > 0 ? m : 1) * sizeof *order);
  if (order == NULL)
    return false;
  m = 0;
  for (uint32_t k = 0; k < n; k++)
    if (plan[k].scanned)
      order[m++] = &plan[k];
  qsort (order, m, sizeof *order, compare_plans);
  for (uint32_t j = 0; j < m; j++)
    {
      uint64_t cost = order[j]->scan
                      + direction_cost (order[j]->run,
                                        c->out->grads[order[j]->k].volume);
      if (cost <= left)
        {
          order[j]->directions = 1;
          left -= cost;
        }
      else
        c->out->cut = true;
    }
  return true;
}

bool
tp_check_gradients (const TpTape *t, uint32_t spec_nodes, TpNode loss,
                    const TpNode *wrt, const TpNode *grads, uint32_t n_wrt,
                    float *const *values, TpArena *arena,
                    const TpInterrupt *interrupt, TpCheck *out)
{
  Check c;
  Plan *plan;
  uint64_t estimate, along, limit, max_volume = 1;
  double *v;

  memset (out, 0, sizeof *out);
  if (!tp_check_nonfinite (t, values, arena, &out->nonfinite))
    return false;
  if (grads == NULL || n_wrt == 0 || loss >= spec_nodes)
    {
      out->state = TP_CHECK_NO_DERIVATIVE;
      return true;
    }
  out->grads = tp_arena_calloc (arena, n_wrt, sizeof *out->grads);
  plan = tp_arena_calloc (arena, n_wrt, sizeof *plan);
  if (out->grads == NULL || plan == NULL)
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
      plan[k].k = k;
    }

  memset (&c, 0, sizeof c);
  c.loss = loss;
  c.out = out;
  c.interrupt = interrupt;
  if (!tp_dinterp_init (&c.d, t, loss, arena))
    return false;
  out->elements = c.d.elements;
  if (c.d.elements > TP_CHECK_ELEMENTS)
    {
      out->state = TP_CHECK_TOO_BIG;
      return true;
    }
  out->budget = 4 * c.d.base_work;
  if (out->budget < TP_CHECK_WORK)
    out->budget = TP_CHECK_WORK;
  if (out->budget > TP_CHECK_WORK_MAX)
    out->budget = TP_CHECK_WORK_MAX;
  if (c.d.base_work > out->budget)
    {
      out->cut = true;
      return true;
    }
  if (!tp_dinterp_run_base (&c.d))
    return false;
  atomic_fetch_add_explicit (&check_runs, 1, memory_order_relaxed);
  c.budget = out->budget - c.d.base_work;
  out->work = c.d.base_work;

  /* Each parameter's dependents, and what each way of checking would
   * cost: the base run, each parameter's scan twice (here and again for
   * its runs), and two runs per sampled element or per direction.  An
   * element's runs are first counted whole, then, when that is over the
   * small budget, as the region of the parameter's first sampled
   * element, parameter by parameter until the sum is over both. */
  estimate = c.d.base_work;
  along = c.d.base_work;
  for (uint32_t k = 0; k < n_wrt; k++)
    {
      TpCheckGradient *g = &out->grads[k];
      TpNode p = wrt[k];

      if (p > loss || !c.d.anc[p])
        {
          check_independent (g, values[grads[k]]);
          continue;
        }
      if (g->volume > max_volume)
        max_volume = g->volume;
      plan[k].scan = loss - p + 1;
      if (!pay (&c, plan[k].scan))
        continue;
      if (tp_dinterp_select (&c.d, p) == NULL)
        return false;
      plan[k].scanned = true;
      plan[k].run = c.d.deps_work + c.d.n_deps;
      estimate += 2 * plan[k].scan + g->sampled * 2 * plan[k].run;
      along += 2 * plan[k].scan
               + TP_CHECK_DIRECTIONS * direction_cost (plan[k].run, g->volume);
    }
  limit = along > TP_CHECK_ELEMENT_WORK ? along : TP_CHECK_ELEMENT_WORK;
  if (estimate > limit)
    {
      estimate = c.d.base_work;
      for (uint32_t k = 0; k < n_wrt && estimate <= limit; k++)
        {
          TpCheckGradient *g = &out->grads[k];
          uint64_t work;
          if (!plan[k].scanned)
            continue;
          if (tp_dinterp_select (&c.d, wrt[k]) == NULL
              || !tp_dinterp_region (&c.d, sample_element (g, 0), &work))
            return false;
          estimate += 2 * plan[k].scan + g->sampled * 2 * work;
        }
    }
  out->element_work = estimate;
  out->direction_work = along;
  out->directions = estimate > limit;

  if (!out->directions)
    {
      for (uint32_t k = 0; k < n_wrt; k++)
        if (plan[k].scanned
            && !check_elements (&c, &out->grads[k], values[grads[k]]))
          return false;
      return true;
    }
  v = tp_arena_alloc (arena, (size_t) max_volume * sizeof *v);
  if (v == NULL || !plan_directions (&c, plan, n_wrt, arena))
    return false;
  for (uint32_t k = 0; k < n_wrt; k++)
    {
      TpCheckGradient *g = &out->grads[k];
      if (g->parameter > loss || !c.d.anc[g->parameter])
        continue;
      g->along = true;
      if (plan[k].directions > 0
          && !check_directions (&c, g, values[grads[k]], plan[k].directions,
                                v))
        return false;
    }
  return true;
}
