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

static inline void
tp_text_view_changed_cb (GtkWidget *view)
{
  gtk_widget_queue_resize (view);
  gtk_widget_queue_allocate (view);
}

/* GTK 4.8's text view brings its lines and its scrollbars' adjustments
 * up to date in its allocation, or else, when only a redraw was asked
 * for, in its snapshot.  An adjustment set in the middle of a frame's
 * drawing has its scrollbar's trough ask for an allocation that frame no
 * longer makes, and the trough is then drawn without one (GTK's warning
 * "Trying to snapshot GtkGizmo ... without a current allocation"): it
 * happened when a reading's text or its decoration changed as a frame
 * was due, on a busy machine (events, and so what a key changes, are
 * handled at the start of the frame, just before its layout).  So a
 * change of @buffer's text, and with @tags a tag put on or taken off,
 * asks for a new size and allocation of @view at once, and the frame
 * does that work in its layout, before anything is drawn.  (An
 * allocation alone can be lost: GTK stops passing it up at a parent
 * already marked, and the view was then drawn unallocated itself.)  Not
 * @tags for a buffer with syntax highlighting, whose tags GtkSourceView
 * puts on while it draws. */
static inline void
tp_text_view_allocate_on_change (GtkTextView   *view,
                                 GtkTextBuffer *buffer,
                                 gboolean       tags)
{
  static const char *const changes[] = { "changed", "apply-tag", "remove-tag" };

  for (guint i = 0; i < (tags ? G_N_ELEMENTS (changes) : 1); i++)
    g_signal_connect_object (buffer, changes[i], G_CALLBACK (tp_text_view_changed_cb), view,
                             G_CONNECT_SWAPPED | G_CONNECT_AFTER);
}

G_END_DECLS
