/* Training (tp_session_train): the train reading, its JSON and curve, and
 * the bits of every step checked by an independent route: the updated
 * rank-0 parameters are written back into the program as `parameter
 * VALUE` lines, the program is read again, and its loss must be the next
 * loss of the train reading, bit for bit. */
#include <math.h>
#include <stdio.h>

#include "tp-fmt.h"
#include "tp-test-util.h"

static TpTrain *
train_program (const char *src, uint32_t steps, const char *rate)
{
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpTrain *t = tp_session_train (s, steps, rate, strlen (rate));

  g_assert_nonnull (t);
  tp_session_free (s);
  return t;
}

static uint32_t
bits (float x)
{
  uint32_t u;

  memcpy (&u, &x, sizeof u);
  return u;
}

/* The target's value when src is read (the last values line's number). */
static float
loss_of (const char *src)
{
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpTrain *t = tp_session_train (s, 0, "0", 1);
  const float *losses;
  size_t n;
  float loss;

  g_assert_nonnull (t);
  g_assert_true (tp_train_ok (t));
  losses = tp_train_losses (t, &n);
  g_assert_cmpuint (n, ==, 1);
  loss = losses[0];
  tp_train_free (t);
  tp_session_free (s);
  return loss;
}

/* The parameters after the train reading's blank line: name and value. */
static void
read_parameters (const char *reading, const char *reading_parameters,
                 char names[][16], float *values, size_t n)
{
  const char *p = strstr (reading, "\n\n");
  size_t k = 0;

  g_assert_nonnull (p);
  p += 2;
  g_assert_cmpstr (p, ==, reading_parameters);
  while (*p != '\0' && k < n)
    {
      char name[16];
      int used = 0;

      g_assert_cmpint (sscanf (p, "%15s []%n", name, &used), ==, 1);
      g_assert_cmpint (used, >, 0);
      p += used;
      while (*p == ' ')
        p++;
      {
        size_t len = strcspn (p, "\n");
        g_assert_true (tp_parse_f32 (p, len, &values[k]));
        p += len + (p[len] == '\n');
      }
      g_strlcpy (names[k], name, sizeof names[k]);
      k++;
    }
  g_assert_cmpuint (k, ==, n);
}

/* Steps a program whose parameters are all rank 0 (written by make from
 * their values) one step at a time through the independent route. */
static void
check_route (char *(*make) (const float *params), size_t n_params,
             const float *start, uint32_t steps, const char *rate)
{
  float params[8];
  g_autofree char *first = make (start);
  TpTrain *whole = train_program (first, steps, rate);
  const float *losses;
  size_t n_losses;

  g_assert_true (tp_train_ok (whole));
  losses = tp_train_losses (whole, &n_losses);
  g_assert_cmpuint (n_losses, ==, steps + 1);
  memcpy (params, start, n_params * sizeof *params);
  for (uint32_t s = 0; s < steps; s++)
    {
      g_autofree char *src = make (params);
      TpTrain *one = train_program (src, 1, rate);
      char names[8][16];
      g_autofree char *next = NULL;

      g_assert_true (tp_train_ok (one));
      /* This program's own loss is step s of the long run. */
      g_assert_cmphex (bits (loss_of (src)), ==, bits (losses[s]));
      read_parameters (tp_train_reading (one), tp_train_parameters (one),
                       names, params, n_params);
      for (size_t k = 0; k < n_params; k++)
        /* `parameter VALUE` cannot be negative: keep to runs where they
         * stay positive. */
        g_assert_true (params[k] >= 0.0f);
      next = make (params);
      g_assert_cmphex (bits (loss_of (next)), ==, bits (losses[s + 1]));
      tp_train_free (one);
    }
  g_test_message ("%u steps, last loss %.9g", steps, (double) losses[steps]);
  tp_train_free (whole);
}

static char *
put (float x)
{
  char buf[64];
  size_t n = tp_fmt_f32_display (x, buf);

  buf[n] = '\0';
  /* The language reads "2" as well as "2.0". */
  return g_strdup (buf);
}

static char *
make_readme (const float *p)
{
  g_autofree char *w = put (p[0]);

  return g_strdup_printf ("w = parameter %s\nx = input 2.0\ny = input 4.0\n"
                          "error = w * x - y\nloss = error * error\n", w);
}

static char *
make_regression (const float *p)
{
  g_autofree char *w = put (p[0]);
  g_autofree char *b = put (p[1]);

  return g_strdup_printf (
    "w = parameter %s\nb = parameter %s\n"
    "e1 = w * 1.0 + b - 3.0\ne2 = w * 2.0 + b - 5.0\ne3 = w * 3.0 + b - 7.0\n"
    "loss = (e1 * e1 + e2 * e2 + e3 * e3) / 3.0\n", w, b);
}

static void
test_route_readme (void)
{
  const float start[] = { 0.0f };

  check_route (make_readme, 1, start, 12, "0.1");
}

static void
test_route_regression (void)
{
  const float start[] = { 0.0f, 0.0f };

  check_route (make_regression, 2, start, 30, "0.05");
}

static void
test_reading (void)
{
  TpTrain *t = train_program ("w = parameter 0.0\nx = input 2.0\n"
                              "y = input 4.0\nerror = w * x - y\n"
                              "loss = error * error\n", 2, "0.1");
  TP_AUTO_STRING *json = tp_train_to_json (t);

  /* loss = (2w - 4)^2 from w = 0: gradient -16, w = 1.6; then error =
   * 3.2 - 4 = -0.79999995, gradient -3.1999998, w = 1.6 + 0.32 rounds to
   * 1.9200001 (each operation rounded to f32, as a struct-packing
   * emulation in Python agrees). */
  g_assert_cmpstr (tp_train_reading (t), ==,
                   "step 0  loss 16\n"
                   "step 1  loss 0.6399999\n"
                   "step 2  loss 0.02559995\n"
                   "\n"
                   "w            []         1.9200001\n");
  g_assert_cmpstr (json, ==,
                   "{\"steps\":2,\"learning_rate\":0.1,"
                   "\"losses\":[16,0.6399999,0.02559995],"
                   "\"parameters\":{\"w\":{\"shape\":[],\"data\":[1.9200001]}},"
                   "\"stopped\":null,"
                   "\"summary\":\"trained 2 steps: loss 16 to 0.0256\","
                   "\"chart\":{\"title\":\"trained 2 steps: loss 16 to 0.0256\","
                   "\"x_title\":\"step\",\"y_title\":\"loss\","
                   "\"x\":[0,2],\"y\":[0.01,100],\"y_log\":true,"
                   "\"x_ticks\":[{\"at\":0,\"value\":0,\"label\":\"0\"},"
                   "{\"at\":0.5,\"value\":1,\"label\":\"1\"},"
                   "{\"at\":1,\"value\":2,\"label\":\"2\"}],"
                   "\"y_ticks\":[{\"at\":0,\"value\":0.01,\"label\":\"0.01\"},"
                   "{\"at\":0.25,\"value\":0.1,\"label\":\"0.1\"},"
                   "{\"at\":0.5,\"value\":1,\"label\":\"1\"},"
                   "{\"at\":0.75,\"value\":10,\"label\":\"10\"},"
                   "{\"at\":1,\"value\":100,\"label\":\"100\"}]}}");
  g_assert_false (tp_train_stopped (t, NULL, NULL));
  tp_train_free (t);
}

/* A loss as the reading writes it, for front ends that show one value. */
static void
test_f32_text (void)
{
  TpTrain *t = train_program ("w = parameter 0.0\nx = input 2.0\n"
                              "y = input 4.0\nerror = w * x - y\n"
                              "loss = error * error\n", 2, "0.1");
  const char *expected[] = { "16", "0.6399999", "0.02559995" };
  size_t n = 0;
  const float *losses = tp_train_losses (t, &n);

  g_assert_cmpuint (n, ==, 3);
  for (size_t i = 0; i < n; i++)
    {
      char *text = tp_f32_text (losses[i]);

      g_assert_cmpstr (text, ==, expected[i]);
      tp_string_free (text);
    }
  {
    char *nan = tp_f32_text (NAN), *inf = tp_f32_text (-INFINITY);

    g_assert_cmpstr (nan, ==, "NaN");
    g_assert_cmpstr (inf, ==, "-inf");
    tp_string_free (nan);
    tp_string_free (inf);
  }
  tp_train_free (t);
}

static void
test_target_name (void)
{
  TpTrain *t = train_program ("a = parameter [2]\ncost = sum(a * a)\n", 1,
                              "0.5");

  g_assert_true (g_str_has_prefix (tp_train_reading (t), "step 0  cost "));
  g_assert_nonnull (strstr (tp_train_reading (t), "\n\na            [2]        [0, 0]\n"));
  tp_train_free (t);
}

static void
check_refused (const char *src, uint32_t steps, const char *rate,
               const char *expect)
{
  TpTrain *t = train_program (src, steps, rate);
  TP_AUTO_STRING *json = tp_train_to_json (t);
  g_autofree char *want_json = g_strdup_printf ("{\"error\":\"%s\"}", expect);

  g_assert_false (tp_train_ok (t));
  g_assert_cmpstr (tp_train_error (t), ==, expect);
  g_assert_cmpstr (tp_train_reading (t), ==, "");
  g_assert_cmpstr (json, ==, want_json);
  tp_train_free (t);
}

static void
test_refused (void)
{
  check_refused ("y = parameter [1, 2]\n", 5, "0.1",
                 "there is nothing to train: `y` has shape [1, 2] and a "
                 "gradient needs a rank-0 target: wrap it in `sum(...)`, or "
                 "pick another target.");
  check_refused ("x = input 2.0\nloss = x * x\n", 5, "0.1",
                 "there is nothing to train: there is no parameter to "
                 "differentiate with respect to: declare one with "
                 "`w = parameter [2, 2]`.");
  check_refused ("w = parameter 1.0\nloss = w * w\n", 10001, "0.1",
                 "training takes at most 10,000 steps, asked for 10,001");
  check_refused ("w = parameter 1.0\nloss = w * w\n", 3, "fast",
                 "the learning rate must be a number, such as 0.1; found `fast`");
  check_refused ("w = parameter 1.0\nloss = w * w\n", 3, "0.1 0.2",
                 "the learning rate must be a number, such as 0.1; found `0.1 0.2`");
  check_refused ("w = parameter 1.0\nloss = w * w\n", 3, "",
                 "the learning rate must be a number, such as 0.1");
  {
    /* A [512, 512] matmul and the two of its gradient are 3 * 2^27
     * multiply-adds a run (plus a little): 5 runs fit in 2^31, so 4 steps
     * do and 10 do not. */
    TpSession *s = tp_test_compile ("x = parameter [512, 512]\n"
                                    "loss = sum(x @ x)\n", NULL, NULL,
                                    TP_STATUS_OK);
    TpTrain *t = tp_session_train (s, 10, "0.1", 3);

    g_assert_false (tp_train_ok (t));
    g_assert_true (g_str_has_prefix (tp_train_error (t),
                                     "10 steps would take about "));
    g_assert_nonnull (strstr (tp_train_error (t),
                              " multiply-adds, over the training budget of "
                              "2,147,483,648; at most 4 steps fit"));
    tp_train_free (t);
    tp_session_free (s);
  }
}

static void
test_negative_rate (void)
{
  TpTrain *t = train_program ("w = parameter 1.0\nloss = w * w\n", 1, "-0.5");

  /* Ascent: w = 1 - (-0.5 * 2) = 2. */
  g_assert_cmpstr (tp_train_reading (t), ==,
                   "step 0  loss 1\nstep 1  loss 4\n\n"
                   "w            []         2\n");
  tp_train_free (t);
}

static void
test_nonfinite_stops (void)
{
  /* w = 1: loss = ln(w), gradient 1 / w = 1, so w = 1 - 2 = -1 and step 1
   * takes the log of a negative. */
  TpTrain *t = train_program ("w = parameter 1.0\nloss = ln(w)\n", 5, "2");
  TP_AUTO_STRING *json = tp_train_to_json (t);
  uint32_t step = 0, node = 0;
  size_t n;

  g_assert_true (tp_train_ok (t));
  g_assert_true (tp_train_stopped (t, &step, &node));
  g_assert_cmpuint (step, ==, 1);
  g_assert_cmpuint (node, ==, 1);
  tp_train_losses (t, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (tp_train_reading (t), ==,
                   "step 0  loss 0\nstep 1  loss NaN\n"
                   "stopped at step 1: node 1 Ln gives NaN\n\n"
                   "w            []         -1\n");
  g_assert_nonnull (strstr (json, "\"stopped\":{\"step\":1,\"node\":1,"
                                  "\"op\":\"Ln\",\"element\":[],"
                                  "\"value\":\"NaN\"}"));
  tp_train_free (t);

  /* An element of a tensor: w is seeded [0.18237947, 0.49829936], so
   * exp(w * 300) overflows in element 1 only, at the Exp (node 4), before
   * any update. */
  t = train_program ("w = parameter [2]\nloss = sum(exp(w * 300.0))\n", 3,
                     "0.1");
  g_assert_true (tp_train_stopped (t, &step, &node));
  g_assert_cmpuint (step, ==, 0);
  g_assert_cmpuint (node, ==, 4);
  g_assert_nonnull (strstr (tp_train_reading (t),
                            "stopped at step 0: node 4 Exp gives inf at "
                            "element [1]\n"));
  tp_train_free (t);
}

static void
test_unrelated_nonfinite (void)
{
  /* z is NaN but neither the loss nor the gradient reads it: training
   * goes on. */
  TpTrain *t = train_program ("w = parameter 1.0\nz = ln(w - 3.0)\n"
                              "loss = w * w\n", 2, "0.25");

  g_assert_false (tp_train_stopped (t, NULL, NULL));
  g_assert_cmpstr (tp_train_reading (t), ==,
                   "step 0  loss 1\nstep 1  loss 0.25\nstep 2  loss 0.0625\n"
                   "\nw            []         0.25\n");
  tp_train_free (t);
}

static void
test_svg (void)
{
  const char *readme = "w = parameter 0.0\nx = input 2.0\ny = input 4.0\n"
                       "error = w * x - y\nloss = error * error\n";
  TpTrain *a = train_program (readme, 8, "0.1");
  TpTrain *b = train_program (readme, 8, "0.1");
  TpTrain *flat = train_program ("w = parameter 1.0\nloss = w * w\n", 4,
                                 "0.01");
  const char *svg = tp_train_svg (a);

  g_assert_cmpstr (svg, ==, tp_train_svg (b));
  g_assert_true (g_str_has_prefix (svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  g_assert_true (g_str_has_suffix (svg, "</svg>\n"));
  /* 16 down to about 1e-11: more than two decades, a log scale from
   * 1e-10 to 100, labelled every third decade (at most six labels), in
   * the short number format. */
  g_assert_nonnull (strstr (svg, "(log scale)</title>"));
  g_assert_nonnull (strstr (svg, ">1e-10</text>"));
  g_assert_nonnull (strstr (svg, ">1e-7</text>"));
  g_assert_nonnull (strstr (svg, ">0.1</text>"));
  g_assert_nonnull (strstr (svg, ">100</text>"));
  g_assert_null (strstr (svg, ">0.01</text>"));
  g_assert_nonnull (strstr (svg, "<path class=\"curve\" d=\"M900 459L"));
  /* 1 down to 0.92: linear from 0 to 1, ticks every 0.2. */
  g_assert_null (strstr (tp_train_svg (flat), "log scale"));
  g_assert_nonnull (strstr (tp_train_svg (flat), ">0.2</text>"));
  g_assert_nonnull (strstr (tp_train_svg (flat), "<path class=\"curve\" d=\"M900 300L"));
  g_assert_nonnull (strstr (tp_train_svg (flat), "L6200 658\"/>"));
  tp_train_free (a);
  tp_train_free (b);
  tp_train_free (flat);
}

static void
test_session_untouched (void)
{
  const char *src = "w = parameter 0.0\nx = input 2.0\ny = input 4.0\n"
                    "error = w * x - y\nloss = error * error\n";
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  g_autofree char *before = g_strdup (tp_session_reading (s, TP_READING_VALUES));
  TpTrain *t = tp_session_train (s, 50, "0.1", 3);
  TP_AUTO_STRING *json = tp_session_to_json_with_train (s, t);

  g_assert_cmpstr (tp_session_reading (s, TP_READING_VALUES), ==, before);
  /* The session's JSON, then the train object (its first values as in
   * test_reading). */
  g_assert_nonnull (strstr (json, "\"remat\":{\"on\":false,"));
  g_assert_nonnull (strstr (json, ",\"train\":{\"steps\":50,"
                                  "\"learning_rate\":0.1,\"losses\":[16,"
                                  "0.6399999,0.02559995,"));
  g_assert_nonnull (strstr (json, "\"stopped\":null,\"summary\":"
                                  "\"trained 50 steps: loss 16 to "));
  g_assert_true (g_str_has_suffix (json, "}]}}}\n"));
  g_assert_true (g_str_has_prefix (json, "{\"names\":"));
  tp_train_free (t);
  tp_session_free (s);
}

/* Trains resources/samples/NAME.tape with the command its header comment
 * suggests ("# train it: topos --train STEPS --learning-rate R ..."), and
 * asserts it ran every step and its last loss is below fraction times its
 * first.  Returns the training and, in *src, the program. */
static TpTrain *
train_sample (const char *name, double fraction, char **src)
{
  g_autofree char *file = g_strconcat (name, ".tape", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "resources",
                                                 "samples", file, NULL);
  char rate[32];
  unsigned steps = 0;
  const float *losses;
  size_t n;
  TpTrain *t;

  g_assert_true (g_file_get_contents (path, src, NULL, NULL));
  g_assert_nonnull (strstr (*src, "\n# train it: "));
  g_assert_cmpint (sscanf (strstr (*src, "\n# train it: "),
                           "\n# train it: topos --train %u --learning-rate %31s",
                           &steps, rate), ==, 2);
  t = train_program (*src, steps, rate);
  g_assert_true (tp_train_ok (t));
  g_assert_false (tp_train_stopped (t, NULL, NULL));
  losses = tp_train_losses (t, &n);
  g_assert_cmpuint (n, ==, steps + 1);
  if (!((double) losses[n - 1] < fraction * (double) losses[0]))
    g_error ("%s: the loss went from %g to %g in %u steps, not below %g of "
             "it", name, (double) losses[0], (double) losses[n - 1], steps,
             fraction);
  return t;
}

/* XOR converges: the loss falls by over a million, and the program read
 * again with the trained parameters written in as literals predicts
 * 0, 1, 1, 0 within 1e-3. */
static void
test_xor_converges (void)
{
  g_autofree char *src = NULL;
  TpTrain *t = train_sample ("xor", 1e-6, &src);
  const char *params = strstr (tp_train_reading (t), "\n\n") + 2;
  g_autoptr (GString) trained = g_string_new (NULL);
  static const float want[4] = { 0, 1, 1, 0 };
  g_auto (GStrv) lines = g_strsplit (src, "\n", -1);
  const TpName *names;
  const float *data;
  bool found = false;
  TpSession *s;
  size_t n;

  /* Each "w1 = parameter [2, 4]" becomes "w1 = parameter [[...]]" from
   * its values line, "w1           [2, 4]     [[...]]". */
  for (char **l = lines; *l != NULL; l++)
    {
      const char *eq = strstr (*l, " = parameter ");
      if (eq != NULL)
        {
          g_autofree char *name = g_strndup (*l, (size_t) (eq - *l));
          const char *v = params;
          while (!(g_str_has_prefix (v, name) && v[strlen (name)] == ' '))
            v = strchr (v, '\n') + 1;
          v = strstr (v, "[[");
          g_string_append_printf (trained, "%s = parameter %.*s\n", name,
                                  (int) strcspn (v, "\n"), v);
        }
      else
        g_string_append_printf (trained, "%s\n", *l);
    }
  s = tp_test_compile (trained->str, NULL, NULL, TP_STATUS_OK);
  names = tp_session_names (s, &n);
  for (size_t k = 0; k < n; k++)
    if (strcmp (names[k].name, "prediction") == 0)
      {
        data = tp_session_node_value (s, names[k].node, NULL, NULL);
        for (int e = 0; e < 4; e++)
          g_assert_cmpfloat_with_epsilon ((double) data[e], (double) want[e],
                                          1e-3);
        found = true;
      }
  g_assert_true (found);
  tp_session_free (s);
  tp_train_free (t);
}

/* The other teaching samples train with their suggested command too. */
static void
test_samples_converge (void)
{
  char *src = NULL;

  /* cross-entropy on separable points keeps falling */
  tp_train_free (train_sample ("softmax-classifier", 1e-2, &src));
  g_free (src);
  /* down to the least-squares minimum of seeded noise */
  tp_train_free (train_sample ("linear-regression", 0.5, &src));
  g_free (src);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/train/reading", test_reading);
  g_test_add_func ("/train/f32-text", test_f32_text);
  g_test_add_func ("/train/target-name", test_target_name);
  g_test_add_func ("/train/refused", test_refused);
  g_test_add_func ("/train/negative-rate", test_negative_rate);
  g_test_add_func ("/train/nonfinite-stops", test_nonfinite_stops);
  g_test_add_func ("/train/unrelated-nonfinite", test_unrelated_nonfinite);
  g_test_add_func ("/train/svg", test_svg);
  g_test_add_func ("/train/session-untouched", test_session_untouched);
  g_test_add_func ("/train/route-readme", test_route_readme);
  g_test_add_func ("/train/route-regression", test_route_regression);
  g_test_add_func ("/train/xor-converges", test_xor_converges);
  g_test_add_func ("/train/samples-converge", test_samples_converge);
  return g_test_run ();
}
