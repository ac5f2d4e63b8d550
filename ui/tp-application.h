/* tp-application.h: the playground as a GtkApplication: single instance,
 * one window per program, headless screenshots. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_APPLICATION (tp_application_get_type ())

G_DECLARE_FINAL_TYPE (TpApplication, tp_application, TP, APPLICATION, GtkApplication)

TpApplication *tp_application_new        (const char    *argv0);
gboolean       tp_application_get_failed (TpApplication *self);
TpDrafts      *tp_application_get_drafts (TpApplication *self);
TpPictureWorker *tp_application_get_picture_worker (TpApplication *self);

/* Registers the resources, GtkSourceView and the languages and styles;
 * safe to call more than once (the tests call it after gtk_test_init). */
void           tp_ui_init         (void);
GSettings     *tp_settings_new    (void);

G_END_DECLS
