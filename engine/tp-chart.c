/* tp-chart.c: the axes of the engine's charts (tp-chart.h).
 *
 * A linear axis ticks at the multiples of a round step (1, 2 or 5 times a
 * power of ten) chosen so that at most TP_CHART_LABELS ticks fall in its
 * range; a logarithmic one ticks at powers of ten, every second or third
 * one when there are too many.  Everything is plain double arithmetic
 * and the engine's own logarithm, so every build gives the same axes. */
#include "tp-chart.h"

#include <stdint.h>
#include <string.h>

#include "tp-json.h"
#include "tp-math.h"

#define LN10 2.302585092994046

/* 10^e: a product of tens (exact to 10^22), or one division by it. */
static double
power_of_ten (int e)
{
  double p = 1.0;

  for (int k = 0; k < (e < 0 ? -e : e); k++)
    p *= 10.0;
  return e < 0 ? 1.0 / p : p;
}

/* The smallest of 1, 2, 5 and 10 times a power of ten that is at least
 * raw (> 0). */
static double
round_step (double raw)
{
  int e = 0;
  double p;

  while (power_of_ten (e) > raw && e > -320)
    e--;
  while (power_of_ten (e + 1) <= raw && e < 310)
    e++;
  p = power_of_ten (e);
  if (p >= raw)
    return p;
  if (2.0 * p >= raw)
    return 2.0 * p;
  if (5.0 * p >= raw)
    return 5.0 * p;
  return 10.0 * p;
}

/* x rounded down (up) to a whole number, for |x| < 2^53. */
static double
whole_down (double x)
{
  double w = (double) (int64_t) x;
  return w > x ? w - 1.0 : w;
}

static double
whole_up (double x)
{
  double w = (double) (int64_t) x;
  return w < x ? w + 1.0 : w;
}

/* Adds a tick at value, at fraction `at` of its axis. */
static void
add_tick (TpChartData *c, bool vertical, double value, double at)
{
  uint32_t *n = vertical ? &c->n_y_ticks : &c->n_x_ticks;
  TpTick *t;
  char *label;

  if (*n >= TP_CHART_TICKS)
    return;
  t = vertical ? &c->y_ticks[*n] : &c->x_ticks[*n];
  label = c->labels[(vertical ? TP_CHART_TICKS : 0) + *n];
  tp_short_number (value, label);
  t->value = value;
  t->at = at;
  t->label = label;
  (*n)++;
}

void
tp_chart_steps (TpChartData *c, double last)
{
  double step;

  c->n_x_ticks = 0;
  c->x_low = 0.0;
  c->x_high = last > 0.0 ? last : 1.0;
  if (!(last > 0.0))
    {
      add_tick (c, false, 0.0, 0.0);
      return;
    }
  step = round_step (last / (TP_CHART_LABELS - 1));
  if (step < 1.0)
    step = 1.0;
  for (double k = 0.0; k * step <= last + step * 1e-9; k += 1.0)
    add_tick (c, false, k * step, k * step / last);
}

/* A linear axis from round numbers around lo and hi. */
static void
linear_values (TpChartData *c, double lo, double hi, bool from_zero)
{
  double step, low, high;

  if (from_zero && lo >= 0.0)
    lo = 0.0;
  if (!(hi > lo))
    {
      /* one value: a unit around it (or from zero up to it) */
      if (lo == 0.0)
        hi = 1.0;
      else if (from_zero && lo > 0.0)
        lo = 0.0;
      else
        {
          double half = (lo < 0 ? -lo : lo) * 0.5;
          lo -= half;
          hi += half;
        }
    }
  step = round_step ((hi - lo) / (TP_CHART_LABELS - 1));
  if ((lo < 0 ? -lo : lo) / step < 1e15 && (hi < 0 ? -hi : hi) / step < 1e15)
    {
      low = whole_down (lo / step) * step;
      high = whole_up (hi / step) * step;
    }
  else
    {
      low = lo;
      high = hi;
    }
  if (!(high > low))
    high = low + step;
  c->y_log = false;
  c->y_low = low;
  c->y_high = high;
  c->n_y_ticks = 0;
  for (double k = whole_up (low / step); k * step <= high + step * 1e-9;
       k += 1.0)
    add_tick (c, true, k * step, (k * step - low) / (high - low));
}

void
tp_chart_values (TpChartData *c, double lo, double hi, bool allow_log,
                 bool from_zero)
{
  int lo_dec = 0, hi_dec = 0, decades, stride;

  if (!(lo == lo) || !(hi == hi) || lo > hi)
    lo = hi = 0.0;
  if (!allow_log || !(lo > 0.0) || !(hi > 100.0 * lo))
    {
      linear_values (c, lo, hi, from_zero);
      return;
    }
  while (power_of_ten (lo_dec) > lo && lo_dec > -320)
    lo_dec--;
  while (power_of_ten (lo_dec + 1) <= lo && lo_dec < 310)
    lo_dec++;
  hi_dec = lo_dec;
  while (power_of_ten (hi_dec) < hi && hi_dec < 310)
    hi_dec++;
  decades = hi_dec - lo_dec;
  stride = (decades + (int) TP_CHART_LABELS - 2) / ((int) TP_CHART_LABELS - 1);
  if (stride < 1)
    stride = 1;
  /* both ends on a labelled decade */
  decades = (decades + stride - 1) / stride * stride;
  hi_dec = lo_dec + decades;
  c->y_log = true;
  c->y_low = power_of_ten (lo_dec);
  c->y_high = power_of_ten (hi_dec);
  c->n_y_ticks = 0;
  for (int e = lo_dec; e <= hi_dec; e += stride)
    add_tick (c, true, power_of_ten (e), (double) (e - lo_dec) / decades);
}

/* ln x for any positive finite double: x scaled into [1, 10) by powers
 * of ten, then the engine's f32 logarithm (enough for a position on a
 * chart, and the same on every build). */
static double
ln_wide (double x)
{
  int e = 0;

  while (x >= 10.0)
    {
      x /= 10.0;
      e++;
    }
  while (x < 1.0)
    {
      x *= 10.0;
      e--;
    }
  return (double) tp_logf ((float) x) + e * LN10;
}

void
tp_chart_view (const TpChartData *c, TpChart *out)
{
  out->title = c->title;
  out->x_title = c->x_title;
  out->y_title = c->y_title;
  out->x_low = c->x_low;
  out->x_high = c->x_high;
  out->y_low = c->y_low;
  out->y_high = c->y_high;
  out->y_log = c->y_log;
  out->x_ticks = c->x_ticks;
  out->n_x_ticks = c->n_x_ticks;
  out->y_ticks = c->y_ticks;
  out->n_y_ticks = c->n_y_ticks;
}

double
tp_chart_y (const TpChart *c, double value)
{
  if (!(value == value) || value - value != 0.0)
    return 0.0 / 0.0;
  if (c->y_log)
    {
      double lo, hi;
      if (!(value > 0.0))
        return 0.0 / 0.0;
      lo = ln_wide (c->y_low);
      hi = ln_wide (c->y_high);
      if (!(hi > lo))
        return 0.0;
      return (ln_wide (value) - lo) / (hi - lo);
    }
  if (!(c->y_high > c->y_low))
    return 0.0;
  return (value - c->y_low) / (c->y_high - c->y_low);
}

static void
json_ticks (TpBuf *out, const TpTick *ticks, size_t n)
{
  tp_buf_putc (out, '[');
  for (size_t k = 0; k < n; k++)
    {
      if (k > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"at\":");
      tp_json_double (out, ticks[k].at);
      tp_buf_puts (out, ",\"value\":");
      tp_json_double (out, ticks[k].value);
      tp_buf_puts (out, ",\"label\":");
      tp_json_string (out, ticks[k].label, strlen (ticks[k].label));
      tp_buf_putc (out, '}');
    }
  tp_buf_putc (out, ']');
}

static void
json_text (TpBuf *out, const char *key, const char *text, bool first)
{
  tp_json_key (out, key, first);
  if (text == NULL)
    tp_buf_puts (out, "null");
  else
    tp_json_string (out, text, strlen (text));
}

void
tp_chart_json (const TpChart *c, TpBuf *out)
{
  tp_buf_putc (out, '{');
  json_text (out, "title", c->title, true);
  json_text (out, "x_title", c->x_title, false);
  json_text (out, "y_title", c->y_title, false);
  tp_buf_puts (out, ",\"x\":[");
  tp_json_double (out, c->x_low);
  tp_buf_putc (out, ',');
  tp_json_double (out, c->x_high);
  tp_buf_puts (out, "],\"y\":[");
  tp_json_double (out, c->y_low);
  tp_buf_putc (out, ',');
  tp_json_double (out, c->y_high);
  tp_buf_puts (out, c->y_log ? "],\"y_log\":true" : "],\"y_log\":false");
  tp_buf_puts (out, ",\"x_ticks\":");
  json_ticks (out, c->x_ticks, c->n_x_ticks);
  tp_buf_puts (out, ",\"y_ticks\":");
  json_ticks (out, c->y_ticks, c->n_y_ticks);
  tp_buf_putc (out, '}');
}
