/* bench-ui-stall.c: bench-ui's heartbeat on the main loop (the longest
 * gap between two beats, and the CPU the main thread used in it) and, with
 * --trace-stalls, a watchdog that samples the main thread's stack once it
 * has not beaten for a while. */
#include "config.h"
#define _GNU_SOURCE 1   /* sigaction, SA_RESTART, backtrace */

#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-ui-stall.h"


static gint64 last_beat;
static gint64 watch_beat;        /* last_beat, for the watchdog thread */
gint64 bench_max_gap;
static gint64 last_cpu;          /* the main thread's CPU time at the last beat */
gint64 bench_max_busy;          /* µs: the most CPU it used between two beats */

static gint64
thread_cpu_usec (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* A gap between beats is the main thread busy, or waiting: for the X
 * server's answer, or for a core (both are the machine's, not the app's
 * work).  The CPU time it used in the gap tells them apart. */
static gboolean
heartbeat_cb (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_usec ();

  if (last_beat != 0 && now - last_beat > bench_max_gap)
    bench_max_gap = now - last_beat;
  if (last_beat != 0 && cpu - last_cpu > bench_max_busy)
    bench_max_busy = cpu - last_cpu;
  last_beat = now;
  last_cpu = cpu;
  __atomic_store_n (&watch_beat, now, __ATOMIC_RELAXED);
  return G_SOURCE_CONTINUE;
}


/* --trace-stalls MS: a watchdog thread signals the main thread every
 * millisecond once it has not beaten for MS; the handler keeps the main
 * thread's stack (what is keeping it busy), and the stacks are printed
 * when the benchmark ends, each with the stall it was taken in. */
#define TRACE_SAMPLES 20000
#define TRACE_DEPTH 48

typedef struct
{
  gint64 stall;                 /* the beat the stall began after */
  int depth;
  void *frames[TRACE_DEPTH];
} TraceSample;

static gint stall_trace_ms;
static pthread_t main_thread;
static TraceSample *trace_samples;
static int volatile n_trace_samples;
static gint64 volatile trace_stall;

static void
stall_signal_cb (int sig)
{
  int k = n_trace_samples;

  (void) sig;
  if (k >= TRACE_SAMPLES)
    return;
  trace_samples[k].stall = trace_stall;
  trace_samples[k].depth = backtrace (trace_samples[k].frames, TRACE_DEPTH);
  n_trace_samples = k + 1;
}

static gpointer
stall_watchdog (gpointer data)
{
  for (;;)
    {
      gint64 beat = __atomic_load_n (&watch_beat, __ATOMIC_RELAXED);

      g_usleep (1000);
      if (beat != 0 && beat == __atomic_load_n (&watch_beat, __ATOMIC_RELAXED)
          && g_get_monotonic_time () - beat > stall_trace_ms * 1000)
        {
          trace_stall = beat;
          pthread_kill (main_thread, SIGUSR2);
        }
    }
  return NULL;
}

void
bench_stall_trace_print (void)
{
  if (stall_trace_ms <= 0)
    return;
  stall_trace_ms = G_MAXINT / 1000;   /* the watchdog stops sampling */
  for (int k = 0; k < n_trace_samples; k++)
    {
      char **names = backtrace_symbols (trace_samples[k].frames, trace_samples[k].depth);

      fprintf (stderr, "\n== main thread stalled (stall %" G_GINT64_FORMAT "); its stack:\n", trace_samples[k].stall);
      for (int i = 0; names != NULL && i < trace_samples[k].depth; i++)
        fprintf (stderr, "%s\n", names[i]);
      free (names);
    }
}

void
bench_stall_reset (void)
{
  last_beat = 0;
  bench_max_gap = 0;
  bench_max_busy = 0;
}

void
bench_stall_start (int trace_ms)
{
  g_timeout_add_full (G_PRIORITY_HIGH, 1, heartbeat_cb, NULL, NULL);
  stall_trace_ms = trace_ms;
  if (stall_trace_ms > 0)
    {
      void *warm[4];
      struct sigaction action = { 0 };

      backtrace (warm, 4);      /* loads the unwinder outside the handler */
      main_thread = pthread_self ();
      trace_samples = g_new0 (TraceSample, TRACE_SAMPLES);
      action.sa_handler = stall_signal_cb;
      action.sa_flags = SA_RESTART;
      sigaction (SIGUSR2, &action, NULL);
      g_thread_unref (g_thread_new ("stall-watchdog", stall_watchdog, NULL));
    }
}
