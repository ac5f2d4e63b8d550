/* bench-ui: how fast the desktop playground answers an edit, how long
 * the main thread is ever kept busy, and how much memory graphviz keeps
 * over many layouts.  Not a test: it prints figures and asserts nothing
 * about time.  Run it under a display:
 *
 *   xvfb-run -a env GSK_RENDERER=cairo GTK_A11Y=none build/tests/ui/bench-ui
 *
 * Parts:
 *   edits     EDITS edits spread over every sample, then EDITS edits on a
 *             generated 300-line program.  Each edit replaces the last
 *             line with a new statement (so every reading and the picture
 *             change) and waits until every pane shows the readings of
 *             the new text ("ready": the document has applied them, every
 *             text pane holds them, the picture pane shows their layout)
 *             and the window has painted them.  Then EDITS / 4 edits at
 *             the top of the 300-line program, a statement and a comment
 *             by turns, so every node is renumbered and every line of
 *             every reading changes.  Timed twice: with the document's
 *             debounce (what a reader sees) and with no debounce (the
 *             reading work alone).
 *   typing    characters typed one at a time, 30 ms apart, into the
 *             README sample: the longest main-thread stall while typing,
 *             and the time from the last key to every pane.
 *   big       the README sample, then `x = parameter [N, N]` and
 *             `loss = sum(x @ x)` for N = 600 and 1000 (refused: over the
 *             work limit), and `sum(x * x)` for N = 1000 (it reads: a
 *             million-element values line, shown folded): load to ready,
 *             keys typed to the next painted frame, the longest stall
 *             (and the longest while loading), "show all" on the first
 *             folded values line, and resident memory after going back
 *             to the sample.
 *   stall     all through the above, a 1 ms heartbeat on the main loop:
 *             the longest gap between two beats is the longest time the
 *             main thread did not get to run (input would wait that long),
 *             and "busy" the most CPU time the main thread used between
 *             two beats (the rest of a gap it waited: for the X server's
 *             answer, or for a core taken by other processes).  Frames
 *             (before-paint to after-paint) longer than 8 ms are counted.
 *   select    every node of the attention and NaN samples selected in
 *             turn: selection to the next painted frame, and the longest
 *             stall (the sentence bar's label is laid out anew each time).
 *   teach     for the MLP sample and the 300-line program: the median
 *             time to draw the memory chart (the rows of a 1200 x 600
 *             view and the curve, into an image), and, while a new
 *             reading arrives and every pane (the teaching panes
 *             included, the step-through at a step so the picture's
 *             states are made) takes it, the most CPU time the main
 *             thread used between two heartbeats.
 *   relayouts RELAYOUTS layouts of distinct DOT texts of the two-layers
 *             sample, then RELAYOUTS / 10 of the 300-line program's
 *             picture, through the picture's worker (no cache hits): the
 *             app's resident memory before and after, per layout (graphviz
 *             runs and leaks in the worker process, which is replaced
 *             every so often; the count of workers started is printed).
 *
 * Usage: bench-ui [--edits N] [--relayouts N] [--focus PANE] [--trace-stalls MS] [--skip-edits] [--skip-relayouts] [--skip-big] [--big-only N] [--teach-only]
 *   --focus PANE  shows pane PANE (0 spec ... 5 picture) alone instead of all six
 *   --big-only N  only the big-tensor part, with [N, N] (for a profiler)
 *   --trace-stalls MS  samples the main thread's stack every millisecond
 *                 once it has not beaten for MS, and prints the samples
 *                 (to stderr) at the end: what keeps it busy */
#include "config.h"
#define _GNU_SOURCE 1   /* malloc_trim, clock_gettime */

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tp-application.h"
#include "tp-document.h"
#include "tp-memory-chart.h"
#include "tp-picture-layout.h"
#include "tp-picture-view.h"
#include "tp-picture-worker.h"
#include "tp-samples.h"
#include "tp-teach-panel.h"
#include "tp-text-pane.h"
#include "tp-window.h"

#include "bench-ui-stall.h"

static gint stall_trace_ms;      /* --trace-stalls */
static gint64 max_frame;

/* {==== figures ====} */

static int
cmp_double (const void *a,
            const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static void
print_times (const char *what,
             GArray     *ms)
{
  double *v = (double *) (void *) ms->data;
  guint n = ms->len;

  if (n == 0)
    return;
  qsort (v, n, sizeof *v, cmp_double);
  printf ("  %-44s n=%-4u median %7.1f ms   p90 %7.1f ms   max %7.1f ms\n",
          what, n, v[n / 2], v[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1], v[n - 1]);
}

static double
rss_mb (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  double kb = 0;

  malloc_trim (0);
  if (f == NULL)
    return 0;
  while (fgets (line, sizeof line, f) != NULL)
    if (strncmp (line, "VmRSS:", 6) == 0)
      kb = g_ascii_strtod (line + 6, NULL);
  fclose (f);
  return kb / 1024.0;
}

/* {==== waiting ====} */

static gboolean painted;
static gint64 paint_started;
/* max_frame: µs, the longest layout + paint of a frame */

static guint n_frames;           /* frames painted, in all */
static guint n_long_frames;      /* of which longer than 8 ms */
static gint64 layout_done;
static gint64 max_layout;       /* µs: the longest layout phase */

static void
before_layout_cb (GdkFrameClock *clock,
                  gpointer       data)
{
  paint_started = g_get_monotonic_time ();
}

static void
layout_done_cb (GdkFrameClock *clock,
                gpointer       data)
{
  layout_done = g_get_monotonic_time ();
  if (paint_started != 0 && layout_done - paint_started > max_layout)
    max_layout = layout_done - paint_started;
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       data)
{
  gint64 took = g_get_monotonic_time () - paint_started;

  if (paint_started != 0 && took > max_frame)
    max_frame = took;
  if (paint_started != 0)
    {
      n_frames++;
      n_long_frames += took > 8000;
    }
  paint_started = 0;
  painted = TRUE;
}

/* Runs the main loop until the window is ready; returns FALSE after
 * 30 s. */
static gboolean
wait_ready (TpWindow *window)
{
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (!tp_window_get_ready (window) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  return tp_window_get_ready (window);
}

static void
wait_painted (TpWindow *window)
{
  gint64 end = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  painted = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (window));
  while (!painted && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
}

static void
wait_ms (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
}

/* {==== programs and edits ====} */

/* A deep chain of small layers, `lines` lines long, ending in `loss`. */
static char *
program_300 (void)
{
  GString *s = g_string_new ("# a 300-line program: a deep chain of small layers\nx = input [4, 8]\n");
  char prev[32] = "x";
  guint lines = 2, i = 0;

  while (lines < 299)
    {
      g_string_append_printf (s, "w%u = parameter [8, 8]\nh%u = tanh(%s @ w%u) + %s\n", i, i, prev, i, prev);
      g_snprintf (prev, sizeof prev, "h%u", i);
      lines += 2;
      i++;
    }
  g_string_append_printf (s, "loss = sum(%s * %s)\n", prev, prev);
  return g_string_free (s, FALSE);
}

/* Replaces line @index of the buffer (-1: the last) with @line, as one
 * user action. */
static void
replace_line (TpDocument *document,
              int         index,
              const char *line)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  GtkTextIter start, end;

  gtk_text_buffer_begin_user_action (buffer);
  if (index < 0)
    {
      gtk_text_buffer_get_end_iter (buffer, &end);
      start = end;
      gtk_text_iter_set_line_offset (&start, 0);
    }
  else
    {
      gtk_text_buffer_get_iter_at_line (buffer, &start, index);
      end = start;
      gtk_text_iter_forward_to_line_end (&end);
    }
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert (buffer, &start, line, -1);
  gtk_text_buffer_end_user_action (buffer);
}

typedef struct
{
  GArray *readings;             /* ms from the edit to the text readings */
  GArray *ready;                /* ms from the edit to every pane */
  GArray *painted;              /* ms from the edit to the frame showing it */
  gint64 stall;                 /* µs */
  gint64 busy;                  /* µs: of it, the main thread on a core */
  gint64 frame;                 /* µs: the longest frame */
  guint failed;
} Timings;

static void
timings_init (Timings *t)
{
  t->readings = g_array_new (FALSE, FALSE, sizeof (double));
  t->ready = g_array_new (FALSE, FALSE, sizeof (double));
  t->painted = g_array_new (FALSE, FALSE, sizeof (double));
  t->stall = 0;
  t->busy = 0;
  t->frame = 0;
  t->failed = 0;
}

static void
timings_clear (Timings *t)
{
  g_array_unref (t->readings);
  g_array_unref (t->ready);
  g_array_unref (t->painted);
}

/* @n edits on what @window shows: the last line becomes a statement
 * that refers to @name; or, with @name NULL, the first line (a comment)
 * becomes a statement and a comment again by turns, so every node of the
 * program is renumbered at every edit and every line of every reading
 * changes. */
static void
run_edits (TpWindow   *window,
           const char *name,
           guint       n,
           guint       first,
           Timings    *t)
{
  TpDocument *document = tp_window_get_document (window);

  for (guint k = 0; k < n; k++)
    {
      g_autofree char *line = name != NULL ? g_strdup_printf ("extra = %s * %u.5", name, first + k)
                                           : k % 2 == 0 ? g_strdup_printf ("early = %u.5", first + k)
                                           : g_strdup_printf ("# a comment %u", first + k);
      gint64 t0, tr, t1, t2, end;
      double ms;

      bench_stall_reset ();
      max_frame = 0;
      t0 = g_get_monotonic_time ();
      replace_line (document, name != NULL ? -1 : 0, line);
      /* The text readings first (the picture may follow), then the rest. */
      end = t0 + 30 * G_USEC_PER_SEC;
      while (!tp_window_get_readings_ready (window) && g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      tr = g_get_monotonic_time ();
      if (!wait_ready (window))
        {
          t->failed++;
          continue;
        }
      t1 = g_get_monotonic_time ();
      wait_painted (window);
      t2 = g_get_monotonic_time ();
      if (bench_max_gap > t->stall)
        t->stall = bench_max_gap;
      if (bench_max_busy > t->busy)
        t->busy = bench_max_busy;
      if (max_frame > t->frame)
        t->frame = max_frame;
      ms = (double) (tr - t0) / 1000.0;
      g_array_append_val (t->readings, ms);
      ms = (double) (t1 - t0) / 1000.0;
      g_array_append_val (t->ready, ms);
      ms = (double) (t2 - t0) / 1000.0;
      g_array_append_val (t->painted, ms);
    }
}

static int focus_pane = -1;     /* --focus: one pane alone, else tiled */

/* The benchmark's one picture worker, as an application owns one. */
static TpPictureWorker *
bench_worker (void)
{
  static TpPictureWorker *worker = NULL;

  if (worker == NULL)
    worker = tp_picture_worker_new (NULL);
  return worker;
}

static TpWindow *
window_new (void)
{
  TpWindow *window = tp_window_new (NULL);

  tp_picture_view_set_worker (TP_PICTURE_VIEW (tp_window_get_pane (window, TP_PANE_PICTURE)), bench_worker ());
  tp_window_set_focus_layout (window, focus_pane >= 0, focus_pane >= 0 ? (TpPane) focus_pane : TP_PANE_PICTURE);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
  gtk_window_present (GTK_WINDOW (window));
  /* painted: the after-paint of the window's own frame clock */
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "before-paint",
                    G_CALLBACK (before_layout_cb), NULL);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "layout",
                    G_CALLBACK (layout_done_cb), NULL);
  g_signal_connect (gtk_widget_get_frame_clock (GTK_WIDGET (window)), "after-paint",
                    G_CALLBACK (after_paint_cb), NULL);
  return window;
}

/* Opens @text (or a sample), appends the line the edits replace, and
 * waits for the first readings. */
static void
window_load (TpWindow   *window,
             const char *sample,
             const char *text)
{
  TpDocument *document = tp_window_get_document (window);
  g_autofree char *with_extra = NULL;

  if (sample != NULL)
    {
      g_autofree char *sample_text = tp_samples_dup_text (sample);
      tp_window_open_sample (window, sample);
      with_extra = g_strconcat (sample_text, "extra = 1.0", NULL);
    }
  else
    with_extra = g_strconcat (text, "extra = 1.0", NULL);
  tp_document_set_text (document, with_extra);
  wait_ready (window);
  wait_painted (window);
}

static void
bench_edits (guint edits,
             guint delay_ms)
{
  guint n_samples = 0;
  const TpSample *samples = tp_samples_get (&n_samples);
  g_autofree char *big = program_300 ();
  TpWindow *window = window_new ();
  Timings small, large, top;
  guint done = 0;

  tp_document_set_recompute_delay (tp_window_get_document (window), delay_ms);
  timings_init (&small);
  timings_init (&large);
  timings_init (&top);
  for (guint i = 0; i < n_samples; i++)
    {
      guint n = edits / n_samples + (i < edits % n_samples ? 1 : 0);
      const char *name = samples[i].target != NULL ? samples[i].target : "loss";

      window_load (window, samples[i].id, NULL);
      run_edits (window, name, n, done, &small);
      done += n;
    }
  window_load (window, NULL, big);
  run_edits (window, "loss", edits, 0, &large);
  window_load (window, NULL, big);
  run_edits (window, NULL, MAX (edits / 4, 1), 0, &top);

  printf ("\nedit -> every pane, debounce %u ms (%s)\n", delay_ms,
          delay_ms > 0 ? "what a reader sees" : "the reading work alone");
  print_times ("samples: edit -> text readings", small.readings);
  print_times ("samples: edit -> all panes ready", small.ready);
  print_times ("samples: edit -> painted", small.painted);
  printf ("  %-44s %.1f ms (longest frame: %.1f ms; busy on a core at most %.1f ms of a stall)\n",
          "samples: longest main-thread stall",
          (double) small.stall / 1000.0, (double) small.frame / 1000.0, (double) small.busy / 1000.0);
  print_times ("300 lines: edit -> text readings", large.readings);
  print_times ("300 lines: edit -> all panes ready", large.ready);
  print_times ("300 lines: edit -> painted", large.painted);
  printf ("  %-44s %.1f ms (longest frame: %.1f ms; busy on a core at most %.1f ms of a stall)\n",
          "300 lines: longest main-thread stall",
          (double) large.stall / 1000.0, (double) large.frame / 1000.0, (double) large.busy / 1000.0);
  print_times ("300 lines, at the top: -> text readings", top.readings);
  print_times ("300 lines, edit at the top: -> all panes ready", top.ready);
  printf ("  %-44s %.1f ms (longest frame: %.1f ms; busy on a core at most %.1f ms of a stall)\n",
          "300 lines, at the top: longest stall",
          (double) top.stall / 1000.0, (double) top.frame / 1000.0, (double) top.busy / 1000.0);
  printf ("  longest layout phase %.1f ms; %u of %u frames took over 8 ms\n", (double) max_layout / 1000.0,
          n_long_frames, n_frames);
  n_frames = n_long_frames = 0;
  if (small.failed + large.failed + top.failed > 0)
    printf ("  %u edits never became ready within 30 s\n", small.failed + large.failed + top.failed);
  fflush (stdout);
  timings_clear (&small);
  timings_clear (&large);
  timings_clear (&top);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Types @text one character at a time, @gap_ms apart, at the end of the
 * README sample. */
static void
bench_typing (void)
{
  static const char text[] = "twice = loss * 2.0 + error / 4.0";
  TpWindow *window = window_new ();
  TpDocument *document = tp_window_get_document (window);
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  gint64 worst = 0, worst_busy = 0, last_key, ready;

  window_load (window, "readme", NULL);
  replace_line (document, -1, "");
  wait_ready (window);
  for (const char *p = text; *p != '\0'; p++)
    {
      GtkTextIter end;
      char c[2] = { *p, '\0' };

      bench_stall_reset ();
      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert_interactive (buffer, &end, c, 1, TRUE);
      wait_ms (30);
      if (bench_max_gap > worst)
        worst = bench_max_gap;
      worst_busy = MAX (worst_busy, bench_max_busy);
    }
  last_key = g_get_monotonic_time () - 30000;
  bench_stall_reset ();
  wait_ready (window);
  ready = g_get_monotonic_time ();
  if (bench_max_gap > worst)
    worst = bench_max_gap;
  worst_busy = MAX (worst_busy, bench_max_busy);
  printf ("\ntyping %zu characters 30 ms apart (README sample)\n", strlen (text));
  printf ("  %-44s %.1f ms (busy on a core at most %.1f ms of a stall)\n", "longest main-thread stall while typing",
          (double) worst / 1000.0, (double) worst_busy / 1000.0);
  printf ("  %-44s %.1f ms\n", "last key -> all panes ready", (double) (ready - last_key) / 1000.0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Loads the [n, n] program (0: the README sample), types a comment at its end one key at a
 * time, 60 ms apart, and goes back to the README sample: the time from
 * each key to the next painted frame, the longest stall and the resident
 * memory before, with, and after it. */
static void
bench_big (guint       n,
           const char *op)
{
  static const char keys[] = "# typed";
  TpWindow *window = window_new ();
  TpDocument *document = tp_window_get_document (window);
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  g_autofree char *program = n > 0 ? g_strdup_printf ("x = parameter [%u, %u]\nloss = sum(x %s x)\n", n, n, op)
                                   : tp_samples_dup_text ("readme");   /* the baseline */
  g_autoptr(GArray) to_screen = g_array_new (FALSE, FALSE, sizeof (double));
  gint64 worst = 0, worst_busy = 0, started, loaded_at, load_stall;
  double rss_start, rss_loaded, rss_peak, rss_back;
  double show_all_ms, show_all_paint_ms, show_all_busy_ms;

  window_load (window, "readme", NULL);
  wait_ms (500);
  rss_start = rss_mb ();
  bench_stall_reset ();
  started = g_get_monotonic_time ();
  tp_document_set_text (document, program);
  wait_ready (window);
  wait_painted (window);
  loaded_at = g_get_monotonic_time ();
  worst = load_stall = bench_max_gap;
  worst_busy = bench_max_busy;
  rss_loaded = rss_peak = rss_mb ();
  for (const char *p = keys; *p != '\0'; p++)
    {
      GtkTextIter end;
      gint64 key, limit;

      bench_stall_reset ();
      painted = FALSE;
      gtk_text_buffer_get_end_iter (buffer, &end);
      key = g_get_monotonic_time ();
      gtk_text_buffer_insert_interactive (buffer, &end, p, 1, TRUE);
      limit = key + 5 * G_USEC_PER_SEC;
      while (!painted && g_get_monotonic_time () < limit)
        g_main_context_iteration (NULL, TRUE);
      {
        double ms = (double) (g_get_monotonic_time () - key) / 1000.0;

        g_array_append_val (to_screen, ms);
      }
      wait_ms (60);
      worst = MAX (worst, bench_max_gap);
      worst_busy = MAX (worst_busy, bench_max_busy);
    }
  bench_stall_reset ();
  wait_ready (window);
  wait_ms (300);
  worst = MAX (worst, bench_max_gap);
  worst_busy = MAX (worst_busy, bench_max_busy);
  rss_peak = MAX (rss_peak, rss_mb ());
  /* "show all" on the values pane's first line */
  {
    TpTextPane *values = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_VALUES));
    gint64 t0, t1, t2;
    gboolean shown;

    tp_text_pane_flush (values);
    wait_painted (window);
    bench_stall_reset ();
    painted = FALSE;
    t0 = g_get_monotonic_time ();
    shown = tp_text_pane_show_all (values, 0);
    t1 = g_get_monotonic_time ();
    while (!painted && g_get_monotonic_time () < t1 + 5 * G_USEC_PER_SEC)
      g_main_context_iteration (NULL, TRUE);
    t2 = g_get_monotonic_time ();
    wait_ms (200);
    show_all_ms = shown ? (double) (t1 - t0) / 1000.0 : -1;
    show_all_paint_ms = (double) (t2 - t0) / 1000.0;
    show_all_busy_ms = (double) bench_max_busy / 1000.0;
  }
  window_load (window, "readme", NULL);
  wait_ms (1500);
  rss_back = rss_mb ();
  if (n > 0)
    printf ("\nbig tensors: x = parameter [%u, %u], loss = sum(x %s x)%s; %zu keys typed 60 ms apart\n",
            n, n, op, n >= 1000 && g_str_equal (op, "@") ? " (refused: over the work limit)" : "", strlen (keys));
  else
    printf ("\nthe same on the README sample (the baseline); %zu keys typed 60 ms apart\n", strlen (keys));
  printf ("  %-44s %.1f ms\n", "load -> ready and painted", (double) (loaded_at - started) / 1000.0);
  print_times ("key -> next painted frame", to_screen);
  printf ("  %-44s %.1f ms (busy on a core at most %.1f ms of a stall; %.1f ms while loading)\n",
          "longest main-thread stall", (double) worst / 1000.0, (double) worst_busy / 1000.0,
          (double) load_stall / 1000.0);
  if (show_all_ms >= 0)
    printf ("  %-44s %.1f ms, painted after %.1f ms (busy at most %.1f ms of a stall)\n",
            "show all on the first values line", show_all_ms, show_all_paint_ms, show_all_busy_ms);
  else
    printf ("  %-44s no folded line\n", "show all on the first values line");
  printf ("  %-44s %.1f MB start, %.1f loaded, %.1f peak, %.1f back at the sample (%+.1f)\n", "resident memory",
          rss_start, rss_loaded, rss_peak, rss_back, rss_back - rss_start);
  fflush (stdout);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* {==== relayouts ====} */

typedef struct
{
  gboolean done;
  gboolean ok;
} LayoutWait;

static void
layout_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      data)
{
  LayoutWait *wait = data;
  g_autoptr(GError) error = NULL;
  TpPictureLayout *layout = tp_picture_worker_layout_finish (TP_PICTURE_WORKER (object), result, &error);

  wait->ok = layout != NULL;
  if (layout != NULL)
    tp_picture_layout_unref (layout);
  wait->done = TRUE;
}

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The teaching panes' costs on the main thread for one program. */
static void
bench_teach_one (const char *label,
                 const char *sample,
                 const char *text)
{
  TpWindow *window = window_new ();
  TpDocument *document = tp_window_get_document (window);
  TpTeachPanel *panel = tp_window_get_teach_panel (window);
  TpMemoryChart *chart = TP_MEMORY_CHART (tp_teach_panel_get_memory_chart (panel));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1200, 600);
  cairo_t *cr = cairo_create (surface);
  gint64 draws[200], arrivals[20];
  guint n_steps, n_nodes;

  window_load (window, sample, text);
  n_steps = tp_document_get_readings (document)->teaching->n_steps;
  n_nodes = tp_document_get_readings (document)->n_nodes;
  tp_teach_panel_set_step (panel, (int) n_steps / 2);
  for (guint i = 0; i < G_N_ELEMENTS (draws); i++)
    {
      gint64 t0 = g_get_monotonic_time ();

      tp_memory_chart_draw (chart, cr, 1200, 0, 600);
      draws[i] = g_get_monotonic_time () - t0;
    }
  {
    g_autofree char *base = tp_document_dup_text (document);

    /* each edit makes a new reading (the worker reads it); the figure is
     * the most CPU the main thread used between two heartbeats while the
     * reading arrived and every pane took it */
    tp_document_set_recompute_delay (document, 0);
    for (guint i = 0; i < G_N_ELEMENTS (arrivals); i++)
      {
        g_autofree char *edited = g_strdup_printf ("%s\nextra%u = input [%u]\n", base, i % 2, i + 2);

        wait_painted (window);
        bench_max_busy = 0;
        tp_document_set_text (document, edited);
        wait_ready (window);
        wait_painted (window);
        arrivals[i] = bench_max_busy;
      }
  }
  qsort (draws, G_N_ELEMENTS (draws), sizeof draws[0], compare_gint64);
  qsort (arrivals, G_N_ELEMENTS (arrivals), sizeof arrivals[0], compare_gint64);
  printf ("  %-28s %u steps, %u nodes: memory chart draw median %.2f ms (max %.2f); "
          "a reading arrives: main thread busy at most median %.2f ms (max %.2f) between beats\n",
          label, n_steps, n_nodes,
          (double) draws[G_N_ELEMENTS (draws) / 2] / 1000.0, (double) draws[G_N_ELEMENTS (draws) - 1] / 1000.0,
          (double) arrivals[G_N_ELEMENTS (arrivals) / 2] / 1000.0,
          (double) arrivals[G_N_ELEMENTS (arrivals) - 1] / 1000.0);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Selecting each node of @sample in turn (its sentence in the bar, its
 * lines and picture node lit): selection to the next painted frame, and
 * the longest main-thread stall. */
static void
bench_select_one (const char *sample)
{
  TpWindow *window = window_new ();
  TpDocument *document = tp_window_get_document (window);
  g_autoptr(GArray) to_screen = g_array_new (FALSE, FALSE, sizeof (double));
  TpReadings *readings;
  gint64 worst = 0;
  guint n_nodes;

  window_load (window, sample, NULL);
  wait_ms (300);
  readings = tp_document_get_readings (document);
  n_nodes = readings != NULL ? readings->n_nodes : 0;
  for (guint node = 0; node < n_nodes; node++)
    {
      gint64 t0;
      double ms;

      bench_stall_reset ();
      painted = FALSE;
      t0 = g_get_monotonic_time ();
      tp_document_set_selected_node (document, (int) node);
      while (!painted && g_get_monotonic_time () < t0 + 5 * G_USEC_PER_SEC)
        g_main_context_iteration (NULL, TRUE);
      ms = (double) (g_get_monotonic_time () - t0) / 1000.0;
      g_array_append_val (to_screen, ms);
      wait_ms (20);
      worst = MAX (worst, bench_max_gap);
    }
  printf ("  %-28s %u nodes selected in turn\n", sample, n_nodes);
  print_times ("selection -> next painted frame", to_screen);
  printf ("  %-44s %.1f ms\n", "longest main-thread stall", (double) worst / 1000.0);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
bench_teach (void)
{
  g_autofree char *big = program_300 ();

  printf ("\nteaching panes\n");
  bench_teach_one ("mlp sample", "mlp", NULL);
  bench_teach_one ("300-line program", NULL, big);
  printf ("\nselecting nodes (the sentence bar, every pane's highlight)\n");
  bench_select_one ("attention");
  bench_select_one ("where-does-the-nan-come-from");
}

static char *
dot_of (const char *source)
{
  TpSession *session = tp_session_new ();
  char *dot;

  tp_session_compile (session, source, strlen (source), NULL);
  dot = g_strdup (tp_session_reading (session, TP_READING_DOT));
  tp_session_free (session);
  return dot;
}

/* @n layouts of @dot made distinct by a trailing comment (so the cache
 * never answers): resident memory before and after. */
static void
bench_relayouts (const char *what,
                 const char *dot,
                 guint       n)
{
  double before, after;
  gint64 t0;
  guint ok = 0;

  /* a few layouts first: graphviz loads its plugins and fonts once, and
   * the layouts kept for reuse (a handful) fill up */
  for (guint k = 0; k < 12; k++)
    {
      g_autofree char *warm = g_strdup_printf ("%s/* warm-up %u */\n", dot, k);
      LayoutWait wait = { FALSE, FALSE };

      tp_picture_worker_layout_async (bench_worker (), warm, NULL, layout_cb, &wait);
      while (!wait.done)
        g_main_context_iteration (NULL, TRUE);
    }
  before = rss_mb ();
  t0 = g_get_monotonic_time ();
  for (guint k = 0; k < n; k++)
    {
      g_autofree char *distinct = g_strdup_printf ("%s/* relayout %u */\n", dot, k);
      LayoutWait wait = { FALSE, FALSE };

      tp_picture_worker_layout_async (bench_worker (), distinct, NULL, layout_cb, &wait);
      while (!wait.done)
        g_main_context_iteration (NULL, TRUE);
      ok += wait.ok ? 1 : 0;
    }
  after = rss_mb ();
  printf ("  %-26s %4u layouts (%u ok), %6.1f ms each: app RSS %6.1f -> %6.1f MB, %+.1f MB, %+.0f KB per layout;"
          " worker processes started so far: %u\n",
          what, n, ok, (double) (g_get_monotonic_time () - t0) / 1000.0 / n,
          before, after, after - before, (after - before) * 1024.0 / n, tp_picture_worker_get_n_workers (bench_worker ()));
  fflush (stdout);
}

int
main (int   argc,
      char *argv[])
{
  guint edits = 100, relayouts = 500;
  gboolean skip_edits = FALSE, skip_relayouts = FALSE, skip_big = FALSE, teach_only = FALSE;
  guint big_only = 0;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--edits") && i + 1 < argc)
        edits = (guint) atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--relayouts") && i + 1 < argc)
        relayouts = (guint) atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--focus") && i + 1 < argc)
        focus_pane = atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--trace-stalls") && i + 1 < argc)
        stall_trace_ms = atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--skip-edits"))
        skip_edits = TRUE;
      else if (g_str_equal (argv[i], "--skip-relayouts"))
        skip_relayouts = TRUE;
      else if (g_str_equal (argv[i], "--skip-big"))
        skip_big = TRUE;
      else if (g_str_equal (argv[i], "--big-only") && i + 1 < argc)
        big_only = (guint) atoi (argv[++i]);
      else if (g_str_equal (argv[i], "--teach-only"))
        teach_only = skip_edits = skip_relayouts = skip_big = TRUE;
      else
        {
          fprintf (stderr, "usage: bench-ui [--edits N] [--relayouts N] [--focus PANE] [--trace-stalls MS] [--skip-edits] [--skip-relayouts] [--skip-big] [--big-only N] [--teach-only]\n");
          return 2;
        }
    }

  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  if (g_getenv ("GSETTINGS_SCHEMA_DIR") == NULL)
    g_setenv ("GSETTINGS_SCHEMA_DIR", TP_BUILD_SCHEMA_DIR, TRUE);
  /* the graphviz worker of this build tree (not beside this program) */
  g_setenv ("TP_LAYOUT_WORKER", TP_BUILD_LAYOUT_WORKER, FALSE);
  {
    g_autofree char *state = g_dir_make_tmp ("topos-bench-XXXXXX", NULL);
    g_setenv ("XDG_STATE_HOME", state, TRUE);
  }
  gtk_init ();
  tp_ui_init ();
  bench_stall_start (stall_trace_ms);

  printf ("bench-ui: GTK %u.%u.%u, renderer %s\n", gtk_get_major_version (), gtk_get_minor_version (),
          gtk_get_micro_version (), g_getenv ("GSK_RENDERER") != NULL ? g_getenv ("GSK_RENDERER") : "default");

  if (big_only > 0)
    {
      bench_big (big_only, "@");
      bench_big (big_only, "*");
      bench_stall_trace_print ();
      return 0;
    }
  if (!skip_edits)
    {
      bench_edits (edits, TP_RECOMPUTE_DELAY_MS);
      bench_edits (edits, 0);
      bench_typing ();
    }

  if (!skip_big)
    {
      bench_big (0, "");
      bench_big (600, "@");
      bench_big (1000, "@");
      bench_big (1000, "*");
    }

  bench_teach ();
  if (teach_only)
    return 0;

  if (!skip_relayouts)
    {
      g_autofree char *two = tp_samples_dup_text ("two-layers");
      g_autofree char *big = program_300 ();
      g_autofree char *two_dot = dot_of (two);
      g_autofree char *big_dot = dot_of (big);

      printf ("\nresident memory over relayouts (graphviz leaks in every layout, in the worker)\n");
      bench_relayouts ("two-layers sample", two_dot, relayouts);
      bench_relayouts ("300-line program (reduced)", big_dot, MAX (relayouts / 10, 1));
    }
  bench_stall_trace_print ();
  return 0;
}
