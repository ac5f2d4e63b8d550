/* tp-ui-test-window.h: what the window's tests read of a window: the
 * selected line of a text pane, whether the picture is shown, a widget's
 * click gesture. */
#pragma once

#include "tp-picture-view.h"
#include "tp-picture-worker.h"
#include "tp-text-pane.h"
#include "tp-window.h"

/* The test process's picture worker, as an application would own one
 * (its program is TP_LAYOUT_WORKER, which the suite's environment sets). */
static inline TpPictureWorker *
tp_test_picture_worker (void)
{
  static TpPictureWorker *worker = NULL;

  if (worker == NULL)
    worker = tp_picture_worker_new (NULL);
  return worker;
}

/* A window of no application, its picture laid out by the test's worker. */
static inline TpWindow *
tp_test_window_new (void)
{
  TpWindow *window = tp_window_new (NULL);

  tp_picture_view_set_worker (TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE)),
                              tp_test_picture_worker ());
  return window;
}

/* The line the "selected" tag starts on in a text pane, or NULL. */
static inline char *
selected_line (TpWindow *window,
               TpPane    pane)
{
  GtkTextView *view = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, pane)));
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "selected");
  GtkTextIter start, end;

  gtk_text_buffer_get_start_iter (buffer, &start);
  if (!gtk_text_iter_starts_tag (&start, tag) && !gtk_text_iter_forward_to_tag_toggle (&start, tag))
    return NULL;
  end = start;
  gtk_text_iter_forward_to_line_end (&end);
  return gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
}

/* Every pane is ready and the picture pane shows a laid-out picture. */
static inline gboolean
picture_shown (gpointer data)
{
  TpPictureView *picture = TP_PICTURE_VIEW (tp_window_get_pane (data, TP_PANE_PICTURE));

  return tp_window_get_ready (data) && tp_picture_view_has_picture (picture)
         && gtk_widget_get_width (tp_picture_view_get_canvas (picture)) > 0;
}

static inline GtkGesture *
find_click_gesture (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        return GTK_GESTURE (controller);
    }
  return NULL;
}
