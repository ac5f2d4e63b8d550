/* tp-train-curve.c: a training's loss curve (its axes from tp-chart.c,
 * its SVG of deterministic bytes) and the sentence that heads it
 * (docs/language.md, train). */
#include "tp-train-private.h"

#include <string.h>

/* {==== the loss curve ====} */

static int64_t
round_coord (double v)
{
  return v < 0 ? -(int64_t) (0.5 - v) : (int64_t) (v + 0.5);
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

/* The vertical coordinate of a fraction of the vertical axis. */
static int64_t
plot_y (double at)
{
  return round_coord (PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * at);
}

static int64_t
plot_x (double at)
{
  return round_coord (PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * at);
}

/* The curve's axes, from the finite losses: steps along, the target up
 * (tp-chart.c chooses the scale and the ticks). */
void
tp_train_make_chart (TpTrain *t)
{
  float lo = 0.0f, hi = 0.0f;
  uint32_t n = 0;

  for (uint32_t s = 0; s < t->n_losses; s++)
    if (tp_train_finite (t->losses[s]))
      {
        float v = t->losses[s];
        if (n == 0 || v < lo)
          lo = v;
        if (n == 0 || v > hi)
          hi = v;
        n++;
      }
  memset (&t->chart, 0, sizeof t->chart);
  t->chart.title = t->summary;
  t->chart.x_title = "step";
  t->chart.y_title = t->target_name;
  tp_chart_steps (&t->chart, t->steps);
  tp_chart_values (&t->chart, (double) lo, (double) hi, true, true);
}

bool
tp_train_write_svg (TpTrain *t)
{
  TpChart c;
  TpBuf out;

  tp_chart_view (&t->chart, &c);
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
  tp_buf_puts (&out, c.y_log ? " (log scale)" : "");
  tp_buf_puts (&out, "</title>\n"
                     "<style>.tick{stroke:#d0d0d0;stroke-width:6;fill:none}"
                     ".axis{stroke:#555555;stroke-width:10;fill:none}"
                     ".curve{stroke:#1c71d8;stroke-width:20;fill:none;"
                     "stroke-linejoin:round}text{fill:#222222}</style>\n"
                     "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");

  /* The chart's ticks: a grid line and a label each, the vertical ones
   * ending left of the axis, the horizontal ones centred under it. */
  for (size_t k = 0; k < c.n_y_ticks; k++)
    {
      int64_t y = plot_y (c.y_ticks[k].at);
      tp_buf_puts (&out, "<path class=\"tick\" d=\"M");
      tp_buf_u64 (&out, PLOT_LEFT - 60);
      tp_buf_putc (&out, ' ');
      tp_buf_u64 (&out, (uint64_t) y);
      tp_buf_puts (&out, "H");
      tp_buf_u64 (&out, PLOT_RIGHT);
      tp_buf_puts (&out, "\"/>\n");
      put_text (&out, PLOT_LEFT - 90, y + 40, "end", c.y_ticks[k].label);
    }
  for (size_t k = 0; k < c.n_x_ticks; k++)
    {
      int64_t x = plot_x (c.x_ticks[k].at);
      tp_buf_puts (&out, "<path class=\"tick\" d=\"M");
      tp_buf_u64 (&out, (uint64_t) x);
      tp_buf_putc (&out, ' ');
      tp_buf_u64 (&out, PLOT_BOTTOM);
      tp_buf_puts (&out, "v60\"/>\n");
      put_text (&out, x, PLOT_BOTTOM + 170, "middle", c.x_ticks[k].label);
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
  put_text (&out, (PLOT_LEFT + PLOT_RIGHT) / 2, PLOT_BOTTOM + 340, "middle",
            "step");
  put_text (&out, PLOT_LEFT, PLOT_TOP - 100, "start", t->target_name);

  {
    bool first = true;
    uint32_t drawn = 0;

    for (uint32_t s = 0; s < t->n_losses; s++)
      {
        double y = tp_chart_y (&c, (double) t->losses[s]), x;

        if (!(y == y))
          continue;
        if (first)
          tp_buf_puts (&out, "<path class=\"curve\" d=\"");
        x = t->steps == 0 ? 0.5 : (double) s / t->steps;
        tp_buf_putc (&out, first ? 'M' : 'L');
        first = false;
        tp_buf_u64 (&out, (uint64_t) plot_x (x));
        tp_buf_putc (&out, ' ');
        tp_buf_u64 (&out, (uint64_t) plot_y (y));
        drawn++;
      }
    if (drawn == 1)
      tp_buf_puts (&out, "h1");      /* a dot for a single value */
    if (drawn > 0)
      tp_buf_puts (&out, "\"/>\n");
  }
  tp_buf_puts (&out, "</svg>\n");
  t->svg = tp_buf_steal (&out);
  return t->svg != NULL;
}

/* "trained 100 steps: loss 16 to 0.00102", or where it stopped. */
bool
tp_train_write_summary (TpTrain *t)
{
  char a[TP_SHORT_NUMBER_MAX], b[TP_SHORT_NUMBER_MAX];
  TpBuf out;

  tp_buf_init (&out);
  if (t->stopped)
    {
      tp_short_number ((double) t->stop_value, a);
      tp_buf_puts (&out, "stopped at step ");
      tp_buf_u64 (&out, t->stop_step);
      tp_buf_puts (&out, " of ");
      tp_buf_u64 (&out, t->steps);
      tp_buf_puts (&out, ": node ");
      tp_buf_u64 (&out, t->stop_node);
      tp_buf_putc (&out, ' ');
      tp_buf_puts (&out, t->stop_op);
      tp_buf_puts (&out, " gives ");
      tp_buf_puts (&out, a);
      if (t->stop_shape.rank > 0)
        {
          tp_buf_puts (&out, " at element ");
          tp_train_put_element (&out, &t->stop_shape, t->stop_element, ", ");
        }
    }
  else
    {
      tp_short_number ((double) t->losses[0], a);
      tp_short_number ((double) t->losses[t->n_losses - 1], b);
      tp_buf_puts (&out, "trained ");
      tp_buf_u64 (&out, t->steps);
      tp_buf_puts (&out, t->steps == 1 ? " step: " : " steps: ");
      tp_buf_puts (&out, t->target_name);
      tp_buf_putc (&out, ' ');
      tp_buf_puts (&out, a);
      if (t->steps > 0)
        {
          tp_buf_puts (&out, " to ");
          tp_buf_puts (&out, b);
        }
    }
  t->summary = tp_buf_steal (&out);
  return t->summary != NULL;
}
