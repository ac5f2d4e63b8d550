/* tp-text-update.c: a text pane's text brought up to date with a new
 * reading. */
#include "config.h"

#include <string.h>

#include "tp-text-pane-private.h"

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

void
_tp_text_update_free (TpTextUpdate *update)
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
  _tp_text_get_lines_bounds (buffer, line, line + (int) n, &a, &b);
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
      _tp_text_decorate_lines (buffer, update->flags, line, end);
      line = end + 1;
    }

  g_clear_pointer (&self->shown, tp_readings_unref);
  self->shown = g_steal_pointer (&update->readings);
  g_free (self->flags);
  self->flags = g_steal_pointer (&update->flags);
  self->n_flags = update->n_lines;
  g_clear_pointer (&self->update, _tp_text_update_free);
  g_queue_remove (&pending_panes, self);
  _tp_text_pane_update_names (self);
  _tp_text_pane_show_divider (self);
  _tp_text_pane_show_selected (self);
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

              _tp_text_hlo_tag_line (buffer, self->hlo_tags, update->readings,
                            tp_readings_get_fold (update->readings, TP_READING_STABLEHLO, (guint) line),
                            line, (gsize) ((nl != NULL ? nl : to) - p));
              p = nl != NULL ? nl + 1 : to;
            }
        }
      else
        _tp_text_decorate_lines (buffer, update->flags, update->line,
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
void
_tp_text_pane_update_text (TpTextPane *self)
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
          _tp_text_pane_show_selected (self);
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
      g_clear_pointer (&self->update, _tp_text_update_free);
      g_clear_pointer (&self->flags, g_free);
    }
  self->dirty = FALSE;
  g_array_set_size (self->expanded, 0);

  update = g_new0 (TpTextUpdate, 1);
  update->readings = readings != NULL ? tp_readings_ref (readings) : NULL;
  update->text = text;
  update->flags = _tp_text_line_flags_new (self->pane, readings, text, &update->n_lines);
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
      _tp_text_pane_update_text (self);
    }
  while (self->update != NULL)
    {
      gssize budget = G_MAXSSIZE;

      tp_text_pane_update_step (self, &budget);
    }
}

/* The pane goes: its update, if any, is dropped. */
void
_tp_text_pane_cancel_update (TpTextPane *self)
{
  g_queue_remove (&pending_panes, self);
  g_clear_pointer (&self->update, _tp_text_update_free);
}
