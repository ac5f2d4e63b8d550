/* tp-memory-chart.c: the memory chart, drawn with cairo from the
 * schedule the engine gives (docs/language.md, memory), on the axes it
 * gives (tp_session_memory_chart: range, scale, labelled ticks), its
 * peak (tp_session_memory_peak) and each step's sentence.
 *
 * Rows are steps, in order; each row's bar runs from its step's column to
 * the column of the last step its buffer is held.  The live-volume curve
 * is pinned above the rows, so it stays in sight while the rows scroll,
 * and only the rows in sight are drawn: a big program costs what the
 * screen shows. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tp-document.h"
#include "tp-memory-chart.h"
#include "tp-style.h"

/* The curve's band, the labels' and the counts' columns, in rows: a
 * larger font (presenting, F11) makes every part larger.  The band takes
 * CURVE_SHARE of what the chart shows, between CURVE_MIN_ROWS and
 * CURVE_ROWS, so a short chart shows bars too. */
#define CURVE_ROWS 3.6
#define CURVE_MIN_ROWS 1.4
#define CURVE_SHARE 0.3
#define LABEL_ROWS 3.8
#define COUNT_ROWS 4.8
#define MARGIN 6.0

struct _TpMemoryChart
{
  GtkWidget parent_instance;

  TpDocument *document;
  TpReadings *readings;         /* the readings drawn (a reference) */
  TpTeaching *teaching;         /* theirs, once they have it */
  GtkAdjustment *vadjustment;   /* the scrolled window's, when inside one */
  int cursor;                   /* the step-through's step, or -1 */
  int highlighted;              /* the selected node's step, or -1 */
  double row_height;            /* from the font: a line of text and a margin */
};

G_DEFINE_FINAL_TYPE (TpMemoryChart, tp_memory_chart, GTK_TYPE_WIDGET)

static double
tp_memory_chart_scroll (TpMemoryChart *self)
{
  return self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

/* The height of the curve's band, pinned above the rows. */
static double
tp_memory_chart_curve_height (TpMemoryChart *self)
{
  double page = self->vadjustment != NULL ? gtk_adjustment_get_page_size (self->vadjustment)
                                          : gtk_widget_get_height (GTK_WIDGET (self));

  if (page <= 0)
    return self->row_height * CURVE_ROWS;
  return CLAMP (page * CURVE_SHARE, self->row_height * CURVE_MIN_ROWS, self->row_height * CURVE_ROWS);
}

/* What a row says its buffer is: the statement's name (the engine's
 * display name), the gradient of a parameter, else its node. */
static char *
tp_memory_chart_dup_label (TpReadings *r,
                           guint       node)
{
  const char *name = tp_readings_get_display_name (r, node);
  const char *of = name == NULL ? tp_readings_get_gradient_of (r, node) : NULL;

  if (name != NULL)
    return g_strdup (name);
  if (of != NULL)
    /* Translators: a memory chart row's label for the gradient of the
     * parameter named %s */
    return g_strdup_printf (_("grad %s"), of);
  /* Translators: a memory chart row's label: the node whose buffer it is */
  return g_strdup_printf (_("node %u"), node);
}

static guint
tp_memory_chart_n_steps (TpMemoryChart *self)
{
  return self->teaching != NULL ? self->teaching->n_steps : 0;
}

/* The column geometry: where step 0 starts and how wide a step is. */
static void
tp_memory_chart_columns (TpMemoryChart *self,
                         int            width,
                         double        *x0,
                         double        *step_width)
{
  guint n = MAX (tp_memory_chart_n_steps (self), 1);

  *x0 = (self->row_height * LABEL_ROWS);
  *step_width = MAX (width - (self->row_height * LABEL_ROWS) - (self->row_height * COUNT_ROWS) - MARGIN, 1.0) / n;
}

static void
tp_memory_chart_update_description (TpMemoryChart *self)
{
  g_autofree char *description = NULL;
  guint n = tp_memory_chart_n_steps (self);

  if (n == 0)
    description = g_strdup (self->readings != NULL && self->teaching == NULL
                            ? _("The memory chart is being made")
                            : _("No buffers: the program does not read"));
  else
    {
      g_autofree char *peak = tp_grouped_number_dup (self->teaching->peak_elements);
      g_autofree char *name = tp_memory_chart_dup_label (self->readings, self->teaching->peak_node);

      /* Translators: the memory chart's accessible description: %u is the
       * number of steps, then the most elements live at once and the
       * buffer ("loss", "grad w" or "node 9") whose step it is */
      description = g_strdup_printf (ngettext ("%u buffer, one per step; peak %s elements live at %s",
                                               "%u buffers, one per step; peak %s elements live at %s", n),
                                     n, peak, name);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

/* Scrolls row @step into sight below the pinned curve. */
static void
tp_memory_chart_reveal (TpMemoryChart *self,
                        int            step)
{
  double top, page, value;

  if (self->vadjustment == NULL || step < 0)
    return;
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  top = tp_memory_chart_curve_height (self) + step * self->row_height;
  if (top < value + tp_memory_chart_curve_height (self))
    gtk_adjustment_set_value (self->vadjustment, top - tp_memory_chart_curve_height (self));
  else if (top + self->row_height > value + page)
    gtk_adjustment_set_value (self->vadjustment, top + self->row_height - page);
}

static void
tp_memory_chart_selection_cb (TpMemoryChart *self)
{
  int node = self->document != NULL ? tp_document_get_selected_node (self->document) : -1;
  TpTeaching *t = self->teaching;
  int step = -1;

  if (t != NULL && node >= 0 && (guint) node < t->n_nodes && t->node_steps[node] != G_MAXUINT)
    step = (int) t->node_steps[node];
  if (step == self->highlighted)
    return;
  self->highlighted = step;
  tp_memory_chart_reveal (self, step);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
tp_memory_chart_readings_cb (TpMemoryChart *self)
{
  TpReadings *readings = self->document != NULL ? tp_document_get_readings (self->document) : NULL;

  if (readings == self->readings && (readings == NULL || readings->teaching == self->teaching))
    return;
  g_clear_pointer (&self->readings, tp_readings_unref);
  if (readings != NULL)
    self->readings = tp_readings_ref (readings);
  self->teaching = readings != NULL ? readings->teaching : NULL;
  if (self->cursor >= (int) tp_memory_chart_n_steps (self))
    self->cursor = -1;
  self->highlighted = -2;       /* find it again */
  tp_memory_chart_selection_cb (self);
  tp_memory_chart_update_description (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
tp_memory_chart_set_color (cairo_t       *cr,
                           const GdkRGBA *rgba,
                           double         alpha)
{
  cairo_set_source_rgba (cr, rgba->red, rgba->green, rgba->blue, (double) rgba->alpha * alpha);
}

static void
tp_memory_chart_text (cairo_t     *cr,
                      PangoLayout *layout,
                      const char  *text,
                      double       x,
                      double       y,
                      double       right,
                      double       row)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, right > 0 ? right - w : x, y + (row - h) / 2);
  pango_cairo_show_layout (cr, layout);
}

/* A row's label, cut with an ellipsis to @width. */
static void
tp_memory_chart_label (cairo_t     *cr,
                       PangoLayout *layout,
                       const char  *text,
                       double       x,
                       double       y,
                       double       width,
                       double       row)
{
  pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  tp_memory_chart_text (cr, layout, text, x, y, 0, row);
  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
}

/* Where @value sits up the curve's band: the engine's axis
 * (tp_session_memory_chart, placed by tp_chart_y), 0 when it cannot be
 * plotted. */
static double
tp_memory_chart_up (TpMemoryChart *self,
                    double         value)
{
  double at = self->teaching->has_chart ? tp_chart_y (&self->teaching->memory_chart, value) : (double) NAN;

  return isfinite (at) ? CLAMP (at, 0.0, 1.0) : 0.0;
}

/* The live-volume curve in its band, from @top, on the engine's axes:
 * one point per step, or the largest of each pixel's steps when they are
 * more than the pixels; the vertical axis' labelled ticks in the counts'
 * column (the top one alone in a short band), the horizontal one's
 * marks along the base.  Its label goes over it in a tall band, in the
 * labels' column (cut to fit) in a short one. */
static void
tp_memory_chart_draw_curve (TpMemoryChart *self,
                            cairo_t       *cr,
                            PangoLayout   *layout,
                            const GdkRGBA *fg,
                            int            width,
                            double         top)
{
  TpReadings *r = self->readings;
  TpTeaching *t = self->teaching;
  const TpChart *chart = &t->memory_chart;
  guint n = tp_memory_chart_n_steps (self);
  double band = tp_memory_chart_curve_height (self);
  gboolean tall = band >= 2.5 * self->row_height;
  double x0, sw, base = top + band - (tall ? 8 : 4), span = band - (tall ? 24 : 10);
  g_autofree char *label = NULL;
  g_autofree char *name = NULL;
  g_autofree char *peak = NULL;
  guint pixels;

  tp_memory_chart_columns (self, width, &x0, &sw);
  pixels = (guint) MAX ((width - (self->row_height * LABEL_ROWS) - (self->row_height * COUNT_ROWS) - MARGIN), 1);
  cairo_move_to (cr, x0, base);
  for (guint p = 0, groups = MIN (n, pixels); p < groups; p++)
    {
      guint k = (guint) ((guint64) p * n / groups);
      guint end = (guint) ((guint64) (p + 1) * n / groups);
      guint64 most = 0;

      for (guint j = k; j < end; j++)
        most = MAX (most, t->steps[j].live);
      cairo_line_to (cr, x0 + k * sw, base - span * tp_memory_chart_up (self, (double) most));
      cairo_line_to (cr, x0 + end * sw, base - span * tp_memory_chart_up (self, (double) most));
    }
  cairo_line_to (cr, x0 + n * sw, base);
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.25);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 1.0);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);

  /* the axes' ticks, as the engine labels them */
  tp_memory_chart_set_color (cr, fg, 0.55);
  cairo_set_line_width (cr, 1);
  for (size_t i = 0; t->has_chart && i < chart->n_x_ticks; i++)
    {
      double x = x0 + (chart->x_ticks[i].value + 0.5) * sw;

      cairo_move_to (cr, x, base);
      cairo_line_to (cr, x, base + 3);
      cairo_stroke (cr);
    }
  for (size_t i = 0; t->has_chart && i < chart->n_y_ticks; i++)
    {
      double y = base - span * CLAMP (chart->y_ticks[i].at, 0.0, 1.0);

      if (!tall && i + 1 < chart->n_y_ticks)
        continue;
      tp_memory_chart_set_color (cr, fg, 0.55);
      cairo_move_to (cr, x0 + n * sw, y);
      cairo_line_to (cr, x0 + n * sw + 4, y);
      cairo_stroke (cr);
      tp_memory_chart_text (cr, layout, chart->y_ticks[i].label, 0, y - self->row_height / 2,
                            width - MARGIN, self->row_height);
    }

  /* the peak (tp_session_memory_peak) */
  if (!t->has_peak)
    return;
  cairo_arc (cr, x0 + (t->peak_step + 0.5) * sw, base - span * tp_memory_chart_up (self, (double) t->peak_elements),
             3.5, 0, 2 * G_PI);
  cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
  cairo_fill (cr);
  name = tp_memory_chart_dup_label (r, t->peak_node);
  peak = tp_grouped_number_dup (t->peak_elements);
  /* Translators: over the memory chart's curve: the most elements live at
   * once, and the buffer (a name, "grad w" or "node 9") whose step it is */
  label = g_strdup_printf (_("live volume: peak %s elements at %s"), peak, name);
  tp_memory_chart_set_color (cr, fg, 1.0);
  if (tall)
    tp_memory_chart_text (cr, layout, label, x0, top, 0, self->row_height);
  else
    tp_memory_chart_label (cr, layout, label, MARGIN, top + (band - self->row_height) / 2, x0 - 2 * MARGIN,
                           self->row_height);
}

void
tp_memory_chart_draw (TpMemoryChart *self,
                      cairo_t       *cr,
                      int            width,
                      double         top,
                      double         height)
{
  TpReadings *r = self->readings;
  guint n = tp_memory_chart_n_steps (self);
  g_autoptr(PangoLayout) layout = NULL;
  const TpPalette *palette = tp_style_get_palette (tp_style_is_dark (GTK_WIDGET (self)));
  GdkRGBA fg, selected;
  double x0, sw;
  guint first, last;

  g_return_if_fail (TP_IS_MEMORY_CHART (self));

  if (n == 0)
    return;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  tp_style_get_foreground (GTK_WIDGET (self), &fg);
  if (!gdk_rgba_parse (&selected, palette->selected))
    selected = (GdkRGBA) { 0.96f, 0.62f, 0.04f, 0.35f };
  tp_memory_chart_columns (self, width, &x0, &sw);

  /* the rows in sight, under the pinned curve */
  first = (guint) MAX (0.0, top / self->row_height);
  last = (guint) MIN ((double) n, (top + height - tp_memory_chart_curve_height (self)) / self->row_height + 1);
  for (guint k = first; k < last; k++)
    {
      const TpStep *s = &self->teaching->steps[k];
      double y = tp_memory_chart_curve_height (self) + k * self->row_height;
      g_autofree char *elements = tp_grouped_number_dup (s->elements);

      if ((int) k == self->highlighted)
        {
          gdk_cairo_set_source_rgba (cr, &selected);
          cairo_rectangle (cr, 0, y, width, self->row_height);
          cairo_fill (cr);
        }
      if (s->gradient)
        cairo_set_source_rgba (cr, 0.90, 0.38, 0.0, s->kept ? 1.0 : 0.75);
      else
        cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, s->kept ? 1.0 : 0.75);
      cairo_rectangle (cr, x0 + k * sw, y + 4, MAX ((s->last + 1.0 - k) * sw, 1.0), self->row_height - 8);
      cairo_fill (cr);
      tp_memory_chart_set_color (cr, &fg, 1.0);
      {
        g_autofree char *label = tp_memory_chart_dup_label (r, s->node);

        tp_memory_chart_label (cr, layout, label, MARGIN, y, x0 - 2 * MARGIN, self->row_height);
      }
      if (s->kept)
        {
          /* Translators: a memory chart row's count of a buffer kept to
           * the end: its elements, grouped ("1,024") */
          g_autofree char *count = g_strdup_printf (_("%s kept"), elements);
          tp_memory_chart_text (cr, layout, count, 0, y, width - MARGIN, self->row_height);
        }
      else
        tp_memory_chart_text (cr, layout, elements, 0, y, width - MARGIN, self->row_height);
    }

  /* the curve's band covers the rows scrolled under it */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  {
    GdkRGBA bg;

    if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (self)),
                                         "view_bg_color", &bg))
      bg = tp_style_is_dark (GTK_WIDGET (self)) ? (GdkRGBA) { 0.12f, 0.12f, 0.12f, 1 } : (GdkRGBA) { 1, 1, 1, 1 };
    gdk_cairo_set_source_rgba (cr, &bg);
  }
  G_GNUC_END_IGNORE_DEPRECATIONS
  cairo_rectangle (cr, 0, top, width, tp_memory_chart_curve_height (self));
  cairo_fill (cr);
  tp_memory_chart_draw_curve (self, cr, layout, &fg, width, top);

  /* the step-through's cursor, across the curve and the rows */
  if (self->cursor >= 0)
    {
      cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x0 + (self->cursor + 0.5) * sw, top);
      cairo_line_to (cr, x0 + (self->cursor + 0.5) * sw, top + height);
      cairo_stroke (cr);
    }
}

static void
tp_memory_chart_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  TpMemoryChart *self = TP_MEMORY_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double top = tp_memory_chart_scroll (self);
  double page = self->vadjustment != NULL ? gtk_adjustment_get_page_size (self->vadjustment) : height;
  cairo_t *cr;

  if (width <= 0 || height <= 0 || tp_memory_chart_n_steps (self) == 0)
    return;
  page = MIN (page, height - top);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, (float) top, (float) width, (float) page));
  tp_memory_chart_draw (self, cr, width, top, page);
  if (gtk_widget_has_visible_focus (widget))
    {
      GdkRGBA fg;

      tp_style_get_foreground (widget, &fg);
      tp_memory_chart_set_color (cr, &fg, 0.6);
      cairo_set_line_width (cr, 2);
      cairo_rectangle (cr, 1, top + 1, width - 2, page - 2);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

static void
tp_memory_chart_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  TpMemoryChart *self = TP_MEMORY_CHART (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = (int) ((self->row_height * LABEL_ROWS) + (self->row_height * COUNT_ROWS) + 120);
  else
    /* room for the tallest band: a shorter one leaves a margin */
    *minimum = *natural = (int) (self->row_height * CURVE_ROWS + tp_memory_chart_n_steps (self) * self->row_height + MARGIN);
}

/* The step under a point: a row, or in the curve's band the column. */
static int
tp_memory_chart_step_at (TpMemoryChart *self,
                         double         x,
                         double         y)
{
  guint n = tp_memory_chart_n_steps (self);
  double x0, sw;
  int k;

  tp_memory_chart_columns (self, gtk_widget_get_width (GTK_WIDGET (self)), &x0, &sw);
  if (y < tp_memory_chart_scroll (self) + tp_memory_chart_curve_height (self))
    k = x < x0 ? -1 : (int) ((x - x0) / sw);
  else
    k = (int) ((y - tp_memory_chart_curve_height (self)) / self->row_height);
  return k >= 0 && (guint) k < n ? k : -1;
}

static void
tp_memory_chart_select_step (TpMemoryChart *self,
                             int            step)
{
  if (step < 0 || (guint) step >= tp_memory_chart_n_steps (self) || self->document == NULL)
    return;
  tp_document_set_selected_node (self->document, (int) self->teaching->steps[step].node);
}

static void
tp_memory_chart_pressed_cb (GtkGestureClick *gesture,
                            int              n_press,
                            double           x,
                            double           y,
                            TpMemoryChart   *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  tp_memory_chart_select_step (self, tp_memory_chart_step_at (self, x, y));
}

static gboolean
tp_memory_chart_key_cb (GtkEventControllerKey *controller,
                        guint                  keyval,
                        guint                  keycode,
                        GdkModifierType        state,
                        TpMemoryChart         *self)
{
  int n = (int) tp_memory_chart_n_steps (self);
  int at = self->highlighted;

  if (n == 0 || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up:
      at = at <= 0 ? 0 : at - 1;
      break;
    case GDK_KEY_Down:
      at = at < 0 ? 0 : MIN (at + 1, n - 1);
      break;
    case GDK_KEY_Home:
      at = 0;
      break;
    case GDK_KEY_End:
      at = n - 1;
      break;
    default:
      return FALSE;
    }
  tp_memory_chart_select_step (self, at);
  return TRUE;
}

static gboolean
tp_memory_chart_tooltip_cb (GtkWidget     *widget,
                            int            x,
                            int            y,
                            gboolean       keyboard,
                            GtkTooltip    *tooltip,
                            TpMemoryChart *self)
{
  int k = keyboard ? self->highlighted : tp_memory_chart_step_at (self, x, y);
  const TpStep *s;
  g_autofree char *name = NULL;
  g_autofree char *elements = NULL;
  g_autofree char *text = NULL;

  if (k < 0)
    return FALSE;
  s = &self->teaching->steps[k];
  name = tp_memory_chart_dup_label (self->readings, s->node);
  elements = tp_grouped_number_dup (s->elements);
  /* Translators: a memory chart bar's tooltip, under the engine's
   * sentence of its step: the buffer's name (a statement's, or "grad w",
   * or "node 9"), its elements (grouped: "1,024") and the last step it
   * is held, counted from 1 as the sentence counts */
  text = g_strdup_printf (_("%s\n%s: %s elements, held to step %u"),
                          self->teaching->step_texts[k] != NULL ? self->teaching->step_texts[k] : "",
                          name, elements, s->last + 1);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* A row is a line of the widget's text and a margin, so the chart grows
 * with the text (presenting makes every text half as large again). */
static void
tp_memory_chart_css_changed (GtkWidget         *widget,
                             GtkCssStyleChange *change)
{
  TpMemoryChart *self = TP_MEMORY_CHART (widget);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, "node 0");
  int w, h;

  GTK_WIDGET_CLASS (tp_memory_chart_parent_class)->css_changed (widget, change);
  pango_layout_get_pixel_size (layout, &w, &h);
  self->row_height = MAX (20.0, h + 6.0);
  gtk_widget_queue_resize (widget);
}

/* Inside a scrolled window the chart draws what is in sight and keeps
 * the curve above it: it follows the window's vertical scrolling. */
static void
tp_memory_chart_root (GtkWidget *widget)
{
  TpMemoryChart *self = TP_MEMORY_CHART (widget);
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);

  GTK_WIDGET_CLASS (tp_memory_chart_parent_class)->root (widget);
  if (scrolled != NULL && self->vadjustment == NULL)
    {
      self->vadjustment = g_object_ref (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)));
      g_signal_connect_object (self->vadjustment, "value-changed",
                               G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
      /* the curve's band follows the height in sight */
      g_signal_connect_object (self->vadjustment, "notify::page-size",
                               G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
    }
}

void
tp_memory_chart_set_document (TpMemoryChart *self,
                              TpDocument    *document)
{
  g_return_if_fail (TP_IS_MEMORY_CHART (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_memory_chart_readings_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::teaching",
                               G_CALLBACK (tp_memory_chart_readings_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::selected-node",
                               G_CALLBACK (tp_memory_chart_selection_cb), self, G_CONNECT_SWAPPED);
    }
  tp_memory_chart_readings_cb (self);
}

void
tp_memory_chart_set_cursor (TpMemoryChart *self,
                            int            step)
{
  g_return_if_fail (TP_IS_MEMORY_CHART (self));

  if (step >= (int) tp_memory_chart_n_steps (self))
    step = -1;
  if (self->cursor == MAX (step, -1))
    return;
  self->cursor = MAX (step, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
tp_memory_chart_get_cursor (TpMemoryChart *self)
{
  g_return_val_if_fail (TP_IS_MEMORY_CHART (self), -1);

  return self->cursor;
}

int
tp_memory_chart_get_highlighted (TpMemoryChart *self)
{
  g_return_val_if_fail (TP_IS_MEMORY_CHART (self), -1);

  return self->highlighted;
}

gboolean
tp_memory_chart_get_bar (TpMemoryChart   *self,
                         guint            step,
                         graphene_rect_t *bar)
{
  const TpStep *s;
  double x0, sw;

  g_return_val_if_fail (TP_IS_MEMORY_CHART (self), FALSE);

  if (step >= tp_memory_chart_n_steps (self))
    return FALSE;
  s = &self->teaching->steps[step];
  tp_memory_chart_columns (self, gtk_widget_get_width (GTK_WIDGET (self)), &x0, &sw);
  graphene_rect_init (bar, (float) (x0 + step * sw), (float) (tp_memory_chart_curve_height (self) + step * self->row_height + 4),
                      (float) MAX ((s->last + 1.0 - step) * sw, 1.0), (float) (self->row_height - 8));
  return TRUE;
}

guint
tp_memory_chart_get_n_bars_shown (TpMemoryChart *self)
{
  double top, bottom;
  guint n = 0;

  g_return_val_if_fail (TP_IS_MEMORY_CHART (self), 0);

  top = tp_memory_chart_scroll (self) + tp_memory_chart_curve_height (self);
  bottom = tp_memory_chart_scroll (self) + (self->vadjustment != NULL ? gtk_adjustment_get_page_size (self->vadjustment)
                                                                    : gtk_widget_get_height (GTK_WIDGET (self)));
  for (guint k = 0; k < tp_memory_chart_n_steps (self); k++)
    {
      graphene_rect_t bar;

      if (tp_memory_chart_get_bar (self, k, &bar) && (double) bar.origin.y >= top && (double) (bar.origin.y + bar.size.height) <= bottom)
        n++;
    }
  return n;
}

char *
tp_memory_chart_dup_bar_label (TpMemoryChart *self,
                               guint          step)
{
  g_return_val_if_fail (TP_IS_MEMORY_CHART (self), NULL);

  if (step >= tp_memory_chart_n_steps (self))
    return NULL;
  return tp_memory_chart_dup_label (self->readings, self->teaching->steps[step].node);
}

GtkWidget *
tp_memory_chart_new (void)
{
  return g_object_new (TP_TYPE_MEMORY_CHART, NULL);
}

static void
tp_memory_chart_dispose (GObject *object)
{
  TpMemoryChart *self = TP_MEMORY_CHART (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->readings, tp_readings_unref);
  G_OBJECT_CLASS (tp_memory_chart_parent_class)->dispose (object);
}

static void
tp_memory_chart_class_init (TpMemoryChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_memory_chart_dispose;
  widget_class->snapshot = tp_memory_chart_snapshot;
  widget_class->measure = tp_memory_chart_measure;
  widget_class->root = tp_memory_chart_root;
  widget_class->css_changed = tp_memory_chart_css_changed;
  gtk_widget_class_set_css_name (widget_class, "memory-chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tp_memory_chart_init (TpMemoryChart *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->cursor = -1;
  self->highlighted = -1;
  self->row_height = 20.0;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (click, "pressed", G_CALLBACK (tp_memory_chart_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (keys, "key-pressed", G_CALLBACK (tp_memory_chart_key_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (tp_memory_chart_tooltip_cb), self);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Memory chart"), -1);
  tp_memory_chart_update_description (self);
}
