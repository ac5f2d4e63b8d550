/* tp-steps-pane.c: the Steps pane (see tp-steps-pane.h).
 *
 * It walks the last good readings' schedule (tp_session_step) and shows
 * what the engine says of each step: its sentence (tp_session_step_text),
 * every node's state after it (tp_session_node_states), why
 * differentiate recorded its node (tp_session_origin: a share and its
 * running sum are emphasised in the picture) and the node's value as the
 * values reading writes it.  Nothing of it is composed or worked out
 * here. */
#include "config.h"

#include <glib/gi18n.h>

#include "tp-document.h"
#include "tp-picture-view.h"
#include "tp-steps-pane.h"


struct _TpStepsPane
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkWidget *controls;
  GtkButton *play;
  GtkRange *scrubber;
  GtkLabel *reason;
  GtkLabel *step_label;
  GtkLabel *value_label;

  /* Owned references */
  TpDocument *document;
  TpReadings *readings;         /* the step-through's (the last good ones) */
  TpTeaching *teaching;         /* theirs, once they have it */
  TpPictureView *picture;       /* weak */

  int step;                     /* the step shown, -1 for none */
  guint play_source;
  guint updating : 1;
};

G_DEFINE_FINAL_TYPE (TpStepsPane, tp_steps_pane, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_STEP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static guint
tp_steps_pane_n_steps (TpStepsPane *self)
{
  return self->teaching != NULL ? self->teaching->n_steps : 0;
}

/* The picture styled by each node's state after the step (the engine's),
 * while the pane is shown: another teaching pane, or the teaching panes
 * hidden (F9), give the picture back unveiled. */
static void
tp_steps_pane_update_picture_states (TpStepsPane *self)
{
  TpTeaching *t = self->teaching;
  g_autofree guint8 *states = NULL;
  const TpOrigin *origin;

  if (self->picture == NULL)
    return;
  if (t == NULL || self->step < 0 || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      tp_picture_view_set_node_states (self->picture, NULL, 0);
      return;
    }
  states = g_new0 (guint8, t->n_nodes + 1);
  if (!tp_teaching_get_node_states (t, (guint) self->step, states))
    {
      tp_picture_view_set_node_states (self->picture, NULL, 0);
      return;
    }
  origin = t->origins != NULL ? &t->origins[t->steps[self->step].node] : NULL;
  if (origin != NULL && origin->role == TP_ORIGIN_SHARE)
    {
      if (origin->share < t->n_nodes)
        states[origin->share] |= TP_PICTURE_NODE_EMPHASIS;
      if (origin->sum < t->n_nodes)
        states[origin->sum] |= TP_PICTURE_NODE_EMPHASIS;
    }
  tp_picture_view_set_node_states (self->picture, states, t->n_nodes);
}

static void
tp_steps_pane_show_step (TpStepsPane *self)
{
  TpTeaching *t = self->teaching;
  const char *value;
  g_autofree char *text = NULL;

  tp_steps_pane_update_picture_states (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP]);
  if (t == NULL || self->step < 0)
    {
      gtk_label_set_label (self->step_label, "");
      gtk_label_set_label (self->value_label, "");
      return;
    }
  /* the engine's sentence of the step, as the page shows it */
  gtk_label_set_label (self->step_label, t->step_texts[self->step] != NULL ? t->step_texts[self->step] : "");
  value = t->value_texts[t->steps[self->step].node];
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
tp_steps_pane_set_step (TpStepsPane *self,
                        int          step)
{
  guint n;

  g_return_if_fail (TP_IS_STEPS_PANE (self));

  n = tp_steps_pane_n_steps (self);
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
    tp_document_set_selected_node (self->document, (int) self->teaching->steps[step].node);
  tp_steps_pane_show_step (self);
}

int
tp_steps_pane_get_step (TpStepsPane *self)
{
  g_return_val_if_fail (TP_IS_STEPS_PANE (self), -1);

  return self->step;
}

void
tp_steps_pane_start (TpStepsPane *self)
{
  g_return_if_fail (TP_IS_STEPS_PANE (self));

  if (self->step < 0 && tp_steps_pane_n_steps (self) > 0)
    tp_steps_pane_set_step (self, 0);
}

static void
tp_steps_pane_scrubbed_cb (TpStepsPane *self)
{
  if (!self->updating)
    tp_steps_pane_set_step (self, (int) gtk_range_get_value (self->scrubber));
}

static void
tp_steps_pane_stop_playing (TpStepsPane *self)
{
  g_clear_handle_id (&self->play_source, g_source_remove);
  gtk_button_set_icon_name (self->play, "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play), _("Play (Space)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Play"), -1);
}

static gboolean
tp_steps_pane_play_tick_cb (gpointer data)
{
  TpStepsPane *self = data;

  if (self->step + 1 >= (int) tp_steps_pane_n_steps (self))
    {
      self->play_source = 0;
      tp_steps_pane_stop_playing (self);
      return G_SOURCE_REMOVE;
    }
  tp_steps_pane_set_step (self, self->step + 1);
  return G_SOURCE_CONTINUE;
}

static void
tp_steps_pane_toggle_play (TpStepsPane *self)
{
  if (self->play_source != 0)
    {
      tp_steps_pane_stop_playing (self);
      return;
    }
  if (tp_steps_pane_n_steps (self) == 0)
    return;
  if (self->step + 1 >= (int) tp_steps_pane_n_steps (self))
    tp_steps_pane_set_step (self, 0);
  self->play_source = g_timeout_add (tp_defaults ()->play_interval_ms, tp_steps_pane_play_tick_cb, self);
  gtk_button_set_icon_name (self->play, "media-playback-pause-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play), _("Pause (Space)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->play),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Pause"), -1);
}

gboolean
tp_steps_pane_get_playing (TpStepsPane *self)
{
  g_return_val_if_fail (TP_IS_STEPS_PANE (self), FALSE);

  return self->play_source != 0;
}

static void
tp_steps_pane_first_cb (TpStepsPane *self)
{
  tp_steps_pane_set_step (self, 0);
}

static void
tp_steps_pane_back_cb (TpStepsPane *self)
{
  tp_steps_pane_set_step (self, self->step - 1);
}

static void
tp_steps_pane_forward_cb (TpStepsPane *self)
{
  tp_steps_pane_set_step (self, self->step + 1);
}

static void
tp_steps_pane_last_cb (TpStepsPane *self)
{
  tp_steps_pane_set_step (self, (int) tp_steps_pane_n_steps (self) - 1);
}

/* The scrubber's keys: Space plays and pauses; Left, Right, Home and End
 * step and jump (GtkScale's own keys would move by its increments too,
 * these make sure a key is always one step). */
static gboolean
tp_steps_pane_scrubber_key_cb (GtkEventControllerKey *controller,
                               guint                  keyval,
                               guint                  keycode,
                               GdkModifierType        state,
                               TpStepsPane           *self)
{
  if ((state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)) != 0)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_space:
    case GDK_KEY_KP_Space:
      tp_steps_pane_toggle_play (self);
      return TRUE;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      tp_steps_pane_set_step (self, self->step - 1);
      return TRUE;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      tp_steps_pane_set_step (self, self->step + 1);
      return TRUE;
    case GDK_KEY_Home:
    case GDK_KEY_KP_Home:
      tp_steps_pane_set_step (self, 0);
      return TRUE;
    case GDK_KEY_End:
    case GDK_KEY_KP_End:
      tp_steps_pane_set_step (self, (int) tp_steps_pane_n_steps (self) - 1);
      return TRUE;
    default:
      return FALSE;
    }
}

/* New readings: the step-through walks the last good ones; while the
 * program is refused it says the steps are of the last good reading. */
static void
tp_steps_pane_update (TpStepsPane *self)
{
  TpReadings *r = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  gboolean stale = self->document != NULL && tp_document_get_stale (self->document);
  guint n;

  if (r != self->readings || (r != NULL && r->teaching != self->teaching))
    {
      int keep = self->step;

      g_clear_pointer (&self->readings, tp_readings_unref);
      if (r != NULL)
        self->readings = tp_readings_ref (r);
      self->teaching = r != NULL ? r->teaching : NULL;
      n = tp_steps_pane_n_steps (self);
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
        tp_steps_pane_stop_playing (self);
    }
  n = tp_steps_pane_n_steps (self);
  gtk_widget_set_sensitive (self->controls, n > 0);
  if (n == 0)
    gtk_label_set_label (self->reason, r == NULL ? _("No steps: the program does not read yet.")
                                       : r->teaching == NULL ? _("The steps are being made.")
                                       : _("No steps: the plan evaluates nothing."));
  else if (stale)
    gtk_label_set_label (self->reason,
                         _("The program is refused: these are the steps of the last good reading (stale)."));
  else
    gtk_label_set_label (self->reason, "");
  gtk_widget_set_visible (GTK_WIDGET (self->reason), gtk_label_get_label (self->reason)[0] != '\0');
  tp_steps_pane_show_step (self);
}

void
tp_steps_pane_set_document (TpStepsPane *self,
                            TpDocument  *document)
{
  g_return_if_fail (TP_IS_STEPS_PANE (self));

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_steps_pane_update), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::stale",
                               G_CALLBACK (tp_steps_pane_update), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::teaching",
                               G_CALLBACK (tp_steps_pane_update), self, G_CONNECT_SWAPPED);
    }
  tp_steps_pane_update (self);
}

void
tp_steps_pane_set_picture (TpStepsPane   *self,
                           TpPictureView *picture)
{
  g_return_if_fail (TP_IS_STEPS_PANE (self));

  g_set_weak_pointer (&self->picture, picture);
  tp_steps_pane_update_picture_states (self);
}

#define GETTER(type, name, field) \
  type tp_steps_pane_get_##name (TpStepsPane *self) \
  { \
    g_return_val_if_fail (TP_IS_STEPS_PANE (self), NULL); \
    return self->field; \
  }

GETTER (GtkRange *, scrubber, scrubber)
GETTER (GtkLabel *, step_label, step_label)
GETTER (GtkLabel *, value_label, value_label)
GETTER (GtkLabel *, reason, reason)

static void
tp_steps_pane_dispose (GObject *object)
{
  TpStepsPane *self = TP_STEPS_PANE (object);

  g_clear_handle_id (&self->play_source, g_source_remove);
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_weak_pointer (&self->picture);
  g_clear_pointer (&self->readings, tp_readings_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_STEPS_PANE);

  G_OBJECT_CLASS (tp_steps_pane_parent_class)->dispose (object);
}

static void
tp_steps_pane_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tp_steps_pane_parent_class)->map (widget);
  tp_steps_pane_update_picture_states (TP_STEPS_PANE (widget));
}

static void
tp_steps_pane_unmap (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tp_steps_pane_parent_class)->unmap (widget);
  tp_steps_pane_update_picture_states (TP_STEPS_PANE (widget));
}

static void
tp_steps_pane_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TpStepsPane *self = TP_STEPS_PANE (object);

  switch (prop_id)
    {
    case PROP_STEP:
      g_value_set_int (value, self->step);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_steps_pane_class_init (TpStepsPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_steps_pane_dispose;
  object_class->get_property = tp_steps_pane_get_property;
  widget_class->map = tp_steps_pane_map;
  widget_class->unmap = tp_steps_pane_unmap;

  /* notified whenever the step is shown again (the memory chart's
   * cursor follows it) */
  properties[PROP_STEP] =
    g_param_spec_int ("step", NULL, NULL, -1, G_MAXINT, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "stepspane");
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-steps-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TpStepsPane, box);
  gtk_widget_class_bind_template_child (widget_class, TpStepsPane, controls);
  gtk_widget_class_bind_template_child (widget_class, TpStepsPane, play);
  gtk_widget_class_bind_template_child (widget_class, TpStepsPane, scrubber);
  gtk_widget_class_bind_template_child (widget_class, TpStepsPane, reason);
  gtk_widget_class_bind_template_child (widget_class, TpStepsPane, step_label);
  gtk_widget_class_bind_template_child (widget_class, TpStepsPane, value_label);
  gtk_widget_class_bind_template_callback (widget_class, tp_steps_pane_first_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_steps_pane_back_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_steps_pane_forward_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_steps_pane_last_cb);
  gtk_widget_class_bind_template_callback (widget_class, tp_steps_pane_toggle_play);
  gtk_widget_class_bind_template_callback (widget_class, tp_steps_pane_scrubbed_cb);
}

static void
tp_steps_pane_init (TpStepsPane *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->step = -1;
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (tp_steps_pane_scrubber_key_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self->scrubber), keys);
  tp_steps_pane_update (self);
}
