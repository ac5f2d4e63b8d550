/* tp-reader.c: reading a program off the main thread (see tp-reader.h).
 *
 * The scheduling follows GNOME Text Editor's statistics object: the
 * owner bumps a generation with every change; the worker, a GThreadPool
 * of one, skips a read that a newer one overtook while it waited, and
 * the result goes back to the owner's main context, where the owner
 * drops it too when its generation is stale.  The session is touched by
 * the worker thread alone. */
#include "config.h"

#include <glib/gi18n.h>

#include "tp-priority.h"
#include "tp-reader.h"
#include "tp-teaching.h"

/* Compiles with @session and copies out what the document needs; the
 * worker's reads and the document's tp_document_recompute_now alike. */
void
tp_read_run (TpRead    *read,
             TpSession *session)
{
  const char *observe[1] = { read->observe };
  TpChoices choices = {
    .target = read->target,
    .observe = observe,
    .n_observe = read->observe != NULL ? 1 : 0,
    .exact = read->exact,
    .optimize = read->optimize,
    .direction = read->direction,
    .remat = (const char *const *) read->remat,
    .n_remat = read->remat != NULL ? g_strv_length (read->remat) : 0,
    .remat_auto = read->remat_auto,
  };

  if (read->lesson != NULL)
    tp_lesson_choices (tp_lesson_ref_get (read->lesson), &choices);

  if (session == NULL)
    {
      read->status = TP_STATUS_NO_MEMORY;
      read->line = read->column = 1;
      read->message = g_strdup (_("out of memory"));
      return;
    }
  read->status = tp_session_compile (session, read->source, read->length, &choices);
  if (read->status == TP_STATUS_OK)
    read->readings = tp_readings_new_from_session (session, read->source, read->length,
                                                   read->target, read->observe, read->exact);
  else
    {
      size_t n = 0;
      const TpDiag *diags = tp_session_diags (session, &n);

      if (n > 0)
        {
          read->line = diags[0].line;
          read->column = diags[0].column;
          read->message = g_strdup (diags[0].message);
        }
      else
        read->message = g_strdup (_("the program could not be read"));
    }
}

void
tp_read_teach (TpSession   *session,
               TpTeaching **teaching,
               TpChecked  **checked)
{
  *teaching = tp_teaching_new_from_session (session, NULL, NULL);
  *checked = tp_checked_new_from_session (session);
}

TpLessonGrade *
tp_read_grade (TpRead    *read,
               TpSession *session)
{
  TpGrade *grade;

  if (read->lesson == NULL || session == NULL)
    return NULL;
  grade = tp_lesson_grade (tp_lesson_ref_get (read->lesson), session,
                           read->answers, read->n_answers, read->grade_flags);
  if (grade != NULL && tp_grade_interrupted (grade))
    g_clear_pointer (&grade, tp_grade_free);
  return grade != NULL ? tp_lesson_grade_new (read->lesson, grade) : NULL;
}

void
tp_read_clear (TpRead *read)
{
  g_clear_pointer (&read->lesson, tp_lesson_ref_unref);
  g_clear_pointer (&read->answers, g_free);
  g_clear_pointer (&read->source, g_free);
  g_clear_pointer (&read->target, g_free);
  g_clear_pointer (&read->observe, g_free);
  g_clear_pointer (&read->direction, g_free);
  g_clear_pointer (&read->remat, g_strfreev);
  g_clear_pointer (&read->readings, tp_readings_unref);
  g_clear_pointer (&read->message, g_free);
}

/* Shared by the reader and its reads in flight (which may outlive it). */
typedef struct
{
  TpSession *session;
  int latest;                   /* atomic: the newest generation asked for */
  GWeakRef owner;
  TpReaderDoneFunc done;
  TpReaderTeachFunc teach;
  TpReaderPassFunc pass;
} TpReaderState;

static void
tp_reader_state_clear (TpReaderState *state)
{
  g_clear_pointer (&state->session, tp_session_free);
  g_weak_ref_clear (&state->owner);
}

struct _TpReader
{
  TpReaderState *state;
  GThreadPool *pool;
  GMainContext *context;
};

typedef struct
{
  TpReaderState *state;
  int generation;
  TpRead read;
  TpTeaching *teaching;         /* made after the readings */
  TpChecked *checked;
  TpLessonGrade *grade;         /* the lesson's, after the teaching */
  gboolean teach;               /* the teaching post, not the readings' */
  gboolean grade_only;          /* grade the last compile, compile nothing */
  gboolean pass_only;           /* copy a pass reading of the last compile */
  TpPass which;                 /* that pass */
  TpPassReading *pass;          /* and what came out */
} TpReadJob;

static void
tp_read_job_free (gpointer data)
{
  TpReadJob *job = data;

  g_atomic_rc_box_release_full (job->state, (GDestroyNotify) tp_reader_state_clear);
  tp_read_clear (&job->read);
  tp_teaching_free (job->teaching);
  tp_checked_free (job->checked);
  tp_lesson_grade_free (job->grade);
  tp_pass_reading_free (job->pass);
  g_free (job);
}

static gboolean
tp_reader_done_cb (gpointer data)
{
  TpReadJob *job = data;
  g_autoptr(GObject) owner = g_weak_ref_get (&job->state->owner);

  if (owner == NULL)
    return G_SOURCE_REMOVE;
  if (job->pass_only)
    job->state->pass (owner, job->generation, job->which, g_steal_pointer (&job->pass));
  else if (job->teach)
    job->state->teach (owner, job->generation, g_steal_pointer (&job->teaching),
                       g_steal_pointer (&job->checked), g_steal_pointer (&job->grade));
  else
    job->state->done (owner, job->generation, &job->read);
  return G_SOURCE_REMOVE;
}

/* The session's interrupt, and the teaching's: a newer read was asked
 * for. */
static gboolean
tp_read_job_stale (gpointer data)
{
  TpReadJob *job = data;

  return g_atomic_int_get (&job->state->latest) != job->generation;
}

static bool
tp_read_job_interrupted (void *data)
{
  return tp_read_job_stale (data);
}

static gboolean
tp_read_job_go_on (gpointer data)
{
  return !tp_read_job_stale (data);
}

/* After the readings: the teaching results of the same session, posted
 * on their own, unless a newer read overtook them (the check asks the
 * interrupt at every element or direction it checks); then the lesson's
 * grade (@lesson: a read with only the lesson and answers, taken over),
 * and with @compiled FALSE (the compile failed, or only a grade is
 * asked for) the grade alone. */
static void
tp_reader_teach (TpReaderState *state,
                 int            generation,
                 GMainContext  *context,
                 TpRead        *lesson,
                 gboolean       compiled)
{
  TpSession *session = state->session;
  TpReadJob *job = g_new0 (TpReadJob, 1);

  job->state = g_atomic_rc_box_acquire (state);
  job->generation = generation;
  job->teach = TRUE;
  job->read = *lesson;
  *lesson = (TpRead) { 0 };
  if (compiled)
    job->teaching = tp_teaching_new_from_session (session, tp_read_job_go_on, job);
  tp_session_set_interrupt (session, tp_read_job_interrupted, job);
  if (job->teaching != NULL && !tp_read_job_stale (job))
    job->checked = tp_checked_new_from_session (session);
  if ((job->teaching != NULL || !compiled) && !tp_read_job_stale (job))
    job->grade = tp_read_grade (&job->read, session);
  tp_session_set_interrupt (session, NULL, NULL);
  if (tp_read_job_stale (job))
    {
      tp_read_job_free (job);
      return;
    }
  g_main_context_invoke_full (context, G_PRIORITY_DEFAULT, tp_reader_done_cb, job, tp_read_job_free);
}

static void
tp_reader_worker_func (gpointer data,
                       gpointer user_data)
{
  TpReadJob *job = data;
  GMainContext *context = user_data;
  int priority;

  /* Skip a read that a newer edit overtook while it waited. */
  if (g_atomic_int_get (&job->state->latest) != job->generation
      || ((job->grade_only || job->pass_only) && job->state->session == NULL))
    {
      tp_read_job_free (job);
      return;
    }
  if (job->pass_only)
    {
      /* the session's compile is this generation's: the read pushed
       * before it ran first, and no newer one was pushed */
      int lowered = tp_priority_lower_thread ();

      job->pass = tp_pass_reading_new_from_session (job->state->session, job->which);
      tp_priority_restore_thread (lowered);
      g_main_context_invoke_full (context, G_PRIORITY_DEFAULT, tp_reader_done_cb, job, tp_read_job_free);
      return;
    }
  if (job->grade_only)
    {
      TpReaderState *state = g_atomic_rc_box_acquire (job->state);

      tp_reader_teach (state, job->generation, context, &job->read, FALSE);
      g_atomic_rc_box_release_full (state, (GDestroyNotify) tp_reader_state_clear);
      tp_read_job_free (job);
      return;
    }
  /* the pool shares its threads with GLib's others: lowered for the
   * reading only (tp-priority.h) */
  priority = tp_priority_lower_thread ();
  if (job->state->session == NULL)
    job->state->session = tp_session_new ();
  tp_read_run (&job->read, job->state->session);
  {
    /* the readings go first (the job is the main thread's then), the
     * teaching after */
    TpReaderState *state = g_atomic_rc_box_acquire (job->state);
    int generation = job->generation;
    gboolean ok = job->read.status == TP_STATUS_OK;
    TpRead lesson = { 0 };

    lesson.lesson = g_steal_pointer (&job->read.lesson);
    lesson.answers = g_steal_pointer (&job->read.answers);
    lesson.n_answers = job->read.n_answers;
    lesson.grade_flags = job->read.grade_flags;
    g_main_context_invoke_full (context, G_PRIORITY_DEFAULT, tp_reader_done_cb, job, tp_read_job_free);
    if ((ok || lesson.lesson != NULL) && g_atomic_int_get (&state->latest) == generation)
      tp_reader_teach (state, generation, context, &lesson, ok);
    tp_read_clear (&lesson);
    g_atomic_rc_box_release_full (state, (GDestroyNotify) tp_reader_state_clear);
  }
  tp_priority_restore_thread (priority);
}

/* A reader for @owner (held weakly): @done runs on the calling thread's
 * main context. */
TpReader *
tp_reader_new (GObject           *owner,
               TpReaderDoneFunc   done,
               TpReaderTeachFunc  teach)
{
  TpReader *self = g_new0 (TpReader, 1);

  self->state = g_atomic_rc_box_new0 (TpReaderState);
  g_weak_ref_init (&self->state->owner, owner);
  self->state->done = done;
  self->state->teach = teach;
  self->context = g_main_context_ref_thread_default ();
  self->pool = g_thread_pool_new (tp_reader_worker_func, self->context, 1, FALSE, NULL);
  return self;
}

/* Reads @read (taken over: cleared here) as generation @generation, the
 * newest from now on. */
void
tp_reader_push (TpReader *self,
                int       generation,
                TpRead   *read)
{
  g_autoptr(GError) error = NULL;
  TpReadJob *job = g_new0 (TpReadJob, 1);

  job->state = g_atomic_rc_box_acquire (self->state);
  job->generation = generation;
  job->read = *read;
  *read = (TpRead) { 0 };
  g_atomic_int_set (&self->state->latest, generation);
  if (!g_thread_pool_push (self->pool, job, &error))
    {
      g_warning ("Cannot start the reading worker: %s", error->message);
      tp_read_job_free (job);
    }
}

void
tp_reader_grade (TpReader *self,
                 int       generation,
                 TpRead   *read)
{
  TpReadJob *job = g_new0 (TpReadJob, 1);

  job->state = g_atomic_rc_box_acquire (self->state);
  job->generation = generation;
  job->grade_only = TRUE;
  job->read = *read;
  *read = (TpRead) { 0 };
  if (!g_thread_pool_push (self->pool, job, NULL))
    tp_read_job_free (job);
}

void
tp_reader_set_pass_func (TpReader         *self,
                         TpReaderPassFunc  pass)
{
  self->state->pass = pass;
}

void
tp_reader_pass (TpReader  *self,
                int        generation,
                TpPass     which)
{
  TpReadJob *job;

  g_return_if_fail (self->state->pass != NULL);

  job = g_new0 (TpReadJob, 1);
  job->state = g_atomic_rc_box_acquire (self->state);
  job->generation = generation;
  job->pass_only = TRUE;
  job->which = which;
  if (!g_thread_pool_push (self->pool, job, NULL))
    tp_read_job_free (job);
}

/* Queued reads are dropped; one in flight finishes on its own and finds
 * the owner gone. */
void
tp_reader_free (TpReader *self)
{
  if (self == NULL)
    return;
  g_atomic_int_set (&self->state->latest, G_MININT);
  g_weak_ref_set (&self->state->owner, NULL);
  g_thread_pool_free (self->pool, TRUE, FALSE);
  g_atomic_rc_box_release_full (self->state, (GDestroyNotify) tp_reader_state_clear);
  g_main_context_unref (self->context);
  g_free (self);
}
