/* tp-text-names.c: the display names beside a text pane's lines.
 *
 * In the spec, derivative and plan panes a gutter on the left shows, for
 * each line that stands for a node, the node's display name as the
 * engine gives it (the reading map's node, tp_session_display_name):
 * `error` beside `   4  Sub ...`.  The reading's text itself is
 * unchanged, so copying still gives the engine's text. */
#include "config.h"

#include "tp-text-pane-private.h"

#define NAMES_MAX_CHARS 16

static gboolean
tp_text_pane_has_names (TpTextPane *self)
{
  return self->pane == TP_PANE_SPEC || self->pane == TP_PANE_DERIVATIVE || self->pane == TP_PANE_PLAN;
}

/* The name beside line @line of the reading shown, or NULL. */
const char *
tp_text_pane_get_line_name (TpTextPane *self,
                            guint       line)
{
  int node;

  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  if (!tp_text_pane_has_names (self) || self->shown == NULL)
    return NULL;
  node = _tp_text_line_node (self->shown, self->pane, line);
  return node >= 0 ? tp_readings_get_display_name (self->shown, (guint) node) : NULL;
}

static void
tp_text_names_query_cb (GtkSourceGutterRenderer *renderer,
                        GtkSourceGutterLines    *lines,
                        guint                    line,
                        TpTextPane              *self)
{
  const char *name = tp_text_pane_get_line_name (self, line);

  gtk_source_gutter_renderer_text_set_text (GTK_SOURCE_GUTTER_RENDERER_TEXT (renderer), name != NULL ? name : "", -1);
}

/* New readings shown: the gutter as wide as their longest name (at most
 * NAMES_MAX_CHARS characters' worth), hidden when none is named. */
void
_tp_text_pane_update_names (TpTextPane *self)
{
  GtkSourceGutterRendererText *renderer = GTK_SOURCE_GUTTER_RENDERER_TEXT (self->names);
  const char *longest = NULL;
  glong most = 0;
  int width = 0, height = 0;

  if (self->names == NULL)
    return;
  for (guint line = 0; self->shown != NULL && line < self->shown->n_map_lines[self->pane]; line++)
    {
      const char *name = tp_text_pane_get_line_name (self, line);
      glong chars = name != NULL ? MIN (g_utf8_strlen (name, -1), NAMES_MAX_CHARS) : 0;

      if (chars > most)
        {
          most = chars;
          longest = name;
        }
    }
  gtk_widget_set_visible (self->names, longest != NULL);
  if (longest == NULL)
    return;
  {
    g_autofree char *sample = g_utf8_substring (longest, 0, most);

    gtk_source_gutter_renderer_text_measure (renderer, sample, &width, &height);
  }
  gtk_widget_set_size_request (self->names, width + 12, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self->view));
}

void
_tp_text_pane_init_names (TpTextPane *self)
{
  GtkSourceGutter *gutter;

  if (!tp_text_pane_has_names (self))
    return;
  gutter = gtk_source_view_get_gutter (self->view, GTK_TEXT_WINDOW_LEFT);
  self->names = GTK_WIDGET (gtk_source_gutter_renderer_text_new ());
  gtk_source_gutter_renderer_set_alignment_mode (GTK_SOURCE_GUTTER_RENDERER (self->names),
                                                 GTK_SOURCE_GUTTER_RENDERER_ALIGNMENT_MODE_FIRST);
  gtk_source_gutter_renderer_set_xalign (GTK_SOURCE_GUTTER_RENDERER (self->names), 1.0);
  gtk_source_gutter_renderer_set_xpad (GTK_SOURCE_GUTTER_RENDERER (self->names), 6);
  gtk_widget_add_css_class (self->names, "line-names");
  gtk_widget_add_css_class (self->names, "dim-label");
  g_signal_connect_object (self->names, "query-data", G_CALLBACK (tp_text_names_query_cb), self, 0);
  gtk_source_gutter_insert (gutter, GTK_SOURCE_GUTTER_RENDERER (self->names), 0);
  gtk_widget_set_visible (self->names, FALSE);
}
