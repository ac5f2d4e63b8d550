/* tp-loss-chart.h: a training's loss curve, drawn with cairo from
 * tp_train_losses on the engine's axes (tp_train_chart: range, log or
 * linear, labelled ticks), with a marker at the step being looked at; a
 * click on it picks a step ("step-picked"). */
#pragma once

#include <gtk/gtk.h>

#include "tp-engine.h"

G_BEGIN_DECLS

#define TP_TYPE_LOSS_CHART (tp_loss_chart_get_type ())

G_DECLARE_FINAL_TYPE (TpLossChart, tp_loss_chart, TP, LOSS_CHART, GtkWidget)

GtkWidget     *tp_loss_chart_new          (void);
/* Copies @n values and @chart; NULL clears the curve. */
void           tp_loss_chart_set_training (TpLossChart   *self,
                                           const float   *losses,
                                           gsize          n,
                                           const TpChart *chart);
const float   *tp_loss_chart_get_losses   (TpLossChart   *self,
                                           gsize         *n);
const TpChart *tp_loss_chart_get_chart    (TpLossChart   *self);
gboolean       tp_loss_chart_get_log_scale (TpLossChart  *self);
/* The step marked, -1 for none. */
void           tp_loss_chart_set_cursor   (TpLossChart   *self,
                                           int            step);
int            tp_loss_chart_step_at      (TpLossChart   *self,
                                           double         x);
double         tp_loss_chart_get_step_x   (TpLossChart   *self,
                                           guint          k);

G_END_DECLS
