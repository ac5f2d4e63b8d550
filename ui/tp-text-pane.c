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
#include "tp-text-util.h"

typedef struct _TpTextUpdate TpTextUpdate;

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
  TpTextUpdate *update;         /* the readings on their way in, or NULL */
  guint8 *flags;                /* the LINE_* flags of the shown lines */
  guint n_flags;
  GtkTextTag *hlo_tags[7];      /* StableHLO token colours, HLO_N_KINDS */

  TpPane pane;
  guint updating : 1;
  guint deferred : 1;           /* new readings wait for the pane to show */
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
  { "spec", N_("Spec"), N_("The recorded tape appears here.") },
  { "derivative", N_("Derivative"), N_("The gradient appears here.") },
  { "plan", N_("Plan"), N_("The plan appears here.") },
  { "stablehlo", N_("StableHLO"), N_("No StableHLO was written for this program.") },
  { "values", N_("Values"), N_("The values appear here.") },
  { "picture", N_("Picture"), N_("The picture appears here.") },
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
 * (docs/language.md, spec); returns the index or -1. */
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

/* The bounds of lines [@first, @end): @end past the last line is the end
 * of the buffer. */
static void
get_lines_bounds (GtkTextBuffer *buffer,
                  int            first,
                  int            end,
                  GtkTextIter   *a,
                  GtkTextIter   *b)
{
  gtk_text_buffer_get_iter_at_line (buffer, a, first);
  if (end >= gtk_text_buffer_get_line_count (buffer))
    gtk_text_buffer_get_end_iter (buffer, b);
  else
    gtk_text_buffer_get_iter_at_line (buffer, b, end);
}

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
  get_lines_bounds (buffer, first, end, &a, &b);
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

/* What a line of a reading is, for its decoration: derived lines (after
 * the divider, or past the spec's nodes in the plan, or the values'
 * gradients), the divider, `kept` plan lines and the summary lines,
 * scanned from the reading's own text.  Every decoration tag changes
 * colours only, never the size of a line, so (re)applying one costs a
 * redraw and not a new layout. */
enum
{
  LINE_DERIVED = 1 << 0,
  LINE_KEPT = 1 << 1,
  LINE_SUMMARY = 1 << 2,
  LINE_DIVIDER = 1 << 3,
};

static const char *const line_tags[] = { "derived", "kept", "summary", "divider" };

/* One byte of LINE_* flags per line of @text (as many lines as a
 * GtkTextBuffer holding @text has); *n_lines is set. */
static guint8 *
line_flags_new (TpPane      pane,
                TpReadings *readings,
                const char *text,
                guint      *n_lines)
{
  int spec_nodes = pane == TP_PANE_PLAN ? count_spec_nodes (readings) : 0;
  gboolean after_divider = FALSE;
  gboolean after_blank = FALSE;
  int line = 0;
  GByteArray *flags = g_byte_array_new ();

  FOREACH_LINE (text, line, p, len)
    {
      int node = len > 0 ? node_of_node_line (p) : -1;
      guint8 f = 0;

      if (pane == TP_PANE_STABLEHLO)
        ;                       /* its tokens are highlighted instead */
      else if (pane == TP_PANE_VALUES)
        {
          if (len == 0)
            after_blank = TRUE;
          else if (after_blank)
            f = LINE_DERIVED;
        }
      else if (len >= 3 && strncmp (p, "-- ", 3) == 0)
        {
          f = LINE_DIVIDER;
          after_divider = TRUE;
        }
      else if (node < 0)
        f = len > 0 ? LINE_SUMMARY : 0;
      else
        {
          if (after_divider || (pane == TP_PANE_PLAN && node >= spec_nodes))
            f |= LINE_DERIVED;
          if (pane == TP_PANE_PLAN && has_suffix (p, len, " kept"))
            f |= LINE_KEPT;
        }
      g_byte_array_append (flags, &f, 1);
    }
  *n_lines = (guint) line;
  return g_byte_array_free (flags, FALSE);
}

/* Gives lines [@first, @end) the decoration tags of @flags (indexed by
 * line), removing the ones they no longer have. */
static void
decorate_lines (GtkTextBuffer *buffer,
                const guint8  *flags,
                int            first,
                int            end)
{
  GtkTextIter a, b;

  if (end <= first)
    return;
  get_lines_bounds (buffer, first, end, &a, &b);
  for (guint t = 0; t < G_N_ELEMENTS (line_tags); t++)
    {
      Run run = { line_tags[t], -1 };

      gtk_text_buffer_remove_tag_by_name (buffer, line_tags[t], &a, &b);
      for (int line = first; line < end; line++)
        run_step (buffer, &run, line, (flags[line] & (1u << t)) != 0);
      run_step (buffer, &run, end, FALSE);
    }
}

/* {==== StableHLO tokens ====}
 *
 * The StableHLO reading is coloured by the pane itself, one line at a
 * time as lines arrive (GtkSourceView's engine would read the whole text
 * again in 30 ms slices after every change).  The classes are MLIR's:
 * `// comments`, operations (`stablehlo.add`, `func.func`), types
 * (`tensor<2x3xf32>`, `f32`), SSA values (`%v3`, `%arg0`), symbols
 * (`@main`), a few keywords and numbers, each coloured with the source
 * style scheme's style for it. */
enum
{
  HLO_COMMENT,
  HLO_OPERATION,
  HLO_TYPE,
  HLO_VALUE,
  HLO_SYMBOL,
  HLO_KEYWORD,
  HLO_NUMBER,
  HLO_N_KINDS
};

G_STATIC_ASSERT (HLO_N_KINDS == G_N_ELEMENTS (((TpTextPane *) NULL)->hlo_tags));

static const struct
{
  const char *tag;
  const char *styles[3];        /* the scheme's styles, first found wins */
} hlo_kinds[HLO_N_KINDS] = {
  [HLO_COMMENT] = { "hlo-comment", { "def:comment", NULL } },
  [HLO_OPERATION] = { "hlo-operation", { "def:function", "def:identifier", NULL } },
  [HLO_TYPE] = { "hlo-type", { "def:type", NULL } },
  [HLO_VALUE] = { "hlo-value", { "def:identifier", NULL } },
  [HLO_SYMBOL] = { "hlo-symbol", { "def:preprocessor", "def:special-constant", NULL } },
  [HLO_KEYWORD] = { "hlo-keyword", { "def:keyword", NULL } },
  [HLO_NUMBER] = { "hlo-number", { "def:number", "def:floating-point", NULL } },
};

static const char *const hlo_keywords[] = {
  "module", "return", "dense", "applies", "across", "dimensions", "init",
  "dims", "contracting_dims", "batching_dims",
};

static gboolean
is_word (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* The token starting at @p (@end bounds the line): its kind, or -1, and
 * *len its length in bytes (at least 1: the scanner always advances). */
static int
hlo_token (const char *line,
           const char *p,
           const char *end,
           gsize      *len)
{
  const char *q = p;
  gboolean after_word = p > line && (is_word (p[-1]) || p[-1] == '.' || p[-1] == '%');

  *len = 1;
  if (end - p >= 2 && p[0] == '/' && p[1] == '/')
    {
      *len = (gsize) (end - p);
      return HLO_COMMENT;
    }
  if (*p == '%' || *p == '@')
    {
      for (q = p + 1; q < end && is_word (*q); q++)
        ;
      if (q == p + 1)
        return -1;
      *len = (gsize) (q - p);
      return *p == '%' ? HLO_VALUE : HLO_SYMBOL;
    }
  if (g_ascii_isalpha (*p) || *p == '_')
    {
      gsize n;

      while (q < end && is_word (*q))
        q++;
      n = (gsize) (q - p);
      *len = n;
      if (after_word)
        return -1;
      if ((n == 9 && strncmp (p, "stablehlo", 9) == 0) || (n == 4 && strncmp (p, "chlo", 4) == 0)
          || (n == 4 && strncmp (p, "func", 4) == 0))
        {
          const char *r = q + 1;

          if (q < end && *q == '.' && r < end && (g_ascii_islower (*r) || *r == '_'))
            {
              while (r < end && (g_ascii_islower (*r) || *r == '_'))
                r++;
              if (r == end || !is_word (*r))
                {
                  *len = (gsize) (r - p);
                  return HLO_OPERATION;
                }
            }
        }
      if (n == 6 && strncmp (p, "tensor", 6) == 0 && q < end && *q == '<')
        {
          const char *close = memchr (q, '>', (gsize) (end - q));

          if (close != NULL)
            {
              *len = (gsize) (close + 1 - p);
              return HLO_TYPE;
            }
        }
      if ((n == 4 && strncmp (p, "bf16", 4) == 0)
          || ((*p == 'f' || *p == 'i')
              && ((n == 2 && (p[1] == '1' || p[1] == '8'))
                  || (n == 3 && (strncmp (p + 1, "16", 2) == 0 || strncmp (p + 1, "32", 2) == 0
                                 || strncmp (p + 1, "64", 2) == 0)))))
        return HLO_TYPE;
      for (guint k = 0; k < G_N_ELEMENTS (hlo_keywords); k++)
        if (strlen (hlo_keywords[k]) == n && strncmp (p, hlo_keywords[k], n) == 0)
          return HLO_KEYWORD;
      return -1;
    }
  if (!after_word && (g_ascii_isdigit (*p) || (*p == '-' && p + 1 < end && g_ascii_isdigit (p[1]))))
    {
      if (*q == '-')
        q++;
      if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && g_ascii_isxdigit (q[2]))
        for (q += 2; q < end && g_ascii_isxdigit (*q); q++)
          ;
      else
        {
          while (q < end && g_ascii_isdigit (*q))
            q++;
          if (q < end && *q == '.')
            for (q++; q < end && g_ascii_isdigit (*q); q++)
              ;
        }
      if (q < end && (*q == 'e' || *q == 'E'))
        {
          const char *e = q + 1;

          if (e < end && (*e == '+' || *e == '-'))
            e++;
          if (e < end && g_ascii_isdigit (*e))
            {
              for (q = e; q < end && g_ascii_isdigit (*q); q++)
                ;
            }
        }
      *len = (gsize) (q - p);
      return q < end && (is_word (*q) || *q == '.') ? -1 : HLO_NUMBER;
    }
  return -1;
}

/* Colours the tokens of buffer line @line, whose text is @p (@len bytes).
 * A line longer than HLO_MAX_COLOURED stays plain (a 150-argument
 * signature is 6,000 characters): every colour change on a line is an
 * attribute GTK walks for every glyph run of the line in every frame
 * that draws it, which made such a line cost 20 ms a frame. */
#define HLO_MAX_COLOURED 400

static void
hlo_tag_line (GtkTextBuffer *buffer,
              GtkTextTag   **tags,
              int            line,
              const char    *p,
              gsize          len)
{
  const char *end = p + len, *at = p;
  GtkTextIter iter, stop;

  if (len > HLO_MAX_COLOURED)
    return;
  gtk_text_buffer_get_iter_at_line (buffer, &iter, line);
  for (const char *q = p; q < end;)
    {
      gsize n;
      int kind = hlo_token (p, q, end, &n);

      if (kind >= 0)
        {
          gtk_text_iter_forward_chars (&iter, (int) g_utf8_strlen (at, q - at));
          stop = iter;
          gtk_text_iter_forward_chars (&stop, (int) g_utf8_strlen (q, (gssize) n));
          gtk_text_buffer_apply_tag (buffer, tags[kind], &iter, &stop);
          iter = stop;
          at = q + n;
        }
      q += n;
    }
}

/* Highlights every line (and StableHLO use) of the selected node and
 * scrolls the first one into view. */
static void
tp_text_pane_show_selected (TpTextPane *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter start;
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  int node = self->document != NULL ? tp_document_get_selected_node (self->document) : -1;
  int first = -1;
  int first_ref = -1;           /* StableHLO: an argument has uses only */
  Run selected = { "selected", -1 };
  int line = 0;

  tp_text_buffer_remove_tag_present (buffer, gtk_text_tag_table_lookup (table, "selected"));
  tp_text_buffer_remove_tag_present (buffer, gtk_text_tag_table_lookup (table, "selected-ref"));
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

/* {==== updating ====}
 *
 * A reading can be a few hundred kilobytes (a 300-line program's
 * StableHLO is 230 KB, some of its lines 6,000 characters), and a
 * GtkTextView lays out every line it is given.  So a pane never replaces
 * its whole text: it keeps the lines the old and the new text share at
 * their start and at their end, and replaces only the lines between, in
 * slices.  The panes of every window share one budget per main-loop turn
 * (SLICE_BYTES, and SLICE_USEC of work), spent at a priority below GTK's
 * drawing and its line layout: each slice is laid out (and the window
 * drawn) before the next goes in, so no turn of the main loop is long
 * whatever the size of the change.  A pane that is on screen goes before
 * one that is not.  A newer reading arriving in the middle of an update
 * starts again from what the buffer holds. */

#define SLICE_BYTES 6000
#define SLICE_USEC 3000
#define SLICE_LINES 64
#define UPDATE_PRIORITY (GDK_PRIORITY_REDRAW + 10)

struct _TpTextUpdate
{
  TpReadings *readings;         /* the readings being shown, or NULL */
  const char *text;             /* its text for the pane */
  const char *next;             /* the next new line to insert */
  const char *mid_end;          /* the end of the new lines to insert */
  guint8 *flags;                /* line_flags_new of text */
  guint n_lines;                /* lines of text */
  int line;                     /* the buffer line where next goes */
  guint old_left;               /* old lines still to delete at line */
  guint suffix_lines;           /* lines after the replaced ones */
  guint8 *old_flags;            /* the flags of the text replaced, or NULL */
  guint old_n_lines;
};

static GQueue pending_panes = G_QUEUE_INIT;
static guint pending_source;

static guint
count_lines (const char *p,
             gsize       len)
{
  guint n = 0;

  for (const char *e = p + len; (p = memchr (p, '\n', (gsize) (e - p))) != NULL; p++)
    n++;
  return n;
}

static void
tp_text_update_free (TpTextUpdate *update)
{
  if (update == NULL)
    return;
  g_clear_pointer (&update->readings, tp_readings_unref);
  g_free (update->flags);
  g_free (update->old_flags);
  g_free (update);
}

/* Deletes @n lines at buffer line @line (to the end of the buffer when
 * they are its last). */
static void
delete_lines (GtkTextBuffer *buffer,
              int            line,
              guint          n)
{
  GtkTextIter a, b;

  if (n == 0)
    return;
  get_lines_bounds (buffer, line, line + (int) n, &a, &b);
  gtk_text_buffer_delete (buffer, &a, &b);
}

/* The last steps of an update: the kept lines at the end get the
 * decoration of their new place, the selection is shown again. */
static void
tp_text_pane_finish_update (TpTextPane *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  TpTextUpdate *update = self->update;
  int first = (int) (update->n_lines - update->suffix_lines);
  int shift = (int) update->old_n_lines - (int) update->n_lines;

  /* a kept line at the end may change its decoration (a plan line past
   * the spec's nodes becomes derived when the spec shrinks): redo the
   * lines whose flags differ, all of them when the old flags are lost */
  for (int line = first; line < (int) update->n_lines;)
    {
      int end = line;

      while (end < (int) update->n_lines
             && (update->old_flags == NULL || update->old_flags[end + shift] != update->flags[end]))
        end++;
      decorate_lines (buffer, update->flags, line, end);
      line = end + 1;
    }

  g_clear_pointer (&self->shown, tp_readings_unref);
  self->shown = g_steal_pointer (&update->readings);
  g_free (self->flags);
  self->flags = g_steal_pointer (&update->flags);
  self->n_flags = update->n_lines;
  g_clear_pointer (&self->update, tp_text_update_free);
  g_queue_remove (&pending_panes, self);
  if (self->shown != NULL)
    parse_gradient_nodes (self, self->shown);
  tp_text_pane_show_selected (self);
}

/* One slice of @self's update: at most *budget bytes of new lines (one
 * line at least) replace as many old lines.  Returns TRUE when the update
 * is complete. */
static gboolean
tp_text_pane_update_step (TpTextPane *self,
                          gssize     *budget)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  TpTextUpdate *update = self->update;
  const char *from = update->next;
  const char *to = from;
  guint lines, gone;
  GtkTextIter iter;

  self->updating = TRUE;
  for (guint n = 0; to < update->mid_end && (to == from || (to - from < *budget && n < SLICE_LINES)); n++)
    {
      const char *nl = memchr (to, '\n', (gsize) (update->mid_end - to));

      to = nl != NULL ? nl + 1 : update->mid_end;
    }
  lines = count_lines (from, (gsize) (to - from));
  if (to > from && to[-1] != '\n')
    lines++;                    /* the text's last line, unterminated */
  /* the old lines go at the pace the new ones come, the rest at the end */
  gone = to == update->mid_end ? update->old_left : MIN (lines, update->old_left);
  delete_lines (buffer, update->line, gone);
  update->old_left -= gone;
  if (to > from)
    {
      if (update->line >= gtk_text_buffer_get_line_count (buffer))
        gtk_text_buffer_get_end_iter (buffer, &iter);
      else
        gtk_text_buffer_get_iter_at_line (buffer, &iter, update->line);
      gtk_text_buffer_insert (buffer, &iter, from, (int) (to - from));
      if (self->pane == TP_PANE_STABLEHLO)
        {
          int line = update->line;

          for (const char *p = from; p < to; line++)
            {
              const char *nl = memchr (p, '\n', (gsize) (to - p));

              hlo_tag_line (buffer, self->hlo_tags, line, p, (gsize) ((nl != NULL ? nl : to) - p));
              p = nl != NULL ? nl + 1 : to;
            }
        }
      else
        decorate_lines (buffer, update->flags, update->line,
                        MIN (update->line + (int) lines, (int) update->n_lines));
      update->line += (int) lines;
      update->next = to;
      *budget -= to - from;
    }
  self->updating = FALSE;
  if (update->next < update->mid_end || update->old_left > 0)
    return FALSE;
  tp_text_pane_finish_update (self);
  return TRUE;
}

static gboolean
pending_panes_cb (gpointer data)
{
  gssize budget = SLICE_BYTES;
  gint64 deadline = g_get_monotonic_time () + SLICE_USEC;

  while (budget > 0 && g_get_monotonic_time () < deadline && !g_queue_is_empty (&pending_panes))
    {
      TpTextPane *self = g_queue_peek_head (&pending_panes);

      /* a pane on screen first; the others take turns */
      for (GList *l = pending_panes.head; l != NULL; l = l->next)
        if (gtk_widget_get_mapped (l->data))
          {
            self = l->data;
            break;
          }
      g_queue_remove (&pending_panes, self);
      g_queue_push_tail (&pending_panes, self);
      tp_text_pane_update_step (self, &budget);
    }
  if (!g_queue_is_empty (&pending_panes))
    return G_SOURCE_CONTINUE;
  pending_source = 0;
  return G_SOURCE_REMOVE;
}

/* Shows the document's readings: starts the update (or, for the same
 * text, only renews the selection). */
static void
tp_text_pane_update_text (TpTextPane *self)
{
  TpReadings *readings = self->document ? tp_document_get_readings (self->document) : NULL;
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  const char *text = readings != NULL ? tp_readings_get_text (readings, (TpReading) self->pane) : "";
  g_autofree char *held = NULL;
  const char *old;
  gsize old_len, new_len, prefix, tail, limit;
  TpTextUpdate *update;

  gtk_widget_set_visible (GTK_WIDGET (self->placeholder), text[0] == '\0');
  if (self->update == NULL)
    {
      old = self->shown != NULL ? tp_readings_get_text (self->shown, (TpReading) self->pane) : "";
      if (strcmp (old, text) == 0)
        {
          if (readings != NULL)
            tp_readings_ref (readings);
          g_clear_pointer (&self->shown, tp_readings_unref);
          self->shown = readings;
          if (readings != NULL)
            parse_gradient_nodes (self, readings);
          tp_text_pane_show_selected (self);
          return;
        }
    }
  else
    {
      /* an update was under way: the buffer is part old, part new */
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      old = held = gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
      g_clear_pointer (&self->update, tp_text_update_free);
      g_clear_pointer (&self->flags, g_free);
    }

  update = g_new0 (TpTextUpdate, 1);
  update->readings = readings != NULL ? tp_readings_ref (readings) : NULL;
  update->text = text;
  update->flags = line_flags_new (self->pane, readings, text, &update->n_lines);
  update->old_flags = g_steal_pointer (&self->flags);
  update->old_n_lines = self->n_flags;
  self->n_flags = 0;

  /* the lines both texts start with, and end with */
  old_len = strlen (old);
  new_len = strlen (text);
  limit = MIN (old_len, new_len);
  for (prefix = 0; prefix < limit && old[prefix] == text[prefix]; prefix++)
    ;
  if (prefix < limit || old_len != new_len)
    while (prefix > 0 && text[prefix - 1] != '\n')
      prefix--;
  for (tail = 0; tail < limit - prefix && old[old_len - 1 - tail] == text[new_len - 1 - tail]; tail++)
    ;
  /* the kept end starts a line in both texts */
  while (tail > 0 && !((new_len - tail == prefix || text[new_len - tail - 1] == '\n')
                       && (old_len - tail == prefix || old[old_len - tail - 1] == '\n')))
    tail--;

  update->line = (int) count_lines (text, prefix);
  update->next = text + prefix;
  update->mid_end = text + new_len - tail;
  update->suffix_lines = tail > 0 ? count_lines (text + new_len - tail, tail) + 1 : 0;
  update->old_left = count_lines (old + prefix, old_len - tail - prefix);
  if (old_len - tail > prefix && old[old_len - tail - 1] != '\n')
    update->old_left++;         /* the old text's last line, unterminated */
  self->update = update;
  if (g_queue_find (&pending_panes, self) == NULL)
    g_queue_push_tail (&pending_panes, self);
  if (pending_source == 0)
    {
      pending_source = g_idle_add_full (UPDATE_PRIORITY, pending_panes_cb, NULL, NULL);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, pending_source), "[topos] pane update");
    }
}

/* TRUE while the pane is still bringing its text up to date. */
gboolean
tp_text_pane_get_busy (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), FALSE);

  return self->update != NULL;
}

/* Completes the update under way at once (for tests and copying). */
void
tp_text_pane_flush (TpTextPane *self)
{
  g_return_if_fail (TP_IS_TEXT_PANE (self));

  if (self->deferred)
    {
      self->deferred = FALSE;
      tp_text_pane_update_text (self);
    }
  while (self->update != NULL)
    {
      gssize budget = G_MAXSSIZE;

      tp_text_pane_update_step (self, &budget);
    }
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
  GtkSourceStyleScheme *scheme;

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
  scheme = gtk_source_buffer_get_style_scheme (self->buffer);
  for (guint k = 0; k < HLO_N_KINDS; k++)
    {
      GtkSourceStyle *style = NULL;

      for (guint i = 0; scheme != NULL && style == NULL && hlo_kinds[k].styles[i] != NULL; i++)
        style = gtk_source_style_scheme_get_style (scheme, hlo_kinds[k].styles[i]);
      gtk_source_style_apply (style, self->hlo_tags[k]);
    }
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

/* A pane that is not on screen (the focus layout shows one) takes new
 * readings when it is shown: no work for text nobody sees. */
static void
tp_text_pane_readings_cb (TpTextPane *self)
{
  self->deferred = !gtk_widget_get_mapped (GTK_WIDGET (self));
  if (!self->deferred)
    tp_text_pane_update_text (self);
}

static void
tp_text_pane_map (GtkWidget *widget)
{
  TpTextPane *self = TP_TEXT_PANE (widget);

  GTK_WIDGET_CLASS (tp_text_pane_parent_class)->map (widget);
  if (self->deferred)
    {
      self->deferred = FALSE;
      tp_text_pane_update_text (self);
    }
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
  self->pane = pane;
  gtk_label_set_label (self->title_label, tp_pane_get_title (pane));
  gtk_label_set_label (self->placeholder, panes[pane].empty);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->focus_button), "win.show-pane");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->focus_button), "s", tp_pane_get_id (pane));
  gtk_widget_add_css_class (GTK_WIDGET (self), tp_pane_get_id (pane));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tp_pane_get_title (pane),
                                  -1);
  {
    g_autofree char *copy = g_strdup_printf (/* Translators: %s is a pane's title */ _("Copy the %s reading"), gettext (tp_pane_get_title (pane)));
    g_autofree char *alone = g_strdup_printf (/* Translators: %s is a pane's title */ _("Show the %s reading alone"), gettext (tp_pane_get_title (pane)));

    gtk_accessible_update_property (GTK_ACCESSIBLE (self->copy_button), GTK_ACCESSIBLE_PROPERTY_LABEL, copy, -1);
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->focus_button), GTK_ACCESSIBLE_PROPERTY_LABEL, alone, -1);
  }
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

/* The pane's reading, whole: an update under way is finished first. */
char *
tp_text_pane_dup_text (TpTextPane *self)
{
  GtkTextIter start, end;

  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  tp_text_pane_flush (self);
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
  g_queue_remove (&pending_panes, self);
  g_clear_pointer (&self->update, tp_text_update_free);
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
  g_clear_pointer (&self->flags, g_free);

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
  widget_class->map = tp_text_pane_map;

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
  /* colours only: no decoration changes the size of a line, so putting
   * one on or off costs a redraw, never a new layout of the lines (a bold
   * tag taken off a whole reading has GTK lay out every line again) */
  gtk_text_buffer_create_tag (buffer, "derived", NULL);
  gtk_text_buffer_create_tag (buffer, "divider", NULL);
  gtk_text_buffer_create_tag (buffer, "summary", NULL);
  gtk_text_buffer_create_tag (buffer, "kept", NULL);
  gtk_text_buffer_create_tag (buffer, "selected", NULL);
  gtk_text_buffer_create_tag (buffer, "selected-ref", NULL);
  for (guint k = 0; k < HLO_N_KINDS; k++)
    self->hlo_tags[k] = gtk_text_buffer_create_tag (buffer, hlo_kinds[k].tag, NULL);
  tp_text_pane_apply_style (self);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_create_mark (buffer, "selected-node", &start, TRUE);

  g_signal_connect_object (buffer, "notify::cursor-position",
                           G_CALLBACK (tp_text_pane_cursor_moved_cb), self,
                           G_CONNECT_SWAPPED);
}
