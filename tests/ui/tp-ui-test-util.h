/* tp-ui-test-util.h: helpers shared by the UI tests. */
#pragma once

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <execinfo.h>
#endif

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "tp-application.h"

/* Runs the default main context until @done returns TRUE or @seconds
 * pass; returns the last answer.  Nothing here sleeps: it waits for the
 * events the code under test schedules. */
static inline gboolean
tp_test_wait_until (gboolean (*done) (gpointer data),
                    gpointer   data,
                    double     seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (!done (data) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  return done (data);
}

static gboolean
tp_test_timeout_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static char *tp_test_state_dir = NULL;

static void
tp_test_remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        tp_test_remove_tree (child);
      else
        g_remove (child);
      g_free (child);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_rmdir (path);
}

static void
tp_test_cleanup (void)
{
  if (tp_test_state_dir != NULL)
    tp_test_remove_tree (tp_test_state_dir);
}

/* A crash in a test's subprocess leaves only "killed by signal 11" in
 * the log: write the stack to standard error first. */
static void
tp_test_crash_handler (int sig)
{
#ifdef __GLIBC__
  void *frames[64];
  int n = backtrace (frames, 64);

  backtrace_symbols_fd (frames, n, STDERR_FILENO);
#endif
  signal (sig, SIG_DFL);
  raise (sig);
}

/* Sets up what every UI test process needs: private state and data
 * directories (drafts, recent files), memory settings and the
 * playground's resources. */
static inline void
tp_test_init (int    *argc,
              char ***argv)
{
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  tp_test_state_dir = g_dir_make_tmp ("topos-ui-test-XXXXXX", NULL);
  g_setenv ("XDG_STATE_HOME", tp_test_state_dir, TRUE);
  {
    /* the recent files list too is the test's own */
    char *data = g_build_filename (tp_test_state_dir, "data", NULL);

    g_setenv ("XDG_DATA_HOME", data, TRUE);
    g_free (data);
  }
  atexit (tp_test_cleanup);
  signal (SIGSEGV, tp_test_crash_handler);
  signal (SIGBUS, tp_test_crash_handler);
  gtk_test_init (argc, argv, NULL);
  tp_ui_init ();
  /* keep the main loop ticking so waits notice conditions set by threads */
  g_timeout_add (10, tp_test_timeout_cb, NULL);
}
