/* The reading map checked against the readings' own text.
 *
 * For every sample (resources/samples) and golden program (tests/golden,
 * with its .args), this test reads the text the way a person would and
 * requires the map to agree with it:
 * - every map has one line per line of its reading, and its refs lie
 *   within their lines, in order, never overlapping (and the seam finds
 *   the one under any byte);
 * - a spec, derivative or plan line that starts with an index stands for
 *   that node, its index and operand refs name the nodes written there,
 *   and only such lines do;
 * - every %vN names the node the writer called %vN (a Sum of a rank-0
 *   value is written with its operand's name), every %argK the K-th
 *   argument, and the map's StableHLO colours are those of the desktop's
 *   own tokenizer (kept below as the oracle);
 * - every gradient line (divider pairs, values lines) maps to its
 *   gradient node, and every values statement to its statement;
 * - every source span covers exactly an expression: it is tight, and the
 *   span's text, assigned on a line of its own after the lines before it,
 *   records exactly the nodes the map puts inside the span.
 * - and without the map, every reading is the same text.
 * Hand-written cases pin exact spans and tokens, the JSON form, the map
 * being off and the ref budget. */
#include <stdlib.h>

#include "map-check.h"

/* ---- the corpus ------------------------------------------------------- */

static char *
read_file (const char *path)
{
  char *text = NULL;
  GError *error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static guint
check_dir (const char *dir, gboolean with_args, gboolean every_observe)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *f;
  guint checked = 0;

  g_assert_nonnull (d);
  while ((f = g_dir_read_name (d)) != NULL)
    {
      char *path, *src, *args_path;
      const char *observe[16];
      TpChoices c = { .target = NULL, .observe = observe, .n_observe = 0, .exact = false };
      char **argv = NULL;

      if (!g_str_has_suffix (f, ".tape"))
        continue;
      path = g_build_filename (dir, f, NULL);
      src = read_file (path);
      args_path = g_strdup_printf ("%.*s.args", (int) (strlen (path) - 5), path);
      if (with_args && g_file_test (args_path, G_FILE_TEST_EXISTS))
        {
          char *args = read_file (args_path);
          g_assert_true (g_shell_parse_argv (args, NULL, &argv, NULL));
          for (guint k = 0; argv[k] != NULL && argv[k + 1] != NULL; k++)
            if (strcmp (argv[k], "--target") == 0)
              c.target = argv[++k];
            else if (strcmp (argv[k], "--observe") == 0 && c.n_observe < 16)
              observe[c.n_observe++] = argv[++k];
          g_free (args);
        }
      map_check_program (f, src, &c);
      checked++;
      if (every_observe)
        {
          TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
          size_t n;
          const TpName *names = tp_session_names (s, &n);
          for (size_t k = 0; k < n; k++)
            {
              TpChoices o = { .target = NULL, .observe = observe, .n_observe = 1, .exact = true };
              TpChoices t = { .target = names[k].name, .observe = NULL, .n_observe = 0, .exact = false };
              char *what = g_strdup_printf ("%s --observe %s", f, names[k].name);
              observe[0] = names[k].name;
              map_check_program (what, src, &o);
              g_free (what);
              what = g_strdup_printf ("%s --target %s", f, names[k].name);
              map_check_program (what, src, &t);
              g_free (what);
              checked += 2;
            }
          tp_session_free (s);
        }
      g_strfreev (argv);
      g_free (args_path);
      g_free (src);
      g_free (path);
    }
  g_dir_close (d);
  return checked;
}

static void
test_samples (void)
{
  char *dir = g_test_build_filename (G_TEST_DIST, "..", "resources", "samples", NULL);
  guint n = check_dir (dir, FALSE, TRUE);

  g_test_message ("%u sample readings checked", n);
  g_assert_cmpuint (n, >=, 8);
  g_free (dir);
}

static void
test_golden (void)
{
  char *dir = g_test_build_filename (G_TEST_DIST, "golden", NULL);
  guint n = check_dir (dir, TRUE, FALSE);

  g_test_message ("%u golden programs checked", n);
  g_assert_cmpuint (n, >=, 15);
  g_free (dir);
}

/* Programs the samples and golden files do not have: reassigned and
 * aliased names, a Sum of a rank-0 value (written with its operand's
 * name), parameters no statement names, keywords as names, comments with
 * non-ASCII text, CRLF line ends, every op and composite, an elided
 * constant's neighbours. */
static void
test_extra_programs (void)
{
  static const struct
  {
    const char *src;
    const char *target, *observe;
  } programs[] = {
    { "a = parameter 1.0\nb = a * 2.0\na = parameter [2]\nc = sum(a) + b\n"
      "b = c\n", NULL, "a" },
    { "w = parameter 1.0\nh = w * 2.0\ng = h\nloss = g * g\n", NULL, "g" },
    { "w = parameter 2.0\ns = sum(w)\nt = sum(sum(s * w))\nloss = t + s\n",
      NULL, "s" },
    { "x = input 3.0\nloss = sum(x) * parameter 1.5 + parameter [] * x\n",
      NULL, NULL },
    { "# naïve → fine\r\ninput = input [1, 2]\r\nsum = parameter [2, 2]\r\n"
      "leaf = input @ sum   # ¿por qué?\r\nloss = sum(leaf * leaf)\r\n",
      NULL, "leaf" },
    { "w = parameter [2, 3]\nx = input [3, 2]\nh = relu(x @ w)\n"
      "e = exp(ln(sqrt(sin(cos(tanh(h))))))\nm = mean_along(softmax(e, 0), 1)\n"
      "l = logsumexp(log_softmax(h, 1), 0)\nt = transpose(h)\n"
      "r = reshape(broadcast(-1.0e-7, [2, 2, 2]), [8])\n"
      "loss = sum(m) - sum(l) / 3.0 + sum(t) * sum_along(r, 0) - -sum(r)\n",
      NULL, "h" },
    { "a = leaf [3, 3]\nb = leaf [9]\nc = a @ a\nd = reshape(c, [9]) + b\n",
      "d", "c" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (programs); k++)
    {
      const char *observe[1] = { programs[k].observe };
      TpChoices c = { .target = programs[k].target, .observe = observe, .n_observe = observe[0] ? 1 : 0, .exact = false };
      char *what = g_strdup_printf ("extra program %u", k);
      map_check_program (what, programs[k].src, &c);
      g_free (what);
    }
}

/* A Sum of a rank-0 value writes no line and is written with its
 * operand's name; its uses still refer to the Sum, the operand's own to
 * the operand. */
static void
test_sum_alias (void)
{
  TpSession *s = tp_test_compile ("w = parameter [2]\nx = sum(w)\ny = sum(x)\n"
                                  "loss = y * x\n", "loss", NULL,
                                  TP_STATUS_OK);
  char **lines = g_strsplit (tp_session_reading (s, TP_READING_STABLEHLO), "\n", -1);
  guint k;
  TpMapLine ml;
  TpMapRef ref;

  for (k = 0; lines[k] != NULL && !g_str_has_prefix (lines[k], "    %v3 = "); k++)
    ;
  g_assert_nonnull (lines[k]);
  g_assert_cmpstr (lines[k], ==, "    %v3 = stablehlo.multiply %v1, %v1 : tensor<f32>");
  g_assert_true (tp_session_map_line (s, TP_READING_STABLEHLO, k, &ml));
  g_assert_cmpuint (ml.node, ==, 3);
  g_assert_true (tp_session_map_ref_at (s, TP_READING_STABLEHLO, k, 29, &ref));
  g_assert_cmpint (ref.klass, ==, TP_TOKEN_SSA);
  g_assert_cmpuint (ref.node, ==, 2);           /* y, the Sum of x */
  g_assert_true (tp_session_map_ref_at (s, TP_READING_STABLEHLO, k, 34, &ref));
  g_assert_cmpuint (ref.node, ==, 1);           /* x itself */
  g_strfreev (lines);
  tp_session_free (s);
}

/* Spans worked out by hand: implicit broadcasts and the composites'
 * parts belong to the expression that records them, a literal to itself,
 * and parentheses are not part of what they enclose. */
static void
test_exact_spans (void)
{
  static const char src[] =
    "w = parameter [2, 2]\n"
    "x = input [1, 2]\n"
    "h = tanh(x @ w) * 2.0\n"
    "r = relu(-h)\n"
    "m = mean_along(softmax(r, 1), 1)\n"
    "loss = sum((m))\n";
  static const TpSourceSpan want[] = {
    { 1, 5, 20 },               /* 0 Parameter: parameter [2, 2] */
    { 2, 5, 16 },               /* 1 Input */
    { 3, 10, 14 },              /* 2 MatMul: x @ w */
    { 3, 5, 15 },               /* 3 Tanh: tanh(x @ w) */
    { 3, 19, 21 },              /* 4 Leaf: 2.0 */
    { 3, 5, 21 },               /* 5 Broadcast: by the `*` */
    { 3, 5, 21 },               /* 6 Mul */
    { 4, 10, 11 },              /* 7 Neg: -h */
    { 4, 5, 12 },               /* 8 Leaf zeros: relu(-h) */
    { 4, 5, 12 },               /* 9 Maximum */
    { 5, 16, 28 },              /* 10 LogSoftmax: softmax(r, 1) */
    { 5, 16, 28 },              /* 11 Exp */
    { 5, 5, 32 },               /* 12 SumAlong: mean_along(...) */
    { 5, 5, 32 },               /* 13 Leaf divisor */
    { 5, 5, 32 },               /* 14 Div */
    { 6, 8, 15 },               /* 15 Sum: sum((m)) */
  };
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpSourceSpan got;

  g_assert_cmpuint (tp_session_spec_nodes (s), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      g_assert_true (tp_session_source (s, i, &got));
      g_assert_cmpuint (got.line, ==, want[i].line);
      g_assert_cmpuint (got.first, ==, want[i].first);
      g_assert_cmpuint (got.last, ==, want[i].last);
    }
  /* differentiate's nodes have none */
  g_assert_false (tp_session_source (s, G_N_ELEMENTS (want), &got));
  g_assert_false (tp_session_source (s, UINT32_MAX, &got));
  tp_session_free (s);
}

/* Tokens worked out by hand, and the JSON giving what the C seam gives. */
static void
test_exact_tokens_and_json (void)
{
  static const char src[] =
    "# the README sample\n"
    "w = parameter 0.0\nx = input 2.0\ny = input 4.0\n"
    "error = w * x - y\nloss = error * error\n";
  TpSession *s = tp_test_compile (src, NULL, "error", TP_STATUS_OK);
  char *json = tp_session_to_json (s);
  GString *expect = g_string_new ("\"map\":{");
  size_t n;
  const TpGradient *g = tp_session_gradients (s, &n);
  TpMapRef ref;
  TpMapLine line;

  /* "   3  Mul            0, 1               []" */
  g_assert_true (tp_session_map_line (s, TP_READING_SPEC, 3, &line));
  g_assert_cmpuint (line.node, ==, 3);
  g_assert_cmpint (line.role, ==, TP_ROLE_NODE);
  g_assert_cmpuint (line.n_refs, ==, 5);
  {
    static const TpMapRef want[] = {
      { 3, 3, 4, TP_TOKEN_INDEX, 3 },
      { 3, 6, 9, TP_TOKEN_OP, TP_MAP_NO_NODE },
      { 3, 21, 22, TP_TOKEN_OPERAND, 0 },
      { 3, 24, 25, TP_TOKEN_OPERAND, 1 },
      { 3, 40, 42, TP_TOKEN_SHAPE, TP_MAP_NO_NODE },
    };
    for (guint k = 0; k < G_N_ELEMENTS (want); k++)
      {
        g_assert_true (tp_session_map_ref (s, TP_READING_SPEC, line.first_ref + k, &ref));
        g_assert_cmpuint (ref.line, ==, want[k].line);
        g_assert_cmpuint (ref.start, ==, want[k].start);
        g_assert_cmpuint (ref.end, ==, want[k].end);
        g_assert_cmpint (ref.klass, ==, want[k].klass);
        g_assert_cmpuint (ref.node, ==, want[k].node);
      }
  }
  /* What is under a byte of that line. */
  g_assert_true (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 21, &ref));
  g_assert_cmpuint (ref.node, ==, 0);
  g_assert_true (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 24, &ref));
  g_assert_cmpuint (ref.node, ==, 1);
  g_assert_true (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 8, &ref));
  g_assert_cmpint (ref.klass, ==, TP_TOKEN_OP);
  g_assert_true (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 3, &ref));
  g_assert_cmpint (ref.klass, ==, TP_TOKEN_INDEX);
  g_assert_false (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 2, &ref));
  g_assert_false (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 22, &ref));
  g_assert_false (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 9, &ref));
  g_assert_true (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 41, &ref));
  g_assert_cmpint (ref.klass, ==, TP_TOKEN_SHAPE);
  g_assert_false (tp_session_map_ref_at (s, TP_READING_SPEC, 3, 42, &ref));
  g_assert_false (tp_session_map_ref_at (s, TP_READING_SPEC, 99, 0, &ref));
  /* The plan's "   4  Sub ... kept" and "   0 ... freed after 3". */
  g_assert_true (tp_session_map_line (s, TP_READING_PLAN, 4, &line));
  g_assert_cmpint (line.role, ==, TP_ROLE_KEPT);
  g_assert_true (tp_session_map_line (s, TP_READING_PLAN, 0, &line));
  g_assert_cmpint (line.role, ==, TP_ROLE_FREED);
  g_assert_true (tp_session_map_ref (s, TP_READING_PLAN, line.first_ref + line.n_refs - 1, &ref));
  g_assert_cmpint (ref.klass, ==, TP_TOKEN_OPERAND);
  g_assert_cmpuint (ref.node, ==, 3);
  g_assert_cmpuint (ref.start, ==, 65);
  /* The gradient: d loss / d w is node 20. */
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (g[0].name, ==, "w");
  g_assert_cmpuint (g[0].parameter, ==, 0);
  g_assert_cmpuint (g[0].gradient, ==, 20);
  g_assert_cmpuint (tp_session_spec_nodes (s), ==, 6);
  g_assert_false (tp_session_picture_reduced (s));

  /* The JSON's map, rebuilt from the C seam. */
  for (int r = 0; r <= TP_READING_VALUES; r++)
    {
      size_t lines = tp_session_map_n_lines (s, (TpReading) r);
      size_t refs = tp_session_map_n_refs (s, (TpReading) r);
      g_string_append_printf (expect, "%s\"%s\":{\"lines\":[", r ? "," : "",
                              tp_reading_name ((TpReading) r));
      for (size_t k = 0; k < lines; k++)
        {
          tp_session_map_line (s, (TpReading) r, k, &line);
          g_string_append_printf (expect, "%s{\"node\":", k ? "," : "");
          if (line.node == TP_MAP_NO_NODE)
            g_string_append (expect, "null");
          else
            g_string_append_printf (expect, "%u", line.node);
          g_string_append_printf (expect, ",\"role\":\"%s\"}",
                                  tp_line_role_name (line.role));
        }
      g_string_append (expect, "],\"refs\":[");
      for (size_t k = 0; k < refs; k++)
        {
          tp_session_map_ref (s, (TpReading) r, k, &ref);
          g_string_append_printf (expect, "%s[%u,%u,%u,\"%s\",", k ? "," : "",
                                  ref.line, ref.start, ref.end,
                                  tp_token_class_name (ref.klass));
          if (ref.node == TP_MAP_NO_NODE)
            g_string_append (expect, "null]");
          else
            g_string_append_printf (expect, "%u]", ref.node);
        }
      g_string_append (expect, "]}");
    }
  g_string_append (expect, "},\"spec_nodes\":6,\"gradient_nodes\":{\"w\":20},"
                           "\"sources\":[[2,5,17],[3,5,13],[4,5,13],[5,9,13],"
                           "[5,9,17],[6,8,20],null,null,null,null,null,null,"
                           "null,null,null,null,null,null,null,null,null,null,"
                           "null],\"picture\":{\"reduced\":false},"
                           "\"nodes\":[");
  /* The map's fields, then every node's value. */
  g_assert_nonnull (strstr (json, expect->str));
  tp_string_free (json);
  tp_session_free (s);
  g_string_free (expect, TRUE);
}

/* A refused program has empty maps, in the seam and in the JSON. */
static void
test_refused (void)
{
  TpSession *s = tp_test_compile ("x = 1\ny = x @ x\n", NULL, NULL,
                                  TP_STATUS_REFUSED);
  char *json = tp_session_to_json (s);
  TpSourceSpan span;

  for (int r = 0; r < TP_N_READINGS; r++)
    {
      g_assert_cmpuint (tp_session_map_n_lines (s, (TpReading) r), ==, 0);
      g_assert_cmpuint (tp_session_map_n_refs (s, (TpReading) r), ==, 0);
    }
  g_assert_cmpuint (tp_session_spec_nodes (s), ==, 0);
  g_assert_null (tp_session_gradients (s, NULL));
  g_assert_false (tp_session_source (s, 0, &span));
  tp_string_free (json);
  json = tp_session_to_json_members (s, TP_TEST_CLASSIC_JSON);
  g_assert_true (g_str_has_suffix (json,
    "\"map\":{\"spec\":{\"lines\":[],\"refs\":[]},"
    "\"derivative\":{\"lines\":[],\"refs\":[]},"
    "\"plan\":{\"lines\":[],\"refs\":[]},"
    "\"stablehlo\":{\"lines\":[],\"refs\":[]},"
    "\"values\":{\"lines\":[],\"refs\":[]}},"
    "\"spec_nodes\":0,\"gradient_nodes\":{},\"sources\":[],"
    "\"picture\":{\"reduced\":false},\"nodes\":[]}\n"));
  tp_string_free (json);
  tp_session_free (s);
}

/* The JSON without its map is the whole JSON with the "map" member cut
 * out, byte for byte, for every sample and a refused program (the whole
 * without "forward", "jax", "dot_kernels" and "dot_tangent", which it
 * leaves out too). */
static void
check_without_map (TpSession *s, const char *what)
{
  char *whole = tp_session_to_json_members (s, TP_JSON_ALL
                                               & ~TP_JSON_MEMBER (TP_JSON_FORWARD)
                                               & ~TP_JSON_MEMBER (TP_JSON_JAX)
                                               & ~TP_JSON_MEMBER (TP_JSON_DOT_KERNELS)
                                               & ~TP_JSON_MEMBER (TP_JSON_DOT_TANGENT));
  char *lean = tp_session_to_json_without_map (s);
  const char *from = strstr (whole, ",\"map\":{\"spec\":");
  const char *to = from != NULL ? strstr (from, ",\"spec_nodes\":") : NULL;
  GString *cut;

  g_assert_nonnull (to);
  cut = g_string_new_len (whole, from - whole);
  g_string_append (cut, to);
  if (strcmp (cut->str, lean) != 0)
    g_error ("%s: the JSON without its map is not the JSON with the map cut out", what);
  g_assert_null (strstr (lean, "\"map\":"));
  g_string_free (cut, TRUE);
  tp_string_free (lean);
  tp_string_free (whole);
}

static void
test_json_without_map (void)
{
  char *dir = g_test_build_filename (G_TEST_DIST, "..", "resources", "samples", NULL);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;
  TpSession *refused = tp_test_compile ("x = 1\ny = x @ x\n", NULL, NULL, TP_STATUS_REFUSED);

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      char *path, *src;
      gsize len;
      TpSession *s;

      if (!g_str_has_suffix (name, ".tape"))
        continue;
      path = g_build_filename (dir, name, NULL);
      g_assert_true (g_file_get_contents (path, &src, &len, NULL));
      s = tp_session_new ();
      tp_session_compile (s, src, len, NULL);
      check_without_map (s, name);
      tp_session_free (s);
      g_free (src);
      g_free (path);
      n++;
    }
  check_without_map (refused, "a refused program");
  g_assert_cmpuint (n, >=, 8);
  tp_session_free (refused);
  g_dir_close (d);
  g_free (dir);
}

/* The reader's choices need not outlive the compile: a JSON written
 * after the caller reused the observed name's memory still names it. */
static void
test_choices_not_borrowed (void)
{
  char *name = g_strdup ("error");
  const char *observe[] = { name };
  TpChoices choices = { .target = NULL, .observe = observe, .n_observe = 1, .exact = false };
  TpSession *s = tp_session_new ();
  static const char src[] = "w = parameter 0.0\nx = input 2.0\nerror = w * x\nloss = error * error\n";
  char *json;

  g_assert_cmpint (tp_session_compile (s, src, strlen (src), &choices), ==, TP_STATUS_OK);
  memset (name, 'X', strlen (name));
  g_free (name);
  json = tp_session_to_json (s);
  g_assert_nonnull (strstr (json, "\"observe\":[\"error\"]"));
  tp_string_free (json);
  tp_session_free (s);
}

/* The map off (the benchmark's baseline) changes no reading and leaves
 * the maps empty; on again, they are back. */
static void
test_map_off (void)
{
  static const char src[] = "w = parameter [2, 3]\nx = input [4, 2]\n"
                            "loss = sum(log_softmax(x @ w, 1))\n";
  TpSession *on = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpSession *off = tp_session_new ();
  TpSourceSpan span;

  tp_session_set_map (off, FALSE);
  g_assert_cmpint (tp_session_compile (off, src, strlen (src), NULL), ==, TP_STATUS_OK);
  for (int r = 0; r < TP_N_READINGS; r++)
    {
      g_assert_cmpstr (tp_session_reading (on, (TpReading) r), ==,
                       tp_session_reading (off, (TpReading) r));
      g_assert_cmpuint (tp_session_map_n_lines (off, (TpReading) r), ==, 0);
      g_assert_cmpuint (tp_session_map_n_refs (off, (TpReading) r), ==, 0);
    }
  g_assert_cmpuint (tp_session_map_n_lines (on, TP_READING_SPEC), ==, 6);
  g_assert_false (tp_session_source (off, 0, &span));
  g_assert_true (tp_session_source (on, 0, &span));
  tp_session_set_map (off, TRUE);
  g_assert_cmpint (tp_session_compile (off, src, strlen (src), NULL), ==, TP_STATUS_OK);
  g_assert_cmpuint (tp_session_map_n_lines (off, TP_READING_SPEC), ==, 6);
  g_assert_true (tp_session_source (off, 0, &span));
  tp_session_free (on);
  tp_session_free (off);
}

/* The reader's choice of no map (the command line printing readings):
 * the same readings and JSON members but the two, empty maps and no
 * source spans, for that compile only. */
static void
test_no_map_choice (void)
{
  static const char src[] = "w = parameter [2, 3]\nx = input [4, 2]\n"
                            "loss = sum(log_softmax(x @ w, 1))\n";
  const TpChoices choices = { .no_map = true };
  uint64_t members = TP_JSON_ALL & ~TP_JSON_MEMBER (TP_JSON_MAP)
                     & ~TP_JSON_MEMBER (TP_JSON_SOURCES);
  TpSession *on = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpSession *off = tp_session_new ();
  TpSourceSpan span;
  char *a, *b;

  g_assert_cmpint (tp_session_compile (off, src, strlen (src), &choices), ==,
                   TP_STATUS_OK);
  for (int r = 0; r < TP_N_READINGS; r++)
    {
      g_assert_cmpstr (tp_session_reading (on, (TpReading) r), ==,
                       tp_session_reading (off, (TpReading) r));
      g_assert_cmpuint (tp_session_map_n_lines (off, (TpReading) r), ==, 0);
      g_assert_cmpuint (tp_session_map_n_refs (off, (TpReading) r), ==, 0);
    }
  g_assert_false (tp_session_source (off, 0, &span));
  a = tp_session_to_json_members (on, members);
  b = tp_session_to_json_members (off, members);
  g_assert_nonnull (a);
  g_assert_cmpstr (a, ==, b);
  tp_string_free (a);
  tp_string_free (b);
  /* the next compile without the choice has them again */
  g_assert_cmpint (tp_session_compile (off, src, strlen (src), NULL), ==,
                   TP_STATUS_OK);
  g_assert_cmpuint (tp_session_map_n_lines (off, TP_READING_SPEC), ==, 6);
  g_assert_true (tp_session_source (off, 0, &span));
  tp_session_free (on);
  tp_session_free (off);
}

/* Past TP_MAP_REFS a reading's refs stop; its lines do not. */
static void
test_ref_budget (void)
{
  GString *src = g_string_new (NULL);
  TpSession *s;
  const guint n = 50000;        /* three refs a spec line: 150,000 */

  for (guint k = 0; k < n; k++)
    g_string_append (src, "x = 1\n");
  s = tp_test_compile (src->str, NULL, NULL, TP_STATUS_OK);
  g_assert_cmpuint (tp_session_map_n_lines (s, TP_READING_SPEC), ==, n + 1);
  g_assert_cmpuint (tp_session_map_n_refs (s, TP_READING_SPEC), ==, TP_MAP_REFS);
  g_assert_true (tp_session_map_cut (s, TP_READING_SPEC));
  g_assert_false (tp_session_map_cut (s, TP_READING_DERIVATIVE));
  {
    TpMapLine last;
    g_assert_true (tp_session_map_line (s, TP_READING_SPEC, n - 1, &last));
    g_assert_cmpuint (last.node, ==, n - 1);
    g_assert_cmpuint (last.n_refs, ==, 0);
  }
  tp_session_free (s);
  g_string_free (src, TRUE);
}

/* The picture's reduction is the DOT writer's decision, returned. */
static void
test_picture_reduced (void)
{
  GString *src = g_string_new ("h0 = parameter [2, 2]\n");
  TpSession *s;

  for (guint k = 1; k <= 400; k++)
    g_string_append_printf (src, "h%u = tanh(h%u) * h%u\n", k, k - 1, k - 1);
  g_string_append (src, "loss = sum(h400)\n");
  s = tp_test_compile (src->str, NULL, NULL, TP_STATUS_OK);
  g_assert_true (tp_session_picture_reduced (s));
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_DOT), "id=\"note\""));
  tp_session_free (s);
  s = tp_test_compile ("w = parameter 1\nloss = w * w\n", NULL, NULL, TP_STATUS_OK);
  g_assert_false (tp_session_picture_reduced (s));
  g_assert_null (strstr (tp_session_reading (s, TP_READING_DOT), "id=\"note\""));
  tp_session_free (s);
  g_string_free (src, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/map/samples", test_samples);
  g_test_add_func ("/topos/map/golden", test_golden);
  g_test_add_func ("/topos/map/extra-programs", test_extra_programs);
  g_test_add_func ("/topos/map/sum-alias", test_sum_alias);
  g_test_add_func ("/topos/map/exact-spans", test_exact_spans);
  g_test_add_func ("/topos/map/exact-tokens-and-json", test_exact_tokens_and_json);
  g_test_add_func ("/topos/map/refused", test_refused);
  g_test_add_func ("/topos/map/json-without-map", test_json_without_map);
  g_test_add_func ("/topos/map/choices-not-borrowed", test_choices_not_borrowed);
  g_test_add_func ("/topos/map/map-off", test_map_off);
  g_test_add_func ("/topos/map/no-map-choice", test_no_map_choice);
  g_test_add_func ("/topos/map/ref-budget", test_ref_budget);
  g_test_add_func ("/topos/map/picture-reduced", test_picture_reduced);
  return g_test_run ();
}
