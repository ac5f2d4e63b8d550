/* test-train.c: the Train pane as a lecturer uses it, with real key
 * presses and clicks (XTest): the program's own settings (XOR's `# train
 * it:` line), Reset keeping them, a click on the curve looking at that
 * step, the heading of a training that diverged, and Apply writing the
 * trained parameters into the program as one undoable edit.  Every
 * number and sentence is compared with the engine's own session for the
 * same program.  Each case runs in a subprocess of its own. */
#include "config.h"

#include <string.h>

#include "tp-document.h"
#include "tp-editor.h"
#include "tp-loss-chart.h"
#include "tp-picture-raster.h"
#include "tp-teach-panel.h"
#include "tp-train-pane.h"
#include "tp-ui-test-keys.h"
#include "tp-ui-test-util.h"
#include "tp-ui-test-window.h"
#include "tp-window.h"

#define SUBPROCESS_TIMEOUT (120 * G_USEC_PER_SEC)

/* A window on @sample with the keyboard, its Train pane shown (Alt+0). */
static TpWindow *
window_training (const char *sample)
{
  TpWindow *window = tp_test_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 780);
  tp_window_open_sample (window, sample);
  tp_window_recompute_now (window);
  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  tp_test_press (GTK_WIDGET (window), "<Alt>0");
  return window;
}

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
training_done (gpointer data)
{
  return !tp_teach_panel_get_training (data);
}

static gboolean
window_ready (gpointer data)
{
  return tp_window_get_ready (data) && !tp_document_get_teaching_pending (tp_window_get_document (data));
}

/* Types @text into the field that has the keyboard, replacing it. */
static void
type_into (TpWindow   *window,
           const char *text)
{
  tp_test_press (GTK_WIDGET (window), "<Control>a");
  for (const char *c = text; *c != '\0'; c++)
    {
      char key[16];

      if (*c == '.')
        g_strlcpy (key, "period", sizeof key);
      else if (*c == '-')
        g_strlcpy (key, "minus", sizeof key);
      else
        g_snprintf (key, sizeof key, "%c", *c);
      tp_test_press (GTK_WIDGET (window), key);
    }
}

/* XOR opens at its own `# train it: topos --train 1000 --learning-rate
 * 0.2`; numbers typed stay until Reset (Alt+E), which goes back to them,
 * not to the engine's defaults. */
static void
train_settings (void)
{
  TpWindow *window = window_training ("xor");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  GtkSpinButton *steps = tp_teach_panel_get_train_steps (panel);
  GtkEditable *rate = tp_teach_panel_get_train_rate (panel);
  TpSession *session = session_for (window);
  TpTrainSettings settings;

  g_assert_true (tp_session_train_settings (session, &settings));
  g_assert_true (settings.from_program);
  g_assert_cmpuint (settings.steps, ==, 1000);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (steps), ==, 1000);
  g_assert_cmpstr (gtk_editable_get_text (rate), ==, "0.2");
  g_assert_cmpuint (settings.steps, !=, tp_defaults ()->train_steps);

  /* typed with the keyboard (Alt+P, then Tab to the rate) */
  tp_test_press (GTK_WIDGET (window), "<Alt>p");
  type_into (window, "50");
  tp_test_press (GTK_WIDGET (window), "Tab");
  type_into (window, "0.05");
  gtk_spin_button_update (steps);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (steps), ==, 50);
  g_assert_cmpstr (gtk_editable_get_text (rate), ==, "0.05");
  /* a reading of the same program keeps them */
  tp_window_recompute_now (window);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (steps), ==, 50);

  /* Reset: Tab past Run to it, Space */
  tp_test_press (GTK_WIDGET (window), "Tab");
  tp_test_press (GTK_WIDGET (window), "Tab");
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (tp_teach_panel_get_train_reset (panel))));
  tp_test_press (GTK_WIDGET (window), "space");
  g_assert_cmpint (gtk_spin_button_get_value_as_int (steps), ==, 1000);
  g_assert_cmpstr (gtk_editable_get_text (rate), ==, "0.2");

  /* the README sample asks nothing: the engine's defaults */
  tp_window_open_sample (window, "readme");
  tp_window_recompute_now (window);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (steps), ==, (int) tp_defaults ()->train_steps);
  g_assert_cmpstr (gtk_editable_get_text (rate), ==, tp_defaults ()->train_rate);
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Run (Alt+R), then a click on the curve looks at the step under it: the
 * loss there in the engine's short format and the parameters after it,
 * as the engine's training gives them. */
typedef struct
{
  GtkRange *scrubber;
  guint aimed;
  int within;
} LookWait;

static gboolean
chart_shown (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

static gboolean
looked_near (gpointer data)
{
  LookWait *look = data;

  return ABS ((int) gtk_range_get_value (look->scrubber) - (int) look->aimed)
         <= look->within;
}

static void
train_look_by_click (void)
{
  TpWindow *window = window_training ("linear-regression");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpLossChart *chart = TP_LOSS_CHART (tp_teach_panel_get_loss_chart (panel));
  TpSession *session = session_for (window);
  TpTrainSettings settings;
  TpTrain *train;
  const float *losses;
  size_t n = 0;
  guint k;

  g_assert_true (tp_session_train_settings (session, &settings));
  train = tp_session_train (session, settings.steps, settings.learning_rate, settings.learning_rate_length);
  g_assert_true (tp_train_ok (train));
  losses = tp_train_losses (train, &n);
  tp_test_press (GTK_WIDGET (window), "<Alt>r");
  g_assert_true (tp_test_wait_until (training_done, panel, 60));
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_message (panel)), ==, tp_train_summary (train));
  g_assert_cmpint ((int) gtk_range_get_value (tp_teach_panel_get_train_scrubber (panel)), ==, (int) n - 1);

  for (guint i = 0; i < 3; i++)
    {
      char loss[TP_SHORT_NUMBER_MAX];
      g_autofree char *at = NULL;
      TpChart axes;

      LookWait look;

      k = (guint) (n - 1) * (i + 1) / 4;
      g_assert_true (tp_train_chart (train, &axes));
      /* the curve is on screen, with its width, before it is aimed at */
      g_assert_true (tp_test_wait_until (chart_shown, chart, 20));
      look.scrubber = tp_teach_panel_get_train_scrubber (panel);
      look.aimed = k;
      /* within a pixel's worth of steps of the one aimed at */
      look.within = (int) ((axes.x_high - axes.x_low) / gtk_widget_get_width (GTK_WIDGET (chart))) + 1;
      tp_test_click (GTK_WIDGET (chart), tp_loss_chart_get_step_x (chart, k),
                     gtk_widget_get_height (GTK_WIDGET (chart)) / 2.0);
      /* the look follows the click (it may come a turn of the main loop
       * after the release) */
      tp_test_wait_until (looked_near, &look, 20);
      g_assert_true (tp_test_wait_until (training_done, panel, 30));
      g_assert_cmpint (ABS ((int) gtk_range_get_value (look.scrubber) - (int) k), <=, look.within);
      k = (guint) gtk_range_get_value (tp_teach_panel_get_train_scrubber (panel));
      tp_short_number ((double) losses[k], loss);
      at = g_strdup_printf ("after %u steps: loss %s", k, loss);
      g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_at (panel)), ==, at);
      g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_parameters (panel)), ==,
                       tp_train_parameters_short_at (train, k));
    }
  tp_train_free (train);
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A training that diverges (w <- w - 3 * 2w grows fivefold a step) says
 * in the engine's words where it stopped, and the button selects the
 * node. */
static void
train_diverges (void)
{
  const char *program = "w = parameter 1.0\nloss = w * w\n";
  TpWindow *window = window_training ("readme");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpDocument *document = tp_window_get_document (window);
  TpSession *session;
  TpTrain *train;
  uint32_t step = 0, node = 0;

  tp_document_set_text (document, program);
  tp_window_recompute_now (window);
  session = session_for (window);
  train = tp_session_train (session, 100, "3", 1);
  g_assert_true (tp_train_stopped (train, &step, &node));
  tp_test_press (GTK_WIDGET (window), "<Alt>l");
  type_into (window, "3");
  /* Return in the field runs it */
  tp_test_press (GTK_WIDGET (window), "Return");
  g_assert_true (tp_test_wait_until (training_done, panel, 60));
  g_assert_cmpstr (gtk_label_get_label (tp_teach_panel_get_train_message (panel)), ==, tp_train_summary (train));
  g_assert_true (g_str_has_prefix (tp_train_summary (train), "stopped at step "));
  g_assert_null (strstr (gtk_label_get_label (tp_teach_panel_get_train_message (panel)), "final loss"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (tp_teach_panel_get_train_stop_button (panel))));
  tp_document_set_selected_node (document, -1);
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (tp_teach_panel_get_train_stop_button (panel))));
  tp_test_press (GTK_WIDGET (window), "space");
  g_assert_cmpint (tp_document_get_selected_node (document), ==, (int) node);
  tp_train_free (train);
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
text_changed (gpointer data)
{
  char **texts = data;
  g_autofree char *now = tp_document_dup_text ((TpDocument *) texts[1]);

  return g_strcmp0 (now, texts[0]) != 0;
}

/* Apply (Alt+A) writes the parameters after the step looked at into the
 * program: the text is the engine's (tp_train_apply), the readings are
 * then the trained program's (XOR predicts 0, 1, 1, 0), and Ctrl+Z in
 * the editor gives the program back in one press. */
static void
train_apply (void)
{
  TpWindow *window = window_training ("xor");
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpDocument *document = tp_window_get_document (window);
  g_autofree char *original = tp_document_dup_text (document);
  TpSession *session = session_for (window);
  TpSession *trained = tp_session_new ();
  TpTrain *train = tp_session_train (session, 1000, "0.2", 3);
  const char *why = NULL;
  char *expected = tp_train_apply (train, 1000, &why);
  g_autofree char *now = NULL;
  const TpName *names;
  size_t n_names = 0;
  gboolean found = FALSE;
  char *texts[2] = { original, (char *) document };
  TpChoices choices = { 0 };

  g_assert_nonnull (expected);
  tp_test_press (GTK_WIDGET (window), "<Alt>r");
  g_assert_true (tp_test_wait_until (training_done, panel, 60));
  tp_test_press (GTK_WIDGET (window), "<Alt>a");
  g_assert_true (tp_test_wait_until (text_changed, texts, 30));
  now = tp_document_dup_text (document);
  g_assert_cmpstr (now, ==, expected);

  /* the readings are the trained program's: its predictions */
  tp_window_recompute_now (window);
  g_assert_true (tp_test_wait_until (window_ready, window, 30));
  g_assert_cmpint (tp_session_compile (trained, expected, strlen (expected), &choices), ==, TP_STATUS_OK);
  g_assert_cmpstr (tp_readings_get_text (tp_document_get_readings (document), TP_READING_VALUES), ==,
                   tp_session_reading (trained, TP_READING_VALUES));
  names = tp_session_names (trained, &n_names);
  for (size_t i = 0; i < n_names; i++)
    if (g_strcmp0 (names[i].name, "prediction") == 0 || g_strcmp0 (names[i].name, "y") == 0)
      {
        uint32_t rank = 0;
        const uint32_t *dims = NULL;
        const float *v = tp_session_node_value (trained, names[i].node, &rank, &dims);
        static const float want[4] = { 0, 1, 1, 0 };

        g_assert_nonnull (v);
        for (guint e = 0; e < 4; e++)
          g_assert_cmpfloat_with_epsilon (v[e], want[e], 1e-3);
        found = TRUE;
      }
  g_assert_true (found);

  /* one Ctrl+Z in the editor: the program as it was */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window)))));
  tp_test_press (GTK_WIDGET (window), "<Control>z");
  g_clear_pointer (&now, g_free);
  now = tp_document_dup_text (document);
  g_assert_cmpstr (now, ==, original);

  tp_string_free (expected);
  tp_train_free (train);
  tp_session_free (trained);
  tp_session_free (session);
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct
{
  const char *path;
  void (*run) (void);
} TrainCase;

static const TrainCase cases[] = {
  { "/ui/train/settings", train_settings },
  { "/ui/train/look-by-click", train_look_by_click },
  { "/ui/train/diverges", train_diverges },
  { "/ui/train/apply", train_apply },
};

static void
run_case (gconstpointer data)
{
  const TrainCase *c = data;

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
