/* test-window-text.c: the window's text panes under Xvfb: long readings
 * shown line by line, folded values and StableHLO, colours and tags that
 * follow the map, the source span.  Every case that maps a window runs in
 * its own subprocess. */
#include "test-window.h"

/* {==== a long reading, line by line ====} */

/* A chain of small layers, @layers of them, @first_line at the top. */
static char *
layered_program (guint       layers,
                 const char *first_line)
{
  GString *s = g_string_new (first_line);
  char prev[32] = "x";

  g_string_append (s, "x = input [4, 8]\n");
  for (guint i = 0; i < layers; i++)
    {
      g_string_append_printf (s, "w%u = parameter [8, 8]\nh%u = tanh(%s @ w%u) + %s\n", i, i, prev, i, prev);
      g_snprintf (prev, sizeof prev, "h%u", i);
    }
  g_string_append_printf (s, "loss = sum(%s * %s)\n", prev, prev);
  return g_string_free (s, FALSE);
}

/* Every tag range of @buffer, "tag start end" a line, in a fixed order. */
static char *
tag_ranges (GtkTextBuffer *buffer)
{
  static const char *const tags[] = {
    "derived", "divider", "summary", "kept", "selected", "selected-ref",
    "hlo-comment", "hlo-operation", "hlo-type", "hlo-value", "hlo-symbol", "hlo-keyword", "hlo-number",
  };
  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
  GString *out = g_string_new (NULL);

  for (guint t = 0; t < G_N_ELEMENTS (tags); t++)
    {
      GtkTextTag *tag = gtk_text_tag_table_lookup (table, tags[t]);
      GtkTextIter iter;

      g_assert_nonnull (tag);
      gtk_text_buffer_get_start_iter (buffer, &iter);
      if (!gtk_text_iter_starts_tag (&iter, tag) && !gtk_text_iter_forward_to_tag_toggle (&iter, tag))
        continue;
      do
        {
          GtkTextIter end = iter;

          gtk_text_iter_forward_to_tag_toggle (&end, tag);
          g_string_append_printf (out, "%s %d %d\n", tags[t], gtk_text_iter_get_offset (&iter),
                                  gtk_text_iter_get_offset (&end));
          iter = end;
        }
      while (gtk_text_iter_forward_to_tag_toggle (&iter, tag));
    }
  return g_string_free (out, FALSE);
}

static gboolean
panes_idle (gpointer data)
{
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    if (tp_text_pane_get_busy (TP_TEXT_PANE (tp_window_get_pane (data, (TpPane) p))))
      return FALSE;
  return TRUE;
}

/* @window's panes show what a fresh window shows for the same text:
 * the same text and the same decoration, to the character. */
static void
assert_panes_like_fresh (TpWindow *window)
{
  TpWindow *fresh = tp_test_window_new ();
  g_autofree char *source = tp_document_dup_text (tp_window_get_document (window));

  tp_document_set_text (tp_window_get_document (fresh), source);
  tp_window_recompute_now (fresh);
  tp_document_set_selected_node (tp_window_get_document (fresh),
                                 tp_document_get_selected_node (tp_window_get_document (window)));
  assert_panes_match_engine (window, NULL, NULL, FALSE);
  for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
    {
      GtkTextView *a = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, (TpPane) p)));
      GtkTextView *b = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (fresh, (TpPane) p)));
      g_autofree char *ta = tag_ranges (gtk_text_view_get_buffer (a));
      g_autofree char *tb = tag_ranges (gtk_text_view_get_buffer (b));

      g_assert_cmpstr (ta, ==, tb);
    }
  gtk_window_destroy (GTK_WINDOW (fresh));
}

/* A long reading reaches its pane over several main-loop turns, keeping
 * the lines it shares with the last one; whatever the edit (at the end,
 * at the top so every node is renumbered, refused, or overtaken by the
 * next one half-way), the pane ends with exactly the reading and the
 * decoration a fresh pane has. */
static void
test_window_long_readings (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      GtkTextBuffer *spec = gtk_text_view_get_buffer (tp_text_pane_get_view (
        TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_SPEC))));
      g_autofree char *p1 = layered_program (150, "# a long program\n");
      g_autofree char *p2 = layered_program (150, "early = 2.5\n");
      g_autofree char *p3 = layered_program (149, "early = 2.5\n");
      g_autofree char *p4 = layered_program (60, "");
      guint turns = 0;
      GtkTextIter kept;
      GtkTextMark *mark;

      gtk_window_present (GTK_WINDOW (window));
      tp_document_set_text (document, p1);
      tp_document_recompute_now (document);
      g_assert_false (panes_idle (window));
      while (!panes_idle (window))
        {
          g_main_context_iteration (NULL, TRUE);
          turns++;
        }
      g_assert_cmpuint (turns, >, 10);       /* in slices, not at once */
      assert_panes_like_fresh (window);

      /* an edit at the end keeps every line before it: a mark on the
       * spec's tenth line stays where it was */
      gtk_text_buffer_get_iter_at_line (spec, &kept, 10);
      mark = gtk_text_buffer_create_mark (spec, NULL, &kept, TRUE);
      {
        g_autofree char *longer = g_strconcat (p1, "more = h3 * 3.0\n", NULL);

        tp_document_set_text (document, longer);
        tp_document_recompute_now (document);
        g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      }
      gtk_text_buffer_get_iter_at_mark (spec, &kept, mark);
      g_assert_cmpint (gtk_text_iter_get_line (&kept), ==, 10);
      g_assert_true (gtk_text_iter_starts_line (&kept));
      assert_panes_like_fresh (window);

      /* at the top: every node renumbered */
      tp_document_set_text (document, p2);
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      assert_panes_like_fresh (window);

      /* overtaken half-way by a shorter program, then by a refused one */
      tp_document_set_text (document, p3);
      tp_document_recompute_now (document);
      for (guint k = 0; k < 5; k++)
        g_main_context_iteration (NULL, TRUE);
      g_assert_false (panes_idle (window));
      tp_document_set_text (document, p4);
      tp_document_recompute_now (document);
      for (guint k = 0; k < 3; k++)
        g_main_context_iteration (NULL, TRUE);
      tp_document_set_text (document, "x = input [2]\ny = x @ x @ x\n");
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      g_assert_true (tp_document_get_stale (document));
      tp_document_set_text (document, p4);
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      assert_panes_like_fresh (window);

      /* and the selection shows on the new lines */
      tp_document_set_selected_node (document, 7);
      {
        g_autofree char *line = selected_line (window, TP_PANE_SPEC);

        g_assert_nonnull (line);
        g_assert_true (g_str_has_prefix (line, "   7  "));
      }
      assert_panes_like_fresh (window);

      /* a pane out of sight (the focus layout) takes its reading when it
       * is shown */
      tp_window_set_focus_layout (window, TRUE, TP_PANE_SPEC);
      g_assert_true (tp_test_wait_until (window_ready, window, 20));
      {
        GtkTextBuffer *plan = gtk_text_view_get_buffer (tp_text_pane_get_view (
          TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_PLAN))));
        GtkTextIter start, end;
        g_autofree char *before = NULL;
        g_autofree char *after = NULL;

        gtk_text_buffer_get_bounds (plan, &start, &end);
        before = gtk_text_buffer_get_text (plan, &start, &end, TRUE);
        tp_document_set_text (document, p1);
        tp_document_recompute_now (document);
        g_assert_true (tp_test_wait_until (window_ready, window, 20));
        gtk_text_buffer_get_bounds (plan, &start, &end);
        after = gtk_text_buffer_get_text (plan, &start, &end, TRUE);
        g_assert_cmpstr (after, ==, before);
        tp_window_set_focus_layout (window, TRUE, TP_PANE_PLAN);
        g_assert_true (tp_test_wait_until (panes_idle, window, 20));
        g_clear_pointer (&after, g_free);
        gtk_text_buffer_get_bounds (plan, &start, &end);
        after = gtk_text_buffer_get_text (plan, &start, &end, TRUE);
        g_assert_cmpstr (after, !=, before);
      }
      assert_panes_like_fresh (window);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static char *clipboard_text (GtkWidget *widget);

static GtkWidget *
find_icon_button (GtkWidget  *widget,
                  const char *icon)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), icon) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_icon_button (child, icon);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Line @line of @text, without its '\n'. */
static char *
nth_line (const char *text,
          guint       line)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  g_assert_cmpuint (line, <, g_strv_length (lines));
  return g_strdup (lines[line]);
}

static char *
buffer_line (GtkTextBuffer *buffer,
             int            line)
{
  GtkTextIter a, b;

  gtk_text_buffer_get_iter_at_line (buffer, &a, line);
  b = a;
  if (!gtk_text_iter_ends_line (&b))
    gtk_text_iter_forward_to_line_end (&b);
  return gtk_text_buffer_get_text (buffer, &a, &b, TRUE);
}

static gboolean
line_has_tag_at (GtkTextBuffer *buffer,
                 int            line,
                 int            index,
                 const char    *tag)
{
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line_index (buffer, &iter, line, index);
  return gtk_text_iter_has_tag (&iter, gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), tag));
}

/* A values line over a few thousand characters is shown folded: its
 * start, " … ", its end, the element count and a "show all" control;
 * the pane's copy gives the full text, its lines keep their node and
 * decoration, and "show all" shows the line whole. */
static void
test_window_folded_values (void)
{
  if (g_test_subprocess ())
    {
      static const char program[] = "x = parameter [40, 40]\nloss = sum(x @ x)\n";
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_VALUES));
      GtkTextView *view = tp_text_pane_get_view (pane);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      TpSession *session = tp_session_new ();
      g_autofree char *full = NULL;
      g_autofree char *x_full = NULL;
      g_autofree char *grad_full = NULL;
      g_autofree char *shown = NULL;
      g_autofree char *copied = NULL;
      g_autofree char *end_part = NULL;
      guint grad_line = 0;
      int x_node = -1;
      GtkTextIter iter;

      g_assert_cmpint (tp_session_compile (session, program, strlen (program), NULL), ==, TP_STATUS_OK);
      full = g_strdup (tp_session_reading (session, TP_READING_VALUES));
      x_full = nth_line (full, 0);
      g_assert_cmpuint (strlen (x_full), >, TP_FOLD_LIMIT);
      for (guint l = 1; grad_line == 0; l++)
        {
          g_autofree char *line = nth_line (full, l);

          if (g_str_has_prefix (line, "d loss / d x"))
            grad_line = l;
        }
      grad_full = nth_line (full, grad_line);

      gtk_window_present (GTK_WINDOW (window));
      tp_document_set_text (document, program);
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));

      /* folded: start, " … ", end, count, control; as many lines */
      shown = buffer_line (buffer, 0);
      g_assert_cmpuint (strlen (shown), <, TP_FOLD_HEAD + TP_FOLD_TAIL + 100);
      g_assert_true (strncmp (shown, x_full, 200) == 0);
      g_assert_nonnull (strstr (shown, " … "));
      end_part = g_strdup (x_full + strlen (x_full) - 100);
      g_assert_nonnull (strstr (shown, end_part));
      g_assert_true (g_str_has_suffix (shown, "   [1600 elements] show all"));
      {
        g_auto(GStrv) lines = g_strsplit (full, "\n", -1);

        g_assert_cmpint (gtk_text_buffer_get_line_count (buffer), ==, (int) g_strv_length (lines));
      }
      g_assert_true (line_has_tag_at (buffer, 0, (int) strlen (shown) - 2, "show-all"));
      g_assert_false (line_has_tag_at (buffer, 0, 10, "show-all"));
      {
        g_autofree char *line = buffer_line (buffer, 1);
        g_autofree char *want = nth_line (full, 1);

        g_assert_cmpstr (line, ==, want);   /* a short line stays whole */
      }

      /* copying gives the exact full text: the pane's button, and the
       * window's action */
      g_assert_cmpstr ((copied = tp_text_pane_dup_reading (pane)), ==, full);
      g_clear_pointer (&copied, g_free);
      g_signal_emit_by_name (find_icon_button (GTK_WIDGET (pane), "edit-copy-symbolic"), "clicked");
      copied = clipboard_text (GTK_WIDGET (view));
      g_assert_cmpstr (copied, ==, full);
      g_clear_pointer (&copied, g_free);
      gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (view)), "before");
      gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-reading", "s", "values");
      copied = clipboard_text (GTK_WIDGET (view));
      g_assert_cmpstr (copied, ==, full);

      /* the folded gradient line is still derived, in its end too */
      {
        g_autofree char *line = buffer_line (buffer, (int) grad_line);

        g_assert_nonnull (strstr (line, " … "));
        g_assert_true (line_has_tag_at (buffer, (int) grad_line, 0, "derived"));
        g_assert_true (line_has_tag_at (buffer, (int) grad_line, (int) strlen (line) - 30, "derived"));
        g_assert_false (line_has_tag_at (buffer, 0, 0, "derived"));
      }

      /* cross-highlight: the cursor in the end of the folded line selects
       * x, and selecting x marks the folded line */
      for (guint i = 0; i < tp_document_get_readings (document)->n_names; i++)
        if (g_str_equal (tp_document_get_readings (document)->names[i].name, "x"))
          x_node = (int) tp_document_get_readings (document)->names[i].node;
      g_assert_cmpint (x_node, >=, 0);
      tp_document_set_selected_node (document, -1);
      gtk_widget_grab_focus (GTK_WIDGET (view));
      gtk_text_buffer_get_iter_at_line_index (buffer, &iter, 0, (int) strlen (shown) - 40);
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, x_node);
      {
        g_autofree char *line = selected_line (window, TP_PANE_VALUES);

        g_assert_cmpstr (line, ==, shown);
      }
      g_assert_true (line_has_tag_at (buffer, 0, (int) strlen (shown) - 5, "selected"));

      /* "show all" (the context menu's action, at the cursor) shows the
       * line whole; the others stay folded, the selection stays */
      gtk_text_buffer_get_iter_at_line (buffer, &iter, 0);
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pane), "pane.show-all", NULL));
      {
        g_autofree char *line = buffer_line (buffer, 0);
        g_autofree char *other = buffer_line (buffer, (int) grad_line);

        g_assert_cmpstr (line, ==, x_full);
        g_assert_nonnull (strstr (other, " … "));
        g_assert_true (line_has_tag_at (buffer, 0, (int) strlen (x_full) - 5, "selected"));
        g_assert_false (line_has_tag_at (buffer, 0, (int) strlen (x_full) - 5, "show-all"));
      }
      g_assert_false (tp_text_pane_show_all (pane, 0));     /* already whole */
      g_assert_false (tp_text_pane_show_all (pane, 1));     /* never folded */
      g_assert_true (tp_text_pane_show_all (pane, grad_line));
      {
        g_autofree char *line = buffer_line (buffer, (int) grad_line);

        g_assert_cmpstr (line, ==, grad_full);
        g_assert_true (line_has_tag_at (buffer, (int) grad_line, (int) strlen (grad_full) - 5, "derived"));
      }
      g_clear_pointer (&copied, g_free);
      g_assert_cmpstr ((copied = tp_text_pane_dup_reading (pane)), ==, full);
      g_clear_pointer (&copied, g_free);
      g_assert_cmpstr ((copied = tp_text_pane_dup_text (pane)), ==, full);

      /* a new reading folds again */
      {
        g_autofree char *more = g_strconcat (program, "twice = loss * 2.0\n", NULL);
        g_autofree char *line = NULL;

        tp_document_set_text (document, more);
        tp_document_recompute_now (document);
        g_assert_true (tp_test_wait_until (panes_idle, window, 20));
        line = buffer_line (buffer, 0);
        g_assert_true (g_str_has_suffix (line, "   [1600 elements] show all"));
      }

      tp_session_free (session);
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The signature of 150 arguments (6,400 characters) is folded in the
 * StableHLO pane: an argument in its start is still marked (the map's
 * offsets translated), one hidden in the fold marks only its uses, and
 * the cursor on a shown argument selects its node. */
static void
test_window_folded_stablehlo (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_STABLEHLO));
      GtkTextView *view = tp_text_pane_get_view (pane);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      GtkTextTag *ref = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "selected-ref");
      g_autofree char *program = layered_program (150, "");
      g_autofree char *signature = NULL;
      const char *at;
      GtkTextIter iter;
      int arg1, arg100;

      gtk_window_present (GTK_WINDOW (window));
      tp_document_set_text (document, program);
      tp_document_recompute_now (document);
      g_assert_true (tp_test_wait_until (panes_idle, window, 20));
      signature = buffer_line (buffer, 1);
      g_assert_true (g_str_has_prefix (signature, "  func.func @main(%arg0: "));
      g_assert_nonnull (strstr (signature, " … "));
      g_assert_null (strstr (signature, "%arg100:"));
      at = strstr (signature, "%arg1:");
      g_assert_nonnull (at);
      arg1 = tp_readings_get_argument_node (tp_document_get_readings (document), 1);
      arg100 = tp_readings_get_argument_node (tp_document_get_readings (document), 100);
      g_assert_cmpint (arg1, >=, 0);
      g_assert_cmpint (arg100, >=, 0);

      tp_document_set_selected_node (document, arg1);
      gtk_text_buffer_get_iter_at_line_index (buffer, &iter, 1, (int) (at - signature));
      g_assert_true (gtk_text_iter_starts_tag (&iter, ref));
      gtk_text_iter_forward_chars (&iter, (int) strlen ("%arg1"));
      g_assert_true (gtk_text_iter_ends_tag (&iter, ref));

      /* hidden in the fold: nothing on the signature line is marked */
      tp_document_set_selected_node (document, arg100);
      gtk_text_buffer_get_iter_at_line (buffer, &iter, 1);
      g_assert_false (gtk_text_iter_has_tag (&iter, ref));
      g_assert_true (gtk_text_iter_forward_to_tag_toggle (&iter, ref));
      g_assert_cmpint (gtk_text_iter_get_line (&iter), >, 1);

      /* the cursor on %arg1 in the folded line selects it */
      tp_document_set_selected_node (document, -1);
      gtk_widget_grab_focus (GTK_WIDGET (view));
      gtk_text_buffer_get_iter_at_line_index (buffer, &iter, 1, (int) (at - signature) + 2);
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_cmpint (tp_document_get_selected_node (document), ==, arg1);

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The tag covering every character of the first @token in @text (@buffer
 * holds @text), or NULL when the characters do not share one. */
static const char *
token_tag (GtkTextBuffer *buffer,
           const char    *text,
           const char    *token,
           const char    *prefix)
{
  const char *at = strstr (text, token);
  static char name[64];
  GtkTextIter iter, end;
  GSList *tags;

  g_assert_nonnull (at);
  gtk_text_buffer_get_iter_at_offset (buffer, &iter, (int) g_utf8_pointer_to_offset (text, at));
  end = iter;
  gtk_text_iter_forward_chars (&end, (int) g_utf8_strlen (token, -1));
  name[0] = '\0';
  tags = gtk_text_iter_get_tags (&iter);
  for (GSList *l = tags; l != NULL; l = l->next)
    {
      g_autofree char *tag_name = NULL;
      GtkTextIter next = iter;

      g_object_get (l->data, "name", &tag_name, NULL);
      if (tag_name == NULL || !g_str_has_prefix (tag_name, prefix))
        continue;
      /* the tag spans the token exactly */
      if (gtk_text_iter_starts_tag (&iter, l->data) && gtk_text_iter_forward_to_tag_toggle (&next, l->data)
          && gtk_text_iter_equal (&next, &end))
        g_strlcpy (name, tag_name, sizeof name);
    }
  g_slist_free (tags);
  return name[0] != '\0' ? name : NULL;
}

/* The StableHLO pane colours MLIR's token classes. */
static void
test_window_stablehlo_colours (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_STABLEHLO));
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_text_pane_get_view (pane));
      g_autofree char *text = tp_text_pane_dup_text (pane);

      g_assert_cmpstr (token_tag (buffer, text, "@topos", "hlo-"), ==, "hlo-symbol");
      g_assert_cmpstr (token_tag (buffer, text, "module", "hlo-"), ==, "hlo-keyword");
      g_assert_cmpstr (token_tag (buffer, text, "func.func", "hlo-"), ==, "hlo-operation");
      g_assert_cmpstr (token_tag (buffer, text, "%arg0", "hlo-"), ==, "hlo-value");
      g_assert_cmpstr (token_tag (buffer, text, "tensor<f32>", "hlo-"), ==, "hlo-type");
      g_assert_cmpstr (token_tag (buffer, text, "stablehlo.subtract", "hlo-"), ==, "hlo-operation");
      g_assert_cmpstr (token_tag (buffer, text, "dense", "hlo-"), ==, "hlo-keyword");
      g_assert_cmpstr (token_tag (buffer, text, "1.0", "hlo-"), ==, "hlo-number");
      /* a digit inside a name is no number */
      g_assert_cmpstr (token_tag (buffer, text, "%v10", "hlo-"), ==, "hlo-value");

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The hlo-* tag the StableHLO pane gives a token of @klass, or NULL. */
static const char *
hlo_tag_of_class (TpTokenClass klass)
{
  switch (klass)
    {
    case TP_TOKEN_COMMENT: return "hlo-comment";
    case TP_TOKEN_OP: return "hlo-operation";
    case TP_TOKEN_TYPE: return "hlo-type";
    case TP_TOKEN_SSA: return "hlo-value";
    case TP_TOKEN_SYMBOL: return "hlo-symbol";
    case TP_TOKEN_KEYWORD: return "hlo-keyword";
    case TP_TOKEN_NUMBER: return "hlo-number";
    default: return NULL;
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char *const *) a, *(char *const *) b);
}

/* The names of the tags at @iter with @prefix, sorted, space-separated. */
static char *
tags_at (GtkTextIter *iter,
         const char  *prefix)
{
  GSList *tags = gtk_text_iter_get_tags (iter);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  char *out;

  for (GSList *l = tags; l != NULL; l = l->next)
    {
      char *name = NULL;

      g_object_get (l->data, "name", &name, NULL);
      if (name != NULL && g_str_has_prefix (name, prefix))
        g_ptr_array_add (names, name);
      else
        g_free (name);
    }
  g_slist_free (tags);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  out = g_strjoinv (" ", (char **) names->pdata);
  g_ptr_array_unref (names);
  return out;
}

/* Every pane's decoration and colours are exactly what the engine's map
 * says, checked against a session of the test's own: each line's derived,
 * divider, summary and kept tags follow its role (and, in the plan, the
 * spec's node count), each StableHLO character has the colour of the
 * map's token covering it and no other, and the selection lights exactly
 * the lines of the selected node and its SSA uses elsewhere. */
static void
test_window_tags_follow_map (void)
{
  if (g_test_subprocess ())
    {
      static const char *const ids[] = { "readme", "mlp", "attention", "not-yet-a-scalar" };

      for (guint s = 0; s < G_N_ELEMENTS (ids); s++)
        {
          TpWindow *window = tp_test_window_new ();
          TpDocument *document = tp_window_get_document (window);
          g_autofree char *source = NULL;
          const char *observe = NULL;
          const char *obs[1];
          TpChoices choices = { 0 };
          TpSession *session = tp_session_new ();
          uint32_t spec_nodes;

          tp_window_open_sample (window, ids[s]);
          tp_window_recompute_now (window);
          gtk_window_present (GTK_WINDOW (window));
          g_assert_true (tp_test_wait_until (panes_idle, window, 20));
          source = tp_document_dup_text (document);
          observe = tp_document_get_observe (document);
          obs[0] = observe;
          choices.target = tp_document_get_target (document);
          choices.observe = obs;
          choices.n_observe = observe != NULL && observe[0] != '\0' ? 1 : 0;
          choices.exact = tp_document_get_exact (document);
          g_assert_cmpint (tp_session_compile (session, source, strlen (source), &choices), ==, TP_STATUS_OK);
          spec_nodes = tp_session_spec_nodes (session);

          for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
            {
              TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, (TpPane) p));
              GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_text_pane_get_view (pane));
              g_autofree char *text = tp_text_pane_dup_text (pane);
              g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
              size_t n_lines = tp_session_map_n_lines (session, (TpReading) p);

              g_assert_cmpstr (text, ==, tp_session_reading (session, (TpReading) p));
              g_assert_cmpuint (n_lines, >, 0);
              for (size_t l = 0; l < n_lines; l++)
                {
                  TpMapLine ml;
                  GtkTextIter iter;

                  g_assert_true (tp_session_map_line (session, (TpReading) p, l, &ml));
                  gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) l);
                  if (p != TP_PANE_STABLEHLO)
                    {
                      GString *want = g_string_new (NULL);
                      g_autofree char *first = NULL;
                      g_autofree char *last = NULL;
                      GtkTextIter end = iter;

                      if (ml.role == TP_ROLE_DERIVED || ml.role == TP_ROLE_GRADIENT
                          || (p == TP_PANE_PLAN && ml.node != TP_MAP_NO_NODE && ml.node >= spec_nodes))
                        g_string_append (want, "derived ");
                      if (ml.role == TP_ROLE_DIVIDER)
                        g_string_append (want, "divider ");
                      if (ml.role == TP_ROLE_KEPT)
                        g_string_append (want, "kept ");
                      if (ml.role == TP_ROLE_NOTE)
                        g_string_append (want, "note ");   /* it wraps, too */
                      if (ml.role == TP_ROLE_NOTE || ml.role == TP_ROLE_FOOTER)
                        g_string_append (want, "summary ");
                      if (want->len > 0)
                        g_string_truncate (want, want->len - 1);
                      if (lines[l][0] == '\0')
                        {
                          g_string_free (want, TRUE);
                          continue;
                        }
                      /* the line's first and last characters carry the
                       * decoration its role gives, and nothing else */
                      first = tags_at (&iter, "");
                      gtk_text_iter_forward_to_line_end (&end);
                      gtk_text_iter_backward_char (&end);
                      last = tags_at (&end, "");
                      g_assert_cmpstr (first, ==, want->str);
                      g_assert_cmpstr (last, ==, want->str);
                      g_string_free (want, TRUE);
                    }
                  else if (strlen (lines[l]) <= 400)
                    {
                      /* each byte's colour is the one of the token over it */
                      gsize len = strlen (lines[l]);

                      for (gsize b = 0; b < len; b = (gsize) (g_utf8_next_char (lines[l] + b) - lines[l]))
                        {
                          TpMapRef ref;
                          const char *want = NULL;
                          g_autofree char *got = NULL;
                          GtkTextIter at;

                          if (tp_session_map_ref_at (session, TP_READING_STABLEHLO, l, (uint32_t) b, &ref))
                            want = hlo_tag_of_class (ref.klass);
                          gtk_text_buffer_get_iter_at_line_index (buffer, &at, (int) l, (int) b);
                          got = tags_at (&at, "hlo-");
                          g_assert_cmpstr (got, ==, want != NULL ? want : "");
                        }
                    }
                }
            }

          /* the selection: every node of the spec in turn */
          for (uint32_t node = 0; node < spec_nodes && node < 40; node++)
            {
              tp_document_set_selected_node (document, (int) node);
              for (guint p = TP_PANE_SPEC; p <= TP_PANE_VALUES; p++)
                {
                  TpTextPane *pane = TP_TEXT_PANE (tp_window_get_pane (window, (TpPane) p));
                  GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_text_pane_get_view (pane));
                  GtkTextTagTable *table = gtk_text_buffer_get_tag_table (buffer);
                  GtkTextTag *sel = gtk_text_tag_table_lookup (table, "selected");
                  GtkTextTag *ref_tag = gtk_text_tag_table_lookup (table, "selected-ref");
                  size_t n_lines = tp_session_map_n_lines (session, (TpReading) p);

                  for (size_t l = 0; l < n_lines; l++)
                    {
                      TpMapLine ml;
                      GtkTextIter iter;

                      tp_session_map_line (session, (TpReading) p, l, &ml);
                      gtk_text_buffer_get_iter_at_line (buffer, &iter, (int) l);
                      g_assert_cmpint (gtk_text_iter_has_tag (&iter, sel), ==, ml.node == node);
                      if (p != TP_PANE_STABLEHLO)
                        continue;
                      for (uint32_t k = 0; k < ml.n_refs; k++)
                        {
                          TpMapRef ref;
                          GtkTextIter at;

                          tp_session_map_ref (session, TP_READING_STABLEHLO, ml.first_ref + k, &ref);
                          gtk_text_buffer_get_iter_at_line_index (buffer, &at, (int) l, (int) ref.start);
                          g_assert_cmpint (gtk_text_iter_has_tag (&at, ref_tag), ==,
                                           ref.klass == TP_TOKEN_SSA && ref.node == node && ml.node != node);
                        }
                    }
                }
            }
          tp_session_free (session);
          gtk_window_destroy (GTK_WINDOW (window));
        }
      return;
    }
  g_test_trap_subprocess (NULL, 3 * SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* The text the editor's source-span mark covers, or NULL. */
static char *
editor_span_text (TpWindow *window)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (tp_editor_get_view (tp_window_get_editor (window)));
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer), "tp-selected-span");
  GtkTextIter start, end;

  gtk_text_buffer_get_start_iter (buffer, &start);
  if (tag == NULL
      || (!gtk_text_iter_starts_tag (&start, tag) && !gtk_text_iter_forward_to_tag_toggle (&start, tag)))
    return NULL;
  end = start;
  gtk_text_iter_forward_to_tag_toggle (&end, tag);
  return gtk_text_buffer_get_text (buffer, &start, &end, TRUE);
}

/* Selecting a node the program never named (`x @ w`) marks the
 * characters of its expression in the editor, from the engine's source
 * spans; a named node marks its expression and its statement's line. */
static void
test_window_source_span (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = tp_test_window_new ();
      TpDocument *document = tp_window_get_document (window);
      TpTextPane *spec = TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_SPEC));
      GtkTextView *view = tp_text_pane_get_view (spec);
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
      g_autofree char *text = NULL;
      g_autofree char *span = NULL;
      const char *matmul;
      GtkTextIter iter;

      gtk_window_present (GTK_WINDOW (window));
      tp_document_set_text (document, "x = input [2, 3]\nw = parameter [3, 4]\ny = relu(x @ w)\nloss = sum(y * y)\n");
      tp_window_recompute_now (window);
      text = tp_text_pane_dup_text (spec);
      matmul = strstr (text, "MatMul");
      g_assert_nonnull (matmul);

      /* the reader clicks the MatMul line of the spec */
      gtk_widget_grab_focus (GTK_WIDGET (view));
      gtk_text_buffer_get_iter_at_offset (buffer, &iter, (int) g_utf8_pointer_to_offset (text, matmul));
      gtk_text_buffer_place_cursor (buffer, &iter);
      g_assert_cmpint (tp_document_get_selected_node (document), >=, 0);
      span = editor_span_text (window);
      g_assert_cmpstr (span, ==, "x @ w");
      g_assert_null (selected_editor_line (window));   /* no statement binds it */

      /* a named node: its expression and its line */
      tp_document_set_selected_node (document, tp_document_node_for_line (document, 4));
      g_clear_pointer (&span, g_free);
      span = editor_span_text (window);
      g_assert_cmpstr (span, ==, "sum(y * y)");
      g_assert_cmpstr (selected_editor_line (window), ==, "loss = sum(y * y)");

      /* nothing selected, nothing marked */
      tp_document_set_selected_node (document, -1);
      g_clear_pointer (&span, g_free);
      g_assert_null (editor_span_text (window));

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static gboolean
pane_is_dark (gpointer data)
{
  return tp_text_pane_get_dark (TP_TEXT_PANE (tp_window_get_pane (data, TP_PANE_DERIVATIVE)));
}

static gboolean
pane_is_light (gpointer data)
{
  return !pane_is_dark (data);
}

static char *
derived_colour (TpWindow *window)
{
  GtkTextView *view = tp_text_pane_get_view (TP_TEXT_PANE (tp_window_get_pane (window, TP_PANE_DERIVATIVE)));
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (gtk_text_view_get_buffer (view)),
                                               "derived");
  GdkRGBA *rgba = NULL;
  char *text;

  g_object_get (tag, "foreground-rgba", &rgba, NULL);
  text = gdk_rgba_to_string (rgba);
  gdk_rgba_free (rgba);
  return text;
}

/* The dark preference turns the readings' highlights, the editor's
 * scheme and the window's marks dark, and back. */
static void
test_window_dark_style (void)
{
  if (g_test_subprocess ())
    {
      TpWindow *window = window_new_on_readme ();
      GtkSettings *settings = gtk_settings_get_default ();
      TpEditor *editor = tp_window_get_editor (window);
      g_autofree char *light = NULL;
      g_autofree char *dark = NULL;

      gtk_window_present (GTK_WINDOW (window));
      g_assert_true (tp_test_wait_until (pane_is_light, window, 5));
      g_assert_cmpstr (tp_editor_get_scheme_id (editor), ==, "Adwaita");
      light = derived_colour (window);

      g_object_set (settings, "gtk-application-prefer-dark-theme", TRUE, NULL);
      g_assert_true (tp_test_wait_until (pane_is_dark, window, 5));
      g_assert_cmpstr (tp_editor_get_scheme_id (editor), ==, "topos-dark");
      g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "dark"));
      dark = derived_colour (window);
      g_assert_cmpstr (light, !=, dark);

      g_object_set (settings, "gtk-application-prefer-dark-theme", FALSE, NULL);
      g_assert_true (tp_test_wait_until (pane_is_light, window, 5));
      g_assert_cmpstr (tp_editor_get_scheme_id (editor), ==, "Adwaita");
      g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "dark"));

      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_test_trap_subprocess (NULL, SUBPROCESS_TIMEOUT, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  int status;

  tp_test_init (&argc, &argv);

  g_test_add_func ("/ui/window/dark-style", test_window_dark_style);
  g_test_add_func ("/ui/window/long-readings", test_window_long_readings);
  g_test_add_func ("/ui/window/folded-values", test_window_folded_values);
  g_test_add_func ("/ui/window/folded-stablehlo", test_window_folded_stablehlo);
  g_test_add_func ("/ui/window/stablehlo-colours", test_window_stablehlo_colours);
  g_test_add_func ("/ui/window/tags-follow-map", test_window_tags_follow_map);
  g_test_add_func ("/ui/window/source-span", test_window_source_span);

  status = g_test_run ();
  /* no raster thread may draw while the process exits */
  tp_picture_raster_wait_idle ();
  return status;
}
