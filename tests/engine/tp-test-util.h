/* tp-test-util.h: helpers shared by the engine's g_test programs. */
#ifndef TP_TEST_UTIL_H
#define TP_TEST_UTIL_H

#include <glib.h>
#include <string.h>

#include "tp-engine.h"
#include "tp-engine-testing.h"

/* A string the engine returned, freed with tp_string_free when it goes
 * out of scope (the engine's strings do not go back through g_free). */
static inline void
tp_test_free_string (char **text)
{
  tp_string_free (*text);
}
#define TP_AUTO_STRING __attribute__ ((cleanup (tp_test_free_string))) char

/* Asserts that the length bytes at text are want (a borrowed sentence
 * that is not NUL-terminated). */
#define TP_ASSERT_TEXT(text, length, want) \
  do \
    { \
      char *tp_text_ = g_strndup ((text), (length)); \
      g_assert_cmpstr (tp_text_, ==, (want)); \
      g_free (tp_text_); \
    } \
  while (0)

/* The JSON's members up to "nodes": the object as it was before the
 * teaching model's members joined it at its end. */
#define TP_TEST_CLASSIC_JSON (TP_JSON_MEMBER (TP_JSON_NODES + 1) - 1)

/* Compiles src with the given choices; returns the session (caller frees). */
static inline TpSession *
tp_test_compile (const char *src, const char *target, const char *observe,
                 TpStatus expect)
{
  const char *obs[1] = { observe };
  TpChoices c = { .target = target, .observe = obs, .n_observe = observe ? 1 : 0, .exact = false };
  TpSession *s = tp_session_new ();
  TpStatus st;

  g_assert_nonnull (s);
  st = tp_session_compile (s, src, strlen (src), &c);
  if (st != expect)
    {
      size_t n;
      const TpDiag *d = tp_session_diags (s, &n);
      g_printerr ("unexpected status %d for:\n%s\n", st, src);
      if (n > 0)
        g_printerr ("%u:%u: %s\n", d->line, d->column, d->message);
    }
  g_assert_cmpint (st, ==, expect);
  return s;
}

/* Asserts that src is refused with exactly "LINE:COLUMN: MESSAGE". */
static inline void
tp_test_refused (const char *src, const char *expect)
{
  TpSession *s = tp_test_compile (src, NULL, NULL, TP_STATUS_REFUSED);
  size_t n;
  const TpDiag *d = tp_session_diags (s, &n);
  char *got;

  g_assert_cmpuint (n, ==, 1);
  got = g_strdup_printf ("%u:%u: %s", d->line, d->column, d->message);
  g_assert_cmpstr (got, ==, expect);
  for (int r = 0; r < TP_N_READINGS; r++)
    g_assert_cmpstr (tp_session_reading (s, (TpReading) r), ==, "");
  g_free (got);
  tp_session_free (s);
}

/* Asserts that reading `which` of src (target/observe as given) is expect. */
static inline void
tp_test_reading (const char *src, const char *target, const char *observe,
                 TpReading which, const char *expect)
{
  TpSession *s = tp_test_compile (src, target, observe, TP_STATUS_OK);

  g_assert_cmpstr (tp_session_reading (s, which), ==, expect);
  tp_session_free (s);
}

/* The chain of tests/bench/bench-check.c, with layers layers: x = input [4, 8],
 * then layers wK = parameter [8, 8], hK = tanh(hPREV @ wK) + hPREV, and
 * loss = sum(hN * hN); extra goes before the loss's line. */
static inline char *
tp_test_chain (guint layers, const char *extra, const char *loss_extra)
{
  GString *src = g_string_new ("x = input [4, 8]\n");
  char *prev = g_strdup ("x");

  for (guint k = 0; k < layers; k++)
    {
      g_string_append_printf (src, "w%u = parameter [8, 8]\n"
                              "h%u = tanh(%s @ w%u) + %s\n", k, k, prev, k,
                              prev);
      g_free (prev);
      prev = g_strdup_printf ("h%u", k);
    }
  g_string_append (src, extra);
  g_string_append_printf (src, "loss = sum(%s * %s)%s\n", prev, prev,
                          loss_extra);
  g_free (prev);
  return g_string_free (src, FALSE);
}

#endif /* TP_TEST_UTIL_H */
