/* tp-plan.c: forward plans. */
#include "tp-plan.h"

#include <string.h>

#include "tp-run.h"

/* The plan: the results, their ancestors, each buffer's last reader and
 * the schedule in tape order. */
bool
tp_plan_lower (TpPlan *plan, const TpTape *tape, TpArena *arena,
               const TpNode *roots, uint32_t n_roots,
               const TpNode *observe, uint32_t n_observe, bool exact)
{
  uint32_t n = tape->len;
  uint32_t *step_of;

  memset (plan, 0, sizeof *plan);
  plan->tape = tape;
  plan->exact = exact;
  plan->peak_at = TP_NO_NODE;
  plan->wanted = tp_arena_calloc (arena, n ? n : 1, 1);
  plan->readable = tp_arena_calloc (arena, n ? n : 1, 1);
  plan->last = tp_arena_alloc (arena, (n ? n : 1) * sizeof (TpNode));
  plan->results = tp_arena_alloc (arena, (n_roots + n_observe + 1)
                                         * sizeof (TpNode));
  if (plan->wanted == NULL || plan->readable == NULL || plan->last == NULL
      || plan->results == NULL)
    return false;

  /* Results: roots as requested, then observes, each once. */
  for (uint32_t k = 0; k < n_roots + n_observe; k++)
    {
      TpNode r = k < n_roots ? roots[k] : observe[k - n_roots];
      if (plan->readable[r])
        continue;
      plan->readable[r] = 1;
      plan->wanted[r] = 1;
      plan->results[plan->n_results++] = r;
    }

  /* The ancestor closure, in one downward sweep. */
  for (uint32_t i = n; i-- > 0;)
    {
      if (!plan->wanted[i])
        continue;
      plan->n_wanted++;
      for (uint32_t k = 0; k < tp_op_info[tape->op[i]].arity; k++)
        plan->wanted[tape->arg[i][k]] = 1;
    }

  for (uint32_t i = 0; i < n; i++)
    plan->last[i] = TP_NO_NODE;
  for (uint32_t i = 0; i < n; i++)
    if (plan->wanted[i])
      for (uint32_t k = 0; k < tp_op_info[tape->op[i]].arity; k++)
        plan->last[tape->arg[i][k]] = i;

  /* The schedule: the wanted nodes in tape order, each buffer live to the
   * step of its last reader. */
  plan->order = tp_arena_alloc (arena, (plan->n_wanted + 1) * sizeof (TpNode));
  plan->again = tp_arena_calloc (arena, plan->n_wanted + 1, 1);
  plan->until = tp_arena_alloc (arena, (plan->n_wanted + 1)
                                       * sizeof (uint32_t));
  step_of = tp_arena_alloc (arena, (n ? n : 1) * sizeof *step_of);
  if (plan->order == NULL || plan->again == NULL || plan->until == NULL
      || step_of == NULL)
    return false;
  for (uint32_t i = 0; i < n; i++)
    if (plan->wanted[i])
      {
        step_of[i] = plan->n_order;
        plan->order[plan->n_order++] = i;
      }
  for (uint32_t s = 0; s < plan->n_order; s++)
    {
      TpNode i = plan->order[s];
      plan->until[s] = plan->readable[i] || plan->last[i] == TP_NO_NODE
                       ? plan->n_order - 1 : step_of[plan->last[i]];
      plan->retain_all += tp_shape_volume (&tape->shape[i]);
    }
  return tp_plan_measure (plan);
}

bool
tp_plan_measure (TpPlan *plan)
{
  const TpTape *tape = plan->tape;
  uint64_t *ends = tp_malloc ((plan->n_order + 1) * sizeof *ends);
  uint64_t live = 0;

  if (ends == NULL)
    return false;
  memset (ends, 0, (plan->n_order + 1) * sizeof *ends);
  for (uint32_t s = 0; s < plan->n_order; s++)
    ends[plan->until[s]] += tp_shape_volume (&tape->shape[plan->order[s]]);
  /* Add each step's buffer, note a strictly greater peak, then drop the
   * buffers whose last step this is. */
  plan->peak = 0;
  plan->peak_at = TP_NO_NODE;
  for (uint32_t s = 0; s < plan->n_order; s++)
    {
      live += tp_shape_volume (&tape->shape[plan->order[s]]);
      if (live > plan->peak)
        {
          plan->peak = live;
          plan->peak_at = plan->order[s];
        }
      live -= ends[s];
    }
  tp_free (ends);
  return true;
}

/* The plan reading: one line per step; a node computed again says so. */
void
tp_plan_describe (const TpPlan *plan, TpBuf *out, TpMap *map)
{
  const TpTape *tape = plan->tape;
  size_t at;

  for (uint32_t s = 0; s < plan->n_order; s++)
    {
      TpNode i = plan->order[s];
      bool kept = plan->readable[i] && !plan->again[s];
      size_t mark = out->len;

      tp_map_line (map, out, i, kept ? TP_ROLE_KEPT : TP_ROLE_FREED);
      tp_tape_describe_line (tape, i, out, map);
      tp_buf_pad_from (out, mark, 52);
      tp_buf_putc (out, ' ');
      at = out->len;
      if (kept)
        {
          tp_buf_puts (out, "kept");
          tp_map_ref (map, out, at, TP_TOKEN_LIVE, TP_MAP_NO_NODE);
        }
      else
        {
          TpNode reader = plan->order[plan->until[s]];
          if (plan->again[s])
            {
              tp_buf_puts (out, "recomputed, ");
              at = out->len;
            }
          tp_buf_puts (out, "freed after");
          tp_map_ref (map, out, at, TP_TOKEN_LIVE, TP_MAP_NO_NODE);
          tp_buf_putc (out, ' ');
          at = out->len;
          tp_buf_u64 (out, reader);
          tp_map_ref (map, out, at, TP_TOKEN_OPERAND, reader);
        }
      tp_buf_putc (out, '\n');
    }
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FOOTER);
  tp_buf_puts (out, "plan: forward; ");
  tp_buf_u64 (out, plan->n_wanted);
  tp_buf_puts (out, " of ");
  tp_buf_u64 (out, tape->len);
  tp_buf_puts (out, " nodes evaluated, ");
  tp_buf_u64 (out, plan->n_results);
  tp_buf_puts (out, " readable\n");
  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FOOTER);
  tp_buf_puts (out, "live volume: peak ");
  tp_buf_u64 (out, plan->peak);
  tp_buf_puts (out, " elements at node ");
  at = out->len;
  tp_buf_u64 (out, plan->peak_at);
  tp_map_ref (map, out, at, TP_TOKEN_OPERAND, plan->peak_at);
  tp_buf_puts (out, ", retain-all ");
  tp_buf_u64 (out, plan->retain_all);
  tp_buf_putc (out, '\n');
}

bool
tp_plan_run (const TpPlan *plan, float **results, uint64_t *peak_live)
{
  const TpTape *tape = plan->tape;
  size_t n = tape->len ? tape->len : 1;
  float **slot = tp_malloc (n * sizeof *slot);
  uint32_t *until = tp_malloc (n * sizeof *until);
  uint64_t live = 0, peak = 0;
  bool ok = slot != NULL && until != NULL;

  for (uint32_t r = 0; r < plan->n_results; r++)
    results[r] = NULL;
  if (slot != NULL)
    memset (slot, 0, n * sizeof *slot);
  for (uint32_t s = 0; ok && s < plan->n_order; s++)
    {
      TpNode i = plan->order[s];
      uint32_t arity = tp_op_info[tape->op[i]].arity;
      size_t volume = (size_t) tp_shape_volume (&tape->shape[i]);

      /* A step reads only buffers that are live: a schedule that freed
       * one too early fails here rather than read it. */
      for (uint32_t k = 0; k < arity; k++)
        ok = ok && slot[tape->arg[i][k]] != NULL;
      if (!ok || slot[i] != NULL)
        {
          ok = false;
          break;
        }
      slot[i] = tp_malloc (volume * sizeof (float));
      if (slot[i] == NULL || !tp_run_node (tape, i, slot, slot[i]))
        {
          ok = false;
          break;
        }
      until[i] = plan->until[s];
      live += volume;
      if (live > peak)
        peak = live;
      for (uint32_t k = 0; k < arity; k++)
        {
          TpNode a = tape->arg[i][k];
          if (slot[a] != NULL && until[a] == s && !plan->readable[a])
            {
              live -= tp_shape_volume (&tape->shape[a]);
              tp_free (slot[a]);
              slot[a] = NULL;
            }
        }
    }
  for (uint32_t r = 0; ok && r < plan->n_results; r++)
    {
      TpNode node = plan->results[r];
      results[r] = slot[node];
      slot[node] = NULL;
    }
  for (uint32_t i = 0; slot != NULL && i < tape->len; i++)
    tp_free (slot[i]);
  tp_free (slot);
  tp_free (until);
  if (peak_live != NULL)
    *peak_live = peak;
  return ok;
}
