/* The StableHLO writer's exact text (docs/language.md, stablehlo) for what the
 * golden programs do not show: literal forms, Sum aliasing, argument
 * order, and the tape-API cases of hlo-cases.h that the language cannot
 * write.  Every expected module here was checked by hand against the
 * documented rules; whether the modules mean what the interpreter
 * computes is roundtrip.py's job. */
#include <stdlib.h>

#include "hlo-cases.h"
#include "tp-alloc.h"
#include "tp-hlo.h"
#include "tp-plan.h"
#include "tp-test-util.h"

#define HEAD "module @topos {\n  func.func @main("
#define TAIL "  }\n}\n"

static void
check_stablehlo (const char *src, const char *target, const char *observe,
                 const char *expect)
{
  tp_test_reading (src, target, observe, TP_READING_STABLEHLO, expect);
}

/* Builds hlo_cases[k] and returns its module text (g_free). */
static char *
case_text (const char *name)
{
  TpArena arena;
  HloCase c;
  TpPlan plan;
  TpBuf out;
  char *text;
  size_t k;

  for (k = 0; strcmp (hlo_cases[k].name, name) != 0; k++)
    g_assert_cmpuint (k + 1, <, G_N_ELEMENTS (hlo_cases));
  tp_arena_init (&arena);
  memset (&c, 0, sizeof c);
  tp_tape_init (&c.tape, &arena);
  hlo_cases[k].build (&c);
  g_assert_cmpint (c.tape.error, ==, TP_TAPE_OK);
  g_assert_true (tp_plan_lower (&plan, &c.tape, &arena, c.roots, c.n_roots,
                                c.observe, c.n_observe, false));
  tp_buf_init (&out);
  tp_hlo_emit (&plan, &out);
  g_assert_false (out.failed);
  text = g_strdup (out.data);
  tp_buf_clear (&out);
  tp_arena_reset (&arena);
  return text;
}

static void
test_literals (void)
{
  /* Rust Debug digits; ".0" before an exponent whose mantissa has no dot;
   * exponent form below 1e-4 and from 1e16; the f32 nearest the text. */
  check_stablehlo ("a = 0.00001\nb = 0.000099\nc = 10000000000000000.0\n"
                   "d = 15000000000000000.0\ne = 0.0001\nf = 123456.789\n"
                   "g = 9999999999999999.0\nh = 0.1\nloss = a + b + c + d + e "
                   "+ f + g + h\n", NULL, NULL,
                   HEAD ") -> (tensor<f32>) {\n"
                   "    %v0 = stablehlo.constant dense<1.0e-5> : tensor<f32>\n"
                   "    %v1 = stablehlo.constant dense<9.9e-5> : tensor<f32>\n"
                   "    %v2 = stablehlo.constant dense<1.0e16> : tensor<f32>\n"
                   "    %v3 = stablehlo.constant dense<1.5e16> : tensor<f32>\n"
                   "    %v4 = stablehlo.constant dense<0.0001> : tensor<f32>\n"
                   "    %v5 = stablehlo.constant dense<123456.79> : tensor<f32>\n"
                   "    %v6 = stablehlo.constant dense<1.0e16> : tensor<f32>\n"
                   "    %v7 = stablehlo.constant dense<0.1> : tensor<f32>\n"
                   "    %v8 = stablehlo.add %v0, %v1 : tensor<f32>\n"
                   "    %v9 = stablehlo.add %v8, %v2 : tensor<f32>\n"
                   "    %v10 = stablehlo.add %v9, %v3 : tensor<f32>\n"
                   "    %v11 = stablehlo.add %v10, %v4 : tensor<f32>\n"
                   "    %v12 = stablehlo.add %v11, %v5 : tensor<f32>\n"
                   "    %v13 = stablehlo.add %v12, %v6 : tensor<f32>\n"
                   "    %v14 = stablehlo.add %v13, %v7 : tensor<f32>\n"
                   "    return %v14 : tensor<f32>\n" TAIL);
  /* An f32 overflow reads as inf, written as its bits. */
  check_stablehlo ("big = 1e39\n", NULL, NULL,
                   HEAD ") -> (tensor<f32>) {\n"
                   "    %v0 = stablehlo.constant dense<0x7F800000> : "
                   "tensor<f32>\n"
                   "    return %v0 : tensor<f32>\n" TAIL);
  /* Seeded leaves: nested brackets in row-major order; all-equal leaves
   * splat. */
  check_stablehlo ("c = leaf [2, 2]\nd = leaf [1, 3]\nz = c * 0.0\n", "z",
                   "d",
                   HEAD ") -> (tensor<2x2xf32>, tensor<1x3xf32>) {\n"
                   "    %v0 = stablehlo.constant dense<[[0.18237947, "
                   "0.49829936], [0.19127616, 0.5308383]]> : tensor<2x2xf32>\n"
                   "    %v1 = stablehlo.constant dense<[[-0.7730993, "
                   "0.40058702, 0.22594936]]> : tensor<1x3xf32>\n"
                   "    %v2 = stablehlo.constant dense<0.0> : tensor<f32>\n"
                   "    %v3 = stablehlo.broadcast_in_dim %v2, dims = [] : "
                   "(tensor<f32>) -> tensor<2x2xf32>\n"
                   "    %v4 = stablehlo.multiply %v0, %v3 : tensor<2x2xf32>\n"
                   "    return %v4, %v1 : tensor<2x2xf32>, tensor<1x3xf32>\n"
                   TAIL);
}

/* Past the reading's budget of 2^20 printed elements, a constant is
 * written as MLIR writes an elided one; a splat counts one element. */
static void
test_elided (void)
{
  TpSession *s;
  const char *text;

  check_stablehlo ("a = leaf [1024, 1025]\nz = broadcast(0.5, [2048, 2048])\n"
                   "t = a\n", "t", "z",
                   HEAD ") -> (tensor<1024x1025xf32>, tensor<2048x2048xf32>) {\n"
                   "    %v0 = stablehlo.constant dense_resource<__elided__> : "
                   "tensor<1024x1025xf32>\n"
                   "    %v1 = stablehlo.constant dense<0.5> : tensor<f32>\n"
                   "    %v2 = stablehlo.broadcast_in_dim %v1, dims = [] : "
                   "(tensor<f32>) -> tensor<2048x2048xf32>\n"
                   "    return %v0, %v2 : tensor<1024x1025xf32>, "
                   "tensor<2048x2048xf32>\n" TAIL);
  /* Exactly 2^20 fit; the next non-splat constant does not. */
  s = tp_test_compile ("a = leaf [1024, 1024]\nb = leaf [2]\nc = a\n", "c",
                       "b", TP_STATUS_OK);
  text = tp_session_reading (s, TP_READING_STABLEHLO);
  g_assert_true (g_str_has_prefix (strstr (text, "%v0 = "),
                 "%v0 = stablehlo.constant dense<[[0.18237947, 0.49829936, "));
  g_assert_nonnull (strstr (text, "\n    %v1 = stablehlo.constant "
                            "dense_resource<__elided__> : tensor<2xf32>\n"));
  tp_session_free (s);
}

static void
test_constants_case (void)
{
  char *text = case_text ("constants");

  g_assert_cmpstr (text, ==,
    HEAD ") -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, "
    "tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, "
    "tensor<f32>, tensor<2xf32>, tensor<1x2x3xf32>, tensor<2x2xf32>) {\n"
    "    %v0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>\n"
    "    %v1 = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
    "    %v2 = stablehlo.constant dense<0x7F800000> : tensor<f32>\n"
    "    %v3 = stablehlo.constant dense<-0.0> : tensor<f32>\n"
    "    %v4 = stablehlo.constant dense<1.0e-5> : tensor<f32>\n"
    "    %v5 = stablehlo.constant dense<1.0e16> : tensor<f32>\n"
    "    %v6 = stablehlo.constant dense<3.4028235e38> : tensor<f32>\n"
    "    %v7 = stablehlo.constant dense<1.1754944e-38> : tensor<f32>\n"
    "    %v8 = stablehlo.constant dense<123456.79> : tensor<f32>\n"
    "    %v9 = stablehlo.constant dense<0.1> : tensor<f32>\n"
    "    %v10 = stablehlo.constant dense<[0.0, -0.0]> : tensor<2xf32>\n"
    "    %v11 = stablehlo.constant dense<[[[1.0, 0x7F800000, -2.5e-7], "
    "[-0.0, 1.0e20, 0xFF800000]]]> : tensor<1x2x3xf32>\n"
    "    %v12 = stablehlo.constant dense<0.25> : tensor<2x2xf32>\n"
    "    return %v0, %v1, %v2, %v3, %v4, %v5, %v6, %v7, %v8, %v9, %v10, "
    "%v11, %v12 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, "
    "tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, "
    "tensor<f32>, tensor<2xf32>, tensor<1x2x3xf32>, tensor<2x2xf32>\n" TAIL);
  g_free (text);
}

static void
test_sum_alias (void)
{
  /* Sum of a rank-0 value writes no line: the result and the return carry
   * the operand's name, through a chain of them. */
  check_stablehlo ("w = parameter 0.5\nloss = sum(sum(w))\n", NULL, NULL,
                   HEAD "%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) {\n"
                   "    %v3 = stablehlo.constant dense<1.0> : tensor<f32>\n"
                   "    %v4 = stablehlo.broadcast_in_dim %v3, dims = [] : "
                   "(tensor<f32>) -> tensor<f32>\n"
                   "    %v5 = stablehlo.constant dense<0.0> : tensor<f32>\n"
                   "    %v6 = stablehlo.add %v5, %v4 : tensor<f32>\n"
                   "    %v7 = stablehlo.broadcast_in_dim %v6, dims = [] : "
                   "(tensor<f32>) -> tensor<f32>\n"
                   "    %v8 = stablehlo.constant dense<0.0> : tensor<f32>\n"
                   "    %v9 = stablehlo.add %v8, %v7 : tensor<f32>\n"
                   "    return %arg0, %v9 : tensor<f32>, tensor<f32>\n" TAIL);
  /* Later uses refer to the aliased names too (a leaf's and an
   * argument's). */
  check_stablehlo ("w = parameter 0.5\nc = 2.0\ns = sum(c)\n"
                   "loss = sum(w) * s\n", NULL, "s",
                   HEAD "%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>, "
                   "tensor<f32>) {\n"
                   "    %v1 = stablehlo.constant dense<2.0> : tensor<f32>\n"
                   "    %v4 = stablehlo.multiply %arg0, %v1 : tensor<f32>\n"
                   "    %v5 = stablehlo.constant dense<1.0> : tensor<f32>\n"
                   "    %v6 = stablehlo.multiply %v5, %v1 : tensor<f32>\n"
                   "    %v8 = stablehlo.constant dense<0.0> : tensor<f32>\n"
                   "    %v9 = stablehlo.add %v8, %v6 : tensor<f32>\n"
                   "    %v12 = stablehlo.broadcast_in_dim %v9, dims = [] : "
                   "(tensor<f32>) -> tensor<f32>\n"
                   "    %v13 = stablehlo.constant dense<0.0> : tensor<f32>\n"
                   "    %v14 = stablehlo.add %v13, %v12 : tensor<f32>\n"
                   "    return %v4, %v14, %v1 : tensor<f32>, tensor<f32>, "
                   "tensor<f32>\n" TAIL);
}

static void
test_arguments (void)
{
  /* Wanted parameters, then wanted inputs, each in index order; a
   * parameter outside the closure is no argument (its zero gradient is a
   * constant); an observed input is returned as its argument. */
  check_stablehlo ("x = input [2]\nw = parameter [2]\nv = parameter [3]\n"
                   "loss = sum(x * w)\n", NULL, "x",
                   HEAD "%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> "
                   "(tensor<f32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>) {\n"
                   "    %v3 = stablehlo.multiply %arg1, %arg0 : tensor<2xf32>\n"
                   "    %v4_seed = stablehlo.constant dense<0.0> : tensor<f32>\n"
                   "    %v4 = stablehlo.reduce(%v3 init: %v4_seed) applies "
                   "stablehlo.add across dimensions = [0] : (tensor<2xf32>, "
                   "tensor<f32>) -> tensor<f32>\n"
                   "    %v5 = stablehlo.constant dense<1.0> : tensor<f32>\n"
                   "    %v6 = stablehlo.broadcast_in_dim %v5, dims = [] : "
                   "(tensor<f32>) -> tensor<2xf32>\n"
                   "    %v7 = stablehlo.constant dense<0.0> : tensor<2xf32>\n"
                   "    %v8 = stablehlo.add %v7, %v6 : tensor<2xf32>\n"
                   "    %v10 = stablehlo.multiply %v8, %arg1 : tensor<2xf32>\n"
                   "    %v13 = stablehlo.constant dense<0.0> : tensor<2xf32>\n"
                   "    %v14 = stablehlo.add %v13, %v10 : tensor<2xf32>\n"
                   "    %v15 = stablehlo.constant dense<0.0> : tensor<3xf32>\n"
                   "    return %v4, %v14, %v15, %arg1 : tensor<f32>, "
                   "tensor<2xf32>, tensor<3xf32>, tensor<2xf32>\n" TAIL);
  /* A target that is itself an argument; no lines at all. */
  check_stablehlo ("x = input [2, 2]\n", NULL, NULL,
                   HEAD "%arg0: tensor<2x2xf32>) -> (tensor<2x2xf32>) {\n"
                   "    return %arg0 : tensor<2x2xf32>\n" TAIL);
}

static void
test_exact_changes_nothing (void)
{
  const char *src = "w = parameter [2, 2]\nx = input [1, 2]\n"
                    "loss = sum(relu(x @ w))\n";
  const char *obs[1] = { NULL };
  TpChoices fast = { .target = NULL, .observe = obs, .n_observe = 0, .exact = false }, exact = { .target = NULL, .observe = obs, .n_observe = 0, .exact = true };
  TpSession *a = tp_session_new (), *b = tp_session_new ();

  g_assert_cmpint (tp_session_compile (a, src, strlen (src), &fast), ==,
                   TP_STATUS_OK);
  g_assert_cmpint (tp_session_compile (b, src, strlen (src), &exact), ==,
                   TP_STATUS_OK);
  g_assert_cmpstr (tp_session_reading (a, TP_READING_STABLEHLO), ==,
                   tp_session_reading (b, TP_READING_STABLEHLO));
  tp_session_free (a);
  tp_session_free (b);
}

static void
test_tape_cases (void)
{
  char *text = case_text ("batched-matmul");

  g_assert_cmpstr (text, ==,
    HEAD "%arg0: tensor<2x2x3xf32>, %arg1: tensor<2x3x4xf32>) -> "
    "(tensor<2x2x4xf32>) {\n"
    "    %v2 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], "
    "contracting_dims = [2] x [1] : (tensor<2x2x3xf32>, tensor<2x3x4xf32>) "
    "-> tensor<2x2x4xf32>\n"
    "    return %v2 : tensor<2x2x4xf32>\n" TAIL);
  g_free (text);

  /* A one-element source of rank > 0 is reshaped to a scalar first. */
  text = case_text ("broadcast-rank2");
  g_assert_true (g_str_has_prefix (text,
    HEAD "%arg0: tensor<1x1xf32>, %arg1: tensor<2x3xf32>) -> (tensor<f32>, "
    "tensor<1x1xf32>) {\n"
    "    %v2_scalar = stablehlo.reshape %arg0 : (tensor<1x1xf32>) -> "
    "tensor<f32>\n"
    "    %v2 = stablehlo.broadcast_in_dim %v2_scalar, dims = [] : "
    "(tensor<f32>) -> tensor<2x3xf32>\n"));
  /* ... and the gradient spreads a rank-0 sum back to [1, 1]. */
  g_assert_nonnull (strstr (text,
    "    %v16 = stablehlo.broadcast_in_dim %v15, dims = [] : (tensor<f32>) "
    "-> tensor<1x1xf32>\n"));
  g_free (text);

  /* BroadcastAlong maps the operand to every result axis but k. */
  text = case_text ("broadcast-along");
  g_assert_nonnull (strstr (text,
    "    %v1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : "
    "(tensor<2x3xf32>) -> tensor<2x2x3xf32>\n"));
  g_assert_nonnull (strstr (text,
    "    %v4 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : "
    "(tensor<2x3xf32>) -> tensor<2x3x3xf32>\n"));
  g_assert_nonnull (strstr (text,
    "    %v8 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : "
    "(tensor<2x3xf32>) -> tensor<2x3x4xf32>\n"));
  g_free (text);

  /* Permute: dims is the order; the gradient applies the inverse. */
  text = case_text ("permute-rank3");
  g_assert_nonnull (strstr (text,
    "    %v2 = stablehlo.transpose %arg0, dims = [2, 0, 1] : "
    "(tensor<2x3x4xf32>) -> tensor<4x2x3xf32>\n"));
  g_assert_nonnull (strstr (text,
    "    %v15 = stablehlo.transpose %v12, dims = [1, 2, 0] : "
    "(tensor<4x2x3xf32>) -> tensor<2x3x4xf32>\n"));
  g_free (text);

  text = case_text ("step");
  g_assert_cmpstr (text, ==,
    HEAD "%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> "
    "(tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {\n"
    "    %v2_mask = stablehlo.compare GE, %arg0, %arg1, FLOAT : "
    "(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>\n"
    "    %v2_ones = stablehlo.constant dense<1.0> : tensor<2x3xf32>\n"
    "    %v2_zeros = stablehlo.constant dense<0.0> : tensor<2x3xf32>\n"
    "    %v2 = stablehlo.select %v2_mask, %v2_ones, %v2_zeros : "
    "tensor<2x3xi1>, tensor<2x3xf32>\n"
    "    %v3 = stablehlo.maximum %arg0, %arg1 : tensor<2x3xf32>\n"
    "    %v4_mask = stablehlo.compare GE, %arg1, %arg0, FLOAT : "
    "(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>\n"
    "    %v4_ones = stablehlo.constant dense<1.0> : tensor<2x3xf32>\n"
    "    %v4_zeros = stablehlo.constant dense<0.0> : tensor<2x3xf32>\n"
    "    %v4 = stablehlo.select %v4_mask, %v4_ones, %v4_zeros : "
    "tensor<2x3xi1>, tensor<2x3xf32>\n"
    "    return %v2, %v3, %v4 : tensor<2x3xf32>, tensor<2x3xf32>, "
    "tensor<2x3xf32>\n" TAIL);
  g_free (text);
}

static void *
failing_malloc (size_t size)
{
  (void) size;
  return NULL;
}

static void *
failing_realloc (void *ptr, size_t size)
{
  (void) ptr;
  (void) size;
  return NULL;
}

static void
test_no_memory (void)
{
  static const TpAllocator failing = { failing_malloc, failing_realloc, free };
  TpArena arena;
  HloCase c;
  TpPlan plan;
  TpBuf out;

  tp_arena_init (&arena);
  memset (&c, 0, sizeof c);
  tp_tape_init (&c.tape, &arena);
  hlo_case_step (&c);
  g_assert_true (tp_plan_lower (&plan, &c.tape, &arena, c.roots, c.n_roots,
                                NULL, 0, false));
  tp_buf_init (&out);
  {
    const TpAllocator *saved = tp_alloc_enter (&failing);
    tp_hlo_emit (&plan, &out);
    tp_alloc_leave (saved);
  }
  g_assert_true (out.failed);
  g_assert_null (out.data);
  tp_buf_clear (&out);
  tp_arena_reset (&arena);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hlo/literals", test_literals);
  g_test_add_func ("/hlo/constants", test_constants_case);
  g_test_add_func ("/hlo/elided", test_elided);
  g_test_add_func ("/hlo/sum-alias", test_sum_alias);
  g_test_add_func ("/hlo/arguments", test_arguments);
  g_test_add_func ("/hlo/exact", test_exact_changes_nothing);
  g_test_add_func ("/hlo/tape-cases", test_tape_cases);
  g_test_add_func ("/hlo/no-memory", test_no_memory);
  return g_test_run ();
}
