/* tp-text-pane.c: shows one text reading of a TpDocument.
 *
 * The pane copies the engine's text verbatim and only decorates it:
 * derived lines, the differentiate divider, `kept` plan lines, the
 * summary lines, StableHLO's token colours, and the node selected
 * anywhere in the window.  Every one of these comes from the engine's
 * reading map (each line's node and role, each token's span, class and
 * node), which the readings carry: nothing is read back from the text. */
#include "config.h"

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
  TpReadings *shown;            /* the readings whose text the buffer holds */
  TpTextUpdate *update;         /* the readings on their way in, or NULL */
  guint8 *flags;                /* the LINE_* flags of the shown lines */
  guint n_flags;
  GtkTextTag *hlo_tags[7];      /* StableHLO token colours, HLO_N_KINDS */
  GtkTextTag *show_all_tag;     /* a folded line's "show all" control */
  GArray *expanded;             /* TpFold: the lines "show all" unfolded */

  TpPane pane;
  guint updating : 1;
  guint deferred : 1;           /* new readings wait for the pane to show */
  guint dark : 1;
  guint styled : 1;
  guint dirty : 1;              /* the buffer is not shown's text: a line was unfolded */
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

/* {==== the reading map ====}
 *
 * Which node a line stands for, its role, and its tokens' spans, classes
 * and nodes are the engine's reading map (tp-engine.h), copied into the
 * readings: the pane never reads its text back. */

/* The node line @line of the shown reading stands for, or -1. */
static int
line_node (TpReadings *readings,
           TpPane      pane,
           guint       line)
{
  const TpMapLine *l = readings != NULL ? tp_readings_get_map_line (readings, (TpReading) pane, line) : NULL;

  return l != NULL && l->node != TP_MAP_NO_NODE && l->node <= G_MAXINT ? (int) l->node : -1;
}

/* How buffer line @line of the shown reading is folded, or NULL when it
 * is whole: the map's offsets are the full line's. */
static const TpFold *
pane_fold (TpTextPane *self,
           TpReadings *readings,
           guint       line)
{
  if (readings == self->shown && self->expanded != NULL)
    for (guint i = 0; i < self->expanded->len; i++)
      if (g_array_index (self->expanded, TpFold, i).line == line)
        return &g_array_index (self->expanded, TpFold, i);
  return tp_readings_get_fold (readings, (TpReading) self->pane, line);
}

/* The node under the insertion cursor, or -1: in StableHLO the SSA value
 * under (or just before) the cursor, else the line's own node. */
static int
tp_text_pane_node_at_cursor (TpTextPane *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkTextIter iter;
  int line;

  gtk_text_buffer_get_iter_at_mark (buffer, &iter, gtk_text_buffer_get_insert (buffer));
  line = gtk_text_iter_get_line (&iter);
  if (self->shown == NULL)
    return -1;
  if (self->pane == TP_PANE_STABLEHLO)
    {
      guint at = (guint) gtk_text_iter_get_line_index (&iter);
      guint n = 0;
      const TpMapRef *refs = tp_readings_get_map_refs (self->shown, TP_READING_STABLEHLO, (guint) line, &n);
      const TpFold *fold = pane_fold (self, self->shown, (guint) line);

      if (fold != NULL)
        {
          gssize full = tp_fold_to_full (fold, at);

          n = full < 0 ? 0 : n;
          at = full < 0 ? 0 : (guint) full;
        }

      for (guint k = 0; k < n; k++)
        if (refs[k].klass == TP_TOKEN_SSA && refs[k].node != TP_MAP_NO_NODE
            && refs[k].start <= at && at <= refs[k].end && refs[k].node <= G_MAXINT)
          return (int) refs[k].node;
    }
  return line_node (self->shown, self->pane, (guint) line);
}

/* {==== decorating ====} */

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

/* What a line of a reading is, for its decoration, from its role in the
 * map: derived (appended by differentiate: the derivative's lines after
 * the divider, the plan's nodes at or past the spec's node count, the
 * values' gradients), the divider, `kept` plan lines, and the summary
 * lines (footers and notes).  Every decoration tag changes colours only,
 * never the size of a line, so (re)applying one costs a redraw and not a
 * new layout; but a note (why there is no derivative, a sentence on a
 * line of its own in an otherwise short reading) also wraps at the
 * pane's width instead of running off it. */
enum
{
  LINE_DERIVED = 1 << 0,
  LINE_KEPT = 1 << 1,
  LINE_SUMMARY = 1 << 2,
  LINE_DIVIDER = 1 << 3,
  LINE_NOTE = 1 << 4,
};

static const char *const line_tags[] = { "derived", "kept", "summary", "divider", "note" };

/* The LINE_* flags of a line of @pane's reading with map line @l. */
static guint8
line_flags (TpPane           pane,
            TpReadings      *readings,
            const TpMapLine *l)
{
  guint8 f = 0;

  if (l == NULL || pane == TP_PANE_STABLEHLO)
    return 0;                   /* StableHLO: its tokens are coloured instead */
  switch (l->role)
    {
    case TP_ROLE_DERIVED:
    case TP_ROLE_GRADIENT:
      f = LINE_DERIVED;
      break;
    case TP_ROLE_DIVIDER:
      f = LINE_DIVIDER;
      break;
    case TP_ROLE_NOTE:
      f = LINE_SUMMARY | LINE_NOTE;
      break;
    case TP_ROLE_FOOTER:
      f = LINE_SUMMARY;
      break;
    case TP_ROLE_KEPT:
      f = LINE_KEPT;
      break;
    case TP_ROLE_BLANK:
    case TP_ROLE_NODE:
    case TP_ROLE_FREED:
    case TP_ROLE_RESULT:
    case TP_ROLE_FRAME:
    case TP_N_ROLES:
    default:
      break;
    }
  if (pane == TP_PANE_PLAN && l->node != TP_MAP_NO_NODE && l->node >= readings->spec_nodes)
    f |= LINE_DERIVED;
  return f;
}

/* One byte of LINE_* flags per line of @text (as many lines as a
 * GtkTextBuffer holding @text has); *n_lines is set. */
static guint8 *
line_flags_new (TpPane      pane,
                TpReadings *readings,
                const char *text,
                guint      *n_lines)
{
  guint n = 1;
  guint8 *flags;

  for (const char *p = text; (p = strchr (p, '\n')) != NULL; p++)
    n++;
  flags = g_new0 (guint8, n);
  for (guint line = 0; readings != NULL && line < n; line++)
    flags[line] = line_flags (pane, readings, tp_readings_get_map_line (readings, (TpReading) pane, line));
  *n_lines = n;
  return flags;
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
 * again in 30 ms slices after every change), from the classes the map
 * gives its tokens: comments, operations (`stablehlo.add`, `func.func`),
 * types (`tensor<2x3xf32>`), SSA values (`%v3`, `%arg0`), symbols
 * (`@main`), keywords and numbers, each coloured with the source style
 * scheme's style for it. */
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

/* The colour of a StableHLO token of class @klass, or -1 for none. */
static int
hlo_kind_of_class (TpTokenClass klass)
{
  switch (klass)
    {
    case TP_TOKEN_COMMENT: return HLO_COMMENT;
    case TP_TOKEN_OP: return HLO_OPERATION;
    case TP_TOKEN_TYPE: return HLO_TYPE;
    case TP_TOKEN_SSA: return HLO_VALUE;
    case TP_TOKEN_SYMBOL: return HLO_SYMBOL;
    case TP_TOKEN_KEYWORD: return HLO_KEYWORD;
    case TP_TOKEN_NUMBER: return HLO_NUMBER;
    case TP_TOKEN_INDEX:
    case TP_TOKEN_SOURCE:
    case TP_TOKEN_OPERAND:
    case TP_TOKEN_DETAIL:
    case TP_TOKEN_SHAPE:
    case TP_TOKEN_LIVE:
    case TP_TOKEN_NAME:
    case TP_TOKEN_ATTRIBUTE:
    case TP_N_TOKENS:
    default:
      return -1;
    }
}

/* Colours the tokens of buffer line @line (@len bytes) from the map.  A
 * line longer than HLO_MAX_COLOURED stays plain (a 150-argument
 * signature is 6,000 characters): every colour change on a line is an
 * attribute GTK walks for every glyph run of the line in every frame
 * that draws it, which made such a line cost 20 ms a frame. */
#define HLO_MAX_COLOURED 400

static void
hlo_tag_line (GtkTextBuffer *buffer,
              GtkTextTag   **tags,
              TpReadings    *readings,
              const TpFold  *fold,
              int            line,
              gsize          len)
{
  guint n = 0;
  const TpMapRef *refs;

  if (len > HLO_MAX_COLOURED || readings == NULL)
    return;
  refs = tp_readings_get_map_refs (readings, TP_READING_STABLEHLO, (guint) line, &n);
  for (guint k = 0; k < n; k++)
    {
      int kind = hlo_kind_of_class (refs[k].klass);
      gsize start = fold != NULL ? tp_fold_to_shown (fold, refs[k].start) : refs[k].start;
      gsize end = fold != NULL ? tp_fold_to_shown (fold, refs[k].end) : refs[k].end;
      GtkTextIter a, b;

      if (kind < 0 || end > len || end <= start)
        continue;
      gtk_text_buffer_get_iter_at_line_index (buffer, &a, line, (int) start);
      gtk_text_buffer_get_iter_at_line_index (buffer, &b, line, (int) end);
      gtk_text_buffer_apply_tag (buffer, tags[kind], &a, &b);
    }
}

/* Highlights every line of the selected node (and in StableHLO its uses
 * on other lines) and scrolls the first one into view. */
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
  guint n_lines;
  guint line;

  tp_text_buffer_remove_tag_present (buffer, gtk_text_tag_table_lookup (table, "selected"));
  tp_text_buffer_remove_tag_present (buffer, gtk_text_tag_table_lookup (table, "selected-ref"));
  if (node < 0 || self->shown == NULL)
    return;

  n_lines = self->shown->n_map_lines[self->pane];
  for (line = 0; line < n_lines; line++)
    {
      int own = line_node (self->shown, self->pane, line);

      if (self->pane == TP_PANE_STABLEHLO && own != node)
        {
          guint n = 0;
          const TpMapRef *refs = tp_readings_get_map_refs (self->shown, TP_READING_STABLEHLO, line, &n);
          const TpFold *fold = n > 0 ? pane_fold (self, self->shown, line) : NULL;

          for (guint k = 0; k < n; k++)
            if (refs[k].klass == TP_TOKEN_SSA && refs[k].node == (guint) node)
              {
                /* the map's offsets are the full line's */
                gsize from = fold != NULL ? tp_fold_to_shown (fold, refs[k].start) : refs[k].start;
                gsize to = fold != NULL ? tp_fold_to_shown (fold, refs[k].end) : refs[k].end;
                GtkTextIter a, b;

                if (to <= from)
                  continue;     /* hidden in the fold */
                gtk_text_buffer_get_iter_at_line_index (buffer, &a, (int) line, (int) from);
                gtk_text_buffer_get_iter_at_line_index (buffer, &b, (int) line, (int) to);
                gtk_text_buffer_apply_tag_by_name (buffer, "selected-ref", &a, &b);
                if (first_ref < 0)
                  first_ref = (int) line;
              }
        }
      if (own == node && first < 0)
        first = (int) line;
      run_step (buffer, &selected, (int) line, own == node);
    }
  run_step (buffer, &selected, (int) line, FALSE);

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
  tp_text_pane_show_selected (self);
}

/* Marks the "show all" control at the end of folded line @fold. */
static void
tag_control (TpTextPane   *self,
             const TpFold *fold)
{
  GtkTextIter a, b;
  gsize end;

  if (fold == NULL || fold->control == 0)
    return;
  end = fold->head + fold->marker + fold->tail + fold->suffix;
  gtk_text_buffer_get_iter_at_line_index (GTK_TEXT_BUFFER (self->buffer), &a, (int) fold->line, (int) (end - fold->control));
  gtk_text_buffer_get_iter_at_line_index (GTK_TEXT_BUFFER (self->buffer), &b, (int) fold->line, (int) end);
  gtk_text_buffer_apply_tag (GTK_TEXT_BUFFER (self->buffer), self->show_all_tag, &a, &b);
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

              hlo_tag_line (buffer, self->hlo_tags, update->readings,
                            tp_readings_get_fold (update->readings, TP_READING_STABLEHLO, (guint) line),
                            line, (gsize) ((nl != NULL ? nl : to) - p));
              p = nl != NULL ? nl + 1 : to;
            }
        }
      else
        decorate_lines (buffer, update->flags, update->line,
                        MIN (update->line + (int) lines, (int) update->n_lines));
      for (int line = update->line; update->readings != NULL && line < update->line + (int) lines; line++)
        tag_control (self, tp_readings_get_fold (update->readings, (TpReading) self->pane, (guint) line));
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
  const char *text = readings != NULL ? tp_readings_get_shown_text (readings, (TpReading) self->pane) : "";
  g_autofree char *held = NULL;
  const char *old;
  gsize old_len, new_len, prefix, tail, limit;
  TpTextUpdate *update;

  gtk_widget_set_visible (GTK_WIDGET (self->placeholder), text[0] == '\0');
  if (self->update == NULL && !self->dirty)
    {
      old = self->shown != NULL ? tp_readings_get_shown_text (self->shown, (TpReading) self->pane) : "";
      if (strcmp (old, text) == 0)
        {
          if (readings != NULL)
            tp_readings_ref (readings);
          g_clear_pointer (&self->shown, tp_readings_unref);
          self->shown = readings;
          tp_text_pane_show_selected (self);
          return;
        }
    }
  else
    {
      /* an update was under way: the buffer is part old, part new; or
       * a line was unfolded (at most TP_FOLD_SHOW_ALL bytes of it) */
      GtkTextIter start, end;

      gtk_text_buffer_get_bounds (buffer, &start, &end);
      old = held = gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
      g_clear_pointer (&self->update, tp_text_update_free);
      g_clear_pointer (&self->flags, g_free);
    }
  self->dirty = FALSE;
  g_array_set_size (self->expanded, 0);

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
  g_autofree char *text = tp_text_pane_dup_reading (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

/* "show all": buffer line @line, when folded, is shown whole (up to
 * TP_FOLD_SHOW_ALL bytes; a longer one stays folded around that much of
 * its start).  Returns TRUE when the line was unfolded. */
gboolean
tp_text_pane_show_all (TpTextPane *self,
                       guint       line)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  const TpFold *fold;
  TpFold whole = { 0 };
  g_autofree char *text = NULL;
  const char *full;
  GtkTextIter a, b;

  g_return_val_if_fail (TP_IS_TEXT_PANE (self), FALSE);

  tp_text_pane_flush (self);
  fold = self->shown != NULL ? pane_fold (self, self->shown, line) : NULL;
  if (fold == NULL || fold->control == 0)
    return FALSE;
  full = tp_readings_get_text (self->shown, (TpReading) self->pane) + fold->offset;
  if (fold->length <= TP_FOLD_SHOW_ALL)
    text = tp_fold_line (full, fold->length, fold->length, 0, fold->count, fold->elements, FALSE, &whole);
  else
    text = tp_fold_line (full, fold->length, TP_FOLD_SHOW_ALL, TP_FOLD_TAIL, fold->count, fold->elements, FALSE, &whole);
  whole.line = fold->line;
  whole.offset = fold->offset;

  self->updating = TRUE;
  gtk_text_buffer_get_iter_at_line (buffer, &a, (int) line);
  b = a;
  if (!gtk_text_iter_ends_line (&b))
    gtk_text_iter_forward_to_line_end (&b);
  gtk_text_buffer_delete (buffer, &a, &b);
  gtk_text_buffer_insert (buffer, &a, text, -1);
  self->updating = FALSE;
  g_array_append_val (self->expanded, whole);
  self->dirty = TRUE;
  if (line < self->n_flags)
    decorate_lines (buffer, self->flags, (int) line, (int) line + 1);
  tp_text_pane_show_selected (self);
  return TRUE;
}

/* A click on a "show all" control unfolds its line. */
static void
tp_text_pane_released_cb (GtkGestureClick *gesture,
                          int              n_press,
                          double           x,
                          double           y,
                          TpTextPane      *self)
{
  GtkTextView *view = GTK_TEXT_VIEW (self->view);
  GtkTextIter iter;
  int bx, by;

  gtk_text_view_window_to_buffer_coords (view, GTK_TEXT_WINDOW_WIDGET, (int) x, (int) y, &bx, &by);
  if (gtk_text_view_get_iter_at_location (view, &iter, bx, by)
      && gtk_text_iter_has_tag (&iter, self->show_all_tag))
    tp_text_pane_show_all (self, (guint) gtk_text_iter_get_line (&iter));
}

/* pane.show-all (the view's context menu): unfolds the cursor's line. */
static void
tp_text_pane_show_all_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *param)
{
  TpTextPane *self = TP_TEXT_PANE (widget);
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_mark (GTK_TEXT_BUFFER (self->buffer), &iter,
                                    gtk_text_buffer_get_insert (GTK_TEXT_BUFFER (self->buffer)));
  tp_text_pane_show_all (self, (guint) gtk_text_iter_get_line (&iter));
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
  gtk_label_set_label (self->title_label, gettext (tp_pane_get_title (pane)));
  gtk_label_set_label (self->placeholder, gettext (panes[pane].empty));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->focus_button), "win.show-pane");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->focus_button), "s", tp_pane_get_id (pane));
  gtk_widget_add_css_class (GTK_WIDGET (self), tp_pane_get_id (pane));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, gettext (tp_pane_get_title (pane)),
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

/* The pane's reading as the engine wrote it, its folded lines whole (what
 * copying gives). */
char *
tp_text_pane_dup_reading (TpTextPane *self)
{
  g_return_val_if_fail (TP_IS_TEXT_PANE (self), NULL);

  tp_text_pane_flush (self);
  return g_strdup (self->shown != NULL ? tp_readings_get_text (self->shown, (TpReading) self->pane) : "");
}

/* The pane's text as shown (folded lines folded): an update under way
 * is finished first. */
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
  g_clear_pointer (&self->shown, tp_readings_unref);
  g_clear_pointer (&self->flags, g_free);
  g_clear_pointer (&self->expanded, g_array_unref);

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
  gtk_widget_class_install_action (widget_class, "pane.show-all", NULL, tp_text_pane_show_all_action);
}

static void
tp_text_pane_init (TpTextPane *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start;

  gtk_widget_init_template (GTK_WIDGET (self));

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
  gtk_text_buffer_create_tag (buffer, "note", "wrap-mode", GTK_WRAP_WORD_CHAR, NULL);
  gtk_text_buffer_create_tag (buffer, "kept", NULL);
  gtk_text_buffer_create_tag (buffer, "selected", NULL);
  gtk_text_buffer_create_tag (buffer, "selected-ref", NULL);
  for (guint k = 0; k < HLO_N_KINDS; k++)
    self->hlo_tags[k] = gtk_text_buffer_create_tag (buffer, hlo_kinds[k].tag, NULL);
  /* an underline changes no line's size */
  self->show_all_tag = gtk_text_buffer_create_tag (buffer, "show-all", "underline", PANGO_UNDERLINE_SINGLE, NULL);
  self->expanded = g_array_new (FALSE, FALSE, sizeof (TpFold));
  tp_text_pane_apply_style (self);
  gtk_text_buffer_get_start_iter (buffer, &start);
  gtk_text_buffer_create_mark (buffer, "selected-node", &start, TRUE);

  {
    GtkGesture *click = gtk_gesture_click_new ();
    g_autoptr(GMenu) menu = g_menu_new ();

    g_signal_connect_object (click, "released", G_CALLBACK (tp_text_pane_released_cb), self, 0);
    gtk_widget_add_controller (GTK_WIDGET (self->view), GTK_EVENT_CONTROLLER (click));
    g_menu_append (menu, _("Show All of This Line"), "pane.show-all");
    gtk_text_view_set_extra_menu (GTK_TEXT_VIEW (self->view), G_MENU_MODEL (menu));
  }

  g_signal_connect_object (buffer, "notify::cursor-position",
                           G_CALLBACK (tp_text_pane_cursor_moved_cb), self,
                           G_CONNECT_SWAPPED);
}
