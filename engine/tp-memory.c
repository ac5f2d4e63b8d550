/* tp-memory.c: the plan's buffers (tp-memory.h).
 *
 * A step is one evaluated node.  Node i's buffer is live from its own
 * step to the step of plan->last[i], after which it is freed, or to the
 * last step when it is kept (readable).  The live volume at a step is the
 * sum of the buffers live there, counted after the step's own buffer is
 * made and before the buffers it frees go: exactly the walk tp_plan_lower
 * measures its peak with. */
#include "tp-memory.h"

#include <string.h>

bool
tp_memory_build (TpMemory *m, const TpPlan *plan, TpArena *arena)
{
  const TpTape *t = plan->tape;
  uint32_t n = plan->n_order;
  int64_t running = 0;
  int64_t *delta;

  memset (m, 0, sizeof *m);
  m->plan = plan;
  m->peak_step = UINT32_MAX;
  m->step_of = tp_arena_alloc (arena, (t->len + 1) * sizeof *m->step_of);
  m->again_of = tp_arena_alloc (arena, (t->len + 1) * sizeof *m->again_of);
  m->from = tp_arena_alloc (arena, (n + 1) * sizeof *m->from);
  m->to = tp_arena_alloc (arena, (n + 1) * sizeof *m->to);
  m->live = tp_arena_alloc (arena, (n + 1) * sizeof *m->live);
  delta = tp_arena_calloc (arena, n + 1, sizeof *delta);
  if (m->step_of == NULL || m->again_of == NULL || m->from == NULL
      || m->to == NULL || m->live == NULL || delta == NULL)
    return false;
  m->steps = plan->order;
  m->again = plan->again;
  m->n_steps = n;
  for (TpNode i = 0; i < t->len; i++)
    m->step_of[i] = m->again_of[i] = UINT32_MAX;
  for (uint32_t s = 0; s < n; s++)
    {
      TpNode i = m->steps[s];
      int64_t volume = (int64_t) tp_shape_volume (&t->shape[i]);
      if (plan->again[s])
        m->again_of[i] = s;
      else
        m->step_of[i] = s;
      m->from[s] = s;
      m->to[s] = plan->until[s];
      delta[s] += volume;
      delta[m->to[s] + 1] -= volume;
    }
  for (uint32_t s = 0; s < n; s++)
    {
      running += delta[s];
      m->live[s] = (uint64_t) running;
      if (m->live[s] > m->peak)
        {
          m->peak = m->live[s];
          m->peak_step = s;
        }
    }
  return true;
}

/* "kept", "freed after K" or, for a node computed again, "recomputed,
 * freed after K": step s's buffer. */
static void
put_fate (const TpMemory *m, uint32_t s, TpBuf *out)
{
  const TpPlan *plan = m->plan;

  if (plan->readable[m->steps[s]] && !m->again[s])
    {
      tp_buf_puts (out, "kept");
      return;
    }
  if (m->again[s])
    tp_buf_puts (out, "recomputed, ");
  tp_buf_puts (out, "freed after ");
  tp_buf_u64 (out, m->steps[m->to[s]]);
}

static void
put_pad_u64 (TpBuf *out, uint64_t value, size_t width)
{
  char tmp[24];
  size_t n = 0;

  do
    {
      tmp[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value != 0);
  if (n < width)
    tp_buf_spaces (out, width - n);
  while (n > 0)
    tp_buf_putc (out, tmp[--n]);
}

void
tp_memory_describe (const TpMemory *m, TpBuf *out)
{
  const TpPlan *plan = m->plan;
  const TpTape *t = plan->tape;
  bool bars = m->n_steps <= TP_MEMORY_TEXT_BARS;
  uint32_t again = 0;

  for (uint32_t s = 0; s < m->n_steps; s++)
    again += m->again[s];
  tp_buf_puts (out, "memory: ");
  tp_buf_u64 (out, m->n_steps);
  tp_buf_puts (out, m->n_steps == 1 ? " buffer" : " buffers");
  tp_buf_puts (out, ", one per evaluated node");
  if (again > 0)
    {
      tp_buf_puts (out, " and one per node computed again (");
      tp_buf_u64 (out, again);
      tp_buf_putc (out, ')');
    }
  tp_buf_puts (out, ", over ");
  tp_buf_u64 (out, m->n_steps);
  tp_buf_puts (out, m->n_steps == 1 ? " step\n" : " steps\n");
  tp_buf_puts (out, "step   node  op               elements      live");
  tp_buf_puts (out, bars ? "  buffer\n" : "  buffer (no chart over 64 steps)\n");
  for (uint32_t s = 0; s < m->n_steps; s++)
    {
      TpNode i = m->steps[s];
      size_t mark;
      if (s == TP_MEMORY_TEXT_LINES)
        {
          tp_buf_puts (out, "... ");
          tp_buf_u64 (out, m->n_steps - s);
          tp_buf_puts (out, " more buffers: the text lists the first ");
          tp_buf_u64 (out, TP_MEMORY_TEXT_LINES);
          tp_buf_putc (out, '\n');
          break;
        }
      put_pad_u64 (out, s, 4);
      tp_buf_putc (out, ' ');
      put_pad_u64 (out, i, 6);
      tp_buf_puts (out, "  ");
      mark = out->len;
      tp_buf_puts (out, tp_op_info[t->op[i]].name);
      tp_buf_pad_from (out, mark, 15);
      put_pad_u64 (out, tp_shape_volume (&t->shape[i]), 10);
      put_pad_u64 (out, m->live[s], 10);
      tp_buf_puts (out, "  ");
      if (bars)
        {
          for (uint32_t k = 0; k < m->n_steps; k++)
            tp_buf_putc (out, k >= m->from[s] && k <= m->to[s] ? '#' : '.');
          tp_buf_putc (out, ' ');
        }
      put_fate (m, s, out);
      if (s == m->peak_step)
        tp_buf_puts (out, "  <- peak");
      tp_buf_putc (out, '\n');
    }
  tp_buf_puts (out, "live volume: peak ");
  tp_buf_u64 (out, m->peak);
  tp_buf_puts (out, " elements at node ");
  if (m->peak_step != UINT32_MAX)
    tp_buf_u64 (out, m->steps[m->peak_step]);
  else
    tp_buf_u64 (out, TP_NO_NODE);
  tp_buf_puts (out, ", retain-all ");
  tp_buf_u64 (out, plan->retain_all);
  tp_buf_putc (out, '\n');
}

/* The SVG's geometry, in whole pixels. */
#define SVG_LEFT 56u
#define SVG_WIDTH 720u
#define SVG_TOP 28u
#define SVG_ROW 16u
#define SVG_CURVE 120u

static uint64_t
x_of (const TpMemory *m, uint64_t step)
{
  return SVG_LEFT + step * SVG_WIDTH / (m->n_steps ? m->n_steps : 1);
}

static void
attr_u64 (TpBuf *out, const char *name, uint64_t value)
{
  tp_buf_putc (out, ' ');
  tp_buf_puts (out, name);
  tp_buf_puts (out, "=\"");
  tp_buf_u64 (out, value);
  tp_buf_putc (out, '"');
}

void
tp_memory_svg (const TpMemory *m, TpBuf *out)
{
  const TpPlan *plan = m->plan;
  const TpTape *t = plan->tape;
  uint32_t drawn = m->n_steps < TP_MEMORY_SVG_BARS ? m->n_steps
                                                   : TP_MEMORY_SVG_BARS;
  uint64_t curve_top = SVG_TOP + (uint64_t) drawn * SVG_ROW + 24;
  uint64_t base = curve_top + SVG_CURVE;
  uint64_t height = base + 40;
  uint32_t points = m->n_steps < TP_MEMORY_SVG_BARS ? m->n_steps
                                                    : TP_MEMORY_SVG_BARS;

  tp_buf_puts (out, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
  attr_u64 (out, "width", SVG_LEFT + SVG_WIDTH + 72);
  attr_u64 (out, "height", height);
  tp_buf_puts (out, " viewBox=\"0 0 ");
  tp_buf_u64 (out, SVG_LEFT + SVG_WIDTH + 72);
  tp_buf_putc (out, ' ');
  tp_buf_u64 (out, height);
  tp_buf_puts (out, "\" font-family=\"Helvetica,sans-Serif\" font-size=\"10\""
                    " class=\"memory\">\n");
  tp_buf_puts (out, "<style>.buffer rect{fill:#BBCCEE;stroke:#808080}"
                    ".buffer.kept rect{fill:#EEDD88;stroke:#0077BB}"
                    ".curve{fill:none;stroke:#EE7733;stroke-width:2}"
                    ".peak{fill:#CC3311}text{fill:#808080}</style>\n");
  tp_buf_puts (out, "<text x=\"8\" y=\"16\">");
  tp_buf_u64 (out, m->n_steps);
  tp_buf_puts (out, " buffers over ");
  tp_buf_u64 (out, m->n_steps);
  tp_buf_puts (out, " steps; peak ");
  tp_buf_u64 (out, m->peak);
  tp_buf_puts (out, " elements at node ");
  tp_buf_u64 (out, m->peak_step != UINT32_MAX ? m->steps[m->peak_step]
                                              : TP_NO_NODE);
  tp_buf_puts (out, ", retain-all ");
  tp_buf_u64 (out, plan->retain_all);
  if (drawn < m->n_steps)
    {
      tp_buf_puts (out, "; the first ");
      tp_buf_u64 (out, drawn);
      tp_buf_puts (out, " bars drawn");
    }
  tp_buf_puts (out, "</text>\n");
  for (uint32_t s = 0; s < drawn; s++)
    {
      TpNode i = m->steps[s];
      uint64_t x0 = x_of (m, m->from[s]), x1 = x_of (m, (uint64_t) m->to[s] + 1);
      uint64_t y = SVG_TOP + (uint64_t) s * SVG_ROW;
      uint64_t volume = tp_shape_volume (&t->shape[i]);

      if (x1 <= x0)
        x1 = x0 + 1;
      tp_buf_puts (out, "<g id=\"n");
      tp_buf_u64 (out, i);
      if (m->again[s])
        tp_buf_puts (out, "-again");
      tp_buf_puts (out, plan->readable[i] && !m->again[s]
                        ? "\" class=\"buffer kept\">"
                        : m->again[s] ? "\" class=\"buffer again\">"
                        : "\" class=\"buffer freed\">");
      tp_buf_puts (out, "<title>node ");
      tp_buf_u64 (out, i);
      tp_buf_putc (out, ' ');
      tp_buf_puts (out, tp_op_info[t->op[i]].name);
      tp_buf_puts (out, ": ");
      tp_buf_u64 (out, volume);
      tp_buf_puts (out, volume == 1 ? " element, " : " elements, ");
      put_fate (m, s, out);
      tp_buf_puts (out, "</title><text");
      attr_u64 (out, "x", 8);
      attr_u64 (out, "y", y + 11);
      tp_buf_puts (out, ">");
      tp_buf_u64 (out, i);
      tp_buf_puts (out, "</text><rect");
      attr_u64 (out, "x", x0);
      attr_u64 (out, "y", y + 2);
      attr_u64 (out, "width", x1 - x0);
      attr_u64 (out, "height", SVG_ROW - 4);
      tp_buf_puts (out, "/><text");
      attr_u64 (out, "x", x1 + 3);
      attr_u64 (out, "y", y + 11);
      tp_buf_puts (out, ">");
      tp_buf_u64 (out, volume);
      tp_buf_puts (out, "</text></g>\n");
    }
  /* The live volume, a step line; over TP_MEMORY_SVG_BARS steps each
   * point is the largest of its run of steps. */
  tp_buf_puts (out, "<polyline class=\"curve\" points=\"");
  for (uint32_t b = 0; b < points; b++)
    {
      uint64_t lo = (uint64_t) b * m->n_steps / points;
      uint64_t hi = (uint64_t) (b + 1) * m->n_steps / points;
      uint64_t v = 0, y;
      for (uint64_t s = lo; s < hi; s++)
        if (m->live[s] > v)
          v = m->live[s];
      y = base - (m->peak ? (uint64_t) (((double) v / (double) m->peak)
                                        * SVG_CURVE) : 0);
      if (b > 0)
        tp_buf_putc (out, ' ');
      tp_buf_u64 (out, x_of (m, lo));
      tp_buf_putc (out, ',');
      tp_buf_u64 (out, y);
      tp_buf_putc (out, ' ');
      tp_buf_u64 (out, x_of (m, hi));
      tp_buf_putc (out, ',');
      tp_buf_u64 (out, y);
    }
  tp_buf_puts (out, "\"/>\n");
  tp_buf_puts (out, "<line");
  attr_u64 (out, "x1", SVG_LEFT);
  attr_u64 (out, "y1", base);
  attr_u64 (out, "x2", SVG_LEFT + SVG_WIDTH);
  attr_u64 (out, "y2", base);
  tp_buf_puts (out, " stroke=\"#808080\"/>\n");
  if (m->peak_step != UINT32_MAX)
    {
      uint64_t px = (x_of (m, m->peak_step) + x_of (m, m->peak_step + 1)) / 2;
      tp_buf_puts (out, "<g id=\"peak\" class=\"peak\"><circle");
      attr_u64 (out, "cx", px);
      attr_u64 (out, "cy", base - SVG_CURVE);
      attr_u64 (out, "r", 4);
      tp_buf_puts (out, "/><text");
      attr_u64 (out, "x", px + 6);
      attr_u64 (out, "y", base - SVG_CURVE + 4);
      tp_buf_puts (out, ">peak ");
      tp_buf_u64 (out, m->peak);
      tp_buf_puts (out, " at node ");
      tp_buf_u64 (out, m->steps[m->peak_step]);
      tp_buf_puts (out, "</text></g>\n");
    }
  tp_buf_puts (out, "<text x=\"8\"");
  attr_u64 (out, "y", base + 24);
  tp_buf_puts (out, ">live elements per step</text>\n</svg>\n");
}

void
tp_memory_json (const TpMemory *m, TpBuf *out)
{
  uint32_t n = m != NULL ? m->n_steps : 0;

  tp_buf_puts (out, "{\"steps\":[");
  for (uint32_t s = 0; s < n; s++)
    {
      if (s > 0)
        tp_buf_putc (out, ',');
      tp_buf_u64 (out, m->steps[s]);
    }
  tp_buf_puts (out, "],\"buffers\":[");
  for (uint32_t s = 0; s < n; s++)
    {
      if (s > 0)
        tp_buf_putc (out, ',');
      tp_buf_puts (out, "{\"node\":");
      tp_buf_u64 (out, m->steps[s]);
      tp_buf_puts (out, ",\"elements\":");
      tp_buf_u64 (out, tp_shape_volume (&m->plan->tape->shape[m->steps[s]]));
      tp_buf_puts (out, ",\"from\":");
      tp_buf_u64 (out, m->from[s]);
      tp_buf_puts (out, ",\"to\":");
      tp_buf_u64 (out, m->to[s]);
      tp_buf_putc (out, '}');
    }
  tp_buf_puts (out, "],\"live\":[");
  for (uint32_t s = 0; s < n; s++)
    {
      if (s > 0)
        tp_buf_putc (out, ',');
      tp_buf_u64 (out, m->live[s]);
    }
  tp_buf_puts (out, "],\"peak\":{\"elements\":");
  tp_buf_u64 (out, m != NULL ? m->peak : 0);
  tp_buf_puts (out, ",\"node\":");
  if (m != NULL && m->peak_step != UINT32_MAX)
    tp_buf_u64 (out, m->steps[m->peak_step]);
  else
    tp_buf_puts (out, "null");
  tp_buf_puts (out, "},\"retain_all\":");
  tp_buf_u64 (out, m != NULL ? m->plan->retain_all : 0);
  tp_buf_putc (out, '}');
}
