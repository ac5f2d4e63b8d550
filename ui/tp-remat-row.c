/* tp-remat-row.c: rematerialisation as a what-if, above the memory
 * chart (see tp-remat-row.h).
 *
 * One toggle per statement the engine can rematerialise (its
 * candidates, tp_session_remat_candidate), each named by the statement
 * whose last assignment it is, which is what --remat takes; "Auto" lets
 * the engine pick (Chen's checkpoints), and the toggles then show what
 * it picked; the engine's sentence says what it reached.  A name chosen
 * that is no candidate any more stays, passed over.  The facts are asked
 * of the document when the row is shown (tp_document_want_pass). */
#include "config.h"

#include <glib/gi18n.h>

#include "tp-document.h"
#include "tp-remat-row.h"

struct _TpRematRow
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkToggleButton *auto_button;
  GtkWidget *toggles;           /* a box of GtkToggleButton, "name" data */
  GtkLabel *sentence;

  TpDocument *document;
  TpReadings *shown;
  guint updating : 1;
};

G_DEFINE_FINAL_TYPE (TpRematRow, tp_remat_row, GTK_TYPE_WIDGET)

/* The statement whose last assignment is @node, or NULL (the names list
 * in statement order: a later assignment of a name takes it over). */
static const char *
tp_remat_row_name_of (TpReadings *readings,
                      guint       node)
{
  const char *found = NULL;

  for (guint i = 0; i < readings->n_names && found == NULL; i++)
    {
      gboolean last = TRUE;

      if (readings->names[i].node != node)
        continue;
      for (guint j = i + 1; j < readings->n_names; j++)
        if (g_strcmp0 (readings->names[j].name, readings->names[i].name) == 0)
          last = FALSE;
      if (last)
        found = readings->names[i].name;
    }
  return found;
}

static void tp_remat_row_toggled_cb (TpRematRow      *self,
                                     GtkToggleButton *button);

/* The toggles, pressed as chosen, and the sentence, of @pass. */
static void
tp_remat_row_show (TpRematRow          *self,
                   TpReadings          *readings,
                   const TpPassReading *pass)
{
  gboolean automatic = FALSE;
  const char *const *chosen = tp_document_get_remat (self->document, &automatic);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GtkWidget *child;

  if (self->shown != readings)
    {
      g_clear_pointer (&self->shown, tp_readings_unref);
      self->shown = tp_readings_ref (readings);
    }
  self->updating = TRUE;
  while ((child = gtk_widget_get_first_child (self->toggles)) != NULL)
    gtk_box_remove (GTK_BOX (self->toggles), child);
  for (guint k = 0; k < pass->n_candidates; k++)
    {
      const char *name = tp_remat_row_name_of (readings, pass->candidates[k]);

      if (name != NULL && !g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
        g_ptr_array_add (names, (gpointer) name);
    }
  for (guint k = 0; !automatic && chosen != NULL && chosen[k] != NULL; k++)
    if (!g_ptr_array_find_with_equal_func (names, chosen[k], g_str_equal, NULL))
      g_ptr_array_add (names, (gpointer) chosen[k]);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      GtkWidget *button = gtk_toggle_button_new_with_label (name);
      gboolean candidate = FALSE;
      gboolean on = FALSE;
      g_autofree char *label = g_strdup_printf (/* Translators: a toggle's accessible name; %s is a statement */
                                                _("Rematerialise %s"), name);

      for (guint k = 0; k < pass->n_candidates; k++)
        if (g_strcmp0 (tp_remat_row_name_of (readings, pass->candidates[k]), name) == 0)
          candidate = TRUE;
      if (automatic)
        for (guint k = 0; k < pass->n_chosen; k++)
          on = on || g_strcmp0 (tp_remat_row_name_of (readings, pass->chosen[k]), name) == 0;
      else
        on = chosen != NULL && g_strv_contains (chosen, name);
      gtk_widget_add_css_class (button, "pane-button");
      g_object_set_data_full (G_OBJECT (button), "name", g_strdup (name), g_free);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), on);
      gtk_widget_set_tooltip_text (button, !candidate ? _("It cannot be rematerialised now: passed over")
                                           : on ? _("Freed after the forward pass and computed again for the gradient")
                                           : _("Free it after the forward pass and compute it again for the gradient"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
      g_signal_connect_object (button, "toggled", G_CALLBACK (tp_remat_row_toggled_cb), self, G_CONNECT_SWAPPED);
      gtk_box_append (GTK_BOX (self->toggles), button);
    }
  gtk_toggle_button_set_active (self->auto_button, automatic);
  gtk_label_set_label (self->sentence, pass->sentence != NULL ? pass->sentence : "");
  self->updating = FALSE;
}

static void
tp_remat_row_refresh (TpRematRow *self)
{
  TpReadings *readings = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  const TpPassReading *pass;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || readings == NULL)
    return;
  pass = tp_document_want_pass (self->document, TP_PASS_REMAT);
  if (pass != NULL && tp_document_get_readings (self->document) == readings)
    tp_remat_row_show (self, readings, pass);
}

static void
tp_remat_row_ready_cb (TpRematRow *self,
                       int         which)
{
  if (which == TP_PASS_REMAT)
    tp_remat_row_refresh (self);
}

/* A toggle: the names pressed become the choice (from auto, starting
 * from what auto picked). */
static void
tp_remat_row_toggled_cb (TpRematRow      *self,
                         GtkToggleButton *button)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  if (self->updating || self->document == NULL)
    return;
  for (GtkWidget *child = gtk_widget_get_first_child (self->toggles); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (child)))
      g_ptr_array_add (names, g_object_get_data (G_OBJECT (child), "name"));
  g_ptr_array_add (names, NULL);
  tp_document_set_remat (self->document, (const char *const *) names->pdata, FALSE);
}

static void
tp_remat_row_auto_cb (TpRematRow *self)
{
  if (self->updating || self->document == NULL)
    return;
  tp_document_set_remat (self->document, NULL, gtk_toggle_button_get_active (self->auto_button));
}

static void
tp_remat_row_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tp_remat_row_parent_class)->map (widget);
  tp_remat_row_refresh (TP_REMAT_ROW (widget));
}

void
tp_remat_row_set_document (TpRematRow *self,
                           TpDocument *document)
{
  g_return_if_fail (TP_IS_REMAT_ROW (self));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_clear_pointer (&self->shown, tp_readings_unref);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_remat_row_refresh), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "pass-ready",
                               G_CALLBACK (tp_remat_row_ready_cb), self, G_CONNECT_SWAPPED);
    }
  tp_remat_row_refresh (self);
}

GtkToggleButton *
tp_remat_row_get_auto (TpRematRow *self)
{
  g_return_val_if_fail (TP_IS_REMAT_ROW (self), NULL);

  return self->auto_button;
}

GtkToggleButton *
tp_remat_row_get_toggle (TpRematRow *self,
                         const char *name)
{
  g_return_val_if_fail (TP_IS_REMAT_ROW (self), NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (self->toggles); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (child), "name"), name) == 0)
      return GTK_TOGGLE_BUTTON (child);
  return NULL;
}

guint
tp_remat_row_get_n_toggles (TpRematRow *self)
{
  guint n = 0;

  g_return_val_if_fail (TP_IS_REMAT_ROW (self), 0);

  for (GtkWidget *child = gtk_widget_get_first_child (self->toggles); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

GtkLabel *
tp_remat_row_get_sentence (TpRematRow *self)
{
  g_return_val_if_fail (TP_IS_REMAT_ROW (self), NULL);

  return self->sentence;
}

gboolean
tp_remat_row_get_current (TpRematRow *self)
{
  g_return_val_if_fail (TP_IS_REMAT_ROW (self), FALSE);

  return self->document != NULL && self->shown != NULL
         && self->shown == tp_document_get_readings (self->document)
         && tp_readings_get_pass (self->shown, TP_PASS_REMAT) != NULL;
}

GtkWidget *
tp_remat_row_new (void)
{
  return g_object_new (TP_TYPE_REMAT_ROW, NULL);
}

static void
tp_remat_row_dispose (GObject *object)
{
  TpRematRow *self = TP_REMAT_ROW (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tp_remat_row_parent_class)->dispose (object);
}

static void
tp_remat_row_finalize (GObject *object)
{
  g_clear_pointer (&TP_REMAT_ROW (object)->shown, tp_readings_unref);

  G_OBJECT_CLASS (tp_remat_row_parent_class)->finalize (object);
}

static void
tp_remat_row_class_init (TpRematRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_remat_row_dispose;
  object_class->finalize = tp_remat_row_finalize;
  widget_class->map = tp_remat_row_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rematrow");
}

/* One line, in the chart's room: the label, Auto, the toggles and the
 * engine's sentence (wrapped only when the pane is narrow). */
static void
tp_remat_row_init (TpRematRow *self)
{
  GtkWidget *label = gtk_label_new (_("Rematerialise"));
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (self->box), label);
  self->auto_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (C_("remat", "Auto")));
  gtk_widget_add_css_class (GTK_WIDGET (self->auto_button), "pane-button");
  gtk_widget_set_valign (GTK_WIDGET (self->auto_button), GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->auto_button),
                               _("Let the engine pick (Chen's square-root checkpoints)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->auto_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Rematerialise: let the engine pick"), -1);
  g_signal_connect_object (self->auto_button, "toggled", G_CALLBACK (tp_remat_row_auto_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->auto_button));
  /* many statements scroll: the toggles never set the window's width */
  self->toggles = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_valign (self->toggles, GTK_ALIGN_CENTER);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->toggles);
  gtk_box_append (GTK_BOX (self->box), scroller);
  self->sentence = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->sentence, 0);
  gtk_label_set_wrap (self->sentence, TRUE);
  gtk_label_set_selectable (self->sentence, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->sentence), TRUE);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->sentence));
}
