/* tp-picture-screen.c: the engine's DOT as the desktop lays it out (see
 * tp-picture-screen.h), applied to the graph as cgraph read it.
 *
 * The legend is the node with id "legend" (the engine writes it as its
 * last statement, a single node with no edges).  Its graph of its own
 * has the picture's graph attributes but its caption (the root graph's
 * label), the engine's node and edge defaults, and the node with the
 * values it set; it is taken out of the picture before the spacing is
 * set, so it keeps the engine's.  The spacing: the root graph's nodesep
 * and ranksep, and the margin of every node that takes the engine's
 * default (the engine's nodes set none of their own). */
#include "tp-picture-config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <cgraph.h>

#include "tp-picture-screen.h"

/* Sets @name to @value on @object of @graph, declared with "" when it is
 * new; an HTML label stays HTML (cgraph keeps that in the string). */
static void
set_value (Agraph_t   *graph,
           void       *object,
           char       *name,
           const char *value)
{
  if (aghtmlstr ((char *) value))
    {
      char *html = agstrdup_html (graph, (char *) value);

      agsafeset (object, name, html, (char *) "");
      agstrfree (graph, html);
    }
  else
    agsafeset (object, name, (char *) value, (char *) "");
}

/* The legend of @graph in a graph of its own, or NULL. */
static Agraph_t *
split_legend (Agraph_t *graph)
{
  Agnode_t *legend = NULL;
  Agraph_t *alone;
  Agnode_t *node;
  Agsym_t *sym;
  Agsym_t *id = agattr (graph, AGNODE, (char *) "id", NULL);

  for (Agnode_t *n = agfstnode (graph); n != NULL && id != NULL; n = agnxtnode (graph, n))
    if (strcmp (agxget (n, id), "legend") == 0)
      legend = n;
  if (legend == NULL || agfstout (graph, legend) != NULL || agfstin (graph, legend) != NULL)
    return NULL;

  alone = agopen ((char *) "legend", Agdirected, NULL);
  for (sym = agnxtattr (graph, AGRAPH, NULL); sym != NULL; sym = agnxtattr (graph, AGRAPH, sym))
    if (strcmp (sym->name, "label") != 0 && agxget (graph, sym)[0] != '\0')
      agattr (alone, AGRAPH, sym->name, agxget (graph, sym));
  for (sym = agnxtattr (graph, AGNODE, NULL); sym != NULL; sym = agnxtattr (graph, AGNODE, sym))
    if (sym->defval[0] != '\0')
      agattr (alone, AGNODE, sym->name, sym->defval);
  for (sym = agnxtattr (graph, AGEDGE, NULL); sym != NULL; sym = agnxtattr (graph, AGEDGE, sym))
    if (sym->defval[0] != '\0')
      agattr (alone, AGEDGE, sym->name, sym->defval);
  node = agnode (alone, agnameof (legend), 1);
  for (sym = agnxtattr (graph, AGNODE, NULL); sym != NULL; sym = agnxtattr (graph, AGNODE, sym))
    {
      const char *value = agxget (legend, sym);

      if (strcmp (value, sym->defval) != 0)
        set_value (alone, node, sym->name, value);
    }
  agdelnode (graph, legend);
  return alone;
}

/* The node whose class has the word "target": `nN`'s N, or -1. */
static int
find_target (Agraph_t *graph)
{
  Agsym_t *klass = agattr (graph, AGNODE, (char *) "class", NULL);

  for (Agnode_t *n = agfstnode (graph); n != NULL && klass != NULL; n = agnxtnode (graph, n))
    {
      g_auto(GStrv) words = g_strsplit (agxget (n, klass), " ", -1);
      const char *name = agnameof (n);

      if (g_strv_contains ((const char *const *) words, "target")
          && name[0] == 'n' && g_ascii_isdigit (name[1]))
        return (int) strtol (name + 1, NULL, 10);
    }
  return -1;
}

struct Agraph_s *
tp_screen_graph_split (struct Agraph_s *graph,
                       int             *target)
{
  Agraph_t *legend = split_legend (graph);
  Agsym_t *margin = agattr (graph, AGNODE, (char *) "margin", NULL);
  char *engine_margin = margin != NULL ? g_strdup (margin->defval) : NULL;

  *target = find_target (graph);
  agattr (graph, AGRAPH, (char *) "nodesep", (char *) TP_SCREEN_NODESEP);
  agattr (graph, AGRAPH, (char *) "ranksep", (char *) TP_SCREEN_RANKSEP);
  margin = agattr (graph, AGNODE, (char *) "margin", (char *) TP_SCREEN_MARGIN);
  for (Agnode_t *n = agfstnode (graph); n != NULL; n = agnxtnode (graph, n))
    if (engine_margin == NULL || strcmp (agxget (n, margin), engine_margin) == 0)
      agxset (n, margin, (char *) TP_SCREEN_MARGIN);
  g_free (engine_margin);
  return legend;
}
