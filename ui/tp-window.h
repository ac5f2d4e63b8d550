/* tp-window.h: a playground window: the editor, the six readings, the
 * choices and the summary line, for one TpDocument. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_WINDOW (tp_window_get_type ())

G_DECLARE_FINAL_TYPE (TpWindow, tp_window, TP, WINDOW, GtkApplicationWindow)

TpWindow   *tp_window_new                (GtkApplication      *application);
TpDocument *tp_window_get_document       (TpWindow            *self);
GtkWidget  *tp_window_get_pane           (TpWindow            *self,
                                          TpPane               pane);
TpEditor   *tp_window_get_editor         (TpWindow            *self);
void        tp_window_open_sample        (TpWindow            *self,
                                          const char          *sample_id);
void        tp_window_open_file          (TpWindow            *self,
                                          GFile               *file);
TpWindow   *tp_window_find_for_file      (GtkApplication      *application,
                                          GFile               *file);
gboolean    tp_window_present_for_file   (GtkApplication      *application,
                                          GFile               *file);
void        tp_window_save_and_close     (TpWindow            *self);
void        tp_window_export             (TpWindow            *self,
                                          const char          *format,
                                          GFile               *file);
/* Save as JAX without its dialog (tp-window-passes.c). */
void        tp_window_save_jax           (TpWindow            *self,
                                          GFile               *file);
void        tp_window_discard_and_close  (TpWindow            *self);
gboolean    tp_window_restore_draft      (TpWindow            *self,
                                          const char          *draft_id);
gboolean    tp_window_get_ready          (TpWindow            *self);
gboolean    tp_window_get_readings_ready (TpWindow            *self);
void        tp_window_recompute_now      (TpWindow            *self);
void        tp_window_set_focus_layout   (TpWindow            *self,
                                          gboolean             focus,
                                          TpPane               pane);
gboolean    tp_window_get_focus_layout   (TpWindow            *self);
void        tp_window_set_presenting     (TpWindow            *self,
                                          gboolean             presenting);
gboolean    tp_window_get_presenting     (TpWindow            *self);
void        tp_window_set_teaching       (TpWindow            *self,
                                          gboolean             teaching);
gboolean    tp_window_get_teaching       (TpWindow            *self);
const char *tp_window_get_summary        (TpWindow            *self);
char       *tp_window_dup_title          (TpWindow            *self);
const char *tp_window_get_toast          (TpWindow            *self);
void        tp_window_show_toast         (TpWindow            *self,
                                          const char          *text);
GtkDropDown *tp_window_get_target_dropdown  (TpWindow         *self);
GtkDropDown *tp_window_get_observe_dropdown (TpWindow         *self);
GtkMenuButton *tp_window_get_main_menu_button (TpWindow       *self);
/* The check, memory, steps and train panes under the readings. */
struct _TpTeachPanel *tp_window_get_teach_panel (TpWindow     *self);
/* Lessons (tp-window-lessons.c): the pane beside the editor, a lesson
 * of the built-in course or from a file (one ending in .lesson). */
void        tp_window_set_lessons        (TpWindow            *self,
                                          gboolean             lessons);
gboolean    tp_window_get_lessons        (TpWindow            *self);
void        tp_window_open_course_lesson (TpWindow            *self,
                                          guint                index);
void        tp_window_open_lesson_file   (TpWindow            *self,
                                          GFile               *file);
gboolean    tp_window_is_lesson_file     (GFile               *file);
struct _TpLessonPane *tp_window_get_lesson_pane (TpWindow     *self);
GMenuModel *tp_window_get_recent_section (TpWindow            *self);
gboolean    tp_window_save_png           (TpWindow            *self,
                                          const char          *path,
                                          GError             **error);
void        tp_window_screenshot_async   (TpWindow            *self,
                                          const char          *path,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
gboolean    tp_window_screenshot_finish  (TpWindow            *self,
                                          GAsyncResult        *result,
                                          GError             **error);

G_END_DECLS
