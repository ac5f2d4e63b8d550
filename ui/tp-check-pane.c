/* tp-check-pane.c: the Check pane (see tp-check-pane.h).  Everything it
 * shows is the engine's: the outcome and the verdict sentence
 * (tp_session_check_summary) and the check reading, as the document's
 * readings carry them once the check has run in the background. */
#include "config.h"

#include <glib/gi18n.h>

#include "tp-check-pane.h"
#include "tp-document.h"
#include "tp-text-util.h"

struct _TpCheckPane
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkWidget *verdict_line;
  GtkImage *verdict_icon;
  GtkLabel *verdict;
  GtkButton *nonfinite;
  GtkTextView *view;

  /* Owned references */
  TpDocument *document;
};

G_DEFINE_FINAL_TYPE (TpCheckPane, tp_check_pane, GTK_TYPE_WIDGET)

static void
tp_check_pane_update (TpCheckPane *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  static const char *classes[] = { "success", "warning", "error", "dim-label" };
  static const char *icons[] = {
    [TP_OUTCOME_AGREE] = "emblem-ok-symbolic",
    [TP_OUTCOME_DIFFER] = "dialog-warning-symbolic",
    [TP_OUTCOME_NONFINITE] = "dialog-error-symbolic",
    [TP_OUTCOME_UNCHECKED] = "dialog-question-symbolic",
  };
  const TpChecked *c = r != NULL ? r->checked : NULL;
  TpCheckOutcome outcome = c != NULL ? c->summary.outcome : TP_OUTCOME_UNCHECKED;

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (self->verdict_line, classes[i]);
  gtk_widget_add_css_class (self->verdict_line, classes[MIN ((guint) outcome, 3u)]);
  gtk_image_set_from_icon_name (self->verdict_icon, icons[MIN ((guint) outcome, 3u)]);
  if (r == NULL)
    gtk_label_set_label (self->verdict, _("No check: the program does not read yet"));
  else if (c == NULL)
    /* made after the readings, in the background */
    gtk_label_set_label (self->verdict, _("Checking…"));
  else if (c->verdict != NULL && c->verdict[0] != '\0')
    gtk_label_set_label (self->verdict, c->verdict);
  else
    gtk_label_set_label (self->verdict, _("nothing was checked"));
  if (c != NULL && c->summary.nonfinite)
    {
      /* Translators: the check pane's button that selects the node where
       * the first NaN or infinity is born; %u is its node */
      g_autofree char *text = g_strdup_printf (_("non-finite value born in node %u: select it"),
                                               c->summary.nonfinite_node);

      gtk_button_set_label (self->nonfinite, text);
      gtk_widget_set_visible (GTK_WIDGET (self->nonfinite), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->nonfinite), FALSE);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->view),
                            r != NULL ? tp_readings_get_text (r, TP_READING_CHECK) : "", -1);
}

static void
tp_check_pane_nonfinite_cb (TpCheckPane *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;

  if (r != NULL && r->checked != NULL && r->checked->summary.nonfinite)
    tp_document_set_selected_node (self->document, (int) r->checked->summary.nonfinite_node);
}

void
tp_check_pane_set_document (TpCheckPane *self,
                            TpDocument  *document)
{
  g_return_if_fail (TP_IS_CHECK_PANE (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_check_pane_update), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::teaching",
                               G_CALLBACK (tp_check_pane_update), self, G_CONNECT_SWAPPED);
    }
  tp_check_pane_update (self);
}

GtkWidget *
tp_check_pane_get_focus_widget (TpCheckPane *self)
{
  g_return_val_if_fail (TP_IS_CHECK_PANE (self), NULL);

  return GTK_WIDGET (self->view);
}

GtkLabel *
tp_check_pane_get_verdict_label (TpCheckPane *self)
{
  g_return_val_if_fail (TP_IS_CHECK_PANE (self), NULL);

  return self->verdict;
}

GtkButton *
tp_check_pane_get_nonfinite_button (TpCheckPane *self)
{
  g_return_val_if_fail (TP_IS_CHECK_PANE (self), NULL);

  return self->nonfinite;
}

GtkTextView *
tp_check_pane_get_view (TpCheckPane *self)
{
  g_return_val_if_fail (TP_IS_CHECK_PANE (self), NULL);

  return self->view;
}

static void
tp_check_pane_dispose (GObject *object)
{
  TpCheckPane *self = TP_CHECK_PANE (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_CHECK_PANE);

  G_OBJECT_CLASS (tp_check_pane_parent_class)->dispose (object);
}

static void
tp_check_pane_class_init (TpCheckPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_check_pane_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "checkpane");
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-check-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TpCheckPane, box);
  gtk_widget_class_bind_template_child (widget_class, TpCheckPane, verdict_line);
  gtk_widget_class_bind_template_child (widget_class, TpCheckPane, verdict_icon);
  gtk_widget_class_bind_template_child (widget_class, TpCheckPane, verdict);
  gtk_widget_class_bind_template_child (widget_class, TpCheckPane, nonfinite);
  gtk_widget_class_bind_template_child (widget_class, TpCheckPane, view);
  gtk_widget_class_bind_template_callback (widget_class, tp_check_pane_nonfinite_cb);
}

static void
tp_check_pane_init (TpCheckPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  tp_text_view_allocate_on_change (self->view, gtk_text_view_get_buffer (self->view), TRUE);
  tp_check_pane_update (self);
}
