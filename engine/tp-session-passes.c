/* tp-session-passes.c: the compiler's passes in a session (docs/language.md,
 * optimized, fusion, plan): the exact rewrites, the fusion into kernels
 * and the rematerialisation, each a stage made when it is first asked for
 * (tp-session-private.h), and what they give through the seam and the
 * JSON.  Without --optimize and --remat the plan and every reading made
 * from it are as if this file did not exist. */
#include "tp-session-private.h"

#include <string.h>

#include "tp-json.h"
#include "tp-run.h"

/* The nodes --remat names (each name's last assignment), each once. */
bool
tp_session_resolve_remat (TpSession *s, const TpChoices *c)
{
  size_t n = c != NULL && c->remat != NULL ? c->n_remat : 0;

  s->remat_nodes = tp_arena_alloc (&s->arena, (n + 1) * sizeof *s->remat_nodes);
  if (s->remat_nodes == NULL)
    return false;
  for (size_t k = 0; k < n; k++)
    {
      const char *name = c->remat[k];
      TpNode node;
      bool dup = false;

      if (name == NULL)
        continue;
      s->n_remat_asked++;
      node = tp_program_lookup (&s->prog, name, strlen (name));
      if (node == TP_NO_NODE)
        continue;
      for (uint32_t j = 0; j < s->n_remat_nodes; j++)
        dup = dup || s->remat_nodes[j] == node;
      if (!dup)
        s->remat_nodes[s->n_remat_nodes++] = node;
    }
  return true;
}

TpNode *
tp_session_roots (TpSession *s, uint32_t *n_roots)
{
  TpNode *roots = tp_arena_alloc (&s->arena, (s->n_wrt + 1) * sizeof *roots);

  *n_roots = 0;
  if (roots == NULL)
    return NULL;
  roots[(*n_roots)++] = s->target;
  if (s->differentiated)
    for (uint32_t k = 0; k < s->n_wrt; k++)
      roots[(*n_roots)++] = s->grads[k];
  return roots;
}

const TpTape *
tp_session_exec_tape (TpSession *s)
{
  if (!s->optimize)
    return &s->prog.tape;
  return tp_session_need (s, TP_STAGE_OPTIMIZE) ? &s->opt.tape : NULL;
}

bool
tp_session_build_optimize (TpSession *s)
{
  uint32_t n_roots;
  TpNode *roots = tp_session_roots (s, &n_roots);

  s->computed[TP_COMPUTED_OPTIMIZE]++;
  return roots != NULL
         && tp_optimize (&s->opt, &s->prog.tape, s->spec_nodes, &s->arena,
                         roots, n_roots, s->observe, s->n_observe, s->exact);
}

bool
tp_session_build_optimized (TpSession *s)
{
  TpBuf out;

  tp_buf_init (&out);
  tp_optimize_describe (&s->opt, &out,
                        tp_session_map_of (s, TP_READING_OPTIMIZED));
  return tp_session_take (s, TP_READING_OPTIMIZED, &out);
}

/* "h1, h2 and h3", or "h1, h2, h3 and 4 more": the rematerialised nodes'
 * display names. */
static void
put_chosen (TpSession *s, TpBuf *out)
{
  const TpRemat *r = &s->remat;
  uint32_t shown = 0, n = r->n_chosen, listed = n <= 4 ? n : 3;

  for (TpNode i = 0; i < s->prog.tape.len && shown < listed; i++)
    if (r->chosen[i])
      {
        if (shown > 0)
          tp_buf_puts (out, shown + 1 == n ? " and " : ", ");
        tp_session_put_display_name (s, i, out);
        shown++;
      }
  if (listed < n)
    {
      tp_buf_puts (out, " and ");
      tp_buf_u64 (out, n - listed);
      tp_buf_puts (out, " more");
    }
}

static void
put_elements (TpBuf *out, uint64_t n)
{
  char grouped[27];

  tp_grouped_number (n, grouped);
  tp_buf_puts (out, grouped);
  tp_buf_puts (out, n == 1 ? " element" : " elements");
}

/* The outcome in words, for the front ends. */
static bool
remat_sentence (TpSession *s)
{
  const TpRemat *r = &s->remat;
  TpBuf out;
  char grouped[27];

  tp_buf_init (&out);
  if (!s->remat_on)
    {
      tp_buf_u64 (&out, r->n_candidates);
      tp_buf_puts (&out, r->n_candidates == 1
                   ? " node can be rematerialised: freed after the forward"
                     " pass and computed again for the gradient."
                   : " nodes can be rematerialised: freed after the forward"
                     " pass and computed again for the gradient.");
    }
  else if (r->n_chosen == 0)
    {
      if (r->automatic)
        {
          tp_buf_puts (&out, "auto found no nodes to recompute that lower the"
                             " peak of ");
          put_elements (&out, r->peak_before);
          tp_buf_putc (&out, '.');
        }
      else
        tp_buf_puts (&out, "None of the named nodes can be recomputed: a node"
                           " can be when it is computed, not a result, and"
                           " read by the forward pass and by the gradient.");
    }
  else
    {
      tp_buf_puts (&out, r->automatic ? "auto recomputes " : "Recomputing ");
      put_chosen (s, &out);
      tp_buf_puts (&out, r->automatic ? " for the gradient: the peak goes from "
                                      : " for the gradient takes the peak from ");
      put_elements (&out, r->peak_before);
      tp_buf_puts (&out, " to ");
      put_elements (&out, s->plan.peak);
      tp_buf_puts (&out, ", for ");
      tp_grouped_number (r->work_extra, grouped);
      tp_buf_puts (&out, grouped);
      tp_buf_puts (&out, r->work_extra == 1 ? " more multiply-add."
                                            : " more multiply-adds.");
    }
  s->remat_sentence = tp_buf_steal (&out);
  return s->remat_sentence != NULL;
}

bool
tp_session_plan_passes (TpSession *s)
{
  TpRemat *r = &s->remat;

  if (s->optimize)
    {
      const TpOptimized *o = &s->opt;
      if (!tp_session_need (s, TP_STAGE_OPTIMIZE)
          || !tp_plan_lower (&s->plan, &o->tape, &s->arena, o->results,
                             o->n_roots, o->results + o->n_roots,
                             o->n_observe, s->exact))
        return false;
    }
  else
    {
      uint32_t n_roots;
      TpNode *roots = tp_session_roots (s, &n_roots);
      if (roots == NULL
          || !tp_plan_lower (&s->plan, &s->prog.tape, &s->arena, roots,
                             n_roots, s->observe, s->n_observe, s->exact))
        return false;
    }
  if (!s->remat_on)
    return true;
  s->computed[TP_COMPUTED_REMAT]++;
  memset (r, 0, sizeof *r);
  r->on = true;
  r->automatic = s->remat_auto;
  r->n_asked = s->n_remat_asked;
  if (!tp_remat_candidates (r, &s->plan, s->spec_nodes, &s->arena))
    return false;
  for (uint32_t k = 0; k < s->n_remat_nodes; k++)
    {
      TpNode node = s->remat_nodes[k];
      if (s->optimize)
        node = s->opt.becomes[node];
      r->chosen[node] = 1;
    }
  if (!tp_remat_apply (r, &s->plan, s->spec_nodes, &s->arena)
      || !remat_sentence (s))
    return false;
  s->done |= UINT32_C (1) << TP_STAGE_REMAT;
  return true;
}

bool
tp_session_build_remat (TpSession *s)
{
  /* With --remat the plan made it (tp_session_plan_passes). */
  if (s->remat_on)
    return true;
  s->computed[TP_COMPUTED_REMAT]++;
  memset (&s->remat, 0, sizeof s->remat);
  s->remat.peak_before = s->plan.peak;
  s->remat.peak_at_before = s->plan.peak_at;
  return tp_remat_candidates (&s->remat, &s->plan, s->spec_nodes, &s->arena)
         && remat_sentence (s);
}

void
tp_session_put_remat_line (TpSession *s, TpBuf *out, TpMap *map)
{
  const TpRemat *r = &s->remat;

  tp_map_line (map, out, TP_MAP_NO_NODE, TP_ROLE_FOOTER);
  tp_buf_puts (out, r->automatic ? "remat auto (Chen's sqrt(n) checkpoints): "
                                 : "remat: ");
  tp_buf_puts (out, "recomputes ");
  tp_buf_u64 (out, r->n_chosen);
  tp_buf_puts (out, " of ");
  tp_buf_u64 (out, r->n_candidates);
  tp_buf_puts (out, r->n_candidates == 1 ? " candidate" : " candidates");
  if (r->n_chosen > 0)
    {
      tp_buf_puts (out, " (");
      put_chosen (s, out);
      tp_buf_putc (out, ')');
    }
  tp_buf_puts (out, "; live volume peak ");
  tp_buf_u64 (out, r->peak_before);
  tp_buf_puts (out, " elements before, ");
  tp_buf_u64 (out, s->plan.peak);
  tp_buf_puts (out, " after; extra work ");
  tp_buf_u64 (out, r->work_extra);
  tp_buf_putc (out, '\n');
}

/* With --remat, the results come from running the schedule itself, which
 * frees what it rematerialises and computes it again: the gradients the
 * readings show are the rematerialised program's.  A schedule that read a
 * freed buffer would fail here (and the session say "out of memory"). */
bool
tp_session_run_schedule (TpSession *s)
{
  float **results;
  bool ok;

  if (!s->remat_on)
    return true;
  if (!tp_session_need (s, TP_STAGE_LOWER))
    return false;
  results = tp_arena_alloc (&s->arena, (s->plan.n_results + 1)
                                       * sizeof *results);
  if (results == NULL || !tp_plan_run (&s->plan, results, NULL))
    return false;
  for (uint32_t r = 0; r < s->plan.n_results; r++)
    {
      TpNode node = s->plan.results[r];
      ok = tp_tape_is_source (s->plan.tape, node);
      if (!ok)
        memcpy (s->values[node], results[r],
                (size_t) tp_shape_volume (&s->plan.tape->shape[node])
                * sizeof (float));
      tp_free (results[r]);
    }
  return true;
}

bool
tp_session_build_fusion (TpSession *s)
{
  TpBuf sentence;

  s->computed[TP_COMPUTED_FUSION]++;
  if (!tp_fusion_build (&s->fusion, &s->plan, &s->arena))
    return false;
  tp_buf_init (&sentence);
  tp_fusion_sentence (&s->fusion, &sentence);
  s->fusion_sentence = tp_buf_steal (&sentence);
  return s->fusion_sentence != NULL;
}

bool
tp_session_build_fusion_text (TpSession *s)
{
  TpBuf out;

  tp_buf_init (&out);
  tp_fusion_describe (&s->fusion, &out,
                      tp_session_map_of (s, TP_READING_FUSION));
  return tp_session_take (s, TP_READING_FUSION, &out);
}

/* {==== what the session gives ====} */

bool
tp_session_optimize_summary (const TpSession *cs, TpOptimizeSummary *out)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_OPTIMIZE))
    return false;
  out->nodes_before = s->opt.nodes_before;
  out->nodes_after = s->opt.nodes_after;
  out->work_before = s->opt.work_before;
  out->work_after = s->opt.work_after;
  out->n_rewrites = s->opt.n_rewrites;
  out->n_kept = s->opt.n_kept;
  return true;
}

bool
tp_session_fusion (const TpSession *cs, TpFusionSummary *out)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_FUSION))
    return false;
  out->n_kernels = s->fusion.n_kernels;
  out->n_computed = s->fusion.n_computed;
  out->n_fused = s->fusion.n_fused;
  out->bytes_unfused = s->fusion.bytes_unfused;
  out->bytes_fused = s->fusion.bytes_fused;
  out->sentence = s->fusion_sentence;
  out->sentence_length = strlen (s->fusion_sentence);
  return true;
}

uint32_t
tp_session_node_kernel (const TpSession *cs, uint32_t node)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_FUSION)
      || !tp_session_need (s, TP_STAGE_MEMORY) || node >= s->prog.tape.len
      || s->memory.step_of[node] == UINT32_MAX)
    return TP_MAP_NO_NODE;
  return s->fusion.kernel_of[s->memory.step_of[node]];
}

bool
tp_session_remat (const TpSession *cs, TpRematSummary *out)
{
  TpSession *s = (TpSession *) cs;
  const TpRemat *r = &s->remat;

  if (!tp_session_need (s, TP_STAGE_REMAT))
    return false;
  out->on = r->on;
  out->automatic = r->automatic;
  out->n_candidates = r->n_candidates;
  out->n_chosen = r->n_chosen;
  out->peak_before = r->peak_before;
  out->peak_after = s->plan.peak;
  out->work_extra = r->work_extra;
  out->sentence = s->remat_sentence;
  out->sentence_length = strlen (s->remat_sentence);
  return true;
}

bool
tp_session_remat_candidate (const TpSession *cs, uint32_t node)
{
  TpSession *s = (TpSession *) cs;

  return tp_session_need (s, TP_STAGE_REMAT) && node < s->prog.tape.len
         && s->remat.candidate[node];
}

bool
tp_session_rematerialised (const TpSession *cs, uint32_t node)
{
  TpSession *s = (TpSession *) cs;

  return tp_session_need (s, TP_STAGE_REMAT) && node < s->prog.tape.len
         && s->remat.chosen[node];
}

/* {==== the JSON members ====} */

void
tp_session_json_optimized (TpSession *s, TpBuf *out)
{
  tp_optimize_json (tp_session_need (s, TP_STAGE_OPTIMIZE) ? &s->opt : NULL,
                    out);
}

void
tp_session_json_fusion (TpSession *s, TpBuf *out)
{
  tp_fusion_json (tp_session_need (s, TP_STAGE_FUSION) ? &s->fusion : NULL,
                  out);
}

/* {"on": B, "auto": B, "candidates": [...], "chosen": [...],
 * "peak_before": P, "peak_after": Q, "work_extra": W, "sentence": S} */
void
tp_session_json_remat (TpSession *s, TpBuf *out)
{
  bool ok = tp_session_need (s, TP_STAGE_REMAT);
  const TpRemat *r = &s->remat;
  uint32_t n = ok ? s->prog.tape.len : 0;
  bool first = true;

  tp_buf_puts (out, "{\"on\":");
  tp_buf_puts (out, ok && r->on ? "true" : "false");
  tp_buf_puts (out, ",\"auto\":");
  tp_buf_puts (out, ok && r->automatic ? "true" : "false");
  tp_buf_puts (out, ",\"candidates\":[");
  for (TpNode i = 0; i < n; i++)
    if (r->candidate[i])
      {
        if (!first)
          tp_buf_putc (out, ',');
        first = false;
        tp_buf_u64 (out, i);
      }
  tp_buf_puts (out, "],\"chosen\":[");
  first = true;
  for (TpNode i = 0; i < n; i++)
    if (r->chosen[i])
      {
        if (!first)
          tp_buf_putc (out, ',');
        first = false;
        tp_buf_u64 (out, i);
      }
  tp_buf_puts (out, "],\"peak_before\":");
  tp_buf_u64 (out, ok ? r->peak_before : 0);
  tp_buf_puts (out, ",\"peak_after\":");
  tp_buf_u64 (out, ok ? s->plan.peak : 0);
  tp_buf_puts (out, ",\"work_extra\":");
  tp_buf_u64 (out, ok ? r->work_extra : 0);
  tp_buf_puts (out, ",\"sentence\":");
  if (ok)
    tp_json_string (out, s->remat_sentence, strlen (s->remat_sentence));
  else
    tp_buf_puts (out, "null");
  tp_buf_putc (out, '}');
}
