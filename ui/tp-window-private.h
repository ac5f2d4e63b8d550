/* tp-window-private.h: the window's instance, shared by tp-window.c and
 * tp-window-actions.c. */
#pragma once

#include "tp-document.h"
#include "tp-editor.h"
#include "tp-lesson-pane.h"
#include "tp-picture-view.h"
#include "tp-teach-panel.h"
#include "tp-text-pane.h"
#include "tp-window.h"

G_BEGIN_DECLS

struct _TpWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkHeaderBar *header_bar;
  GtkMenuButton *recent_button;
  GtkMenuButton *samples_button;
  GtkMenuButton *primary_button;
  GtkLabel *title_label;
  GtkLabel *subtitle_label;
  GtkToggleButton *focus_toggle;
  GtkDropDown *target_dropdown;
  GtkStringList *target_list;
  GtkDropDown *observe_dropdown;
  GtkStringList *observe_list;
  GtkCheckButton *exact_check;
  GtkCheckButton *optimize_check;
  GtkBox *pane_switcher;
  GtkSpinner *busy_spinner;
  GtkPaned *paned;
  GtkPaned *teach_paned;
  TpTeachPanel *teach_panel;    /* check, memory, steps, train */
  TpEditor *editor;
  TpLessonPane *lesson_pane;    /* beside the editor, hidden at first */
  GtkStack *layout_stack;
  GtkGrid *panes_grid;
  GtkGrid *left_grid;           /* the tiled layout's columns: Tab goes */
  GtkGrid *right_grid;          /* down the left one, then the right */
  GtkBox *focus_box;
  GtkLabel *summary_label;
  GtkLabel *legend_label;
  GMenu *samples_section;
  GMenu *recent_section;
  GtkRevealer *toast_revealer;
  GtkLabel *toast_label;

  /* Owned references */
  TpDocument *document;
  GSettings *settings;
  char *sample_title;           /* the sample the text came from, if any */
  char *sample_comment;         /* its first comment (tp_document_get_comment) */

  /* Borrowed references: children of a column grid or focus_box */
  GtkWidget *panes[TP_N_PANES];
  GtkWidget *switcher_buttons[TP_N_PANES];

  GtkWidget *menu_focus;        /* weak: the focus before a menu opened */
  guint toast_source;
  guint editor_width_source;    /* keeps a dragged editor width, soon after */
  guint place_idle;             /* sets the editor's width and the teaching panes' height */

  GFile *jax_file;              /* Save as JAX: waits for the jax reading */
  int lesson_index;              /* the lesson's place in the course, or -1 */
  TpPane focus_pane;
  TpPane last_reading;          /* the reading that last had the focus */
  guint focus_layout : 1;
  guint updating_choices : 1;
  guint closing : 1;
  guint dark : 1;
  guint presenting : 1;
  guint was_fullscreen : 1;
  guint editor_placed : 1;      /* the editor's width is set for this window */
  guint teach_placed : 1;       /* the teaching panes' height too */
  guint placing : 1;            /* the window sets a paned's position itself */
  guint jax_copy : 1;           /* Copy as JAX: waits for the jax reading */
  guint copy_pass : 5;          /* Copy Reading: the TpPass waited for, or 0 */
};

void _tp_window_class_actions_init (GtkWidgetClass *widget_class);
void _tp_window_update_actions     (TpWindow       *self);
void _tp_window_update_recent      (TpWindow       *self);
void _tp_window_clear_recent       (TpWindow       *self);
void _tp_window_save_then_close    (TpWindow       *self);
void _tp_window_add_shortcuts      (TpWindow       *self);
void _tp_window_update_title       (TpWindow       *self);
void _tp_window_show_error         (TpWindow       *self,
                                    const char     *primary,
                                    GError         *error);
void _tp_window_set_start_folder   (TpWindow       *self,
                                    GtkFileChooser *chooser);

/* tp-window-passes.c: Optimise, Copy and Save as JAX */
void _tp_window_init_passes        (TpWindow        *self);

/* tp-window-layout.c */
void _tp_window_init_layout        (TpWindow        *self);
void _tp_window_attach_tiled       (TpWindow        *self,
                                    TpPane           pane);
void _tp_window_place_panes        (TpWindow        *self);
void _tp_window_switcher_clicked_cb (GtkToggleButton *button,
                                     TpWindow        *self);
void _tp_window_fullscreened_cb    (TpWindow        *self);

/* tp-window-lessons.c */
void _tp_window_class_lessons_init (GtkWidgetClass *widget_class);
void _tp_window_init_lessons       (TpWindow        *self);

/* tp-window-files.c */
void _tp_window_build_samples_menu (TpWindow        *self);
gboolean _tp_window_drop_cb        (GtkDropTarget   *target,
                                    const GValue    *value,
                                    double           x,
                                    double           y,
                                    TpWindow        *self);
gboolean _tp_window_close_request  (GtkWindow       *window);


G_END_DECLS
