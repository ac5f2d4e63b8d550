/* Units of the small engine files: the arena, the text buffer, shapes,
 * JSON text and tensor display. */
#include "tp-test-util.h"
#include "tp-alloc.h"
#include "tp-buf.h"
#include "tp-json.h"
#include "tp-shape.h"
#include "tp-values.h"

static void
test_arena (void)
{
  TpArena arena;
  char *small, *big;
  int *grown;

  tp_arena_init (&arena);
  small = tp_arena_alloc (&arena, 10);
  big = tp_arena_alloc (&arena, 1 << 20);     /* a chunk of its own */
  g_assert_nonnull (small);
  g_assert_nonnull (big);
  g_assert_true (((uintptr_t) small & 15) == 0);
  memset (big, 1, 1 << 20);
  g_assert_null (tp_arena_alloc (&arena, SIZE_MAX - 8));
  g_assert_null (tp_arena_calloc (&arena, SIZE_MAX / 2, 8));
  grown = tp_arena_grow (&arena, NULL, 0, 4, sizeof *grown);
  grown[3] = 42;
  grown = tp_arena_grow (&arena, grown, 4, 1000, sizeof *grown);
  g_assert_cmpint (grown[3], ==, 42);
  g_assert_cmpstr (tp_arena_strndup (&arena, "name = 1", 4), ==, "name");
  tp_arena_reset (&arena);
  g_assert_null (arena.chunks);
}

static void
test_buf (void)
{
  TpBuf b;
  char *text;
  size_t mark;

  tp_buf_init (&b);
  text = tp_buf_steal (&b);
  g_assert_cmpstr (text, ==, "");
  tp_free (text);
  tp_buf_u64 (&b, 0);
  tp_buf_putc (&b, ' ');
  tp_buf_u64 (&b, UINT64_MAX);
  mark = b.len;
  tp_buf_puts (&b, "ab");
  tp_buf_pad_from (&b, mark, 5);
  tp_buf_putc (&b, '|');
  mark = b.len;
  tp_buf_puts (&b, "abcdef");
  tp_buf_pad_from (&b, mark, 3);      /* a minimum width, never a cut */
  g_assert_cmpstr (b.data, ==,
                   "0 18446744073709551615ab   |abcdef");
  tp_buf_clear (&b);
  {
    TpShape s = { 3, { 2, 1, 7 } }, r0 = { 0, { 0 } };
    tp_buf_shape (&b, &s);
    tp_buf_shape (&b, &r0);
    tp_buf_f32 (&b, 0.1f);
    g_assert_cmpstr (b.data, ==, "[2, 1, 7][]0.1");
  }
  /* A failed buffer stays failed and steals as NULL. */
  b.failed = true;
  tp_buf_puts (&b, "more");
  g_assert_null (tp_buf_steal (&b));
  g_assert_null (b.data);
}

static void
test_shape (void)
{
  TpShape s = { 3, { 2, 3, 4 } }, out;
  TpShape huge = { 4, { 65536, 65536, 65536, 65536 } };

  g_assert_cmpuint (tp_shape_volume (&s), ==, 24);
  g_assert_cmpuint (tp_shape_volume (&huge), ==, UINT64_MAX);
  tp_shape_drop_axis (&s, 1, &out);
  g_assert_cmpuint (out.rank, ==, 2);
  g_assert_cmpuint (out.dims[0], ==, 2);
  g_assert_cmpuint (out.dims[1], ==, 4);
  tp_shape_insert_axis (&out, 2, 9, &out);
  g_assert_cmpuint (out.rank, ==, 3);
  g_assert_cmpuint (out.dims[2], ==, 9);
  g_assert_true (tp_shape_equal (&s, &s));
  g_assert_false (tp_shape_equal (&s, &out));
}

static void
test_json_text (void)
{
  TpBuf b;
  const char weird[] = "a\"b\\c\nd\te\rf\001g\x7fh\xc3\xa9";
  float data[4] = { 1.5f, -0.0f, 1.0f / 0.0f, 0.0f / 0.0f };
  TpShape s = { 2, { 2, 2 } };
  uint64_t budget = 4;

  tp_buf_init (&b);
  tp_json_string (&b, weird, sizeof weird - 1);
  g_assert_cmpstr (b.data, ==,
                   "\"a\\\"b\\\\c\\nd\\te\\rf\\u0001g\\u007fh\xc3\xa9\"");
  tp_buf_clear (&b);
  tp_json_tensor (&b, data, &s, &budget);
  g_assert_cmpstr (b.data, ==,
                   "{\"shape\":[2,2],\"data\":[1.5,-0,\"inf\",\"NaN\"]}");
  g_assert_cmpuint (budget, ==, 0);
  tp_buf_clear (&b);
  tp_json_tensor (&b, data, &s, &budget);
  g_assert_cmpstr (b.data, ==,
                   "{\"shape\":[2,2],\"data\":null,\"elided\":true}");
  tp_buf_clear (&b);
}

static void
test_tensor_display (void)
{
  TpBuf b;
  float data[64];
  TpShape r3 = { 3, { 2, 2, 2 } }, wide = { 2, { 2, 8 } };
  TpValuesBudget budget = { 100, 100 };

  for (int k = 0; k < 64; k++)
    data[k] = (float) k;
  tp_buf_init (&b);
  tp_values_put_tensor (&b, data, &r3, &budget);
  g_assert_cmpstr (b.data, ==, "[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]");
  g_assert_cmpuint (budget.full, ==, 92);
  tp_buf_clear (&b);
  /* Over the budget: the first and last three entries of a long axis. */
  budget.full = 3;
  budget.summary = 12;
  tp_values_put_tensor (&b, data, &wide, &budget);
  g_assert_cmpstr (b.data, ==, "[[0, 1, 2, ..., 5, 6, 7], "
                               "[8, 9, 10, ..., 13, 14, 15]]");
  g_assert_cmpuint (budget.full, ==, 3);
  g_assert_cmpuint (budget.summary, ==, 0);
  tp_buf_clear (&b);
  /* With the summary budget spent, only the size. */
  tp_values_put_tensor (&b, data, &wide, &budget);
  g_assert_cmpstr (b.data, ==, "(16 elements, not shown: this reading shows "
                               "at most 1048576 in full)");
  tp_buf_clear (&b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/units/arena", test_arena);
  g_test_add_func ("/topos/units/buf", test_buf);
  g_test_add_func ("/topos/units/shape", test_shape);
  g_test_add_func ("/topos/units/json", test_json_text);
  g_test_add_func ("/topos/units/tensor-display", test_tensor_display);
  return g_test_run ();
}
