/* test-pass-panes.c: the compiler's passes on the desktop: Optimise
 * beside Exact numerics, the Optimised, Fusion and Forward panes of the
 * teaching panel, forward mode's direction picker and Copy as JAX, each
 * against what the engine's own session says for the same program and
 * choices; and the pass readings are computed only once their pane is
 * shown (the engine's own counters, tp-engine-testing.h).  Every case
 * maps a window and runs in a subprocess of its own. */
#include "config.h"

#include <string.h>

#include "tp-document-private.h"
#include "tp-engine-testing.h"
#include "tp-pass-pane.h"
#include "tp-picture-raster.h"
#include "tp-picture-view.h"
#include "tp-remat-row.h"
#include "tp-teach-panel.h"
#include "tp-text-pane.h"
#include "tp-ui-test-util.h"
#include "tp-ui-test-window.h"
#include "tp-window.h"
#include "test-window.h"



static TpWindow *
window_on_sample (const char *sample)
{
  TpWindow *window = tp_test_window_new ();

  tp_window_open_sample (window, sample);
  tp_window_recompute_now (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* The engine's session for the window's text and choices. */
static TpSession *
session_for (TpWindow *window)
{
  TpDocument *document = tp_window_get_document (window);
  g_autofree char *source = tp_document_dup_text (document);
  TpSession *session = tp_session_new ();
  const char *observe[1] = { tp_document_get_observe (document) };
  gboolean automatic = FALSE;
  const char *const *remat = tp_document_get_remat (document, &automatic);
  TpChoices choices = { .target = tp_document_get_target (document),
                        .observe = observe,
                        .n_observe = observe[0] != NULL ? 1 : 0,
                        .exact = tp_document_get_exact (document),
                        .optimize = tp_document_get_optimize (document),
                        .direction = tp_document_get_direction (document),
                        .remat = remat,
                        .n_remat = remat != NULL ? g_strv_length ((char **) remat) : 0,
                        .remat_auto = automatic };

  g_assert_cmpint (tp_session_compile (session, source, strlen (source), &choices), ==, TP_STATUS_OK);
  return session;
}

static gboolean
readings_settled (gpointer data)
{
  TpDocument *document = tp_window_get_document (data);

  return !tp_document_get_busy (document) && tp_window_get_readings_ready (data);
}

static gboolean
pane_current (gpointer data)
{
  return tp_pass_pane_get_current (data);
}

static TpPassPane *
show_pass (TpWindow    *window,
           TpTeachPage  page)
{
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpPassPane *pane = tp_teach_panel_get_pass_pane (panel, page);

  tp_teach_panel_show (panel, page);
  g_assert_true (tp_test_wait_until (pane_current, pane, 30));
  return pane;
}

static char *
pane_reading (TpWindow *window,
              TpPane    pane)
{
  return tp_text_pane_dup_reading (TP_TEXT_PANE (tp_window_get_pane (window, pane)));
}

/* The line the pass pane's "selected" tag starts on, or NULL. */
static char *
pass_selected_line (TpPassPane *pane,
                    const char *tag_name)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_pass_pane_get_view (pane));
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), tag_name);
  GtkTextIter start, end;

  gtk_text_buffer_get_start_iter (buffer, &start);
  if (!gtk_text_iter_starts_tag (&start, tag) && !gtk_text_iter_forward_to_tag_toggle (&start, tag))
    return NULL;
  gtk_text_iter_set_line_offset (&start, 0);
  end = start;
  gtk_text_iter_forward_to_line_end (&end);
  return gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
}

/* {==== Optimise ====} */

/* Optimise compiles with the exact rewrites: the plan, StableHLO and
 * values follow, the spec and the derivative stay the recorded tape. */
static void
passes_optimize (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpDocument *document = tp_window_get_document (window);
  TpSession *plain = session_for (window);
  TpSession *optimized;
  g_autoptr(GSettings) settings = g_settings_new (TP_APP_ID);
  g_autofree char *plan = pane_reading (window, TP_PANE_PLAN);

  g_assert_false (tp_document_get_optimize (document));
  g_assert_cmpstr (plan, ==, tp_session_reading (plain, TP_READING_PLAN));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.optimize", NULL));
  g_assert_true (tp_document_get_optimize (document));
  g_assert_true (g_settings_get_boolean (settings, "optimize"));
  /* through the reader, as a person's click goes */
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  optimized = session_for (window);
  g_assert_cmpstr (tp_session_reading (optimized, TP_READING_PLAN), !=, tp_session_reading (plain, TP_READING_PLAN));
  for (TpPane p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    {
      g_autofree char *text = pane_reading (window, p);

      g_assert_cmpstr (text, ==, tp_session_reading (optimized, (TpReading) p));
    }
  {
    g_autofree char *spec = pane_reading (window, TP_PANE_SPEC);
    g_autofree char *derivative = pane_reading (window, TP_PANE_DERIVATIVE);

    g_assert_cmpstr (spec, ==, tp_session_reading (plain, TP_READING_SPEC));
    g_assert_cmpstr (derivative, ==, tp_session_reading (plain, TP_READING_DERIVATIVE));
  }
  /* a new window starts with it, as with Exact numerics */
  {
    TpWindow *second = tp_test_window_new ();

    g_assert_true (tp_document_get_optimize (tp_window_get_document (second)));
    gtk_window_destroy (GTK_WINDOW (second));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.optimize", NULL));
  g_assert_false (tp_document_get_optimize (document));
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  {
    g_autofree char *again = pane_reading (window, TP_PANE_PLAN);

    g_assert_cmpstr (again, ==, tp_session_reading (plain, TP_READING_PLAN));
  }
  tp_session_free (plain);
  tp_session_free (optimized);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== the panes ====} */

/* Nothing of a pass is computed until its pane is shown; then the pane
 * holds the engine's reading, the fusion's saving on top. */
static void
passes_lazy_fusion (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpDocument *document = tp_window_get_document (window);
  TpSession *expected = session_for (window);
  TpSession *session = document->session;
  TpFusionSummary fusion;
  TpPassPane *pane;
  g_autofree char *text = NULL;
  g_autofree char *sentence = NULL;

  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_nonnull (session);
  for (TpComputation w = TP_COMPUTED_OPTIMIZE; w <= TP_COMPUTED_JAX; w++)
    if (w != TP_COMPUTED_REMAT)
      g_assert_cmpuint (tp_session_computed (session, w), ==, 0);
  g_assert_null (tp_readings_get_pass (tp_document_get_readings (document), TP_PASS_FUSION));

  pane = show_pass (window, TP_TEACH_FUSION);
  g_assert_cmpuint (tp_session_computed (session, TP_COMPUTED_FUSION), ==, 1);
  g_assert_cmpuint (tp_session_computed (session, TP_COMPUTED_FORWARD), ==, 0);
  g_assert_cmpuint (tp_session_computed (session, TP_COMPUTED_JAX), ==, 0);
  text = tp_pass_pane_dup_text (pane);
  g_assert_cmpstr (text, ==, tp_session_reading (expected, TP_READING_FUSION));
  g_assert_true (tp_session_fusion (expected, &fusion));
  sentence = g_strndup (fusion.sentence, fusion.sentence_length);
  g_assert_cmpstr (gtk_label_get_label (tp_pass_pane_get_sentence (pane)), ==, sentence);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_sentence (pane))));
  g_assert_true (g_str_has_prefix (sentence, "Fused, "));

  /* shown again: not made again */
  tp_teach_panel_show (tp_window_get_teach_panel (window), TP_TEACH_CHECK);
  pane = show_pass (window, TP_TEACH_FUSION);
  g_assert_cmpuint (tp_session_computed (session, TP_COMPUTED_FUSION), ==, 1);

  /* cross-highlight: node 4 selected elsewhere lights its uses here */
  g_assert_null (pass_selected_line (pane, "selected-ref"));
  tp_document_set_selected_node (document, 4);
  {
    g_autofree char *line = pass_selected_line (pane, "selected-ref");

    g_assert_nonnull (line);
    g_assert_true (g_str_has_suffix (line, "3, 4"));
  }
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The optimised reading, and a line of it selecting across the window. */
static void
passes_optimized_pane (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpDocument *document = tp_window_get_document (window);
  TpSession *expected = session_for (window);
  TpPassPane *pane = show_pass (window, TP_TEACH_OPTIMIZED);
  g_autofree char *text = tp_pass_pane_dup_text (pane);
  GtkTextView *view = tp_pass_pane_get_view (pane);
  GtkTextIter iter;

  g_assert_cmpstr (text, ==, tp_session_reading (expected, TP_READING_OPTIMIZED));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_sentence (pane))));
  tp_document_set_selected_node (document, 4);
  {
    g_autofree char *line = pass_selected_line (pane, "selected");
    g_autofree char *plan = selected_line (window, TP_PANE_PLAN);

    g_assert_nonnull (line);
    g_assert_true (g_str_has_prefix (line, "   4  Sub"));
    g_assert_nonnull (plan);
  }
  /* the reader's cursor on line 3 (node 3) selects node 3 everywhere */
  gtk_widget_grab_focus (GTK_WIDGET (view));
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (view)));
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (view), &iter, 3);
  gtk_text_buffer_place_cursor (gtk_text_view_get_buffer (view), &iter);
  g_assert_cmpint (tp_document_get_selected_node (document), ==, 3);
  {
    g_autofree char *spec = selected_line (window, TP_PANE_SPEC);

    g_assert_nonnull (spec);
    g_assert_true (g_str_has_prefix (spec, "   3  Mul"));
  }
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The forward reading, its direction picked through the reader, and a
 * tangent node lit in the pane only, with its tangent step. */
static void
passes_forward (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpDocument *document = tp_window_get_document (window);
  TpSession *expected = session_for (window);
  TpPassPane *pane = show_pass (window, TP_TEACH_FORWARD);
  g_autofree char *text = tp_pass_pane_dup_text (pane);
  GtkDropDown *direction = tp_pass_pane_get_direction (pane);
  GListModel *items = gtk_drop_down_get_model (direction);
  GtkTextView *view = tp_pass_pane_get_view (pane);
  TpForwardSummary summary;
  GtkTextIter iter;

  g_assert_cmpstr (text, ==, tp_session_reading (expected, TP_READING_FORWARD));
  g_assert_nonnull (strstr (text, "direction v, seeded"));
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_JAX), ==, 0);
  /* seeded, then the one parameter */
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 2);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 1), ==, "w");
  g_assert_cmpuint (gtk_drop_down_get_selected (direction), ==, 0);

  /* a tangent node: lit here, with its step; the window's selection stays */
  g_assert_true (tp_session_forward (expected, &summary));
  tp_document_set_selected_node (document, -1);
  gtk_widget_grab_focus (GTK_WIDGET (view));
  gtk_text_buffer_get_iter_at_line (gtk_text_view_get_buffer (view), &iter, (int) summary.first + 1);
  gtk_text_buffer_place_cursor (gtk_text_view_get_buffer (view), &iter);
  g_assert_cmpint (tp_document_get_selected_node (document), ==, -1);
  {
    size_t length = 0;
    const char *step = tp_session_forward_step_text (expected, 0, &length);
    g_autofree char *want = g_strndup (step, length);
    g_autofree char *lit = pass_selected_line (pane, "tangent");

    g_assert_nonnull (lit);
    g_assert_true (g_str_has_prefix (lit, "   6  Leaf"));
    g_assert_true (g_str_has_prefix (want, "tangent step 1 of "));
    g_assert_cmpstr (gtk_label_get_label (tp_pass_pane_get_tangent (pane)), ==, want);
    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_tangent (pane))));
  }

  /* pick w: its one element, read again through the reader */
  gtk_drop_down_set_selected (direction, 1);
  g_assert_cmpstr (tp_document_get_direction (document), ==, "w[]");
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_true (tp_test_wait_until (pane_current, pane, 30));
  tp_session_free (expected);
  expected = session_for (window);
  g_clear_pointer (&text, g_free);
  text = tp_pass_pane_dup_text (pane);
  g_assert_cmpstr (text, ==, tp_session_reading (expected, TP_READING_FORWARD));
  g_assert_nonnull (strstr (text, "direction v: 1 at"));
  g_assert_cmpuint (gtk_drop_down_get_selected (direction), ==, 1);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_note (pane))));

  /* a direction the engine cannot use: its sentence beside the picker */
  tp_document_set_direction (document, "q");
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_true (tp_test_wait_until (pane_current, pane, 30));
  tp_session_free (expected);
  expected = session_for (window);
  g_assert_true (tp_session_forward (expected, &summary));
  g_assert_nonnull (summary.direction_error);
  g_assert_cmpstr (gtk_label_get_label (tp_pass_pane_get_note (pane)), ==, summary.direction_error);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_note (pane))));
  g_assert_cmpuint (gtk_drop_down_get_selected (direction), ==, 2);

  /* seeded again */
  gtk_drop_down_set_selected (direction, 0);
  g_assert_null (tp_document_get_direction (document));
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The tangent step-through: Next from the start walks every tangent step
 * in order (real clicks), each lighting its node's line with the
 * engine's sentence; Previous goes back, First and Last jump, and a
 * button with nowhere to go is off. */
static void
passes_tangent_steps (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpSession *expected = session_for (window);
  TpPassPane *pane = show_pass (window, TP_TEACH_FORWARD);
  GtkWidget *first = tp_pass_pane_get_walk (pane, 0), *previous = tp_pass_pane_get_walk (pane, 1);
  GtkWidget *next = tp_pass_pane_get_walk (pane, 2), *last = tp_pass_pane_get_walk (pane, 3);
  size_t n = tp_session_forward_n_steps (expected);
  TpForwardSummary summary;

  g_assert_true (tp_session_forward (expected, &summary));
  g_assert_cmpuint (n, >=, 3);
  g_assert_true (tp_test_wait_until (tp_test_window_mapped, next, 20));
  g_assert_false (gtk_widget_get_sensitive (previous));
  for (size_t k = 0; k < n; k++)
    {
      size_t length = 0;
      const char *step = tp_session_forward_step_text (expected, k, &length);
      g_autofree char *want = g_strndup (step, length);
      g_autofree char *lit = NULL;
      g_autofree char *number = g_strdup_printf ("%4u  ", (unsigned) (summary.first + k));

      tp_test_click (next, 4, 4);
      g_assert_cmpstr (gtk_label_get_label (tp_pass_pane_get_tangent (pane)), ==, want);
      lit = pass_selected_line (pane, "tangent");
      g_assert_nonnull (lit);
      g_assert_true (g_str_has_prefix (lit, number));
    }
  g_assert_false (gtk_widget_get_sensitive (next));
  g_assert_false (gtk_widget_get_sensitive (last));
  tp_test_click (previous, 4, 4);
  {
    size_t length = 0;
    const char *step = tp_session_forward_step_text (expected, n - 2, &length);
    g_autofree char *want = g_strndup (step, length);
    g_assert_cmpstr (gtk_label_get_label (tp_pass_pane_get_tangent (pane)), ==, want);
  }
  tp_test_click (first, 4, 4);
  g_assert_true (g_str_has_prefix (gtk_label_get_label (tp_pass_pane_get_tangent (pane)), "tangent step 1 of "));
  g_assert_false (gtk_widget_get_sensitive (first));
  tp_test_click (last, 4, 4);
  {
    g_autofree char *want = g_strdup_printf ("tangent step %u of %u: ", (unsigned) n, (unsigned) n);
    g_assert_true (g_str_has_prefix (gtk_label_get_label (tp_pass_pane_get_tangent (pane)), want));
  }
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
toast_saved (gpointer data)
{
  const char *toast = tp_window_get_toast (data);

  return toast != NULL && g_str_has_prefix (toast, "Saved ");
}

/* A parameter of rank 2: an index picker per axis, its extent the
 * parameter's, read as --direction 'w1[0, 2]'. */
static void
passes_forward_element (void)
{
  TpWindow *window = window_on_sample ("mlp");
  TpDocument *document = tp_window_get_document (window);
  TpPassPane *pane = show_pass (window, TP_TEACH_FORWARD);
  GtkDropDown *direction = tp_pass_pane_get_direction (pane);
  GListModel *items = gtk_drop_down_get_model (direction);
  TpSession *expected;
  g_autofree char *text = NULL;
  double low = 0, high = 0;

  g_assert_cmpuint (g_list_model_get_n_items (items), ==, 3);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 1), ==, "w1");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 2), ==, "w2");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_index (pane, 0))));
  gtk_drop_down_set_selected (direction, 1);
  g_assert_cmpstr (tp_document_get_direction (document), ==, "w1[0, 0]");
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_true (tp_test_wait_until (pane_current, pane, 30));
  /* w1 is [4, 8]: two pickers, 0..3 and 0..7 */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_index (pane, 0))));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_index (pane, 1))));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (tp_pass_pane_get_index (pane, 2))));
  gtk_spin_button_get_range (tp_pass_pane_get_index (pane, 1), &low, &high);
  g_assert_cmpfloat (high, ==, 7);
  gtk_spin_button_set_value (tp_pass_pane_get_index (pane, 1), 2);
  g_assert_cmpstr (tp_document_get_direction (document), ==, "w1[0, 2]");
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_true (tp_test_wait_until (pane_current, pane, 30));
  expected = session_for (window);
  text = tp_pass_pane_dup_text (pane);
  g_assert_cmpstr (text, ==, tp_session_reading (expected, TP_READING_FORWARD));
  g_assert_nonnull (strstr (text, "direction v: 1 at w1[0, 2]"));
  g_assert_cmpint (gtk_spin_button_get_value_as_int (tp_pass_pane_get_index (pane, 1)), ==, 2);
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Copy and Save as JAX: the engine's jax reading on the clipboard and in
 * a file, made only then. */
static void
passes_copy_jax (void)
{
  TpWindow *window = window_on_sample ("mlp");
  TpDocument *document = tp_window_get_document (window);
  TpSession *expected = session_for (window);
  g_autofree char *copied = NULL;

  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_JAX), ==, 0);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)), "before");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-jax", NULL));
  copied = clipboard_text (GTK_WIDGET (window));
  g_assert_cmpstr (copied, ==, tp_session_reading (expected, TP_READING_JAX));
  g_assert_true (g_str_has_prefix (copied, "#") || strstr (copied, "import jax") != NULL);
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_JAX), ==, 1);
  g_assert_true (g_str_has_prefix (tp_window_get_toast (window), "Copied the program in JAX: "));

  /* Copy Reading > Fusion: the fusion reading, made then */
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_FUSION), ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-pass", "s", "fusion"));
  g_clear_pointer (&copied, g_free);
  copied = clipboard_text (GTK_WIDGET (window));
  g_assert_cmpstr (copied, ==, tp_session_reading (expected, TP_READING_FUSION));
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_FUSION), ==, 1);
  g_assert_cmpstr (tp_window_get_toast (window), ==, "Copied the Fusion reading");

  /* Save as JAX: the same program in a .py file */
  {
    g_autofree char *dir = g_dir_make_tmp ("topos-jax-XXXXXX", NULL);
    g_autofree char *path = g_build_filename (dir, "mlp.py", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autofree char *saved = NULL;

    tp_window_save_jax (window, file);
    g_assert_true (tp_test_wait_until (toast_saved, window, 30));
    g_assert_cmpstr (tp_window_get_toast (window), ==, "Saved mlp.py");
    g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
    g_assert_cmpstr (saved, ==, tp_session_reading (expected, TP_READING_JAX));
    g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_JAX), ==, 1);
    g_remove (path);
    g_rmdir (dir);
  }

  /* through the reader: an edit, then the copy waits for its readings */
  tp_document_set_recompute_delay (document, 0);
  gtk_text_buffer_insert_at_cursor (GTK_TEXT_BUFFER (tp_document_get_buffer (document)), "# copied\n", -1);
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  tp_session_free (expected);
  expected = session_for (window);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (window)), "before");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-jax", NULL));
  g_clear_pointer (&copied, g_free);
  while (TRUE)
    {
      copied = clipboard_text (GTK_WIDGET (window));
      if (g_strcmp0 (copied, "before") != 0)
        break;
      g_clear_pointer (&copied, g_free);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpstr (copied, ==, tp_session_reading (expected, TP_READING_JAX));

  /* a refused program: nothing to copy */
  gtk_text_buffer_insert_at_cursor (GTK_TEXT_BUFFER (tp_document_get_buffer (document)), "x = = 1\n", -1);
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_true (tp_document_get_stale (document));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "copy-jax"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-jax"));
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A refused program: the pane keeps the last reading that read, marked
 * stale, and the program back reads again. */
static void
passes_refused (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpDocument *document = tp_window_get_document (window);
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  TpPassPane *pane = show_pass (window, TP_TEACH_FUSION);
  g_autofree char *before = tp_pass_pane_dup_text (pane);
  g_autofree char *source = tp_document_dup_text (document);
  TpSession *expected;
  GtkTextIter end;

  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (pane), "stale"));
  tp_document_set_recompute_delay (document, 0);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, "z = = 1\n", -1);
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_true (tp_document_get_stale (document));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (pane), "stale"));
  {
    g_autofree char *kept = tp_pass_pane_dup_text (pane);

    g_assert_cmpstr (kept, ==, before);
  }

  /* the line gone again: read, and the pane current */
  tp_document_set_text (document, source);
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_false (tp_document_get_stale (document));
  g_assert_true (tp_test_wait_until (pane_current, pane, 30));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (pane), "stale"));
  expected = session_for (window);
  {
    g_autofree char *after = tp_pass_pane_dup_text (pane);

    g_assert_cmpstr (after, ==, tp_session_reading (expected, TP_READING_FUSION));
  }
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== rematerialisation ====} */

static gboolean
remat_current (gpointer data)
{
  return tp_remat_row_get_current (data);
}

static char *
remat_sentence (TpSession *session)
{
  TpRematSummary summary;

  g_assert_true (tp_session_remat (session, &summary));
  return g_strndup (summary.sentence, summary.sentence_length);
}

/* The Memory pane's row: a toggle per statement the engine can
 * rematerialise, Auto, the engine's sentence; a toggle compiles with
 * --remat NAME, and the plan follows. */
static void
passes_remat (void)
{
  TpWindow *window = window_on_sample ("mlp");
  TpDocument *document = tp_window_get_document (window);
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpRematRow *row = tp_teach_panel_get_remat_row (panel);
  TpSession *expected = session_for (window);
  g_autofree char *sentence = remat_sentence (expected);
  gboolean automatic = TRUE;
  g_autofree char *pick = NULL;
  g_autofree char *recomputing = NULL;

  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_REMAT), ==, 0);
  tp_teach_panel_show (panel, TP_TEACH_MEMORY);
  g_assert_true (tp_test_wait_until (remat_current, row, 30));
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_REMAT), >, 0);
  /* one toggle per candidate a statement names last (6 is no
   * statement's; the window observes one, a result: no candidate) */
  {
    size_t n_names = 0;
    const TpName *names = tp_session_names (expected, &n_names);
    guint named = 0;

    for (size_t i = 0; i < n_names; i++)
      if (tp_session_remat_candidate (expected, names[i].node))
        {
          g_test_message ("candidate %s", names[i].name);
          g_assert_nonnull (tp_remat_row_get_toggle (row, names[i].name));
          if (pick == NULL)
            pick = g_strdup (names[i].name);
          named++;
        }
    g_assert_cmpuint (named, >=, 2);
    g_assert_cmpuint (tp_remat_row_get_n_toggles (row), ==, named);
    g_assert_true (tp_session_remat_candidate (expected, 6));
  }
  g_assert_false (gtk_toggle_button_get_active (tp_remat_row_get_toggle (row, pick)));
  g_assert_cmpstr (gtk_label_get_label (tp_remat_row_get_sentence (row)), ==, sentence);

  /* the first: --remat NAME, through the reader */
  gtk_toggle_button_set_active (tp_remat_row_get_toggle (row, pick), TRUE);
  g_assert_cmpstr (tp_document_get_remat (document, &automatic)[0], ==, pick);
  g_assert_false (automatic);
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_true (tp_test_wait_until (remat_current, row, 30));
  tp_session_free (expected);
  expected = session_for (window);
  g_clear_pointer (&sentence, g_free);
  sentence = remat_sentence (expected);
  recomputing = g_strdup_printf ("Recomputing %s ", pick);
  g_assert_true (g_str_has_prefix (sentence, recomputing));
  g_assert_cmpstr (gtk_label_get_label (tp_remat_row_get_sentence (row)), ==, sentence);
  g_assert_true (gtk_toggle_button_get_active (tp_remat_row_get_toggle (row, pick)));
  {
    g_autofree char *plan = pane_reading (window, TP_PANE_PLAN);

    g_assert_cmpstr (plan, ==, tp_session_reading (expected, TP_READING_PLAN));
  }

  /* Auto: the engine's pick, and its sentence */
  gtk_toggle_button_set_active (tp_remat_row_get_auto (row), TRUE);
  g_assert_null (tp_document_get_remat (document, &automatic));
  g_assert_true (automatic);
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  g_assert_true (tp_test_wait_until (remat_current, row, 30));
  tp_session_free (expected);
  expected = session_for (window);
  g_clear_pointer (&sentence, g_free);
  sentence = remat_sentence (expected);
  g_assert_true (g_str_has_prefix (sentence, "auto "));
  g_assert_cmpstr (gtk_label_get_label (tp_remat_row_get_sentence (row)), ==, sentence);
  g_assert_true (gtk_toggle_button_get_active (tp_remat_row_get_auto (row)));
  /* and off again: none */
  gtk_toggle_button_set_active (tp_remat_row_get_auto (row), FALSE);
  g_assert_null (tp_document_get_remat (document, &automatic));
  g_assert_false (automatic);
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== kernels as clusters ====} */

/* The picture's toggle draws the engine's dot_kernels, made only then. */
static void
passes_kernels (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpDocument *document = tp_window_get_document (window);
  TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
  GtkToggleButton *kernels = tp_picture_view_get_kernels_button (picture);
  TpSession *expected = session_for (window);

  g_assert_true (tp_test_wait_until (picture_shown, window, 60));
  g_assert_cmpstr (tp_picture_view_get_dot (picture), ==, tp_session_reading (expected, TP_READING_DOT));
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_FUSION), ==, 0);
  g_assert_false (gtk_toggle_button_get_active (kernels));

  gtk_toggle_button_set_active (kernels, TRUE);
  g_assert_cmpstr (tp_picture_view_get_dot (picture), ==, tp_session_dot_kernels (expected));
  g_assert_nonnull (strstr (tp_session_dot_kernels (expected), "kernel"));
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_FUSION), ==, 1);
  g_assert_true (tp_test_wait_until (picture_shown, window, 60));

  /* a new program's readings through the reader: its kernels come too */
  tp_document_set_recompute_delay (document, 0);
  gtk_text_buffer_insert_at_cursor (GTK_TEXT_BUFFER (tp_document_get_buffer (document)), "# again\n", -1);
  g_assert_true (tp_test_wait_until (readings_settled, window, 30));
  tp_session_free (expected);
  expected = session_for (window);
  while (g_strcmp0 (tp_picture_view_get_dot (picture), tp_session_dot_kernels (expected)) != 0)
    g_main_context_iteration (NULL, TRUE);

  gtk_toggle_button_set_active (kernels, FALSE);
  g_assert_cmpstr (tp_picture_view_get_dot (picture), ==, tp_session_reading (expected, TP_READING_DOT));
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  const char *path;
  void (*run) (void);
} PassCase;

/* The tangent band: the engine's dot_tangent once its toggle is on (a
 * real click), made only then; the kernels' toggle takes its place, one
 * of the two at a time. */
static void
passes_tangent_band (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpDocument *document = tp_window_get_document (window);
  TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
  GtkToggleButton *kernels = tp_picture_view_get_kernels_button (picture);
  GtkToggleButton *tangents = tp_picture_view_get_tangents_button (picture);
  TpSession *expected = session_for (window);

  g_assert_true (tp_test_wait_until (picture_shown, window, 60));
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_FORWARD), ==, 0);
  g_assert_true (tp_test_wait_until (tp_test_window_mapped, tangents, 20));
  tp_test_click (GTK_WIDGET (tangents), 6, 6);
  g_assert_true (gtk_toggle_button_get_active (tangents));
  g_assert_nonnull (strstr (tp_session_dot_tangent (expected), "subgraph cluster_tangent"));
  while (g_strcmp0 (tp_picture_view_get_dot (picture), tp_session_dot_tangent (expected)) != 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (tp_session_computed (document->session, TP_COMPUTED_FORWARD), ==, 1);
  g_assert_true (tp_test_wait_until (picture_shown, window, 60));

  gtk_toggle_button_set_active (kernels, TRUE);
  g_assert_false (gtk_toggle_button_get_active (tangents));
  g_assert_cmpstr (tp_picture_view_get_dot (picture), ==, tp_session_dot_kernels (expected));
  gtk_toggle_button_set_active (kernels, FALSE);
  g_assert_cmpstr (tp_picture_view_get_dot (picture), ==, tp_session_reading (expected, TP_READING_DOT));
  tp_session_free (expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

static const PassCase cases[] = {
  { "/ui/pass-panes/optimize", passes_optimize },
  { "/ui/pass-panes/lazy-fusion", passes_lazy_fusion },
  { "/ui/pass-panes/optimized", passes_optimized_pane },
  { "/ui/pass-panes/forward", passes_forward },
  { "/ui/pass-panes/forward-element", passes_forward_element },
  { "/ui/pass-panes/tangent-steps", passes_tangent_steps },
  { "/ui/pass-panes/copy-jax", passes_copy_jax },
  { "/ui/pass-panes/refused", passes_refused },
  { "/ui/pass-panes/remat", passes_remat },
  { "/ui/pass-panes/kernels", passes_kernels },
  { "/ui/pass-panes/tangent-band", passes_tangent_band },
};

static void
run_case (gconstpointer data)
{
  const PassCase *c = data;

  if (g_test_subprocess ())
    {
      c->run ();
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
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_test_add_data_func (cases[i].path, &cases[i], run_case);
  status = g_test_run ();
  tp_picture_raster_wait_idle ();
  return status;
}
