/* bench-check: what the check reading costs.  For each program (the
 * samples by default, or the files given), the median thread CPU time of
 * the gradient check alone (tp_check_gradients: the double interpreter's
 * base run, and two runs per checked element or direction), beside a
 * whole compile of every reading, how it checked (elements, or random
 * directions) and the check's estimated work against its budget.  With
 * the samples, also generated programs: a 64-128-10 MLP and the deep
 * chains of 300 and 1,000 lines (x = input [4, 8], then layers
 * wK = parameter [8, 8], hK = tanh(hPREV @ wK) + hPREV, and
 * loss = sum(hN * hN)); the chains are left in /tmp so that another
 * build's bench can time the same files.  Prints figures, asserts
 * nothing.
 *
 *   build/tests/bench/bench-check [SAMPLES_DIR | FILE...] */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <string.h>

#include "bench-util.h"
#include "tp-check.h"
#include "tp-diff.h"
#include "tp-engine.h"
#include "tp-parse.h"
#include "tp-run.h"

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* One check of src: its CPU seconds, or a negative number when the
 * program does not read or has no derivative. */
static double
check_once (const char *src, size_t len, uint64_t *work, uint64_t *checked,
            uint64_t *budget, bool *directions)
{
  TpArena arena;
  TpProgram prog;
  TpNode loss = TP_NO_NODE, wrt[4096], grads[4096];
  uint32_t n_wrt = 0, spec;
  float **values;
  TpCheck check;
  double t0, t1 = -1.0;

  tp_arena_init (&arena);
  tp_program_init (&prog, &arena);
  if (!tp_parse (&prog, src, len))
    goto done;
  for (uint32_t k = 0; k < prog.n_stmts; k++)
    if (prog.tape.shape[prog.stmts[k].node].rank == 0)
      loss = prog.stmts[k].node;
  for (TpNode i = 0; i < prog.tape.len && n_wrt < 4096; i++)
    if (prog.tape.op[i] == TP_OP_PARAMETER)
      wrt[n_wrt++] = i;
  spec = prog.tape.len;
  if (loss == TP_NO_NODE || n_wrt == 0
      || !tp_differentiate (&prog.tape, loss, wrt, n_wrt, grads))
    goto done;
  values = tp_arena_alloc (&arena, prog.tape.len * sizeof *values);
  if (values == NULL || !tp_run_forward (&prog.tape, &arena, values))
    goto done;
  t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);
  if (!tp_check_gradients (&prog.tape, spec, loss, wrt, grads, n_wrt, values,
                           &arena, NULL, &check))
    goto done;
  t1 = bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
  *work = check.work;
  *budget = check.budget;
  *directions = check.directions;
  *checked = 0;
  for (uint32_t k = 0; k < check.n_grads; k++)
    *checked += check.grads[k].checked;
done:
  tp_program_clear (&prog);
  tp_arena_reset (&arena);
  return t1;
}

static double
compile_once (TpSession *s, const char *src, size_t len)
{
  double t0 = bench_seconds (CLOCK_THREAD_CPUTIME_ID);

  tp_session_compile (s, src, len, NULL);
  return bench_seconds (CLOCK_THREAD_CPUTIME_ID) - t0;
}

static void
bench_file (const char *path)
{
  enum { REPS = 41 };
  double check[REPS], whole[REPS];
  uint64_t work = 0, checked = 0, budget = 0;
  bool directions = false;
  size_t len;
  char *src = bench_read_file (path, &len);
  TpSession *s = tp_session_new ();
  const char *name = strrchr (path, '/');

  if (src == NULL || s == NULL)
    {
      fprintf (stderr, "bench-check: cannot read %s\n", path);
      free (src);
      tp_session_free (s);
      return;
    }
  for (int r = 0; r < REPS; r++)
    {
      check[r] = check_once (src, len, &work, &checked, &budget,
                             &directions);
      whole[r] = compile_once (s, src, len);
    }
  qsort (check, REPS, sizeof check[0], compare_double);
  qsort (whole, REPS, sizeof whole[0], compare_double);
  if (check[REPS / 2] < 0)
    printf ("%-34s no derivative: nothing to check\n",
            name != NULL ? name + 1 : path);
  else
    printf ("%-34s check %9.3f ms  whole compile %9.3f ms  "
            "%7llu %-10s checked  work %10llu of %llu\n",
            name != NULL ? name + 1 : path, check[REPS / 2] * 1e3,
            whole[REPS / 2] * 1e3, (unsigned long long) checked,
            directions ? "directions" : "elements",
            (unsigned long long) work, (unsigned long long) budget);
  free (src);
  tp_session_free (s);
}

/* The n-line chain (as the brief's generator writes it) into path. */
static bool
write_chain (const char *path, int n)
{
  FILE *f = fopen (path, "wb");
  char prev[32] = "x";
  int lines = 2;

  if (f == NULL)
    return false;
  fprintf (f, "# a %d-line program: a deep chain of small layers\n"
              "x = input [4, 8]\n", n);
  for (int i = 0; lines < n - 1; i++, lines += 2)
    {
      fprintf (f, "w%d = parameter [8, 8]\nh%d = tanh(%s @ w%d) + %s\n", i,
               i, prev, i, prev);
      snprintf (prev, sizeof prev, "h%d", i);
    }
  fprintf (f, "loss = sum(%s * %s)\n", prev, prev);
  return fclose (f) == 0;
}

static int
compare_names (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

int
main (int argc, char **argv)
{
  const char *dir = argc == 2 ? argv[1] : "resources/samples";
  DIR *d;
  struct dirent *e;
  char *paths[256];
  size_t n = 0;

  printf ("gradient check: median thread CPU time of 41 runs\n");
  if (argc > 2 || (argc == 2 && strstr (argv[1], ".tape") != NULL))
    {
      for (int k = 1; k < argc; k++)
        bench_file (argv[k]);
      return 0;
    }
  d = opendir (dir);
  if (d == NULL)
    {
      fprintf (stderr, "bench-check: cannot open %s\n", dir);
      return 1;
    }
  while ((e = readdir (d)) != NULL && n < 256)
    {
      size_t l = strlen (e->d_name);
      if (l > 5 && strcmp (e->d_name + l - 5, ".tape") == 0)
        {
          size_t m = strlen (dir) + l + 2;
          paths[n] = malloc (m);
          snprintf (paths[n], m, "%s/%s", dir, e->d_name);
          n++;
        }
    }
  closedir (d);
  qsort (paths, n, sizeof paths[0], compare_names);
  for (size_t k = 0; k < n; k++)
    {
      bench_file (paths[k]);
      free (paths[k]);
    }
  /* Generated programs: an MLP checked along directions, and the deep
   * chains. */
  {
    static const char wide[] =
      "w1 = parameter [64, 128]\nw2 = parameter [128, 10]\n"
      "x = input [32, 64]\nh = relu(x @ w1)\n"
      "loss = sum(log_softmax(h @ w2, 1)) / -32.0\n";
    const char *tmp = "/tmp/bench-check-wide.tape";
    FILE *f = fopen (tmp, "wb");
    if (f != NULL && fputs (wide, f) >= 0 && fclose (f) == 0)
      {
        printf ("(generated: a 64-128-10 MLP on 32 rows)\n");
        bench_file (tmp);
        remove (tmp);
      }
  }
  for (int k = 0; k < 2; k++)
    {
      int lines = k == 0 ? 300 : 1000;
      char path[64];
      snprintf (path, sizeof path, "/tmp/bench-check-chain-%d.tape", lines);
      if (write_chain (path, lines))
        {
          printf ("(generated: a %d-line program, a deep chain of small "
                  "layers: %s)\n", lines, path);
          bench_file (path);
        }
    }
  return 0;
}
