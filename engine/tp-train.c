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
 * compiled with -ffp-contract=off). */
#include "tp-train.h"

#include <string.h>

#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-json.h"
#include "tp-math.h"
#include "tp-run.h"
#include "tp-values.h"

/* The loss curve, in tenths of a pixel (integer coordinates keep its
 * bytes the same on every platform). */
#define SVG_W 6400
#define SVG_H 3200
#define PLOT_LEFT 900
#define PLOT_RIGHT 6200
#define PLOT_TOP 300
#define PLOT_BOTTOM 2700

struct _TpTrain
{
  bool ok;
  char *error;
  uint32_t steps;
  float rate;
  char *target_name;
  float *losses;
  uint32_t n_losses;
  uint32_t n_wrt;
  char **names;
  TpShape *shapes;
  float **params;
  bool stopped;
  uint32_t stop_step;
  uint32_t stop_node;
  const char *stop_op;          /* static: the op table's name */
  TpShape stop_shape;
  uint64_t stop_element;        /* flat index into stop_shape */
  float stop_value;
  char *reading;
  size_t parameters_at;         /* where the reading's parameter lines start */
  char *svg;
};

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
  if (t->error == NULL || t->reading == NULL || t->svg == NULL)
    {
      tp_train_free (t);
      return NULL;
    }
  return t;
}

static bool
is_finite (float x)
{
  return x - x == 0.0f;
}

static bool
all_finite (const float *data, uint64_t volume)
{
  for (uint64_t e = 0; e < volume; e++)
    if (!is_finite (data[e]))
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
        if (!is_finite (values[i][e]))
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
static void
put_element (TpBuf *out, const TpShape *shape, uint64_t element,
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
          put_element (&out, &t->stop_shape, t->stop_element, ", ");
        }
      tp_buf_putc (&out, '\n');
    }
  tp_buf_putc (&out, '\n');
  t->parameters_at = out.len;
  for (uint32_t k = 0; k < t->n_wrt; k++)
    tp_values_line (&out, t->names[k], &t->shapes[k], t->params[k],
                    &t->shapes[k], &budget, NULL, TP_NO_NODE, TP_NO_NODE);
  t->reading = tp_buf_steal (&out);
  return t->reading != NULL;
}

/* {==== the loss curve ====} */

static int64_t
round_coord (double v)
{
  return v < 0 ? -(int64_t) (0.5 - v) : (int64_t) (v + 0.5);
}

/* What the vertical axis plots: the value, or its natural log. */
static double
axis_of (float v, bool log_scale)
{
  return log_scale ? (double) tp_logf (v) : (double) v;
}

static void
put_text (TpBuf *out, int64_t x, int64_t y, const char *anchor,
          const char *text)
{
  tp_buf_puts (out, "<text x=\"");
  tp_buf_u64 (out, (uint64_t) x);
  tp_buf_puts (out, "\" y=\"");
  tp_buf_u64 (out, (uint64_t) y);
  tp_buf_puts (out, "\" text-anchor=\"");
  tp_buf_puts (out, anchor);
  tp_buf_puts (out, "\">");
  for (const char *c = text; *c != '\0'; c++)
    {
      if (*c == '<')
        tp_buf_puts (out, "&lt;");
      else if (*c == '&')
        tp_buf_puts (out, "&amp;");
      else
        tp_buf_putc (out, *c);
    }
  tp_buf_puts (out, "</text>\n");
}

static void
put_y_tick (TpBuf *out, float value, double lo, double hi, bool log_scale)
{
  double a = axis_of (value, log_scale);
  int64_t y = round_coord (PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP)
                           * (a - lo) / (hi - lo));
  TpBuf label;

  tp_buf_puts (out, "<path class=\"tick\" d=\"M");
  tp_buf_u64 (out, PLOT_LEFT - 60);
  tp_buf_putc (out, ' ');
  tp_buf_u64 (out, (uint64_t) y);
  tp_buf_puts (out, "H");
  tp_buf_u64 (out, PLOT_RIGHT);
  tp_buf_puts (out, "\"/>\n");
  tp_buf_init (&label);
  tp_buf_f32 (&label, value);
  if (!label.failed && label.data != NULL)
    put_text (out, PLOT_LEFT - 90, y + 40, "end", label.data);
  tp_buf_clear (&label);
}

static bool
write_svg (TpTrain *t)
{
  float lo_v = 0.0f, hi_v = 0.0f;
  uint32_t n = 0;
  bool log_scale;
  double lo, hi;
  TpBuf out;

  for (uint32_t s = 0; s < t->n_losses; s++)
    if (is_finite (t->losses[s]))
      {
        float v = t->losses[s];
        if (n == 0 || v < lo_v)
          lo_v = v;
        if (n == 0 || v > hi_v)
          hi_v = v;
        n++;
      }
  /* Log scale when every value is positive and they span more than two
   * decades. */
  log_scale = n > 0 && lo_v > 0.0f && (double) hi_v > 100.0 * (double) lo_v;
  lo = axis_of (lo_v, log_scale);
  hi = axis_of (hi_v, log_scale);
  if (!(hi > lo))
    {
      lo -= 1.0;
      hi += 1.0;
    }

  tp_buf_init (&out);
  tp_buf_puts (&out, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                     "width=\"640\" height=\"320\" viewBox=\"0 0 ");
  tp_buf_u64 (&out, SVG_W);
  tp_buf_putc (&out, ' ');
  tp_buf_u64 (&out, SVG_H);
  tp_buf_puts (&out, "\" font-family=\"sans-serif\" font-size=\"120\">\n"
                     "<title>");
  tp_buf_puts (&out, t->target_name);
  tp_buf_puts (&out, " over ");
  tp_buf_u64 (&out, t->steps);
  tp_buf_puts (&out, " steps of gradient descent, learning rate ");
  tp_buf_f32 (&out, t->rate);
  tp_buf_puts (&out, log_scale ? " (log scale)" : "");
  tp_buf_puts (&out, "</title>\n"
                     "<style>.tick{stroke:#d0d0d0;stroke-width:6;fill:none}"
                     ".axis{stroke:#555555;stroke-width:10;fill:none}"
                     ".curve{stroke:#1c71d8;stroke-width:20;fill:none;"
                     "stroke-linejoin:round}text{fill:#222222}</style>\n"
                     "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");

  /* Ticks: the lowest and highest value, and on a log scale every power
   * of ten between them. */
  if (n > 0)
    {
      put_y_tick (&out, lo_v, lo, hi, log_scale);
      if (hi_v != lo_v)
        put_y_tick (&out, hi_v, lo, hi, log_scale);
      if (log_scale)
        {
          double d = 1.0;
          while (d > (double) lo_v)
            d /= 10.0;
          while (d < (double) lo_v)
            d *= 10.0;
          for (; d < (double) hi_v; d *= 10.0)
            {
              float f = (float) d;
              double a = axis_of (f, true);
              /* Leave out a power of ten too close to the end ticks. */
              if ((a - lo) / (hi - lo) > 0.06 && (hi - a) / (hi - lo) > 0.06)
                put_y_tick (&out, f, lo, hi, true);
            }
        }
    }
  tp_buf_puts (&out, "<path class=\"axis\" d=\"M");
  tp_buf_u64 (&out, PLOT_LEFT);
  tp_buf_putc (&out, ' ');
  tp_buf_u64 (&out, PLOT_TOP);
  tp_buf_puts (&out, "V");
  tp_buf_u64 (&out, PLOT_BOTTOM);
  tp_buf_puts (&out, "H");
  tp_buf_u64 (&out, PLOT_RIGHT);
  tp_buf_puts (&out, "\"/>\n");
  {
    TpBuf last;
    tp_buf_init (&last);
    tp_buf_u64 (&last, t->steps);
    put_text (&out, PLOT_LEFT, PLOT_BOTTOM + 170, "middle", "0");
    if (!last.failed && last.data != NULL)
      put_text (&out, PLOT_RIGHT, PLOT_BOTTOM + 170, "middle", last.data);
    tp_buf_clear (&last);
  }
  put_text (&out, (PLOT_LEFT + PLOT_RIGHT) / 2, PLOT_BOTTOM + 340, "middle",
            "step");
  put_text (&out, PLOT_LEFT, PLOT_TOP - 100, "start", t->target_name);

  if (n > 0)
    {
      bool first = true;

      tp_buf_puts (&out, "<path class=\"curve\" d=\"");
      for (uint32_t s = 0; s < t->n_losses; s++)
        {
          double x, y;

          if (!is_finite (t->losses[s]))
            continue;
          x = t->steps == 0 ? (PLOT_LEFT + PLOT_RIGHT) / 2.0
              : PLOT_LEFT + (double) (PLOT_RIGHT - PLOT_LEFT) * s / t->steps;
          y = PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP)
              * (axis_of (t->losses[s], log_scale) - lo) / (hi - lo);
          tp_buf_putc (&out, first ? 'M' : 'L');
          first = false;
          tp_buf_u64 (&out, (uint64_t) round_coord (x));
          tp_buf_putc (&out, ' ');
          tp_buf_u64 (&out, (uint64_t) round_coord (y));
        }
      if (t->n_losses == 1 || n == 1)
        tp_buf_puts (&out, "h1");      /* a dot for a single value */
      tp_buf_puts (&out, "\"/>\n");
    }
  tp_buf_puts (&out, "</svg>\n");
  t->svg = tp_buf_steal (&out);
  return t->svg != NULL;
}

/* {==== training ====} */

TpTrain *
tp_train_run (const TpTrainInput *in, uint32_t steps, float rate)
{
  const TpTape *tape = &in->prog->tape;
  TpTrain *t = tp_malloc (sizeof *t);
  TpArena arena;
  float **values;
  uint8_t *need, *run;
  float *scratch = NULL;
  bool ok = false;

  if (t == NULL)
    return NULL;
  memset (t, 0, sizeof *t);
  tp_arena_init (&arena);
  t->ok = true;
  t->steps = steps;
  t->rate = rate;
  t->target_name = dup_text (in->target_name);
  t->losses = tp_malloc (((size_t) steps + 1) * sizeof *t->losses);
  t->names = tp_malloc ((in->n_wrt + 1) * sizeof *t->names);
  t->params = tp_malloc ((in->n_wrt + 1) * sizeof *t->params);
  t->shapes = tp_malloc ((in->n_wrt + 1) * sizeof *t->shapes);
  values = tp_arena_calloc (&arena, tape->len + 1, sizeof *values);
  need = tp_arena_calloc (&arena, tape->len + 1, 1);
  run = tp_arena_calloc (&arena, tape->len + 1, 1);
  if (t->target_name == NULL || t->losses == NULL || t->names == NULL
      || t->params == NULL || t->shapes == NULL || values == NULL
      || need == NULL || run == NULL)
    goto out;
  mark_needed (tape, in, need);
  mark_run (tape, need, run);
  memset (t->names, 0, (in->n_wrt + 1) * sizeof *t->names);
  memset (t->params, 0, (in->n_wrt + 1) * sizeof *t->params);
  t->n_wrt = in->n_wrt;         /* tp_train_free may now walk them */
  for (uint32_t k = 0; k < in->n_wrt; k++)
    {
      TpNode w = in->wrt[k];
      size_t volume = (size_t) tp_shape_volume (&tape->shape[w]);

      t->shapes[k] = tape->shape[w];
      t->names[k] = dup_text (in->wrt_names[k]);
      t->params[k] = tp_malloc ((volume + 1) * sizeof (float));
      if (t->names[k] == NULL || t->params[k] == NULL)
        goto out;
      memcpy (t->params[k], tape->payload[w], volume * sizeof (float));
    }
  if (!tp_run_forward (tape, &arena, values))
    goto out;
  if (tp_run_scratch_size (tape) > 0)
    {
      scratch = tp_arena_alloc (&arena, tp_run_scratch_size (tape)
                                        * sizeof *scratch);
      if (scratch == NULL)
        goto out;
    }
  /* From here on the parameters are read from the copies. */
  for (uint32_t k = 0; k < in->n_wrt; k++)
    values[in->wrt[k]] = t->params[k];

  for (uint32_t s = 0;; s++)
    {
      TpNode bad;
      uint64_t element;
      bool finite;

      if (s > 0)
        tp_run_again (tape, values, scratch, run);
      t->losses[t->n_losses++] = values[in->target][0];
      /* Cheap on every step: the values that training reads.  Only when
       * one is not finite is the tape searched for where it was born. */
      finite = is_finite (values[in->target][0]);
      for (uint32_t k = 0; finite && k < in->n_wrt; k++)
        finite = all_finite (values[in->grads[k]],
                             tp_shape_volume (&t->shapes[k]));
      if (!finite && find_nonfinite (tape, values, need, &bad, &element))
        {
          t->stopped = true;
          t->stop_step = s;
          t->stop_node = bad;
          t->stop_op = tp_op_info[tape->op[bad]].name;
          t->stop_shape = tape->shape[bad];
          t->stop_element = element;
          t->stop_value = values[bad][element];
          break;
        }
      if (s == steps)
        break;
      for (uint32_t k = 0; k < in->n_wrt; k++)
        {
          float *p = t->params[k];
          const float *g = values[in->grads[k]];
          size_t volume = (size_t) tp_shape_volume (&t->shapes[k]);

          for (size_t e = 0; e < volume; e++)
            {
              float step = rate * g[e];
              p[e] = p[e] - step;
            }
        }
    }
  ok = write_reading (t) && write_svg (t);

out:
  tp_arena_reset (&arena);
  if (!ok)
    {
      tp_train_free (t);
      return NULL;
    }
  return t;
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
      put_element (&out, &t->stop_shape, t->stop_element, ",");
      tp_buf_puts (&out, ",\"value\":");
      tp_json_f32 (&out, t->stop_value);
      tp_buf_putc (&out, '}');
    }
  tp_buf_putc (&out, '}');
  return tp_buf_steal (&out);
}
