/* tp-loss-chart.h: a training's loss curve, drawn with cairo from
 * tp_train_losses, on a log scale when every value is positive and they
 * span more than two decades (the rule of the engine's SVG), with a
 * marker at the step being looked at. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TP_TYPE_LOSS_CHART (tp_loss_chart_get_type ())

G_DECLARE_FINAL_TYPE (TpLossChart, tp_loss_chart, TP, LOSS_CHART, GtkWidget)

GtkWidget   *tp_loss_chart_new        (void);
/* Copies @n values; NULL (0) clears the curve. */
void         tp_loss_chart_set_losses (TpLossChart *self,
                                       const float *losses,
                                       gsize        n);
const float *tp_loss_chart_get_losses (TpLossChart *self,
                                       gsize       *n);
gboolean     tp_loss_chart_get_log_scale (TpLossChart *self);
/* The step marked, -1 for none. */
void         tp_loss_chart_set_cursor (TpLossChart *self,
                                       int          step);

G_END_DECLS
