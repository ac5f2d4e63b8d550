/* Every node's value (tp_session_node_value and the JSON's "nodes"), not
 * only the named statements'. */
#include "tp-test-util.h"

static void
test_every_node (void)
{
  TpSession *s = tp_test_compile ("w = parameter 0.0\nx = input 2.0\n"
                                  "y = input 4.0\nerror = w * x - y\n"
                                  "loss = error * error\n", NULL, NULL,
                                  TP_STATUS_OK);
  TP_AUTO_STRING *json = tp_session_to_json_members (s, TP_TEST_CLASSIC_JSON);
  uint32_t rank = 9;
  const uint32_t *dims = NULL;
  const float *v;

  /* 6 recorded nodes and 17 appended by differentiate. */
  g_assert_cmpuint (tp_session_n_nodes (s), ==, 23);
  v = tp_session_node_value (s, 3, &rank, &dims);      /* w * x */
  g_assert_nonnull (v);
  g_assert_cmpuint (rank, ==, 0);
  g_assert_cmpfloat (v[0], ==, 0.0f);
  v = tp_session_node_value (s, 4, NULL, NULL);        /* error */
  g_assert_cmpfloat (v[0], ==, -4.0f);
  v = tp_session_node_value (s, 20, NULL, NULL);       /* d loss / d w */
  g_assert_cmpfloat (v[0], ==, -16.0f);
  v = tp_session_node_value (s, 11, NULL, NULL);       /* d loss / d error */
  g_assert_cmpfloat (v[0], ==, -8.0f);
  g_assert_null (tp_session_node_value (s, 23, NULL, NULL));
  g_assert_true (g_str_has_suffix (json,
    ",\"nodes\":[{\"node\":0,\"op\":\"Parameter\",\"shape\":[],\"data\":[0]},"
    "{\"node\":1,\"op\":\"Input\",\"shape\":[],\"data\":[2]},"
    "{\"node\":2,\"op\":\"Input\",\"shape\":[],\"data\":[4]},"
    "{\"node\":3,\"op\":\"Mul\",\"shape\":[],\"data\":[0]},"
    "{\"node\":4,\"op\":\"Sub\",\"shape\":[],\"data\":[-4]},"
    "{\"node\":5,\"op\":\"Mul\",\"shape\":[],\"data\":[16]},"
    "{\"node\":6,\"op\":\"Leaf\",\"shape\":[],\"data\":[1]},"
    "{\"node\":7,\"op\":\"Mul\",\"shape\":[],\"data\":[-4]},"
    "{\"node\":8,\"op\":\"Mul\",\"shape\":[],\"data\":[-4]},"
    "{\"node\":9,\"op\":\"Leaf\",\"shape\":[],\"data\":[0]},"
    "{\"node\":10,\"op\":\"Add\",\"shape\":[],\"data\":[-4]},"
    "{\"node\":11,\"op\":\"Add\",\"shape\":[],\"data\":[-8]},"
    "{\"node\":12,\"op\":\"Neg\",\"shape\":[],\"data\":[8]},"
    "{\"node\":13,\"op\":\"Leaf\",\"shape\":[],\"data\":[0]},"
    "{\"node\":14,\"op\":\"Add\",\"shape\":[],\"data\":[-8]},"
    "{\"node\":15,\"op\":\"Leaf\",\"shape\":[],\"data\":[0]},"
    "{\"node\":16,\"op\":\"Add\",\"shape\":[],\"data\":[8]},"
    "{\"node\":17,\"op\":\"Mul\",\"shape\":[],\"data\":[-16]},"
    "{\"node\":18,\"op\":\"Mul\",\"shape\":[],\"data\":[-0]},"   /* -8 * 0 */
    "{\"node\":19,\"op\":\"Leaf\",\"shape\":[],\"data\":[0]},"
    "{\"node\":20,\"op\":\"Add\",\"shape\":[],\"data\":[-16]},"
    "{\"node\":21,\"op\":\"Leaf\",\"shape\":[],\"data\":[0]},"
    "{\"node\":22,\"op\":\"Add\",\"shape\":[],\"data\":[0]}]}\n"));
  tp_session_free (s);
}

static void
test_budget (void)
{
  /* A [1024, 1024] tensor is 2^20 elements, the whole JSON budget: the
   * named tensors take it first, and the nodes after them are elided. */
  TpSession *s = tp_test_compile ("x = input [1024, 1024]\ny = x * 2.0\n",
                                  NULL, NULL, TP_STATUS_OK);
  TP_AUTO_STRING *json = tp_session_to_json (s);
  const char *nodes = strstr (json, ",\"nodes\":[");

  g_assert_nonnull (nodes);
  g_assert_nonnull (strstr (nodes, "{\"node\":0,\"op\":\"Input\",\"shape\":[1024,1024],"
                                   "\"data\":null,\"elided\":true}"));
  g_assert_nonnull (tp_session_node_value (s, 0, NULL, NULL));
  tp_session_free (s);
}

static void
test_refused (void)
{
  TpSession *s = tp_test_compile ("x = 1 +\n", NULL, NULL, TP_STATUS_REFUSED);
  TP_AUTO_STRING *json = tp_session_to_json_members (s, TP_TEST_CLASSIC_JSON);

  g_assert_cmpuint (tp_session_n_nodes (s), ==, 0);
  g_assert_null (tp_session_node_value (s, 0, NULL, NULL));
  g_assert_true (g_str_has_suffix (json, ",\"nodes\":[]}\n"));
  tp_session_free (s);
}

/* One node's value as text, in the values reading's tensor format, and
 * summarised past the element count asked for. */
static void
test_value_text (void)
{
  TpSession *s = tp_test_compile ("x = input [2, 2]\ny = x * 2.0\n"
                                  "z = input [10]\n", NULL, NULL,
                                  TP_STATUS_OK);
  TpSession *r = tp_test_compile ("x = 1 +\n", NULL, NULL, TP_STATUS_REFUSED);
  char *text;

  text = tp_session_node_value_text (s, 0, 100);
  g_assert_nonnull (strstr (tp_session_reading (s, TP_READING_VALUES), text));
  g_assert_true (text[0] == '[' && text[1] == '[');
  tp_string_free (text);
  text = tp_session_node_value_text (s, 1, 100);     /* the constant 2 */
  g_assert_cmpstr (text, ==, "2");
  tp_string_free (text);
  text = tp_session_node_value_text (s, 4, 4);       /* 10 elements, 4 asked */
  g_assert_nonnull (strstr (text, ", ..."));
  tp_string_free (text);
  g_assert_null (tp_session_node_value_text (s, tp_session_n_nodes (s), 100));
  g_assert_null (tp_session_node_value_text (r, 0, 100));
  tp_session_free (s);
  tp_session_free (r);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nodes/every-node", test_every_node);
  g_test_add_func ("/nodes/budget", test_budget);
  g_test_add_func ("/nodes/refused", test_refused);
  g_test_add_func ("/nodes/value-text", test_value_text);
  return g_test_run ();
}
