/* tp-fold.h: the folding of long lines, as the panes show them.
 *
 * A line of a reading over TP_FOLD_LIMIT bytes is shown folded: its
 * start, " … ", its end, then a count and a "show all" control (the
 * suffix).  The worker thread decides it from the text's line lengths,
 * so no multi-megabyte line reaches the main thread's text views.  The
 * reading map's byte offsets refer to the full line: tp_fold_to_shown
 * and tp_fold_to_full translate.  Pure functions on text: no GTK, no
 * engine session (tests/ui/test-fold.c runs them without a display); the
 * limit, head and tail are the engine's defaults. */
#pragma once

#include <glib.h>

#include "tp-engine.h"

G_BEGIN_DECLS

/* the engine's defaults (tp_defaults), which the page folds by too */
#define TP_FOLD_LIMIT (tp_defaults ()->fold_limit)
#define TP_FOLD_HEAD (tp_defaults ()->fold_head)
#define TP_FOLD_TAIL (tp_defaults ()->fold_tail)
/* "show all" shows a line whole up to this many bytes, else folded
 * around this much of its start */
#define TP_FOLD_SHOW_ALL 32768

typedef struct
{
  guint line;
  gsize offset;       /* the full line's start in the reading's text */
  gsize length;       /* the full line's bytes, its '\n' not counted */
  gsize head;         /* bytes of its start shown */
  gsize tail;         /* bytes of its end shown */
  gsize marker;       /* bytes of the " … " between them (0: not folded) */
  gsize suffix;       /* bytes after the tail: the count and the control */
  gsize control;      /* of which the "show all" control, at the end */
  guint64 count;      /* elements (values), else characters */
  gboolean elements;
} TpFold;

/* What a line over the limit counts: its elements (*elements set; the
 * caller knows them, a values line's node value), else 0 for its
 * characters. */
typedef guint64 (*TpFoldCountFunc) (guint     line,
                                    gboolean *elements,
                                    gpointer  user_data);

char         *tp_fold_line     (const char      *line,
                                gsize            length,
                                gsize            head_max,
                                gsize            tail_max,
                                guint64          count,
                                gboolean         elements,
                                gboolean         offer,
                                TpFold          *fold);
gboolean      tp_fold_text     (const char      *text,
                                TpFoldCountFunc  count,
                                gpointer         user_data,
                                char           **shown,
                                TpFold         **folds,
                                guint           *n_folds);
const TpFold *tp_fold_find     (const TpFold    *folds,
                                guint            n_folds,
                                guint            line);
gsize         tp_fold_to_shown (const TpFold    *fold,
                                gsize            at);
gssize        tp_fold_to_full  (const TpFold    *fold,
                                gsize            at);

G_END_DECLS
