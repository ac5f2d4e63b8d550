/* tp-session-readings.c: the stages that make the readings
 * (tp-session-private.h): each builder writes its reading and its map,
 * or the fact it stands for, the first time something asks for it.
 * tp-session.c's stage table says what each one stands on. */
#include "tp-session-private.h"

#include <string.h>

#include "tp-dot.h"
#include "tp-hlo.h"
#include "tp-run.h"
#include "tp-values.h"

bool
tp_session_build_spec (TpSession *s)
{
  TpBuf out;
  TpMap *map = tp_session_map_of (s, TP_READING_SPEC);

  tp_buf_init (&out);
  tp_tape_describe_range (&s->prog.tape, 0, s->spec_nodes, &out, map,
                          TP_ROLE_NODE);
  /* The spec's total counts the program's own nodes: it was written
   * before differentiate appended to the tape. */
  {
    TpTape spec = s->prog.tape;
    spec.len = s->spec_nodes;
    tp_tape_describe_total (&spec, "tape", &out, map);
  }
  return tp_session_take (s, TP_READING_SPEC, &out);
}

/* The derivative reading: the tape with what differentiate appended, or
 * why there is nothing to differentiate. */
bool
tp_session_build_derivative (TpSession *s)
{
  TpTape *t = &s->prog.tape;
  const TpShape *shape = &t->shape[s->target];
  TpMap *map = tp_session_map_of (s, TP_READING_DERIVATIVE);
  TpBuf out;
  size_t at;

  tp_buf_init (&out);
  if (shape->rank != 0)
    {
      tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_NOTE);
      tp_buf_putc (&out, '`');
      tp_session_put_mapped_name (map, &out, s->target_name, s->target);
      tp_buf_puts (&out, "` has shape ");
      at = out.len;
      tp_buf_shape (&out, shape);
      tp_map_ref (map, &out, at, TP_TOKEN_SHAPE, TP_MAP_NO_NODE);
      tp_buf_puts (&out, " and a gradient needs a rank-0 target: wrap it in "
                         "`sum(...)`, or pick another target.\n");
      return tp_session_take (s, TP_READING_DERIVATIVE, &out);
    }
  if (s->n_wrt == 0)
    {
      tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_NOTE);
      tp_buf_puts (&out, "there is no parameter to differentiate with respect "
                         "to: declare one with `w = parameter [2, 2]`.\n");
      return tp_session_take (s, TP_READING_DERIVATIVE, &out);
    }
  tp_tape_describe_range (t, 0, s->spec_nodes, &out, map, TP_ROLE_NODE);
  tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_DIVIDER);
  tp_buf_puts (&out, "-- ");
  at = out.len;
  tp_buf_u64 (&out, t->len - s->spec_nodes);
  tp_map_ref (map, &out, at, TP_TOKEN_NUMBER, TP_MAP_NO_NODE);
  tp_buf_puts (&out, " nodes appended by differentiate: ");
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      if (k > 0)
        tp_buf_puts (&out, ", ");
      tp_buf_puts (&out, "d ");
      tp_session_put_mapped_name (map, &out, s->target_name, s->target);
      tp_buf_puts (&out, " / d ");
      tp_session_put_mapped_display_name (s, map, &out, s->wrt[k]);
      tp_buf_puts (&out, " is node ");
      at = out.len;
      tp_buf_u64 (&out, s->grads[k]);
      tp_map_ref (map, &out, at, TP_TOKEN_OPERAND, s->grads[k]);
    }
  tp_buf_putc (&out, '\n');
  tp_tape_describe_range (t, s->spec_nodes, t->len, &out, map,
                          TP_ROLE_DERIVED);
  tp_tape_describe_total (t, "tape", &out, map);
  return tp_session_take (s, TP_READING_DERIVATIVE, &out);
}

/* The values: the whole tape, default inputs. */
bool
tp_session_build_run (TpSession *s)
{
  const TpTape *t = tp_session_exec_tape (s);

  if (t == NULL)
    return false;
  s->computed[TP_COMPUTED_INTERPRETER]++;
  s->values = tp_arena_alloc (&s->arena, (s->prog.tape.len + 1)
                                         * sizeof *s->values);
  if (s->values == NULL || !tp_run_forward (t, &s->arena, s->values))
    return false;
  /* A node the rewrites replaced shows its replacement's value: what the
   * optimised program computes for it (a gradient included). */
  if (s->optimize)
    for (TpNode i = 0; i < t->len; i++)
      s->values[i] = s->values[s->opt.becomes[i]];
  if (!tp_session_run_schedule (s))
    return false;
  tp_texts_bind (&s->texts, &s->arena, s->prog.tape.len, s->values,
                 s->prog.tape.shape, NULL);
  return true;
}

/* The plan (of the optimised tape with --optimize, rescheduled with
 * --remat), and the StableHLO module's arguments. */
bool
tp_session_build_lower (TpSession *s)
{
  uint32_t n_roots;
  TpNode *roots = tp_session_roots (s, &n_roots);

  s->computed[TP_COMPUTED_PLAN]++;
  if (roots == NULL)
    return false;
  if (s->optimize || s->remat_on)
    {
      if (!tp_session_plan_passes (s))
        return false;
    }
  else if (!tp_plan_lower (&s->plan, &s->prog.tape, &s->arena, roots,
                           n_roots, s->observe, s->n_observe, s->exact))
    return false;
  s->args = tp_arena_alloc (&s->arena, (s->prog.tape.len + 1)
                                       * sizeof *s->args);
  if (s->args == NULL)
    return false;
  s->n_args = tp_hlo_arguments (&s->plan, s->args);
  return true;
}

bool
tp_session_build_plan (TpSession *s)
{
  TpBuf out;

  tp_buf_init (&out);
  tp_plan_describe (&s->plan, &out, tp_session_map_of (s, TP_READING_PLAN));
  if (s->remat_on)
    tp_session_put_remat_line (s, &out, tp_session_map_of (s, TP_READING_PLAN));
  return tp_session_take (s, TP_READING_PLAN, &out);
}

bool
tp_session_build_stablehlo (TpSession *s)
{
  TpBuf out;

  tp_buf_init (&out);
  tp_hlo_write (&s->plan, &out, tp_session_map_of (s, TP_READING_STABLEHLO));
  return tp_session_take (s, TP_READING_STABLEHLO, &out);
}

bool
tp_session_build_values (TpSession *s)
{
  TpBuf out;
  TpValuesBudget budget = { TP_VALUES_BUDGET, TP_SUMMARY_BUDGET };
  TpMap *map = tp_session_map_of (s, TP_READING_VALUES);

  tp_buf_init (&out);
  tp_values_statements (&s->prog, s->values, &s->texts, &out, &budget, map);
  if (s->differentiated)
    {
      tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_BLANK);
      tp_buf_putc (&out, '\n');
      for (uint32_t k = 0; k < s->n_wrt; k++)
        {
          size_t mark;
          TpNode g = s->grads[k];
          tp_map_line (map, &out, g, TP_ROLE_GRADIENT);
          tp_buf_puts (&out, "d ");
          tp_session_put_mapped_name (map, &out, s->target_name, s->target);
          tp_buf_puts (&out, " / d ");
          mark = out.len;
          tp_session_put_mapped_display_name (s, map, &out, s->wrt[k]);
          tp_buf_pad_from (&out, mark, 6);
          tp_buf_putc (&out, ' ');
          mark = out.len;
          tp_values_put_node (&out, &s->texts, g, s->values[g],
                              &s->prog.tape.shape[g], &budget);
          tp_map_ref (map, &out, mark, TP_TOKEN_NUMBER, g);
          tp_buf_putc (&out, '\n');
        }
    }
  return tp_session_take (s, TP_READING_VALUES, &out);
}

bool
tp_session_build_nonfinite (TpSession *s)
{
  return tp_check_nonfinite (&s->prog.tape, s->values, &s->arena,
                             &s->nonfinite);
}

/* What the picture shows; false when memory runs out. */
static bool
dot_input (TpSession *s, TpDotInput *in_out)
{
  const char **names = tp_session_display_names (s);
  TpDotInput in;

  s->computed[TP_COMPUTED_PICTURE]++;
  if (names == NULL)
    return false;
  memset (&in, 0, sizeof in);
  in.plan = &s->plan;
  in.spec_nodes = s->spec_nodes;
  in.names = names;
  in.target = s->target;
  in.target_name = s->target_name;
  in.observe = s->observe;
  in.n_observe = s->n_observe;
  in.wrt = s->wrt;
  in.grads = s->differentiated ? s->grads : NULL;
  in.n_wrt = s->n_wrt;
  in.budget = 0;              /* TP_DOT_BUDGET */
  in.has_nonfinite = s->nonfinite.found;
  in.nonfinite = s->nonfinite.node;
  *in_out = in;
  return true;
}

bool
tp_session_build_dot (TpSession *s)
{
  TpDotInput in;
  TpBuf out;

  if (!dot_input (s, &in))
    return false;
  tp_buf_init (&out);
  s->reduced = tp_dot_write (&in, &out);
  return tp_session_take (s, TP_READING_DOT, &out);
}

/* The picture with the fusion's kernels as clusters. */
bool
tp_session_build_dot_kernels (TpSession *s)
{
  uint32_t n = s->prog.tape.len;
  uint32_t *kernels = tp_arena_alloc (&s->arena, ((size_t) n + 1)
                                                 * sizeof *kernels);
  TpDotInput in;
  TpBuf out;

  if (kernels == NULL || !dot_input (s, &in))
    return false;
  for (uint32_t i = 0; i < n; i++)
    kernels[i] = s->memory.step_of[i] == UINT32_MAX
                 ? UINT32_MAX : s->fusion.kernel_of[s->memory.step_of[i]];
  in.kernels = kernels;
  tp_buf_init (&out);
  tp_dot_write (&in, &out);
  s->dot_kernels_len = out.len;
  s->dot_kernels = tp_buf_steal (&out);
  return s->dot_kernels != NULL;
}

const char *
tp_session_dot_kernels (const TpSession *cs)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_DOT_KERNELS) || s->dot_kernels == NULL)
    return "";
  return s->dot_kernels;
}

const char *
tp_session_dot_tangent (const TpSession *cs)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_DOT_TANGENT) || s->dot_tangent == NULL)
    return "";
  return s->dot_tangent;
}

const char *
tp_session_announcement (const TpSession *cs)
{
  TpSession *s = (TpSession *) cs;
  size_t n_diags = 0;
  const char *summary = "";
  const TpDiag *d;
  TpBuf out;

  if (s->announcement != NULL)
    return s->announcement;
  /* the summary first: when it runs out of memory, the diagnostic says so */
  if (s->status == TP_STATUS_OK)
    summary = tp_session_reading (s, TP_READING_SUMMARY);
  d = tp_session_diags (s, &n_diags);
  tp_buf_init (&out);
  if (n_diags > 0)
    {
      tp_buf_puts (&out, "line ");
      tp_buf_u64 (&out, d[0].line);
      tp_buf_puts (&out, ", column ");
      tp_buf_u64 (&out, d[0].column);
      tp_buf_puts (&out, ": ");
      tp_buf_puts (&out, d[0].message);
      if (n_diags > 1)
        {
          tp_buf_puts (&out, " (and ");
          tp_buf_u64 (&out, n_diags - 1);
          tp_buf_puts (&out, " more)");
        }
    }
  else
    {
      const char *end = strchr (summary, '\n');

      tp_buf_puts (&out, "the program reads: ");
      tp_buf_append (&out, summary,
                     end != NULL ? (size_t) (end - summary) : strlen (summary));
    }
  s->announcement = tp_buf_steal (&out);
  return s->announcement != NULL ? s->announcement : "";
}

/* The picture with forward mode's tangent nodes as a third band; none
 * without a parameter or when a limit stopped the tangent tape. */
bool
tp_session_build_dot_tangent (TpSession *s)
{
  const TpForward *f = &s->fwd.tape;
  TpDotTangent tangent;
  TpDotInput in;
  TpBuf out;

  if (s->n_wrt == 0 || f->limited)
    return true;
  if (!dot_input (s, &in))
    return false;
  tangent.tape = &f->tape;
  tangent.why = f->why;
  tangent.tan = f->tan;
  tangent.tangent = f->tangent;
  in.tangent = &tangent;
  tp_buf_init (&out);
  tp_dot_write (&in, &out);
  s->dot_tangent_len = out.len;
  s->dot_tangent = tp_buf_steal (&out);
  return s->dot_tangent != NULL;
}

bool
tp_session_build_summary (TpSession *s)
{
  TpBuf out;

  tp_buf_init (&out);
  tp_buf_u64 (&out, s->prog.tape.len);
  tp_buf_puts (&out, " nodes recorded, ");
  tp_buf_u64 (&out, s->plan.n_wanted);
  tp_buf_puts (&out, " scheduled, ");
  tp_buf_u64 (&out, s->plan.n_results);
  tp_buf_puts (&out, " readable; differentiating ");
  tp_buf_puts (&out, s->target_name);
  /* Each observed node once, by its display name (docs/decisions.md D9): two
   * names of one node are one value. */
  for (uint32_t k = 0, shown = 0; k < s->n_observe; k++)
    {
      bool seen = false;
      for (uint32_t j = 0; j < k; j++)
        seen = seen || s->observe[j] == s->observe[k];
      if (seen)
        continue;
      tp_buf_puts (&out, shown++ == 0 ? ", observing " : ", ");
      tp_session_put_display_name (s, s->observe[k], &out);
    }
  tp_buf_putc (&out, '\n');
  return tp_session_take (s, TP_READING_SUMMARY, &out);
}

/* The gradient check (its own non-finite origin included) and its
 * reading. */
bool
tp_session_build_check (TpSession *s)
{
  TpBuf out;

  s->computed[TP_COMPUTED_CHECK]++;
  if (!tp_check_gradients (&s->prog.tape, s->spec_nodes, s->target,
                           s->wrt, s->differentiated ? s->grads : NULL,
                           s->n_wrt, s->values, &s->arena,
                           s->interrupt.interrupted != NULL ? &s->interrupt
                                                            : NULL,
                           &s->check))
    return false;
  if (s->check.interrupted)
    {
      /* not kept: the next ask checks again */
      s->stage_interrupted = true;
      return false;
    }
  tp_buf_init (&out);
  tp_check_describe (&s->check, &s->prog.tape, s->target_name,
                     s->param_names, s->values, &out, &s->verdict);
  return tp_session_take (s, TP_READING_CHECK, &out);
}

bool
tp_session_build_explain (TpSession *s)
{
  const char **names = tp_session_display_names (s);
  TpExplainInput in;
  TpBuf out;

  s->computed[TP_COMPUTED_EXPLAIN]++;
  if (names == NULL)
    return false;
  in.plan = &s->plan;
  in.spec_nodes = s->spec_nodes;
  in.names = names;
  in.target = s->target;
  in.target_name = s->target_name;
  in.wrt = s->wrt;
  in.grads = s->differentiated ? s->grads : NULL;
  in.n_wrt = s->n_wrt;
  tp_buf_init (&out);
  if (!tp_explain_write (&in, &s->arena, &out, &s->origins))
    {
      tp_buf_clear (&out);
      return false;
    }
  /* Where each node's line starts, for tp_session_explanation. */
  s->n_explained = s->prog.tape.len < TP_EXPLAIN_NODES
                   ? s->prog.tape.len : TP_EXPLAIN_NODES;
  s->explained = tp_arena_alloc (&s->arena, ((size_t) s->n_explained + 1)
                                            * sizeof *s->explained);
  if (s->explained == NULL || out.failed)
    {
      tp_buf_clear (&out);
      return false;
    }
  for (size_t at = 0, line = 0; line <= s->n_explained && at <= out.len;
       at++)
    if (at == 0 || out.data[at - 1] == '\n')
      s->explained[line++] = (uint32_t) at;
  return tp_session_take (s, TP_READING_EXPLAIN, &out);
}

bool
tp_session_build_memory (TpSession *s)
{
  TpBuf out;

  s->computed[TP_COMPUTED_MEMORY]++;
  if (!tp_memory_build (&s->memory, &s->plan, &s->arena))
    return false;
  tp_buf_init (&out);
  tp_memory_describe (&s->memory, &out);
  return tp_session_take (s, TP_READING_MEMORY, &out);
}

bool
tp_session_build_memory_svg (TpSession *s)
{
  TpBuf svg;

  tp_buf_init (&svg);
  tp_memory_svg (&s->memory, &svg);
  s->memory_svg_len = svg.len;
  s->memory_svg = tp_buf_steal (&svg);
  return s->memory_svg != NULL;
}
