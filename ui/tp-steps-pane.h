/* tp-steps-pane.h: the Steps pane: a scrubber over the plan's schedule.
 * Each step's node is selected in every pane, the picture styles its
 * nodes by their state after the step, and the pane shows the engine's
 * sentence of the step (what it computes, the share a gradient step
 * adds) and the node's value. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_STEPS_PANE (tp_steps_pane_get_type ())

G_DECLARE_FINAL_TYPE (TpStepsPane, tp_steps_pane, TP, STEPS_PANE, GtkWidget)

void      tp_steps_pane_set_document (TpStepsPane   *self,
                                      TpDocument    *document);
/* The picture whose nodes the step-through styles by state. */
void      tp_steps_pane_set_picture  (TpStepsPane   *self,
                                      TpPictureView *picture);
/* The step shown, -1 for none (the "step" property). */
int       tp_steps_pane_get_step     (TpStepsPane   *self);
void      tp_steps_pane_set_step     (TpStepsPane   *self,
                                      int            step);
/* Shows the first step when none is shown yet. */
void      tp_steps_pane_start        (TpStepsPane   *self);
gboolean  tp_steps_pane_get_playing  (TpStepsPane   *self);
GtkRange *tp_steps_pane_get_scrubber (TpStepsPane   *self);
GtkLabel *tp_steps_pane_get_step_label  (TpStepsPane *self);
GtkLabel *tp_steps_pane_get_value_label (TpStepsPane *self);
GtkLabel *tp_steps_pane_get_reason      (TpStepsPane *self);

G_END_DECLS
