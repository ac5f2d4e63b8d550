/* Limits: every program is read or refused quickly, with a diagnostic
 * that says which limit it met. */
#include "tp-test-util.h"
#include "tp-tape.h"

static void
test_tensor_limit (void)
{
  tp_test_refused ("x = parameter [100000, 100000]",
                   "1:5: this tensor would hold 10,000,000,000 elements; a tensor "
                   "holds at most 4,194,304 (2^22)");
  tp_test_refused ("x = leaf [65536, 65536, 65536, 65536, 65536]",
                   "1:5: this tensor would hold more than 18,446,744,073,709,551,615 "
                   "elements; a tensor holds at most 4,194,304 (2^22)");
  tp_test_refused ("a = input [4096, 1]\nb = input [1, 4096]\nc = a @ b",
                   "3:7: this tensor would hold 16,777,216 elements; a tensor "
                   "holds at most 4,194,304 (2^22)");
  tp_test_refused ("a = broadcast(1.0, [4096, 4097])",
                   "1:5: this tensor would hold 16,781,312 elements; a tensor "
                   "holds at most 4,194,304 (2^22)");
  /* Exactly 2^22 is allowed. */
  tp_session_free (tp_test_compile ("a = broadcast(1.0, [2048, 2048])\n",
                                    NULL, NULL, TP_STATUS_OK));
}

/* "x = leaf [[0, 0, ...]]" with n zeros in one row. */
static char *
literal_row (uint64_t n)
{
  GString *src = g_string_new ("x = leaf [[0");

  for (uint64_t k = 1; k < n; k++)
    g_string_append (src, ",0");
  g_string_append (src, "]]\n");
  return g_string_free (src, FALSE);
}

static void
test_literal_limit (void)
{
  char *src = literal_row (TP_LIMIT_TENSOR);
  TpStats stats;
  TpSession *s;

  /* A literal holds at most 2^22 elements, like any tensor ... */
  s = tp_test_compile (src, NULL, NULL, TP_STATUS_OK);
  tp_session_stats (s, &stats);
  g_assert_cmpuint (stats.elements, ==, TP_LIMIT_TENSOR);
  tp_session_free (s);
  g_free (src);
  /* ... and is refused at the element past it: column 12 + 2 * 2^22. */
  src = literal_row (TP_LIMIT_TENSOR + 1);
  tp_test_refused (src, "1:8388620: a literal holds at most 4,194,304 (2^22) "
                        "elements");
  g_free (src);
  /* The program's total counts a literal like any payload. */
  src = g_strdup_printf ("%s%s%s%s%s", "a = leaf [2048, 2048]\n",
                         "b = leaf [2048, 2048]\n", "c = leaf [2048, 2048]\n",
                         "d = leaf [2048, 2048]\n",
                         "e = leaf [[1, 2], [3, 4]]\n");
  tp_test_refused (src, "5:5: the program's tensors would hold more than "
                        "16,777,216 (2^24) elements in all");
  g_free (src);
}

static void
test_total_limit (void)
{
  GString *src = g_string_new (NULL);

  /* 16 x 2^20 = 2^24 elements is allowed ... */
  for (int k = 0; k < 16; k++)
    g_string_append_printf (src, "a%d = leaf [1024, 1024]\n", k);
  tp_session_free (tp_test_compile (src->str, NULL, NULL, TP_STATUS_OK));
  /* ... one element more is not. */
  g_string_append (src, "b = 1.0\n");
  tp_test_refused (src->str, "17:5: the program's tensors would hold more than "
                             "16,777,216 (2^24) elements in all");
  g_string_free (src, TRUE);
}

static void
test_work_limit (void)
{
  tp_test_refused ("a = input [2048, 2048]\nb = a @ a",
                   "2:7: running the program would take more than 1,073,741,824 "
                   "(2^30) multiply-adds");
}

static void
test_node_limit (void)
{
  GString *src = g_string_new (NULL);

  for (guint k = 0; k < TP_LIMIT_NODES; k++)
    g_string_append (src, "x = 1\n");
  tp_session_free (tp_test_compile (src->str, NULL, NULL, TP_STATUS_OK));
  g_string_append (src, "y = 2\n");
  tp_test_refused (src->str, "100001:5: the program records more than 100,000 "
                             "nodes");
  g_string_free (src, TRUE);
}

static char *
nested (const char *open, guint depth, const char *middle, const char *close)
{
  GString *s = g_string_new ("x = ");

  for (guint k = 0; k < depth; k++)
    g_string_append (s, open);
  g_string_append (s, middle);
  for (guint k = 0; k < depth; k++)
    g_string_append (s, close);
  return g_string_free (s, FALSE);
}

static void
test_depth_limit (void)
{
  char *src;

  src = nested ("(", 256, "1", ")");
  tp_session_free (tp_test_compile (src, NULL, NULL, TP_STATUS_OK));
  g_free (src);
  src = nested ("(", 257, "1", ")");
  tp_test_refused (src, "1:262: expressions nest deeper than 256 levels");
  g_free (src);
  src = nested ("-", 256, "1", "");
  tp_session_free (tp_test_compile (src, NULL, NULL, TP_STATUS_OK));
  g_free (src);
  src = nested ("sum(", 300, "1", ")");
  tp_test_refused (src, "1:1033: expressions nest deeper than 256 levels");
  g_free (src);
  /* A million open parentheses are refused, not a stack overflow. */
  src = nested ("(", 1000000, "1", "");
  tp_test_refused (src, "1:262: expressions nest deeper than 256 levels");
  g_free (src);
}

static void
test_hostile_text (void)
{
  GString *s = g_string_new ("x = ");
  TpSession *session;
  size_t n;
  const TpDiag *d;

  /* A ten-megabyte number is lexed in linear time, and a refused one is
   * quoted shortly. */
  for (guint k = 0; k < 10u << 20; k++)
    g_string_append_c (s, '7');
  session = tp_test_compile (s->str, NULL, NULL, TP_STATUS_OK);
  g_assert_cmpstr (tp_session_reading (session, TP_READING_VALUES), ==,
                   "x            []         inf\n");
  tp_session_free (session);
  g_string_append (s, ".5.");
  session = tp_test_compile (s->str, NULL, NULL, TP_STATUS_REFUSED);
  d = tp_session_diags (session, &n);
  {
    char *sevens = g_strnfill (64, '7');
    char *want = g_strdup_printf ("`%s...` is not a number", sevens);
    g_assert_cmpstr (d->message, ==, want);
    g_free (want);
    g_free (sevens);
  }
  tp_session_free (session);
  /* Overflow and NaN from arithmetic are values, not errors. */
  tp_test_reading ("x = 1e39 * 2\ny = 1e39 - 1e39\nz = 1e39 * 1e-50\n",
                   NULL, NULL, TP_READING_VALUES,
                   "x            []         inf\n"
                   "y            []         NaN\n"
                   "z            []         NaN\n");
  g_string_free (s, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/limits/tensor", test_tensor_limit);
  g_test_add_func ("/topos/limits/literal", test_literal_limit);
  g_test_add_func ("/topos/limits/total", test_total_limit);
  g_test_add_func ("/topos/limits/work", test_work_limit);
  g_test_add_func ("/topos/limits/nodes", test_node_limit);
  g_test_add_func ("/topos/limits/depth", test_depth_limit);
  g_test_add_func ("/topos/limits/hostile", test_hostile_text);
  return g_test_run ();
}
