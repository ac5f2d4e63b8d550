/* tp-language-reference.c: the language in brief (see
 * tp-language-reference.h): the one table, hover help's lookup, and the
 * reference window.
 *
 * The window is a list per section, each row one rule: Tab moves from
 * list to list, the arrows from row to row, and every row's accessible
 * name is the whole rule, so a screen reader reads it as one line.
 * Escape closes it. */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "tp-language-reference.h"

/* docs/language.md: "Sources", "Operators", "Functions".  A rule or a
 * "records" text is the document's with its backticks dropped. */
static const TpLanguageEntry entries[] = {
  { TP_LANGUAGE_SOURCE, "parameter", "parameter S",
    N_("a trainable value; the derivative is taken with respect to every parameter, in declaration order"), NULL },
  { TP_LANGUAGE_SOURCE, "input", "input S", N_("a value fed from outside; the readings use its default payload"), NULL },
  { TP_LANGUAGE_SOURCE, "leaf", "leaf S", N_("a constant"), NULL },
  { TP_LANGUAGE_OPERATOR, NULL, "a + b, a - b, a * b, a / b", N_("element by element"), "Add, Sub, Mul, Div" },
  { TP_LANGUAGE_OPERATOR, NULL, "-a", N_("negation"), "Neg" },
  { TP_LANGUAGE_OPERATOR, NULL, "a @ b", N_("matrix product of two rank-2 values, [m, k] @ [k, n]"), "MatMul" },
  { TP_LANGUAGE_FUNCTION, "tanh", "tanh(a)", N_("any shape"), "Tanh" },
  { TP_LANGUAGE_FUNCTION, "exp", "exp(a)", N_("any shape"), "Exp" },
  { TP_LANGUAGE_FUNCTION, "ln", "ln(a)", N_("any shape"), "Ln" },
  { TP_LANGUAGE_FUNCTION, "sqrt", "sqrt(a)", N_("any shape"), "Sqrt" },
  { TP_LANGUAGE_FUNCTION, "sin", "sin(a)", N_("any shape"), "Sin" },
  { TP_LANGUAGE_FUNCTION, "cos", "cos(a)", N_("any shape"), "Cos" },
  { TP_LANGUAGE_FUNCTION, "relu", "relu(a)", N_("any shape"),
    N_("Leaf (zeros of a's shape), then Maximum a, zeros") },
  { TP_LANGUAGE_FUNCTION, "transpose", "transpose(a)", N_("rank 2"), "Permute a order=[1, 0]" },
  { TP_LANGUAGE_FUNCTION, "sum", "sum(a)", N_("any shape; the result is rank 0"), "Sum" },
  { TP_LANGUAGE_FUNCTION, "sum_along", "sum_along(a, k)", N_("k < rank; axis k removed"), "SumAlong axis=k" },
  { TP_LANGUAGE_FUNCTION, "log_softmax", "log_softmax(a, k)", N_("k < rank; same shape"), "LogSoftmax axis=k" },
  { TP_LANGUAGE_FUNCTION, "logsumexp", "logsumexp(a, k)", N_("k < rank; axis k removed"), "LogSumExp axis=k" },
  { TP_LANGUAGE_FUNCTION, "softmax", "softmax(a, k)", N_("k < rank; same shape"), N_("LogSoftmax axis=k, then Exp") },
  { TP_LANGUAGE_FUNCTION, "mean_along", "mean_along(a, k)", N_("k < rank; axis k removed"),
    N_("SumAlong axis=k, a Leaf filled with the extent a.shape[k], then Div") },
  { TP_LANGUAGE_FUNCTION, "broadcast", "broadcast(a, S)", N_("a is rank 0"), "Broadcast shape=S" },
  { TP_LANGUAGE_FUNCTION, "reshape", "reshape(a, S)", N_("same number of elements"), "Reshape shape=S" },
};

/* docs/language.md, "Limits": its first two columns. */
static const TpLanguageLimit limits[] = {
  { N_("elements in one tensor"), "2^22" },
  { N_("elements in all nodes, gradient included"), "2^24" },
  { N_("interpreter work (a matmul counts m*k*n multiply-adds)"), "2^30" },
  { N_("nodes"), "100,000" },
  { N_("statements"), "100,000" },
  { N_("name length"), "64" },
  { N_("expression nesting"), "256" },
  { N_("axes in a shape"), "16" },
  { N_("elements in a tensor literal"), "2^22" },
  { N_("axes in a tensor literal"), "16" },
};

/* Sentences of docs/language.md, its backticks dropped. */
static const TpLanguageProse prose[] = {
  { TP_LANGUAGE_PROGRAM, N_("A program is one statement a line: name = expression. Blank lines and comment-only lines are allowed.") },
  { TP_LANGUAGE_PROGRAM, N_("A name may be assigned more than once; a use of the name refers to its latest assignment so far.") },
  { TP_LANGUAGE_SOURCE, N_("S is a shape, a number or a tensor literal.") },
  { TP_LANGUAGE_SOURCE, N_("A literal gives a payload holding its elements in row-major order (numpy's order), rounded to f32 one by one as numbers are: x = leaf [[0, 0], [0, 1], [1, 0], [1, 1]] is a [4, 2] constant") },
  { TP_LANGUAGE_OPERATOR, N_("*, / and @ bind equally tightly, so a * b @ c is (a * b) @ c.") },
  { TP_LANGUAGE_OPERATOR, N_("+ - * / need equal shapes.") },
  { TP_LANGUAGE_OPERATOR, N_("The one exception: when one side is rank 0 and the other is not, the rank-0 side is spread to the other's shape by an explicit Broadcast node recorded just before the operation.") },
  { TP_LANGUAGE_OPERATOR, N_("Nothing else broadcasts: [2, 3] + [3] is refused.") },
  { TP_LANGUAGE_FUNCTION, N_("The axis k is a number literal, at least 0 and whole (1, 1.0).") },
  { TP_LANGUAGE_COMMENT, N_("# starts a comment that runs to the end of the line.") },
};

static const char *const section_titles[TP_N_LANGUAGE_SECTIONS] = {
  N_("Programs"), N_("Sources"), N_("Operators"), N_("Functions"), N_("Comments"), N_("Limits"),
};

const TpLanguageEntry *
tp_language_get_entries (guint *n_entries)
{
  *n_entries = G_N_ELEMENTS (entries);
  return entries;
}

const TpLanguageLimit *
tp_language_get_limits (guint *n_limits)
{
  *n_limits = G_N_ELEMENTS (limits);
  return limits;
}

const TpLanguageProse *
tp_language_get_prose (guint *n_prose)
{
  *n_prose = G_N_ELEMENTS (prose);
  return prose;
}

const TpLanguageEntry *
tp_language_lookup (const char *word)
{
  for (guint i = 0; word != NULL && i < G_N_ELEMENTS (entries); i++)
    if (entries[i].word != NULL && strcmp (entries[i].word, word) == 0)
      return &entries[i];
  return NULL;
}

char *
tp_language_dup_summary (const TpLanguageEntry *entry)
{
  if (entry->records == NULL)
    /* Translators: a line of hover help: how a source is written, and
     * what it is, e.g. "leaf S: a constant" */
    return g_strdup_printf (C_("hover help", "%s: %s"), entry->form, gettext (entry->rule));
  /* Translators: a line of hover help: how a function is written, its
   * argument rule and the nodes it records, e.g. "sum(a): any shape;
   * the result is rank 0 (records Sum)" */
  return g_strdup_printf (C_("hover help", "%s: %s (records %s)"), entry->form, gettext (entry->rule), gettext (entry->records));
}

/* {==== the window ====} */

static GtkWidget *
heading_new (const char *title)
{
  GtkWidget *label = g_object_new (GTK_TYPE_LABEL,
                                   "label", title,
                                   "xalign", 0.0,
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_HEADING,
                                   NULL);

  gtk_widget_add_css_class (label, "title-4");
  gtk_widget_set_margin_top (label, 12);
  return label;
}

static GtkWidget *
cell_new (const char *text,
          gboolean    code)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (code)
    {
      gtk_widget_add_css_class (label, "monospace");
      gtk_label_set_width_chars (GTK_LABEL (label), 18);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 26);
    }
  else
    gtk_widget_set_hexpand (label, TRUE);
  return label;
}

/* A row of two or three cells whose accessible name is @name. */
static GtkWidget *
row_new (GtkListBox *list,
         const char *first,
         const char *second,
         const char *third,
         const char *name)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *row = gtk_list_box_row_new ();

  gtk_box_append (GTK_BOX (box), cell_new (first, TRUE));
  gtk_box_append (GTK_BOX (box), cell_new (second, FALSE));
  if (third != NULL)
    {
      GtkWidget *records = cell_new (third, FALSE);

      gtk_widget_add_css_class (records, "dim-label");
      gtk_box_append (GTK_BOX (box), records);
    }
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_list_box_append (list, row);
  return row;
}

static GtkListBox *
list_new (GtkWidget  *parent,
          const char *title)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  gtk_box_append (GTK_BOX (parent), list);
  return GTK_LIST_BOX (list);
}

static void
add_section (GtkWidget      *box,
             TpLanguageKind  section)
{
  const char *title = gettext (section_titles[section]);
  GtkListBox *list = NULL;

  gtk_box_append (GTK_BOX (box), heading_new (title));
  for (guint i = 0; i < G_N_ELEMENTS (prose); i++)
    if (prose[i].section == section)
      {
        GtkWidget *label = cell_new (gettext (prose[i].text), FALSE);

        gtk_box_append (GTK_BOX (box), label);
      }
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    if (entries[i].kind == section)
      {
        g_autofree char *name = tp_language_dup_summary (&entries[i]);

        if (list == NULL)
          list = list_new (box, title);
        row_new (list, entries[i].form, gettext (entries[i].rule),
                 entries[i].records != NULL ? gettext (entries[i].records) : NULL, name);
      }
  if (section == TP_LANGUAGE_LIMIT)
    for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
      {
        /* Translators: a limit of the language as a screen reader reads
         * it, e.g. "nodes: at most 100,000" */
        g_autofree char *name = g_strdup_printf (_("%s: at most %s"), gettext (limits[i].what), limits[i].at_most);

        if (list == NULL)
          list = list_new (box, title);
        row_new (list, limits[i].at_most, gettext (limits[i].what), NULL, name);
      }
}

static void
reference_destroyed_cb (GtkWindow *parent,
                        GtkWindow *window)
{
  if (g_object_get_data (G_OBJECT (parent), "tp-language-reference") == window)
    g_object_set_data (G_OBJECT (parent), "tp-language-reference", NULL);
}

GtkWindow *
tp_language_reference_present (GtkWindow *parent)
{
  GtkWindow *window = parent != NULL ? g_object_get_data (G_OBJECT (parent), "tp-language-reference") : NULL;
  GtkWidget *scroller, *box;
  GtkEventController *keys;

  if (window != NULL)
    {
      gtk_window_present (window);
      return window;
    }
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_title (window, _("Language Reference"));
  gtk_window_set_default_size (window, 640, 620);
  if (parent != NULL)
    {
      gtk_window_set_transient_for (window, parent);
      gtk_window_set_destroy_with_parent (window, TRUE);
      g_object_set_data (G_OBJECT (parent), "tp-language-reference", window);
      g_signal_connect_object (window, "destroy", G_CALLBACK (reference_destroyed_cb), parent, G_CONNECT_SWAPPED);
    }

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  for (guint s = 0; s < TP_N_LANGUAGE_SECTIONS; s++)
    add_section (box, (TpLanguageKind) s);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_window_set_child (window, scroller);

  keys = GTK_EVENT_CONTROLLER (gtk_shortcut_controller_new ());
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (keys),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_named_action_new ("window.close")));
  gtk_widget_add_controller (GTK_WIDGET (window), keys);
  gtk_window_present (window);
  return window;
}
