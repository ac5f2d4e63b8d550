/* tp-loss-chart.c: the loss curve of a training, drawn with cairo on the
 * axes the engine gives (tp_train_chart): the range, the scale (log or
 * linear), the labelled ticks and the titles are the engine's, a value
 * is placed by tp_chart_y, and a click maps back to a step along the
 * same axis. */
#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "tp-loss-chart.h"
#include "tp-style.h"
#include "tp-teaching.h"

#define PAD_RIGHT 16.0
#define PAD_TOP 22.0
#define PAD_BOTTOM 30.0

struct _TpLossChart
{
  GtkWidget parent_instance;

  float *losses;
  gsize n_losses;
  TpChart chart;                /* a copy of the engine's */
  gboolean has_chart;
  int cursor;
};

G_DEFINE_FINAL_TYPE (TpLossChart, tp_loss_chart, GTK_TYPE_WIDGET)

enum {
  STEP_PICKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  return w;
}

/* The plot's rectangle: room on the left for the vertical axis' widest
 * label. */
static void
tp_loss_chart_plot (TpLossChart *self,
                    PangoLayout *layout,
                    double      *left,
                    double      *width,
                    double      *height)
{
  double widest = 0;

  for (size_t i = 0; self->has_chart && i < self->chart.n_y_ticks; i++)
    widest = MAX (widest, tp_loss_chart_text_width (layout, self->chart.y_ticks[i].label));
  *left = 10 + widest;
  *width = gtk_widget_get_width (GTK_WIDGET (self)) - *left - PAD_RIGHT;
  *height = gtk_widget_get_height (GTK_WIDGET (self)) - PAD_TOP - PAD_BOTTOM;
}

/* Where step @k sits across the plot, 0 to 1, on the engine's axis. */
static double
tp_loss_chart_x (TpLossChart *self,
                 double       k)
{
  double span = self->chart.x_high - self->chart.x_low;

  return span > 0 ? (k - self->chart.x_low) / span : 0.5;
}

static void
tp_loss_chart_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  TpLossChart *self = TP_LOSS_CHART (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  double left, pw, ph;
  gboolean pen = FALSE;
  GdkRGBA fg;
  cairo_t *cr;

  if (self->n_losses == 0 || !self->has_chart)
    return;
  tp_loss_chart_plot (self, layout, &left, &pw, &ph);
  if (pw <= 0 || ph <= 0)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, (float) width, (float) height));
  tp_style_get_foreground (widget, &fg);

  /* the axes, the ticks and their labels, the titles */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.5);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, left, PAD_TOP);
  cairo_line_to (cr, left, PAD_TOP + ph);
  cairo_line_to (cr, left + pw, PAD_TOP + ph);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.15);
  for (size_t i = 0; i < self->chart.n_y_ticks; i++)
    {
      double y = PAD_TOP + ph * (1 - self->chart.y_ticks[i].at);

      cairo_move_to (cr, left, y);
      cairo_line_to (cr, left + pw, y);
      cairo_stroke (cr);
    }
  gdk_cairo_set_source_rgba (cr, &fg);
  for (size_t i = 0; i < self->chart.n_y_ticks; i++)
    tp_loss_chart_label (cr, layout, self->chart.y_ticks[i].label, left - 5,
                         PAD_TOP + ph * (1 - self->chart.y_ticks[i].at), 1.0);
  for (size_t i = 0; i < self->chart.n_x_ticks; i++)
    {
      double at = self->chart.x_ticks[i].at;

      tp_loss_chart_label (cr, layout, self->chart.x_ticks[i].label, left + pw * at,
                           PAD_TOP + ph + PAD_BOTTOM / 2, at <= 0 ? 0.0 : at >= 1 ? 1.0 : 0.5);
    }
  if (self->chart.y_title != NULL)
    tp_loss_chart_label (cr, layout, self->chart.y_title, left, PAD_TOP / 2, 0.0);

  /* the curve: a gap at each value the chart cannot plot */
  cairo_set_source_rgb (cr, 0.21, 0.52, 0.89);
  cairo_set_line_width (cr, 2);
  for (gsize i = 0; i < self->n_losses; i++)
    {
      double up = tp_chart_y (&self->chart, (double) self->losses[i]);
      double x = left + pw * tp_loss_chart_x (self, (double) i);
      double y;

      if (!isfinite (up))
        {
          pen = FALSE;
          continue;
        }
      y = PAD_TOP + ph * (1 - up);
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
      double x = left + pw * tp_loss_chart_x (self, self->cursor);
      double up = tp_chart_y (&self->chart, (double) self->losses[self->cursor]);

      cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
      cairo_move_to (cr, x, PAD_TOP);
      cairo_line_to (cr, x, PAD_TOP + ph);
      cairo_stroke (cr);
      if (isfinite (up))
        {
          cairo_arc (cr, x, PAD_TOP + ph * (1 - up), 4, 0, 2 * G_PI);
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
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 80;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 480 : 160;
}

/* The step a point across the plot stands for, on the engine's axis
 * (rounded, within the steps trained); -1 for none. */
int
tp_loss_chart_step_at (TpLossChart *self,
                       double       x)
{
  g_autoptr(PangoLayout) layout = NULL;
  double left, pw, ph, k;

  g_return_val_if_fail (TP_IS_LOSS_CHART (self), -1);

  if (self->n_losses == 0 || !self->has_chart)
    return -1;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  tp_loss_chart_plot (self, layout, &left, &pw, &ph);
  if (pw <= 0)
    return -1;
  k = self->chart.x_low + CLAMP ((x - left) / pw, 0.0, 1.0) * (self->chart.x_high - self->chart.x_low);
  return (int) CLAMP (round (k), 0.0, (double) (self->n_losses - 1));
}

/* The x of step @k across the widget (for the tests' clicks). */
double
tp_loss_chart_get_step_x (TpLossChart *self,
                          guint        k)
{
  g_autoptr(PangoLayout) layout = NULL;
  double left, pw, ph;

  g_return_val_if_fail (TP_IS_LOSS_CHART (self), 0);

  if (!self->has_chart)
    return 0;
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  tp_loss_chart_plot (self, layout, &left, &pw, &ph);
  return left + pw * tp_loss_chart_x (self, k);
}

static void
tp_loss_chart_pressed_cb (GtkGestureClick *gesture,
                          int              n_press,
                          double           x,
                          double           y,
                          TpLossChart     *self)
{
  int k = tp_loss_chart_step_at (self, x);

  if (k >= 0)
    g_signal_emit (self, signals[STEP_PICKED], 0, k);
}

void
tp_loss_chart_set_training (TpLossChart   *self,
                            const float   *losses,
                            gsize          n,
                            const TpChart *chart)
{
  g_autofree char *description = NULL;

  g_return_if_fail (TP_IS_LOSS_CHART (self));

  g_clear_pointer (&self->losses, g_free);
  if (self->has_chart)
    tp_chart_clear (&self->chart);
  self->has_chart = chart != NULL;
  if (chart != NULL)
    tp_chart_copy (&self->chart, chart);
  self->n_losses = losses != NULL && chart != NULL ? n : 0;
  self->losses = g_memdup2 (losses, sizeof (float) * self->n_losses);
  if (self->n_losses > 0)
    /* the engine's heading of the training ("trained 100 steps: loss 16
     * to 0.001") */
    description = g_strdup (self->chart.title != NULL ? self->chart.title : "");
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

  return self->has_chart && self->chart.y_log;
}

const TpChart *
tp_loss_chart_get_chart (TpLossChart *self)
{
  g_return_val_if_fail (TP_IS_LOSS_CHART (self), NULL);

  return self->has_chart ? &self->chart : NULL;
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
  if (self->has_chart)
    tp_chart_clear (&self->chart);
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
  /* a click on the curve picks the step under it */
  signals[STEP_PICKED] =
    g_signal_new ("step-picked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_INT);
  gtk_widget_class_set_css_name (widget_class, "loss-chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tp_loss_chart_init (TpLossChart *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->cursor = -1;
  g_signal_connect (click, "pressed", G_CALLBACK (tp_loss_chart_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Loss curve"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No training yet"), -1);
}
