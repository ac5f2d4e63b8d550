/* test-application.c: the playground as one application.  A second
 * launch with a file (the real topos-playground binary, in a child
 * process) hands the file to the running instance, which opens it in a
 * new window; the child exits at once.  The instances meet on a private
 * D-Bus session bus (GTestDBus), never the desktop's. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tp-picture-raster.h"
#include "tp-application.h"
#include "tp-document.h"
#include "tp-editor.h"
#include "tp-ui-test-util.h"
#include "../tp-test-ci.h"
#include "tp-ui-test-keys.h"
#include "tp-window.h"

#define SUBPROCESS_TIMEOUT (60 * G_USEC_PER_SEC)

static guint
count_windows (GtkApplication *app)
{
  guint n = 0;

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (TP_IS_WINDOW (l->data))
      n++;
  return n;
}

static TpWindow *
window_with_file (GtkApplication *app,
                  GFile          *file)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    {
      GFile *shown;

      if (!TP_IS_WINDOW (l->data))
        continue;
      shown = tp_document_get_file (tp_window_get_document (l->data));
      if (shown != NULL && g_file_equal (shown, file))
        return l->data;
    }
  return NULL;
}

typedef struct
{
  GtkApplication *app;
  GFile *file;
  GSubprocess *child;
  gboolean child_done;
} HandOff;

static void
child_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      data)
{
  HandOff *h = data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  h->child_done = TRUE;
}

static gboolean
hand_off_done (gpointer data)
{
  HandOff *h = data;
  TpWindow *window = window_with_file (h->app, h->file);

  return h->child_done && window != NULL
         && tp_document_get_readings (tp_window_get_document (window)) != NULL;
}

static gboolean
first_window_ready (gpointer data)
{
  GtkApplication *app = data;
  GtkWindow *window = gtk_application_get_active_window (app);

  return window != NULL && tp_window_get_ready (TP_WINDOW (window));
}

static gboolean
prefers_dark (gpointer data)
{
  gboolean dark = FALSE;

  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &dark, NULL);
  return dark;
}

/* The steps, run inside the first instance's own g_application_run (an
 * idle after its activate), so it registers, serves the hand-off and
 * shuts down as the real one does. */
static gboolean
second_launch_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  GTestDBus *bus = g_object_get_data (G_OBJECT (app), "bus");
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *dir = g_dir_make_tmp ("topos-app-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "handed.tape", NULL);
  HandOff h = { app, NULL, NULL, FALSE };
  TpWindow *opened;

  g_assert_false (g_application_get_is_remote (G_APPLICATION (app)));
  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  g_assert_cmpuint (count_windows (app), ==, 1);
  g_assert_true (g_file_set_contents (path, "a = parameter 2.0\nloss = a * a\n", -1, NULL));

  /* the second launch, as a reader would type it */
  h.file = g_file_new_for_path (path);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_setenv (launcher, "DBUS_SESSION_BUS_ADDRESS",
                                g_test_dbus_get_bus_address (bus), TRUE);
  h.child = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TP_PLAYGROUND"), path, NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (h.child, NULL, child_done_cb, &h);
  g_assert_true (tp_test_wait_until (hand_off_done, &h, 30));

  /* the child handed over and left with success; this process opened
   * the file in a new window of its own */
  g_assert_true (g_subprocess_get_successful (h.child));
  g_assert_cmpuint (count_windows (app), ==, 2);
  opened = window_with_file (app, h.file);
  g_assert_nonnull (opened);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (opened)), ==, "handed.tape – Topos Playground");

  /* a second launch with no file only brings the playground forward */
  g_clear_object (&h.child);
  h.child_done = FALSE;
  h.child = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TP_PLAYGROUND"), NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (h.child, NULL, child_done_cb, &h);
  g_assert_true (tp_test_wait_until (hand_off_done, &h, 30));
  g_assert_true (g_subprocess_get_successful (h.child));
  g_assert_cmpuint (count_windows (app), ==, 2);

  /* a second launch with --style dark makes the running one dark */
  g_assert_false (prefers_dark (NULL));
  g_clear_object (&h.child);
  h.child_done = FALSE;
  h.child = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("TP_PLAYGROUND"), "--style", "dark", NULL);
  g_assert_no_error (error);
  g_subprocess_wait_async (h.child, NULL, child_done_cb, &h);
  g_assert_true (tp_test_wait_until (hand_off_done, &h, 30));
  g_assert_true (g_subprocess_get_successful (h.child));
  g_assert_true (tp_test_wait_until (prefers_dark, NULL, 20));
  g_assert_cmpuint (count_windows (app), ==, 2);

  g_clear_object (&h.child);
  g_clear_object (&h.file);
  g_unlink (path);
  g_rmdir (dir);
  while (gtk_application_get_windows (app) != NULL)
    gtk_window_destroy (gtk_application_get_windows (app)->data);
  g_application_quit (G_APPLICATION (app));
  return G_SOURCE_REMOVE;
}

static void
activated_cb (GApplication *app)
{
  static gboolean once;

  if (!once)
    g_idle_add (second_launch_steps_cb, app);
  once = TRUE;
}

static void
test_application_second_launch (void)
{
  g_autofree char *daemon = NULL;

  if (g_test_subprocess ())
    {
      GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      TpApplication *app;
      char *args[] = { (char *) "topos-playground", NULL };

      g_test_dbus_up (bus);
      app = tp_application_new (NULL);
      g_object_set_data (G_OBJECT (app), "bus", bus);
      g_signal_connect_after (app, "activate", G_CALLBACK (activated_cb), NULL);
      g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, args), ==, 0);
      g_assert_finalize_object (app);
      g_test_dbus_down (bus);
      g_object_unref (bus);
      return;
    }
  daemon = g_find_program_in_path ("dbus-daemon");
  if (daemon == NULL)
    {
      tp_test_cannot_run ("no dbus-daemon for a private session bus");
      return;
    }
  if (g_getenv ("TP_PLAYGROUND") == NULL)
    {
      tp_test_cannot_run ("TP_PLAYGROUND (the topos-playground binary) is not set");
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
steps_activated_cb (GApplication *app)
{
  GSourceFunc steps = g_object_get_data (G_OBJECT (app), "steps");

  if (steps != NULL)
    g_idle_add (steps, app);
  g_object_set_data (G_OBJECT (app), "steps", NULL);
}

/* {==== the Keyboard Shortcuts window ====} */

static GtkWindow *
shown_shortcuts_window (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_WINDOW (l->data) && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

static gboolean
shortcuts_shown (gpointer data)
{
  return shown_shortcuts_window () != NULL;
}

static gboolean
shortcuts_hidden (gpointer data)
{
  return shown_shortcuts_window () == NULL;
}

static gboolean
two_tp_windows (gpointer data)
{
  return count_windows (data) == 2;
}

static gboolean
no_tp_window_left (gpointer data)
{
  return count_windows (data) == 0;
}

/* Ctrl+?, pressed with the focus in the editor, and the main menu's item
 * both open the Keyboard Shortcuts window, and the key types nothing. */
static gboolean
shortcuts_window_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  GtkWindow *window;
  GtkWidget *view;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  window = gtk_application_get_active_window (app);
  g_assert_true (tp_test_focus_window (window));
  view = GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (TP_WINDOW (window))));
  g_assert_true (gtk_widget_grab_focus (view));
  before = tp_document_dup_text (tp_window_get_document (TP_WINDOW (window)));

  g_assert_null (shown_shortcuts_window ());
  tp_test_press (NULL, "<Control>question");
  g_assert_true (tp_test_wait_until (shortcuts_shown, NULL, 20));
  after = tp_document_dup_text (tp_window_get_document (TP_WINDOW (window)));
  g_assert_cmpstr (after, ==, before);
  gtk_window_close (shown_shortcuts_window ());
  g_assert_true (tp_test_wait_until (shortcuts_hidden, NULL, 20));

  /* the menu item is not greyed out: its action is there and enabled */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "show-help-overlay"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  g_assert_true (tp_test_wait_until (shortcuts_shown, NULL, 20));
  gtk_window_close (shown_shortcuts_window ());
  g_assert_true (tp_test_wait_until (shortcuts_hidden, NULL, 20));

  /* the application's own shortcuts work from the editor too: Ctrl+N
   * opens a window, Ctrl+Q closes them all (nothing is unsaved) */
  g_assert_true (tp_test_focus_window (window));
  g_assert_true (gtk_widget_grab_focus (view));
  g_assert_cmpuint (count_windows (app), ==, 1);
  tp_test_press (NULL, "<Control>n");
  g_assert_true (tp_test_wait_until (two_tp_windows, app, 20));
  g_assert_true (tp_test_focus_window (window));
  g_assert_true (gtk_widget_grab_focus (view));
  tp_test_press (NULL, "<Control>q");
  g_assert_true (tp_test_wait_until (no_tp_window_left, app, 20));
  /* the playground quits by itself once its last window has gone */
  return G_SOURCE_REMOVE;
}

static void
shortcuts_activated_cb (GApplication *app)
{
  static gboolean once;

  if (!once)
    g_idle_add (shortcuts_window_steps_cb, app);
  once = TRUE;
}

static void
test_application_shortcuts_window (void)
{
  if (g_test_subprocess ())
    {
      GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      TpApplication *app;
      char *args[] = { (char *) "topos-playground", NULL };

      g_test_dbus_up (bus);
      app = tp_application_new (NULL);
      g_signal_connect_after (app, "activate", G_CALLBACK (shortcuts_activated_cb), NULL);
      g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, args), ==, 0);
      g_assert_finalize_object (app);
      g_test_dbus_down (bus);
      g_object_unref (bus);
      return;
    }
  if (g_find_program_in_path ("dbus-daemon") == NULL)
    {
      g_test_skip ("no dbus-daemon for a private session bus");
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* {==== opening, failing, quitting ====} */

/* Runs the playground (no file: its README window) on a private bus and
 * @steps in an idle after its first activate. */
static void
run_app_with_steps (GSourceFunc steps)
{
  GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  TpApplication *app;
  char *args[] = { (char *) "topos-playground", NULL };

  g_test_dbus_up (bus);
  app = tp_application_new (NULL);
  g_object_set_data (G_OBJECT (app), "steps", steps);
  g_signal_connect_after (app, "activate", G_CALLBACK (steps_activated_cb), NULL);
  g_assert_cmpint (g_application_run (G_APPLICATION (app), 1, args), ==, 0);
  g_assert_finalize_object (app);
  g_test_dbus_down (bus);
  g_object_unref (bus);
}

/* Runs an application whose steps are steps in a subprocess of this test,
 * and requires it to pass. */
static void
run_steps_in_subprocess (GSourceFunc steps)
{
  if (g_test_subprocess ())
    {
      run_app_with_steps (steps);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static GtkWindow *
shown_message_dialog (guint *n)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();
  GtkWindow *found = NULL;

  *n = 0;
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      {
        found = l->data;
        (*n)++;
      }
  return found;
}

static gboolean
message_dialog_shown (gpointer data)
{
  guint n;

  return shown_message_dialog (&n) != NULL;
}

static gboolean
file_window_ready (gpointer data)
{
  HandOff *h = data;
  TpWindow *window = window_with_file (h->app, h->file);

  return window != NULL && tp_document_get_readings (tp_window_get_document (window)) != NULL;
}

static gboolean
one_tp_window (gpointer data)
{
  return count_windows (data) == 1;
}

static gboolean
three_tp_windows (gpointer data)
{
  return count_windows (data) == 3;
}

static gboolean
no_tp_window (gpointer data)
{
  return count_windows (data) == 0;
}

static void
quit_now (GtkApplication *app)
{
  while (gtk_application_get_windows (app) != NULL)
    gtk_window_destroy (gtk_application_get_windows (app)->data);
  g_application_quit (G_APPLICATION (app));
}

/* Opening a file that is open already brings its window forward and
 * makes no second one. */
static gboolean
open_twice_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  g_autofree char *dir = g_dir_make_tmp ("topos-app-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "twice.tape", NULL);
  HandOff h = { app, NULL, NULL, FALSE };
  GFile *files[1];

  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  g_assert_true (g_file_set_contents (path, "a = parameter 2.0\nloss = a * a\n", -1, NULL));
  h.file = g_file_new_for_path (path);
  files[0] = h.file;
  g_application_open (G_APPLICATION (app), files, 1, "");
  g_assert_true (tp_test_wait_until (file_window_ready, &h, 20));
  g_assert_cmpuint (count_windows (app), ==, 2);

  /* with the README window in front, opening the file again brings
   * the file's window forward */
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (l->data != window_with_file (app, h.file))
      g_assert_true (tp_test_focus_window (l->data));
  g_assert_false (gtk_window_is_active (GTK_WINDOW (window_with_file (app, h.file))));
  g_application_open (G_APPLICATION (app), files, 1, "");
  g_assert_cmpuint (count_windows (app), ==, 2);
  g_assert_true (tp_test_wait_until (tp_test_window_active, window_with_file (app, h.file), 20));

  g_unlink (path);
  g_rmdir (dir);
  g_clear_object (&h.file);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

static void
test_application_open_twice (void)
{
  run_steps_in_subprocess (open_twice_steps_cb);
}

/* A file that cannot be opened leaves no empty window behind: the
 * message says why, on its own. */
static gboolean
failed_open_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  g_autofree char *dir = g_dir_make_tmp ("topos-app-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "missing.tape", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (path);
  GFile *files[1] = { missing };
  guint n_dialogs = 0;
  GtkWindow *dialog;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  g_application_open (G_APPLICATION (app), files, 1, "");
  g_assert_true (tp_test_wait_until (message_dialog_shown, NULL, 20));
  dialog = shown_message_dialog (&n_dialogs);
  g_assert_cmpuint (n_dialogs, ==, 1);
  g_assert_null (gtk_window_get_transient_for (dialog));
  g_assert_cmpstr (gtk_window_get_title (dialog), ==, "Topos Playground");
  g_assert_true (tp_test_wait_until (one_tp_window, app, 20));
  g_assert_null (window_with_file (app, missing));

  g_rmdir (dir);
  quit_now (app);
  return G_SOURCE_REMOVE;
}

static void
test_application_failed_open (void)
{
  run_steps_in_subprocess (failed_open_steps_cb);
}

/* Ctrl+Q with unsaved changes in three windows asks once, for all of
 * them; Discard All closes every window and the playground quits. */
static gboolean
quit_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  guint n_dialogs = 0;
  g_autofree char *question = NULL;
  g_autofree char *names = NULL;
  GtkWindow *dialog;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  g_assert_cmpuint (count_windows (app), ==, 4);
  /* three of the four have unsaved edits */
  for (GList *l = gtk_application_get_windows (app)->next; l != NULL; l = l->next)
    {
      GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (tp_window_get_document (l->data)));
      GtkTextIter end;

      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert_interactive (buffer, &end, "z = 1.0\n", -1, TRUE);
    }

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  g_assert_true (tp_test_wait_until (message_dialog_shown, NULL, 20));
  g_assert_true (tp_test_wait_until (three_tp_windows, app, 20));  /* the unmodified one has closed */
  dialog = shown_message_dialog (&n_dialogs);
  g_assert_cmpuint (n_dialogs, ==, 1);
  g_object_get (dialog, "text", &question, NULL);
  g_assert_cmpstr (question, ==, "Save changes to 3 programs before quitting?");
  g_object_get (dialog, "secondary-text", &names, NULL);
  g_assert_cmpstr (names, ==, "“The README sample”, “The README sample”, “The README sample” have unsaved "
                              "changes. If you don’t save, they will be lost.");

  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_REJECT);
  g_assert_true (tp_test_wait_until (no_tp_window, app, 20));
  /* the playground quits by itself once its last window has gone */
  return G_SOURCE_REMOVE;
}

static void
test_application_quit_one_dialog (void)
{
  run_steps_in_subprocess (quit_steps_cb);
}

static gboolean
has_draft (gpointer data)
{
  return tp_document_get_draft_id (data) != NULL;
}

static gboolean
recovered_toast_shown (gpointer data)
{
  GtkApplication *app = data;

  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (TP_IS_WINDOW (l->data)
        && g_strcmp0 (tp_window_get_toast (l->data), "Recovered 2 unsaved programs") == 0)
      return TRUE;
  return FALSE;
}

/* Drafts left by a session that ended without saving come back, each in
 * its window, and a toast says how many. */
static gboolean
recovered_steps_cb (gpointer data)
{
  GtkApplication *app = data;

  g_assert_cmpuint (count_windows (app), ==, 2);
  g_assert_true (tp_test_wait_until (recovered_toast_shown, app, 20));
  quit_now (app);
  return G_SOURCE_REMOVE;
}

static void
test_application_recovered_toast (void)
{
  if (g_test_subprocess ())
    {
      for (guint i = 0; i < 2; i++)
        {
          g_autoptr(TpDrafts) drafts = tp_drafts_new (NULL);
          g_autoptr(TpDocument) document = tp_document_new ();

          tp_document_set_drafts (document, drafts);
          tp_document_set_text (document, i == 0 ? "a = parameter 1.0\n" : "b = parameter 2.0\n");
          g_assert_true (tp_test_wait_until (has_draft, document, 20));
        }
      run_app_with_steps (recovered_steps_cb);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static double
font_points (GtkWidget *widget)
{
  return pango_font_description_get_size (pango_context_get_font_description (gtk_widget_get_pango_context (widget)))
         / (double) PANGO_SCALE;
}

typedef struct
{
  GtkWidget *view;
  double points;
} FontWait;

static gboolean
font_is (gpointer data)
{
  FontWait *w = data;

  return fabs (font_points (w->view) - w->points) < 0.01;
}

/* F11, from the editor, presents: the window gets the presenting look
 * and the program's text is half as large again; F11 again ends it. */
static gboolean
present_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  GtkWindow *window;
  GtkWidget *view;
  FontWait wait;
  double normal;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  window = gtk_application_get_active_window (app);
  g_assert_true (tp_test_focus_window (window));
  view = GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (TP_WINDOW (window))));
  g_assert_true (gtk_widget_grab_focus (view));
  normal = font_points (view);
  g_assert_cmpfloat (normal, >, 0);

  tp_test_press (GTK_WIDGET (window), "F11");
  g_assert_true (tp_window_get_presenting (TP_WINDOW (window)));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "presenting"));
  wait.view = view;
  wait.points = normal * 1.5;     /* 15pt for the default 10pt */
  g_assert_true (tp_test_wait_until (font_is, &wait, 20));

  g_assert_true (tp_test_focus_window (window));
  g_assert_true (gtk_widget_grab_focus (view));
  tp_test_press (GTK_WIDGET (window), "F11");
  g_assert_false (tp_window_get_presenting (TP_WINDOW (window)));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "presenting"));
  wait.points = normal;
  g_assert_true (tp_test_wait_until (font_is, &wait, 20));

  quit_now (app);
  return G_SOURCE_REMOVE;
}

static void
test_application_present (void)
{
  run_steps_in_subprocess (present_steps_cb);
}

/* New Window opens the sample last chosen from the samples menu. */
static gboolean
new_window_steps_cb (gpointer data)
{
  GtkApplication *app = data;
  g_autoptr(GSettings) settings = tp_settings_new ();
  GtkWindow *newest;

  g_assert_true (tp_test_wait_until (first_window_ready, app, 20));
  g_settings_set_string (settings, "last-sample", "dense-layer");
  g_action_group_activate_action (G_ACTION_GROUP (app), "new-window", NULL);
  g_assert_cmpuint (count_windows (app), ==, 2);
  newest = gtk_application_get_windows (app)->data;
  g_assert_cmpstr (gtk_window_get_title (newest), ==, "A dense layer – Topos Playground");
  quit_now (app);
  return G_SOURCE_REMOVE;
}

static void
test_application_new_window_sample (void)
{
  run_steps_in_subprocess (new_window_steps_cb);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/application/second-launch", test_application_second_launch);
  g_test_add_func ("/ui/application/shortcuts-window", test_application_shortcuts_window);
  g_test_add_func ("/ui/application/open-twice", test_application_open_twice);
  g_test_add_func ("/ui/application/failed-open", test_application_failed_open);
  g_test_add_func ("/ui/application/quit-one-dialog", test_application_quit_one_dialog);
  g_test_add_func ("/ui/application/recovered-toast", test_application_recovered_toast);
  g_test_add_func ("/ui/application/present", test_application_present);
  g_test_add_func ("/ui/application/new-window-sample", test_application_new_window_sample);

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
