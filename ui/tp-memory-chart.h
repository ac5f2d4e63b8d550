/* tp-memory-chart.h: the memory chart drawn from the engine's schedule
 * (tp_session_step, copied into TpReadings): one bar per step, from its
 * step to the last step its buffer is held, its element count beside it,
 * and the live-volume curve above the bars with the peak marked.  A click
 * on a bar selects its node in every pane; the selected node's bar is
 * highlighted; the step-through's cursor is a line at its step. */
#pragma once

#include <gtk/gtk.h>

#include "tp-types.h"

G_BEGIN_DECLS

#define TP_TYPE_MEMORY_CHART (tp_memory_chart_get_type ())

G_DECLARE_FINAL_TYPE (TpMemoryChart, tp_memory_chart, TP, MEMORY_CHART, GtkWidget)

GtkWidget *tp_memory_chart_new          (void);
void       tp_memory_chart_set_document (TpMemoryChart *self,
                                         TpDocument    *document);
/* The step-through's step, -1 for none. */
void       tp_memory_chart_set_cursor   (TpMemoryChart *self,
                                         int            step);
int        tp_memory_chart_get_cursor   (TpMemoryChart *self);
/* The step whose bar is highlighted (the selected node's), or -1. */
int        tp_memory_chart_get_highlighted (TpMemoryChart *self);
/* Step's bar in the chart's coordinates, for tests; FALSE when there is
 * no such step. */
gboolean   tp_memory_chart_get_bar      (TpMemoryChart   *self,
                                         guint            step,
                                         graphene_rect_t *bar);
/* How many steps' bars are wholly in sight below the curve, and what a
 * step's row says its buffer is (for tests). */
guint      tp_memory_chart_get_n_bars_shown (TpMemoryChart *self);
char      *tp_memory_chart_dup_bar_label (TpMemoryChart *self,
                                          guint          step);
/* Draws the rows first..last (clamped) and the curve at @top, as the
 * widget does; for the benchmark. */
void       tp_memory_chart_draw         (TpMemoryChart *self,
                                         cairo_t       *cr,
                                         int            width,
                                         double         top,
                                         double         height);

G_END_DECLS
