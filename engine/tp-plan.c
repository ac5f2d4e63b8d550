/* tp-plan.c: forward plans. */
#include "tp-plan.h"

#include <string.h>

#include "tp-run.h"

bool
tp_plan_lower (TpPlan *plan, const TpTape *tape, TpArena *arena,
               const TpNode *roots, uint32_t n_roots,
               const TpNode *observe, uint32_t n_observe, bool exact)
{
  uint32_t n = tape->len;
  uint64_t live = 0;

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

  /* Live volume: add each node, note a strictly greater peak, then drop
   * the slots released after this node. */
  for (uint32_t i = 0; i < n; i++)
    {
      if (!plan->wanted[i])
        continue;
      live += tp_shape_volume (&tape->shape[i]);
      plan->retain_all += tp_shape_volume (&tape->shape[i]);
      if (live > plan->peak)
        {
          plan->peak = live;
          plan->peak_at = i;
        }
      for (uint32_t k = 0; k < tp_op_info[tape->op[i]].arity; k++)
        {
          TpNode a = tape->arg[i][k];
          bool seen = k == 1 && tape->arg[i][0] == a;
          if (!seen && plan->last[a] == i && !plan->readable[a])
            live -= tp_shape_volume (&tape->shape[a]);
        }
    }
  return true;
}

void
tp_plan_describe (const TpPlan *plan, TpBuf *out, TpMap *map)
{
  const TpTape *tape = plan->tape;
  size_t at;

  for (uint32_t i = 0; i < tape->len; i++)
    {
      size_t mark = out->len;

      if (!plan->wanted[i])
        continue;
      tp_map_line (map, out, i, plan->readable[i] ? TP_ROLE_KEPT
                                                   : TP_ROLE_FREED);
      tp_tape_describe_line (tape, i, out, map);
      tp_buf_pad_from (out, mark, 52);
      tp_buf_putc (out, ' ');
      at = out->len;
      if (plan->readable[i])
        {
          tp_buf_puts (out, "kept");
          tp_map_ref (map, out, at, TP_TOKEN_LIVE, TP_MAP_NO_NODE);
        }
      else
        {
          tp_buf_puts (out, "freed after");
          tp_map_ref (map, out, at, TP_TOKEN_LIVE, TP_MAP_NO_NODE);
          tp_buf_putc (out, ' ');
          at = out->len;
          tp_buf_u64 (out, plan->last[i]);
          tp_map_ref (map, out, at, TP_TOKEN_OPERAND, plan->last[i]);
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
  float **slot = tp_malloc ((tape->len ? tape->len : 1) * sizeof *slot);
  uint64_t live = 0, peak = 0;
  bool ok = true;

  for (uint32_t r = 0; r < plan->n_results; r++)
    results[r] = NULL;
  if (slot == NULL)
    return false;
  memset (slot, 0, (tape->len ? tape->len : 1) * sizeof *slot);
  for (uint32_t i = 0; ok && i < tape->len; i++)
    {
      size_t volume;

      if (!plan->wanted[i])
        continue;
      volume = (size_t) tp_shape_volume (&tape->shape[i]);
      slot[i] = tp_malloc (volume * sizeof (float));
      if (slot[i] == NULL || !tp_run_node (tape, i, slot, slot[i]))
        {
          ok = false;
          break;
        }
      live += volume;
      if (live > peak)
        peak = live;
      for (uint32_t k = 0; k < tp_op_info[tape->op[i]].arity; k++)
        {
          TpNode a = tape->arg[i][k];
          if (slot[a] != NULL && plan->last[a] == i && !plan->readable[a])
            {
              live -= tp_shape_volume (&tape->shape[a]);
              tp_free (slot[a]);
              slot[a] = NULL;
            }
        }
    }
  for (uint32_t r = 0; ok && r < plan->n_results; r++)
    {
      TpNode n = plan->results[r];
      results[r] = slot[n];
      slot[n] = NULL;
    }
  for (uint32_t i = 0; i < tape->len; i++)
    tp_free (slot[i]);
  tp_free (slot);
  if (peak_live != NULL)
    *peak_live = peak;
  return ok;
}
