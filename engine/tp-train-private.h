/* tp-train-private.h: a training's inside, shared by tp-train.c (the
 * descent, looking back, applying, the reading and JSON) and
 * tp-train-curve.c (the loss curve's axes, SVG and heading). */
#ifndef TP_TRAIN_PRIVATE_H
#define TP_TRAIN_PRIVATE_H

#if !defined (TP_ENGINE_COMPILATION) && !defined (TP_ENGINE_INTERNAL)
#error "tp-train-private.h is internal to the engine: outside it, include tp-engine.h"
#endif

#include "tp-buf.h"
#include "tp-chart.h"
#include "tp-train.h"

/* The loss curve, in tenths of a pixel (integer coordinates keep its
 * bytes the same on every platform). */
#define SVG_W 6400
#define SVG_H 3200
#define PLOT_LEFT 900
#define PLOT_RIGHT 6200
#define PLOT_TOP 300
#define PLOT_BOTTOM 2700

struct _TpTrain
{
  const TpAllocator *allocator;
  bool ok;
  char *error;
  uint32_t steps;
  float rate;
  char *target_name;
  float *losses;
  uint32_t n_losses;
  uint32_t n_wrt;
  char **names;
  TpShape *shapes;
  float **params;
  bool stopped;
  uint32_t stop_step;
  uint32_t stop_node;
  const char *stop_op;          /* static: the op table's name */
  TpShape stop_shape;
  uint64_t stop_element;        /* flat index into stop_shape */
  float stop_value;
  char *reading;
  size_t parameters_at;         /* where the reading's parameter lines start */
  char *svg;
  char *summary;
  TpChartData chart;

  /* looking back: the parameters after every `every`-th step, all of
   * them one after the other (kept[c] is step c * every) */
  uint32_t every;
  float **kept;
  uint32_t n_kept;
  uint64_t volume;              /* the parameters' elements together */
  char *source;                 /* the program, for replays and apply */
  size_t source_len;
  bool exact;
  TpSourceSpan *spans;          /* per parameter */
  TpSession *replay;            /* the program read again, on demand */
  char *at_text;                /* the last tp_train_parameters_at */
  char *short_text;             /* the last tp_train_parameters_short_at */
};

/* Whether x is neither NaN nor infinite. */
bool tp_train_finite      (float x);
/* The coordinates of the flat index element of shape, "[0, 1]" with
 * separator ", " (the reading) or "," (the JSON). */
void tp_train_put_element (TpBuf *out, const TpShape *shape,
                           uint64_t element, const char *separator);
/* The loss curve's axes, its SVG and the training's heading
 * (tp-train-curve.c); the last two false when memory runs out. */
void tp_train_make_chart    (TpTrain *t);
bool tp_train_write_svg     (TpTrain *t);
bool tp_train_write_summary (TpTrain *t);

#endif /* TP_TRAIN_PRIVATE_H */
