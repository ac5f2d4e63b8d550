/* test-fold.c: the folding of long lines (ui/tp-fold.h), pure functions
 * on text: no display, no GTK. */
#include "config.h"

#include <string.h>

#include "tp-fold.h"

/* A line that fits is kept whole, with no marker and no suffix. */
static void
test_fold_short_line (void)
{
  TpFold fold = { 0 };
  g_autofree char *shown = tp_fold_line ("a b c", 5, 3, 2, 5, FALSE, TRUE, &fold);

  g_assert_cmpstr (shown, ==, "a b c");
  g_assert_cmpuint (fold.head, ==, 5);
  g_assert_cmpuint (fold.marker, ==, 0);
  g_assert_cmpuint (fold.suffix, ==, 0);
  g_assert_cmpint (tp_fold_to_full (&fold, 3), ==, 3);
  g_assert_cmpuint (tp_fold_to_shown (&fold, 4), ==, 4);
}

/* "0 1 2 ... 999": folded after a space near the head and the tail
 * limits, so no number is split, with the count and the control. */
static void
test_fold_long_line (void)
{
  g_autoptr(GString) line = g_string_new (NULL);
  TpFold fold = { 0 };
  g_autofree char *shown = NULL;
  const char *marker;
  gsize len;

  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (line, "%s%u", i > 0 ? " " : "", i);
  len = line->len;
  shown = tp_fold_line (line->str, len, 100, 50, 1000, TRUE, TRUE, &fold);

  g_assert_cmpuint (fold.length, ==, len);
  g_assert_cmpuint (fold.head, <=, 100);
  g_assert_cmpuint (fold.head, >, 60);
  g_assert_cmpint (line->str[fold.head - 1], ==, ' ');
  g_assert_cmpuint (fold.tail, <=, 50);
  g_assert_cmpint (line->str[len - fold.tail - 1], ==, ' ');
  marker = shown + fold.head;
  g_assert_cmpuint (fold.marker, ==, strlen (" … "));
  g_assert_true (strncmp (marker, " … ", fold.marker) == 0);
  g_assert_true (g_str_has_suffix (shown, "   [1000 elements] show all"));
  g_assert_cmpuint (fold.control, ==, strlen ("show all"));
  g_assert_cmpuint (strlen (shown), ==, fold.head + fold.marker + fold.tail + fold.suffix);
  /* the tail is the line's own end */
  g_assert_true (strncmp (shown + fold.head + fold.marker, line->str + len - fold.tail, fold.tail) == 0);

  /* offsets: the head and the tail map both ways, the hidden middle to
   * the marker, the marker and the suffix to nothing */
  for (gsize at = 0; at < fold.head; at++)
    {
      g_assert_cmpuint (tp_fold_to_shown (&fold, at), ==, at);
      g_assert_cmpint (tp_fold_to_full (&fold, at), ==, (gssize) at);
    }
  g_assert_cmpuint (tp_fold_to_shown (&fold, fold.head + 10), ==, fold.head);
  g_assert_cmpint (tp_fold_to_full (&fold, fold.head + 1), ==, -1);
  for (gsize k = 0; k < fold.tail; k++)
    {
      gsize full = len - fold.tail + k;
      gsize at = tp_fold_to_shown (&fold, full);

      g_assert_cmpuint (at, ==, fold.head + fold.marker + k);
      g_assert_cmpint (tp_fold_to_full (&fold, at), ==, (gssize) full);
    }
  g_assert_cmpint (tp_fold_to_full (&fold, fold.head + fold.marker + fold.tail + 1), ==, -1);
}

/* A cut never splits a UTF-8 character, and one count is singular. */
static void
test_fold_utf8 (void)
{
  g_autoptr(GString) line = g_string_new (NULL);
  TpFold fold = { 0 };
  g_autofree char *shown = NULL;

  for (guint i = 0; i < 300; i++)
    g_string_append (line, "é");
  shown = tp_fold_line (line->str, line->len, 101, 51, 1, FALSE, FALSE, &fold);
  g_assert_true (g_utf8_validate (shown, -1, NULL));
  g_assert_cmpuint (fold.head % 2, ==, 0);
  g_assert_cmpuint (fold.tail % 2, ==, 0);
  g_assert_true (g_str_has_suffix (shown, "   [1 character] "));
  g_assert_cmpuint (fold.control, ==, 0);
}

static guint64
count_cb (guint     line,
          gboolean *elements,
          gpointer  user_data)
{
  guint *calls = user_data;

  (*calls)++;
  *elements = line == 2;
  return line == 2 ? 77 : 0;
}

/* A text: only its lines over TP_FOLD_LIMIT fold, in line order, with
 * their offsets in the full text; lines keep their numbers; a text with
 * no long line is not copied. */
static void
test_fold_text (void)
{
  g_autoptr(GString) text = g_string_new ("short\n");
  g_autofree char *shown = NULL;
  g_autofree TpFold *folds = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0, calls = 0;
  gsize second;

  g_string_append_c (text, 'x');
  for (guint i = 0; i < TP_FOLD_LIMIT; i++)
    g_string_append_c (text, i % 7 == 0 ? ' ' : 'x');
  g_string_append_c (text, '\n');
  second = text->len;
  for (guint i = 0; i < TP_FOLD_LIMIT + 10; i++)
    g_string_append_c (text, i % 5 == 0 ? ' ' : 'y');
  g_string_append (text, "\nlast");

  g_assert_true (tp_fold_text (text->str, count_cb, &calls, &shown, &folds, &n));
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (calls, ==, 2);
  g_assert_cmpuint (folds[0].line, ==, 1);
  g_assert_cmpuint (folds[0].offset, ==, strlen ("short\n"));
  g_assert_false (folds[0].elements);
  g_assert_cmpuint (folds[0].count, ==, TP_FOLD_LIMIT + 1);
  g_assert_cmpuint (folds[1].line, ==, 2);
  g_assert_cmpuint (folds[1].offset, ==, second);
  g_assert_true (folds[1].elements);
  g_assert_cmpuint (folds[1].count, ==, 77);
  lines = g_strsplit (shown, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[0], ==, "short");
  g_assert_cmpstr (lines[3], ==, "last");
  g_assert_cmpuint (strlen (lines[1]), <, TP_FOLD_HEAD + TP_FOLD_TAIL + 40);
  g_assert_true (g_str_has_suffix (lines[2], "   [77 elements] show all"));

  g_assert_true (tp_fold_find (folds, n, 1) == &folds[0]);
  g_assert_true (tp_fold_find (folds, n, 2) == &folds[1]);
  g_assert_null (tp_fold_find (folds, n, 0));
  g_assert_null (tp_fold_find (folds, n, 3));
  g_assert_null (tp_fold_find (NULL, 0, 0));

  g_clear_pointer (&shown, g_free);
  g_clear_pointer (&folds, g_free);
  g_assert_false (tp_fold_text ("a\nb\n", count_cb, &calls, &shown, &folds, &n));
  g_assert_null (shown);
  g_assert_null (folds);
  g_assert_cmpuint (n, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui/fold/short-line", test_fold_short_line);
  g_test_add_func ("/ui/fold/long-line", test_fold_long_line);
  g_test_add_func ("/ui/fold/utf8", test_fold_utf8);
  g_test_add_func ("/ui/fold/text", test_fold_text);
  return g_test_run ();
}
