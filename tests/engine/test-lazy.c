/* Paid for when read: a compile reads, records and differentiates; every
 * reading, fact and JSON member is computed when it is asked for, once,
 * and a chosen set of JSON members has the bytes it has in the whole
 * object. */
#include "tp-test-util.h"

static const char readme[] = "w = parameter 0.0\nx = input 2.0\n"
                             "y = input 4.0\nerror = w * x - y\n"
                             "loss = error * error\n";

/* Asking for the spec runs neither the interpreter, the plan nor the
 * check; the check runs once, when its reading is asked for. */
static void
test_spec_runs_no_check (void)
{
  TpSession *s = tp_test_compile (readme, NULL, "error", TP_STATUS_OK);

  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_SPEC),
                            "5  Mul"));
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_DERIVATIVE),
                            "17 nodes appended"));
  for (int w = 0; w < TP_N_COMPUTATIONS; w++)
    g_assert_cmpuint (tp_session_computed (s, (TpComputation) w), ==, 0);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_PLAN),
                            "kept"));
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_PLAN), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_INTERPRETER), ==, 0);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 0);
  /* the picture needs the values (it marks a non-finite one), not the
   * check */
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_DOT),
                            "digraph"));
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_INTERPRETER), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 0);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_CHECK),
                            "gradient check"));
  tp_session_reading (s, TP_READING_CHECK);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 1);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_PLAN), ==, 1);
  /* a new compile starts over */
  g_assert_cmpint (tp_session_compile (s, readme, strlen (readme), NULL), ==,
                   TP_STATUS_OK);
  tp_session_reading (s, TP_READING_SPEC);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 1);
  tp_session_reading (s, TP_READING_CHECK);
  g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 2);
  tp_session_free (s);
}

/* JSON members chosen alone: the same bytes as in the whole object, and
 * the spec and the values alone run no check. */
static void
test_members (void)
{
  const char *programs[] = {
    readme,
    "w = parameter [2, 3]\nx = input [4, 2]\nb = parameter 0.5\n"
    "h = tanh(x @ w) * b\nloss = sum(relu(h))\n",
    "x = input [1024, 1024]\ny = x * 2.0\nz = sum(y)\n",
    "x = 1 +\n",
  };

  for (size_t p = 0; p < G_N_ELEMENTS (programs); p++)
    {
      TpSession *whole = tp_test_compile (programs[p], NULL, NULL,
                                          p == 3 ? TP_STATUS_REFUSED
                                                 : TP_STATUS_OK);
      char *all = tp_session_to_json (whole);

      g_assert_nonnull (all);
      for (int m = 0; m < TP_N_JSON_MEMBERS; m++)
        {
          TpSession *s = tp_test_compile (programs[p], NULL, NULL,
                                          tp_session_status (whole));
          char *one = tp_session_to_json_members (s, TP_JSON_MEMBER (m));
          size_t key = strlen (tp_json_member_name ((TpJsonMember) m)) + 3;

          g_assert_nonnull (one);
          if (strcmp (one, "{}\n") == 0)
            {
              /* only "gradients" is left out, when there is none */
              g_assert_cmpint (m, ==, TP_JSON_GRADIENTS);
              g_assert_null (strstr (all, ",\"gradients\":{"));
            }
          else
            {
              /* {"member":VALUE}\n: "member":VALUE is in the whole */
              char *inner = g_strndup (one + 1, strlen (one) - 3);
              g_assert_cmpuint (strlen (one), >, key);
              g_assert_nonnull (strstr (all, inner));
              g_free (inner);
            }
          tp_string_free (one);
          tp_session_free (s);
        }
      tp_string_free (all);
      tp_session_free (whole);
    }
  {
    TpSession *s = tp_test_compile (readme, NULL, NULL, TP_STATUS_OK);
    char *json = tp_session_to_json_members (s, TP_JSON_MEMBER (TP_JSON_SPEC)
                                                | TP_JSON_MEMBER (TP_JSON_VALUES));
    g_assert_true (g_str_has_prefix (json, "{\"spec\":\"   0  Parameter"));
    g_assert_nonnull (strstr (json, "\",\"values\":\"w "));
    g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_CHECK), ==, 0);
    g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_EXPLAIN), ==, 0);
    g_assert_cmpuint (tp_session_computed (s, TP_COMPUTED_PICTURE), ==, 0);
    tp_string_free (json);
    tp_session_free (s);
  }
}

static void
test_member_names (void)
{
  TpJsonMember m;

  for (int k = 0; k < TP_N_JSON_MEMBERS; k++)
    {
      const char *name = tp_json_member_name ((TpJsonMember) k);
      g_assert_nonnull (name);
      g_assert_true (tp_json_member_from_name (name, strlen (name), &m));
      g_assert_cmpint (m, ==, k);
    }
  g_assert_false (tp_json_member_from_name ("spe", 3, &m));
  g_assert_false (tp_json_member_from_name ("train", 5, &m));
  g_assert_true (tp_json_member_from_name ("spec,values", 4, &m));
  g_assert_cmpint (m, ==, TP_JSON_SPEC);
  g_assert_null (tp_json_member_name (TP_N_JSON_MEMBERS));
}

/* A session with its own allocator: every block, returned strings and
 * trainings included, comes from it and goes back to it. */
static long own_blocks;

static void *
own_malloc (size_t size)
{
  own_blocks++;
  return malloc (size);
}

static void *
own_realloc (void *ptr, size_t size)
{
  if (ptr == NULL)
    own_blocks++;
  return realloc (ptr, size);
}

static void
own_free (void *ptr)
{
  if (ptr != NULL)
    own_blocks--;
  free (ptr);
}

static const TpAllocator own = { own_malloc, own_realloc, own_free };

static void
test_own_allocator (void)
{
  TpSession *other = tp_session_new ();
  TpSession *s = tp_session_new_with_allocator (&own);
  char *json, *text;
  TpTrain *t;

  g_assert_cmpint (own_blocks, ==, 1);
  g_assert_cmpint (tp_session_compile (s, readme, strlen (readme), NULL), ==,
                   TP_STATUS_OK);
  g_assert_cmpint (tp_session_compile (other, readme, strlen (readme), NULL),
                   ==, TP_STATUS_OK);
  /* another session's work allocates nothing of ours */
  {
    long before = own_blocks;
    char *theirs = tp_session_to_json (other);
    g_assert_cmpint (own_blocks, ==, before);
    tp_string_free (theirs);
  }
  json = tp_session_to_json (s);
  text = tp_session_node_value_text (s, 4, 16);
  t = tp_session_train (s, 3, "0.1", 3);
  g_assert_cmpstr (text, ==, "-4");
  g_assert_true (tp_train_ok (t));
  g_assert_cmpint (own_blocks, >, 3);
  tp_session_free (s);
  /* what it returned outlives it, and goes back to our allocator */
  g_assert_nonnull (strstr (json, "\"target\":\"loss\""));
  g_assert_cmpstr (tp_train_parameters_at (t, 1), ==,
                   "w            []         1.6\n");
  tp_string_free (json);
  tp_string_free (text);
  tp_train_free (t);
  g_assert_cmpint (own_blocks, ==, 0);
  tp_session_free (other);
}

/* An interrupt stops the check: nothing of it is kept, the session still
 * reads, and the next ask checks again. */
static int asks;
static int stop_after;

static bool
stop_now (void *data)
{
  (void) data;
  return ++asks > stop_after;
}

static void
test_interrupt (void)
{
  const char *src = "w = parameter [40, 30]\nx = input [2, 40]\n"
                    "loss = sum(tanh(x @ w) * tanh(x @ w))\n";
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  TpSession *plain = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  char *json;

  asks = 0;
  stop_after = 10;
  tp_session_set_interrupt (s, stop_now, NULL);
  g_assert_cmpstr (tp_session_reading (s, TP_READING_CHECK), ==, "");
  g_assert_true (tp_session_interrupted (s));
  g_assert_cmpint (tp_session_status (s), ==, TP_STATUS_OK);
  g_assert_cmpint (asks, ==, 11);
  /* the other readings are there, and the JSON with the check is not */
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_SPEC), "MatMul"));
  g_assert_false (tp_session_interrupted (s));
  g_assert_null (tp_session_to_json_members (s, TP_JSON_MEMBER (TP_JSON_CHECK)));
  json = tp_session_to_json_members (s, TP_JSON_MEMBER (TP_JSON_VALUES));
  g_assert_nonnull (json);
  tp_string_free (json);
  /* asked again with no interrupt, the check runs whole */
  tp_session_set_interrupt (s, NULL, NULL);
  g_assert_cmpstr (tp_session_reading (s, TP_READING_CHECK), ==,
                   tp_session_reading (plain, TP_READING_CHECK));
  g_assert_false (tp_session_interrupted (s));
  tp_session_free (s);
  tp_session_free (plain);
}

/* The JSON written in pieces is the same bytes as the JSON made whole; a
 * writer that refuses stops it. */
static bool
append_piece (const char *data, size_t length, void *user)
{
  GString *all = user;

  g_string_append_len (all, data, (gssize) length);
  return all->len < G_MAXSIZE;
}

static bool
refuse_piece (const char *data, size_t length, void *user)
{
  (void) data;
  (void) length;
  (*(int *) user)++;
  return false;
}

static void
test_write_json (void)
{
  GString *chain = g_string_new ("x = input [4, 8]\n");
  TpSession *s;
  char *whole;
  GString *pieces = g_string_new (NULL);
  int calls = 0;

  for (int k = 0; k < 300; k++)
    {
      char *prev = k == 0 ? g_strdup ("x") : g_strdup_printf ("h%d", k - 1);
      g_string_append_printf (chain, "w%d = parameter [8, 8]\n"
                                     "h%d = tanh(%s @ w%d) + %s\n", k, k,
                              prev, k, prev);
      g_free (prev);
    }
  g_string_append (chain, "loss = sum(h299 * h299)\n");
  s = tp_test_compile (chain->str, NULL, NULL, TP_STATUS_OK);
  whole = tp_session_to_json (s);
  g_assert_true (tp_session_write_json (s, TP_JSON_ALL, append_piece, pieces));
  g_assert_cmpstr (pieces->str, ==, whole);
  /* it came in several pieces: the writer never held it whole */
  g_assert_cmpuint (strlen (whole), >, 4u << 20);
  g_assert_false (tp_session_write_json (s, TP_JSON_ALL, refuse_piece, &calls));
  g_assert_cmpint (calls, ==, 1);
  tp_string_free (whole);
  g_string_free (pieces, TRUE);
  g_string_free (chain, TRUE);
  tp_session_free (s);
}

/* Every reading's length is its text's (the wasm seam copies
 * tp_session_reading_length bytes: the forward and jax readings once gave
 * 0 there). */
static void
test_reading_lengths (void)
{
  TpSession *s = tp_test_compile (readme, NULL, "error", TP_STATUS_OK);

  for (int r = 0; r < TP_N_READINGS; r++)
    {
      const char *text = tp_session_reading (s, (TpReading) r);

      g_assert_cmpuint (strlen (text), >, 0);
      g_assert_cmpuint (tp_session_reading_length (s, (TpReading) r), ==,
                        strlen (text));
    }
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/lazy/spec-runs-no-check", test_spec_runs_no_check);
  g_test_add_func ("/topos/lazy/members", test_members);
  g_test_add_func ("/topos/lazy/member-names", test_member_names);
  g_test_add_func ("/topos/lazy/own-allocator", test_own_allocator);
  g_test_add_func ("/topos/lazy/interrupt", test_interrupt);
  g_test_add_func ("/topos/lazy/write-json", test_write_json);
  g_test_add_func ("/topos/lazy/reading-lengths", test_reading_lengths);
  return g_test_run ();
}
