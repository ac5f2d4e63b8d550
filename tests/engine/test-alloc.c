/* Out-of-memory sweep: fail allocation N for every N a compile makes, and
 * require a clean report every time and no block left behind. */
#include <stdlib.h>

#include "tp-test-util.h"

static long live_blocks;
static long countdown;     /* fail when it reaches 0; < 0 never fails */
static long failures;

static void *
counting_malloc (size_t size)
{
  void *p;

  if (countdown == 0)
    {
      failures++;
      return NULL;
    }
  if (countdown > 0)
    countdown--;
  p = malloc (size);
  if (p != NULL)
    live_blocks++;
  return p;
}

static void *
counting_realloc (void *ptr, size_t size)
{
  void *p;

  if (countdown == 0)
    {
      failures++;
      return NULL;
    }
  if (countdown > 0)
    countdown--;
  p = realloc (ptr, size);
  if (p != NULL && ptr == NULL)
    live_blocks++;
  return p;
}

static void
counting_free (void *ptr)
{
  if (ptr != NULL)
    live_blocks--;
  free (ptr);
}

static const TpAllocator counting = {
  counting_malloc, counting_realloc, counting_free
};

/* The passes' choices for the sweeps that run them (NULL: none). */
static const TpChoices *passes;

/* Compiles src with allocation n failing; returns whether the compile
 * (and the JSON) met no failure. */
static gboolean
compile_failing_at (const char *src, long n)
{
  const char *observe[1] = { "error" };
  TpChoices choices = { .target = NULL, .observe = observe, .n_observe = 1, .exact = false };
  TpSession *s;
  TpStatus st;
  char *json;
  gboolean clean;

  if (passes != NULL)
    {
      choices.optimize = passes->optimize;
      choices.remat = passes->remat;
      choices.n_remat = passes->n_remat;
      choices.remat_auto = passes->remat_auto;
    }
  live_blocks = 0;
  failures = 0;
  countdown = n;
  s = tp_session_new_with_allocator (&counting);
  if (s == NULL)
    {
      g_assert_cmpint (failures, ==, 1);
      g_assert_cmpint (live_blocks, ==, 0);
      return FALSE;
    }
  st = tp_session_compile (s, src, strlen (src), &choices);
  if (failures > 0)
    {
      size_t nd;
      const TpDiag *d = tp_session_diags (s, &nd);
      /* A failure is reported as out of memory, never as something else,
       * and never as success. */
      g_assert_cmpint (st, ==, TP_STATUS_NO_MEMORY);
      g_assert_cmpuint (nd, ==, 1);
      g_assert_cmpstr (d->message, ==, "out of memory");
    }
  else
    g_assert_cmpint (st, ==, TP_STATUS_OK);
  {
    long before = failures;
    json = tp_session_to_json (s);
    g_assert_true (json != NULL || failures > before);
    /* Running out of memory after the compile: in a reading made on
     * demand, the session says so until the next compile and gives no
     * half reading; in the JSON's own text, the session is intact and
     * the JSON asked for again is whole. */
    if (failures > before && st == TP_STATUS_OK)
      {
        g_assert_null (json);
        countdown = -1;
        if (tp_session_status (s) == TP_STATUS_NO_MEMORY)
          {
            size_t nd;
            const TpDiag *d = tp_session_diags (s, &nd);
            g_assert_cmpuint (nd, ==, 1);
            g_assert_cmpstr (d->message, ==, "out of memory");
            g_assert_cmpstr (tp_session_reading (s, TP_READING_CHECK), ==, "");
            /* the JSON of a compile that ran out of memory */
            json = tp_session_to_json (s);
            g_assert_nonnull (json);
            g_assert_nonnull (strstr (json, "\"diagnostics\":[{\"line\":1,"
                                            "\"column\":1,\"message\":"
                                            "\"out of memory\"}]"));
            tp_string_free (json);
            json = NULL;
          }
        else
          {
            TpSession *fresh = tp_session_new ();
            char *again = tp_session_to_json (s), *want;
            g_assert_cmpint (tp_session_status (s), ==, TP_STATUS_OK);
            g_assert_cmpint (tp_session_compile (fresh, src, strlen (src),
                                                 &choices), ==, TP_STATUS_OK);
            want = tp_session_to_json (fresh);
            g_assert_cmpstr (again, ==, want);
            tp_string_free (again);
            tp_string_free (want);
            tp_session_free (fresh);
          }
      }
  }
  tp_string_free (json);
  clean = failures == 0;
  tp_session_free (s);
  g_assert_cmpint (live_blocks, ==, 0);
  return clean;
}

static void
sweep (const char *src)
{
  long n;

  for (n = 0; !compile_failing_at (src, n); n++)
    g_assert_cmpint (n, <, 100000);
  g_test_message ("%ld allocation sites failed in turn", n);
  g_assert_cmpint (n, >, 5);
}

static void
test_sweep_readme (void)
{
  sweep ("w = parameter 0.0\nx = input 2.0\ny = input 4.0\n"
         "error = w * x - y\nloss = error * error\n");
}

static void
test_sweep_everything (void)
{
  sweep ("w = parameter [2, 3]\nx = input [4, 2]\nb = parameter 0.5\n"
         "h = tanh(x @ w) * b\nr = relu(h)\ns = softmax(r, 1)\n"
         "m = mean_along(s, 1)\nl = logsumexp(h, 0)\nt = transpose(w)\n"
         "q = reshape(broadcast(2.0, [3, 4]), [12])\n"
         "error = sum(m) + sum(t) + sum(l) + sum(sqrt(exp(sin(cos(q)))))\n"
         "loss = ln(error * error)\n");
}

/* The check reading's non-finite origin and the picture's mark, a
 * relu at its kink, and a parameter sampled by the gradient check. */
static void
test_sweep_check (void)
{
  sweep ("w = parameter [40, 30]\nv = parameter 0.0\nx = input [1, 40]\n"
         "error = relu(v) + sum(x @ w) + ln(v - 1.0)\n"
         "loss = error * error\n");
}

/* The check along random directions (element by element would cost
 * more), with a kink along every direction. */
static void
test_sweep_directions (void)
{
  sweep ("w = parameter [32, 32]\nx = input [32, 32]\nv = parameter 0.0\n"
         "error = sum(tanh(tanh(x @ w) @ x)) + relu(v)\n"
         "loss = error * error\n");
}

/* The passes: the rewrites, and a rematerialisation by name and by
 * auto, each stage failing in turn. */
static void
test_sweep_passes (void)
{
  const char *names[] = { "error", "h" };
  TpChoices optimize_auto = { .optimize = true, .remat_auto = true };
  TpChoices named = { .remat = names, .n_remat = 2 };

  passes = &optimize_auto;
  sweep ("w = parameter 0.0\nx = input 2.0\ny = input 4.0\n"
         "error = w * x - y\nloss = error * error\n");
  sweep ("w = parameter [2, 3]\nx = input [4, 2]\nb = parameter 0.5\n"
         "h = tanh(x @ w) * b\nt = transpose(transpose(h))\n"
         "q = reshape(broadcast(2.0 * 1.0, [4, 3]), [4, 3])\n"
         "error = sum(t * q + h) + sum(h - h)\nloss = error * error\n");
  passes = &named;
  sweep ("w = parameter [2, 3]\nx = input [4, 2]\n"
         "h = tanh(x @ w)\nerror = sum(h * h)\nloss = error * error\n");
  passes = NULL;
}

static void
test_sweep_refused (void)
{
  /* Failing while reporting a refusal is reported too. */
  for (long n = 0; n < 50; n++)
    {
      TpSession *s;
      live_blocks = 0;
      failures = 0;
      countdown = n;
      s = tp_session_new_with_allocator (&counting);
      if (s != NULL)
        {
          TpStatus st = tp_session_compile (s, "x = 1\ny = x @ x", 15, NULL);
          g_assert_true (st == TP_STATUS_REFUSED || st == TP_STATUS_NO_MEMORY);
          g_assert_true (st == TP_STATUS_REFUSED || failures > 0);
          tp_session_free (s);
        }
      g_assert_cmpint (live_blocks, ==, 0);
    }
}

/* Training: every allocation of tp_session_train, its reading, curve and
 * JSON fails in turn, and each failure gives NULL and leaves nothing. */
static void
test_sweep_train (void)
{
  const char *src = "w = parameter [2, 3]\nx = input [4, 2]\n"
                    "loss = sum(tanh(x @ w) * tanh(x @ w))\n";
  TpSession *s;
  long n;

  countdown = -1;
  s = tp_session_new_with_allocator (&counting);
  g_assert_nonnull (s);
  g_assert_cmpint (tp_session_compile (s, src, strlen (src), NULL), ==,
                   TP_STATUS_OK);
  for (n = 0;; n++)
    {
      TpTrain *t;
      char *json = NULL;

      live_blocks = 0;
      failures = 0;
      countdown = n;
      t = tp_session_train (s, 5, "0.1", 3);
      if (t != NULL)
        json = tp_train_to_json (t);
      /* A failure is never taken for a refusal or a result. */
      if (failures > 0)
        g_assert_true (t == NULL || json == NULL);
      else
        g_assert_true (t != NULL && json != NULL && tp_train_ok (t));
      tp_string_free (json);
      tp_train_free (t);
      g_assert_cmpint (live_blocks, ==, 0);
      if (failures == 0)
        break;
      g_assert_cmpint (n, <, 10000);
    }
  g_test_message ("%ld allocation sites failed in turn", n);
  g_assert_cmpint (n, >, 5);
  tp_session_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/topos/alloc/sweep-readme", test_sweep_readme);
  g_test_add_func ("/topos/alloc/sweep-everything", test_sweep_everything);
  g_test_add_func ("/topos/alloc/sweep-check", test_sweep_check);
  g_test_add_func ("/topos/alloc/sweep-directions", test_sweep_directions);
  g_test_add_func ("/topos/alloc/sweep-passes", test_sweep_passes);
  g_test_add_func ("/topos/alloc/sweep-refused", test_sweep_refused);
  g_test_add_func ("/topos/alloc/sweep-train", test_sweep_train);
  return g_test_run ();
}
