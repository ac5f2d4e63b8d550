/* tp-check-pane.h: the Check pane: the gradient check's verdict (the
 * engine's check summary) over the check reading, and the button that
 * selects the node where a non-finite value is born. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_CHECK_PANE (tp_check_pane_get_type ())

G_DECLARE_FINAL_TYPE (TpCheckPane, tp_check_pane, TP, CHECK_PANE, GtkWidget)

void         tp_check_pane_set_document        (TpCheckPane *self,
                                                TpDocument  *document);
/* The control that takes the keyboard when the pane is shown. */
GtkWidget   *tp_check_pane_get_focus_widget    (TpCheckPane *self);
GtkLabel    *tp_check_pane_get_verdict_label   (TpCheckPane *self);
GtkButton   *tp_check_pane_get_nonfinite_button (TpCheckPane *self);
GtkTextView *tp_check_pane_get_view            (TpCheckPane *self);

G_END_DECLS
