/* test-teach.c: the teaching panes under the readings (Check, the
 * selected node's sentence, Memory, Steps, Train), each against what the
 * engine's own session says for the same program.  Every case that maps a
 * window runs in its own subprocess. */
#include "config.h"

#include <string.h>

#include "tp-picture-raster.h"
#include "tp-document.h"
#include "tp-loss-chart.h"
#include "tp-memory-chart.h"
#include "tp-picture-view.h"
#include "tp-teach-panel.h"
#include "tp-text-pane.h"
#include "tp-ui-test-util.h"
#include "tp-ui-test-keys.h"
#include "tp-ui-test-window.h"
#include "tp-window.h"

#define SUBPROCESS_TIMEOUT (90 * G_USEC_PER_SEC)

static TpWindow *
window_on_sample (const char *sample)
{
  TpWindow *window = tp_test_window_new ();

  tp_window_open_sample (window, sample);
  tp_window_recompute_now (window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
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
  TpChoices choices = { .target = tp_document_get_target (document),
                        .observe = observe,
                        .n_observe = observe[0] != NULL ? 1 : 0,
                        .exact = tp_document_get_exact (document) };

  g_assert_cmpint (tp_session_compile (session, source, strlen (source), &choices), ==, TP_STATUS_OK);
  return session;
}

static gboolean
panel_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

/* {==== check ====} */

static void
teach_check_verdict (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpSession *session = session_for (window);
  TpCheckSummary summary;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_teach_panel_get_check_view (panel));
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  g_assert_true (tp_session_check_summary (session, &summary));
  g_assert_cmpint (summary.outcome, ==, TP_OUTCOME_AGREE);
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_verdict_label (panel)), ==,
                   "all gradients agree with finite differences");
  g_assert_cmpuint (strlen ("all gradients agree with finite differences"), ==, summary.verdict_length);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (tp_teach_panel_get_nonfinite_button (panel))));
  g_assert_true (gtk_widget_has_css_class (gtk_widget_get_parent (GTK_WIDGET (tp_teach_panel_get_verdict_label (panel))),
                                           "success"));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
  g_assert_cmpstr (text, ==, tp_session_reading (session, TP_READING_CHECK));
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
teach_check_nonfinite (void)
{
  TpWindow *window = window_on_sample ("where-does-the-nan-come-from");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpSession *session = session_for (window);
  GtkButton *button = tp_teach_panel_get_nonfinite_button (panel);
  TpCheckSummary summary;
  g_autofree char *verdict = NULL;
  g_autofree char *node = NULL;

  g_assert_true (tp_session_check_summary (session, &summary));
  /* the loss does not use the NaN: the gradients still agree */
  g_assert_cmpint (summary.outcome, ==, TP_OUTCOME_AGREE);
  g_assert_true (summary.nonfinite);
  verdict = g_strndup (summary.verdict, summary.verdict_length);
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_verdict_label (panel)), ==, verdict);
  /* the line names the node, and clicking it selects the node */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (button)));
  node = g_strdup_printf ("node %u", summary.nonfinite_node);
  g_assert_nonnull (strstr (gtk_button_get_label (button), node));
  tp_document_set_selected_node (tp_window_get_document (window), -1);
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpint (tp_document_get_selected_node (tp_window_get_document (window)), ==,
                   (int) summary.nonfinite_node);
  {
    g_autofree char *plan = selected_line (window, TP_PANE_PLAN);
    g_autofree char *prefix = g_strdup_printf ("%4u  ", summary.nonfinite_node);

    g_assert_nonnull (plan);
    g_assert_true (g_str_has_prefix (plan, prefix));
  }
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== the selected node's sentence ====} */

static void
teach_explanation (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpDocument *document = tp_window_get_document (window);
  TpSession *session = session_for (window);
  GtkLabel *label = tp_teach_panel_get_explanation_label (panel);
  GtkTextView *editor = NULL;

  g_assert_true (gtk_label_get_selectable (label));
  g_assert_cmpint (gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (label)), ==, GTK_ACCESSIBLE_ROLE_STATUS);
  for (uint32_t node = 0; node < tp_session_n_nodes (session); node++)
    {
      size_t length = 0;
      const char *sentence = tp_session_explanation (session, node, &length);
      g_autofree char *expected = g_strndup (sentence, length);

      g_assert_nonnull (sentence);
      tp_document_set_selected_node (document, (int) node);
      g_assert_cmpstr (gtk_label_get_label (label), ==, expected);
    }
  /* the editor's cursor selects too: line 5 is `error = ...`, node 4 */
  {
    size_t length = 0;
    const char *sentence = tp_session_explanation (session, 4, &length);
    g_autofree char *expected = g_strndup (sentence, length);
    GtkTextBuffer *buffer;
    GtkTextIter iter;

    editor = GTK_TEXT_VIEW (gtk_window_get_focus (GTK_WINDOW (window)));
    g_assert_true (GTK_IS_TEXT_VIEW (editor));
    buffer = gtk_text_view_get_buffer (editor);
    tp_document_set_selected_node (document, -1);
    gtk_text_buffer_get_iter_at_line (buffer, &iter, 4);
    gtk_text_buffer_place_cursor (buffer, &iter);
    g_assert_cmpint (tp_document_get_selected_node (document), ==, 4);
    g_assert_cmpstr (gtk_label_get_label (label), ==, expected);
  }
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== memory ====} */

static void
teach_memory_chart (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpDocument *document = tp_window_get_document (window);
  TpMemoryChart *chart = TP_MEMORY_CHART (tp_teach_panel_get_memory_chart (panel));
  TpSession *session = session_for (window);
  GtkGesture *click = find_click_gesture (GTK_WIDGET (chart));
  size_t n = tp_session_n_steps (session);

  gtk_window_present (GTK_WINDOW (window));
  tp_teach_panel_show (panel, TP_TEACH_MEMORY);
  g_assert_true (tp_test_wait_until (panel_mapped, chart, 20));
  g_assert_nonnull (click);
  g_assert_cmpuint (n, >, 0);
  for (size_t k = 0; k < n; k++)
    {
      TpStep step;
      graphene_rect_t bar;

      g_assert_true (tp_session_step (session, k, &step));
      /* clicking bar k selects its node everywhere */
      tp_document_set_selected_node (document, -1);
      g_assert_true (tp_memory_chart_get_bar (chart, (guint) k, &bar));
      g_signal_emit_by_name (click, "pressed", 1, (double) (bar.origin.x + 1), (double) (bar.origin.y + bar.size.height / 2));
      g_signal_emit_by_name (click, "released", 1, (double) (bar.origin.x + 1), (double) (bar.origin.y + bar.size.height / 2));
      g_assert_cmpint (tp_document_get_selected_node (document), ==, (int) step.node);
      g_assert_cmpint (tp_memory_chart_get_highlighted (chart), ==, (int) k);
      {
        g_autofree char *plan = selected_line (window, TP_PANE_PLAN);
        g_autofree char *prefix = g_strdup_printf ("%4u  ", step.node);

        g_assert_true (g_str_has_prefix (plan, prefix));
      }
    }
  /* selected elsewhere, the node's bar is highlighted */
  for (size_t k = n; k-- > 0;)
    {
      TpStep step;

      g_assert_true (tp_session_step (session, k, &step));
      tp_document_set_selected_node (document, -1);
      g_assert_cmpint (tp_memory_chart_get_highlighted (chart), ==, -1);
      tp_document_set_selected_node (document, (int) step.node);
      g_assert_cmpint (tp_memory_chart_get_highlighted (chart), ==, (int) k);
    }
  /* observing a name changes the chart at once: `error` (node 4) is kept
   * to the last step (the README sample observes it: observe nothing
   * first) */
  tp_document_set_observe (document, NULL);
  tp_document_recompute_now (document);
  {
    TpStep step;
    size_t at;
    const char *observe[1] = { "error" };
    TpChoices choices = { .observe = observe, .n_observe = 1 };
    g_autofree char *source = tp_document_dup_text (document);
    TpSession *observed = tp_session_new ();
    graphene_rect_t before, after;

    g_assert_true (tp_session_node_step (session, 4, &at));
    g_assert_true (tp_memory_chart_get_bar (chart, (guint) at, &before));
    g_assert_cmpint (tp_session_compile (observed, source, strlen (source), &choices), ==, TP_STATUS_OK);
    g_assert_true (tp_session_step (observed, at, &step));
    g_assert_true (step.kept);
    tp_document_set_observe (document, "error");
    tp_document_recompute_now (document);
    g_assert_true (tp_memory_chart_get_bar (chart, (guint) at, &after));
    g_assert_cmpfloat (after.size.width, >, before.size.width);
    tp_session_free (observed);
  }
  /* a node the plan does not evaluate has no bar (node 12 of the README) */
  {
    size_t at;

    g_assert_false (tp_session_node_step (session, 12, &at));
    tp_document_set_selected_node (document, 12);
    g_assert_cmpint (tp_memory_chart_get_highlighted (chart), ==, -1);
  }
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== steps ====} */

/* At step k: the step's node is selected in every pane, the chart's cursor
 * is at k, and the picture's states are the engine's. */
static void
assert_at_step (TpWindow  *window,
                TpSession *session,
                size_t     k)
{
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE));
  TpMemoryChart *chart = TP_MEMORY_CHART (tp_teach_panel_get_memory_chart (panel));
  TpStep step;
  TpOrigin origin;
  graphene_rect_t bounds;
  g_autofree char *plan = NULL;
  g_autofree char *derivative = NULL;
  g_autofree char *prefix = NULL;
  size_t length = 0;
  const char *sentence;
  g_autofree char *expected = NULL;
  char *value;

  g_assert_true (tp_session_step (session, k, &step));
  g_assert_cmpint (tp_teach_panel_get_step (panel), ==, (int) k);
  g_assert_cmpint ((int) gtk_range_get_value (tp_teach_panel_get_scrubber (panel)), ==, (int) k);
  g_assert_cmpint (tp_document_get_selected_node (tp_window_get_document (window)), ==, (int) step.node);
  prefix = g_strdup_printf ("%4u  ", step.node);
  plan = selected_line (window, TP_PANE_PLAN);
  g_assert_nonnull (plan);
  g_assert_true (g_str_has_prefix (plan, prefix));
  derivative = selected_line (window, TP_PANE_DERIVATIVE);
  g_assert_nonnull (derivative);
  g_assert_true (g_str_has_prefix (derivative, prefix));
  g_assert_true (tp_picture_view_get_selected_bounds (picture, &bounds));
  g_assert_cmpint (tp_memory_chart_get_highlighted (chart), ==, (int) k);
  g_assert_cmpint (tp_memory_chart_get_cursor (chart), ==, (int) k);
  for (uint32_t node = 0; node < tp_session_n_nodes (session); node++)
    g_assert_cmpint (tp_picture_view_get_node_state (picture, node) & ~TP_PICTURE_NODE_EMPHASIS, ==,
                     tp_session_node_state (session, k, node));
  /* the node's sentence and value, as the engine writes them */
  sentence = tp_session_explanation (session, step.node, &length);
  expected = g_strndup (sentence, length);
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_explanation_label (panel)), ==, expected);
  value = tp_session_node_value_text (session, step.node, TP_STEP_VALUE_ELEMENTS);
  g_assert_nonnull (value);
  g_assert_nonnull (strstr (gtk_label_get_label (tp_teach_panel_get_value_label (panel)), value));
  tp_string_free (value);
  /* the step's sentence is the engine's, whole (a share step's says
   * which share goes to which gradient), and a share and its running
   * sum are emphasised in the picture */
  sentence = tp_session_step_text (session, k, &length);
  g_assert_nonnull (sentence);
  g_clear_pointer (&expected, g_free);
  expected = g_strndup (sentence, length);
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_step_label (panel)), ==, expected);
  g_assert_true (tp_session_origin (session, step.node, &origin));
  if (origin.role == TP_ORIGIN_SHARE)
    {
      g_assert_nonnull (strstr (expected, "adds share"));
      g_assert_true (tp_picture_view_get_node_state (picture, origin.share) & TP_PICTURE_NODE_EMPHASIS);
      g_assert_true (tp_picture_view_get_node_state (picture, origin.sum) & TP_PICTURE_NODE_EMPHASIS);
    }
}

static void
teach_step_through (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpSession *session = session_for (window);
  size_t n = tp_session_n_steps (session);
  guint shares = 0;

  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  g_assert_true (tp_test_wait_until (picture_shown, window, 20));
  g_assert_cmpuint (n, ==, 17);
  /* the picture shows the states while the Steps pane is shown */
  tp_teach_panel_set_step (panel, 2);
  g_assert_cmpint (tp_picture_view_get_node_state (TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE)), 5),
                   ==, 0);
  tp_teach_panel_show (panel, TP_TEACH_STEPS);
  g_assert_cmpint (tp_picture_view_get_node_state (TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE)), 5),
                   ==, TP_NODE_PENDING);
  for (size_t k = 0; k < n; k++)
    {
      TpStep step;
      TpOrigin origin;

      tp_teach_panel_set_step (panel, (int) k);
      assert_at_step (window, session, k);
      g_assert_true (tp_session_step (session, k, &step));
      g_assert_true (tp_session_origin (session, step.node, &origin));
      shares += origin.role == TP_ORIGIN_SHARE;
    }
  g_assert_cmpuint (shares, >, 0);

  /* the keys, pressed as a person does, with the scrubber focused
   * (Alt+9 shows the steps and focuses it) */
  tp_test_press (GTK_WIDGET (window), "<Alt>9");
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (tp_teach_panel_get_scrubber (panel))));
  tp_test_press (GTK_WIDGET (window), "Home");
  assert_at_step (window, session, 0);
  tp_test_press (GTK_WIDGET (window), "Right");
  assert_at_step (window, session, 1);
  tp_test_press (GTK_WIDGET (window), "Right");
  assert_at_step (window, session, 2);
  tp_test_press (GTK_WIDGET (window), "Left");
  assert_at_step (window, session, 1);
  tp_test_press (GTK_WIDGET (window), "End");
  assert_at_step (window, session, 16);
  tp_test_press (GTK_WIDGET (window), "Home");
  assert_at_step (window, session, 0);
  g_assert_false (tp_teach_panel_get_playing (panel));
  tp_test_press (GTK_WIDGET (window), "space");
  g_assert_true (tp_teach_panel_get_playing (panel));
  tp_test_press (GTK_WIDGET (window), "space");
  g_assert_false (tp_teach_panel_get_playing (panel));

  /* another pane shown: the picture unveiled */
  tp_teach_panel_show (panel, TP_TEACH_CHECK);
  for (uint32_t node = 0; node < tp_session_n_nodes (session); node++)
    g_assert_cmpint (tp_picture_view_get_node_state (TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE)), node),
                     ==, 0);

  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
reading_applied (gpointer data)
{
  return !tp_document_get_busy (data);
}

/* A refused program: the steps are the last good reading's, marked stale. */
static void
teach_steps_stale (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpDocument *document = tp_window_get_document (window);
  TpSession *session = session_for (window);
  g_autofree char *text = tp_document_dup_text (document);
  g_autofree char *broken = g_strconcat (text, "oops = (\n", NULL);

  tp_teach_panel_set_step (panel, 3);
  tp_document_set_text (document, broken);
  tp_document_recompute_now (document);
  g_assert_true (tp_test_wait_until (reading_applied, document, 20));
  g_assert_true (tp_document_get_stale (document));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp_teach_panel_get_steps_reason (panel))));
  g_assert_nonnull (strstr (gtk_label_get_label (tp_teach_panel_get_steps_reason (panel)), "stale"));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (tp_teach_panel_get_scrubber (panel))));
  tp_teach_panel_set_step (panel, 5);
  g_assert_cmpint (tp_teach_panel_get_step (panel), ==, 5);
  {
    TpStep step;
    graphene_rect_t bar;
    TpMemoryChart *chart = TP_MEMORY_CHART (tp_teach_panel_get_memory_chart (panel));

    g_assert_true (tp_session_step (session, 5, &step));
    g_assert_true (tp_memory_chart_get_bar (chart, 5, &bar));
    g_assert_cmpint (tp_memory_chart_get_cursor (chart), ==, 5);
  }
  /* and once it reads again, the mark goes */
  tp_document_set_text (document, text);
  tp_document_recompute_now (document);
  g_assert_true (tp_test_wait_until (reading_applied, document, 20));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (tp_teach_panel_get_steps_reason (panel))));
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== train ====} */

static gboolean
training_done (gpointer data)
{
  return !tp_teach_panel_get_training (data);
}

static void
teach_train (void)
{
  TpWindow *window = window_on_sample ("linear-regression");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpLossChart *chart = TP_LOSS_CHART (tp_teach_panel_get_loss_chart (panel));
  TpSession *session = session_for (window);
  TpTrain *train = tp_session_train (session, 20, "0.05", strlen ("0.05"));
  const float *expected, *shown;
  size_t n_expected = 0;
  gsize n_shown = 0;

  g_assert_true (tp_train_ok (train));
  expected = tp_train_losses (train, &n_expected);
  g_assert_cmpuint (n_expected, ==, 21);
  gtk_spin_button_set_value (tp_teach_panel_get_train_steps (panel), 20);
  gtk_editable_set_text (tp_teach_panel_get_train_rate (panel), "0.05");
  g_signal_emit_by_name (tp_teach_panel_get_train_run (panel), "clicked");
  g_assert_true (tp_teach_panel_get_training (panel));
  g_assert_true (tp_test_wait_until (training_done, panel, 30));
  shown = tp_loss_chart_get_losses (chart, &n_shown);
  g_assert_cmpuint (n_shown, ==, 21);
  g_assert_true (memcmp (shown, expected, n_expected * sizeof (float)) == 0);
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_parameters (panel)), ==,
                   tp_train_parameters_short_at (train, 20));

  /* the heading is the engine's sentence */
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_message (panel)), ==, tp_train_summary (train));

  /* looking at step 7: the loss there (the engine's short number) and
   * the parameters after 7 steps, which the training gives in the short
   * format (tp_train_parameters_short_at), the same as a training of 7
   * steps */
  {
    TpTrain *seven = tp_session_train (session, 7, "0.05", strlen ("0.05"));
    char loss[TP_SHORT_NUMBER_MAX];
    g_autofree char *at = NULL;

    tp_short_number ((double) expected[7], loss);
    gtk_range_set_value (tp_teach_panel_get_train_scrubber (panel), 7);
    g_assert_true (tp_test_wait_until (training_done, panel, 30));
    g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_parameters (panel)), ==,
                     tp_train_parameters_short_at (train, 7));
    g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_parameters (panel)), ==,
                     tp_train_parameters_short_at (seven, 7));
    at = g_strdup_printf ("after 7 steps: loss %s", loss);
    g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_at (panel)), ==, at);
    tp_train_free (seven);
  }

  /* a refused training shows the engine's reason */
  {
    TpTrain *refused = tp_session_train (session, 20, "fast", strlen ("fast"));

    g_assert_false (tp_train_ok (refused));
    gtk_editable_set_text (tp_teach_panel_get_train_rate (panel), "fast");
    g_signal_emit_by_name (tp_teach_panel_get_train_run (panel), "clicked");
    g_assert_true (tp_test_wait_until (training_done, panel, 30));
    g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_message (panel)), ==,
                     tp_train_error (refused));
    shown = tp_loss_chart_get_losses (chart, &n_shown);
    g_assert_cmpuint (n_shown, ==, 0);
    tp_train_free (refused);
  }
  tp_train_free (train);
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A program with no derivative cannot be trained: the engine says why. */
static void
teach_train_refused (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpDocument *document = tp_window_get_document (window);
  const char *program = "x = input 2.0\ny = x * x\n";
  TpSession *session = tp_session_new ();
  TpChoices choices = { 0 };
  TpTrain *refused;

  tp_document_set_text (document, program);
  tp_document_recompute_now (document);
  g_assert_true (tp_test_wait_until (reading_applied, document, 20));
  g_assert_cmpint (tp_session_compile (session, program, strlen (program), &choices), ==, TP_STATUS_OK);
  refused = tp_session_train (session, 100, "0.1", 3);
  g_assert_false (tp_train_ok (refused));
  g_signal_emit_by_name (tp_teach_panel_get_train_run (panel), "clicked");
  g_assert_true (tp_test_wait_until (training_done, panel, 30));
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_message (panel)), ==, tp_train_error (refused));
  tp_train_free (refused);
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A NaN or infinity stops the training: the pane names the step and
 * the node, and the button selects the node. */
static void
teach_train_stopped (void)
{
  TpWindow *window = window_on_sample ("readme");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpSession *session = session_for (window);
  TpTrain *train = tp_session_train (session, 10, "1e30", strlen ("1e30"));
  GtkButton *stop = tp_teach_panel_get_train_stop_button (panel);
  uint32_t step = 0, node = 0;
  g_autofree char *expected = NULL;

  g_assert_true (tp_train_ok (train));
  g_assert_true (tp_train_stopped (train, &step, &node));
  gtk_spin_button_set_value (tp_teach_panel_get_train_steps (panel), 10);
  gtk_editable_set_text (tp_teach_panel_get_train_rate (panel), "1e30");
  g_signal_emit_by_name (tp_teach_panel_get_train_run (panel), "clicked");
  g_assert_true (tp_test_wait_until (training_done, panel, 30));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (stop)));
  /* the heading says where it stopped, in the engine's words */
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_message (panel)), ==, tp_train_summary (train));
  g_assert_true (g_str_has_prefix (tp_train_summary (train), "stopped at step "));
  expected = g_strdup_printf ("Select node %u", node);
  g_assert_true (g_str_has_prefix (gtk_button_get_label (stop), expected));
  tp_document_set_selected_node (tp_window_get_document (window), -1);
  g_signal_emit_by_name (stop, "clicked");
  g_assert_cmpint (tp_document_get_selected_node (tp_window_get_document (window)), ==, (int) node);
  tp_train_free (train);
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Walking every step with the keyboard (Alt+9 shows the Steps pane,
 * Home, then Right step by step), the pane shows exactly the engine's
 * sentence for each (tp_session_step_text of a session of the test's
 * own), for the README sample and the MLP. */
static void
teach_steps_text (void)
{
  static const char *const samples[] = { "readme", "mlp" };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      TpWindow *window = window_on_sample (samples[i]);
      TpTeachPanel *panel = tp_window_get_teach_panel (window);
      GtkLabel *label = tp_teach_panel_get_step_label (panel);
      TpSession *session = session_for (window);
      size_t n = tp_session_n_steps (session);

      g_assert_cmpuint (n, >, 10);
      g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
      tp_test_press (GTK_WIDGET (window), "<Alt>9");
      g_assert_true (gtk_widget_has_focus (GTK_WIDGET (tp_teach_panel_get_scrubber (panel))));
      tp_test_press (GTK_WIDGET (window), "Home");
      for (size_t k = 0; k < n; k++)
        {
          size_t length = 0;
          const char *text = tp_session_step_text (session, k, &length);
          g_autofree char *expected = g_strndup (text, length);

          g_assert_cmpint (tp_teach_panel_get_step (panel), ==, (int) k);
          g_assert_cmpstr (gtk_label_get_label (label), ==, expected);
          if (k + 1 < n)
            tp_test_press (GTK_WIDGET (window), "Right");
        }
      g_test_message ("%s: %zu steps, each the engine's sentence", samples[i], n);
      tp_session_free (session);
      gtk_window_destroy (GTK_WINDOW (window));
    }
}

/* Beside each line of the spec, derivative and plan panes, the name of
 * the line's node as the engine gives it (its map's node,
 * tp_session_display_name); the reading itself is the engine's text. */
static void
teach_names_gutter (void)
{
  static const TpPane panes[] = { TP_PANE_SPEC, TP_PANE_DERIVATIVE, TP_PANE_PLAN };
  TpWindow *window = window_on_sample ("readme");
  TpSession *session = session_for (window);

  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  for (guint p = 0; p < G_N_ELEMENTS (panes); p++)
    {
      TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, panes[p]));
      GtkSourceGutter *gutter = gtk_source_view_get_gutter (GTK_SOURCE_VIEW (tp_text_pane_get_view (pane)),
                                                           GTK_TEXT_WINDOW_LEFT);
      g_autofree char *copied = tp_text_pane_dup_reading (pane);
      guint named = 0;

      g_assert_cmpstr (copied, ==, tp_session_reading (session, (TpReading) panes[p]));
      for (size_t line = 0; line < tp_session_map_n_lines (session, (TpReading) panes[p]); line++)
        {
          TpMapLine map;
          const char *expected = NULL;

          g_assert_true (tp_session_map_line (session, (TpReading) panes[p], line, &map));
          if (map.node != TP_MAP_NO_NODE)
            expected = tp_session_display_name (session, map.node);
          g_assert_cmpstr (tp_text_pane_get_line_name (pane, (guint) line), ==, expected);
          named += expected != NULL;
        }
      /* the README's w, x, y, error and loss */
      g_assert_cmpuint (named, >=, 5);
      {
        GtkWidget *renderer = NULL;

        for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (gutter)); c != NULL; c = gtk_widget_get_next_sibling (c))
          if (gtk_widget_has_css_class (c, "line-names"))
            renderer = c;
        g_assert_nonnull (renderer);
        g_assert_true (gtk_widget_get_visible (renderer));
      }
    }
  /* the values pane names its lines itself: no gutter */
  g_assert_null (tp_text_pane_get_line_name (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_VALUES)), 0));
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  const char *path;
  void (*run) (void);
} TeachCase;

static const TeachCase cases[] = {
  { "/ui/teach/check-verdict", teach_check_verdict },
  { "/ui/teach/check-nonfinite", teach_check_nonfinite },
  { "/ui/teach/explanation", teach_explanation },
  { "/ui/teach/memory-chart", teach_memory_chart },
  { "/ui/teach/step-through", teach_step_through },
  { "/ui/teach/steps-stale", teach_steps_stale },
  { "/ui/teach/steps-text", teach_steps_text },
  { "/ui/teach/names-gutter", teach_names_gutter },
  { "/ui/teach/train", teach_train },
  { "/ui/teach/train-refused", teach_train_refused },
  { "/ui/teach/train-stopped", teach_train_stopped },
};

/* Each case maps a window: it runs in a subprocess of its own. */
static void
run_case (gconstpointer data)
{
  const TeachCase *c = data;

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
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
