/* tp-picture-screen.c: the engine's DOT as the desktop lays it out (see
 * tp-picture-screen.h).
 *
 * It edits the text, not a parsed graph, because the app links no
 * graphviz: the engine writes its graph, node and edge defaults as the
 * first three statements, the legend as the last one (a single node
 * with no edges, `  legend [id="legend", ...];`), and tags the target's
 * node with the class "target".  Spacing is overridden by statements
 * after the defaults and before the first node, so every node takes
 * them; the legend goes into a graph of its own with the same defaults.
 * A DOT in another shape is laid out as it is. */
#include "tp-picture-config.h"

#include <stdlib.h>
#include <string.h>

#include "tp-picture-screen.h"

#define LEGEND_START "\n  legend [id=\"legend\""

/* The end of the line that starts with @prefix (just past its '\n'),
 * searched from @from, or NULL. */
static const char *
after_line (const char *from,
            const char *prefix)
{
  const char *at = strstr (from, prefix);
  const char *end = at != NULL ? strchr (at, '\n') : NULL;

  return end != NULL ? end + 1 : NULL;
}

/* The node whose class names it the target: `  nN [id="nN", class="...
 * target..."`, or -1. */
static int
find_target (const char *dot)
{
  for (const char *at = strstr (dot, " target"); at != NULL; at = strstr (at + 1, " target"))
    {
      const char *line = at;
      const char *klass;

      while (line > dot && line[-1] != '\n')
        line--;
      klass = strstr (line, "class=\"");
      if (klass == NULL || klass > at || memchr (klass + 7, '"', (size_t) (at - klass - 7)) != NULL
          || (at[7] != '"' && at[7] != ' '))
        continue;
      while (*line == ' ')
        line++;
      if (line[0] == 'n' && g_ascii_isdigit (line[1]))
        return (int) strtol (line + 1, NULL, 10);
    }
  return -1;
}

void
tp_screen_dot_init (TpScreenDot *self,
                    const char  *dot)
{
  const char *graph_start = strstr (dot, "  graph [");
  const char *graph_end = graph_start != NULL ? after_line (graph_start, "  graph [") : NULL;
  const char *node_end = graph_end != NULL ? after_line (graph_end, "  node [") : NULL;
  const char *edge_end = node_end != NULL ? after_line (node_end, "  edge [") : NULL;
  const char *legend = edge_end != NULL ? strstr (edge_end, LEGEND_START) : NULL;
  GString *out;

  self->target = find_target (dot);
  self->legend = NULL;
  if (edge_end == NULL || !g_str_has_prefix (dot, "digraph "))
    {
      self->dot = g_strdup (dot);
      return;
    }
  out = g_string_new_len (dot, node_end - dot);
  g_string_append (out, "  graph [nodesep=" TP_SCREEN_NODESEP ", ranksep=" TP_SCREEN_RANKSEP "];\n");
  g_string_append_len (out, node_end, edge_end - node_end);
  g_string_append (out, "  node [margin=\"" TP_SCREEN_MARGIN "\"];\n");
  if (legend != NULL)
    {
      const char *legend_end = strstr (legend, ">];\n");

      g_string_append_len (out, edge_end, legend + 1 - edge_end);
      if (legend_end != NULL)
        {
          g_autoptr(GString) alone = g_string_new ("digraph legend {\n");

          g_string_append_len (alone, graph_start, edge_end - graph_start);
          g_string_append_len (alone, legend + 1, legend_end + 4 - (legend + 1));
          g_string_append (alone, "}\n");
          self->legend = g_string_free (g_steal_pointer (&alone), FALSE);
          g_string_append (out, legend_end + 4);
        }
    }
  else
    g_string_append (out, edge_end);
  self->dot = g_string_free (out, FALSE);
}

void
tp_screen_dot_clear (TpScreenDot *self)
{
  g_clear_pointer (&self->dot, g_free);
  g_clear_pointer (&self->legend, g_free);
  self->target = -1;
}
