/* tp-fold.c: the folding of long lines (see tp-fold.h). */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-fold.h"

/* Builds the folded form of @line (@length bytes, no '\n'): at most
 * @head_max bytes of its start and @tail_max of its end, cut after a
 * space where one is near so no number is split, and always on a UTF-8
 * character boundary, then " … ", the end, and the count with the "show
 * all" control (when @offer).  A line that fits in head_max + tail_max is kept whole,
 * with no marker and no suffix.  Fills @fold but its line and offset. */
char *
tp_fold_line (const char *line,
              gsize       length,
              gsize       head_max,
              gsize       tail_max,
              guint64     count,
              gboolean    elements,
              gboolean    offer,
              TpFold     *fold)
{
  /* Translators: between the start and the end of a folded line */
  const char *marker = _(" … ");
  /* Translators: the control that unfolds a folded line */
  const char *control = offer ? _("show all") : "";
  g_autofree char *counted = NULL;
  g_autofree char *number = NULL;
  gsize head, tail;
  GString *s;

  fold->length = length;
  fold->count = count;
  fold->elements = elements;
  if (length <= head_max + tail_max)
    {
      fold->head = length;
      fold->tail = fold->marker = fold->suffix = fold->control = 0;
      return g_strndup (line, length);
    }
  head = head_max;
  for (gsize k = 0; k < 40 && head - k > 0; k++)
    if (line[head - k - 1] == ' ')
      {
        head -= k;
        break;
      }
  while (head > 0 && (line[head] & 0xc0) == 0x80)
    head--;
  tail = length - tail_max;
  for (gsize k = 0; k < 40 && tail + k < length; k++)
    if (line[tail + k] == ' ')
      {
        tail += k + 1;
        break;
      }
  while (tail < length && (line[tail] & 0xc0) == 0x80)
    tail++;
  number = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  if (elements)
    /* Translators: after a folded values line; %s is a number */
    counted = g_strdup_printf (ngettext ("   [%s element] ", "   [%s elements] ", (gulong) MIN (count, G_MAXULONG)), number);
  else
    /* Translators: after a folded line; %s is a number */
    counted = g_strdup_printf (ngettext ("   [%s character] ", "   [%s characters] ", (gulong) MIN (count, G_MAXULONG)), number);
  s = g_string_sized_new (head + (length - tail) + 64);
  g_string_append_len (s, line, (gssize) head);
  g_string_append (s, marker);
  g_string_append_len (s, line + tail, (gssize) (length - tail));
  g_string_append (s, counted);
  g_string_append (s, control);
  fold->head = head;
  fold->tail = length - tail;
  fold->marker = strlen (marker);
  fold->control = strlen (control);
  fold->suffix = strlen (counted) + fold->control;
  return g_string_free (s, FALSE);
}

/* A byte offset of the full line as an offset of the shown line: a
 * place in the hidden middle goes to the marker's start. */
gsize
tp_fold_to_shown (const TpFold *fold,
                  gsize         at)
{
  if (at <= fold->head)
    return at;
  if (at < fold->length - fold->tail)
    return fold->head;
  return MIN (at, fold->length) - (fold->length - fold->tail) + fold->head + fold->marker;
}

/* A byte offset of the shown line as one of the full line, or -1 in the
 * marker and the suffix. */
gssize
tp_fold_to_full (const TpFold *fold,
                 gsize         at)
{
  if (at <= fold->head && (at < fold->head || fold->marker == 0))
    return (gssize) at;
  if (at < fold->head + fold->marker)
    return -1;
  at -= fold->head + fold->marker;
  if (at >= fold->tail)
    return -1;
  return (gssize) (fold->length - fold->tail + at);
}

/* Folds every line of @text over TP_FOLD_LIMIT bytes: *shown is the
 * text with those lines folded and *folds their folds in line order
 * (@count says what each counts).  FALSE, with *shown and *folds NULL,
 * when no line is that long. */
gboolean
tp_fold_text (const char       *text,
              TpFoldCountFunc   count,
              gpointer          user_data,
              char            **shown,
              TpFold          **folds,
              guint            *n_folds)
{
  GString *out = NULL;
  GArray *found = NULL;
  const char *p = text;

  *shown = NULL;
  *folds = NULL;
  *n_folds = 0;
  for (guint line = 0;; line++)
    {
      const char *nl = strchr (p, '\n');
      gsize len = nl != NULL ? (gsize) (nl - p) : strlen (p);

      if (len > TP_FOLD_LIMIT)
        {
          TpFold fold = { 0 };
          gboolean elements = FALSE;
          guint64 n = count != NULL ? count (line, &elements, user_data) : 0;
          g_autofree char *folded = NULL;

          if (!elements)
            n = (guint64) g_utf8_strlen (p, (gssize) len);
          folded = tp_fold_line (p, len, TP_FOLD_HEAD, TP_FOLD_TAIL, n, elements, TRUE, &fold);
          fold.line = line;
          fold.offset = (gsize) (p - text);
          if (out == NULL)
            {
              out = g_string_sized_new (65536);
              g_string_append_len (out, text, (gssize) (p - text));
              found = g_array_new (FALSE, FALSE, sizeof (TpFold));
            }
          g_string_append (out, folded);
          g_array_append_val (found, fold);
        }
      else if (out != NULL)
        g_string_append_len (out, p, (gssize) len);
      if (nl == NULL)
        break;
      if (out != NULL)
        g_string_append_c (out, '\n');
      p = nl + 1;
    }
  if (out == NULL)
    return FALSE;
  *shown = g_string_free (out, FALSE);
  *n_folds = found->len;
  *folds = (TpFold *) (void *) g_array_free (found, FALSE);
  return TRUE;
}

/* The fold of line @line among @folds (in line order), or NULL when the
 * line is whole. */
const TpFold *
tp_fold_find (const TpFold *folds,
              guint         n_folds,
              guint         line)
{
  guint lo = 0, hi = n_folds;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (folds[mid].line == line)
        return &folds[mid];
      if (folds[mid].line < line)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}
