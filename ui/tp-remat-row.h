/* tp-remat-row.h: the Memory pane's row of rematerialisation: a toggle
 * per statement the engine can rematerialise, "Auto", and the engine's
 * sentence (its remat facts, asked for while the row is shown). */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_REMAT_ROW (tp_remat_row_get_type ())

G_DECLARE_FINAL_TYPE (TpRematRow, tp_remat_row, TP, REMAT_ROW, GtkWidget)

GtkWidget       *tp_remat_row_new          (void);
void             tp_remat_row_set_document (TpRematRow  *self,
                                            TpDocument  *document);

/* For tests: what a person reads and uses. */
GtkToggleButton *tp_remat_row_get_auto     (TpRematRow  *self);
/* The toggle of statement @name, or NULL. */
GtkToggleButton *tp_remat_row_get_toggle   (TpRematRow  *self,
                                            const char  *name);
guint            tp_remat_row_get_n_toggles (TpRematRow *self);
GtkLabel        *tp_remat_row_get_sentence (TpRematRow  *self);
/* Whether the row shows the facts of the readings on screen. */
gboolean         tp_remat_row_get_current  (TpRematRow  *self);

G_END_DECLS
