/* tp-teach-panel.h: the teaching panes under the readings: the selected
 * node's sentence, then Check (the gradient check's verdict and
 * reading), Memory (the chart), Steps (a scrubber over the plan's
 * schedule), Train (gradient descent and its loss curve), and the
 * compiler's passes: Optimised, Fusion and Forward (tp-pass-pane.h).  Everything
 * shown is the engine's, copied into the document's readings or returned
 * by a training run off the main thread. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_TEACH_PANEL (tp_teach_panel_get_type ())

G_DECLARE_FINAL_TYPE (TpTeachPanel, tp_teach_panel, TP, TEACH_PANEL, GtkWidget)

typedef enum
{
  TP_TEACH_CHECK,
  TP_TEACH_MEMORY,
  TP_TEACH_STEPS,
  TP_TEACH_TRAIN,
  TP_TEACH_OPTIMIZED,           /* the compiler's passes (tp-pass-pane.h) */
  TP_TEACH_FUSION,
  TP_TEACH_FORWARD,
  TP_N_TEACH
} TpTeachPage;

GtkWidget  *tp_teach_panel_new            (void);
void        tp_teach_panel_set_document   (TpTeachPanel  *self,
                                           TpDocument    *document);
/* The picture whose nodes the step-through styles by state. */
void        tp_teach_panel_set_picture    (TpTeachPanel  *self,
                                           TpPictureView *picture);
/* Shows @page and gives its main control the keyboard focus. */
void        tp_teach_panel_show           (TpTeachPanel  *self,
                                           TpTeachPage    page);
gboolean    tp_teach_page_from_id         (const char    *id,
                                           TpTeachPage   *page);
TpTeachPage tp_teach_panel_get_page       (TpTeachPanel  *self);

/* For tests: the parts a person reads and uses. */
GtkLabel   *tp_teach_panel_get_explanation_label (TpTeachPanel *self);
/* The Memory pane's rematerialisation row. */
struct _TpRematRow *tp_teach_panel_get_remat_row (TpTeachPanel *self);
/* The pass pane of @page (TP_TEACH_OPTIMIZED .. TP_TEACH_FORWARD). */
struct _TpPassPane *tp_teach_panel_get_pass_pane (TpTeachPanel *self,
                                                  TpTeachPage   page);
GtkLabel   *tp_teach_panel_get_verdict_label     (TpTeachPanel *self);
GtkButton  *tp_teach_panel_get_nonfinite_button  (TpTeachPanel *self);
GtkTextView *tp_teach_panel_get_check_view       (TpTeachPanel *self);
GtkWidget  *tp_teach_panel_get_memory_chart      (TpTeachPanel *self);
GtkRange   *tp_teach_panel_get_scrubber          (TpTeachPanel *self);
int         tp_teach_panel_get_step              (TpTeachPanel *self);
void        tp_teach_panel_set_step              (TpTeachPanel *self,
                                                  int           step);
gboolean    tp_teach_panel_get_playing           (TpTeachPanel *self);
GtkLabel   *tp_teach_panel_get_step_label        (TpTeachPanel *self);
GtkLabel   *tp_teach_panel_get_value_label       (TpTeachPanel *self);
GtkLabel   *tp_teach_panel_get_steps_reason      (TpTeachPanel *self);
GtkLabel   *tp_teach_panel_get_train_at          (TpTeachPanel *self);
GtkSpinButton *tp_teach_panel_get_train_steps    (TpTeachPanel *self);
GtkEditable *tp_teach_panel_get_train_rate       (TpTeachPanel *self);
GtkButton  *tp_teach_panel_get_train_run         (TpTeachPanel *self);
GtkButton  *tp_teach_panel_get_train_reset       (TpTeachPanel *self);
GtkButton  *tp_teach_panel_get_train_apply       (TpTeachPanel *self);
GtkWidget  *tp_teach_panel_get_loss_chart        (TpTeachPanel *self);
GtkLabel   *tp_teach_panel_get_train_message     (TpTeachPanel *self);
GtkLabel   *tp_teach_panel_get_train_parameters  (TpTeachPanel *self);
GtkRange   *tp_teach_panel_get_train_scrubber    (TpTeachPanel *self);
GtkButton  *tp_teach_panel_get_train_stop_button (TpTeachPanel *self);
/* Busy while a training (or a look at a step) runs off the main thread. */
gboolean    tp_teach_panel_get_training          (TpTeachPanel *self);

G_END_DECLS
