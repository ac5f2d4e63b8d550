/* test-dinterp.c: the gradient check's double interpreter (ours,
 * engine/tp-dinterp.c): a perturbed run that evaluates only an element's
 * region, or only the dependent nodes whole, gives bit for bit the loss a
 * full evaluation of every node gives, on every sample and golden program,
 * a deep chain, most of the language and a tape built with the ops only
 * rules record; and the array forms of exp and tanh give the scalar
 * forms' bits. */
#include <math.h>

#include "tp-dinterp.h"
#include "tp-dmath.h"
#include "tp-parse.h"
#include "tp-test-util.h"

static char *
read_file (const char *path)
{
  char *text = NULL;
  GError *error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* A full evaluation of every ancestor of loss with p's element e set to
 * x: the loss. */
static double
full_run (const TpTape *t, const TpDInterp *d, TpNode p, uint64_t e,
          double x, double **v)
{
  for (TpNode i = 0; i <= d->loss; i++)
    {
      if (!d->anc[i])
        continue;
      tp_dinterp_eval_node (t, i, v, v[i], NULL);
      if (i == p)
        v[i][e] = x;
    }
  return v[d->loss][0];
}

static void
assert_same (double a, double b, const char *what, TpNode p, uint64_t e)
{
  if (memcmp (&a, &b, sizeof a) != 0)
    g_error ("%s: parameter node %u element %" G_GUINT64_FORMAT ": %.17g "
             "against a full evaluation's %.17g", what, p, e, a, b);
}

/* For every parameter loss depends on and up to 40 of its elements, with
 * a step big enough to move every branch: the runs of the element's
 * region and of the whole dependents give the loss a full evaluation
 * gives, bit for bit.  Returns how many perturbed losses differed from
 * the base loss (so that the comparison compared something). */
static guint
compare_runs (const TpTape *t, TpNode loss, const char *what)
{
  TpArena arena;
  TpDInterp d;
  double **v;
  guint moved = 0;

  tp_arena_init (&arena);
  g_assert_true (tp_dinterp_init (&d, t, loss, &arena));
  g_assert_true (tp_dinterp_run_base (&d));
  v = g_new0 (double *, loss + 1);
  for (TpNode i = 0; i <= loss; i++)
    if (d.anc[i])
      v[i] = g_new (double, tp_shape_volume (&t->shape[i]));
  for (TpNode p = 0; p <= loss; p++)
    {
      uint64_t volume = tp_shape_volume (&t->shape[p]);
      uint64_t stride = volume > 40 ? volume / 40 : 1;
      double *value;
      if (t->op[p] != TP_OP_PARAMETER || !d.anc[p])
        continue;
      value = tp_dinterp_select (&d, p);
      g_assert_nonnull (value);
      for (uint64_t e = 0; e < volume; e += stride)
        for (int side = -1; side <= 1; side += 2)
          {
            double x = value[e], y = x + side * 0.25 * (fabs (x) + 1.0);
            double full = full_run (t, &d, p, e, y, v), region, whole;
            bool kink_region = false, kink_whole = false;
            uint64_t work;
            g_assert_true (tp_dinterp_region (&d, e, &work));
            value[e] = y;
            region = tp_dinterp_run (&d, &kink_region);
            value[e] = x;
            tp_dinterp_restore (&d);
            tp_dinterp_whole (&d);
            value[e] = y;
            whole = tp_dinterp_run (&d, &kink_whole);
            value[e] = x;
            assert_same (region, full, what, p, e);
            assert_same (whole, full, what, p, e);
            g_assert_true (kink_region == kink_whole);
            moved += full != d.base[loss][0];
          }
    }
  for (TpNode i = 0; i <= loss; i++)
    g_free (v[i]);
  g_free (v);
  tp_arena_reset (&arena);
  return moved;
}

/* compare_runs on a program's last rank-0 statement. */
static guint
compare_program (const char *src, const char *what)
{
  TpArena arena;
  TpProgram prog;
  TpNode loss = TP_NO_NODE;
  guint moved = 0;

  tp_arena_init (&arena);
  tp_program_init (&prog, &arena);
  g_assert_true (tp_parse (&prog, src, strlen (src)));
  for (uint32_t k = 0; k < prog.n_stmts; k++)
    if (prog.tape.shape[prog.stmts[k].node].rank == 0)
      loss = prog.stmts[k].node;
  if (loss != TP_NO_NODE)
    moved = compare_runs (&prog.tape, loss, what);
  tp_program_clear (&prog);
  tp_arena_reset (&arena);
  return moved;
}

static guint
compare_dir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *f;
  guint moved = 0;

  g_assert_nonnull (d);
  while ((f = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (f, ".tape"))
      {
        char *path = g_build_filename (dir, f, NULL);
        char *src = read_file (path);
        moved += compare_program (src, path);
        g_free (src);
        g_free (path);
      }
  g_dir_close (d);
  return moved;
}

/* A tape with the ops only rules record (Step, BroadcastAlong, Permute
 * of rank 3) in its forward part, built node by node. */
static void
compare_built_tape (void)
{
  TpArena arena;
  TpTape t;
  TpShape s34 = { 2, { 3, 4 } }, s423 = { 3, { 4, 2, 3 } };
  uint8_t order[TP_MAX_RANK] = { 2, 0, 1 };
  TpNode p, q, zero, a, b, c, e, f, g, loss;

  tp_arena_init (&arena);
  tp_tape_init (&t, &arena);
  p = tp_tape_fill (&t, TP_OP_PARAMETER, &s34, 0.0f);
  q = tp_tape_fill (&t, TP_OP_PARAMETER, &s423, 0.0f);
  for (uint32_t k = 0; k < 12; k++)
    t.payload[p][k] = (float) k * 0.37f - 2.0f;
  for (uint32_t k = 0; k < 24; k++)
    t.payload[q][k] = 1.5f - (float) k * 0.11f;
  a = tp_tape_broadcast_along (&t, p, 1, 2);               /* [3, 2, 4] */
  b = tp_tape_permute (&t, q, order);                      /* [3, 4, 2] */
  b = tp_tape_permute (&t, b, (uint8_t[TP_MAX_RANK]) { 0, 2, 1 });
  c = tp_tape_binary (&t, TP_OP_MUL, a, b);                /* [3, 2, 4] */
  zero = tp_tape_fill (&t, TP_OP_LEAF, &(TpShape) { 0, { 0 } }, 0.0f);
  zero = tp_tape_shaped (&t, TP_OP_BROADCAST, zero, &t.shape[c]);
  e = tp_tape_binary (&t, TP_OP_STEP, c, zero);
  f = tp_tape_binary (&t, TP_OP_MAXIMUM, c, zero);
  g = tp_tape_binary (&t, TP_OP_ADD, tp_tape_binary (&t, TP_OP_MUL, e, c), f);
  g = tp_tape_axis (&t, TP_OP_LOG_SOFTMAX, g, 2);
  g = tp_tape_axis (&t, TP_OP_LOG_SUM_EXP, g, 0);
  g = tp_tape_axis (&t, TP_OP_SUM_ALONG, tp_tape_unary (&t, TP_OP_SIN, g), 1);
  loss = tp_tape_unary (&t, TP_OP_SUM, g);
  g_assert_cmpuint (loss, !=, TP_NO_NODE);
  g_assert_cmpuint (compare_runs (&t, loss, "built tape"), >, 0);
  tp_arena_reset (&arena);
}

static void
test_downstream_runs (void)
{
  char *samples = g_test_build_filename (G_TEST_DIST, "..", "resources",
                                         "samples", NULL);
  char *golden = g_test_build_filename (G_TEST_DIST, "golden", NULL);
  char *deep = tp_test_chain (12, "", "");

  g_assert_cmpuint (compare_dir (samples), >, 100);
  g_assert_cmpuint (compare_dir (golden), >, 100);
  g_assert_cmpuint (compare_program (deep, "chain"), >, 100);
  g_assert_cmpuint (compare_program ("w = parameter [3, 4]\n"
                                     "v = parameter [4, 5]\n"
                                     "x = input [2, 3]\n"
                                     "h = relu(x @ w) @ v\n"
                                     "t = transpose(h)\n"
                                     "m = mean_along(softmax(t, 0), 1)\n"
                                     "r = reshape(h, [10])\n"
                                     "loss = sum(m) + logsumexp(r, 0) "
                                     "+ sum(sqrt(exp(cos(w))) / ln(w * w "
                                     "+ 2.0))\n", "ops"), >, 40);
  compare_built_tape ();
  g_free (deep);
  g_free (samples);
  g_free (golden);
}

/* The array forms of exp and tanh give the scalar forms' bits. */
static void
test_dmath_arrays (void)
{
  enum { N = 4099 };
  double *x = g_new (double, N), *y = g_new (double, N);
  static const double special[] = {
    0.0, -0.0, 0.125, -0.125, 0.12499999999999999, 22.0, -22.0,
    22.000000000000004, 709.782712893384, 709.7827128933841, -745.2,
    -745.2000000000001, 1e-300, -1e-300, 1e300, -1e300,
  };
  guint64 state = 12345;

  for (guint k = 0; k < N; k++)
    {
      state = state * G_GUINT64_CONSTANT (6364136223846793005)
              + G_GUINT64_CONSTANT (1442695040888963407);
      x[k] = k < G_N_ELEMENTS (special) ? special[k]
             : ((double) (state >> 11) * 0x1p-53 - 0.5)
               * (k % 3 == 0 ? 60.0 : k % 3 == 1 ? 1600.0 : 1.0);
    }
  x[20] = (double) NAN;
  x[21] = (double) INFINITY;
  x[22] = -(double) INFINITY;
  tp_dmath_exp_n (x, y, N);
  for (guint k = 0; k < N; k++)
    {
      double want = tp_dmath_exp (x[k]);
      g_assert_true (memcmp (&want, &y[k], sizeof want) == 0);
    }
  tp_dmath_tanh_n (x, y, N);
  for (guint k = 0; k < N; k++)
    {
      double want = tp_dmath_tanh (x[k]);
      g_assert_true (memcmp (&want, &y[k], sizeof want) == 0);
    }
  /* in place, and lengths that leave lanes empty */
  for (guint n = 0; n < 20; n++)
    {
      double z[20];
      memcpy (z, x + 30, n * sizeof *z);
      tp_dmath_tanh_n (z, z, n);
      for (guint k = 0; k < n; k++)
        {
          double want = tp_dmath_tanh (x[30 + k]);
          g_assert_true (memcmp (&want, &z[k], sizeof want) == 0);
        }
    }
  g_free (x);
  g_free (y);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/dinterp/downstream-runs", test_downstream_runs);
  g_test_add_func ("/topos/dinterp/dmath-arrays", test_dmath_arrays);
  return g_test_run ();
}
