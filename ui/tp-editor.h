/* tp-editor.h: the program's source view, with the diagnostic beside it. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_EDITOR (tp_editor_get_type ())

G_DECLARE_FINAL_TYPE (TpEditor, tp_editor, TP, EDITOR, GtkWidget)

GtkWidget   *tp_editor_new                 (void);
void         tp_editor_set_document        (TpEditor    *self,
                                            TpDocument  *document);
TpDocument  *tp_editor_get_document        (TpEditor    *self);
GtkTextView *tp_editor_get_view            (TpEditor    *self);
const char  *tp_editor_get_diagnostic_text (TpEditor    *self);
gboolean     tp_editor_has_error_underline (TpEditor    *self);
const char  *tp_editor_get_scheme_id       (TpEditor    *self);
char        *tp_editor_dup_help_at         (TpEditor          *self,
                                            const GtkTextIter *iter);

G_END_DECLS
