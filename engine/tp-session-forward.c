/* tp-session-forward.c: a session's forward mode (docs/language.md,
 * forward): the direction, the tangent tape and its reading, the
 * comparison with reverse mode, the cost of the whole gradient both ways,
 * the tangent step-through's sentences and the JSON member.  The stages
 * are made only when the forward reading, its facts or the JAX program
 * ask for them. */
#include "tp-session-json.h"

#include <math.h>
#include <string.h>

#include "tp-json.h"
#include "tp-values.h"

/* Adds without wrapping: the costs are estimates, never over UINT64_MAX. */
static uint64_t
add_sat (uint64_t a, uint64_t b)
{
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t
mul_sat (uint64_t a, uint64_t b)
{
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* The buffer's text in a block of its own size: a reading is kept until
 * the next compile, and a buffer holds up to twice its text. */
char *
tp_session_steal_exact (TpBuf *out)
{
  size_t len = out->len;
  char *text = tp_buf_steal (out);
  char *exact;

  if (text == NULL)
    return NULL;
  exact = tp_realloc (text, len + 1);
  if (exact == NULL)
    tp_free (text);
  return exact;
}

/* Every parameter's display name (D9), the gradients' or not. */
static const char **
parameter_names (TpSession *s)
{
  const char **names = tp_arena_calloc (&s->arena, (size_t) s->n_wrt + 1,
                                        sizeof *names);

  for (uint32_t k = 0; names != NULL && k < s->n_wrt; k++)
    {
      TpBuf name;
      tp_buf_init (&name);
      tp_session_put_display_name (s, s->wrt[k], &name);
      names[k] = name.failed ? NULL
                 : tp_arena_strndup (&s->arena, name.data, name.len);
      tp_buf_clear (&name);
      if (names[k] == NULL)
        return NULL;
    }
  return names;
}

bool
tp_session_build_direction (TpSession *s)
{
  TpForwardFacts *f = &s->fwd;

  f->names = parameter_names (s);
  if (f->names == NULL
      || !tp_forward_direction (&f->direction, &s->prog.tape, s->wrt,
                                f->names, s->n_wrt, f->asked, &s->arena))
    return false;
  tp_texts_bind (&s->direction_texts, &s->arena, s->n_wrt, f->direction.v,
                 s->prog.tape.shape, s->wrt);
  return true;
}

/* The backward pass's work: the nodes differentiate appended that the
 * gradients are computed from.  False when memory runs out. */
static bool
backward_work (const TpSession *s, uint64_t *out)
{
  const TpTape *t = &s->prog.tape;
  uint8_t *need = tp_malloc ((size_t) t->len + 1);
  uint64_t work = 0;

  if (need == NULL)
    return false;
  memset (need, 0, (size_t) t->len + 1);
  for (uint32_t k = 0; k < s->n_wrt; k++)
    need[s->grads[k]] = 1;
  for (TpNode i = t->len; i-- > s->spec_nodes;)
    if (need[i])
      {
        work = add_sat (work, tp_tape_node_work (t, i));
        for (uint32_t k = 0; k < tp_op_info[t->op[i]].arity; k++)
          need[t->arg[i][k]] = 1;
      }
  tp_free (need);
  *out = work;
  return true;
}

/* The tangent against the gradients' dot product with the direction:
 * parameter by parameter in declaration order, element by element in
 * row-major order, each product and sum in double. */
static bool
compare (TpSession *s)
{
  TpForwardFacts *f = &s->fwd;
  const TpForward *fw = &f->tape;
  double sum = 0.0, size = 0.0, t;

  f->compared = s->differentiated && !fw->limited;
  f->work_forward = add_sat (fw->work_program,
                             mul_sat (fw->n_elements, fw->work_tangent));
  if (!f->compared)
    return true;
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      const float *g = s->values[s->grads[k]];
      const float *v = f->direction.v[k];
      uint64_t n = tp_shape_volume (&s->prog.tape.shape[s->wrt[k]]);
      for (uint64_t e = 0; e < n; e++)
        {
          double p = (double) g[e] * (double) v[e];
          sum += p;
          size += fabs (p);
        }
    }
  t = fw->values[fw->tangent][0];
  f->reverse = sum;
  f->finite = isfinite (t) && isfinite (sum) && isfinite (size);
  /* the largest of 1, |t| and size (finite here, or f->finite is false:
   * no libm call, so the command line links the C library alone) */
  f->scale = fabs (t) > size ? fabs (t) : size;
  if (!(f->scale > 1.0))
    f->scale = 1.0;
  f->agrees = f->finite && fabs (t - sum) <= TP_FORWARD_TOLERANCE * f->scale;
  if (!backward_work (s, &f->work_backward))
    return false;
  f->work_reverse = add_sat (fw->work_program, f->work_backward);
  return true;
}

/* {==== the reading ====} */

static void
put_note (TpMap *map, TpBuf *out, uint32_t node, TpLineRole role,
          const char *text)
{
  tp_map_line (map, out, node, role);
  tp_buf_puts (out, text);
}

static void
put_node_ref (TpMap *map, TpBuf *out, TpNode node)
{
  size_t at = out->len;

  tp_buf_u64 (out, node);
  tp_map_ref (map, out, at, TP_TOKEN_OPERAND, node);
}

static void
put_number_ref (TpMap *map, TpBuf *out, double value, TpNode node)
{
  size_t at = out->len;

  tp_buf_f32 (out, (float) value);
  tp_map_ref (map, out, at, TP_TOKEN_NUMBER, node);
}

static void
put_count (TpBuf *out, uint64_t n, const char *one, const char *many)
{
  tp_buf_grouped (out, n);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, n == 1 ? one : many);
}

/* Why no tangent tape was recorded: the limit it met. */
static void
put_limit (TpBuf *out, TpTapeError e)
{
  switch (e)
    {
    case TP_TAPE_TOO_MANY_NODES:
      tp_buf_puts (out, "the tangent tape would record more than ");
      tp_buf_grouped (out, TP_LIMIT_NODES);
      tp_buf_puts (out, " nodes");
      return;
    case TP_TAPE_TENSOR_TOO_BIG:
    case TP_TAPE_TOO_MANY_ELEMENTS:
      tp_buf_puts (out, "the program's tensors and their tangents would hold "
                        "more than ");
      tp_buf_grouped (out, TP_LIMIT_ELEMENTS);
      tp_buf_puts (out, " (2^24) elements in all");
      return;
    case TP_TAPE_TOO_MUCH_WORK:
      tp_buf_puts (out, "running the program and its tangent would take more "
                        "than ");
      tp_buf_grouped (out, TP_LIMIT_WORK);
      tp_buf_puts (out, " (2^30) multiply-adds");
      return;
    case TP_TAPE_OK:
    case TP_TAPE_NO_MEMORY:
      break;
    }
  tp_buf_puts (out, "out of memory");
}

/* The direction's lines: one values line per parameter, or the one
 * element a one-hot direction picks. */
static void
put_direction (TpSession *s, TpMap *map, TpBuf *out)
{
  TpForwardFacts *f = &s->fwd;
  const TpDirection *d = &f->direction;
  TpValuesBudget budget = { TP_VALUES_BUDGET, TP_SUMMARY_BUDGET };

  if (d->error != NULL)
    {
      put_note (map, out, TP_MAP_NO_NODE, TP_ROLE_NOTE, "direction: ");
      tp_buf_puts (out, d->error);
      tp_buf_puts (out, "; the seeded direction is used instead\n");
    }
  if (d->one_hot)
    {
      const TpShape *shape = &s->prog.tape.shape[s->wrt[d->hot]];
      uint64_t e = d->hot_element;
      uint32_t index[TP_MAX_RANK];

      for (uint32_t a = shape->rank; a-- > 0;)
        {
          index[a] = (uint32_t) (e % shape->dims[a]);
          e /= shape->dims[a];
        }
      put_note (map, out, f->tape.seeds[d->hot], TP_ROLE_NOTE,
                "direction v: 1 at ");
      tp_buf_puts (out, f->names[d->hot]);
      tp_buf_dims (out, index, shape->rank);
      tp_buf_puts (out, ", 0 everywhere else: the tangent is the gradient's "
                        "element there\n");
      return;
    }
  put_note (map, out, TP_MAP_NO_NODE, TP_ROLE_NOTE,
            "direction v, seeded: each element one of -1, -0.75, -0.5, "
            "-0.25, 0.25, 0.5, 0.75, 1\n");
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      const TpShape *shape = &s->prog.tape.shape[s->wrt[k]];
      TpNode seed = f->tape.seeds != NULL ? f->tape.seeds[k] : TP_NO_NODE;
      tp_values_line (out, f->names[k], shape, d->v[k], shape, &budget, map,
                      seed != TP_NO_NODE ? seed : s->wrt[k], seed,
                      &s->direction_texts, k);
    }
}

/* The last lines: the tangent, reverse mode's value beside it, and the
 * cost of the whole gradient both ways. */
static void
put_verdict (TpSession *s, TpMap *map, TpBuf *out)
{
  TpForwardFacts *f = &s->fwd;
  const TpForward *fw = &f->tape;
  const TpShape *shape = &s->prog.tape.shape[s->target];
  TpValuesBudget budget = { TP_VALUES_BUDGET, TP_SUMMARY_BUDGET };
  size_t at;

  put_note (map, out, fw->tangent, TP_ROLE_NOTE, "forward mode: the tangent "
            "of ");
  tp_buf_puts (out, s->target_name);
  tp_buf_puts (out, " along v is node ");
  put_node_ref (map, out, fw->tangent);
  tp_buf_puts (out, ", ");
  at = out->len;
  tp_values_put_tensor (out, fw->values[fw->tangent], shape, &budget);
  tp_map_ref (map, out, at, TP_TOKEN_NUMBER, fw->tangent);
  tp_buf_putc (out, '\n');
  if (!f->compared)
    {
      put_note (map, out, TP_MAP_NO_NODE, TP_ROLE_NOTE, "reverse mode: ");
      f->verdict_at = out->len;
      tp_buf_puts (out, "there is no gradient to compare with: `");
      tp_buf_puts (out, s->target_name);
      tp_buf_puts (out, "` has shape ");
      tp_buf_shape (out, shape);
      tp_buf_puts (out, ", and reverse mode needs a rank-0 target (one "
                        "backward pass per element of it, ");
      tp_buf_grouped (out, tp_shape_volume (shape));
      tp_buf_puts (out, " here)");
      f->verdict_len = out->len - f->verdict_at;
      tp_buf_putc (out, '\n');
      f->cost_at = f->cost_len = 0;
      return;
    }
  put_note (map, out, TP_MAP_NO_NODE, TP_ROLE_NOTE, "reverse mode: the "
            "gradients' dot product with v, the sum of d ");
  tp_buf_puts (out, s->target_name);
  tp_buf_puts (out, " / d p * v over every parameter element (in double, "
                    "parameter by parameter, element by element), is ");
  put_number_ref (map, out, f->reverse, TP_MAP_NO_NODE);
  tp_buf_putc (out, '\n');
  put_note (map, out, TP_MAP_NO_NODE, TP_ROLE_NOTE, "");
  f->verdict_at = out->len;
  if (!f->finite)
    tp_buf_puts (out, "they cannot agree: a value is not finite");
  else
    {
      char num[TP_SHORT_NUMBER_MAX];
      tp_buf_puts (out, f->agrees ? "they agree: " : "they disagree: ");
      tp_buf_puts (out, "the two differ by ");
      tp_short_number (fabs ((double) fw->values[fw->tangent][0]
                             - f->reverse), num);
      tp_buf_puts (out, num);
      tp_buf_puts (out, f->agrees ? ", within the tolerance "
                                  : ", over the tolerance ");
      tp_short_number (TP_FORWARD_TOLERANCE * f->scale, num);
      tp_buf_puts (out, num);
      tp_buf_puts (out, " (1e-4 times the largest of 1, |tangent| and "
                        "sum |g * v|)");
    }
  f->verdict_len = out->len - f->verdict_at;
  tp_buf_putc (out, '\n');

  put_note (map, out, TP_MAP_NO_NODE, TP_ROLE_FOOTER, "");
  f->cost_at = out->len;
  tp_buf_puts (out, "the whole gradient, ");
  put_count (out, fw->n_elements, "parameter element", "parameter elements");
  tp_buf_puts (out, ": forward mode ");
  tp_buf_grouped (out, f->work_forward);
  tp_buf_puts (out, " estimated multiply-adds (the program's ");
  tp_buf_grouped (out, fw->work_program);
  tp_buf_puts (out, ", then a tangent pass of ");
  tp_buf_grouped (out, fw->work_tangent);
  tp_buf_puts (out, fw->n_elements == 1 ? " for the element)"
                                        : " for each element)");
  tp_buf_puts (out, ", reverse mode ");
  tp_buf_grouped (out, f->work_reverse);
  tp_buf_puts (out, " (the program's, then one backward pass of ");
  tp_buf_grouped (out, f->work_backward);
  tp_buf_puts (out, "): ");
  if (f->work_forward < f->work_reverse)
    tp_buf_puts (out, fw->n_elements == 1
                      ? "forward mode is cheaper here: its one tangent pass "
                        "costs less than the backward pass"
                      : "forward mode is cheaper here: its tangent passes "
                        "together cost less than the backward pass");
  else if (f->work_forward == f->work_reverse)
    tp_buf_puts (out, "the two cost the same here");
  else if (fw->n_elements > 1)
    tp_buf_puts (out, "reverse mode is cheaper here: one backward pass "
                      "gives every element's gradient, where forward mode "
                      "needs a pass per element");
  else
    tp_buf_puts (out, "reverse mode is cheaper here: its backward pass "
                      "costs less than the tangent pass");
  f->cost_len = out->len - f->cost_at;
  tp_buf_putc (out, '\n');
}

/* The forward reading: the derivative reading's format for the tangent
 * tape, then the direction, the tangent and the comparison. */
static bool
build_reading (TpSession *s)
{
  TpForwardFacts *f = &s->fwd;
  const TpForward *fw = &f->tape;
  TpMap *map = tp_session_map_of (s, TP_READING_FORWARD);
  TpBuf out;
  size_t at;

  tp_buf_init (&out);
  if (s->n_wrt == 0)
    {
      put_note (map, &out, TP_MAP_NO_NODE, TP_ROLE_NOTE,
                "there is no parameter to take a direction in: declare one "
                "with `w = parameter [2, 2]`.\n");
      goto take;
    }
  tp_tape_describe_range (&fw->tape, 0, s->spec_nodes, &out, map,
                          TP_ROLE_NODE);
  tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_DIVIDER);
  if (fw->limited)
    {
      tp_buf_puts (&out, "-- forward mode stopped: ");
      put_limit (&out, fw->limit);
      tp_buf_putc (&out, '\n');
      goto take;
    }
  tp_buf_puts (&out, "-- ");
  at = out.len;
  tp_buf_u64 (&out, fw->tape.len - s->spec_nodes);
  tp_map_ref (map, &out, at, TP_TOKEN_NUMBER, TP_MAP_NO_NODE);
  tp_buf_puts (&out, " nodes appended by forward mode: the tangent of ");
  at = out.len;
  tp_buf_puts (&out, s->target_name);
  tp_map_ref (map, &out, at, TP_TOKEN_NAME, s->target);
  tp_buf_puts (&out, " along v is node ");
  put_node_ref (map, &out, fw->tangent);
  tp_buf_putc (&out, '\n');
  tp_tape_describe_range (&fw->tape, s->spec_nodes, fw->tape.len, &out, map,
                          TP_ROLE_DERIVED);
  tp_tape_describe_total (&fw->tape, "tape", &out, map);
  tp_map_line (map, &out, TP_MAP_NO_NODE, TP_ROLE_BLANK);
  tp_buf_putc (&out, '\n');
  put_direction (s, map, &out);
  put_verdict (s, map, &out);
take:
  if (map != NULL && map->failed)
    {
      tp_buf_clear (&out);
      return false;
    }
  s->reading_len[TP_READING_FORWARD] = out.len;
  s->readings[TP_READING_FORWARD] = tp_session_steal_exact (&out);
  return s->readings[TP_READING_FORWARD] != NULL;
}

/* {==== the tangent step-through ====} */

/* Tangent node i's sentence, step k of n. */
static void
put_step (TpSession *s, TpBuf *out, uint32_t k)
{
  const TpForward *fw = &s->fwd.tape;
  TpNode i = s->spec_nodes + k;
  const TpProvenance *why = &fw->why[k];
  const TpShape *shape = &fw->tape.shape[i];

  tp_buf_puts (out, "tangent step ");
  tp_buf_u64 (out, k + 1);
  tp_buf_puts (out, " of ");
  tp_buf_u64 (out, fw->tape.len - s->spec_nodes);
  tp_buf_puts (out, ": node ");
  tp_buf_u64 (out, i);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, tp_op_info[fw->tape.op[i]].name);
  switch ((TpProvenanceRole) why->role)
    {
    case TP_PROVENANCE_SEED:
      tp_buf_puts (out, ": the direction's part for ");
      tp_session_put_display_name (s, why->of, out);
      tp_buf_puts (out, ", where its tangent starts");
      break;
    case TP_PROVENANCE_RULE:
      tp_buf_puts (out, ", the tangent rule of node ");
      tp_buf_u64 (out, why->of);
      tp_buf_putc (out, ' ');
      tp_buf_puts (out, tp_op_info[fw->tape.op[why->of]].name);
      if (s->display[why->of] != TP_NO_NODE)
        {
          tp_buf_puts (out, " (");
          tp_session_put_display_name (s, why->of, out);
          tp_buf_putc (out, ')');
        }
      tp_buf_puts (out, ": ");
      tp_buf_puts (out, why->phrase);
      break;
    case TP_PROVENANCE_UNREACHED:
      tp_buf_puts (out, ": the tangent of ");
      tp_buf_puts (out, s->target_name);
      tp_buf_puts (out, " is zero, no parameter reaches it");
      break;
    case TP_PROVENANCE_NONE:
    case TP_PROVENANCE_ZERO:
    case TP_PROVENANCE_SHARE:
      break;
    }
  if (i == fw->tangent)
    {
      tp_buf_puts (out, "; the tangent of ");
      tp_buf_puts (out, s->target_name);
    }
  tp_buf_puts (out, "; ");
  if (shape->rank == 0)
    {
      char num[TP_SHORT_NUMBER_MAX];
      tp_buf_puts (out, "gives ");
      tp_short_number (fw->values[i][0], num);
      tp_buf_puts (out, num);
    }
  else
    tp_buf_shape (out, shape);
}

static bool
build_steps (TpSession *s)
{
  TpForwardFacts *f = &s->fwd;
  uint32_t all = f->tape.limited ? 0 : f->tape.tape.len - s->spec_nodes;
  uint32_t n = all < TP_STEP_TEXTS ? all : TP_STEP_TEXTS;
  TpBuf out;

  f->step_at = tp_arena_alloc (&s->arena, ((size_t) n + 1)
                                          * sizeof *f->step_at);
  if (f->step_at == NULL)
    return false;
  tp_buf_init (&out);
  for (uint32_t k = 0; k < n; k++)
    {
      f->step_at[k] = (uint32_t) out.len;
      put_step (s, &out, k);
    }
  f->step_at[n] = (uint32_t) out.len;
  f->n_step_texts = n;
  f->n_steps = all;
  f->steps = out.failed ? NULL
             : tp_arena_strndup (&s->arena, out.data != NULL ? out.data : "",
                                 out.len);
  tp_buf_clear (&out);
  return f->steps != NULL;
}

bool
tp_session_build_forward (TpSession *s)
{
  TpForwardFacts *f = &s->fwd;

  s->computed[TP_COMPUTED_FORWARD]++;
  if (s->n_wrt > 0)
    {
      if (!tp_forward_build (&f->tape, &s->prog.tape, s->spec_nodes,
                             s->target, s->wrt, s->n_wrt, &f->direction,
                             s->values, &s->arena))
        return false;
      if (!compare (s) || !build_steps (s))
        return false;
    }
  return build_reading (s);
}

/* {==== the seam ====} */

bool
tp_session_forward (const TpSession *cs, TpForwardSummary *out)
{
  TpSession *s = (TpSession *) cs;
  const TpForwardFacts *f = &s->fwd;
  const char *text;

  if (!tp_session_need (s, TP_STAGE_FORWARD) || s->n_wrt == 0)
    return false;
  text = s->readings[TP_READING_FORWARD];
  memset (out, 0, sizeof *out);
  out->first = s->spec_nodes;
  out->end = f->tape.limited ? s->spec_nodes : f->tape.tape.len;
  out->tangent = f->tape.limited ? TP_MAP_NO_NODE : f->tape.tangent;
  out->one_hot = f->direction.one_hot;
  out->direction_error = f->direction.error;
  out->compared = f->compared;
  out->reverse = f->reverse;
  out->agrees = f->agrees;
  out->work_forward = f->work_forward;
  out->work_reverse = f->compared ? f->work_reverse : 0;
  out->verdict = text + f->verdict_at;
  out->verdict_length = f->verdict_len;
  out->cost = text + f->cost_at;
  out->cost_length = f->cost_len;
  return true;
}

size_t
tp_session_forward_n_steps (const TpSession *cs)
{
  TpSession *s = (TpSession *) cs;

  return tp_session_need (s, TP_STAGE_FORWARD) ? s->fwd.n_steps : 0;
}

const char *
tp_session_forward_step_text (const TpSession *cs, size_t k, size_t *length)
{
  TpSession *s = (TpSession *) cs;
  const TpForwardFacts *f = &s->fwd;

  if (k >= tp_session_forward_n_steps (s))
    return NULL;
  if (k < f->n_step_texts)
    {
      *length = f->step_at[k + 1] - f->step_at[k];
      return f->steps + f->step_at[k];
    }
  {
    /* a later step: made now, kept until the next such ask */
    TpBuf out;
    TP_SESSION_ENTER (s);
    tp_buf_init (&out);
    put_step (s, &out, (uint32_t) k);
    tp_free (s->fwd.late_step);
    s->fwd.late_step = tp_buf_steal (&out);
    TP_SESSION_LEAVE ();
  }
  if (s->fwd.late_step == NULL)
    return NULL;
  *length = strlen (s->fwd.late_step);
  return s->fwd.late_step;
}

const float *
tp_session_forward_value (const TpSession *cs, uint32_t node, uint32_t *rank,
                          const uint32_t **dims)
{
  TpSession *s = (TpSession *) cs;
  const TpForward *fw = &s->fwd.tape;

  if (!tp_session_need (s, TP_STAGE_FORWARD) || s->n_wrt == 0
      || fw->limited || node >= fw->tape.len)
    return NULL;
  if (rank != NULL)
    *rank = fw->tape.shape[node].rank;
  if (dims != NULL)
    *dims = fw->tape.shape[node].dims;
  return fw->values[node];
}

/* {==== the JSON member ====} */

void
tp_session_json_forward (TpJsonWriter *w)
{
  TpSession *s = w->s;
  TpBuf *out = w->out;
  const TpForwardFacts *f = &s->fwd;
  const TpForward *fw = &f->tape;
  uint64_t budget = TP_VALUES_BUDGET;

  if (!tp_session_need (s, TP_STAGE_FORWARD) || s->n_wrt == 0)
    {
      tp_buf_puts (out, "null");
      return;
    }
  tp_buf_puts (out, "{\"direction\":{");
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      const TpShape *shape = &s->prog.tape.shape[s->wrt[k]];
      const TpTensorText *text = NULL;
      if (tp_shape_volume (shape) <= budget)
        text = tp_texts_get (&s->direction_texts, k, out);
      tp_json_key (out, f->names[k], k == 0);
      tp_buf_putc (out, '{');
      tp_json_tensor_fields_text (out, f->direction.v[k], shape, &budget,
                                  text);
      tp_buf_putc (out, '}');
    }
  tp_buf_puts (out, "},\"seeded\":");
  tp_buf_puts (out, f->direction.one_hot ? "false" : "true");
  tp_buf_puts (out, ",\"direction_error\":");
  if (f->direction.error != NULL)
    tp_json_string (out, f->direction.error, strlen (f->direction.error));
  else
    tp_buf_puts (out, "null");
  tp_buf_puts (out, ",\"nodes\":[");
  tp_buf_u64 (out, s->spec_nodes);
  tp_buf_putc (out, ',');
  tp_buf_u64 (out, fw->limited ? s->spec_nodes : fw->tape.len);
  tp_buf_puts (out, "],\"tangent_node\":");
  if (fw->limited)
    tp_buf_puts (out, "null,\"tangent\":null");
  else
    {
      const TpShape *shape = &fw->tape.shape[fw->tangent];
      tp_buf_u64 (out, fw->tangent);
      tp_buf_puts (out, ",\"tangent\":");
      if (shape->rank == 0)
        tp_json_f32 (out, fw->values[fw->tangent][0]);
      else
        tp_json_tensor (out, fw->values[fw->tangent], shape, &budget);
    }
  tp_buf_puts (out, ",\"reverse\":");
  if (f->compared)
    tp_json_double (out, f->reverse);
  else
    tp_buf_puts (out, "null");
  tp_buf_puts (out, ",\"agrees\":");
  tp_buf_puts (out, !f->compared ? "null" : f->agrees ? "true" : "false");
  tp_buf_puts (out, ",\"tolerance\":");
  tp_json_double (out, TP_FORWARD_TOLERANCE);
  tp_buf_puts (out, ",\"work_forward\":");
  tp_buf_u64 (out, f->work_forward);
  tp_buf_puts (out, ",\"work_reverse\":");
  if (f->compared)
    tp_buf_u64 (out, f->work_reverse);
  else
    tp_buf_puts (out, "null");
  tp_buf_puts (out, ",\"verdict\":");
  tp_json_string (out, s->readings[TP_READING_FORWARD] + f->verdict_at,
                  f->verdict_len);
  tp_buf_puts (out, ",\"cost\":");
  tp_json_string (out, s->readings[TP_READING_FORWARD] + f->cost_at,
                  f->cost_len);
  tp_buf_puts (out, ",\"steps\":[");
  for (uint32_t k = 0; k < f->n_steps; k++)
    {
      const TpProvenance *why = &fw->why[k];
      if (k > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"node\":");
      tp_buf_u64 (out, s->spec_nodes + k);
      tp_buf_puts (out, ",\"of\":");
      tp_buf_u64 (out, why->of);
      tp_buf_puts (out, why->role == TP_PROVENANCE_SEED ? ",\"role\":\"seed\""
                        : why->role == TP_PROVENANCE_RULE ? ",\"role\":\"rule\""
                        : ",\"role\":\"unreached\"");
      tp_buf_puts (out, ",\"text\":");
      /* the first TP_STEP_TEXTS sentences, as "steps" has them; a later
       * one is asked for */
      if (k < f->n_step_texts)
        tp_json_string (out, f->steps + f->step_at[k],
                        f->step_at[k + 1] - f->step_at[k]);
      else
        tp_buf_puts (out, "null");
      tp_buf_putc (out, '}');
      tp_json_drain (w, false);
    }
  tp_buf_puts (out, "]}");
}
