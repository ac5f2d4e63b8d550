/* tp-picture-worker.h: the application's side of the layout worker.
 *
 * Graphviz is neither thread-safe nor interruptible, so every layout and
 * every export of the app goes through one worker process, one request
 * at a time: a TpPictureWorker owns that process, the app thread that
 * talks to it, and the layouts kept for reuse.  The application owns one
 * (tp_application_get_picture_worker) and hands it to its windows'
 * picture panes.  Work for a DOT that is no longer current is dropped
 * (cancel its GCancellable). */
#pragma once

#include <gio/gio.h>

#include "tp-picture-layout.h"

G_BEGIN_DECLS

#define TP_TYPE_PICTURE_WORKER (tp_picture_worker_get_type ())

G_DECLARE_FINAL_TYPE (TpPictureWorker, tp_picture_worker, TP, PICTURE_WORKER, GObject)

/* @program_dir: the folder of the running program, where the worker
 * program is looked for first (the build tree; a relocated install), or
 * NULL.  TP_LAYOUT_WORKER, when set, names the worker instead; else the
 * folder it is installed in is tried. */
TpPictureWorker *tp_picture_worker_new            (const char           *program_dir);
/* The worker program that would be started, or NULL with @error. */
char            *tp_picture_worker_find_program   (TpPictureWorker      *self,
                                                   GError              **error);

/* Lays out @dot; @callback runs on the caller's main context.  Cancel
 * @cancellable to drop the work: a layout that has not started is
 * skipped, a short one that has is thrown away when done, a long one is
 * stopped. */
void             tp_picture_worker_layout_async   (TpPictureWorker      *self,
                                                   const char           *dot,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* Lays out @dot as the pane shows it (tp-picture-screen.h): set tighter,
 * its legend apart (tp_picture_layout_get_legend), its target found
 * (tp_picture_layout_get_target).  Finished with layout_finish. */
void             tp_picture_worker_screen_async   (TpPictureWorker      *self,
                                                   const char           *dot,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
TpPictureLayout *tp_picture_worker_layout_finish  (TpPictureWorker      *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

/* Writes the picture of @dot as "svg" or "png" to @file, atomically; the
 * bytes are those `topos --svg` and `topos --png` write for the same
 * program.  "png-light" and "png-dark" draw the PNG over the light or
 * the dark view's background instead of a transparent one (for slides). */
void             tp_picture_worker_export_async   (TpPictureWorker      *self,
                                                   const char           *dot,
                                                   const char           *format,
                                                   GFile                *file,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
gboolean         tp_picture_worker_export_finish  (TpPictureWorker      *self,
                                                   GAsyncResult         *result,
                                                   GError              **error);

/* How many requests graphviz has served (for the benchmark and tests: a
 * layout served from the cache does not count), and how many worker
 * processes were started for them. */
guint            tp_picture_worker_get_n_layouts  (TpPictureWorker      *self);
guint            tp_picture_worker_get_n_workers  (TpPictureWorker      *self);

G_END_DECLS
