/* test-stress.c: hostile programs have a bounded cost.
 *
 * Each case feeds one hostile text (huge shapes, long lines, a million
 * lines, deep nesting, NaN and infinity, non-UTF-8 and NUL bytes, CRLF,
 * work near the limit, many names for one big tensor ...) through the
 * whole seam: compile, every reading, the names and the JSON.  It checks
 * what can be checked without a clock: the status and diagnostic, the
 * engine's own counters against the limits (tp_session_stats), every
 * block freed, the peak of the engine's live heap (through the allocator
 * hook) under 256 MiB and the output's size.  Wall and CPU time are
 * printed, never asserted: `meson test -v stress` shows the figures. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tp-engine.h"
#include "tp-engine-testing.h"

/* The engine's allocations at their peak, the JSON being written
 * included: 256 MiB at most today (16,000 parameters with 64-byte names,
 * every reading and the JSON live together; the forward and jax readings
 * of the forward-mode change added about 25 MiB). */
#define PEAK_LIMIT ((gsize) 320 << 20)
/* The readings and the JSON together: the budgets and limits keep them
 * below this (132 MiB at most today, for 16,000 parameters with 64-byte
 * names: the reading map, the teaching readings' structures, every
 * node's value and op, the tangent tape and the JAX program included). */
#define OUTPUT_LIMIT ((gsize) 160 << 20)

/* Under AddressSanitizer (and UBSan beside it) a billion multiply-adds
 * take a minute: the cases at the work limit are skipped there. */
#if defined (__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined (__has_feature)
#if __has_feature (address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif
#define MESSAGE_MAX 1024

/* ---- the allocator hook: live and peak bytes -------------------------- */

typedef union
{
  gsize size;
  long double align_ld;
  void *align_p;
} Head;

static gsize live_bytes, peak_bytes;
static glong live_blocks;

static void
note (gssize delta, glong blocks)
{
  live_bytes = (gsize) ((gssize) live_bytes + delta);
  live_blocks += blocks;
  if (live_bytes > peak_bytes)
    peak_bytes = live_bytes;
}

static void *
hook_malloc (size_t size)
{
  Head *h = malloc (sizeof *h + size);

  if (h == NULL)
    return NULL;
  h->size = size;
  note ((gssize) size, 1);
  return h + 1;
}

static void *
hook_realloc (void *ptr, size_t size)
{
  Head *h;
  gsize old;

  if (ptr == NULL)
    return hook_malloc (size);
  h = (Head *) ptr - 1;
  old = h->size;
  h = realloc (h, sizeof *h + size);
  if (h == NULL)
    return NULL;
  h->size = size;
  note ((gssize) size - (gssize) old, 0);
  return h + 1;
}

static void
hook_free (void *ptr)
{
  Head *h;

  if (ptr == NULL)
    return;
  h = (Head *) ptr - 1;
  note (-(gssize) h->size, -1);
  free (h);
}

static const TpAllocator hooks = { hook_malloc, hook_realloc, hook_free };

/* ---- the cases -------------------------------------------------------- */

typedef struct
{
  const char *name;
  GString *(*make) (void);
  TpStatus expect;
  const char *diag;         /* a refusal's message contains this */
  guint n_observe;          /* observe this many names x0, x1, ... */
  gboolean heavy;           /* near the work limit: skipped when sanitized */
} Case;

static GString *
repeat (GString *s, const char *text, gsize n)
{
  for (gsize k = 0; k < n; k++)
    g_string_append (s, text);
  return s;
}

static GString *
huge_shape (void)
{
  return g_string_new ("x = parameter [100000, 100000]\n");
}

static GString *
overflowing_shape (void)
{
  GString *s = g_string_new ("x = leaf [4294967295");

  repeat (s, ", 4294967295", 15);
  return g_string_append (s, "]\n");
}

static GString *
too_many_axes (void)
{
  GString *s = g_string_new ("x = leaf [1");

  repeat (s, ", 1", 16);
  return g_string_append (s, "]\n");
}

static GString *
long_line_of_sums (void)
{
  GString *s = g_string_new ("x = 1");

  return repeat (s, " + 1", 2500000);     /* 10 MB */
}

static GString *
long_comment (void)
{
  GString *s = g_string_new ("# ");

  repeat (s, "comment ", 1250000);
  return g_string_append (s, "\nx = 1\n");
}

static GString *
long_name (void)
{
  GString *s = repeat (g_string_new (NULL), "n", 10000000);

  return g_string_append (s, " = parameter 1.0\n");
}

static GString *
long_undefined_name (void)
{
  GString *s = g_string_new ("x = ");

  return repeat (s, "n", 10000000);
}

static GString *
long_number (void)
{
  GString *s = g_string_new ("x = ");

  repeat (s, "9", 10000000);
  return g_string_append (s, " * 0\n");
}

static GString *
long_shape (void)
{
  GString *s = g_string_new ("x = leaf [");

  repeat (s, "0", 10000000);
  return g_string_append (s, "2]\n");
}

static GString *
million_tiny_lines (void)
{
  return repeat (g_string_new (NULL), "x=1\n", 1000000);
}

static GString *
million_blank_lines (void)
{
  GString *s = repeat (g_string_new (NULL), "\n", 1000000);

  return g_string_append (s, "x = parameter 2.0\ny = x * x\n");
}

static GString *
million_space_lines (void)
{
  GString *s = repeat (g_string_new (NULL), " \t \r\n", 1000000);

  return g_string_append (s, "x = parameter 2.0\ny = x * x\n");
}

static GString *
million_comment_lines (void)
{
  GString *s = repeat (g_string_new (NULL), "# c\n", 1000000);

  return g_string_append (s, "x = 1\n");
}

static GString *
million_crlf_lines (void)
{
  return repeat (g_string_new (NULL), "x = 1\r\n", 1000000);
}

static GString *
crlf_program (void)
{
  GString *s = g_string_new ("w = parameter [4, 4]\r\n");

  repeat (s, "w = tanh(w) * 0.5\r\n", 1000);
  return g_string_append (s, "loss = sum(w)\r\n");
}

static GString *
million_aliases (void)
{
  GString *s = g_string_new ("b = parameter 1.0\n");

  return repeat (s, "a = b\n", 1000000);
}

static GString *
names_aliasing_a_big_tensor (void)
{
  GString *s = g_string_new ("big = input [2048, 2048]\n");

  for (guint k = 0; k < 99999; k++)
    g_string_append_printf (s, "a%u = big\n", k);
  return s;
}

/* A name of the longest length allowed, made distinct by its tail. */
static void
append_long_name (GString *s, const char *head, guint k)
{
  gsize start = s->len;

  g_string_append_printf (s, "%s%u_", head, k);
  while (s->len - start < 64)
    g_string_append_c (s, 'n');
}

static GString *
longest_names_aliasing (void)
{
  GString *s = g_string_new ("big = input [2048, 2048]\n");

  for (guint k = 0; k < 99999; k++)
    {
      append_long_name (s, "a", k);
      g_string_append (s, " = big\n");
    }
  return s;
}

static GString *
too_long_name (void)
{
  GString *s = g_string_new (NULL);

  append_long_name (s, "a", 0);
  return g_string_append (s, "n = 1\n");
}

static GString *
longest_undefined_name (void)
{
  GString *s = g_string_new ("x = ");

  append_long_name (s, "a", 0);
  return s;
}

static GString *
longest_names_as_parameters (void)
{
  GString *s = g_string_new (NULL);
  guint n = 16000;

  for (guint k = 0; k < n; k++)
    {
      append_long_name (s, "p", k);
      g_string_append (s, " = parameter 1.0\n");
    }
  append_long_name (s, "loss", 0);
  g_string_append (s, " = ");
  for (guint k = 0; k < n; k++)
    {
      if (k > 0)
        g_string_append (s, " + ");
      append_long_name (s, "p", k);
    }
  return g_string_append_c (s, '\n');
}

static GString *
distinct_names (void)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < 99999; k++)
    g_string_append_printf (s, "x%u = %u\n", k, k);
  return s;
}

static GString *
deep_parentheses (void)
{
  GString *s = repeat (g_string_new ("x = "), "(", 1000000);

  return g_string_append (s, "1");
}

static GString *
deep_negation (void)
{
  GString *s = repeat (g_string_new ("x = "), "-", 1000000);

  return g_string_append (s, "1");
}

static GString *
deep_calls (void)
{
  GString *s = repeat (g_string_new ("x = "), "sum(", 1000000);

  return g_string_append (s, "1");
}

static GString *
deepest_allowed (void)
{
  GString *s = repeat (g_string_new ("w = parameter [3]\nloss = sum("), "tanh(", 254);

  g_string_append (s, "w");
  repeat (s, ")", 254);
  return g_string_append (s, ")\n");
}

static GString *
nan_and_infinity (void)
{
  return g_string_new ("a = 1e39 * 2\nb = 1e39 - 1e39\nc = 0 / 0\n"
                       "d = ln(-1) + sqrt(-1)\nw = parameter [256, 256]\n"
                       "e = exp(w * 1e39)\nf = ln(w - 10) / (w - w)\n"
                       "loss = sum(e + f) * a + b + c + d\n");
}

static GString *
edge_numbers (void)
{
  return g_string_new ("a = 1e39\nb = 1e-50\nc = 3.4028236e38\n"
                       "d = 340282356779733661637539395458142568448\n"
                       "e = 1.4e-45\nf = 0.000000000000000000000000000000000000000000001\n"
                       "g = 1e4294967296\nh = 1e-4294967296\n"
                       "loss = a + b + c + d + e + f + g + h\n");
}

static GString *
random_bytes (void)
{
  GString *s = g_string_new (NULL);
  GRand *r = g_rand_new_with_seed (7);

  for (guint k = 0; k < 1000000; k++)
    g_string_append_c (s, (char) g_rand_int_range (r, 0, 256));
  g_rand_free (r);
  return s;
}

static GString *
invalid_utf8_in_comments (void)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < 100000; k++)
    g_string_append (s, "# \xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc\xed\xa0\x80\n");
  return g_string_append (s, "x = parameter 1.0\n");
}

static GString *
nul_bytes (void)
{
  GString *s = g_string_new ("x = 1");

  return g_string_append_len (s, "\0\0\0\0", 4);
}

static GString *
million_nul_bytes (void)
{
  GString *s = g_string_new ("x = 1\n# ");

  g_string_set_size (s, 1000000 + s->len);
  memset (s->str + 8, 0, 1000000);
  return s;
}

static GString *
matmul_at_work_limit (void)
{
  /* 2^20 + 2^20 * 1000/1024 input elements + 1024 * 1024 * 1000
   * multiply-adds: just under 2^30. */
  return g_string_new ("a = input [1024, 1024]\nb = input [1024, 1000]\n"
                       "c = a @ b\n");
}

static GString *
matmul_over_work_limit (void)
{
  return g_string_new ("a = input [1024, 1024]\nb = a @ a\n");
}

static GString *
gradient_at_work_limit (void)
{
  /* forward m*k*n, backward 2*m*k*n */
  return g_string_new ("w = parameter [1024, 1024]\nx = input [1024, 330]\n"
                       "loss = sum(w @ x)\n");
}

static GString *
gradient_over_limits (void)
{
  return g_string_new ("w = parameter [4096, 1024]\nx = input [1024, 1]\n"
                       "loss = sum(w @ x)\n");
}

static GString *
elements_at_limit (void)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < 16; k++)
    g_string_append_printf (s, "a%u = leaf [1024, 1024]\n", k);
  return s;
}

static GString *
elements_over_limit (void)
{
  return g_string_append (elements_at_limit (), "b = 1\n");
}

static GString *
biggest_constants (void)
{
  /* Two seeded (not splat) 2^22-element constants feed the module. */
  return g_string_new ("a = leaf [2048, 2048]\nb = leaf [2048, 2048]\n"
                       "c = a + b\n");
}

static GString *
biggest_softmax_gradient (void)
{
  return g_string_new ("w = parameter [512, 512]\n"
                       "loss = sum(log_softmax(w, 1) * softmax(w, 0))\n");
}

static GString *
node_limit_in_gradient (void)
{
  GString *s = g_string_new ("w = parameter 1.0\n");

  return repeat (s, "w = w * w\n", 30000);
}

static GString *
many_observed (void)
{
  GString *s = g_string_new ("w = parameter [2]\n");

  for (guint k = 0; k < 5000; k++)
    g_string_append_printf (s, "x%u = w * %u\n", k, k);
  return g_string_append (s, "loss = sum(w)\n");
}

static const Case cases[] = {
  { "huge-shape", huge_shape, TP_STATUS_REFUSED, "a tensor holds at most", 0, FALSE },
  { "overflowing-shape", overflowing_shape, TP_STATUS_REFUSED, "more than 18,446,744,073,709,551,615", 0, FALSE },
  { "too-many-axes", too_many_axes, TP_STATUS_REFUSED, "at most 16 axes", 0, FALSE },
  { "long-line-of-sums", long_line_of_sums, TP_STATUS_REFUSED, "more than 100,000 nodes", 0, FALSE },
  { "long-comment", long_comment, TP_STATUS_OK, NULL, 0, FALSE },
  { "long-name", long_name, TP_STATUS_REFUSED, "a name has at most 64 characters", 0, FALSE },
  { "too-long-name", too_long_name, TP_STATUS_REFUSED, "a name has at most 64 characters", 0, FALSE },
  { "long-undefined-name", long_undefined_name, TP_STATUS_REFUSED, "a name has at most 64 characters", 0, FALSE },
  { "longest-undefined-name", longest_undefined_name, TP_STATUS_REFUSED, "nnn` is not defined yet", 0, FALSE },
  { "long-number", long_number, TP_STATUS_OK, NULL, 0, FALSE },
  { "long-shape", long_shape, TP_STATUS_OK, NULL, 0, FALSE },
  { "million-tiny-lines", million_tiny_lines, TP_STATUS_REFUSED, "more than 100,000 nodes", 0, FALSE },
  { "million-blank-lines", million_blank_lines, TP_STATUS_OK, NULL, 0, FALSE },
  { "million-space-lines", million_space_lines, TP_STATUS_OK, NULL, 0, FALSE },
  { "million-comment-lines", million_comment_lines, TP_STATUS_OK, NULL, 0, FALSE },
  { "million-crlf-lines", million_crlf_lines, TP_STATUS_REFUSED, "more than 100,000 nodes", 0, FALSE },
  { "crlf-program", crlf_program, TP_STATUS_OK, NULL, 0, FALSE },
  { "million-aliases", million_aliases, TP_STATUS_REFUSED, "more than 100,000 statements", 0, FALSE },
  { "names-aliasing-a-big-tensor", names_aliasing_a_big_tensor, TP_STATUS_OK, NULL, 0, FALSE },
  { "longest-names-aliasing", longest_names_aliasing, TP_STATUS_OK, NULL, 0, FALSE },
  { "longest-names-as-parameters", longest_names_as_parameters, TP_STATUS_OK, NULL, 0, FALSE },
  { "distinct-names", distinct_names, TP_STATUS_OK, NULL, 0, FALSE },
  { "deep-parentheses", deep_parentheses, TP_STATUS_REFUSED, "nest deeper than 256", 0, FALSE },
  { "deep-negation", deep_negation, TP_STATUS_REFUSED, "nest deeper than 256", 0, FALSE },
  { "deep-calls", deep_calls, TP_STATUS_REFUSED, "nest deeper than 256", 0, FALSE },
  { "deepest-allowed", deepest_allowed, TP_STATUS_OK, NULL, 0, FALSE },
  { "nan-and-infinity", nan_and_infinity, TP_STATUS_OK, NULL, 0, FALSE },
  { "edge-numbers", edge_numbers, TP_STATUS_OK, NULL, 0, FALSE },
  { "random-bytes", random_bytes, TP_STATUS_REFUSED, "", 0, FALSE },
  { "invalid-utf8-in-comments", invalid_utf8_in_comments, TP_STATUS_OK, NULL, 0, FALSE },
  { "nul-bytes", nul_bytes, TP_STATUS_REFUSED, "unexpected `\\u{0}`", 0, FALSE },
  { "million-nul-bytes-in-a-comment", million_nul_bytes, TP_STATUS_OK, NULL, 0, FALSE },
  { "matmul-at-work-limit", matmul_at_work_limit, TP_STATUS_OK, NULL, 0, TRUE },
  { "matmul-over-work-limit", matmul_over_work_limit, TP_STATUS_REFUSED, "multiply-adds", 0, FALSE },
  { "gradient-at-work-limit", gradient_at_work_limit, TP_STATUS_OK, NULL, 0, TRUE },
  { "gradient-over-limits", gradient_over_limits, TP_STATUS_REFUSED, "in all", 0, FALSE },
  { "elements-at-limit", elements_at_limit, TP_STATUS_OK, NULL, 0, FALSE },
  { "elements-over-limit", elements_over_limit, TP_STATUS_REFUSED, "in all", 0, FALSE },
  { "biggest-constants", biggest_constants, TP_STATUS_OK, NULL, 0, FALSE },
  { "biggest-softmax-gradient", biggest_softmax_gradient, TP_STATUS_OK, NULL, 0, FALSE },
  { "node-limit-in-gradient", node_limit_in_gradient, TP_STATUS_REFUSED, "more than 100,000 nodes", 0, FALSE },
  { "many-observed", many_observed, TP_STATUS_OK, NULL, 5000, FALSE },
};

/* Compiles the case's text with every reading and the JSON, and checks
 * its cost. */
static void
run_case (gconstpointer data)
{
  const Case *c = data;
  GString *src = c->make ();
  const char **observe = g_new0 (const char *, c->n_observe + 1);
  char **owned = g_new0 (char *, c->n_observe + 1);
  TpChoices choices = { .observe = observe, .n_observe = c->n_observe };
  gint64 t0, t_compile, t_json;
  clock_t cpu0;
  TpSession *s;
  TpStatus st;
  TpStats stats;
  gsize out_bytes = 0, n_diags, n_names;
  const TpDiag *d;
  char *json;

  if (c->heavy && SANITIZED)
    {
      g_test_skip ("a billion multiply-adds under the sanitizers");
      g_free (owned);
      g_free (observe);
      g_string_free (src, TRUE);
      return;
    }
  for (guint k = 0; k < c->n_observe; k++)
    observe[k] = owned[k] = g_strdup_printf ("x%u", k);
  live_bytes = peak_bytes = 0;
  live_blocks = 0;

  cpu0 = clock ();
  t0 = g_get_monotonic_time ();
  s = tp_session_new_with_allocator (&hooks);
  g_assert_nonnull (s);
  st = tp_session_compile (s, src->str, src->len, &choices);
  t_compile = g_get_monotonic_time ();
  for (int r = 0; r < TP_N_READINGS; r++)
    out_bytes += strlen (tp_session_reading (s, (TpReading) r));
  tp_session_names (s, &n_names);
  json = tp_session_to_json (s);
  t_json = g_get_monotonic_time ();
  g_assert_nonnull (json);
  out_bytes += strlen (json);
  tp_string_free (json);
  tp_session_stats (s, &stats);
  d = tp_session_diags (s, &n_diags);

  g_test_message ("%-31s %s %7.3f s (cpu %.3f, compile %.3f, json %.3f)"
                  "  peak %6.1f MiB"
                  "  out %6.1f MiB  in %5.1f MiB  %u statements %u nodes"
                  " %" G_GUINT64_FORMAT " elements %" G_GUINT64_FORMAT
                  " work",
                  c->name, st == TP_STATUS_OK ? "reads  " : "refused",
                  (double) (t_json - t0) * 1e-6,
                  (double) (clock () - cpu0) / CLOCKS_PER_SEC,
                  (double) (t_compile - t0) * 1e-6,
                  (double) (t_json - t_compile) * 1e-6,
                  (double) peak_bytes / (1 << 20),
                  (double) out_bytes / (1 << 20),
                  (double) src->len / (1 << 20),
                  stats.statements, stats.nodes, stats.elements, stats.work);

  if (st != c->expect)
    g_test_message ("status %d: %u:%u: %.200s", st, n_diags ? d->line : 0,
                    n_diags ? d->column : 0, n_diags ? d->message : "");
  g_assert_cmpint (st, ==, c->expect);
  if (st != TP_STATUS_OK)
    {
      g_assert_cmpuint (n_diags, ==, 1);
      g_assert_nonnull (strstr (d->message, c->diag));
      /* A quoted token is cut: a diagnostic stays short. */
      g_assert_cmpuint (strlen (d->message), <=, MESSAGE_MAX);
    }
  /* The engine's own counters stay within the limits (README). */
  g_assert_cmpuint (stats.nodes, <=, 100000);
  g_assert_cmpuint (stats.elements, <=, G_GUINT64_CONSTANT (1) << 24);
  g_assert_cmpuint (stats.work, <=, G_GUINT64_CONSTANT (1) << 30);
  g_assert_cmpuint (stats.statements, <=, 100000);
  g_assert_cmpuint (n_names, ==, st == TP_STATUS_OK ? stats.statements : 0);

  tp_session_free (s);
  g_assert_cmpint (live_blocks, ==, 0);
  g_assert_cmpuint (live_bytes, ==, 0);
  g_assert_cmpuint (peak_bytes, <=, PEAK_LIMIT);
  g_assert_cmpuint (out_bytes, <=, OUTPUT_LIMIT);

  for (guint k = 0; k < c->n_observe; k++)
    g_free (owned[k]);
  g_free (owned);
  g_free (observe);
  g_string_free (src, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      char *path = g_strdup_printf ("/topos/stress/%s", cases[k].name);
      g_test_add_data_func (path, &cases[k], run_case);
      g_free (path);
    }
  return g_test_run ();
}
