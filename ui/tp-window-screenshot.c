/* tp-window-screenshot.c: whether every pane shows the readings of the
 * current text, and --screenshot: a PNG of the window once they do. */
#include "config.h"

#include <glib/gi18n.h>

#include "tp-window-private.h"

/* TRUE when every pane shows the readings of the current text. */
gboolean
tp_window_get_ready (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  if (tp_document_get_busy (self->document)
      || tp_picture_view_get_busy (TP_PICTURE_VIEW (self->panes[TP_PANE_PICTURE]))
      || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return FALSE;
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    if (tp_text_pane_get_busy (TP_TEXT_PANE (self->panes[p])))
      return FALSE;
  return TRUE;
}

/* Whether the five text readings of the current text are in their panes:
 * what "the six readings" means for the benchmarks, the picture's layout
 * (which may follow) aside. */
gboolean
tp_window_get_readings_ready (TpWindow *self)
{
  g_return_val_if_fail (TP_IS_WINDOW (self), FALSE);

  if (tp_document_get_busy (self->document))
    return FALSE;
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    if (tp_text_pane_get_busy (TP_TEXT_PANE (self->panes[p])))
      return FALSE;
  return TRUE;
}

/* Reads the current text at once and brings every text pane up to date
 * before returning (the picture's layout still comes from its worker):
 * the recompute-now hook of the tests. */
void
tp_window_recompute_now (TpWindow *self)
{
  g_return_if_fail (TP_IS_WINDOW (self));

  tp_document_recompute_now (self->document);
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    tp_text_pane_flush (TP_TEXT_PANE (self->panes[p]));
}

/* Renders the window as it is into a PNG (GTK's own snapshot, no screen
 * grab). */
gboolean
tp_window_save_png (TpWindow    *self,
                    const char  *path,
                    GError     **error)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (self));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (self));
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double left, top;

  /* The window's paintable includes the shadow of its client-side
   * decorations: drawn at its own size and cropped to the window, one
   * pixel for one (drawn into the window's size it would be scaled). */
  gtk_native_get_surface_transform (GTK_NATIVE (self), &left, &top);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot),
                          MAX (gdk_paintable_get_intrinsic_width (paintable), width),
                          MAX (gdk_paintable_get_intrinsic_height (paintable), height));
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || renderer == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("the window has nothing to draw yet"));
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT ((float) left, (float) top,
                                                              (float) width, (float) height));
  if (!gdk_texture_save_to_png (texture, path))
    {
      /* Translators: --screenshot's error; %s is the PNG's path */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("cannot write %s"), path);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  char *path;
  guint tick_id;
  guint frames;                 /* frames drawn since the window was ready */
  gint64 started;
} ScreenshotState;

static void
screenshot_state_free (gpointer data)
{
  ScreenshotState *state = data;

  g_free (state->path);
  g_free (state);
}

static gboolean
tp_window_screenshot_tick_cb (GtkWidget     *widget,
                              GdkFrameClock *clock,
                              gpointer       user_data)
{
  GTask *task = user_data;
  ScreenshotState *state = g_task_get_task_data (task);
  TpWindow *self = TP_WINDOW (widget);
  g_autoptr(GError) error = NULL;
  gboolean timed_out = g_get_monotonic_time () - state->started > 20 * G_USEC_PER_SEC;

  /* the teaching panes too: their results come after the readings */
  if ((!tp_window_get_ready (self) || tp_document_get_teaching_pending (self->document)) && !timed_out)
    {
      state->frames = 0;
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }
  /* Let the last readings draw before the snapshot. */
  if (++state->frames < 3 && !timed_out)
    {
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }
  /* The first frames of a new window may come before the window system
   * has shown it: then there is nothing to snapshot yet. */
  if (!tp_window_save_png (self, state->path, &error) && !timed_out)
    {
      gtk_widget_queue_draw (widget);
      return G_SOURCE_CONTINUE;
    }
  state->tick_id = 0;
  if (error == NULL)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
  return G_SOURCE_REMOVE;
}

/* Waits until every pane shows the current readings, then writes a PNG
 * of the window to @path. */
void
tp_window_screenshot_async (TpWindow            *self,
                            const char          *path,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;
  ScreenshotState *state;

  g_return_if_fail (TP_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tp_window_screenshot_async);
  state = g_new0 (ScreenshotState, 1);
  state->path = g_strdup (path);
  state->started = g_get_monotonic_time ();
  g_task_set_task_data (task, state, screenshot_state_free);
  state->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tp_window_screenshot_tick_cb,
                                                 task, g_object_unref);
}

gboolean
tp_window_screenshot_finish (TpWindow      *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
