/* tp-text-pane-private.h: the text pane's instance, shared by its files:
 * tp-text-pane.c (the widget, its style, its signals), tp-text-decor.c
 * (the decoration from the reading map: line tags, StableHLO's token
 * colours, the selected node), tp-text-update.c (bringing the text up
 * to date in slices) and tp-text-names.c (the display names beside the
 * lines). */
#pragma once

#include <gtksourceview/gtksource.h>

#include "tp-document.h"
#include "tp-text-pane.h"

G_BEGIN_DECLS

/* StableHLO's token colours (tp-text-decor.c) */
#define TP_TEXT_HLO_N_KINDS 7

typedef struct _TpTextUpdate TpTextUpdate;

struct _TpTextPane
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkLabel *title_label;
  GtkLabel *stale_label;
  GtkWidget *copy_button;
  GtkWidget *focus_button;
  GtkScrolledWindow *scroller;
  GtkSourceView *view;
  GtkLabel *placeholder;

  /* Owned references */
  TpDocument *document;
  GtkSourceBuffer *buffer;
  TpReadings *shown;            /* the readings whose text the buffer holds */
  TpTextUpdate *update;         /* the readings on their way in, or NULL */
  guint8 *flags;                /* the LINE_* flags of the shown lines */
  guint n_flags;
  GtkTextTag *hlo_tags[TP_TEXT_HLO_N_KINDS];  /* StableHLO token colours */
  GtkTextTag *show_all_tag;     /* a folded line's "show all" control */
  GArray *expanded;             /* TpFold: the lines "show all" unfolded */
  GtkWidget *names;             /* the names gutter's renderer, or NULL */
  guint divider_idle;           /* scrolls to the derivative's divider */
  int divider_line;             /* the divider to scroll to, or -1 */

  TpPane pane;
  guint updating : 1;
  guint deferred : 1;           /* new readings wait for the pane to show */
  guint dark : 1;
  guint styled : 1;
  guint dirty : 1;              /* the buffer is not shown's text: a line was unfolded */
};

/* tp-text-names.c */
void          _tp_text_pane_init_names      (TpTextPane    *self);
void          _tp_text_pane_update_names    (TpTextPane    *self);

/* tp-text-decor.c */
int           _tp_text_line_node            (TpReadings    *readings,
                                             TpPane         pane,
                                             guint          line);
const TpFold *_tp_text_pane_fold            (TpTextPane    *self,
                                             TpReadings    *readings,
                                             guint          line);
int           _tp_text_pane_node_at_cursor  (TpTextPane    *self);
void          _tp_text_get_lines_bounds     (GtkTextBuffer *buffer,
                                             int            first,
                                             int            end,
                                             GtkTextIter   *a,
                                             GtkTextIter   *b);
guint8       *_tp_text_line_flags_new       (TpPane         pane,
                                             TpReadings    *readings,
                                             const char    *text,
                                             guint         *n_lines);
void          _tp_text_decorate_lines       (GtkTextBuffer *buffer,
                                             const guint8  *flags,
                                             int            first,
                                             int            end);
void          _tp_text_hlo_tag_line         (GtkTextBuffer *buffer,
                                             GtkTextTag   **tags,
                                             TpReadings    *readings,
                                             const TpFold  *fold,
                                             int            line,
                                             gsize          len);
void          _tp_text_pane_show_selected   (TpTextPane    *self);
void          _tp_text_pane_show_divider    (TpTextPane    *self);
void          _tp_text_pane_create_tags     (TpTextPane    *self);
void          _tp_text_pane_style_tokens    (TpTextPane    *self,
                                             GtkSourceStyleScheme *scheme);

/* tp-text-update.c */
void          _tp_text_pane_update_text     (TpTextPane    *self);
void          _tp_text_update_free          (TpTextUpdate  *update);
void          _tp_text_pane_cancel_update   (TpTextPane    *self);

G_END_DECLS
