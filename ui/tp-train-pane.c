/* tp-train-pane.c: the Train pane (see tp-train-pane.h).
 *
 * Run trains in a thread of its own (a GTask): it compiles the text the
 * current readings were made of in a session of its own and calls
 * tp_session_train.  Looking at step K trains K steps the same way, once
 * per K: the parameters after each K are kept until the next Run or
 * Reset.  A run that Reset or a newer Run overtook is dropped when it
 * returns.  The losses are drawn by tp-loss-chart.c; every number shown
 * is the engine's. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-document.h"
#include "tp-loss-chart.h"
#include "tp-priority.h"
#include "tp-train-pane.h"

#define TRAIN_DEFAULT_STEPS 100
#define TRAIN_DEFAULT_RATE "0.1"

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
  GtkButton *stop;

  /* Owned references */
  TpDocument *document;
  GCancellable *cancellable;
  GHashTable *looks;            /* steps -> the parameters after them */
  TpReadings *trained;          /* what the curve was trained on */
  char *rate_text;

  guint stop_node;
  guint n_training;             /* runs in flight */
  int look;                     /* the step being looked at, -1 none */
};

G_DEFINE_FINAL_TYPE (TpTrainPane, tp_train_pane, GTK_TYPE_WIDGET)

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
tp_train_job_free (gpointer data)
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

  return self->n_training > 0;
}

static void tp_train_pane_start_job (TpTrainPane *self,
                                      guint         steps,
                                      gboolean      look);

/* Shows the loss at the step looked at and the parameters after it,
 * training that many steps (off the main thread, once) when they are not
 * known yet. */
static void
tp_train_pane_look (TpTrainPane *self)
{
  gsize n = 0;
  const float *losses = tp_loss_chart_get_losses (self->loss_chart, &n);
  int k = (int) gtk_range_get_value (self->scrubber);
  const char *parameters;
  g_autofree char *text = NULL;

  if (n == 0)
    {
      gtk_label_set_label (self->at, "");
      return;
    }
  k = CLAMP (k, 0, (int) n - 1);
  self->look = k;
  tp_loss_chart_set_cursor (self->loss_chart, k);
  {
    char *loss = tp_f32_text (losses[k]);

    /* Translators: the training's step looked at and the loss there (as
     * the train reading writes it) */
    text = g_strdup_printf (_("after %d steps: loss %s"), k, loss != NULL ? loss : "");
    tp_string_free (loss);
  }
  gtk_label_set_label (self->at, text);
  parameters = g_hash_table_lookup (self->looks, GINT_TO_POINTER (k));
  if (parameters != NULL)
    gtk_label_set_label (self->parameters, parameters);
  else if (k == 0)
    gtk_label_set_label (self->parameters, _("the parameters as the program writes them"));
  else
    {
      gtk_label_set_label (self->parameters, _("training that many steps…"));
      tp_train_pane_start_job (self, (guint) k, TRUE);
    }
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
  if (job->look)
    {
      if (job->ok)
        g_hash_table_insert (self->looks, GINT_TO_POINTER (job->steps), g_strdup (job->parameters));
      if (self->look == (int) job->steps)
        tp_train_pane_look (self);
      return;
    }
  g_clear_pointer (&self->trained, tp_readings_unref);
  self->trained = tp_readings_ref (job->readings);
  g_hash_table_remove_all (self->looks);
  if (!job->ok)
    {
      tp_loss_chart_set_losses (self->loss_chart, NULL, 0);
      gtk_label_set_label (self->message, job->error);
      gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
      gtk_label_set_label (self->parameters, "");
      gtk_label_set_label (self->at, "");
      gtk_widget_set_visible (GTK_WIDGET (self->stop), FALSE);
      gtk_widget_set_sensitive (GTK_WIDGET (self->scrubber), FALSE);
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->message), "error");
  {
    g_autofree char *text = NULL;

    char *loss = job->n_losses > 0 ? tp_f32_text (job->losses[job->n_losses - 1]) : NULL;

    /* Translators: after a training: the steps and the final loss */
    text = g_strdup_printf (ngettext ("Trained %u step: final loss %s", "Trained %u steps: final loss %s",
                                      job->steps),
                            job->steps, loss != NULL ? loss : "");
    tp_string_free (loss);
    gtk_label_set_label (self->message, text);
  }
  tp_loss_chart_set_losses (self->loss_chart, job->losses, job->n_losses);
  if (!job->stopped)
    g_hash_table_insert (self->looks, GINT_TO_POINTER (job->steps), g_strdup (job->parameters));
  if (job->stopped)
    {
      /* Translators: a training stopped by a NaN or infinity: the step,
       * and the node where it was born (the button selects it) */
      g_autofree char *text = g_strdup_printf (_("stopped at step %u: a non-finite value born in node %u"),
                                               job->stop_step, job->stop_node);

      self->stop_node = job->stop_node;
      gtk_button_set_label (self->stop, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->stop), job->stopped);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scrubber), job->n_losses > 1);
  gtk_range_set_range (self->scrubber, 0, (double) (MAX (job->n_losses, 2) - 1));
  gtk_range_set_value (self->scrubber, (double) (job->n_losses - 1));
  tp_train_pane_look (self);
}

static void
tp_train_pane_start_job (TpTrainPane *self,
                          guint         steps,
                          gboolean      look)
{
  TpReadings *r = look ? self->trained : tp_document_get_readings (self->document);
  g_autoptr(GTask) task = NULL;
  TpTrainJob *job;

  if (r == NULL || r->source == NULL)
    return;
  job = g_new0 (TpTrainJob, 1);
  job->readings = tp_readings_ref (r);
  job->steps = steps;
  job->look = look;
  job->rate = g_strdup (look ? self->rate_text : gtk_editable_get_text (GTK_EDITABLE (self->rate)));
  if (!look)
    {
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
      self->cancellable = g_cancellable_new ();
      g_free (self->rate_text);
      self->rate_text = g_strdup (job->rate);
    }
  task = g_task_new (NULL, self->cancellable, tp_train_pane_job_done_cb, g_object_ref (self));
  g_task_set_task_data (task, job, tp_train_job_free);
  g_task_set_return_on_cancel (task, FALSE);
  self->n_training++;
  tp_train_pane_update_training (self);
  g_task_run_in_thread (task, tp_train_job_run);
}

static void
tp_train_pane_run_cb (TpTrainPane *self)
{
  if (self->document == NULL)
    return;
  gtk_label_set_label (self->message, _("Training…"));
  gtk_spin_button_update (self->steps);   /* a number typed, not yet entered */
  tp_train_pane_start_job (self, (guint) gtk_spin_button_get_value_as_int (self->steps), FALSE);
}

static void
tp_train_pane_reset_cb (TpTrainPane *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_pointer (&self->trained, tp_readings_unref);
  g_hash_table_remove_all (self->looks);
  gtk_spin_button_set_value (self->steps, TRAIN_DEFAULT_STEPS);
  gtk_editable_set_text (GTK_EDITABLE (self->rate), TRAIN_DEFAULT_RATE);
  tp_loss_chart_set_losses (self->loss_chart, NULL, 0);
  gtk_label_set_label (self->message, _("Run trains the program's parameters by gradient descent."));
  gtk_widget_remove_css_class (GTK_WIDGET (self->message), "error");
  gtk_label_set_label (self->parameters, "");
  gtk_label_set_label (self->at, "");
  gtk_widget_set_visible (GTK_WIDGET (self->stop), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scrubber), FALSE);
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
                             G_CALLBACK (tp_train_pane_update_training), self, G_CONNECT_SWAPPED);
  tp_train_pane_update_training (self);
}

GtkWidget *
tp_train_pane_get_focus_widget (TpTrainPane *self)
{
  g_return_val_if_fail (TP_IS_TRAIN_PANE (self), NULL);

  return GTK_WIDGET (self->run);
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
  g_clear_pointer (&self->trained, tp_readings_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_TRAIN_PANE);

  G_OBJECT_CLASS (tp_train_pane_parent_class)->dispose (object);
}

static void
tp_train_pane_finalize (GObject *object)
{
  TpTrainPane *self = TP_TRAIN_PANE (object);

  g_hash_table_unref (self->looks);
  g_free (self->rate_text);

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
  gtk_widget_class_bind_template_child (widget_class, TpTrainPane, stop);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_run_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_reset_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_stop_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_train_pane_look);
}

static void
tp_train_pane_init (TpTrainPane *self)
{
  self->look = -1;
  self->looks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_adjustment_set_upper (self->steps_adjustment, TP_TRAIN_MAX_STEPS);
  gtk_spin_button_set_value (self->steps, TRAIN_DEFAULT_STEPS);
  gtk_editable_set_text (GTK_EDITABLE (self->rate), TRAIN_DEFAULT_RATE);
  tp_train_pane_reset_cb (self);
  tp_train_pane_update_training (self);
}
