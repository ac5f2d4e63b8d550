/* test-document.c: the document object: readings exactly as the engine
 * gives them, the debounced worker, stale readings, files and drafts. */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "tp-document.h"
#include "tp-ui-test-util.h"

#define SUBPROCESS_TIMEOUT (60 * G_USEC_PER_SEC)

#define README "# the README sample\n" \
               "w = parameter 0.0\n" \
               "x = input 2.0\n" \
               "y = input 4.0\n" \
               "error = w * x - y\n" \
               "loss = error * error\n"

/* Compiles @source with the engine directly: what the CLI prints. */
static TpSession *
engine_readings (const char *source,
                 const char *target,
                 const char *observe,
                 gboolean    exact)
{
  TpSession *session = tp_session_new ();
  const char *obs[1] = { observe };
  TpChoices choices = { .target = target, .observe = obs,
                        .n_observe = observe != NULL ? 1 : 0, .exact = exact };

  tp_session_compile (session, source, strlen (source), &choices);
  return session;
}

static void
assert_readings_equal (TpDocument *document,
                       TpSession  *session)
{
  TpReadings *readings = tp_document_get_readings (document);

  g_assert_nonnull (readings);
  /* the readings the desktop shows: the original's and check, explain,
   * memory (the passes' and forward mode's are read where shown) */
  for (guint r = 0; r <= TP_READING_MEMORY; r++)
    g_assert_cmpstr (tp_readings_get_text (readings, (TpReading) r), ==,
                     tp_session_reading (session, (TpReading) r));
}

static void
test_document_readings (void)
{
  g_autoptr(TpDocument) document = tp_document_new ();
  TpSession *session = engine_readings (README, NULL, NULL, FALSE);
  TpReadings *readings;

  tp_document_set_text (document, README);
  tp_document_recompute_now (document);
  g_assert_false (tp_document_get_busy (document));
  g_assert_false (tp_document_get_stale (document));
  g_assert_null (tp_document_get_diagnostic (document));
  assert_readings_equal (document, session);
  g_assert_cmpstr (tp_readings_get_text (tp_document_get_readings (document), TP_READING_SPEC),
                   !=, "");

  readings = tp_document_get_readings (document);
  g_assert_cmpuint (readings->n_names, ==, 5);
  g_assert_cmpstr (readings->names[3].name, ==, "error");
  g_assert_cmpuint (readings->names[3].node, ==, 4);
  g_assert_true (readings->names[4].scalar);
  g_assert_true (readings->names[0].parameter);
  g_assert_cmpstr (readings->names[0].shape, ==, "[]");
  tp_session_free (session);

  g_assert_finalize_object (g_steal_pointer (&document));
}

static void
test_document_choices (void)
{
  g_autoptr(TpDocument) document = tp_document_new ();
  TpSession *session;

  tp_document_set_text (document, README);
  tp_document_set_target (document, "error");
  tp_document_set_observe (document, "x");
  tp_document_set_exact (document, TRUE);
  tp_document_recompute_now (document);
  session = engine_readings (README, "error", "x", TRUE);
  assert_readings_equal (document, session);
  tp_session_free (session);

  /* "" and NULL both mean the default */
  tp_document_set_target (document, "");
  tp_document_set_observe (document, NULL);
  g_assert_null (tp_document_get_target (document));
  tp_document_recompute_now (document);
  session = engine_readings (README, NULL, NULL, TRUE);
  assert_readings_equal (document, session);
  tp_session_free (session);

  g_assert_finalize_object (g_steal_pointer (&document));
}

/* The readings read, and their teaching results come (made after them,
 * in the background). */
static gboolean
not_busy (gpointer data)
{
  return !tp_document_get_busy (data) && !tp_document_get_teaching_pending (data);
}

/* An edit is read after the debounce, by the worker, without any call. */
static void
test_document_debounced_worker (void)
{
  g_autoptr(TpDocument) document = tp_document_new ();
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  GtkTextIter end;
  TpSession *session;
  gint64 start;

  tp_document_set_text (document, README);
  tp_document_recompute_now (document);

  /* Several quick edits: only the last state matters. */
  start = g_get_monotonic_time ();
  for (int i = 0; i < 5; i++)
    {
      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert (buffer, &end, i == 4 ? "z = loss * 2.0\n" : "", -1);
    }
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, "# done\n", -1);
  /* editing never waits for a reading */
  g_assert_cmpint (g_get_monotonic_time () - start, <, TP_RECOMPUTE_DELAY_MS * 1000);
  g_assert_true (tp_document_get_busy (document));
  g_assert_true (tp_test_wait_until (not_busy, document, 10));

  session = engine_readings (README "z = loss * 2.0\n# done\n", NULL, NULL, FALSE);
  assert_readings_equal (document, session);
  tp_session_free (session);

  g_assert_finalize_object (g_steal_pointer (&document));
}

/* A result that comes back after a newer edit is dropped. */
static void
test_document_stale_result_dropped (void)
{
  g_autoptr(TpDocument) document = tp_document_new ();
  TpSession *session;

  tp_document_set_text (document, README);          /* queues a worker read */
  tp_document_set_text (document, "a = parameter 1.0\n");
  tp_document_recompute_now (document);              /* newer than both */
  g_assert_true (tp_test_wait_until (not_busy, document, 10));
  /* let any worker result arrive; it must not replace the newer one */
  for (int i = 0; i < 50; i++)
    g_main_context_iteration (NULL, FALSE);
  session = engine_readings ("a = parameter 1.0\n", NULL, NULL, FALSE);
  assert_readings_equal (document, session);
  tp_session_free (session);

  g_assert_finalize_object (g_steal_pointer (&document));
}

static void
test_document_refused (void)
{
  g_autoptr(TpDocument) document = tp_document_new ();
  const char *bad = "# the README sample\nw = parameter 0.0\nx = input [2]\ny = x @ x\n";
  TpSession *good = engine_readings (README, NULL, NULL, FALSE);
  TpSession *refused = engine_readings (bad, NULL, NULL, FALSE);
  g_autofree char *expected = NULL;
  const TpDiag *diag;
  size_t n = 0;
  guint line = 0, column = 0;

  tp_document_set_text (document, README);
  tp_document_recompute_now (document);
  tp_document_set_text (document, bad);
  tp_document_recompute_now (document);

  diag = tp_session_diags (refused, &n);
  g_assert_cmpuint (n, ==, 1);
  expected = g_strdup_printf ("%u:%u: %s", diag->line, diag->column, diag->message);
  g_assert_cmpstr (tp_document_get_diagnostic (document), ==, expected);
  g_assert_true (tp_document_get_diagnostic_position (document, &line, &column));
  g_assert_cmpuint (line, ==, 4);
  g_assert_cmpuint (column, ==, diag->column);
  /* the last good readings stay, marked stale */
  g_assert_true (tp_document_get_stale (document));
  assert_readings_equal (document, good);

  /* fixing the line clears both */
  tp_document_set_text (document, README);
  tp_document_recompute_now (document);
  g_assert_false (tp_document_get_stale (document));
  g_assert_null (tp_document_get_diagnostic (document));

  tp_session_free (good);
  tp_session_free (refused);
  g_assert_finalize_object (g_steal_pointer (&document));
}

static void
test_document_lines (void)
{
  g_autoptr(TpDocument) document = tp_document_new ();
  g_autoptr(GArray) lines = NULL;

  tp_document_set_text (document, README "\nerror = loss - 1.0\n");
  tp_document_recompute_now (document);
  g_assert_cmpint (tp_document_node_for_line (document, 1), ==, -1);  /* comment */
  g_assert_cmpint (tp_document_node_for_line (document, 2), ==, 0);   /* w */
  g_assert_cmpint (tp_document_node_for_line (document, 5), ==, 4);   /* error */
  g_assert_cmpint (tp_document_node_for_line (document, 6), ==, 5);   /* loss */
  g_assert_cmpint (tp_document_node_for_line (document, 7), ==, -1);  /* blank */
  g_assert_cmpint (tp_document_node_for_line (document, 8), >, 5);    /* error again */
  lines = tp_document_lines_for_node (document, 4);
  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_cmpuint (g_array_index (lines, guint, 0), ==, 5);

  g_assert_finalize_object (g_steal_pointer (&document));
}

/* Lines come from the engine's names list (TpName.line), so blank lines,
 * comments, indentation and reassigned names all map exactly; and the
 * StableHLO arguments come with their nodes. */
static void
test_document_lines_exact (void)
{
  static const char text[] =
    "\n"
    "  # weights = parameter 9.0   (a comment, not a statement)\n"
    "weights = parameter [2]\n"
    "\n"
    "\t  x = input [2]   # indented\n"
    "x = x * weights\n"
    "\n\n"
    "loss = sum(x * x)\n";
  g_autoptr(TpDocument) document = tp_document_new ();
  g_autoptr(GArray) lines = NULL;
  TpSession *session = tp_session_new ();
  const uint32_t *args;
  const TpName *names;
  size_t n = 0, n_args = 0;
  TpReadings *readings;

  tp_document_set_text (document, text);
  tp_document_recompute_now (document);
  g_assert_cmpint (tp_session_compile (session, text, strlen (text), NULL), ==, TP_STATUS_OK);
  names = tp_session_names (session, &n);
  g_assert_cmpuint (n, ==, 4);
  for (size_t k = 0; k < n; k++)
    g_assert_cmpint (tp_document_node_for_line (document, names[k].line), ==, (int) names[k].node);
  g_assert_cmpuint (names[0].line, ==, 3);
  g_assert_cmpuint (names[3].line, ==, 9);
  for (guint line = 1; line <= 9; line++)
    if (line != 3 && line != 5 && line != 6 && line != 9)
      g_assert_cmpint (tp_document_node_for_line (document, line), ==, -1);
  /* x is bound twice: each statement its own line */
  lines = tp_document_lines_for_node (document, (int) names[1].node);
  g_assert_cmpuint (lines->len, ==, 1);
  g_assert_cmpuint (g_array_index (lines, guint, 0), ==, 5);
  g_clear_pointer (&lines, g_array_unref);
  lines = tp_document_lines_for_node (document, (int) names[2].node);
  g_assert_cmpuint (g_array_index (lines, guint, 0), ==, 6);

  readings = tp_document_get_readings (document);
  args = tp_session_arguments (session, &n_args);
  g_assert_cmpuint (readings->n_arguments, ==, n_args);
  g_assert_cmpuint (n_args, >, 0);
  for (guint k = 0; k < n_args; k++)
    g_assert_cmpint (tp_readings_get_argument_node (readings, k), ==, (int) args[k]);
  g_assert_cmpint (tp_readings_get_argument_node (readings, (guint) n_args), ==, -1);

  tp_session_free (session);
  g_assert_finalize_object (g_steal_pointer (&document));
}

typedef struct
{
  GMainLoop *loop;
  gboolean ok;
  GError *error;
} AsyncWait;

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  AsyncWait *wait = data;

  wait->ok = tp_document_save_finish (TP_DOCUMENT (object), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  AsyncWait *wait = data;

  wait->ok = tp_document_load_finish (TP_DOCUMENT (object), result, &wait->error);
  g_main_loop_quit (wait->loop);
}

static void
test_document_save_open (void)
{
  g_autoptr(TpDocument) document = tp_document_new ();
  g_autoptr(TpDocument) reopened = tp_document_new ();
  g_autofree char *dir = g_dir_make_tmp ("topos-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "program.tape", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *text = NULL;
  g_autofree char *on_disk = NULL;
  g_autofree char *title = NULL;
  AsyncWait wait = { g_main_loop_new (NULL, FALSE), FALSE, NULL };
  g_autoptr(GDir) d = NULL;
  guint n_entries = 0;

  tp_document_set_text (document, README);
  g_assert_true (tp_document_get_modified (document));
  tp_document_save_async (document, file, NULL, save_done_cb, &wait);
  g_main_loop_run (wait.loop);
  g_assert_no_error (wait.error);
  g_assert_true (wait.ok);
  g_assert_false (tp_document_get_modified (document));
  g_assert_true (g_file_equal (tp_document_get_file (document), file));
  g_assert_true (g_file_get_contents (path, &on_disk, NULL, NULL));
  g_assert_cmpstr (on_disk, ==, README);
  /* atomic: no temporary file is left beside it */
  d = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (d) != NULL)
    n_entries++;
  g_assert_cmpuint (n_entries, ==, 1);

  tp_document_load_async (reopened, file, NULL, load_done_cb, &wait);
  g_main_loop_run (wait.loop);
  g_assert_no_error (wait.error);
  text = tp_document_dup_text (reopened);
  g_assert_cmpstr (text, ==, README);
  g_assert_false (tp_document_get_modified (reopened));
  title = tp_document_dup_title (reopened);
  g_assert_cmpstr (title, ==, "program.tape");
  g_assert_true (tp_test_wait_until (not_busy, reopened, 10));
  g_assert_nonnull (tp_document_get_readings (reopened));

  g_unlink (path);
  g_rmdir (dir);
  g_main_loop_unref (wait.loop);
  g_assert_finalize_object (g_steal_pointer (&document));
  g_assert_finalize_object (g_steal_pointer (&reopened));
}

/* A saved file ends with a newline even when the text does not; the
 * editor's text stays as it was, and a text that has one keeps one. */
static void
test_document_save_final_newline (void)
{
  g_autoptr(TpDocument) document = tp_document_new ();
  g_autofree char *dir = g_dir_make_tmp ("topos-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "program.tape", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *on_disk = NULL;
  g_autofree char *again = NULL;
  g_autofree char *text = NULL;
  AsyncWait wait = { g_main_loop_new (NULL, FALSE), FALSE, NULL };

  tp_document_set_text (document, "a = parameter 2.0\nloss = a * a");
  tp_document_save_async (document, file, NULL, save_done_cb, &wait);
  g_main_loop_run (wait.loop);
  g_assert_no_error (wait.error);
  g_assert_true (g_file_get_contents (path, &on_disk, NULL, NULL));
  g_assert_cmpstr (on_disk, ==, "a = parameter 2.0\nloss = a * a\n");
  text = tp_document_dup_text (document);
  g_assert_cmpstr (text, ==, "a = parameter 2.0\nloss = a * a");

  tp_document_set_text (document, "loss = parameter 1.0\n");
  tp_document_save_async (document, NULL, NULL, save_done_cb, &wait);
  g_main_loop_run (wait.loop);
  g_assert_no_error (wait.error);
  g_assert_true (g_file_get_contents (path, &again, NULL, NULL));
  g_assert_cmpstr (again, ==, "loss = parameter 1.0\n");

  g_unlink (path);
  g_rmdir (dir);
  g_main_loop_unref (wait.loop);
}

/* The target and the observed value go with a saved file, in its GIO
 * metadata, and come back when it is opened.  The metadata service is
 * gvfs's, on a private session bus the test starts. */
static void
test_document_choices_in_metadata (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(TpDocument) document = tp_document_new ();
      g_autoptr(TpDocument) reopened = tp_document_new ();
      g_autoptr(TpDocument) defaults = tp_document_new ();
      g_autofree char *dir = g_dir_make_tmp ("topos-meta-XXXXXX", NULL);
      g_autofree char *path = g_build_filename (dir, "program.tape", NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GFileAttributeInfoList) namespaces = NULL;
      AsyncWait wait = { g_main_loop_new (NULL, FALSE), FALSE, NULL };
      gboolean metadata = FALSE;

      g_assert_true (g_file_set_contents (path, "", 0, NULL));
      namespaces = g_file_query_writable_namespaces (file, NULL, NULL);
      for (int i = 0; namespaces != NULL && i < namespaces->n_infos; i++)
        metadata |= g_str_equal (namespaces->infos[i].name, "metadata");
      g_assert_true (metadata);   /* gvfs keeps metadata in this session */

      tp_document_set_text (document, README);
      tp_document_set_target (document, "error");
      tp_document_set_observe (document, "x");
      tp_document_save_async (document, file, NULL, save_done_cb, &wait);
      g_main_loop_run (wait.loop);
      g_assert_no_error (wait.error);

      g_assert_null (tp_document_get_target (reopened));
      tp_document_load_async (reopened, file, NULL, load_done_cb, &wait);
      g_main_loop_run (wait.loop);
      g_assert_no_error (wait.error);
      g_assert_cmpstr (tp_document_get_target (reopened), ==, "error");
      g_assert_cmpstr (tp_document_get_observe (reopened), ==, "x");

      /* back to the defaults, and saved so */
      tp_document_set_target (reopened, NULL);
      tp_document_set_observe (reopened, NULL);
      tp_document_save_async (reopened, NULL, NULL, save_done_cb, &wait);
      g_main_loop_run (wait.loop);
      g_assert_no_error (wait.error);
      tp_document_set_target (defaults, "loss");
      tp_document_load_async (defaults, file, NULL, load_done_cb, &wait);
      g_main_loop_run (wait.loop);
      g_assert_no_error (wait.error);
      g_assert_null (tp_document_get_target (defaults));
      g_assert_null (tp_document_get_observe (defaults));

      g_unlink (path);
      g_rmdir (dir);
      g_main_loop_unref (wait.loop);
      return;
    }
  {
    GTestDBus *bus = g_test_dbus_new (G_TEST_DBUS_NONE);
    g_autofree char *data = g_dir_make_tmp ("topos-data-XXXXXX", NULL);

    /* gvfs's metadata store goes in a folder of the test's own */
    g_setenv ("XDG_DATA_HOME", data, TRUE);
    g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));

    g_test_dbus_add_service_dir (bus, "/usr/share/dbus-1/services");
    g_test_dbus_up (bus);
    /* the bus is up without an X display (no autolaunch); the test
     * itself draws on Xvfb's */
    if (display != NULL)
      g_setenv ("DISPLAY", display, TRUE);
    g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
    g_test_dbus_down (bus);
    g_object_unref (bus);
    tp_test_remove_tree (data);
    g_test_trap_assert_passed ();
  }
}

static gboolean
has_draft (gpointer data)
{
  return tp_document_get_draft_id (data) != NULL;
}

/* Unsaved edits are kept in the application's drafts (the state
 * directory) and come back. */
static void
test_document_drafts (void)
{
  g_autoptr(TpDrafts) store = tp_drafts_new (NULL);
  g_autoptr(TpDocument) document = tp_document_new ();
  g_autoptr(TpDocument) restored = tp_document_new ();
  g_autoptr(TpDocument) keeps_none = tp_document_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) drafts = NULL;
  g_autofree char *id = NULL;
  g_autofree char *text = NULL;

  /* start from none */
  drafts = tp_drafts_list (store);
  for (guint i = 0; drafts[i] != NULL; i++)
    tp_drafts_discard (store, drafts[i]);
  g_clear_pointer (&drafts, g_strfreev);
  drafts = tp_drafts_list (store);
  g_assert_cmpuint (g_strv_length (drafts), ==, 0);
  g_clear_pointer (&drafts, g_strfreev);

  /* a document of no application's keeps no draft */
  tp_document_set_text (keeps_none, README);
  tp_document_save_draft_now (keeps_none);
  g_assert_null (tp_document_get_draft_id (keeps_none));
  g_assert_false (tp_document_restore_draft (keeps_none, "anything", NULL));

  tp_document_set_drafts (document, store);
  tp_document_set_drafts (restored, store);

  tp_document_set_text (document, README);
  tp_document_set_target (document, "error");
  /* the autosave timer writes the draft by itself */
  g_assert_true (tp_test_wait_until (has_draft, document, 10));
  id = g_strdup (tp_document_get_draft_id (document));
  drafts = tp_drafts_list (store);
  g_assert_cmpuint (g_strv_length (drafts), ==, 1);
  g_assert_cmpstr (drafts[0], ==, id);

  /* a crash: the document is gone without saving */
  g_assert_finalize_object (g_steal_pointer (&document));

  g_assert_true (tp_document_restore_draft (restored, id, &error));
  g_assert_no_error (error);
  text = tp_document_dup_text (restored);
  g_assert_cmpstr (text, ==, README);
  g_assert_cmpstr (tp_document_get_target (restored), ==, "error");
  g_assert_true (tp_document_get_modified (restored));

  /* discarding (or saving) removes it */
  tp_document_discard_draft (restored);
  g_clear_pointer (&drafts, g_strfreev);
  drafts = tp_drafts_list (store);
  g_assert_cmpuint (g_strv_length (drafts), ==, 0);

  g_assert_finalize_object (g_steal_pointer (&restored));
}

int
main (int   argc,
      char *argv[])
{
  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/document/readings", test_document_readings);
  g_test_add_func ("/ui/document/choices", test_document_choices);
  g_test_add_func ("/ui/document/debounced-worker", test_document_debounced_worker);
  g_test_add_func ("/ui/document/stale-result-dropped", test_document_stale_result_dropped);
  g_test_add_func ("/ui/document/refused", test_document_refused);
  g_test_add_func ("/ui/document/lines", test_document_lines);
  g_test_add_func ("/ui/document/lines-exact", test_document_lines_exact);
  g_test_add_func ("/ui/document/save-open", test_document_save_open);
  g_test_add_func ("/ui/document/save-final-newline", test_document_save_final_newline);
  g_test_add_func ("/ui/document/choices-in-metadata", test_document_choices_in_metadata);
  g_test_add_func ("/ui/document/drafts", test_document_drafts);

  return g_test_run ();
}
