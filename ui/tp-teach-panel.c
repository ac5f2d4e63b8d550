/* tp-teach-panel.c: the teaching panes under the readings.
 *
 * The container alone: the sentence bar says what the selected node is
 * (the explain reading's line, tp_session_explanation), and a stack
 * holds the four panes, each a widget of its own: Check
 * (tp-check-pane.c), Memory (the chart, tp-memory-chart.c), Steps
 * (tp-steps-pane.c), whose step the chart's cursor follows, and Train
 * (tp-train-pane.c).  The panes read only what the engine said: nothing
 * is taken out of a reading's text. */
#include "config.h"

#include <glib/gi18n.h>

#include "tp-check-pane.h"
#include "tp-document.h"
#include "tp-memory-chart.h"
#include "tp-pass-pane.h"
#include "tp-remat-row.h"
#include "tp-steps-pane.h"
#include "tp-teach-panel.h"
#include "tp-train-pane.h"

static const struct
{
  const char *id;
  const char *hint;             /* what the pane draws means, or NULL */
} teach_pages[TP_N_TEACH] = {
  [TP_TEACH_CHECK] = { "check", NULL },
  [TP_TEACH_MEMORY] = { "memory", N_("One bar per step, from the step that computes a buffer to the last step that "
                                     "holds it: blue forward, orange gradient, full colour kept to the end; the curve "
                                     "above is the live volume.") },
  [TP_TEACH_STEPS] = { "steps", N_("In the picture: veiled, not computed yet; green outline, computed and held; "
                                   "greyed, computed and freed; purple, a share and the running sum it is added to.") },
  [TP_TEACH_TRAIN] = { "train", NULL },
  [TP_TEACH_OPTIMIZED] = { "optimized", N_("The exact rewrites (every value kept bit for bit), and the tempting ones "
                                           "refused, each with why; Optimise runs them before the plan.") },
  [TP_TEACH_FUSION] = { "fusion", N_("The plan's steps grouped into kernels as a compiler's loop fusion runs them, "
                                     "with the bytes each reads and writes.") },
  [TP_TEACH_FORWARD] = { "forward", N_("Forward mode: the tangent tape along a direction, its tangent beside reverse "
                                       "mode's, and what the whole gradient costs each way.") },
};

#define N_PASS_PAGES (TP_TEACH_FORWARD - TP_TEACH_OPTIMIZED + 1)

struct _TpTeachPanel
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkLabel *explanation;
  GtkLabel *hint;
  GtkStack *stack;
  TpCheckPane *check;
  TpMemoryChart *chart;
  GtkWidget *memory_box;
  TpRematRow *remat;            /* above the chart */
  TpStepsPane *steps;
  TpTrainPane *train;
  TpPassPane *passes[N_PASS_PAGES];

  /* Owned references */
  TpDocument *document;
};

G_DEFINE_FINAL_TYPE (TpTeachPanel, tp_teach_panel, GTK_TYPE_WIDGET)

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

/* Beside the switcher: what the pane shown draws means (whole in its
 * tooltip when it is cut). */
static void
tp_teach_panel_page_cb (TpTeachPanel *self)
{
  const char *hint = teach_pages[tp_teach_panel_get_page (self)].hint;

  gtk_label_set_label (self->hint, hint != NULL ? gettext (hint) : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->hint), hint != NULL ? gettext (hint) : NULL);
}

static void
tp_teach_panel_step_cb (TpTeachPanel *self)
{
  tp_memory_chart_set_cursor (self->chart, tp_steps_pane_get_step (self->steps));
}

void
tp_teach_panel_set_document (TpTeachPanel *self,
                             TpDocument   *document)
{
  g_return_if_fail (TP_IS_TEACH_PANEL (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  tp_check_pane_set_document (self->check, document);
  tp_memory_chart_set_document (self->chart, document);
  tp_steps_pane_set_document (self->steps, document);
  tp_train_pane_set_document (self->train, document);
  for (guint i = 0; i < N_PASS_PAGES; i++)
    tp_pass_pane_set_document (self->passes[i], document);
  tp_remat_row_set_document (self->remat, document);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_teach_panel_update_explanation), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::teaching",
                               G_CALLBACK (tp_teach_panel_update_explanation), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::selected-node",
                               G_CALLBACK (tp_teach_panel_update_explanation), self, G_CONNECT_SWAPPED);
    }
  tp_teach_panel_update_explanation (self);
}

void
tp_teach_panel_set_picture (TpTeachPanel  *self,
                            TpPictureView *picture)
{
  g_return_if_fail (TP_IS_TEACH_PANEL (self));

  tp_steps_pane_set_picture (self->steps, picture);
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

/* Shows @page and gives its main control the keyboard; Steps starts at
 * the first step. */
void
tp_teach_panel_show (TpTeachPanel *self,
                     TpTeachPage   page)
{
  GtkWidget *focus[TP_N_TEACH];

  g_return_if_fail (TP_IS_TEACH_PANEL (self));
  g_return_if_fail ((guint) page < TP_N_TEACH);

  focus[TP_TEACH_CHECK] = tp_check_pane_get_focus_widget (self->check);
  focus[TP_TEACH_MEMORY] = GTK_WIDGET (self->chart);
  focus[TP_TEACH_STEPS] = GTK_WIDGET (tp_steps_pane_get_scrubber (self->steps));
  focus[TP_TEACH_TRAIN] = tp_train_pane_get_focus_widget (self->train);
  for (guint i = 0; i < N_PASS_PAGES; i++)
    focus[TP_TEACH_OPTIMIZED + i] = tp_pass_pane_get_focus_widget (self->passes[i]);
  gtk_stack_set_visible_child_name (self->stack, teach_pages[page].id);
  if (page == TP_TEACH_STEPS)
    tp_steps_pane_start (self->steps);
  gtk_widget_grab_focus (focus[page]);
}

/* For tests: what a person reads and uses, in the pane that has it. */
GtkLabel *
tp_teach_panel_get_explanation_label (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), NULL);

  return self->explanation;
}

TpRematRow *
tp_teach_panel_get_remat_row (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), NULL);

  return self->remat;
}

TpPassPane *
tp_teach_panel_get_pass_pane (TpTeachPanel *self,
                              TpTeachPage   page)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), NULL);
  g_return_val_if_fail (page >= TP_TEACH_OPTIMIZED && page <= TP_TEACH_FORWARD, NULL);

  return self->passes[page - TP_TEACH_OPTIMIZED];
}

GtkWidget *
tp_teach_panel_get_memory_chart (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), NULL);

  return GTK_WIDGET (self->chart);
}

#define DELEGATE(type, name, pane, call) \
  type tp_teach_panel_get_##name (TpTeachPanel *self) \
  { \
    g_return_val_if_fail (TP_IS_TEACH_PANEL (self), NULL); \
    return call (self->pane); \
  }

DELEGATE (GtkLabel *, verdict_label, check, tp_check_pane_get_verdict_label)
DELEGATE (GtkButton *, nonfinite_button, check, tp_check_pane_get_nonfinite_button)
DELEGATE (GtkTextView *, check_view, check, tp_check_pane_get_view)
DELEGATE (GtkRange *, scrubber, steps, tp_steps_pane_get_scrubber)
DELEGATE (GtkLabel *, step_label, steps, tp_steps_pane_get_step_label)
DELEGATE (GtkLabel *, value_label, steps, tp_steps_pane_get_value_label)
DELEGATE (GtkLabel *, steps_reason, steps, tp_steps_pane_get_reason)
DELEGATE (GtkLabel *, train_at, train, tp_train_pane_get_at)
DELEGATE (GtkSpinButton *, train_steps, train, tp_train_pane_get_steps)
DELEGATE (GtkEditable *, train_rate, train, tp_train_pane_get_rate)
DELEGATE (GtkButton *, train_run, train, tp_train_pane_get_run)
DELEGATE (GtkButton *, train_reset, train, tp_train_pane_get_reset)
DELEGATE (GtkButton *, train_apply, train, tp_train_pane_get_apply)
DELEGATE (GtkWidget *, loss_chart, train, tp_train_pane_get_loss_chart)
DELEGATE (GtkLabel *, train_message, train, tp_train_pane_get_message)
DELEGATE (GtkLabel *, train_parameters, train, tp_train_pane_get_parameters)
DELEGATE (GtkRange *, train_scrubber, train, tp_train_pane_get_scrubber)
DELEGATE (GtkButton *, train_stop_button, train, tp_train_pane_get_stop_button)

int
tp_teach_panel_get_step (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), -1);

  return tp_steps_pane_get_step (self->steps);
}

void
tp_teach_panel_set_step (TpTeachPanel *self,
                         int           step)
{
  g_return_if_fail (TP_IS_TEACH_PANEL (self));

  tp_steps_pane_set_step (self->steps, step);
}

gboolean
tp_teach_panel_get_playing (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), FALSE);

  return tp_steps_pane_get_playing (self->steps);
}

gboolean
tp_teach_panel_get_training (TpTeachPanel *self)
{
  g_return_val_if_fail (TP_IS_TEACH_PANEL (self), FALSE);

  return tp_train_pane_get_training (self->train);
}

GtkWidget *
tp_teach_panel_new (void)
{
  return g_object_new (TP_TYPE_TEACH_PANEL, NULL);
}

static void
tp_teach_panel_dispose (GObject *object)
{
  TpTeachPanel *self = TP_TEACH_PANEL (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_TEACH_PANEL);

  G_OBJECT_CLASS (tp_teach_panel_parent_class)->dispose (object);
}

static void
tp_teach_panel_class_init (TpTeachPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_teach_panel_dispose;
  g_type_ensure (TP_TYPE_CHECK_PANE);
  g_type_ensure (TP_TYPE_MEMORY_CHART);
  g_type_ensure (TP_TYPE_STEPS_PANE);
  g_type_ensure (TP_TYPE_TRAIN_PANE);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "teach-panel");
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-teach-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, box);
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, explanation);
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, hint);
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, stack);
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, check);
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, chart);
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, memory_box);
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, steps);
  gtk_widget_class_bind_template_child (widget_class, TpTeachPanel, train);
}

static void
tp_teach_panel_init (TpTeachPanel *self)
{
  static const char *const titles[N_PASS_PAGES] = {
    /* Translators: the teaching panel's tabs of the compiler's passes */
    N_("Optimised"), N_("Fusion"), N_("Forward"),
  };
  static const TpReading readings[N_PASS_PAGES] = {
    TP_READING_OPTIMIZED, TP_READING_FUSION, TP_READING_FORWARD,
  };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->remat = TP_REMAT_ROW (tp_remat_row_new ());
  gtk_box_prepend (GTK_BOX (self->memory_box), GTK_WIDGET (self->remat));
  for (guint i = 0; i < N_PASS_PAGES; i++)
    {
      GtkWidget *pane = tp_pass_pane_new (readings[i]);

      gtk_widget_set_margin_start (pane, 6);
      gtk_widget_set_margin_end (pane, 6);
      gtk_widget_set_margin_bottom (pane, 4);
      self->passes[i] = TP_PASS_PANE (pane);
      gtk_stack_add_titled (self->stack, pane, teach_pages[TP_TEACH_OPTIMIZED + i].id, gettext (titles[i]));
    }
  g_signal_connect_object (self->steps, "notify::step", G_CALLBACK (tp_teach_panel_step_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->stack, "notify::visible-child", G_CALLBACK (tp_teach_panel_page_cb), self,
                           G_CONNECT_SWAPPED);
  tp_teach_panel_page_cb (self);
  tp_teach_panel_update_explanation (self);
}
