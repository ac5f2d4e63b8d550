/* tp-picture-screen.h: the engine's DOT as the desktop lays it out.
 *
 * The engine's DOT is a fixed format (golden tests compare it line for
 * line), and exports are exactly its bytes laid out.  On screen the
 * picture is set tighter so its labels can be read at the default
 * window size: the legend is laid out as a picture of its own (the pane
 * shows it on demand), and nodes, ranks and neighbours sit closer.
 * Only the layout's attributes change; every label, colour and id is
 * the engine's. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The screen's spacing, set after the engine's defaults (which are
 * nodesep=0.22, ranksep=0.32, margin="0.12,0.05"). */
#define TP_SCREEN_NODESEP "0.15"
#define TP_SCREEN_RANKSEP "0.2"
#define TP_SCREEN_MARGIN "0.07,0.03"

/* The point size of a node's first label line (its index and op), the
 * DOT's node fontsize: the pane's zoom keeps it readable. */
#define TP_SCREEN_LABEL_PT 11.0

typedef struct
{
  char *dot;          /* the graph, without its legend, set tighter */
  char *legend;       /* the legend alone as a graph, or NULL */
  int target;         /* the node the DOT marks as the target, or -1 */
} TpScreenDot;

void tp_screen_dot_init  (TpScreenDot *self,
                          const char  *dot);
void tp_screen_dot_clear (TpScreenDot *self);

G_END_DECLS
