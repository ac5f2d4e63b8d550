/* tp-text-decor.c: a text pane's decoration, from the engine's reading
 * map alone: each line's tags by its role (derived, the divider, kept,
 * the summary), StableHLO's tokens coloured by their class, and the
 * selected node's lines (in StableHLO, its uses too).  Nothing is read
 * back from the text. */
#include "config.h"

#include <string.h>

#include "tp-text-pane-private.h"
#include "tp-text-util.h"

/* {==== the reading map ====}
 *
 * Which node a line stands for, its role, and its tokens' spans, classes
 * and nodes are the engine's reading map (tp-engine.h), copied into the
 * readings: the pane never reads its text back. */

/* The node line @line of the shown reading stands for, or -1. */
int
_tp_text_line_node (TpReadings *readings,
                    TpPane      pane,
                    guint       line)
{
  const TpMapLine *l = readings != NULL ? tp_readings_get_map_line (readings, (TpReading) pane, line) : NULL;

  return l != NULL && l->node != TP_MAP_NO_NODE && l->node <= G_MAXINT ? (int) l->node : -1;
}

/* How buffer line @line of the shown reading is folded, or NULL when it
 * is whole: the map's offsets are the full line's. */
const TpFold *
_tp_text_pane_fold (TpTextPane *self,
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
int
_tp_text_pane_node_at_cursor (TpTextPane *self)
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
      const TpFold *fold = _tp_text_pane_fold (self, self->shown, (guint) line);

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
  return _tp_text_line_node (self->shown, self->pane, (guint) line);
}

/* {==== decorating ====} */

/* The bounds of lines [@first, @end): @end past the last line is the end
 * of the buffer. */
void
_tp_text_get_lines_bounds (GtkTextBuffer *buffer,
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
  _tp_text_get_lines_bounds (buffer, first, end, &a, &b);
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
guint8 *
_tp_text_line_flags_new (TpPane      pane,
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
void
_tp_text_decorate_lines (GtkTextBuffer *buffer,
                         const guint8  *flags,
                         int            first,
                         int            end)
{
  GtkTextIter a, b;

  if (end <= first)
    return;
  _tp_text_get_lines_bounds (buffer, first, end, &a, &b);
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

G_STATIC_ASSERT (HLO_N_KINDS == TP_TEXT_HLO_N_KINDS);

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

void
_tp_text_hlo_tag_line (GtkTextBuffer *buffer,
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
void
_tp_text_pane_show_selected (TpTextPane *self)
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
      int own = _tp_text_line_node (self->shown, self->pane, line);

      if (self->pane == TP_PANE_STABLEHLO && own != node)
        {
          guint n = 0;
          const TpMapRef *refs = tp_readings_get_map_refs (self->shown, TP_READING_STABLEHLO, line, &n);
          const TpFold *fold = n > 0 ? _tp_text_pane_fold (self, self->shown, line) : NULL;

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

/* Once the view has laid the reading out (its lines' heights are then
 * measured, not estimated), the divider goes to the top, at once: not
 * in the view's smooth scroll, which a screenshot or a glance at a new
 * reading would catch half way. */
static gboolean
tp_text_pane_divider_scroll_cb (gpointer data)
{
  TpTextPane *self = data;
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->view));
  GtkTextIter iter;
  int y = 0, height = 0;

  self->divider_idle = 0;
  if (vadjustment == NULL || self->divider_line < 0)
    return G_SOURCE_REMOVE;
  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (self->buffer), &iter, self->divider_line);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->view), &iter, &y, &height);
  gtk_adjustment_set_value (vadjustment,
                            MIN ((double) (y + gtk_text_view_get_top_margin (GTK_TEXT_VIEW (self->view))),
                                 gtk_adjustment_get_upper (vadjustment) - gtk_adjustment_get_page_size (vadjustment)));
  return G_SOURCE_REMOVE;
}

/* The derivative opens at its divider (the map's TP_ROLE_DIVIDER line):
 * the gradient appended under it is the point of that pane, the lines
 * above repeat the spec.  A reader who has scrolled past the divider
 * into the gradient stays where they are. */
void
_tp_text_pane_show_divider (TpTextPane *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->view));
  GtkTextIter iter;
  int y = 0, height = 0;
  guint n_lines, line;

  self->divider_line = -1;
  if (self->pane != TP_PANE_DERIVATIVE || self->shown == NULL)
    return;
  n_lines = self->shown->n_map_lines[TP_READING_DERIVATIVE];
  for (line = 0; line < n_lines; line++)
    if (tp_readings_get_map_line (self->shown, TP_READING_DERIVATIVE, line)->role == TP_ROLE_DIVIDER)
      break;
  if (line == n_lines || line > G_MAXINT)
    return;
  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) line);
  gtk_text_view_get_line_yrange (GTK_TEXT_VIEW (self->view), &iter, &y, &height);
  if (vadjustment != NULL && gtk_adjustment_get_value (vadjustment) > y && y > 0)
    return;
  self->divider_line = (int) line;
  /* the cursor too, so the view keeps that line in sight (no node is
   * selected by it: the pane has no focus) */
  if (!gtk_widget_has_focus (GTK_WIDGET (self->view)))
    {
      self->updating = TRUE;
      gtk_text_buffer_place_cursor (buffer, &iter);
      self->updating = FALSE;
    }
  if (self->divider_idle == 0)
    self->divider_idle = g_idle_add_full (G_PRIORITY_LOW, tp_text_pane_divider_scroll_cb, self, NULL);
}

/* The decoration tags of a new pane's buffer: colours only, so putting
 * one on or off costs a redraw, never a new layout of the lines (a bold
 * tag taken off a whole reading has GTK lay out every line again);
 * their colours are the style's (tp_text_pane_apply_style). */
void
_tp_text_pane_create_tags (TpTextPane *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);

  gtk_text_buffer_create_tag (buffer, "derived", NULL);
  gtk_text_buffer_create_tag (buffer, "divider", NULL);
  gtk_text_buffer_create_tag (buffer, "summary", NULL);
  gtk_text_buffer_create_tag (buffer, "note", "wrap-mode", GTK_WRAP_WORD_CHAR, NULL);
  gtk_text_buffer_create_tag (buffer, "kept", NULL);
  gtk_text_buffer_create_tag (buffer, "selected", NULL);
  gtk_text_buffer_create_tag (buffer, "selected-ref", NULL);
  for (guint k = 0; k < HLO_N_KINDS; k++)
    self->hlo_tags[k] = gtk_text_buffer_create_tag (buffer, hlo_kinds[k].tag, NULL);
}

/* StableHLO's token colours, from @scheme's styles. */
void
_tp_text_pane_style_tokens (TpTextPane           *self,
                            GtkSourceStyleScheme *scheme)
{
  for (guint k = 0; k < HLO_N_KINDS; k++)
    {
      GtkSourceStyle *style = NULL;

      for (guint i = 0; scheme != NULL && style == NULL && hlo_kinds[k].styles[i] != NULL; i++)
        style = gtk_source_style_scheme_get_style (scheme, hlo_kinds[k].styles[i]);
      gtk_source_style_apply (style, self->hlo_tags[k]);
    }
}
