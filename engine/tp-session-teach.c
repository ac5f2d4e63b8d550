/* tp-session-teach.c: the teaching model a session gives beside its
 * readings (tp-engine.h): the check's summary, the step-through (its
 * schedule, node states, origins and sentences), the memory chart's
 * axes, the defaults, the program's own training settings and the
 * training itself.  The front ends draw these and compute nothing of
 * their own, so the desktop and the page say the same. */
#include "tp-session-private.h"

#include <string.h>

#include "tp-lex.h"
#include "tp-train.h"

bool
tp_session_check_summary (const TpSession *cs, TpCheckSummary *out)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_CHECK))
    return false;
  out->outcome = (TpCheckOutcome) s->verdict.outcome;
  out->verdict = s->readings[TP_READING_CHECK] + s->verdict.at;
  out->verdict_length = s->verdict.len;
  out->differing = s->verdict.differing;
  out->nonfinite = s->check.nonfinite.found;
  out->nonfinite_node = s->check.nonfinite.found ? s->check.nonfinite.node
                                                 : TP_MAP_NO_NODE;
  return true;
}

size_t
tp_session_n_steps (const TpSession *cs)
{
  TpSession *s = (TpSession *) cs;

  return tp_session_need (s, TP_STAGE_MEMORY) ? s->memory.n_steps : 0;
}

bool
tp_session_step (const TpSession *s, size_t k, TpStep *out)
{
  const TpMemory *m = &s->memory;
  TpNode i;

  if (k >= tp_session_n_steps (s))
    return false;
  i = m->steps[k];
  out->node = i;
  out->gradient = i >= s->spec_nodes;
  out->kept = s->plan.readable[i] != 0;
  out->last = m->to[k];
  out->elements = tp_shape_volume (&s->prog.tape.shape[i]);
  out->live = m->live[k];
  out->again = m->again[k] != 0;
  if (out->again)
    out->kept = false;
  return true;
}

bool
tp_session_node_step (const TpSession *s, uint32_t node, size_t *k)
{
  if (tp_session_n_steps (s) == 0 || node >= s->prog.tape.len
      || s->memory.step_of[node] == UINT32_MAX)
    return false;
  *k = s->memory.step_of[node];
  return true;
}

/* Node's state after step k, its steps known: live while a copy of its
 * buffer is (a rematerialised node has two), freed between and after. */
static TpNodeState
state_at (const TpMemory *m, size_t k, uint32_t node)
{
  uint32_t at = m->step_of[node], again = m->again_of[node];

  if (at == UINT32_MAX)
    return TP_NODE_UNEVALUATED;
  if (k < m->from[at])
    return TP_NODE_PENDING;
  if (k <= m->to[at]
      || (again != UINT32_MAX && k >= m->from[again] && k <= m->to[again]))
    return TP_NODE_LIVE;
  return TP_NODE_FREED;
}

TpNodeState
tp_session_node_state (const TpSession *s, size_t k, uint32_t node)
{
  size_t at;

  if (k >= tp_session_n_steps (s) || !tp_session_node_step (s, node, &at))
    return TP_NODE_UNEVALUATED;
  return state_at (&s->memory, k, node);
}

bool
tp_session_origin (const TpSession *cs, uint32_t node, TpOrigin *out)
{
  TpSession *s = (TpSession *) cs;
  const TpTape *t = &s->prog.tape;
  const TpExplainOrigin *o;

  if (!tp_session_need (s, TP_STAGE_EXPLAIN) || node >= t->len
      || s->origins == NULL)
    return false;
  o = &s->origins[node];
  out->of = out->from = out->share = out->sum = TP_MAP_NO_NODE;
  out->count = 0;
  if (node < s->spec_nodes)
    {
      out->role = TP_ORIGIN_FORWARD;
      return true;
    }
  switch ((TpExplainRole) o->role)
    {
    case TP_EXPLAIN_SEED:
      out->role = TP_ORIGIN_SEED;
      out->of = s->target;
      break;
    case TP_EXPLAIN_RULE:
      out->role = TP_ORIGIN_RULE;
      out->of = o->of;
      break;
    case TP_EXPLAIN_ZERO:
      out->role = TP_ORIGIN_ZERO;
      out->of = o->of;
      break;
    case TP_EXPLAIN_SHARE:
      out->role = TP_ORIGIN_SHARE;
      out->of = o->of;
      out->from = o->from;
      out->sum = t->arg[node][0];
      out->share = t->arg[node][1];
      out->count = o->share;
      break;
    case TP_EXPLAIN_UNREACHED:
      out->role = TP_ORIGIN_UNREACHED;
      out->of = o->of;
      break;
    case TP_EXPLAIN_NONE:
      out->role = TP_ORIGIN_APPENDED;
      break;
    }
  return true;
}

const char *
tp_session_explanation (const TpSession *cs, uint32_t node, size_t *length)
{
  TpSession *s = (TpSession *) cs;
  const char *text;

  if (!tp_session_need (s, TP_STAGE_EXPLAIN))
    return NULL;
  text = s->readings[TP_READING_EXPLAIN];
  if (text == NULL || s->explained == NULL || node >= s->n_explained)
    return NULL;
  *length = s->explained[node + 1] - s->explained[node] - 1;
  return text + s->explained[node];
}

/* {==== the step-through's words ====} */

bool
tp_session_node_states (const TpSession *cs, size_t k, uint8_t *states,
                        size_t n)
{
  TpSession *s = (TpSession *) cs;
  const TpMemory *m;

  if (k >= tp_session_n_steps (s))
    return false;
  m = &s->memory;
  if (n > s->prog.tape.len)
    n = s->prog.tape.len;
  for (size_t i = 0; i < n; i++)
    states[i] = (uint8_t) state_at (m, k, (uint32_t) i);
  return true;
}

/* "node 10 Add" and, for a node a statement names, " (error)". */
static void
put_node (const TpSession *s, TpBuf *out, TpNode node)
{
  const char *name = tp_session_display_name (s, node);

  tp_buf_puts (out, "node ");
  tp_buf_u64 (out, node);
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, tp_op_info[s->prog.tape.op[node]].name);
  if (name != NULL)
    {
      tp_buf_puts (out, " (");
      tp_buf_puts (out, name);
      tp_buf_putc (out, ')');
    }
}

/* "d loss / d error": the gradient of a forward node. */
static void
put_gradient_of (const TpSession *s, TpBuf *out, TpNode node)
{
  const char *name = tp_session_display_name (s, node);

  tp_buf_puts (out, "d ");
  tp_buf_puts (out, s->target_name);
  tp_buf_puts (out, " / d ");
  if (name != NULL)
    tp_buf_puts (out, name);
  else
    {
      tp_buf_puts (out, "node ");
      tp_buf_u64 (out, node);
    }
}

/* What the step of node did, after "step K of N: node I Op, half". */
static void
put_step_deed (const TpSession *s, TpBuf *out, TpNode node)
{
  TpOrigin o;

  if (!tp_session_origin (s, node, &o))
    return;
  switch (o.role)
    {
    case TP_ORIGIN_FORWARD:
    case TP_ORIGIN_APPENDED:
      return;
    case TP_ORIGIN_SEED:
      tp_buf_puts (out, ": the seed, ");
      put_gradient_of (s, out, o.of);
      tp_buf_puts (out, " = 1, where the backward pass starts");
      return;
    case TP_ORIGIN_RULE:
      tp_buf_puts (out, ": part of the backward rule of ");
      put_node (s, out, o.of);
      return;
    case TP_ORIGIN_ZERO:
      tp_buf_puts (out, ": ");
      put_gradient_of (s, out, o.of);
      tp_buf_puts (out, " starts at zero");
      return;
    case TP_ORIGIN_SHARE:
      tp_buf_puts (out, ": ");
      put_gradient_of (s, out, o.of);
      tp_buf_puts (out, " adds share ");
      tp_buf_u64 (out, o.count);
      tp_buf_puts (out, ", the one that flows back through ");
      put_node (s, out, o.from);
      tp_buf_puts (out, " (node ");
      tp_buf_u64 (out, o.share);
      tp_buf_puts (out, " added to the running sum, node ");
      tp_buf_u64 (out, o.sum);
      tp_buf_putc (out, ')');
      return;
    case TP_ORIGIN_UNREACHED:
      tp_buf_puts (out, ": ");
      put_gradient_of (s, out, o.of);
      tp_buf_puts (out, " is zero: the target does not depend on it");
      return;
    }
}

/* Step k's sentence. */
static void
put_step (const TpSession *s, TpBuf *out, uint32_t k)
{
  const TpMemory *m = &s->memory;
  TpNode node = m->steps[k];
  char live[27];

  tp_buf_puts (out, "step ");
  tp_buf_u64 (out, (uint64_t) k + 1);
  tp_buf_puts (out, " of ");
  tp_buf_u64 (out, m->n_steps);
  tp_buf_puts (out, ": ");
  put_node (s, out, node);
  if (m->again[k])
    tp_buf_puts (out, ", forward, computed again for the gradient (it was"
                      " freed to save memory)");
  else
    {
      tp_buf_puts (out, node >= s->spec_nodes ? ", gradient" : ", forward");
      put_step_deed (s, out, node);
    }
  tp_grouped_number (m->live[k], live);
  tp_buf_puts (out, "; ");
  tp_buf_puts (out, live);
  tp_buf_puts (out, m->live[k] == 1 ? " element live" : " elements live");
}

/* The first TP_STEP_TEXTS steps' sentences, one after the other, and
 * where each starts. */
bool
tp_session_build_steps (TpSession *s)
{
  const TpMemory *m = &s->memory;
  TpBuf out;

  s->n_step_texts = m->n_steps < TP_STEP_TEXTS ? m->n_steps : TP_STEP_TEXTS;
  s->step_at = tp_arena_alloc (&s->arena, ((size_t) s->n_step_texts + 1)
                                          * sizeof *s->step_at);
  if (s->step_at == NULL)
    return false;
  tp_buf_init (&out);
  for (uint32_t k = 0; k < s->n_step_texts; k++)
    {
      s->step_at[k] = (uint32_t) out.len;
      put_step (s, &out, k);
    }
  s->step_at[s->n_step_texts] = (uint32_t) out.len;
  if (out.failed)
    {
      tp_buf_clear (&out);
      return false;
    }
  s->step_text = tp_buf_steal (&out);
  return s->step_text != NULL;
}

const char *
tp_session_step_text (const TpSession *cs, size_t k, size_t *length)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_STEPS) || k >= s->memory.n_steps)
    return NULL;
  if (k < s->n_step_texts)
    {
      *length = s->step_at[k + 1] - s->step_at[k];
      return s->step_text + s->step_at[k];
    }
  {
    /* a later step: made now, kept until the next such ask */
    TpBuf out;
    TP_SESSION_ENTER (s);
    tp_buf_init (&out);
    put_step (s, &out, (uint32_t) k);
    tp_free (s->late_step);
    s->late_step = tp_buf_steal (&out);
    *length = out.len;
    TP_SESSION_LEAVE ();
  }
  if (s->late_step == NULL)
    return NULL;
  *length = strlen (s->late_step);
  return s->late_step;
}

bool
tp_session_memory_peak (const TpSession *cs, uint64_t *elements,
                        uint32_t *node, size_t *step)
{
  TpSession *s = (TpSession *) cs;
  const TpMemory *m = &s->memory;

  if (tp_session_n_steps (s) == 0 || m->peak_step == UINT32_MAX)
    return false;
  if (elements != NULL)
    *elements = m->peak;
  if (node != NULL)
    *node = m->steps[m->peak_step];
  if (step != NULL)
    *step = m->peak_step;
  return true;
}

/* {==== the memory chart's axes ====} */

bool
tp_session_build_memory_chart (TpSession *s)
{
  TpChartData *c = &s->memory_chart;

  memset (c, 0, sizeof *c);
  c->title = "live volume over the plan's steps";
  c->x_title = "step";
  c->y_title = "elements live";
  tp_chart_steps (c, s->memory.n_steps > 0 ? s->memory.n_steps - 1 : 0);
  tp_chart_values (c, 0.0, (double) s->memory.peak, false, true);
  return true;
}

bool
tp_session_memory_chart (const TpSession *cs, TpChart *out)
{
  TpSession *s = (TpSession *) cs;

  if (!tp_session_need (s, TP_STAGE_MEMORY_CHART))
    return false;
  tp_chart_view (&s->memory_chart, out);
  return true;
}

/* {==== defaults and the program's own settings ====} */

static const TpDefaults defaults = {
  .debounce_ms = 120,
  .fold_limit = 4000,
  .fold_head = 600,
  .fold_tail = 240,
  .play_interval_ms = 600,
  .readable_label_px = 10,
  .train_steps = 100,
  .train_rate = "0.1",
};

const TpDefaults *
tp_defaults (void)
{
  return &defaults;
}

/* Whether text[0 .. len) starts with word. */
static bool
starts_with (const char *text, size_t len, const char *word)
{
  size_t n = strlen (word);

  return len >= n && memcmp (text, word, n) == 0;
}

/* A whole number of at most TP_TRAIN_MAX_STEPS, or false. */
static bool
read_steps (const char *text, size_t len, uint32_t *steps)
{
  uint64_t v = 0;

  if (len == 0 || len > 6)
    return false;
  for (size_t i = 0; i < len; i++)
    {
      if (text[i] < '0' || text[i] > '9')
        return false;
      v = v * 10 + (uint64_t) (text[i] - '0');
    }
  if (v > TP_TRAIN_MAX_STEPS)
    return false;
  *steps = (uint32_t) v;
  return true;
}

static bool read_rate (const char *text, size_t len, float *rate,
                       TpBuf *message);

/* The first comment line `# train it: ... --train N --learning-rate R
 * ...` (docs/language.md, train): each of the two flags it gives and
 * can be read (also as --train=N) replaces its default; other words (the
 * command's name, a file) are passed over. */
bool
tp_session_read_settings (TpSession *s, const char *text, size_t len)
{
  size_t at = 0;
  uint32_t line = 1;

  s->settings.steps = defaults.train_steps;
  s->settings.learning_rate = defaults.train_rate;
  s->settings.learning_rate_length = strlen (defaults.train_rate);
  s->settings.from_program = false;
  s->settings.line = 0;
  for (; at < len; line++)
    {
      size_t end = at, p = at;
      while (end < len && text[end] != '\n')
        end++;
      while (p < end && (text[p] == ' ' || text[p] == '\t'))
        p++;
      if (p < end && text[p] == '#')
        {
          p++;
          while (p < end && (text[p] == ' ' || text[p] == '\t'))
            p++;
          if (starts_with (text + p, end - p, "train it:"))
            {
              size_t w = p + strlen ("train it:");
              const char *want = NULL;   /* a flag waiting for its value */

              s->settings.from_program = true;
              s->settings.line = line;
              while (w < end)
                {
                  size_t a, b, eq;
                  while (w < end && (text[w] == ' ' || text[w] == '\t'
                                     || text[w] == '\r'))
                    w++;
                  a = w;
                  while (w < end && text[w] != ' ' && text[w] != '\t'
                         && text[w] != '\r')
                    w++;
                  b = w;
                  if (a == b)
                    break;
                  if (want == NULL)
                    {
                      for (eq = a; eq < b && text[eq] != '='; eq++)
                        ;
                      if (eq - a == 7 && starts_with (text + a, 7, "--train"))
                        want = "steps";
                      else if (eq - a == 15
                               && starts_with (text + a, 15,
                                               "--learning-rate"))
                        want = "rate";
                      else
                        continue;
                      if (eq == b)
                        continue;
                      a = eq + 1;
                    }
                  if (strcmp (want, "steps") == 0)
                    read_steps (text + a, b - a, &s->settings.steps);
                  else
                    {
                      float rate;
                      TpBuf message;
                      tp_buf_init (&message);
                      if (read_rate (text + a, b - a, &rate, &message))
                        {
                          /* the session's own copy: the caller's text
                           * need not outlive the compile */
                          s->settings.learning_rate
                            = tp_arena_strndup (&s->arena, text + a, b - a);
                          s->settings.learning_rate_length = b - a;
                        }
                      tp_buf_clear (&message);
                      if (s->settings.learning_rate == NULL)
                        return false;
                    }
                  want = NULL;
                }
              return true;
            }
        }
      at = end < len ? end + 1 : end;
    }
  return true;
}

bool
tp_session_train_settings (const TpSession *s, TpTrainSettings *out)
{
  if (s->status != TP_STATUS_OK)
    return false;
  *out = s->settings;
  return true;
}

/* {==== training ====} */

/* Reads the learning rate as the language reads a number, a leading minus
 * allowed; false with message set otherwise. */
static bool
read_rate (const char *text, size_t len, float *rate, TpBuf *message)
{
  TpLexer lex;
  TpToken tok;
  bool negative = false, ok = false;

  tp_lex_init (&lex, text, len);
  if (!tp_lex_next (&lex, &tok))
    {
      tp_buf_puts (message, "the learning rate is not a number: ");
      tp_buf_append (message, lex.err.data != NULL ? lex.err.data : "",
                     lex.err.len);
      tp_lex_clear (&lex);
      return false;
    }
  if (tok.kind == TP_TOK_SYMBOL && tok.symbol == '-')
    {
      negative = true;
      ok = tp_lex_next (&lex, &tok);
    }
  else
    ok = true;
  if (ok && tok.kind == TP_TOK_NUMBER)
    {
      TpToken end;
      *rate = negative ? -tok.number : tok.number;
      ok = tp_lex_next (&lex, &end)
           && (end.kind == TP_TOK_EOF
               || (end.kind == TP_TOK_NEWLINE && tp_lex_next (&lex, &end)
                   && end.kind == TP_TOK_EOF));
    }
  else
    ok = false;
  if (!ok)
    {
      tp_buf_puts (message, "the learning rate must be a number, such as 0.1");
      if (len > 0)
        {
          tp_buf_puts (message, "; found `");
          tp_lex_put_text (message, text, len);
          tp_buf_putc (message, '`');
        }
    }
  tp_lex_clear (&lex);
  return ok;
}

/* The training: refused with a message, or run. */
static TpTrain *
train (TpSession *s, uint32_t steps, const char *rate_text, size_t len)
{
  const TpTape *tape = &s->prog.tape;
  const char **names = NULL;
  TpTrainInput in;
  TpTrain *train;
  TpBuf message;
  float rate = 0.0f;
  uint64_t work;

  tp_buf_init (&message);
  if (s->status != TP_STATUS_OK)
    tp_buf_puts (&message, "the program is refused: training needs a program "
                           "that reads");
  else if (!s->differentiated)
    {
      /* The derivative reading says why there is no gradient. */
      const char *why = tp_session_reading (s, TP_READING_DERIVATIVE);
      tp_buf_puts (&message, "there is nothing to train: ");
      tp_buf_append (&message, why, strcspn (why, "\n"));
    }
  else if (steps > TP_TRAIN_MAX_STEPS)
    {
      tp_buf_puts (&message, "training takes at most ");
      tp_buf_grouped (&message, TP_TRAIN_MAX_STEPS);
      tp_buf_puts (&message, " steps, asked for ");
      tp_buf_grouped (&message, steps);
    }
  else if (!read_rate (rate_text != NULL ? rate_text : "", len, &rate,
                       &message))
    ;
  else
    {
      work = tape->work > 0 ? tape->work : 1;
      if (work * ((uint64_t) steps + 1) > TP_TRAIN_WORK)
        {
          tp_buf_grouped (&message, steps);
          tp_buf_puts (&message, " steps would take about ");
          tp_buf_grouped (&message, work * ((uint64_t) steps + 1));
          tp_buf_puts (&message, " multiply-adds, over the training budget of ");
          tp_buf_grouped (&message, TP_TRAIN_WORK);
          tp_buf_puts (&message, "; at most ");
          tp_buf_grouped (&message, TP_TRAIN_WORK / work - 1);
          tp_buf_puts (&message, " steps fit");
        }
    }
  if (message.failed)
    {
      tp_buf_clear (&message);
      return NULL;
    }
  if (message.len > 0)
    {
      train = tp_train_refuse (message.data);
      tp_buf_clear (&message);
      return train;
    }
  tp_buf_clear (&message);

  if (!tp_session_train_input (s, &in, &names))
    return NULL;
  train = tp_train_run (&in, steps, rate);
  tp_free (names);
  return train;
}

bool
tp_session_train_input (TpSession *s, TpTrainInput *in, const char ***names)
{
  TpSourceSpan *spans;
  size_t at = ((s->n_wrt + 1) * sizeof **names + 15) & ~(size_t) 15;

  *names = NULL;
  if (s->status != TP_STATUS_OK || !s->differentiated)
    return false;
  /* one block: the names, then the spans (nothing of the session's own
   * is allocated for a training) */
  *names = tp_malloc (at + (s->n_wrt + 1) * sizeof *spans);
  if (*names == NULL)
    return false;
  spans = (TpSourceSpan *) (void *) ((char *) *names + at);
  for (uint32_t k = 0; k < s->n_wrt; k++)
    {
      (*names)[k] = s->gradients[k].name;
      if (!tp_session_source (s, s->wrt[k], &spans[k]))
        memset (&spans[k], 0, sizeof spans[k]);
    }
  in->prog = &s->prog;
  in->target = s->target;
  in->target_name = s->target_name;
  in->wrt = s->wrt;
  in->grads = s->grads;
  in->wrt_names = *names;
  in->n_wrt = s->n_wrt;
  in->source = s->source;
  in->source_len = s->source_len;
  in->exact = s->exact;
  in->spans = spans;
  in->allocator = s->allocator;
  return true;
}

TpTrain *
tp_session_train (const TpSession *cs, uint32_t steps, const char *rate_text,
                  size_t len)
{
  TpSession *s = (TpSession *) cs;
  TpTrain *t;
  TP_SESSION_ENTER (s);

  t = train (s, steps, rate_text, len);
  TP_SESSION_LEAVE ();
  return t;
}

