/* tp-pass-reading.h: one of the compiler's pass readings, copied out.
 *
 * The optimized, fusion, forward and jax readings are made only when a
 * pane (or "Copy as JAX") asks for them: the document's reader copies
 * one out of its session, for the compile whose readings are on screen,
 * and the document attaches it to those readings (tp_readings_attach_pass).
 * Beside the text: its reading map, and what the pane shows around it,
 * all the engine's: the fusion's saving in words (tp_session_fusion),
 * forward mode's direction error, its tangent steps' sentences
 * (tp_session_forward_step_text) and the parameters a direction can be
 * picked in (tp_session_names). */
#pragma once

#include <glib.h>

#include "tp-engine.h"

G_BEGIN_DECLS

/* What is made only when asked: the four pass readings (numbered as
 * their TpReading), the rematerialisation's candidates and sentence
 * (the Memory pane's row: tp_session_remat), the picture with the
 * fusion's kernels as clusters (tp_session_dot_kernels) and the picture
 * with forward mode's tangent band (tp_session_dot_tangent). */
typedef enum
{
  TP_PASS_OPTIMIZED = TP_READING_OPTIMIZED,
  TP_PASS_FUSION = TP_READING_FUSION,
  TP_PASS_FORWARD = TP_READING_FORWARD,
  TP_PASS_JAX = TP_READING_JAX,
  TP_PASS_REMAT,
  TP_PASS_KERNELS,
  TP_PASS_TANGENTS,
  TP_PASS_END
} TpPass;

#define TP_N_PASSES (TP_PASS_END - TP_PASS_OPTIMIZED)
#define TP_PASS_INDEX(pass) ((guint) (pass) - TP_PASS_OPTIMIZED)
#define TP_IS_PASS(pass) ((guint) (pass) >= TP_PASS_OPTIMIZED && (guint) (pass) < TP_PASS_END)
/* Whether @pass is a reading (its text and map are the session's). */
#define TP_PASS_IS_READING(pass) ((guint) (pass) >= TP_PASS_OPTIMIZED && (guint) (pass) <= TP_PASS_JAX)

/* A parameter a forward direction can be picked in: its display name
 * and its shape. */
typedef struct
{
  char *name;
  guint rank;
  guint *dims;
} TpPassParameter;

typedef struct
{
  TpPass which;
  char *text;                   /* the reading; the DOT for kernels and
                                   tangents ("" without a parameter); ""
                                   for remat */
  TpMapLine *lines;             /* the reading map (none for jax) */
  guint n_lines;
  TpMapRef *refs;
  guint n_refs;
  guint spec_nodes;             /* forward: its tangent nodes start here */
  char *sentence;               /* fusion: the saving in words; remat: the
                                   outcome, or what can be done; else NULL */
  /* remat: the nodes that can be rematerialised, and those that are */
  guint *candidates;
  guint n_candidates;
  guint *chosen;
  guint n_chosen;
  gboolean remat_auto;
  /* forward */
  char *direction_error;        /* why the direction asked for was not used */
  guint tangent_first;          /* tangent step k computes node first + k */
  guint n_tangent_steps;
  char **tangent_steps;         /* each step's sentence */
  TpPassParameter *parameters;
  guint n_parameters;
} TpPassReading;

/* Copies @which of @session's last compile, or NULL when it was
 * refused. */
TpPassReading *tp_pass_reading_new_from_session (const TpSession *session,
                                                 TpPass           which);
void           tp_pass_reading_free             (TpPassReading   *self);
/* Line @line's map entry, or NULL past the map. */
const TpMapLine *tp_pass_reading_get_line       (const TpPassReading *self,
                                                 guint                line);
/* The sentence of the tangent step that computes @node, or NULL. */
const char    *tp_pass_reading_get_tangent_step (const TpPassReading *self,
                                                 guint                node);

G_END_DECLS
