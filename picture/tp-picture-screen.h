/* tp-picture-screen.h: the engine's DOT as the desktop lays it out.
 *
 * The engine's DOT is a fixed format (golden tests compare it line for
 * line), and exports are exactly its bytes laid out.  On screen the
 * picture is set tighter so its labels can be read at the default
 * window size: the legend is laid out as a picture of its own (the pane
 * shows it on demand), and nodes, ranks and neighbours sit closer.  The
 * layout worker (tp-layout-worker.c) does it to the graph it has read,
 * with cgraph, for a TP_LAYOUT_REQUEST_SCREEN; only layout attributes
 * change, every label, colour and id is the engine's. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The screen's spacing, set over the engine's defaults (which are
 * nodesep=0.22, ranksep=0.32, margin="0.12,0.05"). */
#define TP_SCREEN_NODESEP "0.15"
#define TP_SCREEN_RANKSEP "0.2"
#define TP_SCREEN_MARGIN "0.07,0.03"

/* The point size of a node's first label line (its index and op), the
 * DOT's node fontsize: the pane's zoom keeps it readable. */
#define TP_SCREEN_LABEL_PT 11.0

/* cgraph's graph (Agraph_t). */
struct Agraph_s;

/* Sets @graph (the engine's DOT, read) as the screen lays it out: its
 * legend node (id "legend") moved into a graph of its own, returned
 * (NULL when there is none; the caller closes it), and the tighter
 * spacing.  *target is the node whose class names it the target (the
 * DOT's nN), or -1.  In the worker only: it runs cgraph. */
struct Agraph_s *tp_screen_graph_split (struct Agraph_s *graph,
                                        int             *target);

G_END_DECLS
