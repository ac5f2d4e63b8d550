/* tp-text-pane.h: one read-only reading (spec, derivative, plan,
 * StableHLO or values), monospace, selectable, with its title. */
#pragma once

/* gettext's marks for tp-text-pane.c too, whose includes are left alone
 * while its parsing code changes */
#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_TEXT_PANE (tp_text_pane_get_type ())

G_DECLARE_FINAL_TYPE (TpTextPane, tp_text_pane, TP, TEXT_PANE, GtkWidget)

GtkWidget     *tp_text_pane_new          (TpPane       pane);
TpPane         tp_text_pane_get_pane     (TpTextPane  *self);
void           tp_text_pane_set_document (TpTextPane  *self,
                                          TpDocument  *document);
TpDocument    *tp_text_pane_get_document (TpTextPane  *self);
char          *tp_text_pane_dup_text     (TpTextPane  *self);
char          *tp_text_pane_dup_reading  (TpTextPane  *self);
gboolean       tp_text_pane_show_all     (TpTextPane  *self,
                                          guint        line);
GtkTextView   *tp_text_pane_get_view     (TpTextPane  *self);
gboolean       tp_text_pane_is_selected_visible (TpTextPane *self);
gboolean       tp_text_pane_get_dark     (TpTextPane  *self);
/* A new reading reaches the pane's text in slices over a few main-loop
 * turns: busy until the text is the reading's; flush finishes at once. */
gboolean       tp_text_pane_get_busy     (TpTextPane  *self);
void           tp_text_pane_flush        (TpTextPane  *self);

/* The pane's title ("Spec", "StableHLO", ...), marked N_() and not
 * translated: gettext() it where it is shown. */
const char    *tp_pane_get_title         (TpPane       pane);
const char    *tp_pane_get_id            (TpPane       pane);
gboolean       tp_pane_from_id           (const char  *id,
                                          TpPane      *pane);

/* The display name shown beside line @line (spec, derivative, plan), or
 * NULL. */
const char    *tp_text_pane_get_line_name (TpTextPane  *self,
                                           guint        line);

G_END_DECLS
