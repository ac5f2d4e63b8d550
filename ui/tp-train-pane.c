/* tp-train-pane.c: the Train pane (see tp-train-pane.h).
 *
 * The steps and the learning rate start from the program's own
 * (tp_session_train_settings: its `# train it:` line, else the engine's
 * defaults), and Reset goes back to them.  Run trains in a thread of its
 * own (a GTask): it compiles the text the current readings were made of
 * in a session of its own and calls tp_session_train; the TpTrain it
 * gives is kept (behind a lock: looking at a step and applying run in
 * threads too) until the next Run or Reset.  Looking at step K asks it
 * for the parameters after K steps (tp_train_parameters_short_at: no new
 * training); Apply asks it for the program with them written in
 * (tp_train_apply) and puts that text in the editor as one undoable
 * edit.  The heading is the engine's sentence (tp_train_summary), the
 * curve is drawn on the engine's axes (tp-loss-chart.c), and every
 * number shown is the engine's, in its short format. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-document.h"
#include "tp-loss-chart.h"
#include "tp-priority.h"
#include "tp-teaching.h"
#include "tp-train-pane.h"

/* A training, shared by the pane and the threads that ask it for a
 * step's parameters or the program with them (one at a time). */
typedef struct
{
  GMutex lock;
  TpTrain *train;
} TpTrained;

static void
tp_trained_clear (TpTrained *t)
{
  if (t->train != NULL)
    tp_train_free (t->train);
  g_mutex_clear (&t->lock);
}

static TpTrained *
tp_trained_new (TpTrain *train)
{
  TpTrained *t = g_atomic_rc_box_new0 (TpTrained);

  g_mutex_init (&t->lock);
  t->train = train;
  return t;
}

static void
tp_trained_unref (TpTrained *t)
{
  g_atomic_rc_box_release_full (t, (GDestroyNotify) tp_trained_clear);
}

struct _TpTrainPane
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkSpinButton *steps;
  GtkAdjustment *steps_adjustment;
  GtkEntry *rate;
  GtkButton *run;
  GtkButton *reset;
  GtkSpinner *spinner;
  GtkLabel *message;
  TpLossChart *loss_chart;
  GtkRange *scrubber;
  GtkLabel *at;
  GtkLabel *parameters;
  GtkButton *apply;
  GtkButton *stop;

  /* Owned references */
  TpDocument *document;
  GCancellable *cancellable;    /* the training's: Reset and Run cancel it */
  TpTrained *trained;           /* the last training, or NULL */
  char *last_parameters;        /* its parameters after the last step */
  char *settings;               /* the program's settings last put in */

  guint stop_node;
  guint n_training;             /* runs in flight */
  int look;                     /* the step being looked at, -1 none */
  int looking;                  /* the step a thread is asked for, -1 none */
};

G_DEFINE_FINAL_TYPE (TpTrainPane, tp_train_pane, GTK_TYPE_WIDGET)

typedef struct
{
  TpReadings *readings;
  guint steps;
  char *rate;

  /* what came out */
  TpTrained *trained;
  gboolean ok;
  char *error;
  char *summary;
  float *losses;
  gsize n_losses;
  TpChart chart;
  gboolean has_chart;
  char *parameters;
  gboolean stopped;
  guint stop_node;
} TpTrainJob;

static void
tp_train_job_free (gpointer data)
{
  TpTrainJob *job = data;

  g_clear_pointer (&job->readings, tp_readings_unref);
  g_clear_pointer (&job->trained, tp_trained_unref);
  g_free (job->rate);
  g_free (job->error);
  g_free (job->summary);
  g_free (job->losses);
  if (job->has_chart)
    tp_chart_clear (&job->chart);
  g_free (job->parameters);
  g_free (job);
}

/* In a thread: compiles the readings' program in a session of its own and
 * trains it. */
static void
tp_train_job_run (GTask        *task,
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
      TpChart chart;

      job->ok = TRUE;
      job->summary = g_strdup (tp_train_summary (train));
      job->losses = g_memdup2 (losses, sizeof (float) * job->n_losses);
      /* outside the readings: the short number format */
      job->parameters = g_strdup (tp_train_parameters_short_at (train, (uint32_t) job->n_losses - 1));
      job->stopped = tp_train_stopped (train, &step, &node);
      job->stop_node = node;
      if (tp_train_chart (train, &chart))
        {
          tp_chart_copy (&job->chart, &chart);
          job->has_chart = TRUE;
        }
      job->trained = tp_trained_new (g_steal_pointer (&train));
    }
  if (train != NULL)
    tp_train_free (train);
  if (session != NULL)
    tp_session_free (session);
  tp_priority_restore_thread (priority);
  g_task_return_boolean (task, TRUE);
}

static void
tp_train_pane_update_training (TpTrainPane *self)
{
  gboolean busy = self->n_training > 0;

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->run),
                            self->document != NULL && tp_document_get_readings (self->document) != NULL);
}

gboolean
tp_train_pane_get_training (TpTrainPane *self)
{
  g_return_val_if_fail (TP_IS_TRAIN_PANE (self), FALSE);

  return self->n_training > 0 || self->looking >= 0;
}

/* {==== a step's parameters, the program with them ====} */

typedef struct
{
  TpTrained *trained;
  guint k;
  gboolean apply;               /* the program's text, not the parameters */
  char *text;
  char *why;                    /* why the program could not be written */
} TpAskJob;

static void
tp_ask_job_free (gpointer data)
{
  TpAskJob *job = data;

  tp_trained_unref (job->trained);
  g_free (job->text);
  g_free (job->why);
  g_free (job);
}

static void
tp_ask_job_run (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  TpAskJob *job = task_data;
  int priority = tp_priority_lower_thread ();

  g_mutex_lock (&job->trained->lock);
  if (job->apply)
    {
      const char *why = NULL;
      char *text = tp_train_apply (job->trained->train, job->k, &why);

      job->text = g_strdup (text);
      job->why = g_strdup (why);
      tp_string_free (text);
    }
  else
    job->text = g_strdup (tp_train_parameters_short_at (job->trained->train, job->k));
  g_mutex_unlock (&job->trained->lock);
  tp_priority_restore_thread (priority);
  g_task_return_boolean (task, TRUE);
}

static void tp_train_pane_look (TpTrainPane *self);

static void
tp_train_pane_ask (TpTrainPane         *self,
                   guint                k,
                   gboolean             apply,
                   GAsyncReadyCallback  done)
{
  g_autoptr(GTask) task = NULL;
  TpAskJob *job = g_new0 (TpAskJob, 1);

  job->trained = g_atomic_rc_box_acquire (self->trained);
  job->k = k;
  job->apply = apply;
  task = g_task_new (NULL, self->cancellable, done, g_object_ref (self));
  g_task_set_task_data (task, job, tp_ask_job_free);
  g_task_run_in_thread (task, tp_ask_job_run);
}

static void
tp_train_pane_looked_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(TpTrainPane) self = user_data;
  TpAskJob *job = g_task_get_task_data (G_TASK (result));

  self->looking = -1;
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;                     /* reset, or a newer run */
  if ((int) job->k != self->look)
    {
      tp_train_pane_look (self);   /* the scrubber moved on meanwhile */
      return;
    }
  gtk_label_set_label (self->parameters, job->text != NULL ? job->text : _("out of memory"));
}

/* Shows the loss at the step looked at (the engine's short number) and
 * the parameters after it, which the training gives (off the main
 * thread, the latest step asked for). */
static void
tp_train_pane_look (TpTrainPane *self)
{
  gsize n = 0;
  const float *losses = tp_loss_chart_get_losses (self->loss_chart, &n);
  int k = (int) gtk_range_get_value (self->scrubber);
  g_autofree char *loss = NULL;
  g_autofree char *text = NULL;

  if (n == 0 || self->trained == NULL)
    {
      gtk_label_set_label (self->at, "");
      return;
    }
  k = CLAMP (k, 0, (int) n - 1);
  self->look = k;
  tp_loss_chart_set_cursor (self->loss_chart, k);
  loss = tp_short_number_dup ((double) losses[k]);
  /* Translators: the training's step looked at and the loss there (in
   * the engine's short format: "0.25", "4.4e-13") */
  text = g_strdup_printf (_("after %d steps: loss %s"), k, loss);
  gtk_label_set_label (self->at, text);
  if (k == (int) n - 1 && self->last_parameters != NULL)
    gtk_label_set_label (self->parameters, self->last_parameters);
  else if (self->looking < 0)
    {
      self->looking = k;
      tp_train_pane_ask (self, (guint) k, FALSE, tp_train_pane_looked_cb);
    }
}

/* A click on the curve looks at the step under it. */
static void
tp_train_pane_step_picked_cb (TpTrainPane *self,
                              int          step)
{
  gtk_range_set_value (self->scrubber, step);
  tp_train_pane_look (self);
}

static void
tp_train_pane_applied_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(TpTrainPane) self = user_data;
  TpAskJob *job = g_task_get_task_data (G_TASK (result));

  gtk_widget_set_sensitive (GTK_WIDGET (self->apply), TRUE);
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))) || self->document == NULL)
    return;
  if (job->text == NULL)
    {
      /* the engine's reason (a value that is not finite, ...) */
      gtk_label_set_label (self->message, job->why != NULL ? job->why : _("out of memory"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->message), gtk_label_get_label (self->message));
      gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
      return;
    }
  /* one user action: Ctrl+Z gives the program back */
  tp_document_set_text (self->document, job->text);
}

/* Writes the parameters after the step looked at into the program, as
 * literals (tp_train_apply). */
static void
tp_train_pane_apply_cb (TpTrainPane *self)
{
  if (self->trained == NULL || self->look < 0)
    return;
  gtk_widget_set_sensitive (GTK_WIDGET (self->apply), FALSE);
  tp_train_pane_ask (self, (guint) self->look, TRUE, tp_train_pane_applied_cb);
}

/* {==== running ====} */

static void
tp_train_pane_show_message (TpTrainPane *self,
                            const char  *text,
                            gboolean     error)
{
  gtk_label_set_label (self->message, text);
  /* whole in the tooltip when the line cuts it */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->message), text);
  if (error)
    gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->message), "error");
}

static void
tp_train_pane_clear (TpTrainPane *self)
{
  g_clear_pointer (&self->trained, tp_trained_unref);
  g_clear_pointer (&self->last_parameters, g_free);
  tp_loss_chart_set_training (self->loss_chart, NULL, 0, NULL);
  tp_loss_chart_set_cursor (self->loss_chart, -1);
  self->look = -1;
  gtk_label_set_label (self->parameters, "");
  gtk_label_set_label (self->at, "");
  gtk_widget_set_visible (GTK_WIDGET (self->stop), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scrubber), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->apply), FALSE);
}

static void
tp_train_pane_job_done_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(TpTrainPane) self = user_data;
  TpTrainJob *job = g_task_get_task_data (G_TASK (result));

  self->n_training--;
  tp_train_pane_update_training (self);
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    return;                     /* reset, or a newer run */
  tp_train_pane_clear (self);
  if (!job->ok)
    {
      tp_train_pane_show_message (self, job->error, TRUE);
      return;
    }
  /* the engine's heading: "trained 100 steps: loss 16 to 0.0010", or
   * where a NaN or an infinity stopped it */
  tp_train_pane_show_message (self, job->summary, job->stopped);
  self->trained = g_steal_pointer (&job->trained);
  self->last_parameters = g_steal_pointer (&job->parameters);
  tp_loss_chart_set_training (self->loss_chart, job->losses, job->n_losses, job->has_chart ? &job->chart : NULL);
  if (job->stopped)
    {
      g_autofree char *text = NULL;
      const char *name = NULL;
      TpReadings *r = tp_document_get_readings (self->document);

      if (r != NULL && r == job->readings)
        name = tp_readings_get_display_name (r, job->stop_node);
      if (name != NULL)
        /* Translators: the button that selects the node where the value
         * that stopped a training was born: its index and its name */
        text = g_strdup_printf (_("Select node %u (%s)"), job->stop_node, name);
      else
        /* Translators: the button that selects the node where the value
         * that stopped a training was born */
        text = g_strdup_printf (_("Select node %u"), job->stop_node);
      self->stop_node = job->stop_node;
      gtk_button_set_label (self->stop, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->stop), job->stopped);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scrubber), job->n_losses > 1);
  gtk_widget_set_sensitive (GTK_WIDGET (self->apply), TRUE);
  gtk_range_set_range (self->scrubber, 0, (double) (MAX (job->n_losses, 2) - 1));
  gtk_range_set_value (self->scrubber, (double) (job->n_losses - 1));
  tp_train_pane_look (self);
}

static void
tp_train_pane_renew_cancellable (TpTrainPane *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->looking = -1;
}

static void
tp_train_pane_run_cb (TpTrainPane *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  g_autoptr(GTask) task = NULL;
  TpTrainJob *job;

  if (r == NULL || r->source == NULL)
    return;
  gtk_spin_button_update (self->steps);   /* a number typed, not yet entered */
  tp_train_pane_show_message (self, _("Training…"), FALSE);
  job = g_new0 (TpTrainJob, 1);
  job->readings = tp_readings_ref (r);
  job->steps = (guint) gtk_spin_button_get_value_as_int (self->steps);
  job->rate = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->rate)));
  tp_train_pane_renew_cancellable (self);
  task = g_task_new (NULL, self->cancellable, tp_train_pane_job_done_cb, g_object_ref (self));
  g_task_set_task_data (task, job, tp_train_job_free);
  g_task_set_return_on_cancel (task, FALSE);
  self->n_training++;
  tp_train_pane_update_training (self);
  g_task_run_in_thread (task, tp_train_job_run);
}

/* The program's own steps and rate into the fields. */
static void
tp_train_pane_put_settings (TpTrainPane *self,
                            TpReadings  *r)
{
  guint steps = r != NULL ? r->train_steps : tp_defaults ()->train_steps;
  const char *rate = r != NULL && r->train_rate != NULL ? r->train_rate : tp_defaults ()->train_rate;

  g_free (self->settings);
  self->settings = g_strdup_printf ("%u %s", steps, rate);
  gtk_spin_button_set_value (self->steps, steps);
  gtk_editable_set_text (GTK_EDITABLE (self->rate), rate);
}

/* New readings: when the program's own settings changed (another
 * program, its `# train it:` line edited), the fields take them; values
 * typed for the same program stay. */
static void
tp_train_pane_readings_cb (TpTrainPane *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  g_autofree char *settings = NULL;

  tp_train_pane_update_training (self);
  if (r == NULL)
    return;
  settings = g_strdup_printf ("%u %s", r->train_steps, r->train_rate != NULL ? r->train_rate : "");
  if (g_strcmp0 (settings, self->settings) != 0)
    tp_train_pane_put_settings (self, r);
}

static void
tp_train_pane_reset_cb (TpTrainPane *self)
{
  tp_train_pane_renew_cancellable (self);
  tp_train_pane_clear (self);
  tp_train_pane_put_settings (self, self->document != NULL ? tp_document_get_readings (self->document) : NULL);
  tp_train_pane_show_message (self, _("Run trains the program's parameters by gradient descent."), FALSE);
}

static void
tp_train_pane_stop_cb (TpTrainPane *self)
{
  if (self->document != NULL)
    tp_document_set_selected_node (self->document, (int) self->stop_node);
}

void
tp_train_pane_set_document (TpTrainPane *self,
                            TpDocument  *document)
{
  g_return_if_fail (TP_IS_TRAIN_PANE (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    g_signal_connect_object (document, "notify::readings",
                             G_CALLBACK (tp_train_pane_readings_cb), self, G_CONNECT_SWAPPED);
  tp_train_pane_readings_cb (self);
}

GtkWidget *
tp_train_pane_get_focus_widget (TpTrainPane *self)
{
  g_return_val_if_fail (TP_IS_TRAIN_PANE (self), NULL);

  return GTK_WIDGET (self->run);
}

/* The step looked at, -1 for none. */
int
tp_train_pane_get_look (TpTrainPane *self)
{
  g_return_val_if_fail (TP_IS_TRAIN_PANE (self), -1);

  return self->look;
}

#define GETTER(type, name, field) \
  type tp_train_pane_get_##name (TpTrainPane *self) \
  { \
    g_return_val_if_fail (TP_IS_TRAIN_PANE (self), NULL); \
    return (type) self->field; \
  }

GETTER (GtkLabel *, at, at)
GETTER (GtkSpinButton *, steps, steps)
GETTER (GtkEditable *, rate, rate)
GETTER (GtkButton *, run, run)
GETTER (GtkButton *, reset, reset)
GETTER (GtkButton *, apply, apply)
GETTER (GtkWidget *, loss_chart, loss_chart)
GETTER (GtkLabel *, message, message)
GETTER (GtkLabel *, parameters, parameters)
GETTER (GtkRange *, scrubber, scrubber)
GETTER (GtkButton *, stop_button, stop)

static void
tp_train_pane_dispose (GObject *object)
{
  TpTrainPane *self = TP_TRAIN_PANE (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->document);
  g_clear_pointer (&self->trained, tp_trained_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_TRAIN_PANE);

  G_OBJECT_CLASS (tp_train_pane_parent_class)->dispose (object);
}

static void
tp_train_pane_finalize (GObject *object)
{
  TpTrainPane *self = TP_TRAIN_PANE (object);

  g_free (self->last_parameters);
  g_free (self->settings);

  G_OBJECT_CLASS (tp_train_pane_parent_class)->finalize (object);
}

static void
tp_train_pane_class_init (TpTrainPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_train_pane_dispose;
  object_class->finalize = tp_train_pane_finalize;
  g_type_ensure (TP_TYPE_LOSS_CHART);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "trainpane");
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-train-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, box);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, steps);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, steps_adjustment);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, rate);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, run);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, reset);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, spinner);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, message);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, loss_chart);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, scrubber);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, at);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, parameters);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, apply);
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, stop);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_run_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_reset_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_apply_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_look);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_step_picked_cb);
}

static void
tp_train_pane_init (TpTrainPane *self)
{
  self->look = -1;
  self->looking = -1;
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_adjustment_set_upper (self->steps_adjustment, TP_TRAIN_MAX_STEPS);
  tp_train_pane_reset_cb (self);
  tp_train_pane_update_training (self);
}
