/* test-window.c: the playground window under Xvfb.  Every case that maps
 * a window runs in its own subprocess (Console's habit). */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tp-picture-raster.h"
#include "tp-document.h"
#include "tp-editor.h"
#include "tp-picture-view.h"
#include "tp-samples.h"
#include "tp-style.h"
#include "tp-text-pane.h"
#include "tp-ui-test-util.h"
#include "tp-ui-test-keys.h"
#include "tp-ui-test-window.h"
#include "tp-window.h"

#define SUBPROCESS_TIMEOUT (60 * G_USEC_PER_SEC)

static TpWindow *
window_new_on_readme (void)
{
  TpWindow *window = tp_test_window_new ();

  tp_window_open_sample (window, "readme");
  tp_window_recompute_now (window);
  return window;
}

static char *
pane_text (TpWindow *window,
           TpPane    pane)
{
  return tp_text_pane_dup_text (TP_TEXT_PANE (tp_window_get_pane (window, pane)));
}

/* Every text pane shows exactly what the engine says, for the current
 * text and choices. */
static void
assert_panes_match_engine (TpWindow   *window,
                           const char *target,
                           const char *observe,
                           gboolean    exact)
{
  TpDocument *document = tp_window_get_document (window);
  g_autofree char *source = tp_document_dup_text (document);
  TpSession *session = tp_session_new ();
  const char *obs[1] = { observe };
  TpChoices choices = { .target = target, .observe = obs,
                        .n_observe = observe != NULL ? 1 : 0, .exact = exact };
  g_autofree char *summary = NULL;

  g_assert_cmpint (tp_session_compile (session, source, strlen (source), &choices), ==, TP_STATUS_OK);
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    {
      g_autofree char *text = pane_text (window, (TpPane) p);
      g_autofree char *reading = tp_text_pane_dup_reading (TP_TEXT_PANE (tp_window_get_pane (window, (TpPane) p)));
      TpReadings *readings = tp_document_get_readings (document);
      g_auto(GStrv) shown_lines = g_strsplit (text, "\n", -1);
      g_auto(GStrv) engine_lines = g_strsplit (tp_session_reading (session, (TpReading) p), "\n", -1);

      /* the reading whole; shown with its long lines folded, line for line */
      g_assert_cmpstr (reading, ==, tp_session_reading (session, (TpReading) p));
      g_assert_cmpstr (text, ==, tp_readings_get_shown_text (readings, (TpReading) p));
      g_assert_cmpuint (g_strv_length (shown_lines), ==, g_strv_length (engine_lines));
      for (guint l = 0; engine_lines[l] != NULL; l++)
        if (strlen (engine_lines[l]) <= TP_FOLD_LIMIT)
          g_assert_cmpstr (shown_lines[l], ==, engine_lines[l]);
        else
          g_assert_cmpuint (strlen (shown_lines[l]), <, TP_FOLD_HEAD + TP_FOLD_TAIL + 100);
    }
  summary = g_strchomp (g_strdup (tp_session_reading (session, TP_READING_SUMMARY)));
  g_assert_cmpstr (tp_window_get_summary (window), ==, summary);
  tp_session_free (session);
}

static void
test_window_builds (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      g_autofree char *spec = NULL;

      gtk_window_present (GTK_WINDOW (window));
      spec = pane_text (window, TP_PANE_SPEC);
      g_assert_true (g_str_has_prefix (spec, "   0  Parameter"));
      assert_panes_match_engine (window, "loss", "error", FALSE);
      g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==,
                       "The README sample – Topos Playground");
      g_assert_cmpstr (tp_editor_get_diagnostic_text (tp_window_get_editor (window)), ==, "");

      g_object_ref (window);
      gtk_window_destroy (GTK_WINDOW (window));
      g_assert_finalize_object (window);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The samples menu is the manifest resources/samples/samples.xml (read
 * here from TP_SAMPLES_DIR, the app reads its copy in the resources),
 * and opening a sample applies its choices. */
static void
test_window_samples_manifest (void)
{
  if (g_test_subprocess ())
    {
      const char *dir = g_getenv ("TP_SAMPLES_DIR");
      g_autofree char *path = NULL;
      g_autofree char *xml = NULL;
      g_autoptr(GRegex) re = g_regex_new ("<sample id=\"([^\"]*)\" target=\"([^\"]*)\" observe=\"([^\"]*)\" teaching=\"([a-z]*)\">\\s*<title>([^<]*)</title>",
                                          0, 0, NULL);
      g_autoptr(GMatchInfo) match = NULL;
      guint n = 0, k = 0;
      const TpSample *samples = tp_samples_get (&n);

      g_assert_nonnull (dir);
      path = g_build_filename (dir, "samples.xml", NULL);
      g_assert_true (g_file_get_contents (path, &xml, NULL, NULL));
      g_assert_cmpuint (n, >=, 8);
      for (g_regex_match (re, xml, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL), k++)
        {
          g_autofree char *id = g_match_info_fetch (match, 1);
          g_autofree char *target = g_match_info_fetch (match, 2);
          g_autofree char *observe = g_match_info_fetch (match, 3);
          g_autofree char *teaching = g_match_info_fetch (match, 4);
          g_autofree char *title = g_match_info_fetch (match, 5);
          TpWindow *window;

          g_assert_cmpuint (k, <, n);
          g_assert_cmpstr (samples[k].id, ==, id);
          g_assert_cmpstr (samples[k].title, ==, title);
          g_assert_cmpstr (samples[k].target, ==, *target != '\0' ? target : NULL);
          g_assert_cmpstr (samples[k].observe, ==, *observe != '\0' ? observe : NULL);
          g_assert_cmpint (samples[k].teaching, ==, g_str_equal (teaching, "true"));

          window = tp_test_window_new ();
          tp_window_open_sample (window, id);
          g_assert_cmpstr (tp_document_get_target (tp_window_get_document (window)), ==, samples[k].target);
          g_assert_cmpstr (tp_document_get_observe (tp_window_get_document (window)), ==, samples[k].observe);
          g_object_ref (window);
          gtk_window_destroy (GTK_WINDOW (window));
          g_assert_finalize_object (window);
        }
      g_assert_cmpuint (k, ==, n);
      /* The desktop's choice, where the web page used to differ. */
      g_assert_cmpstr (tp_samples_lookup ("linear-regression")->observe, ==, "error");
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
type_at_end (TpDocument *document,
             const char *text)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert_interactive (buffer, &end, text, -1, TRUE);
}

static gboolean
window_ready (gpointer data)
{
  return tp_window_get_ready (data);
}

/* Typing re-reads by itself after the debounce. */
static void
test_window_edit_rereads (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      TpDocument *document = tp_window_get_document (window);
      g_autofree char *values = NULL;

      gtk_window_present (GTK_WINDOW (window));
      type_at_end (document, "twice = loss * 2.0\n");
      g_assert_true (tp_document_get_busy (document));
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      values = pane_text (window, TP_PANE_VALUES);
      g_assert_nonnull (strstr (values, "twice        []         32\n"));
      assert_panes_match_engine (window, "loss", "error", FALSE);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static guint
find_item (GtkDropDown *dropdown,
           const char  *name)
{
  GListModel *model = gtk_drop_down_get_model (dropdown);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i), name) == 0)
      return i;
  return GTK_INVALID_LIST_POSITION;
}

/* The controls list what the names list says and change the readings as
 * the command line's --target, --observe and --exact do. */
static void
test_window_controls (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      TpDocument *document = tp_window_get_document (window);
      GtkDropDown *target = tp_window_get_target_dropdown (window);
      GtkDropDown *observe = tp_window_get_observe_dropdown (window);
      GListModel *targets = gtk_drop_down_get_model (target);
      GListModel *observes = gtk_drop_down_get_model (observe);

      gtk_window_present (GTK_WINDOW (window));
      /* target: the default then every rank-0 name; observe: every name */
      g_assert_cmpuint (g_list_model_get_n_items (targets), ==, 6);
      g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (targets), 0), ==, "the last scalar");
      g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (observes), 0), ==, "nothing extra");
      g_assert_cmpuint (g_list_model_get_n_items (observes), ==, 6);
      g_assert_cmpuint (gtk_drop_down_get_selected (target), ==, find_item (target, "loss"));
      g_assert_cmpuint (gtk_drop_down_get_selected (observe), ==, find_item (observe, "error"));

      gtk_drop_down_set_selected (target, find_item (target, "error"));
      gtk_drop_down_set_selected (observe, 0);
      g_assert_cmpstr (tp_document_get_target (document), ==, "error");
      g_assert_null (tp_document_get_observe (document));
      tp_window_recompute_now (window);
      assert_panes_match_engine (window, "error", NULL, FALSE);

      gtk_drop_down_set_selected (observe, find_item (observe, "x"));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.exact", NULL));
      g_assert_true (tp_document_get_exact (document));
      tp_window_recompute_now (window);
      assert_panes_match_engine (window, "error", "x", TRUE);

      /* a program with no rank-0 value offers only the default */
      tp_window_open_sample (window, "not-yet-a-scalar");
      tp_window_recompute_now (window);
      g_assert_cmpuint (g_list_model_get_n_items (targets), ==, 1);  /* y is [1, 2] */
      g_assert_cmpuint (g_list_model_get_n_items (observes), ==, 4);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A refused line shows `line:column: message`, underlines the spot, and
 * every pane keeps its last good reading, marked stale. */
static void
test_window_refused (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      TpDocument *document = tp_window_get_document (window);
      TpEditor *editor = tp_window_get_editor (window);
      g_autofree char *before[TP_N_PANES] = { NULL };
      const char *bad = "# the README sample\nw = parameter 0.0\nx = input [2]\ny = x @ x\n";
      TpSession *session = tp_session_new ();
      const TpDiag *diag;
      size_t n = 0;
      g_autofree char *expected = NULL;

      gtk_window_present (GTK_WINDOW (window));
      for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
        before[p] = pane_text (window, (TpPane) p);

      tp_document_set_text (document, bad);
      tp_window_recompute_now (window);

      tp_session_compile (session, bad, strlen (bad), NULL);
      diag = tp_session_diags (session, &n);
      expected = g_strdup_printf ("%u:%u: %s", diag->line, diag->column, diag->message);
      g_assert_cmpstr (tp_editor_get_diagnostic_text (editor), ==, expected);
      g_assert_true (g_str_has_prefix (expected, "4:"));
      g_assert_true (tp_editor_has_error_underline (editor));
      for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
        {
          g_autofree char *now = pane_text (window, (TpPane) p);
          GtkWidget *pane = tp_window_get_pane (window, (TpPane) p);

          g_assert_cmpstr (now, ==, before[p]);
          g_assert_true (gtk_widget_has_css_class (pane, "stale"));
        }
      g_assert_true (gtk_widget_has_css_class (tp_window_get_pane (window, TP_PANE_PICTURE), "stale"));
      g_assert_true (g_str_has_prefix (tp_window_get_summary (window), "(last good reading) "));

      /* undo brings the program back, and the marks go */
      g_assert_true (gtk_text_buffer_get_can_undo (GTK_TEXT_BUFFER (tp_document_get_buffer (document))));
      gtk_text_buffer_undo (GTK_TEXT_BUFFER (tp_document_get_buffer (document)));
      tp_window_recompute_now (window);
      g_assert_cmpstr (tp_editor_get_diagnostic_text (editor), ==, "");
      g_assert_false (tp_editor_has_error_underline (editor));
      g_assert_false (gtk_widget_has_css_class (tp_window_get_pane (window, TP_PANE_SPEC), "stale"));

      tp_session_free (session);
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The first span the "selected-ref" tag covers in @pane, or NULL. */
static char *
selected_ref_text (TpWindow *window,
                   TpPane    pane)
{
  GtkTextView *view = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, pane)));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "selected-ref");
  GtkTextIter start, end;

  gtk_text_buffer_get_start_iter (buffer, &start);
  if (!gtk_text_iter_starts_tag (&start, tag) && !gtk_text_iter_forward_to_tag_toggle (&start, tag))
    return NULL;
  end = start;
  gtk_text_iter_forward_to_tag_toggle (&end, tag);
  return gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
}

/* The editor line carrying the selected-statement highlight, or NULL. */
static const char *
selected_editor_line (TpWindow *window)
{
  static char line[256];
  GtkTextView *view = tp_editor_get_view (tp_window_get_editor (window));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "tp-selected");
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_start_iter (buffer, &start);
  if (tag == NULL
      || (!gtk_text_iter_starts_tag (&start, tag) && !gtk_text_iter_forward_to_tag_toggle (&start, tag)))
    return NULL;
  end = start;
  gtk_text_iter_forward_to_line_end (&end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
  g_strlcpy (line, text, sizeof line);
  return line;
}

/* Putting the cursor on a statement selects its node in every pane. */
static void
test_window_cross_highlight (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      TpDocument *document = tp_window_get_document (window);
      GtkTextView *view = tp_editor_get_view (tp_window_get_editor (window));
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      GtkTextIter iter;
      g_autofree char *spec = NULL;
      g_autofree char *plan = NULL;
      g_autofree char *values = NULL;
      g_autofree char *hlo = NULL;

      gtk_window_present (GTK_WINDOW (window));
      gtk_widget_grab_focus (GTK_WIDGET (view));
      /* line 5 is `error = w * x - y`: node 4 */
      gtk_text_buffer_get_iter_at_line (buffer, &iter, 4);
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, 4);

      spec = selected_line (window, TP_PANE_SPEC);
      g_assert_cmpstr (spec, ==, "   4  Sub            3, 2               []");
      plan = selected_line (window, TP_PANE_PLAN);
      g_assert_true (g_str_has_prefix (plan, "   4  Sub"));
      values = selected_line (window, TP_PANE_VALUES);
      g_assert_true (g_str_has_prefix (values, "error "));
      g_assert_true (tp_text_pane_is_selected_visible (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_DERIVATIVE))));
      hlo = selected_line (window, TP_PANE_STABLEHLO);
      if (hlo != NULL)   /* StableHLO names node 4 `%v4` */
        g_assert_true (g_str_has_prefix (g_strchug (hlo), "%v4 = "));

      /* and selecting in a reading highlights the statement in the editor */
      tp_document_set_selected_node (document, 5);
      g_clear_pointer (&spec, g_free);
      spec = selected_line (window, TP_PANE_SPEC);
      g_assert_true (g_str_has_prefix (spec, "   5  Mul"));
      g_assert_cmpstr (selected_editor_line (window), ==, "loss = error * error");

      /* `%arg2` in StableHLO is the module's third argument: node 2, y */
      {
        TpTextPane *hlo_pane = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_STABLEHLO));
        GtkTextView *hlo_view = tp_text_pane_get_view (hlo_pane);
        GtkTextBuffer *hlo_buffer = gtk_text_view_get_buffer (hlo_view);
        g_autofree char *text = tp_text_pane_dup_text (hlo_pane);
        const char *use = strstr (text, "%v3, %arg2");
        g_autofree char *ref = NULL;

        g_assert_nonnull (use);
        gtk_widget_grab_focus (GTK_WIDGET (hlo_view));
        gtk_text_buffer_get_iter_at_offset (hlo_buffer, &iter,
                                            (int) g_utf8_pointer_to_offset (text, use + strlen ("%v3, %ar")));
        gtk_text_buffer_place_cursor (hlo_buffer, &iter);
        g_assert_cmpint (tp_document_get_selected_node (document), ==, 2);
        g_assert_cmpstr (selected_editor_line (window), ==, "y = input 4.0");
        ref = selected_ref_text (window, TP_PANE_STABLEHLO);
        g_assert_cmpstr (ref, ==, "%arg2");
        g_clear_pointer (&values, g_free);
        values = selected_line (window, TP_PANE_VALUES);
        g_assert_true (g_str_has_prefix (values, "y "));
      }

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* Tiled shows six panes; focus shows one; the choice is kept. */
static void
test_window_layout (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      GtkWidget *plan = tp_window_get_pane (window, TP_PANE_PLAN);
      GtkWidget *spec = tp_window_get_pane (window, TP_PANE_SPEC);
      g_autoptr(GSettings) settings = tp_settings_new ();
      TpWindow *second;

      gtk_window_present (GTK_WINDOW (window));
      g_assert_false (tp_window_get_focus_layout (window));
      g_assert_true (gtk_widget_get_mapped (plan) || !gtk_widget_get_mapped (GTK_WIDGET (window)));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "plan"));
      g_assert_true (tp_window_get_focus_layout (window));
      g_assert_true (gtk_widget_is_ancestor (plan, GTK_WIDGET (window)));
      g_assert_false (gtk_widget_get_child_visible (spec) && gtk_widget_is_drawable (spec));
      g_assert_cmpint (g_settings_get_enum (settings, "layout"), ==, 1);
      g_assert_cmpint (g_settings_get_enum (settings, "focus-pane"), ==, TP_PANE_PLAN);

      /* a new window opens in the kept layout */
      second = window_new_on_readme ();
      g_assert_true (tp_window_get_focus_layout (second));
      gtk_window_destroy (GTK_WINDOW (second));

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.focus-layout", NULL));
      g_assert_false (tp_window_get_focus_layout (window));
      g_assert_cmpint (g_settings_get_enum (settings, "layout"), ==, 0);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
screenshot_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      data)
{
  GMainLoop *loop = data;
  g_autoptr(GError) error = NULL;

  g_assert_true (tp_window_screenshot_finish (TP_WINDOW (object), result, &error));
  g_assert_no_error (error);
  g_main_loop_quit (loop);
}

/* The screenshot waits for every pane, then writes the window's PNG. */
static void
test_window_screenshot (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
      g_autofree char *path = g_test_build_filename (G_TEST_BUILT, "test-window-screenshot.png", NULL);
      g_autoptr(GdkTexture) texture = NULL;
      g_autoptr(GError) error = NULL;

      tp_window_open_sample (window, "readme");   /* read by the worker */
      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
      gtk_window_present (GTK_WINDOW (window));
      g_unlink (path);
      tp_window_screenshot_async (window, path, NULL, screenshot_done_cb, loop);
      g_main_loop_run (loop);
      g_assert_true (tp_window_get_ready (window));
      for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
        {
          g_autofree char *text = pane_text (window, (TpPane) p);
          g_assert_cmpstr (text, !=, "");
        }
      texture = gdk_texture_new_from_filename (path, &error);
      g_assert_no_error (error);
      g_assert_cmpint (gdk_texture_get_width (texture), >=, 1000);
      g_assert_cmpint (gdk_texture_get_height (texture), >=, 600);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* {==== drag and drop, closing, the picture ====} */

static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  return NULL;
}

static gboolean
drop_files (TpWindow *window,
            GSList   *files)
{
  GtkDropTarget *target = find_drop_target (GTK_WIDGET (window));
  GValue value = G_VALUE_INIT;
  gboolean handled = FALSE;

  g_assert_nonnull (target);
  g_assert_true (g_type_is_a (GDK_TYPE_FILE_LIST, G_TYPE_BOXED));
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_set_boxed (&value, files);
  g_signal_emit_by_name (target, "drop", &value, 20.0, 20.0, &handled);
  g_value_unset (&value);
  return handled;
}

static guint
count_playground_windows (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (TP_IS_WINDOW (window))
        n++;
    }
  return n;
}

static TpWindow *
find_window_with_file (GFile *file)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);
      GFile *shown;

      if (!TP_IS_WINDOW (window))
        continue;
      shown = tp_document_get_file (tp_window_get_document (TP_WINDOW (window)));
      if (shown != NULL && g_file_equal (shown, file))
        return TP_WINDOW (window);
    }
  return NULL;
}

static gboolean
file_window_shown (gpointer data)
{
  TpWindow *window = find_window_with_file (data);

  return window != NULL && tp_document_get_readings (tp_window_get_document (window)) != NULL;
}

/* Dropping .tape files: the first goes into a window that holds nothing
 * worth keeping, the rest (or all, when it holds a program) into new
 * windows. */
static void
test_window_drop (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      g_autofree char *dir = g_dir_make_tmp ("topos-drop-XXXXXX", NULL);
      g_autofree char *a = g_build_filename (dir, "a.tape", NULL);
      g_autofree char *b = g_build_filename (dir, "b.tape", NULL);
      g_autofree char *c = g_build_filename (dir, "c.tape", NULL);
      g_autoptr(GFile) fa = g_file_new_for_path (a);
      g_autoptr(GFile) fb = g_file_new_for_path (b);
      g_autoptr(GFile) fc = g_file_new_for_path (c);
      GSList *files;

      g_assert_true (g_file_set_contents (a, "a = parameter 1.0\nloss = a * a\n", -1, NULL));
      g_assert_true (g_file_set_contents (b, "b = parameter 2.0\nloss = b * b\n", -1, NULL));
      g_assert_true (g_file_set_contents (c, "c = parameter 3.0\nloss = c * c\n", -1, NULL));
      gtk_window_present (GTK_WINDOW (window));
      g_assert_true (tp_document_is_pristine (tp_window_get_document (window)));

      /* one file onto an empty window: that window opens it */
      files = g_slist_append (NULL, fa);
      g_assert_true (drop_files (window, files));
      g_slist_free (files);
      g_assert_true (tp_test_wait_until (file_window_shown, fa, 20));
      g_assert_true (find_window_with_file (fa) == window);
      g_assert_cmpuint (count_playground_windows (), ==, 1);

      /* two files onto a window that holds one: two new windows */
      files = g_slist_append (g_slist_append (NULL, fb), fc);
      g_assert_true (drop_files (window, files));
      g_slist_free (files);
      g_assert_true (tp_test_wait_until (file_window_shown, fb, 20));
      g_assert_true (tp_test_wait_until (file_window_shown, fc, 20));
      g_assert_cmpuint (count_playground_windows (), ==, 3);
      g_assert_true (find_window_with_file (fa) == window);
      g_assert_false (find_window_with_file (fb) == window);
      g_assert_false (find_window_with_file (fc) == find_window_with_file (fb));

      gtk_window_destroy (GTK_WINDOW (find_window_with_file (fb)));
      gtk_window_destroy (GTK_WINDOW (find_window_with_file (fc)));
      gtk_window_destroy (GTK_WINDOW (window));
      g_unlink (a);
      g_unlink (b);
      g_unlink (c);
      g_rmdir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static GtkMessageDialog *
find_close_dialog (TpWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (GTK_IS_MESSAGE_DIALOG (toplevel)
          && gtk_window_get_transient_for (GTK_WINDOW (toplevel)) == GTK_WINDOW (window))
        return GTK_MESSAGE_DIALOG (toplevel);
    }
  return NULL;
}

static gboolean
no_draft_left (gpointer data)
{
  g_autoptr(TpDrafts) store = tp_drafts_new (NULL);
  g_auto(GStrv) drafts = tp_drafts_list (store);

  return drafts[0] == NULL;
}

/* Closing a window with unsaved edits asks first: Cancel keeps it,
 * Discard closes it and drops the draft; an unmodified window closes at
 * once. */
static void
test_window_close_prompt (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      TpWindow *clean = window_new_on_readme ();
      TpDocument *document = tp_window_get_document (window);
      g_autoptr(TpDrafts) store = tp_drafts_new (NULL);
      GtkMessageDialog *dialog;
      g_autofree char *text = NULL;
      g_auto(GStrv) drafts = NULL;

      /* as its application's would */
      tp_document_set_drafts (document, store);
      gtk_window_present (GTK_WINDOW (window));
      gtk_window_present (GTK_WINDOW (clean));

      /* nothing to save: it just closes */
      g_object_add_weak_pointer (G_OBJECT (clean), (gpointer *) &clean);
      gtk_window_close (GTK_WINDOW (clean));
      g_assert_null (find_close_dialog (clean));
      g_assert_null (clean);

      type_at_end (document, "twice = loss * 2.0\n");
      g_assert_true (tp_document_get_modified (document));
      tp_document_save_draft_now (document);
      drafts = tp_drafts_list (store);
      g_assert_cmpuint (g_strv_length (drafts), ==, 1);

      gtk_window_close (GTK_WINDOW (window));
      dialog = find_close_dialog (window);
      g_assert_nonnull (dialog);
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
      g_object_get (dialog, "text", &text, NULL);
      /* the program's title: its first comment (no file yet) */
      g_assert_cmpstr (text, ==, "Save changes to “the README sample” before closing?");

      /* Cancel: the window and its edits stay */
      gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
      g_assert_null (find_close_dialog (window));
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));
      g_assert_true (tp_document_get_modified (document));

      /* Discard: the window goes, and so does the draft */
      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      gtk_window_close (GTK_WINDOW (window));
      dialog = find_close_dialog (window);
      g_assert_nonnull (dialog);
      gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_REJECT);
      g_assert_true (tp_test_wait_until (no_draft_left, NULL, 5));
      g_assert_cmpuint (count_playground_windows (), ==, 0);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
click_at (GtkGesture *click,
          double      x,
          double      y)
{
  g_signal_emit_by_name (click, "pressed", 1, x, y);
  g_signal_emit_by_name (click, "released", 1, x, y);
}

/* Clicking a node in the picture selects it in every pane (and the
 * editor); clicking the empty page clears the selection. */
static void
test_window_picture_click (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
      GtkGesture *click = find_click_gesture (tp_picture_view_get_canvas (picture));
      g_autofree char *spec = NULL;
      g_autofree char *derivative = NULL;
      g_autofree char *plan = NULL;
      g_autofree char *hlo = NULL;
      g_autofree char *values = NULL;
      graphene_rect_t bounds;
      double x, y;

      tp_window_open_sample (window, "readme");
      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
      gtk_window_present (GTK_WINDOW (window));
      g_assert_true (tp_test_wait_until (picture_shown, window, 20));
      g_assert_nonnull (click);

      /* node 4 is `error = w * x - y` */
      g_assert_true (tp_picture_view_get_node_center (picture, 4, &x, &y));
      click_at (click, x, y);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, 4);
      g_assert_true (tp_picture_view_get_selected_bounds (picture, &bounds));

      spec = selected_line (window, TP_PANE_SPEC);
      g_assert_cmpstr (spec, ==, "   4  Sub            3, 2               []");
      derivative = selected_line (window, TP_PANE_DERIVATIVE);
      g_assert_true (g_str_has_prefix (derivative, "   4  Sub"));
      plan = selected_line (window, TP_PANE_PLAN);
      g_assert_true (g_str_has_prefix (plan, "   4  Sub"));
      hlo = selected_line (window, TP_PANE_STABLEHLO);
      g_assert_true (g_str_has_prefix (g_strchug (hlo), "%v4 = stablehlo.subtract"));
      values = selected_line (window, TP_PANE_VALUES);
      g_assert_true (g_str_has_prefix (values, "error "));
      g_assert_cmpstr (selected_editor_line (window), ==, "error = w * x - y");

      /* a gradient node: in the derivative and the plan, not the spec */
      g_assert_true (tp_picture_view_get_node_center (picture, 20, &x, &y));
      click_at (click, x, y);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, 20);
      g_clear_pointer (&spec, g_free);
      spec = selected_line (window, TP_PANE_SPEC);
      g_assert_null (spec);
      g_clear_pointer (&derivative, g_free);
      derivative = selected_line (window, TP_PANE_DERIVATIVE);
      g_assert_true (g_str_has_prefix (derivative, "  20  Add"));
      g_clear_pointer (&values, g_free);
      values = selected_line (window, TP_PANE_VALUES);
      g_assert_true (g_str_has_prefix (values, "d loss / d w "));

      /* the page around the picture selects nothing */
      click_at (click, 2, 2);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, -1);
      g_assert_false (tp_text_pane_is_selected_visible (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_SPEC))));

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* {==== a long reading, line by line ====} */

/* A chain of small layers, @layers of them, @first_line at the top. */
static char *
layered_program (guint       layers,
                 const char *first_line)
{
  GString *s = g_string_new (first_line);
  char prev[32] = "x";

  g_string_append (s, "x = input [4, 8]\n");
  for (guint i = 0; i < layers; i++)
    {
      g_string_append_printf (s, "w%u = parameter [8, 8]\nh%u = tanh(%s @ w%u) + %s\n", i, i, prev, i, prev);
      g_snprintf (prev, sizeof prev, "h%u", i);
    }
  g_string_append_printf (s, "loss = sum(%s * %s)\n", prev, prev);
  return g_string_free (s, FALSE);
}

/* Every tag range of @buffer, "tag start end" a line, in a fixed order. */
static char *
tag_ranges (GtkTextBuffer *buffer)
{
  static const char *const tags[] = {
    "derived", "divider", "summary", "kept", "selected", "selected-ref",
    "hlo-comment", "hlo-operation", "hlo-type", "hlo-value", "hlo-symbol", "hlo-keyword", "hlo-number",
  };
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  GString *out = g_string_new (NULL);

  for (guint t = 0; t < G_N_ELEMENTS (tags); t++)
    {
      GtkTextTag *tag = gtk_text_tag_table_lookup (table, tags[t]);
      GtkTextIter iter;

      g_assert_nonnull (tag);
      gtk_text_buffer_get_start_iter (buffer, &iter);
      if (!gtk_text_iter_starts_tag (&iter, tag) && !gtk_text_iter_forward_to_tag_toggle (&iter, tag))
        continue;
      do
        {
          GtkTextIter end = iter;

          gtk_text_iter_forward_to_tag_toggle (&end, tag);
          g_string_append_printf (out, "%s %d %d\n", tags[t], gtk_text_iter_get_offset (&iter),
                                  gtk_text_iter_get_offset (&end));
          iter = end;
        }
      while (gtk_text_iter_forward_to_tag_toggle (&iter, tag));
    }
  return g_string_free (out, FALSE);
}

static gboolean
panes_idle (gpointer data)
{
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    if (tp_text_pane_get_busy (TP_TEXT_PANE (tp_window_get_pane (data, (TpPane) p))))
      return FALSE;
  return TRUE;
}

/* @window's panes show what a fresh window shows for the same text:
 * the same text and the same decoration, to the character. */
static void
assert_panes_like_fresh (TpWindow *window)
{
  TpWindow *fresh = tp_test_window_new ();
  g_autofree char *source = tp_document_dup_text (tp_window_get_document (window));

  tp_document_set_text (tp_window_get_document (fresh), source);
  tp_window_recompute_now (fresh);
  tp_document_set_selected_node (tp_window_get_document (fresh),
                                 tp_document_get_selected_node (tp_window_get_document (window)));
  assert_panes_match_engine (window, NULL, NULL, FALSE);
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    {
      GtkTextView *a = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, (TpPane) p)));
      GtkTextView *b = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (fresh, (TpPane) p)));
      g_autofree char *ta = tag_ranges (gtk_text_view_get_buffer (a));
      g_autofree char *tb = tag_ranges (gtk_text_view_get_buffer (b));

      g_assert_cmpstr (ta, ==, tb);
    }
  gtk_window_destroy (GTK_WINDOW (fresh));
}

/* A long reading reaches its pane over several main-loop turns, keeping
 * the lines it shares with the last one; whatever the edit (at the end,
 * at the top so every node is renumbered, refused, or overtaken by the
 * next one half-way), the pane ends with exactly the reading and the
 * decoration a fresh pane has. */
static void
test_window_long_readings (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      GtkTextBuffer *spec = gtk_text_view_get_buffer (tp_text_pane_get_view (
        TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_SPEC))));
      g_autofree char *p1 = layered_program (150, "# a long program\n");
      g_autofree char *p2 = layered_program (150, "early = 2.5\n");
      g_autofree char *p3 = layered_program (149, "early = 2.5\n");
      g_autofree char *p4 = layered_program (60, "");
      guint turns = 0;
      GtkTextIter kept;
      GtkTextMark *mark;

      gtk_window_present (GTK_WINDOW (window));
      tp_document_set_text (document, p1);
      tp_document_recompute_now (document);
      g_assert_false (panes_idle (window));
      while (!panes_idle (window))
        {
          g_main_context_iteration (NULL, TRUE);
          turns++;
        }
      g_assert_cmpuint (turns, >, 10);       /* in slices, not at once */
      assert_panes_like_fresh (window);

      /* an edit at the end keeps every line before it: a mark on the
       * spec's tenth line stays where it was */
      gtk_text_buffer_get_iter_at_line (spec, &kept, 10);
      mark = gtk_text_buffer_create_mark (spec, NULL, &kept, TRUE);
      {
        g_autofree char *longer = g_strconcat (p1, "more = h3 * 3.0\n", NULL);

        tp_document_set_text (document, longer);
        tp_document_recompute_now (document);
        g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      }
      gtk_text_buffer_get_iter_at_mark (spec, &kept, mark);
      g_assert_cmpint (gtk_text_iter_get_line (&kept), ==, 10);
      g_assert_true (gtk_text_iter_starts_line (&kept));
      assert_panes_like_fresh (window);

      /* at the top: every node renumbered */
      tp_document_set_text (document, p2);
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      assert_panes_like_fresh (window);

      /* overtaken half-way by a shorter program, then by a refused one */
      tp_document_set_text (document, p3);
      tp_document_recompute_now (document);
      for (guint k = 0; k < 5; k++)
        g_main_context_iteration (NULL, TRUE);
      g_assert_false (panes_idle (window));
      tp_document_set_text (document, p4);
      tp_document_recompute_now (document);
      for (guint k = 0; k < 3; k++)
        g_main_context_iteration (NULL, TRUE);
      tp_document_set_text (document, "x = input [2]\ny = x @ x @ x\n");
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      g_assert_true (tp_document_get_stale (document));
      tp_document_set_text (document, p4);
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      assert_panes_like_fresh (window);

      /* and the selection shows on the new lines */
      tp_document_set_selected_node (document, 7);
      {
        g_autofree char *line = selected_line (window, TP_PANE_SPEC);

        g_assert_nonnull (line);
        g_assert_true (g_str_has_prefix (line, "   7  "));
      }
      assert_panes_like_fresh (window);

      /* a pane out of sight (the focus layout) takes its reading when it
       * is shown */
      tp_window_set_focus_layout (window, TRUE, TP_PANE_SPEC);
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      {
        GtkTextBuffer *plan = gtk_text_view_get_buffer (tp_text_pane_get_view (
          TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_PLAN))));
        GtkTextIter start, end;
        g_autofree char *before = NULL;
        g_autofree char *after = NULL;

        gtk_text_buffer_get_bounds (plan, &start, &end);
        before = gtk_text_buffer_get_text (plan, &start, &end, TRUE);
        tp_document_set_text (document, p1);
        tp_document_recompute_now (document);
        g_assert_true (tp_test_wait_until (window_ready, window, 20));
        gtk_text_buffer_get_bounds (plan, &start, &end);
        after = gtk_text_buffer_get_text (plan, &start, &end, TRUE);
        g_assert_cmpstr (after, ==, before);
        tp_window_set_focus_layout (window, TRUE, TP_PANE_PLAN);
        g_assert_true (tp_test_wait_until (panes_idle, window, 20));
        g_clear_pointer (&after, g_free);
        gtk_text_buffer_get_bounds (plan, &start, &end);
        after = gtk_text_buffer_get_text (plan, &start, &end, TRUE);
        g_assert_cmpstr (after, !=, before);
      }
      assert_panes_like_fresh (window);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static char *clipboard_text (GtkWidget *widget);

static GtkWidget *
find_icon_button (GtkWidget  *widget,
                  const char *icon)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), icon) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_icon_button (child, icon);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Line @line of @text, without its '\n'. */
static char *
nth_line (const char *text,
          guint       line)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_assert_cmpuint (line, <, g_strv_length (lines));
  return g_strdup (lines[line]);
}

static char *
buffer_line (GtkTextBuffer *buffer,
             int            line)
{
  GtkTextIter a, b;

  gtk_text_buffer_get_iter_at_line (buffer, &a, line);
  b = a;
  if (!gtk_text_iter_ends_line (&b))
    gtk_text_iter_forward_to_line_end (&b);
  return gtk_text_buffer_get_text (buffer, &a, &b, TRUE);
}

static gboolean
line_has_tag_at (GtkTextBuffer *buffer,
                 int            line,
                 int            index,
                 const char    *tag)
{
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line_index (buffer, &iter, line, index);
  return gtk_text_iter_has_tag (&iter, gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), tag));
}

/* A values line over a few thousand characters is shown folded: its
 * start, " … ", its end, the element count and a "show all" control;
 * the pane's copy gives the full text, its lines keep their node and
 * decoration, and "show all" shows the line whole. */
static void
test_window_folded_values (void)
{
  if (g_test_subprocess ())
    {
      static const char program[] = "x = parameter [40, 40]\nloss = sum(x @ x)\n";
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_VALUES));
      GtkTextView *view = tp_text_pane_get_view (pane);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      TpSession *session = tp_session_new ();
      g_autofree char *full = NULL;
      g_autofree char *x_full = NULL;
      g_autofree char *grad_full = NULL;
      g_autofree char *shown = NULL;
      g_autofree char *copied = NULL;
      g_autofree char *end_part = NULL;
      guint grad_line = 0;
      int x_node = -1;
      GtkTextIter iter;

      g_assert_cmpint (tp_session_compile (session, program, strlen (program), NULL), ==, TP_STATUS_OK);
      full = g_strdup (tp_session_reading (session, TP_READING_VALUES));
      x_full = nth_line (full, 0);
      g_assert_cmpuint (strlen (x_full), >, TP_FOLD_LIMIT);
      for (guint l = 1; grad_line == 0; l++)
        {
          g_autofree char *line = nth_line (full, l);

          if (g_str_has_prefix (line, "d loss / d x"))
            grad_line = l;
        }
      grad_full = nth_line (full, grad_line);

      gtk_window_present (GTK_WINDOW (window));
      tp_document_set_text (document, program);
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));

      /* folded: start, " … ", end, count, control; as many lines */
      shown = buffer_line (buffer, 0);
      g_assert_cmpuint (strlen (shown), <, TP_FOLD_HEAD + TP_FOLD_TAIL + 100);
      g_assert_true (strncmp (shown, x_full, 200) == 0);
      g_assert_nonnull (strstr (shown, " … "));
      end_part = g_strdup (x_full + strlen (x_full) - 100);
      g_assert_nonnull (strstr (shown, end_part));
      g_assert_true (g_str_has_suffix (shown, "   [1600 elements] show all"));
      {
        g_auto(GStrv) lines = g_strsplit (full, "\n", -1);

        g_assert_cmpint (gtk_text_buffer_get_line_count (buffer), ==, (int) g_strv_length (lines));
      }
      g_assert_true (line_has_tag_at (buffer, 0, (int) strlen (shown) - 2, "show-all"));
      g_assert_false (line_has_tag_at (buffer, 0, 10, "show-all"));
      {
        g_autofree char *line = buffer_line (buffer, 1);
        g_autofree char *want = nth_line (full, 1);

        g_assert_cmpstr (line, ==, want);   /* a short line stays whole */
      }

      /* copying gives the exact full text: the pane's button, and the
       * window's action */
      g_assert_cmpstr ((copied = tp_text_pane_dup_reading (pane)), ==, full);
      g_clear_pointer (&copied, g_free);
      g_signal_emit_by_name (find_icon_button (GTK_WIDGET (pane), "edit-copy-symbolic"), "clicked");
      copied = clipboard_text (GTK_WIDGET (view));
      g_assert_cmpstr (copied, ==, full);
      g_clear_pointer (&copied, g_free);
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (view)), "before");
      gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-reading", "s", "values");
      copied = clipboard_text (GTK_WIDGET (view));
      g_assert_cmpstr (copied, ==, full);

      /* the folded gradient line is still derived, in its end too */
      {
        g_autofree char *line = buffer_line (buffer, (int) grad_line);

        g_assert_nonnull (strstr (line, " … "));
        g_assert_true (line_has_tag_at (buffer, (int) grad_line, 0, "derived"));
        g_assert_true (line_has_tag_at (buffer, (int) grad_line, (int) strlen (line) - 30, "derived"));
        g_assert_false (line_has_tag_at (buffer, 0, 0, "derived"));
      }

      /* cross-highlight: the cursor in the end of the folded line selects
       * x, and selecting x marks the folded line */
      for (guint i = 0; i < tp_document_get_readings (document)->n_names; i++)
        if (g_str_equal (tp_document_get_readings (document)->names[i].name, "x"))
          x_node = (int) tp_document_get_readings (document)->names[i].node;
      g_assert_cmpint (x_node, >=, 0);
      tp_document_set_selected_node (document, -1);
      gtk_widget_grab_focus (GTK_WIDGET (view));
      gtk_text_buffer_get_iter_at_line_index (buffer, &iter, 0, (int) strlen (shown) - 40);
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, x_node);
      {
        g_autofree char *line = selected_line (window, TP_PANE_VALUES);

        g_assert_cmpstr (line, ==, shown);
      }
      g_assert_true (line_has_tag_at (buffer, 0, (int) strlen (shown) - 5, "selected"));

      /* "show all" (the context menu's action, at the cursor) shows the
       * line whole; the others stay folded, the selection stays */
      gtk_text_buffer_get_iter_at_line (buffer, &iter, 0);
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pane), "pane.show-all", NULL));
      {
        g_autofree char *line = buffer_line (buffer, 0);
        g_autofree char *other = buffer_line (buffer, (int) grad_line);

        g_assert_cmpstr (line, ==, x_full);
        g_assert_nonnull (strstr (other, " … "));
        g_assert_true (line_has_tag_at (buffer, 0, (int) strlen (x_full) - 5, "selected"));
        g_assert_false (line_has_tag_at (buffer, 0, (int) strlen (x_full) - 5, "show-all"));
      }
      g_assert_false (tp_text_pane_show_all (pane, 0));     /* already whole */
      g_assert_false (tp_text_pane_show_all (pane, 1));     /* never folded */
      g_assert_true (tp_text_pane_show_all (pane, grad_line));
      {
        g_autofree char *line = buffer_line (buffer, (int) grad_line);

        g_assert_cmpstr (line, ==, grad_full);
        g_assert_true (line_has_tag_at (buffer, (int) grad_line, (int) strlen (grad_full) - 5, "derived"));
      }
      g_clear_pointer (&copied, g_free);
      g_assert_cmpstr ((copied = tp_text_pane_dup_reading (pane)), ==, full);
      g_clear_pointer (&copied, g_free);
      g_assert_cmpstr ((copied = tp_text_pane_dup_text (pane)), ==, full);

      /* a new reading folds again */
      {
        g_autofree char *more = g_strconcat (program, "twice = loss * 2.0\n", NULL);
        g_autofree char *line = NULL;

        tp_document_set_text (document, more);
        tp_document_recompute_now (document);
        g_assert_true (tp_test_wait_until (panes_idle, window, 20));
        line = buffer_line (buffer, 0);
        g_assert_true (g_str_has_suffix (line, "   [1600 elements] show all"));
      }

      tp_session_free (session);
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The signature of 150 arguments (6,400 characters) is folded in the
 * StableHLO pane: an argument in its start is still marked (the map's
 * offsets translated), one hidden in the fold marks only its uses, and
 * the cursor on a shown argument selects its node. */
static void
test_window_folded_stablehlo (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_STABLEHLO));
      GtkTextView *view = tp_text_pane_get_view (pane);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      GtkTextTag *ref = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "selected-ref");
      g_autofree char *program = layered_program (150, "");
      g_autofree char *signature = NULL;
      const char *at;
      GtkTextIter iter;
      int arg1, arg100;

      gtk_window_present (GTK_WINDOW (window));
      tp_document_set_text (document, program);
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      signature = buffer_line (buffer, 1);
      g_assert_true (g_str_has_prefix (signature, "  func.func @main(%arg0: "));
      g_assert_nonnull (strstr (signature, " … "));
      g_assert_null (strstr (signature, "%arg100:"));
      at = strstr (signature, "%arg1:");
      g_assert_nonnull (at);
      arg1 = tp_readings_get_argument_node (tp_document_get_readings (document), 1);
      arg100 = tp_readings_get_argument_node (tp_document_get_readings (document), 100);
      g_assert_cmpint (arg1, >=, 0);
      g_assert_cmpint (arg100, >=, 0);

      tp_document_set_selected_node (document, arg1);
      gtk_text_buffer_get_iter_at_line_index (buffer, &iter, 1, (int) (at - signature));
      g_assert_true (gtk_text_iter_starts_tag (&iter, ref));
      gtk_text_iter_forward_chars (&iter, (int) strlen ("%arg1"));
      g_assert_true (gtk_text_iter_ends_tag (&iter, ref));

      /* hidden in the fold: nothing on the signature line is marked */
      tp_document_set_selected_node (document, arg100);
      gtk_text_buffer_get_iter_at_line (buffer, &iter, 1);
      g_assert_false (gtk_text_iter_has_tag (&iter, ref));
      g_assert_true (gtk_text_iter_forward_to_tag_toggle (&iter, ref));
      g_assert_cmpint (gtk_text_iter_get_line (&iter), >, 1);

      /* the cursor on %arg1 in the folded line selects it */
      tp_document_set_selected_node (document, -1);
      gtk_widget_grab_focus (GTK_WIDGET (view));
      gtk_text_buffer_get_iter_at_line_index (buffer, &iter, 1, (int) (at - signature) + 2);
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, arg1);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The tag covering every character of the first @token in @text (@buffer
 * holds @text), or NULL when the characters do not share one. */
static const char *
token_tag (GtkTextBuffer *buffer,
           const char    *text,
           const char    *token,
           const char    *prefix)
{
  const char *at = strstr (text, token);
  static char name[64];
  GtkTextIter iter, end;
  GSList *tags;

  g_assert_nonnull (at);
  gtk_text_buffer_get_iter_at_offset (buffer, &iter, (int) g_utf8_pointer_to_offset (text, at));
  end = iter;
  gtk_text_iter_forward_chars (&end, (int) g_utf8_strlen (token, -1));
  name[0] = '\0';
  tags = gtk_text_iter_get_tags (&iter);
  for (GSList *l = tags; l != NULL; l = l->next)
    {
      g_autofree char *tag_name = NULL;
      GtkTextIter next = iter;

      g_object_get (l->data, "name", &tag_name, NULL);
      if (tag_name == NULL || !g_str_has_prefix (tag_name, prefix))
        continue;
      /* the tag spans the token exactly */
      if (gtk_text_iter_starts_tag (&iter, l->data) && gtk_text_iter_forward_to_tag_toggle (&next, l->data)
          && gtk_text_iter_equal (&next, &end))
        g_strlcpy (name, tag_name, sizeof name);
    }
  g_slist_free (tags);
  return name[0] != '\0' ? name : NULL;
}

/* The StableHLO pane colours MLIR's token classes. */
static void
test_window_stablehlo_colours (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_STABLEHLO));
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_text_pane_get_view (pane));
      g_autofree char *text = tp_text_pane_dup_text (pane);

      g_assert_cmpstr (token_tag (buffer, text, "@topos", "hlo-"), ==, "hlo-symbol");
      g_assert_cmpstr (token_tag (buffer, text, "module", "hlo-"), ==, "hlo-keyword");
      g_assert_cmpstr (token_tag (buffer, text, "func.func", "hlo-"), ==, "hlo-operation");
      g_assert_cmpstr (token_tag (buffer, text, "%arg0", "hlo-"), ==, "hlo-value");
      g_assert_cmpstr (token_tag (buffer, text, "tensor<f32>", "hlo-"), ==, "hlo-type");
      g_assert_cmpstr (token_tag (buffer, text, "stablehlo.subtract", "hlo-"), ==, "hlo-operation");
      g_assert_cmpstr (token_tag (buffer, text, "dense", "hlo-"), ==, "hlo-keyword");
      g_assert_cmpstr (token_tag (buffer, text, "1.0", "hlo-"), ==, "hlo-number");
      /* a digit inside a name is no number */
      g_assert_cmpstr (token_tag (buffer, text, "%v10", "hlo-"), ==, "hlo-value");

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The hlo-* tag the StableHLO pane gives a token of @klass, or NULL. */
static const char *
hlo_tag_of_class (TpTokenClass klass)
{
  switch (klass)
    {
    case TP_TOKEN_COMMENT: return "hlo-comment";
    case TP_TOKEN_OP: return "hlo-operation";
    case TP_TOKEN_TYPE: return "hlo-type";
    case TP_TOKEN_SSA: return "hlo-value";
    case TP_TOKEN_SYMBOL: return "hlo-symbol";
    case TP_TOKEN_KEYWORD: return "hlo-keyword";
    case TP_TOKEN_NUMBER: return "hlo-number";
    default: return NULL;
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* The names of the tags at @iter with @prefix, sorted, space-separated. */
static char *
tags_at (GtkTextIter *iter,
         const char  *prefix)
{
  GSList *tags = gtk_text_iter_get_tags (iter);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  char *out;

  for (GSList *l = tags; l != NULL; l = l->next)
    {
      char *name = NULL;

      g_object_get (l->data, "name", &name, NULL);
      if (name != NULL && g_str_has_prefix (name, prefix))
        g_ptr_array_add (names, name);
      else
        g_free (name);
    }
  g_slist_free (tags);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  out = g_strjoinv (" ", (char **) names->pdata);
  g_ptr_array_unref (names);
  return out;
}

/* Every pane's decoration and colours are exactly what the engine's map
 * says, checked against a session of the test's own: each line's derived,
 * divider, summary and kept tags follow its role (and, in the plan, the
 * spec's node count), each StableHLO character has the colour of the
 * map's token covering it and no other, and the selection lights exactly
 * the lines of the selected node and its SSA uses elsewhere. */
static void
test_window_tags_follow_map (void)
{
  if (g_test_subprocess ())
    {
      static const char *const ids[] = { "readme", "mlp", "attention", "not-yet-a-scalar" };

      for (guint s = 0; s < G_N_ELEMENTS (ids); s++)
        {
          TpWindow *window = tp_test_window_new ();
          TpDocument *document = tp_window_get_document (window);
          g_autofree char *source = NULL;
          const char *observe = NULL;
          const char *obs[1];
          TpChoices choices = { 0 };
          TpSession *session = tp_session_new ();
          uint32_t spec_nodes;

          tp_window_open_sample (window, ids[s]);
          tp_window_recompute_now (window);
          gtk_window_present (GTK_WINDOW (window));
          g_assert_true (tp_test_wait_until (panes_idle, window, 20));
          source = tp_document_dup_text (document);
          observe = tp_document_get_observe (document);
          obs[0] = observe;
          choices.target = tp_document_get_target (document);
          choices.observe = obs;
          choices.n_observe = observe != NULL && observe[0] != '\0' ? 1 : 0;
          choices.exact = tp_document_get_exact (document);
          g_assert_cmpint (tp_session_compile (session, source, strlen (source), &choices), ==, TP_STATUS_OK);
          spec_nodes = tp_session_spec_nodes (session);

          for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
            {
              TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, (TpPane) p));
              GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_text_pane_get_view (pane));
              g_autofree char *text = tp_text_pane_dup_text (pane);
              g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
              size_t n_lines = tp_session_map_n_lines (session, (TpReading) p);

              g_assert_cmpstr (text, ==, tp_session_reading (session, (TpReading) p));
              g_assert_cmpuint (n_lines, >, 0);
              for (size_t l = 0; l < n_lines; l++)
                {
                  TpMapLine ml;
                  GtkTextIter iter;

                  g_assert_true (tp_session_map_line (session, (TpReading) p, l, &ml));
                  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) l);
                  if (p != TP_PANE_STABLEHLO)
                    {
                      GString *want = g_string_new (NULL);
                      g_autofree char *first = NULL;
                      g_autofree char *last = NULL;
                      GtkTextIter end = iter;

                      if (ml.role == TP_ROLE_DERIVED || ml.role == TP_ROLE_GRADIENT
                          || (p == TP_PANE_PLAN && ml.node != TP_MAP_NO_NODE && ml.node >= spec_nodes))
                        g_string_append (want, "derived ");
                      if (ml.role == TP_ROLE_DIVIDER)
                        g_string_append (want, "divider ");
                      if (ml.role == TP_ROLE_KEPT)
                        g_string_append (want, "kept ");
                      if (ml.role == TP_ROLE_NOTE)
                        g_string_append (want, "note ");   /* it wraps, too */
                      if (ml.role == TP_ROLE_NOTE || ml.role == TP_ROLE_FOOTER)
                        g_string_append (want, "summary ");
                      if (want->len > 0)
                        g_string_truncate (want, want->len - 1);
                      if (lines[l][0] == '\0')
                        {
                          g_string_free (want, TRUE);
                          continue;
                        }
                      /* the line's first and last characters carry the
                       * decoration its role gives, and nothing else */
                      first = tags_at (&iter, "");
                      gtk_text_iter_forward_to_line_end (&end);
                      gtk_text_iter_backward_char (&end);
                      last = tags_at (&end, "");
                      g_assert_cmpstr (first, ==, want->str);
                      g_assert_cmpstr (last, ==, want->str);
                      g_string_free (want, TRUE);
                    }
                  else if (strlen (lines[l]) <= 400)
                    {
                      /* each byte's colour is the one of the token over it */
                      gsize len = strlen (lines[l]);

                      for (gsize b = 0; b < len; b = (gsize) (g_utf8_next_char (lines[l] + b) - lines[l]))
                        {
                          TpMapRef ref;
                          const char *want = NULL;
                          g_autofree char *got = NULL;
                          GtkTextIter at;

                          if (tp_session_map_ref_at (session, TP_READING_STABLEHLO, l, (uint32_t) b, &ref))
                            want = hlo_tag_of_class (ref.klass);
                          gtk_text_buffer_get_iter_at_line_index (buffer, &at, (int) l, (int) b);
                          got = tags_at (&at, "hlo-");
                          g_assert_cmpstr (got, ==, want != NULL ? want : "");
                        }
                    }
                }
            }

          /* the selection: every node of the spec in turn */
          for (uint32_t node = 0; node < spec_nodes && node < 40; node++)
            {
              tp_document_set_selected_node (document, (int) node);
              for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
                {
                  TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, (TpPane) p));
                  GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_text_pane_get_view (pane));
                  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
                  GtkTextTag *sel = gtk_text_tag_table_lookup (table, "selected");
                  GtkTextTag *ref_tag = gtk_text_tag_table_lookup (table, "selected-ref");
                  size_t n_lines = tp_session_map_n_lines (session, (TpReading) p);

                  for (size_t l = 0; l < n_lines; l++)
                    {
                      TpMapLine ml;
                      GtkTextIter iter;

                      tp_session_map_line (session, (TpReading) p, l, &ml);
                      gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) l);
                      g_assert_cmpint (gtk_text_iter_has_tag (&iter, sel), ==, ml.node == node);
                      if (p != TP_PANE_STABLEHLO)
                        continue;
                      for (uint32_t k = 0; k < ml.n_refs; k++)
                        {
                          TpMapRef ref;
                          GtkTextIter at;

                          tp_session_map_ref (session, TP_READING_STABLEHLO, ml.first_ref + k, &ref);
                          gtk_text_buffer_get_iter_at_line_index (buffer, &at, (int) l, (int) ref.start);
                          g_assert_cmpint (gtk_text_iter_has_tag (&at, ref_tag), ==,
                                           ref.klass == TP_TOKEN_SSA && ref.node == node && ml.node != node);
                        }
                    }
                }
            }
          tp_session_free (session);
          gtk_window_destroy (GTK_WINDOW (window));
        }
      return;
    }
  g_test_trap_subprocess (NULL, 3 * SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The text the editor's source-span mark covers, or NULL. */
static char *
editor_span_text (TpWindow *window)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_editor_get_view (tp_window_get_editor (window)));
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "tp-selected-span");
  GtkTextIter start, end;

  gtk_text_buffer_get_start_iter (buffer, &start);
  if (tag == NULL
      || (!gtk_text_iter_starts_tag (&start, tag) && !gtk_text_iter_forward_to_tag_toggle (&start, tag)))
    return NULL;
  end = start;
  gtk_text_iter_forward_to_tag_toggle (&end, tag);
  return gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
}

/* Selecting a node the program never named (`x @ w`) marks the
 * characters of its expression in the editor, from the engine's source
 * spans; a named node marks its expression and its statement's line. */
static void
test_window_source_span (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      TpTextPane *spec = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_SPEC));
      GtkTextView *view = tp_text_pane_get_view (spec);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      g_autofree char *text = NULL;
      g_autofree char *span = NULL;
      const char *matmul;
      GtkTextIter iter;

      gtk_window_present (GTK_WINDOW (window));
      tp_document_set_text (document, "x = input [2, 3]\nw = parameter [3, 4]\ny = relu(x @ w)\nloss = sum(y * y)\n");
      tp_window_recompute_now (window);
      text = tp_text_pane_dup_text (spec);
      matmul = strstr (text, "MatMul");
      g_assert_nonnull (matmul);

      /* the reader clicks the MatMul line of the spec */
      gtk_widget_grab_focus (GTK_WIDGET (view));
      gtk_text_buffer_get_iter_at_offset (buffer, &iter, (int) g_utf8_pointer_to_offset (text, matmul));
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_cmpint (tp_document_get_selected_node (document), >=, 0);
      span = editor_span_text (window);
      g_assert_cmpstr (span, ==, "x @ w");
      g_assert_null (selected_editor_line (window));   /* no statement binds it */

      /* a named node: its expression and its line */
      tp_document_set_selected_node (document, tp_document_node_for_line (document, 4));
      g_clear_pointer (&span, g_free);
      span = editor_span_text (window);
      g_assert_cmpstr (span, ==, "sum(y * y)");
      g_assert_cmpstr (selected_editor_line (window), ==, "loss = sum(y * y)");

      /* nothing selected, nothing marked */
      tp_document_set_selected_node (document, -1);
      g_clear_pointer (&span, g_free);
      g_assert_null (editor_span_text (window));

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static gboolean
pane_is_dark (gpointer data)
{
  return tp_text_pane_get_dark (TP_TEXT_PANE (tp_window_get_pane (data, TP_PANE_DERIVATIVE)));
}

static gboolean
pane_is_light (gpointer data)
{
  return !pane_is_dark (data);
}

static char *
derived_colour (TpWindow *window)
{
  GtkTextView *view = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_DERIVATIVE)));
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (gtk_text_view_get_buffer (view)),
                                               "derived");
  GdkRGBA *rgba = NULL;
  char *text;

  g_object_get (tag, "foreground-rgba", &rgba, NULL);
  text = gdk_rgba_to_string (rgba);
  gdk_rgba_free (rgba);
  return text;
}

/* The dark preference turns the readings' highlights, the editor's
 * scheme and the window's marks dark, and back. */
static void
test_window_dark_style (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      GtkSettings *settings = gtk_settings_get_default ();
      TpEditor *editor = tp_window_get_editor (window);
      g_autofree char *light = NULL;
      g_autofree char *dark = NULL;

      gtk_window_present (GTK_WINDOW (window));
      g_assert_true (tp_test_wait_until (pane_is_light, window, 5));
      g_assert_cmpstr (tp_editor_get_scheme_id (editor), ==, "Adwaita");
      light = derived_colour (window);

      g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
      g_assert_true (tp_test_wait_until (pane_is_dark, window, 5));
      g_assert_cmpstr (tp_editor_get_scheme_id (editor), ==, "topos-dark");
      g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "dark"));
      dark = derived_colour (window);
      g_assert_cmpstr (light, !=, dark);

      g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
      g_assert_true (tp_test_wait_until (pane_is_light, window, 5));
      g_assert_cmpstr (tp_editor_get_scheme_id (editor), ==, "Adwaita");
      g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "dark"));

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* {==== shortcuts, pressed as keys ====} */

typedef struct
{
  char *text;
  gboolean done;
} ClipboardRead;

static void
clipboard_read_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      data)
{
  ClipboardRead *read = data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  read->done = TRUE;
}

static gboolean
clipboard_read_done (gpointer data)
{
  return ((ClipboardRead *) data)->done;
}

static char *
clipboard_text (GtkWidget *widget)
{
  ClipboardRead read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, clipboard_read_cb, &read);
  g_assert_true (tp_test_wait_until (clipboard_read_done, &read, 20));
  return read.text;
}

static gboolean
pane_is_tiled (TpWindow *window,
               TpPane    pane)
{
  return GTK_IS_GRID (gtk_widget_get_parent (tp_window_get_pane (window, pane)));
}

/* A window on the README sample with the keyboard focus in the editor,
 * the debounce out of the way (only a shortcut reads the text again). */
static TpWindow *
window_focused_in_editor (GtkWidget **view)
{
  TpWindow *window = window_new_on_readme ();

  tp_document_set_recompute_delay (tp_window_get_document (window), 600000);
  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  *view = GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window)));
  g_assert_true (gtk_widget_grab_focus (*view));
  g_assert_true (gtk_widget_has_focus (*view));
  return window;
}

/* Every window shortcut works with the focus in the editor, pressed as a
 * key, and none of them types into the program. */
static void
test_window_shortcuts_from_editor (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
      g_autoptr(GSettings) settings = tp_settings_new ();
      g_autofree char *sample = tp_document_dup_text (document);
      g_autofree char *edited = NULL;
      g_autofree char *copied = NULL;
      g_autofree char *now = NULL;
      TpReadings *readings;

      /* Ctrl+Shift+X toggles exact, both ways */
      g_assert_false (tp_document_get_exact (document));
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>x");
      g_assert_true (tp_document_get_exact (document));
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>x");
      g_assert_false (tp_document_get_exact (document));

      /* Ctrl+Return on a saved-looking text: nothing typed, not modified */
      g_assert_false (gtk_text_buffer_get_modified (buffer));
      tp_test_press (GTK_WIDGET (window), "<Control>Return");
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);
      g_assert_false (gtk_text_buffer_get_modified (buffer));

      /* ... and after an edit it reads the new text at once */
      type_at_end (document, "twice = loss * 2.0\n");
      g_assert_true (tp_document_get_busy (document));
      edited = tp_document_dup_text (document);
      tp_test_press (GTK_WIDGET (window), "<Control>Return");
      g_assert_false (tp_document_get_busy (document));
      readings = tp_document_get_readings (document);
      g_assert_nonnull (strstr (tp_readings_get_text (readings, TP_READING_VALUES), "twice"));
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, edited);

      /* Alt+1 … Alt+6 show each reading alone; again, all six */
      for (guint p = 0; p < TP_N_PANES; p++)
        {
          g_autofree char *key = g_strdup_printf ("<Alt>%u", p + 1);

          tp_test_press (GTK_WIDGET (window), key);
          g_assert_true (tp_window_get_focus_layout (window));
          g_assert_false (pane_is_tiled (window, (TpPane) p));
          tp_test_press (GTK_WIDGET (window), key);
          g_assert_false (tp_window_get_focus_layout (window));
          g_assert_true (pane_is_tiled (window, (TpPane) p));
        }

      /* Ctrl+L: one at a time and back */
      tp_test_press (GTK_WIDGET (window), "<Control>l");
      g_assert_true (tp_window_get_focus_layout (window));
      tp_test_press (GTK_WIDGET (window), "<Control>l");
      g_assert_false (tp_window_get_focus_layout (window));

      /* Ctrl+plus, Ctrl+minus, Ctrl+0: the text size */
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 10);
      tp_test_press (GTK_WIDGET (window), "<Control>plus");
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 11);
      tp_test_press (GTK_WIDGET (window), "<Control>minus");
      tp_test_press (GTK_WIDGET (window), "<Control>minus");
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 9);
      tp_test_press (GTK_WIDGET (window), "<Control>0");
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 10);

      /* Ctrl+Shift+C from the editor copies the reading that last had
       * the focus, and says which */
      gdk_clipboard_set_text (gtk_widget_get_clipboard (view), "before");
      g_assert_null (tp_window_get_toast (window));
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>c");
      copied = clipboard_text (view);
      g_assert_cmpstr (copied, ==, tp_readings_get_text (readings, TP_READING_SPEC));
      g_assert_cmpstr (tp_window_get_toast (window), ==, "Copied the Spec reading");
      g_assert_true (gtk_widget_child_focus (tp_window_get_pane (window, TP_PANE_PLAN), GTK_DIR_TAB_FORWARD));
      g_assert_true (gtk_widget_grab_focus (view));
      tp_test_press (GTK_WIDGET (window), "<Control><Shift>c");
      g_free (copied);
      copied = clipboard_text (view);
      g_assert_cmpstr (copied, ==, tp_readings_get_text (readings, TP_READING_PLAN));
      g_assert_cmpstr (tp_window_get_toast (window), ==, "Copied the Plan reading");

      /* none of it typed into the program, and the focus stayed */
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, edited);
      g_assert_true (gtk_widget_has_focus (view));

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static gboolean
font_size_is_9 (gpointer data)
{
  return g_settings_get_int (data, "font-size") == 9;
}

static gboolean
font_size_is_10 (gpointer data)
{
  return g_settings_get_int (data, "font-size") == 10;
}

static gboolean
toast_shown (gpointer data)
{
  return tp_window_get_toast (data) != NULL;
}

/* A submenu has opened when the keyboard focus is on one of its items
 * and the pages have stopped sliding: the items' mnemonics then work. */
static gboolean
submenu_focused (gpointer data)
{
  GtkWidget *focus = gtk_root_get_focus (data);
  GtkWidget *stack = focus != NULL ? gtk_widget_get_ancestor (focus, GTK_TYPE_STACK) : NULL;
  const char *page = stack != NULL ? gtk_stack_get_visible_child_name (GTK_STACK (stack)) : NULL;

  /* while the pages slide, a letter both show underlined only moves the
   * focus between them */
  return page != NULL && !g_str_equal (page, "main") && !gtk_stack_get_transition_running (GTK_STACK (stack))
         && gtk_widget_is_ancestor (focus, gtk_stack_get_visible_child (GTK_STACK (stack)));
}

/* F10 opens the main menu, as a person would. */
static void
open_main_menu (TpWindow *window)
{
  GtkWidget *menu = GTK_WIDGET (gtk_menu_button_get_popover (tp_window_get_main_menu_button (window)));

  g_assert_false (gtk_widget_get_mapped (menu));
  tp_test_press (NULL, "F10");
  g_assert_true (tp_test_wait_until (tp_test_window_mapped, menu, 20));
}

/* After an item of a main-menu submenu, chosen with the keyboard (F10,
 * then the items' mnemonics), the focus is back in the editor and the
 * keyboard works at once. */
static void
test_window_menu_gives_keyboard_back (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      g_autoptr(GSettings) settings = tp_settings_new ();
      g_autofree char *sample = tp_document_dup_text (document);
      g_autofree char *now = NULL;
      GtkWidget *menu = GTK_WIDGET (gtk_menu_button_get_popover (tp_window_get_main_menu_button (window)));

      /* Text Size ▸ Smaller */
      open_main_menu (window);
      tp_test_press (menu, "t");
      g_assert_true (tp_test_wait_until (submenu_focused, window, 20));
      tp_test_press (NULL, "s");
      g_assert_true (tp_test_wait_until (font_size_is_9, settings, 20));
      g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == view);
      tp_test_press (GTK_WIDGET (window), "<Alt>3");
      g_assert_true (tp_window_get_focus_layout (window));
      g_assert_false (pane_is_tiled (window, TP_PANE_PLAN));

      /* Text Size ▸ Reset */
      open_main_menu (window);
      tp_test_press (menu, "t");
      g_assert_true (tp_test_wait_until (submenu_focused, window, 20));
      tp_test_press (NULL, "r");
      g_assert_true (tp_test_wait_until (font_size_is_10, settings, 20));
      g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == view);
      tp_test_press (GTK_WIDGET (window), "<Control>l");
      g_assert_false (tp_window_get_focus_layout (window));

      /* Copy Reading ▸ Plan */
      open_main_menu (window);
      tp_test_press (menu, "c");
      g_assert_true (tp_test_wait_until (submenu_focused, window, 20));
      tp_test_press (NULL, "l");
      g_assert_true (tp_test_wait_until (toast_shown, window, 20));
      g_assert_cmpstr (tp_window_get_toast (window), ==, "Copied the Plan reading");
      g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == view);
      tp_test_press (GTK_WIDGET (window), "<Alt>6");
      g_assert_true (tp_window_get_focus_layout (window));
      g_assert_false (pane_is_tiled (window, TP_PANE_PICTURE));

      /* typing goes to the program again */
      tp_test_press (GTK_WIDGET (window), "z");
      g_assert_true (gtk_widget_has_focus (view));
      now = tp_document_dup_text (document);
      g_assert_cmpuint (strlen (now), ==, strlen (sample) + 1);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* {==== accessibility ====} */

static gboolean
role_is_control (GtkAccessibleRole role)
{
  switch (role)
    {
    case GTK_ACCESSIBLE_ROLE_BUTTON:
    case GTK_ACCESSIBLE_ROLE_CHECKBOX:
    case GTK_ACCESSIBLE_ROLE_COMBO_BOX:
    case GTK_ACCESSIBLE_ROLE_IMG:
    case GTK_ACCESSIBLE_ROLE_LINK:
    case GTK_ACCESSIBLE_ROLE_MENU_ITEM:
    case GTK_ACCESSIBLE_ROLE_RADIO:
    case GTK_ACCESSIBLE_ROLE_SEARCH_BOX:
    case GTK_ACCESSIBLE_ROLE_SLIDER:
    case GTK_ACCESSIBLE_ROLE_SPIN_BUTTON:
    case GTK_ACCESSIBLE_ROLE_SWITCH:
    case GTK_ACCESSIBLE_ROLE_TAB:
    case GTK_ACCESSIBLE_ROLE_TEXT_BOX:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The label a button or check button shows, its mnemonic's underscore
 * taken out: the name it should have. */
static char *
shown_label (GtkWidget *widget)
{
  const char *label = NULL;
  GString *plain;

  if (GTK_IS_BUTTON (widget) && gtk_button_get_use_underline (GTK_BUTTON (widget)))
    label = gtk_button_get_label (GTK_BUTTON (widget));
  else if (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_use_underline (GTK_CHECK_BUTTON (widget)))
    label = gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));
  else if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_use_underline (GTK_MENU_BUTTON (widget)))
    label = gtk_menu_button_get_label (GTK_MENU_BUTTON (widget));
  if (label == NULL)
    return NULL;
  plain = g_string_new (NULL);
  for (const char *c = label; *c != '\0'; c++)
    if (*c != '_' || c[1] == '_')
      g_string_append_c (plain, *c == '_' ? c++[1] : *c);
  return g_string_free (plain, FALSE);
}

/* Walks the accessible tree under @widget (in GTK 4.8, the widget tree):
 * every control on screen has a name of its own (a label, or a label
 * widget that names it); one with a mnemonic is named without the
 * underscore.  Adds what it finds wrong to @problems. */
static void
check_names (GtkWidget *widget,
             GString   *problems,
             guint     *n_controls)
{
  GtkAccessible *accessible = GTK_ACCESSIBLE (widget);
  GtkAccessibleRole role = gtk_accessible_get_accessible_role (accessible);
  g_autofree char *plain = shown_label (widget);

  if (!gtk_widget_get_mapped (widget))
    return;
  if (role_is_control (role))
    {
      gboolean named = gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL)
                       || gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY);

      (*n_controls)++;
      if (!named)
        g_string_append_printf (problems, "unnamed %s (%s)\n", G_OBJECT_TYPE_NAME (widget),
                                gtk_widget_get_tooltip_text (widget) != NULL
                                  ? gtk_widget_get_tooltip_text (widget) : "no tooltip");
      else if (gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL))
        {
          /* GTK 4.8's check hands back the value it found when it is not
           * the one asked for: that is the name */
          g_autofree char *name = gtk_test_accessible_check_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                      "\001");

          if (name == NULL || name[0] == '\0' || strchr (name, '_') != NULL || g_str_has_suffix (name, "-symbolic"))
            g_string_append_printf (problems, "%s named “%s”\n", G_OBJECT_TYPE_NAME (widget),
                                    name != NULL ? name : "");
        }
    }
  if (plain != NULL)
    {
      g_autofree char *wrong = gtk_test_accessible_check_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL, plain);

      if (wrong != NULL)
        g_string_append_printf (problems, "%s “%s”: %s\n", G_OBJECT_TYPE_NAME (widget), plain, wrong);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    check_names (child, problems, n_controls);
}

/* Every control has an accessible name, in the tiled and the focus
 * layout; the picture says what it shows. */
static void
test_window_accessible_names (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window;
      g_autoptr(GString) problems = g_string_new (NULL);
      GtkAccessible *canvas = NULL;
      guint n_controls = 0;

      /* GTK_A11Y=none gives widgets no accessible context at all; the
       * test backend keeps one in this process (no AT-SPI bus).  GTK
       * reads the variable when it makes the first context. */
      g_setenv ("GTK_A11Y", "test", TRUE);
      window = window_new_on_readme ();
      g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      check_names (GTK_WIDGET (window), problems, &n_controls);
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", "plan"));
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      check_names (GTK_WIDGET (window), problems, &n_controls);
      /* each teaching pane under the readings */
      for (guint i = 0; i < 4; i++)
        {
          static const char *pages[] = { "memory", "steps", "train", "check" };

          g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-pane", "s", pages[i]));
          g_assert_true (tp_test_wait_until (window_ready, window, 20));
          check_names (GTK_WIDGET (window), problems, &n_controls);
        }
      g_assert_cmpstr (problems->str, ==, "");
      g_assert_cmpuint (n_controls, >, 30);

      /* the picture: an image whose description is the engine's spec */
      canvas = GTK_ACCESSIBLE (tp_picture_view_get_canvas (TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE))));
      g_assert_cmpint (gtk_accessible_get_accessible_role (canvas), ==, GTK_ACCESSIBLE_ROLE_IMG);
      {
        TpReadings *readings = tp_document_get_readings (tp_window_get_document (window));
        g_autofree char *wrong = NULL;
        g_autofree char *expected = g_strconcat (tp_readings_get_text (readings, TP_READING_SUMMARY),
                                                 tp_readings_get_text (readings, TP_READING_SPEC), NULL);

        wrong = gtk_test_accessible_check_property (canvas, GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, expected);
        g_assert_null (wrong);
      }

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static int
pane_with_focus (TpWindow *window)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  for (guint p = 0; p < TP_N_PANES && focus != NULL; p++)
    if (gtk_widget_is_ancestor (focus, tp_window_get_pane (window, (TpPane) p)))
      return (int) p;
  return -1;
}

/* Ctrl+Tab (Tab itself types into the editor) goes through the readings
 * in the order they are on screen: down the left column, then the
 * picture and StableHLO on the right. */
static void
test_window_tab_order (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      static const TpPane expected[] = {
        TP_PANE_SPEC, TP_PANE_DERIVATIVE, TP_PANE_PLAN, TP_PANE_VALUES, TP_PANE_PICTURE, TP_PANE_STABLEHLO,
      };
      g_autoptr(GString) order = g_string_new (NULL);
      g_autoptr(GString) want = g_string_new (NULL);
      int last = -1;
      guint seen = 0;

      g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window)))));
      for (guint i = 0; i < 80 && seen < TP_N_PANES; i++)
        {
          int pane;

          tp_test_press (GTK_WIDGET (window), "<Control>Tab");
          pane = pane_with_focus (window);
          if (pane >= 0 && pane != last)
            {
              g_string_append_printf (order, "%s ", tp_pane_get_id ((TpPane) pane));
              seen++;
            }
          last = pane;
        }
      for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
        g_string_append_printf (want, "%s ", tp_pane_get_id (expected[i]));
      g_assert_cmpstr (order->str, ==, want->str);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static double
linear (double c)
{
  return c <= 0.03928 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

static double
luminance (const GdkRGBA *c)
{
  return 0.2126 * linear (c->red) + 0.7152 * linear (c->green) + 0.0722 * linear (c->blue);
}

/* WCAG's contrast ratio of two opaque colours. */
static double
contrast (const GdkRGBA *a,
          const GdkRGBA *b)
{
  double la = luminance (a), lb = luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static GdkRGBA
blend (const char    *over,
       const GdkRGBA *under)
{
  GdkRGBA c, out;

  g_assert_true (gdk_rgba_parse (&c, over));
  out.red = c.alpha * c.red + (1 - c.alpha) * under->red;
  out.green = c.alpha * c.green + (1 - c.alpha) * under->green;
  out.blue = c.alpha * c.blue + (1 - c.alpha) * under->blue;
  out.alpha = 1;
  return out;
}

/* In the dark style, every colour the editor and the readings draw text
 * in (the scheme's, for every style the tape language and the StableHLO
 * colouring use, and the palette's) has a contrast of at least 4.5:1 on
 * the plain background and on each highlight. */
static void
test_window_dark_contrast (void)
{
  static const char *const styles[] = {
    "text", "def:comment", "def:keyword", "def:builtin", "def:number", "def:special-constant",
    "def:identifier", "def:operator", "def:function", "def:type", "def:preprocessor",
    "def:floating-point",
  };
  g_autoptr(GtkSourceBuffer) buffer = gtk_source_buffer_new (NULL);
  const TpPalette *palette = tp_style_get_palette (TRUE);
  GtkSourceStyleScheme *scheme;
  g_autofree char *text_bg = NULL;
  g_autofree char *text_fg = NULL;
  GdkRGBA base, backgrounds[4];
  g_autoptr(GArray) colours = g_array_new (FALSE, FALSE, sizeof (GdkRGBA));
  g_autoptr(GString) low = g_string_new (NULL);
  double worst = 100;

  tp_style_apply_scheme (buffer, TRUE);
  scheme = gtk_source_buffer_get_style_scheme (buffer);
  g_assert_nonnull (scheme);
  g_assert_cmpstr (gtk_source_style_scheme_get_id (scheme), ==, "topos-dark");
  g_object_get (gtk_source_style_scheme_get_style (scheme, "text"),
                "background", &text_bg, "foreground", &text_fg, NULL);
  g_assert_true (gdk_rgba_parse (&base, text_bg));
  backgrounds[0] = base;
  backgrounds[1] = blend (palette->selected, &base);
  backgrounds[2] = blend (palette->selected_ref, &base);
  backgrounds[3] = blend (palette->kept, &base);

  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    {
      GtkSourceStyle *style = gtk_source_style_scheme_get_style (scheme, styles[i]);
      g_autofree char *fg = NULL;
      gboolean set = FALSE;
      GdkRGBA c;

      g_assert_nonnull (style);
      g_object_get (style, "foreground-set", &set, "foreground", &fg, NULL);
      g_assert_true (gdk_rgba_parse (&c, set ? fg : text_fg));
      g_array_append_val (colours, c);
    }
  {
    GdkRGBA c;

    g_assert_true (gdk_rgba_parse (&c, palette->derived));
    g_array_append_val (colours, c);
    g_assert_true (gdk_rgba_parse (&c, palette->summary));
    g_array_append_val (colours, c);
  }
  for (guint i = 0; i < colours->len; i++)
    for (guint b = 0; b < G_N_ELEMENTS (backgrounds); b++)
      {
        double ratio = contrast (&g_array_index (colours, GdkRGBA, i), &backgrounds[b]);

        worst = MIN (worst, ratio);
        if (ratio < 4.5)
          g_string_append_printf (low, "colour %u on background %u: %.2f\n", i, b, ratio);
      }
  g_test_message ("lowest contrast in the dark style: %.2f:1", worst);
  g_assert_cmpstr (low->str, ==, "");
}

/* Ctrl+Z in a new window does not take its sample away; it still undoes
 * an edit, and a sample opened over a program brings the program back. */
static void
test_window_undo_keeps_sample (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      GtkSourceBuffer *buffer = tp_document_get_buffer (document);
      g_autofree char *sample = tp_document_dup_text (document);
      g_autofree char *now = NULL;

      g_assert_cmpuint (strlen (sample), >, 0);
      g_assert_false (gtk_text_buffer_get_can_undo (GTK_TEXT_BUFFER (buffer)));
      tp_test_press (GTK_WIDGET (window), "<Control>z");
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);

      tp_test_press (GTK_WIDGET (window), "q");
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpuint (strlen (now), ==, strlen (sample) + 1);
      tp_test_press (GTK_WIDGET (window), "<Control>z");
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);

      tp_window_open_sample (window, "dense-layer");
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, !=, sample);
      tp_test_press (GTK_WIDGET (window), "<Control>z");
      g_free (now);
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

typedef struct
{
  TpWindow *window;
  const char *toast;
} ToastWait;

static gboolean
toast_says (gpointer data)
{
  ToastWait *w = data;

  return g_strcmp0 (tp_window_get_toast (w->window), w->toast) == 0;
}

/* The corner pixel of a PNG, as straight (not premultiplied) RGBA. */
static guint32
png_corner (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
  g_autofree guchar *pixels = NULL;
  int width;

  g_assert_no_error (error);
  width = gdk_texture_get_width (texture);
  pixels = g_malloc ((gsize) width * 4 * (gsize) gdk_texture_get_height (texture));
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  /* GDK_MEMORY_DEFAULT: B, G, R, A */
  return (guint32) pixels[2] << 24 | (guint32) pixels[1] << 16 | (guint32) pixels[0] << 8 | pixels[3];
}

/* Exports say so in a toast; a PNG offers a transparent, light or dark
 * background. */
static void
test_window_export (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      g_autofree char *dir = g_dir_make_tmp ("topos-export-XXXXXX", NULL);
      static const struct { const char *format; const char *name; guint32 corner; } pngs[] = {
        { "png", "clear.png", 0x00000000 },
        { "png-light", "light.png", 0xffffffff },
        { "png-dark", "dark.png", 0x1e1e1eff },
      };
      g_autofree char *mlir_path = g_build_filename (dir, "program.mlir", NULL);
      g_autoptr(GFile) mlir = g_file_new_for_path (mlir_path);
      g_autofree char *written = NULL;
      ToastWait wait = { window, NULL };

      gtk_window_present (GTK_WINDOW (window));
      for (guint i = 0; i < G_N_ELEMENTS (pngs); i++)
        {
          g_autofree char *path = g_build_filename (dir, pngs[i].name, NULL);
          g_autoptr(GFile) file = g_file_new_for_path (path);
          g_autofree char *said = g_strdup_printf ("Exported %s", pngs[i].name);

          tp_window_export (window, pngs[i].format, file);
          wait.toast = said;
          g_assert_true (tp_test_wait_until (toast_says, &wait, 30));
          g_assert_cmphex (png_corner (path), ==, pngs[i].corner);
          g_unlink (path);
        }

      tp_window_export (window, "mlir", mlir);
      wait.toast = "Exported program.mlir";
      g_assert_true (tp_test_wait_until (toast_says, &wait, 30));
      g_assert_true (g_file_get_contents (mlir_path, &written, NULL, NULL));
      g_assert_cmpstr (written, ==,
                       tp_readings_get_text (tp_document_get_readings (tp_window_get_document (window)),
                                             TP_READING_STABLEHLO));
      g_unlink (mlir_path);
      g_rmdir (dir);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A new window opens at the size the last one closed at. */
static void
test_window_remembers_size (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GSettings) settings = tp_settings_new ();
      TpWindow *window;
      int width = 0, height = 0;

      g_settings_set_int (settings, "window-width", 900);
      g_settings_set_int (settings, "window-height", 640);
      window = window_new_on_readme ();
      gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
      g_assert_cmpint (width, ==, 900);
      g_assert_cmpint (height, ==, 640);

      gtk_window_present (GTK_WINDOW (window));
      gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
      gtk_window_close (GTK_WINDOW (window));
      g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1100);
      g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 700);
      g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

      window = window_new_on_readme ();
      gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
      g_assert_cmpint (width, ==, 1100);
      g_assert_cmpint (height, ==, 700);
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static GtkWindow *
shown_file_chooser (void)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_mapped (l->data))
      return l->data;
  return NULL;
}

static gboolean
file_chooser_shown (gpointer data)
{
  return shown_file_chooser () != NULL;
}

static gboolean
chooser_has_folder (gpointer data)
{
  GtkWindow *chooser = shown_file_chooser ();
  g_autoptr(GFile) folder = chooser != NULL ? gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (chooser)) : NULL;

  return folder != NULL;
}

static gboolean
window_gone (gpointer data)
{
  return *(TpWindow **) data == NULL;
}

static const struct
{
  const char *keys;
  const char *title;
} dialog_shortcuts[] = {
  { "<Control>o", "Open a Program" },
  { "<Control>s", "Save the Program" },
  { "<Control><Shift>s", "Save the Program" },
  { "<Control>e", "Export the Picture" },
  { "<Control><Shift>e", "Export the Picture" },
  { "<Control><Shift>m", "Export the StableHLO" },
};

/* Each shortcut that opens a file dialog does so from the editor and
 * types nothing (one process a shortcut: GTK 4.8's file chooser reports
 * a folder load cancelled by a quick close as an error dialog of its
 * own, which would take the next key). */
static void
test_window_dialog_shortcut_from_editor (gconstpointer data)
{
  guint i = GPOINTER_TO_UINT (data);

  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      g_autofree char *sample = tp_document_dup_text (document);
      g_autofree char *now = NULL;

      g_assert_null (shown_file_chooser ());
      tp_test_press (NULL, dialog_shortcuts[i].keys);
      g_assert_true (tp_test_wait_until (file_chooser_shown, NULL, 20));
      g_assert_cmpstr (gtk_window_get_title (shown_file_chooser ()), ==, dialog_shortcuts[i].title);
      {
        /* a program with no file: the dialog starts in the documents
         * folder (else home), not where the playground was started */
        g_autoptr(GFile) folder = NULL;
        g_autofree char *where = NULL;

        g_assert_true (tp_test_wait_until (chooser_has_folder, NULL, 20));
        folder = gtk_file_chooser_get_current_folder (GTK_FILE_CHOOSER (shown_file_chooser ()));
        where = g_file_get_path (folder);
        g_autofree char *cwd = g_get_current_dir ();
        const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

        g_assert_cmpstr (where, !=, cwd);
        g_assert_cmpstr (where, ==, documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR)
                                      ? documents : g_get_home_dir ());
      }
      now = tp_document_dup_text (document);
      g_assert_cmpstr (now, ==, sample);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* Ctrl+W from the editor closes the window. */
static void
test_window_close_shortcut_from_editor (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);

      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      tp_test_press (NULL, "<Control>w");
      g_assert_true (tp_test_wait_until (window_gone, &window, 20));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* With the keyboard in the picture, Ctrl+plus, Ctrl+minus and Ctrl+0
 * zoom it (not the text) and the arrows pan it; Ctrl+1 shows it at 100%
 * from anywhere. */
static void
test_window_picture_keyboard (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
      GtkWidget *canvas = tp_picture_view_get_canvas (picture);
      g_autoptr(GSettings) settings = tp_settings_new ();
      double fit, x0, y0, x1, y1;

      g_assert_true (tp_test_wait_until (window_ready, window, 30));
      g_assert_true (gtk_widget_grab_focus (canvas));
      /* it opens readable; Ctrl+0 fits it */
      g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, 9);
      tp_test_press (GTK_WIDGET (window), "<Control>0");
      fit = tp_picture_view_get_scale (picture);
      g_assert_cmpfloat (fit, >, 0);

      tp_test_press (GTK_WIDGET (window), "<Control>plus");
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_scale (picture), fit * 1.25, 1e-9);
      tp_test_press (GTK_WIDGET (window), "<Control>minus");
      tp_test_press (GTK_WIDGET (window), "<Control>minus");
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_scale (picture), fit * 0.8, 1e-9);
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 10);

      tp_picture_view_get_offset (picture, &x0, &y0);
      tp_test_press (GTK_WIDGET (window), "Right");
      tp_test_press (GTK_WIDGET (window), "Down");
      tp_picture_view_get_offset (picture, &x1, &y1);
      g_assert_cmpfloat_with_epsilon (x1, x0 - 0.1 * gtk_widget_get_width (canvas), 1e-9);
      g_assert_cmpfloat_with_epsilon (y1, y0 - 0.1 * gtk_widget_get_height (canvas), 1e-9);
      g_assert_true (gtk_widget_has_focus (canvas));

      tp_test_press (GTK_WIDGET (window), "<Control>0");
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_scale (picture), fit, 1e-9);
      g_assert_cmpint (g_settings_get_int (settings, "font-size"), ==, 10);

      /* Ctrl+1: 100%, with the keyboard anywhere */
      g_assert_true (gtk_widget_grab_focus (view));
      tp_test_press (GTK_WIDGET (window), "<Control>1");
      g_assert_cmpfloat_with_epsilon (tp_picture_view_get_scale (picture), 1.0, 1e-9);
      g_assert_true (gtk_widget_has_focus (view));

      /* a new program opens readable, not at the last one's zoom */
      g_assert_true (gtk_widget_grab_focus (canvas));
      tp_test_press (GTK_WIDGET (window), "<Control>plus");
      g_assert_cmpfloat (tp_picture_view_get_scale (picture), >, 1.2);
      tp_window_open_sample (window, "dense-layer");
      tp_window_recompute_now (window);
      g_assert_true (tp_test_wait_until (window_ready, window, 30));
      g_assert_cmpfloat (tp_picture_view_get_scale (picture), <, 1.2);
      g_assert_cmpfloat (tp_picture_view_get_label_height (picture), >=, 9);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* In the default tiled window, every sample's picture opens with its
 * node labels (a node's first line) at least 9 pixels tall: fitted when
 * that is readable, else around the target, which is on the canvas.
 * Fitting stays a key away.  Prints the heights (the report's figures). */
static void
test_window_picture_readable (void)
{
  if (g_test_subprocess ())
    {
      static const char *const samples[] = { "readme", "two-layers", "mlp", "attention" };
      TpWindow *window = tp_test_window_new ();
      TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
      GtkWidget *canvas = tp_picture_view_get_canvas (picture);

      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
      gtk_window_present (GTK_WINDOW (window));
      for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
        {
          double x, y, opened, fitted;

          tp_window_open_sample (window, samples[i]);
          tp_window_recompute_now (window);
          g_assert_true (tp_test_wait_until (picture_shown, window, 30));
          g_assert_true (tp_test_wait_until (window_ready, window, 30));
          opened = tp_picture_view_get_label_height (picture);
          g_assert_cmpfloat (opened, >=, 9);
          /* the README sample's target, loss (node 5), is in view */
          if (g_str_equal (samples[i], "readme"))
            {
              g_assert_true (tp_picture_view_get_node_center (picture, 5, &x, &y));
              g_assert_cmpfloat (x, >=, 0);
              g_assert_cmpfloat (x, <=, gtk_widget_get_width (canvas));
              g_assert_cmpfloat (y, >=, 0);
              g_assert_cmpfloat (y, <=, gtk_widget_get_height (canvas));
            }
          tp_picture_view_zoom_fit (picture);
          fitted = tp_picture_view_get_label_height (picture);
          g_assert_cmpfloat (fitted, <=, opened);
          g_test_message ("%s: canvas %dx%d, labels %.1f px as opened, %.1f px fitted", samples[i],
                          gtk_widget_get_width (canvas), gtk_widget_get_height (canvas), opened, fitted);
          /* the next sample opens readable again */
        }
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The derivative's note (why there is none) wraps at the pane's width
 * rather than running off it; the lines of a reading do not. */
static void
test_window_note_wraps (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      GtkTextView *view = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_DERIVATIVE)));
      GtkTextView *spec = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_SPEC)));
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      GtkTextIter start, display_end, line_end;
      GtkTextTag *note;
      GtkWrapMode wrap;

      gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
      tp_window_open_sample (window, "not-yet-a-scalar");
      gtk_window_present (GTK_WINDOW (window));
      tp_window_recompute_now (window);
      g_assert_true (tp_test_wait_until (window_ready, window, 30));
      g_assert_cmpint (gtk_text_view_get_wrap_mode (spec), ==, GTK_WRAP_NONE);
      gtk_text_buffer_get_start_iter (buffer, &start);
      note = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "note");
      g_assert_nonnull (note);
      g_assert_true (gtk_text_iter_has_tag (&start, note));
      g_object_get (note, "wrap-mode", &wrap, NULL);
      g_assert_cmpint (wrap, ==, GTK_WRAP_WORD_CHAR);
      /* laid out on more than one line of the screen */
      display_end = line_end = start;
      gtk_text_iter_forward_to_line_end (&line_end);
      g_assert_true (gtk_text_view_forward_display_line_end (view, &display_end));
      g_assert_cmpint (gtk_text_iter_get_offset (&display_end), <, gtk_text_iter_get_offset (&line_end));
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* g_ptr_array_sort hands the compare function pointers to the elements. */
static int
compare_labels (gconstpointer a,
                gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static char *
recent_labels (TpWindow *window)
{
  GMenuModel *section = tp_window_get_recent_section (window);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  for (int i = 0; i < g_menu_model_get_n_items (section); i++)
    {
      char *label = NULL;

      g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
      g_ptr_array_add (labels, label);
    }
  g_ptr_array_sort (labels, compare_labels);
  g_ptr_array_add (labels, NULL);
  return g_strjoinv ("|", (char **) labels->pdata);
}

typedef struct
{
  TpWindow *window;
  const char *labels;
} RecentWait;

static gboolean
recent_shows (gpointer data)
{
  RecentWait *w = data;
  g_autofree char *labels = recent_labels (w->window);

  return g_strcmp0 (labels, w->labels) == 0;
}

/* Recent programs of the same name read apart by their folders, and the
 * list can be cleared. */
static void
test_window_recent (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_dir_make_tmp ("topos-recent-XXXXXX", NULL);
      g_autofree char *a = g_build_filename (dir, "a", NULL);
      g_autofree char *b = g_build_filename (dir, "b", NULL);
      g_autofree char *pa = g_build_filename (a, "prog.tape", NULL);
      g_autofree char *pb = g_build_filename (b, "prog.tape", NULL);
      g_autofree char *ua = g_filename_to_uri (pa, NULL, NULL);
      g_autofree char *ub = g_filename_to_uri (pb, NULL, NULL);
      g_autofree char *expected = g_strdup_printf ("prog.tape — %s|prog.tape — %s", a, b);
      GtkRecentManager *manager = gtk_recent_manager_get_default ();
      TpWindow *window;
      RecentWait wait;

      g_assert_cmpint (g_mkdir (a, 0700), ==, 0);
      g_assert_cmpint (g_mkdir (b, 0700), ==, 0);
      g_assert_true (g_file_set_contents (pa, "a = parameter 1.0\n", -1, NULL));
      g_assert_true (g_file_set_contents (pb, "b = parameter 1.0\n", -1, NULL));
      window = window_new_on_readme ();
      gtk_window_present (GTK_WINDOW (window));
      wait.window = window;
      wait.labels = "No recent programs";
      g_assert_true (recent_shows (&wait));

      g_assert_true (gtk_recent_manager_add_item (manager, ua));
      g_assert_true (gtk_recent_manager_add_item (manager, ub));
      wait.labels = expected;
      if (!tp_test_wait_until (recent_shows, &wait, 20))
        {
          g_autofree char *shown = recent_labels (window);
          g_printerr ("recent shows: %s\n", shown);
        }
      g_assert_true (recent_shows (&wait));

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.clear-recent", NULL));
      wait.labels = "No recent programs";
      g_assert_true (tp_test_wait_until (recent_shows, &wait, 20));

      gtk_window_destroy (GTK_WINDOW (window));
      g_unlink (pa);
      g_unlink (pb);
      g_rmdir (a);
      g_rmdir (b);
      g_rmdir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
cursor_to_line (TpDocument *document,
                int         line)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line (buffer, &iter, line - 1);
  gtk_text_buffer_place_cursor (buffer, &iter);
}

/* While the text is refused, the cursor's line does not pick a node of
 * the last good program by number (the lines have moved); once the text
 * reads again, the statement under the cursor is selected without the
 * cursor having to move. */
static void
test_window_stale_lines (void)
{
  if (g_test_subprocess ())
    {
      GtkWidget *view = NULL;
      TpWindow *window = window_focused_in_editor (&view);
      TpDocument *document = tp_window_get_document (window);
      GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
      GtkTextIter iter;
      int w_node;

      cursor_to_line (document, 2);           /* w = parameter 0.0 */
      w_node = tp_document_get_selected_node (document);
      g_assert_cmpint (w_node, >=, 0);
      g_assert_cmpint (tp_document_node_for_line (document, 3), !=, w_node);

      /* a half-typed line above: refused, and every line moves down */
      gtk_text_buffer_get_start_iter (buffer, &iter);
      gtk_text_buffer_insert_interactive (buffer, &iter, "q = \n", -1, TRUE);
      tp_window_recompute_now (window);
      g_assert_true (tp_document_get_stale (document));
      cursor_to_line (document, 4);           /* x = input 2.0, was line 3 */
      cursor_to_line (document, 3);           /* w, was line 2 */
      g_assert_cmpint (tp_document_get_selected_node (document), ==, -1);
      g_assert_cmpint (tp_document_node_for_line (document, 3), ==, -1);

      /* finished: it reads, and the cursor's statement is selected */
      gtk_text_buffer_get_iter_at_line_offset (buffer, &iter, 0, 4);
      gtk_text_buffer_insert_interactive (buffer, &iter, "input 1.0", -1, TRUE);
      cursor_to_line (document, 3);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, -1);
      tp_window_recompute_now (window);
      g_assert_false (tp_document_get_stale (document));
      g_assert_cmpint (tp_document_node_for_line (document, 3), >=, 0);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, tp_document_node_for_line (document, 3));

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  int status;

  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/window/builds", test_window_builds);
  g_test_add_func ("/ui/window/samples-manifest", test_window_samples_manifest);
  g_test_add_func ("/ui/window/edit-rereads", test_window_edit_rereads);
  g_test_add_func ("/ui/window/controls", test_window_controls);
  g_test_add_func ("/ui/window/refused", test_window_refused);
  g_test_add_func ("/ui/window/cross-highlight", test_window_cross_highlight);
  g_test_add_func ("/ui/window/layout", test_window_layout);
  g_test_add_func ("/ui/window/screenshot", test_window_screenshot);
  g_test_add_func ("/ui/window/drop", test_window_drop);
  g_test_add_func ("/ui/window/close-prompt", test_window_close_prompt);
  g_test_add_func ("/ui/window/picture-click", test_window_picture_click);
  g_test_add_func ("/ui/window/picture-readable", test_window_picture_readable);
  g_test_add_func ("/ui/window/note-wraps", test_window_note_wraps);
  g_test_add_func ("/ui/window/dark-style", test_window_dark_style);
  g_test_add_func ("/ui/window/long-readings", test_window_long_readings);
  g_test_add_func ("/ui/window/folded-values", test_window_folded_values);
  g_test_add_func ("/ui/window/folded-stablehlo", test_window_folded_stablehlo);
  g_test_add_func ("/ui/window/stablehlo-colours", test_window_stablehlo_colours);
  g_test_add_func ("/ui/window/tags-follow-map", test_window_tags_follow_map);
  g_test_add_func ("/ui/window/source-span", test_window_source_span);
  g_test_add_func ("/ui/window/shortcuts-from-editor", test_window_shortcuts_from_editor);
  g_test_add_func ("/ui/window/menu-gives-keyboard-back", test_window_menu_gives_keyboard_back);
  g_test_add_func ("/ui/window/accessible-names", test_window_accessible_names);
  g_test_add_func ("/ui/window/tab-order", test_window_tab_order);
  g_test_add_func ("/ui/window/dark-contrast", test_window_dark_contrast);
  g_test_add_func ("/ui/window/undo-keeps-sample", test_window_undo_keeps_sample);
  g_test_add_func ("/ui/window/export", test_window_export);
  g_test_add_func ("/ui/window/remembers-size", test_window_remembers_size);
  for (guint i = 0; i < G_N_ELEMENTS (dialog_shortcuts); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ui/window/dialog-shortcut-from-editor/%u", i);

      g_test_add_data_func (path, GUINT_TO_POINTER (i), test_window_dialog_shortcut_from_editor);
    }
  g_test_add_func ("/ui/window/close-shortcut-from-editor", test_window_close_shortcut_from_editor);
  g_test_add_func ("/ui/window/picture-keyboard", test_window_picture_keyboard);
  g_test_add_func ("/ui/window/recent", test_window_recent);
  g_test_add_func ("/ui/window/stale-lines", test_window_stale_lines);

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
