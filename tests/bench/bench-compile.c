/* bench-compile: how long the compiler readings take.  For each program it
 * prints the median time of parse, differentiate, plan (lower + describe)
 * and StableHLO emit, done step by step on a fresh tape as the session
 * does them, and of one whole session compile (all six readings, values
 * and picture included).  Not a test: it asserts nothing about time.
 *
 * Times are this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so a busy
 * machine that preempts the benchmark does not inflate them.
 *
 * Usage: bench-compile [--tsv] FILE...
 * --tsv prints one tab-separated line per program (name, spec nodes, total
 * nodes, then microseconds: parse, differentiate, plan, emit,
 * differentiate+plan+emit, session) for bench-compile.py. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-util.h"
#include "tp-alloc.h"
#include "tp-diff.h"
#include "tp-engine.h"
#include "tp-hlo.h"
#include "tp-parse.h"
#include "tp-plan.h"

enum { PARSE, DIFF, PLAN, EMIT, STEPS, SESSION, N_FIGURES };

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* One pass of the compiler steps on a fresh arena; adds each step's time
 * to t[].  Returns false if the program is refused. */
static bool
steps_once (const char *src, size_t len, double t[N_FIGURES],
            uint32_t *spec_nodes, uint32_t *total_nodes)
{
  TpArena arena;
  TpProgram prog;
  TpPlan plan;
  TpBuf out;
  TpNode loss = TP_NO_NODE, wrt[4096], roots[4097];
  uint32_t n_wrt = 0, n_roots = 0;
  double t0, t1, t2, t3, t4;
  bool ok = false;

  tp_arena_init (&arena);
  tp_program_init (&prog, &arena);
  tp_buf_init (&out);
  t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  if (!tp_parse (&prog, src, len))
    goto done;
  t1 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  for (uint32_t k = 0; k < prog.n_stmts; k++)
    if (prog.tape.shape[prog.stmts[k].node].rank == 0)
      loss = prog.stmts[k].node;
  if (loss == TP_NO_NODE)
    loss = prog.stmts[prog.n_stmts - 1].node;
  for (TpNode i = 0; i < prog.tape.len && n_wrt < 4096; i++)
    if (prog.tape.op[i] == TP_OP_PARAMETER)
      wrt[n_wrt++] = i;
  *spec_nodes = prog.tape.len;
  roots[n_roots++] = loss;
  if (prog.tape.shape[loss].rank == 0 && n_wrt > 0)
    {
      if (!tp_differentiate (&prog.tape, loss, wrt, n_wrt, roots + 1))
        goto done;
      n_roots += n_wrt;
    }
  t2 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  if (!tp_plan_lower (&plan, &prog.tape, &arena, roots, n_roots, NULL, 0,
                      false))
    goto done;
  tp_plan_describe (&plan, &out, NULL);
  tp_buf_clear (&out);
  t3 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  tp_hlo_emit (&plan, &out);
  t4 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  *total_nodes = prog.tape.len;
  t[PARSE] = t1 - t0;
  t[DIFF] = t2 - t1;
  t[PLAN] = t3 - t2;
  t[EMIT] = t4 - t3;
  t[STEPS] = t4 - t1;
  ok = !out.failed;
done:
  tp_buf_clear (&out);
  tp_program_clear (&prog);
  tp_arena_reset (&arena);
  return ok;
}

/* Medians over enough repetitions to fill about 0.3 s per program. */
static bool
measure (const char *src, size_t len, double med[N_FIGURES],
         uint32_t *spec_nodes, uint32_t *total_nodes)
{
  enum { MAX_REPS = 2001 };
  static double samples[N_FIGURES][MAX_REPS];
  TpSession *s = tp_session_new ();
  TpChoices choices = { .target = NULL };
  double start = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  int reps = 0;

  while (reps < MAX_REPS
         && (reps < 5
             || bench_seconds (CLOCK_THREAD_CPUTIME_ID) - start < 0.3))
    {
      double t[N_FIGURES], t0;
      if (!steps_once (src, len, t, spec_nodes, total_nodes))
        return false;
      t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
      if (tp_session_compile (s, src, len, &choices) != TP_STATUS_OK)
        return false;
      t[SESSION] = bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
      for (int f = 0; f < N_FIGURES; f++)
        samples[f][reps] = t[f];
      reps++;
    }
  for (int f = 0; f < N_FIGURES; f++)
    {
      qsort (samples[f], (size_t) reps, sizeof (double), cmp_double);
      med[f] = samples[f][reps / 2];
    }
  tp_session_free (s);
  return true;
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash != NULL ? slash + 1 : path;
}

int
main (int argc, char **argv)
{
  bool tsv = false;
  int first = 1;

  if (argc > 1 && strcmp (argv[1], "--tsv") == 0)
    {
      tsv = true;
      first = 2;
    }
  if (first >= argc)
    {
      fprintf (stderr, "usage: bench-compile [--tsv] FILE...\n");
      return 2;
    }
  if (!tsv)
    printf ("median CPU microseconds per program (one thread)\n"
            "%-26s %6s %6s %9s %9s %9s %9s %9s %9s\n", "program", "spec",
            "nodes", "parse", "diff", "plan", "emit", "d+p+e", "readings");
  for (int k = first; k < argc; k++)
    {
      size_t len;
      char *src = bench_read_file (argv[k], &len);
      double med[N_FIGURES];
      uint32_t spec = 0, total = 0;

      if (src == NULL || !measure (src, len, med, &spec, &total))
        {
          fprintf (stderr, "bench-compile: cannot read or compile %s\n",
                   argv[k]);
          return 1;
        }
      if (tsv)
        printf ("%s\t%u\t%u\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n",
                base_name (argv[k]), spec, total, med[PARSE] * 1e6,
                med[DIFF] * 1e6, med[PLAN] * 1e6, med[EMIT] * 1e6,
                med[STEPS] * 1e6, med[SESSION] * 1e6);
      else
        printf ("%-26s %6u %6u %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n",
                base_name (argv[k]), spec, total, med[PARSE] * 1e6,
                med[DIFF] * 1e6, med[PLAN] * 1e6, med[EMIT] * 1e6,
                med[STEPS] * 1e6, med[SESSION] * 1e6);
      free (src);
    }
  return 0;
}
