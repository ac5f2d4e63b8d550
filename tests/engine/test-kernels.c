/* The interpreter's exact orders (docs/language.md, values;
 * docs/decisions.md D4). */
#include <math.h>

#include "tp-test-util.h"
#include "tp-parse.h"
#include "tp-plan.h"
#include "tp-run.h"
#include "tp-math.h"

static void
naive_matmul (const float *a, const float *b, float *out, uint32_t m,
              uint32_t k, uint32_t n)
{
  for (uint32_t i = 0; i < m; i++)
    for (uint32_t j = 0; j < n; j++)
      {
        float acc = a[i * k] * b[j];
        for (uint32_t p = 1; p < k; p++)
          acc = acc + a[i * k + p] * b[p * n + j];
        out[i * n + j] = acc;
      }
}

static void
test_matmul_bits (void)
{
  static const uint32_t sizes[][3] = {
    { 1, 1, 1 }, { 1, 7, 1 }, { 4, 1, 8 }, { 5, 3, 9 }, { 13, 17, 11 },
    { 8, 64, 16 }, { 33, 65, 31 }, { 64, 64, 64 },
  };
  GRand *rand = g_rand_new_with_seed (7);

  for (size_t s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      uint32_t m = sizes[s][0], k = sizes[s][1], n = sizes[s][2];
      float *a = g_new (float, m * k), *b = g_new (float, k * n);
      float *fast = g_new (float, m * n), *slow = g_new (float, m * n);

      for (uint32_t i = 0; i < m * k; i++)
        a[i] = (float) g_rand_double_range (rand, -1e3, 1e3);
      for (uint32_t i = 0; i < k * n; i++)
        b[i] = (float) g_rand_double_range (rand, -1e-3, 1e3);
      tp_matmul (a, b, fast, m, k, n);
      naive_matmul (a, b, slow, m, k, n);
      g_assert_true (memcmp (fast, slow, m * n * sizeof (float)) == 0);
      g_free (a);
      g_free (b);
      g_free (fast);
      g_free (slow);
    }
  g_rand_free (rand);
}

static void
test_matmul_negative_zero (void)
{
  /* Seeded with the first product, not with +0: all -0 products stay -0. */
  float a[2] = { -0.0f, 0.0f }, b[2] = { 1.0f, -1.0f }, out[1];

  tp_matmul (a, b, out, 1, 2, 1);
  g_assert_true (out[0] == 0.0f && signbit (out[0]));
}

/* Builds a tape with one leaf holding data and runs op on it. */
static float *
run_on_leaf (TpArena *arena, TpTape *tape, const float *data,
             const TpShape *shape, TpOp op, uint32_t axis)
{
  float **values;
  float *payload = tp_tape_alloc_payload (tape, shape);
  TpNode leaf, n;

  memcpy (payload, data, (size_t) tp_shape_volume (shape) * sizeof (float));
  leaf = tp_tape_record (tape, TP_OP_LEAF, TP_NO_NODE, TP_NO_NODE, NULL,
                         shape, payload);
  if (op == TP_OP_SUM_ALONG || op == TP_OP_LOG_SOFTMAX
      || op == TP_OP_LOG_SUM_EXP)
    n = tp_tape_axis (tape, op, leaf, axis);
  else
    n = tp_tape_unary (tape, op, leaf);
  g_assert_cmpuint (n, !=, TP_NO_NODE);
  values = tp_arena_alloc (arena, tape->len * sizeof *values);
  g_assert_true (tp_run_forward (tape, arena, values));
  return values[n];
}

static void
test_sum_order (void)
{
  TpArena arena;
  TpTape tape;
  float data[4] = { 1e8f, 1.0f, -1e8f, 1.0f };
  TpShape shape = { 1, { 4 } };
  float *r;

  tp_arena_init (&arena);
  tp_tape_init (&tape, &arena);
  /* Left to right from element 0: ((1e8 + 1) - 1e8) + 1 = 1 in f32. */
  r = run_on_leaf (&arena, &tape, data, &shape, TP_OP_SUM, 0);
  g_assert_cmpfloat (r[0], ==, 1.0f);
  tp_arena_reset (&arena);

  tp_arena_init (&arena);
  tp_tape_init (&tape, &arena);
  {
    /* [[1e8, 1], [1, 5], [-1e8, 7]] summed along axis 0. */
    float d2[6] = { 1e8f, 1.0f, 1.0f, 5.0f, -1e8f, 7.0f };
    TpShape s2 = { 2, { 3, 2 } };
    r = run_on_leaf (&arena, &tape, d2, &s2, TP_OP_SUM_ALONG, 0);
    g_assert_cmpfloat (r[0], ==, 0.0f);
    g_assert_cmpfloat (r[1], ==, 13.0f);
  }
  tp_arena_reset (&arena);

  tp_arena_init (&arena);
  tp_tape_init (&tape, &arena);
  {
    float z[2] = { -0.0f, -0.0f };
    TpShape s1 = { 1, { 2 } };
    r = run_on_leaf (&arena, &tape, z, &s1, TP_OP_SUM, 0);
    g_assert_true (r[0] == 0.0f && signbit (r[0]));
  }
  tp_arena_reset (&arena);
}

static void
test_maximum (void)
{
  float nan = NAN;

  g_assert_cmpfloat (tp_maximum (nan, 2.0f), ==, 2.0f);
  g_assert_cmpfloat (tp_maximum (2.0f, nan), ==, 2.0f);
  g_assert_true (isnan (tp_maximum (nan, nan)));
  g_assert_true (signbit (tp_maximum (-0.0f, 0.0f)));
  g_assert_false (signbit (tp_maximum (0.0f, -0.0f)));
  g_assert_cmpfloat (tp_maximum (-1.0f, 3.0f), ==, 3.0f);
  /* relu keeps the left operand on a tie: relu(-0) is -0. */
  tp_test_reading ("z = relu(-0.0)\n", NULL, NULL, TP_READING_VALUES,
                   "z            []         -0\n");
}

static void
test_log_softmax_composition (void)
{
  /* LogSoftmax and LogSumExp are the documented composition of exact f32
   * steps; recompute them here step by step and compare bits. */
  TpArena arena;
  TpTape tape;
  float x[6] = { 0.5f, -1.25f, 3.0f, 1e-3f, 2.0f, -7.0f };
  TpShape shape = { 2, { 2, 3 } };
  float *ls, *lse;

  tp_arena_init (&arena);
  tp_tape_init (&tape, &arena);
  ls = run_on_leaf (&arena, &tape, x, &shape, TP_OP_LOG_SOFTMAX, 1);
  lse = run_on_leaf (&arena, &tape, x, &shape, TP_OP_LOG_SUM_EXP, 1);
  for (int r = 0; r < 2; r++)
    {
      const float *row = x + 3 * r;
      float peak = tp_maximum (tp_maximum (row[0], row[1]), row[2]);
      float s[3], total, z;
      for (int c = 0; c < 3; c++)
        s[c] = row[c] - peak;
      total = tp_expf (s[0]);
      total = total + tp_expf (s[1]);
      total = total + tp_expf (s[2]);
      z = tp_logf (total);
      for (int c = 0; c < 3; c++)
        g_assert_cmpfloat (ls[3 * r + c], ==, s[c] - z);
      g_assert_cmpfloat (lse[r], ==, peak + z);
    }
  tp_arena_reset (&arena);
}

static void
test_permute (void)
{
  tp_test_reading ("a = leaf [2, 3]\nt = transpose(a)\n", NULL, NULL,
                   TP_READING_VALUES,
                   "a            [2, 3]     [[0.18237947, 0.49829936, 0.19127616], "
                   "[0.5308383, -0.37682262, -0.30675545]]\n"
                   "t            [3, 2]     [[0.18237947, 0.5308383], "
                   "[0.49829936, -0.37682262], [0.19127616, -0.30675545]]\n");
}

static void
test_plan_run_matches_interpreter (void)
{
  /* A plan evaluates only what it needs and frees early; its results must
   * carry the interpreter's bits and its measured peak the printed one. */
  TpArena arena;
  TpProgram prog;
  const char *src_ok = "w = parameter [3, 4]\nx = input [2, 3]\n"
                       "h = tanh(x @ w)\ns = softmax(h, 1)\nl = logsumexp(h, 0)\n"
                       "m = mean_along(s, 0)\nloss = sum(m) + sum(l)\n";
  float **values, *results[2];
  TpPlan plan;
  TpNode roots[1], observe[1];
  uint64_t peak;

  tp_arena_init (&arena);
  tp_program_init (&prog, &arena);
  g_assert_true (tp_parse (&prog, src_ok, strlen (src_ok)));
  values = tp_arena_alloc (&arena, prog.tape.len * sizeof *values);
  g_assert_true (tp_run_forward (&prog.tape, &arena, values));
  roots[0] = tp_program_lookup (&prog, "loss", 4);
  observe[0] = tp_program_lookup (&prog, "s", 1);
  g_assert_true (tp_plan_lower (&plan, &prog.tape, &arena, roots, 1, observe,
                                1, false));
  g_assert_true (tp_plan_run (&plan, results, &peak));
  g_assert_cmpuint (peak, ==, plan.peak);
  g_assert_true (memcmp (results[0], values[roots[0]], sizeof (float)) == 0);
  g_assert_true (memcmp (results[1], values[observe[0]], 8 * sizeof (float))
                 == 0);
  tp_free (results[0]);
  tp_free (results[1]);
  tp_program_clear (&prog);
  tp_arena_reset (&arena);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/kernels/matmul-bits", test_matmul_bits);
  g_test_add_func ("/topos/kernels/matmul-negative-zero", test_matmul_negative_zero);
  g_test_add_func ("/topos/kernels/sum-order", test_sum_order);
  g_test_add_func ("/topos/kernels/maximum", test_maximum);
  g_test_add_func ("/topos/kernels/log-softmax", test_log_softmax_composition);
  g_test_add_func ("/topos/kernels/permute", test_permute);
  g_test_add_func ("/topos/kernels/plan-run", test_plan_run_matches_interpreter);
  return g_test_run ();
}
