/* tp-drafts.h: the unsaved programs kept on disk, so edits survive a
 * crash.
 *
 * One TpDrafts per application (TpApplication owns it): the folder the
 * drafts live in, listing them, writing one, reading one back and
 * discarding it.  A draft is the text and the choices it was read with,
 * under an id of its own; a document with unsaved edits keeps one
 * (tp_document_set_drafts), and the application restores what is left
 * when it starts again. */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef struct
{
  char *text;
  char *uri;          /* the program's file, or NULL */
  char *target;       /* NULL for the default */
  char *observe;
  gboolean exact;
} TpDraft;

void tp_draft_clear (TpDraft *draft);

#define TP_TYPE_DRAFTS (tp_drafts_get_type ())

G_DECLARE_FINAL_TYPE (TpDrafts, tp_drafts, TP, DRAFTS, GObject)

TpDrafts   *tp_drafts_new      (const char     *dir);
const char *tp_drafts_get_dir  (TpDrafts       *self);
char      **tp_drafts_list     (TpDrafts       *self);
char       *tp_drafts_new_id   (TpDrafts       *self);
gboolean    tp_drafts_save     (TpDrafts       *self,
                                const char     *id,
                                const TpDraft  *draft,
                                GError        **error);
gboolean    tp_drafts_load     (TpDrafts       *self,
                                const char     *id,
                                TpDraft        *draft,
                                GError        **error);
void        tp_drafts_discard  (TpDrafts       *self,
                                const char     *id);

G_END_DECLS
