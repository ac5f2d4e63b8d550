/* Every diagnostic of the tape language, asserted whole: docs/language.md
 * (messages), the shape checks, and docs/decisions.md D7-D10 (positions). */
#include "tp-test-util.h"

static void
test_lexer_messages (void)
{
  tp_test_refused ("x = 1.2.3", "1:5: `1.2.3` is not a number");
  tp_test_refused ("x = 2e", "1:5: `2e` is not a number");
  tp_test_refused ("x = 1e+", "1:5: `1e+` is not a number");
  tp_test_refused ("x = parameter [2, 3", "1:15: a shape needs a closing `]`");
  tp_test_refused ("x = parameter [2, 3\n]", "1:15: a shape needs a closing `]`");
  tp_test_refused ("x = parameter [2, a]", "1:15: `a` is not an axis extent");
  tp_test_refused ("x = parameter [2, -1]", "1:15: `-1` is not an axis extent");
  tp_test_refused ("x = parameter [2 3]", "1:15: `2 3` is not an axis extent");
  tp_test_refused ("x = parameter [4294967296]",
                   "1:15: `4294967296` is not an axis extent");
  tp_test_refused ("x = parameter [2, 0]",
                   "1:15: an axis extent must be at least 1");
  tp_test_refused ("x = $", "1:5: unexpected `$`");
  tp_test_refused ("x = 1 ; y", "1:7: unexpected `;`");
  tp_test_refused ("x = \xc3\xa9", "1:5: unexpected `\xc3\xa9`");
  tp_test_refused ("# \xc3\xa9\xc3\xa9\nx = 1 $", "2:7: unexpected `$`");
  tp_test_refused ("x = 1 \xff", "1:7: unexpected `\xef\xbf\xbd`");
  tp_test_refused ("x = \xc3\xa9 + \xff", "1:5: unexpected `\xc3\xa9`");
}

static void
test_literal_messages (void)
{
  /* docs/language.md, Diagnostics: tensor literals (D21), each at the
   * character it is about. */
  tp_test_refused ("x = leaf [[1, 2], [3]]",
                   "1:19: ragged literal: a row at this depth has 2 elements, "
                   "this one has 1 element");
  tp_test_refused ("x = leaf [[1], [2, 3]]",
                   "1:20: ragged literal: a row at this depth has 1 element, "
                   "this one has more");
  tp_test_refused ("x = leaf [[[1], [2]], [[3], [4]], [[5]]]",
                   "1:35: ragged literal: a row at this depth has 2 elements, "
                   "this one has 1 element");
  tp_test_refused ("x = leaf [[[1]], [[2]], [[3]]] + leaf [[[1]], [[2]] [[3]]]",
                   "1:53: expected `,` or `]` in the literal, found `[`");
  tp_test_refused ("x = leaf [[[1]], [2]]",
                   "1:19: a literal's numbers all sit at the same depth: "
                   "expected `[`, found `2`");
  tp_test_refused ("x = leaf [[1, [2]]]",
                   "1:15: a literal's numbers all sit at the same depth: "
                   "expected a number, found `[`");
  tp_test_refused ("x = leaf [[]]",
                   "1:11: an empty `[]` in a literal: a tensor is never empty");
  tp_test_refused ("x = leaf [[1], [ ]]",
                   "1:16: an empty `[]` in a literal: a tensor is never empty");
  tp_test_refused ("x = leaf [[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]",
                   "1:26: a literal has at most 16 axes");
  tp_test_refused ("x = leaf [[1, a]]",
                   "1:15: expected a number in the literal, found `a`");
  tp_test_refused ("x = leaf [[1, +1]]",
                   "1:15: expected a number in the literal, found `+`");
  tp_test_refused ("x = leaf [[1, 2 + 3]]",
                   "1:17: expected `,` or `]` in the literal, found `+`");
  tp_test_refused ("x = leaf [[-]]",
                   "1:13: expected a number in the literal, found `]`");
  tp_test_refused ("x = leaf [[1, \xc3\xa9]]",
                   "1:15: expected a number in the literal, found `\xc3\xa9`");
  tp_test_refused ("x = leaf [[1.2.3]]", "1:12: `1.2.3` is not a number");
  tp_test_refused ("x = leaf [[1 2]]",
                   "1:14: expected `,` or `]` in the literal, found `2`");
  tp_test_refused ("x = leaf [[1, 2]",
                   "1:17: expected `,` or `]` in the literal, found the end "
                   "of the line");
  tp_test_refused ("y = 1\nx = leaf [[1,\n2]]\n",
                   "2:14: expected a number in the literal, found the end of "
                   "the line");
  tp_test_refused ("x = leaf [[1, 2],]",
                   "1:18: expected an element after `,` in the literal, "
                   "found `]`");
  /* A literal is a source's argument, nothing else. */
  tp_test_refused ("x = [[1, 2]]",
                   "1:5: expected a value, found a literal of shape [1, 2]");
  tp_test_refused ("x = reshape(leaf [[1, 2]], [[2]])",
                   "1:28: `reshape` takes a shape second, found a literal of "
                   "shape [1, 1]");
}

static void
test_first_lexical_error_wins (void)
{
  /* A parse error on line 1 does not hide a lexical error on line 2. */
  tp_test_refused ("x = y\nz = 1.2.3", "2:5: `1.2.3` is not a number");
  tp_test_refused ("x = $\ny = @", "1:5: unexpected `$`");
}

static void
test_parser_messages (void)
{
  tp_test_refused ("2 = x", "1:1: a line is `name = expression`, found `2`");
  tp_test_refused ("= x", "1:1: a line is `name = expression`, found `=`");
  tp_test_refused ("[2] = x",
                   "1:1: a line is `name = expression`, found the shape [2]");
  tp_test_refused ("x + 1", "1:3: expected `=`, found `+`");
  tp_test_refused ("x", "1:2: expected `=`, found the end of the line");
  tp_test_refused ("parameter [2, 2]",
                   "1:11: expected `=`, found the shape [2, 2]");
  tp_test_refused ("x = (1 + 2", "1:11: expected `)`, found the end of the line");
  tp_test_refused ("x = (1 + 2 # note",
                   "1:18: expected `)`, found the end of the line");
  tp_test_refused ("x = 1)", "1:6: unexpected `)` after the expression");
  tp_test_refused ("x = 1 2", "1:7: unexpected `2` after the expression");
  tp_test_refused ("x = 1 [2]",
                   "1:7: unexpected the shape [2] after the expression");
  tp_test_refused ("x = y", "1:5: `y` is not defined yet");
  /* the idioms learners try: mean, and a bias for every row */
  tp_test_refused ("x = input [4, 1]\nloss = mean(x * x)",
                   "2:8: `mean` is not defined yet; for the mean of all N "
                   "elements write `sum(x) / N`, and `mean_along(x, axis)` "
                   "for the mean along one axis");
  tp_test_refused ("x = input [4, 3]\nw = parameter [3, 2]\n"
                   "b = parameter [2]\nh = x @ w + b",
                   "4:11: `+` needs equal shapes, got [4, 2] + [2]; nothing "
                   "broadcasts by accident; to use it for each of the 4 rows, "
                   "make it a row and spread it: `ones @ reshape(b, [1, 2])`, "
                   "with `ones = leaf [[1], [1], [1], [1]]`");
  tp_test_refused ("x = input [12, 3]\nw = parameter [3, 2]\n"
                   "bias = parameter [1, 2]\nh = bias + x @ w",
                   "4:10: `+` needs equal shapes, got [1, 2] + [12, 2]; "
                   "nothing broadcasts by accident; to use the [1, 2] row for "
                   "each of the 12 rows, spread it first: `ones @ bias`, with "
                   "`ones = leaf [[1], [1], [1], [1], [1], [1], [1], [1], "
                   "...]` (12 rows of [1])");
  /* no hint where a row would not fit */
  tp_test_refused ("x = input [4, 3]\ny = x * input [3, 4]",
                   "2:7: `*` needs equal shapes, got [4, 3] * [3, 4]; nothing "
                   "broadcasts by accident");
  tp_test_refused ("x = x + 1", "1:5: `x` is not defined yet");
  /* One edit away from a defined name, else from a keyword. */
  tp_test_refused ("w = parameter 1.0\nloss = w * ww",
                   "2:12: `ww` is not defined yet; did you mean `w`?");
  tp_test_refused ("x = inptu [2]",
                   "1:5: `inptu` is not defined yet; did you mean `input`?");
  tp_test_refused ("x = ipnut 1.0",
                   "1:5: `ipnut` is not defined yet; did you mean `input`?");
  tp_test_refused ("x = tanhh(1.0)",
                   "1:5: `tanhh` is not defined yet; did you mean `tanh`?");
  tp_test_refused ("ab = input 1.0\nba = input 2.0\nz = aa",
                   "3:5: `aa` is not defined yet; did you mean `ab`?");
  tp_test_refused ("sum = input 1.0\nx = su",
                   "2:5: `su` is not defined yet; did you mean `sum`?");
  tp_test_refused ("expp = input 1.0\nx = expq",
                   "2:5: `expq` is not defined yet; did you mean `expp`?");
  tp_test_refused ("abc = input 1.0\nx = cba",
                   "2:5: `cba` is not defined yet");
  tp_test_refused ("x = * 2", "1:5: expected a value, found `*`");
  tp_test_refused ("x =", "1:4: expected a value, found the end of the line");
  tp_test_refused ("x = 1.5e0 +",
                   "1:12: expected a value, found the end of the line");
  tp_test_refused ("x = parameter",
                   "1:14: `parameter` takes a shape like `[2, 2]` or a number, "
                   "found the end of the line");
  tp_test_refused ("x = input x",
                   "1:11: `input` takes a shape like `[2, 2]` or a number, "
                   "found `x`");
  tp_test_refused ("x = leaf (2)",
                   "1:10: `leaf` takes a shape like `[2, 2]` or a number, "
                   "found `(`");
  tp_test_refused ("x = tanh + 1", "1:10: expected `(`, found `+`");
  tp_test_refused ("x = sum", "1:8: expected `(`, found the end of the line");
  tp_test_refused ("x = tanh(2.0, 1)", "1:13: expected `)`, found `,`");
}

static void
test_second_arguments (void)
{
  const char *p = "x = parameter [2, 3]\n";
  char *src;

  src = g_strconcat (p, "y = sum_along(x, 1.5)", NULL);
  tp_test_refused (src, "2:18: `sum_along` takes an axis number second, "
                        "found `1.5`");
  g_free (src);
  src = g_strconcat (p, "y = softmax(x, -1)", NULL);
  tp_test_refused (src, "2:16: `softmax` takes an axis number second, "
                        "found `-`");
  g_free (src);
  src = g_strconcat (p, "y = log_softmax(x, [1])", NULL);
  tp_test_refused (src, "2:20: `log_softmax` takes an axis number second, "
                        "found the shape [1]");
  g_free (src);
  src = g_strconcat (p, "y = mean_along(x)", NULL);
  tp_test_refused (src, "2:17: expected `,`, found `)`");
  g_free (src);
  src = g_strconcat (p, "y = logsumexp(x, 1e40)", NULL);
  tp_test_refused (src, "2:18: `logsumexp` takes an axis number second, "
                        "found `inf`");
  g_free (src);
  tp_test_refused ("y = broadcast(1.0, 2)",
                   "1:20: `broadcast` takes a shape second, found `2`");
  tp_test_refused ("y = reshape(1.0)", "1:16: expected `,`, found `)`");
  tp_test_refused ("y = reshape(1.0, [1], 2)", "1:21: expected `)`, found `,`");
}

static void
test_shape_checks (void)
{
  tp_test_refused ("a = parameter [2]\nb = parameter [3]\nc = a + b",
                   "3:7: `+` needs equal shapes, got [2] + [3]; "
                   "nothing broadcasts by accident");
  tp_test_refused ("a = parameter [2]\nb = parameter [2, 1]\nc = a - b",
                   "3:7: `-` needs equal shapes, got [2] - [2, 1]; "
                   "nothing broadcasts by accident");
  tp_test_refused ("a = parameter [1]\nb = parameter [2]\nc = a * b",
                   "3:7: `*` needs equal shapes, got [1] * [2]; "
                   "nothing broadcasts by accident");
  tp_test_refused ("a = parameter [2]\nb = parameter [3]\nc = a / b",
                   "3:7: `/` needs equal shapes, got [2] / [3]; "
                   "nothing broadcasts by accident");
  tp_test_refused ("a = parameter [2]\nb = parameter [2, 2]\nc = a @ b",
                   "3:7: `@` multiplies two matrices, got [2] @ [2, 2]");
  tp_test_refused ("a = 2.0 @ 3.0",
                   "1:9: `@` multiplies two matrices, got [] @ []");
  tp_test_refused ("a = parameter [2, 3]\nc = a @ a",
                   "2:7: matmul cannot multiply [2, 3] by [2, 3]: "
                   "the inner extents differ");
  tp_test_refused ("a = parameter [3]\nc = transpose(a)",
                   "2:5: `transpose` takes a matrix, got [3]");
  tp_test_refused ("a = parameter [2, 3]\nc = sum_along(a, 2)",
                   "2:5: axis 2 is out of range for [2, 3] (rank 2)");
  tp_test_refused ("a = parameter 1.0\nc = softmax(a, 0)",
                   "2:5: axis 0 is out of range for [] (rank 0)");
  tp_test_refused ("a = parameter [2]\nc =   mean_along(a, 7)",
                   "2:7: axis 7 is out of range for [2] (rank 1)");
  tp_test_refused ("a = parameter [2]\nc = broadcast(a, [2, 2])",
                   "2:5: `broadcast` spreads a rank-0 value, got [2]");
  tp_test_refused ("a = parameter [2, 3]\nc = reshape(a, [4])",
                   "2:5: `reshape` from [2, 3] to [4] changes the number of "
                   "elements");
}

static void
test_empty_programs (void)
{
  const char *msg = "1:1: write at least one line, such as `w = parameter 0.5`";

  tp_test_refused ("", msg);
  tp_test_refused ("\n\n", msg);
  tp_test_refused ("# only a comment\n   \n", msg);
  tp_test_refused ("\r\n", msg);
}

static void
test_line_ends (void)
{
  /* Only \n ends a line; \r is whitespace; the \r of \r\n is not part of
   * the line when placing "the end of the line". */
  tp_test_refused ("x = (1\r\ny = 2", "1:7: expected `)`, found the end of the line");
  tp_test_refused ("x = (1\r", "1:8: expected `)`, found the end of the line");
  tp_test_refused ("x = 1\ry = 2", "1:7: unexpected `y` after the expression");
  tp_test_refused ("a = 1\r\nb = $\r\n", "2:5: unexpected `$`");
}

static void
test_keywords_as_names (void)
{
  /* docs/decisions.md D8: a keyword not followed by its own syntax is a
   * name when defined. */
  TpSession *s = tp_test_compile ("input = input [1, 2]\nsum = 2.0\n"
                                  "y = sum * sum(input)\n"
                                  "tanh = input\nz = tanh(tanh)",
                                  NULL, NULL, TP_STATUS_OK);
  tp_session_free (s);
  tp_test_refused ("x = input + 1",
                   "1:11: `input` takes a shape like `[2, 2]` or a number, "
                   "found `+`");
}

static void
test_nul_and_controls (void)
{
  const char src[] = "x = 1\0";
  TpSession *s = tp_session_new ();
  size_t n;
  const TpDiag *d;

  g_assert_cmpint (tp_session_compile (s, src, sizeof src - 1, NULL), ==,
                   TP_STATUS_REFUSED);
  d = tp_session_diags (s, &n);
  g_assert_cmpuint (d->line, ==, 1);
  g_assert_cmpuint (d->column, ==, 6);
  g_assert_cmpstr (d->message, ==, "unexpected `\\u{0}`");
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/diagnostics/lexer", test_lexer_messages);
  g_test_add_func ("/topos/diagnostics/literals", test_literal_messages);
  g_test_add_func ("/topos/diagnostics/first-lexical", test_first_lexical_error_wins);
  g_test_add_func ("/topos/diagnostics/parser", test_parser_messages);
  g_test_add_func ("/topos/diagnostics/second-arguments", test_second_arguments);
  g_test_add_func ("/topos/diagnostics/shape-checks", test_shape_checks);
  g_test_add_func ("/topos/diagnostics/empty", test_empty_programs);
  g_test_add_func ("/topos/diagnostics/line-ends", test_line_ends);
  g_test_add_func ("/topos/diagnostics/keywords-as-names", test_keywords_as_names);
  g_test_add_func ("/topos/diagnostics/nul", test_nul_and_controls);
  return g_test_run ();
}
