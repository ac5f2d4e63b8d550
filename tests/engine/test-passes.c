/* The compiler's passes: the exact rewrites (--optimize), the fusion into
 * kernels and the rematerialisation (--remat), each paid for when read,
 * none changing a value bit; and a wrong rewrite behind the test hook is
 * caught by the same comparison. */
#include "tp-test-util.h"

static const char readme[] = "w = parameter 0.0\nx = input 2.0\n"
                             "y = input 4.0\nerror = w * x - y\n"
                             "loss = error * error\n";

/* A gradient whose one share is -0: d loss / d w = 0 + (-0), which is +0;
 * rewriting 0 + x into x would make it -0. */
static const char negative_zero[] = "w = parameter 1.0\nz = input 0.0\n"
                                    "x = -z\nloss = w * x\n";

/* Five layers h_k = tanh(h_{k-1} @ w_k) + h_{k-1}, as the benchmark's. */
static char *
chain (int layers)
{
  GString *s = g_string_new ("x = input [4, 8]\nh0 = x\n");

  for (int k = 1; k <= layers; k++)
    g_string_append_printf (s, "w%d = parameter [8, 8]\n"
                               "h%d = tanh(h%d @ w%d) + h%d\n",
                            k, k, k - 1, k, k - 1);
  g_string_append_printf (s, "loss = sum(h%d * h%d)\n", layers, layers);
  return g_string_free (s, FALSE);
}

static TpSession *
compile_with (const char *src, bool optimize, const char *const *remat,
              size_t n_remat, bool remat_auto)
{
  TpChoices c = { .optimize = optimize, .remat = remat, .n_remat = n_remat,
                  .remat_auto = remat_auto };
  TpSession *s = tp_session_new ();

  g_assert_cmpint (tp_session_compile (s, src, strlen (src), &c), ==,
                   TP_STATUS_OK);
  return s;
}

/* Every node's value has the same bits in a and b. */
static void
assert_same_values (const TpSession *a, const TpSession *b)
{
  uint32_t n = tp_session_n_nodes (a);

  g_assert_cmpuint (tp_session_n_nodes (b), ==, n);
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t rank;
      const uint32_t *dims;
      const float *va = tp_session_node_value (a, i, &rank, &dims);
      const float *vb = tp_session_node_value (b, i, NULL, NULL);
      size_t volume = 1;
      for (uint32_t d = 0; d < rank; d++)
        volume *= (size_t) dims[d];
      g_assert_nonnull (va);
      g_assert_nonnull (vb);
      g_assert_true (memcmp (va, vb, volume * sizeof *va) == 0);
    }
}

static uint32_t
gradient_bits (const TpSession *s)
{
  size_t n;
  const TpGradient *g = tp_session_gradients (s, &n);
  const float *v;
  uint32_t bits;

  g_assert_cmpuint (n, ==, 1);
  v = tp_session_node_value (s, g[0].gradient, NULL, NULL);
  memcpy (&bits, v, sizeof bits);
  return bits;
}

/* The passes cost nothing until they are read, and each runs once. */
static void
test_paid_for_when_read (void)
{
  TpSession *s = compile_with (readme, false, NULL, 0, false);
  TP_AUTO_STRING *json = NULL;
  TpFusionSummary f;
  TpRematSummary r;

  tp_session_reading (s, TP_READING_PLAN);
  tp_session_reading (s, TP_READING_STABLEHLO);
  tp_session_reading (s, TP_READING_MEMORY);
  json = tp_session_to_json_members (s, TP_TEST_CLASSIC_JSON);
  g_assert_nonnull (json);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_OPTIMIZE), ==, 0);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_FUSION), ==, 0);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_REMAT), ==, 0);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_OPTIMIZED),
                            "0 + x"));
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_OPTIMIZE), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_FUSION), ==, 0);
  g_assert_true (tp_session_fusion (s, &f));
  g_assert_true (tp_session_fusion (s, &f));
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_FUSION), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_REMAT), ==, 0);
  g_assert_true (tp_session_remat (s, &r));
  g_assert_false (r.on);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_REMAT), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_OPTIMIZE), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_PLAN), ==, 1);
  tp_session_free (s);

  /* With --optimize the plan stands on the rewrites; the spec does not. */
  s = compile_with (readme, true, NULL, 0, false);
  tp_session_reading (s, TP_READING_SPEC);
  tp_session_reading (s, TP_READING_DERIVATIVE);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_OPTIMIZE), ==, 0);
  tp_session_reading (s, TP_READING_PLAN);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_OPTIMIZE), ==, 1);
  tp_session_reading (s, TP_READING_OPTIMIZED);
  tp_session_reading (s, TP_READING_VALUES);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_OPTIMIZE), ==, 1);
  tp_session_free (s);
}

/* The README's rewrites: 1 * x twice, two zero Leafs shared, the ones'
 * Leaf dead; its three accumulations onto a zero kept, saying why. */
static void
test_readme_rewrites (void)
{
  TpSession *plain = compile_with (readme, false, NULL, 0, false);
  TpSession *s = compile_with (readme, true, NULL, 0, false);
  TpOptimizeSummary o;
  const char *plan = tp_session_reading (s, TP_READING_PLAN);

  g_assert_true (tp_session_optimize_summary (s, &o));
  g_assert_cmpuint (o.nodes_before, ==, 17);
  g_assert_cmpuint (o.nodes_after, ==, 12);
  g_assert_cmpuint (o.n_rewrites, ==, 5);
  g_assert_cmpuint (o.n_kept, ==, 3);
  g_assert_nonnull (strstr (plan, "12 of 23 nodes evaluated"));
  g_assert_null (strstr (plan, "   7  Mul"));
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_STABLEHLO),
                            "%v10 = stablehlo.add %v9, %v4"));
  /* the spec and the derivative stay the recorded tape */
  g_assert_cmpstr (tp_session_reading (s, TP_READING_DERIVATIVE), ==,
                   tp_session_reading (plain, TP_READING_DERIVATIVE));
  g_assert_cmpstr (tp_session_reading (s, TP_READING_VALUES), ==,
                   tp_session_reading (plain, TP_READING_VALUES));
  assert_same_values (plain, s);
  /* without --optimize the reading says what it would do, the same */
  g_assert_cmpstr (tp_session_reading (s, TP_READING_OPTIMIZED), ==,
                   tp_session_reading (plain, TP_READING_OPTIMIZED));
  tp_session_free (plain);
  tp_session_free (s);
}

/* Folding, identities of shape and order, and the refusals. */
static void
test_rules (void)
{
  static const char src[] =
    "w = parameter [2, 3]\n"
    "a = 2.0 * 3.0\n"                       /* fold */
    "t = transpose(transpose(w))\n"         /* transposes */
    "r = reshape(w, [2, 3])\n"              /* same shape */
    "z = w * 0.0\n"                         /* x * 0, kept */
    "d = w - w\n"                           /* x - x, kept */
    "s = w / 1.0 + -0.0\n"                  /* x / 1, x + -0 */
    "loss = sum(t * a + r + z + d + s)\n";
  TpSession *plain = compile_with (src, false, NULL, 0, false);
  TpSession *s = compile_with (src, true, NULL, 0, false);
  const char *text = tp_session_reading (s, TP_READING_OPTIMIZED);

  g_assert_nonnull (strstr (text, "fold"));
  g_assert_nonnull (strstr (text, "transpose of transpose"));
  g_assert_nonnull (strstr (text, "same shape"));
  g_assert_nonnull (strstr (text, "x / 1"));
  g_assert_nonnull (strstr (text, "x + -0"));
  g_assert_nonnull (strstr (text, "x * 0"));
  g_assert_nonnull (strstr (text, "kept: x may be infinite or NaN (inf * 0"));
  g_assert_nonnull (strstr (text, "x - x"));
  assert_same_values (plain, s);
  tp_session_free (plain);
  tp_session_free (s);
}

/* The hook's wrong rewrite (0 + x into x) turns the gradient +0 into -0,
 * and comparing bits catches it; without the hook the bits agree. */
static void
test_wrong_rewrite_is_caught (void)
{
  TpSession *plain = compile_with (negative_zero, false, NULL, 0, false);
  TpSession *right = compile_with (negative_zero, true, NULL, 0, false);
  TpSession *wrong;
  uint32_t bits;

  g_assert_cmphex (gradient_bits (plain), ==, 0x00000000u);
  g_assert_cmphex (gradient_bits (right), ==, gradient_bits (plain));
  /* the rewrites run when something first needs them: here, the value */
  tp_testing_fold_zero_add (true);
  wrong = compile_with (negative_zero, true, NULL, 0, false);
  bits = gradient_bits (wrong);
  tp_testing_fold_zero_add (false);
  g_assert_cmphex (bits, ==, 0x80000000u);
  g_assert_cmphex (gradient_bits (wrong), !=, gradient_bits (plain));
  g_assert_nonnull (strstr (tp_session_reading (wrong, TP_READING_VALUES),
                            "d loss / d w      -0"));
  tp_session_free (plain);
  tp_session_free (right);
  tp_session_free (wrong);
}

/* The kernels partition the schedule; each evaluated node has one. */
static void
test_fusion_partitions (void)
{
  char *src = chain (5);
  TpSession *s = compile_with (src, false, NULL, 0, false);
  TpFusionSummary f;
  size_t n_steps = tp_session_n_steps (s);
  size_t *count;

  g_assert_true (tp_session_fusion (s, &f));
  g_assert_cmpuint (f.n_kernels, >, 0);
  g_assert_cmpuint (f.bytes_fused, <, f.bytes_unfused);
  g_assert_cmpuint (f.n_fused, >, 0);
  g_assert_nonnull (g_strstr_len (f.sentence, (gssize) f.sentence_length,
                                  "% less"));
  count = g_new0 (size_t, f.n_kernels);
  for (size_t k = 0; k < n_steps; k++)
    {
      TpStep step;
      uint32_t kernel;
      g_assert_true (tp_session_step (s, k, &step));
      kernel = tp_session_node_kernel (s, step.node);
      g_assert_cmpuint (kernel, <, f.n_kernels);
      count[kernel]++;
    }
  for (size_t k = 0; k < f.n_kernels; k++)
    g_assert_cmpuint (count[k], >, 0);
  g_assert_cmpuint (tp_session_node_kernel (s, 100000), ==, TP_MAP_NO_NODE);
  g_free (count);
  tp_session_free (s);
  g_free (src);
}

/* --remat h2: node h2 is freed after the forward pass and computed again
 * before the gradient reads it; the plan, the StableHLO, the memory and
 * the step-through show it; no value changes. */
static void
test_remat_names (void)
{
  char *src = chain (5);
  const char *names[] = { "h2" };
  TpSession *plain = compile_with (src, false, NULL, 0, false);
  TpSession *s = compile_with (src, false, names, 1, false);
  TpRematSummary r;
  size_t n_names, again = SIZE_MAX, first;
  const TpName *nm = tp_session_names (s, &n_names);
  uint32_t h2 = TP_MAP_NO_NODE;
  TpStep step;

  for (size_t k = 0; k < n_names; k++)
    if (strcmp (nm[k].name, "h2") == 0)
      h2 = nm[k].node;
  g_assert_true (tp_session_remat_candidate (s, h2));
  g_assert_true (tp_session_rematerialised (s, h2));
  g_assert_true (tp_session_remat (s, &r));
  g_assert_true (r.on);
  g_assert_false (r.automatic);
  g_assert_cmpuint (r.n_chosen, ==, 1);
  g_assert_cmpuint (r.peak_after, <, r.peak_before);
  g_assert_cmpuint (r.work_extra, ==, 32);  /* one [4, 8] Add */
  g_assert_cmpuint (tp_session_n_steps (s), ==,
                    tp_session_n_steps (plain) + 1);
  for (size_t k = 0; k < tp_session_n_steps (s); k++)
    {
      g_assert_true (tp_session_step (s, k, &step));
      if (step.again)
        {
          g_assert_cmpuint (again, ==, SIZE_MAX);
          g_assert_cmpuint (step.node, ==, h2);
          again = k;
        }
    }
  g_assert_cmpuint (again, !=, SIZE_MAX);
  g_assert_true (tp_session_node_step (s, h2, &first));
  g_assert_cmpuint (first, <, again);
  g_assert_cmpint (tp_session_node_state (s, again - 1, h2), ==,
                   TP_NODE_FREED);
  g_assert_cmpint (tp_session_node_state (s, again, h2), ==, TP_NODE_LIVE);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_PLAN),
                            "recomputed, freed after"));
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_PLAN),
                            "remat: recomputes 1 of"));
  g_assert_null (strstr (tp_session_reading (plain, TP_READING_PLAN),
                         "remat"));
  {
    char *def = g_strdup_printf ("%%r%u = stablehlo.add", h2);
    g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_STABLEHLO),
                              def));
    g_free (def);
  }
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_MEMORY),
                            "recomputed, freed after"));
  {
    size_t length;
    const char *text = tp_session_step_text (s, again, &length);
    g_assert_nonnull (g_strstr_len (text, (gssize) length,
                                    "computed again for the gradient"));
  }
  g_assert_cmpstr (tp_session_reading (s, TP_READING_VALUES), ==,
                   tp_session_reading (plain, TP_READING_VALUES));
  assert_same_values (plain, s);
  tp_session_free (plain);
  tp_session_free (s);
  g_free (src);
}

/* auto lowers the peak of a long chain and says how far. */
static void
test_remat_auto (void)
{
  char *src = chain (40);
  TpSession *plain = compile_with (src, false, NULL, 0, false);
  TpSession *s = compile_with (src, true, NULL, 0, true);
  TpRematSummary r;

  g_assert_true (tp_session_remat (s, &r));
  g_assert_true (r.on && r.automatic);
  g_assert_cmpuint (r.n_chosen, >, 0);
  g_assert_cmpuint (r.peak_after, <, r.peak_before);
  g_assert_nonnull (g_strstr_len (r.sentence, (gssize) r.sentence_length,
                                  "auto recomputes"));
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_PLAN),
                            "remat auto (Chen's sqrt(n) checkpoints)"));
  assert_same_values (plain, s);
  tp_session_free (plain);
  tp_session_free (s);
  g_free (src);
}

/* A name that cannot be rematerialised (a source, a result, unknown)
 * leaves the plan as it was, and the sentence says why. */
static void
test_remat_refused_names (void)
{
  const char *names[] = { "w", "loss", "nothing" };
  TpSession *plain = compile_with (readme, false, NULL, 0, false);
  TpSession *s = compile_with (readme, false, names, 3, false);
  TpRematSummary r;
  const char *plan = tp_session_reading (s, TP_READING_PLAN);

  g_assert_true (tp_session_remat (s, &r));
  g_assert_cmpuint (r.n_chosen, ==, 0);
  g_assert_nonnull (g_strstr_len (r.sentence, (gssize) r.sentence_length,
                                  "None of the named nodes"));
  g_assert_true (g_str_has_prefix (plan,
                                   tp_session_reading (plain,
                                                       TP_READING_PLAN)));
  tp_session_free (plain);
  tp_session_free (s);
}

/* The optimized and fusion readings are mapped: each rewrite's line
 * stands for its node and refers to what it became. */
static void
test_maps (void)
{
  TpSession *s = compile_with (readme, false, NULL, 0, false);
  size_t lines = tp_session_map_n_lines (s, TP_READING_OPTIMIZED);
  bool found = false;

  g_assert_cmpuint (lines, >, 10);
  for (size_t k = 0; k < lines; k++)
    {
      TpMapLine line;
      g_assert_true (tp_session_map_line (s, TP_READING_OPTIMIZED, k, &line));
      if (line.node == 7 && line.role == TP_ROLE_NODE)
        for (uint32_t j = 0; j < line.n_refs; j++)
          {
            TpMapRef ref;
            g_assert_true (tp_session_map_ref (s, TP_READING_OPTIMIZED,
                                               line.first_ref + j, &ref));
            found = found || (ref.klass == TP_TOKEN_OPERAND && ref.node == 4);
          }
    }
  g_assert_true (found);
  g_assert_cmpuint (tp_session_map_n_lines (s, TP_READING_FUSION), >, 3);
  g_assert_cmpuint (tp_session_map_n_lines (s, TP_READING_MEMORY), ==, 0);
  tp_session_free (s);
}

/* Each mapped line of the passes' readings is a line of the text, and
 * each ref lies within its line. */
static void
assert_map_fits (const TpSession *s, TpReading r)
{
  const char *text = tp_session_reading (s, r);
  char **lines = g_strsplit (text, "\n", -1);
  size_t n = g_strv_length (lines) - 1;   /* the text ends in a newline */

  g_assert_cmpuint (tp_session_map_n_lines (s, r), ==, n);
  for (size_t k = 0; k < tp_session_map_n_refs (s, r); k++)
    {
      TpMapRef ref;
      g_assert_true (tp_session_map_ref (s, r, k, &ref));
      g_assert_cmpuint (ref.line, <, n);
      g_assert_cmpuint (ref.start, <, ref.end);
      g_assert_cmpuint (ref.end, <=, strlen (lines[ref.line]));
    }
  g_strfreev (lines);
}

static void
test_maps_fit (void)
{
  char *src = chain (30);
  const char *names[] = { "h3", "h7" };
  TpSession *s[] = {
    compile_with (readme, false, NULL, 0, false),
    compile_with (src, true, names, 2, false),
    compile_with (src, false, NULL, 0, true),
  };

  for (size_t k = 0; k < G_N_ELEMENTS (s); k++)
    {
      assert_map_fits (s[k], TP_READING_OPTIMIZED);
      assert_map_fits (s[k], TP_READING_FUSION);
      assert_map_fits (s[k], TP_READING_PLAN);
      tp_session_free (s[k]);
    }
  g_free (src);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/passes/paid-for-when-read", test_paid_for_when_read);
  g_test_add_func ("/passes/readme-rewrites", test_readme_rewrites);
  g_test_add_func ("/passes/rules", test_rules);
  g_test_add_func ("/passes/wrong-rewrite-is-caught",
                   test_wrong_rewrite_is_caught);
  g_test_add_func ("/passes/fusion-partitions", test_fusion_partitions);
  g_test_add_func ("/passes/remat-names", test_remat_names);
  g_test_add_func ("/passes/remat-auto", test_remat_auto);
  g_test_add_func ("/passes/remat-refused-names", test_remat_refused_names);
  g_test_add_func ("/passes/maps", test_maps);
  g_test_add_func ("/passes/maps-fit", test_maps_fit);
  return g_test_run ();
}
