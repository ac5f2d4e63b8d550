/* tp-train.c: gradient descent on a program's parameters, the train
 * reading, its JSON and its loss curve (docs/language.md, train).
 *
 * The tape is run once with tp_run_forward, which gives every node a
 * buffer; each parameter is then pointed at a copy of its payload, and
 * every later step runs the tape again into the same buffers
 * (tp_run_again), so a step allocates nothing and the session's own tape
 * and values are never touched.  A step runs only the nodes the target
 * and the gradients need that depend on a parameter: every other value
 * would come out the same as in the first run.  The update is the f32 rounding of each
 * operation, p - (rate * g), with no fused multiply-add (the engine is
 * compiled with -ffp-contract=off).
 *
 * A training keeps the parameters of its steps (every step's when they
 * fit TP_TRAIN_KEPT elements, else every K-th), so looking at step K
 * takes a copy or a replay of fewer than K steps from the nearest one
 * kept, on a program of its own read again from the text: the same bits
 * as a training of K steps, and no retraining in a front end. */
#include "tp-train-private.h"

#include <string.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-chart.h"
#include "tp-json.h"
#include "tp-math.h"
#include "tp-run.h"
#include "tp-values.h"


static char *
dup_text (const char *text)
{
  size_t n = strlen (text);
  char *copy = tp_malloc (n + 1);

  if (copy != NULL)
    memcpy (copy, text, n + 1);
  return copy;
}

void
tp_train_free (TpTrain *t)
{
  if (t == NULL)
    return;
  for (uint32_t k = 0; k < t->n_wrt; k++)
    {
      if (t->names != NULL)
        tp_free (t->names[k]);
      if (t->params != NULL)
        tp_free (t->params[k]);
    }
  tp_free (t->names);
  tp_free (t->params);
  tp_free (t->shapes);
  tp_free (t->losses);
  tp_free (t->target_name);
  tp_free (t->error);
  tp_free (t->reading);
  tp_free (t->svg);
  tp_free (t->summary);
  for (uint32_t c = 0; t->kept != NULL && c < t->n_kept; c++)
    tp_free (t->kept[c]);
  tp_free (t->kept);
  tp_free (t->source);
  tp_free (t->spans);
  tp_free (t->at_text);
  tp_free (t->short_text);
  tp_session_free (t->replay);
  tp_free (t);
}

TpTrain *
tp_train_refuse (const char *message)
{
  TpTrain *t = tp_malloc (sizeof *t);

  if (t == NULL)
    return NULL;
  memset (t, 0, sizeof *t);
  t->error = dup_text (message);
  t->reading = dup_text ("");
  t->svg = dup_text ("");
  t->summary = dup_text (message);
  if (t->error == NULL || t->reading == NULL || t->svg == NULL
      || t->summary == NULL)
    {
      tp_train_free (t);
      return NULL;
    }
  return t;
}

bool
tp_train_finite (float x)
{
  return x - x == 0.0f;
}

static bool
all_finite (const float *data, uint64_t volume)
{
  for (uint64_t e = 0; e < volume; e++)
    if (!tp_train_finite (data[e]))
      return false;
  return true;
}

/* Where a non-finite value was born: the first node, in tape order, among
 * those the target and the gradients are computed from (need marks them),
 * whose value holds a NaN or an infinity.  False when every one is
 * finite. */
static bool
find_nonfinite (const TpTape *tape, float *const *values, const uint8_t *need,
                TpNode *node, uint64_t *element)
{
  for (TpNode i = 0; i < tape->len; i++)
    {
      uint64_t volume = tp_shape_volume (&tape->shape[i]);

      if (!need[i])
        continue;
      for (uint64_t e = 0; e < volume; e++)
        if (!tp_train_finite (values[i][e]))
          {
            *node = i;
            *element = e;
            return true;
          }
    }
  return false;
}

/* Marks the target, the gradients and every node they are computed from. */
static void
mark_needed (const TpTape *tape, const TpTrainInput *in, uint8_t *need)
{
  need[in->target] = 1;
  for (uint32_t k = 0; k < in->n_wrt; k++)
    need[in->grads[k]] = 1;
  for (TpNode i = tape->len; i-- > 0;)
    if (need[i])
      for (int a = 0; a < 2; a++)
        if (tape->arg[i][a] != TP_NO_NODE)
          need[tape->arg[i][a]] = 1;
}

/* The nodes a step has to run again: those the target and the gradients
 * are computed from (need) whose value can change, that is which depend
 * on a parameter.  The others keep the value of the first run, which a
 * run again would only repeat bit for bit. */
static void
mark_run (const TpTape *tape, const uint8_t *need, uint8_t *run)
{
  for (TpNode i = 0; i < tape->len; i++)
    {
      bool varies = false;

      if (tp_tape_is_source (tape, i))
        continue;
      for (int a = 0; a < 2; a++)
        {
          TpNode x = tape->arg[i][a];
          if (x != TP_NO_NODE
              && (run[x] || tape->op[x] == TP_OP_PARAMETER))
            varies = true;
        }
      /* run[x] marks a varying node before it is known whether it is
       * needed; only the needed ones are run. */
      run[i] = varies;
    }
  for (TpNode i = 0; i < tape->len; i++)
    run[i] = run[i] && need[i];
}

/* The coordinates of the flat index element of shape, written
 * "[0, 1]" with separator ", " (the reading) or "," (the JSON). */
void
tp_train_put_element (TpBuf *out, const TpShape *shape, uint64_t element,
             const char *separator)
{
  uint64_t coords[TP_MAX_RANK];

  for (uint32_t d = shape->rank; d-- > 0;)
    {
      coords[d] = element % shape->dims[d];
      element /= shape->dims[d];
    }
  tp_buf_putc (out, '[');
  for (uint32_t d = 0; d < shape->rank; d++)
    {
      if (d > 0)
        tp_buf_puts (out, separator);
      tp_buf_u64 (out, coords[d]);
    }
  tp_buf_putc (out, ']');
}

static bool
write_reading (TpTrain *t)
{
  TpValuesBudget budget = { TP_VALUES_BUDGET, TP_SUMMARY_BUDGET };
  TpBuf out;

  tp_buf_init (&out);
  for (uint32_t s = 0; s < t->n_losses; s++)
    {
      tp_buf_puts (&out, "step ");
      tp_buf_u64 (&out, s);
      tp_buf_puts (&out, "  ");
      tp_buf_puts (&out, t->target_name);
      tp_buf_putc (&out, ' ');
      tp_buf_f32 (&out, t->losses[s]);
      tp_buf_putc (&out, '\n');
    }
  if (t->stopped)
    {
      tp_buf_puts (&out, "stopped at step ");
      tp_buf_u64 (&out, t->stop_step);
      tp_buf_puts (&out, ": node ");
      tp_buf_u64 (&out, t->stop_node);
      tp_buf_putc (&out, ' ');
      tp_buf_puts (&out, t->stop_op);
      tp_buf_puts (&out, " gives ");
      tp_buf_f32 (&out, t->stop_value);
      if (t->stop_shape.rank > 0)
        {
          tp_buf_puts (&out, " at element ");
          tp_train_put_element (&out, &t->stop_shape, t->stop_element, ", ");
        }
      tp_buf_putc (&out, '\n');
    }
  tp_buf_putc (&out, '\n');
  t->parameters_at = out.len;
  for (uint32_t k = 0; k < t->n_wrt; k++)
    tp_values_line (&out, t->names[k], &t->shapes[k], t->params[k],
                    &t->shapes[k], &budget, NULL, TP_NO_NODE, TP_NO_NODE,
                    NULL, 0);
  t->reading = tp_buf_steal (&out);
  return t->reading != NULL;
}

/* {==== training ====} */

/* One descent's working state over a program: every node's buffer, the
 * nodes a step runs again and the parameters it reads (the caller's
 * copies, which the updates change in place). */
typedef struct
{
  const TpTrainInput *in;
  TpArena arena;
  float **values;
  uint8_t *need;
  uint8_t *run;
  float *scratch;
} TpDescent;

/* Runs the program once with params[k] as parameter k: false when memory
 * runs out.  again: the params differ from the payloads, so the nodes
 * that depend on them run once more. */
static bool
descent_init (TpDescent *d, const TpTrainInput *in, float **params,
              bool again)
{
  const TpTape *tape = &in->prog->tape;

  d->in = in;
  tp_arena_init (&d->arena);
  d->scratch = NULL;
  d->values = tp_arena_calloc (&d->arena, tape->len + 1, sizeof *d->values);
  d->need = tp_arena_calloc (&d->arena, tape->len + 1, 1);
  d->run = tp_arena_calloc (&d->arena, tape->len + 1, 1);
  if (d->values == NULL || d->need == NULL || d->run == NULL)
    return false;
  mark_needed (tape, in, d->need);
  mark_run (tape, d->need, d->run);
  if (!tp_run_forward (tape, &d->arena, d->values))
    return false;
  if (tp_run_scratch_size (tape) > 0)
    {
      d->scratch = tp_arena_alloc (&d->arena, tp_run_scratch_size (tape)
                                              * sizeof *d->scratch);
      if (d->scratch == NULL)
        return false;
    }
  /* From here on the parameters are read from the copies. */
  for (uint32_t k = 0; k < in->n_wrt; k++)
    d->values[in->wrt[k]] = params[k];
  if (again)
    tp_run_again (tape, d->values, d->scratch, d->run);
  return true;
}

/* One update of every parameter from the gradients of the last run,
 * then the run at the new parameters. */
static void
descent_step (TpDescent *d, float **params, const TpShape *shapes,
              float rate)
{
  const TpTrainInput *in = d->in;

  for (uint32_t k = 0; k < in->n_wrt; k++)
    {
      float *p = params[k];
      const float *g = d->values[in->grads[k]];
      size_t volume = (size_t) tp_shape_volume (&shapes[k]);

      for (size_t e = 0; e < volume; e++)
        {
          float step = rate * g[e];
          p[e] = p[e] - step;
        }
    }
  tp_run_again (&in->prog->tape, d->values, d->scratch, d->run);
}

/* Keeps the parameters after step s when s is a step to keep. */
static bool
keep_step (TpTrain *t, uint32_t s)
{
  float *copy;
  uint64_t at = 0;

  if (s % t->every != 0)
    return true;
  copy = tp_malloc ((size_t) t->volume * sizeof *copy + 1);
  if (copy == NULL)
    return false;
  for (uint32_t k = 0; k < t->n_wrt; k++)
    {
      size_t volume = (size_t) tp_shape_volume (&t->shapes[k]);
      memcpy (copy + at, t->params[k], volume * sizeof *copy);
      at += volume;
    }
  t->kept[t->n_kept++] = copy;
  return true;
}

/* Copies what a replay and tp_train_apply need from in. */
static bool
keep_program (TpTrain *t, const TpTrainInput *in)
{
  t->allocator = in->allocator;
  t->exact = in->exact;
  t->spans = tp_malloc ((in->n_wrt + 1) * sizeof *t->spans);
  if (t->spans == NULL)
    return false;
  if (in->source != NULL)
    {
      t->source_len = in->source_len;
      t->source = tp_malloc (in->source_len + 1);
      if (t->source == NULL)
        return false;
      memcpy (t->source, in->source, in->source_len);
      t->source[in->source_len] = '\0';
    }
  for (uint32_t k = 0; k < in->n_wrt; k++)
    if (in->spans != NULL)
      t->spans[k] = in->spans[k];
    else
      memset (&t->spans[k], 0, sizeof t->spans[k]);
  return true;
}

TpTrain *
tp_train_run (const TpTrainInput *in, uint32_t steps, float rate)
{
  const TpTape *tape = &in->prog->tape;
  TpTrain *t = tp_malloc (sizeof *t);
  TpDescent d;
  bool ok = false;
  uint64_t kept;

  if (t == NULL)
    return NULL;
  memset (t, 0, sizeof *t);
  tp_arena_init (&d.arena);
  t->ok = true;
  t->steps = steps;
  t->rate = rate;
  t->target_name = dup_text (in->target_name);
  t->losses = tp_malloc (((size_t) steps + 1) * sizeof *t->losses);
  t->names = tp_malloc ((in->n_wrt + 1) * sizeof *t->names);
  t->params = tp_malloc ((in->n_wrt + 1) * sizeof *t->params);
  t->shapes = tp_malloc ((in->n_wrt + 1) * sizeof *t->shapes);
  if (t->target_name == NULL || t->losses == NULL || t->names == NULL
      || t->params == NULL || t->shapes == NULL || !keep_program (t, in))
    goto out;
  memset (t->names, 0, (in->n_wrt + 1) * sizeof *t->names);
  memset (t->params, 0, (in->n_wrt + 1) * sizeof *t->params);
  t->n_wrt = in->n_wrt;         /* tp_train_free may now walk them */
  for (uint32_t k = 0; k < in->n_wrt; k++)
    {
      TpNode w = in->wrt[k];
      size_t volume = (size_t) tp_shape_volume (&tape->shape[w]);

      t->shapes[k] = tape->shape[w];
      t->volume += volume;
      t->names[k] = dup_text (in->wrt_names[k]);
      t->params[k] = tp_malloc ((volume + 1) * sizeof (float));
      if (t->names[k] == NULL || t->params[k] == NULL)
        goto out;
      memcpy (t->params[k], tape->payload[w], volume * sizeof (float));
    }
  /* a copy of the parameters every `every` steps, within TP_TRAIN_KEPT */
  kept = TP_TRAIN_KEPT / (t->volume > 0 ? t->volume : 1);
  if (kept < 2)
    kept = 2;
  t->every = (uint32_t) (((uint64_t) steps + kept) / kept);
  t->kept = tp_malloc (((size_t) steps / t->every + 2) * sizeof *t->kept);
  if (t->kept == NULL || !descent_init (&d, in, t->params, false))
    goto out;

  for (uint32_t s = 0;; s++)
    {
      TpNode bad;
      uint64_t element;
      bool finite;

      if (s > 0)
        descent_step (&d, t->params, t->shapes, rate);
      if (!keep_step (t, s))
        goto out;
      t->losses[t->n_losses++] = d.values[in->target][0];
      /* Cheap on every step: the values that training reads.  Only when
       * one is not finite is the tape searched for where it was born. */
      finite = tp_train_finite (d.values[in->target][0]);
      for (uint32_t k = 0; finite && k < in->n_wrt; k++)
        finite = all_finite (d.values[in->grads[k]],
                             tp_shape_volume (&t->shapes[k]));
      if (!finite && find_nonfinite (tape, d.values, d.need, &bad, &element))
        {
          t->stopped = true;
          t->stop_step = s;
          t->stop_node = bad;
          t->stop_op = tp_op_info[tape->op[bad]].name;
          t->stop_shape = tape->shape[bad];
          t->stop_element = element;
          t->stop_value = d.values[bad][element];
          break;
        }
      if (s == steps)
        break;
    }
  ok = write_reading (t) && tp_train_write_summary (t);
  if (ok)
    {
      tp_train_make_chart (t);
      ok = tp_train_write_svg (t);
    }

out:
  tp_arena_reset (&d.arena);
  if (!ok)
    {
      tp_train_free (t);
      return NULL;
    }
  return t;
}

/* {==== looking back at a step ====} */

/* params[k] set to the parameters after step k (n_wrt arrays in the
 * training's blocks, freed by the caller with free_params): a copy of
 * the step kept, or a replay from the nearest one kept before it.  False
 * when memory runs out or the program no longer reads. */
static void
free_params (float **params, uint32_t n)
{
  for (uint32_t k = 0; params != NULL && k < n; k++)
    tp_free (params[k]);
  tp_free (params);
}

static float **
params_at (TpTrain *t, uint32_t k)
{
  uint32_t c = k / t->every, replay = k - c * t->every;
  float **params = tp_malloc ((t->n_wrt + 1) * sizeof *params);
  uint64_t at = 0;

  if (params == NULL)
    return NULL;
  memset (params, 0, (t->n_wrt + 1) * sizeof *params);
  for (uint32_t w = 0; w < t->n_wrt; w++)
    {
      size_t volume = (size_t) tp_shape_volume (&t->shapes[w]);
      params[w] = tp_malloc ((volume + 1) * sizeof (float));
      if (params[w] == NULL)
        {
          free_params (params, t->n_wrt);
          return NULL;
        }
      memcpy (params[w], t->kept[c] + at, volume * sizeof (float));
      at += volume;
    }
  if (replay > 0)
    {
      TpTrainInput in;
      const char **names = NULL;
      TpDescent d;
      bool ok;

      if (t->source == NULL)
        {
          /* a text too long to keep (TP_SOURCE_KEPT): no replay */
          free_params (params, t->n_wrt);
          return NULL;
        }
      if (t->replay == NULL)
        {
          TpChoices choices = { .target = t->target_name, .exact = t->exact };
          t->replay = tp_session_new_with_allocator (t->allocator);
          if (t->replay == NULL
              || tp_session_compile (t->replay, t->source, t->source_len,
                                     &choices) != TP_STATUS_OK)
            {
              tp_session_free (t->replay);
              t->replay = NULL;
              free_params (params, t->n_wrt);
              return NULL;
            }
        }
      ok = tp_session_train_input (t->replay, &in, &names);
      ok = ok && descent_init (&d, &in, params, true);
      for (uint32_t r = 0; ok && r < replay; r++)
        descent_step (&d, params, t->shapes, t->rate);
      tp_arena_reset (&d.arena);
      tp_free (names);
      if (!ok)
        {
          free_params (params, t->n_wrt);
          return NULL;
        }
    }
  return params;
}

const char *
tp_train_parameters_at (TpTrain *t, uint32_t k)
{
  TpValuesBudget budget = { TP_VALUES_BUDGET, TP_SUMMARY_BUDGET };
  const TpAllocator *saved;
  float **params;
  TpBuf out;

  if (!t->ok || k >= t->n_losses)
    return NULL;
  if (k == t->n_losses - 1 && !t->stopped)
    return tp_train_parameters (t);
  saved = tp_alloc_enter (t->allocator);
  params = params_at (t, k);
  tp_buf_init (&out);
  for (uint32_t w = 0; params != NULL && w < t->n_wrt; w++)
    tp_values_line (&out, t->names[w], &t->shapes[w], params[w],
                    &t->shapes[w], &budget, NULL, TP_NO_NODE, TP_NO_NODE,
                    NULL, 0);
  free_params (params, t->n_wrt);
  tp_free (t->at_text);
  t->at_text = params != NULL ? tp_buf_steal (&out) : NULL;
  tp_buf_clear (&out);
  tp_alloc_leave (saved);
  return t->at_text;
}

const char *
tp_train_parameters_short_at (TpTrain *t, uint32_t k)
{
  TpValuesBudget budget = { TP_VALUES_BUDGET, TP_SUMMARY_BUDGET };
  const TpAllocator *saved;
  float **params, **owned = NULL;
  TpBuf out;

  if (!t->ok || k >= t->n_losses)
    return NULL;
  saved = tp_alloc_enter (t->allocator);
  if (k == t->n_losses - 1 && !t->stopped)
    params = t->params;
  else
    params = owned = params_at (t, k);
  tp_buf_init (&out);
  for (uint32_t w = 0; params != NULL && w < t->n_wrt; w++)
    tp_values_line_short (&out, t->names[w], &t->shapes[w], params[w], &budget);
  tp_free (t->short_text);
  t->short_text = params != NULL ? tp_buf_steal (&out) : NULL;
  free_params (owned, t->n_wrt);
  tp_buf_clear (&out);
  tp_alloc_leave (saved);
  return t->short_text;
}

/* Byte offset in text of the character at column (1-based) of line
 * (1-based), or of the line's end; len when the line is not there. */
static size_t
offset_of (const char *text, size_t len, uint32_t line, uint32_t column)
{
  size_t at = 0;

  for (uint32_t l = 1; l < line && at < len; at++)
    if (text[at] == '\n')
      l++;
  for (uint32_t c = 1; c < column && at < len && text[at] != '\n'; c++)
    {
      /* one character: a lead byte and its continuation bytes */
      at++;
      while (at < len && ((unsigned char) text[at] & 0xC0) == 0x80)
        at++;
    }
  return at;
}

/* The elements of axis d on: "[a, b]", or nested "[[a, b], [c, d]]". */
static void
put_nested (TpBuf *out, const TpShape *shape, uint32_t d, const float *data,
            uint64_t *e)
{
  tp_buf_putc (out, '[');
  for (uint32_t i = 0; i < shape->dims[d]; i++)
    {
      if (i > 0)
        tp_buf_puts (out, ", ");
      if (d + 1 == shape->rank)
        tp_buf_f32 (out, data[(*e)++]);
      else
        put_nested (out, shape, d + 1, data, e);
    }
  tp_buf_putc (out, ']');
}

/* Writes `parameter VALUE` for rank 0, a nested literal for rank 2 and
 * up, and a one-row literal reshaped back for rank 1 (a literal has rank
 * 2 or more: docs/decisions.md D21). */
static void
put_literal (TpBuf *out, const TpShape *shape, const float *data)
{
  uint64_t e = 0;

  if (shape->rank == 0)
    {
      tp_buf_puts (out, "parameter ");
      tp_buf_f32 (out, data[0]);
    }
  else if (shape->rank == 1)
    {
      tp_buf_puts (out, "reshape(parameter [");
      put_nested (out, shape, 0, data, &e);
      tp_buf_puts (out, "], [");
      tp_buf_u64 (out, shape->dims[0]);
      tp_buf_puts (out, "])");
    }
  else
    {
      tp_buf_puts (out, "parameter ");
      put_nested (out, shape, 0, data, &e);
    }
}

char *
tp_train_apply (TpTrain *t, uint32_t k, const char **why)
{
  const TpAllocator *saved;
  float **params;
  TpBuf out;
  size_t from = 0;
  char *text = NULL;

  *why = NULL;
  if (!t->ok || k >= t->n_losses)
    {
      *why = "there is no such step";
      return NULL;
    }
  if (t->source == NULL)
    {
      *why = "the program is too long to be written again";
      return NULL;
    }
  for (uint32_t w = 0; w < t->n_wrt; w++)
    if (t->spans[w].line == 0)
      {
        *why = "the program's source spans are not known";
        return NULL;
      }
  saved = tp_alloc_enter (t->allocator);
  params = params_at (t, k);
  for (uint32_t w = 0; params != NULL && w < t->n_wrt && *why == NULL; w++)
    if (!all_finite (params[w], tp_shape_volume (&t->shapes[w])))
      *why = "a parameter is not finite at that step: it cannot be "
             "written as a number";
  if (params != NULL && *why == NULL)
    {
      tp_buf_init (&out);
      for (uint32_t w = 0; w < t->n_wrt; w++)
        {
          size_t a = offset_of (t->source, t->source_len, t->spans[w].line,
                                t->spans[w].first);
          size_t b = offset_of (t->source, t->source_len, t->spans[w].line,
                                t->spans[w].last + 1);
          if (a < from || b < a)
            continue;
          tp_buf_append (&out, t->source + from, a - from);
          put_literal (&out, &t->shapes[w], params[w]);
          from = b;
        }
      tp_buf_append (&out, t->source + from, t->source_len - from);
      text = tp_buf_steal (&out);
    }
  free_params (params, t->n_wrt);
  tp_alloc_leave (saved);
  return text;
}

const char *
tp_train_summary (const TpTrain *t)
{
  return t->summary;
}

uint32_t
tp_train_steps_run (const TpTrain *t)
{
  return t->n_losses > 0 ? t->n_losses - 1 : 0;
}

bool
tp_train_chart (const TpTrain *t, TpChart *out)
{
  if (!t->ok)
    return false;
  tp_chart_view (&t->chart, out);
  return true;
}

bool
tp_train_ok (const TpTrain *t)
{
  return t->ok;
}

const char *
tp_train_error (const TpTrain *t)
{
  return t->ok ? "" : t->error;
}

const char *
tp_train_reading (const TpTrain *t)
{
  return t->reading;
}

const char *
tp_train_parameters (const TpTrain *t)
{
  return t->reading + t->parameters_at;
}

const float *
tp_train_losses (const TpTrain *t, size_t *n)
{
  *n = t->n_losses;
  return t->losses;
}

bool
tp_train_stopped (const TpTrain *t, uint32_t *step, uint32_t *node)
{
  if (t->stopped)
    {
      if (step != NULL)
        *step = t->stop_step;
      if (node != NULL)
        *node = t->stop_node;
    }
  return t->stopped;
}

const char *
tp_train_svg (const TpTrain *t)
{
  return t->svg;
}

char *
tp_train_to_json (const TpTrain *t)
{
  uint64_t budget = TP_VALUES_BUDGET;
  TpBuf out;

  tp_buf_init (&out);
  tp_buf_putc (&out, '{');
  if (!t->ok)
    {
      tp_json_key (&out, "error", true);
      tp_json_string (&out, t->error, strlen (t->error));
      tp_buf_putc (&out, '}');
      return tp_buf_steal (&out);
    }
  tp_json_key (&out, "steps", true);
  tp_buf_u64 (&out, t->steps);
  tp_json_key (&out, "learning_rate", false);
  tp_json_f32 (&out, t->rate);
  tp_json_key (&out, "losses", false);
  tp_buf_putc (&out, '[');
  for (uint32_t s = 0; s < t->n_losses; s++)
    {
      if (s > 0)
        tp_buf_putc (&out, ',');
      tp_json_f32 (&out, t->losses[s]);
    }
  tp_buf_putc (&out, ']');
  tp_json_key (&out, "parameters", false);
  tp_buf_putc (&out, '{');
  for (uint32_t k = 0; k < t->n_wrt; k++)
    {
      tp_json_key (&out, t->names[k], k == 0);
      tp_json_tensor (&out, t->params[k], &t->shapes[k], &budget);
    }
  tp_buf_putc (&out, '}');
  tp_json_key (&out, "stopped", false);
  if (!t->stopped)
    tp_buf_puts (&out, "null");
  else
    {
      tp_buf_puts (&out, "{\"step\":");
      tp_buf_u64 (&out, t->stop_step);
      tp_buf_puts (&out, ",\"node\":");
      tp_buf_u64 (&out, t->stop_node);
      tp_buf_puts (&out, ",\"op\":");
      tp_json_string (&out, t->stop_op, strlen (t->stop_op));
      tp_buf_puts (&out, ",\"element\":");
      tp_train_put_element (&out, &t->stop_shape, t->stop_element, ",");
      tp_buf_puts (&out, ",\"value\":");
      tp_json_f32 (&out, t->stop_value);
      tp_buf_putc (&out, '}');
    }
  tp_json_key (&out, "summary", false);
  tp_json_string (&out, t->summary, strlen (t->summary));
  tp_json_key (&out, "chart", false);
  {
    TpChart c;
    tp_chart_view (&t->chart, &c);
    tp_chart_json (&c, &out);
  }
  tp_buf_putc (&out, '}');
  return tp_buf_steal (&out);
}
