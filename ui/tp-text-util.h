/* tp-text-util.h: small GtkTextBuffer helpers the editor and the panes
 * share. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Takes @tag off where it is, and nowhere else.  Taking a tag off a whole
 * buffer costs GTK work over every line even where the tag is not: a
 * tag that changes the size of a line has every line laid out again,
 * any other tag has every line's cached layout dropped (shaped again the
 * next time it is drawn). */
static inline void
tp_text_buffer_remove_tag_present (GtkTextBuffer *buffer,
                                   GtkTextTag    *tag)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_start_iter (buffer, &start);
  while (gtk_text_iter_starts_tag (&start, tag) || gtk_text_iter_forward_to_tag_toggle (&start, tag))
    {
      end = start;
      gtk_text_iter_forward_to_tag_toggle (&end, tag);
      gtk_text_buffer_remove_tag (buffer, tag, &start, &end);
      start = end;
    }
}

G_END_DECLS
