/* test-check.c: the check, explain and memory readings (ours,
 * docs/decisions.md): the gradient check agrees on every sample and golden
 * program and catches a broken backward rule for that parameter only; the
 * non-finite origin names the exact node and element; the memory numbers
 * are the plan's; explain has a sentence per node; a program too big for
 * element by element is checked along random directions, still catching
 * a broken rule, the same in every run. */
#include <stdlib.h>

#include "tp-check.h"
#include "tp-diff.h"
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

/* The choices of NAME.args (--target, --observe), parsed into c. */
static char **
read_args (const char *tape_path, TpChoices *c, const char **observe)
{
  char *base = g_strndup (tape_path, strlen (tape_path) - 5);
  char *args_path = g_strconcat (base, ".args", NULL);
  char **argv = NULL;
  char *text = NULL;

  memset (c, 0, sizeof *c);
  c->target = NULL;
  c->observe = observe;
  c->n_observe = 0;
  c->exact = false;
  if (g_file_get_contents (args_path, &text, NULL, NULL))
    {
      g_assert_true (g_shell_parse_argv (text, NULL, &argv, NULL));
      for (int k = 0; argv[k] != NULL; k++)
        {
          if (strcmp (argv[k], "--target") == 0)
            c->target = argv[++k];
          else if (strcmp (argv[k], "--observe") == 0)
            observe[c->n_observe++] = argv[++k];
          else if (strcmp (argv[k], "--exact") == 0)
            c->exact = true;
        }
    }
  g_free (text);
  g_free (args_path);
  g_free (base);
  return argv;
}

/* The number of elements of the last "[...]" shape before `end`. */
static guint64
shape_volume_before (const char *line, const char *end)
{
  const char *open = NULL;
  guint64 v = 1;

  for (const char *p = line; p < end; p++)
    if (*p == '[')
      open = p;
  g_assert_nonnull (open);
  for (const char *p = open + 1; *p != ']';)
    {
      char *next;
      guint64 d = g_ascii_strtoull (p, &next, 10);
      if (next == p)
        break;
      v *= d;
      p = next;
      while (*p == ',' || *p == ' ')
        p++;
    }
  return v;
}

/* The memory JSON and reading, rebuilt from the plan reading alone. */
static void
check_memory_against_plan (TpSession *s, const char *what)
{
  const char *plan = tp_session_reading (s, TP_READING_PLAN);
  const char *memory = tp_session_reading (s, TP_READING_MEMORY);
  char **lines = g_strsplit (plan, "\n", -1);
  GArray *node = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *freed = g_array_new (FALSE, FALSE, sizeof (gint64));
  GArray *volume = g_array_new (FALSE, FALSE, sizeof (guint64));
  GString *expect = g_string_new ("\"memory\":{\"steps\":[");
  guint64 peak = 0, retain = 0;
  guint peak_node = 0;
  char *json = tp_session_to_json (s);
  char *tail;

  for (int k = 0; lines[k] != NULL && lines[k][0] != '\0'; k++)
    {
      const char *l = lines[k];
      const char *kept = strstr (l, " kept");
      const char *fa = strstr (l, " freed after ");
      guint n;
      gint64 f;
      guint64 v;
      if (g_str_has_prefix (l, "plan: ") || g_str_has_prefix (l, "live volume"))
        continue;
      g_assert_true (kept != NULL || fa != NULL);
      n = (guint) g_ascii_strtoull (l, NULL, 10);
      f = fa != NULL && (kept == NULL || fa > kept)
          ? (gint64) g_ascii_strtoull (fa + 13, NULL, 10) : -1;
      v = shape_volume_before (l, f >= 0 ? fa : kept);
      g_array_append_val (node, n);
      g_array_append_val (freed, f);
      g_array_append_val (volume, v);
    }
  for (guint k = 0; k < node->len; k++)
    g_string_append_printf (expect, "%s%u", k ? "," : "",
                            g_array_index (node, guint, k));
  g_string_append (expect, "],\"buffers\":[");
  for (guint k = 0; k < node->len; k++)
    {
      gint64 f = g_array_index (freed, gint64, k);
      guint to = node->len - 1;
      if (f >= 0)
        for (guint j = 0; j < node->len; j++)
          if (g_array_index (node, guint, j) == (guint) f)
            to = j;
      g_string_append_printf (expect,
                              "%s{\"node\":%u,\"elements\":%" G_GUINT64_FORMAT
                              ",\"from\":%u,\"to\":%u}", k ? "," : "",
                              g_array_index (node, guint, k),
                              g_array_index (volume, guint64, k), k, to);
    }
  g_string_append (expect, "],\"live\":[");
  for (guint step = 0; step < node->len; step++)
    {
      guint64 live = 0;
      for (guint k = 0; k <= step; k++)
        {
          gint64 f = g_array_index (freed, gint64, k);
          /* live from its own step through the step of its last reader */
          if (f < 0 || (gint64) g_array_index (node, guint, step) <= f)
            live += g_array_index (volume, guint64, k);
        }
      g_string_append_printf (expect, "%s%" G_GUINT64_FORMAT, step ? "," : "",
                              live);
      if (live > peak)
        {
          peak = live;
          peak_node = g_array_index (node, guint, step);
        }
      retain += g_array_index (volume, guint64, step);
    }
  g_string_append_printf (expect, "],\"peak\":{\"elements\":%" G_GUINT64_FORMAT
                          ",\"node\":%u},\"retain_all\":%" G_GUINT64_FORMAT "}",
                          peak, peak_node, retain);
  if (strstr (json, expect->str) == NULL)
    g_error ("%s: the memory JSON is not the plan's:\n%s", what, expect->str);
  /* The totals line, and the plan's own totals line, agree. */
  tail = g_strdup_printf ("\nlive volume: peak %" G_GUINT64_FORMAT
                          " elements at node %u, retain-all %" G_GUINT64_FORMAT
                          "\n", peak, peak_node, retain);
  g_assert_true (g_str_has_suffix (plan, tail));
  g_assert_true (g_str_has_suffix (memory, tail));
  g_free (tail);
  tp_string_free (json);
  g_string_free (expect, TRUE);
  g_array_free (node, TRUE);
  g_array_free (freed, TRUE);
  g_array_free (volume, TRUE);
  g_strfreev (lines);
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (; *text; text++)
    n += *text == '\n';
  return n;
}

/* Every program of dir: the check agrees (ok, or kink), every value is
 * finite, the memory is the plan's, one explanation per node. */
static guint
check_dir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *f;
  guint n = 0;

  g_assert_nonnull (d);
  while ((f = g_dir_read_name (d)) != NULL)
    {
      char *path, *src, **argv;
      const char *observe[16];
      TpChoices c = { 0 };
      TpSession *s;
      const char *check, *line;
      TpStats stats;

      if (!g_str_has_suffix (f, ".tape"))
        continue;
      path = g_build_filename (dir, f, NULL);
      src = read_file (path);
      argv = read_args (path, &c, observe);
      s = tp_session_new ();
      g_assert_cmpint (tp_session_compile (s, src, strlen (src), &c), ==,
                       TP_STATUS_OK);
      check = tp_session_reading (s, TP_READING_CHECK);
      /* The golden program made for a NaN: its loss is NaN. */
      if (strcmp (f, "nonfinite.tape") == 0)
        {
          g_assert_cmpstr (check, ==,
                           "gradient check: central differences in double, "
                           "step cbrt(eps) * max(1, |p|), tolerance 1e-3\n"
                           "d loss / d w nonfinite  worst [0]: analytic "
                           "5.483073, numeric NaN, relative error inf (2 of "
                           "2 elements)\n"
                           "a gradient or the loss is not finite: see where "
                           "the non-finite value is born\n"
                           "non-finite: node 6 Ln, element [0]: "
                           "ln(-0.23218718) = NaN; 1 later node inherits "
                           "it\n");
          check_memory_against_plan (s, path);
          tp_session_free (s);
          g_strfreev (argv);
          g_free (src);
          g_free (path);
          n++;
          continue;
        }
      /* Each parameter line says ok or kink, never anything else. */
      for (line = check; *line; line = strchr (line, '\n') + 1)
        if (g_str_has_prefix (line, "d "))
          {
            char *l = g_strndup (line, strcspn (line, "\n"));
            if (strstr (l, " ok ") == NULL && strstr (l, " kink ") == NULL)
              g_error ("%s: %s", path, l);
            g_free (l);
          }
      g_assert_null (strstr (check, "differs"));
      {
        TpCheckSummary sum;
        g_assert_true (tp_session_check_summary (s, &sum));
        g_assert_true (sum.outcome == TP_OUTCOME_AGREE
                       || sum.outcome == TP_OUTCOME_UNCHECKED);
        g_assert_cmpuint (sum.differing, ==, 0);
        g_assert_cmpint (sum.nonfinite, ==,
                         strcmp (f, "where-does-the-nan-come-from.tape") == 0);
        g_assert_nonnull (strstr (check, "\n"));
        g_assert_true (sum.verdict[sum.verdict_length] == '\n');
      }
      g_assert_true (strstr (check, "all gradients agree with finite "
                                    "differences\n") != NULL
                     || strstr (check, "away from kinks\n") != NULL
                     || strstr (check, "no derivative to check\n") != NULL);
      /* The NaN sample's NaN is born where its comments say; every
       * other program is finite. */
      if (strcmp (f, "where-does-the-nan-come-from.tape") == 0)
        g_assert_true (g_str_has_suffix (check, "non-finite: node 6 Ln, "
                                                "element [0, 0]: "
                                                "ln(-0.5643747) = NaN; 1 "
                                                "later node inherits it\n"));
      else
        g_assert_true (g_str_has_suffix (check, "non-finite: none, every "
                                                "value is finite\n"));
      check_memory_against_plan (s, path);
      /* explain's replay of differentiate matched the tape */
      g_assert_null (strstr (tp_session_reading (s, TP_READING_EXPLAIN),
                             "appended by differentiate"));
      tp_session_stats (s, &stats);
      g_assert_cmpuint (count_lines (tp_session_reading (s, TP_READING_EXPLAIN)),
                        ==, stats.nodes);
      tp_session_free (s);
      g_strfreev (argv);
      g_free (src);
      g_free (path);
      n++;
    }
  g_dir_close (d);
  return n;
}

static void
test_samples_and_golden (void)
{
  char *samples = g_test_build_filename (G_TEST_DIST, "..", "resources",
                                         "samples", NULL);
  char *golden = g_test_build_filename (G_TEST_DIST, "golden", NULL);

  g_assert_cmpuint (check_dir (samples), >=, 12);
  g_assert_cmpuint (check_dir (golden), >=, 19);
  g_free (samples);
  g_free (golden);
}

/* The verdict of parameter `name`'s line in the check reading. */
static char *
verdict_of (TpSession *s, const char *name)
{
  const char *check = tp_session_reading (s, TP_READING_CHECK);
  char *prefix = g_strdup_printf ("d loss / d %s ", name);
  const char *at = strstr (check, prefix);
  char **words;
  char *v;

  g_assert_nonnull (at);
  words = g_strsplit_set (at + strlen (prefix), " ", -1);
  v = NULL;
  for (int k = 0; words[k] != NULL && v == NULL; k++)
    if (words[k][0] != '\0')
      v = g_strdup (words[k]);
  g_strfreev (words);
  g_free (prefix);
  return v;
}

static void
expect_verdicts (const char *src, int broken, const char *w_verdict,
                 const char *v_verdict)
{
  TpSession *s;
  char *w, *v;

  tp_diff_break_op = broken;
  s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  tp_diff_break_op = -1;
  w = verdict_of (s, "w");
  v = verdict_of (s, "v");
  g_assert_cmpstr (w, ==, w_verdict);
  g_assert_cmpstr (v, ==, v_verdict);
  g_free (w);
  g_free (v);
  tp_session_free (s);
}

/* A broken backward rule: the parameter whose path has the op differs,
 * the other does not. */
static void
test_broken_rule (void)
{
  const char *tanh_w = "w = parameter [2, 3]\nv = parameter [3]\n"
                       "x = input [2, 3]\n"
                       "loss = sum(tanh(w) * x) + sum(v * v)\n";
  const char *exp_v = "w = parameter [2]\nv = parameter [2]\n"
                      "loss = sum(w * w) + sum(exp(v))\n";
  TpSession *s;

  expect_verdicts (tanh_w, -1, "ok", "ok");
  expect_verdicts (tanh_w, TP_OP_TANH, "differs", "ok");
  expect_verdicts (exp_v, -1, "ok", "ok");
  expect_verdicts (exp_v, TP_OP_EXP, "ok", "differs");
  /* The JSON says so too, and the verdict line counts one. */
  tp_diff_break_op = TP_OP_EXP;
  s = tp_test_compile (exp_v, NULL, NULL, TP_STATUS_OK);
  tp_diff_break_op = -1;
  {
    char *json = tp_session_to_json (s);
    g_assert_nonnull (strstr (json, "{\"parameter\":\"v\",\"element\":["));
    g_assert_nonnull (strstr (json, "\"verdict\":\"differs\"}]"));
    g_assert_nonnull (strstr (json, "{\"parameter\":\"w\""));
    tp_string_free (json);
  }
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            "\n1 gradient differs from finite differences\n"));
  /* The summary front ends show is that line. */
  {
    TpCheckSummary sum;
    char *json = tp_session_to_json (s);
    g_assert_true (tp_session_check_summary (s, &sum));
    g_assert_cmpint (sum.outcome, ==, TP_OUTCOME_DIFFER);
    g_assert_cmpuint (sum.differing, ==, 1);
    g_assert_cmpuint (sum.verdict_length, ==,
                      strlen ("1 gradient differs from finite differences"));
    g_assert_true (strncmp (sum.verdict, "1 gradient differs from finite "
                                         "differences\n",
                            sum.verdict_length + 1) == 0);
    g_assert_false (sum.nonfinite);
    g_assert_nonnull (strstr (json, "\"check\":{\"outcome\":\"differ\","
                                    "\"verdict\":\"1 gradient differs from "
                                    "finite differences\",\"gradients\":["));
    tp_string_free (json);
  }
  /* The broken rule's extra node has an origin of its own: a step of Exp's
   * rule, and so has every other appended node. */
  {
    const char *explain = tp_session_reading (s, TP_READING_EXPLAIN);
    uint32_t steps = 0;
    TpOrigin o;
    g_assert_nonnull (strstr (explain, "the backward rule of node 4 Exp, "
                                       "with g = d loss / d node 4, a = v, "
                                       "y = node 4: the first operand's "
                                       "share counted twice"));
    for (uint32_t i = tp_session_spec_nodes (s);
         tp_session_origin (s, i, &o); i++)
      {
        g_assert_cmpint (o.role, !=, TP_ORIGIN_APPENDED);
        steps += o.role == TP_ORIGIN_RULE && o.of == 4;
      }
    g_assert_cmpuint (steps, ==, 2);
  }
  tp_session_free (s);
}

/* The last line of the check reading. */
static void
expect_nonfinite (const char *src, const char *line, const char *json_part)
{
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  const char *check = tp_session_reading (s, TP_READING_CHECK);
  char *json = tp_session_to_json (s);

  if (!g_str_has_suffix (check, line))
    g_error ("expected %s, got:\n%s", line, check);
  if (strstr (json, json_part) == NULL)
    g_error ("expected %s in the JSON", json_part);
  tp_string_free (json);
  tp_session_free (s);
}

static void
test_nonfinite (void)
{
  /* x is [[0.18237947, 0.49829936], [0.19127616, 0.5308383]] (values):
   * [0, 0] is the first below 0.5. */
  expect_nonfinite ("x = input [2, 2]\ny = ln(x - 0.5)\nloss = sum(y)\n",
                    "non-finite: node 4 Ln, element [0, 0]: ln(-0.31762052) "
                    "= NaN; 1 later node inherits it\n",
                    "\"nonfinite\":{\"node\":4,\"element\":[0,0],\"op\":\"Ln\","
                    "\"operands\":[-0.31762052],\"value\":\"NaN\","
                    "\"inherited_by\":1}");
  expect_nonfinite ("x = input 100.0\ny = exp(x)\nloss = y * 2.0\n",
                    "non-finite: node 1 Exp, element []: exp(100) = inf; "
                    "1 later node inherits it\n",
                    "\"nonfinite\":{\"node\":1,\"element\":[],\"op\":\"Exp\","
                    "\"operands\":[100],\"value\":\"inf\",\"inherited_by\":1}");
  expect_nonfinite ("z = input 0.0\nq = z / z\nloss = q + 1.0\n",
                    "non-finite: node 1 Div, element []: 0 / 0 = NaN; "
                    "1 later node inherits it\n",
                    "\"op\":\"Div\",\"operands\":[0,0],\"value\":\"NaN\"");
  /* x is [0.18237947, 0.49829936, 0.19127616]: every element is below
   * 0.6, the first is reported. */
  expect_nonfinite ("x = input [3]\ns = sqrt(x - 0.6)\nloss = sum(s)\n",
                    "non-finite: node 4 Sqrt, element [0]: sqrt(-0.41762054) "
                    "= NaN; 1 later node inherits it\n",
                    "\"node\":4,\"element\":[0],\"op\":\"Sqrt\"");
  /* inf - inf: the infinity is born first, at the overflowing product;
   * the NaN of the difference and the loss inherit it. */
  expect_nonfinite ("a = input 1e30\nb = a * a\nc = b - b\nloss = c * 2.0\n",
                    "non-finite: node 1 Mul, element []: "
                    "1000000000000000000000000000000 * "
                    "1000000000000000000000000000000 = inf; 2 later nodes "
                    "inherit it\n",
                    "\"node\":1,\"element\":[],\"op\":\"Mul\"");
  /* Later in the tape, and in a gradient: the derivative of sqrt at 0,
   * seed / (sqrt(w) + sqrt(w)), is born in the appended nodes (node 4);
   * only the running sum, node 6, reads it. */
  expect_nonfinite ("w = parameter 0.0\nloss = sqrt(w)\n",
                    "non-finite: node 4 Div, element []: 1 / 0 = inf; "
                    "1 later node inherits it\n",
                    "\"op\":\"Div\",\"operands\":[1,0],\"value\":\"inf\"");
}

/* The picture marks the origin, and only when there is one. */
static void
test_picture_mark (void)
{
  TpSession *s = tp_test_compile ("z = input 0.0\nq = z / z\nloss = q + 1.0\n",
                                  NULL, NULL, TP_STATUS_OK);
  const char *dot = tp_session_reading (s, TP_READING_DOT);

  g_assert_nonnull (strstr (dot, "n1 [id=\"n1\", class=\"op nonfinite\""));
  g_assert_nonnull (strstr (dot, "non-finite born here"));
  g_assert_nonnull (strstr (dot, "non-finite value born here (red border"));
  tp_session_free (s);
  s = tp_test_compile ("z = input 1.0\nq = z / z\nloss = q + 1.0\n", NULL,
                       NULL, TP_STATUS_OK);
  dot = tp_session_reading (s, TP_READING_DOT);
  g_assert_null (strstr (dot, "nonfinite"));
  g_assert_null (strstr (dot, "non-finite"));
  tp_session_free (s);
}

/* relu at 0: the one-sided slopes differ, the verdict is kink. */
static void
test_kink (void)
{
  TpSession *s = tp_test_compile ("w = parameter 0.0\nv = parameter 0.5\n"
                                  "loss = relu(w) + relu(v)\n", NULL, NULL,
                                  TP_STATUS_OK);
  char *w = verdict_of (s, "w"), *v = verdict_of (s, "v");

  g_assert_cmpstr (w, ==, "kink");
  g_assert_cmpstr (v, ==, "ok");
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            "away from kinks\n"));
  /* The kink's central difference: (relu(h) - relu(-h)) / 2h. */
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            "\nd loss / d w kink       at []: analytic 1, "
                            "numeric 0.5, relative error 5.0e-1 (1 of 1 "
                            "element, 1 kink)\n"));
  g_free (w);
  g_free (v);
  tp_session_free (s);
  /* Along random directions (element by element costs more): every
   * direction moves v across relu's 0. */
  s = tp_test_compile ("w = parameter [32, 32]\nx = input [32, 32]\n"
                       "v = parameter 0.0\n"
                       "loss = sum(tanh(tanh(x @ w) @ x)) + relu(v)\n",
                       NULL, NULL, TP_STATUS_OK);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            "\nd loss / d v kink       at direction 0: "
                            "analytic 0.8101305, numeric 0.40506524, "
                            "relative error 4.1e-1 (along 4 random "
                            "directions, 1 element, 4 kinks)\n"));
  tp_session_free (s);
}

/* Over 1,000 elements: a sample of 1,000; over the budget: fewer, said. */
static void
test_sample_and_budget (void)
{
  TpSession *s = tp_test_compile ("w = parameter [50, 40]\n"
                                  "loss = sum(tanh(w))\n", NULL, NULL,
                                  TP_STATUS_OK);

  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            " (1000 of 2000 elements, sampled)\n"));
  g_assert_null (strstr (tp_session_reading (s, TP_READING_CHECK),
                         "work budget"));
  tp_session_free (s);
  /* A 256 x 256 x 256 matmul is 2^24 multiply-adds: the budget is four
   * times the base run's, at most 2^26.  An element of w reaches one
   * column of the product (256 x 256 multiply-adds), so each element's
   * two runs cost 2 x 65539 and 382 fit after the base run. */
  s = tp_test_compile ("w = parameter [256, 256]\nx = input [256, 256]\n"
                       "loss = sum(x @ w)\n", NULL, NULL, TP_STATUS_OK);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            " (382 of 65536 elements, sampled)\n"));
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            "\nthe work budget (67108864) checked fewer "
                            "elements\nthe checked elements agree with "
                            "finite differences\n"));
  tp_session_free (s);
  /* Past the matmul, a second one reads the whole changed column: element
   * by element costs more than four directions, and one direction (two
   * runs of both 300^3 matmuls) does not fit what the base run left. */
  s = tp_test_compile ("w = parameter [300, 300]\nx = input [300, 300]\n"
                       "y = input [300, 300]\nloss = sum(tanh(x @ w) @ y)\n",
                       NULL, NULL, TP_STATUS_OK);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            " unchecked  no direction fits the work budget "
                            "(along 0 random directions, 90000 elements)\n"
                            "the work budget (67108864) checked fewer "
                            "parameters\nno gradient was checked\n"));
  tp_session_free (s);
}

/* The README program: a sentence per node, the Leaf-then-Add pairs, the
 * plan's reasons. */
static void
test_explain (void)
{
  TpSession *s = tp_test_compile ("w = parameter 0.0\nx = input 2.0\n"
                                  "y = input 4.0\nerror = w * x - y\n"
                                  "loss = error * error\n", NULL, "error",
                                  TP_STATUS_OK);
  const char *e = tp_session_reading (s, TP_READING_EXPLAIN);

  g_assert_true (g_str_has_prefix (e, "0 Parameter: w [] = 0, a trainable value: "
                                      "the derivative is taken with respect "
                                      "to it; freed after node 3, its last "
                                      "reader\n"));
  g_assert_nonnull (strstr (e, "\n3 Mul: w [] * x [] gives []; freed after "
                               "node 4, its last reader\n"));
  g_assert_nonnull (strstr (e, "\n4 Sub: node 3 [] - y [] gives [], named "
                               "error; kept: readable because it is "
                               "observed\n"));
  g_assert_nonnull (strstr (e, "\n6 Leaf: the seed, d loss / d loss = 1, "
                               "where the backward pass starts;"));
  g_assert_nonnull (strstr (e, "\n7 Mul: the backward rule of node 5 Mul, "
                               "with g = d loss / d loss, a = error, b = "
                               "error, y = loss: g * b, the left operand's "
                               "share: the cotangent times the other "
                               "operand; freed after node 10, its last "
                               "reader\n"));
  g_assert_nonnull (strstr (e, "\n12 Neg: the backward rule of node 4 Sub, "
                               "with g = d loss / d error, a = node 3, b = y, "
                               "y = error: -g, the right operand's share; "
                               "not evaluated"));
  g_assert_nonnull (strstr (e, "\n9 Leaf: d loss / d error starts at zero []; "
                               "each consumer adds its share with an Add;"));
  g_assert_nonnull (strstr (e, "\n11 Add: d loss / d error adds share 2, the "
                               "one that flows back through node 5 Mul;"));
  g_assert_nonnull (strstr (e, "\n20 Add: d loss / d w adds share 1, the one "
                               "that flows back through node 3 Mul; kept: "
                               "readable because it is the gradient d loss "
                               "/ d w\n"));
  g_assert_nonnull (strstr (e, "\n22 Add: d loss / d x adds share 1, the one "
                               "that flows back through node 3 Mul; not "
                               "evaluated: no result of the plan needs it\n"));
  g_assert_cmpuint (count_lines (e), ==, 23);
  tp_session_free (s);
}

/* Observing a name keeps its buffer to the end at once. */
static void
test_memory_observe (void)
{
  const char *src = "w = parameter 0.0\nx = input 2.0\ny = input 4.0\n"
                    "error = w * x - y\nloss = error * error\n";
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  char *json = tp_session_to_json (s);

  g_assert_nonnull (strstr (json, "{\"node\":4,\"elements\":1,\"from\":4,"
                                  "\"to\":8}"));
  tp_string_free (json);
  check_memory_against_plan (s, "readme");
  tp_session_free (s);
  s = tp_test_compile (src, NULL, "error", TP_STATUS_OK);
  json = tp_session_to_json (s);
  g_assert_nonnull (strstr (json, "{\"node\":4,\"elements\":1,\"from\":4,"
                                  "\"to\":16}"));
  tp_string_free (json);
  check_memory_against_plan (s, "readme --observe error");
  g_assert_true (g_str_has_prefix (tp_session_memory_svg (s), "<svg "));
  g_assert_nonnull (strstr (tp_session_memory_svg (s),
                            "<g id=\"n4\" class=\"buffer kept\">"));
  tp_session_free (s);
}

/* A program too big for element by element: every parameter along four
 * seeded directions, said in the header, each line and the JSON. */
static void
test_directions (void)
{
  char *src = tp_test_chain (40, "", "");
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  const char *check = tp_session_reading (s, TP_READING_CHECK);
  char *json = tp_session_to_json (s);
  guint lines = 0;

  g_assert_true (g_str_has_prefix (check, "gradient check: central "
                                          "differences in double along "
                                          "seeded random directions v, "));
  g_assert_nonnull (strstr (check, "\nelement by element would cost more "
                                   "than 1048576 estimated multiply-adds "
                                   "and more than 4 directions a "
                                   "parameter ("));
  for (const char *l = check; *l; l = strchr (l, '\n') + 1)
    if (g_str_has_prefix (l, "d loss / d w"))
      {
        char *line = g_strndup (l, strcspn (l, "\n"));
        if (strstr (line, " ok ") == NULL
            || !g_str_has_suffix (line, "(along 4 random directions, 64 "
                                        "elements)"))
          g_error ("%s", line);
        g_free (line);
        lines++;
      }
  g_assert_cmpuint (lines, ==, 40);
  g_assert_nonnull (strstr (check, "\nall gradients agree with finite "
                                   "differences along random directions\n"));
  g_assert_nonnull (strstr (json, "{\"parameter\":\"w0\",\"element\":[],"
                                  "\"analytic\":"));
  g_assert_nonnull (strstr (json, "\"verdict\":\"ok\",\"directions\":4,"
                                  "\"direction\":"));
  g_assert_nonnull (strstr (json, "\"check\":{\"outcome\":\"agree\","));
  tp_string_free (json);
  tp_session_free (s);
  g_free (src);
}

/* The verdict of parameter `name` in a direction-mode reading. */
static void
expect_along (TpSession *s, const char *name, const char *verdict)
{
  char *v = verdict_of (s, name);
  char *line_start = g_strdup_printf ("d loss / d %s ", name);
  const char *at = strstr (tp_session_reading (s, TP_READING_CHECK),
                           line_start);

  g_assert_cmpstr (v, ==, verdict);
  g_assert_nonnull (strstr (at, " random directions, "));
  g_free (line_start);
  g_free (v);
}

/* A broken backward rule is caught along directions too, for the
 * parameters whose path has the op only. */
static void
test_directions_broken_rule (void)
{
  char *src = tp_test_chain (30, "v = parameter [8, 8]\nu = input [8, 8]\n",
                     " + sum(exp(v @ u))");
  TpSession *s;

  for (int pass = 0; pass < 3; pass++)
    {
      int broken = pass == 0 ? -1 : pass == 1 ? TP_OP_TANH : TP_OP_EXP;
      tp_diff_break_op = broken;
      s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
      tp_diff_break_op = -1;
      g_assert_true (g_str_has_prefix (tp_session_reading (s,
                                                           TP_READING_CHECK),
                                       "gradient check: central differences "
                                       "in double along"));
      for (guint k = 0; k < 30; k++)
        {
          char *w = g_strdup_printf ("w%u", k);
          expect_along (s, w, broken == TP_OP_TANH ? "differs" : "ok");
          g_free (w);
        }
      expect_along (s, "v", broken == TP_OP_EXP ? "differs" : "ok");
      tp_session_free (s);
    }
  g_free (src);
}

/* Directions are drawn from the parameter's node and the direction's
 * number alone: the same program gives the same reading in every run and
 * every build (this line is pinned: it is what the wasm build must give
 * too). */
static void
test_directions_deterministic (void)
{
  const char *src = "w1 = parameter [64, 128]\nw2 = parameter [128, 10]\n"
                    "x = input [32, 64]\nh = relu(x @ w1)\n"
                    "loss = sum(log_softmax(h @ w2, 1)) / -32.0\n";
  TpSession *a = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpSession *b = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  char *ja = tp_session_to_json (a), *jb = tp_session_to_json (b);

  g_assert_cmpstr (tp_session_reading (a, TP_READING_CHECK), ==,
                   tp_session_reading (b, TP_READING_CHECK));
  g_assert_cmpstr (ja, ==, jb);
  g_assert_nonnull (strstr (tp_session_reading (a, TP_READING_CHECK),
                            "\nd loss / d w2 ok         worst direction 1: "
                            "analytic 9.132943, numeric 9.13297, relative "
                            "error 2.9e-6 (along 4 random directions, 1280 "
                            "elements)\n"));
  tp_string_free (ja);
  tp_string_free (jb);
  tp_session_free (a);
  tp_session_free (b);
}

/* tp_check_runs counts the gradient checks: none for a compile (the
 * check waits until its reading is asked for), one for the first ask of
 * a program that has a derivative to check, none otherwise. */
static void
test_check_runs (void)
{
  guint64 before = tp_check_runs ();
  TpSession *s = tp_test_compile ("w = parameter [2]\nloss = sum(w * w)\n",
                                  NULL, NULL, TP_STATUS_OK);

  g_assert_cmpuint (tp_check_runs (), ==, before);
  tp_session_reading (s, TP_READING_SPEC);
  tp_session_reading (s, TP_READING_VALUES);
  g_assert_cmpuint (tp_check_runs (), ==, before);
  tp_session_reading (s, TP_READING_CHECK);
  tp_session_reading (s, TP_READING_CHECK);
  g_assert_cmpuint (tp_check_runs (), ==, before + 1);
  tp_session_free (s);
  s = tp_test_compile ("x = input [2]\ny = x * 2.0\n", NULL, NULL,
                       TP_STATUS_OK);
  tp_session_reading (s, TP_READING_CHECK);
  g_assert_cmpuint (tp_check_runs (), ==, before + 1);
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/check/samples-and-golden", test_samples_and_golden);
  g_test_add_func ("/topos/check/broken-rule", test_broken_rule);
  g_test_add_func ("/topos/check/nonfinite", test_nonfinite);
  g_test_add_func ("/topos/check/picture-mark", test_picture_mark);
  g_test_add_func ("/topos/check/kink", test_kink);
  g_test_add_func ("/topos/check/sample-and-budget", test_sample_and_budget);
  g_test_add_func ("/topos/check/directions", test_directions);
  g_test_add_func ("/topos/check/directions-broken-rule",
                   test_directions_broken_rule);
  g_test_add_func ("/topos/check/directions-deterministic",
                   test_directions_deterministic);
  g_test_add_func ("/topos/check/runs", test_check_runs);
  g_test_add_func ("/topos/check/explain", test_explain);
  g_test_add_func ("/topos/check/memory-observe", test_memory_observe);
  return g_test_run ();
}
