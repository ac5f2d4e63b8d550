/* tp-pass-pane.h: one of the compiler's pass readings in the teaching
 * panel: optimised, fusion (the engine's saving in words on top) or
 * forward (forward mode's direction picker, the tangent step of a
 * tangent node).  The reading is asked of the document only while the
 * pane is shown (tp_document_want_pass), and cross-highlights through
 * its map as the text panes do. */
#pragma once

#include <gtk/gtk.h>

#include "tp-engine.h"
#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_PASS_PANE (tp_pass_pane_get_type ())

G_DECLARE_FINAL_TYPE (TpPassPane, tp_pass_pane, TP, PASS_PANE, GtkWidget)

GtkWidget   *tp_pass_pane_new            (TpReading    which);
void         tp_pass_pane_set_document   (TpPassPane  *self,
                                          TpDocument  *document);
TpReading    tp_pass_pane_get_reading    (TpPassPane  *self);
GtkWidget   *tp_pass_pane_get_focus_widget (TpPassPane *self);

/* For tests: what a person reads and uses. */
GtkTextView *tp_pass_pane_get_view       (TpPassPane  *self);
char        *tp_pass_pane_dup_text       (TpPassPane  *self);
GtkLabel    *tp_pass_pane_get_sentence   (TpPassPane  *self);
GtkDropDown *tp_pass_pane_get_direction  (TpPassPane  *self);
GtkLabel    *tp_pass_pane_get_note       (TpPassPane  *self);
GtkLabel    *tp_pass_pane_get_tangent    (TpPassPane  *self);
/* For tests: the tangent step-through's buttons, @how 0 first, 1
 * previous, 2 next, 3 last. */
GtkWidget   *tp_pass_pane_get_walk       (TpPassPane  *self,
                                          guint        how);
/* The index picker of axis @axis, or NULL. */
GtkSpinButton *tp_pass_pane_get_index    (TpPassPane  *self,
                                          guint        axis);
/* Whether the pane shows the pass reading of the readings on screen. */
gboolean     tp_pass_pane_get_current    (TpPassPane  *self);

G_END_DECLS
