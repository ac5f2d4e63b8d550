/* tp-pass-pane.c: a pass reading (optimized, fusion or forward) in the
 * teaching panel (see tp-pass-pane.h).
 *
 * The text is the engine's, copied verbatim; the decoration comes from
 * the reading's map alone: the lines differentiate or forward mode
 * appended, the footers, the node selected anywhere in the window (its
 * line and its uses).  Forward mode's tangent nodes are numbered from the
 * spec's node count, as differentiate's are, so the same numbers name
 * other nodes elsewhere: a tangent node lights in this pane only, with
 * its tangent step's sentence, and never selects across the window.
 * First, Previous, Next and Last (beside the direction) walk the tangent
 * steps in order, each lighting its node with the engine's sentence.
 *
 * Pay for what is read: the reading is asked of the document when the
 * pane is mapped (the teaching panel shows it), and again for newer
 * readings only while it is. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-document.h"
#include "tp-pass-pane.h"
#include "tp-style.h"
#include "tp-text-util.h"

/* Forward mode's direction picker: the seeded direction, or an element
 * of a parameter, as `--direction 'NAME[i, j]'` takes it. */
#define MAX_AXES 8

struct _TpPassPane
{
  GtkWidget parent_instance;

  GtkWidget *box;
  GtkWidget *top;               /* the stale badge, the sentence */
  GtkLabel *stale_label;
  GtkLabel *sentence;           /* fusion: the saving in words */
  GtkWidget *direction_box;     /* forward */
  GtkDropDown *direction;
  GtkStringList *direction_list;
  GtkWidget *index_box;
  GtkSpinButton *index[MAX_AXES];
  GtkLabel *note;               /* forward: the engine's direction error */
  GtkLabel *tangent_label;      /* forward: the lit tangent step */
  GtkWidget *walk_box;          /* forward: the tangent step-through */
  GtkWidget *walk[4];           /* first, previous, next, last */
  GtkWidget *stack;
  GtkTextView *view;
  GtkLabel *placeholder;
  GtkTextTag *tag_derived;
  GtkTextTag *tag_summary;
  GtkTextTag *tag_selected;
  GtkTextTag *tag_selected_ref;
  GtkTextTag *tag_tangent;

  TpDocument *document;
  TpReadings *shown;            /* the readings whose pass the view holds */
  const TpPassParameter *parameters;  /* borrowed from shown's pass */
  guint n_parameters;
  TpReading which;
  int tangent;                  /* the tangent node lit, or -1 */
  guint updating : 1;
  guint scroll_tangent : 1;     /* the next lit tangent line is scrolled to */
  guint asking : 1;             /* in want_pass, which may say ready at once */
  guint dark : 1;
  guint styled : 1;
};

G_DEFINE_FINAL_TYPE (TpPassPane, tp_pass_pane, GTK_TYPE_WIDGET)

static void tp_pass_pane_init_direction (TpPassPane *self);

static const TpPassReading *
tp_pass_pane_pass (TpPassPane *self)
{
  return self->shown != NULL ? tp_readings_get_pass (self->shown, (TpPass) self->which) : NULL;
}

/* {==== decoration ====} */

static void
tp_pass_pane_apply_style (TpPassPane *self)
{
  gboolean dark = tp_style_is_dark (GTK_WIDGET (self));
  const TpPalette *palette = tp_style_get_palette (dark);

  if (self->styled && self->dark == dark)
    return;
  self->styled = TRUE;
  self->dark = !!dark;
  g_object_set (self->tag_derived, "foreground", palette->derived, NULL);
  g_object_set (self->tag_summary, "foreground", palette->summary, NULL);
  g_object_set (self->tag_selected, "paragraph-background", palette->selected, NULL);
  g_object_set (self->tag_selected_ref, "background", palette->selected_ref, NULL);
  g_object_set (self->tag_tangent, "paragraph-background", palette->tangent, NULL);
}

static void
tp_pass_pane_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tp_pass_pane_parent_class)->css_changed (widget, change);
  tp_pass_pane_apply_style (TP_PASS_PANE (widget));
}

/* Whether @node is one of forward mode's tangent nodes (numbered as
 * differentiate's: not the node of that number elsewhere). */
static gboolean
tp_pass_pane_is_tangent (TpPassPane          *self,
                         const TpPassReading *pass,
                         guint                node)
{
  return self->which == TP_READING_FORWARD && node != TP_MAP_NO_NODE && node >= pass->spec_nodes;
}

static void
tp_pass_pane_line_bounds (GtkTextBuffer *buffer,
                          guint          line,
                          GtkTextIter   *a,
                          GtkTextIter   *b)
{
  gtk_text_buffer_get_iter_at_line (buffer, a, (int) line);
  *b = *a;
  if (!gtk_text_iter_ends_line (b))
    gtk_text_iter_forward_to_line_end (b);
}

/* The line roles' tags, once per new text. */
static void
tp_pass_pane_decorate (TpPassPane          *self,
                       const TpPassReading *pass)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);

  for (guint l = 0; l < pass->n_lines; l++)
    {
      GtkTextTag *tag = NULL;
      GtkTextIter a, b;

      TpLineRole role = pass->lines[l].role;

      if (role == TP_ROLE_DERIVED || role == TP_ROLE_DIVIDER)
        tag = self->tag_derived;
      else if (role == TP_ROLE_FOOTER || role == TP_ROLE_NOTE)
        tag = self->tag_summary;
      if (tag == NULL)
        continue;
      tp_pass_pane_line_bounds (buffer, l, &a, &b);
      gtk_text_buffer_apply_tag (buffer, tag, &a, &b);
    }
}

/* The node selected in the window: its lines and its uses; and the
 * tangent node lit here. */
static void
tp_pass_pane_show_selected (TpPassPane *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  const TpPassReading *pass = tp_pass_pane_pass (self);
  int selected = self->document != NULL ? tp_document_get_selected_node (self->document) : -1;
  gboolean scrolled = FALSE;

  tp_text_buffer_remove_tag_present (buffer, self->tag_selected);
  tp_text_buffer_remove_tag_present (buffer, self->tag_selected_ref);
  tp_text_buffer_remove_tag_present (buffer, self->tag_tangent);
  if (pass == NULL)
    return;
  for (guint l = 0; l < pass->n_lines; l++)
    {
      const TpMapLine *line = &pass->lines[l];
      GtkTextIter a, b;

      if (line->node != TP_MAP_NO_NODE && (int) line->node == self->tangent
          && tp_pass_pane_is_tangent (self, pass, line->node))
        {
          tp_pass_pane_line_bounds (buffer, l, &a, &b);
          gtk_text_buffer_apply_tag (buffer, self->tag_tangent, &a, &b);
          if (self->scroll_tangent)
            {
              GtkTextMark *mark = gtk_text_buffer_get_mark (buffer, "selected-node");

              gtk_text_buffer_move_mark (buffer, mark, &a);
              gtk_text_view_scroll_to_mark (self->view, mark, 0.1, FALSE, 0, 0);
              self->scroll_tangent = FALSE;
              scrolled = TRUE;
            }
        }
      if (selected < 0)
        continue;
      if (line->node != TP_MAP_NO_NODE && (int) line->node == selected
          && !tp_pass_pane_is_tangent (self, pass, line->node))
        {
          tp_pass_pane_line_bounds (buffer, l, &a, &b);
          gtk_text_buffer_apply_tag (buffer, self->tag_selected, &a, &b);
          if (!scrolled && !gtk_widget_has_focus (GTK_WIDGET (self->view)))
            {
              GtkTextMark *mark = gtk_text_buffer_get_mark (buffer, "selected-node");

              gtk_text_buffer_move_mark (buffer, mark, &a);
              gtk_text_view_scroll_to_mark (self->view, mark, 0.1, FALSE, 0, 0);
              scrolled = TRUE;
            }
        }
      for (guint k = 0; k < line->n_refs; k++)
        {
          const TpMapRef *ref = &pass->refs[line->first_ref + k];

          if (ref->node == TP_MAP_NO_NODE || (int) ref->node != selected
              || tp_pass_pane_is_tangent (self, pass, ref->node) || ref->klass == TP_TOKEN_INDEX)
            continue;
          gtk_text_buffer_get_iter_at_line_index (buffer, &a, (int) l, (int) ref->start);
          gtk_text_buffer_get_iter_at_line_index (buffer, &b, (int) l, (int) ref->end);
          gtk_text_buffer_apply_tag (buffer, self->tag_selected_ref, &a, &b);
        }
    }
}

static void
tp_pass_pane_light_tangent (TpPassPane *self,
                            int         node)
{
  const char *step = node >= 0 ? tp_pass_reading_get_tangent_step (tp_pass_pane_pass (self), (guint) node) : NULL;

  self->tangent = step != NULL ? node : -1;
  gtk_label_set_label (self->tangent_label, step != NULL ? step : "");
  gtk_widget_set_visible (GTK_WIDGET (self->tangent_label), step != NULL);
  tp_pass_pane_show_selected (self);
  self->scroll_tangent = FALSE;
  if (self->walk_box != NULL)
    {
      const TpPassReading *pass = tp_pass_pane_pass (self);
      int n = pass != NULL ? (int) pass->n_tangent_steps : 0;
      int k = self->tangent >= 0 ? self->tangent - (int) pass->tangent_first : -1;

      gtk_widget_set_visible (self->walk_box, n > 0);
      gtk_widget_set_sensitive (self->walk[0], n > 0 && k != 0);
      gtk_widget_set_sensitive (self->walk[1], k > 0);
      gtk_widget_set_sensitive (self->walk[2], k < n - 1);
      gtk_widget_set_sensitive (self->walk[3], n > 0 && k != n - 1);
    }
}

/* A step of the tangent step-through: @how 0 the first, 1 the previous,
 * 2 the next, 3 the last. */
static void
tp_pass_pane_walk (TpPassPane *self,
                   int         how)
{
  const TpPassReading *pass = tp_pass_pane_pass (self);
  int n = pass != NULL ? (int) pass->n_tangent_steps : 0;
  int k = self->tangent >= 0 && pass != NULL ? self->tangent - (int) pass->tangent_first : -1;

  k = how == 0 ? 0 : how == 1 ? k - 1 : how == 2 ? k + 1 : n - 1;
  if (k < 0 || k >= n)
    return;
  self->scroll_tangent = TRUE;
  tp_pass_pane_light_tangent (self, (int) pass->tangent_first + k);
}

static void
tp_pass_pane_walk_cb (GtkButton  *button,
                      TpPassPane *self)
{
  tp_pass_pane_walk (self, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "how")));
}

/* The node under the cursor: a node written by its number there, else
 * the line's; -1 for none. */
static int
tp_pass_pane_node_at_cursor (TpPassPane *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  const TpPassReading *pass = tp_pass_pane_pass (self);
  const TpMapLine *line;
  GtkTextIter iter;
  guint at;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  line = tp_pass_reading_get_line (pass, (guint) gtk_text_iter_get_line (&iter));
  if (line == NULL)
    return -1;
  at = (guint) gtk_text_iter_get_line_index (&iter);
  for (guint k = 0; k < line->n_refs; k++)
    {
      const TpMapRef *ref = &pass->refs[line->first_ref + k];

      if (ref->node != TP_MAP_NO_NODE && ref->klass != TP_TOKEN_INDEX
          && ref->start <= at && at < ref->end && ref->node <= G_MAXINT)
        return (int) ref->node;
    }
  return line->node != TP_MAP_NO_NODE && line->node <= G_MAXINT ? (int) line->node : -1;
}

/* The reader's own moves select: a program node across the window, a
 * tangent node in this pane. */
static void
tp_pass_pane_cursor_moved_cb (TpPassPane *self)
{
  const TpPassReading *pass = tp_pass_pane_pass (self);
  int node;

  if (self->updating || self->document == NULL || pass == NULL
      || !gtk_widget_has_focus (GTK_WIDGET (self->view)))
    return;
  node = tp_pass_pane_node_at_cursor (self);
  if (node >= 0 && tp_pass_pane_is_tangent (self, pass, (guint) node))
    {
      tp_pass_pane_light_tangent (self, node);
      return;
    }
  if (self->tangent >= 0)
    tp_pass_pane_light_tangent (self, -1);
  tp_document_set_selected_node (self->document, node);
}

/* {==== the direction ====} */

/* "w[1, 0]" -> "w" and its indices; "w" -> "w", no indices (FALSE when
 * it is not of that form). */
static gboolean
tp_pass_parse_direction (const char *text,
                         char      **name,
                         guint      *index,
                         guint      *n_index)
{
  const char *open = strchr (text, '[');
  g_auto(GStrv) parts = NULL;

  *n_index = 0;
  if (open == NULL)
    {
      *name = g_strstrip (g_strdup (text));
      return TRUE;
    }
  *name = g_strstrip (g_strndup (text, (gsize) (open - text)));
  if (strchr (open, ']') == NULL)
    return FALSE;
  {
    g_autofree char *inside = g_strndup (open + 1, (gsize) (strchr (open, ']') - open - 1));

    if (g_strstrip (inside)[0] == '\0')
      return TRUE;
    parts = g_strsplit (inside, ",", -1);
  }
  for (guint i = 0; parts[i] != NULL && *n_index < MAX_AXES; i++)
    index[(*n_index)++] = (guint) g_ascii_strtoull (g_strstrip (parts[i]), NULL, 10);
  return TRUE;
}

/* The parameters of the forward reading shown in the picker, the
 * document's direction selected, an index picker per axis. */
static void
tp_pass_pane_update_direction (TpPassPane *self)
{
  const char *chosen = self->document != NULL ? tp_document_get_direction (self->document) : NULL;
  g_autofree char *name = NULL;
  guint index[MAX_AXES] = { 0 };
  guint n_index = 0;
  const TpPassParameter *param = NULL;
  guint selected = 0;
  guint n_items;

  if (self->which != TP_READING_FORWARD)
    return;
  self->updating = TRUE;
  n_items = g_list_model_get_n_items (G_LIST_MODEL (self->direction_list));
  {
    GPtrArray *items = g_ptr_array_new ();

    g_ptr_array_add (items, (gpointer) _("seeded"));
    for (guint i = 0; i < self->n_parameters; i++)
      g_ptr_array_add (items, self->parameters[i].name);
    if (chosen != NULL)
      tp_pass_parse_direction (chosen, &name, index, &n_index);
    for (guint i = 0; name != NULL && i < self->n_parameters; i++)
      if (g_strcmp0 (self->parameters[i].name, name) == 0)
        {
          param = &self->parameters[i];
          selected = i + 1;
        }
    g_ptr_array_add (items, NULL);
    gtk_string_list_splice (self->direction_list, 0, n_items, (const char *const *) items->pdata);
    g_ptr_array_free (items, TRUE);
  }
  if (name != NULL && param == NULL)
    {
      /* Translators: the direction picker: a name that is no parameter */
      g_autofree char *other = g_strdup_printf (_("%s (not a parameter)"), name);

      gtk_string_list_append (self->direction_list, other);
      selected = self->n_parameters + 1;
    }
  gtk_drop_down_set_selected (self->direction, selected);
  gtk_widget_set_sensitive (GTK_WIDGET (self->direction), self->n_parameters > 0 || name != NULL);
  for (guint a = 0; a < MAX_AXES; a++)
    {
      gboolean on = param != NULL && a < param->rank;

      gtk_widget_set_visible (GTK_WIDGET (self->index[a]), on);
      if (!on)
        continue;
      gtk_spin_button_set_range (self->index[a], 0, MAX (param->dims[a], 1) - 1);
      gtk_spin_button_set_value (self->index[a], a < n_index ? index[a] : 0);
    }
  self->updating = FALSE;
}

/* A pick: the seeded direction, or an element of a parameter (the index
 * pickers' when it stays the same parameter, else its first). */
static void
tp_pass_pane_direction_cb (TpPassPane *self,
                           GParamSpec *pspec,
                           GObject    *picker)
{
  guint selected = gtk_drop_down_get_selected (self->direction);
  const TpPassParameter *param;
  GString *text;

  if (self->updating || self->document == NULL)
    return;
  if (selected == 0 || selected > self->n_parameters)
    {
      if (selected == 0)
        tp_document_set_direction (self->document, NULL);
      return;
    }
  param = &self->parameters[selected - 1];
  text = g_string_new (param->name);
  g_string_append_c (text, '[');
  for (guint a = 0; a < param->rank && a < MAX_AXES; a++)
    {
      gboolean same = picker != G_OBJECT (self->direction);

      g_string_append_printf (text, "%s%d", a > 0 ? ", " : "",
                              same ? gtk_spin_button_get_value_as_int (self->index[a]) : 0);
    }
  g_string_append_c (text, ']');
  tp_document_set_direction (self->document, text->str);
  g_string_free (text, TRUE);
}

static void
tp_pass_pane_index_cb (TpPassPane    *self,
                       GtkSpinButton *spin)
{
  tp_pass_pane_direction_cb (self, NULL, G_OBJECT (spin));
}

/* {==== the text ====} */

static void
tp_pass_pane_update_stale (TpPassPane *self)
{
  gboolean stale = self->document != NULL && tp_document_get_stale (self->document)
                   && tp_pass_pane_pass (self) != NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->stale_label), stale);
  if (stale)
    gtk_widget_add_css_class (GTK_WIDGET (self), "stale");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "stale");
}

/* Puts @readings' pass into the view. */
static void
tp_pass_pane_show (TpPassPane *self,
                   TpReadings *readings)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->view);
  const TpPassReading *pass = tp_readings_get_pass (readings, (TpPass) self->which);
  GtkTextIter start;

  if (self->shown != readings)
    {
      g_clear_pointer (&self->shown, tp_readings_unref);
      self->shown = tp_readings_ref (readings);
    }
  self->updating = TRUE;
  gtk_text_buffer_set_text (buffer, pass->text, -1);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
  self->updating = FALSE;
  tp_pass_pane_decorate (self, pass);
  gtk_label_set_label (self->sentence, pass->sentence != NULL ? pass->sentence : "");
  gtk_widget_set_visible (GTK_WIDGET (self->sentence), pass->sentence != NULL);
  if (self->note != NULL)
    {
      gtk_label_set_label (self->note, pass->direction_error != NULL ? pass->direction_error : "");
      gtk_widget_set_visible (GTK_WIDGET (self->note), pass->direction_error != NULL);
    }
  self->parameters = pass->parameters;
  self->n_parameters = pass->n_parameters;
  tp_pass_pane_update_direction (self);
  gtk_stack_set_visible_child (GTK_STACK (self->stack), gtk_widget_get_parent (GTK_WIDGET (self->view)));
  gtk_widget_remove_css_class (GTK_WIDGET (self), "pass-old");
  tp_pass_pane_light_tangent (self, self->tangent);
}

/* The readings on screen have changed, or the pane is shown: ask for
 * their pass reading (made only now), and show it when it is there. */
static void
tp_pass_pane_refresh (TpPassPane *self)
{
  TpReadings *readings = self->document != NULL ? tp_document_get_readings (self->document) : NULL;
  const TpPassReading *pass;

  tp_pass_pane_update_stale (self);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || readings == NULL)
    return;
  if (readings == self->shown && tp_pass_pane_pass (self) != NULL)
    return;
  self->asking = TRUE;
  pass = tp_document_want_pass (self->document, (TpPass) self->which);
  self->asking = FALSE;
  if (pass != NULL && tp_document_get_readings (self->document) == readings)
    tp_pass_pane_show (self, readings);
  else if (tp_pass_pane_pass (self) != NULL)
    /* the older reading, dimmed until the new one comes */
    gtk_widget_add_css_class (GTK_WIDGET (self), "pass-old");
  tp_pass_pane_update_stale (self);
}

static void
tp_pass_pane_ready_cb (TpPassPane *self,
                       int         which)
{
  if (which == (int) self->which && !self->asking)
    tp_pass_pane_refresh (self);
}

static void
tp_pass_pane_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (tp_pass_pane_parent_class)->map (widget);
  tp_pass_pane_refresh (TP_PASS_PANE (widget));
}

/* {==== public ====} */

void
tp_pass_pane_set_document (TpPassPane *self,
                           TpDocument *document)
{
  g_return_if_fail (TP_IS_PASS_PANE (self));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  g_clear_pointer (&self->shown, tp_readings_unref);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_pass_pane_refresh), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::stale",
                               G_CALLBACK (tp_pass_pane_refresh), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "pass-ready",
                               G_CALLBACK (tp_pass_pane_ready_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::selected-node",
                               G_CALLBACK (tp_pass_pane_show_selected), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::direction",
                               G_CALLBACK (tp_pass_pane_update_direction), self, G_CONNECT_SWAPPED);
    }
  tp_pass_pane_refresh (self);
}

TpReading
tp_pass_pane_get_reading (TpPassPane *self)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), TP_READING_OPTIMIZED);

  return self->which;
}

GtkWidget *
tp_pass_pane_get_focus_widget (TpPassPane *self)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  return GTK_WIDGET (self->view);
}

GtkTextView *
tp_pass_pane_get_view (TpPassPane *self)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  return self->view;
}

/* The text the view holds. */
char *
tp_pass_pane_dup_text (TpPassPane *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter a, b;

  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  buffer = gtk_text_view_get_buffer (self->view);
  gtk_text_buffer_get_bounds (buffer, &a, &b);
  return gtk_text_buffer_get_text (buffer, &a, &b, TRUE);
}

GtkLabel *
tp_pass_pane_get_sentence (TpPassPane *self)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  return self->sentence;
}

GtkDropDown *
tp_pass_pane_get_direction (TpPassPane *self)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  return self->direction;
}

GtkLabel *
tp_pass_pane_get_note (TpPassPane *self)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  return self->note;
}

GtkWidget *
tp_pass_pane_get_walk (TpPassPane *self,
                       guint       how)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  return how < G_N_ELEMENTS (self->walk) ? self->walk[how] : NULL;
}

GtkLabel *
tp_pass_pane_get_tangent (TpPassPane *self)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  return self->tangent_label;
}

GtkSpinButton *
tp_pass_pane_get_index (TpPassPane *self,
                        guint       axis)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), NULL);

  return axis < MAX_AXES ? self->index[axis] : NULL;
}

gboolean
tp_pass_pane_get_current (TpPassPane *self)
{
  g_return_val_if_fail (TP_IS_PASS_PANE (self), FALSE);

  return self->document != NULL && self->shown != NULL
         && self->shown == tp_document_get_readings (self->document) && tp_pass_pane_pass (self) != NULL;
}

/* {==== GObject ====} */

GtkWidget *
tp_pass_pane_new (TpReading which)
{
  TpPassPane *self;

  g_return_val_if_fail (which == TP_READING_OPTIMIZED || which == TP_READING_FUSION
                        || which == TP_READING_FORWARD, NULL);

  self = g_object_new (TP_TYPE_PASS_PANE, NULL);
  self->which = which;
  /* the direction picker is forward mode's alone (its mnemonic too) */
  if (which == TP_READING_FORWARD)
    {
      tp_pass_pane_init_direction (self);
      gtk_box_insert_child_after (GTK_BOX (self->box), self->direction_box, self->top);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  which == TP_READING_OPTIMIZED ? _("The optimised reading")
                                  : which == TP_READING_FUSION ? _("The fusion reading")
                                  : _("The forward reading"), -1);
  return GTK_WIDGET (self);
}

static void
tp_pass_pane_dispose (GObject *object)
{
  TpPassPane *self = TP_PASS_PANE (object);

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (tp_pass_pane_parent_class)->dispose (object);
}

static void
tp_pass_pane_finalize (GObject *object)
{
  TpPassPane *self = TP_PASS_PANE (object);

  g_clear_pointer (&self->shown, tp_readings_unref);

  G_OBJECT_CLASS (tp_pass_pane_parent_class)->finalize (object);
}

static void
tp_pass_pane_class_init (TpPassPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_pass_pane_dispose;
  object_class->finalize = tp_pass_pane_finalize;
  widget_class->map = tp_pass_pane_map;
  widget_class->css_changed = tp_pass_pane_css_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "passpane");
}

static GtkLabel *
tp_pass_pane_label (gboolean wrap)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_xalign (label, 0);
  gtk_label_set_wrap (label, wrap);
  gtk_label_set_selectable (label, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (label), FALSE);
  return label;
}

static void
tp_pass_pane_init_direction (TpPassPane *self)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (/* Translators: Alt+C (D is the Lessons pane's) */ _("Dire_ction"));

  self->direction_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->direction_list = gtk_string_list_new (NULL);
  self->direction = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (self->direction_list), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->direction),
                               _("Forward mode's direction: the seeded one, or one element of a parameter"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (self->direction));
  gtk_box_append (GTK_BOX (self->direction_box), label);
  gtk_box_append (GTK_BOX (self->direction_box), GTK_WIDGET (self->direction));
  self->index_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  for (guint a = 0; a < MAX_AXES; a++)
    {
      g_autofree char *name = g_strdup_printf (/* Translators: %u is an axis' number */ _("Index along axis %u"), a);

      self->index[a] = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0, 1, 1));
      gtk_spin_button_set_digits (self->index[a], 0);
      gtk_widget_set_visible (GTK_WIDGET (self->index[a]), FALSE);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->index[a]), name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->index[a]), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      g_signal_connect_object (self->index[a], "value-changed", G_CALLBACK (tp_pass_pane_index_cb), self,
                               G_CONNECT_SWAPPED);
      gtk_box_append (GTK_BOX (self->index_box), GTK_WIDGET (self->index[a]));
    }
  gtk_box_append (GTK_BOX (self->direction_box), self->index_box);
  self->note = tp_pass_pane_label (TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->note), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->note), "dim-label");
  gtk_box_append (GTK_BOX (self->direction_box), GTK_WIDGET (self->note));
  g_signal_connect_object (self->direction, "notify::selected", G_CALLBACK (tp_pass_pane_direction_cb), self,
                           G_CONNECT_SWAPPED);

  /* the tangent step-through, at the row's end */
  {
    static const struct { const char *icon; const char *tip; } walk[4] = {
      { "go-first-symbolic", N_("First tangent step") },
      { "go-previous-symbolic", N_("Previous tangent step") },
      { "go-next-symbolic", N_("Next tangent step") },
      { "go-last-symbolic", N_("Last tangent step") },
    };
    GtkWidget *steps = gtk_label_new (_("Tangent steps"));

    self->walk_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 2);
    gtk_widget_add_css_class (steps, "dim-label");
    gtk_widget_set_margin_end (steps, 4);
    gtk_box_append (GTK_BOX (self->walk_box), steps);
    for (guint k = 0; k < G_N_ELEMENTS (walk); k++)
      {
        self->walk[k] = gtk_button_new_from_icon_name (walk[k].icon);
        gtk_widget_set_tooltip_text (self->walk[k], _(walk[k].tip));
        gtk_accessible_update_property (GTK_ACCESSIBLE (self->walk[k]), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        _(walk[k].tip), -1);
        gtk_widget_add_css_class (self->walk[k], "flat");
        g_object_set_data (G_OBJECT (self->walk[k]), "how", GINT_TO_POINTER (k));
        g_signal_connect_object (self->walk[k], "clicked", G_CALLBACK (tp_pass_pane_walk_cb), self, 0);
        gtk_box_append (GTK_BOX (self->walk_box), self->walk[k]);
      }
    gtk_widget_set_visible (self->walk_box, FALSE);
    gtk_widget_set_valign (self->walk_box, GTK_ALIGN_CENTER);
    gtk_box_append (GTK_BOX (self->direction_box), self->walk_box);
  }
}

static void
tp_pass_pane_init (TpPassPane *self)
{
  GtkTextBuffer *buffer;
  GtkWidget *scroller;
  GtkTextIter start;

  self->tangent = -1;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  self->stale_label = GTK_LABEL (gtk_label_new (_("stale")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->stale_label),
                               _("The program is refused; this is the last reading that worked"));
  gtk_widget_add_css_class (GTK_WIDGET (self->stale_label), "stale-badge");
  gtk_widget_set_valign (GTK_WIDGET (self->stale_label), GTK_ALIGN_START);
  gtk_widget_set_visible (GTK_WIDGET (self->stale_label), FALSE);
  gtk_box_append (GTK_BOX (self->top), GTK_WIDGET (self->stale_label));
  self->sentence = tp_pass_pane_label (TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->sentence), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->sentence), "pass-sentence");
  gtk_box_append (GTK_BOX (self->top), GTK_WIDGET (self->sentence));
  gtk_box_append (GTK_BOX (self->box), self->top);

  self->tangent_label = tp_pass_pane_label (TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->tangent_label), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("The tangent step"), -1);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->tangent_label));

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  self->placeholder = GTK_LABEL (gtk_label_new (_("The reading appears here while this pane is shown.")));
  gtk_widget_add_css_class (GTK_WIDGET (self->placeholder), "dim-label");
  gtk_stack_add_child (GTK_STACK (self->stack), GTK_WIDGET (self->placeholder));
  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_hexpand (scroller, TRUE);
  gtk_widget_set_vexpand (scroller, TRUE);
  self->view = GTK_TEXT_VIEW (gtk_text_view_new ());
  gtk_text_view_set_editable (self->view, FALSE);
  gtk_text_view_set_monospace (self->view, TRUE);
  gtk_text_view_set_cursor_visible (self->view, TRUE);
  /* the readings' sentences are long lines of prose (forward mode's
   * verdict and cost, a refused rewrite's why): wrapped, as the pane is
   * as wide as the window and its tables fit */
  gtk_text_view_set_wrap_mode (self->view, GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_left_margin (self->view, 4);
  gtk_text_view_set_top_margin (self->view, 4);
  gtk_text_view_set_bottom_margin (self->view, 4);
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "reading");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_stack_add_child (GTK_STACK (self->stack), scroller);
  gtk_stack_set_visible_child (GTK_STACK (self->stack), GTK_WIDGET (self->placeholder));
  gtk_box_append (GTK_BOX (self->box), self->stack);

  buffer = gtk_text_view_get_buffer (self->view);
  self->tag_derived = gtk_text_buffer_create_tag (buffer, "derived", NULL);
  self->tag_summary = gtk_text_buffer_create_tag (buffer, "summary", NULL);
  self->tag_tangent = gtk_text_buffer_create_tag (buffer, "tangent", NULL);
  self->tag_selected = gtk_text_buffer_create_tag (buffer, "selected", NULL);
  self->tag_selected_ref = gtk_text_buffer_create_tag (buffer, "selected-ref", NULL);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_create_mark (buffer, "selected-node", &start, TRUE);
  tp_pass_pane_apply_style (self);
  g_signal_connect_object (buffer, "notify::cursor-position", G_CALLBACK (tp_pass_pane_cursor_moved_cb), self,
                           G_CONNECT_SWAPPED);
  tp_text_view_allocate_on_change (self->view, buffer, TRUE);
}
