/* tp-teaching.h: the teaching results, made after the readings.
 *
 * The reader thread makes a program's six readings first and posts them
 * (tp-readings.h); then, from the same session, the teaching facts that
 * the Steps, Memory and Check panes and the sentence bar show, posted
 * separately and attached to those readings on the main thread
 * (tp_readings_attach_teaching, tp_readings_attach_check).  The check
 * comes last and alone: it is the one that can take long, and the next
 * edit interrupts it (tp_session_set_interrupt).  Everything is copied
 * out of the engine as it is: the sentences, each step's sentence, every
 * node's state after each step, the target, the memory peak and the
 * memory chart's axes. */
#pragma once

#include <glib.h>

#include "tp-engine.h"

G_BEGIN_DECLS

/* Elements of one node's value written in full for the step-through (a
 * bigger value is summarised), and the elements written for all nodes
 * together before the rest are left out. */
#define TP_STEP_VALUE_ELEMENTS 64
#define TP_STEP_VALUE_BUDGET (1u << 18)
/* The node states copied for the step-through: steps times nodes, past
 * which the picture is not veiled step by step. */
#define TP_STEP_STATES_BUDGET (UINT64_C (1) << 26)

/* A node whose state changed at a step (tp_session_node_states of the
 * step against the step before). */
typedef struct
{
  guint32 node;
  guint8 state;                 /* a TpNodeState */
} TpStateChange;

typedef struct
{
  guint n_nodes;
  char *explain;                /* the explain reading */
  char *memory;                 /* the memory reading */
  char **explanations;          /* n_nodes, NULL for none */
  TpOrigin *origins;            /* n_nodes; NULL when none */
  char **value_texts;           /* n_nodes, NULL past TP_STEP_VALUE_BUDGET */
  /* the schedule (tp_session_step), each node's step or G_MAXUINT,
   * each step's sentence (tp_session_step_text) */
  TpStep *steps;
  guint n_steps;
  guint *node_steps;
  char **step_texts;
  /* every node's state after step 0, then per later step what changed:
   * changes[change_at[k] .. change_at[k + 1]) for step k (NULL when
   * over TP_STEP_STATES_BUDGET) */
  guint8 *states;
  TpStateChange *changes;
  guint *change_at;
  guint target;                 /* tp_session_target, or G_MAXUINT */
  gboolean has_peak;            /* tp_session_memory_peak */
  guint64 peak_elements;
  guint peak_node;
  guint peak_step;
  gboolean has_chart;           /* tp_session_memory_chart, copied */
  TpChart memory_chart;
} TpTeaching;

/* The check (tp_session_check_summary and the check reading). */
typedef struct
{
  TpCheckSummary summary;       /* its verdict points into verdict */
  char *verdict;
  char *text;
} TpChecked;

/* Whether to go on: FALSE once a newer read was asked for. */
typedef gboolean (*TpTeachingGoOn) (gpointer data);

TpTeaching *tp_teaching_new_from_session (const TpSession *session,
                                          TpTeachingGoOn   go_on,
                                          gpointer         data);
void        tp_teaching_free             (TpTeaching      *self);
/* NULL when the check was interrupted or memory ran out. */
TpChecked  *tp_checked_new_from_session  (const TpSession *session);
void        tp_checked_free              (TpChecked       *self);

/* Every node's state after step @step into @states (n_nodes); FALSE
 * when they were not copied or @step is out of range. */
gboolean    tp_teaching_get_node_states  (const TpTeaching *self,
                                          guint             step,
                                          guint8           *states);

/* A deep copy of @chart (its titles, ticks and labels), freed with
 * tp_chart_clear. */
void        tp_chart_copy                (TpChart         *out,
                                          const TpChart   *chart);
void        tp_chart_clear               (TpChart         *chart);

/* @value in the engine's short format (tp_short_number), and a count
 * grouped (tp_grouped_number): newly allocated. */
char       *tp_short_number_dup          (double           value);
char       *tp_grouped_number_dup        (guint64          value);

G_END_DECLS
