/* tp-chart.h: a chart's axes as data (tp-engine.h, TpChart): the ranges,
 * the scale and a handful of labelled ticks, chosen once here so that the
 * engine's own SVG, the desktop's drawing and the page's show the same
 * axes. */
#ifndef TP_CHART_H
#define TP_CHART_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-chart.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include <stdbool.h>

#include "tp-buf.h"
#include "tp-engine.h"

/* The most ticks an axis gets; at most TP_CHART_LABELS of them are ever
 * chosen, so labels never pile up. */
#define TP_CHART_TICKS 8u
#define TP_CHART_LABELS 6u

typedef struct
{
  const char *title;
  const char *x_title;
  const char *y_title;
  double x_low, x_high;
  double y_low, y_high;
  bool y_log;
  TpTick x_ticks[TP_CHART_TICKS];
  TpTick y_ticks[TP_CHART_TICKS];
  uint32_t n_x_ticks, n_y_ticks;
  char labels[2 * TP_CHART_TICKS][TP_SHORT_NUMBER_MAX];
} TpChartData;

/* The horizontal axis: whole steps from 0 to last. */
void tp_chart_steps  (TpChartData *c, double last);
/* The vertical axis over values from lo to hi (the data's lowest and
 * highest finite values): logarithmic when allow_log, lo > 0 and hi is
 * more than a hundred times lo (then from the decade at or below lo to
 * the one at or above hi, at most TP_CHART_LABELS decades labelled);
 * else linear from a round number at or below lo (0 when lo >= 0 and
 * from_zero) to one at or above hi. */
void tp_chart_values (TpChartData *c, double lo, double hi, bool allow_log,
                      bool from_zero);
/* {"title", "x_title", "y_title", "x": [low, high], "y": [low, high],
 * "y_log", "x_ticks": [{"at", "value", "label"}], "y_ticks": [...]} */
void tp_chart_json   (const TpChart *c, TpBuf *out);
/* The public view of c (its ticks stay c's). */
void tp_chart_view   (const TpChartData *c, TpChart *out);

#endif /* TP_CHART_H */
