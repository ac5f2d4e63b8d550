/* tp-picture-layout.c: the picture laid out by graphviz in a worker
 * process, and drawn here from graphviz's own drawing operations.
 *
 * Why a process.  Graphviz keeps global state, cannot be stopped in the
 * middle of a layout and leaks memory in every layout (about 56 KB for
 * the two-layers sample, 290 KB for a 600-node picture: tests/bench/
 * bench-ui measures it).  And its text layout (pango and harfbuzz, for
 * the labels' sizes) is not safe beside GTK's own text rendering on the
 * main thread: laid out in a thread of the app, it crashed inside
 * harfbuzz about once in a dozen runs of the UI tests.  So graphviz never
 * runs in the app, which does not even link it.  One worker process per
 * app lays out every picture and writes every export, one request at a
 * time: topos-layout-worker (tp-layout-worker.c), a program of its own,
 * started with its one mode, --serve.  It is found beside the app's
 * executable (the build tree), else where it is installed
 * (TP_LAYOUT_WORKER_DIR, the libexec directory); TP_LAYOUT_WORKER names
 * another one (tests).
 *
 * What comes back.  A layout is graphviz's xdot drawing operations, the
 * fonts they name as graphviz resolved them, and the node boxes for hit
 * tests (tp_render_node_bounds); tp-picture-xdot.c draws the operations
 * with cairo and Pango as graphviz's cairo renderer draws them, at any
 * scale.  Exports are the renderer's SVG text and PNG bytes, exactly
 * what `topos --svg` and `topos --png` write.
 *
 * The app side.  One thread (a GThreadPool of one) owns the worker
 * process: it writes a request, waits for the answer, parses the
 * operations and returns the layout through GTask to the caller's main
 * context, so the main thread never waits.  A request cancelled while it
 * waits is skipped; one cancelled while the worker runs it is killed
 * with the process once it has run for KILL_AFTER_MS (a small layout is
 * let finish, a big stale one is not waited for).  The process is
 * replaced after RECYCLE_AFTER requests, or sooner when it has grown past
 * RECYCLE_RSS_MB, which bounds graphviz's leak.  The last few layouts are
 * kept, so undo or a choice flipped back costs nothing. */
#include "tp-picture-config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp-layout-protocol.h"
#include "tp-picture-layout.h"
#include "tp-picture-xdot.h"

/* Picture pixels (96 dpi) per point. */
#define PX_PER_PT (96.0 / 72.0)
/* Layouts kept for reuse: a few, and not too much memory.  A layout's
 * parsed operations grow with its DOT text, so the DOT bytes bound
 * them. */
#define CACHE_SIZE 8
#define CACHE_DOT_BYTES (256u << 10)

#define WORKER_ENV "TP_LAYOUT_WORKER"
#define KILL_AFTER_MS 250
#define RECYCLE_AFTER 100
#define RECYCLE_RSS_MB 256

/* {==== layouts ====} */

typedef struct
{
  guint32 index;
  double x, y, width, height;   /* points */
} NodeBox;

struct _TpPictureLayout
{
  TpPictureDrawing *drawing;    /* graphviz's, in points */
  double width;                 /* points */
  double height;
  NodeBox *boxes;
  guint n_boxes;
  char *dot;                    /* the text it was made from (cache key) */
  gboolean degraded;
};

TpPictureLayout *
tp_picture_layout_ref (TpPictureLayout *self)
{
  return g_atomic_rc_box_acquire (self);
}

static void
tp_picture_layout_clear (TpPictureLayout *self)
{
  g_clear_pointer (&self->drawing, tp_picture_drawing_free);
  g_clear_pointer (&self->boxes, g_free);
  g_clear_pointer (&self->dot, g_free);
}

void
tp_picture_layout_unref (TpPictureLayout *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) tp_picture_layout_clear);
}

double
tp_picture_layout_get_width (TpPictureLayout *self)
{
  return self->width * PX_PER_PT;
}

double
tp_picture_layout_get_height (TpPictureLayout *self)
{
  return self->height * PX_PER_PT;
}

gboolean
tp_picture_layout_get_degraded (TpPictureLayout *self)
{
  return self->degraded;
}

/* Draws graphviz's operations: vector data, sharp at any scale.  Any
 * thread may call it, several at once: the drawing is immutable. */
void
tp_picture_layout_draw (TpPictureLayout *self,
                        cairo_t         *cr)
{
  cairo_save (cr);
  cairo_scale (cr, PX_PER_PT, PX_PER_PT);
  cairo_rectangle (cr, 0, 0, self->width, self->height);
  cairo_clip (cr);
  tp_picture_drawing_draw (self->drawing, cr);
  cairo_restore (cr);
}

/* As tp_render_node_at: later nodes are drawn on top. */
int
tp_picture_layout_node_at (TpPictureLayout *self,
                           double           x,
                           double           y)
{
  x /= PX_PER_PT;
  y /= PX_PER_PT;
  for (guint k = self->n_boxes; k-- > 0;)
    {
      const NodeBox *b = &self->boxes[k];

      if (x >= b->x && x <= b->x + b->width && y >= b->y && y <= b->y + b->height)
        return b->index <= G_MAXINT ? (int) b->index : -1;
    }
  return -1;
}

gboolean
tp_picture_layout_node_bounds (TpPictureLayout *self,
                               int              node,
                               double          *x,
                               double          *y,
                               double          *width,
                               double          *height)
{
  for (guint k = 0; node >= 0 && k < self->n_boxes; k++)
    if (self->boxes[k].index == (guint32) node)
      {
        *x = self->boxes[k].x * PX_PER_PT;
        *y = self->boxes[k].y * PX_PER_PT;
        *width = self->boxes[k].width * PX_PER_PT;
        *height = self->boxes[k].height * PX_PER_PT;
        return TRUE;
      }
  return FALSE;
}

/* {==== the cache ====} */

static GMutex cache_lock;
static GQueue cache = G_QUEUE_INIT;   /* TpPictureLayout, newest first */
static gsize cache_bytes;             /* their DOT texts together */

/* A kept layout of @dot, with a new reference, or NULL. */
static TpPictureLayout *
cache_lookup (const char *dot)
{
  TpPictureLayout *found = NULL;

  g_mutex_lock (&cache_lock);
  for (GList *l = cache.head; l != NULL; l = l->next)
    {
      TpPictureLayout *layout = l->data;

      if (strcmp (layout->dot, dot) == 0)
        {
          g_queue_unlink (&cache, l);
          g_queue_push_head_link (&cache, l);
          found = tp_picture_layout_ref (layout);
          break;
        }
    }
  g_mutex_unlock (&cache_lock);
  return found;
}

static void
cache_insert (TpPictureLayout *layout)
{
  g_mutex_lock (&cache_lock);
  g_queue_push_head (&cache, tp_picture_layout_ref (layout));
  cache_bytes += strlen (layout->dot);
  while (cache.length > CACHE_SIZE || (cache.length > 1 && cache_bytes > CACHE_DOT_BYTES))
    {
      TpPictureLayout *old = g_queue_pop_tail (&cache);

      cache_bytes -= strlen (old->dot);
      tp_picture_layout_unref (old);
    }
  g_mutex_unlock (&cache_lock);
}

/* {==== talking to the worker ====} */

typedef struct
{
  guint32 kind;
  GTask *task;
  char *dot;
  GFile *file;                  /* export */
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->task);
  g_free (job->dot);
  g_clear_object (&job->file);
  g_free (job);
}

/* The worker process, owned by the one app thread that talks to it;
 * `lock` guards what the main thread looks at when it cancels. */
static struct
{
  GMutex lock;
  GSubprocess *process;
  GOutputStream *to;
  GInputStream *from;
  guint served;                 /* requests since it started */
  guint serial;                 /* of the request in flight; 0 when idle */
  gint64 started;               /* when that request was sent, µs */
} worker;

static guint next_serial = 1;
static guint n_layouts;         /* atomic */
static guint n_starts;          /* atomic */

static void
worker_stop (gboolean kill)
{
  GSubprocess *process;

  g_mutex_lock (&worker.lock);
  process = g_steal_pointer (&worker.process);
  g_mutex_unlock (&worker.lock);
  if (process == NULL)
    return;
  if (kill)
    g_subprocess_force_exit (process);
  else
    g_output_stream_close (worker.to, NULL, NULL);
  g_subprocess_wait (process, NULL, NULL);
  g_clear_object (&worker.to);
  g_clear_object (&worker.from);
  g_object_unref (process);
}

/* The worker's executable: TP_LAYOUT_WORKER when set; else beside the
 * running program (the build tree, or a relocated install); else in the
 * directory it is installed in. */
static char *
find_worker (GError **error)
{
  const char *chosen = g_getenv (WORKER_ENV);
  g_autofree char *self = NULL;

  if (chosen != NULL && chosen[0] != '\0')
    return g_strdup (chosen);
  self = g_file_read_link ("/proc/self/exe", NULL);
  if (self != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self);
      g_autofree char *beside = g_build_filename (dir, TP_LAYOUT_WORKER_NAME, NULL);

      if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (beside, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&beside);
    }
#ifdef TP_LAYOUT_WORKER_DIR
  {
    g_autofree char *installed = g_build_filename (TP_LAYOUT_WORKER_DIR, TP_LAYOUT_WORKER_NAME, NULL);

    if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
      return g_steal_pointer (&installed);
  }
#endif
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               "the picture worker %s is not installed", TP_LAYOUT_WORKER_NAME);
  return NULL;
}

static gboolean
worker_start (GError **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *exe = NULL;
  GSubprocess *process;

  if (worker.process != NULL)
    return TRUE;
  exe = find_worker (error);
  if (exe == NULL)
    return FALSE;
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE
                                        | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  process = g_subprocess_launcher_spawn (launcher, error, exe, TP_LAYOUT_WORKER_MODE, NULL);
  if (process == NULL)
    return FALSE;
  worker.to = g_object_ref (g_subprocess_get_stdin_pipe (process));
  worker.from = g_object_ref (g_subprocess_get_stdout_pipe (process));
  worker.served = 0;
  g_mutex_lock (&worker.lock);
  worker.process = process;
  g_mutex_unlock (&worker.lock);
  g_atomic_int_inc (&n_starts);
  return TRUE;
}

/* The worker's resident memory in MB, or 0. */
static guint
worker_rss_mb (void)
{
  g_autofree char *path = NULL;
  g_autofree char *statm = NULL;
  const char *pid = worker.process != NULL ? g_subprocess_get_identifier (worker.process) : NULL;
  unsigned long size = 0, resident = 0;

  if (pid == NULL)
    return 0;
  path = g_strdup_printf ("/proc/%s/statm", pid);
  if (!g_file_get_contents (path, &statm, NULL, NULL) || sscanf (statm, "%lu %lu", &size, &resident) != 2)
    return 0;
  return (guint) (resident * (unsigned long) sysconf (_SC_PAGESIZE) / (1024 * 1024));
}

/* One request, one reply; NULL when the worker went away (killed, or it
 * failed). */
static GBytes *
worker_exchange (Job     *job,
                 GError **error)
{
  guint32 head[2] = { job->kind, (guint32) strlen (job->dot) };
  guint32 length = 0;
  gsize got = 0;
  guint8 *reply;

  if (!worker_start (error))
    return NULL;
  if (!g_output_stream_write_all (worker.to, head, sizeof head, NULL, NULL, error)
      || !g_output_stream_write_all (worker.to, job->dot, head[1], NULL, NULL, error)
      || !g_output_stream_flush (worker.to, NULL, error)
      || !g_input_stream_read_all (worker.from, &length, sizeof length, &got, NULL, error))
    return NULL;
  if (got != sizeof length || length > TP_LAYOUT_MAX_REPLY_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "the picture worker stopped");
      return NULL;
    }
  reply = g_malloc (length);
  if (!g_input_stream_read_all (worker.from, reply, length, &got, NULL, error) || got != length)
    {
      g_free (reply);
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "the picture worker stopped");
      return NULL;
    }
  return g_bytes_new_take (reply, length);
}

typedef struct
{
  const guint8 *p;
  const guint8 *end;
  gboolean bad;
} Reader;

static void
take (Reader *r,
      void   *out,
      gsize   n)
{
  if (r->bad || (gsize) (r->end - r->p) < n)
    {
      r->bad = TRUE;
      memset (out, 0, n);
      return;
    }
  memcpy (out, r->p, n);
  r->p += n;
}

static const guint8 *
take_bytes (Reader  *r,
            guint32 *length)
{
  const guint8 *data;

  take (r, length, sizeof *length);
  if (r->bad || (gsize) (r->end - r->p) < *length)
    {
      r->bad = TRUE;
      *length = 0;
      return NULL;
    }
  data = r->p;
  r->p += *length;
  return data;
}

/* Reads a reply into a layout (or, for an export, writes its file). */
static void
job_finish (Job    *job,
            GBytes *bytes)
{
  Reader r = { g_bytes_get_data (bytes, NULL), NULL, FALSE };
  guint32 ok, degraded, n_boxes, diag_len, payload_len;
  double width, height;
  const guint8 *diag, *payload;
  g_autofree NodeBox *boxes = NULL;
  g_autoptr(GError) error = NULL;

  r.end = r.p + g_bytes_get_size (bytes);
  take (&r, &ok, sizeof ok);
  take (&r, &degraded, sizeof degraded);
  take (&r, &width, sizeof width);
  take (&r, &height, sizeof height);
  take (&r, &n_boxes, sizeof n_boxes);
  if (!r.bad && n_boxes > (gsize) (r.end - r.p) / (sizeof (guint32) + 4 * sizeof (double)))
    r.bad = TRUE;
  boxes = g_new0 (NodeBox, r.bad ? 1 : n_boxes + 1);
  for (guint32 k = 0; !r.bad && k < n_boxes; k++)
    {
      take (&r, &boxes[k].index, sizeof boxes[k].index);
      take (&r, &boxes[k].x, sizeof (double));
      take (&r, &boxes[k].y, sizeof (double));
      take (&r, &boxes[k].width, sizeof (double));
      take (&r, &boxes[k].height, sizeof (double));
    }
  diag = take_bytes (&r, &diag_len);
  payload = take_bytes (&r, &payload_len);
  if (r.bad)
    {
      g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                               "the picture worker's answer is garbled");
      return;
    }
  if (!ok)
    {
      g_autofree char *why = g_strstrip (g_strndup ((const char *) diag, diag_len));

      g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               job->kind == TP_LAYOUT_REQUEST_LAYOUT ? "graphviz could not lay the picture out%s%s"
                                                           : "graphviz could not draw the picture%s%s",
                               why[0] != '\0' ? ": " : "", why);
      return;
    }

  if (job->kind == TP_LAYOUT_REQUEST_LAYOUT)
    {
      Reader p = { payload, payload + payload_len, FALSE };
      TpPictureDrawing *drawing = NULL;
      TpPictureLayout *layout;
      double dx, dy;
      guint32 n_fonts, ops_len;
      const guint8 *ops;
      g_autoptr(GPtrArray) fonts = g_ptr_array_new_with_free_func (g_free);

      take (&p, &dx, sizeof dx);
      take (&p, &dy, sizeof dy);
      take (&p, &n_fonts, sizeof n_fonts);
      for (guint32 k = 0; !p.bad && k < n_fonts; k++)
        for (guint half = 0; half < 2; half++)
          {
            guint32 n;
            const guint8 *text = take_bytes (&p, &n);

            if (text != NULL)
              g_ptr_array_add (fonts, g_strndup ((const char *) text, n));
          }
      g_ptr_array_add (fonts, NULL);
      ops = take_bytes (&p, &ops_len);
      if (!p.bad)
        drawing = tp_picture_drawing_new ((const char *) ops, ops_len, dx, dy,
                                          (const char *const *) fonts->pdata, &error);
      if (drawing == NULL)
        {
          g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                                   "the picture could not be read: %s",
                                   error != NULL ? error->message : "the worker's answer is garbled");
          return;
        }
      layout = g_atomic_rc_box_new0 (TpPictureLayout);
      layout->drawing = drawing;
      layout->width = width;
      layout->height = height;
      layout->boxes = g_steal_pointer (&boxes);
      layout->n_boxes = n_boxes;
      layout->dot = g_steal_pointer (&job->dot);
      layout->degraded = degraded != 0;
      cache_insert (layout);
      g_task_return_pointer (job->task, layout, (GDestroyNotify) tp_picture_layout_unref);
    }
  else if (!g_file_replace_contents (job->file, (const char *) payload, payload_len, NULL, FALSE,
                                     G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, &error))
    g_task_return_error (job->task, g_steal_pointer (&error));
  else
    g_task_return_boolean (job->task, TRUE);
}

/* A request cancelled while the worker runs it: kill the worker once the
 * request has run KILL_AFTER_MS, unless it finished meanwhile. */
static gboolean
kill_stale_cb (gpointer data)
{
  guint serial = GPOINTER_TO_UINT (data);
  gint64 now = g_get_monotonic_time ();
  guint wait_ms = 0;

  g_mutex_lock (&worker.lock);
  if (worker.serial == serial && worker.process != NULL)
    {
      gint64 ran_ms = (now - worker.started) / 1000;

      if (ran_ms >= KILL_AFTER_MS)
        g_subprocess_force_exit (worker.process);
      else
        wait_ms = (guint) (KILL_AFTER_MS - ran_ms);
    }
  g_mutex_unlock (&worker.lock);
  if (wait_ms > 0)
    g_timeout_add_full (G_PRIORITY_DEFAULT, wait_ms, kill_stale_cb, data, NULL);
  return G_SOURCE_REMOVE;
}

static void
job_cancelled_cb (GCancellable *cancellable,
                  gpointer      data)
{
  g_idle_add_full (G_PRIORITY_HIGH, kill_stale_cb, data, NULL);
}

static void
worker_func (gpointer data,
             gpointer user_data)
{
  Job *job = data;
  GCancellable *cancellable = g_task_get_cancellable (job->task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) reply = NULL;
  gulong cancel_id = 0;
  guint serial;

  /* Overtaken while it waited: nothing to do. */
  if (g_task_return_error_if_cancelled (job->task))
    {
      job_free (job);
      return;
    }

  g_mutex_lock (&worker.lock);
  serial = worker.serial = next_serial++;
  worker.started = g_get_monotonic_time ();
  g_mutex_unlock (&worker.lock);
  if (cancellable != NULL)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (job_cancelled_cb),
                                       GUINT_TO_POINTER (serial), NULL);

  /* A worker that died (killed for a stale request, or crashed) is
   * replaced, and the request tried once more unless it is stale. */
  for (guint attempt = 0; attempt < 2 && reply == NULL; attempt++)
    {
      g_clear_error (&error);
      reply = worker_exchange (job, &error);
      if (reply == NULL)
        worker_stop (TRUE);
      if (g_cancellable_is_cancelled (cancellable))
        break;
    }

  g_mutex_lock (&worker.lock);
  worker.serial = 0;
  g_mutex_unlock (&worker.lock);
  g_cancellable_disconnect (cancellable, cancel_id);
  g_atomic_int_inc (&n_layouts);

  if (g_task_return_error_if_cancelled (job->task))
    ;
  else if (reply == NULL)
    g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_FAILED,
                             "the picture worker failed: %s", error != NULL ? error->message : "no answer");
  else
    job_finish (job, reply);

  /* graphviz's leak stays in a process that is replaced now and then */
  if (worker.process != NULL && (++worker.served >= RECYCLE_AFTER || worker_rss_mb () > RECYCLE_RSS_MB))
    worker_stop (FALSE);
  job_free (job);
}

/* The one app thread that talks to the worker (never freed: the process
 * lives as long as the app). */
static GThreadPool *
get_pool (void)
{
  static GThreadPool *pool = NULL;

  if (g_once_init_enter (&pool))
    {
      GThreadPool *p = g_thread_pool_new (worker_func, NULL, 1, TRUE, NULL);

      g_once_init_leave (&pool, p);
    }
  return pool;
}

static void
push_job (Job *job)
{
  g_autoptr(GError) error = NULL;

  if (!g_thread_pool_push (get_pool (), job, &error))
    {
      g_task_return_error (job->task, g_steal_pointer (&error));
      job_free (job);
    }
}

/* {==== public ====} */

void
tp_picture_layout_new_async (const char          *dot,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  TpPictureLayout *kept;
  Job *job;

  g_return_if_fail (dot != NULL);

  g_task_set_source_tag (task, tp_picture_layout_new_async);
  if (strlen (dot) > TP_LAYOUT_MAX_DOT_BYTES)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                               "the graph is too large to draw");
      return;
    }
  if ((kept = cache_lookup (dot)) != NULL)
    {
      g_task_return_pointer (task, kept, (GDestroyNotify) tp_picture_layout_unref);
      return;
    }
  job = g_new0 (Job, 1);
  job->kind = TP_LAYOUT_REQUEST_LAYOUT;
  job->task = g_steal_pointer (&task);
  job->dot = g_strdup (dot);
  push_job (job);
}

TpPictureLayout *
tp_picture_layout_new_finish (GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
tp_picture_export_async (const char          *dot,
                         const char          *format,
                         GFile               *file,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Job *job;

  g_return_if_fail (dot != NULL);
  g_return_if_fail (G_IS_FILE (file));

  g_task_set_source_tag (task, tp_picture_export_async);
  if (g_strcmp0 (format, "svg") != 0 && g_strcmp0 (format, "png") != 0
      && g_strcmp0 (format, "png-light") != 0 && g_strcmp0 (format, "png-dark") != 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "pictures are exported as SVG or PNG");
      return;
    }
  if (strlen (dot) > TP_LAYOUT_MAX_DOT_BYTES)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                               "the graph is too large to draw");
      return;
    }
  job = g_new0 (Job, 1);
  job->kind = g_str_equal (format, "svg") ? TP_LAYOUT_REQUEST_SVG
              : g_str_equal (format, "png-light") ? TP_LAYOUT_REQUEST_PNG_LIGHT
              : g_str_equal (format, "png-dark") ? TP_LAYOUT_REQUEST_PNG_DARK
              : TP_LAYOUT_REQUEST_PNG;
  job->task = g_steal_pointer (&task);
  job->dot = g_strdup (dot);
  job->file = g_object_ref (file);
  push_job (job);
}

gboolean
tp_picture_export_finish (GAsyncResult  *result,
                          GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

guint
tp_picture_layout_get_n_layouts (void)
{
  return (guint) g_atomic_int_get (&n_layouts);
}

/* How many worker processes were started (for tests: a stale big layout
 * is abandoned by killing the worker). */
guint
tp_picture_layout_get_n_workers (void)
{
  return (guint) g_atomic_int_get (&n_starts);
}
