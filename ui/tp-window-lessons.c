/* tp-window-lessons.c: the window's lessons (docs/lessons.md): the
 * Lessons pane beside the editor (F8, in tp-window-actions.c's
 * shortcuts with Ctrl+Shift+O), the built-in course and its
 * progress in GSettings, a lesson opened from a file (File > Open
 * Lesson…, or dropped on the window), and the solution behind a
 * confirmation.  A lesson that cannot be read is shown with the engine's
 * line, column and message, and the program stays as it was. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-lesson-pane.h"
#include "tp-window-private.h"

#define LESSON_SUFFIX ".lesson"

/* {==== progress ====} */

static void
tp_window_lesson_finished_cb (TpWindow *self)
{
  g_auto(GStrv) finished = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  const char *id = self->lesson_index >= 0 ? tp_course_id ((guint) self->lesson_index) : NULL;

  if (id == NULL)
    return;
  finished = g_settings_get_strv (self->settings, "lessons-finished");
  if (g_strv_contains ((const char *const *) finished, id))
    return;
  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) finished);
  g_strv_builder_add (builder, id);
  {
    g_auto(GStrv) now = g_strv_builder_end (builder);

    g_settings_set_strv (self->settings, "lessons-finished", (const char *const *) now);
  }
}

/* {==== opening a lesson ====} */

static void tp_window_show_lessons (TpWindow *self);

/* Takes @lesson (a reference) into the window: its starting program
 * replaces the text as one undoable edit.  @index is its place in the
 * course, or -1. */
static void
tp_window_take_lesson (TpWindow    *self,
                       TpLessonRef *lesson,
                       int          index)
{
  size_t length = 0;
  const char *start = tp_lesson_start (tp_lesson_ref_get (lesson), &length);

  self->lesson_index = index;
  tp_lesson_pane_set_error (self->lesson_pane, NULL);
  tp_lesson_pane_set_place (self->lesson_pane, index, tp_course_n_lessons ());
  tp_document_set_lesson (self->document, lesson);
  /* the lesson's program is read with the defaults: the last scalar,
   * nothing observed */
  tp_document_set_target (self->document, NULL);
  tp_document_set_observe (self->document, NULL);
  tp_document_set_text (self->document, start);
  if (index >= 0)
    g_settings_set_string (self->settings, "lesson-current", tp_course_id ((guint) index));
  tp_window_show_lessons (self);
}

/* The window a lesson goes to: this one, unless its program is a file's
 * (a lesson's program is not written over a file). */
static TpWindow *
tp_window_lesson_window (TpWindow *self)
{
  TpWindow *window;

  if (tp_document_get_file (self->document) == NULL)
    return self;
  window = tp_window_new (gtk_window_get_application (GTK_WINDOW (self)));
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* Shows the pane (not opening the current lesson, as F8 does). */
static void
tp_window_show_lessons (TpWindow *self)
{
  if (tp_window_get_lessons (self))
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->lesson_pane), TRUE);
  g_object_notify (G_OBJECT (self), "lessons");
}

/* The program, and the lesson being taken, stay as they were. */
static void
tp_window_lesson_refused (TpWindow   *self,
                          const char *message)
{
  tp_window_show_lessons (self);
  tp_lesson_pane_set_error (self->lesson_pane, message);
}

void
tp_window_open_course_lesson (TpWindow *self,
                              guint     index)
{
  g_autofree char *error = NULL;
  g_autoptr(TpLessonRef) lesson = NULL;

  g_return_if_fail (TP_IS_WINDOW (self));

  lesson = tp_course_load (index, &error);
  if (lesson == NULL)
    {
      tp_window_lesson_refused (self, error);
      return;
    }
  tp_window_take_lesson (tp_window_lesson_window (self), lesson, (int) index);
}

/* Reads at most one byte more than a lesson may hold: the engine refuses
 * a bigger one with its message, and a huge file is never read whole. */
static void
tp_window_read_lesson_thread (GTask        *task,
                              gpointer      source,
                              gpointer      data,
                              GCancellable *cancellable)
{
  GFile *file = data;
  GError *error = NULL;
  g_autoptr(GFileInputStream) stream = g_file_read (file, cancellable, &error);
  GBytes *bytes;

  if (stream == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  bytes = g_input_stream_read_bytes (G_INPUT_STREAM (stream), TP_LESSON_MAX_BYTES + 1,
                                     cancellable, &error);
  if (bytes == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
}

static void
tp_window_lesson_read_cb (GObject      *source,
                          GAsyncResult *result,
                          gpointer      data)
{
  g_autoptr(TpWindow) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *message = NULL;
  g_autoptr(TpLessonRef) lesson = NULL;

  if (bytes == NULL)
    {
      message = g_strdup (error->message);
      tp_window_lesson_refused (self, message);
      return;
    }
  lesson = tp_lesson_ref_new (bytes, FALSE, &message);
  if (lesson == NULL)
    {
      /* as a compiler says it: FILE:LINE:COLUMN: message */
      GFile *file = g_task_get_task_data (G_TASK (result));
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *where = g_strdup_printf ("%s:%s", name, message);

      tp_window_lesson_refused (self, where);
      return;
    }
  tp_window_take_lesson (tp_window_lesson_window (self), lesson, -1);
}

void
tp_window_open_lesson_file (TpWindow *self,
                            GFile    *file)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TP_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (NULL, NULL, tp_window_lesson_read_cb, g_object_ref (self));
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, tp_window_read_lesson_thread);
}

gboolean
tp_window_is_lesson_file (GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);

  return name != NULL && g_str_has_suffix (name, LESSON_SUFFIX);
}

/* {==== the pane's buttons ====} */

static void
tp_window_lesson_navigate_cb (TpWindow *self,
                              int       delta)
{
  int index = self->lesson_index + delta;

  if (self->lesson_index < 0 || index < 0 || (guint) index >= tp_course_n_lessons ())
    return;
  tp_window_open_course_lesson (self, (guint) index);
}

static void
tp_window_solution_response_cb (GtkDialog *dialog,
                                int        response,
                                TpWindow  *self)
{
  TpLessonRef *lesson = tp_document_get_lesson (self->document);

  gtk_window_destroy (GTK_WINDOW (dialog));
  if (response == GTK_RESPONSE_ACCEPT && lesson != NULL)
    {
      size_t length = 0;

      /* one undoable edit: Ctrl+Z gives the student's program back */
      tp_document_set_text (self->document, tp_lesson_solution (tp_lesson_ref_get (lesson), &length));
    }
}

static void
tp_window_lesson_solution_cb (TpWindow *self)
{
  GtkWidget *dialog;

  if (tp_document_get_lesson (self->document) == NULL)
    return;
  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   "%s", _("Show the lesson’s solution?"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("The solution replaces the program in the editor. "
                                              "Undo (Ctrl+Z) brings your program back."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Show Solution"), GTK_RESPONSE_ACCEPT);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  gtk_widget_set_name (dialog, "lesson-solution-dialog");
  g_signal_connect (dialog, "response", G_CALLBACK (tp_window_solution_response_cb), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* {==== actions ====} */

static void
tp_window_open_lesson_response_cb (GtkNativeDialog *native,
                                   int              response,
                                   TpWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (file != NULL)
        tp_window_open_lesson_file (self, file);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
tp_window_open_lesson_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *param)
{
  TpWindow *self = TP_WINDOW (widget);
  GtkFileChooserNative *native;
  GtkFileFilter *lessons = gtk_file_filter_new ();
  GtkFileFilter *all = gtk_file_filter_new ();

  /* Translators: the file chooser's filter for .lesson files */
  gtk_file_filter_set_name (lessons, _("Lessons"));
  gtk_file_filter_add_pattern (lessons, "*" LESSON_SUFFIX);
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  native = gtk_file_chooser_native_new (_("Open a Lesson"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), lessons);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), all);
  g_object_unref (lessons);
  g_object_unref (all);
  g_signal_connect (native, "response", G_CALLBACK (tp_window_open_lesson_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

void
tp_window_set_lessons (TpWindow *self,
                       gboolean  lessons)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  if (tp_window_get_lessons (self) == !!lessons)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->lesson_pane), lessons);
  g_object_notify (G_OBJECT (self), "lessons");
  /* the pane's first showing opens the lesson the student was at */
  if (lessons && tp_document_get_lesson (self->document) == NULL)
    {
      g_autofree char *current = g_settings_get_string (self->settings, "lesson-current");
      int index = tp_course_find (current);

      tp_window_open_course_lesson (self, index >= 0 ? (guint) index : 0);
    }
}

gboolean
tp_window_get_lessons (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  /* asked for by the action before the template is built, and after */
  return self->lesson_pane != NULL && gtk_widget_get_visible (GTK_WIDGET (self->lesson_pane));
}

TpLessonPane *
tp_window_get_lesson_pane (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), NULL);

  return self->lesson_pane;
}

void
_tp_window_class_lessons_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (TP_TYPE_LESSON_PANE);
  gtk_widget_class_bind_template_child (widget_class, TpWindow, lesson_pane);
  gtk_widget_class_install_property_action (widget_class, "win.lessons", "lessons");
  gtk_widget_class_install_action (widget_class, "win.open-lesson", NULL, tp_window_open_lesson_action);
}

void
_tp_window_init_lessons (TpWindow *self)
{
  self->lesson_index = -1;
  tp_lesson_pane_set_document (self->lesson_pane, self->document);
  g_signal_connect_object (self->lesson_pane, "navigate",
                           G_CALLBACK (tp_window_lesson_navigate_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lesson_pane, "show-solution",
                           G_CALLBACK (tp_window_lesson_solution_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->lesson_pane, "finished",
                           G_CALLBACK (tp_window_lesson_finished_cb), self, G_CONNECT_SWAPPED);
}
