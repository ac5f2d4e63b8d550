/* tp-teach-panel.c: the teaching panes under the readings.
 *
 * The sentence bar says what the selected node is (the explain reading's
 * line, tp_session_explanation).  Check shows the check's verdict
 * (tp_session_check_summary) over its reading; Memory the chart
 * (tp-memory-chart.c); Steps walks the plan's schedule, selecting each
 * step's node everywhere and styling the picture by each node's state;
 * Train runs gradient descent in a thread of its own (tp_session_train
 * on a session of its own, compiled from the text the readings were made
 * of) and draws its losses (tp-loss-chart.c).  The panel reads only what
 * the engine said: nothing is taken out of a reading's text. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-document.h"
#include "tp-loss-chart.h"
#include "tp-memory-chart.h"
#include "tp-picture-view.h"
#include "tp-priority.h"
#include "tp-teach-panel.h"

#define PLAY_INTERVAL_MS 450
#define TRAIN_DEFAULT_STEPS 100
#define TRAIN_DEFAULT_RATE "0.1"

static const struct
{
  const char *id;
  const char *title;
} teach_pages[TP_N_TEACH] = {
  [TP_TEACH_CHECK] = { "check", N_("Check") },
  [TP_TEACH_MEMORY] = { "memory", N_("Memory") },
  [TP_TEACH_STEPS] = { "steps", N_("Steps") },
  [TP_TEACH_TRAIN] = { "train", N_("Train") },
};

struct _TpTeachPanel
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkLabel *explanation;
  GtkStack *stack;

  /* check */
  GtkImage *verdict_icon;
  GtkLabel *verdict;
  GtkButton *nonfinite;
  GtkTextView *check_view;

  /* memory */
  TpMemoryChart *chart;

  /* steps */
  GtkWidget *steps_controls;
  GtkRange *scrubber;
  GtkButton *play;
  GtkLabel *step_label;
  GtkLabel *share_label;
  GtkLabel *value_label;
  GtkLabel *steps_reason;

  /* train */
  GtkSpinButton *train_steps;
  GtkEntry *train_rate;
  GtkButton *train_run;
  GtkButton *train_reset;
  GtkSpinner *train_spinner;
  TpLossChart *loss_chart;
  GtkRange *train_scrubber;
  GtkLabel *train_at;
  GtkLabel *train_message;
  GtkLabel *train_parameters;
  GtkButton *train_stop;

  /* Owned references */
  TpDocument *document;
  TpReadings *readings;         /* the step-through's (the last good ones) */
  TpPictureView *picture;       /* weak */
  GCancellable *train_cancellable;
  GHashTable *train_looks;      /* steps -> the parameters after them */
  TpReadings *train_readings;   /* what the curve was trained on */
  char *train_rate_text;

  int step;                     /* the step shown, -1 for none */
  guint play_source;
  guint train_stop_node;
  guint updating : 1;
  guint n_training;             /* runs in flight */
  int train_look;               /* the step being looked at, -1 none */
};

G_DEFINE_FINAL_TYPE (TpTeachPanel, tp_teach_panel, GTK_TYPE_WIDGET)

static void tp_teach_panel_show_step (TpTeachPanel *self);

/* {==== the sentence bar ====} */

static void
tp_teach_panel_update_explanation (TpTeachPanel *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  int node = self->document != NULL ? tp_document_get_selected_node (self->document) : -1;
  const char *sentence = r != NULL && node >= 0 ? tp_readings_get_explanation (r, (guint) node) : NULL;

  if (sentence != NULL)
    gtk_label_set_label (self->explanation, sentence);
  else
    gtk_label_set_label (self->explanation,
                         _("Select a node (a line of a reading, a node of the picture, a bar of the memory chart) to read what it is."));
  gtk_widget_set_sensitive (GTK_WIDGET (self->explanation), sentence != NULL);
}

/* {==== check ====} */

static void
tp_teach_panel_update_check (TpTeachPanel *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  static const char *classes[] = { "success", "warning", "error", "dim-label" };
  static const char *icons[] = {
    [TP_OUTCOME_AGREE] = "emblem-ok-symbolic",
    [TP_OUTCOME_DIFFER] = "dialog-warning-symbolic",
    [TP_OUTCOME_NONFINITE] = "dialog-error-symbolic",
    [TP_OUTCOME_UNCHECKED] = "dialog-question-symbolic",
  };
  TpCheckOutcome outcome = r != NULL ? r->check.outcome : TP_OUTCOME_UNCHECKED;
  GtkWidget *line = gtk_widget_get_parent (GTK_WIDGET (self->verdict));

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (line, classes[i]);
  gtk_widget_add_css_class (line, classes[MIN ((guint) outcome, 3u)]);
  gtk_image_set_from_icon_name (self->verdict_icon, icons[MIN ((guint) outcome, 3u)]);
  if (r == NULL)
    gtk_label_set_label (self->verdict, _("No check: the program does not read yet"));
  else if (r->check_verdict != NULL && r->check_verdict[0] != '\0')
    gtk_label_set_label (self->verdict, r->check_verdict);
  else
    gtk_label_set_label (self->verdict, _("nothing was checked"));
  if (r != NULL && r->check.nonfinite)
    {
      /* Translators: the check pane's button that selects the node where
       * the first NaN or infinity is born; %u is its node */
      g_autofree char *text = g_strdup_printf (_("non-finite value born in node %u: select it"),
                                               r->check.nonfinite_node);

      gtk_button_set_label (self->nonfinite, text);
      gtk_widget_set_visible (GTK_WIDGET (self->nonfinite), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->nonfinite), FALSE);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->check_view),
                            r != NULL ? tp_readings_get_text (r, TP_READING_CHECK) : "", -1);
}

static void
tp_teach_panel_nonfinite_cb (TpTeachPanel *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;

  if (r != NULL && r->check.nonfinite)
    tp_document_set_selected_node (self->document, (int) r->check.nonfinite_node);
}

/* {==== steps ====} */

static guint
tp_teach_panel_n_steps (TpTeachPanel *self)
{
  return self->readings != NULL ? self->readings->n_steps : 0;
}

/* A node's name for a sentence: its statement's name, else "node N". */
static char *
tp_teach_panel_node_name (TpReadings *r,
                          guint       node)
{
  for (guint i = r->n_names; i-- > 0;)
    if (r->names[i].node == node)
      return g_strdup (r->names[i].name);
  /* Translators: how a node without a name is called in a sentence */
  return g_strdup_printf (_("node %u"), node);
}

/* The target's node: the forward node of the seed's origin. */
static guint
tp_teach_panel_target (TpReadings *r)
{
  for (guint i = r->spec_nodes; r->origins != NULL && i < r->n_nodes; i++)
    if (r->origins[i].role == TP_ORIGIN_SEED)
      return r->origins[i].of;
  return G_MAXUINT;
}

static void
tp_teach_panel_update_picture_states (TpTeachPanel *self)
{
  TpReadings *r = self->readings;
  g_autofree guint8 *states = NULL;
  const TpOrigin *origin;

  if (self->picture == NULL)
    return;
  if (r == NULL || self->step < 0)
    {
      tp_picture_view_set_node_states (self->picture, NULL, 0);
      return;
    }
  states = g_new0 (guint8, r->n_nodes + 1);
  for (guint i = 0; i < r->n_nodes; i++)
    states[i] = (guint8) tp_readings_get_node_state (r, (guint) self->step, i);
  origin = r->origins != NULL ? &r->origins[r->steps[self->step].node] : NULL;
  if (origin != NULL && origin->role == TP_ORIGIN_SHARE)
    {
      if (origin->share < r->n_nodes)
        states[origin->share] |= TP_PICTURE_NODE_EMPHASIS;
      if (origin->sum < r->n_nodes)
        states[origin->sum] |= TP_PICTURE_NODE_EMPHASIS;
    }
  tp_picture_view_set_node_states (self->picture, states, r->n_nodes);
}

static void
tp_teach_panel_show_step (TpTeachPanel *self)
{
  TpReadings *r = self->readings;
  const TpStep *s;
  const TpOrigin *origin;
  const char *value;
  g_autofree char *text = NULL;

  tp_memory_chart_set_cursor (self->chart, self->step);
  tp_teach_panel_update_picture_states (self);
  if (r == NULL || self->step < 0)
    {
      gtk_label_set_label (self->step_label, "");
      gtk_label_set_label (self->share_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->share_label), FALSE);
      gtk_label_set_label (self->value_label, "");
      return;
    }
  s = &r->steps[self->step];
  if (s->gradient)
    /* Translators: the step-through's line: the step, the node
     * it computes, the last step; in the gradient half */
    text = g_strdup_printf (_("step %d (of 0 to %u): node %u, gradient; %" G_GUINT64_FORMAT " elements live"),
                            self->step, r->n_steps - 1, s->node, s->live);
  else
    /* Translators: the step-through's line: the step, the node
     * it computes, the last step; in the forward half */
    text = g_strdup_printf (_("step %d (of 0 to %u): node %u, forward; %" G_GUINT64_FORMAT " elements live"),
                            self->step, r->n_steps - 1, s->node, s->live);
  gtk_label_set_label (self->step_label, text);
  g_clear_pointer (&text, g_free);

  origin = r->origins != NULL ? &r->origins[s->node] : NULL;
  if (origin != NULL && origin->role == TP_ORIGIN_SHARE)
    {
      g_autofree char *target = tp_teach_panel_node_name (r, tp_teach_panel_target (r));
      g_autofree char *of = tp_teach_panel_node_name (r, origin->of);

      /* Translators: a share step of the gradient: the share's node, the
       * consumer it flows back through, the target's name, the forward
       * value's name, and the running sum it is added to */
      text = g_strdup_printf (_("share from node %u (through node %u) added to d %s / d %s (running sum node %u)"),
                              origin->share, origin->from, target, of, origin->sum);
      gtk_label_set_label (self->share_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->share_label), TRUE);
    }
  else
    {
      gtk_label_set_label (self->share_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->share_label), FALSE);
    }
  value = tp_readings_get_value_text (r, s->node);
  g_clear_pointer (&text, g_free);
  if (value != NULL)
    /* Translators: the step-through's value of the step's node, as the
     * values reading writes it */
    text = g_strdup_printf (_("value: %s"), value);
  else
    text = g_strdup (_("value: not shown (the program's values are too many)"));
  gtk_label_set_label (self->value_label, text);
}

/* Goes to step @step: its node is selected in every pane. */
void
tp_teach_panel_set_step (TpTeachPanel *self,
                         int           step)
{
  guint n;

  g_return_if_fail (TP_IS_TEACH_PANEL (self));

  n = tp_teach_panel_n_steps (self);
  if (n == 0)
    step = -1;
  else
    step = CLAMP (step, 0, (int) n - 1);
  self->step = step;
  if (step >= 0 && (int) gtk_range_get_value (self->scrubber) != step)
    {
      self->updating = TRUE;
      gtk_range_set_value (self->scrubber, step);
      self->updating = FALSE;
    }
  if (step >= 0 && self->document != NULL && self->readings == tp_document_get_readings (self->document))
    tp_document_set_selected_node (self->document, (int) self->readings->steps[step].node);
  tp_teach_panel_show_step (self);
}

int
tp_teach_panel_get_step (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), -1);

  return self->step;
}

static void
tp_teach_panel_scrubbed_cb (TpTeachPanel *self)
{
  if (!self->updating)
    tp_teach_panel_set_step (self, (int) gtk_range_get_value (self->scrubber));
}

static void
tp_teach_panel_stop_playing (TpTeachPanel *self)
{
  g_clear_handle_id (&self->play_source, g_source_remove);
  gtk_button_set_icon_name (self->play, "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play), _("Play (Space)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Play"), -1);
}

static gboolean
tp_teach_panel_play_tick_cb (gpointer data)
{
  TpTeachPanel *self = data;

  if (self->step + 1 >= (int) tp_teach_panel_n_steps (self))
    {
      self->play_source = 0;
      tp_teach_panel_stop_playing (self);
      return G_SOURCE_REMOVE;
    }
  tp_teach_panel_set_step (self, self->step + 1);
  return G_SOURCE_CONTINUE;
}

static void
tp_teach_panel_toggle_play (TpTeachPanel *self)
{
  if (self->play_source != 0)
    {
      tp_teach_panel_stop_playing (self);
      return;
    }
  if (tp_teach_panel_n_steps (self) == 0)
    return;
  if (self->step + 1 >= (int) tp_teach_panel_n_steps (self))
    tp_teach_panel_set_step (self, 0);
  self->play_source = g_timeout_add (PLAY_INTERVAL_MS, tp_teach_panel_play_tick_cb, self);
  gtk_button_set_icon_name (self->play, "media-playback-pause-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play), _("Pause (Space)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Pause"), -1);
}

gboolean
tp_teach_panel_get_playing (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), FALSE);

  return self->play_source != 0;
}

static void
tp_teach_panel_step_button_cb (GtkButton    *button,
                               TpTeachPanel *self)
{
  const char *what = g_object_get_data (G_OBJECT (button), "step");
  int n = (int) tp_teach_panel_n_steps (self);

  if (g_str_equal (what, "home"))
    tp_teach_panel_set_step (self, 0);
  else if (g_str_equal (what, "back"))
    tp_teach_panel_set_step (self, self->step - 1);
  else if (g_str_equal (what, "forward"))
    tp_teach_panel_set_step (self, self->step + 1);
  else if (g_str_equal (what, "end"))
    tp_teach_panel_set_step (self, n - 1);
  else
    tp_teach_panel_toggle_play (self);
}

/* The scrubber's keys: Space plays and pauses; Left, Right, Home and End
 * step and jump (GtkScale's own keys would move by its increments too,
 * these make sure a key is always one step). */
static gboolean
tp_teach_panel_scrubber_key_cb (GtkEventControllerKey *controller,
                                guint                  keyval,
                                guint                  keycode,
                                GdkModifierType        state,
                                TpTeachPanel          *self)
{
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_space:
    case GDK_KEY_KP_Space:
      tp_teach_panel_toggle_play (self);
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      tp_teach_panel_set_step (self, self->step - 1);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      tp_teach_panel_set_step (self, self->step + 1);
      return TRUE;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      tp_teach_panel_set_step (self, 0);
      return TRUE;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      tp_teach_panel_set_step (self, (int) tp_teach_panel_n_steps (self) - 1);
      return TRUE;
    default:
      return FALSE;
    }
}

/* New readings: the step-through walks the last good ones; while the
 * program is refused it says the steps are of the last good reading. */
static void
tp_teach_panel_update_steps (TpTeachPanel *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  gboolean stale = self->document != NULL && tp_document_get_stale (self->document);
  guint n;

  if (r != self->readings)
    {
      int keep = self->step;

      g_clear_pointer (&self->readings, tp_readings_unref);
      if (r != NULL)
        self->readings = tp_readings_ref (r);
      n = tp_teach_panel_n_steps (self);
      self->updating = TRUE;
      gtk_range_set_range (self->scrubber, 0, MAX (n, 1) - 1);
      self->updating = FALSE;
      self->step = n == 0 ? -1 : CLAMP (keep, -1, (int) n - 1);
      if (self->step >= 0)
        {
          self->updating = TRUE;
          gtk_range_set_value (self->scrubber, self->step);
          self->updating = FALSE;
        }
      if (n == 0)
        tp_teach_panel_stop_playing (self);
    }
  n = tp_teach_panel_n_steps (self);
  gtk_widget_set_sensitive (self->steps_controls, n > 0);
  if (n == 0)
    gtk_label_set_label (self->steps_reason, r == NULL ? _("No steps: the program does not read yet.")
                                                       : _("No steps: the plan evaluates nothing."));
  else if (stale)
    gtk_label_set_label (self->steps_reason,
                         _("The program is refused: these are the steps of the last good reading (stale)."));
  else
    gtk_label_set_label (self->steps_reason, "");
  gtk_widget_set_visible (GTK_WIDGET (self->steps_reason),
                          gtk_label_get_label (self->steps_reason)[0] != '\0');
  tp_teach_panel_show_step (self);
}

/* {==== train ====} */

typedef struct
{
  TpReadings *readings;
  guint steps;
  char *rate;
  gboolean look;                /* a look at one step: only its parameters */

  /* what came out */
  gboolean ok;
  char *error;
  float *losses;
  gsize n_losses;
  char *parameters;
  gboolean stopped;
  guint stop_step;
  guint stop_node;
} TpTrainJob;

static void
tp_teach_job_free (gpointer data)
{
  TpTrainJob *job = data;

  g_clear_pointer (&job->readings, tp_readings_unref);
  g_free (job->rate);
  g_free (job->error);
  g_free (job->losses);
  g_free (job->parameters);
  g_free (job);
}

/* In a thread: compiles the readings' program in a session of its own and
 * trains it. */
static void
tp_teach_job_run (GTask        *task,
                  gpointer      source,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  TpTrainJob *job = task_data;
  TpReadings *r = job->readings;
  const char *observe[1] = { r->observe };
  TpChoices choices = {
    .target = r->target,
    .observe = observe,
    .n_observe = r->observe != NULL ? 1 : 0,
    .exact = r->exact,
  };
  /* GLib's shared pool thread: lowered for the training only */
  int priority = tp_priority_lower_thread ();
  TpSession *session = tp_session_new ();
  TpTrain *train = NULL;

  if (session != NULL && tp_session_compile (session, r->source, r->source_length, &choices) == TP_STATUS_OK)
    train = tp_session_train (session, job->steps, job->rate, strlen (job->rate));
  if (train == NULL)
    job->error = g_strdup (_("out of memory"));
  else if (!tp_train_ok (train))
    job->error = g_strdup (tp_train_error (train));
  else
    {
      const float *losses = tp_train_losses (train, &job->n_losses);
      uint32_t step = 0, node = 0;

      job->ok = TRUE;
      job->losses = g_memdup2 (losses, sizeof (float) * job->n_losses);
      job->parameters = g_strdup (tp_train_parameters (train));
      job->stopped = tp_train_stopped (train, &step, &node);
      job->stop_step = step;
      job->stop_node = node;
    }
  if (train != NULL)
    tp_train_free (train);
  if (session != NULL)
    tp_session_free (session);
  tp_priority_restore_thread (priority);
  g_task_return_boolean (task, TRUE);
}

static void
tp_teach_panel_update_training (TpTeachPanel *self)
{
  gboolean busy = self->n_training > 0;

  gtk_widget_set_visible (GTK_WIDGET (self->train_spinner), busy);
  gtk_spinner_set_spinning (self->train_spinner, busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->train_run),
                            self->document != NULL && tp_document_get_readings (self->document) != NULL);
}

gboolean
tp_teach_panel_get_training (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), FALSE);

  return self->n_training > 0;
}

static void tp_teach_panel_start_job (TpTeachPanel *self,
                                      guint         steps,
                                      gboolean      look);

/* Shows the loss at the step looked at and the parameters after it,
 * training that many steps (off the main thread, once) when they are not
 * known yet. */
static void
tp_teach_panel_look (TpTeachPanel *self)
{
  gsize n = 0;
  const float *losses = tp_loss_chart_get_losses (self->loss_chart, &n);
  int k = (int) gtk_range_get_value (self->train_scrubber);
  const char *parameters;
  g_autofree char *text = NULL;

  if (n == 0)
    {
      gtk_label_set_label (self->train_at, "");
      return;
    }
  k = CLAMP (k, 0, (int) n - 1);
  self->train_look = k;
  tp_loss_chart_set_cursor (self->loss_chart, k);
  {
    char *loss = tp_f32_text (losses[k]);

    /* Translators: the training's step looked at and the loss there (as
     * the train reading writes it) */
    text = g_strdup_printf (_("after %d steps: loss %s"), k, loss != NULL ? loss : "");
    tp_string_free (loss);
  }
  gtk_label_set_label (self->train_at, text);
  parameters = g_hash_table_lookup (self->train_looks, GINT_TO_POINTER (k));
  if (parameters != NULL)
    gtk_label_set_label (self->train_parameters, parameters);
  else if (k == 0)
    gtk_label_set_label (self->train_parameters, _("the parameters as the program writes them"));
  else
    {
      gtk_label_set_label (self->train_parameters, _("training that many steps…"));
      tp_teach_panel_start_job (self, (guint) k, TRUE);
    }
}

static void
tp_teach_panel_job_done_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(TpTeachPanel) self = user_data;
  TpTrainJob *job = g_task_get_task_data (G_TASK (result));

  self->n_training--;
  tp_teach_panel_update_training (self);
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;                     /* reset, or a newer run */
  if (job->look)
    {
      if (job->ok)
        g_hash_table_insert (self->train_looks, GINT_TO_POINTER (job->steps), g_strdup (job->parameters));
      if (self->train_look == (int) job->steps)
        tp_teach_panel_look (self);
      return;
    }
  g_clear_pointer (&self->train_readings, tp_readings_unref);
  self->train_readings = tp_readings_ref (job->readings);
  g_hash_table_remove_all (self->train_looks);
  if (!job->ok)
    {
      tp_loss_chart_set_losses (self->loss_chart, NULL, 0);
      gtk_label_set_label (self->train_message, job->error);
      gtk_widget_add_css_class (GTK_WIDGET (self->train_message), "error");
      gtk_label_set_label (self->train_parameters, "");
      gtk_label_set_label (self->train_at, "");
      gtk_widget_set_visible (GTK_WIDGET (self->train_stop), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->train_scrubber), FALSE);
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->train_message), "error");
  {
    g_autofree char *text = NULL;

    char *loss = job->n_losses > 0 ? tp_f32_text (job->losses[job->n_losses - 1]) : NULL;

    /* Translators: after a training: the steps and the final loss */
    text = g_strdup_printf (ngettext ("Trained %u step: final loss %s", "Trained %u steps: final loss %s",
                                      job->steps),
                            job->steps, loss != NULL ? loss : "");
    tp_string_free (loss);
    gtk_label_set_label (self->train_message, text);
  }
  tp_loss_chart_set_losses (self->loss_chart, job->losses, job->n_losses);
  if (!job->stopped)
    g_hash_table_insert (self->train_looks, GINT_TO_POINTER (job->steps), g_strdup (job->parameters));
  if (job->stopped)
    {
      /* Translators: a training stopped by a NaN or infinity: the step,
       * and the node where it was born (the button selects it) */
      g_autofree char *text = g_strdup_printf (_("stopped at step %u: a non-finite value born in node %u"),
                                               job->stop_step, job->stop_node);

      self->train_stop_node = job->stop_node;
      gtk_button_set_label (self->train_stop, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->train_stop), job->stopped);
  gtk_widget_set_sensitive (GTK_WIDGET (self->train_scrubber), job->n_losses > 1);
  gtk_range_set_range (self->train_scrubber, 0, (double) (MAX (job->n_losses, 2) - 1));
  gtk_range_set_value (self->train_scrubber, (double) (job->n_losses - 1));
  tp_teach_panel_look (self);
}

static void
tp_teach_panel_start_job (TpTeachPanel *self,
                          guint         steps,
                          gboolean      look)
{
  TpReadings *r = look ? self->train_readings : tp_document_get_readings (self->document);
  g_autoptr(GTask) task = NULL;
  TpTrainJob *job;

  if (r == NULL || r->source == NULL)
    return;
  job = g_new0 (TpTrainJob, 1);
  job->readings = tp_readings_ref (r);
  job->steps = steps;
  job->look = look;
  job->rate = g_strdup (look ? self->train_rate_text : gtk_editable_get_text (GTK_EDITABLE (self->train_rate)));
  if (!look)
    {
      g_cancellable_cancel (self->train_cancellable);
      g_clear_object (&self->train_cancellable);
      self->train_cancellable = g_cancellable_new ();
      g_free (self->train_rate_text);
      self->train_rate_text = g_strdup (job->rate);
    }
  task = g_task_new (NULL, self->train_cancellable, tp_teach_panel_job_done_cb, g_object_ref (self));
  g_task_set_task_data (task, job, tp_teach_job_free);
  g_task_set_return_on_cancel (task, FALSE);
  self->n_training++;
  tp_teach_panel_update_training (self);
  g_task_run_in_thread (task, tp_teach_job_run);
}

static void
tp_teach_panel_run_cb (TpTeachPanel *self)
{
  if (self->document == NULL)
    return;
  gtk_label_set_label (self->train_message, _("Training…"));
  gtk_spin_button_update (self->train_steps);   /* a number typed, not yet entered */
  tp_teach_panel_start_job (self, (guint) gtk_spin_button_get_value_as_int (self->train_steps), FALSE);
}

static void
tp_teach_panel_reset_cb (TpTeachPanel *self)
{
  g_cancellable_cancel (self->train_cancellable);
  g_clear_object (&self->train_cancellable);
  self->train_cancellable = g_cancellable_new ();
  g_clear_pointer (&self->train_readings, tp_readings_unref);
  g_hash_table_remove_all (self->train_looks);
  gtk_spin_button_set_value (self->train_steps, TRAIN_DEFAULT_STEPS);
  gtk_editable_set_text (GTK_EDITABLE (self->train_rate), TRAIN_DEFAULT_RATE);
  tp_loss_chart_set_losses (self->loss_chart, NULL, 0);
  gtk_label_set_label (self->train_message, _("Run trains the program's parameters by gradient descent."));
  gtk_widget_remove_css_class (GTK_WIDGET (self->train_message), "error");
  gtk_label_set_label (self->train_parameters, "");
  gtk_label_set_label (self->train_at, "");
  gtk_widget_set_visible (GTK_WIDGET (self->train_stop), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->train_scrubber), FALSE);
}

static void
tp_teach_panel_train_stop_cb (TpTeachPanel *self)
{
  if (self->document != NULL)
    tp_document_set_selected_node (self->document, (int) self->train_stop_node);
}

/* {==== building ====} */

static GtkWidget *
tp_teach_panel_scrolled (GtkWidget *child)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), child);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_set_hexpand (scrolled, TRUE);
  return scrolled;
}

static GtkLabel *
tp_teach_panel_new_label (gboolean monospace)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (""));

  gtk_label_set_xalign (label, 0);
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (label, TRUE);
  if (monospace)
    gtk_widget_add_css_class (GTK_WIDGET (label), "monospace");
  return label;
}

/* A one-line label: wrapped labels outside a scrolled window make GTK
 * 4.8's height-for-width sizes disagree by a pixel. */
static GtkLabel *
tp_teach_panel_new_line (void)
{
  GtkLabel *label = tp_teach_panel_new_label (FALSE);

  gtk_label_set_wrap (label, FALSE);
  gtk_label_set_ellipsize (label, PANGO_ELLIPSIZE_END);
  return label;
}

static GtkWidget *
tp_teach_panel_build_check (TpTeachPanel *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);

  gtk_widget_add_css_class (line, "verdict");
  self->verdict_icon = g_object_new (GTK_TYPE_IMAGE, "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION, NULL);
  self->verdict = tp_teach_panel_new_line ();
  gtk_widget_add_css_class (GTK_WIDGET (self->verdict), "heading");
  gtk_widget_set_hexpand (GTK_WIDGET (self->verdict), TRUE);
  self->nonfinite = GTK_BUTTON (gtk_button_new_with_label (""));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->nonfinite), _("Select the node where the first NaN or infinity is born"));
  gtk_widget_add_css_class (GTK_WIDGET (self->nonfinite), "error");
  g_signal_connect_swapped (self->nonfinite, "clicked", G_CALLBACK (tp_teach_panel_nonfinite_cb), self);
  gtk_box_append (GTK_BOX (line), GTK_WIDGET (self->verdict_icon));
  gtk_box_append (GTK_BOX (line), GTK_WIDGET (self->verdict));
  gtk_box_append (GTK_BOX (line), GTK_WIDGET (self->nonfinite));
  gtk_box_append (GTK_BOX (page), line);

  self->check_view = GTK_TEXT_VIEW (gtk_text_view_new ());
  gtk_text_view_set_editable (self->check_view, FALSE);
  gtk_text_view_set_monospace (self->check_view, TRUE);
  /* the readings' text size (Ctrl+plus, Ctrl+minus, presenting) */
  gtk_widget_add_css_class (GTK_WIDGET (self->check_view), "reading");
  gtk_text_view_set_left_margin (self->check_view, 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->check_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Check reading"), -1);
  gtk_box_append (GTK_BOX (page), tp_teach_panel_scrolled (GTK_WIDGET (self->check_view)));
  return page;
}

static GtkWidget *
tp_teach_panel_step_button (TpTeachPanel *self,
                            GtkWidget    *box,
                            const char   *what,
                            const char   *icon,
                            const char   *name,
                            const char   *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  g_object_set_data (G_OBJECT (button), "step", (gpointer) what);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  g_signal_connect (button, "clicked", G_CALLBACK (tp_teach_panel_step_button_cb), self);
  gtk_box_append (GTK_BOX (box), button);
  return button;
}

static GtkWidget *
tp_teach_panel_build_steps (TpTeachPanel *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, 1, 1);
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkWidget *details = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  self->steps_controls = controls;
  tp_teach_panel_step_button (self, controls, "home", "media-skip-backward-symbolic",
                              _("First step"), _("First step (Home)"));
  tp_teach_panel_step_button (self, controls, "back", "go-previous-symbolic",
                              _("Step back"), _("Step back (Left)"));
  self->play = GTK_BUTTON (tp_teach_panel_step_button (self, controls, "play", "media-playback-start-symbolic",
                                                       _("Play"), _("Play (Space)")));
  tp_teach_panel_step_button (self, controls, "forward", "go-next-symbolic",
                              _("Step forward"), _("Step forward (Right)"));
  tp_teach_panel_step_button (self, controls, "end", "media-skip-forward-symbolic",
                              _("Last step"), _("Last step (End)"));
  self->scrubber = GTK_RANGE (scale);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
  gtk_range_set_increments (self->scrubber, 1, 10);
  gtk_widget_set_hexpand (scale, TRUE);
  gtk_widget_set_tooltip_text (scale, _("The plan's steps: Left and Right step, Home and End jump, Space plays"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (scale), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Step"), -1);
  g_signal_connect_swapped (scale, "value-changed", G_CALLBACK (tp_teach_panel_scrubbed_cb), self);
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (tp_teach_panel_scrubber_key_cb), self);
  gtk_widget_add_controller (scale, keys);
  gtk_box_append (GTK_BOX (controls), scale);
  gtk_box_append (GTK_BOX (page), controls);

  {
    GtkLabel *legend = tp_teach_panel_new_line ();

    gtk_label_set_label (legend, _("In the picture: veiled, not computed yet; green outline, computed and held; "
                                   "greyed, computed and freed; purple, a share and the running sum it is added to."));
    gtk_widget_set_tooltip_text (GTK_WIDGET (legend), gtk_label_get_label (legend));
    gtk_label_set_selectable (legend, FALSE);
    gtk_widget_add_css_class (GTK_WIDGET (legend), "dim-label");
    gtk_box_append (GTK_BOX (page), GTK_WIDGET (legend));
  }
  self->steps_reason = tp_teach_panel_new_line ();
  gtk_widget_add_css_class (GTK_WIDGET (self->steps_reason), "warning");
  gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->steps_reason));
  self->step_label = tp_teach_panel_new_label (FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->step_label), "heading");
  self->share_label = tp_teach_panel_new_label (FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->share_label), "share");
  gtk_widget_add_css_class (GTK_WIDGET (self->share_label), "title-4");
  self->value_label = tp_teach_panel_new_label (TRUE);
  gtk_box_append (GTK_BOX (details), GTK_WIDGET (self->step_label));
  gtk_box_append (GTK_BOX (details), GTK_WIDGET (self->share_label));
  gtk_box_append (GTK_BOX (details), GTK_WIDGET (self->value_label));
  gtk_box_append (GTK_BOX (page), tp_teach_panel_scrolled (details));
  return page;
}

static GtkWidget *
tp_teach_panel_labelled (GtkWidget  *box,
                         const char *mnemonic,
                         GtkWidget  *widget)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (mnemonic);

  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), widget);
  return widget;
}

static GtkWidget *
tp_teach_panel_build_train (TpTeachPanel *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *look = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *side = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  self->train_steps = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, TP_TRAIN_MAX_STEPS, 1));
  gtk_spin_button_set_value (self->train_steps, TRAIN_DEFAULT_STEPS);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->train_steps),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Steps"), -1);
  tp_teach_panel_labelled (controls, _("Ste_ps"), GTK_WIDGET (self->train_steps));
  self->train_rate = GTK_ENTRY (gtk_entry_new ());
  gtk_editable_set_text (GTK_EDITABLE (self->train_rate), TRAIN_DEFAULT_RATE);
  gtk_editable_set_width_chars (GTK_EDITABLE (self->train_rate), 8);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->train_rate),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Learning rate"), -1);
  tp_teach_panel_labelled (controls, _("_Learning rate"), GTK_WIDGET (self->train_rate));
  g_signal_connect_swapped (self->train_rate, "activate", G_CALLBACK (tp_teach_panel_run_cb), self);
  self->train_run = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Run")));
  gtk_widget_add_css_class (GTK_WIDGET (self->train_run), "suggested-action");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->train_run), _("Train the parameters by gradient descent"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->train_run), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Run"), -1);
  g_signal_connect_swapped (self->train_run, "clicked", G_CALLBACK (tp_teach_panel_run_cb), self);
  self->train_reset = GTK_BUTTON (gtk_button_new_with_mnemonic (_("R_eset")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->train_reset), _("Forget the training and restore the defaults"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->train_reset), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Reset"), -1);
  g_signal_connect_swapped (self->train_reset, "clicked", G_CALLBACK (tp_teach_panel_reset_cb), self);
  self->train_spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->train_spinner), _("Training…"));
  gtk_box_append (GTK_BOX (controls), GTK_WIDGET (self->train_run));
  gtk_box_append (GTK_BOX (controls), GTK_WIDGET (self->train_reset));
  gtk_box_append (GTK_BOX (controls), GTK_WIDGET (self->train_spinner));
  self->train_message = tp_teach_panel_new_line ();
  gtk_widget_set_hexpand (GTK_WIDGET (self->train_message), TRUE);
  gtk_box_append (GTK_BOX (controls), GTK_WIDGET (self->train_message));
  gtk_box_append (GTK_BOX (page), controls);

  self->loss_chart = TP_LOSS_CHART (tp_loss_chart_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->loss_chart), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->loss_chart), TRUE);
  gtk_box_append (GTK_BOX (body), GTK_WIDGET (self->loss_chart));
  self->train_at = tp_teach_panel_new_label (FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (self->train_at), "heading");
  self->train_parameters = tp_teach_panel_new_label (TRUE);
  self->train_stop = GTK_BUTTON (gtk_button_new_with_label (""));
  gtk_widget_set_visible (GTK_WIDGET (self->train_stop), FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->train_stop), _("Select the node where the value was born"));
  g_signal_connect_swapped (self->train_stop, "clicked", G_CALLBACK (tp_teach_panel_train_stop_cb), self);
  gtk_box_append (GTK_BOX (side), GTK_WIDGET (self->train_parameters));
  gtk_box_append (GTK_BOX (side), GTK_WIDGET (self->train_stop));

  self->train_scrubber = GTK_RANGE (gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, 1, 1));
  gtk_scale_set_draw_value (GTK_SCALE (self->train_scrubber), FALSE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->train_scrubber), TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->train_scrubber), FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->train_scrubber), _("Look at the loss and the parameters after any step"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->train_scrubber),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Look at step"), -1);
  g_signal_connect_swapped (self->train_scrubber, "value-changed", G_CALLBACK (tp_teach_panel_look), self);
  tp_teach_panel_labelled (look, _("Loo_k at step"), GTK_WIDGET (self->train_scrubber));

  /* beside the curve, so it keeps the panel's height: the step looked at,
   * the loss there, the parameters after it */
  gtk_box_append (GTK_BOX (column), look);
  gtk_box_append (GTK_BOX (column), GTK_WIDGET (self->train_at));
  gtk_box_append (GTK_BOX (column), tp_teach_panel_scrolled (side));
  gtk_widget_set_size_request (column, 340, -1);
  gtk_widget_set_hexpand (column, FALSE);
  /* wrapped, not widened: the curve keeps the rest of the width */
  gtk_label_set_max_width_chars (self->train_at, 36);
  gtk_label_set_max_width_chars (self->train_parameters, 36);
  gtk_box_append (GTK_BOX (body), column);
  gtk_box_append (GTK_BOX (page), body);
  return page;
}

/* {==== public ====} */

static void
tp_teach_panel_readings_cb (TpTeachPanel *self)
{
  tp_teach_panel_update_check (self);
  tp_teach_panel_update_steps (self);
  tp_teach_panel_update_explanation (self);
  tp_teach_panel_update_training (self);
}

void
tp_teach_panel_set_document (TpTeachPanel *self,
                             TpDocument   *document)
{
  g_return_if_fail (TP_IS_TEACH_PANEL (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  tp_memory_chart_set_document (self->chart, document);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_teach_panel_readings_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::stale",
                               G_CALLBACK (tp_teach_panel_update_steps), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::selected-node",
                               G_CALLBACK (tp_teach_panel_update_explanation), self, G_CONNECT_SWAPPED);
    }
  tp_teach_panel_readings_cb (self);
}

void
tp_teach_panel_set_picture (TpTeachPanel  *self,
                            TpPictureView *picture)
{
  g_return_if_fail (TP_IS_TEACH_PANEL (self));

  g_set_weak_pointer (&self->picture, picture);
  tp_teach_panel_update_picture_states (self);
}

gboolean
tp_teach_page_from_id (const char  *id,
                       TpTeachPage *page)
{
  for (guint i = 0; i < TP_N_TEACH; i++)
    if (g_strcmp0 (id, teach_pages[i].id) == 0)
      {
        *page = (TpTeachPage) i;
        return TRUE;
      }
  return FALSE;
}

TpTeachPage
tp_teach_panel_get_page (TpTeachPanel *self)
{
  TpTeachPage page = TP_TEACH_CHECK;

  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), TP_TEACH_CHECK);

  tp_teach_page_from_id (gtk_stack_get_visible_child_name (self->stack), &page);
  return page;
}

void
tp_teach_panel_show (TpTeachPanel *self,
                     TpTeachPage   page)
{
  GtkWidget *focus[TP_N_TEACH];

  g_return_if_fail (TP_IS_TEACH_PANEL (self));
  g_return_if_fail ((guint) page < TP_N_TEACH);

  focus[TP_TEACH_CHECK] = GTK_WIDGET (self->check_view);
  focus[TP_TEACH_MEMORY] = GTK_WIDGET (self->chart);
  focus[TP_TEACH_STEPS] = GTK_WIDGET (self->scrubber);
  focus[TP_TEACH_TRAIN] = GTK_WIDGET (self->train_run);
  gtk_stack_set_visible_child_name (self->stack, teach_pages[page].id);
  if (page == TP_TEACH_STEPS && self->step < 0 && tp_teach_panel_n_steps (self) > 0)
    tp_teach_panel_set_step (self, 0);
  gtk_widget_grab_focus (focus[page]);
}

#define GETTER(type, name, field) \
  type tp_teach_panel_get_##name (TpTeachPanel *self) \
  { \
    g_return_val_if_fail (TP_IS_TEACH_PANEL (self), NULL); \
    return (type) self->field; \
  }

GETTER (GtkLabel *, explanation_label, explanation)
GETTER (GtkLabel *, verdict_label, verdict)
GETTER (GtkButton *, nonfinite_button, nonfinite)
GETTER (GtkTextView *, check_view, check_view)
GETTER (GtkWidget *, memory_chart, chart)
GETTER (GtkRange *, scrubber, scrubber)
GETTER (GtkLabel *, step_label, step_label)
GETTER (GtkLabel *, share_label, share_label)
GETTER (GtkLabel *, value_label, value_label)
GETTER (GtkLabel *, steps_reason, steps_reason)
GETTER (GtkLabel *, train_at, train_at)
GETTER (GtkSpinButton *, train_steps, train_steps)
GETTER (GtkEditable *, train_rate, train_rate)
GETTER (GtkButton *, train_run, train_run)
GETTER (GtkButton *, train_reset, train_reset)
GETTER (GtkWidget *, loss_chart, loss_chart)
GETTER (GtkLabel *, train_message, train_message)
GETTER (GtkLabel *, train_parameters, train_parameters)
GETTER (GtkRange *, train_scrubber, train_scrubber)
GETTER (GtkButton *, train_stop_button, train_stop)

GtkWidget *
tp_teach_panel_new (void)
{
  return g_object_new (TP_TYPE_TEACH_PANEL, NULL);
}

static void
tp_teach_panel_dispose (GObject *object)
{
  TpTeachPanel *self = TP_TEACH_PANEL (object);

  g_clear_handle_id (&self->play_source, g_source_remove);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_cancellable_cancel (self->train_cancellable);
  g_clear_object (&self->train_cancellable);
  g_clear_object (&self->document);
  g_clear_weak_pointer (&self->picture);
  g_clear_pointer (&self->readings, tp_readings_unref);
  g_clear_pointer (&self->train_readings, tp_readings_unref);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (tp_teach_panel_parent_class)->dispose (object);
}

static void
tp_teach_panel_finalize (GObject *object)
{
  TpTeachPanel *self = TP_TEACH_PANEL (object);

  g_hash_table_unref (self->train_looks);
  g_free (self->train_rate_text);
  G_OBJECT_CLASS (tp_teach_panel_parent_class)->finalize (object);
}

static void
tp_teach_panel_class_init (TpTeachPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_teach_panel_dispose;
  object_class->finalize = tp_teach_panel_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "teach-panel");
}

static void
tp_teach_panel_init (TpTeachPanel *self)
{
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *memory = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *legend;
  GtkWidget *pages[TP_N_TEACH];

  self->step = -1;
  self->train_look = -1;
  self->train_looks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->train_cancellable = g_cancellable_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  /* the sentence bar: a status, so a screen reader says each new sentence
   * without taking the focus */
  self->explanation = g_object_new (GTK_TYPE_LABEL, "accessible-role", GTK_ACCESSIBLE_ROLE_STATUS, NULL);
  gtk_label_set_xalign (self->explanation, 0);
  gtk_label_set_wrap (self->explanation, TRUE);
  gtk_label_set_selectable (self->explanation, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->explanation), "explanation");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->explanation),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("The selected node"), -1);
  {
    GtkWidget *scrolled = gtk_scrolled_window_new ();

    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->explanation));
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 40);
    gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 40);
    gtk_widget_add_css_class (scrolled, "explanation-bar");
    gtk_box_append (GTK_BOX (self->box), scrolled);
  }

  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->stack);
  gtk_widget_set_halign (switcher, GTK_ALIGN_START);

  pages[TP_TEACH_CHECK] = tp_teach_panel_build_check (self);
  self->chart = TP_MEMORY_CHART (tp_memory_chart_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->chart), TRUE);
  legend = gtk_label_new (_("One bar per step, from the step that computes a buffer to the last step that holds it: blue forward, orange gradient, full colour kept to the end; the curve above is the live volume."));
  gtk_label_set_ellipsize (GTK_LABEL (legend), PANGO_ELLIPSIZE_END);
  gtk_widget_set_tooltip_text (legend, gtk_label_get_label (GTK_LABEL (legend)));
  gtk_label_set_xalign (GTK_LABEL (legend), 0);
  gtk_widget_add_css_class (legend, "dim-label");
  gtk_box_append (GTK_BOX (memory), legend);
  gtk_box_append (GTK_BOX (memory), tp_teach_panel_scrolled (GTK_WIDGET (self->chart)));
  pages[TP_TEACH_MEMORY] = memory;
  pages[TP_TEACH_STEPS] = tp_teach_panel_build_steps (self);
  pages[TP_TEACH_TRAIN] = tp_teach_panel_build_train (self);
  for (guint i = 0; i < TP_N_TEACH; i++)
    {
      gtk_widget_set_margin_start (pages[i], 6);
      gtk_widget_set_margin_end (pages[i], 6);
      gtk_widget_set_margin_bottom (pages[i], 4);
      gtk_stack_add_titled (self->stack, pages[i], teach_pages[i].id, gettext (teach_pages[i].title));
    }
  gtk_box_append (GTK_BOX (self->box), switcher);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->stack));
  tp_teach_panel_reset_cb (self);
  tp_teach_panel_readings_cb (self);
}
