/* test-language.c: the in-app language reference and the editor's hover
 * help say what docs/language.md says, and the reference opens from F1
 * with every rule named for a screen reader. */
#include "config.h"

#include <string.h>

#include "tp-editor.h"
#include "tp-document.h"
#include "tp-language-reference.h"
#include "tp-window.h"
#include "tp-ui-test-util.h"
#include "tp-ui-test-keys.h"
#include "tp-ui-test-window.h"

#define SUBPROCESS_TIMEOUT (60 * G_USEC_PER_SEC)

/* @text without backticks and bold marks, its runs of white space one
 * space, trimmed. */
static char *
plain (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '`' || (p[0] == '*' && p[1] == '*'))
        {
          p += *p == '*';
          continue;
        }
      if (g_ascii_isspace (*p))
        {
          if (out->len > 0 && out->str[out->len - 1] != ' ')
            g_string_append_c (out, ' ');
          continue;
        }
      g_string_append_c (out, *p);
    }
  while (out->len > 0 && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  return g_string_free (out, FALSE);
}

/* The rows of the table under the heading "### @section" of @doc, each
 * a NULL-terminated array of its cells as written (the header and the
 * rule line left out). */
static GPtrArray *
table_rows (const char *doc,
            const char *section)
{
  g_autofree char *heading = g_strdup_printf ("\n### %s\n", section);
  const char *at = strstr (doc, heading);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_auto(GStrv) lines = NULL;
  guint seen = 0;

  g_assert_nonnull (at);
  lines = g_strsplit (at + strlen (heading), "\n", -1);
  for (guint i = 0; lines[i] != NULL && !g_str_has_prefix (lines[i], "### "); i++)
    {
      g_auto(GStrv) cells = NULL;
      GPtrArray *row;

      if (lines[i][0] != '|')
        {
          if (seen > 0)
            break;            /* the end of the first table */
          continue;
        }
      if (seen++ < 2)
        continue;             /* the header and its rule */
      /* cells split at " | " (a "|" inside backticks has no spaces) */
      cells = g_strsplit (lines[i] + 1, " | ", -1);
      row = g_ptr_array_new ();
      for (guint c = 0; cells[c] != NULL; c++)
        {
          char *cell = g_strstrip (g_strdup (cells[c]));

          if (g_str_has_suffix (cell, "|"))
            cell[strlen (cell) - 1] = '\0';
          g_ptr_array_add (row, g_strstrip (cell));
        }
      g_ptr_array_add (row, NULL);
      g_ptr_array_add (rows, g_ptr_array_free (row, FALSE));
    }
  g_assert_cmpuint (rows->len, >, 0);
  return rows;
}

/* The backticked parts of @cell. */
static GStrv
code_parts (const char *cell)
{
  GPtrArray *parts = g_ptr_array_new ();

  for (const char *p = strchr (cell, '`'); p != NULL; p = strchr (p + 1, '`'))
    {
      const char *end = strchr (p + 1, '`');

      g_assert_nonnull (end);
      g_ptr_array_add (parts, g_strndup (p + 1, (gsize) (end - p - 1)));
      p = end;
    }
  g_ptr_array_add (parts, NULL);
  return (GStrv) g_ptr_array_free (parts, FALSE);
}

static char *
read_language_md (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_SRCDIR"), "..", "..", "docs", "language.md", NULL);
  char *doc = NULL;

  g_assert_true (g_file_get_contents (path, &doc, NULL, NULL));
  return doc;
}

static const TpLanguageEntry *
find_form (TpLanguageKind kind,
           const char    *form)
{
  guint n;
  const TpLanguageEntry *entries = tp_language_get_entries (&n);

  for (guint i = 0; i < n; i++)
    if (entries[i].kind == kind && g_str_equal (entries[i].form, form))
      return &entries[i];
  return NULL;
}

/* The reference's sources, operators, functions, limits and sentences
 * are docs/language.md's, both ways: a row added to one and not the
 * other fails. */
static void
test_language_matches_docs (void)
{
  g_autofree char *doc = read_language_md ();
  g_autofree char *flat = plain (doc);
  static const struct { const char *section; TpLanguageKind kind; } tables[] = {
    { "Sources", TP_LANGUAGE_SOURCE },
    { "Operators", TP_LANGUAGE_OPERATOR },
    { "Functions", TP_LANGUAGE_FUNCTION },
  };
  guint n_entries, n_limits, n_prose, matched = 0;
  const TpLanguageLimit *limits = tp_language_get_limits (&n_limits);
  const TpLanguageProse *prose = tp_language_get_prose (&n_prose);
  g_autoptr(GPtrArray) limit_rows = NULL;

  tp_language_get_entries (&n_entries);
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    {
      g_autoptr(GPtrArray) rows = table_rows (doc, tables[t].section);

      for (guint r = 0; r < rows->len; r++)
        {
          char **cells = rows->pdata[r];
          g_auto(GStrv) forms = code_parts (cells[0]);
          g_auto(GStrv) records = cells[1] != NULL && cells[2] != NULL ? code_parts (cells[2]) : NULL;
          g_autofree char *rule = plain (cells[1]);
          /* a row of several functions records one op each, in order;
           * an operator row is one entry, written as the row is */
          gboolean grouped = tables[t].kind == TP_LANGUAGE_FUNCTION && g_strv_length (forms) > 1;
          g_autofree char *whole = plain (cells[0]);

          for (guint f = 0; forms[f] != NULL && (grouped || f == 0); f++)
            {
              const char *form = tables[t].kind == TP_LANGUAGE_OPERATOR || !grouped ? whole : forms[f];
              const TpLanguageEntry *entry = find_form (tables[t].kind, form);
              g_autofree char *want_records = NULL;

              g_test_message ("%s: %s", tables[t].section, form);
              g_assert_nonnull (entry);
              g_assert_cmpstr (entry->rule, ==, rule);
              if (cells[2] != NULL)
                {
                  want_records = grouped ? g_strdup (records[f]) : plain (cells[2]);
                  g_assert_cmpstr (entry->records, ==, want_records);
                }
              else
                g_assert_null (entry->records);
              if (entry->word != NULL)
                g_assert_true (g_str_has_prefix (entry->form, entry->word));
              matched++;
            }
        }
    }
  g_assert_cmpuint (matched, ==, n_entries);

  limit_rows = table_rows (doc, "Limits");
  g_assert_cmpuint (limit_rows->len, ==, n_limits);
  for (guint r = 0; r < limit_rows->len; r++)
    {
      char **cells = limit_rows->pdata[r];
      g_autofree char *what = plain (cells[0]);

      g_assert_cmpstr (limits[r].what, ==, what);
      g_assert_cmpstr (limits[r].at_most, ==, cells[1]);
    }

  for (guint i = 0; i < n_prose; i++)
    {
      g_test_message ("prose: %s", prose[i].text);
      g_assert_nonnull (strstr (flat, prose[i].text));
    }
}

/* Hover help answers a function name followed by "(" and a source
 * keyword followed by a shape or a number, and nothing else: not a name
 * that is spelled like a keyword, not a comment. */
static void
test_language_hover (void)
{
  static const char text[] = "sum = input [2, 3]\n"
                             "h = sum_along(sum, 0)  # tanh(h)\n"
                             "k = tanh (h)\n";
  TpDocument *document = tp_document_new ();
  TpEditor *editor = TP_EDITOR (g_object_ref_sink (tp_editor_new ()));
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (tp_document_get_buffer (document));
  static const struct { const char *at; const char *help; } cases[] = {
    { "sum =", NULL },
    { "nput [", "input S: a value fed from outside; the readings use its default payload" },
    { "sum_along(", "sum_along(a, k): k < rank; axis k removed (records SumAlong axis=k)" },
    { "along(", "sum_along(a, k): k < rank; axis k removed (records SumAlong axis=k)" },
    { "sum, 0", NULL },
    { "tanh(h)", NULL },
    { "tanh (h)", "tanh(a): any shape (records Tanh)" },
    { "h)\n", NULL },
  };

  tp_editor_set_document (editor, document);
  gtk_text_buffer_set_text (buffer, text, -1);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *at = strstr (text, cases[i].at);
      GtkTextIter iter;
      g_autofree char *help = NULL;

      g_assert_nonnull (at);
      gtk_text_buffer_get_iter_at_offset (buffer, &iter, (int) g_utf8_pointer_to_offset (text, at));
      help = tp_editor_dup_help_at (editor, &iter);
      g_test_message ("at “%s”: %s", cases[i].at, help != NULL ? help : "(none)");
      g_assert_cmpstr (help, ==, cases[i].help);
    }
  g_object_unref (editor);
  g_object_unref (document);
}

static void
expect_named_rows (GtkWidget *widget,
                   guint     *n_rows)
{
  if (GTK_IS_LIST_BOX_ROW (widget))
    {
      g_autofree char *name = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                                  GTK_ACCESSIBLE_PROPERTY_LABEL, "\001");

      g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL));
      g_assert_nonnull (name);
      g_assert_nonnull (strchr (name, ':'));
      g_assert_true (gtk_widget_get_focusable (widget));
      (*n_rows)++;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    expect_named_rows (child, n_rows);
}

static gboolean
reference_shown (gpointer data)
{
  GtkWindow *reference = g_object_get_data (data, "tp-language-reference");

  return reference != NULL && gtk_widget_get_mapped (GTK_WIDGET (reference));
}

static gboolean
reference_gone (gpointer data)
{
  return g_object_get_data (data, "tp-language-reference") == NULL;
}

/* F1, from the editor, opens the reference (once, however often it is
 * pressed); every rule is a row with its whole text as its accessible
 * name; Escape closes it. */
static void
test_language_window (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window;
      GtkWindow *reference;
      guint n_entries, n_limits, n_rows = 0;

      g_setenv ("GTK_A11Y", "test", TRUE);
      window = tp_test_window_new ();
      g_assert_true (tp_test_focus_window (GTK_WINDOW (window)));
      g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (tp_editor_get_view (tp_window_get_editor (window)))));
      tp_test_press (NULL, "F1");       /* the reference takes the keyboard */
      g_assert_true (tp_test_wait_until (reference_shown, window, 20));
      reference = g_object_get_data (G_OBJECT (window), "tp-language-reference");
      g_assert_cmpstr (gtk_window_get_title (reference), ==, "Language Reference");
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.language-reference", NULL));
      g_assert_true (g_object_get_data (G_OBJECT (window), "tp-language-reference") == reference);

      tp_language_get_entries (&n_entries);
      tp_language_get_limits (&n_limits);
      expect_named_rows (GTK_WIDGET (reference), &n_rows);
      g_assert_cmpuint (n_rows, ==, n_entries + n_limits);

      g_assert_true (tp_test_focus_window (reference));
      tp_test_press (NULL, "Escape");
      g_assert_true (tp_test_wait_until (reference_gone, window, 20));
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static GtkLabel *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return GTK_LABEL (widget);
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkLabel *found = find_label (c, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The engine's hints come in the diagnostic itself (a bias row added to
 * every row, mean): the editor shows the whole message, wrapped. */
static void
test_language_long_diagnostic (void)
{
  static const char *const programs[] = {
    "x = input [4, 3]\nw = parameter [3, 2]\nb = parameter [1, 2]\ny = x @ w + b\nloss = sum(y)\n",
    "x = input [4, 3]\nloss = mean(x)\n",
  };

  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      TpEditor *editor = tp_window_get_editor (window);

      gtk_window_present (GTK_WINDOW (window));
      for (guint i = 0; i < G_N_ELEMENTS (programs); i++)
        {
          TpSession *session = tp_session_new ();
          TpChoices choices = { 0 };
          const TpDiag *diag;
          size_t n = 0;
          g_autofree char *expected = NULL;
          GtkLabel *label;
          int narrow = 0, wide = 0;

          g_assert_cmpint (tp_session_compile (session, programs[i], strlen (programs[i]), &choices), ==,
                           TP_STATUS_REFUSED);
          diag = tp_session_diags (session, &n);
          g_assert_cmpuint (strlen (diag->message), >, 90);
          expected = g_strdup_printf ("%u:%u: %s", diag->line, diag->column, diag->message);
          tp_document_set_text (tp_window_get_document (window), programs[i]);
          tp_window_recompute_now (window);
          g_assert_cmpstr (tp_editor_get_diagnostic_text (editor), ==, expected);
          label = find_label (GTK_WIDGET (editor), expected);
          g_assert_nonnull (label);
          g_assert_true (gtk_label_get_wrap (label));
          gtk_widget_measure (GTK_WIDGET (label), GTK_ORIENTATION_VERTICAL, 300, NULL, &narrow, NULL, NULL);
          gtk_widget_measure (GTK_WIDGET (label), GTK_ORIENTATION_VERTICAL, 5000, NULL, &wide, NULL, NULL);
          g_assert_cmpint (narrow, >, wide);
          tp_session_free (session);
        }
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/language/matches-docs", test_language_matches_docs);
  g_test_add_func ("/ui/language/hover", test_language_hover);
  g_test_add_func ("/ui/language/window", test_language_window);
  g_test_add_func ("/ui/language/long-diagnostic", test_language_long_diagnostic);
  return g_test_run ();
}
