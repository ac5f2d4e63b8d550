/* test-window.c: the playground window under Xvfb.  Every case that maps
 * a window runs in its own subprocess (Console's habit). */
#include "test-window.h"





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

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
