/* tp-remat.c: rematerialisation on the plan's schedule (tp-remat.h). */
#include "tp-remat.h"

#include <string.h>

bool
tp_remat_candidates (TpRemat *r, const TpPlan *plan, uint32_t spec_nodes,
                     TpArena *arena)
{
  const TpTape *t = plan->tape;
  size_t cells = t->len ? t->len : 1;
  uint8_t *read = tp_arena_calloc (arena, cells, 1);  /* 1 forward, 2 gradient */

  r->candidate = tp_arena_calloc (arena, cells, 1);
  r->chosen = tp_arena_calloc (arena, cells, 1);
  r->n_candidates = 0;
  if (read == NULL || r->candidate == NULL || r->chosen == NULL)
    return false;
  for (uint32_t s = 0; s < plan->n_order; s++)
    {
      TpNode i = plan->order[s];
      for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
        read[t->arg[i][k]] |= i < spec_nodes ? 1 : 2;
    }
  for (TpNode i = 0; i < spec_nodes && i < t->len; i++)
    if (plan->wanted[i] && !tp_tape_is_source (t, i) && !plan->readable[i]
        && read[i] == 3)
      {
        r->candidate[i] = 1;
        r->n_candidates++;
      }
  return true;
}

/* A schedule being made: its arrays hold 2 * the plan's steps. */
typedef struct
{
  TpNode *order;
  uint8_t *again;
  uint32_t *until;
  uint32_t n;
} Schedule;

typedef struct
{
  const TpPlan *plan;
  uint32_t spec_nodes;
  uint32_t *first;       /* per node: its first copy's step */
  uint32_t *second;      /* per node: its recomputed copy's step */
  TpNode *stack;
  uint8_t *stacked;
} Scratch;

static void
emit (Schedule *out, TpNode i, bool again)
{
  out->order[out->n] = i;
  out->again[out->n] = again;
  out->n++;
}

/* Recomputes node (rematerialised, not yet recomputed) after the
 * rematerialised nodes it reads, deepest first. */
static void
recompute (Scratch *x, const uint8_t *chosen, Schedule *out, TpNode node)
{
  const TpTape *t = x->plan->tape;
  uint32_t depth = 0;

  x->stack[depth++] = node;
  x->stacked[node] = 1;
  while (depth > 0)
    {
      TpNode top = x->stack[depth - 1];
      bool pushed = false;
      for (uint32_t k = 0; k < tp_op_info[t->op[top]].arity && !pushed; k++)
        {
          TpNode b = t->arg[top][k];
          if (chosen[b] && x->second[b] == UINT32_MAX && !x->stacked[b])
            {
              x->stack[depth++] = b;
              x->stacked[b] = 1;
              pushed = true;
            }
        }
      if (pushed)
        continue;
      depth--;
      x->stacked[top] = 0;
      x->second[top] = out->n;
      emit (out, top, true);
    }
}

/* The schedule with chosen rematerialised, each copy's until, and its
 * recomputations' work. */
static uint64_t
schedule (Scratch *x, const uint8_t *chosen, Schedule *out)
{
  const TpPlan *plan = x->plan;
  const TpTape *t = plan->tape;
  uint32_t forward = 0;
  uint64_t work = 0;

  out->n = 0;
  for (TpNode i = 0; i < t->len; i++)
    x->first[i] = x->second[i] = UINT32_MAX;
  for (uint32_t s = 0; s < plan->n_order; s++)
    {
      TpNode i = plan->order[s];
      if (i >= x->spec_nodes)
        {
          for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
            {
              TpNode a = t->arg[i][k];
              if (chosen[a] && x->second[a] == UINT32_MAX)
                recompute (x, chosen, out, a);
            }
        }
      else
        forward++;
      x->first[i] = out->n;
      emit (out, i, false);
    }
  for (uint32_t s = 0; s < out->n; s++)
    {
      TpNode i = out->order[s];
      out->until[s] = plan->readable[i] && !out->again[s] ? out->n - 1 : s;
    }
  for (uint32_t s = 0; s < out->n; s++)
    {
      TpNode i = out->order[s];
      if (out->again[s])
        work += tp_tape_node_work (t, i);
      for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
        {
          TpNode a = t->arg[i][k];
          uint32_t copy = chosen[a] && s >= forward ? x->second[a]
                                                    : x->first[a];
          if (out->until[copy] < s)
            out->until[copy] = s;
        }
    }
  return work;
}

/* The peak of a schedule. */
static bool
measure (const TpPlan *plan, const Schedule *sched, uint64_t *peak,
         TpNode *peak_at)
{
  TpPlan p = *plan;

  p.order = sched->order;
  p.again = sched->again;
  p.until = sched->until;
  p.n_order = sched->n;
  if (!tp_plan_measure (&p))
    return false;
  *peak = p.peak;
  *peak_at = p.peak_at;
  return true;
}

/* Chen's checkpoints over the candidates of volume at least `least`:
 * every ceil(sqrt(n))-th kept, the others chosen. */
static void
chen (const TpRemat *r, const TpTape *t, uint64_t least, uint8_t *chosen)
{
  uint32_t n = 0, segment = 1, j = 0;

  memset (chosen, 0, t->len ? t->len : 1);
  for (TpNode i = 0; i < t->len; i++)
    n += r->candidate[i] && tp_shape_volume (&t->shape[i]) >= least;
  while ((uint64_t) segment * segment < n)
    segment++;
  for (TpNode i = 0; i < t->len; i++)
    if (r->candidate[i] && tp_shape_volume (&t->shape[i]) >= least)
      chosen[i] = j++ % segment != segment - 1;
}

bool
tp_remat_apply (TpRemat *r, TpPlan *plan, uint32_t spec_nodes, TpArena *arena)
{
  const TpTape *t = plan->tape;
  size_t cells = t->len ? t->len : 1, steps = 2 * (size_t) plan->n_order + 1;
  Scratch x = { plan, spec_nodes, NULL, NULL, NULL, NULL };
  Schedule sched;
  TpNode *last;
  bool ok, scheduled = false;

  r->peak_before = plan->peak;
  r->peak_at_before = plan->peak_at;
  x.first = tp_malloc (cells * sizeof *x.first);
  x.second = tp_malloc (cells * sizeof *x.second);
  x.stack = tp_malloc (cells * sizeof *x.stack);
  x.stacked = tp_malloc (cells);
  sched.order = tp_arena_alloc (arena, steps * sizeof *sched.order);
  sched.again = tp_arena_alloc (arena, steps);
  sched.until = tp_arena_alloc (arena, steps * sizeof *sched.until);
  last = tp_arena_alloc (arena, cells * sizeof *last);
  ok = x.first != NULL && x.second != NULL && x.stack != NULL
       && x.stacked != NULL && sched.order != NULL && sched.again != NULL
       && sched.until != NULL && last != NULL;
  if (ok)
    memset (x.stacked, 0, cells);
  if (ok && r->automatic)
    {
      /* Chen over every candidate, then over the biggest buffers alone
       * (when some are smaller); the lower peak wins, then the less work,
       * and neither when neither lowers the peak. */
      uint64_t biggest = 0, best_peak = r->peak_before, best_work = 0;
      uint8_t *trial = tp_malloc (cells);
      bool smaller = false, any = false;

      for (TpNode i = 0; i < t->len; i++)
        if (r->candidate[i] && tp_shape_volume (&t->shape[i]) > biggest)
          biggest = tp_shape_volume (&t->shape[i]);
      for (TpNode i = 0; i < t->len; i++)
        smaller = smaller || (r->candidate[i]
                              && tp_shape_volume (&t->shape[i]) < biggest);
      ok = trial != NULL;
      memset (r->chosen, 0, cells);
      scheduled = false;
      for (int pass = 0; ok && pass < (smaller ? 2 : 1)
                         && r->n_candidates > 0; pass++)
        {
          uint64_t peak, work;
          TpNode at;
          chen (r, t, pass == 0 ? 0 : biggest, trial);
          work = schedule (&x, trial, &sched);
          ok = measure (plan, &sched, &peak, &at);
          scheduled = false;
          if (ok && (peak < best_peak || (any && peak == best_peak
                                          && work < best_work)))
            {
              any = scheduled = true;
              best_peak = peak;
              best_work = work;
              memcpy (r->chosen, trial, cells);
              r->work_extra = work;
              plan->peak = peak;
              plan->peak_at = at;
            }
        }
      tp_free (trial);
    }
  if (ok)
    {
      r->n_chosen = 0;
      for (TpNode i = 0; i < t->len; i++)
        {
          r->chosen[i] = r->chosen[i] && r->candidate[i];
          r->n_chosen += r->chosen[i];
        }
      /* auto's last trial, when it won, is the schedule already */
      if (!scheduled)
        {
          r->work_extra = schedule (&x, r->chosen, &sched);
          ok = measure (plan, &sched, &plan->peak, &plan->peak_at);
        }
    }
  if (ok)
    {
      memcpy (last, plan->last, cells * sizeof *last);
      for (uint32_t s = 0; s < sched.n; s++)
        if (r->chosen[sched.order[s]] && !sched.again[s])
          last[sched.order[s]] = sched.order[sched.until[s]];
      plan->last = last;
      plan->order = sched.order;
      plan->again = sched.again;
      plan->until = sched.until;
      plan->n_order = sched.n;
    }
  tp_free (x.first);
  tp_free (x.second);
  tp_free (x.stack);
  tp_free (x.stacked);
  return ok;
}
