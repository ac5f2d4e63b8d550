/* tp-picture-worker.c: the application's side of the layout worker (see
 * tp-picture-worker.h).
 *
 * Why a process.  Graphviz keeps global state, cannot be stopped in the
 * middle of a layout and leaks memory in every layout (about 56 KB for
 * the two-layers sample, 290 KB for a 600-node picture: tests/bench/
 * bench-ui measures it).  And its text layout (pango and harfbuzz, for
 * the labels' sizes) is not safe beside GTK's own text rendering on the
 * main thread: laid out in a thread of the app, it crashed inside
 * harfbuzz about once in a dozen runs of the UI tests.  So graphviz never
 * runs in the app, which does not even link it.  One worker process per
 * application lays out every picture and writes every export, one
 * request at a time: topos-layout-worker (tp-layout-worker.c), a program
 * of its own, started with its one mode, --serve.
 *
 * The app side.  One thread (a GThreadPool of one) owns the worker
 * process: it writes a request, waits for the answer, reads it into a
 * layout (tp_picture_reply_read) and returns the layout through GTask to
 * the caller's main context, so the main thread never waits.  A request
 * cancelled while it waits is skipped; one cancelled while the worker
 * runs it is killed with the process once it has run for KILL_AFTER_MS
 * (a small layout is let finish, a big stale one is not waited for).  The
 * process is replaced after RECYCLE_AFTER requests, or sooner when it has
 * grown past RECYCLE_RSS_MB, which bounds graphviz's leak.  The last few
 * layouts are kept, so undo or a choice flipped back costs nothing. */
#include "tp-picture-config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tp-layout-protocol.h"
#include "tp-picture-worker.h"

/* Layouts kept for reuse: a few, and not too much memory.  A layout's
 * parsed operations grow with its DOT text, so the DOT bytes bound
 * them. */
#define CACHE_SIZE 8
#define CACHE_DOT_BYTES (256u << 10)

#define WORKER_ENV "TP_LAYOUT_WORKER"
#define KILL_AFTER_MS 250
#define RECYCLE_AFTER 100
#define RECYCLE_RSS_MB 256

struct _TpPictureWorker
{
  GObject parent_instance;

  char *program_dir;
  GThreadPool *pool;            /* the one thread that talks to the process */

  /* the process, owned by the pool's thread; `lock` guards what the
   * main thread looks at when it cancels */
  GMutex lock;
  GSubprocess *process;
  GOutputStream *to;
  GInputStream *from;
  guint served;                 /* requests since it started */
  guint serial;                 /* of the request in flight; 0 when idle */
  gint64 started;               /* when that request was sent, µs */
  guint next_serial;
  guint n_layouts;              /* atomic */
  guint n_starts;               /* atomic */

  /* the layouts kept, newest first, and their DOT texts' bytes */
  GMutex cache_lock;
  GQueue cache;
  gsize cache_bytes;
};

G_DEFINE_FINAL_TYPE (TpPictureWorker, tp_picture_worker, G_TYPE_OBJECT)

/* {==== the cache ====} */

/* A kept layout of @dot (as the screen shows it, or as it is), with a
 * new reference, or NULL. */
static TpPictureLayout *
cache_lookup (TpPictureWorker *self,
              const char      *dot,
              gboolean         screen)
{
  TpPictureLayout *found = NULL;

  g_mutex_lock (&self->cache_lock);
  for (GList *l = self->cache.head; l != NULL; l = l->next)
    {
      TpPictureLayout *layout = l->data;

      if (!tp_picture_layout_get_screen (layout) == !screen && strcmp (tp_picture_layout_get_dot (layout), dot) == 0)
        {
          g_queue_unlink (&self->cache, l);
          g_queue_push_head_link (&self->cache, l);
          found = tp_picture_layout_ref (layout);
          break;
        }
    }
  g_mutex_unlock (&self->cache_lock);
  return found;
}

static void
cache_insert (TpPictureWorker *self,
              TpPictureLayout *layout)
{
  g_mutex_lock (&self->cache_lock);
  g_queue_push_head (&self->cache, tp_picture_layout_ref (layout));
  self->cache_bytes += strlen (tp_picture_layout_get_dot (layout));
  while (self->cache.length > CACHE_SIZE || (self->cache.length > 1 && self->cache_bytes > CACHE_DOT_BYTES))
    {
      TpPictureLayout *old = g_queue_pop_tail (&self->cache);

      self->cache_bytes -= strlen (tp_picture_layout_get_dot (old));
      tp_picture_layout_unref (old);
    }
  g_mutex_unlock (&self->cache_lock);
}

/* {==== the process ====} */

typedef struct
{
  TpPictureWorker *worker;
  guint32 kind;
  GTask *task;
  char *dot;
  GFile *file;                  /* export */
  guint serial;                 /* once the worker has it */
} Job;

static void
job_free (Job *job)
{
  g_clear_object (&job->task);
  g_free (job->dot);
  g_clear_object (&job->file);
  g_clear_object (&job->worker);
  g_free (job);
}

static void
worker_stop (TpPictureWorker *self,
             gboolean         kill)
{
  GSubprocess *process;

  g_mutex_lock (&self->lock);
  process = g_steal_pointer (&self->process);
  g_mutex_unlock (&self->lock);
  if (process == NULL)
    return;
  if (kill)
    g_subprocess_force_exit (process);
  else
    g_output_stream_close (self->to, NULL, NULL);
  g_subprocess_wait (process, NULL, NULL);
  g_clear_object (&self->to);
  g_clear_object (&self->from);
  g_object_unref (process);
}

/**
 * tp_picture_worker_find_program:
 *
 * The worker's executable: TP_LAYOUT_WORKER when set; else beside the
 * running program (the build tree, or a relocated install); else in the
 * directory it is installed in.
 */
char *
tp_picture_worker_find_program (TpPictureWorker  *self,
                                GError          **error)
{
  const char *chosen = g_getenv (WORKER_ENV);

  g_return_val_if_fail (TP_IS_PICTURE_WORKER (self), NULL);

  if (chosen != NULL && chosen[0] != '\0')
    return g_strdup (chosen);
  if (self->program_dir != NULL)
    {
      g_autofree char *beside = g_build_filename (self->program_dir, TP_LAYOUT_WORKER_NAME, NULL);

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
worker_start (TpPictureWorker  *self,
              GError          **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *exe = NULL;
  GSubprocess *process;

  if (self->process != NULL)
    return TRUE;
  exe = tp_picture_worker_find_program (self, error);
  if (exe == NULL)
    return FALSE;
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE
                                        | G_SUBPROCESS_FLAGS_STDOUT_PIPE
                                        | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  process = g_subprocess_launcher_spawn (launcher, error, exe, TP_LAYOUT_WORKER_MODE, NULL);
  if (process == NULL)
    return FALSE;
  self->to = g_object_ref (g_subprocess_get_stdin_pipe (process));
  self->from = g_object_ref (g_subprocess_get_stdout_pipe (process));
  self->served = 0;
  g_mutex_lock (&self->lock);
  self->process = process;
  g_mutex_unlock (&self->lock);
  g_atomic_int_inc (&self->n_starts);
  return TRUE;
}

/* The worker's resident memory in MB, or 0. */
static guint
worker_rss_mb (TpPictureWorker *self)
{
  g_autofree char *path = NULL;
  g_autofree char *statm = NULL;
  const char *pid = self->process != NULL ? g_subprocess_get_identifier (self->process) : NULL;
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
worker_exchange (TpPictureWorker  *self,
                 Job              *job,
                 GError          **error)
{
  guint32 head[2] = { job->kind, (guint32) strlen (job->dot) };
  guint32 length = 0;
  gsize got = 0;
  guint8 *reply;

  if (!worker_start (self, error))
    return NULL;
  if (!g_output_stream_write_all (self->to, head, sizeof head, NULL, NULL, error)
      || !g_output_stream_write_all (self->to, job->dot, head[1], NULL, NULL, error)
      || !g_output_stream_flush (self->to, NULL, error)
      || !g_input_stream_read_all (self->from, &length, sizeof length, &got, NULL, error))
    return NULL;
  if (got != sizeof length || length > TP_LAYOUT_MAX_REPLY_BYTES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "the picture worker stopped");
      return NULL;
    }
  reply = g_malloc (length);
  if (!g_input_stream_read_all (self->from, reply, length, &got, NULL, error) || got != length)
    {
      g_free (reply);
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "the picture worker stopped");
      return NULL;
    }
  return g_bytes_new_take (reply, length);
}

/* Returns the reply as the layout it holds (kept for reuse), or writes
 * an export's file. */
static void
job_finish (Job    *job,
            GBytes *reply)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) payload = NULL;
  TpPictureLayout *layout = NULL;

  if (!tp_picture_reply_read (reply, job->kind, job->dot, &layout, &payload, &error))
    g_task_return_error (job->task, g_steal_pointer (&error));
  else if (layout != NULL)
    {
      cache_insert (job->worker, layout);
      g_task_return_pointer (job->task, layout, (GDestroyNotify) tp_picture_layout_unref);
    }
  else if (!g_file_replace_contents (job->file, g_bytes_get_data (payload, NULL), g_bytes_get_size (payload),
                                     NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL, &error))
    g_task_return_error (job->task, g_steal_pointer (&error));
  else
    g_task_return_boolean (job->task, TRUE);
}

typedef struct
{
  TpPictureWorker *worker;
  guint serial;
} Stale;

static void
stale_free (gpointer data)
{
  Stale *stale = data;

  g_object_unref (stale->worker);
  g_free (stale);
}

/* A request cancelled while the worker runs it: kill the worker once the
 * request has run KILL_AFTER_MS, unless it finished meanwhile. */
static gboolean
kill_stale_cb (gpointer data)
{
  Stale *stale = data;
  TpPictureWorker *self = stale->worker;
  gint64 now = g_get_monotonic_time ();
  guint wait_ms = 0;

  g_mutex_lock (&self->lock);
  if (self->serial == stale->serial && self->process != NULL)
    {
      gint64 ran_ms = (now - self->started) / 1000;

      if (ran_ms >= KILL_AFTER_MS)
        g_subprocess_force_exit (self->process);
      else
        wait_ms = (guint) (KILL_AFTER_MS - ran_ms);
    }
  g_mutex_unlock (&self->lock);
  if (wait_ms > 0)
    {
      Stale *again = g_new (Stale, 1);

      *again = (Stale) { g_object_ref (self), stale->serial };
      g_timeout_add_full (G_PRIORITY_DEFAULT, wait_ms, kill_stale_cb, again, stale_free);
    }
  return G_SOURCE_REMOVE;
}

static void
job_cancelled_cb (GCancellable *cancellable,
                  Job          *job)
{
  Stale *stale = g_new (Stale, 1);

  *stale = (Stale) { g_object_ref (job->worker), job->serial };
  g_idle_add_full (G_PRIORITY_HIGH, kill_stale_cb, stale, stale_free);
}

static void
worker_func (gpointer data,
             gpointer user_data)
{
  Job *job = data;
  TpPictureWorker *self = job->worker;
  GCancellable *cancellable = g_task_get_cancellable (job->task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) reply = NULL;
  gulong cancel_id = 0;

  /* Overtaken while it waited: nothing to do. */
  if (g_task_return_error_if_cancelled (job->task))
    {
      job_free (job);
      return;
    }

  g_mutex_lock (&self->lock);
  job->serial = self->serial = ++self->next_serial;
  self->started = g_get_monotonic_time ();
  g_mutex_unlock (&self->lock);
  if (cancellable != NULL)
    cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (job_cancelled_cb), job, NULL);

  /* A worker that died (killed for a stale request, or crashed) is
   * replaced, and the request tried once more unless it is stale. */
  for (guint attempt = 0; attempt < 2 && reply == NULL; attempt++)
    {
      g_clear_error (&error);
      reply = worker_exchange (self, job, &error);
      if (reply == NULL)
        worker_stop (self, TRUE);
      if (g_cancellable_is_cancelled (cancellable))
        break;
    }

  g_mutex_lock (&self->lock);
  self->serial = 0;
  g_mutex_unlock (&self->lock);
  g_cancellable_disconnect (cancellable, cancel_id);
  g_atomic_int_inc (&self->n_layouts);

  if (g_task_return_error_if_cancelled (job->task))
    ;
  else if (reply == NULL)
    g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_FAILED,
                             "the picture worker failed: %s", error != NULL ? error->message : "no answer");
  else
    job_finish (job, reply);

  /* graphviz's leak stays in a process that is replaced now and then */
  if (self->process != NULL && (++self->served >= RECYCLE_AFTER || worker_rss_mb (self) > RECYCLE_RSS_MB))
    worker_stop (self, FALSE);
  job_free (job);
}

static void
push_job (TpPictureWorker *self,
          Job             *job)
{
  g_autoptr(GError) error = NULL;

  job->worker = g_object_ref (self);
  if (!g_thread_pool_push (self->pool, job, &error))
    {
      g_task_return_error (job->task, g_steal_pointer (&error));
      job_free (job);
    }
}

/* {==== public ====} */

TpPictureWorker *
tp_picture_worker_new (const char *program_dir)
{
  TpPictureWorker *self = g_object_new (TP_TYPE_PICTURE_WORKER, NULL);

  self->program_dir = g_strdup (program_dir);
  return self;
}

static void
layout_async (TpPictureWorker     *self,
              guint32              kind,
              const char          *dot,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  TpPictureLayout *kept;
  Job *job;

  g_task_set_source_tag (task, tp_picture_worker_layout_async);
  if (strlen (dot) > TP_LAYOUT_MAX_DOT_BYTES)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "the graph is too large to draw");
      return;
    }
  if ((kept = cache_lookup (self, dot, kind == TP_LAYOUT_REQUEST_SCREEN)) != NULL)
    {
      g_task_return_pointer (task, kept, (GDestroyNotify) tp_picture_layout_unref);
      return;
    }
  job = g_new0 (Job, 1);
  job->kind = kind;
  job->task = g_steal_pointer (&task);
  job->dot = g_strdup (dot);
  push_job (self, job);
}

void
tp_picture_worker_layout_async (TpPictureWorker     *self,
                                const char          *dot,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (TP_IS_PICTURE_WORKER (self));
  g_return_if_fail (dot != NULL);

  layout_async (self, TP_LAYOUT_REQUEST_LAYOUT, dot, cancellable, callback, user_data);
}

void
tp_picture_worker_screen_async (TpPictureWorker     *self,
                                const char          *dot,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (TP_IS_PICTURE_WORKER (self));
  g_return_if_fail (dot != NULL);

  layout_async (self, TP_LAYOUT_REQUEST_SCREEN, dot, cancellable, callback, user_data);
}

TpPictureLayout *
tp_picture_worker_layout_finish (TpPictureWorker  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
tp_picture_worker_export_async (TpPictureWorker     *self,
                                const char          *dot,
                                const char          *format,
                                GFile               *file,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (TP_IS_PICTURE_WORKER (self));
  g_return_if_fail (dot != NULL);
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tp_picture_worker_export_async);
  if (g_strcmp0 (format, "svg") != 0 && g_strcmp0 (format, "png") != 0
      && g_strcmp0 (format, "png-light") != 0 && g_strcmp0 (format, "png-dark") != 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "pictures are exported as SVG or PNG");
      return;
    }
  if (strlen (dot) > TP_LAYOUT_MAX_DOT_BYTES)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "the graph is too large to draw");
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
  push_job (self, job);
}

gboolean
tp_picture_worker_export_finish (TpPictureWorker  *self,
                                 GAsyncResult     *result,
                                 GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

guint
tp_picture_worker_get_n_layouts (TpPictureWorker *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_WORKER (self), 0);

  return (guint) g_atomic_int_get (&self->n_layouts);
}

/* How many worker processes were started (for tests: a stale big layout
 * is abandoned by killing the worker). */
guint
tp_picture_worker_get_n_workers (TpPictureWorker *self)
{
  g_return_val_if_fail (TP_IS_PICTURE_WORKER (self), 0);

  return (guint) g_atomic_int_get (&self->n_starts);
}

/* Every job holds the worker, so this runs with none left (maybe in the
 * pool's own thread, as its last job goes: the pool is not waited for).
 * The process ends at the end of its input. */
static void
tp_picture_worker_finalize (GObject *object)
{
  TpPictureWorker *self = (TpPictureWorker *) object;

  g_thread_pool_free (self->pool, TRUE, FALSE);
  worker_stop (self, FALSE);
  g_queue_clear_full (&self->cache, (GDestroyNotify) tp_picture_layout_unref);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->cache_lock);
  g_free (self->program_dir);

  G_OBJECT_CLASS (tp_picture_worker_parent_class)->finalize (object);
}

static void
tp_picture_worker_class_init (TpPictureWorkerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tp_picture_worker_finalize;
}

static void
tp_picture_worker_init (TpPictureWorker *self)
{
  g_mutex_init (&self->lock);
  g_mutex_init (&self->cache_lock);
  g_queue_init (&self->cache);
  self->pool = g_thread_pool_new (worker_func, NULL, 1, TRUE, NULL);
}
