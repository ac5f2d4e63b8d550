/* tp-test-ci.h: a test that cannot run here.
 *
 * Outside CI it is skipped, and the skip says why. Under CI (the variable
 * CI set to anything but "", "false" or "0", as .ci/run does) a test that
 * cannot run fails instead: a skip must never pass for a pass there.
 */
#pragma once

#include <glib.h>
#include <string.h>

static inline gboolean
tp_test_under_ci (void)
{
  const char *ci = g_getenv ("CI");

  return ci != NULL && *ci != '\0' && strcmp (ci, "false") != 0
         && strcmp (ci, "0") != 0;
}

/* Skips the current test with reason why, or fails it under CI. */
static inline void
tp_test_cannot_run (const char *why)
{
  if (tp_test_under_ci ())
    g_test_fail_printf ("cannot run under CI: %s", why);
  else
    {
      g_test_message ("skipped: %s", why);
      g_test_skip (why);
    }
}
