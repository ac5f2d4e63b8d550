/* tp-text-pane.c: shows one text reading of a TpDocument.
 *
 * The pane copies the engine's text verbatim and only decorates it:
 * derived lines after the differentiate divider, `kept` plan lines, the
 * summary lines, and the node selected anywhere in the window.  It finds
 * a line's node from the reading's own layout (a node line starts with
 * its index; StableHLO names node i `%v{i}` and the module's arguments
 * `%arg{k}`, whose nodes the engine lists; the values reading has one
 * line per statement). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gtksourceview/gtksource.h>

#include "tp-document.h"
#include "tp-style.h"
#include "tp-text-pane.h"

struct _TpTextPane
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkLabel *title_label;
  GtkLabel *stale_label;
  GtkWidget *copy_button;
  GtkWidget *focus_button;
  GtkScrolledWindow *scroller;
  GtkSourceView *view;
  GtkLabel *placeholder;

  /* Owned references */
  TpDocument *document;
  GtkSourceBuffer *buffer;
  GHashTable *gradient_nodes;   /* "d loss / d w" -> node, for values */
  TpReadings *shown;            /* the readings whose text the buffer holds */

  TpPane pane;
  guint updating : 1;
  guint dark : 1;
  guint styled : 1;
};

G_DEFINE_FINAL_TYPE (TpTextPane, tp_text_pane, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PANE,
  PROP_DOCUMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const struct
{
  const char *id;
  const char *title;
  const char *empty;
} panes[TP_N_PANES] = {
  { "spec", "Spec", "The recorded tape appears here." },
  { "derivative", "Derivative", "The gradient appears here." },
  { "plan", "Plan", "The plan appears here." },
  { "stablehlo", "StableHLO", "No StableHLO was written for this program." },
  { "values", "Values", "The values appear here." },
  { "picture", "Picture", "The picture appears here." },
};

const char *
tp_pane_get_title (TpPane pane)
{
  return (guint) pane < TP_N_PANES ? panes[pane].title : NULL;
}

const char *
tp_pane_get_id (TpPane pane)
{
  return (guint) pane < TP_N_PANES ? panes[pane].id : NULL;
}

gboolean
tp_pane_from_id (const char *id,
                 TpPane     *pane)
{
  for (guint p = 0; p < TP_N_PANES; p++)
    if (g_strcmp0 (id, panes[p].id) == 0)
      {
        *pane = (TpPane) p;
        return TRUE;
      }
  return FALSE;
}

/* {==== reading the reading's layout ====} */

/* A node line starts with its right-aligned index and two spaces
 * (reference section 2.2); returns the index or -1. */
static int
node_of_node_line (const char *line)
{
  const char *p = line;
  char *end;
  long v;

  while (*p == ' ')
    p++;
  if (!g_ascii_isdigit (*p))
    return -1;
  v = strtol (p, &end, 10);
  if (end[0] != ' ' || end[1] != ' ' || v < 0 || v > G_MAXINT)
    return -1;
  return (int) v;
}

/* The node of the SSA value at @p (pointing at '%'): `%v{i}` is node i,
 * `%arg{i}` the node the module takes as its i-th argument (from the
 * engine's arguments list); -1 for anything else.  *end, when given, is
 * left after the name. */
static int
node_of_ssa (TpReadings  *readings,
             const char  *p,
             const char **end)
{
  gboolean arg;
  char *e;
  long v;

  if (p[0] != '%')
    return -1;
  arg = g_str_has_prefix (p + 1, "arg");
  p += arg ? 4 : 2;
  if ((!arg && p[-1] != 'v') || !g_ascii_isdigit (*p))
    return -1;
  v = strtol (p, &e, 10);
  if (g_ascii_isalnum (*e) || *e == '_' || v > G_MAXINT)
    return -1;
  if (end != NULL)
    *end = e;
  if (!arg)
    return (int) v;
  return readings != NULL ? tp_readings_get_argument_node (readings, (guint) v) : -1;
}

static char *
line_text (GtkTextBuffer *buffer,
           int            line)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_iter_at_line (buffer, &start, line);
  end = start;
  if (!gtk_text_iter_ends_line (&end))
    gtk_text_iter_forward_to_line_end (&end);
  return gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
}

/* The node a values line shows: statement k on line k, then a blank line,
 * then one gradient line per parameter.  @text is the line (@length
 * bytes, not necessarily NUL-terminated). */
static int
tp_text_pane_values_node (TpTextPane *self,
                          int         line,
                          const char *text,
                          gsize       length)
{
  TpReadings *readings = self->shown;
  GHashTableIter iter;
  gpointer key, value;

  if (readings == NULL)
    return -1;
  if ((guint) line < readings->n_names)
    return (int) readings->names[line].node;
  g_hash_table_iter_init (&iter, self->gradient_nodes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gsize n = strlen (key);

      if (length > n && strncmp (text, key, n) == 0 && text[n] == ' ')
        return GPOINTER_TO_INT (value);
    }
  return -1;
}

/* The node under the insertion cursor, or -1. */
static int
tp_text_pane_node_at_cursor (TpTextPane *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter iter;
  g_autofree char *text = NULL;
  int line;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  line = gtk_text_iter_get_line (&iter);
  text = line_text (buffer, line);

  switch (self->pane)
    {
    case TP_PANE_STABLEHLO:
      {
        int col = gtk_text_iter_get_line_index (&iter);
        const char *p = text + MIN ((gsize) col, strlen (text));

        TpReadings *readings = self->shown;

        /* the %v or %arg token under the cursor, else the line's own value */
        while (p > text && (g_ascii_isalnum (p[-1]) || p[-1] == '_'))
          p--;
        if (p > text && p[-1] == '%')
          p--;
        if (node_of_ssa (readings, p, NULL) >= 0)
          return node_of_ssa (readings, p, NULL);
        p = text;
        while (*p == ' ')
          p++;
        return node_of_ssa (readings, p, NULL);
      }
    case TP_PANE_VALUES:
      return tp_text_pane_values_node (self, line, text, strlen (text));
    case TP_PANE_SPEC:
    case TP_PANE_DERIVATIVE:
    case TP_PANE_PLAN:
    case TP_PANE_PICTURE:
    case TP_N_PANES:
    default:
      return node_of_node_line (text);
    }
}

/* {==== decorating ====} */

/* Walks the lines of @text: @line is the 0-based line, @p its first byte
 * and @len its length without the newline.  The buffer holds exactly
 * this text, so line numbers are the buffer's. */
#define FOREACH_LINE(text, line, p, len) \
  for (const char *p = (text), *p##_nl = NULL; p != NULL; p = p##_nl != NULL ? p##_nl + 1 : NULL) \
    for (gsize len = (p##_nl = strchr (p, '\n')) != NULL ? (gsize) (p##_nl - p) : strlen (p), \
         p##_once = 1; p##_once; p##_once = 0, (line)++)

/* Applies @tag to lines [@first, @end) as one range. */
static void
apply_lines_tag (GtkTextBuffer *buffer,
                 const char    *tag,
                 int            first,
                 int            end)
{
  GtkTextIter a, b;

  if (first < 0 || end <= first)
    return;
  gtk_text_buffer_get_iter_at_line (buffer, &a, first);
  if (end >= gtk_text_buffer_get_line_count (buffer))
    gtk_text_buffer_get_end_iter (buffer, &b);
  else
    gtk_text_buffer_get_iter_at_line (buffer, &b, end);
  gtk_text_buffer_apply_tag_by_name (buffer, tag, &a, &b);
}

/* Keeps a run of consecutive lines that carry one tag, so a long reading
 * is decorated with a few ranges rather than one call per line. */
typedef struct
{
  const char *tag;
  int start;                    /* first line of the open run, or -1 */
} Run;

static void
run_step (GtkTextBuffer *buffer,
          Run           *run,
          int            line,
          gboolean       on)
{
  if (on && run->start < 0)
    run->start = line;
  else if (!on && run->start >= 0)
    {
      apply_lines_tag (buffer, run->tag, run->start, line);
      run->start = -1;
    }
}

static gboolean
has_suffix (const char *p,
            gsize       len,
            const char *suffix)
{
  gsize n = strlen (suffix);

  return len >= n && memcmp (p + len - n, suffix, n) == 0;
}

/* Counts the node lines of the spec: the tape's length before
 * differentiate appended anything. */
static int
count_spec_nodes (TpReadings *readings)
{
  int n = 0, line = 0;

  FOREACH_LINE (tp_readings_get_text (readings, TP_READING_SPEC), line, p, len)
    if (len > 0 && node_of_node_line (p) >= 0)
      n++;
  return n;
}

/* "N nodes appended by differentiate: d loss / d w is node 20, ..." */
static void
parse_gradient_nodes (TpTextPane *self,
                      TpReadings *readings)
{
  const char *text = tp_readings_get_text (readings, TP_READING_DERIVATIVE);
  const char *divider = strstr (text, "appended by differentiate: ");
  g_autofree char *line = NULL;
  g_auto(GStrv) pairs = NULL;

  g_hash_table_remove_all (self->gradient_nodes);
  if (divider == NULL)
    return;
  divider += strlen ("appended by differentiate: ");
  line = g_strndup (divider, strcspn (divider, "\n"));
  pairs = g_strsplit (line, ", ", -1);
  for (guint i = 0; pairs[i] != NULL; i++)
    {
      char *is = strstr (pairs[i], " is node ");

      if (is == NULL)
        continue;
      *is = '\0';
      g_hash_table_insert (self->gradient_nodes, g_strdup (pairs[i]),
                           GINT_TO_POINTER (atoi (is + strlen (" is node "))));
    }
}

/* Derived lines (after the divider, or past the spec's nodes in the
 * plan, or the values' gradients), the divider, `kept` plan lines and
 * the summary lines, scanned from the reading's own text. */
static void
tp_text_pane_decorate (TpTextPane *self,
                       TpReadings *readings)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  const char *text = tp_readings_get_text (readings, (TpReading) self->pane);
  int spec_nodes = count_spec_nodes (readings);
  gboolean after_divider = FALSE;
  gboolean after_blank = FALSE;
  Run derived = { "derived", -1 }, kept = { "kept", -1 }, summary = { "summary", -1 };
  int line = 0;

  parse_gradient_nodes (self, readings);
  if (self->pane == TP_PANE_STABLEHLO)
    return;                     /* the MLIR language does it */

  FOREACH_LINE (text, line, p, len)
    {
      int node = len > 0 ? node_of_node_line (p) : -1;
      gboolean is_derived = FALSE, is_kept = FALSE, is_summary = FALSE;

      if (self->pane == TP_PANE_VALUES)
        {
          if (len == 0)
            after_blank = TRUE;
          else
            is_derived = after_blank;
        }
      else if (len >= 3 && strncmp (p, "-- ", 3) == 0)
        {
          apply_lines_tag (buffer, "divider", line, line + 1);
          after_divider = TRUE;
        }
      else if (node < 0)
        is_summary = len > 0;
      else
        {
          is_derived = after_divider || (self->pane == TP_PANE_PLAN && node >= spec_nodes);
          is_kept = self->pane == TP_PANE_PLAN && has_suffix (p, len, " kept");
        }
      run_step (buffer, &derived, line, is_derived);
      run_step (buffer, &kept, line, is_kept);
      run_step (buffer, &summary, line, is_summary);
    }
  run_step (buffer, &derived, line, FALSE);
  run_step (buffer, &kept, line, FALSE);
  run_step (buffer, &summary, line, FALSE);
}

/* Highlights every line (and StableHLO use) of the selected node and
 * scrolls the first one into view. */
static void
tp_text_pane_show_selected (TpTextPane *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start, end;
  int node = self->document != NULL ? tp_document_get_selected_node (self->document) : -1;
  int first = -1;
  int first_ref = -1;           /* StableHLO: an argument has uses only */
  Run selected = { "selected", -1 };
  int line = 0;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, "selected", &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, "selected-ref", &start, &end);
  if (node < 0 || self->shown == NULL)
    return;

  FOREACH_LINE (tp_readings_get_text (self->shown, (TpReading) self->pane), line, p, len)
    {
      int line_node = -1;

      switch (self->pane)
        {
        case TP_PANE_STABLEHLO:
          {
            const char *own = p;

            while (own < p + len && *own == ' ')
              own++;
            line_node = node_of_ssa (self->shown, own, NULL);
            for (const char *q = memchr (p, '%', len); q != NULL;
                 q = memchr (q + 1, '%', len - (gsize) (q + 1 - p)))
              {
                const char *e = NULL;

                if (q != own && node_of_ssa (self->shown, q, &e) == node)
                  {
                    GtkTextIter a, b;

                    gtk_text_buffer_get_iter_at_line_index (buffer, &a, line, (int) (q - p));
                    gtk_text_buffer_get_iter_at_line_index (buffer, &b, line, (int) (e - p));
                    gtk_text_buffer_apply_tag_by_name (buffer, "selected-ref", &a, &b);
                    if (first_ref < 0)
                      first_ref = line;
                  }
                if (q + 1 >= p + len)
                  break;
              }
          }
          break;
        case TP_PANE_VALUES:
          line_node = tp_text_pane_values_node (self, line, p, len);
          break;
        case TP_PANE_SPEC:
        case TP_PANE_DERIVATIVE:
        case TP_PANE_PLAN:
        case TP_PANE_PICTURE:
        case TP_N_PANES:
        default:
          line_node = len > 0 ? node_of_node_line (p) : -1;
          break;
        }
      if (line_node == node && first < 0)
        first = line;
      run_step (buffer, &selected, line, line_node == node);
    }
  run_step (buffer, &selected, line, FALSE);

  if (first < 0)
    first = first_ref;
  if (first >= 0)
    {
      GtkTextMark *mark = gtk_text_buffer_get_mark (buffer, "selected-node");

      gtk_text_buffer_get_iter_at_line (buffer, &start, first);
      gtk_text_buffer_move_mark (buffer, mark, &start);
      gtk_text_view_scroll_to_mark (GTK_TEXT_VIEW (self->view), mark, 0.05, FALSE, 0, 0);
    }
}

static void
tp_text_pane_update_text (TpTextPane *self)
{
  TpReadings *readings = self->document ? tp_document_get_readings (self->document) : NULL;
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  const char *text = readings != NULL ? tp_readings_get_text (readings, (TpReading) self->pane) : "";
  const char *old = self->shown != NULL ? tp_readings_get_text (self->shown, (TpReading) self->pane) : "";
  gboolean same = strcmp (old, text) == 0;
  GtkTextIter start;

  gtk_widget_set_visible (GTK_WIDGET (self->placeholder), text[0] == '\0');
  if (readings != NULL)
    tp_readings_ref (readings);
  g_clear_pointer (&self->shown, tp_readings_unref);
  self->shown = readings;
  if (same)
    {
      if (readings != NULL)
        parse_gradient_nodes (self, readings);
      tp_text_pane_show_selected (self);
      return;
    }

  self->updating = TRUE;
  gtk_text_buffer_set_text (buffer, text, -1);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_place_cursor (buffer, &start);
  if (readings != NULL)
    tp_text_pane_decorate (self, readings);
  tp_text_pane_show_selected (self);
  self->updating = FALSE;
}

static void
tp_text_pane_update_stale (TpTextPane *self)
{
  gboolean stale = self->document != NULL && tp_document_get_stale (self->document);

  gtk_widget_set_visible (GTK_WIDGET (self->stale_label), stale);
  if (stale)
    gtk_widget_add_css_class (GTK_WIDGET (self), "stale");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "stale");
}

/* The highlights and the source scheme follow the light or dark style
 * the pane is drawn with. */
static void
tp_text_pane_apply_style (TpTextPane *self)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (GTK_TEXT_BUFFER (self->buffer));
  gboolean dark = tp_style_is_dark (GTK_WIDGET (self));
  const TpPalette *palette = tp_style_get_palette (dark);

  if (self->styled && self->dark == dark)
    return;
  self->styled = TRUE;
  self->dark = !!dark;
  g_object_set (gtk_text_tag_table_lookup (table, "derived"), "foreground", palette->derived, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "divider"), "foreground", palette->derived, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "summary"), "foreground", palette->summary, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "kept"), "paragraph-background", palette->kept, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "selected"), "paragraph-background", palette->selected, NULL);
  g_object_set (gtk_text_tag_table_lookup (table, "selected-ref"), "background", palette->selected_ref, NULL);
  tp_style_apply_scheme (self->buffer, dark);
}

static void
tp_text_pane_css_changed (GtkWidget         *widget,
                          GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (tp_text_pane_parent_class)->css_changed (widget, change);
  tp_text_pane_apply_style (TP_TEXT_PANE (widget));
}

/* TRUE when the pane draws with the dark palette (for tests). */
gboolean
tp_text_pane_get_dark (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), FALSE);

  return self->dark;
}

/* {==== signals ====} */

static void
tp_text_pane_copy_clicked_cb (TpTextPane *self)
{
  g_autofree char *text = tp_text_pane_dup_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

static void
tp_text_pane_cursor_moved_cb (TpTextPane *self)
{
  if (self->updating || self->document == NULL)
    return;
  if (!gtk_widget_has_focus (GTK_WIDGET (self->view)))
    return;                     /* only the reader's own moves select */
  tp_document_set_selected_node (self->document, tp_text_pane_node_at_cursor (self));
}

static void
tp_text_pane_readings_cb (TpTextPane *self)
{
  tp_text_pane_update_text (self);
}

/* {==== GObject ====} */

GtkWidget *
tp_text_pane_new (TpPane pane)
{
  return g_object_new (TP_TYPE_TEXT_PANE, "pane", pane, NULL);
}

static void
tp_text_pane_set_pane (TpTextPane *self,
                       TpPane      pane)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();

  self->pane = pane;
  gtk_label_set_label (self->title_label, tp_pane_get_title (pane));
  gtk_label_set_label (self->placeholder, panes[pane].empty);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->focus_button), "win.show-pane");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->focus_button), "s", tp_pane_get_id (pane));
  gtk_widget_add_css_class (GTK_WIDGET (self), tp_pane_get_id (pane));
  if (pane == TP_PANE_STABLEHLO)
    gtk_source_buffer_set_language (self->buffer,
                                    gtk_source_language_manager_get_language (languages, "stablehlo"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tp_pane_get_title (pane),
                                  -1);
}

void
tp_text_pane_set_document (TpTextPane *self,
                           TpDocument *document)
{
  g_return_if_fail (TP_IS_TEXT_PANE (self));
  g_return_if_fail (!document || TP_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_set_object (&self->document, document);
  if (document != NULL)
    {
      g_signal_connect_object (document, "notify::readings",
                               G_CALLBACK (tp_text_pane_readings_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::stale",
                               G_CALLBACK (tp_text_pane_update_stale), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (document, "notify::selected-node",
                               G_CALLBACK (tp_text_pane_show_selected), self, G_CONNECT_SWAPPED);
    }
  tp_text_pane_update_text (self);
  tp_text_pane_update_stale (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

TpDocument *
tp_text_pane_get_document (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  return self->document;
}

TpPane
tp_text_pane_get_pane (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), TP_PANE_SPEC);

  return self->pane;
}

/* The reading exactly as shown. */
char *
tp_text_pane_dup_text (TpTextPane *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  return gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, TRUE);
}

GtkTextView *
tp_text_pane_get_view (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  return GTK_TEXT_VIEW (self->view);
}

/* TRUE when some line carries the selection highlight (for tests). */
gboolean
tp_text_pane_is_selected_visible (TpTextPane *self)
{
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (GTK_TEXT_BUFFER (self->buffer));
  GtkTextTag *tag = gtk_text_tag_table_lookup (table, "selected");
  GtkTextIter iter;

  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &iter);
  return gtk_text_iter_has_tag (&iter, tag) || gtk_text_iter_forward_to_tag_toggle (&iter, tag);
}

static void
tp_text_pane_dispose (GObject *object)
{
  TpTextPane *self = (TpTextPane *) object;

  if (self->document != NULL)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), TP_TYPE_TEXT_PANE);

  G_OBJECT_CLASS (tp_text_pane_parent_class)->dispose (object);
}

static void
tp_text_pane_finalize (GObject *object)
{
  TpTextPane *self = (TpTextPane *) object;

  g_clear_object (&self->buffer);
  g_clear_pointer (&self->gradient_nodes, g_hash_table_unref);
  g_clear_pointer (&self->shown, tp_readings_unref);

  G_OBJECT_CLASS (tp_text_pane_parent_class)->finalize (object);
}

static void
tp_text_pane_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  TpTextPane *self = TP_TEXT_PANE (object);

  switch (prop_id)
    {
    case PROP_PANE:
      g_value_set_int (value, (int) self->pane);
      break;
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_text_pane_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  TpTextPane *self = TP_TEXT_PANE (object);

  switch (prop_id)
    {
    case PROP_PANE:
      tp_text_pane_set_pane (self, (TpPane) g_value_get_int (value));
      break;
    case PROP_DOCUMENT:
      tp_text_pane_set_document (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tp_text_pane_class_init (TpTextPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tp_text_pane_dispose;
  object_class->finalize = tp_text_pane_finalize;
  object_class->get_property = tp_text_pane_get_property;
  object_class->set_property = tp_text_pane_set_property;
  widget_class->css_changed = tp_text_pane_css_changed;

  properties[PROP_PANE] =
    g_param_spec_int ("pane", NULL, NULL, 0, TP_PANE_VALUES, 0,
                      G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, TP_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "textpane");
  gtk_widget_class_set_template_from_resource (widget_class, TP_RESOURCE_PREFIX "/ui/tp-text-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, box);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, title_label);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, stale_label);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, copy_button);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, focus_button);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, scroller);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, view);
  gtk_widget_class_bind_template_child (widget_class, TpTextPane, placeholder);
  gtk_widget_class_bind_template_callback (widget_class, tp_text_pane_copy_clicked_cb);
}

static void
tp_text_pane_init (TpTextPane *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->gradient_nodes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->buffer = gtk_source_buffer_new (NULL);
  buffer = GTK_TEXT_BUFFER (self->buffer);
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, FALSE);
  gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), buffer);
  /* colours: tp_text_pane_apply_style */
  gtk_text_buffer_create_tag (buffer, "derived", NULL);
  gtk_text_buffer_create_tag (buffer, "divider", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buffer, "summary", "style", PANGO_STYLE_ITALIC, NULL);
  gtk_text_buffer_create_tag (buffer, "kept", "weight", PANGO_WEIGHT_BOLD, NULL);
  gtk_text_buffer_create_tag (buffer, "selected", NULL);
  gtk_text_buffer_create_tag (buffer, "selected-ref", "weight", PANGO_WEIGHT_BOLD, NULL);
  tp_text_pane_apply_style (self);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_create_mark (buffer, "selected-node", &start, TRUE);

  g_signal_connect_object (buffer, "notify::cursor-position",
                           G_CALLBACK (tp_text_pane_cursor_moved_cb), self,
                           G_CONNECT_SWAPPED);
}
