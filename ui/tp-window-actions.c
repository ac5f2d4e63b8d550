/* tp-window-actions.c: the window's actions, installed on the class:
 * files, samples, exports, copying, layout and text size. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-language-reference.h"
#include "tp-picture-worker.h"
#include "tp-samples.h"
#include "tp-window-private.h"

/* {==== helpers ====} */

void
_tp_window_show_error (TpWindow   *self,
                      const char *primary,
                      GError     *error)
{
  GtkWidget *dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL,
                                              GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE,
                                              "%s", primary);

  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", error->message);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_window_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static GtkFileFilter *
filter_new (const char *name,
            const char *pattern)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_pattern (filter, pattern);
  return filter;
}

/* Where a file dialog starts: the folder of the program's file, else
 * the user's documents (else home), never the folder the playground was
 * started from. */
void
_tp_window_set_start_folder (TpWindow       *self,
                            GtkFileChooser *chooser)
{
  GFile *file = tp_document_get_file (self->document);
  g_autoptr(GFile) folder = file != NULL ? g_file_get_parent (file) : NULL;

  if (folder == NULL)
    {
      const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

      folder = g_file_new_for_path (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR)
                                      ? documents : g_get_home_dir ());
    }
  gtk_file_chooser_set_current_folder (chooser, folder, NULL);
}

/* The window a file or sample should go to: this one when it holds
 * nothing worth keeping, else a new one. */
static TpWindow *
tp_window_target_window (TpWindow *self)
{
  TpWindow *window;

  if (tp_document_is_pristine (self->document))
    return self;
  window = tp_window_new (gtk_window_get_application (GTK_WINDOW (self)));
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* {==== open ====} */

static void
tp_window_open_response_cb (GtkNativeDialog *native,
                            int              response,
                            TpWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (file != NULL && !tp_window_present_for_file (gtk_window_get_application (GTK_WINDOW (self)), file))
        tp_window_open_file (tp_window_target_window (self), file);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
tp_window_open_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  GtkFileChooserNative *native;
  /* Translators: the file chooser's filter for .tape files */
  g_autoptr(GtkFileFilter) tapes = filter_new (_("Tape programs"), "*.tape");
  g_autoptr(GtkFileFilter) all = filter_new (_("All files"), "*");

  native = gtk_file_chooser_native_new (_("Open a Program"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), tapes);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), all);
  _tp_window_set_start_folder (self, GTK_FILE_CHOOSER (native));
  g_signal_connect (native, "response", G_CALLBACK (tp_window_open_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
tp_window_open_recent_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  if (!tp_window_present_for_file (gtk_window_get_application (GTK_WINDOW (self)), file))
    tp_window_open_file (tp_window_target_window (self), file);
}

static void
tp_window_open_sample_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);

  tp_window_open_sample (tp_window_target_window (self), g_variant_get_string (param, NULL));
}

/* {==== save ====} */

typedef struct
{
  TpWindow *window;
  gboolean close_after;
} SaveRequest;

static void
tp_window_save_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  SaveRequest *req = user_data;
  TpWindow *self = req->window;
  g_autoptr(GError) error = NULL;

  if (!tp_document_save_finish (TP_DOCUMENT (object), result, &error))
    _tp_window_show_error (self, _("Could not save the program"), error);
  else
    {
      g_autofree char *uri = g_file_get_uri (tp_document_get_file (self->document));

      gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
      if (req->close_after)
        {
          self->closing = TRUE;
          gtk_window_destroy (GTK_WINDOW (self));
        }
    }
  g_object_unref (req->window);
  g_free (req);
}

static void
tp_window_save_to (TpWindow *self,
                   GFile    *file,
                   gboolean  close_after)
{
  SaveRequest *req = g_new0 (SaveRequest, 1);

  req->window = g_object_ref (self);
  req->close_after = close_after;
  tp_document_save_async (self->document, file, NULL, tp_window_save_cb, req);
}

static void
tp_window_save_as_response_cb (GtkNativeDialog *native,
                               int              response,
                               TpWindow        *self)
{
  gboolean close_after = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (native), "close-after"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *base = g_file_get_basename (chosen);
      g_autoptr(GFile) file = NULL;

      /* Give a name without an extension the language's own. */
      if (strchr (base, '.') == NULL)
        {
          g_autoptr(GFile) parent = g_file_get_parent (chosen);
          g_autofree char *named = g_strconcat (base, ".tape", NULL);

          file = g_file_get_child (parent, named);
        }
      else
        file = g_object_ref (chosen);
      tp_window_save_to (self, file, close_after);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
tp_window_run_save_as (TpWindow *self,
                       gboolean  close_after)
{
  GtkFileChooserNative *native;
  g_autoptr(GtkFileFilter) tapes = filter_new (_("Tape programs"), "*.tape");
  GFile *file = tp_document_get_file (self->document);

  native = gtk_file_chooser_native_new (_("Save the Program"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), tapes);
  if (file != NULL)
    gtk_file_chooser_set_file (GTK_FILE_CHOOSER (native), file, NULL);
  else
    {
      _tp_window_set_start_folder (self, GTK_FILE_CHOOSER (native));
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "program.tape");
    }
  g_object_set_data (G_OBJECT (native), "close-after", GINT_TO_POINTER (close_after));
  g_signal_connect (native, "response", G_CALLBACK (tp_window_save_as_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
_tp_window_save_then_close (TpWindow *self)
{
  if (tp_document_get_file (self->document) != NULL)
    tp_window_save_to (self, NULL, TRUE);
  else
    tp_window_run_save_as (self, TRUE);
}

static void
tp_window_save_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);

  if (tp_document_get_file (self->document) != NULL)
    tp_window_save_to (self, NULL, FALSE);
  else
    tp_window_run_save_as (self, FALSE);
}

static void
tp_window_save_as_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
  tp_window_run_save_as (TP_WINDOW (widget), FALSE);
}

/* {==== exports ====} */

typedef struct
{
  TpWindow *window;
  GFile *file;
} ExportRequest;

static void
export_request_free (ExportRequest *req)
{
  g_object_unref (req->window);
  g_object_unref (req->file);
  g_free (req);
}

static void
tp_window_exported (ExportRequest *req,
                    gboolean       ok,
                    GError        *error,
                    const char    *failed)
{
  if (!ok)
    _tp_window_show_error (req->window, failed, error);
  else
    {
      g_autofree char *name = g_file_get_basename (req->file);
      /* Translators: a toast; %s is the exported file's name */
      g_autofree char *said = g_strdup_printf (_("Exported %s"), name);

      tp_window_show_toast (req->window, said);
    }
  export_request_free (req);
}

static void
tp_window_export_picture_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = tp_picture_worker_export_finish (TP_PICTURE_WORKER (object), result, &error);

  tp_window_exported (user_data, ok, error, _("Could not export the picture"));
}

static void
tp_window_export_mlir_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = g_file_replace_contents_finish (G_FILE (object), result, NULL, &error);

  tp_window_exported (user_data, ok, error, _("Could not export the StableHLO"));
}

/* Writes the current reading to @file as @format: "svg", "png" (or
 * "png-light", "png-dark": over a background) or "mlir"; a toast says
 * when it is done, a dialog when it failed. */
void
tp_window_export (TpWindow   *self,
                  const char *format,
                  GFile      *file)
{
  TpReadings *readings = tp_document_get_readings (self->document);
  ExportRequest *req;

  g_return_if_fail (TP_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (readings == NULL)
    {
      tp_window_show_toast (self, _("Nothing to export yet: the program has no reading"));
      return;
    }
  req = g_new0 (ExportRequest, 1);
  req->window = g_object_ref (self);
  req->file = g_object_ref (file);
  if (g_str_equal (format, "mlir"))
    {
      const char *text = tp_readings_get_text (readings, TP_READING_STABLEHLO);
      g_autoptr(GBytes) bytes = g_bytes_new (text, strlen (text));

      g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE,
                                           G_FILE_CREATE_REPLACE_DESTINATION, NULL,
                                           tp_window_export_mlir_cb, req);
    }
  else if (tp_picture_view_get_worker (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE])) != NULL)
    tp_picture_worker_export_async (tp_picture_view_get_worker (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE])),
                                    tp_readings_get_text (readings, TP_READING_DOT), format, file, NULL,
                                    tp_window_export_picture_cb, req);
  else
    {
      g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no picture worker");

      tp_window_exported (req, FALSE, error, _("Could not export the picture"));
    }
}

static void
tp_window_export_response_cb (GtkNativeDialog *native,
                              int              response,
                              TpWindow        *self)
{
  const char *format = g_object_get_data (G_OBJECT (native), "format");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      const char *background = g_str_equal (format, "png")
                                 ? gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (native), "background") : NULL;
      g_autofree char *chosen = g_strcmp0 (background, "light") == 0 || g_strcmp0 (background, "dark") == 0
                                  ? g_strconcat (format, "-", background, NULL) : g_strdup (format);

      if (file != NULL)
        tp_window_export (self, chosen, file);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
tp_window_export_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  const char *format = g_str_equal (action_name, "win.export-svg") ? "svg"
                       : g_str_equal (action_name, "win.export-png") ? "png" : "mlir";
  g_autofree char *pattern = g_strconcat ("*.", format, NULL);
  g_autofree char *title = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GtkFileFilter) filter = NULL;
  GtkFileChooserNative *native;
  char *dot;

  title = g_strdup (g_str_equal (format, "mlir") ? _("Export the StableHLO") : _("Export the Picture"));
  filter = filter_new (g_str_equal (format, "mlir")
                         /* Translators: the file chooser's filter for .mlir files */
                         ? _("MLIR")
                         : g_str_equal (format, "svg") ? _("SVG images") : _("PNG images"),
                       pattern);
  /* the file's name without its extension, else the program's title */
  base = g_strdelimit (tp_document_dup_title (self->document), "/\\", '-');
  dot = tp_document_get_file (self->document) != NULL ? strrchr (base, '.') : NULL;
  if (dot != NULL)
    *dot = '\0';
  name = g_strconcat (base, ".", format, NULL);

  native = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  _tp_window_set_start_folder (self, GTK_FILE_CHOOSER (native));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  if (g_str_equal (format, "png"))
    {
      /* a transparent picture loses its grey text on a dark slide */
      static const char *const ids[] = { "transparent", "light", "dark", NULL };
      /* Translators: the PNG export's choice of a background */
      const char *labels[] = { C_("background", "Transparent"), C_("background", "Light"),
                               C_("background", "Dark"), NULL };

      gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (native), "background", _("Background"),
                                   (const char **) ids, (const char **) labels);
      gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (native), "background", "transparent");
    }
  g_object_set_data (G_OBJECT (native), "format", (gpointer) format);
  g_signal_connect (native, "response", G_CALLBACK (tp_window_export_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* {==== copy, layout, text size ====} */

static void
tp_window_copy_reading_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  TpReadings *readings = tp_document_get_readings (self->document);
  g_autofree char *said = NULL;
  TpPane pane;

  if (!tp_pane_from_id (g_variant_get_string (param, NULL), &pane))
    return;
  if (readings == NULL)
    {
      tp_window_show_toast (self, _("Nothing to copy yet: the program has no reading"));
      return;
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          tp_readings_get_text (readings,
                                                pane == TP_PANE_PICTURE ? TP_READING_DOT : (TpReading) pane));
  said = pane == TP_PANE_PICTURE ? g_strdup (_("Copied the picture, as DOT"))
                                 /* Translators: a toast; %s is the pane's title
                                  * (Spec, Derivative, Plan, StableHLO, Values) */
                                 : g_strdup_printf (_("Copied the %s reading"), gettext (tp_pane_get_title (pane)));
  tp_window_show_toast (self, said);
}

/* Alt+1 .. Alt+6 show one reading (again: all six); Alt+7 .. Alt+0 the
 * check, memory, steps or train pane under them, with the keyboard focus
 * in it. */
static void
tp_window_show_pane_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  const char *id = g_variant_get_string (param, NULL);
  TpTeachPage page;
  TpPane pane;

  if (tp_teach_page_from_id (id, &page))
    {
      tp_window_set_teaching (self, TRUE);
      tp_teach_panel_show (self->teach_panel, page);
      return;
    }
  if (!tp_pane_from_id (id, &pane))
    return;
  /* The button on a focused pane goes back to all six. */
  if (self->focus_layout && self->focus_pane == pane)
    tp_window_set_focus_layout (self, FALSE, pane);
  else
    tp_window_set_focus_layout (self, TRUE, pane);
}

/* Copies the reading of the pane that has the keyboard focus; from
 * elsewhere (the editor, the controls), the one shown alone, else the
 * one that last had the focus (the spec when none has had it yet). */
static void
tp_window_copy_focused_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  TpPane pane = self->focus_layout ? self->focus_pane : self->last_reading;

  for (guint p = 0; p < TP_N_PANES && focus != NULL; p++)
    if (focus == self->panes[p] || gtk_widget_is_ancestor (focus, self->panes[p]))
      pane = (TpPane) p;
  gtk_widget_activate_action (widget, "win.copy-reading", "s", tp_pane_get_id (pane));
}

/* The readings in the order they are on screen: down the left column,
 * then the picture and StableHLO on the right. */
static const TpPane screen_order[TP_N_PANES] = {
  TP_PANE_SPEC, TP_PANE_DERIVATIVE, TP_PANE_PLAN, TP_PANE_VALUES, TP_PANE_PICTURE, TP_PANE_STABLEHLO,
};

/* The widget of @pane that takes the keyboard: a reading's text, the
 * picture's canvas. */
static GtkWidget *
tp_window_pane_focus_widget (TpWindow *self,
                             TpPane    pane)
{
  if (pane == TP_PANE_PICTURE)
    return tp_picture_view_get_canvas (TP_PICTURE_VIEW (self->panes[pane]));
  return GTK_WIDGET (tp_text_pane_get_view (TP_TEXT_PANE (self->panes[pane])));
}

/* Ctrl+Tab and Ctrl+Shift+Tab: the next or the previous reading, one
 * press a reading, in screen order, round; from outside the readings,
 * the first or the last.  In the focus layout the reading is shown
 * alone. */
static void
tp_window_next_reading_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  gboolean back = g_str_equal (action_name, "win.previous-reading");
  int at = -1, next;
  TpPane pane;

  for (guint i = 0; i < TP_N_PANES && focus != NULL; i++)
    if (focus == self->panes[screen_order[i]] || gtk_widget_is_ancestor (focus, self->panes[screen_order[i]]))
      at = (int) i;
  if (at < 0)
    next = back ? TP_N_PANES - 1 : 0;
  else
    next = (at + (back ? TP_N_PANES - 1 : 1)) % TP_N_PANES;
  pane = screen_order[next];
  if (self->focus_layout && self->focus_pane != pane)
    tp_window_set_focus_layout (self, TRUE, pane);
  gtk_widget_grab_focus (tp_window_pane_focus_widget (self, pane));
}

static void
tp_window_font_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  int size = g_settings_get_int (self->settings, "font-size");
  TpPictureView *picture = TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

  /* With the keyboard in the picture, the same keys zoom it. */
  if (focus != NULL && focus == tp_picture_view_get_canvas (picture))
    {
      if (g_str_equal (action_name, "win.font-larger"))
        tp_picture_view_zoom_in (picture);
      else if (g_str_equal (action_name, "win.font-smaller"))
        tp_picture_view_zoom_out (picture);
      else
        tp_picture_view_zoom_fit (picture);
      return;
    }
  if (g_str_equal (action_name, "win.font-larger"))
    size = MIN (size + 1, 48);
  else if (g_str_equal (action_name, "win.font-smaller"))
    size = MAX (size - 1, 6);
  else
    {
      g_settings_reset (self->settings, "font-size");
      return;
    }
  g_settings_set_int (self->settings, "font-size", size);
}

/* F1, Help > Language Reference: the language in brief. */
static void
tp_window_language_reference_action (GtkWidget  *widget,
                                     const char *action_name,
                                     GVariant   *param)
{
  tp_language_reference_present (GTK_WINDOW (widget));
}

/* Ctrl+1: the picture at 100%, wherever the keyboard is (no text size
 * takes the key). */
static void
tp_window_picture_actual_size_action (GtkWidget  *widget,
                                      const char *action_name,
                                      GVariant   *param)
{
  tp_picture_view_zoom_actual (TP_PICTURE_VIEW (TP_WINDOW (widget)->panes[TP_PANE_PICTURE]));
}

static void
tp_window_recompute_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *param)
{
  tp_document_recompute_now (TP_WINDOW (widget)->document);
}

static void
tp_window_clear_recent_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *param)
{
  _tp_window_clear_recent (TP_WINDOW (widget));
}

static void
tp_window_nothing_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *param)
{
}

void
_tp_window_update_actions (TpWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_action_set_enabled (widget, "win.no-recent", FALSE);
}

void
_tp_window_class_actions_init (GtkWidgetClass *widget_class)
{
  static const char *const exports[] = { "win.export-svg", "win.export-png", "win.export-mlir" };
  static const char *const fonts[] = { "win.font-larger", "win.font-smaller", "win.font-reset" };

  gtk_widget_class_install_action (widget_class, "win.picture-actual-size", NULL, tp_window_picture_actual_size_action);
  gtk_widget_class_install_action (widget_class, "win.language-reference", NULL, tp_window_language_reference_action);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, tp_window_open_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", tp_window_open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.open-sample", "s", tp_window_open_sample_action);
  gtk_widget_class_install_action (widget_class, "win.no-recent", NULL, tp_window_nothing_action);
  gtk_widget_class_install_action (widget_class, "win.clear-recent", NULL, tp_window_clear_recent_action);
  gtk_widget_class_install_action (widget_class, "win.save", NULL, tp_window_save_action);
  gtk_widget_class_install_action (widget_class, "win.save-as", NULL, tp_window_save_as_action);
  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    gtk_widget_class_install_action (widget_class, exports[i], NULL, tp_window_export_action);
  gtk_widget_class_install_action (widget_class, "win.copy-reading", "s", tp_window_copy_reading_action);
  gtk_widget_class_install_action (widget_class, "win.show-pane", "s", tp_window_show_pane_action);
  gtk_widget_class_install_property_action (widget_class, "win.focus-layout", "focus-layout");
  gtk_widget_class_install_property_action (widget_class, "win.exact", "exact");
  gtk_widget_class_install_property_action (widget_class, "win.presenting", "presenting");
  gtk_widget_class_install_property_action (widget_class, "win.teaching", "teaching");
  gtk_widget_class_install_action (widget_class, "win.copy-focused", NULL, tp_window_copy_focused_action);
  gtk_widget_class_install_action (widget_class, "win.next-reading", NULL, tp_window_next_reading_action);
  gtk_widget_class_install_action (widget_class, "win.previous-reading", NULL, tp_window_next_reading_action);
  for (guint i = 0; i < G_N_ELEMENTS (fonts); i++)
    gtk_widget_class_install_action (widget_class, fonts[i], NULL, tp_window_font_action);
  gtk_widget_class_install_action (widget_class, "win.recompute", NULL, tp_window_recompute_action);
}

/* The window's shortcuts.  They sit in one controller on the window that
 * runs in the capture phase, before the focused widget sees the key: the
 * editor would otherwise take Ctrl+Return as a newline and eat
 * Ctrl+Shift+X and Alt+1..6 as a text view does.  Keys no shortcut here
 * names (Ctrl+C, Ctrl+Z, typing) go on to the focused widget. */
static const struct
{
  guint keyval;
  GdkModifierType mods;
  const char *action;
  const char *pane;             /* the parameter of win.show-pane */
} window_shortcuts[] = {
  { GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL },
  { GDK_KEY_s, GDK_CONTROL_MASK, "win.save", NULL },
  { GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.save-as", NULL },
  { GDK_KEY_e, GDK_CONTROL_MASK, "win.export-svg", NULL },
  { GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.export-png", NULL },
  { GDK_KEY_m, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.export-mlir", NULL },
  { GDK_KEY_l, GDK_CONTROL_MASK, "win.focus-layout", NULL },
  { GDK_KEY_x, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.exact", NULL },
  { GDK_KEY_plus, GDK_CONTROL_MASK, "win.font-larger", NULL },
  { GDK_KEY_equal, GDK_CONTROL_MASK, "win.font-larger", NULL },
  { GDK_KEY_KP_Add, GDK_CONTROL_MASK, "win.font-larger", NULL },
  { GDK_KEY_minus, GDK_CONTROL_MASK, "win.font-smaller", NULL },
  { GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "win.font-smaller", NULL },
  { GDK_KEY_0, GDK_CONTROL_MASK, "win.font-reset", NULL },
  { GDK_KEY_1, GDK_CONTROL_MASK, "win.picture-actual-size", NULL },
  { GDK_KEY_Return, GDK_CONTROL_MASK, "win.recompute", NULL },
  { GDK_KEY_KP_Enter, GDK_CONTROL_MASK, "win.recompute", NULL },
  { GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL },
  { GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.copy-focused", NULL },
  { GDK_KEY_Tab, GDK_CONTROL_MASK, "win.next-reading", NULL },
  { GDK_KEY_ISO_Left_Tab, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.previous-reading", NULL },
  { GDK_KEY_question, GDK_CONTROL_MASK, "win.show-help-overlay", NULL },
  { GDK_KEY_F11, 0, "win.presenting", NULL },
  { GDK_KEY_F9, 0, "win.teaching", NULL },
  { GDK_KEY_F8, 0, "win.lessons", NULL },
  { GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.open-lesson", NULL },
  { GDK_KEY_F1, 0, "win.language-reference", NULL },
  { GDK_KEY_1, GDK_ALT_MASK, "win.show-pane", "spec" },
  { GDK_KEY_2, GDK_ALT_MASK, "win.show-pane", "derivative" },
  { GDK_KEY_3, GDK_ALT_MASK, "win.show-pane", "plan" },
  { GDK_KEY_4, GDK_ALT_MASK, "win.show-pane", "stablehlo" },
  { GDK_KEY_5, GDK_ALT_MASK, "win.show-pane", "values" },
  { GDK_KEY_6, GDK_ALT_MASK, "win.show-pane", "picture" },
  { GDK_KEY_7, GDK_ALT_MASK, "win.show-pane", "check" },
  { GDK_KEY_8, GDK_ALT_MASK, "win.show-pane", "memory" },
  { GDK_KEY_9, GDK_ALT_MASK, "win.show-pane", "steps" },
  { GDK_KEY_0, GDK_ALT_MASK, "win.show-pane", "train" },
};

void
_tp_window_add_shortcuts (TpWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_name (controller, "tp-window-shortcuts");
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (window_shortcuts); i++)
    {
      GtkShortcut *shortcut =
        gtk_shortcut_new (gtk_keyval_trigger_new (window_shortcuts[i].keyval, window_shortcuts[i].mods),
                          gtk_named_action_new (window_shortcuts[i].action));

      if (window_shortcuts[i].pane != NULL)
        gtk_shortcut_set_arguments (shortcut, g_variant_new_string (window_shortcuts[i].pane));
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
    }
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}
