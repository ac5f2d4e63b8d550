/* bench-passes: what the three passes cost beside the compile, on the
 * generated 1,000-line program (x = input [4, 8], then 499 pairs
 * wK = parameter [8, 8] / hK = tanh(hPREV @ wK) + hPREV, then
 * loss = sum(hN * hN)).  Prints the median thread CPU time of each, and
 * each as a share of the compile; asserts nothing.
 *
 *   compile        tp_session_compile: read, record, differentiate
 *   to StableHLO   compile, plan and the StableHLO text (what a compiler
 *                  front end does before its passes): a second baseline
 *   whole JSON     compile and `topos --json` without the passes' three
 *                  members (every reading, the check, the teaching
 *                  model): a third
 *   lower          the plan (what the passes stand on, not theirs)
 *   optimize       the exact rewrites (two plans included) and nothing else
 *   fusion         the kernels and their reading, on a lowered plan
 *   remat auto     the plan lowered with --remat auto, less the plain lower
 *
 * Usage: bench-passes [RUNS] */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "tp-engine.h"
#include "tp-engine-testing.h"

#define MAX_RUNS 64

static char *
chain_program (int pairs, size_t *len)
{
  size_t cap = 1 << 16, n = 0;
  char *p = malloc (cap);

#define EMIT(...) \
  do { \
    if (cap - n < 256) { cap *= 2; p = realloc (p, cap); } \
    n += (size_t) snprintf (p + n, cap - n, __VA_ARGS__); \
  } while (0)
  EMIT ("x = input [4, 8]\n");
  for (int k = 1; k <= pairs; k++)
    {
      EMIT ("w%d = parameter [8, 8]\n", k);
      if (k == 1)
        EMIT ("h1 = tanh(x @ w1) + x\n");
      else
        EMIT ("h%d = tanh(h%d @ w%d) + h%d\n", k, k - 1, k, k - 1);
    }
  EMIT ("loss = sum(h%d * h%d)\n", pairs, pairs);
#undef EMIT
  *len = n;
  return p;
}

static int
compare (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, int n)
{
  qsort (v, (size_t) n, sizeof *v, compare);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Compiles into s, a session used again run after run as a front end
 * uses its own (the first run's figures are dropped). */
static TpSession *
compile (TpSession *s, const char *src, size_t len, bool remat_auto,
         double *seconds)
{
  TpChoices c = { .remat_auto = remat_auto };
  double t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);

  if (tp_session_compile (s, src, len, &c) != TP_STATUS_OK)
    {
      fprintf (stderr, "bench-passes: the program was refused\n");
      exit (1);
    }
  *seconds = bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
  return s;
}

typedef struct
{
  double compile, lower, hlo, json, optimize, fusion, remat;
} Figures;

/* One run: the plain program in `plain`, with --remat auto in `remat`. */
static void
one_run (TpSession *plain, TpSession *remat, const char *src, size_t len,
         Figures *t, TpStats *stats, TpOptimizeSummary *os,
         TpFusionSummary *fs, TpRematSummary *rs)
{
  double t0, dummy;
  size_t n_args;
  TpSession *s = compile (plain, src, len, false, &t->compile);

  t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  tp_session_arguments (s, &n_args);
  t->lower = bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
  t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  tp_session_reading (s, TP_READING_STABLEHLO);
  t->hlo = t->compile + t->lower + bench_seconds (CLOCK_THREAD_CPUTIME_ID)
           - t0;
  t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  tp_session_fusion (s, fs);
  t->fusion = bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
  t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  tp_session_optimize_summary (s, os);
  t->optimize = bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
  tp_session_stats (s, stats);

  s = compile (remat, src, len, true, &dummy);
  t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  tp_session_arguments (s, &n_args);
  t->remat = bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0 - t->lower;
  tp_session_remat (s, rs);

  {
    uint64_t members = TP_JSON_ALL & ~(TP_JSON_MEMBER (TP_JSON_OPTIMIZED)
                                       | TP_JSON_MEMBER (TP_JSON_FUSION)
                                       | TP_JSON_MEMBER (TP_JSON_REMAT));
    char *json;
    s = compile (plain, src, len, false, &t->json);
    t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
    json = tp_session_to_json_members (s, members);
    t->json += bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
    tp_string_free (json);
  }
}

int
main (int argc, char **argv)
{
  int runs = argc > 1 ? atoi (argv[1]) : 9;
  size_t len;
  char *src = chain_program (499, &len);
  double t_compile[MAX_RUNS], t_lower[MAX_RUNS], t_optimize[MAX_RUNS];
  double t_fusion[MAX_RUNS], t_remat[MAX_RUNS], t_hlo[MAX_RUNS];
  double t_json[MAX_RUNS];
  double c, l, o, f, r, h, j;
  TpStats stats;
  TpOptimizeSummary os;
  TpFusionSummary fs;
  TpRematSummary rs;
  TpSession *plain = tp_session_new (), *remat = tp_session_new ();
  Figures t;

  if (runs < 1 || runs > MAX_RUNS)
    runs = 9;
  /* A warm-up run first, not counted: the sessions are used again, as a
   * front end uses its own. */
  one_run (plain, remat, src, len, &t, &stats, &os, &fs, &rs);
  for (int k = 0; k < runs; k++)
    {
      one_run (plain, remat, src, len, &t, &stats, &os, &fs, &rs);
      t_compile[k] = t.compile;
      t_lower[k] = t.lower;
      t_hlo[k] = t.hlo;
      t_json[k] = t.json;
      t_fusion[k] = t.fusion;
      t_optimize[k] = t.optimize;
      t_remat[k] = t.remat;
    }
  tp_session_free (plain);
  tp_session_free (remat);
  c = median (t_compile, runs);
  l = median (t_lower, runs);
  o = median (t_optimize, runs);
  f = median (t_fusion, runs);
  r = median (t_remat, runs);
  h = median (t_hlo, runs);
  j = median (t_json, runs);
  printf ("program: %u statements, %u nodes (the gradient's included), "
          "median of %d runs, thread CPU time\n", stats.statements,
          stats.nodes, runs);
  printf ("%-13s %10s %12s %15s %12s\n", "", "ms", "of compile",
          "of to StableHLO", "of whole JSON");
#define ROW(name, t) \
  printf ("%-13s %10.3f %11.1f%% %14.1f%% %11.1f%%\n", name, (t) * 1e3, \
          100.0 * (t) / c, 100.0 * (t) / h, 100.0 * (t) / j)
  ROW ("compile", c);
  ROW ("to StableHLO", h);
  ROW ("whole JSON", j);
  ROW ("lower", l);
  ROW ("optimize", o);
  ROW ("fusion", f);
  ROW ("remat auto", r);
  ROW ("all three", o + f + r);
#undef ROW
  printf ("optimize: %u nodes evaluated before, %u after, %zu rewrites, "
          "%zu kept\n", os.nodes_before, os.nodes_after, os.n_rewrites,
          os.n_kept);
  printf ("fusion: %zu kernels (%zu computing), bytes %llu fused, %llu "
          "unfused\n", fs.n_kernels, fs.n_computed,
          (unsigned long long) fs.bytes_fused,
          (unsigned long long) fs.bytes_unfused);
  printf ("remat auto: %u of %u candidates, peak %llu -> %llu elements, "
          "extra work %llu\n", rs.n_chosen, rs.n_candidates,
          (unsigned long long) rs.peak_before,
          (unsigned long long) rs.peak_after,
          (unsigned long long) rs.work_extra);
  free (src);
  return 0;
}
