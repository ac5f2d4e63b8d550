/* test-window.h: what the window's tests (test-window*.c) share: a
 * window on the README sample, the panes against the engine, keys typed
 * at the end of the editor, the editor's selected line, the clipboard. */
#pragma once

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tp-picture-raster.h"
#include "tp-document.h"
#include "tp-editor.h"
#include "tp-picture-view.h"
#include "tp-samples.h"
#include "tp-style.h"
#include "tp-text-pane.h"
#include "tp-ui-test-util.h"
#include "tp-ui-test-keys.h"
#include "tp-ui-test-window.h"
#include "tp-window.h"

#define SUBPROCESS_TIMEOUT (60 * G_USEC_PER_SEC)

static inline TpWindow *
window_new_on_readme (void)
{
  TpWindow *window = tp_test_window_new ();

  tp_window_open_sample (window, "readme");
  tp_window_recompute_now (window);
  return window;
}

static inline char *
pane_text (TpWindow *window,
           TpPane    pane)
{
  return tp_text_pane_dup_text (TP_TEXT_PANE (tp_window_get_pane (window, pane)));
}

/* Every text pane shows exactly what the engine says, for the current
 * text and choices. */
static inline void
assert_panes_match_engine (TpWindow   *window,
                           const char *target,
                           const char *observe,
                           gboolean    exact)
{
  TpDocument *document = tp_window_get_document (window);
  g_autofree char *source = tp_document_dup_text (document);
  TpSession *session = tp_session_new ();
  const char *obs[1] = { observe };
  TpChoices choices = { .target = target, .observe = obs,
                        .n_observe = observe != NULL ? 1 : 0, .exact = exact };
  g_autofree char *summary = NULL;

  g_assert_cmpint (tp_session_compile (session, source, strlen (source), &choices), ==, TP_STATUS_OK);
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    {
      g_autofree char *text = pane_text (window, (TpPane) p);
      g_autofree char *reading = tp_text_pane_dup_reading (TP_TEXT_PANE (tp_window_get_pane (window, (TpPane) p)));
      TpReadings *readings = tp_document_get_readings (document);
      g_auto(GStrv) shown_lines = g_strsplit (text, "\n", -1);
      g_auto(GStrv) engine_lines = g_strsplit (tp_session_reading (session, (TpReading) p), "\n", -1);

      /* the reading whole; shown with its long lines folded, line for line */
      g_assert_cmpstr (reading, ==, tp_session_reading (session, (TpReading) p));
      g_assert_cmpstr (text, ==, tp_readings_get_shown_text (readings, (TpReading) p));
      g_assert_cmpuint (g_strv_length (shown_lines), ==, g_strv_length (engine_lines));
      for (guint l = 0; engine_lines[l] != NULL; l++)
        if (strlen (engine_lines[l]) <= TP_FOLD_LIMIT)
          g_assert_cmpstr (shown_lines[l], ==, engine_lines[l]);
        else
          g_assert_cmpuint (strlen (shown_lines[l]), <, TP_FOLD_HEAD + TP_FOLD_TAIL + 100);
    }
  summary = g_strchomp (g_strdup (tp_session_reading (session, TP_READING_SUMMARY)));
  g_assert_cmpstr (tp_window_get_summary (window), ==, summary);
  tp_session_free (session);
}

static inline void
type_at_end (TpDocument *document,
             const char *text)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert_interactive (buffer, &end, text, -1, TRUE);
}

static inline gboolean
window_ready (gpointer data)
{
  return tp_window_get_ready (data);
}

/* The editor line carrying the selected-statement highlight, or NULL. */
static inline const char *
selected_editor_line (TpWindow *window)
{
  static char line[256];
  GtkTextView *view = tp_editor_get_view (tp_window_get_editor (window));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "tp-selected");
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_start_iter (buffer, &start);
  if (tag == NULL
      || (!gtk_text_iter_starts_tag (&start, tag) && !gtk_text_iter_forward_to_tag_toggle (&start, tag)))
    return NULL;
  end = start;
  gtk_text_iter_forward_to_line_end (&end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
  g_strlcpy (line, text, sizeof line);
  return line;
}

typedef struct
{
  char *text;
  gboolean done;
} ClipboardRead;

static inline void
clipboard_read_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      data)
{
  ClipboardRead *read = data;

  read->text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  read->done = TRUE;
}

static inline gboolean
clipboard_read_done (gpointer data)
{
  return ((ClipboardRead *) data)->done;
}

static inline char *
clipboard_text (GtkWidget *widget)
{
  ClipboardRead read = { NULL, FALSE };

  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL, clipboard_read_cb, &read);
  g_assert_true (tp_test_wait_until (clipboard_read_done, &read, 20));
  return read.text;
}

/* A window on the README sample with the keyboard focus in the editor,
 * the debounce out of the way (only a shortcut reads the text again). */
static inline TpWindow *
window_focused_in_editor (GtkWidget **view)
{
  TpWindow *window = window_new_on_readme ();

  tp_document_set_recompute_delay (tp_window_get_document (window), 600000);
  g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
  *view = GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window)));
  g_assert_true (gtk_widget_grab_focus (*view));
  g_assert_true (gtk_widget_has_focus (*view));
  return window;
}
