/* tp-train-pane.h: the Train pane: gradient descent on the program's
 * parameters, run off the main thread, its loss curve, and a look at
 * the loss and the parameters after any step. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_TRAIN_PANE (tp_train_pane_get_type ())

G_DECLARE_FINAL_TYPE (TpTrainPane, tp_train_pane, TP, TRAIN_PANE, GtkWidget)

void           tp_train_pane_set_document    (TpTrainPane *self,
                                              TpDocument  *document);
/* The control that takes the keyboard when the pane is shown. */
GtkWidget     *tp_train_pane_get_focus_widget (TpTrainPane *self);
/* Busy while a training (or a look at a step) runs off the main thread.
 * Apply writes the parameters after the step looked at into the program
 * (tp_train_apply), one undoable edit. */
gboolean       tp_train_pane_get_training    (TpTrainPane *self);
GtkLabel      *tp_train_pane_get_at          (TpTrainPane *self);
GtkSpinButton *tp_train_pane_get_steps       (TpTrainPane *self);
GtkEditable   *tp_train_pane_get_rate        (TpTrainPane *self);
GtkButton     *tp_train_pane_get_run         (TpTrainPane *self);
GtkButton     *tp_train_pane_get_reset       (TpTrainPane *self);
GtkButton     *tp_train_pane_get_apply       (TpTrainPane *self);
int            tp_train_pane_get_look        (TpTrainPane *self);
GtkWidget     *tp_train_pane_get_loss_chart  (TpTrainPane *self);
GtkLabel      *tp_train_pane_get_message     (TpTrainPane *self);
GtkLabel      *tp_train_pane_get_parameters  (TpTrainPane *self);
GtkRange      *tp_train_pane_get_scrubber    (TpTrainPane *self);
GtkButton     *tp_train_pane_get_stop_button (TpTrainPane *self);

G_END_DECLS
