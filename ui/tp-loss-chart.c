/* tp-loss-chart.c: the loss curve of a training, drawn with cairo. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tp-engine.h"
#include "tp-loss-chart.h"
#include "tp-style.h"

#define PAD_RIGHT 16.0
#define PAD_TOP 12.0
#define PAD_BOTTOM 28.0

struct _TpLossChart
{
  GtkWidget parent_instance;

  float *losses;
  gsize n_losses;
  int cursor;
  double lo;                    /* the axis' ends, in axis units */
  double hi;
  float lo_value;               /* the smallest and largest finite values */
  float hi_value;
  char *hi_text;                /* they, as the readings write them */
  char *lo_text;
  guint log_scale : 1;
  guint any : 1;                /* some value is finite */
};

G_DEFINE_FINAL_TYPE (TpLossChart, tp_loss_chart, GTK_TYPE_WIDGET)

static double
tp_loss_chart_axis (TpLossChart *self,
                    float        value)
{
  return self->log_scale ? log ((double) value) : (double) value;
}

/* The scale: log when every finite value is positive and the largest is
 * over a hundred times the smallest, as the engine's SVG decides. */
static void
tp_loss_chart_scale (TpLossChart *self)
{
  self->any = FALSE;
  for (gsize i = 0; i < self->n_losses; i++)
    if (isfinite (self->losses[i]))
      {
        float v = self->losses[i];

        if (!self->any || v < self->lo_value)
          self->lo_value = v;
        if (!self->any || v > self->hi_value)
          self->hi_value = v;
        self->any = TRUE;
      }
  self->log_scale = self->any && self->lo_value > 0.0f
                    && (double) self->hi_value > 100.0 * (double) self->lo_value;
  self->lo = self->any ? tp_loss_chart_axis (self, self->lo_value) : 0;
  self->hi = self->any ? tp_loss_chart_axis (self, self->hi_value) : 0;
  if (!(self->hi > self->lo))
    {
      self->lo -= 1.0;
      self->hi += 1.0;
    }
}

static void
tp_loss_chart_label (cairo_t     *cr,
                     PangoLayout *layout,
                     const char  *text,
                     double       x,
                     double       y,
                     double       align)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - align * w, y - h / 2.0);
  pango_cairo_show_layout (cr, layout);
}

static double
tp_loss_chart_text_width (PangoLayout *layout,
                          const char  *text)
{
  int w = 0, h;

  if (text == NULL)
    return 0;
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  return w;
}

static void
tp_loss_chart_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  TpLossChart *self = TP_LOSS_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  const char *hi = self->hi_text, *lo = self->lo_text;
  double pad_left = 8 + MAX (tp_loss_chart_text_width (layout, hi), tp_loss_chart_text_width (layout, lo));
  double pw = width - pad_left - PAD_RIGHT, ph = height - PAD_TOP - PAD_BOTTOM;
  gsize last = self->n_losses > 1 ? self->n_losses - 1 : 1;
  gboolean pen = FALSE;
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  GdkRGBA fg;
  cairo_t *cr;

  if (self->n_losses == 0 || pw <= 0 || ph <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, (float) width, (float) height));
  tp_style_get_foreground (widget, &fg);

  /* the axes and their ends */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.5);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, pad_left, PAD_TOP);
  cairo_line_to (cr, pad_left, PAD_TOP + ph);
  cairo_line_to (cr, pad_left + pw, PAD_TOP + ph);
  cairo_stroke (cr);
  gdk_cairo_set_source_rgba (cr, &fg);
  if (self->any)
    {
      tp_loss_chart_label (cr, layout, hi != NULL ? hi : "", pad_left - 4, PAD_TOP, 1.0);
      tp_loss_chart_label (cr, layout, lo != NULL ? lo : "", pad_left - 4, PAD_TOP + ph, 1.0);
    }
  tp_loss_chart_label (cr, layout, "0", pad_left, PAD_TOP + ph + PAD_BOTTOM / 2, 0.0);
  g_snprintf (text, sizeof text, "%" G_GSIZE_FORMAT, self->n_losses - 1);
  tp_loss_chart_label (cr, layout, text, pad_left + pw, PAD_TOP + ph + PAD_BOTTOM / 2, 1.0);
  if (self->log_scale)
    tp_loss_chart_label (cr, layout, _("log scale"), pad_left + pw / 2, PAD_TOP + ph + PAD_BOTTOM / 2, 0.5);

  /* the curve: a gap at each value that is not finite */
  cairo_set_source_rgb (cr, 0.21, 0.52, 0.89);
  cairo_set_line_width (cr, 2);
  for (gsize i = 0; i < self->n_losses; i++)
    {
      double x = pad_left + pw * (double) i / (double) last;
      double y;

      if (!isfinite (self->losses[i]))
        {
          pen = FALSE;
          continue;
        }
      y = PAD_TOP + ph * (self->hi - tp_loss_chart_axis (self, self->losses[i])) / (self->hi - self->lo);
      if (pen)
        cairo_line_to (cr, x, y);
      else
        cairo_move_to (cr, x, y);
      pen = TRUE;
      if (self->n_losses == 1)
        cairo_arc (cr, x, y, 3, 0, 2 * G_PI);
    }
  cairo_stroke (cr);

  if (self->cursor >= 0 && (gsize) self->cursor < self->n_losses)
    {
      double x = pad_left + pw * self->cursor / (double) last;
      float v = self->losses[self->cursor];

      cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
      cairo_move_to (cr, x, PAD_TOP);
      cairo_line_to (cr, x, PAD_TOP + ph);
      cairo_stroke (cr);
      if (isfinite (v))
        {
          cairo_arc (cr, x, PAD_TOP + ph * (self->hi - tp_loss_chart_axis (self, v)) / (self->hi - self->lo),
                     4, 0, 2 * G_PI);
          cairo_fill (cr);
        }
    }
  cairo_destroy (cr);
}

static void
tp_loss_chart_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 60;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 480 : 160;
}

void
tp_loss_chart_set_losses (TpLossChart *self,
                          const float *losses,
                          gsize        n)
{
  g_autofree char *description = NULL;

  g_return_if_fail (TP_IS_LOSS_CHART (self));

  g_clear_pointer (&self->losses, g_free);
  g_clear_pointer (&self->hi_text, tp_string_free);
  g_clear_pointer (&self->lo_text, tp_string_free);
  self->n_losses = losses != NULL ? n : 0;
  self->losses = g_memdup2 (losses, sizeof (float) * self->n_losses);
  tp_loss_chart_scale (self);
  if (self->any)
    {
      self->hi_text = tp_f32_text (self->hi_value);
      self->lo_text = tp_f32_text (self->lo_value);
    }
  if (self->n_losses > 0 && self->any)
    {
      char *first = tp_f32_text (self->losses[0]);
      char *final = tp_f32_text (self->losses[self->n_losses - 1]);

      /* Translators: the loss chart's accessible description: the number
       * of values, the first and the last */
      description = g_strdup_printf (ngettext ("%u value, from %s to %s",
                                               "%u values, from %s to %s", self->n_losses),
                                     (guint) self->n_losses, first != NULL ? first : "", final != NULL ? final : "");
      tp_string_free (first);
      tp_string_free (final);
    }
  else
    description = g_strdup (_("No training yet"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const float *
tp_loss_chart_get_losses (TpLossChart *self,
                          gsize       *n)
{
  g_return_val_if_fail (TP_IS_LOSS_CHART (self), NULL);

  *n = self->n_losses;
  return self->losses;
}

gboolean
tp_loss_chart_get_log_scale (TpLossChart *self)
{
  g_return_val_if_fail (TP_IS_LOSS_CHART (self), FALSE);

  return self->log_scale;
}

void
tp_loss_chart_set_cursor (TpLossChart *self,
                          int          step)
{
  g_return_if_fail (TP_IS_LOSS_CHART (self));

  self->cursor = step;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GtkWidget *
tp_loss_chart_new (void)
{
  return g_object_new (TP_TYPE_LOSS_CHART, NULL);
}

static void
tp_loss_chart_finalize (GObject *object)
{
  TpLossChart *self = TP_LOSS_CHART (object);

  g_free (self->losses);
  g_clear_pointer (&self->hi_text, tp_string_free);
  g_clear_pointer (&self->lo_text, tp_string_free);
  G_OBJECT_CLASS (tp_loss_chart_parent_class)->finalize (object);
}

static void
tp_loss_chart_class_init (TpLossChartClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = tp_loss_chart_finalize;
  widget_class->snapshot = tp_loss_chart_snapshot;
  widget_class->measure = tp_loss_chart_measure;
  gtk_widget_class_set_css_name (widget_class, "loss-chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tp_loss_chart_init (TpLossChart *self)
{
  self->cursor = -1;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Loss curve"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No training yet"), -1);
}
